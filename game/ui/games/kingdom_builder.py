"""The Kingdom Builder table: the 2x2 map, the players, the cards, and every animation.

Drawn from the view dict only (``notes/kb-spec.md``): ``board`` (20 strings of terrain codes),
``castles``, ``locations`` (with tiles left), ``walls``, each seat's ``settlements`` and
``tiles``, the three ``cards``, the ``turn`` (terrain card, placements, pending tile action) and
the live ``scores``.  What a click does comes only from the seat's ``legal`` list:

* ``("place", r, c)`` / ``("move_from", r, c)`` / ``("wall", r, c)`` — a highlighted hex;
* ``("use", lr, lc)`` — one of the seat's tile buttons (or the location hex it came from);
* ``("stop",)`` and ``("end",)`` — the view's buttons "Stop" and "End turn" in the top bar.

The static layer (terrain, castles, locations, section borders) is drawn once per layout into
one surface; each frame blits it and draws only settlements, walls, highlights and animations.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pygame

from game.kingdom_builder.board import NBRS, SIZE
from game.kingdom_builder.scoring import CARDS
from game.kingdom_builder.state import MOVE_TILES
from game.ui import palette as pal
from game.ui.games import kb_art as art
from game.ui.games.base import Action, GameView, LogLine, Regions, SeatInfo, ViewButton
from game.ui.hexlayout import HexLayout
from game.ui.i18n import has, lazy, t
from game.ui.tween import Tween, arc, ease_in_out, ease_out_bounce, ease_out_cubic

if TYPE_CHECKING:
    from game.ui.app import App

Hex = tuple[int, int]

#: Location types in the order of the help pages (base game, then Nomads).
LOCATION_TYPES = (
    "Oracle",
    "Farm",
    "Oasis",
    "Tower",
    "Tavern",
    "Barn",
    "Harbor",
    "Paddock",
    "Quarry",
    "Caravan",
    "Village",
    "Garden",
)
#: The ten base-game Kingdom Builder cards (KB §9.2), in rulebook order: the engine's list.
CARD_NAMES = CARDS
TERRAINS = "GCDFTWMKLN"
#: Seconds per animation at speed 1.
DROP_TIME = 0.42
SLIDE_TIME = 0.5
FLY_TIME = 0.7
STAGGER = 0.16
#: The end-of-game sequence (seconds at speed 1): each category's title, then each seat's
#: share of it drawn on the map (shorter for a seat that scored nothing), then a pause.
SCORE_INTRO = 0.6
SCORE_SEAT = 1.0
SCORE_SEAT_EMPTY = 0.4
SCORE_OUTRO = 0.4
#: The part of a seat's beat during which its points count up and its marks appear.
SCORE_COUNT = 0.6
#: The scoring marks: gold.
GOLD = (255, 200, 60)
GOLD_DARK = (120, 80, 10)


def terrain_name(code: str) -> str:
    return t(f"kb.terrain.{code}")


def tile_name(tile_type: str) -> str:
    key = f"kb.tile.{tile_type}"
    return t(key) if has(key) else tile_type


def card_name(card: str) -> str:
    key = f"kb.card.{card}"
    return t(key) if has(key) else card


def category_name(key: str) -> str:
    if key == "castles":
        return t("kb.card.castles")
    if key == "gold":
        return t("kb.gold")
    return card_name(key)


def _terrain_of(event: dict[str, Any]) -> str:
    """The name of an event's terrain card ("?" if the event has none: nothing is made up)."""
    code = event.get("terrain")
    return terrain_name(code) if isinstance(code, str) and code and code in TERRAINS else "?"


def _hex(value: Any) -> Hex:
    return (int(value[0]), int(value[1]))


