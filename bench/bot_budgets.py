"""How much CPU a decision of each level takes, and the counts that keep it in budget.

The levels think for a count (:mod:`game.bots.budget`): the greedy planner's evaluations per
turn (a game's ``PLAN_EVALS``) and the hard level's playouts per decision (its
``SEARCH["work"]``: the evaluations and actions of its playouts).  This measures, over a few 4-player games with one seat of each
level (hard, normal, easy, greedy; seats rotated by game), the CPU time of every decision that
thought (not the cached steps of a planned turn, not a forced move), per level: p50, p95 and
max, in CPU seconds of the thinking thread — load-independent.  For the hard level it also
reports the CPU time per unit of work after the root's planning, the planning's own CPU time,
and estimates for a few work budgets what a decision would cost (p50/p95/max of planning +
work x its decision's cost per unit): the numbers to pick ``SEARCH["work"]`` from.  For the planner levels it
reports evaluations per CPU second and the evaluations a turn took.

    python -m bench.bot_budgets --game keyflower --games 3
    python -m bench.bot_budgets --game glen-more --games 3 --hard-cpu 1.5 --json

``--hard-cpu S`` runs the hard seat on a CPU budget of ``S`` seconds instead of its count (to
measure its cost per unit of work whatever the count is now); ``--iterations N`` runs it on
``N`` playouts; ``--rows FILE`` writes every decision's figures, to pool several runs.  Games
run one after another in this process, nice'd by the caller.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Sequence
from typing import Any

from game.bots import GreedyBot, MctsBot, make_bot
from game.core.match import play_match
from game.core.rng import derive_seed

LEVELS = ("hard", "normal", "easy", "greedy")


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-quantile (0..1) of ``values`` (nearest rank; 0 for none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def spread(values: Sequence[float]) -> dict[str, float]:
    """p50, p95, max and count of ``values``."""
    return {
        "p50": round(percentile(values, 0.5), 4),
        "p95": round(percentile(values, 0.95), 4),
        "max": round(max(values, default=0.0), 4),
        "n": float(len(values)),
    }


def _recorded(bot: Any, rows: list[dict[str, float]]) -> Any:
    """``bot.choose``, appending the CPU time of every decision that thought to ``rows``."""

    def choose(state: Any, seat: int) -> Any:
        c0 = time.thread_time()
        action = bot.choose(state, seat)
        cpu = time.thread_time() - c0
        if getattr(bot, "last_thought", False):
            row: dict[str, float] = {"cpu": cpu, "cut": float(bot.last_cut is not None)}
            if isinstance(bot, MctsBot):
                row["plan_cpu"] = bot.last_plan_cpu
                row["iterations"] = float(bot.last_iterations)
                row["work"] = float(bot.last_work)
            elif isinstance(bot, GreedyBot):
                row["evals"] = float(bot.last_evals)
            rows.append(row)
        return action

    return choose


def measure(
    game_id: str,
    games: int,
    start: int = 0,
    hard_cpu: float | None = None,
    iterations: int | None = None,
    options: dict[str, Any] | None = None,
    verbose: bool = False,
) -> dict[str, Any]:
    """Play ``games`` 4-player games (seeds ``start..``) and gather every thinking decision."""
    records: dict[str, list[dict[str, float]]] = {level: [] for level in LEVELS}
    for index in range(start, start + games):
        names = [LEVELS[(seat + index) % 4] for seat in range(4)]
        bots = [
            make_bot(
                name,
                derive_seed(index, "budget-bot", seat),
                hard_cpu if name == "hard" else None,
                iterations=iterations if name == "hard" else None,
                safety_net=False,
            )
            for seat, name in enumerate(names)
        ]

        t0 = time.perf_counter()
        agents = [_recorded(bot, records[name]) for bot, name in zip(bots, names, strict=True)]
        play_match(game_id, 4, index, agents, options)
        if verbose:
            print(f"  game {index}: {time.perf_counter() - t0:.0f} s wall", flush=True)
    out: dict[str, Any] = {"game": game_id, "games": games, "start": start, "rows": records}
    for level, rows in records.items():
        out[f"{level}.cpu_s"] = spread([r["cpu"] for r in rows])
        out[f"{level}.ceiling_cuts"] = float(sum(r.get("cut", 0.0) for r in rows))
        if level == "hard" and rows:
            searched = [r for r in rows if r["cpu"] - r["plan_cpu"] > 1e-3 and r["work"] > 0]
            per_work = [(r["cpu"] - r["plan_cpu"]) / r["work"] for r in searched]
            out["hard.plan_cpu_s"] = spread([r["plan_cpu"] for r in rows])
            out["hard.iterations"] = spread([r["iterations"] for r in rows])
            out["hard.work"] = spread([r["work"] for r in rows])
            out["hard.cpu_us_per_work"] = spread([u * 1e6 for u in per_work])
            median = statistics.median(per_work) if per_work else 0.0
            estimates = {}
            for work in (2000, 4000, 6000, 8000, 10_000, 12_000, 16_000, 20_000, 30_000):
                costs = []
                for r in rows:
                    unit = (
                        (r["cpu"] - r["plan_cpu"]) / r["work"]
                        if r["cpu"] - r["plan_cpu"] > 1e-3 and r["work"] > 0
                        else median
                    )
                    costs.append(r["plan_cpu"] + work * unit)
                estimates[str(work)] = spread(costs)
            out["hard.estimated_cpu_s_by_work"] = estimates
        elif rows and "evals" in rows[0]:
            out[f"{level}.evals"] = spread([r["evals"] for r in rows])
            out[f"{level}.evals_per_cpu_s"] = spread(
                [r["evals"] / r["cpu"] for r in rows if r["cpu"] > 1e-4]
            )
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="kingdom-builder")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--start", type=int, default=0, help="first game's seed")
    parser.add_argument("--hard-cpu", type=float, default=None, help="hard CPU seconds instead")
    parser.add_argument("--iterations", type=int, default=None, help="hard playouts instead")
    parser.add_argument("--options", type=json.loads, default=None, help="game options (JSON)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--rows", metavar="FILE", default=None, help="also write every decision's row (JSON)"
    )
    args = parser.parse_args(argv)
    load_before = os.getloadavg()[0]
    out = measure(
        args.game,
        args.games,
        args.start,
        args.hard_cpu,
        args.iterations,
        args.options,
        verbose=not args.json,
    )
    rows = out.pop("rows")
    if args.rows:
        with open(args.rows, "w") as fh:
            json.dump({"game": args.game, "start": args.start, "rows": rows}, fh)
    out["load_1min_before"] = round(load_before, 2)
    out["load_1min_after"] = round(os.getloadavg()[0], 2)
    print(json.dumps(out, indent=None if args.json else 1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
