"""Activation of the placed tile and its neighbours, and every tile kind's effect (GM §4.3, §5,
§8)."""

from __future__ import annotations

import pytest

from game.core.types import IllegalAction
from game.glen_more import grid as G
from game.glen_more.codes import PHASES
from game.glen_more.tiles import BOX_CLAN
from tests.glen_more.helpers import (
    BRIDGE,
    DISTILLERY,
    FAIR3,
    FAIR5,
    GROCER,
    MIXED_BUTCHER,
    PLAIN_FOREST,
    RIVER_FOREST,
    SHEEP_BUTCHER,
    TAVERN3,
    check_invariants,
    kind,
    kinds_of,
    legal,
    new,
    play,
    put,
    set_clan,
    set_coins,
    set_market,
    set_whisky,
    take_and_place,
)

ROAD_GRAIN = "S0-05"
ROAD_FOREST = "S0-08"
ROAD_QUARRY = "S0-01"
ROAD_VILLAGE = "S0-04"


def acts(st, name: str) -> list[tuple]:
    return kinds_of(legal(st), name)


def cells(actions: list[tuple]) -> list[tuple[int, int]]:
    return [(a[1], a[2]) for a in actions]


def cubes_at(st, seat: int, r: int, c: int) -> dict[str, int]:
    from game.glen_more.codes import CUBE_COUNTS
    from game.glen_more.tiles import RESOURCES

    counts = CUBE_COUNTS[st.cubes[seat].get(G.cell(r, c), 0)]
    return {RESOURCES[k]: n for k, n in enumerate(counts) if n}


def seed_example(grain: int = 0):
    """The seed's first example: a forest placed with a grain field below it and the village
    diagonally below-left.  Seat 0: road grain field at (0, 1); the forest goes to (-1, 1)."""
    st = new(4, seed=5)
    put(st, 0, 0, 1, ROAD_GRAIN, cubes={"grain": grain} if grain else None)
    return st


# ---- order and the set of activated tiles -------------------------------------------------------


def test_placed_tile_then_its_eight_neighbours() -> None:
    """GM §4.3 (the seed's example): the placed forest produces first; then the grain field
    below and the village diagonally below-left, in the player's order; each once."""
    st = seed_example()
    take_and_place(st, PLAIN_FOREST, -1, 1)
    assert PHASES[st.phase] == "activate"
    assert sorted(cells(acts(st, "activate"))) == [(-1, 1), (0, 0), (0, 1)]
    events = play(st, ("activate", -1, 1))
    assert {"type": "produce", "seat": 0, "cell": [-1, 1], "resource": "wood", "n": 1} in events
    play(st, ("activate", 0, 1))
    assert cubes_at(st, 0, 0, 1) == {"grain": 1}
    events = play(st, ("activate", 0, 0))
    assert st.clan[0][G.ORIGIN] == 2 and st.points == 1
    assert acts(st, "activate") == [] and ("done",) in legal(st)
    check_invariants(st)


def test_activating_a_neighbour_first_gives_up_the_placed_tile() -> None:
    """GM §4.3 D11: the placed tile is activated first; activating a neighbour before it gives
    up the placed tile's activation (every activation is optional)."""
    st = seed_example()
    take_and_place(st, PLAIN_FOREST, -1, 1)
    events = play(st, ("activate", 0, 1))
    assert events[0]["skipped"] == [-1, 1]
    assert (-1, 1) not in cells(acts(st, "activate"))
    with pytest.raises(IllegalAction, match="placed tile first"):
        st.apply(0, ("activate", -1, 1))


def test_tiles_outside_the_neighbourhood_are_not_activated() -> None:
    st = seed_example()
    put(st, 0, 0, 2, ROAD_FOREST)  # diagonal to the placed tile at (-1, 1)
    put(st, 0, 0, 3, ROAD_QUARRY)  # far from the placed tile
    take_and_place(st, PLAIN_FOREST, -1, 1)
    got = cells(acts(st, "activate"))
    assert (0, 2) in got and (0, 3) not in got
    with pytest.raises(IllegalAction, match="8 neighbours"):
        st.apply(0, ("activate", 0, 3))


