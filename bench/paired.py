"""Two bot levels on the same seeds, game by game (issue 23).

``python -m bench.bots`` plays game *i* with seed *i* and prints one progress line per game
(``<matchup> game <i> seat <s>: share <x> totals [...]``).  Two runs of the same matchup and seeds
with different levels (``--search``, or two checkouts) play the same deals, so their difference
is best read game by game: this reads the progress lines of a base run and of one or more
variant runs and reports, over the games both played, each one's wins, the games only one of
them won (the discordant pairs: with equal levels as many each way), and the mean difference of
the tested seat's *margin* (its total minus its best rival's), with its standard error — a
continuous measure that separates two levels in fewer games than the wins do.  Counts only::

    python -m bench.bots --game kingdom-builder --matchup hard_vs_greedy --games 100 \\
        --start 300 > base.log
    python -m bench.bots ... --search '{"horizon_extra": 4}' > variant.log
    python -m bench.paired base.log variant.log

A run may also be a ``--replays`` file of ``bench.bots`` (JSON lines, gzipped or not): game *i* is
the record of seed *i*, its share from the record's ``winners`` (or, in files written before
they were recorded, the highest totals, ties shared — Kingdom Builder's rule, KB §8: no
tie-breaker).  ``--options JSON`` keeps only its records played with exactly those options — so
the hard level's committed games pair with a variant's log::

    python -m bench.paired bench/data/kb-level-games.jsonl.gz variant.log --options '{}'
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.bots import PROGRESS_LINE
from game.commands.common import options_argument


@dataclass(frozen=True)
class Game:
    """One game of a run: the tested seat's share of the win and its margin over its best
    rival."""

    share: float
    margin: int


def read_run(lines: Iterable[str]) -> dict[int, Game]:
    """The games of one ``bench.bots`` run by index, from its progress lines (other lines are
    skipped)."""
    games: dict[int, Game] = {}
    for line in lines:
        m = PROGRESS_LINE.search(line)
        if not m:
            continue
        seat = int(m[2])
        totals = [int(t) for t in m[4].split(",")]
        if not 0 <= seat < len(totals) or len(totals) < 2:
            continue
        rival = max(t for k, t in enumerate(totals) if k != seat)
        games[int(m[1])] = Game(float(m[3]), totals[seat] - rival)
    return games


def read_replays(lines: Iterable[str], options: dict[str, Any] | None = None) -> dict[int, Game]:
    """The games of a ``bench.bots --replays`` file by seed (game *i* of a run has seed *i*),
    only those played with exactly ``options`` when it is given; lines that are not such a
    record are skipped."""
    games: dict[int, Game] = {}
    for line in lines:
        try:
            record = json.loads(line)
            seed, seat = int(record["seed"]), int(record["seat"])
            totals = [int(t) for t in record["totals"]]
            if options is not None and record.get("options", {}) != options:
                continue
            winners = record.get("winners")
            if winners is None:
                best = max(totals)
                winners = [k for k, t in enumerate(totals) if t == best]
            winners = [int(w) for w in winners]
        except (ValueError, KeyError, TypeError):
            continue
        if not 0 <= seat < len(totals) or len(totals) < 2 or not winners:
            continue
        rival = max(t for k, t in enumerate(totals) if k != seat)
        share = 1.0 / len(winners) if seat in winners else 0.0
        games[seed] = Game(share, totals[seat] - rival)
    return games


def read_path(path: Path, options: dict[str, Any] | None = None) -> dict[int, Game]:
    """A run from a file: a ``--replays`` file (``.jsonl`` or ``.jsonl.gz``) or a log of progress
    lines (anything else)."""
    if path.name.endswith(".gz"):
        with gzip.open(path, "rt", encoding="utf-8") as f:
            return read_replays(f, options)
    text = path.read_text(encoding="utf-8")
    if path.name.endswith(".jsonl"):
        return read_replays(text.splitlines(), options)
    return read_run(text.splitlines())


@dataclass(frozen=True)
class Comparison:
    games: int
    base_wins: float
    variant_wins: float
    base_only: int
    variant_only: int
    margin_diff: float
    margin_se: float


def compare(base: dict[int, Game], variant: dict[int, Game]) -> Comparison:
    """``variant`` against ``base`` over the games both played."""
    common = sorted(set(base) & set(variant))
    n = len(common)
    diffs = [variant[i].margin - base[i].margin for i in common]
    mean = sum(diffs) / n if n else 0.0
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    return Comparison(
        games=n,
        base_wins=sum(base[i].share for i in common),
        variant_wins=sum(variant[i].share for i in common),
        base_only=sum(1 for i in common if base[i].share > variant[i].share),
        variant_only=sum(1 for i in common if variant[i].share > base[i].share),
        margin_diff=mean,
        margin_se=math.sqrt(var / n) if n else 0.0,
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", type=Path)
    parser.add_argument("variants", type=Path, nargs="+")
    parser.add_argument(
        "--options",
        type=options_argument,
        help="replay files: only the games played with exactly these options (JSON, '{}' the "
        "base game)",
    )
    args = parser.parse_args(argv)
    options: dict[str, Any] | None = args.options
    try:
        base = read_path(args.base, options)
        variants = [(path, read_path(path, options)) for path in args.variants]
    except (OSError, UnicodeDecodeError, EOFError) as e:
        parser.error(f"cannot read a run: {e}")
    for path, variant in variants:
        c = compare(base, variant)
        print(
            f"{path}: {c.games} games in common; wins {c.base_wins:.1f} (base) against "
            f"{c.variant_wins:.1f}; won by the base alone {c.base_only}, by the variant alone "
            f"{c.variant_only}; margin {c.margin_diff:+.2f} ± {c.margin_se:.2f} points a game"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
