"""How a Kingdom Builder position is encoded (the module docstring of
:mod:`game.kingdom_builder.state` has the whole picture): the supplies, the map's empty and wall
markers, tile states and the steps of a tile action, the tile families, the interned action
tuples per hex, hex ids as views write them, and :class:`Decision` — what the player to move may
do, cached until the next action."""

from __future__ import annotations

from game.core.types import Action
from game.kingdom_builder import nomads as nm
from game.kingdom_builder.board import HEXES, SIZE, TERRAIN_CODES
from game.kingdom_builder.scoring import TREASURE

GAME_ID = "kingdom-builder"
SETTLEMENTS = 40
CARDS_PER_TERRAIN = 5

EMPTY = -1
WALL = -2

#: Tile states: usable now, used this turn, gained this turn (usable from the next turn).
READY, USED, NEW = 0, 1, 2
TILE_STATES = ("ready", "used", "pending")

#: Steps of a tile action in progress (``victim``: Sword, choosing a settlement to remove).
TARGET, SOURCE, WALL1, WALL2, VICTIM = "target", "source", "wall", "second_wall", "victim"
STEPS = (TARGET, SOURCE, WALL1, WALL2, VICTIM)

BUILD_TILES = frozenset({"Oracle", "Farm", "Oasis", "Tower", "Tavern", "Garden", "Village"})
MOVE_TILES = frozenset({"Barn", "Harbor", "Paddock", "Caravan"})
WALL_TILES = frozenset({"Quarry"})
#: Every location tile type (the section names).
TILE_TYPES = BUILD_TILES | MOVE_TILES | WALL_TILES
#: Nomad tile types that build settlements (KB §7 nomad tiles).
NOMAD_BUILDS = frozenset({"Donation"})
#: Where in-play gold goes: index of each source in ``gold[seat]``.
GOLD_INDEX = {source: i for i, source in enumerate(nm.GOLD_SOURCES)}
#: Score categories banked as they are earned (KB §9.3): the Nomads cards and Treasure.
BANKED = frozenset(nm.CARDS) | {TREASURE}

#: Interned action tuples per hex id.
PLACE: tuple[Action, ...] = tuple(("place", h // SIZE, h % SIZE) for h in range(HEXES))
USE: tuple[Action, ...] = tuple(("use", h // SIZE, h % SIZE) for h in range(HEXES))
MOVE_FROM: tuple[Action, ...] = tuple(("move_from", h // SIZE, h % SIZE) for h in range(HEXES))
WALL_AT: tuple[Action, ...] = tuple(("wall", h // SIZE, h % SIZE) for h in range(HEXES))
REMOVE: tuple[Action, ...] = tuple(("remove", h // SIZE, h % SIZE) for h in range(HEXES))
STOP: Action = ("stop",)
END: Action = ("end",)
ACTION_KINDS = ("place", "use", "move_from", "wall", "remove", "stop", "end")

_NO_HEXES: frozenset[int] = frozenset()


def hex_of(action: Action) -> int:
    """The hex id named by ``(kind, r, c)``, or -1 if the action does not name a map hex."""
    if len(action) != 3:
        return -1
    r, c = action[1], action[2]
    if type(r) is not int or type(c) is not int or not (0 <= r < SIZE and 0 <= c < SIZE):
        return -1
    return r * SIZE + c


def pos(h: int) -> list[int]:
    """A hex id as the ``[r, c]`` list used in views, events and saves."""
    return [h // SIZE, h % SIZE]


def terrain_code(tile_id: str) -> str | None:
    """The terrain letter of a Donation tile, ``None`` for the other nomad tiles."""
    t = nm.TILE_TERRAIN[tile_id]
    return TERRAIN_CODES[t] if t >= 0 else None


class Decision:
    """What the player to move may do now (cached until the next action)."""

    __slots__ = ("actions", "end", "place", "removes", "sources", "stop", "uses", "walls")

    def __init__(self) -> None:
        self.place: set[int] | frozenset[int] = _NO_HEXES
        self.uses: list[int] = []
        self.sources: list[int] = []
        self.walls: set[int] | frozenset[int] = _NO_HEXES
        self.removes: list[int] = []
        self.stop = False
        self.end = False
        self.actions: list[Action] | None = None

    def action_list(self) -> list[Action]:
        """The legal actions in their documented order (built once, then cached)."""
        acts = self.actions
        if acts is None:
            acts = [PLACE[h] for h in sorted(self.place)] if self.place else []
            if self.uses:
                acts += [USE[h] for h in self.uses]
            if self.sources:
                acts += [MOVE_FROM[h] for h in self.sources]
            if self.walls:
                acts += [WALL_AT[h] for h in sorted(self.walls)]
            if self.removes:
                acts += [REMOVE[h] for h in self.removes]
            if self.stop:
                acts.append(STOP)
            if self.end:
                acts.append(END)
            self.actions = acts
        return acts
