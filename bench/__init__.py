"""Lantern Table's speed and strength figures (``python -m game bench``).

Each suite is a module here with::

    FIGURES: dict[str, str]             # figure name -> unit and meaning (listed in the README)
    def run(quick: bool) -> dict[str, float]

Figure names are ``<area>.<what>`` (e.g. ``kingdom-builder.random_games_per_s``).  Suites are
measurements, never pass/fail tests; targets are written next to each figure in the README.
"""

from __future__ import annotations

#: Suite name -> module.  Later issues add their suites here.
SUITES: dict[str, str] = {
    "kingdom-builder": "bench.kingdom_builder",
    "keyflower": "bench.keyflower",
    "glen-more": "bench.glen_more",
    "bots": "bench.bots",
    "net": "bench.net",
    "ui": "bench.ui",
    "review": "bench.review",
    "install": "bench.install",
}
