"""Property tests: random playouts over many seeds and every player count, with the invariants
of :func:`tests.glen_more.helpers.check_invariants` after every action, plus:

* the legal list is never empty before the end and never longer than 500 (contract rule 4);
* every listed action is legal and applies (no dead ends, contract rule 4);
* a refused action leaves the state and its hash untouched (contract rule 7);
* ``turn_id`` changes exactly at the end of a turn, also when the same seat moves again;
* a grey tile always brings its clan member: the supply is unlimited (GM §1, issue 20);
* ``to_dict`` / ``from_dict`` round-trip (through msgpack), with the same hash;
* the views hide only the stacks' order: a twin with the stacks reversed and a determinized
  copy show every seat the same view;
* an independent, slow reading of the placement rule (GM §4.2) and of "can be paid"
  (GM §4.1 D9) agrees with the engine's lists.

The default run plays a few dozen games; thousands run with ``pytest -m slow``.
"""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from game.core.rng import Rng
from game.core.types import IllegalAction
from game.core.wire import packb, to_plain, unpackb
from game.glen_more import GAME
from game.glen_more import grid as G
from game.glen_more.codes import PHASES
from game.glen_more.market import BUY, SELL
from game.glen_more.state import GlenMoreState
from game.glen_more.tiles import KINDS, NRES, PRICES, RESOURCES
from tests.glen_more.helpers import check_invariants

ENDING = {"end", "discard"}


def reference_placements(st: GlenMoreState, edge_class: int) -> list[tuple[int, int]]:
    """GM §4.2 read directly: scan every cell around the territory's bounding box."""
    s = st.cur
    grid, clan = st.grid[s], st.clan[s]
    rows = [G.row_col(c)[0] for c in grid]
    cols = [G.row_col(c)[1] for c in grid]
    out = []
    for r in range(min(rows) - 1, max(rows) + 2):
        for q in range(min(cols) - 1, max(cols) + 2):
            c = G.cell(r, q)
            if c in grid:
                continue
            sides = [
                grid.get(G.cell(r + dr, q + dq)) for dr, dq in ((-1, 0), (0, 1), (1, 0), (0, -1))
            ]
            if all(x is None for x in sides):
                continue  # rule 1: a full edge
            near = any(clan.get(G.cell(r + dr, q + dq)) for dr in (-1, 0, 1) for dq in (-1, 0, 1))
            if not near:
                continue  # rule 2
            mine = {0: (0, 0, 0, 0), 1: (1, 0, 1, 0), 2: (0, 2, 0, 2)}[edge_class]
            ok = True
            for i, nb in enumerate(sides):
                if nb is not None and KINDS[nb].edges[(i + 2) % 4] != mine[i]:
                    ok = False  # rule 3
            if edge_class == 1 and sides[0] is None and sides[2] is None:
                ok = False  # rule 4: the river continues
            if edge_class == 2 and sides[1] is None and sides[3] is None:
                ok = False  # rule 4: the road continues
            if ok:
                out.append((r, q))
    return sorted(out)


def reference_can_pay(
    need: list[int], any_n: int, have: list[int], fill: list[int], coins: int
) -> bool:
    """GM §4.1/§6 read directly: try every combination of sales per row, then cover the cost
    from what is left and by buying the cheapest way."""
    ranges = [range(min(have[k], fill[k]) + 1) for k in range(NRES)]
    for sold in product(*ranges):
        money = coins + sum(SELL[fill[k]][sold[k]] for k in range(NRES))
        left = [have[k] - sold[k] for k in range(NRES)]
        f2 = [fill[k] - sold[k] for k in range(NRES)]
        short = [max(0, need[k] - left[k]) for k in range(NRES)]
        spare = sum(left) - sum(need[k] - short[k] for k in range(NRES))
        cost = 0
        ok = True
        for k in range(NRES):
            if short[k]:
                if f2[k] + short[k] > 3:
                    ok = False
                    break
                cost += BUY[f2[k]][short[k]]
        if not ok:
            continue
        extra = max(0, any_n - spare)
        # buy the extra any-kind cubes at the cheapest prices
        fills = [f2[k] + short[k] for k in range(NRES)]
        for _ in range(extra):
            options = [(PRICES[fills[k]], k) for k in range(NRES) if fills[k] < 3]
            if not options:
                ok = False
                break
            price, k = min(options)
            cost += price
            fills[k] += 1
        if ok and cost <= money:
            return True
    return False


