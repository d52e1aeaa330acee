"""What every section of the Kingdom Builder view shares: the map's geometry helpers, the
constants, and :class:`KBBase` — the view's state (read from the view dict) and the small
drawing helpers every section uses (seat colours and shapes, houses, text).

The view is one class split along its sections, each a module with one mixin class that may use
everything of the modules before it (``common`` → ``text`` → ``input`` → ``scoring`` → ``board``
→ ``panel``) and :mod:`.view` puts them together.  A new game's view copies this layout.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from game.kingdom_builder import nomads as nm
from game.kingdom_builder.board import NBRS, SIZE
from game.kingdom_builder.scoring import CARDS
from game.ui import palette as pal
from game.ui.games.base import Action, GameView, SeatInfo
from game.ui.games.kingdom_builder import art
from game.ui.hexlayout import HexLayout

if TYPE_CHECKING:
    from game.ui.app import App
    from game.ui.games.kingdom_builder.board import Anim
    from game.ui.games.kingdom_builder.scoring import Scoring

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


#: The three Nomads Kingdom Builder cards, which pay gold during play (KB §9.3): the engine's.
NOMAD_CARD_NAMES = nm.CARDS


#: The five kinds of nomad tile (KB §7 "Nomad tiles"), in the order of the help page.
NOMAD_TILE_TYPES = nm.TILE_TYPES


#: The score category of the gold Treasure tiles paid (``docs/kingdom-builder.md``, "Scores").
TREASURE = "treasure"


TERRAINS = "GCDFTWMKLN"


#: The actions that name a hex of the map to click: a build or a move's destination, a move's
#: source, a Quarry wall, a Sword's victim.
BOARD_ACTIONS = ("place", "move_from", "wall", "remove")


def hex_of(value: Any) -> Hex:
    """A hex from a view's ``[row, col]`` pair."""
    return (int(value[0]), int(value[1]))


def neighbours(r: int, c: int) -> list[Hex]:
    """The neighbours of (r, c) on the map (KB §2), from the engine's geometry."""
    return [(n // SIZE, n % SIZE) for n in NBRS[r * SIZE + c]]


def quadrant(r: int, c: int) -> int:
    return (2 if r >= 10 else 0) + (1 if c >= 10 else 0)


class KBBase(GameView):
    """The Kingdom Builder view's state and shared helpers (see the module docstring)."""

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
        #: The view's ``nomads`` by hex: each nomad hex with its face-up tile (or none).
        self.nomads: dict[Hex, dict[str, Any]] = {}
        self.actions_at: dict[Hex, Action] = {}
        #: ``view["scoring"]`` by (category, seat): what each category scored, once it is over.
        self.score_details: dict[tuple[str, int], dict[str, Any]] = {}
        #: After the sequence: the (category, seat) the mouse points at in the panel.
        self.hover_focus: tuple[str, int] | None = None
        self.score_chips: list[tuple[pygame.Rect, str, int]] = []
        self._overlay: tuple[tuple[Any, ...], pygame.Surface] | None = None
        self._faded: dict[tuple[int, float, tuple[Any, ...]], pygame.Surface] = {}
        self._nomad_sprites: dict[tuple[Any, ...], pygame.Surface] = {}
        #: Where the last frame drew the sectors' point labels (over the marks there).
        self.label_rects: list[pygame.Rect] = []
        #: Whether the seat's own secrets (its next terrain card) may be shown: the game scene
        #: turns this off in hot-seat games while another player may be looking.
        self.show_private = True

    def _categories(self) -> list[str]:
        """The score categories in scoring order: castles, the three cards, and Treasure's gold
        when the view's scores have that column (full Nomads on a map with nomad hexes)."""
        cats = ["castles", *self.view.get("cards", [])]
        scores = self.view.get("scores") or [{}]
        if isinstance(scores[0], dict) and TREASURE in scores[0]:
            cats.append(TREASURE)
        return cats

    def _own_tiles(self) -> list[dict[str, Any]]:
        """The shown seat's location tiles, then its nomad tiles (``nomad``), as buttons show
        them: ``type`` (a location type or nomad tile type), ``hex``, ``state``, ``terrain``."""
        v = self.view
        you = v.get("you")
        seats = v.get("seats") or []
        if not isinstance(you, int) or not 0 <= you < len(seats):
            return []
        seat = seats[you]
        out: list[dict[str, Any]] = [dict(tile) for tile in seat.get("tiles", [])]
        for tile in seat.get("nomad_tiles", []):
            out.append(
                {
                    "type": tile.get("tile"),
                    "hex": tile.get("hex"),
                    "state": tile.get("state", "ready"),
                    "terrain": tile.get("terrain"),
                    "nomad": True,
                }
            )
        return out

    def _speed(self) -> float:
        return self.app.settings.animation_speed

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

    def _sprite_key(self) -> tuple[Any, ...]:
        return (
            self.app.settings.colour_blind,
            self.app.settings.strong_outlines,
            self.app.settings.language if hasattr(self.app.settings, "language") else "",
        )

    def _render(self, text: str, size: int, colour: pal.RGB, bold: bool = False) -> pygame.Surface:
        return self.app.fonts.render(text, size, colour, bold)
