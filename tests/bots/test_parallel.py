"""The hard level's race on several cores (``game/bots/parallel.py``, issue 23): the helper
processes play a share of the playouts and the decision is the same as on one core with the same
counts — only sooner on an idle machine."""

from __future__ import annotations

from typing import Any

import pytest

from game.bots import BotCancelled, MctsBot, hard_bot, make_bot
from game.core.registry import get_game
from game.core.rng import Rng


def race(seed: int, cores: int, **budget: int) -> MctsBot:
    return MctsBot(
        seed,
        budget=None,
        root_policy="race",
        horizon_extra=1,
        playout_plan_evals=30,
        plan_per_first=2,
        cores=cores,
        **budget,
    )


@pytest.mark.parametrize(
    ("game_id", "budget"),
    [("kingdom-builder", {"iterations": 40}), ("glen-more", {"work": 3000})],
)
def test_two_cores_decide_as_one_does(game_id: str, budget: dict[str, int]) -> None:
    state = get_game(game_id).new(4, {}, 8)
    seat = state.to_move()[0]
    one = race(5, 1, **budget)
    two = race(5, 2, **budget)
    try:
        for step in range(2):
            world = state.determinize(seat, step)
            assert two.search(world.clone(), seat) == one.search(world.clone(), seat)
            assert (two.last_iterations, two.last_work) == (one.last_iterations, one.last_work)
            assert two._pool is not None and two._pool.helper_cpu > 0
    finally:
        two.close()


def test_a_helper_that_dies_changes_nothing() -> None:
    """The parent plays the playouts of a helper that died: the same decisions still."""
    state = get_game("glen-more").new(4, {}, 9)
    seat = state.to_move()[0]
    one = race(6, 1, iterations=30)
    three = race(6, 3, iterations=30)
    try:
        assert three.search(state.determinize(seat, 0), seat) == one.search(
            state.determinize(seat, 0), seat
        )
        assert three._pool is not None
        three._pool._helpers[0].process.kill()
        three._pool._helpers[0].process.wait()
        assert three.search(state.determinize(seat, 1), seat) == one.search(
            state.determinize(seat, 1), seat
        )
        assert three.last_iterations == one.last_iterations
    finally:
        three.close()


class _CancelledMidBatch(MctsBot):
    """Cancelled at its third own playout, while its helper plays its share of the batch."""

    calls = 0
    armed = True

    def race_playout(self, *args: Any, **kwargs: Any) -> tuple[float, int]:
        self.calls += 1
        if self.armed and self.calls == 3:
            raise BotCancelled("cancelled")
        return super().race_playout(*args, **kwargs)


def test_a_search_cancelled_on_several_cores_leaves_no_stale_answers() -> None:
    """Cancelled while the helpers play: their answers must not be taken by the next search
    (the helpers are ended, and new ones started for the next search)."""
    state = get_game("glen-more").new(4, {}, 10)
    seat = state.to_move()[0]
    settings: dict[str, Any] = {
        "budget": None,
        "iterations": 60,
        "root_policy": "race",
        "horizon_extra": 1,
        "playout_plan_evals": 30,
        "plan_per_first": 2,
    }
    two = _CancelledMidBatch(7, cores=2, **settings)
    try:
        with pytest.raises(BotCancelled):
            two.search(state.determinize(seat, 0), seat)
        assert two._pool is not None and two._pool.closed
        two.armed = False
        fresh = MctsBot(7, **settings)
        two.rng = Rng(11)
        fresh.rng = Rng(11)
        assert two.search(state.determinize(seat, 1), seat) == fresh.search(
            state.determinize(seat, 1), seat
        )
        assert two.last_iterations == fresh.last_iterations
        assert two._pool is not None and not two._pool.closed
    finally:
        two.close()


def test_the_hard_level_on_n_cores_searches_n_times_the_work() -> None:
    bot = hard_bot(1, cores=2)
    try:
        assert (bot.cores, bot.count_scale) == (2, 2)
        assert make_bot("hard", 1).cores == 1  # type: ignore[attr-defined]
        with pytest.raises(ValueError, match="cores"):
            make_bot("hard", 1, cores=0)
    finally:
        bot.close()


def test_the_helpers_judge_with_the_hard_levels_own_evaluation() -> None:
    """A hard bot (game tuning: Kingdom Builder's fitted evaluation, stratified worlds) on two
    cores decides as on one with the same counts: the helpers use the same evaluation."""
    state = get_game("kingdom-builder").new(4, {}, 12)
    seat = state.to_move()[0]

    def tuned(cores: int) -> MctsBot:
        return MctsBot(
            3,
            budget=None,
            root_policy="race",
            work=1500,
            game_tuning=True,
            fixed=frozenset({"work"}),
            cores=cores,
        )

    one, two = tuned(1), tuned(2)
    try:
        for step in range(2):
            world = state.determinize(seat, 40 + step)
            assert two.search(world.clone(), seat) == one.search(world.clone(), seat)
            assert (two.last_iterations, two.last_work) == (one.last_iterations, one.last_work)
            assert two.last_iterations > 8
    finally:
        two.close()