def check_lists(st: GlenMoreState) -> None:
    """The engine's take and place lists agree with the slow references."""
    s = st.cur
    acts = st.legal_actions(s)
    if PHASES[st.phase] == "place":
        cls = KINDS[st.taken].edge_class
        got = sorted((a[1], a[2]) for a in acts if a[0] == "place")
        assert got == reference_placements(st, cls)
    if PHASES[st.phase] == "take":
        takes = {a[1] for a in acts if a[0] == "take"}
        for slot, k in enumerate(st.slots):
            if k < 0:
                continue
            kind = KINDS[k]
            payable = (
                reference_can_pay(
                    list(kind.cost_res), kind.cost_any, st.have[s], st.market, st.coins[s]
                )
                and kind.cost_whisky <= st.whisky[s]
            )
            if kind.cost_clan:
                placeable = slot in takes  # checked by the Loch Ness rules test
            else:
                placeable = bool(reference_placements(st, kind.edge_class))
            assert (slot in takes) == (payable and placeable), (kind.id, payable, placeable)
        if not takes:
            assert all(a[0] in ("discard", "sell") for a in acts)


def twin_views_equal(st: GlenMoreState) -> None:
    twin = st.clone()
    for pile in twin.stacks:
        pile.reverse()
    seed = st.turn_id() * 7 + len(st.removed)
    for seat in [*range(st.players), None]:
        v = to_plain(st.view(seat))
        assert to_plain(twin.view(seat)) == v
        assert to_plain(st.determinize(seat, seed).view(seat)) == v


def playout(
    seed: int, players: int, options: dict | None = None, deep: bool = True
) -> GlenMoreState:
    st = GAME.new(players, options, seed)
    rng = Rng(seed ^ 0x5EED)
    check_invariants(st)
    step = 0
    while not st.is_over():
        seat = st.to_move()[0]
        acts = st.legal_actions(seat)
        assert acts and len(acts) <= 500
        assert len(set(acts)) == len(acts)
        if deep or step % 7 == 0:
            check_lists(st)
        # a refused action leaves the state untouched
        if step % 5 == 0:
            before = st.state_hash()
            with pytest.raises(IllegalAction):
                st.apply((seat + 1) % players, acts[0])
            with pytest.raises(IllegalAction):
                st.apply(seat, ("place", 99, 99))
            assert st.state_hash() == before
        action = acts[rng.randbelow(len(acts))]
        turn, phase = st.turn_id(), PHASES[st.phase]
        events = st.apply(seat, action)
        # GM §1 / §4.3 (issue 20): the clan-member supply never runs dry
        assert all(
            e["n"] >= 1 for e in events if e["type"] == "gain" and e["what"] == "clan_member"
        )
        step += 1
        ended = action[0] in ENDING or (
            action[0] == "done" and phase == "activate" and PHASES[st.phase] != "move"
        )
        assert (st.turn_id() > turn) == ended, (action, turn, st.turn_id())
        check_invariants(st)
        if deep or step % 11 == 0:
            data = st.to_dict()
            back = GAME.from_dict(unpackb(packb(data)))
            assert back.to_dict() == data and back.state_hash() == st.state_hash()
            twin_views_equal(st)
    assert st.to_move() == () and st.legal_actions(0) == []
    assert len(st.rounds) == 3 and st.final is not None
    return st


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_playouts_keep_the_invariants(players: int) -> None:
    for seed in range(2):
        playout(seed * 10 + players, players)


def test_random_playouts_with_clan_members_on_placement() -> None:
    playout(3, 3, {"grey_clan_members": "on_placement"})


@settings(max_examples=12)
@given(seed=hs.integers(0, 2**32 - 1), players=hs.integers(2, 5), mode=hs.booleans())
def test_hypothesis_playouts(seed: int, players: int, mode: bool) -> None:
    opts = {"grey_clan_members": "on_placement"} if mode else None
    playout(seed, players, opts, deep=False)


@pytest.mark.slow
@settings(max_examples=400)
@given(seed=hs.integers(0, 2**64 - 1), players=hs.integers(2, 5), mode=hs.booleans())
def test_many_playouts(seed: int, players: int, mode: bool) -> None:
    opts = {"grey_clan_members": "on_placement"} if mode else None
    playout(seed, players, opts, deep=seed % 4 == 0)


def test_reference_can_pay_agrees_with_the_engine_on_small_cases() -> None:
    """GM §4.1 D9: the engine's payability (per-row net coins) equals an exhaustive search of
    sales, on every small holding against every market and purse."""
    from game.glen_more.market import can_pay

    rng = Rng(5)
    for _ in range(3000):
        have = [rng.randbelow(3) for _ in range(NRES)]
        fill = [rng.randbelow(4) for _ in range(NRES)]
        need = [0] * NRES
        for _ in range(rng.randbelow(4)):
            need[rng.randbelow(NRES)] += 1
        any_n = rng.randbelow(4) if rng.randbelow(3) == 0 else 0
        coins = rng.randbelow(8)
        assert can_pay(need, any_n, have, fill, coins) == reference_can_pay(
            need, any_n, have, fill, coins
        ), (need, any_n, have, fill, coins, RESOURCES)
