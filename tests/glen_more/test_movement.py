"""Clan members and chieftains (GM §4.4)."""

from __future__ import annotations

import pytest

from game.core.types import IllegalAction
from game.glen_more import grid as G
from game.glen_more.codes import PHASES
from tests.glen_more.helpers import (
    check_invariants,
    kinds_of,
    legal,
    new,
    play,
    put,
    take_and_place,
)

ROAD_VILLAGE = "S0-04"


def moving(points: int = 2):
    """Seat 0 after placing a road village east of the start village and activating both
    (2 movement points, a clan member on each of the two villages and one more at home)."""
    st = new(4, seed=3)
    put(st, 0, 1, 0, "S0-03")  # river sheep pasture south of the village
    take_and_place(st, ROAD_VILLAGE, 0, 1)
    play(st, ("activate", 0, 1))
    if points == 2:
        play(st, ("activate", 0, 0))
    play(st, ("done",))
    assert PHASES[st.phase] == "move" and st.points == points
    return st


def test_movement_points_move_clan_members_one_step_diagonals_included() -> None:
    """GM §4.4: each point moves one clan member one step to a neighbouring own tile,
    diagonals included; clan members gained this turn may move (D13)."""
    st = moving()
    moves = kinds_of(legal(st), "move")
    assert ("move", 0, 1, 1, 0) in moves, "diagonal step from the new village"
    assert ("move", 0, 0, 1, 0) in moves and ("move", 0, 0, 0, 1) in moves
    assert not any(a[3:] == (0, 2) for a in moves), "only onto own tiles"
    events = play(st, ("move", 0, 1, 1, 0))
    assert events == [{"type": "move", "seat": 0, "from": [0, 1], "to": [1, 0]}]
    assert st.clan[0] == {G.ORIGIN: 2, G.cell(1, 0): 1} and st.points == 1
    check_invariants(st)


def test_several_clan_members_may_share_a_tile_and_points_may_go_to_one() -> None:
    st = moving()
    play(st, ("move", 0, 1, 0, 0), ("move", 0, 0, 1, 0))
    assert st.clan[0] == {G.ORIGIN: 2, G.cell(1, 0): 1} and st.points == 0
    assert kinds_of(legal(st), "move") == [] and ("end",) in legal(st)


def test_a_clan_member_moves_only_one_step_per_point() -> None:
    st = moving()
    put(st, 0, 2, 0, "S0-07")  # a river quarry two rows below the new village
    with pytest.raises(IllegalAction, match="one step"):
        st.apply(0, ("move", 0, 1, 2, 0))


def test_making_a_chieftain() -> None:
    """GM §4.4: a point removes a clan member from the territory as a chieftain; it never
    comes back."""
    st = moving()
    events = play(st, ("chieftain", 0, 0))
    assert events == [{"type": "chieftain", "seat": 0, "cell": [0, 0]}]
    assert st.chieftains[0] == 1 and st.clan_total[0] == 2 and st.points == 1
    check_invariants(st)


def test_at_least_one_clan_member_stays() -> None:
    """GM §4.4: you must always keep at least one clan member on your tiles."""
    st = moving()
    play(st, ("chieftain", 0, 0), ("chieftain", 0, 0))
    assert st.clan_total[0] == 1
    st2 = new(4, seed=3)
    take_and_place(st2, ROAD_VILLAGE, 0, 1)
    play(st2, ("activate", 0, 1), ("done",))  # 2 clan members, 1 point
    play(st2, ("chieftain", 0, 0))
    assert st2.clan_total[0] == 1
    st3 = new(4, seed=3)
    put(st3, 0, 0, -1, "S0-05")
    take_and_place(st3, ROAD_VILLAGE, 0, 1)
    play(st3, ("activate", 0, 0), ("done",))
    play(st3, ("move", 0, 0, 0, 1))
    assert kinds_of(legal(st3), "chieftain") == []


def test_chieftain_refused_with_a_single_clan_member() -> None:
    st = new(4, seed=3, grey_clan_members="on_placement")
    take_and_place(st, ROAD_VILLAGE, 0, 1)  # its clan member arrives now
    play(st, ("activate", 0, 1), ("done",))
    play(st, ("chieftain", 0, 1))
    assert st.clan_total[0] == 1 and st.points == 0
    st2 = new(4, seed=3, grey_clan_members="on_placement")
    take_and_place(st2, "S0-05", 0, 1)  # a grain field: no clan member
    put(st2, 0, 0, -1, ROAD_VILLAGE)
    assert kinds_of(legal(st2), "chieftain") == []


def test_unused_points_are_lost_at_the_end_of_the_turn() -> None:
    st = moving()
    play(st, ("end",))
    assert st.points == 0 and st.cur == 1 and PHASES[st.phase] == "take"


def test_chieftain_explained_when_refused() -> None:
    st = new(4, seed=3, grey_clan_members="on_placement")
    put(st, 0, 0, -1, "S0-05")
    take_and_place(st, "S0-01", 0, 1)
    play(st, ("activate", 0, 0), ("done",))
    assert PHASES[st.phase] == "move"
    with pytest.raises(IllegalAction, match="at least one clan member"):
        st.apply(0, ("chieftain", 0, 0))
    play(st, ("move", 0, 0, 0, -1))
    with pytest.raises(IllegalAction, match="no movement points"):
        st.apply(0, ("move", 0, -1, 0, 0))


def test_clan_position_decides_next_turn_placements() -> None:
    """GM §4.4 (the seed's warning): clan members cannot move at the start of a turn; a tile can
    only go next to one."""
    st = new(4, seed=3)
    put(st, 0, 0, 1, "S0-01")
    put(st, 0, 0, 2, "S0-08", clan=1)
    st.clan[0].pop(G.ORIGIN)
    st.clan_total[0] -= 1
    st.clan_stock += 1
    # only the road row's east end has a clan member: river tiles (column 0) cannot be placed
    from game.glen_more.grid import can_place
    from game.glen_more.tiles import RIVER_TILE, ROAD_TILE

    assert not can_place(st.grid[0], st.clan[0], RIVER_TILE)
    assert can_place(st.grid[0], st.clan[0], ROAD_TILE)
