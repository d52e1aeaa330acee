"""The hard level's multipliers of the Glen More evaluation's terms, per game stage.

Written by ``python -m bench.fit_glen_more fit`` (do not edit by hand) from 198 self-play
games in ``bench/data/gm-selfplay.jsonl.gz`` (29651 positions, one in 3; ridge penalty
0.05 towards 1).  ``FITTED[stage][i]`` multiplies term ``TERMS[i]`` of
:mod:`game.glen_more.evaluation` at stage ``stage`` (the share of the stacks' tiles drawn, in
``len(FITTED)`` equal bins).
"""

from __future__ import annotations

#: The names these multipliers were fitted for, in order (checked when they are used).
TERMS: tuple[str, ...] = (
    "tile_points",
    "rounds_held",
    "whisky_rounds",
    "chieftain_rounds",
    "special_rounds",
    "coins",
    "clan_members",
    "turns",
    "tile_penalty",
    "cubes",
    "end_effects",
    "placement",
    "turn_in_progress",
)

FITTED: tuple[tuple[float, ...], ...] = (
    (0.510, 1.000, 1.479, 0.843, 0.730, 0.572, 0.927, 1.121, 0.307, 0.641, 1.000, 0.535, 0.744),
    (0.644, 0.775, 1.124, 0.560, 0.881, 0.719, 0.524, 0.863, 0.399, 0.290, 0.866, 0.765, 0.323),
    (0.876, 1.077, 0.989, 0.630, 1.277, 0.754, 0.141, 0.949, 0.707, 0.303, 0.785, 1.473, 0.242),
    (0.990, 1.076, 0.829, 0.772, 1.185, 0.869, -0.090, 1.065, 0.912, 0.128, 0.888, 0.727, 0.523),
)
