"""Positions for the Glen More rules tests, and the invariants the property tests check.

The builders keep every count of the game consistent (tiles, cubes, coins, whisky and clan
members move between the stock and the seats), so a hand-built position still saves, loads and
passes :func:`check_invariants`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from game.core.types import Action
from game.glen_more import GAME
from game.glen_more import grid as G
from game.glen_more.codes import (
    CUBE_CAP,
    CUBE_COUNTS,
    CUBE_TOTAL,
    EMPTY,
    PHASES,
    TAKE,
    figure_code,
    figure_of,
)
from game.glen_more.market import ROW_COINS
from game.glen_more.state import GlenMoreState
from game.glen_more.tiles import (
    BOX_CLAN,
    BOX_COINS,
    BOX_RESOURCES,
    BOX_WHISKY,
    KIND_BY_ID,
    KINDS,
    NONE,
    NRES,
    RES_INDEX,
    RIVER,
    RIVER_TILE,
    ROAD,
    ROAD_TILE,
    STACKS,
    START_VILLAGE,
    TRACK_SLOTS,
)

#: A tile id of each shape, for hand-built territories.
PLAIN_FOREST = "S1-16"  # Forest, no river or road, free
RIVER_FOREST = "S0-02"  # Forest with a river
ROAD_FOREST = "S0-08"  # Forest with a road
PLAIN_GRAIN = "S1-14"  # Grain field, plain
PLAIN_QUARRY = "S1-15"  # Quarry, plain
PLAIN_SHEEP = "S1-04"  # Pasture (sheep), plain
PLAIN_CATTLE = "S1-13"  # Cattle pasture, plain
PLAIN_VILLAGE = "S1-08"  # Village, plain, costs 1 stone
ROAD_VILLAGE = "S0-04"  # Village with a road, free
DISTILLERY = "S1-03"  # plain, costs 1 stone, 1 whisky when placed
FAIR3 = "S1-05"  # plain fair, up to 3 kinds, costs 1 wood
FAIR5 = "S3-05"  # road fair, up to 5 kinds
SHEEP_BUTCHER = "S1-02"  # 1 sheep -> 2, 2 sheep -> 4
MIXED_BUTCHER = "S2-03"  # 1 sheep + 1 cattle -> 5
TAVERN3 = "S2-02"  # costs 1 whisky, 3 VP
GROCER = "S3-06"  # any 3 -> 8
BRIDGE = "S3-16"  # river, wood + stone -> 7


def new(players: int = 2, seed: int = 1, **options: Any) -> GlenMoreState:
    return GAME.new(players, options or None, seed)


def kind(tile_id: str) -> int:
    return KIND_BY_ID[tile_id]


def _take_from_supply(st: GlenMoreState, k: int) -> None:
    """Remove one tile of kind ``k`` from its stack, the track or the removed pile."""
    for pile in st.stacks:
        if k in pile:
            pile.remove(k)
            return
    if k in st.removed:
        st.removed.remove(k)
        return
    for i, v in enumerate(st.slots):
        if v == k:
            # replace it on the track by another tile of the same stack
            stack = st.stacks[KINDS[k].stack] or next(p for p in st.stacks if p)
            st.slots[i] = stack.pop()
            return
    raise AssertionError(f"no {KINDS[k].id} left to take")


def put(
    st: GlenMoreState,
    seat: int,
    row: int,
    col: int,
    tile_id: str,
    cubes: dict[str, int] | None = None,
    clan: int = 0,
) -> int:
    """Put a tile into ``seat``'s territory at (row, col) (no placement check), with cubes
    and clan members from the stock; returns the cell."""
    k = kind(tile_id)
    c = G.cell(row, col)
    assert c not in st.grid[seat], "cell taken"
    _take_from_supply(st, k)
    st.grid[seat][c] = k
    if KINDS[k].special:
        st.cards[seat].append(k)
    if cubes:
        add_cubes(st, seat, row, col, cubes)
    if clan:
        set_clan(st, seat, row, col, clan)
    st._acts = None
    st._aset = None
    st._view = None
    st._scores = None
    return c


def add_cubes(st: GlenMoreState, seat: int, row: int, col: int, cubes: dict[str, int]) -> None:
    c = G.cell(row, col)
    for res, n in cubes.items():
        for _ in range(n):
            st._add_cube(seat, c, RES_INDEX[res])
    assert CUBE_TOTAL[st.cubes[seat].get(c, 0)] <= CUBE_CAP
    st._acts = None
    st._aset = None


def set_clan(st: GlenMoreState, seat: int, row: int, col: int, n: int) -> None:
    """Set the clan members on a cell (the difference comes from or goes to the stock)."""
    c = G.cell(row, col)
    old = st.clan[seat].get(c, 0)
    if n:
        st.clan[seat][c] = n
    else:
        st.clan[seat].pop(c, None)
    st.clan_total[seat] += n - old
    st.clan_stock -= n - old
    st._acts = None
    st._aset = None


def set_coins(st: GlenMoreState, seat: int, coins: int) -> None:
    st.bank -= coins - st.coins[seat]
    st.coins[seat] = coins
    st._acts = None
    st._aset = None


def set_whisky(st: GlenMoreState, seat: int, n: int) -> None:
    st.whisky_stock -= n - st.whisky[seat]
    st.whisky[seat] = n
    st._acts = None
    st._aset = None


def set_market(st: GlenMoreState, fills: dict[str, int]) -> None:
    for res, f in fills.items():
        k = RES_INDEX[res]
        st.bank -= ROW_COINS[f] - ROW_COINS[st.market[k]]
        st.market[k] = f
    st._acts = None
    st._aset = None


def offer(st: GlenMoreState, slot: int, tile_id: str) -> None:
    """Make the tile on track space ``slot`` a ``tile_id``: the new one comes from its stack
    (else from elsewhere on the track, swapping places, else from the removed pile); the old
    one goes to the bottom of its stack."""
    k = kind(tile_id)
    old = st.slots[slot]
    assert old >= 0, "offer() replaces a tile"
    if old == k:
        return
    in_stack = any(k in pile for pile in st.stacks)
    if not in_stack and k in st.slots:
        i = st.slots.index(k)
        st.slots[i], st.slots[slot] = old, k
    else:
        _take_from_supply(st, k)
        st.slots[slot] = k
        st.stacks[KINDS[old].stack].insert(0, old)
    st._acts = None
    st._aset = None
    st._view = None


def slot_of(st: GlenMoreState, tile_id: str) -> int:
    return st.slots.index(kind(tile_id))


def legal(st: GlenMoreState) -> list[Action]:
    return st.legal_actions(st.cur)


def play(st: GlenMoreState, *actions: Action) -> list[dict[str, Any]]:
    """Apply actions for the seat to move; returns all events."""
    events: list[dict[str, Any]] = []
    for a in actions:
        events += st.apply(st.cur, a)
    return events


def kinds_of(actions: list[Action], name: str) -> list[Action]:
    return [a for a in actions if a[0] == name]


def take_and_place(st: GlenMoreState, tile_id: str, row: int, col: int) -> list[dict[str, Any]]:
    """Offer ``tile_id`` on the track, take it, pay it (buying when possible, else from the
    first listed tile), place it."""
    offer(st, (st.empty - 1) % TRACK_SLOTS, tile_id)
    events = play(st, ("take", slot_of(st, tile_id)))
    while PHASES[st.phase] == "pay":
        acts = legal(st)
        step = next(a for kind in ("buy", "pay", "pay_clan") for a in acts if a[0] == kind)
        events += play(st, step)
    events += play(st, ("place", row, col))
    return events


# ---- invariants ---------------------------------------------------------------------------
def check_territory(st: GlenMoreState, s: int) -> None:
    """GM §4.2, independently of the engine: edges match, rivers only in column 0 and roads
    only in row 0 (continuous), every tile joined by full edges to the start village."""
    grid = st.grid[s]
    assert grid.get(G.ORIGIN) == START_VILLAGE
    for c, k in grid.items():
        r, q = G.row_col(c)
        edges = KINDS[k].edges
        for i, (dr, dq) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):
            nb = grid.get(G.cell(r + dr, q + dq))
            if nb is not None:
                assert KINDS[nb].edges[(i + 2) % 4] == edges[i], f"edge mismatch at {r, q}"
        cls = KINDS[k].edge_class
        if cls == RIVER_TILE:
            assert q == 0, "a river tile off the river column"
            assert edges[0] == RIVER and edges[2] == RIVER
        if cls == ROAD_TILE:
            assert r == 0, "a road tile off the road row"
            assert edges[1] == ROAD and edges[3] == ROAD
        if k != START_VILLAGE and cls not in (RIVER_TILE, ROAD_TILE):
            assert all(e == NONE for e in edges)
    # river column and road row are contiguous through the start village
    col0 = sorted(G.row_col(c)[0] for c, k in grid.items() if G.row_col(c)[1] == 0)
    river_rows = [r for r in col0 if KINDS[grid[G.cell(r, 0)]].edges[0] == RIVER]
    assert river_rows == list(range(min(river_rows), max(river_rows) + 1))
    seen = {G.ORIGIN}
    todo = [G.ORIGIN]
    while todo:
        c = todo.pop()
        for d in G.ORTHO:
            if c + d in grid and c + d not in seen:
                seen.add(c + d)
                todo.append(c + d)
    assert seen == set(grid), "a tile not joined by a full edge"


def check_invariants(st: GlenMoreState) -> None:
    n = st.players
    # conservation with the stock (GM §1)
    assert sum(st.coins) + sum(ROW_COINS[f] for f in st.market) + st.bank == BOX_COINS
    assert all(c >= 0 for c in st.coins) and st.bank >= 0
    for k in range(NRES):
        on_tiles = sum(CUBE_COUNTS[v][k] for cubes in st.cubes for v in cubes.values())
        assert on_tiles == sum(h[k] for h in st.have)
        assert on_tiles + st.stock[k] == BOX_RESOURCES[k]
        assert 0 <= st.market[k] <= 3
    assert sum(st.whisky) + st.whisky_stock == BOX_WHISKY and min(st.whisky) >= 0
    clan_on = [sum(c.values()) for c in st.clan]
    assert clan_on == st.clan_total
    # the supply is unlimited (GM §1, issue 20): below zero the stock counts substitutes
    assert sum(clan_on) + sum(st.chieftains) + st.clan_stock == BOX_CLAN
    # every tile exactly once
    every = Counter(k for p in st.stacks for k in p)
    every.update(v for v in st.slots if v >= 0)
    every.update(k for g in st.grid for k in g.values() if k != START_VILLAGE)
    every.update(st.removed)
    if st.taken >= 0 and st.at < 0:
        every[st.taken] += 1
    assert every == Counter(k for p in STACKS for k in p)
    for p, pile in enumerate(st.stacks):
        assert all(KINDS[k].stack == p for k in pile)
    # the territories (GM §4.2), cubes (GM §4.3: at most 3) and clan members (GM §4.4)
    for s in range(n):
        check_territory(st, s)
        for c, v in st.cubes[s].items():
            assert c in st.grid[s] and 0 < CUBE_TOTAL[v] <= CUBE_CAP
        for c, m in st.clan[s].items():
            assert c in st.grid[s] and m > 0
        assert st.clan_total[s] >= 1
        assert sorted(st.cards[s]) == sorted(k for k in st.grid[s].values() if KINDS[k].special)
    # the track (GM §3): figures, and one empty space at the start of every turn
    figs = [figure_of(v) for v in st.slots if v <= -2]
    assert sorted(figs) == list(range(n + (1 if st.die else 0)))
    for f, slot in enumerate(st.figs):
        assert st.slots[slot] == figure_code(f)
    if not st.over:
        empties = [i for i, v in enumerate(st.slots) if v == EMPTY]
        if st.phase == TAKE:
            assert empties == [st.empty], "exactly one empty space at the start of a turn"
            assert st.slots[(st.empty + 1) % TRACK_SLOTS] == figure_code(st.cur)
            tiles = sum(1 for v in st.slots if v >= 0)
            assert tiles == TRACK_SLOTS - 1 - len(st.figs)
        else:
            assert sorted(empties) == sorted({st.empty, (st.empty + 1) % TRACK_SLOTS})
    # scoring rounds follow the used-up stacks (GM §7.1)
    assert len(st.rounds) == sum(1 for p in st.stacks[1:] if not p)
    assert (st.final is not None) == st.over
    scores = st.scores()
    assert len(scores) == n
    for row in scores:
        assert row["total"] == sum(v for k, v in row.items() if k != "total")