def test_production_adds_to_cubes_already_there() -> None:
    """The seed's second example: a grain field with 1 grain gets a second one."""
    st = seed_example(grain=1)
    take_and_place(st, PLAIN_FOREST, -1, 1)
    play(st, ("activate", -1, 1), ("activate", 0, 1))
    assert cubes_at(st, 0, 0, 1) == {"grain": 2}


def test_a_tile_holds_at_most_three_cubes() -> None:
    """GM §4.3 D12 (the seed's third example): a full tile (3 cubes) cannot produce; the player
    may sell a cube first to make room."""
    st = seed_example(grain=3)
    set_market(st, {"grain": 1})
    take_and_place(st, PLAIN_FOREST, -1, 1)
    assert (0, 1) not in cells(acts(st, "activate"))
    with pytest.raises(IllegalAction, match="would do nothing"):
        st.apply(0, ("activate", 0, 1))
    play(st, ("activate", -1, 1), ("sell", 0, 1, "grain"))
    assert (0, 1) in cells(acts(st, "activate"))
    play(st, ("activate", 0, 1))
    assert cubes_at(st, 0, 0, 1) == {"grain": 3}
    check_invariants(st)


def test_done_with_no_movement_points_ends_the_turn() -> None:
    st = seed_example()
    take_and_place(st, PLAIN_FOREST, -1, 1)
    turn = st.turn_id()
    play(st, ("activate", -1, 1), ("done",))
    assert st.turn_id() == turn + 1 and st.cur == 1


# ---- yellow and green tiles --------------------------------------------------------------------


def test_distillery() -> None:
    """GM §4.3: the distillery gives 1 whisky when placed; activated, it turns 1 grain (from any
    tile or bought) into 1 whisky."""
    st = seed_example(grain=1)
    take_and_place(st, DISTILLERY, -1, 1)
    assert st.whisky[0] == 1
    events = play(st, ("activate", -1, 1))
    assert PHASES[st.phase] == "pay" and legal(st)[0] == ("pay", 0, 1, "grain")
    events = play(st, ("pay", 0, 1, "grain"))
    assert {"type": "gain", "seat": 0, "what": "whisky", "n": 1, "cell": [-1, 1]} in events
    assert st.whisky[0] == 2 and PHASES[st.phase] == "activate"
    check_invariants(st)


def test_distillery_without_grain_or_coins_is_not_activated() -> None:
    st = seed_example()
    take_and_place(st, DISTILLERY, -1, 1)
    set_coins(st, 0, 0)
    assert (-1, 1) not in cells(acts(st, "activate"))


def test_iona_abbey_produces_a_resource_of_choice() -> None:
    """GM §4.3 / §8: Iona Abbey produces 1 cube of the owner's choice (mixed kinds, cap 3)."""
    st = new(4, seed=3)
    take_and_place(st, "S2-15", 0, 1)  # road, costs wood, stone, sheep (bought)
    assert st.cards[0] == [kind("S2-15")]
    play(st, ("activate", 0, 1))
    assert PHASES[st.phase] == "resource"
    assert kinds_of(legal(st), "resource") == [
        ("resource", r) for r in ("wood", "stone", "grain", "cattle", "sheep")
    ]
    play(st, ("resource", "cattle"))
    assert cubes_at(st, 0, 0, 1) == {"cattle": 1} and PHASES[st.phase] == "activate"
    check_invariants(st)


# ---- brown tiles -----------------------------------------------------------------------------


