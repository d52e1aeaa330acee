"""The Kingdom Builder evaluation the bots use (``game/kingdom_builder/evaluation.py``)."""

from __future__ import annotations

import math

import pytest

from game.bots.knowledge import knowledge_for
from game.core.registry import get_game
from game.core.rng import Rng, derive_seed
from game.kingdom_builder import evaluation as ev
from game.kingdom_builder import hex_value
from game.kingdom_builder.board import SIZE
from game.kingdom_builder.state import KingdomBuilderState

KB = "kingdom-builder"


def walk(seed: int, steps: int, players: int = 4, **options: object) -> KingdomBuilderState:
    """A position after ``steps`` random legal actions."""
    state = get_game(KB).new(players, dict(options), seed)
    rng = Rng(derive_seed(seed, "eval-walk"))
    for _ in range(steps):
        if state.is_over():
            break
        seat = state.to_move()[0]
        actions = state.legal_actions(seat)
        state.apply(seat, actions[rng.randbelow(len(actions))])
    return state  # type: ignore[return-value]


def finished(seed: int) -> KingdomBuilderState:
    return walk(seed, 10_000)


def test_the_bots_find_this_module() -> None:
    known = knowledge_for(KB)
    assert known.evaluate_all is ev.evaluate_all
    assert known.rollout_action == ev.rollout_action
    assert known.position_key is ev.position_key
    assert known.scale == ev.SCALE


@pytest.mark.parametrize("seed", range(4))
def test_a_finished_game_is_worth_its_final_score(seed: int) -> None:
    state = finished(seed)
    assert state.is_over()
    assert ev.evaluate_all(state) == [float(s["total"]) for s in state.scores()]


@pytest.mark.parametrize(
    "cards", [["Lords", "Farmers", "Knights"], ["Merchants", "Hermits", "Citizens"]]
)
def test_the_score_part_is_the_live_score(cards: list[str]) -> None:
    """Castles + cards as scored by the engine (KB §9), Lords included, for every seat: the
    ``score`` feature, twice (the second time from the evaluation's memo of own scores)."""
    evaluator = ev.Evaluator()
    for seed in range(6):
        state = walk(seed, 20 * seed + 5, cards=cards)
        live = [float(row["total"]) for row in state.preview_scores()]
        for _ in range(2):
            assert [f[0] for f in evaluator.features(state)] == live


def test_the_memoised_sector_counts_follow_every_move() -> None:
    """The evaluation's sector counts (KB §9.2 Lords and Farmers), memoised row by row by each
    seat's settlements and shared by every position it judges, equal a fresh count after every
    action — moves and removals (Barn, Harbor, Paddock, Sword) included."""
    evaluator = ev.Evaluator()
    for seed in range(4):
        state: KingdomBuilderState = get_game(KB).new(4, {"nomads": "full"}, seed)  # type: ignore[assignment]
        rng = Rng(derive_seed(seed, "sector-memo"))
        game = (state.cards, state.board.names, state.board.rotations)
        for _ in range(150):
            if state.is_over():
                break
            fresh = hex_value.sector_counts(state)
            assert evaluator._memo.sector_counts(state, game) == fresh
            assert [sum(row) for row in fresh] == [len(home) for home in state.homes]
            seat = state.to_move()[0]
            actions = state.legal_actions(seat)
            state.apply(seat, actions[rng.randbelow(len(actions))])


def test_values_do_not_depend_on_hidden_cards_or_the_deck_order() -> None:
    for seed in range(5):
        state = walk(seed, 30 + 11 * seed)
        twin = state.clone()
        twin.deck.reverse()
        for s in range(state.players):
            if s != state.cur and twin.deck:
                twin.hands[s], twin.deck[0] = twin.deck[0], twin.hands[s]
        assert twin.to_dict() != state.to_dict()
        assert ev.evaluate_all(twin) == ev.evaluate_all(state)


def test_terrain_odds_count_only_public_cards() -> None:
    state = walk(2, 40)
    odds = ev.terrain_odds(state)
    assert sum(odds) == pytest.approx(1.0)
    assert all(0.0 <= p <= 1.0 for p in odds)
    # 25 cards, 5 per terrain, minus discards and the revealed card (KB §1.1, §4).
    unseen = [5] * 5
    for t in state.discard:
        unseen[t] -= 1
    unseen[state.terrain] -= 1
    assert odds == pytest.approx([c / sum(unseen) for c in unseen])


def test_a_tile_is_worth_more_early_than_late() -> None:
    early = walk(4, 12)
    late = walk(4, 150)
    assert ev.turns_left(early) > ev.turns_left(late) > 0
    weights = ev.Weights()
    per_turn = weights.tile_per_turn["Oracle"]
    assert max(weights.tile_floor, per_turn * ev.turns_left(early)) > max(
        weights.tile_floor, per_turn * ev.turns_left(late)
    )


