"""Which whole turns the search bot compares at its root, and what each is worth at first.

The search bot (:mod:`game.bots.mcts`) does not grow its first move action by action: its root's
children are whole turns of its seat, proposed by the greedy
:class:`~game.bots.greedy.TurnPlanner`, and each starts with a *prior* (a few virtual playouts
at the value the turn's end seems to have).  This module makes that list; the search then
decides among the turns (UCB or the race) without knowing where they came from.

- The planner's best distinct turns judged by the game's evaluation (at most ``max_plans``, at
  most ``per_first`` starting with the same action).
- In the seat's last turn of the game (the game's ``last_turn`` hook), up to
  ``last_turn_plans`` more: the planner's best turns judged by the points the rules count now
  (:func:`~game.bots.knowledge.live_totals`, or the game's faster ``live_scores``), found by a
  planner of ``last_turn_beam`` and ``last_turn_evals`` (0: the root planner's), which looks
  through an action that leaves the points unchanged (``last_turn_look`` ``"any"``) or only one
  that leaves the seat partway through a move (``"midway"``, the game's ``midway``); with
  ``last_turn_wide_beam``, up to as many again from a second, wide planner that looks through
  nothing (that beam, ``last_turn_wide_evals`` evaluations).  Nothing after
  that turn is the seat's to use, so the evaluation's worth of what a turn sets up (next turn's
  potential, a tile's worth per turn left) could hide the turn that scores most.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import NamedTuple

from game.bots.base import CancelToken, apply_trusted
from game.bots.budget import PLAN_EVALS, Meter
from game.bots.greedy import Plan, TurnPlanner
from game.bots.knowledge import Knowledge, live_totals, logistic
from game.core.api import GameState
from game.core.rng import Rng
from game.core.types import Action, Seat

#: A whole turn: the seat's actions from its turn's start to its end (or as far as planned).
Turn = tuple[Action, ...]


class Listed(NamedTuple):
    """What :meth:`RootTurns.turns` found: the turns with their priors (in the order the search
    should list them), and whether the last-turn planner added to them (the seat's last turn)."""

    turns: dict[Turn, float]
    last_turn: bool


@dataclass(frozen=True)
class RootTurns:
    """The search bot's settings for its root's turns (the names of its search parameters).

    ``evals`` bounds each planner's evaluations (``None``: the game's ``PLAN_EVALS`` for the
    position, else :data:`game.bots.budget.PLAN_EVALS`); ``share`` is the part of the
    decision's CPU ceiling each planner may use.  ``win_chance`` and ``end_margin`` are the
    search's reward (:meth:`Knowledge.rewards`): with ``win_chance="margin"`` a turn's prior
    is the win chance of the planner's own margin, otherwise the search's reward of the
    position right after the turn (the planner's margin over the strongest rival says nothing
    of the others).
    """

    max_plans: int
    beam: int
    evals: int | None
    per_first: int | None
    share: float
    win_chance: str
    end_margin: bool
    last_turn_plans: int
    last_turn_beam: int = 0
    last_turn_evals: int = 0
    last_turn_end_margin: bool = False
    last_turn_look: str = "any"
    last_turn_wide_beam: int = 0
    last_turn_wide_evals: int = 0

    def turns(
        self,
        world: GameState,
        seat: Seat,
        knowledge: Knowledge,
        rng: Rng,
        cancel: CancelToken | None,
        meter: Meter,
    ) -> Listed:
        """The root's turns in ``world`` (a determinization the seat may see), each with its
        prior reward, in the order the search should list them, and whether this is the seat's
        last turn (its last-turn plans among them); draws from ``rng``."""
        evals = self.evals
        if evals is None:
            evals = knowledge.evals_for(world, seat) or PLAN_EVALS
        planner = TurnPlanner(knowledge, beam=self.beam, max_evals=evals, per_first=self.per_first)
        plans = planner.plans(world.clone(), seat, rng, cancel, meter.share(self.share))
        scale = knowledge.scale_for(world)
        last = bool(
            self.last_turn_plans
            and knowledge.last_turn is not None
            and knowledge.last_turn(world, seat)
        )
        end_margin = self.end_margin or (last and self.last_turn_end_margin)
        turns: dict[Turn, float] = {}
        for plan in self._distinct(plans):
            if self.win_chance == "margin":
                turns[plan.actions] = logistic(plan.value / scale)
            else:
                turns[plan.actions] = self._turn_end_reward(
                    world, seat, plan.actions, knowledge, end_margin
                )
        if last:
            self._add_last_turn(
                turns, world, seat, knowledge, evals, rng, cancel, meter, end_margin
            )
        return Listed(turns, last)

    def _distinct(self, plans: list[Plan]) -> list[Plan]:
        """The best ``max_plans`` of ``plans`` (best first), at most ``per_first`` of them
        starting with the same action."""
        chosen = []
        starts: dict[Action, int] = {}
        for plan in plans:
            first = plan.actions[0]
            if self.per_first is not None and starts.get(first, 0) >= self.per_first:
                continue
            starts[first] = starts.get(first, 0) + 1
            chosen.append(plan)
            if len(chosen) >= self.max_plans:
                break
        return chosen

    def _add_last_turn(
        self,
        turns: dict[Turn, float],
        world: GameState,
        seat: Seat,
        knowledge: Knowledge,
        evals: int,
        rng: Rng,
        cancel: CancelToken | None,
        meter: Meter,
        end_margin: bool,
    ) -> None:
        """In the seat's last turn, up to ``last_turn_plans`` more turns from each last-turn
        planner (:meth:`_last_turn_planners`): its best by the points the rules count now, each
        primed with its end judged by the search's own reward (the search then plays every
        turn out to the real result)."""
        scored = replace(knowledge, evaluate_all=knowledge.live_scores or live_totals)
        for planner in self._last_turn_planners(scored, evals):
            plans = planner.plans(world.clone(), seat, rng, cancel, meter.share(self.share))
            added = 0
            for plan in plans:
                if added >= self.last_turn_plans:
                    break
                if plan.actions in turns:
                    continue
                turns[plan.actions] = self._turn_end_reward(
                    world, seat, plan.actions, knowledge, end_margin
                )
                added += 1

    def _last_turn_planners(self, scored: Knowledge, evals: int) -> list[TurnPlanner]:
        """The last turn's planners judging by ``scored`` (the points counted now): one of
        ``last_turn_beam`` and ``last_turn_evals`` looking through what ``last_turn_look`` says,
        and with ``last_turn_wide_beam`` a wide one that looks through nothing."""
        planners = [
            TurnPlanner(
                scored,
                beam=self.last_turn_beam or self.beam,
                max_evals=self.last_turn_evals or evals,
                per_first=self.per_first,
                look_only=look_only_for(scored, self.last_turn_look),
            )
        ]
        if self.last_turn_wide_beam:
            planners.append(
                TurnPlanner(
                    scored,
                    beam=self.last_turn_wide_beam,
                    max_evals=self.last_turn_wide_evals or self.last_turn_evals or evals,
                    look_through=0,
                    per_first=self.per_first,
                )
            )
        return planners

    def _turn_end_reward(
        self, world: GameState, seat: Seat, actions: Turn, knowledge: Knowledge, end_margin: bool
    ) -> float:
        """``seat``'s reward in ``world`` right after it plays ``actions`` (a finished game
        scored by its margin with ``end_margin``)."""
        after = world.clone()
        for action in actions:
            apply_trusted(after, seat, action)
        return knowledge.rewards(after, self.win_chance, end_margin)[seat]


def look_only_for(knowledge: Knowledge, look: str) -> Callable[[GameState, Seat], bool] | None:
    """The :class:`~game.bots.greedy.TurnPlanner`'s ``look_only`` for the search parameter
    ``last_turn_look``: ``None`` for ``"any"``; for ``"midway"`` the game's ``midway`` hook
    (a game without one has no position partway through a move)."""
    if look != "midway":
        return None
    return knowledge.midway or _never


def _never(state: GameState, seat: Seat) -> bool:
    """No position is partway through a move (a game without a ``midway`` hook)."""
    return False


__all__ = ["Listed", "RootTurns", "Turn", "look_only_for"]
