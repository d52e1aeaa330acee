"""Game review: where a finished game was won and lost, for one seat at a time.

* :mod:`game.review.analysis` — replay the game and judge each of the seat's turns from what
  the seat could see then (the hard level's search against the move made, on common sampled
  worlds), the graph of every seat's margin, the turning points.
* :mod:`game.review.settings` — the budget (playouts per turn, sampled worlds).
* :mod:`game.review.cache` — the review saved beside the replay, and checked when read back.
* :mod:`game.review.runner` — a review in a background process (the window's Review scene).

``docs/review.md`` describes what a review computes and every field of its JSON.
"""

from __future__ import annotations

from game.review.analysis import ReviewCancelled, review_replay
from game.review.settings import ReviewSettings, default_settings, iterations_for

__all__ = [
    "ReviewCancelled",
    "ReviewSettings",
    "default_settings",
    "iterations_for",
    "review_replay",
]