def test_touching_a_castle_or_a_tile_shows_in_the_gains() -> None:
    """KB §9.1 and §6.1: a first settlement next to a castle gains 3, one next to a location
    hex with tiles left gains a tile's worth."""
    state = walk(1, 0)
    board = state.board
    seat = state.cur
    castle_nbr = board.nbrs[board.castles[0]][0]
    location_nbr = board.nbrs[board.locations[0]][0]
    plain = next(
        h
        for h in range(SIZE * SIZE)
        if board.buildable[h] and not board.loc_adj[h] and not board.touches_special[h]
    )
    left = ev.turns_left(state)
    gains = ev.hex_gains(state, seat, [castle_nbr, location_nbr, plain], left)
    assert gains[0] >= 3.0 + gains[2]
    assert gains[1] >= ev.Weights().tile_floor + gains[2]


def test_the_same_placements_in_another_order_have_the_same_key() -> None:
    state = walk(6, 0)
    seat = state.cur
    first = state.clone()
    a = first.legal_actions(seat)[0]
    first.apply(seat, a)
    b = first.legal_actions(seat)[0]
    first.apply(seat, b)
    second = state.clone()
    if b in second.legal_actions(seat):
        second.apply(seat, b)
        if a in second.legal_actions(seat):
            second.apply(seat, a)
            assert ev.position_key(first, seat) == ev.position_key(second, seat)
    assert ev.position_key(first, seat) != ev.position_key(state, seat)


def test_the_playout_policy_plays_legal_actions_to_the_end() -> None:
    for seed in range(3):
        state = get_game(KB).new(4, {}, seed)
        rng = Rng(seed)
        while not state.is_over():
            seat = state.to_move()[0]
            actions = state.legal_actions(seat)
            action = ev.rollout_action(state, seat, actions, rng)
            assert action in actions
            state.apply(seat, action)


# ---- Nomads (KB §7 nomad tiles, §9.3): gold, nomad tiles and the Nomads cards ---------------------
NB = ("Quarry", "Caravan", "Village", "Garden")


def _nomads_position(**kw: object) -> KingdomBuilderState:
    from tests.kingdom_builder.helpers import position

    kw.setdefault("sections", NB)
    kw.setdefault("nomads", "full")
    return position(**kw)  # type: ignore[arg-type]


def test_banked_gold_and_held_nomad_tiles_are_worth_points() -> None:
    """Gold counts point for point; a held nomad tile still to be used is worth its weight;
    once used, it is worth nothing more (its effect is on the map or in the gold)."""
    w = ev.Weights()
    plain = _nomads_position(settlements={0: [(4, 7)], 1: [(19, 19)]})
    base = ev.Evaluator(w).evaluate_all(plain)[0]
    rich = _nomads_position(settlements={0: [(4, 7)], 1: [(19, 19)]}, gold={0: {"Treasure": 3}})
    assert ev.Evaluator(w).evaluate_all(rich)[0] == pytest.approx(base + 3.0)
    for tile, kind in (("Donation - Grass", "Donation"), ("Sword", "Sword")):
        held = _nomads_position(
            settlements={0: [(4, 7)], 1: [(19, 19)]}, nomad_held={0: {(5, 7): (tile, "ready")}}
        )
        assert ev.Evaluator(w).evaluate_all(held)[0] == pytest.approx(base + w.nomad_tile[kind])


def test_the_gains_see_nomad_tiles_and_the_nomads_cards() -> None:
    """KB §7, §9.3: a hex next to a face-up nomad tile gains the tile's worth; Ambassadors adds
    1 next to a rival; Shepherds adds 2 for a hex that leaves no empty hex of its terrain
    around it (HB's closed grass area (7,2) (7,3) (8,3) with (7,2) (7,3) taken)."""
    w = ev.Weights()
    st = _nomads_position(
        settlements={1: [(0, 2)]},
        nomad_tiles={(5, 7): "Treasure"},
        cards=("Ambassadors", "Knights", "Hermits"),
    )
    near_tile, near_rival, plain = 4 * SIZE + 7, 0 * SIZE + 1, 19 * SIZE + 0
    g = ev.hex_gains(st, 0, [near_tile, near_rival, plain], ev.turns_left(st), w)
    assert g[0] - g[2] == pytest.approx(w.nomad_tile["Treasure"])
    assert g[1] - g[2] == pytest.approx(1.0)
    from tests.kingdom_builder.helpers import position

    hb = position(
        sections=("Harbor", "Barn", "Oracle", "Tower"),
        settlements={0: [(7, 2), (7, 3)]},
        cards=("Shepherds", "Knights", "Hermits"),
    )
    closing, other = 8 * SIZE + 3, 0 * SIZE + 0
    g = ev.hex_gains(hb, 0, [closing, other], ev.turns_left(hb), w)
    assert g[0] >= 2.0


