"""What every section of the Keyflower view shares: the box's static tile data (names, edges,
sides — read from the engine's data file, never a rule), the view's state and its small
helpers.

The view is one class split along its sections, each a module with one mixin that may use
everything of the modules before it (``common`` → ``text`` → ``input`` → ``scoring`` → ``board``
→ ``village`` → ``panel``) and :mod:`.view` puts them together (the structure of the Kingdom
Builder view).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pygame

from game.keyflower.tiles import INDEX, TILES, TileDef
from game.ui import palette as pal
from game.ui.composer import Composer
from game.ui.games.base import GameView, SeatInfo
from game.ui.games.keyflower import art

if TYPE_CHECKING:
    from game.ui.app import App
    from game.ui.games.keyflower.motion import Anim
    from game.ui.games.keyflower.scoring import Scoring

Cell = tuple[int, int]

COLOURS = ("red", "blue", "yellow", "green")
RESOURCES = ("wood", "stone", "iron", "gold")
SKILLS = ("saw", "pickaxe", "anvil")
SEASONS = ("spring", "summer", "autumn", "winter")
#: The score categories in the engine's order (``docs/keyflower.md``, "Scores").
CATEGORIES = ("tiles", "turn_order", "boats", "storage", "winter", "gold")
EDGE_NAMES = ("road", "river", "field")


def as_dict(value: Any) -> dict[str, Any]:
    """``value`` if it is a dict, else an empty one (a view is never trusted)."""
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> list[Any]:
    """``value`` if it is a list, else an empty one."""
    return value if isinstance(value, list) else []


def tile_def(tile_id: Any) -> TileDef | None:
    """The box's data of a tile id (None for anything unknown: a view is never trusted)."""
    if isinstance(tile_id, str):
        i = INDEX.get(tile_id)
        if i is not None:
            return TILES[i]
    return None


def side_index(tile: TileDef, face: Any) -> int:
    """The index of the side showing ``face`` (front/upgraded, a/b, A/B); 0 if unknown."""
    for i, side in enumerate(tile.sides):
        if side.face == face:
            return i
    return 0


def rotated_edges(tile: TileDef, rot: int) -> tuple[str, ...]:
    """The edge on each side 0..5 of a tile placed with rotation ``rot`` (``docs/keyflower.md``,
    "Positions": side ``p`` shows the data's edge ``(p - rot) mod 6``)."""
    return tuple(EDGE_NAMES[tile.edges[(p - rot) % 6]] for p in range(6))


def base_colour(tile: TileDef) -> pal.RGB:
    if tile.kind == "home":
        return art.TILE_RGB["home"]
    if tile.kind in ("boat", "turn_order", "summer_boat"):
        return art.TILE_RGB[tile.kind]
    return art.TILE_RGB.get(SEASONS[tile.season] if 0 <= tile.season < 4 else "home", (150,) * 3)


def side_tokens(tile: TileDef, side: int) -> tuple[art.Token, ...]:
    """A side's effect as a row of icons (what the printed tile shows)."""
    if not 0 <= side < len(tile.sides):
        return ()
    s = tile.sides[side]
    out: list[art.Token] = []

    def items(values: tuple[int, ...], names: tuple[str, ...], kind: str) -> None:
        for i, n in enumerate(values):
            if n:
                if out and out[-1][0] not in ("arrow",):
                    out.append(("plus",))
                if n > 1:
                    out.append(("n", n))
                out.append((kind, names[i]))

    if tile.kind == "boat":
        return ()
    if tile.kind == "turn_order":
        return (("n", tile.number),)
    if s.action == "produce":
        items(s.produce, RESOURCES, "r")
    elif s.action == "produce_choice":
        if s.choice[0] > 1:
            out.append(("n", s.choice[0]))
        out.append(("r", "choice"))
    elif s.action == "gain_keyples":
        if s.random_keyples:
            out += (
                [("n", s.random_keyples), ("k", "rand")]
                if s.random_keyples > 1
                else [("k", "rand")]
            )
        if s.green:
            out += [("n", s.green), ("k", "green")] if s.green > 1 else [("k", "green")]
        if s.choice_keyples:
            out += [("k", "choice")]
    elif s.action == "gain_skills":
        if s.random_skills > 1:
            out.append(("n", s.random_skills))
        out.append(("s", "rand"))
    elif s.action == "exchange":
        for c, n in enumerate(s.pay_colours):
            if n:
                out.append(("k", COLOURS[c]))
        if s.pay_any_keyple:
            out.append(("k", "any"))
        for k, n in enumerate(s.pay_skills):
            if n:
                out.append(("s", SKILLS[k]))
        if s.pay_any_skill:
            out.append(("s", "any"))
        out.append(("arrow",))
        items(s.produce, RESOURCES, "r")
        if s.green:
            out += ([("n", s.green)] if s.green > 1 else []) + [("k", "green")]
        if s.random_keyples:
            out += ([("n", s.random_keyples)] if s.random_keyples > 1 else []) + [("k", "rand")]
        if s.random_skills:
            out += ([("n", s.random_skills)] if s.random_skills > 1 else []) + [("s", "rand")]
    elif s.action == "transport":
        out += [("wagon",), ("n", s.transport), ("house",), ("n", s.upgrade)]
    elif s.store is not None:
        kinds, rate = s.store
        if len(kinds) >= 4:
            out.append(("r", "any"))
        else:
            out.append(("r", RESOURCES[kinds[0]]))
        out += [("x",), ("vp", rate)]
    elif s.score is not None:
        out += _score_tokens(s.score)
    elif s.special is not None:
        out += _special_tokens(s.special, s.amount)
    return tuple(out)


