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
from collections.abc import Hashable
from dataclasses import dataclass

from game.bots.base import (
    CancelToken,
    PlanCache,
    apply_trusted,
    check_cancel,
    turn_continues,
    view_key,
)
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

    ``beam`` partial turns survive each step; ``max_steps`` bounds the length of a turn (a
    partial turn still open after it is scored where it stands).  Positions reached by two
    orders of the same actions are merged when the game's evaluation module gives a
    ``position_key``; otherwise the first actions' order is kept as found.
    """

    def __init__(self, knowledge: Knowledge, beam: int = 6, max_steps: int = 40) -> None:
        if beam < 1:
            raise ValueError("beam must be at least 1")
        self.knowledge = knowledge
        self.beam = beam
        self.max_steps = max_steps

    def plans(
        self,
        state: GameState,
        seat: Seat,
        rng: Rng,
        cancel: CancelToken | None = None,
    ) -> list[Plan]:
        """Every completed turn found, best first (ties in a random order from ``rng``)."""
        value = self.knowledge.value
        key_of = self.knowledge.position_key
        done: list[tuple[float, int, tuple[Action, ...]]] = []
        frontier: list[tuple[GameState, tuple[Action, ...]]] = [(state, ())]
        for _step in range(self.max_steps):
            scored: list[tuple[float, int, GameState, tuple[Action, ...]]] = []
            seen: set[Hashable] = set()
            for node, actions in frontier:
                check_cancel(cancel)
                for action in node.legal_actions(seat):
                    child = node.clone()
                    apply_trusted(child, seat, action)
                    plan = (*actions, action)
                    tie = rng.randbelow(1 << 30)
                    if not turn_continues(child, seat):
                        done.append((value(child, seat), tie, plan))
                        continue
                    if key_of is not None:
                        key = key_of(child, seat)
                        if key in seen:
                            continue
                        seen.add(key)
                    scored.append((value(child, seat), tie, child, plan))
            if not scored:
                break
            scored.sort(key=lambda item: (-item[0], item[1]))
            frontier = [(child, plan) for _v, _t, child, plan in scored[: self.beam]]
        else:
            done.extend((value(node, seat), rng.randbelow(1 << 30), a) for node, a in frontier)
        done.sort(key=lambda item: (-item[0], item[1]))
        return [Plan(v, a) for v, _t, a in done]


class GreedyBot:
    """Plays the best whole turn by the game's evaluation (see the module docstring)."""

    def __init__(
        self,
        seed: int = 0,
        *,
        beam: int = 6,
        temperature: float = 0.0,
        name: str = "greedy",
    ) -> None:
        self.name = name
        self.rng = Rng(seed)
        self.beam = beam
        self.temperature = temperature
        self._cache = PlanCache()

    def choose(self, state: GameState, seat: Seat, cancel: CancelToken | None = None) -> Action:
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
        planner = TurnPlanner(knowledge_for(state.game_id), beam=self.beam)
        plans = planner.plans(world, seat, self.rng, cancel)
        plan = self._pick(plans)
        if plan is None or plan.actions[0] not in legal:
            return legal[self.rng.randbelow(len(legal))]
        self._cache.store(world, seat, plan.actions)
        return plan.actions[0]

    def _pick(self, plans: list[Plan]) -> Plan | None:
        if not plans:
            return None
        if self.temperature <= 0.0:
            return plans[0]
        best = plans[0].value
        weights = [math.exp(max(-50.0, (p.value - best) / self.temperature)) for p in plans]
        x = self.rng.random() * sum(weights)
        for plan, w in zip(plans, weights, strict=True):
            x -= w
            if x < 0.0:
                return plan
        return plans[-1]


__all__ = ["GreedyBot", "Plan", "TurnPlanner", "view_key"]