def brown_board(cubes: dict[str, int], coins: int = 0):
    """Seat 0 with a river forest north of the village (plain tiles fit at (-1, ±1)) and the
    given cubes on road tiles west of the village."""
    st = new(4, seed=4)
    put(st, 0, -1, 0, RIVER_FOREST)
    col = -1
    for res, n in cubes.items():
        while n:
            m = min(n, 3)
            put(st, 0, 0, col, ROAD_FOREST if col == -1 else "S2-09", cubes={res: m})
            n -= m
            col -= 1
    set_coins(st, 0, coins)
    return st


def test_fair_scores_by_number_of_different_kinds() -> None:
    """GM §4.3: a fair takes 1 cube of each of up to N different kinds: 1/2/3 kinds give
    1/3/5 VP; options list only the sets of kinds that can be paid."""
    st = brown_board({})
    put(st, 0, 1, 0, "S0-07", cubes={"stone": 1})
    put(st, 0, 0, 1, "S0-05", cubes={"grain": 1})
    set_coins(st, 0, 1)
    take_and_place(st, FAIR3, -1, 1)  # the wood is bought with the last coin
    assert st.coins[0] == 0
    play(st, ("activate", -1, 1))
    assert PHASES[st.phase] == "option"
    # singles: stone (1), grain (2); the pair stone+grain: index 5 + 4 = 9
    assert [a[1] for a in acts(st, "option")] == [1, 2, 9]
    play(st, ("option", 9))
    play(st, ("pay", 1, 0, "stone"))
    events = play(st, ("pay", 0, 1, "grain"))
    assert {"type": "score", "seat": 0, "cell": [-1, 1], "tile": FAIR3, "vp": 3} in events
    assert st.tile_vp[0] == 3 and PHASES[st.phase] == "activate"
    check_invariants(st)


def test_five_kind_fair_gives_twelve() -> None:
    """GM §4.3 (the seed): five cubes of five different kinds at the big fair give 12 VP; two
    cubes of one kind do not count as two kinds."""
    st = new(4, seed=6)
    put(st, 0, -1, 0, RIVER_FOREST, cubes={"wood": 1})
    put(st, 0, -2, 0, "S0-07", cubes={"stone": 1}, clan=1)
    put(st, 0, 1, 0, "S0-03", cubes={"sheep": 2})
    put(st, 0, -1, 1, "S1-14", cubes={"grain": 1})
    put(st, 0, -1, -1, "S1-13", cubes={"cattle": 1})
    set_coins(st, 0, 1)
    take_and_place(st, FAIR5, 0, -1)  # road, costs 1 wood (bought)
    play(st, ("activate", 0, -1))
    options = [a[1] for a in acts(st, "option")]
    assert 30 in options  # all five kinds
    play(st, ("option", 30))
    for action in (
        ("pay", -1, 0, "wood"),
        ("pay", -2, 0, "stone"),
        ("pay", -1, 1, "grain"),
        ("pay", -1, -1, "cattle"),
        ("pay", 1, 0, "sheep"),
    ):
        play(st, action)
    assert st.tile_vp[0] == 12 and cubes_at(st, 0, 1, 0) == {"sheep": 1}
    check_invariants(st)


def test_butcher_options() -> None:
    """GM §4.3: the sheep butcher turns 1 sheep into 2 VP or 2 sheep into 4 VP."""
    st = brown_board({"sheep": 2})
    take_and_place(st, SHEEP_BUTCHER, -1, 1)
    play(st, ("activate", -1, 1))
    assert [a[1] for a in acts(st, "option")] == [0, 1]
    play(st, ("option", 1), ("pay", 0, -1, "sheep"), ("pay", 0, -1, "sheep"))
    assert st.tile_vp[0] == 4
    check_invariants(st)


def test_single_option_butcher_goes_straight_to_payment() -> None:
    st = brown_board({"sheep": 1, "cattle": 1}, coins=1)
    take_and_place(st, MIXED_BUTCHER, -1, 1)  # costs 1 wood (bought)
    play(st, ("activate", -1, 1))
    assert PHASES[st.phase] == "pay"
    play(st, ("pay", 0, -1, "sheep"), ("pay", 0, -2, "cattle"))
    assert st.tile_vp[0] == 5


