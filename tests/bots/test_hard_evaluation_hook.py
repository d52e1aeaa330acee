"""The optional ``HARD_EVALUATE_ALL`` hook of a game's evaluation module
(``game/bots/knowledge.py``): the hard level (a search bot with ``game_tuning``) judges with the
game's refined evaluation; greedy, easy, normal and an untuned search bot keep
``evaluate_all``."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import pytest

from game.bots import MctsBot
from game.bots import knowledge as kn
from game.core.registry import get_game
from game.keyflower import evaluation as kf_evaluation
from tests import testgame

testgame.register()


def test_keyflower_has_a_hard_evaluation() -> None:
    known = kn.knowledge_for("keyflower")
    assert known.hard_evaluate_all is kf_evaluation.HARD_EVALUATE_ALL
    hard = known.for_hard()
    assert hard.evaluate_all is kf_evaluation.HARD_EVALUATE_ALL
    assert hard.candidate_actions is kf_evaluation.HARD_CANDIDATE_ACTIONS
    assert hard.rollout_action is known.rollout_action
    assert known.evaluate_all is kf_evaluation.evaluate_all
    assert known.candidate_actions is kf_evaluation.candidate_actions


def _roads(st: Any, seat: int, a: tuple[Any, ...]) -> int:
    """Road contacts the placement ``a`` makes with ``seat``'s village (KF §7.1)."""
    from game.keyflower.village import DIRS, ROAD, ROT_EDGES, hex_id

    vil = st.vil[seat]
    t = st.tile_of(a[1])
    h = hex_id(a[2], a[3])
    return sum(
        1
        for p in range(6)
        if (o := vil.get(h + DIRS[p])) is not None
        and ROT_EDGES[t][a[4]][p] == ROAD
        and ROT_EDGES[o][st.rot[o]][(p + 3) % 6] == ROAD
    )


def test_the_hard_level_places_among_the_best_joined_positions() -> None:
    """KF §9: of a long placement list the hard level searches, per tile, at most 4 positions
    (2 turns of a hex at most), those joining the most roads; the greedy levels search all."""
    from game.core.rng import Rng

    game = get_game("keyflower")
    checked = 0
    for seed in range(1, 8):
        st = game.new(4, None, seed)
        rng = Rng(seed)
        while not st.is_over():
            seat = st.to_move()[0]
            acts = st.legal_actions(seat)
            if acts[0][0] == "place":
                assert kf_evaluation.candidate_actions(st, seat, acts) == acts
                kept = kf_evaluation.hard_candidate_actions(st, seat, acts)
                assert kept and set(kept) <= set(acts)
                for tile in {a[1] for a in acts}:
                    mine = [a for a in kept if a[1] == tile]
                    offered = [a for a in acts if a[1] == tile]
                    assert 1 <= len(mine) <= 4
                    if len(offered) > 4:
                        assert max(Counter((a[2], a[3]) for a in mine).values()) <= 2

                    if not st.pplaced[seat]:
                        # nothing dropped joins more roads than the least kept
                        least = min(_roads(st, seat, a) for a in mine)
                        dropped = [a for a in acts if a[1] == tile and a not in mine]
                        same_hex_full = {
                            (a[2], a[3])
                            for a in mine
                            if sum(1 for b in mine if (b[2], b[3]) == (a[2], a[3])) >= 2
                        }
                        assert all(
                            _roads(st, seat, a) <= least or (a[2], a[3]) in same_hex_full
                            for a in dropped
                        )
                    checked += 1
            st.apply(seat, acts[rng.randbelow(len(acts))])
    assert checked > 20


def test_a_game_without_one_keeps_its_evaluation() -> None:
    known = kn.knowledge_for(testgame.GAME_ID)
    assert known.hard_evaluate_all is None
    assert known.for_hard() is known


@pytest.mark.parametrize("tuned", [True, False])
def test_only_the_tuned_search_uses_it(tuned: bool) -> None:
    base = kn.knowledge_for(testgame.GAME_ID)
    calls: list[int] = []

    def hard_values(state):  # type: ignore[no-untyped-def]
        calls.append(1)
        return base.evaluate_all(state)

    known = dataclasses.replace(base, hard_evaluate_all=hard_values)
    state = get_game(testgame.GAME_ID).new(3, {}, 4)
    seat = state.to_move()[0]
    bot = MctsBot(
        1, budget=None, iterations=6, root_policy="race", game_tuning=tuned, knowledge=known
    )
    bot.choose(state.determinize(seat, 1), seat)
    assert bool(calls) == tuned
