"""The hard level's multipliers of the Kingdom Builder evaluation's features, per stage.

Written by ``python -m bench.fit_kingdom_builder fit`` (do not edit by hand) from 342 games in
``bench/data/kb-selfplay.jsonl.gz`` and ``bench/data/kb-selfplay-fitted.jsonl.gz`` (51155
positions, one in 2; ridge penalty 0.05 towards the plain sum).  ``FITTED[stage][i]`` multiplies
feature ``FEATURES[i]`` of :mod:`game.kingdom_builder.evaluation` at stage ``stage`` (how far
the fastest builder is through its settlements, in ``len(FITTED)`` equal bins) in the base game
(fitted on every game); ``FITTED_NOMADS`` the same with the full Nomads expansion (fitted on its
170 games alone).
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
    "moved",
)

FITTED: tuple[tuple[float, ...], ...] = (
    (0.328, 0.718, 0.933, 0.097, 0.376, -0.184, -1.713, 0.705, -0.055),
    (0.730, 0.980, 1.179, 0.375, -0.177, -0.014, -2.166, 0.739, -1.258),
    (0.902, 1.025, 0.511, 0.418, -0.153, -0.050, -1.011, 0.418, -2.370),
    (0.959, 0.875, 0.852, 0.326, -0.208, -0.025, -0.678, 0.301, -2.175),
)

#: The same with the full Nomads expansion.
FITTED_NOMADS: tuple[tuple[float, ...], ...] = (
    (0.201, 0.681, 0.892, 0.245, 0.399, -0.230, -1.457, 0.379, -0.050),
    (0.666, 0.922, 1.171, 0.286, -0.186, 0.006, -1.998, 0.455, -1.376),
    (0.939, 0.940, 0.425, 0.462, -0.470, -0.061, -1.012, 0.283, -2.411),
    (0.986, 0.750, 0.779, 0.318, -0.110, -0.049, -0.598, 0.274, -1.969),
)
