"""What the hard level's search gains on more than one core (``game/bots/parallel.py``).

From positions of greedy 4-player games (every ``--every``-th decision of seeds ``start..``),
the hard level's search is run with the same counts on 1 core and on ``--cores`` cores; the
decisions are the same by construction (checked here too).  Reported per game: the wall-clock
time of each (median; on a busy machine the helpers wait for a core too, so the speed-up shown
is only what the machine had free), the CPU time of the searching thread and of the helpers
(the overhead of the helpers: carrying the state and the turns over, and playouts dropped
because a batch ran past the budget), and the speed-up of the playouts alone.

    python -m bench.bot_cores --game glen-more --positions 12 --cores 2

What *N* times the search is worth in strength is measured as a matchup: the same seeds with
``--search '{"work": N*W}'`` against the default ``W`` (``python -m bench.bots``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Sequence
from typing import Any

from game.bots import hard_bot, make_bot
from game.core.api import GameState
from game.core.registry import get_game
from game.core.rng import derive_seed


def positions(game_id: str, count: int, start: int, every: int) -> list[tuple[GameState, int]]:
    """``count`` positions where a seat must decide, from greedy games of seeds ``start..``."""
    out: list[tuple[GameState, int]] = []
    seed = start
    while len(out) < count:
        state = get_game(game_id).new(4, {}, seed)
        bots = [
            make_bot("greedy", derive_seed(seed, "cores", s), safety_net=False) for s in range(4)
        ]
        step = 0
        while not state.is_over() and len(out) < count:
            seat = state.to_move()[0]
            world = state.determinize(seat, step)
            if step % every == every - 1 and len(world.legal_actions(seat)) > 1:
                out.append((world.clone(), seat))
            state.apply(seat, bots[seat].choose(world, seat))
            step += 1
        seed += 1
    return out


def measure(game_id: str, count: int, cores: int, start: int, every: int) -> dict[str, Any]:
    rows = []
    for i, (state, seat) in enumerate(positions(game_id, count, start, every)):
        one = hard_bot(i, safety_net=False)
        many = hard_bot(i, safety_net=False)
        many.cores = cores  # the same counts on more cores: the same decision, sooner
        try:
            w0, c0 = time.perf_counter(), time.thread_time()
            plan_one = one.search(state.clone(), seat)
            wall_one, cpu_one = time.perf_counter() - w0, time.thread_time() - c0
            many.search(state.clone(), seat)  # starts the helpers (not timed)
            many.rng = type(many.rng)(i)
            w0, c0 = time.perf_counter(), time.thread_time()
            plan_many = many.search(state.clone(), seat)
            wall_many, cpu_many = time.perf_counter() - w0, time.thread_time() - c0
            assert many._pool is not None
            helpers = many._pool.helper_cpu
        finally:
            many.close()
        rows.append(
            {
                "same": plan_one == plan_many,
                "wall_one": wall_one,
                "cpu_one": cpu_one,
                "plan_cpu": one.last_plan_cpu,
                "wall_many": wall_many,
                "cpu_many": cpu_many,
                "helper_cpu": helpers,
            }
        )

    def median(key: str) -> float:
        return round(statistics.median(r[key] for r in rows), 3)

    playout_one = [r["wall_one"] - r["plan_cpu"] for r in rows]
    playout_many = [r["wall_many"] - r["plan_cpu"] for r in rows]
    total_one = sum(r["cpu_one"] for r in rows)
    total_many = sum(r["cpu_many"] + r["helper_cpu"] for r in rows)
    return {
        "game": game_id,
        "positions": len(rows),
        "cores": cores,
        "same_decisions": sum(r["same"] for r in rows),
        "wall_s_median_1_core": median("wall_one"),
        f"wall_s_median_{cores}_cores": median("wall_many"),
        "cpu_s_median_1_core": median("cpu_one"),
        f"cpu_s_median_{cores}_cores_parent": median("cpu_many"),
        f"cpu_s_median_{cores}_cores_helpers": median("helper_cpu"),
        "cpu_overhead": round(total_many / max(total_one, 1e-9) - 1.0, 3),
        "playout_wall_speedup": round(sum(playout_one) / max(sum(playout_many), 1e-9), 3),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="glen-more")
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--start", type=int, default=0, help="first greedy game's seed")
    parser.add_argument("--every", type=int, default=7, help="take every N-th decision")
    args = parser.parse_args(argv)
    out: dict[str, Any] = {"load_1min_before": round(os.getloadavg()[0], 2)}
    out.update(measure(args.game, args.positions, args.cores, args.start, args.every))
    out["load_1min_after"] = round(os.getloadavg()[0], 2)
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
