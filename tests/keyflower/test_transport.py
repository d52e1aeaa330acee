"""Transport along roads and upgrades (KF §7.1, §7.2, §7.3, §11.2 2a/2b/3a, D6, D7, D8)."""

from __future__ import annotations

import pytest

from game.keyflower.const import PLAY, TRANSPORT
from game.keyflower.state import KeyflowerState
from game.keyflower.tiles import RIVER, ROAD, TILES
from game.keyflower.village import DIRS, HOME_HEX, ROT_EDGES, axial
from tests.keyflower.helpers import (
    acts,
    check_invariants,
    empty_screens,
    give,
    new,
    on_tile,
    put,
    set_auction,
    set_screen,
    tid,
    to_move_seat,
)


def rot_for(name: str, side: int, edge: int) -> int:
    """A rotation showing ``edge`` on ``side`` for tile ``name``."""
    t = tid(name)
    return next(r for r in range(6) if ROT_EDGES[t][r][side] == edge)


def attach(
    st: KeyflowerState, s: int, name: str, at: int, p: int, edge: int = ROAD, side: int = 0
) -> int:
    """Put ``name`` next to hex ``at`` across side ``p``, showing ``edge`` towards it."""
    h = at + DIRS[p]
    q, r = axial(h)
    put(st, s, name, q, r, rot_for(name, (p + 3) % 6, edge), side=side)
    return h


def home_side(st: KeyflowerState, s: int, edge: int) -> int:
    return ROT_EDGES[st.home[s]][0].index(edge)


def village(extra: str | None = None, side: int = 0) -> tuple[KeyflowerState, str]:
    """Seat 0's village: home, Keywood joined by road, a summer boat across the home's river
    (river to river: no road).  Returns the state and the home tile's id."""
    st = new(2, 7)
    empty_screens(st)
    set_auction(st, ["stable", "alehouse"])
    p = home_side(st, 0, ROAD)
    attach(st, 0, "keywood", HOME_HEX, p)
    attach(st, 0, extra or "summer_boat_1", HOME_HEX, home_side(st, 0, RIVER), RIVER, side)
    to_move_seat(st, 0)
    set_screen(st, 0, red=3, saw=1)
    return st, TILES[st.home[0]].id


def test_transport_steps_along_roads_only() -> None:
    """KF §7.1: one point moves one resource one step, only between tiles joined by road."""
    st, home = village()
    give(st, "keywood", wood=2)
    give(st, "summer_boat_1", stone=1)
    st.apply(0, ("use", "stable", "red", 1))  # transport 2, upgrade 1 in seat 0's village
    assert st.stage == TRANSPORT and st.ppts == 2 and st.pupg == 1
    moves = acts(st, 0, "move")
    assert ("move", "keywood", "wood") in moves
    assert ("move", "summer_boat_1", "stone") not in moves, "no road out of the boat"
    st.apply(0, ("move", "keywood", "wood"))  # its only road leads home: moved at once
    assert on_tile(st, home) == {"wood": 1} and st.ppts == 1
    st.apply(0, ("move", home, "wood"))
    assert st.stage != TRANSPORT or st.ppts == 0
    check_invariants(st)


def test_points_not_used_are_lost_and_done_ends_the_use() -> None:
    """D6: points not used are lost."""
    st, _home = village()
    give(st, "keywood", wood=2)
    st.apply(0, ("use", "stable", "red", 1))
    st.apply(0, ("done",))
    assert st.phase == PLAY and st.cur == 1 and st.ppts == 0


def test_summer_boat_2a_joins_any_neighbours() -> None:
    """KF §11.2 2a (seed reading): any two adjacent tiles count as joined for its owner's
    transport — across the river too."""
    st, _home = village("summer_boat_2", side=0)
    give(st, "summer_boat_2", stone=1)
    st.apply(0, ("use", "stable", "red", 1))
    assert ("move", "summer_boat_2", "stone") in acts(st, 0, "move")


def test_summer_boat_2b_doubles_its_owners_numbers_only() -> None:
    """KF §11.2 2b: the owner's transport and upgrade numbers double, also on other tiles;
    not when others use the owner's tiles."""
    st, home = village("summer_boat_2", side=1)
    st.apply(0, ("use", "stable", "red", 1))
    assert (st.ppts, st.pupg) == (4, 2)
    st.apply(0, ("done",))
    set_screen(st, 1, red=1)
    home1 = TILES[st.home[1]]
    assert home1.cost is not None
    wood, stone, iron, _ = home1.cost.res
    give(st, home1.id, wood=wood, stone=stone, iron=iron)  # so that seat 1 can upgrade
    st.apply(1, ("use", home, "red", 1))
    assert st.cur == 1 and (st.ppts, st.pupg) == (1, 1), "seat 1 is not doubled"


UPGRADABLE = [t.id for t in TILES if t.upgradable]


