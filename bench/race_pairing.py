"""How closely the hard level's race pairs two candidate turns on its common worlds.

The race (:meth:`game.bots.mcts.MctsBot._race`) plays every surviving turn in the same sampled
world, so the difference between two turns' rewards is less noisy than either reward
(common random numbers).  This measures by how much: at every ``--every``-th turn start of the
first ``--games`` games of a replay file, the hard level's planner proposes its candidate turns
(the first ``--candidates``), each is played out in the same ``--worlds`` worlds
(:meth:`~game.bots.mcts.MctsBot.race_playout`, the race's own playout), and for every pair of
turns ``var(a - b) / (var(a) + var(b))`` is computed: 1 for independent worlds, 0 for a perfect
pairing.  Fewer playouts decide a comparison in proportion.  Counts only (no clock), so the
figures do not depend on the machine::

    python -m bench.race_pairing --games 2 --every 6 --worlds 24
    python -m bench.race_pairing --games 2 --every 6 --worlds 24 --search '{"work": 9000}'

``--search`` (JSON) replaces search parameters as ``bench.bots --search`` does.  Prints the
pairs, the mean variance of one turn's reward and of a difference, their ratio (of the means)
and the median of the pairs' ratios.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
from pathlib import Path

from bench.bots import bench_bot
from bench.decision_cpu import DEFAULT_REPLAYS, read_games, turn_starts
from game.bots.mcts import MctsBot


def pairing(
    replays: Path,
    games: int,
    every: int,
    worlds: int,
    candidates: int = 4,
    search: dict[str, object] | None = None,
) -> dict[str, float]:
    """The pairing figures (see the module docstring): ``pairs``, ``var_single`` (the mean
    variance of a turn's reward), ``var_diff`` (of a difference), ``ratio`` (``var_diff /
    (2 var_single)``) and ``median_ratio``."""
    ratios: list[float] = []
    singles: list[float] = []
    diffs: list[float] = []
    for game in read_games(replays, games):
        for i, state in enumerate(turn_starts(game, every)):
            seat = state.to_move()[0]
            bot = bench_bot("hard", 1000 + i, None, None, search)
            assert isinstance(bot, MctsBot)
            knowledge = bot._knowledge(state)
            horizon = bot._horizon(state, knowledge)
            plans = bot.candidate_turns(state, seat)[:candidates]
            if len(plans) < 2:
                continue
            rewards = [
                [
                    bot.race_playout(state, seat, plan, 77 + 1_000_003 * k, knowledge, horizon)[0]
                    for k in range(worlds)
                ]
                for plan in plans
            ]
            for a, b in itertools.combinations(rewards, 2):
                va, vb = statistics.pvariance(a), statistics.pvariance(b)
                if va + vb <= 1e-12:
                    continue
                vd = statistics.pvariance([x - y for x, y in zip(a, b, strict=True)])
                ratios.append(vd / (va + vb))
                singles.append((va + vb) / 2)
                diffs.append(vd)
    if not ratios:
        return {"pairs": 0.0}
    return {
        "pairs": float(len(ratios)),
        "var_single": statistics.mean(singles),
        "var_diff": statistics.mean(diffs),
        "ratio": statistics.mean(diffs) / (2 * statistics.mean(singles)),
        "median_ratio": statistics.median(ratios),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replays", type=Path, default=DEFAULT_REPLAYS)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--every", type=int, default=6)
    parser.add_argument("--worlds", type=int, default=24)
    parser.add_argument("--candidates", type=int, default=4)
    parser.add_argument("--search", default=None, help="search parameters (JSON)")
    args = parser.parse_args(argv)
    search = json.loads(args.search) if args.search else None
    out = pairing(args.replays, args.games, args.every, args.worlds, args.candidates, search)
    print(
        f"pairs {out['pairs']:.0f}  var(one turn) {out.get('var_single', 0):.4f}  "
        f"var(difference) {out.get('var_diff', 0):.4f}  ratio {out.get('ratio', 0):.3f}  "
        f"median ratio {out.get('median_ratio', 0):.3f}"
    )


if __name__ == "__main__":
    main()
