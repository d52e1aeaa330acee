"""Kingdom Builder engine speed (``python -m game bench --only kingdom-builder``).

* ``random_games_per_s`` — complete random 4-player games per second on one core: the plain
  loop ``legal_actions`` + a uniform choice from a seeded ``Rng`` + ``apply`` (with its
  validation), from ``GAME.new`` to the final scores, random setup per seed.
* ``legal_actions_us`` — mean µs per ``legal_actions`` call on *fresh* states (nothing cached),
  sampled along random 4-player games.
* ``clone_us`` — mean µs per ``clone()`` of those states.
* ``determinize_us`` — mean µs per ``determinize(seat, seed)`` of those states.
* ``nomads_random_games_per_s`` — complete random 5-player games per second with the full
  Nomads expansion (nomad tiles, the Nomads cards), on the 4 Nomads sections.
* ``gains_us`` — mean µs per ``placement_gains()`` (the hover gains the seat to move's view
  carries, issue 8) on fresh states of random 4-player games, base and full Nomads alike.
"""

from __future__ import annotations

import time

from game.core.rng import Rng
from game.kingdom_builder import GAME
from game.kingdom_builder.state import KingdomBuilderState

FIGURES: dict[str, str] = {
    "kingdom-builder.random_games_per_s": "games/s: full random 4-player games, one core "
    "(target >= 300)",
    "kingdom-builder.legal_actions_us": "µs per legal_actions on a fresh state (random games)",
    "kingdom-builder.clone_us": "µs per state clone()",
    "kingdom-builder.determinize_us": "µs per determinize(seat, seed)",
    "kingdom-builder.nomads_random_games_per_s": "games/s: full random 5-player games with the "
    "full Nomads expansion, one core",
    "kingdom-builder.gains_us": "µs per placement_gains() (the hover gains of the seat to move)",
}

NOMADS: dict[str, object] = {
    "nomads": "full",
    "sections": ["Quarry", "Caravan", "Village", "Garden"],
}


def random_game(seed: int, players: int = 4, options: dict[str, object] | None = None) -> int:
    """Play one random game to the end; return the number of actions."""
    state = GAME.new(players, options, seed)
    rng = Rng(seed)
    steps = 0
    while not state.is_over():
        seat = state.to_move()[0]
        actions = state.legal_actions(seat)
        state.apply(seat, actions[rng.randbelow(len(actions))])
        steps += 1
    state.scores()
    return steps


def sample_states(
    games: int, seed: int = 1, options: dict[str, object] | None = None
) -> list[KingdomBuilderState]:
    """Fresh copies of every state along some random 4-player games."""
    out: list[KingdomBuilderState] = []
    for g in range(games):
        state = GAME.new(4, options, seed + g)
        rng = Rng(seed + g)
        while not state.is_over():
            out.append(state.clone())
            actions = state.legal_actions(state.cur)
            state.apply(state.cur, actions[rng.randbelow(len(actions))])
    return out


def _per_call_us(fn: object, items: list[KingdomBuilderState], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        fn(items)  # type: ignore[operator]
        best = min(best, time.perf_counter() - started)
    return best / len(items) * 1e6


def _legal_us(items: list[KingdomBuilderState], repeat: int) -> float:
    """Mean µs of ``legal_actions`` on fresh copies (each copy's decision cache is empty)."""
    best = float("inf")
    clock = time.perf_counter
    for _ in range(repeat):
        total = 0.0
        for st in items:
            fresh = st.clone()
            seat = fresh.cur
            started = clock()
            fresh.legal_actions(seat)
            total += clock() - started
        best = min(best, total)
    return best / len(items) * 1e6


def run(quick: bool) -> dict[str, float]:
    games = 30 if quick else 600
    random_game(0)  # warm the board cache and the code paths
    started = time.perf_counter()
    for seed in range(1, games + 1):
        random_game(seed)
    per_s = games / (time.perf_counter() - started)

    states = sample_states(3 if quick else 20)

    def clones(items: list[KingdomBuilderState]) -> None:
        for st in items:
            st.clone()

    def dets(items: list[KingdomBuilderState]) -> None:
        for i, st in enumerate(items):
            st.determinize(st.cur, i)

    nomad_games = 10 if quick else 200
    random_game(0, 5, NOMADS)
    started = time.perf_counter()
    for seed in range(1, nomad_games + 1):
        random_game(seed, 5, NOMADS)
    nomads_per_s = nomad_games / (time.perf_counter() - started)

    def gains(items: list[KingdomBuilderState]) -> None:
        for st in items:
            st._gains = None
            st.placement_gains()

    mixed = states + sample_states(3 if quick else 20, options={"nomads": "full"})
    for st in mixed:
        st.legal_actions(st.cur)  # the decision is cached, as it is when a view is built

    repeat = 1 if quick else 3
    return {
        "kingdom-builder.random_games_per_s": round(per_s, 1),
        "kingdom-builder.legal_actions_us": round(_legal_us(states, repeat), 2),
        "kingdom-builder.clone_us": round(_per_call_us(clones, states, repeat), 2),
        "kingdom-builder.determinize_us": round(_per_call_us(dets, states, repeat), 2),
        "kingdom-builder.nomads_random_games_per_s": round(nomads_per_s, 1),
        "kingdom-builder.gains_us": round(_per_call_us(gains, mixed, repeat), 2),
    }
