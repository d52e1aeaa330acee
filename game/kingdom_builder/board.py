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
from functools import cache, lru_cache
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


class Board:
    """An assembled map: 4 sections in quadrant order, each possibly turned 180° (KB §2, §3.1).

    Immutable and shared between states.  Tables (all indexed by hex id):

    * ``terrain[h]`` — terrain index (see :data:`TERRAIN_CODES`);
    * ``nbrs[h]`` — the neighbours' ids; ``nbr_set[h]`` the same as a frozenset;
    * ``step[d][h]`` — the neighbour in direction ``d`` (index into :data:`DIRECTIONS`) or -1;
    * ``jump[d][h]`` — the hex exactly two steps away in direction ``d`` or -1 (Paddock);
    * ``sector[h]`` — quadrant 0-3; ``row`` is ``h // 20``;
    * ``loc_adj[h]`` — the location hexes that ``h`` touches;
    * ``edge`` — hexes on the outer edge of the assembled map (Tower, KB §2);
    * ``location_type[L]`` — the tile type of location hex ``L``;
    * ``specials`` — castles, locations and nomad hexes (Workers/Merchants, KB §9.2).
    """

    def __init__(self, names: tuple[str, ...], rotations: tuple[bool, ...]) -> None:
        if len(names) != 4 or len(rotations) != 4:
            raise ValueError("a board has 4 sections")
        data = sections()
        self.names = names
        self.rotations = rotations
        terrain = [0] * HEXES
        castles: list[int] = []
        locations: list[int] = []
        nomads: list[int] = []
        location_type: dict[int, str] = {}
        sector = [0] * HEXES
        for q, (name, rotated) in enumerate(zip(names, rotations, strict=True)):
            sec = data[name]
            r0, c0 = (q // 2) * 10, (q % 2) * 10

            def place(r: int, c: int, rotated: bool = rotated, r0: int = r0, c0: int = c0) -> int:
                if rotated:
                    r, c = 9 - r, 9 - c
                return hex_id(r0 + r, c0 + c)

            for r in range(10):
                for c in range(10):
                    h = place(r, c)
                    terrain[h] = TERRAIN_CODES.index(sec.grid[r][c])
                    sector[h] = q
            castles += [place(r, c) for r, c in sec.castles]
            nomads += [place(r, c) for r, c in sec.nomads]
            for r, c in sec.locations:
                h = place(r, c)
                locations.append(h)
                location_type[h] = name
        self.terrain: tuple[int, ...] = tuple(terrain)
        self.sector: tuple[int, ...] = tuple(sector)
        self.castles: tuple[int, ...] = tuple(sorted(castles))
        self.locations: tuple[int, ...] = tuple(sorted(locations))
        self.nomads: tuple[int, ...] = tuple(sorted(nomads))
        self.location_type = location_type
        self.specials: frozenset[int] = frozenset(castles + locations + nomads)

        step: list[list[int]] = []
        for d in DIRECTIONS:
            row_table = []
            for h in range(HEXES):
                r, c = _neighbour(h // SIZE, h % SIZE, d)
                row_table.append(hex_id(r, c) if 0 <= r < SIZE and 0 <= c < SIZE else -1)
            step.append(row_table)
        self.step: tuple[tuple[int, ...], ...] = tuple(tuple(t) for t in step)
        self.jump: tuple[tuple[int, ...], ...] = tuple(
            tuple(t[t[h]] if t[h] >= 0 else -1 for h in range(HEXES)) for t in step
        )
        self.nbrs: tuple[tuple[int, ...], ...] = tuple(
            tuple(sorted(t[h] for t in step if t[h] >= 0)) for h in range(HEXES)
        )
        self.nbr_set: tuple[frozenset[int], ...] = tuple(frozenset(n) for n in self.nbrs)
        locs = set(locations)
        self.loc_adj: tuple[tuple[int, ...], ...] = tuple(
            tuple(n for n in self.nbrs[h] if n in locs) for h in range(HEXES)
        )
        self.edge: frozenset[int] = frozenset(
            h for h in range(HEXES) if h // SIZE in (0, SIZE - 1) or h % SIZE in (0, SIZE - 1)
        )
        self.edge_list: tuple[int, ...] = tuple(sorted(self.edge))
        #: Hexes a settlement may ever stand on (buildable, water via Harbor, mountain via
        #: Donation–Mountain in Nomads): the "open" terrains.
        self.openable: tuple[bool, ...] = tuple(t <= MOUNTAIN for t in terrain)
        self.buildable: tuple[bool, ...] = tuple(t <= FOREST for t in terrain)
        self.touches_water: tuple[bool, ...] = tuple(
            any(terrain[n] == WATER for n in self.nbrs[h]) for h in range(HEXES)
        )
        self.touches_mountain: tuple[bool, ...] = tuple(
            any(terrain[n] == MOUNTAIN for n in self.nbrs[h]) for h in range(HEXES)
        )
        self.touches_special: tuple[bool, ...] = tuple(
            any(n in self.specials for n in self.nbrs[h]) for h in range(HEXES)
        )
        self.has_nomads_section = any(data[n].expansion == "nomads" for n in names)
        self.has_quarry = "Quarry" in names

    def code(self, h: int) -> str:
        """The terrain letter of hex ``h``."""
        return TERRAIN_CODES[self.terrain[h]]

    def rows(self) -> list[str]:
        """The map as 20 strings of 20 terrain letters (the view's ``board``)."""
        return [
            "".join(TERRAIN_CODES[self.terrain[r * SIZE + c]] for c in range(SIZE))
            for r in range(SIZE)
        ]


@lru_cache(maxsize=256)
def board_for(names: tuple[str, ...], rotations: tuple[bool, ...]) -> Board:
    """The (shared, cached) board for a layout."""
    return Board(names, rotations)