@pytest.mark.parametrize("name", UPGRADABLE)
def test_each_upgrade(name: str) -> None:
    """KF §7.2 (D7, D8): every home and village tile can be flipped once, paying its cost with
    resources lying on it and skill tiles from the screen; paid items go to the supply."""
    st = new(2, 9)
    empty_screens(st)
    set_auction(st, ["stable"])
    t = tid(name)
    if TILES[t].kind == "home":
        st.home[0], old = t, st.home[0]
        st.vil[0] = {HOME_HEX: t}
        st.vorder[0] = [t]
        st.where[old], st.hexof[old] = -1, -1
        st.where[t], st.hexof[t] = 0, HOME_HEX
        if st.home[1] == t:
            st.home[1] = old
            st.vil[1] = {HOME_HEX: old}
            st.vorder[1] = [old]
            st.where[old], st.hexof[old] = 1, HOME_HEX
    else:
        attach(st, 0, name, HOME_HEX, home_side(st, 0, ROAD))
    cost = TILES[t].cost
    assert cost is not None
    pay = list(cost.res)
    pay[0] += cost.any_res  # any resource: wood will do
    give(st, name, wood=pay[0], stone=pay[1], iron=pay[2], gold=pay[3])
    skills = list(cost.skills)
    skills[0] += cost.any_skill
    set_screen(st, 0, red=1, saw=skills[0], pickaxe=skills[1], anvil=skills[2])
    to_move_seat(st, 0)
    supply_before = list(st.ressup), list(st.sksup)
    st.apply(0, ("use", "stable", "red", 1))
    ups = [a for a in acts(st, 0, "upgrade") if a[1] == name]
    assert (*("upgrade", name), *pay, *skills) in ups
    st.apply(0, ("upgrade", name, *pay, *skills))
    assert st.side[t] == 1
    assert [st.ressup[k] - supply_before[0][k] for k in range(4)] == pay
    assert [st.sksup[k] - supply_before[1][k] for k in range(3)] == skills
    check_invariants(st)


def test_upgrade_needs_its_cost_on_the_tile_and_each_tile_flips_once() -> None:
    """KF §7.2: resource costs lie on the tile being upgraded (transport them there first);
    D7: each tile at most once."""
    st, home = village()
    give(st, home, wood=1)  # Keywood needs a saw (screen) only; Alehouse is not ours
    st.apply(0, ("use", "stable", "red", 1))
    ups = acts(st, 0, "upgrade")
    assert ("upgrade", "keywood", 0, 0, 0, 0, 1, 0, 0) in ups
    st.apply(0, ("upgrade", "keywood", 0, 0, 0, 0, 1, 0, 0))
    assert st.cur == 1, "no upgrade point left: the turn is over"
    to_move_seat(st, 0)
    set_screen(st, 0, red=2, saw=1)
    st.apply(0, ("use", "alehouse", "red", 1))
    assert st.cur == 1
    to_move_seat(st, 0)
    st.apply(0, ("use", home, "red", 1))
    assert all(a[1] != "keywood" for a in acts(st, 0, "upgrade")), "flipped once already"


def test_gold_pays_for_any_basic_and_3a_makes_all_wild() -> None:
    """KF §7.3: gold stands for wood, stone or iron in costs; summer boat 3a: any resource pays
    for any other (KF §11.2)."""
    st, _home = village()
    attach(
        st,
        0,
        "gold_mine",
        HOME_HEX,
        [p for p in range(6) if ROT_EDGES[st.home[0]][0][p] == ROAD][1],
    )
    give(st, "gold_mine", gold=1, iron=1)
    st.apply(0, ("use", "stable", "red", 1))
    assert ("upgrade", "gold_mine", 0, 0, 1, 1, 0, 0, 0) in acts(st, 0, "upgrade")
    st2, _ = village("summer_boat_3", side=0)
    attach(
        st2,
        0,
        "gold_mine",
        HOME_HEX,
        [p for p in range(6) if ROT_EDGES[st2.home[0]][0][p] == ROAD][1],
    )
    give(st2, "gold_mine", wood=2)
    st2.apply(0, ("use", "stable", "red", 1))
    assert ("upgrade", "gold_mine", 2, 0, 0, 0, 0, 0, 0) in acts(st2, 0, "upgrade")
    st3, _ = village()
    attach(
        st3,
        0,
        "gold_mine",
        HOME_HEX,
        [p for p in range(6) if ROT_EDGES[st3.home[0]][0][p] == ROAD][1],
    )
    give(st3, "gold_mine", wood=2)
    st3.apply(0, ("use", "stable", "red", 1))
    assert not [a for a in acts(st3, 0, "upgrade") if a[1] == "gold_mine"]


def test_transport_before_upgrades() -> None:
    """D6: all transport comes before any upgrade."""
    st, _home = village()
    give(st, "keywood", wood=1)
    st.apply(0, ("use", "stable", "red", 1))
    st.apply(0, ("upgrade", "keywood", 0, 0, 0, 0, 1, 0, 0))
    assert st.cur == 1, "points left, but no move after an upgrade: the use ends"


def test_boats_and_summer_boats_are_not_upgraded() -> None:
    """D7: boats, summer boats, turn-order and winter tiles are never flipped by upgrades."""
    st, _home = village()
    st.apply(0, ("use", "stable", "red", 1))
    assert all(a[1] != "summer_boat_1" for a in acts(st, 0, "upgrade"))