def test_grocer_takes_any_three() -> None:
    """GM §4.3 (D16): the grocer takes any three cubes, duplicates allowed, for 8 VP."""
    st = brown_board({"wood": 3}, coins=1)
    take_and_place(st, GROCER, -1, 1)  # costs 1 stone (bought)
    play(st, ("activate", -1, 1))
    for _ in range(3):
        play(st, ("pay", 0, -1, "wood"))
    assert st.tile_vp[0] == 8


def test_bridge_takes_wood_and_stone() -> None:
    """GM §4.3: the bridge (a free river tile) turns 1 wood + 1 stone into 7 VP."""
    st = new(4, seed=8)
    put(st, 0, 0, 1, ROAD_FOREST, cubes={"wood": 1})
    put(st, 0, 0, -1, ROAD_QUARRY, cubes={"stone": 1})
    take_and_place(st, BRIDGE, 1, 0)
    play(st, ("activate", 1, 0), ("pay", 0, 1, "wood"), ("pay", 0, -1, "stone"))
    assert st.tile_vp[0] == 7


def test_tavern_scores_without_resources() -> None:
    """GM §4.3: a tavern scores 3 (or 4) VP when activated and takes no resources."""
    st = brown_board({})
    set_whisky(st, 0, 1)
    take_and_place(st, TAVERN3, -1, 1)
    assert st.whisky[0] == 0
    events = play(st, ("activate", -1, 1))
    assert any(e["type"] == "score" and e["vp"] == 3 for e in events)
    assert st.tile_vp[0] == 3 and PHASES[st.phase] == "activate"


# ---- grey tiles -------------------------------------------------------------------------------


def test_grey_tile_gives_clan_member_and_move_on_every_activation() -> None:
    """GM §4.3 (the seed, default option): each activation of a village, castle or the start
    village puts 1 clan member from the supply on it and gives 1 movement point; placing
    gives nothing more."""
    st = new(4, seed=9)
    take_and_place(st, ROAD_VILLAGE, 0, 1)
    assert st.clan[0].get(G.cell(0, 1)) is None
    stock = st.clan_stock
    play(st, ("activate", 0, 1), ("activate", 0, 0))
    assert st.clan[0][G.cell(0, 1)] == 1 and st.clan[0][G.ORIGIN] == 2
    assert st.points == 2 and st.clan_stock == stock - 2
    check_invariants(st)


def test_grey_clan_members_on_placement_option() -> None:
    """GM §4.3 option ``on_placement`` (the printed tiles): the clan member comes once, when the
    tile is placed; each activation gives only the movement point."""
    st = new(4, seed=9, grey_clan_members="on_placement")
    events = take_and_place(st, ROAD_VILLAGE, 0, 1)
    assert any(e["type"] == "gain" and e["what"] == "clan_member" for e in events)
    assert st.clan[0][G.cell(0, 1)] == 1
    play(st, ("activate", 0, 1), ("activate", 0, 0))
    assert st.clan[0][G.cell(0, 1)] == 1 and st.clan[0][G.ORIGIN] == 1
    assert st.points == 2
    check_invariants(st)


@pytest.mark.parametrize("mode", ["every_activation", "on_placement"])
def test_the_clan_supply_never_runs_out(mode: str) -> None:
    """GM §1 (every supply is unlimited: use a substitute when one runs out) and GM §4.3's
    revised decision (issue 20): the box's 25 clan members are a component count, not a
    limit.  With all 25 in play a grey tile still gives its clan member (and its move); the
    stock goes below zero, as for cubes and whisky (substitutes), and the figures in play plus
    the stock still add up to the box's 25."""
    st = new(4, seed=9, grey_clan_members=mode)
    set_clan(st, 1, 0, 0, 1 + st.clan_stock)  # seat 1 holds every clan member left
    assert st.clan_stock == 0
    events = take_and_place(st, ROAD_VILLAGE, 0, 1)
    events += play(st, ("activate", 0, 1))
    gains = [e for e in events if e["type"] == "gain" and e["what"] == "clan_member"]
    assert [e["n"] for e in gains] == [1]
    assert st.clan[0][G.cell(0, 1)] == 1 and st.points == 1 and st.clan_stock == -1
    assert sum(st.clan_total) + sum(st.chieftains) + st.clan_stock == BOX_CLAN
    check_invariants(st)


