"""Perft-style regression counts for Kingdom Builder (like python-chess's perft files).

For each fixed (seed, players, options) game, a fixed random line is played: at every step the
number of legal actions is recorded, then one of them is chosen with an ``Rng`` seeded from the
line.  ``perft.json`` stores the counts (and the final totals); ``test_perft.py`` replays the
lines and compares, so any change to what is legal shows up as a diff at the first step where
it matters.

Regenerate after an intended rules change (and say why in the commit)::

    .venv/bin/python -m tests.kingdom_builder.perft --write
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from game.core.rng import Rng, derive_seed
from game.kingdom_builder import GAME

PATH = Path(__file__).with_name("perft.json")

#: (seed, players, options) of every recorded line.
LINES: list[tuple[int, int, dict[str, Any]]] = [
    (seed, players, {}) for seed in (1, 2, 3) for players in (2, 3, 4)
] + [
    (4, 2, {"nomads": True, "sections": ["Quarry", "Caravan", "Village", "Garden"]}),
    (5, 3, {"nomads": True}),
    (6, 4, {"nomads": True, "sections": ["Quarry", "Harbor", "Caravan", "Barn"]}),
    (7, 4, {"first_game": True}),
]


def play_line(seed: int, players: int, options: dict[str, Any]) -> dict[str, Any]:
    """The counts of legal actions along the line, and the final totals."""
    state = GAME.new(players, dict(options), seed)
    chooser = Rng(derive_seed(seed, "perft", players))
    counts: list[int] = []
    while not state.is_over():
        seat = state.to_move()[0]
        actions = state.legal_actions(seat)
        counts.append(len(actions))
        state.apply(seat, actions[chooser.randbelow(len(actions))])
    return {
        "seed": seed,
        "players": players,
        "options": options,
        "counts": counts,
        "totals": [s["total"] for s in state.scores()],
    }


def generate() -> dict[str, Any]:
    return {
        "about": "legal-action counts along fixed random Kingdom Builder lines; "
        "regenerate with: python -m tests.kingdom_builder.perft --write",
        "lines": [play_line(*line) for line in LINES],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"rewrite {PATH.name}")
    args = parser.parse_args()
    data = generate()
    if args.write:
        PATH.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"wrote {PATH} ({len(data['lines'])} lines)")
    else:
        for line in data["lines"]:
            print(line["seed"], line["players"], len(line["counts"]), line["totals"])


if __name__ == "__main__":
    main()
