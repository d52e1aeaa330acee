"""The tiny game's evaluation, found by :mod:`game.bots.knowledge` by its module name.

A seat's value is its score plus the card in its hand, which it will score on its next turn.
"""

from __future__ import annotations

from game.core.api import GameState

SCALE = 3.0


def evaluate_all(state: GameState) -> list[float]:
    hands = state.hands  # type: ignore[attr-defined]
    return [float(s + (h or 0)) for s, h in zip(state.score, hands, strict=True)]  # type: ignore[attr-defined]
