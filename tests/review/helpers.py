"""Games to review: played by normal bots, with one deliberately bad turn of seat 0."""

from __future__ import annotations

import dataclasses
from typing import Any

from game.bots import GreedyBot
from game.bots.greedy import TurnPlanner
from game.bots.knowledge import knowledge_for
from game.core.match import Replay
from game.core.registry import get_game
from game.core.rng import Rng, derive_seed
from game.core.types import Action
from game.review.settings import ReviewSettings


def _all(state: Any, seat: int, actions: list[Action]) -> list[Action]:
    return actions


#: A small budget: the tests check what a review finds, not how deep it looks.
FAST = ReviewSettings(iterations=8, worlds=4, graph_worlds=1)


def bad_move_game(
    game_id: str,
    players: int,
    seed: int,
    *,
    options: dict[str, Any] | None = None,
    first: int = 2,
    gap: float,
    after: int = 2,
) -> tuple[Replay, int]:
    """A game of normal bots in which seat 0 (a "human"), at its first turn from its
    ``first``-th on where it can do at least ``gap`` points worse than the planner's best turn,
    plays the worst turn a planner finds (one that *minimises* the evaluation); the record
    stops ``after`` turns of seat 0 later (a saved game, or the end).  Returns the replay and
    the number of the bad turn."""
    game = get_game(game_id)
    state = game.new(players, dict(options or {}), seed)
    replay = Replay(
        game=game_id,
        players=players,
        seed=seed,
        options=dict(options or {}),
        rules_version=game.rules_version,
        seats=[{"name": f"P{s}", "kind": "human" if s == 0 else "bot"} for s in range(players)],
    )
    # the normal level's planner without its wall-clock cap: the same game on every run
    bots = [
        GreedyBot(derive_seed(seed, "bot", s), max_evals=300, cpu_budget=None)
        for s in range(players)
    ]
    knowledge = knowledge_for(game_id)
    evaluate = knowledge.evaluate_all
    spoiler = dataclasses.replace(
        knowledge, evaluate_all=lambda st: [-v for v in evaluate(st)], candidate_actions=_all
    )
    turn_of_0: int | None = None
    number = 0
    bad: int | None = None
    queue: list[Action] = []
    step = 0
    while not state.is_over():
        seat = state.to_move()[0]
        if seat == 0 and state.turn_id() != turn_of_0:
            turn_of_0 = state.turn_id()
            number += 1
            queue = []
            if bad is not None and number > bad + after:
                break
            if bad is None and number >= first:
                world = state.determinize(0, derive_seed(seed, "bad", number))
                best = TurnPlanner(knowledge, max_evals=3000).plans(world.clone(), 0, Rng(seed))
                worst = TurnPlanner(spoiler, max_evals=3000).plans(world.clone(), 0, Rng(seed))
                if best and worst and worst[0].actions:
                    after_worst = world.clone()
                    for a in worst[0].actions:
                        after_worst.apply(0, a)
                    if best[0].value - knowledge.value(after_worst, 0) >= gap:
                        queue = list(worst[0].actions)
                        bad = number
        hidden = state.determinize(seat, derive_seed(seed, "agent", seat, step))
        action: Action | None = None
        if seat == 0 and queue:
            candidate = queue.pop(0)
            if candidate in state.legal_actions(0):
                action = candidate
            else:
                queue = []
        if action is None:
            action = bots[seat].choose(hidden, seat)
        state.apply(seat, action)
        replay.actions.append((seat, tuple(action)))
        step += 1
    if state.is_over():
        replay.final_hash = state.state_hash()
    assert bad is not None, f"no turn of seat 0 had a spread of {gap} points in {game_id}"
    return replay, bad
