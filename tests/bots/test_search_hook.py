"""The optional ``SEARCH`` hook of a game's evaluation module (``game/bots/knowledge.py``): the
hard level takes the game's search parameters; and the racing root's first round gives up past
a quarter of a budget over its time (``game/bots/mcts.py``)."""

from __future__ import annotations

import dataclasses
import time
from typing import Any

import pytest

from game.bots import MctsBot, hard_bot
from game.bots import knowledge as kn
from game.core.registry import get_game
from tests import testgame

testgame.register()


def test_a_game_may_tune_the_hard_level(monkeypatch: pytest.MonkeyPatch) -> None:
    """The game's ``SEARCH`` replaces the hard bot's parameters at its first search in that
    game; a bot without ``game_tuning`` keeps its own."""
    known = dataclasses.replace(
        kn.knowledge_for(testgame.GAME_ID),
        search=(("max_plans", 2), ("playout_plan_evals", 7)),
    )
    monkeypatch.setattr(kn, "_cache", {})
    monkeypatch.setattr(
        "game.bots.mcts.knowledge_for",
        lambda game_id: known if game_id == testgame.GAME_ID else kn.knowledge_for(game_id),
    )
    state = get_game(testgame.GAME_ID).new(3, {}, 4)
    seat = state.to_move()[0]
    tuned = hard_bot(1, budget=0.05)
    tuned.choose(state.determinize(seat, 1), seat)
    assert (tuned.max_plans, tuned.playout_plan_evals) == (2, 7)
    plain = MctsBot(1, budget=0.05, root_policy="race", playout_plan_evals=100)
    plain.choose(state.determinize(seat, 1), seat)
    assert (plain.max_plans, plain.playout_plan_evals) == (8, 100)


def test_keyflower_tunes_its_hard_level() -> None:
    assert dict(kn.knowledge_for("keyflower").search) == {"max_plans": 6, "playout_plan_evals": 20}
    assert kn.knowledge_for("kingdom-builder").search == ()


def test_unknown_search_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown search parameters"):
        kn._search_parameters("some-game", {"budget": 9})


def test_the_first_racing_round_gives_up_past_a_quarter_of_a_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a machine too busy to finish one round of playouts, the race stops at about 1.25
    budgets and plays the planner's best turn (the first of the root's turns)."""
    state = get_game(testgame.GAME_ID).new(3, {}, 4)
    seat = state.to_move()[0]
    bot = MctsBot(2, budget=0.2, root_policy="race", plan_share=0.1)
    real_playout = MctsBot._playout
    real_add_plans = MctsBot._add_plans
    proposed: list[tuple[Any, ...]] = []

    def slow_playout(self: MctsBot, *args: Any, **kwargs: Any) -> None:
        time.sleep(0.15)
        real_playout(self, *args, **kwargs)

    def recorded_add_plans(self: MctsBot, root: Any, *args: Any) -> None:
        real_add_plans(self, root, *args)
        proposed.extend(root.children)

    monkeypatch.setattr(MctsBot, "_playout", slow_playout)
    monkeypatch.setattr(MctsBot, "_add_plans", recorded_add_plans)
    started = time.perf_counter()
    plan = bot.search(state.determinize(seat, 1), seat)
    elapsed = time.perf_counter() - started
    assert len(proposed) > 3, "the race needs several turns at the root"
    assert bot.last_iterations < len(proposed), "the first round was given up"
    assert plan == proposed[0]
    assert elapsed < 0.2 * 1.25 + 0.15 + 0.3  # the cut, one playout in flight, the planning
