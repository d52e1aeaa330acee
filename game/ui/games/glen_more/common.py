"""What every section of the Glen More view shares: the tile catalogue (static data, from the
engine's ``tiles.catalogue()``), constants, the table's layout, and :class:`GMBase` — the
view's state read from the view dict and the seat's ``legal`` list, indexed by what a click can
hit (a track space, a cell of the territory, a cube, a market row).

The view is one class split along its sections, each a module with one mixin class that may use
everything of the modules before it (``common`` → ``text`` → ``input`` → ``scoring`` →
``track`` → ``territory`` → ``panel``) and :mod:`.view` puts them together, as the Kingdom
Builder view does.

Nothing here decides a rule: which track tile may be taken, where a tile may go, which tiles
may be activated, where a clan member may step — all of it is the seat's ``legal`` list as the
host sent it; costs, effects and edges are the tile data the engine plays with.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pygame

from game.glen_more.tiles import ACTIVATE_OPS, KIND_BY_ID, PLACE_OPS, RESOURCES, catalogue
from game.ui import palette as pal
from game.ui.composer import Composer, ComposerPanel
from game.ui.games.base import Action, GameView, SeatInfo
from game.ui.grids import SquareGrid

if TYPE_CHECKING:
    from game.ui.app import App

Cell = tuple[int, int]

#: Every tile kind by id (``"S1-05"``, ``"START"``): the data file's entry plus ``kind``,
#: ``cost_text`` and ``edge_class`` (``game.glen_more.tiles.catalogue``).
TILES: dict[str, dict[str, Any]] = {entry["id"]: entry for entry in catalogue()}

#: The five resources in market-row order (wood, stone, grain, cattle, sheep).
RESOURCE_NAMES: tuple[str, ...] = RESOURCES

#: The score categories of the results, in the order of ``scores()`` (GM §7).
SCORE_CATEGORIES = (
    "tile_points",
    "scoring_1",
    "scoring_2",
    "scoring_3",
    "coins",
    "tile_penalty",
    "loch_morar",
    "duart_castle",
    "iona_abbey",
)
#: The three counts compared in every scoring round (GM §7.1).
ROUND_CATEGORIES = ("whisky", "chieftains", "specials")
#: The end-game special tiles' score categories (GM §7.2), as the final record names them.
END_CATEGORIES = ("loch_morar", "duart_castle", "iona_abbey")

#: Tile border colours by category (the printed tiles' frames: GM §4.3).
CATEGORY_COLOURS: dict[str, pal.RGB] = {
    "production_yellow": (222, 184, 64),
    "production_green": (98, 168, 76),
    "brown_scoring": (156, 104, 62),
    "grey_clan": (150, 150, 160),
    "loch": (66, 126, 198),
}
#: Cube colours (GM §1: wood green, stone grey, grain yellow, cattle brown, sheep white); every
#: cube also has its own silhouette (``art.draw_resource``) so colour is never the only cue.
RESOURCE_COLOURS: dict[str, pal.RGB] = {
    "wood": (58, 140, 64),
    "stone": (146, 148, 156),
    "grain": (240, 204, 72),
    "cattle": (142, 88, 48),
    "sheep": (244, 244, 236),
}
#: The same with the colour-blind setting: clearly different lightness as well as hue.
RESOURCE_COLOURS_CB: dict[str, pal.RGB] = {
    "wood": (0, 114, 80),
    "stone": (120, 124, 134),
    "grain": (240, 228, 66),
    "cattle": (160, 82, 20),
    "sheep": (250, 250, 250),
}
RIVER = (70, 140, 214)
ROAD = (206, 178, 126)
GOLD = (255, 200, 60)
COIN = (240, 196, 60)
WHISKY = (176, 110, 52)
LOCH_NESS = (120, 200, 255)


def slug(name: str) -> str:
    """A tile name as a key: ``"Pasture (sheep)"`` → ``pasture_sheep``."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def tile_of(tile_id: Any) -> dict[str, Any] | None:
    """The catalogue entry of ``tile_id`` (None for anything the data does not know)."""
    return TILES.get(tile_id) if isinstance(tile_id, str) else None


def tile_slug(tile_id: Any) -> str:
    entry = tile_of(tile_id)
    return slug(entry["name"]) if entry else ""


