"""What every game's engine-speed suite measures, the same way for each game.

* :func:`random_game` — one complete game of uniformly random legal actions: the plain loop
  ``legal_actions`` + a choice from a seeded ``Rng`` + ``apply`` (with its validation), from
  ``GAME.new`` to the final scores; the first seat of ``to_move()`` acts in simultaneous phases.
* :func:`sample_states` — copies of every state along such games (the states the per-call
  figures are measured on).
* :func:`games_per_s`, :func:`per_call_us`, :func:`legal_us` — the timings.

Times are the process's CPU time (``time.process_time``), so a figure means "on one core" even
on a machine shared with other jobs (wall-clock time would count the time other processes held
the core).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from game.core.api import Game, GameState
from game.core.rng import Rng

CLOCK = time.process_time


def random_game(
    game: Game, seed: int, players: int = 4, options: dict[str, Any] | None = None
) -> int:
    """Play one random game to the end; return the number of actions."""
    state = game.new(players, options, seed)
    rng = Rng(seed)
    steps = 0
    while not state.is_over():
        seat = state.to_move()[0]
        actions = state.legal_actions(seat)
        state.apply(seat, actions[rng.randbelow(len(actions))])
        steps += 1
    state.scores()
    return steps


def games_per_s(
    game: Game, games: int, players: int = 4, options: dict[str, Any] | None = None
) -> tuple[float, float]:
    """``(games per second, mean actions per game)`` over seeds ``1..games`` (after one warm-up
    game, seed 0, that fills the caches and code paths)."""
    random_game(game, 0, players, options)
    started = CLOCK()
    actions = sum(random_game(game, seed, players, options) for seed in range(1, games + 1))
    return games / max(CLOCK() - started, 1e-9), actions / games


def sample_states(
    game: Game, games: int, seed: int = 1, options: dict[str, Any] | None = None
) -> list[Any]:
    """Copies of every state before the end along ``games`` random 4-player games."""
    out: list[Any] = []
    for g in range(games):
        state = game.new(4, options, seed + g)
        rng = Rng(seed + g)
        while not state.is_over():
            out.append(state.clone())
            seat = state.to_move()[0]
            actions = state.legal_actions(seat)
            state.apply(seat, actions[rng.randbelow(len(actions))])
    return out


def per_call_us(fn: Callable[[Sequence[Any]], None], items: Sequence[Any], repeat: int) -> float:
    """Mean µs per item of ``fn(items)``, the best of ``repeat`` runs."""
    best = float("inf")
    for _ in range(repeat):
        started = CLOCK()
        fn(items)
        best = min(best, CLOCK() - started)
    return best / len(items) * 1e6


def legal_us(
    items: Sequence[GameState],
    repeat: int,
    fresh: Callable[[Any], Any] = lambda st: st.clone(),
) -> float:
    """Mean µs of ``legal_actions`` of the seat to move on fresh copies (``fresh`` returns a copy
    with nothing cached), the best of ``repeat`` runs; only the call itself is timed."""
    best = float("inf")
    for _ in range(repeat):
        total = 0.0
        for st in items:
            copy = fresh(st)
            seat = copy.to_move()[0]
            started = CLOCK()
            copy.legal_actions(seat)
            total += CLOCK() - started
        best = min(best, total)
    return best / len(items) * 1e6


def clone_all(items: Sequence[GameState]) -> None:
    """Clone each state (what ``clone_us`` times)."""
    for st in items:
        st.clone()


def determinize_all(items: Sequence[GameState]) -> None:
    """Determinize each state for its seat to move (what ``determinize_us`` times)."""
    for i, st in enumerate(items):
        st.determinize(st.to_move()[0], i)


def core_figures(
    prefix: str,
    game: Game,
    quick: bool,
    games: tuple[int, int],
    sample: tuple[int, int],
    fresh: Callable[[Any], Any] = lambda st: st.clone(),
) -> dict[str, float]:
    """The figures every engine suite has: ``<prefix>.random_games_per_s``,
    ``.actions_per_game``, ``.legal_actions_us``, ``.clone_us``, ``.determinize_us``.
    ``games`` and ``sample`` are (quick, full) counts of games played and sampled."""
    per_s, actions = games_per_s(game, games[0] if quick else games[1])
    states = sample_states(game, sample[0] if quick else sample[1])
    repeat = 1 if quick else 3
    return {
        f"{prefix}.random_games_per_s": round(per_s, 1),
        f"{prefix}.actions_per_game": round(actions, 1),
        f"{prefix}.legal_actions_us": round(legal_us(states, repeat, fresh), 2),
        f"{prefix}.clone_us": round(per_call_us(clone_all, states, repeat), 2),
        f"{prefix}.determinize_us": round(per_call_us(determinize_all, states, repeat), 2),
    }


def core_meanings(prefix: str, games_target: str) -> dict[str, str]:
    """The meanings of :func:`core_figures`' figures, for a suite's ``FIGURES``."""
    return {
        f"{prefix}.random_games_per_s": "games/s: full random 4-player games, one core "
        f"({games_target})",
        f"{prefix}.actions_per_game": "mean actions per random 4-player game",
        f"{prefix}.legal_actions_us": "µs per legal_actions on a fresh state (random games)",
        f"{prefix}.clone_us": "µs per state clone()",
        f"{prefix}.determinize_us": "µs per determinize(seat, seed)",
    }
