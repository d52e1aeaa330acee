"""The hard level's multipliers of the Kingdom Builder evaluation's features, per stage.

Written by ``python -m bench.fit_kingdom_builder fit`` (do not edit by hand) from 342 self-play
games in ``bench/data/kb-selfplay.jsonl.gz`` and ``bench/data/kb-selfplay-fitted.jsonl.gz``
(51155 positions, one in 2; ridge penalty 0.05 towards the plain sum).  ``FITTED[stage][i]``
multiplies feature ``FEATURES[i]`` of :mod:`game.kingdom_builder.evaluation` at stage ``stage``
(how far the fastest builder is through its settlements, in ``len(FITTED)`` equal bins) in the
base game (fitted on every game); ``FITTED_NOMADS`` the same with the full Nomads expansion
(fitted on its 170 games alone).
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

#: The same with the full Nomads expansion.
FITTED_NOMADS: tuple[tuple[float, ...], ...] = (
    (0.201, 0.682, 0.893, 0.245, 0.398, -0.229, -1.457, 0.391),
    (0.662, 0.927, 1.212, 0.294, -0.205, 0.004, -1.965, 0.626),
    (0.931, 0.983, 0.471, 0.476, -0.495, -0.069, -0.956, 0.443),
    (0.980, 0.881, 0.785, 0.320, -0.106, -0.056, -0.542, 0.373),
)