def neighbours(r: int, c: int) -> list[Hex]:
    """The neighbours of (r, c) on the map (KB §2), from the engine's geometry."""
    return [(n // SIZE, n % SIZE) for n in NBRS[r * SIZE + c]]


def quadrant(r: int, c: int) -> int:
    return (2 if r >= 10 else 0) + (1 if c >= 10 else 0)


@dataclass
class Anim:
    """One running animation: a settlement dropping or sliding, a tile flying, a wall."""

    kind: str  # drop | slide | fly_in | fly_out | wall
    tween: Tween
    seat: int | None = None
    hex: Hex | None = None
    start: tuple[float, float] = (0.0, 0.0)
    end: tuple[float, float] = (0.0, 0.0)
    tile: str = ""


@dataclass(frozen=True)
class Beat:
    """One step of the end-of-game sequence: a category's title (``seat`` None) or one seat's
    share of the category, from ``start`` for ``duration`` seconds."""

    start: float
    duration: float
    category: int
    seat: int | None

    @property
    def end(self) -> float:
        return self.start + self.duration


@dataclass
class Scoring:
    """The end-of-game sequence: category by category, and in each category player by player,
    the points count up while the map shows what scored."""

    categories: list[str]
    scores: list[dict[str, int]]
    elapsed: float = 0.0
    beats: list[Beat] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.beats:
            return
        at = 0.0
        for i, cat in enumerate(self.categories):
            self.beats.append(Beat(at, SCORE_INTRO, i, None))
            at += SCORE_INTRO
            for seat, row in enumerate(self.scores):
                length = SCORE_SEAT if row.get(cat, 0) else SCORE_SEAT_EMPTY
                self.beats.append(Beat(at, length, i, seat))
                at += length

    @property
    def length(self) -> float:
        return self.beats[-1].end if self.beats else 0.0

    def beat(self) -> Beat | None:
        """The beat being shown (None once every beat is over)."""
        for beat in self.beats:
            if self.elapsed < beat.end:
                return beat
        return None

    @property
    def step(self) -> int:
        """The index of the category being counted (``len(categories)`` when all are)."""
        beat = self.beat()
        return beat.category if beat is not None else len(self.categories)

    @property
    def done(self) -> bool:
        return self.elapsed >= self.length + SCORE_OUTRO

    def progress(self, beat: Beat) -> float:
        """How far ``beat``'s count has got (0..1)."""
        return max(0.0, min(1.0, (self.elapsed - beat.start) / (beat.duration * SCORE_COUNT)))

    def value(self, category: int, seat: int) -> int | None:
        """The seat's points of the category as shown now (None before its turn comes)."""
        points = (
            self.scores[seat].get(self.categories[category], 0) if seat < len(self.scores) else 0
        )
        for beat in self.beats:
            if beat.category == category and beat.seat == seat:
                if self.elapsed < beat.start:
                    return None
                return round(points * self.progress(beat))
        return points

    def running_total(self, seat: int) -> int:
        """The seat's points for everything counted so far (the current share partly)."""
        return sum(self.value(i, seat) or 0 for i in range(len(self.categories)))

    def next_beat(self) -> None:
        """Jump to the start of the next beat (a click during the sequence)."""
        beat = self.beat()
        self.elapsed = beat.end if beat is not None else self.length + SCORE_OUTRO

    def finish(self) -> None:
        self.elapsed = self.length + SCORE_OUTRO


@dataclass(frozen=True)
class Focus:
    """What the map shows of one category for one seat (``view["scoring"]`` entry), and how
    far its marks have appeared (0..1)."""

    category: str
    seat: int
    entry: dict[str, Any]
    progress: float = 1.0


class KingdomBuilderView(GameView):
    """Draws a Kingdom Builder view and maps clicks to legal actions."""

    game_id = "kingdom-builder"
    has_secrets = True

    def __init__(self, app: App, seats: list[SeatInfo]) -> None:
        super().__init__(app, seats)
        self.hexes: HexLayout | None = None
        self.static: pygame.Surface | None = None
        self.static_dim: pygame.Surface | None = None
        self.static_dark: pygame.Surface | None = None
        self.static_pos = (0, 0)
        self._static_key: tuple[Any, ...] = ()
        self.anims: list[Anim] = []
        self.mouse = (-1, -1)
        self.hover_hex: Hex | None = None
        self.recent: dict[Hex, int] = {}
        self.tile_buttons: list[tuple[pygame.Rect, Action | None, dict[str, Any]]] = []
        self.row_rects: dict[int, pygame.Rect] = {}
        self.card_rows: list[tuple[pygame.Rect, str]] = []
        self.scoring: Scoring | None = None
        self.panel_surf: pygame.Surface | None = None
        self._panel_key: tuple[Any, ...] = ()
        self._hover_button = -1
        self.clock = 0.0
        self.settlements: dict[Hex, int] = {}
        self.walls: set[Hex] = set()
        self.locations: dict[Hex, dict[str, Any]] = {}
        self.actions_at: dict[Hex, Action] = {}
        #: ``view["scoring"]`` by (category, seat): what each category scored, once it is over.
        self.score_details: dict[tuple[str, int], dict[str, Any]] = {}
        #: After the sequence: the (category, seat) the mouse points at in the panel.
        self.hover_focus: tuple[str, int] | None = None
        self.score_chips: list[tuple[pygame.Rect, str, int]] = []
        self._overlay: tuple[tuple[Any, ...], pygame.Surface] | None = None
        self._faded: dict[tuple[int, float, tuple[Any, ...]], pygame.Surface] = {}
        #: Where the last frame drew the sectors' point labels (over the marks there).
        self.label_rects: list[pygame.Rect] = []
        #: Whether the seat's own secrets (its next terrain card) may be shown: the game scene
        #: turns this off in hot-seat games while another player may be looking.
        self.show_private = True

    # ---- layout ----------------------------------------------------------------------------
    def board_extent(self) -> tuple[float, float]:
        """The 20x20 odd-r map in hex radii (``HexLayout.extent(20, 20)``, rounded as the
        table has always been laid out)."""
        return (35.5, 30.5)

    def layout(self, area: pygame.Rect, log_height: int) -> Regions:
        """The map left, as large as the window allows; the panel right, the log under it."""
        regions = super().layout(area, log_height)
        inner = self.board_rect.inflate(-4, -4)
        self.hexes = HexLayout.fit((inner.x, inner.y, inner.width, inner.height))
        self.finish_animations()
        self.static = None
        self.panel_surf = None
        return regions

    # ---- state -----------------------------------------------------------------------------
    def set_seats(self, seats: list[SeatInfo]) -> None:
        super().set_seats(seats)
        self.panel_surf = None  # names, colours and tags are drawn in the panel
        self._faded.clear()

    def set_view(
        self, view: dict[str, Any], legal: list[Action], events: list[dict[str, Any]]
    ) -> None:
        old_board = self.view.get("board")
        self.view = view
        self.legal = [tuple(a) for a in legal]
        if view.get("board") != old_board:
            self.static = None
        self.settlements = {
            _hex(h): s["seat"] for s in view.get("seats", []) for h in s.get("settlements", [])
        }
        self.walls = {_hex(h) for h in view.get("walls", [])}
        self.locations = {_hex(loc["hex"]): loc for loc in view.get("locations", [])}
        self.actions_at = {}
        for action in self.legal:
            if action[0] in ("place", "move_from", "wall") and len(action) == 3:
                self.actions_at[(action[1], action[2])] = action
        self.panel_surf = None
        self.score_details = {
            (str(d.get("category")), int(d.get("seat", -1))): d
            for d in view.get("scoring") or []
            if isinstance(d, dict)
        }
        self._animate(events)
        if view.get("over") and self.scoring is None and not events:
            # Arrived at an ended game (reconnect, replay): show it scored at once.
            self.scoring = Scoring(self._categories(), view.get("scores", []), 1e9)

    def _categories(self) -> list[str]:
        cats = ["castles", *self.view.get("cards", [])]
        scores = self.view.get("scores", [])
        if any(s.get("gold") for s in scores):
            cats.append("gold")
        return cats

    def score_categories(self) -> list[tuple[str, str]]:
        return [(c, category_name(c)) for c in self._categories()]

    # ---- animations ------------------------------------------------------------------------
    def _speed(self) -> float:
        return self.app.settings.animation_speed

    def _animate(self, events: list[dict[str, Any]]) -> None:
        you = self.view.get("you")
        for ev in events:
            kind = ev.get("type")
            seat = ev.get("seat")
            if kind in ("place", "move") and seat is not None and seat != you:
                self.recent[_hex(ev.get("hex") or ev.get("to"))] = seat
                if kind == "move":
                    self.recent.pop(_hex(ev["from"]), None)
            if kind == "end_turn" and (seat == you or you is None):
                self.recent.clear()
        if self._speed() <= 0 or self.hexes is None:
            return
        backlog = max(
            (a.tween.delay + a.tween.duration - a.tween.elapsed for a in self.anims), default=0
        )
        if backlog > 1.2:
            self.finish_animations()
            backlog = 0
        delay = max(0.0, backlog)
        hx = self.hexes
        for ev in events:
            kind = ev.get("type")
            seat = ev.get("seat")
            if kind == "place":
                h = _hex(ev["hex"])
                cx, cy = hx.centre(*h)
                self.anims.append(
                    Anim(
                        "drop",
                        Tween((cy - hx.size * 2.2,), (cy,), DROP_TIME, ease_out_bounce, delay),
                        seat,
                        h,
                        (cx, cy - hx.size * 2.2),
                        (cx, cy),
                    )
                )
                delay += STAGGER
            elif kind == "move":
                a, b = _hex(ev["from"]), _hex(ev["to"])
                self.anims.append(
                    Anim(
                        "slide",
                        Tween((0.0,), (1.0,), SLIDE_TIME, ease_in_out, delay),
                        seat,
                        b,
                        hx.centre(*a),
                        hx.centre(*b),
                    )
                )
                delay += STAGGER
            elif kind == "wall":
                h = _hex(ev["hex"])
                cx, cy = hx.centre(*h)
                self.anims.append(
                    Anim(
                        "wall",
                        Tween((cy - hx.size * 1.5,), (cy,), DROP_TIME, ease_out_bounce, delay),
                        None,
                        h,
                        (cx, cy - hx.size * 1.5),
                        (cx, cy),
                    )
                )
                delay += STAGGER
            elif kind in ("gain_tile", "lose_tile") and seat is not None:
                h = _hex(ev["hex"])
                board_pt = hx.centre(*h)
                row = self.row_rects.get(seat)
                panel_pt = (
                    (row.x + row.width * 0.6, row.centery)
                    if row is not None
                    else (self.panel_rect.centerx, self.panel_rect.y + 40)
                )
                start, end = (board_pt, panel_pt) if kind == "gain_tile" else (panel_pt, board_pt)
                self.anims.append(
                    Anim(
                        "fly_in" if kind == "gain_tile" else "fly_out",
                        Tween((0.0,), (1.0,), FLY_TIME, ease_out_cubic, delay),
                        seat,
                        None,
                        start,
                        end,
                        str(ev.get("tile_type", "")),
                    )
                )
                delay += STAGGER

    def update(self, dt: float) -> None:
        speed = self._speed()
        self.clock += dt
        if self.anims:
            step = dt * (speed if speed > 0 else 1000)
            for a in self.anims:
                a.tween.update(step)
            self.anims = [a for a in self.anims if not a.tween.done]
        if self.scoring is not None and not self.scoring.done:
            self.scoring.elapsed += dt * (speed if speed > 0 else 1000)
            self.panel_surf = None

    def animating(self) -> bool:
        return bool(self.anims)

    def finish_animations(self) -> None:
        self.anims.clear()

    def start_scoring(self) -> None:
        if self.scoring is None or self.scoring.elapsed >= 1e8:
            self.scoring = Scoring(self._categories(), self.view.get("scores", []))
            if self._speed() <= 0:
                self.scoring.elapsed = 1e9

    def scoring_done(self) -> bool:
        return self.scoring is None or self.scoring.done

    def skip_scoring(self, everything: bool) -> None:
        """A click shows the next step of the sequence; Enter ends it."""
        if self.scoring is not None and not self.scoring.done:
            if everything:
                self.scoring.finish()
            else:
                self.scoring.next_beat()
            self.panel_surf = None

    def _focus(self) -> Focus | None:
        """What the map shows of the scoring now: the seat being counted during the sequence,
        or after it the category (and seat) the mouse points at in the panel."""
        sc = self.scoring
        if sc is not None and not sc.done:
            beat = sc.beat()
            if beat is None or beat.seat is None:
                return None
            cat = sc.categories[beat.category]
            entry = self.score_details.get((cat, beat.seat))
            if entry is None:
                return None
            return Focus(cat, beat.seat, entry, sc.progress(beat))
        if self.hover_focus is not None and self.view.get("over"):
            entry = self.score_details.get(self.hover_focus)
            if entry is not None:
                return Focus(self.hover_focus[0], self.hover_focus[1], entry)
        return None

    # ---- input -----------------------------------------------------------------------------
    def hex_at(self, pos: tuple[int, int]) -> Hex | None:
        return self.hexes.hex_at(*pos) if self.hexes is not None else None

    def click(self, pos: tuple[int, int]) -> Action | None:
        for rect, action, _tile in self.tile_buttons:
            if rect.collidepoint(pos):
                return action
        h = self.hex_at(pos)
        if h is None:
            return None
        action = self.actions_at.get(h)
        if action is not None:
            return action
        # A click on a location hex uses the tile taken from it, when that is legal.
        use = ("use", h[0], h[1])
        return use if use in self.legal else None

    def key(self, event: pygame.event.Event) -> Action | None:
        """Keys 1-9 use the seat's tiles in the order shown."""
        if pygame.K_1 <= event.key <= pygame.K_9:
            index = event.key - pygame.K_1
            usable = [b for b in self.tile_buttons if b[1] is not None]
            if index < len(usable):
                return usable[index][1]
        return None

    def mouse_moved(self, pos: tuple[int, int]) -> None:
        self.mouse = pos
        self.hover_hex = self.hex_at(pos) if self.board_rect.collidepoint(pos) else None
        hovered = -1
        for i, (rect, _a, _t) in enumerate(self.tile_buttons):
            if rect.collidepoint(pos):
                hovered = i
        if hovered != self._hover_button:
            self._hover_button = hovered
            self.panel_surf = None
        self.hover_focus = self._hovered_category(pos)

    def _hovered_category(self, pos: tuple[int, int]) -> tuple[str, int] | None:
        """After the game: a seat's score chip, or a category row (for the seat shown, else the
        leader), points at what the map should show."""
        if not self.score_details or not self.scoring_done():
            return None
        for rect, key, seat in self.score_chips:
            if rect.collidepoint(pos):
                return (key, seat)
        for rect, key in self.card_rows:
            if rect.collidepoint(pos):
                you = self.view.get("you")
                if you is None:
                    scores = self.view.get("preview") or self.view.get("scores", [])
                    you = max(range(len(scores)), key=lambda s: scores[s].get("total", 0))
                return (key, int(you))
        return None

    def hover(self, pos: tuple[int, int]) -> str:
        for rect, action, tile in self.tile_buttons:
            if rect.collidepoint(pos):
                text = f"{tile_name(tile['type'])}: {t('kb.tile.' + tile['type'] + '.text')}"
                if action is not None:
                    return t("kb.hover.use_tile", tile=tile_name(tile["type"])) + "\n" + text
                state = tile.get("state", "ready")
                if state == "ready":
                    state = "ready_idle"
                return t(f"kb.tile_state.{state}") + "\n" + text
        for rect, key in self.card_rows:
            if rect.collidepoint(pos):
                return f"{category_name(key)}: {t(self._card_text_key(key))}"
        h = self.hex_at(pos) if self.board_rect.collidepoint(pos) else None
        if h is None:
            return ""
        return self._hex_text(h)

    def _card_text_key(self, key: str) -> str:
        if key == "castles":
            return "kb.card.castles.text"
        if key == "gold":
            return "kb.gold.text"
        return f"kb.card.{key}.text"

    def _hex_text(self, h: Hex) -> str:
        board = self.view.get("board") or []
        if not board:
            return ""
        code = board[h[0]][h[1]]
        lines: list[str] = []
        action = self.actions_at.get(h)
        if action is not None:
            lines.append(self._action_hint(action, h))
        owner = self.settlements.get(h)
        if owner is not None:
            lines.append(t("kb.hover.settlement", name=self._name(owner)))
        if h in self.walls:
            lines.append(t("kb.hover.wall"))
        if code == "L" and h in self.locations:
            loc = self.locations[h]
            lines.append(t("kb.hover.location", tile=tile_name(loc["type"]), n=loc.get("tiles", 0)))
            lines.append(t(f"kb.tile.{loc['type']}.text"))
            if ("use", h[0], h[1]) in self.legal:
                lines.insert(0, t("kb.hover.use_tile", tile=tile_name(loc["type"])))
        elif code == "K":
            lines.append(t("kb.hover.castle"))
        elif code == "N":
            lines.append(t("kb.hover.nomad"))
        else:
            lines.append(terrain_name(code) + f"  ({h[0]}, {h[1]})")
        return "\n".join(lines)

    def _action_hint(self, action: Action, h: Hex) -> str:
        turn = self.view.get("turn") or {}
        pending = turn.get("pending")
        kind = action[0]
        if kind == "move_from":
            return t("kb.hover.move_from", tile=tile_name(pending["tile"]) if pending else "")
        if kind == "wall":
            return t("kb.hover.wall_here")
        if pending and pending.get("tile") in MOVE_TILES:
            text = t("kb.hover.move_to")
        else:
            text = t("kb.hover.build")
        # Location hexes next to the target that still have tiles for this seat (KB §6.1).
        you = self.view.get("you")
        taken: set[Hex] = set()
        if you is not None:
            seat = self.view["seats"][you]
            taken = {_hex(x) for x in seat.get("taken_from", [])}
        gains = [
            tile_name(self.locations[n]["type"])
            for n in neighbours(*h)
            if n in self.locations and self.locations[n].get("tiles", 0) > 0 and n not in taken
        ]
        if gains:
            text += "\n" + t("kb.hover.gains", tiles=", ".join(gains))
        return text

    # ---- words -----------------------------------------------------------------------------
    def _name(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.seats):
            return "?"
        return self.seats[seat].name

    def status(self) -> str:
        v = self.view
        if not v:
            return ""
        if v.get("over"):
            return t("kb.status.over")
        turn = v.get("turn") or {}
        current = v.get("current")
        you = v.get("you")
        if current is None:
            return ""
        if current != you or not self.legal:
            who = self.seats[current] if 0 <= current < len(self.seats) else None
            if who is not None and who.kind == "bot":
                return t("kb.status.bot_thinking", name=who.name)
            return t("kb.status.waiting", name=self._name(current))
        pending = turn.get("pending")
        if pending:
            tile = tile_name(pending["tile"])
            step = pending.get("step")
            if step == "source":
                return t("kb.status.choose_source", tile=tile)
            if step == "wall":
                return t("kb.status.choose_wall", tile=tile)
            if step == "second_wall":
                return t("kb.status.second_wall", tile=tile)
            if pending["tile"] in MOVE_TILES:
                return t("kb.status.choose_destination", tile=tile)
            return t("kb.status.choose_build", tile=tile)
        terrain = terrain_name(turn.get("terrain", "G"))
        placed = int(turn.get("placed", 0))
        if not turn.get("mandatory_done"):
            if placed == 0:
                if any(a[0] == "use" for a in self.legal):
                    return t("kb.status.build_three_or_tile", terrain=terrain)
                return t("kb.status.build_three", terrain=terrain)
            return t("kb.status.build_more", n=3 - placed, terrain=terrain)
        if any(a[0] == "use" for a in self.legal):
            return t("kb.status.tiles_or_end")
        return t("kb.status.end")

    def buttons(self) -> list[ViewButton]:
        """End turn (Enter; enabled when ``("end",)`` is legal), and Stop while a tile action
        may stop early (``("stop",)`` is legal)."""
        out = [
            ViewButton(
                "end_turn",
                lazy("game.end_turn"),
                ("end",),
                hint="Enter",
                primary=True,
                enabled=("end",) in self.legal,
                width=150,
            )
        ]
        if ("stop",) in self.legal:
            out.append(ViewButton("stop", lazy("kb.action.stop"), ("stop",)))
        return out

    def describe_action(self, action: Action) -> str:
        kind = action[0]
        if kind in ("place", "move_from", "wall") and len(action) == 3:
            return t(f"kb.describe.{kind}", hex=f"({action[1]}, {action[2]})")
        if kind == "use" and len(action) == 3:
            loc = self.locations.get((action[1], action[2]))
            return t("kb.describe.use", tile=tile_name(loc["type"]) if loc else "?")
        return t(f"kb.describe.{kind}") if has(f"kb.describe.{kind}") else str(action)

    def describe_event(self, ev: dict[str, Any]) -> LogLine | None:
        kind = ev.get("type")
        seat = ev.get("seat")
        name = self._name(seat)
        board = self.view.get("board") or []

        def where(value: Any) -> str:
            """The hex's terrain (from the board of the view being shown) and coordinates;
            only the coordinates when the board is not known."""
            h = _hex(value)
            place = f"({h[0]}, {h[1]})"
            if 0 <= h[0] < len(board) and 0 <= h[1] < len(board[h[0]]):
                return f"{terrain_name(board[h[0]][h[1]])} {place}"
            return place

        if kind == "place":
            if ev.get("tile"):
                return LogLine(
                    seat,
                    t(
                        "kb.log.place_tile",
                        name=name,
                        where=where(ev["hex"]),
                        tile=tile_name(ev["tile"]),
                    ),
                )
            return LogLine(seat, t("kb.log.place", name=name, where=where(ev["hex"])))
        if kind == "move":
            return LogLine(
                seat,
                t(
                    "kb.log.move",
                    name=name,
                    frm=f"({ev['from'][0]}, {ev['from'][1]})",
                    to=where(ev["to"]),
                    tile=tile_name(ev.get("tile") or ""),
                ),
            )
        if kind == "gain_tile":
            return LogLine(seat, t("kb.log.gain_tile", name=name, tile=tile_name(ev["tile_type"])))
        if kind == "lose_tile":
            return LogLine(seat, t("kb.log.lose_tile", name=name, tile=tile_name(ev["tile_type"])))
        if kind == "use":
            return LogLine(seat, t("kb.log.use", name=name, tile=tile_name(ev["tile_type"])))
        if kind == "wall":
            return LogLine(seat, t("kb.log.wall", name=name, where=where(ev["hex"])))
        if kind == "turn":
            return LogLine(seat, t("kb.log.turn", name=name, terrain=_terrain_of(ev)))
        if kind == "card":
            if not self.show_private:
                return None
            return LogLine(seat, t("kb.log.card", terrain=_terrain_of(ev)))
        if kind == "reshuffle":
            return LogLine(None, t("kb.log.reshuffle"))
        if kind == "end_triggered":
            return LogLine(seat, t("kb.log.end_triggered", name=name))
        if kind == "game_over":
            return LogLine(None, t("kb.log.game_over"))
        if kind == "undo":
            return LogLine(seat, t("kb.log.undo", name=name))
        return None

    # ---- drawing ---------------------------------------------------------------------------
    def _emblems(self) -> bool:
        return self.app.settings.colour_blind

    def _seat_rgb(self, seat: int) -> pal.RGB:
        name = self.seats[seat].colour if 0 <= seat < len(self.seats) else ""
        return pal.seat_colour(name, self.app.settings.colour_blind)

    def _seat_shape(self, seat: int) -> str:
        return pal.seat_shape(seat)

    def _swatch(self, seat: int, size: int) -> pygame.Surface:
        name = self.seats[seat].colour if 0 <= seat < len(self.seats) else ""
        return pal.seat_swatch(name, seat, size, self._emblems_always())

    def _emblems_always(self) -> bool:
        return self.app.settings.colour_blind

    def _house(self, seat: int) -> pygame.Surface:
        assert self.hexes is not None
        return art.house_sprite(
            self._seat_rgb(seat), self._seat_shape(seat), round(self.hexes.size, 1), self._emblems()
        )

    def _build_static(self) -> None:
        """Terrain, castles, locations (with their medallions) and section borders."""
        hx = self.hexes
        assert hx is not None
        board = self.view.get("board") or []
        x, y, w, h = hx.bounds()
        surf = pygame.Surface((w, h), pygame.SRCALPHA)
        shifted = HexLayout((hx.origin[0] - x, hx.origin[1] - y), hx.size, hx.rows, hx.cols)
        r = round(hx.size, 1)
        sw, sh = art.sprite_size(r)
        for row in range(min(20, len(board))):
            for col in range(min(20, len(board[row]))):
                code = board[row][col]
                cx, cy = shifted.centre(row, col)
                if code in "KLN":
                    sprite = art.special_sprite(code, r)
                else:
                    sprite = art.terrain_sprite(code, r, (row * 7 + col * 3) % 3)
                surf.blit(sprite, (cx - sw / 2, cy - sh / 2))
        # Location medallions with the tile's short name.
        for (row, col), loc in self.locations.items():
            self._medallion(surf, shifted.centre(row, col), hx.size, str(loc["type"]))
        # Section borders: the hex edges between two quadrants, drawn thicker.
        edge_of = {(0, 1): (1, 2), (0, -1): (4, 5)}
        width = max(2, round(hx.size / 7))
        for row in range(20):
            for col in range(20):
                q = quadrant(row, col)
                corners = shifted.corners(row, col)
                odd = row & 1
                dirs = {
                    (row, col + 1): (1, 2),
                    (row + 1, col - 1 + odd): (3, 4),
                    (row + 1, col + odd): (2, 3),
                }
                for (nr, nc), (i, j) in dirs.items():
                    if 0 <= nr < 20 and 0 <= nc < 20 and quadrant(nr, nc) != q:
                        pygame.draw.line(surf, (30, 30, 36), corners[i], corners[j], width)
        del edge_of
        self.static = surf
        self.static_dim = None
        self.static_dark = None
        self.static_pos = (x, y)

    def _medallion(
        self, surf: pygame.Surface, centre: tuple[float, float], size: float, tile: str
    ) -> None:
        """A location hex's medallion: the tile's colour and short name."""
        cx, cy = centre
        colour = art.LOCATION_COLOURS.get(tile, (120, 120, 120))
        pygame.draw.circle(surf, colour, (cx, cy), size * 0.62)
        pygame.draw.circle(
            surf, pal.shade(colour, 1.5), (cx, cy), size * 0.62, max(1, int(size / 10))
        )
        label = t(f"kb.tile.{tile}.abbr")
        px = max(8, int(size * 0.55))
        img = self.app.fonts.render(label, px, (252, 250, 244), bold=True)
        if img.get_width() > size * 1.1:
            px = max(8, int(px * size * 1.1 / img.get_width()))
            img = self.app.fonts.render(label, px, (252, 250, 244), bold=True)
        surf.blit(img, img.get_rect(center=(cx, cy - size * 0.05)))

    def _sprite_key(self) -> tuple[Any, ...]:
        return (
            self.app.settings.colour_blind,
            self.app.settings.strong_outlines,
            self.app.settings.language if hasattr(self.app.settings, "language") else "",
        )

    def draw(self, surface: pygame.Surface) -> None:
        if not self.view or self.hexes is None:
            return
        key = self._sprite_key()
        if self.static is None or key != self._static_key:
            self._static_key = key
            self._build_static()
            self.panel_surf = None
        assert self.static is not None
        focus = self._focus()
        if focus is not None:
            # The end of the game: the board is dimmed, what scored stays bright.
            surface.blit(self._darkened(), self.static_pos)
            self._draw_bright(surface, self._focus_hexes(focus))
            self._draw_focus_overlay(surface, focus)
        elif self.actions_at and self.scoring is None:
            # Choosing a hex: the board is dimmed and only the legal hexes stay bright.
            surface.blit(self._dimmed(), self.static_pos)
            self._draw_bright(surface, self.actions_at)
        else:
            surface.blit(self.static, self.static_pos)
        self._draw_dynamic(surface, focus)
        if focus is not None:
            self._draw_marks(surface, focus)
        self._draw_panel(surface)
        self._draw_hint(surface)
        self._draw_flying(surface)

    def _draw_hint(self, surface: pygame.Surface) -> None:
        """The hinted action: a bouncing arrow over its hex, or a ring around its tile button
        (End turn and Stop are buttons of the game scene, which marks them itself)."""
        action = self.hint
        if action is None or action not in self.legal or self.hexes is None:
            return
        hx = self.hexes
        bounce = abs(math.sin(self.clock * 4.0))
        if action[0] in ("place", "move_from", "wall") and len(action) == 3:
            cx, cy = hx.centre(action[1], action[2])
            corners = hx.corners(action[1], action[2])
            width = max(3, round(hx.size / 5))
            pygame.draw.polygon(surface, (20, 20, 28), corners, width + 2)
            pygame.draw.polygon(surface, pal.HINT, corners, width)
            tip_y = cy - hx.size * (1.05 + 0.35 * bounce)
            half = hx.size * 0.45
            arrow = [
                (cx, tip_y),
                (cx - half, tip_y - half * 1.2),
                (cx + half, tip_y - half * 1.2),
            ]
            pygame.draw.polygon(surface, pal.HINT, arrow)
            pygame.draw.polygon(surface, (20, 20, 28), arrow, 2)
            return
        for rect, tile_action, _tile in self.tile_buttons:
            if tile_action == action:
                ring = rect.inflate(8 + int(4 * bounce), 8 + int(4 * bounce))
                pygame.draw.rect(surface, pal.HINT, ring, 3, border_radius=self.app.px(9))

    def _dimmed(self) -> pygame.Surface:
        assert self.static is not None
        if self.static_dim is None:
            self.static_dim = self.static.copy()
            self.static_dim.fill((150, 150, 160, 255), special_flags=pygame.BLEND_RGBA_MULT)
        return self.static_dim

    def _darkened(self) -> pygame.Surface:
        """The board darker than :meth:`_dimmed`: the background of the scoring."""
        assert self.static is not None
        if self.static_dark is None:
            self.static_dark = self.static.copy()
            self.static_dark.fill((92, 92, 100, 255), special_flags=pygame.BLEND_RGBA_MULT)
        return self.static_dark

    def _draw_bright(self, surface: pygame.Surface, hexes: Iterable[Hex]) -> None:
        """The undimmed terrain of ``hexes`` (legal targets, or what scored)."""
        hx = self.hexes
        assert hx is not None and self.static is not None
        r = round(hx.size, 1)
        sw, sh = art.sprite_size(r)
        board = self.view.get("board") or []
        for row, col in hexes:
            if not (0 <= row < len(board) and 0 <= col < len(board[row])):
                continue
            code = board[row][col]
            sprite = (
                art.special_sprite(code, r)
                if code in "KLN"
                else art.terrain_sprite(code, r, (row * 7 + col * 3) % 3)
            )
            cx, cy = hx.centre(row, col)
            surface.blit(sprite, (cx - sw / 2, cy - sh / 2))
            loc = self.locations.get((row, col))
            if loc is not None:
                self._medallion(surface, (cx, cy), hx.size, str(loc["type"]))

    def _draw_dynamic(self, surface: pygame.Surface, focus: Focus | None = None) -> None:
        hx = self.hexes
        assert hx is not None
        r = round(hx.size, 1)
        sw, sh = art.sprite_size(r)
        # Tiles left on each location hex: a small badge.
        for (row, col), loc in self.locations.items():
            n = int(loc.get("tiles", 0))
            cx, cy = hx.centre(row, col)
            bx, by = cx + hx.size * 0.55, cy + hx.size * 0.5
            rad = max(6, hx.size * 0.34)
            pygame.draw.circle(surface, (30, 30, 36) if n else (90, 90, 96), (bx, by), rad)
            pygame.draw.circle(surface, (240, 236, 220), (bx, by), rad, 1)
            img = self.app.fonts.render(str(n), max(8, int(rad * 1.3)), (250, 250, 250), bold=True)
            surface.blit(img, img.get_rect(center=(bx, by)))
        # Walls.
        animated = {a.hex for a in self.anims if a.hex is not None}
        wall = art.wall_sprite(r)
        for h in self.walls:
            if h in animated:
                continue
            cx, cy = hx.centre(*h)
            surface.blit(wall, (cx - sw / 2, cy - sh / 2))
        # What changed since your last turn (not while the scoring is shown).
        for h in self.recent if focus is None else ():
            if h in self.settlements:
                cx, cy = hx.centre(*h)
                ring = art.ring_sprite(r, (245, 245, 250))
                surface.blit(ring, (cx - sw / 2, cy - sh / 2))
        # Legal targets.
        strong = self.app.settings.strong_outlines
        pulse = 150 + int(105 * (0.5 + 0.5 * math.sin(self.clock * 4.0)))
        if self.actions_at and (self.scoring is None):
            place = art.highlight_sprite(r, pal.HIGHLIGHT, strong)
            source = art.highlight_sprite(r, pal.SOURCE, strong, 40)
            wall_hl = art.highlight_sprite(r, (230, 230, 240), strong)
            for sprite in (place, source, wall_hl):
                sprite.set_alpha(pulse)
            for h, action in self.actions_at.items():
                sprite = {"place": place, "move_from": source, "wall": wall_hl}[action[0]]
                cx, cy = hx.centre(*h)
                surface.blit(sprite, (cx - sw / 2, cy - sh / 2))
        # Settlements (while the scoring shows one seat, the others' fade).
        for h, seat in self.settlements.items():
            if h in animated:
                continue
            house = (
                self._house(seat)
                if focus is None or seat == focus.seat
                else self._faded_house(seat)
            )
            cx, cy = hx.centre(*h)
            surface.blit(house, house.get_rect(center=(cx, cy)))
        # The pending move's source: a marker on the settlement being moved.
        turn = self.view.get("turn") or {}
        pending = turn.get("pending")
        if pending and pending.get("from"):
            cx, cy = hx.centre(*_hex(pending["from"]))
            pygame.draw.circle(
                surface, pal.SOURCE, (cx, cy), hx.size * 0.8, max(2, int(hx.size / 7))
            )
        # Hover: a ghost house where a click would build or move.
        if self.hover_hex is not None and self.scoring is None:
            hovered = self.actions_at.get(self.hover_hex)
            cx, cy = hx.centre(*self.hover_hex)
            if hovered is not None and hovered[0] == "place" and self.view.get("you") is not None:
                ghost = self._house(self.view["you"]).copy()
                ghost.set_alpha(150)
                surface.blit(ghost, ghost.get_rect(center=(cx, cy)))
            elif hovered is not None and hovered[0] == "wall":
                ghost = art.wall_sprite(r).copy()
                ghost.set_alpha(150)
                surface.blit(ghost, (cx - sw / 2, cy - sh / 2))
            pts = hx.corners(*self.hover_hex)
            colour = pal.HIGHLIGHT if hovered is not None else (240, 240, 240)
            pygame.draw.polygon(surface, colour, pts, 2)
        # Running animations on the board.
        for a in self.anims:
            if not a.tween.started:
                continue
            if a.kind == "drop" and a.seat is not None:
                y = a.tween.value()[0]
                house = self._house(a.seat)
                surface.blit(house, house.get_rect(center=(a.end[0], y)))
            elif a.kind == "slide" and a.seat is not None:
                p = a.tween.value()[0]
                x, y = arc(a.start, a.end, p, hx.size * 0.8)
                house = self._house(a.seat)
                surface.blit(house, house.get_rect(center=(x, y)))
            elif a.kind == "wall":
                y = a.tween.value()[0]
                surface.blit(wall, (a.end[0] - sw / 2, y - sh / 2))
        # Hexes not started yet are hidden (they are in `animated`), which is right: they
        # appear when their drop begins.

    def _draw_flying(self, surface: pygame.Surface) -> None:
        if self.hexes is None:
            return
        for a in self.anims:
            if a.kind not in ("fly_in", "fly_out") or not a.tween.started:
                continue
            p = a.tween.value()[0]
            x, y = arc(a.start, a.end, p, self.hexes.size * 3)
            w = max(24, int(self.hexes.size * 2.2))
            rect = pygame.Rect(0, 0, w, int(w * 0.62))
            rect.center = (int(x), int(y))
            chip = pygame.Surface(rect.size, pygame.SRCALPHA)
            art.tile_chip(
                chip,
                chip.get_rect(),
                a.tile,
                t(f"kb.tile.{a.tile}.abbr") if has(f"kb.tile.{a.tile}.abbr") else a.tile[:2],
                self._render,
            )
            if a.kind == "fly_out":
                chip.set_alpha(int(255 * (1 - p)))
            surface.blit(chip, rect)

    def _render(self, text: str, size: int, colour: pal.RGB, bold: bool = False) -> pygame.Surface:
        return self.app.fonts.render(text, size, colour, bold)

    # ---- the side panel --------------------------------------------------------------------
    def _panel_state_key(self) -> tuple[Any, ...]:
        return (
            id(self.view),
            self._hover_button,
            self._sprite_key(),
            self.app.settings.score_preview,
            self.scoring.step if self.scoring else -1,
            self.hover_focus,
        )

    def _draw_panel(self, surface: pygame.Surface) -> None:
        rect = self.panel_rect
        if rect.width <= 0:
            return
        key = self._panel_state_key()
        scoring_live = self.scoring is not None and not self.scoring.done
        if self.panel_surf is None or key != self._panel_key or scoring_live:
            self._panel_key = key
            surf = pygame.Surface(rect.size, pygame.SRCALPHA)
            self.tile_buttons = []
            self.row_rects = {}
            self.card_rows = []
            self.score_chips = []
            self._paint_panel(surf)
            self.panel_surf = surf
        surface.blit(self.panel_surf, rect.topleft)

    def _paint_panel(self, surf: pygame.Surface) -> None:
        """Turn box, your tiles, players, cards (coordinates relative to the panel)."""
        px = self.app.px
        fonts = self.app.fonts
        ox, oy = self.panel_rect.topleft
        w = self.panel_rect.width
        v = self.view
        y = 0
        turn = v.get("turn") or {}
        current = v.get("current")
        you = v.get("you")

        # Turn box: whose turn, the terrain card, placements, deck.
        box_h = px(112)
        box = pygame.Rect(0, y, w, box_h)
        pygame.draw.rect(surf, pal.BG_PANEL, box, border_radius=px(10))
        card_rect = pygame.Rect(box.right - px(76), box.y + px(10), px(64), px(92))
        private = self.show_private
        code = turn.get("terrain") if current is not None else None
        if code is None and you is not None and not v.get("over") and private:
            code = v["seats"][you].get("hand")
        art.card_art(surf, card_rect, code, terrain_name(code) if code else "", self._render)
        tx = box.x + px(12)
        text_w = card_rect.x - tx - px(8)
        if v.get("over"):
            head = t("kb.panel.game_over")
            colour = pal.ACCENT
        elif current is not None:
            head = t("kb.panel.turn_of", name=self._name(current))
            colour = self._seat_rgb(current)
            sw = self._swatch(current, px(20))
            surf.blit(sw, (tx, box.y + px(12)))
            tx2 = tx + px(26)
            size = fonts.fit(head, px(18), text_w - px(26), True)
            img = fonts.render(
                fonts.ellipsize(head, size, text_w - px(26), True), size, pal.TEXT, True
            )
            surf.blit(img, (tx2, box.y + px(9)))
            head = ""
        else:
            head, colour = "", pal.TEXT
        if head:
            img = fonts.render(fonts.ellipsize(head, px(18), text_w, True), px(18), colour, True)
            surf.blit(img, (tx, box.y + px(9)))
        ly = box.y + px(40)
        if current is not None and not v.get("over"):
            placed = int(turn.get("placed", 0))
            label = t("kb.panel.placed")
            img = fonts.render(label, px(14), pal.TEXT_DIM)
            surf.blit(img, (tx, ly))
            hx = tx + img.get_width() + px(8)
            for i in range(3):
                c = (hx + px(9) + i * px(20), ly + img.get_height() // 2)
                if i < placed:
                    pygame.draw.circle(surf, self._seat_rgb(current), c, px(7))
                pygame.draw.circle(surf, pal.TEXT_DIM, c, px(7), 1)
            ly += px(24)
        info = t(
            "kb.panel.deck",
            deck=v.get("deck", 0),
            discard=len(v.get("discard", [])),
            round=v.get("round", 0),
        )
        img = fonts.render(fonts.ellipsize(info, px(13), text_w), px(13), pal.TEXT_DIM)
        surf.blit(img, (tx, ly))
        ly += px(20)
        if v.get("end_triggered") and not v.get("over"):
            img = fonts.render(
                fonts.ellipsize(t("kb.panel.final_round"), px(13), text_w, True),
                px(13),
                pal.ACCENT,
                True,
            )
            surf.blit(img, (tx, ly))
        elif (
            you is not None
            and current != you
            and private
            and not v.get("over")
            and v["seats"][you].get("hand")
        ):
            text = t("kb.panel.your_card", terrain=terrain_name(v["seats"][you]["hand"]))
            img = fonts.render(fonts.ellipsize(text, px(13), text_w), px(13), pal.TEXT)
            surf.blit(img, (tx, ly))
        if self.scoring is not None and not self.scoring.done:
            self._paint_scoring_box(surf, box, self.scoring)
        y = box.bottom + px(8)

        # Your tiles: buttons that start their action.
        if you is not None:
            tiles = v["seats"][you].get("tiles", [])
            if tiles:
                pending = (turn.get("pending") or {}) if current == you else {}
                # "click to use" only while a tile can still be used (not at the game's end).
                key = "kb.panel.your_tiles_held" if v.get("over") else "kb.panel.your_tiles"
                heading = fonts.render(t(key), px(13), pal.TEXT_DIM)
                surf.blit(heading, (px(4), y))
                y += heading.get_height() + px(2)
                bw = min(px(120), (w - px(6) * (len(tiles) - 1)) // max(1, len(tiles)))
                if len(tiles) > 3 and bw < px(84):
                    per_row = max(1, (w + px(6)) // (px(84) + px(6)))
                    bw = (w - px(6) * (per_row - 1)) // per_row
                else:
                    per_row = len(tiles)
                bh = px(34)
                for i, tile in enumerate(tiles):
                    rect = pygame.Rect(
                        (i % per_row) * (bw + px(6)), y + (i // per_row) * (bh + px(6)), bw, bh
                    )
                    action: Action | None = ("use", tile["hex"][0], tile["hex"][1])
                    if action not in self.legal:
                        action = None
                    active = bool(pending) and _hex(pending.get("hex", (-1, -1))) == _hex(
                        tile["hex"]
                    )
                    # ready (usable now or later this turn), used, or pending (new this turn).
                    state = str(tile.get("state", "ready"))
                    self._paint_tile_button(surf, rect, tile, action, state, active, i)
                    self.tile_buttons.append((rect.move(ox, oy), action, tile))
                rows = (len(tiles) + per_row - 1) // per_row
                y += rows * (bh + px(6)) + px(4)

        # Players.
        y = self._paint_players(surf, y)
        # Cards with the live score per player.
        self._paint_cards(surf, y)

    def _paint_tile_button(
        self,
        surf: pygame.Surface,
        rect: pygame.Rect,
        tile: dict[str, Any],
        action: Action | None,
        state: str,
        active: bool,
        index: int,
    ) -> None:
        px = self.app.px
        base = art.LOCATION_COLOURS.get(tile["type"], (120, 120, 120))
        hovered = index == self._hover_button
        if action is not None or active:
            fill = pal.shade(base, 1.15 if hovered else 1.0)
            border = pal.HIGHLIGHT
            text_colour = (255, 255, 255)
        else:
            fill = pal.shade(base, 0.42)
            border = pal.shade(base, 0.7)
            text_colour = (170, 170, 170)
        pygame.draw.rect(surf, fill, rect, border_radius=px(6))
        pygame.draw.rect(
            surf, border, rect, 2 if (action is not None or active) else 1, border_radius=px(6)
        )
        if active:
            pygame.draw.rect(surf, pal.SOURCE, rect.inflate(4, 4), 2, border_radius=px(7))
        name = tile_name(tile["type"])
        avail = rect.width - px(10)
        hint = None
        if action is not None and index < 9:
            # The key that uses this tile (1-9), small in the corner.
            hint = self.app.fonts.render(str(index + 1), px(11), pal.shade(text_colour, 0.85))
            avail -= 2 * (hint.get_width() + px(3))
        size = self.app.fonts.fit(name, px(14), avail, True)
        img = self.app.fonts.render(
            self.app.fonts.ellipsize(name, size, avail, True), size, text_colour, True
        )
        surf.blit(img, img.get_rect(center=rect.center))
        if hint is not None:
            surf.blit(hint, hint.get_rect(bottomright=(rect.right - px(4), rect.bottom - px(1))))
        if active:
            return
        if state == "used":
            pygame.draw.line(
                surf,
                (200, 200, 200),
                (rect.x + px(6), rect.bottom - px(6)),
                (rect.right - px(6), rect.y + px(6)),
                1,
            )
        elif state == "pending":
            dot = (rect.right - px(7), rect.y + px(7))
            pygame.draw.circle(surf, pal.ACCENT, dot, px(4))

    def _paint_players(self, surf: pygame.Surface, y: int) -> int:
        px = self.app.px
        fonts = self.app.fonts
        v = self.view
        w = self.panel_rect.width
        ox, oy = self.panel_rect.topleft
        seats = v.get("seats", [])
        row_h = px(40)
        current = v.get("current")
        you = v.get("you")
        scores = v.get("preview") or v.get("scores", [])
        show_scores = self.app.settings.score_preview or v.get("over")
        for seat_view in seats:
            s = seat_view["seat"]
            rect = pygame.Rect(0, y, w, row_h - px(4))
            fill = pal.BG_PANEL_2 if s == current else pal.BG_PANEL
            pygame.draw.rect(surf, fill, rect, border_radius=px(8))
            if s == current:
                pygame.draw.rect(surf, self._seat_rgb(s), rect, 2, border_radius=px(8))
            sw = self._swatch(s, px(22))
            surf.blit(sw, sw.get_rect(midleft=(rect.x + px(8), rect.centery)))
            x = rect.x + px(36)
            # Right side: score, then settlements left, then tiles.
            right = rect.right - px(8)
            if show_scores and s < len(scores):
                total = scores[s].get("total", 0)
                if self.scoring is not None and not self.scoring.done:
                    total = self.scoring.running_total(s)
                img = fonts.render(str(total), px(18), pal.ACCENT, True)
                surf.blit(img, img.get_rect(midright=(right, rect.centery)))
                right -= max(img.get_width(), px(26)) + px(10)
            supply = seat_view.get("supply", 0)
            img = fonts.render(str(supply), px(15), pal.TEXT, True)
            surf.blit(img, img.get_rect(midright=(right, rect.centery)))
            right -= img.get_width() + px(3)
            house = art.house_sprite(
                self._seat_rgb(s), self._seat_shape(s), float(px(16)), self._emblems()
            )
            surf.blit(house, house.get_rect(midright=(right, rect.centery)))
            right -= house.get_width() + px(8)
            tiles = seat_view.get("tiles", [])
            chip_w, chip_h = px(26), px(18)
            max_chips = max(0, (right - x - px(70)) // (chip_w + px(3)))
            shown = tiles[:max_chips]
            cx = right - len(shown) * (chip_w + px(3))
            for tile in shown:
                chip = pygame.Rect(cx, rect.centery - chip_h // 2, chip_w, chip_h)
                state = tile.get("state", "ready")
                art.tile_chip(
                    surf,
                    chip,
                    tile["type"],
                    t(f"kb.tile.{tile['type']}.abbr"),
                    self._render,
                    "ready" if state == "ready" else state,
                )
                cx += chip_w + px(3)
            name_right = right - len(shown) * (chip_w + px(3)) - px(6)
            if len(tiles) > len(shown):
                more = fonts.render(f"+{len(tiles) - len(shown)}", px(12), pal.TEXT_DIM, True)
                surf.blit(more, more.get_rect(midright=(name_right, rect.centery)))
                name_right -= more.get_width() + px(4)
            name = self._name(s)
            tag = ""
            if s == you:
                tag = t("kb.panel.you")
            elif s < len(self.seats) and not self.seats[s].connected:
                tag = t("kb.panel.away")
            elif (
                s < len(self.seats)
                and self.seats[s].kind == "bot"
                and t("kb.panel.bot").lower() not in self._name(s).lower()
            ):
                tag = t("kb.panel.bot")
            label = name + (f" ({tag})" if tag else "")
            avail = name_right - x
            size = fonts.fit(label, px(16), avail, s == current, minimum=px(12))
            img = fonts.render(
                fonts.ellipsize(label, size, avail, s == current), size, pal.TEXT, s == current
            )
            surf.blit(img, img.get_rect(midleft=(x, rect.centery)))
            self.row_rects[s] = rect.move(ox, oy)
            y += row_h
        return y + px(4)

    def _paint_cards(self, surf: pygame.Surface, y: int) -> None:
        """Castles and the three cards: name and the live score per player on the first line,
        the card's short rule below."""
        px = self.app.px
        fonts = self.app.fonts
        v = self.view
        w = self.panel_rect.width
        ox, oy = self.panel_rect.topleft
        cats = self._categories()
        scores = v.get("preview") or v.get("scores", [])
        show_scores = self.app.settings.score_preview or v.get("over")
        avail_h = self.panel_rect.height - y
        if avail_h <= px(30):
            return
        row_h = min(px(72), avail_h // max(1, len(cats)))
        live = self.scoring if self.scoring is not None and not self.scoring.done else None
        current_step = live.step if live is not None else -1
        hovered = self.hover_focus if live is None else None
        body_size = px(13)
        line_h = fonts.line_height(body_size)
        for i, key in enumerate(cats):
            rect = pygame.Rect(0, y, w, row_h - px(4))
            highlighted = i == current_step or (hovered is not None and hovered[0] == key)
            pygame.draw.rect(
                surf, (58, 50, 30) if highlighted else pal.BG_PANEL, rect, border_radius=px(8)
            )
            pygame.draw.rect(
                surf,
                pal.ACCENT if highlighted else pal.BORDER,
                rect,
                2 if highlighted else 1,
                border_radius=px(8),
            )
            self.card_rows.append((rect.move(ox, oy), key))
            n = len(scores)
            chip_w, chip_h = px(28), px(20)
            right_w = (chip_w + px(3)) * n if show_scores else 0
            title_w = rect.width - px(16) - right_w - px(6)
            name = category_name(key)
            title = fonts.render(
                fonts.ellipsize(name, px(15), title_w, True), px(15), pal.ACCENT, True
            )
            surf.blit(title, (rect.x + px(8), rect.y + px(3)))
            text_top = rect.y + px(3) + title.get_height()
            max_lines = max(0, (rect.bottom - px(3) - text_top) // line_h)
            short = t(self._card_short_key(key))
            for j, img in enumerate(
                fonts.render_lines(short, body_size, pal.TEXT_DIM, rect.width - px(16), max_lines)
            ):
                surf.blit(img, (rect.x + px(8), text_top + j * line_h))
            if show_scores:
                cx = rect.right - right_w - px(5)
                cy = rect.y + px(4) + title.get_height() // 2
                for s in range(n):
                    value: int | None = scores[s].get(key, 0)
                    if live is not None and i < len(live.categories):
                        value = live.value(i, s)
                    chip = pygame.Rect(cx, cy - chip_h // 2, chip_w, chip_h)
                    colour = self._seat_rgb(s)
                    pygame.draw.rect(surf, colour, chip, border_radius=px(5))
                    pygame.draw.rect(surf, pal.shade(colour, 0.5), chip, 1, border_radius=px(5))
                    if hovered == (key, s):
                        pygame.draw.rect(surf, GOLD, chip.inflate(4, 4), 2, border_radius=px(6))
                    self.score_chips.append((chip.move(ox, oy), key, s))
                    if value is not None:
                        num = fonts.render(str(value), px(13), pal.contrast(colour), True)
                        surf.blit(num, num.get_rect(center=chip.center))
                    cx += chip_w + px(3)
            y += row_h

    def _card_short_key(self, key: str) -> str:
        if key == "castles":
            return "kb.card.castles.short"
        if key == "gold":
            return "kb.gold.short"
        return f"kb.card.{key}.short"

    # ---- the end-of-game scoring on the map ---------------------------------------------------
    def _focus_hexes(self, focus: Focus) -> set[Hex]:
        """Every hex the focus shows bright: its rows, sectors, areas, settlements, specials."""
        e = focus.entry
        out: set[Hex] = set()
        for row in e.get("rows", []):
            out.update((int(row), c) for c in range(20))
        for q in e.get("sectors", []):
            out.update(_sector_hexes(int(q)))
        for group in e.get("groups", []):
            out.update(_hex(h) for h in group)
        out.update(_hex(h) for h in e.get("hexes", []))
        out.update(_hex(h) for h in e.get("specials", []))
        return out

    def _draw_focus_overlay(self, surface: pygame.Surface, focus: Focus) -> None:
        """Rows and sectors washed in gold and outlined; areas outlined (cached per focus)."""
        hx = self.hexes
        assert hx is not None
        key = (focus.category, focus.seat, id(focus.entry), hx)
        if self._overlay is None or self._overlay[0] != key:
            x, y, w, h = hx.bounds()
            local = HexLayout((hx.origin[0] - x, hx.origin[1] - y), hx.size, hx.rows, hx.cols)
            surf = pygame.Surface((w, h), pygame.SRCALPHA)
            e = focus.entry
            bands: list[set[Hex]] = [
                {(int(row), c) for c in range(20)} for row in e.get("rows", [])
            ]
            bands += [set(_sector_hexes(int(q))) for q in e.get("sectors", [])]
            width = max(2, round(hx.size / 6))
            for band in bands:
                for row, col in band:
                    pygame.draw.polygon(surf, (*GOLD, 46), local.corners(row, col))
            for band in bands:
                _outline(surf, local, band, (*GOLD, 235), width)
            for group in e.get("groups", []):
                area = {_hex(h) for h in group}
                _outline(surf, local, area, (20, 16, 8, 200), width + 2)
                _outline(surf, local, area, (255, 236, 170, 255), width)
            self._overlay = (key, surf)
        surface.blit(self._overlay[1], self.static_pos)

    def _faded_house(self, seat: int) -> pygame.Surface:
        """The seat's house, faded (another seat is being scored)."""
        assert self.hexes is not None
        key = (seat, round(self.hexes.size, 1), self._sprite_key())
        sprite = self._faded.get(key)
        if sprite is None:
            sprite = self._house(seat).copy()
            sprite.set_alpha(70)
            self._faded[key] = sprite
        return sprite

    def _draw_marks(self, surface: pygame.Surface, focus: Focus) -> None:
        """Gold rings on the special hexes that scored, a gold mark on every settlement that
        scored (appearing one by one while the points count up), and each sector's points."""
        hx = self.hexes
        assert hx is not None
        e = focus.entry
        size = hx.size
        pulse = 0.5 + 0.5 * math.sin(self.clock * 5.0)
        for h in e.get("specials", []):
            cx, cy = hx.centre(*_hex(h))
            pygame.draw.circle(surface, GOLD_DARK, (cx, cy), size * 0.98, max(3, round(size / 4)))
            pygame.draw.circle(
                surface,
                pal.shade(GOLD, 0.9 + 0.2 * pulse),
                (cx, cy),
                size * 0.98,
                max(2, round(size / 6)),
            )
        hexes = sorted(_hex(h) for h in e.get("hexes", []))
        shown = math.ceil(len(hexes) * focus.progress)
        ring = art.ring_sprite(round(size, 1), GOLD)
        sw, sh = art.sprite_size(round(size, 1))
        rad = max(4.0, size * 0.3)
        # A ring around each settlement, unless a row, sector or area already frames them.
        framed = bool(e.get("rows") or e.get("sectors") or e.get("groups"))
        for h in hexes[:shown]:
            cx, cy = hx.centre(*h)
            if not framed:
                surface.blit(ring, (cx - sw / 2, cy - sh / 2))
            mx, my = cx + size * 0.5, cy - size * 0.45
            pygame.draw.circle(surface, GOLD_DARK, (mx, my), rad + 1.5)
            pygame.draw.circle(surface, GOLD, (mx, my), rad)
            pygame.draw.circle(
                surface, (255, 240, 180), (mx - rad * 0.3, my - rad * 0.3), rad * 0.35
            )
        self.label_rects = []
        if focus.progress <= 0:
            return
        for q, points in zip(e.get("sectors", []), e.get("sector_points", []), strict=False):
            r0, c0 = (int(q) // 2) * 10, (int(q) % 2) * 10
            (ax, ay), (bx, by) = hx.centre(r0 + 4, c0 + 4), hx.centre(r0 + 5, c0 + 5)
            self._label(surface, f"+{points}", ((ax + bx) / 2, (ay + by) / 2), size * 1.6)

    def _label(
        self, surface: pygame.Surface, text: str, centre: tuple[float, float], height: float
    ) -> None:
        """A big gold number on a dark pill, readable over any terrain."""
        img = self.app.fonts.render(text, max(10, int(height)), GOLD, True)
        box = img.get_rect(center=(int(centre[0]), int(centre[1]))).inflate(
            int(height * 0.6), int(height * 0.1)
        )
        veil = pygame.Surface(box.size, pygame.SRCALPHA)
        pygame.draw.rect(veil, (16, 18, 26, 215), veil.get_rect(), border_radius=box.height // 2)
        surface.blit(veil, box)
        self.label_rects.append(box)
        pygame.draw.rect(surface, GOLD, box, 2, border_radius=box.height // 2)
        surface.blit(img, img.get_rect(center=box.center))

    def _paint_scoring_box(self, surf: pygame.Surface, box: pygame.Rect, sc: Scoring) -> None:
        """The turn box during the end-of-game sequence: the category being counted, its rule,
        and the seat whose points the map shows, counting up."""
        beat = sc.beat()
        if beat is None:
            return
        px = self.app.px
        fonts = self.app.fonts
        pygame.draw.rect(surf, (46, 40, 26), box, border_radius=px(10))
        pygame.draw.rect(surf, pal.ACCENT, box, 2, border_radius=px(10))
        key = sc.categories[beat.category]
        x, w = box.x + px(12), box.width - px(24)
        counter = fonts.render(f"{beat.category + 1}/{len(sc.categories)}", px(13), pal.TEXT_DIM)
        surf.blit(counter, counter.get_rect(topright=(box.right - px(12), box.y + px(10))))
        title_w = w - counter.get_width() - px(8)
        title = fonts.render(
            fonts.ellipsize(category_name(key), px(22), title_w, True), px(22), pal.ACCENT, True
        )
        surf.blit(title, (x, box.y + px(6)))
        rule = t(self._card_short_key(key))
        y = box.y + px(8) + title.get_height()
        for img in fonts.render_lines(rule, px(13), pal.TEXT_DIM, w, 1 if beat.seat else 2):
            surf.blit(img, (x, y))
            y += fonts.line_height(px(13))
        if beat.seat is None:
            return
        cy = box.bottom - px(22)
        sw = self._swatch(beat.seat, px(24))
        surf.blit(sw, sw.get_rect(midleft=(x, cy)))
        value = sc.value(beat.category, beat.seat) or 0
        points = fonts.render(f"+{value}", px(24), pal.ACCENT, True)
        surf.blit(points, points.get_rect(midright=(box.right - px(12), cy)))
        avail = box.right - px(12) - points.get_width() - px(10) - (x + px(32))
        name = fonts.render(
            fonts.ellipsize(self._name(beat.seat), px(18), avail, True), px(18), pal.TEXT, True
        )
        surf.blit(name, name.get_rect(midleft=(x + px(32), cy)))


def _sector_hexes(q: int) -> list[Hex]:
    """The 100 hexes of quadrant ``q`` (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right)."""
    r0, c0 = (q // 2) * 10, (q % 2) * 10
    return [(r, c) for r in range(r0, r0 + 10) for c in range(c0, c0 + 10)]


#: Odd-r neighbour offsets (even row, odd row) and the two corners of the shared edge
#: (corners clockwise from the top, as :meth:`HexLayout.corners` lists them).
_EDGES: tuple[tuple[tuple[int, int], tuple[int, int], tuple[int, int]], ...] = (
    ((0, 1), (0, 1), (1, 2)),  # east
    ((1, -1), (1, 0), (3, 4)),  # south-west
    ((1, 0), (1, 1), (2, 3)),  # south-east
    ((0, -1), (0, -1), (4, 5)),  # west
    ((-1, -1), (-1, 0), (5, 0)),  # north-west
    ((-1, 0), (-1, 1), (0, 1)),  # north-east
)


def _outline(
    surface: pygame.Surface,
    layout: HexLayout,
    area: set[Hex],
    colour: tuple[int, ...],
    width: int,
) -> None:
    """The outer border of a set of hexes: every edge whose other side is not in the set."""
    for row, col in area:
        corners = layout.corners(row, col)
        for even, odd, (i, j) in _EDGES:
            dr, dc = odd if row & 1 else even
            if (row + dr, col + dc) in area:
                continue
            a, b = corners[i], corners[j]
            pygame.draw.line(surface, colour, a, b, width)
            pygame.draw.circle(surface, colour, a, width / 2)
            pygame.draw.circle(surface, colour, b, width / 2)


VIEW = KingdomBuilderView


def option_value_label(option: str, value: object) -> str:
    """Names of option values in the setup screen: sections by their location, cards."""
    if option == "sections" and isinstance(value, str):
        return tile_name(value)
    if option == "cards" and isinstance(value, str):
        return card_name(value)
    return str(value)


# ---- help ---------------------------------------------------------------------------------------


def _rules_blocks() -> list[tuple[str, ...]]:
    blocks: list[tuple[str, ...]] = []
    for part in ("goal", "setup", "turn", "placement", "tiles", "end", "scoring", "decisions"):
        blocks.append(("h", t(f"kb.help.{part}.title")))
        blocks.append(("p", t(f"kb.help.{part}")))
    blocks.append(("h", t("kb.help.terrain.title")))
    for code in TERRAINS:
        blocks.append(("item", terrain_name(code), t(f"kb.terrain.{code}.text")))
    return blocks


def _tile_blocks() -> list[tuple[str, ...]]:
    blocks: list[tuple[str, ...]] = [("p", t("kb.help.tiles_intro"))]
    for i, tile in enumerate(LOCATION_TYPES):
        if i == 8:
            blocks.append(("h", t("kb.help.nomads_tiles")))
        blocks.append(("item", tile_name(tile), t(f"kb.tile.{tile}.text")))
    return blocks


def _card_blocks() -> list[tuple[str, ...]]:
    blocks: list[tuple[str, ...]] = [("p", t("kb.help.cards_intro"))]
    blocks.append(("item", t("kb.card.castles"), t("kb.card.castles.text")))
    for card in CARD_NAMES:
        blocks.append(("item", card_name(card), t(f"kb.card.{card}.text")))
    return blocks


def help_pages() -> list[tuple[Any, Any]]:
    """Pages of the help overlay: rules summary, location tiles, Kingdom Builder cards."""
    return [
        (lambda: t("kb.help.page.rules"), _rules_blocks),
        (lambda: t("kb.help.page.tiles"), _tile_blocks),
        (lambda: t("kb.help.page.cards"), _card_blocks),
    ]
