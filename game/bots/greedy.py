"""The greedy bot: plays the whole turn that leaves its seat best placed.

A turn may be several actions (Kingdom Builder: three placements, tile actions before or after,
then ``end``).  :class:`TurnPlanner` searches the seat's own action sequences to the end of its
turn with a beam search: after each step it keeps the ``beam`` partial turns whose position the
game's evaluation likes best, and scores every completed turn by the seat's margin over its
strongest rival (:func:`game.bots.knowledge.relative_value`).  The best turn is played one
action per decision; the rest is cached, so only the first decision of a turn costs time.

With ``temperature > 0`` (the *easy* level) the bot picks a turn at random with probability
proportional to ``exp(value / temperature)``: usually a good turn, sometimes a clumsy one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from game.bots.base import (
    CancelToken,
    PlanCache,
    apply_trusted,
    check_cancel,
    gc_paused,
    turn_continues,
)
from game.bots.budget import PLAN_CPU_BUDGET, PLAN_EVALS, Budget, Meter
from game.bots.knowledge import Knowledge, knowledge_for
from game.core.api import GameState
from game.core.rng import Rng
from game.core.types import Action, Seat


@dataclass(frozen=True)
class Plan:
    """A complete turn (or as much of it as the planner could see) and its value."""

    value: float
    actions: tuple[Action, ...]


class TurnPlanner:
    """Beam search over one seat's own actions until its turn ends.

    ``beam`` partial turns survive each step.  An action that leaves the evaluation unchanged
    (choosing which tile to use, which settlement a move tile lifts) is *looked through*: its
    follow-ups are generated in the same step, so the beam compares where a settlement ends up
    rather than guessing at an intermediate choice.  Positions reached by the same actions in
    another order are merged when the game's evaluation gives a ``position_key``.

    ``max_evals`` bounds the work (evaluations of positions) for one turn: when it is spent, the
    partial turns still open are scored where they stand (the bot plans the rest of its turn at
    its next decision).  ``max_steps`` bounds the length of a turn the same way.  A
    :class:`~game.bots.budget.Meter` handed to :meth:`plans` adds a CPU-time ceiling and a
    wall-clock safety net (:mod:`game.bots.budget`); the evaluation count normally ends the
    search well before them, so the same seed gives the same plan on any machine.

    ``look_only`` (optional, the game's ``midway`` hook) narrows that to the positions it calls
    partway through one move: a choice of tile or of the settlement to lift is still looked
    through, a build that leaves the judge's value unchanged (one that scores nothing, when the
    judge is the points counted now) competes in the beam instead of being searched a level
    deeper.

    ``per_first`` keeps the beam diverse: at most that many partial turns starting with the
    same action survive a step (the search bot wants rival turns, not six variants of one).
    """

    def __init__(
        self,
        knowledge: Knowledge,
        beam: int = 6,
        max_steps: int = 40,
        max_evals: int = 1500,
        look_through: int = 2,
        per_first: int | None = None,
        look_only: Callable[[GameState, Seat], bool] | None = None,
    ) -> None:
        if beam < 1:
            raise ValueError("beam must be at least 1")
        if max_evals < 1:
            raise ValueError("max_evals must be at least 1")
        self.knowledge = knowledge
        self.beam = beam
        self.max_steps = max_steps
        self.max_evals = max_evals
        self.look_through = look_through
        self.look_only = look_only
        self.per_first = per_first
        #: Positions evaluated by the last call of :meth:`plans`.
        self.evals = 0

    def plans(
        self,
        state: GameState,
        seat: Seat,
        rng: Rng,
        cancel: CancelToken | None = None,
        meter: Meter | None = None,
    ) -> list[Plan]:
        """Every turn found (completed, or open when the budget ran out), best first; ties in
        a random order from ``rng``.  ``meter`` (optional) is the decision's CPU ceiling and
        safety net, checked before every evaluation but the first."""
        value = self.knowledge.value
        key_of = self.knowledge.position_key
        turn = state.turn_id()
        done: list[tuple[float, int, tuple[Action, ...]]] = []
        self.evals = 0
        if meter is None:
            meter = Meter.unlimited()
        frontier: list[tuple[float, GameState, tuple[Action, ...]]] = [
            (value(state, seat), state, ())
        ]
        finished: set[Hashable] = set()
        for _step in range(self.max_steps):
            pool: list[tuple[float, int, GameState, tuple[Action, ...]]] = []
            seen: set[Hashable] = set()
            stack = [(v, node, actions, 0) for v, node, actions in frontier]
            stack.reverse()
            exhausted = False
            while stack:
                check_cancel(cancel)
                base, node, actions, depth = stack.pop()
                if exhausted or (
                    self.evals  # the first position is always expanded
                    and (self.evals >= self.max_evals or meter.spent())
                ):
                    exhausted = True
                    if depth == 0:
                        done.append((base, rng.randbelow(1 << 30), actions))
                    continue
                for action in self.knowledge.candidates(node, seat):
                    if self.evals and meter.spent():
                        # out of CPU time inside a wide node: keep what it gave so far (the
                        # count is checked between nodes: a node is expanded whole)
                        exhausted = True
                        break
                    child = node.clone()
                    apply_trusted(child, seat, action)
                    plan = (*actions, action)
                    self.evals += 1
                    v = value(child, seat)
                    if not turn_continues(child, seat, turn):
                        if key_of is not None:
                            key = key_of(child, seat)
                            if key in finished:
                                continue
                            finished.add(key)
                        done.append((v, rng.randbelow(1 << 30), plan))
                        continue
                    if key_of is not None:
                        key = key_of(child, seat)
                        if key in seen:
                            continue
                        seen.add(key)
                    pool.append((v, rng.randbelow(1 << 30), child, plan))
                    if (
                        v == base
                        and depth < self.look_through
                        and (self.look_only is None or self.look_only(child, seat))
                    ):
                        stack.append((v, child, plan, depth + 1))
            if not pool or exhausted:
                done.extend((v, t, plan) for v, t, _c, plan in pool)
                break
            pool.sort(key=lambda item: (-item[0], item[1]))
            frontier = self._select(pool)
        else:
            done.extend((v, rng.randbelow(1 << 30), a) for v, _n, a in frontier)
        done.sort(key=lambda item: (-item[0], item[1]))
        return [Plan(v, a) for v, _t, a in done]

    def _select(
        self, pool: list[tuple[float, int, GameState, tuple[Action, ...]]]
    ) -> list[tuple[float, GameState, tuple[Action, ...]]]:
        """The ``beam`` best partial turns (``pool`` is sorted best first), at most
        ``per_first`` of them starting with the same action when that limit is set."""
        if self.per_first is None:
            return [(v, child, plan) for v, _t, child, plan in pool[: self.beam]]
        chosen: list[tuple[float, GameState, tuple[Action, ...]]] = []
        starts: dict[Action, int] = {}
        for v, _t, child, plan in pool:
            first = plan[0]
            if starts.get(first, 0) >= self.per_first:
                continue
            starts[first] = starts.get(first, 0) + 1
            chosen.append((v, child, plan))
            if len(chosen) >= self.beam:
                break
        return chosen


class GreedyBot:
    """Plays the best whole turn by the game's evaluation (see the module docstring)."""

    def __init__(
        self,
        seed: int = 0,
        *,
        beam: int = 6,
        temperature: float = 0.0,
        max_evals: int | None = None,
        cpu_budget: float | None = PLAN_CPU_BUDGET,
        safety_net: bool = True,
        knowledge: Knowledge | None = None,
        game_temperature: bool = False,
        name: str = "greedy",
    ) -> None:
        if max_evals is not None and max_evals < 1:
            raise ValueError("max_evals must be at least 1")
        if cpu_budget is not None and not cpu_budget > 0:
            raise ValueError("the CPU budget must be positive")
        self.name = name
        #: Whether the game's ``EASY_TEMPERATURE`` replaces ``temperature`` (the easy level).
        self.game_temperature = game_temperature
        #: The evaluation hooks; ``None`` means the game's own (:func:`knowledge_for`).
        self.knowledge = knowledge
        #: Evaluations per turn; ``None`` means the game's ``PLAN_EVALS`` (or
        #: :data:`~game.bots.budget.PLAN_EVALS`).
        self.max_evals = max_evals
        #: The CPU ceiling of a decision (seconds of the thinking thread; ``None``: none) and
        #: whether the wall-clock safety net (3x) applies (:mod:`game.bots.budget`).
        self.cpu_budget = cpu_budget
        self.safety_net = safety_net
        #: Which limit cut the last planning short (``None``: the count ended it).
        self.last_cut: str | None = None
        #: Whether the last decision planned (not a cached step or a forced move).
        self.last_thought = False
        #: Evaluations of the last planning.
        self.last_evals = 0
        self.rng = Rng(seed)
        self.beam = beam
        self.temperature = temperature
        self._cache = PlanCache()

    def choose(self, state: GameState, seat: Seat, cancel: CancelToken | None = None) -> Action:
        self.last_cut = None
        self.last_thought = False
        legal = state.legal_actions(seat)
        if not legal:
            raise ValueError(f"seat {seat} has no legal action")
        cached = self._cache.next_action(state, seat, legal)
        if cached is not None:
            return cached
        if len(legal) == 1:
            return legal[0]
        # Plan on a fresh determinization: nothing the seat cannot see can sway the plan.
        world = state.determinize(seat, self.rng.next64())
        knowledge = self.knowledge or knowledge_for(state.game_id)
        planner = TurnPlanner(
            knowledge, beam=self.beam, max_evals=self.evals_for(knowledge, world, seat)
        )
        meter = self._meter()
        self.last_thought = True
        with gc_paused():
            plans = planner.plans(world, seat, self.rng, cancel, meter)
        self.last_cut = meter.cut
        self.last_evals = planner.evals
        temperature = self.temperature
        if self.game_temperature and knowledge.easy_temperature is not None:
            temperature = knowledge.easy_temperature
        plan = self._pick(plans, temperature)
        if plan is None or plan.actions[0] not in legal:
            return legal[self.rng.randbelow(len(legal))]
        self._cache.store(world, seat, plan.actions)
        return plan.actions[0]

    def evals_for(self, knowledge: Knowledge, state: GameState, seat: Seat) -> int:
        """The evaluation budget of ``seat``'s turn in ``state``: the bot's own, else the
        game's ``PLAN_EVALS``, else :data:`~game.bots.budget.PLAN_EVALS`."""
        if self.max_evals is not None:
            return self.max_evals
        return knowledge.evals_for(state, seat) or PLAN_EVALS

    def _meter(self) -> Meter:
        """The meter of one decision, started now (on the thinking thread)."""
        if self.cpu_budget is None:
            return Meter.unlimited()
        return Budget(cpu=self.cpu_budget, safety_net=self.safety_net).meter()

    def _pick(self, plans: list[Plan], temperature: float) -> Plan | None:
        if not plans:
            return None
        if temperature <= 0.0:
            return plans[0]
        best = plans[0].value
        weights = [math.exp(max(-50.0, (p.value - best) / temperature)) for p in plans]
        x = self.rng.random() * sum(weights)
        for plan, w in zip(plans, weights, strict=True):
            x -= w
            if x < 0.0:
                return plan
        return plans[-1]


__all__ = ["GreedyBot", "Plan", "TurnPlanner"]
