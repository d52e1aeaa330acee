"""The hard level's multipliers of the Kingdom Builder evaluation's features, per stage.

Written by ``python -m bench.fit_kingdom_builder fit`` (do not edit by hand) from 142
self-play games in ``bench/data/kb-selfplay.jsonl.gz`` (20435 positions, one in 2; ridge penalty 0.05
towards the plain sum).  ``FITTED[stage][i]`` multiplies feature
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
    (0.422, 0.763, 0.760, -0.087, 1.008, -0.132, -1.482, 1.002),
    (0.786, 1.032, 1.421, 0.359, -0.087, -0.115, -1.564, 0.986),
    (0.949, 1.099, 0.245, 0.357, -0.009, -0.134, -0.382, 0.599),
    (0.984, 1.116, 0.558, 0.262, -0.280, -0.042, -0.708, 0.414),
)
