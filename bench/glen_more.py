"""Glen More engine speed (``python -m game bench --only glen-more``).

* ``random_games_per_s`` — complete random 4-player games per second on one core
  (:func:`bench.engine.random_game`).
* ``actions_per_game`` — mean number of actions in those games (what the figure above pays for).
* ``legal_actions_us`` — mean µs per ``legal_actions`` call on *fresh* states (the decision
  cache emptied), sampled along random 4-player games.
* ``clone_us`` — mean µs per ``clone()`` of those states.
* ``determinize_us`` — mean µs per ``determinize(seat, seed)`` of those states.

Times are CPU time (``bench/engine.py``).
"""

from __future__ import annotations

from bench.engine import core_figures, core_meanings
from game.glen_more import GAME
from game.glen_more.state import GlenMoreState

FIGURES: dict[str, str] = core_meanings("glen-more", "target >= 100, aim 400")


def _fresh(st: GlenMoreState) -> GlenMoreState:
    """A copy with the decision cache emptied (``clone`` keeps it)."""
    fresh = st.clone()
    fresh._acts = None
    fresh._aset = None
    return fresh


def run(quick: bool) -> dict[str, float]:
    return core_figures("glen-more", GAME, quick, games=(30, 600), sample=(3, 20), fresh=_fresh)
