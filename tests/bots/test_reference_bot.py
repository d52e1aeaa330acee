"""The frozen reference bot of the benchmarks (``bench/reference``, issue 23) still plays every
game: it imports engine internals as they were at commit 1841520, so an engine change that
breaks it must show here, not in a benchmark hours later."""

from __future__ import annotations

import pytest

from bench.reference import REFERENCE_CPU, ReferenceBot, reference_bot
from bench.reference import knowledge as frozen
from game.bots import make_bot
from game.core.match import play_match
from game.core.rng import derive_seed


def small_reference(seed: int) -> ReferenceBot:
    """The reference bot's search with a small iteration count instead of its 2 s."""
    return ReferenceBot(
        seed,
        budget=None,
        iterations=6,
        root_policy="race",
        horizon_extra=1,
        playout_plan_evals=30,
        plan_beam=10,
        plan_per_first=2,
        plan_evals=200,
        game_tuning=True,
        name="reference",
    )


@pytest.mark.parametrize("game_id", ["kingdom-builder", "keyflower", "glen-more"])
def test_the_reference_bot_plays_a_whole_game(game_id: str) -> None:
    bots = [small_reference(derive_seed(3, "ref", 0)), make_bot("random", 4)]
    result = play_match(game_id, 2, 3, [b.choose for b in bots])
    assert result.state.is_over()
    assert bots[0].last_iterations > 0
    # it judges by its own frozen evaluation, not the game's current one
    known = frozen.knowledge_for(game_id)
    assert known.evaluate_all.__module__.startswith("bench.reference.")


def test_the_reference_bot_thinks_for_cpu_seconds() -> None:
    bot = reference_bot(1)
    assert bot.budget == REFERENCE_CPU == 2.0
    assert bot.iterations is None
    assert bot.root_policy == "race" and bot.game_tuning