def _score_tokens(score: dict[str, Any]) -> list[art.Token]:
    """A winter tile's scoring as icons: what to assign, then the VP."""
    if "vp" in score and "items" not in score:
        return [("vp", int(score["vp"]))]
    family = str(score.get("items", ""))
    letter = {"keyples": "k", "resources": "r", "skills": "s"}.get(family, "k")
    wanted = dict(score.get("set") or {})
    out: list[art.Token] = []
    if "any" in wanted:
        out += [("n", int(wanted["any"])), (letter, "any")]
    elif "same" in wanted:
        out += [("eq",), (letter, "any")]
    else:
        for i, (kind, n) in enumerate(wanted.items()):
            if i:
                out.append(("plus",))
            if int(n) > 1:
                out.append(("n", int(n)))
            out.append((letter, str(kind)))
    out += [("arrow",), ("vp", int(score.get("vp", 0)))]
    return out


def _special_tokens(special: str, amount: int) -> list[art.Token]:
    if special.endswith("random_keyples"):
        return [("n", amount), ("k", "rand")]
    if special.endswith("green_keyples"):
        return [("k", "green")]
    if special.startswith("adjacent"):
        return [("wagon",), ("k", "any")]
    if special.startswith("double"):
        return [("x",), ("n", 2), ("wagon",)]
    if special == "resources_wild_for_upgrades":
        return [("r", "any"), ("house",)]
    if special == "resources_wild_for_scoring":
        return [("r", "any"), ("vp", "*")]
    if special.startswith("bid"):
        return [("k", "any"), ("n", "?")]
    return [("k", "any"), ("arrow",)]


@dataclass
class Hit:
    """Something clickable or hoverable drawn in the last frame: a tile hex (``hex_r`` > 0, a
    circle of that radius around ``centre``) or a rectangle."""

    kind: str  # tile | bid | chip | option | seat | village | hand | supply | boat | res
    key: Any
    rect: pygame.Rect
    centre: tuple[float, float] = (0.0, 0.0)
    hex_r: float = 0.0
    data: dict[str, Any] = field(default_factory=dict)

    def contains(self, pos: tuple[int, int]) -> bool:
        if self.hex_r > 0:
            dx = abs(pos[0] - self.centre[0])
            dy = abs(pos[1] - self.centre[1])
            r = self.hex_r
            # inside a flat-topped hex
            return dy <= r * 0.866 and dx <= r - dy * 0.5774 * 1.0
        return self.rect.collidepoint(pos)


