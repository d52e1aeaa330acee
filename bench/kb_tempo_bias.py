"""Is a seat that has moved this round judged a turn ahead? (issue 23)

Kingdom Builder's round is always finished (KB §8), so every seat plays as many turns; in the
middle of a round the seats that have played are a turn ahead *for now*.  The hard level's
fitted evaluation (``game/kingdom_builder/hard_level.py``) predicts each seat's final score
difference from its features.  This fits it twice on the committed self-play games — without
the ``moved`` feature (``fit --drop moved``: what the level judged with before) and with it —
and reports, at every ``--every``-th turn start, the mean error of each fit's prediction
(final score difference minus predicted difference, in points) for the seats that have moved
this round and for the others, per stage.  A fit that knew nothing of tempo over-predicts the
seats that have moved.  (Fitted on every game and scored on the same games: the question is a
bias, not a held-out error — ``fit`` prints those.)  Counts only::

    python -m bench.kb_tempo_bias
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from bench.fit_kingdom_builder import fit, positions
from bench.fitting import read_games
from game.kingdom_builder.evaluation import DEFAULT, FittedEvaluator, stage_of
from game.kingdom_builder.odds import moved_this_round

DATA = (
    Path("bench/data/kb-selfplay.jsonl.gz"),
    Path("bench/data/kb-selfplay-fitted.jsonl.gz"),
)
STAGES = 4


def biases(
    judges: dict[str, FittedEvaluator], paths: Sequence[Path], every: int
) -> dict[tuple[str, int, bool], list[float]]:
    """Per judge, stage and moved-or-not: the errors (actual minus predicted final score
    difference from the seats' mean) at every ``every``-th turn start of the games."""
    errors: dict[tuple[str, int, bool], list[float]] = defaultdict(list)
    for path in paths:
        for game in read_games(path):
            totals = [float(t) for t in game["totals"]]
            mean = sum(totals) / len(totals)
            for st in positions(game, every, turn_starts=True):
                moved = moved_this_round(st)
                stage = stage_of(st, STAGES)
                for name, judge in judges.items():
                    pred = judge.evaluate_all(st)
                    centre = sum(pred) / len(pred)
                    for s in range(st.n):
                        error = (totals[s] - mean) - (pred[s] - centre)
                        errors[(name, stage, s in moved)].append(error)
    return errors


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--every",
        type=int,
        default=1,
        help="every n-th turn start (not a multiple of the players: every seat in turn)",
    )
    args = parser.parse_args(argv)
    judges = {}
    for name, drop in (("without moved", ["moved"]), ("with moved", [])):
        print(f"-- fitting {name}")
        table, table_nomads = fit(DATA, None, 2, STAGES, 0.05, drop)
        judges[name] = FittedEvaluator(DEFAULT, table, table_nomads)
    errors = biases(judges, DATA, args.every)
    print("== mean error (points) of the predicted final score difference, all games")
    print("judge            stage  moved (n, mean)      not moved (n, mean)")
    for name in judges:
        for stage in range(STAGES):
            a = errors[(name, stage, True)]
            b = errors[(name, stage, False)]
            print(
                f"{name:<16} {stage:>5}  {len(a):>6} {sum(a) / max(1, len(a)):+6.2f}"
                f"       {len(b):>6} {sum(b) / max(1, len(b)):+6.2f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
