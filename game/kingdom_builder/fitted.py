"""The hard level's multipliers of the Kingdom Builder evaluation's features, per stage.

Written by ``python -m bench.fit_kingdom_builder fit`` (do not edit by hand) from 342 self-play
games in ``bench/data/kb-selfplay.jsonl.gz`` and ``bench/data/kb-selfplay-fitted.jsonl.gz``
(51155 positions, one in 2; ridge penalty 0.05 towards the plain sum).  ``FITTED[stage][i]``
multiplies feature ``FEATURES[i]`` of :mod:`game.kingdom_builder.evaluation` at stage ``stage``
(how far the fastest builder is through its settlements, in ``len(FITTED)`` equal bins).
"""

from __future__ import annotations

#: The names these multipliers were fitted for, in order (checked when they are used).
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
    (0.328, 0.718, 0.933, 0.098, 0.376, -0.183, -1.713, 0.718),
    (0.728, 0.990, 1.218, 0.382, -0.191, -0.017, -2.151, 0.907),
    (0.894, 1.083, 0.550, 0.425, -0.159, -0.060, -0.979, 0.592),
    (0.952, 1.038, 0.858, 0.331, -0.220, -0.035, -0.648, 0.415),
)
