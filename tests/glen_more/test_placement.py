"""Placing a tile in the territory (GM §4.2): a full edge, a clan member among the 8 cells
around, matching edges, rivers and roads continued, no rotation."""

from __future__ import annotations

import pytest

from game.core.types import IllegalAction
from game.glen_more import grid as G
from game.glen_more.codes import PHASES
from tests.glen_more.helpers import (
    PLAIN_GRAIN,
    RIVER_FOREST,
    check_invariants,
    kinds_of,
    legal,
    new,
    offer,
    play,
    put,
    set_clan,
)

RIVER_SHEEP = "S0-03"
ROAD_VILLAGE = "S0-04"
ROAD_QUARRY = "S0-01"


def territory():
    """Seat 0: start village (0, 0) with its clan member, a river forest north of it and a
    road quarry east of it."""
    st = new(4, seed=2)
    put(st, 0, -1, 0, RIVER_FOREST)
    put(st, 0, 0, 1, ROAD_QUARRY)
    return st


def places_for(st, tile_id: str) -> list[tuple[int, int]]:
    offer(st, 5, tile_id)
    play(st, ("take", 5))
    assert PHASES[st.phase] == "place"
    return [(a[1], a[2]) for a in kinds_of(legal(st), "place")]


def test_plain_tile_places() -> None:
    """GM §4.2: a plain tile needs a full edge with the territory, a clan member among its 8
    neighbours, and only edges without river or road around it: never next to the start
    village's sides, but beside the river forest and below the road quarry."""
    st = territory()
    assert places_for(st, PLAIN_GRAIN) == [(-1, -1), (-1, 1), (1, 1)]


def test_corner_only_contact_is_refused() -> None:
    """GM §4.2 rule 1 (the seed's wrong example): touching only at a corner is not enough."""
    st = territory()
    places_for(st, PLAIN_GRAIN)
    with pytest.raises(IllegalAction, match="a corner is not enough"):
        st.apply(0, ("place", 1, -1))
    with pytest.raises(IllegalAction, match="full edge"):
        st.apply(0, ("place", 5, 5))


def test_clan_member_must_stand_among_the_eight_neighbours() -> None:
    """GM §4.2 rule 2: one of the 8 cells around (diagonals count) holds a clan member; the
    seed's example: a free side far from any clan member cannot be used."""
    st = territory()
    assert places_for(st, RIVER_SHEEP) == [(1, 0)]  # (-2, 0) has no clan member near
    with pytest.raises(IllegalAction, match="clan members"):
        st.apply(0, ("place", -2, 0))
    st2 = territory()
    set_clan(st2, 0, -1, 0, 1)
    assert places_for(st2, RIVER_SHEEP) == [(-2, 0), (1, 0)]


def test_diagonal_clan_member_counts() -> None:
    st = territory()
    set_clan(st, 0, 0, 0, 0)
    set_clan(st, 0, -1, 0, 1)  # the only clan member, on the forest
    # (1, 1) is two rows below the forest: no clan member near; (-1, 1) touches it
    assert places_for(st, PLAIN_GRAIN) == [(-1, -1), (-1, 1)]


def test_rivers_continue_north_south() -> None:
    """GM §4.2 rules 3–4: a river tile continues the river (the tile north or south has a
    river) and never meets a road or a plain side: not east or west of the village."""
    st = territory()
    set_clan(st, 0, 0, 1, 1)
    places = places_for(st, RIVER_SHEEP)
    assert (1, 0) in places and (0, -1) not in places and (1, 1) not in places
    with pytest.raises(IllegalAction, match="river"):
        st.apply(0, ("place", 0, -1))


def test_roads_continue_east_west() -> None:
    """GM §4.2 rules 3–4: a road tile continues the road (the tile east or west has a road)."""
    st = territory()
    set_clan(st, 0, 0, 1, 1)
    places = places_for(st, ROAD_VILLAGE)
    assert places == [(0, -1), (0, 2)]
    with pytest.raises(IllegalAction, match="road"):
        st.apply(0, ("place", 1, 1))


def test_plain_tile_may_not_touch_a_river_or_road_side() -> None:
    """GM §4.2 rule 3: empty edges meet empty edges: a plain tile south of the village would
    meet its river."""
    st = territory()
    places_for(st, PLAIN_GRAIN)
    with pytest.raises(IllegalAction, match="without river or road"):
        st.apply(0, ("place", 1, 0))


def test_placing_puts_the_tile_and_opens_the_activations() -> None:
    st = territory()
    places_for(st, PLAIN_GRAIN)
    events = play(st, ("place", -1, 1))
    assert events[0] == {"type": "place", "seat": 0, "cell": [-1, 1], "tile": PLAIN_GRAIN}
    assert st.grid[0][G.cell(-1, 1)] == st.taken and PHASES[st.phase] == "activate"
    check_invariants(st)


def test_the_grid_helpers_agree() -> None:
    """The cell encoding round-trips and the placement helpers give the same answers."""
    st = territory()
    for r in (-3, 0, 4):
        for c in (-2, 0, 7):
            assert G.row_col(G.cell(r, c)) == (r, c)
    grid, clan = st.grid[0], st.clan[0]
    plain, river, road = G.placements(grid, clan)
    assert [G.row_col(c) for c in plain] == [(-1, -1), (-1, 1), (1, 1)]
    for cls, cells in ((0, plain), (1, river), (2, road)):
        assert G.legal_cells(grid, clan, cls) == cells
        assert G.can_place(grid, clan, cls) == bool(cells)
        for c in cells:
            assert G.placement_ok(grid, clan, c, cls)
            assert G.placement_error(grid, clan, c, cls) == ""
    assert G.adjacent8(G.cell(0, 0), G.cell(1, 1)) and not G.adjacent8(G.cell(0, 0), G.cell(2, 0))