def tile_ops(tile_id: Any, on_placement: bool) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The placement and activation operations of a tile under the clan-member option, as the
    engine plays them (``tiles.PLACE_OPS`` / ``ACTIVATE_OPS``: GM §4.3)."""
    kind = KIND_BY_ID.get(tile_id) if isinstance(tile_id, str) else None
    if kind is None:
        return [], []
    mode = 1 if on_placement else 0
    return list(PLACE_OPS[mode][kind]), list(ACTIVATE_OPS[mode][kind])


#: Every tile name in the data, as keys (for the catalogues and the help).
TILE_SLUGS: tuple[str, ...] = tuple(dict.fromkeys(slug(e["name"]) for e in TILES.values()))


def cell_of(value: Any) -> Cell:
    """A cell from a view's ``[row, col]`` pair."""
    return (int(value[0]), int(value[1]))


def around(cell: Cell) -> list[Cell]:
    """The eight cells around ``cell`` (GM §4.2 clan adjacency, §4.3 activation)."""
    return SquareGrid.around(*cell)


@dataclass
class Layout:
    """Where the parts of the table go (window pixels)."""

    track: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    step: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    header: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    grid: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    others: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    log: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))


@dataclass
class Legal:
    """The seat's legal actions indexed by what a click can hit."""

    takes: dict[int, Action] = field(default_factory=dict)
    discards: dict[int, Action] = field(default_factory=dict)
    places: dict[Cell, Action] = field(default_factory=dict)
    pays: dict[Cell, list[Action]] = field(default_factory=dict)
    pay_clans: dict[Cell, Action] = field(default_factory=dict)
    buys: dict[str, Action] = field(default_factory=dict)
    sells: dict[str, list[Action]] = field(default_factory=dict)
    activates: dict[Cell, Action] = field(default_factory=dict)
    loch_ness: dict[Cell, Action] = field(default_factory=dict)
    moves: dict[Cell, dict[Cell, Action]] = field(default_factory=dict)
    chieftains: dict[Cell, Action] = field(default_factory=dict)
    choices: list[Action] = field(default_factory=list)  # ("option", i) / ("resource", r)
    done: Action | None = None
    end: Action | None = None

    @classmethod
    def index(cls, legal: list[Action]) -> Legal:
        out = cls()
        for a in legal:
            kind = a[0] if a else None
            try:
                if kind == "take" and len(a) == 2:
                    out.takes[int(a[1])] = a
                elif kind == "discard" and len(a) == 2:
                    out.discards[int(a[1])] = a
                elif kind == "place" and len(a) == 3:
                    out.places[(int(a[1]), int(a[2]))] = a
                elif kind == "pay" and len(a) == 4:
                    out.pays.setdefault((int(a[1]), int(a[2])), []).append(a)
                elif kind == "pay_clan" and len(a) == 3:
                    out.pay_clans[(int(a[1]), int(a[2]))] = a
                elif kind == "buy" and len(a) == 2:
                    out.buys[str(a[1])] = a
                elif kind == "sell" and len(a) == 4:
                    out.sells.setdefault(str(a[3]), []).append(a)
                elif kind == "activate" and len(a) == 3:
                    out.activates[(int(a[1]), int(a[2]))] = a
                elif kind == "loch_ness" and len(a) == 3:
                    out.loch_ness[(int(a[1]), int(a[2]))] = a
                elif kind == "move" and len(a) == 5:
                    src, dst = (int(a[1]), int(a[2])), (int(a[3]), int(a[4]))
                    out.moves.setdefault(src, {})[dst] = a
                elif kind == "chieftain" and len(a) == 3:
                    out.chieftains[(int(a[1]), int(a[2]))] = a
                elif kind in ("option", "resource") and len(a) == 2:
                    out.choices.append(a)
                elif kind == "done" and len(a) == 1:
                    out.done = a
                elif kind == "end" and len(a) == 1:
                    out.end = a
            except (TypeError, ValueError):
                continue  # a malformed entry is not offered
        far = [
            c
            for c in (*out.places, *out.pays, *out.activates, *out.loch_ness)
            if max(abs(c[0]), abs(c[1])) > 60
        ]
        for c in far:  # no territory reaches that far: not a cell the table can show
            out.places.pop(c, None)
            out.pays.pop(c, None)
            out.activates.pop(c, None)
            out.loch_ness.pop(c, None)
        return out

    def on_board(self) -> bool:
        """Whether the seat chooses something on its territory now."""
        return bool(
            self.places
            or self.pays
            or self.pay_clans
            or self.activates
            or self.loch_ness
            or self.moves
            or self.chieftains
        )


