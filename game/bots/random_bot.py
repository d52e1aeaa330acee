"""The random bot: a uniformly random legal action."""

from __future__ import annotations

from game.core.api import GameState
from game.core.rng import Rng
from game.core.types import Action, Seat


class RandomBot:
    """Chooses uniformly among the legal actions, from its own seeded RNG."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, state: GameState, seat: Seat) -> Action:
        actions = state.legal_actions(seat)
        if not actions:
            raise ValueError(f"seat {seat} has no legal action")
        return actions[self.rng.randbelow(len(actions))]
