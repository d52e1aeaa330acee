"""A player's territory: square-grid cells and the placement rule (GM §4.2).

A cell ``(row, col)`` is stored as one int, :func:`cell`; the start village is at ``(0, 0)``,
rows grow to the south and columns to the east.  Rivers run north-south and roads east-west
(tiles are never rotated), so every river tile lies in column 0 and every road tile in row 0.

**Placement (GM §4.2).**  A tile may go on an empty cell when

1. it shares at least one full edge with a tile of the territory (a corner is not enough);
2. one of the 8 surrounding cells (diagonals included) holds at least one clan member;
3. every edge it shares with a neighbour is of the same type on both sides (river to river,
   road to road, nothing to nothing);
4. a river tile continues a river (the tile directly north or south of it exists — by rule 3
   it then has a river), and a road tile continues a road (the tile directly east or west).
"""

from __future__ import annotations

from game.glen_more.tiles import KINDS, NONE, PLAIN, RIVER, RIVER_TILE, ROAD, ROAD_TILE

#: Offset and width of the cell encoding (a territory never reaches 128 cells from its
#: start village: there are 67 land tiles).
OFFSET = 128
WIDTH = 256
LIMIT = 127

#: Direction offsets: north, east, south, west (the order of a tile's ``edges``).
N, E, S, W = -WIDTH, 1, WIDTH, -1
ORTHO: tuple[int, int, int, int] = (N, E, S, W)
#: The 8 neighbours (orthogonal and diagonal), clockwise from north.
AROUND: tuple[int, ...] = (N, N + E, E, S + E, S, S + W, W, N + W)
ORIGIN = OFFSET * WIDTH + OFFSET


def cell(row: int, col: int) -> int:
    """The cell id of ``(row, col)``."""
    return (row + OFFSET) * WIDTH + (col + OFFSET)


def row_col(c: int) -> tuple[int, int]:
    """``(row, col)`` of a cell id."""
    r, q = divmod(c, WIDTH)
    return r - OFFSET, q - OFFSET


def rc(c: int) -> list[int]:
    """A cell as the ``[row, col]`` list of views and events."""
    r, q = divmod(c, WIDTH)
    return [r - OFFSET, q - OFFSET]


def in_range(row: object, col: object) -> bool:
    """Whether ``row`` and ``col`` are ints a territory cell can have."""
    return (
        type(row) is int and type(col) is int and -LIMIT <= row <= LIMIT and -LIMIT <= col <= LIMIT
    )


def adjacent8(a: int, b: int) -> bool:
    """Whether two cells touch at an edge or a corner."""
    return a != b and (b - a) in AROUND


def frontier(grid: dict[int, int]) -> set[int]:
    """Empty cells sharing an edge with a tile of ``grid`` (rule 1)."""
    out: set[int] = set()
    for c in grid:
        for d in ORTHO:
            x = c + d
            if x not in grid:
                out.add(x)
    return out


def near_clan(clan: dict[int, int], c: int) -> bool:
    """Rule 2: a clan member stands on one of the 8 cells around ``c``."""
    return any(clan.get(c + d) for d in AROUND)


def edges_fit(grid: dict[int, int], c: int, edge_class: int) -> bool:
    """Rules 3 and 4 for a tile of ``edge_class`` (plain, river or road) on empty cell ``c``."""
    kinds = KINDS
    k = grid.get(c + N)
    north = NONE if k is None else kinds[k].edges[2]
    k = grid.get(c + S)
    south = NONE if k is None else kinds[k].edges[0]
    k = grid.get(c + E)
    east = NONE if k is None else kinds[k].edges[3]
    k = grid.get(c + W)
    west = NONE if k is None else kinds[k].edges[1]
    if edge_class == PLAIN:
        return north == NONE and south == NONE and east == NONE and west == NONE
    if edge_class == RIVER_TILE:
        # N/S neighbours (if any) must have a river facing it, at least one must exist;
        # E/W neighbours must face it with nothing.
        if east != NONE or west != NONE:
            return False
        has_n = (c + N) in grid
        has_s = (c + S) in grid
        if has_n and north != RIVER:
            return False
        if has_s and south != RIVER:
            return False
        return has_n or has_s
    if edge_class == ROAD_TILE:
        if north != NONE or south != NONE:
            return False
        has_e = (c + E) in grid
        has_w = (c + W) in grid
        if has_e and east != ROAD:
            return False
        if has_w and west != ROAD:
            return False
        return has_e or has_w
    return False  # the start village is never placed


