"""Taking a tile, paying its cost step by step, and the market (GM §4.1, §5, §6)."""

from __future__ import annotations

import pytest

from game.core.types import IllegalAction
from game.glen_more import grid as G
from game.glen_more.codes import PHASES
from game.glen_more.tiles import KINDS
from tests.glen_more.helpers import (
    FAIR3,
    PLAIN_VILLAGE,
    RIVER_FOREST,
    TAVERN3,
    check_invariants,
    kind,
    kinds_of,
    legal,
    new,
    offer,
    play,
    put,
    set_clan,
    set_coins,
    set_market,
    set_whisky,
    slot_of,
)


def plain_ready(players: int = 4, seed: int = 1):
    """Seat 0 with a river forest north of the start village: plain tiles fit at (-1, ±1)
    (a clan member on the start village is diagonal to them)."""
    st = new(players, seed=seed)
    put(st, 0, -1, 0, RIVER_FOREST)
    return st


# ---- costs and what can be taken (GM §4.1) ---------------------------------------------------


def test_a_tile_needs_a_legal_place_to_be_taken() -> None:
    """GM §4.1 D9: only a tile that can be placed may be taken: a plain tile cannot touch the
    start village (river N/S, road E/W), so it is not offered at the start."""
    st = new(4)
    offer(st, 5, "S1-14")  # plain grain field
    assert ("take", 5) not in legal(st)
    st2 = plain_ready()
    offer(st2, 5, "S1-14")
    assert ("take", 5) in legal(st2)


def test_a_tile_needs_to_be_payable_to_be_taken() -> None:
    """GM §4.1 D8/D9: costs are paid in resources; coins only buy cubes at the market; a tile
    is offered only if the player could pay it, counting purchases and sales."""
    st = plain_ready()
    offer(st, 5, PLAIN_VILLAGE)  # costs 1 stone
    set_coins(st, 0, 0)
    assert ("take", 5) not in legal(st)
    set_coins(st, 0, 1)
    assert ("take", 5) in legal(st)  # one stone bought for 1 coin
    set_coins(st, 0, 0)
    put(st, 0, -1, 1, "S1-04", cubes={"sheep": 1})
    set_market(st, {"sheep": 1})
    assert ("take", 5) in legal(st), "selling the sheep pays for the stone (D9)"
    set_market(st, {"stone": 3})
    assert ("take", 5) not in legal(st), "the stone row is full: stone cannot be bought"


def test_cost_paid_step_by_step_from_any_own_tile() -> None:
    """GM §4.1: the cost may come from any of your tiles (or the market); each cube is one
    step; the tile is placed once the cost is paid."""
    st = plain_ready()
    put(st, 0, -1, 1, "S1-15", cubes={"stone": 2})
    put(st, 0, 1, 0, "S0-07", cubes={"stone": 1})  # river quarry south of the village
    offer(st, 5, PLAIN_VILLAGE)
    events = play(st, ("take", 5))
    assert events[0]["type"] == "take" and events[0]["tile"] == PLAIN_VILLAGE
    assert PHASES[st.phase] == "pay"
    acts = legal(st)
    assert ("pay", -1, 1, "stone") in acts and ("pay", 1, 0, "stone") in acts
    assert ("buy", "stone") in acts
    play(st, ("pay", 1, 0, "stone"))
    assert PHASES[st.phase] == "place"
    assert st.have[0][1] == 2 and st.stock[1] == 10 - 2
    check_invariants(st)


def test_free_tile_goes_straight_to_placement() -> None:
    st = new(4)
    play(st, ("take", 5))
    assert PHASES[st.phase] == "place"


def test_tavern_costs_a_whisky_barrel() -> None:
    """GM §4.1, §5: a tavern costs a whisky barrel (paid when taken); without whisky it cannot
    be taken."""
    st = plain_ready()
    offer(st, 5, TAVERN3)
    assert ("take", 5) not in legal(st)
    set_whisky(st, 0, 2)
    assert ("take", 5) in legal(st)
    events = play(st, ("take", 5))
    assert {"type": "pay_whisky", "seat": 0, "n": 1} in events
    assert st.whisky[0] == 1 and PHASES[st.phase] == "place"
    check_invariants(st)