class KFBase(GameView):
    """The Keyflower view's state and shared helpers (see the module docstring)."""

    game_id = "keyflower"
    has_secrets = True

    def __init__(self, app: App, seats: list[SeatInfo]) -> None:
        super().__init__(app, seats)
        self.composer = Composer(
            fields={
                "bid": ("tile", "colour", "count"),
                "use": ("tile", "colour", "count"),
                "place": ("tile", "q", "r", "rotation"),
                "upgrade": ("tile",),
                "move": ("tile", "resource"),
            }
        )
        #: The previous view dict (animations start where things were).
        self.prev: dict[str, Any] = {}
        self.anims: list[Anim] = []
        self.clock = 0.0
        self.mouse = (-1, -1)
        #: Clickable and hoverable things of the last frame.
        self.hits: list[Hit] = []
        #: Where things were drawn in the last frame (tile id / "seat:N" / "bag" -> point).
        self.spots: dict[str, tuple[float, float]] = {}
        #: The village shown large (None: the viewing seat's, else the current seat's).
        self.focus_seat: int | None = None
        self.zoom = 1.0
        #: The point of the large village (relative to its box) the wheel zooms about.
        self.zoom_at: tuple[int, int] | None = None
        #: Tiles others touched since the viewing seat last acted (the "what changed" glow).
        self.recent: dict[str, int] = {}
        #: The tile picked in the transport stage (its moves and upgrades are listed).
        self.picked: str | None = None
        #: Placement: the hex and rotation of the ghost of the selected tile.
        self.ghost: tuple[int, int] | None = None
        self.ghost_rot = 0
        #: Winter: the tiles ticked to put up.
        self.winter_sel: set[str] = set()
        #: Boats: the boat picked (Confirm takes it).
        self.boat_pick: str | None = None
        self.scoring: Scoring | None = None
        #: After the sequence: the (category, seat) the mouse points at in the panel.
        self.hover_focus: tuple[str, int] | None = None
        #: The option buttons of the action box: (rect, what a click does, label).
        self.options: list[tuple[pygame.Rect, Any, str]] = []
        self.layers: dict[str, tuple[tuple[Any, ...], pygame.Surface]] = {}
        self.season_rect = pygame.Rect(0, 0, 0, 0)
        self.villages_rect = pygame.Rect(0, 0, 0, 0)
        self.big_rect = pygame.Rect(0, 0, 0, 0)
        self.compact_rects: dict[int, pygame.Rect] = {}
        self.seat_rows: dict[int, pygame.Rect] = {}
        self.action_rect = pygame.Rect(0, 0, 0, 0)
        self.screen_rect = pygame.Rect(0, 0, 0, 0)
        self.players_rect = pygame.Rect(0, 0, 0, 0)
        #: Texts that did not fit even at the smallest size (tests check none do).
        self.overflows: list[str] = []
        #: The faces of tiles won this season (summer boats keep theirs until placed).
        self._won_faces: dict[str, str] = {}
        #: While the old season board is painted for the end of a season: its bids are flying.
        self._bids_flying = False
        self._hits_season: list[Hit] = []
        self._hits_villages: list[Hit] = []
        self._hits_panel: list[Hit] = []
        self.options_scroll = 0
        #: Bumped by every new view (cached layers are keyed by it).
        self._serial = 0
        self._village_hits: dict[str, list[Hit]] = {}
        self.compact_grids: dict[int, Any] = {}
        self.compact_list: list[pygame.Rect] = []
        self.big_grid: Any = None
        self.big_seat_shown = 0
        self.score_cells: list[tuple[pygame.Rect, str, int]] = []
        self._row_h = 30

    # ---- seats and settings ------------------------------------------------------------------
    def _speed(self) -> float:
        return self.app.settings.animation_speed

    def _cb(self) -> bool:
        return bool(self.app.settings.colour_blind)

    def _seat_rgb(self, seat: int) -> pal.RGB:
        name = self.seats[seat].colour if 0 <= seat < len(self.seats) else ""
        return pal.seat_colour(name, self._cb())

    def _swatch(self, seat: int, size: int) -> pygame.Surface:
        name = self.seats[seat].colour if 0 <= seat < len(self.seats) else ""
        return pal.seat_swatch(name, seat, size, self._cb())

    def _render(self, text: str, size: int, colour: pal.RGB, bold: bool = False) -> pygame.Surface:
        return self.app.fonts.render(text, size, colour, bold)

    def _you(self) -> int | None:
        you = self.view.get("you")
        return you if isinstance(you, int) and 0 <= you < len(self._seat_views()) else None

    def _seat_views(self) -> list[dict[str, Any]]:
        seats = self.view.get("seats")
        return [s for s in seats if isinstance(s, dict)] if isinstance(seats, list) else []

    def _seat_view(self, seat: int) -> dict[str, Any]:
        seats = self._seat_views()
        return seats[seat] if 0 <= seat < len(seats) else {}

    def _phase(self) -> str:
        return str(self.view.get("phase") or "")

    def _pending(self) -> dict[str, Any]:
        p = self.view.get("pending")
        return p if isinstance(p, dict) else {}

    def _stage(self) -> str:
        return str(self._pending().get("stage") or "start")

    def _key(self) -> tuple[Any, ...]:
        """What cached sprites and layers depend on besides the view."""
        from game.ui.i18n import language

        return (self._cb(), self.app.settings.strong_outlines, language())

    # ---- text that always fits ---------------------------------------------------------------
    def _text(
        self,
        surface: pygame.Surface,
        text: str,
        pos: tuple[int, int],
        size: int,
        colour: pal.RGB,
        width: int,
        bold: bool = False,
        anchor: str = "topleft",
        minimum: int = 0,
    ) -> pygame.Rect:
        """Draw ``text`` within ``width`` pixels: shrunk down to ``minimum`` (default 3/4 of
        ``size``), then cut with "...".  Returns where it went."""
        fonts = self.app.fonts
        width = max(1, width)
        low = minimum or max(9, int(size * 0.75))
        fit = fonts.fit(text, size, width, bold, minimum=low)
        shown = fonts.ellipsize(text, fit, width, bold)
        img = fonts.render(shown, fit, colour, bold)
        if img.get_width() > width + 1:
            self.overflows.append(text)
        rect = img.get_rect(**{anchor: pos})
        surface.blit(img, rect)
        return rect