class GMBase(GameView):
    """The Glen More view's state and shared helpers (see the module docstring)."""

    game_id = "glen-more"
    has_secrets = True

    def __init__(self, app: App, seats: list[SeatInfo]) -> None:
        super().__init__(app, seats)
        self.rects = Layout()
        self.acts = Legal()
        #: Each seat's territory: cell -> the view's tile entry.
        self.territories: list[dict[Cell, dict[str, Any]]] = []
        #: The seat whose territory is drawn large while the player looks at another one
        #: (None: the usual one, see :meth:`big_seat`).
        self.focus: int | None = None
        self.mouse = (-1, -1)
        self.clock = 0.0
        #: A market trade waiting for Confirm (its price shown first): a buy or sell action.
        self.trade: Action | None = None
        #: The clan member chosen to move or to become a chieftain (move step).
        self.move_from: Cell | None = None
        #: Loch Ness first: a click on a tile that both activations could reach uses Loch Ness.
        self.ness_mode = False
        #: The grid of the big territory and of each compact one (seat -> grid, box).
        self.big_grid: SquareGrid | None = None
        self.small_grids: dict[int, tuple[SquareGrid, pygame.Rect]] = {}
        #: Where the last frame drew clickable things (window pixels).
        self.slot_rects: dict[int, pygame.Rect] = {}
        self.cube_rects: list[tuple[pygame.Rect, int, Cell, str]] = []
        self.market_rows: dict[str, pygame.Rect] = {}
        self.buy_rects: dict[str, pygame.Rect] = {}
        self.sell_rects: dict[str, pygame.Rect] = {}
        self.other_boxes: dict[int, pygame.Rect] = {}
        self.card_rects: list[tuple[pygame.Rect, str]] = []
        self.stack_rect = pygame.Rect(0, 0, 0, 0)
        self.score_chip_rects: list[tuple[pygame.Rect, int]] = []
        self.back_rect = pygame.Rect(0, 0, 0, 0)
        #: Cells of other seats' territories placed since the shown seat's last turn.
        self.recent: dict[int, set[Cell]] = {}
        self.last_roll: int | None = None
        #: The winners, from the ``game_over`` event (the view dict does not carry them).
        self.winners: list[int] = []
        #: A sale waiting for the tile its cube leaves (several tiles hold that resource).
        self.sell_pick: str | None = None
        #: The other players' boxes as drawn last: (key, layer, chip texts, score chips).
        self._others_layer: tuple[Any, pygame.Surface, list[Any], list[Any]] | None = None
        #: Wrapped lines of texts drawn every frame, by (text, size, width, bold).
        self._wrapped: dict[tuple[str, int, int, bool], list[str]] = {}
        #: Counters in the header and the boxes, with their hover texts.
        self.chip_texts: list[tuple[pygame.Rect, str]] = []
        #: A choice of a butcher's or fair's option, or of a resource, value by value.
        self.composer = Composer()
        self.choice_panel = ComposerPanel(
            app,
            self.composer,
            lambda i, v, prefix: self._choice_label(i, v, prefix),
            lambda c: self._choice_field(c),
            id_prefix="gm_choice",
        )

    def _choice_label(self, index: int, value: Any, prefix: Action) -> str:
        return str(value)

    def _choice_field(self, composer: Composer) -> str:
        return composer.field_name()

    # ---- the view dict -----------------------------------------------------------------------
    @property
    def you(self) -> int | None:
        you = self.view.get("you")
        return you if isinstance(you, int) and 0 <= you < len(self.view.get("seats", [])) else None

    @property
    def current(self) -> int | None:
        cur = self.view.get("current")
        return cur if isinstance(cur, int) else None

    @property
    def pending(self) -> dict[str, Any]:
        p = self.view.get("pending")
        return p if isinstance(p, dict) else {}

    @property
    def phase(self) -> str:
        return str(self.pending.get("phase") or "")

    def seat_view(self, seat: int) -> dict[str, Any]:
        seats = self.view.get("seats") or []
        return seats[seat] if 0 <= seat < len(seats) else {}

    def n_seats(self) -> int:
        return len(self.view.get("seats") or [])

    def on_placement(self) -> bool:
        """The clan-member option: grey tiles give their clan member when placed (GM §4.3)."""
        return (self.view.get("options") or {}).get("grey_clan_members") == "on_placement"

    def big_seat(self) -> int:
        """Whose territory is drawn large: the one the player chose to look at, else the
        shown seat's own, else (a spectator) the seat to move."""
        n = self.n_seats()
        if self.focus is not None and 0 <= self.focus < n:
            return self.focus
        if self.you is not None:
            return self.you
        if self.current is not None and 0 <= self.current < n:
            return self.current
        return 0

    def my_turn(self) -> bool:
        """The shown seat may act now (it has legal actions)."""
        return bool(self.legal) and self.you is not None

    def cubes(self, entry: dict[str, Any]) -> list[str]:
        """A tile's cubes as a list of resource names, in market order."""
        res = entry.get("resources") or {}
        out: list[str] = []
        for r in RESOURCE_NAMES:
            n = res.get(r, 0)
            if isinstance(n, int) and n > 0:
                out.extend([r] * min(n, 3))
        return out[:3]

    # ---- drawing helpers ---------------------------------------------------------------------
    def _speed(self) -> float:
        return self.app.settings.animation_speed

    def _cb(self) -> bool:
        return self.app.settings.colour_blind

    def _seat_rgb(self, seat: int) -> pal.RGB:
        name = self.seats[seat].colour if 0 <= seat < len(self.seats) else ""
        return pal.seat_colour(name, self._cb())

    def _swatch(self, seat: int, size: int) -> pygame.Surface:
        name = self.seats[seat].colour if 0 <= seat < len(self.seats) else ""
        return pal.seat_swatch(name, seat, size, self._cb())

    def _name(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.seats):
            return "?"
        return self.seats[seat].name

    def _res_rgb(self, res: str) -> pal.RGB:
        table = RESOURCE_COLOURS_CB if self._cb() else RESOURCE_COLOURS
        return table.get(res, (128, 128, 128))

    def _wrap(self, text: str, size: int, width: int, bold: bool = False) -> list[str]:
        """``text`` in lines that fit ``width``: at spaces, and inside a word (or a run of
        Japanese) that is longer than the width by itself."""
        cache_key = (text, size, width, bold)
        cached = self._wrapped.get(cache_key)
        if cached is not None:
            return cached
        if len(self._wrapped) > 512:
            self._wrapped.clear()
        fonts = self.app.fonts
        out: list[str] = []
        for line in fonts.wrap_lines(text, size, width, bold):
            while line and fonts.size(line, size, bold)[0] > width:
                cut = len(line) - 1
                while cut > 1 and fonts.size(line[:cut], size, bold)[0] > width:
                    cut -= 1
                out.append(line[:cut])
                line = line[cut:].lstrip()
            if line:
                out.append(line)
        self._wrapped[cache_key] = out
        return out

    def _lines(
        self, text: str, size: int, colour: pal.RGB, width: int, max_lines: int, bold: bool = False
    ) -> list[pygame.Surface]:
        """At most ``max_lines`` rendered lines of ``text`` (the last cut with "...")."""
        fonts = self.app.fonts
        lines = self._wrap(text, size, width, bold)
        if len(lines) > max_lines > 0:
            lines = lines[:max_lines]
            lines[-1] = fonts.ellipsize(lines[-1] + " ...", size, width, bold)
        return [fonts.render(line, size, colour, bold) for line in lines[: max(0, max_lines)]]

    def _text(
        self,
        surface: pygame.Surface,
        text: str,
        size: int,
        colour: pal.RGB,
        pos: tuple[int, int],
        width: int,
        bold: bool = False,
        anchor: str = "topleft",
        minimum: int = 9,
    ) -> pygame.Rect:
        """``text`` shrunk (down to ``minimum``) and cut to fit ``width`` pixels, placed by
        ``anchor`` at ``pos``; returns where it went."""
        fonts = self.app.fonts
        if width <= 4:
            return pygame.Rect(pos, (0, 0))
        s = fonts.fit(text, size, width, bold, minimum=minimum)
        img = fonts.render(fonts.ellipsize(text, s, width, bold), s, colour, bold)
        rect = img.get_rect(**{anchor: pos})
        surface.blit(img, rect)
        return rect
