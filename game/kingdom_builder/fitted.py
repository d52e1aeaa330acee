"""The hard level's multipliers of the Kingdom Builder evaluation's features, per stage.

Written by ``python -m bench.fit_kingdom_builder fit`` (do not edit by hand) from 111
self-play games in ``bench/data/kb-selfplay.jsonl.gz`` (16065 positions, one in 2; ridge
penalty 0.05 towards the plain sum).  ``FITTED[stage][i]`` multiplies feature
``FEATURES[i]`` of :mod:`game.kingdom_builder.evaluation` at stage ``stage`` (how far the fastest
builder is through its settlements, in ``len(FITTED)`` equal bins).
"""

from __future__ import annotations

#: The features these multipliers were fitted for, in order (checked when they are used).
FEATURES: tuple[str, ...] = (
    "score",
    "tiles",
    "nomad_tiles",
    "potential",
    "potential_more",
    "frontier",
    "open_terrains",
    "supply",
)

FITTED: tuple[tuple[float, ...], ...] = (
    (0.347, 0.763, 0.751, -0.207, 0.877, -0.146, -1.450, 0.905),
    (0.799, 0.989, 1.259, 0.383, -0.096, -0.155, -1.536, 0.948),
    (0.978, 1.043, -0.073, 0.364, -0.057, -0.169, -0.338, 0.678),
    (0.989, 1.110, 0.516, 0.281, -0.338, -0.057, -0.547, 0.422),
)
