"""The game review's speed (``python -m game bench --only review``; issue 22).

For each game, one whole 4-player game of normal bots (the planner without its wall-clock cap,
so the same game every time; seed :data:`SEED`) is reviewed for seat 0 at the review's default
budget (:func:`game.review.settings.default_settings`), in this process, on one core:

* ``review.<game>.cpu_s`` — CPU seconds of the whole review (target: under 60);
* ``review.<game>.turns`` — the seat's turns with a choice (each searched and judged);
* ``review.<game>.iterations`` — the search's playouts per judged turn (the budget).

``kingdom-builder-nomads`` is Kingdom Builder with the full Nomads expansion.  ``--quick`` plays
2-player games of a cheaper planner and reviews their first 40 actions with 8 playouts a turn
(a smoke run, not the figure).
"""

from __future__ import annotations

import time
from typing import Any

from game.bots import GreedyBot
from game.core.match import Replay, play_match
from game.core.rng import derive_seed
from game.review.analysis import judged_turns, review_replay
from game.review.settings import ReviewSettings, default_settings

SEED = 22
#: name -> (game id, options)
GAMES: dict[str, tuple[str, dict[str, Any]]] = {
    "kingdom-builder": ("kingdom-builder", {}),
    "kingdom-builder-nomads": ("kingdom-builder", {"nomads": "full"}),
    "keyflower": ("keyflower", {}),
    "glen-more": ("glen-more", {}),
}

FIGURES: dict[str, str] = {}
for _name in GAMES:
    FIGURES[f"review.{_name}.cpu_s"] = "CPU s to review a whole 4-player game for one seat (< 60)"
    FIGURES[f"review.{_name}.turns"] = "turns of that seat judged (with a choice)"
    FIGURES[f"review.{_name}.iterations"] = "search playouts per judged turn (the budget)"


def bot_game(
    game_id: str, players: int, options: dict[str, Any], seed: int, evals: int = 1500
) -> Replay:
    """A whole game of normal bots without their wall-clock cap (reproducible); ``evals`` is
    the planner's budget per turn (the normal level's by default)."""
    bots = [
        GreedyBot(derive_seed(seed, "bot", s), max_evals=evals, cpu_budget=None)
        for s in range(players)
    ]
    seats = [{"name": f"bot {s + 1}", "kind": "bot"} for s in range(players)]
    return play_match(game_id, players, seed, [b.choose for b in bots], options, seats).replay


def run(quick: bool) -> dict[str, float]:
    figures: dict[str, float] = {}
    for name, (game_id, options) in GAMES.items():
        replay = bot_game(game_id, 2 if quick else 4, options, SEED, 60 if quick else 1500)
        if quick:  # the first turns only, as a saved game
            replay.actions, replay.final_hash = replay.actions[:40], None
        turns = judged_turns(replay, 0)
        settings = (
            ReviewSettings(iterations=8, worlds=2, graph_worlds=1)
            if quick
            else default_settings(game_id, turns)
        )
        started = time.process_time()
        review_replay(replay, 0, settings)
        figures[f"review.{name}.cpu_s"] = round(time.process_time() - started, 2)
        figures[f"review.{name}.turns"] = float(turns)
        figures[f"review.{name}.iterations"] = float(settings.iterations)
    return figures
