"""The optional ``HARD_EVALUATE_ALL`` hook of a game's evaluation module
(``game/bots/knowledge.py``): the hard level (a search bot with ``game_tuning``) judges with the
game's refined evaluation; greedy, easy, normal and an untuned search bot keep
``evaluate_all``."""

from __future__ import annotations

import dataclasses

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
    assert hard.rollout_action is known.rollout_action
    assert known.evaluate_all is kf_evaluation.evaluate_all


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