def test_the_playout_policy_uses_gaining_nomad_tiles_and_plays_full_games() -> None:
    st = _nomads_position(
        settlements={0: [(4, 7)], 1: [(19, 19)]},
        nomad_held={0: {(5, 7): ("Treasure", "ready")}},
        placed=3,
        mandatory_done=True,
    )
    actions = st.legal_actions(0)
    assert actions == [("use", 5, 7), ("end",)]
    assert ev.rollout_action(st, 0, actions, Rng(1)) == ("use", 5, 7)
    for seed in range(3):
        state = get_game(KB).new(5, {"nomads": "full", "sections": list(NB)}, seed)
        rng = Rng(seed)
        while not state.is_over():
            seat = state.to_move()[0]
            actions = state.legal_actions(seat)
            action = ev.rollout_action(state, seat, actions, rng)
            assert action in actions
            state.apply(seat, action)


def test_the_key_tells_apart_what_a_sword_took() -> None:
    """Two Sword choices leave the seat's own settlements alike but not the rival's: the turn
    planner must not merge them."""
    st = _nomads_position(
        settlements={0: [(4, 7)], 1: [(0, 0), (19, 19)]},
        nomad_held={0: {(5, 7): ("Sword", "ready")}},
    )
    st.apply(0, ("use", 5, 7))
    a, b = st.clone(), st.clone()
    a.apply(0, ("remove", 0, 0))
    b.apply(0, ("remove", 19, 19))
    assert ev.position_key(a, 0) != ev.position_key(b, 0)


def test_a_stratified_world_gives_the_seat_each_next_card_by_the_odds() -> None:
    """The race's stratification (``stratify_world``): the seat draws the top of the pile at the
    end of its turn (KB §3.4); a stratum ``u`` brings the terrain whose cumulative share of the
    unseen cards passes ``u`` to the top, and only moves cards among the unseen ones."""
    state = walk(5, 7)
    seat = state.to_move()[0]
    tops = [0] * 5
    strata = 200
    for k in range(strata):
        world = state.determinize(seat, k)
        unseen = sorted(world.deck + [world.hands[s] for s in range(4) if s != seat])
        own, discard = world.hands[seat], list(world.discard)
        ev.stratify_world(world, seat, (k + 0.5) / strata)
        assert sorted(world.deck + [world.hands[s] for s in range(4) if s != seat]) == unseen
        assert (world.hands[seat], world.discard) == (own, discard)
        tops[world.deck[-1]] += 1
        counts = [unseen.count(t) for t in range(5)]
        assert world.deck[-1] == next(
            t for t in range(5) if (k + 0.5) / strata * len(unseen) < sum(counts[: t + 1])
        )
    # every terrain in proportion to its unseen cards (up to the strata's rounding)
    unseen = state.determinize(seat, 0)
    pool = unseen.deck + [unseen.hands[s] for s in range(4) if s != seat]
    for t in range(5):
        assert abs(tops[t] - strata * pool.count(t) / len(pool)) <= 1


def test_a_stratified_world_of_another_seat_is_left_alone() -> None:
    state = walk(6, 4)
    seat = (state.to_move()[0] + 1) % 4
    world = state.determinize(seat, 3)
    before = world.to_dict()
    ev.stratify_world(world, seat, 0.99)
    assert world.to_dict() == before


def test_the_hard_levels_win_chance_sharpens_near_the_end() -> None:
    """``HARD_REWARD_SCALE``: the hard level's rewards use ``SCALE`` until the fastest builder has
    placed 70% of its settlements, then a scale falling to 3 points at 95% (a margin near the
    end of the game, KB §8, decides it more surely); greedy's knowledge keeps ``SCALE``."""
    known = knowledge_for(KB)
    hard = known.for_hard()
    assert known.reward_scale is None and hard.reward_scale is ev.hard_reward_scale
    state = walk(3, 30)
    assert hard.scale_for(state) == known.scale_for(state) == ev.SCALE
    late = state.clone()
    late.supply[0] = 6  # 85% built: between SCALE and 3
    assert 3.0 < hard.scale_for(late) < ev.SCALE
    late.supply[0] = 1
    assert hard.scale_for(late) == 3.0
    values = hard.evaluate_all(late)
    margin = values[0] - max(values[1:])
    expected = 1.0 / (1.0 + math.exp(-margin / 3.0))
    assert hard.rewards(late)[0] == pytest.approx(expected)


def test_the_lords_gain_of_a_hex_is_the_engines_share_after_minus_before() -> None:
    """KB §9.2 Lords (12 for the most settlements in a sector, ties included, an empty sector
    giving everyone 12; 6 for the next lower count): the bots' one-pass gain of one more
    settlement equals the engine's share after it minus before, for 2-5 seats and any counts."""
    from game.kingdom_builder.gains import _lords_share

    rng = Rng(23)
    for _ in range(20_000):
        n = 2 + rng.randbelow(4)
        high = (1, 2, 3, 6, 15)[rng.randbelow(5)]
        counts = [[rng.randbelow(high + 1) for _ in range(4)] for _ in range(n)]
        s = rng.randbelow(n)
        expected = []
        for q in range(4):
            column = [row[q] for row in counts]
            before = _lords_share(column, s)
            column[s] += 1
            expected.append(float(_lords_share(column, s) - before))
        assert hex_value._lords_delta(counts, s) == expected, (counts, s)