def test_loch_ness_costs_a_clan_member_keeping_one_and_a_legal_place() -> None:
    """GM §4.1 / §8 (D15): Loch Ness costs one clan member from the territory back to the
    supply; one must stay, and the tile must still have a legal place afterwards."""
    st = new(4)
    offer(st, 5, "S2-06")
    assert ("take", 5) not in legal(st), "the only clan member cannot be paid"
    set_clan(st, 0, 0, 0, 2)
    assert ("take", 5) in legal(st)
    play(st, ("take", 5))
    assert PHASES[st.phase] == "pay"
    assert legal(st)[0] == ("pay_clan", 0, 0)
    stock = st.clan_stock
    play(st, ("pay_clan", 0, 0))
    assert st.clan_total[0] == 1 and st.clan_stock == stock + 1
    assert kinds_of(legal(st), "place") == [("place", -1, 0), ("place", 1, 0)]
    check_invariants(st)


def test_loch_ness_clan_member_whose_removal_leaves_no_place_is_refused() -> None:
    """GM §4.1 D9: the clan member paid for Loch Ness no longer counts for the placement."""
    st = new(4)
    put(st, 0, 0, 1, "S0-01")  # road quarry east of the village
    put(st, 0, 0, 2, "S0-08", clan=1)  # road forest: its clan member is far from the river
    offer(st, 5, "S2-06")
    play(st, ("take", 5))
    pays = kinds_of(legal(st), "pay_clan")
    assert pays == [("pay_clan", 0, 2)], "removing the village's clan member leaves no place"
    with pytest.raises(IllegalAction, match="legal place"):
        st.apply(0, ("pay_clan", 0, 0))


def test_no_takeable_tile_means_discard() -> None:
    """GM §4.1 D10: with no tile that can be paid and placed, the player still moves to a tile
    of their choice; it leaves the game and the turn ends (no placement, activation or
    movement); the event says why."""
    st = new(4)
    for slot, v in enumerate(st.slots):
        if v >= 0 and KINDS[v].edge_class != 0:
            offer(st, slot, _plain_tile(st))
    acts = legal(st)
    assert acts and all(a[0] == "discard" for a in acts)
    assert len(acts) == sum(1 for v in st.slots if v >= 0)
    tile = st.slots[7]
    turn = st.turn_id()
    events = play(st, ("discard", 7))
    discard = events[0]
    assert discard["type"] == "discard" and "no tile" in discard["reason"]
    assert tile in st.removed and st.turn_id() == turn + 1 and st.cur == 1
    assert st.grid[0] == {G.ORIGIN: 0}, "nothing was placed"
    check_invariants(st)


def _plain_tile(st) -> str:
    """A plain tile id still in a stack."""
    for pile in st.stacks:
        for k in pile:
            if KINDS[k].edge_class == 0:
                return KINDS[k].id
    raise AssertionError("no plain tile left")


def test_discard_is_refused_when_a_tile_can_be_taken() -> None:
    st = new(4)
    with pytest.raises(IllegalAction, match="D10"):
        st.apply(0, ("discard", 5))


# ---- the market (GM §6) ------------------------------------------------------------------------


@pytest.mark.parametrize(("filled", "price"), [(0, 1), (1, 2), (2, 3)])
def test_buying_climbs_the_price_ladder(filled: int, price: int) -> None:
    """GM §6: buying pays the price of the lowest empty space (1, then 2, then 3) and puts the
    coins there; the cube goes straight into the payment."""
    st = plain_ready()
    set_market(st, {"wood": filled})
    offer(st, 5, FAIR3)  # costs 1 wood
    play(st, ("take", 5))
    coins = st.coins[0]
    events = play(st, ("buy", "wood"))
    assert events[0] == {"type": "buy", "seat": 0, "resource": "wood", "price": price}
    assert st.coins[0] == coins - price and st.market[0] == filled + 1
    assert PHASES[st.phase] == "place" and st.have[0][0] == 0
    check_invariants(st)


def test_a_full_row_cannot_be_bought() -> None:
    st = plain_ready()
    set_market(st, {"wood": 3})
    offer(st, 5, FAIR3)
    assert ("take", 5) not in legal(st)


