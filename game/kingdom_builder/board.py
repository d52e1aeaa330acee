"""The Kingdom Builder map: section data, the assembled 20x20 board and its precomputed tables.

Coordinates (KB §2): a hex is ``(row, col)`` on the assembled map, row 0 at the top, odd-r offset
(odd rows shifted half a hex right).  Inside the engine a hex is the integer ``row * 20 + col``;
every geometric question the rules ask (neighbours, straight lines, the map edge, sectors,
which location hexes a hex touches) is answered by a table built once per board layout and
shared by every state that uses that layout (:func:`board_for` caches them).

Section data comes from ``data/sections.json`` (converted from the shared board file; see its
``about`` field for the sources).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache
from importlib import resources
from typing import Any

SIZE = 20
HEXES = SIZE * SIZE

#: Terrain codes in index order.  0-4 buildable (KB §1.3), 5 water, 6 mountain, then the
#: special hexes: 7 castle, 8 location, 9 nomad hex (Nomads).
TERRAIN_CODES = "GCDFTWMKLN"
GRASS, CANYON, DESERT, FLOWER, FOREST, WATER, MOUNTAIN, CASTLE, LOCATION, NOMAD = range(10)
BUILDABLE = (GRASS, CANYON, DESERT, FLOWER, FOREST)
TERRAIN_NAMES = (
    "Grass",
    "Canyon",
    "Desert",
    "Flower field",
    "Forest",
    "Water",
    "Mountain",
    "Castle",
    "Location",
    "Nomad hex",
)

#: Quadrant order used everywhere (options, views): top-left, top-right, bottom-left, bottom-right.
QUADRANTS = ("top-left", "top-right", "bottom-left", "bottom-right")

BASE_SECTIONS = ("Oracle", "Farm", "Oasis", "Tower", "Tavern", "Barn", "Harbor", "Paddock")
NOMADS_SECTIONS = ("Quarry", "Caravan", "Village", "Garden")
ALL_SECTIONS = BASE_SECTIONS + NOMADS_SECTIONS

#: The six directions of a straight line (KB §2), as (name, cube delta (dx, dz)).
DIRECTIONS = ("E", "W", "NE", "NW", "SE", "SW")


def hex_id(row: int, col: int) -> int:
    return row * SIZE + col


def rc(h: int) -> tuple[int, int]:
    return divmod(h, SIZE)


def _neighbour(row: int, col: int, direction: str) -> tuple[int, int]:
    """The neighbour of (row, col) in a direction, odd-r offset (KB §2 neighbour lists)."""
    odd = row & 1
    if direction == "E":
        return row, col + 1
    if direction == "W":
        return row, col - 1
    if direction == "NE":
        return row - 1, col + odd
    if direction == "NW":
        return row - 1, col - 1 + odd
    if direction == "SE":
        return row + 1, col + odd
    return row + 1, col - 1 + odd  # SW


@dataclass(frozen=True)
class Section:
    """One printed board section as in the data file (unrotated)."""

    name: str
    expansion: str
    grid: tuple[str, ...]
    castles: tuple[tuple[int, int], ...]
    locations: tuple[tuple[int, int], ...]
    nomads: tuple[tuple[int, int], ...]


@cache
def section_data() -> dict[str, Any]:
    """The parsed ``data/sections.json``."""
    text = resources.files("game.kingdom_builder").joinpath("data/sections.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@cache
def sections() -> dict[str, Section]:
    """Every section by name, checked for shape."""
    out: dict[str, Section] = {}
    for s in section_data()["sections"]:
        sec = Section(
            name=s["name"],
            expansion=s["expansion"],
            grid=tuple(s["grid"]),
            castles=tuple((r, c) for r, c in s["castles"]),
            locations=tuple((r, c) for r, c in s["locations"]),
            nomads=tuple((r, c) for r, c in s["nomads"]),
        )
        if len(sec.grid) != 10 or any(len(row) != 10 for row in sec.grid):
            raise ValueError(f"section {sec.name} is not 10x10")
        for code, hexes in (("K", sec.castles), ("L", sec.locations), ("N", sec.nomads)):
            for r, c in hexes:
                if sec.grid[r][c] != code:
                    raise ValueError(f"section {sec.name} ({r},{c}) should be {code}")
        out[sec.name] = sec
    if tuple(out) != ALL_SECTIONS:
        raise ValueError("section data does not hold the 12 sections in the expected order")
    return out


TILES_PER_LOCATION_HEX = 2
STONE_WALLS = 25


def _geometry() -> tuple[
    tuple[tuple[int, ...], ...],
    tuple[tuple[int, ...], ...],
    tuple[tuple[int, ...], ...],
]:
    """Step tables per direction, jump (2 steps) tables per direction, neighbour lists."""
    step: list[tuple[int, ...]] = []
    for d in DIRECTIONS:
        table = []
        for h in range(HEXES):
            r, c = _neighbour(h // SIZE, h % SIZE, d)
            table.append(hex_id(r, c) if 0 <= r < SIZE and 0 <= c < SIZE else -1)
        step.append(tuple(table))
    jump = [tuple(t[t[h]] if t[h] >= 0 else -1 for h in range(HEXES)) for t in step]
    nbrs = [tuple(sorted(t[h] for t in step if t[h] >= 0)) for h in range(HEXES)]
    return tuple(step), tuple(jump), tuple(nbrs)


#: ``STEP[d][h]``: the neighbour of ``h`` in direction ``DIRECTIONS[d]``, or -1 off the map.
#: ``JUMP[d][h]``: the hex two steps away (Paddock), or -1.  ``NBRS[h]``: the neighbours.
STEP, JUMP, NBRS = _geometry()
NBR_SET: tuple[frozenset[int], ...] = tuple(frozenset(n) for n in NBRS)
#: (forward, backward) step tables of the 3 axes: E/W, SE/NW, SW/NE.
AXES: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = (
    (STEP[0], STEP[1]),
    (STEP[4], STEP[3]),
    (STEP[5], STEP[2]),
)
#: Hexes on the outer edge of the assembled map (Tower, KB §2); seams between sections are not.
EDGE: frozenset[int] = frozenset(
    h for h in range(HEXES) if h // SIZE in (0, SIZE - 1) or h % SIZE in (0, SIZE - 1)
)
EDGE_LIST: tuple[int, ...] = tuple(sorted(EDGE))
#: The quadrant (0 TL, 1 TR, 2 BL, 3 BR) of each hex.
SECTOR: tuple[int, ...] = tuple((h // SIZE // 10) * 2 + (h % SIZE) // 10 for h in range(HEXES))


def _table(value: dict[str, int]) -> bytes:
    """A ``bytes.translate`` table from terrain letters to small ints."""
    table = bytearray(256)
    for ch, v in value.items():
        table[ord(ch)] = v
    return bytes(table)


_TO_INDEX = _table({ch: i for i, ch in enumerate(TERRAIN_CODES)})
_TO_OPEN = _table({ch: 1 for ch in TERRAIN_CODES[: MOUNTAIN + 1]})
_TO_BUILDABLE = _table({ch: 1 for ch in TERRAIN_CODES[: FOREST + 1]})


@cache
def _placed_section(
    name: str, rotated: bool
) -> tuple[str, tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """A section's 100 terrain letters row by row as placed (turned or not), and its castle,
    location and nomad hexes as indexes 0..99 into that block."""
    sec = sections()[name]
    cells = "".join(sec.grid)
    if rotated:
        cells = cells[::-1]

    def index(r: int, c: int) -> int:
        return (9 - r) * 10 + (9 - c) if rotated else r * 10 + c

    return (
        cells,
        tuple(index(r, c) for r, c in sec.castles),
        tuple(index(r, c) for r, c in sec.locations),
        tuple(index(r, c) for r, c in sec.nomads),
    )


class Board:
    """An assembled map: 4 sections in quadrant order, each possibly turned 180° (KB §2, §3.1).

    Immutable and shared between states.  The geometry tables (``step``, ``jump``, ``nbrs``,
    ``nbr_set``, ``axes``, ``edge``, ``sector``) are the same for every layout; per layout
    (all indexed by hex id):

    * ``terrain[h]`` — terrain index (see :data:`TERRAIN_CODES`);
    * ``loc_adj[h]`` — the location hexes that ``h`` touches; ``nomad_adj[h]`` the nomad hexes;
    * ``location_type[L]`` — the tile type of location hex ``L``;
    * ``specials`` — castles, locations and nomad hexes (Workers/Merchants, KB §9.2);
    * ``openable``/``buildable`` — a settlement may ever stand there / may be built there;
    * ``touches_water``/``touches_mountain``/``touches_special`` — for scoring.
    """

    step = STEP
    jump = JUMP
    nbrs = NBRS
    nbr_set = NBR_SET
    axes = AXES
    edge = EDGE
    edge_list = EDGE_LIST
    sector = SECTOR

    def __init__(self, names: tuple[str, ...], rotations: tuple[bool, ...]) -> None:
        if len(names) != 4 or len(rotations) != 4:
            raise ValueError("a board has 4 sections")
        data = sections()
        self.names = names
        self.rotations = rotations
        placed = [_placed_section(n, r) for n, r in zip(names, rotations, strict=True)]
        rows = []
        for half in (0, 1):
            left, right = placed[2 * half][0], placed[2 * half + 1][0]
            rows += [left[r * 10 : r * 10 + 10] + right[r * 10 : r * 10 + 10] for r in range(10)]
        self._rows = rows
        codes = "".join(rows).encode("ascii")
        terrain = codes.translate(_TO_INDEX)
        castles: list[int] = []
        locations: list[int] = []
        nomads: list[int] = []
        location_type: dict[int, str] = {}

        for q, (name, (_, ks, ls, ns)) in enumerate(zip(names, placed, strict=True)):
            base = (q // 2) * 10 * SIZE + (q % 2) * 10

            def at(i: int, base: int = base) -> int:
                return base + (i // 10) * SIZE + i % 10

            castles += [at(i) for i in ks]
            nomads += [at(i) for i in ns]
            for i in ls:
                locations.append(at(i))
                location_type[at(i)] = name
        #: Terrain index per hex (a ``bytes``: indexing gives ints).
        self.terrain: bytes = terrain
        self.castles: tuple[int, ...] = tuple(sorted(castles))
        self.castle_set: frozenset[int] = frozenset(castles)
        self.locations: tuple[int, ...] = tuple(sorted(locations))
        self.nomads: tuple[int, ...] = tuple(sorted(nomads))
        self.location_type = location_type
        self.specials: frozenset[int] = frozenset(castles + locations + nomads)
        loc_adj: list[tuple[int, ...]] = [()] * HEXES
        for loc in self.locations:
            for n in NBRS[loc]:
                loc_adj[n] = (*loc_adj[n], loc)
        self.loc_adj: tuple[tuple[int, ...], ...] = tuple(loc_adj)
        nomad_adj: list[tuple[int, ...]] = [()] * HEXES
        for nh in self.nomads:
            for n in NBRS[nh]:
                nomad_adj[n] = (*nomad_adj[n], nh)
        #: ``nomad_adj[h]``: the nomad hexes that ``h`` touches (KB §7 nomad tiles).
        self.nomad_adj: tuple[tuple[int, ...], ...] = tuple(nomad_adj)
        #: Hexes a settlement may ever stand on (buildable, water via Harbor, mountain via
        #: Donation–Mountain in Nomads): the "open" terrains.
        #: (``bytes`` of 0/1 per hex.)
        self.openable: bytes = codes.translate(_TO_OPEN)
        self.buildable: bytes = codes.translate(_TO_BUILDABLE)
        free: list[list[int]] = [[] for _ in TERRAIN_CODES]
        for h, t in enumerate(terrain):
            free[t].append(h)
        #: The empty hexes of each open terrain (G C D F T W M) before anything is placed.
        self.initial_free: tuple[frozenset[int], ...] = tuple(
            frozenset(f) for f in free[: MOUNTAIN + 1]
        )
        self.has_nomads_section = any(data[n].expansion == "nomads" for n in names)
        self.has_quarry = "Quarry" in names

    def _touching(self, hexes: frozenset[int]) -> tuple[bool, ...]:
        out = [False] * HEXES
        for h in hexes:
            for n in NBRS[h]:
                out[n] = True
        return tuple(out)

    @cached_property
    def touches_water(self) -> tuple[bool, ...]:
        return self._touching(self.initial_free[WATER])

    @cached_property
    def touches_mountain(self) -> tuple[bool, ...]:
        return self._touching(self.initial_free[MOUNTAIN])

    @cached_property
    def touches_special(self) -> tuple[bool, ...]:
        return self._touching(self.specials)

    def code(self, h: int) -> str:
        """The terrain letter of hex ``h``."""
        return TERRAIN_CODES[self.terrain[h]]

    def rows(self) -> list[str]:
        """The map as 20 strings of 20 terrain letters (the view's ``board``)."""
        return list(self._rows)


@lru_cache(maxsize=256)
def board_for(names: tuple[str, ...], rotations: tuple[bool, ...]) -> Board:
    """The (shared, cached) board for a layout."""
    return Board(names, rotations)
