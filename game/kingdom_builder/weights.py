"""The Kingdom Builder evaluation's constants, and what a nomad tile still to be used is worth.

:class:`Weights` holds every tuning constant of the evaluation
(:mod:`game.kingdom_builder.evaluation`), so benchmarks can compare variants side by side;
:data:`DEFAULT_WEIGHTS` is the one the bots and hints use.  :func:`nomad_value` turns them into
the worth of a nomad tile still to be used: held, or face-up beside a hex a seat may build on
(KB §7).  The engine does not import this module.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from game.kingdom_builder import nomads as nm

if TYPE_CHECKING:
    from game.kingdom_builder.state import KingdomBuilderState


@dataclass(frozen=True)
class Weights:
    """Every constant of the evaluation (points unless stated)."""

    #: Points per remaining turn that a held tile is worth (KB §7).
    tile_per_turn: dict[str, float] = field(
        default_factory=lambda: {
            "Oracle": 1.2,
            "Farm": 1.0,
            "Oasis": 1.0,
            "Tower": 1.0,
            "Tavern": 1.0,
            "Garden": 1.0,
            "Village": 0.9,
            "Barn": 0.8,
            "Harbor": 0.6,
            "Paddock": 0.7,
            "Caravan": 0.6,
            "Quarry": 0.3,
        }
    )
    #: A held tile is worth at least this much however late in the game.
    tile_floor: float = 1.0
    #: Points a nomad tile is worth to the seat holding it while it can still be used, and to
    #: a seat that would take it by building next to its hex (KB §7 nomad tiles).
    nomad_tile: dict[str, float] = field(
        default_factory=lambda: {
            "Donation": 4.5,
            "Treasure": 3.0,
            "Sword": 2.5,
            "Outpost": 1.5,
            "Resettlement": 2.0,
        }
    )
    #: Share of a nomad tile's worth counted when the game may end before it can be used.
    nomad_late: float = 0.3
    #: Value of a mandatory settlement that starts a Families line (2 in a row).
    families_start: float = 0.7
    #: Weight of next turn's expected gain (potential) against points already scored.
    potential: float = 0.5
    #: How many of the best hexes of a terrain count towards potential (a turn builds 3).
    potential_hexes: int = 3
    #: A margin of ``scale`` points makes a win e times likelier than a loss (search rewards).
    scale: float = 6.0
    #: Noise of the playout policy (points): 0 plays the best-looking hex every time.
    rollout_noise: float = 1.5


DEFAULT_WEIGHTS = Weights()


def nomad_value(st: KingdomBuilderState, tile_id: str, weights: Weights) -> float:
    """What a nomad tile that is still to be used is worth (KB §7): its weight, or a share of
    it once the end is triggered (the game may end before the holder's next turn)."""
    value = weights.nomad_tile[nm.TILE_TYPE[tile_id]]
    return value * weights.nomad_late if st.end_triggered else value