def candidates(grid: dict[int, int], clan: dict[int, int]) -> set[int]:
    """Empty cells meeting rules 1 and 2: a full edge with the territory and a clan member
    among the 8 cells around (the cells around the clan members are few, so they are
    collected first)."""
    zone = {c + d for c in clan for d in AROUND}
    out: set[int] = set()
    for c in zone:
        if c in grid:
            continue
        for d in ORTHO:
            if (c + d) in grid:
                out.add(c)
                break
    return out


def legal_cells(grid: dict[int, int], clan: dict[int, int], edge_class: int) -> list[int]:
    """Every cell where a tile of ``edge_class`` may be placed (GM §4.2), sorted."""
    return sorted(c for c in candidates(grid, clan) if edges_fit(grid, c, edge_class))


def placements(grid: dict[int, int], clan: dict[int, int]) -> tuple[list[int], ...]:
    """Legal cells for each edge class (plain, river, road), sorted (GM §4.2)."""
    out: tuple[list[int], ...] = ([], [], [])
    for c in sorted(candidates(grid, clan)):
        for cls in (PLAIN, RIVER_TILE, ROAD_TILE):
            if edges_fit(grid, c, cls):
                out[cls].append(c)
    return out


def can_place(grid: dict[int, int], clan: dict[int, int], edge_class: int) -> bool:
    """Whether a tile of ``edge_class`` has a legal cell."""
    return any(edges_fit(grid, c, edge_class) for c in candidates(grid, clan))


def placement_ok(grid: dict[int, int], clan: dict[int, int], c: int, edge_class: int) -> bool:
    """Whether ``c`` is a legal cell for a tile of ``edge_class`` (all four rules)."""
    if c in grid:
        return False
    if not any((c + d) in grid for d in ORTHO):
        return False
    return near_clan(clan, c) and edges_fit(grid, c, edge_class)


def placement_problem(
    grid: dict[int, int], clan: dict[int, int], c: int, edge_class: int
) -> tuple[str, str]:
    """Which rule of GM §4.2 forbids ``c``: a short key and the rule in words (``("", "")`` if
    none does); the key names the refusal for a client's translation."""
    if c in grid:
        return "cell_taken", "that cell already holds a tile"
    if not any((c + d) in grid for d in ORTHO):
        if any((c + d) in grid for d in AROUND):
            return (
                "corner_only",
                "a tile must share a full edge with your territory; a corner is not enough",
            )
        return "no_edge", "a tile must share a full edge with your territory"
    if not near_clan(clan, c):
        return "no_clan_near", "one of the 8 cells around it must hold one of your clan members"
    if not edges_fit(grid, c, edge_class):
        if edge_class == RIVER_TILE:
            return (
                "river_fit",
                "a river tile must continue your river (north-south) and meet no road",
            )
        if edge_class == ROAD_TILE:
            return "road_fit", "a road tile must continue your road (east-west) and meet no river"
        return (
            "plain_fit",
            "a tile without river or road may only touch edges without river or road",
        )
    return "", ""


def placement_error(grid: dict[int, int], clan: dict[int, int], c: int, edge_class: int) -> str:
    """Which rule of GM §4.2 forbids ``c`` ('' if none does), in words."""
    return placement_problem(grid, clan, c, edge_class)[1]


__all__ = [
    "AROUND",
    "ORIGIN",
    "ORTHO",
    "RIVER",
    "ROAD",
    "E",
    "N",
    "S",
    "W",
    "adjacent8",
    "can_place",
    "candidates",
    "cell",
    "edges_fit",
    "frontier",
    "in_range",
    "legal_cells",
    "near_clan",
    "placement_error",
    "placement_ok",
    "placement_problem",
    "placements",
    "rc",
    "row_col",
]
