"""The frozen reference bot: the hard level as it was at commit 1841520 (issue 23).

Issue 23 asks that the new hard level beat three copies of *today's* hard level (at least 40% of
the wins; chance is 25%).  This package keeps that bot, frozen, for :mod:`bench.bots` only (its
``hard_vs_reference`` and ``reference_vs_greedy`` matchups) — it is not a level players see:

* ``mcts.py``, ``greedy.py``, ``knowledge.py``, ``base.py`` — the search bot, its turn planner,
  the evaluation hooks and the shared pieces of ``game/bots/`` at 1841520;
* ``kingdom_builder.py``, ``keyflower.py``, ``glen_more.py`` — the three games' evaluation
  modules at 1841520 (``game/<game>/evaluation.py``), found by game id instead of by name.

They import only the engine contract (``game.core``) and the engine internals those evaluations
read at 1841520 (the state's fields, the boards' and tiles' tables); a test plays a short game of
each game with the reference bot so an engine change that breaks them is caught
(``tests/bots/test_reference_bot.py``).

**Its budget.**  At 1841520 the hard level thought for 2 s of *wall-clock* time a decision (the
root's planner for at most 40% of it, and the race's cuts in wall-clock time).  Here every one of
those clocks reads the thinking thread's CPU time (``time.thread_time``) instead, so the
reference thinks for 2 s of CPU a decision (:data:`REFERENCE_CPU`) however busy the machine is:
what the old hard level did on a quiet core.  Being bounded by time, not by a count, its
decisions depend on the machine's speed (not its load).  The greedy planner inside it keeps its
1500-evaluation budget.
"""

from __future__ import annotations

from typing import Any

from bench.reference.mcts import MctsBot
from game.core.api import GameState
from game.core.types import Action, Seat

#: The reference bot's thinking time per decision, in CPU seconds of its thread.
REFERENCE_CPU = 2.0


class ReferenceBot(MctsBot):
    """The frozen hard level (see the module docstring), saying whether its last decision
    searched (``last_thought``) for the benchmark's decision times."""

    def __init__(self, seed: int = 0, **kwargs: Any) -> None:
        super().__init__(seed, **kwargs)
        self.last_thought = False

    def choose(self, state: GameState, seat: Seat, cancel: Any = None) -> Action:
        self.last_thought = False
        return super().choose(state, seat, cancel)

    def search(self, state: GameState, seat: Seat, cancel: Any = None) -> tuple[Action, ...]:
        self.last_thought = True
        return super().search(state, seat, cancel)


def reference_bot(seed: int = 0, cpu: float = REFERENCE_CPU) -> ReferenceBot:
    """The hard level of commit 1841520 with its parameters of then, thinking ``cpu`` seconds of
    CPU time per decision."""
    return ReferenceBot(
        seed,
        budget=cpu,
        root_policy="race",
        horizon_extra=1,
        playout_plan_evals=100,
        plan_beam=10,
        plan_per_first=2,
        game_tuning=True,
        name="reference",
    )


__all__ = ["REFERENCE_CPU", "ReferenceBot", "reference_bot"]
