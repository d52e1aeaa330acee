"""Kingdom Builder engine speed (``python -m game bench --only kingdom-builder``).

* ``random_games_per_s`` — complete random 4-player games per second on one core: the plain
  loop ``legal_actions`` + a uniform choice from a seeded ``Rng`` + ``apply`` (with its
  validation), from ``GAME.new`` to the final scores, random setup per seed.
* ``actions_per_game`` — mean number of actions in those games.
* ``legal_actions_us`` — mean µs per ``legal_actions`` call on *fresh* states (nothing cached),
  sampled along random 4-player games.
* ``clone_us`` — mean µs per ``clone()`` of those states.
* ``determinize_us`` — mean µs per ``determinize(seat, seed)`` of those states.
* ``nomads_random_games_per_s`` — complete random 5-player games per second with the full
  Nomads expansion (nomad tiles, the Nomads cards), on the 4 Nomads sections.
* ``gains_us`` — mean µs per ``placement_gains()`` (the hover gains the seat to move's view
  carries, issue 8) on fresh states of random 4-player games, base and full Nomads alike.

Times are CPU time (``bench/engine.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bench.engine import core_figures, core_meanings, games_per_s, per_call_us, sample_states
from game.kingdom_builder import GAME
from game.kingdom_builder.state import KingdomBuilderState

FIGURES: dict[str, str] = {
    **core_meanings("kingdom-builder", "target >= 300"),
    "kingdom-builder.nomads_random_games_per_s": "games/s: full random 5-player games with the "
    "full Nomads expansion, one core",
    "kingdom-builder.gains_us": "µs per placement_gains() (the hover gains of the seat to move)",
}

NOMADS: dict[str, Any] = {
    "nomads": "full",
    "sections": ["Quarry", "Caravan", "Village", "Garden"],
}


def gains(items: Sequence[KingdomBuilderState]) -> None:
    """The hover gains of each state, recomputed."""
    for st in items:
        st._gains = None
        st.placement_gains()


def run(quick: bool) -> dict[str, float]:
    figures = core_figures("kingdom-builder", GAME, quick, games=(30, 600), sample=(3, 20))
    nomads_per_s, _ = games_per_s(GAME, 10 if quick else 200, 5, NOMADS)
    mixed = sample_states(GAME, 3 if quick else 20) + sample_states(
        GAME, 3 if quick else 20, options={"nomads": "full"}
    )
    for st in mixed:
        st.legal_actions(st.cur)  # the decision is cached, as it is when a view is built
    figures["kingdom-builder.nomads_random_games_per_s"] = round(nomads_per_s, 1)
    figures["kingdom-builder.gains_us"] = round(per_call_us(gains, mixed, 1 if quick else 3), 2)
    return figures