def test_selling_walks_down_the_ladder() -> None:
    """GM §6 (the seed's example): a row filled to 3 pays 3 + 2 + 1 = 6 coins for three cubes,
    one filled to 2 pays 2 + 1 = 3 for two; an empty row buys nothing."""
    st = new(4)
    put(st, 0, 1, 0, "S0-07", cubes={"stone": 3})
    put(st, 0, 0, 1, "S0-08", cubes={"wood": 3})
    set_market(st, {"stone": 3, "wood": 2})
    coins = st.coins[0]
    got = []
    for _ in range(3):
        got.append(play(st, ("sell", 1, 0, "stone"))[0]["price"])
    assert got == [3, 2, 1] and st.coins[0] == coins + 6
    assert ("sell", 1, 0, "stone") not in legal(st)
    assert [play(st, ("sell", 0, 1, "wood"))[0]["price"] for _ in range(2)] == [2, 1]
    assert ("sell", 0, 1, "wood") not in legal(st), "the wood row holds no coins any more"
    with pytest.raises(IllegalAction, match="holds no coins"):
        st.apply(0, ("sell", 0, 1, "wood"))
    check_invariants(st)


def test_whisky_and_clan_members_are_neither_bought_nor_sold() -> None:
    """GM §5: whisky barrels and clan members cannot be bought or sold."""
    st = new(3)
    set_whisky(st, 0, 2)
    acts = legal(st)
    assert not any(a[-1] in ("whisky", "clan_member") for a in acts if a[0] in ("buy", "sell"))
    for action in (("sell", 0, 0, "whisky"), ("buy", "whisky"), ("sell", 0, 0, "clan")):
        with pytest.raises(IllegalAction):
            st.apply(0, action)


def test_selling_is_allowed_at_every_step_of_the_own_turn() -> None:
    """GM §6: selling is allowed at any moment of your own turn (steps 1–4)."""
    st = plain_ready()
    put(st, 0, -1, -1, "S1-16", cubes={"wood": 1})
    set_market(st, {"wood": 3})
    set_clan(st, 0, -1, -1, 1)
    sell = ("sell", -1, -1, "wood")
    assert sell in legal(st)  # take step
    offer(st, 5, PLAIN_VILLAGE)
    play(st, ("take", 5))
    assert sell in legal(st)  # pay step
    play(st, ("buy", "stone"))
    assert sell in legal(st)  # place step
    play(st, ("place", -2, -1))
    assert sell in legal(st)  # activation step
    play(st, ("activate", -2, -1))
    play(st, ("done",))
    assert PHASES[st.phase] == "move" and sell in legal(st)  # movement step
    play(st, ("end",))
    assert st.cur != 0 and sell not in st.legal_actions(0)


def test_a_payment_step_that_would_strand_the_rest_is_not_offered() -> None:
    """GM §4.1 / §6 (no dead ends): paying the only sheep towards "any 2 resources" would
    leave 0 coins for the second cube; selling it (3 coins) and buying two cheap cubes works,
    so the sale is offered and the payment of the sheep is not."""
    st = new(4)
    put(st, 0, -1, 0, "S2-17", cubes={"sheep": 1})  # river sheep pasture north of the village
    set_market(st, {"sheep": 3})
    set_coins(st, 0, 0)
    offer(st, 5, "S3-10")  # Loch Oich: any 2 resources
    assert ("take", 5) in legal(st)
    play(st, ("take", 5))
    acts = legal(st)
    assert ("pay", -1, 0, "sheep") not in acts
    assert ("sell", -1, 0, "sheep") in acts
    with pytest.raises(IllegalAction, match="rest of the payment impossible"):
        st.apply(0, ("pay", -1, 0, "sheep"))
    play(st, ("sell", -1, 0, "sheep"))
    assert st.coins[0] == 3
    play(st, ("buy", "wood"))
    play(st, ("buy", "stone"))
    assert PHASES[st.phase] == "place" and st.coins[0] == 1
    check_invariants(st)


def test_every_listed_payment_step_can_be_completed() -> None:
    """Contract rule 4: walking any listed payment step always reaches the placement."""
    for seed in range(20):
        st = plain_ready(seed=seed)
        put(st, 0, -1, 1, "S1-15", cubes={"stone": 1})
        put(st, 0, -1, -1, "S1-16", cubes={"wood": 2})
        set_coins(st, 0, seed % 4)
        offer(st, 5, "S1-17")  # Castle Moil: wood, stone, grain
        if ("take", 5) not in legal(st):
            continue
        play(st, ("take", 5))
        i = seed
        while PHASES[st.phase] == "pay":
            acts = legal(st)
            assert acts
            play(st, acts[i % len(acts)])
            i += 1
        assert PHASES[st.phase] == "place"
        check_invariants(st)


def test_kind_lookup_helper() -> None:
    assert KINDS[kind(PLAIN_VILLAGE)].name == "Village"
    assert slot_of(new(5), KINDS[new(5).slots[5]].id) == 5