def test_castle_stalker_gets_its_members_with_the_supply_used_up() -> None:
    """GM §8 Castle Stalker (1 extra clan member when placed) and GM §4.3 (a castle is a grey
    tile): neither waits for the box's 25, the supply is unlimited (GM §1, issue 20)."""
    st = castle_board(coins=12)
    set_clan(st, 1, 0, 0, 1 + st.clan_stock)
    assert st.clan_stock == 0
    take_and_place(st, "S1-18", 1, 0)
    play(st, ("activate", 1, 0))
    assert st.clan[0][G.cell(1, 0)] == 2 and st.clan_stock == -2
    check_invariants(st)


# ---- special locations (GM §8) -----------------------------------------------------------------


def castle_board(coins: int = 6):
    st = new(4, seed=10)
    put(st, 0, -1, 0, RIVER_FOREST)
    set_coins(st, 0, coins)
    return st


@pytest.mark.parametrize(
    ("tile", "where", "whisky", "coins_gain", "clan_on_it", "bonnets"),
    [
        ("S1-17", (-1, 1), 1, 0, 0, 1),  # Castle Moil: 1 whisky
        ("S1-18", (1, 0), 0, 0, 1, 1),  # Castle Stalker: 1 clan member on it
        ("S1-20", (-1, 1), 0, 3, 0, 1),  # Armadale Castle: 3 coins
        ("S3-14", (0, 1), 2, 0, 0, 1),  # Donan Castle: 2 whisky
        ("S2-07", (-1, 1), 0, 0, 0, 1),  # Castle of Mey
        ("S3-01", (-1, 1), 0, 0, 0, 3),  # Cawdor Castle: 3 bonnets
        ("S2-11", (-1, 1), 0, 0, 0, 0),  # Duart Castle
    ],
)
def test_castles_when_placed(
    tile: str, where: tuple[int, int], whisky: int, coins_gain: int, clan_on_it: int, bonnets: int
) -> None:
    """GM §8: placing a special location takes its card (with its bonnets) and resolves its
    on-place effect before any activation (D14); a castle is also a grey tile."""
    st = castle_board(coins=12)
    events = take_and_place(st, tile, *where)
    coins_before = next(e for e in events if e["type"] == "card")
    assert coins_before["bonnets"] == bonnets
    assert st.cards[0] == [kind(tile)] and st.bonnets(0) == bonnets
    assert st.whisky[0] == whisky
    assert st.clan[0].get(G.cell(*where), 0) == clan_on_it
    paid = sum(e["price"] for e in events if e["type"] == "buy")
    assert st.coins[0] == 12 - paid + coins_gain
    assert PHASES[st.phase] == "activate"
    play(st, ("activate", *where))
    assert st.clan[0][G.cell(*where)] == clan_on_it + 1 and st.points == 1
    check_invariants(st)


def test_castle_of_mey_doubles_chieftains() -> None:
    st = castle_board()
    take_and_place(st, "S2-07", -1, 1)
    assert st.chieftain_multiplier(0) == 2 and st.chieftain_multiplier(1) == 1


def test_loch_lochy_two_resources_of_choice_on_it() -> None:
    """GM §8 (D17): Loch Lochy gives 2 resources of your choice, kept on the loch."""
    st = new(4, seed=11)
    take_and_place(st, "S1-01", -1, 0)
    assert PHASES[st.phase] == "resource"
    play(st, ("resource", "stone"))
    assert PHASES[st.phase] == "resource"
    play(st, ("resource", "stone"))
    assert cubes_at(st, 0, -1, 0) == {"stone": 2} and PHASES[st.phase] == "activate"
    check_invariants(st)


