"""The optional ``candidate_actions`` hook of a game's evaluation module (game/bots/knowledge.py):
the planner and the search tree try only the candidates the game names."""

from __future__ import annotations

import dataclasses

from game.bots import GreedyBot, MctsBot
from game.bots.knowledge import knowledge_for
from game.core import registry
from game.core.api import GameState
from game.core.rng import Rng
from game.core.types import Action, Seat
from tests import testgame

testgame.register()


def no_dash(state: GameState, seat: Seat, actions: list[Action]) -> list[Action]:
    return [a for a in actions if a != ("dash",)]


def race_positions(count: int) -> list[tuple[GameState, Seat]]:
    """Positions of the race phase of random test games (the seat to move has a dash)."""
    game = registry.get_game(testgame.GAME_ID)
    out = []
    for seed in range(count * 3):
        state = game.new(3, {}, seed)
        rng = Rng(seed)
        while not state.is_over() and len(out) < count:
            movers = state.to_move()
            seat = movers[rng.randbelow(len(movers))]
            legal = state.legal_actions(seat)
            if ("dash",) in legal and rng.randbelow(3) == 0:
                out.append((state.clone(), seat))
                break
            state.apply(seat, legal[rng.randbelow(len(legal))])
    return out


def test_bots_search_only_the_games_candidates() -> None:
    knowledge = dataclasses.replace(knowledge_for(testgame.GAME_ID), candidate_actions=no_dash)
    positions = race_positions(8)
    assert positions
    for i, (state, seat) in enumerate(positions):
        assert ("dash",) in state.legal_actions(seat)
        for bot in (
            GreedyBot(i, knowledge=knowledge, cpu_budget=None),
            MctsBot(i, knowledge=knowledge, budget=None, iterations=30, macro=False),
        ):
            assert bot.choose(state.clone(), seat) != ("dash",)


def test_an_empty_candidate_list_falls_back_to_every_legal_action() -> None:
    knowledge = dataclasses.replace(
        knowledge_for(testgame.GAME_ID), candidate_actions=lambda s, seat, a: []
    )
    state, seat = race_positions(1)[0]
    assert knowledge.candidates(state, seat) == state.legal_actions(seat)
