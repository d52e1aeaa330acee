"""Kingdom Builder's endgames played twice: the hard level against a variant, from the same positions.

A change that acts only in a seat's last turns (``last_turn_plans``, a wider last-turn search)
moves a game's result by a fraction of a point, which whole games — each with a dozen turns of
luck on top — cannot show in the few hundred games a session can play.  This plays only the end:

1. it replays the level's games (``bench.bots --replays`` files: the hard seat and every
   action) to the hard seat's ``--from-end``-th last turn start (1: its last turn);
2. from that position it plays the rest of the game twice, the hard seat once by the level and
   once by the level with ``--search`` (search parameters replacing the game's ``SEARCH``, as
   ``bench.bots --search``; ``--level-search`` sets the first arm's likewise), the other seats by greedy bots — the same bots, seeds and deck in
   both arms (common random numbers), so a difference in the result is the hard seat's doing;
3. it reports, paired, the hard seat's margin over its best rival, its wins, the positions where
   only one arm won, and each arm's CPU time per hard decision::

    python -m bench.kb_endgame --replays bench/data/kb-fresh-games.jsonl.gz \\
        --options '{"nomads": "full"}' --games 100 --search '{"last_turn_evals": 4000}'

``--out F`` appends one JSON line per position (seed, seat, each arm's totals and decision
times), so a stopped run keeps what it did and ``--summary F ...`` reports files again.  The hard
bot keeps its CPU ceiling (1.9 s a decision; a cut is counted) but no wall-clock safety net: on
a loaded machine the arms play the same.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from bench.bots import bench_bot
from bench.decision_cpu import read_games
from bench.kb_last_turn import hard_turn_from_end
from bench.score_sources import win_share
from game.bots import make_bot
from game.commands.common import options_argument
from game.core.api import GameState
from game.core.rng import derive_seed

DEFAULT_REPLAYS = Path(__file__).resolve().parent / "data" / "kb-fresh-games.jsonl.gz"


def play_out(
    start: GameState, seat: int, seed: int, search: dict[str, Any] | None
) -> dict[str, Any]:
    """The rest of the game from ``start``: ``seat`` by the hard level (with ``search``), the
    others by greedy bots; the final totals and the hard seat's CPU seconds per decision that
    searched, and how many of them the CPU ceiling cut."""
    state = start.clone()
    hard = bench_bot("hard", derive_seed(seed, "endgame-hard"), None, None, search)
    bots = {
        s: make_bot(
            "greedy", derive_seed(seed, "endgame-greedy", s), safety_net=False, ceiling=False
        )
        for s in range(state.players)
        if s != seat
    }
    cpu: list[float] = []
    cuts = 0
    step = 0
    while not state.is_over():
        mover = state.to_move()[0]
        view = state.determinize(mover, derive_seed(seed, "endgame-agent", mover, step))
        if mover == seat:
            c0 = time.thread_time()
            action = hard.choose(view, mover)
            if getattr(hard, "last_thought", False):
                cpu.append(round(time.thread_time() - c0, 5))
                cuts += getattr(hard, "last_cut", None) is not None
        else:
            action = bots[mover].choose(view, mover)
        state.apply(mover, action)
        step += 1
    return {"totals": [int(row["total"]) for row in state.scores()], "cpu": cpu, "cuts": cuts}


def margin(totals: Sequence[int], seat: int) -> int:
    """``seat``'s total minus the best other seat's."""
    return totals[seat] - max(t for s, t in enumerate(totals) if s != seat)


def duel(
    game: dict[str, Any],
    from_end: int,
    search: dict[str, Any],
    level: dict[str, Any] | None = None,
) -> dict[str, Any] | None:
    """One position played by both arms, the level's with ``level``'s search parameters if
    given (``None`` if the game has no such turn)."""
    branch = hard_turn_from_end(game, from_end)
    if branch is None:
        return None
    start = branch[0]
    seat = int(game["seat"])
    seed = derive_seed(int(game["seed"]), "endgame", from_end)
    return {
        "seed": game["seed"],
        "options": game.get("options", {}),
        "seat": seat,
        "from_end": from_end,
        "level": play_out(start, seat, seed, level),
        "variant": play_out(start, seat, seed, search),
    }


def summary(rows: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The paired figures of duel rows: wins, positions only one arm won, the variant's margin
    minus the level's (mean and standard error) and each arm's CPU per decision."""
    diffs: list[float] = []
    wins = {"level": 0.0, "variant": 0.0}
    only = {"level": 0, "variant": 0}
    cpu: dict[str, list[float]] = {"level": [], "variant": []}
    cuts = {"level": 0, "variant": 0}
    for row in rows:
        seat = row["seat"]
        shares = {}
        for arm in ("level", "variant"):
            shares[arm] = win_share(row[arm]["totals"], seat)
            wins[arm] += shares[arm]
            cpu[arm].extend(row[arm]["cpu"])
            cuts[arm] += row[arm]["cuts"]
        diffs.append(margin(row["variant"]["totals"], seat) - margin(row["level"]["totals"], seat))
        if shares["variant"] > shares["level"]:
            only["variant"] += 1
        elif shares["level"] > shares["variant"]:
            only["level"] += 1
    n = len(diffs)
    out: dict[str, Any] = {"positions": n, "wins": wins, "only_won": only, "cuts": cuts}
    if n:
        mean = statistics.fmean(diffs)
        se = statistics.stdev(diffs) / math.sqrt(n) if n > 1 else math.nan
        out["margin_diff"] = round(mean, 3)
        out["margin_diff_se"] = round(se, 3)
        out["changed"] = sum(1 for d in diffs if d)
    for arm, times in cpu.items():
        if times:
            ordered = sorted(times)
            out[f"{arm}_cpu"] = {
                "decisions": len(ordered),
                "p50": round(ordered[len(ordered) // 2], 3),
                "p95": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 3),
                "max": round(ordered[-1], 3),
            }
    return out


def read_rows(paths: Sequence[Path]) -> list[dict[str, Any]]:
    """The rows of ``--out`` files (plain JSON lines)."""
    rows: list[dict[str, Any]] = []
    for path in paths:
        with path.open(encoding="utf-8") as f:
            rows.extend(json.loads(line) for line in f if line.strip())
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replays", type=Path, default=DEFAULT_REPLAYS)
    parser.add_argument("--options", type=options_argument, default=None)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--skip", type=int, default=0, help="games of the file to pass over first")
    parser.add_argument("--from-end", type=int, default=1)
    parser.add_argument("--search", type=json.loads, default=None, help="the variant (JSON)")
    parser.add_argument(
        "--level-search",
        type=json.loads,
        default=None,
        help="search parameters of the level's arm too (JSON; default: the level as it is)",
    )
    parser.add_argument("--out", type=Path, help="append one JSON line per position")
    parser.add_argument("--summary", type=Path, nargs="+", help="report --out files and stop")
    args = parser.parse_args(argv)
    if args.summary:
        print(json.dumps(summary(read_rows(args.summary)), indent=1))
        return 0
    if args.games < 1 or args.skip < 0 or args.from_end < 1:
        parser.error("--games and --from-end must be positive, --skip not negative")
    if not isinstance(args.search, dict) or not args.search:
        parser.error("--search takes the variant's search parameters (a JSON object)")
    if args.level_search is not None and not isinstance(args.level_search, dict):
        parser.error("--level-search takes search parameters (a JSON object)")
    games = list(read_games(args.replays, args.skip + args.games, args.options))[args.skip :]
    if not all(game.get("game") == "kingdom-builder" for game in games):
        parser.error("--replays must hold Kingdom Builder games")
    rows = []
    for game in games:
        row = duel(game, args.from_end, args.search, args.level_search)
        if row is None:
            continue
        rows.append(row)
        if args.out:
            with args.out.open("a", encoding="utf-8") as f:
                f.write(json.dumps(row) + "\n")
        s = summary(rows)
        print(
            f"{len(rows)} positions: level {s['wins']['level']:.1f}, variant "
            f"{s['wins']['variant']:.1f}, only {s['only_won']}, margin "
            f"{s.get('margin_diff', 0):+.2f} ± {s.get('margin_diff_se', 0):.2f}",
            file=sys.stderr,
            flush=True,
        )
    print(json.dumps(summary(rows), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
