"""Where a bot level's points come from, category by category (issue 23).

``python -m bench.bots ... --replays F.jsonl.gz`` writes one record per game with every seat's
final score split into its categories (castles, each Kingdom Builder card, banked gold; in
Keyflower and Glen More their own categories) and which seat was the tested level.  This reads
one or more such files and reports, per category, the tested seat's points minus the mean of the
other seats' in the games that scored it (with its standard error), and the tested seat's win
share in the games where each category was in play (ties shared) — so a weakness shows as a
category the level scores less of than the bots it beats::

    python -m bench.score_sources bench/data/kb-level-games.jsonl.gz
    python -m bench.score_sources bench/data/kb-level-games.jsonl.gz --options '{"nomads": "full"}'

(that file: the Kingdom Builder hard level's 705 games against three greedy bots of
``docs/bots.md``'s *Measured for issue 23*, base seeds 1200-1624 and full Nomads 500-804).
``--options JSON`` keeps only the games played with exactly those options (``'{}'``: the base
game), so a file holding both games reports each apart.  ``--by-map CATEGORY`` (Kingdom Builder)
reports one category instead — ``total`` or ``castles``, say — split by the game's map: each of
its four sections (KB §3.1) and how many castles the map has, from the seed the game was set up
with::

    python -m bench.score_sources bench/data/kb-level-games.jsonl.gz --by-map castles

``--shifts D ...`` reports instead the tested seat's win share had its total been ``D`` points
higher in every game, the other seats' unchanged (ties shared): how many points a game a change
would have to add for a given win rate::

    python -m bench.score_sources bench/data/kb-level-games.jsonl.gz --options '{}' \\
        --shifts 0 0.5 1 2

Counts only: it reads finished games, it plays none.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.decision_cpu import read_games, replay_of
from game.commands.common import options_argument


@dataclass
class Category:
    """What the tested seat did in one score category over the games that scored it."""

    edges: list[float] = field(default_factory=list)
    won: float = 0.0

    def add(self, edge: float, share: float) -> None:
        self.edges.append(edge)
        self.won += share

    @property
    def games(self) -> int:
        return len(self.edges)

    def mean_edge(self) -> tuple[float, float]:
        """The mean of the tested seat's points minus the others' mean, and its standard error."""
        n = len(self.edges)
        mean = sum(self.edges) / n
        if n < 2:
            return mean, math.nan
        var = sum((x - mean) ** 2 for x in self.edges) / (n - 1)
        return mean, math.sqrt(var / n)


def win_share(totals: Sequence[float], seat: int) -> float:
    """The seat's share of the win: 1 alone on top, 1/k in a k-way tie, else 0."""
    top = max(totals)
    tied = sum(1 for t in totals if t == top)
    return 1.0 / tied if totals[seat] == top else 0.0


def tally(games: Iterable[dict[str, Any]]) -> tuple[int, dict[str, Category]]:
    """Per category, the tested seat's edge over the other seats' mean and its win shares."""
    out: dict[str, Category] = {}
    count = 0
    for game in games:
        seat, scores, share = _tested(game)
        count += 1
        for name in scores[seat]:
            out.setdefault(name, Category()).add(_edge(scores, seat, name), share)
    return count, out


def _tested(game: dict[str, Any]) -> tuple[int, list[dict[str, int]], float]:
    """A game's tested seat, every seat's scores by category, and the tested seat's win share."""
    seat = int(game["seat"])
    scores = game["scores"]
    return seat, scores, win_share([int(row["total"]) for row in scores], seat)


def _edge(scores: Sequence[dict[str, int]], seat: int, name: str) -> float:
    """The seat's points in category ``name`` minus the other seats' mean (0 where unscored)."""
    others = [float(row.get(name, 0)) for i, row in enumerate(scores) if i != seat]
    return float(scores[seat].get(name, 0)) - sum(others) / len(others)


def map_labels(game: dict[str, Any]) -> list[str]:
    """A Kingdom Builder game's map, from its setup (no action replayed): ``section NAME`` for
    each of its four sections (KB §3.1) and ``N castles`` for how many castle hexes it has."""
    setup = replay_of(game, actions=False)
    board = next(iter(setup.states())).board  # type: ignore[attr-defined]
    return [f"section {name}" for name in board.names] + [f"{len(board.castles)} castles"]


def tally_by_map(games: Iterable[dict[str, Any]], category: str) -> tuple[int, dict[str, Category]]:
    """The tested seat's edge in one ``category`` (0 where a game did not score it) and its win
    shares, per label of :func:`map_labels`."""
    out: dict[str, Category] = {}
    count = 0
    for game in games:
        seat, scores, share = _tested(game)
        edge = _edge(scores, seat, category)
        count += 1
        for label in map_labels(game):
            out.setdefault(label, Category()).add(edge, share)
    return count, out


def shifted_shares(
    games: Iterable[dict[str, Any]], shifts: Sequence[float]
) -> tuple[int, dict[float, float]]:
    """For each shift ``d``, the tested seat's wins (ties shared) had its total been ``d`` points
    higher in every game and the other seats' totals the same."""
    won = dict.fromkeys(shifts, 0.0)
    count = 0
    for game in games:
        seat, scores, _share = _tested(game)
        count += 1
        for d in shifts:
            totals = [float(row["total"]) for row in scores]
            totals[seat] += d
            won[d] += win_share(totals, seat)
    return count, won


def report(count: int, table: dict[str, Category], what: str = "") -> list[str]:
    """One line per category (or per map label, with ``what`` the category), the strongest
    edge first."""
    of = f" in {what}" if what else ""
    lines = [f"{count} games; the tested seat's points{of} minus the other seats' mean"]
    rows = sorted(table.items(), key=lambda kv: -kv[1].mean_edge()[0])
    for name, cat in rows:
        mean, se = cat.mean_edge()
        lines.append(
            f"  {name:16s} {cat.games:5d} games  {mean:+6.2f} ± {se:4.2f} points"
            f"  won {cat.won:6.1f} ({cat.won / cat.games:5.1%})"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("replays", nargs="+", type=Path, help="bench.bots --replays files")
    parser.add_argument(
        "--options",
        type=options_argument,
        default=None,
        help="only the games played with exactly these options (JSON object; '{}': the base game)",
    )
    parser.add_argument(
        "--by-map",
        metavar="CATEGORY",
        help="Kingdom Builder: that one category (total, castles, ...) by map section and castles",
    )
    parser.add_argument(
        "--shifts",
        type=float,
        nargs="+",
        metavar="D",
        help="the tested seat's win share had its total been D points higher in every game",
    )
    args = parser.parse_args(argv)
    games = (game for path in args.replays for game in read_games(path, sys.maxsize, args.options))
    if args.shifts:
        count, won = shifted_shares(games, args.shifts)
        if not count:
            parser.error("no games in those files")
        print(f"{count} games; the tested seat's win share with its total shifted by D points")
        for d in args.shifts:
            print(f"  {d:+6.2f}  won {won[d]:7.1f} ({won[d] / count:5.1%})")
        return 0
    if args.by_map:
        count, table = tally_by_map(games, args.by_map)
    else:
        count, table = tally(games)
    if not count:
        parser.error("no games in those files")
    print("\n".join(report(count, table, args.by_map or "")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
