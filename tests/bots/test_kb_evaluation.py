"""The Kingdom Builder evaluation the bots use (``game/kingdom_builder/evaluation.py``)."""

from __future__ import annotations

import pytest

from game.bots.knowledge import knowledge_for
from game.core.registry import get_game
from game.core.rng import Rng, derive_seed
from game.kingdom_builder import evaluation as ev
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
    """Castles + cards as scored by the engine (KB §9), Lords included, for every seat."""
    evaluator = ev.Evaluator()
    for seed in range(6):
        state = walk(seed, 20 * seed + 5, cards=cards)
        counts = ev._sector_counts(state)
        lords = ev._lords_scores(counts) if "Lords" in cards else [0] * state.players
        for seat, row in enumerate(state.preview_scores()):
            own = evaluator._own_score(state.board, state.cards, state.homes[seat])
            assert own + lords[seat] == row["total"]


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
