"""Glen More engine speed (``python -m game bench --only glen-more``).

* ``random_games_per_s`` — complete random 4-player games per second on one core: the plain
  loop ``legal_actions`` + a uniform choice from a seeded ``Rng`` + ``apply`` (with its
  validation), from ``GAME.new`` to the final scores.
* ``actions_per_game`` — mean number of actions in those games (what the figure above pays for).
* ``legal_actions_us`` — mean µs per ``legal_actions`` call on *fresh* states (nothing cached),
  sampled along random 4-player games.
* ``clone_us`` — mean µs per ``clone()`` of those states.
* ``determinize_us`` — mean µs per ``determinize(seat, seed)`` of those states.

Times are the process's CPU time (``time.process_time``), so the figures mean "on one core" even
on a machine shared with other jobs (wall-clock time would count the time other processes held
the core).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from game.core.rng import Rng
from game.glen_more import GAME
from game.glen_more.state import GlenMoreState

FIGURES: dict[str, str] = {
    "glen-more.random_games_per_s": "games/s: full random 4-player games, one core "
    "(target >= 100, aim 400)",
    "glen-more.actions_per_game": "mean actions per random 4-player game",
    "glen-more.legal_actions_us": "µs per legal_actions on a fresh state (random games)",
    "glen-more.clone_us": "µs per state clone()",
    "glen-more.determinize_us": "µs per determinize(seat, seed)",
}


def random_game(seed: int, players: int = 4) -> int:
    """Play one random game to the end; return the number of actions."""
    state = GAME.new(players, None, seed)
    rng = Rng(seed)
    steps = 0
    while not state.is_over():
        seat = state.to_move()[0]
        actions = state.legal_actions(seat)
        state.apply(seat, actions[rng.randbelow(len(actions))])
        steps += 1
    state.scores()
    return steps


def sample_states(games: int, seed: int = 1) -> list[GlenMoreState]:
    """Copies of every state along some random 4-player games."""
    out: list[GlenMoreState] = []
    for g in range(games):
        state = GAME.new(4, None, seed + g)
        rng = Rng(seed + g)
        while not state.is_over():
            out.append(state.clone())
            actions = state.legal_actions(state.cur)
            state.apply(state.cur, actions[rng.randbelow(len(actions))])
    return out


def _fresh(st: GlenMoreState) -> GlenMoreState:
    fresh = st.clone()
    fresh._acts = None
    fresh._aset = None
    return fresh


def _per_call_us(
    fn: Callable[[list[GlenMoreState]], None], items: list[GlenMoreState], repeat: int
) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        fn(items)
        best = min(best, time.process_time() - started)
    return best / len(items) * 1e6


def _legal_us(items: list[GlenMoreState], repeat: int) -> float:
    """Mean µs of ``legal_actions`` on fresh copies (each copy's decision cache is empty)."""
    best = float("inf")
    clock = time.process_time
    for _ in range(repeat):
        total = 0.0
        for st in items:
            fresh = _fresh(st)
            seat = fresh.cur
            started = clock()
            fresh.legal_actions(seat)
            total += clock() - started
        best = min(best, total)
    return best / len(items) * 1e6


def run(quick: bool) -> dict[str, float]:
    games = 30 if quick else 600
    random_game(0)  # warm the code paths
    started = time.process_time()
    actions = 0
    for seed in range(1, games + 1):
        actions += random_game(seed)
    per_s = games / (time.process_time() - started)

    states = sample_states(3 if quick else 20)

    def clones(items: list[GlenMoreState]) -> None:
        for st in items:
            st.clone()

    def dets(items: list[GlenMoreState]) -> None:
        for i, st in enumerate(items):
            st.determinize(st.cur, i)

    repeat = 1 if quick else 3
    return {
        "glen-more.random_games_per_s": round(per_s, 1),
        "glen-more.actions_per_game": round(actions / games, 1),
        "glen-more.legal_actions_us": round(_legal_us(states, repeat), 2),
        "glen-more.clone_us": round(_per_call_us(clones, states, repeat), 2),
        "glen-more.determinize_us": round(_per_call_us(dets, states, repeat), 2),
    }