def test_loch_ness_extra_activation_once_per_turn() -> None:
    """GM §4.3 / §8 (D15): once in each of your turns, activate any one tile of your territory,
    even one already activated; usable in the turn Loch Ness is placed."""
    st = new(4, seed=12)
    set_clan(st, 0, 0, 0, 2)
    take_and_place(st, "S2-06", -1, 0)
    assert st.clan_total[0] == 1
    assert cells(acts(st, "loch_ness")) == [(0, 0)]
    play(st, ("activate", 0, 0))
    assert (0, 0) in cells(acts(st, "loch_ness")), "even a tile already activated"
    play(st, ("loch_ness", 0, 0))
    assert st.clan[0][G.ORIGIN] == 3 and st.points == 2 and st.ness
    assert acts(st, "loch_ness") == []
    with pytest.raises(IllegalAction, match="one extra tile per turn"):
        st.apply(0, ("loch_ness", 0, 0))
    check_invariants(st)


def test_loch_ness_works_in_later_turns_on_any_tile() -> None:
    st = new(4, seed=12)
    put(st, 0, -1, 0, "S2-06")  # Loch Ness held from an earlier turn
    put(st, 0, 0, 3, "S2-09")  # a road forest far from everything
    put(st, 0, 0, 2, "S0-08")
    put(st, 0, 0, 1, "S2-10")
    take_and_place(st, "S2-17", 1, 0)  # river sheep pasture south of the village
    assert (0, 3) in cells(acts(st, "loch_ness"))
    play(st, ("loch_ness", 0, 3))
    assert cubes_at(st, 0, 0, 3) == {"wood": 1}


def test_loch_oich_activates_every_tile() -> None:
    """GM §8 (D16): Loch Oich (2 resources of any kinds) activates every tile of the territory
    once, in any order, instead of the normal set."""
    st = new(4, seed=13)
    put(st, 0, 0, 1, ROAD_FOREST, cubes={"wood": 2})
    put(st, 0, 0, 2, "S2-09")
    put(st, 0, 0, 3, "S3-17")
    take_and_place(st, "S3-10", -1, 0)
    got = cells(acts(st, "activate"))
    assert got == [(0, 0), (0, 1), (0, 2), (0, 3)]  # the loch itself does nothing
    events = play(st, ("activate", 0, 3))
    assert "skipped" not in events[0]
    play(st, ("activate", 0, 2), ("activate", 0, 1), ("activate", 0, 0))
    assert acts(st, "activate") == []
    check_invariants(st)


def test_loch_shiel_fills_empty_production_tiles() -> None:
    """GM §8 (D17): each production tile with no cube gets one of its resource (Iona Abbey: of
    choice); tiles with cubes, distilleries and lochs get nothing."""
    st = new(4, seed=14)
    put(st, 0, 0, 1, ROAD_FOREST)
    put(st, 0, 0, 2, "S2-08", cubes={"cattle": 1})
    put(st, 0, 0, 3, "S1-07")  # road distillery
    put(st, 0, 0, -1, "S2-15")  # Iona Abbey (road)
    take_and_place(st, "S3-02", 1, 0)
    assert cubes_at(st, 0, 0, 1) == {"wood": 1}
    assert cubes_at(st, 0, 0, 2) == {"cattle": 1}
    assert cubes_at(st, 0, 0, 3) == {}
    assert PHASES[st.phase] == "resource"
    play(st, ("resource", "sheep"))
    assert cubes_at(st, 0, 0, -1) == {"sheep": 1} and PHASES[st.phase] == "activate"
    check_invariants(st)


def test_special_cards_count_and_bonnets() -> None:
    st = castle_board(coins=12)
    take_and_place(st, "S3-01", -1, 1)
    assert st.bonnets(0) == 3 and len(st.cards[0]) == 1
