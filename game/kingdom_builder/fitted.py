"""Placeholder replaced by ``python -m bench.fit_kingdom_builder fit --out`` (the plain sum)."""

from __future__ import annotations

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

FITTED: tuple[tuple[float, ...], ...] = ((1.0, 1.0, 1.0, 0.5, 0.0, 0.0, 0.0, 0.0),)
