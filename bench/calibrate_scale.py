"""Calibrate Kingdom Builder's win-chance scale on self-play games' results (issue 23).

The hard level turns a position's margin (its value minus the strongest rival's, by the fitted
evaluation) into a win chance ``logistic(margin / scale)``.  This replays the committed
self-play games (those :mod:`bench.fit_kingdom_builder` fits on), takes every ``--every``-th
position, and for each of ``--stages`` stages of the game (how far the fastest builder is
through its 40 settlements, :func:`~game.kingdom_builder.evaluation.stage_of`) finds the scale
with the lowest log loss of who really won (a shared win counts ``1/k``), base game and full
Nomads apart.  ``HARD_REWARD_SCALE`` (``SCALE_LATE`` in ``game/kingdom_builder/hard_level.py``)
follows the result::

    python -m bench.calibrate_scale --stages 16

prints one row per variant and stage: positions x seats, the best scale among ``SCALES``, its
mean log loss and the log loss of the scale the hard level uses there today.  Counts, not
clocks: the output is the same on any machine.

``--forms`` compares the two forms of the win chance
(:func:`game.bots.knowledge.win_chances`, ``margin`` and ``softmax``) on the same positions:
per variant and stage, each form's mean log loss per seat at its best scale, and the mean over
the stages weighted by their positions.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from pathlib import Path

from bench.fit_kingdom_builder import replay_of
from bench.fitting import read_games
from game.bots.knowledge import WIN_CHANCE_FORMS, knowledge_for, relative_value, win_chances
from game.kingdom_builder import GAME
from game.kingdom_builder.evaluation import stage_of

DATA = (
    Path("bench/data/kb-selfplay.jsonl.gz"),
    Path("bench/data/kb-selfplay-fitted.jsonl.gz"),
)
SCALES = (1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 6.0, 7.0, 8.0, 10.0, 12.0, 15.0, 20.0)

Row = tuple[int, float, float, bool, float]  # stage, margin, won share, full Nomads, scale used


def rows(paths: Sequence[Path], every: int, stages: int) -> list[Row]:
    """One row per seat of every ``every``-th position of every game."""
    knowledge = knowledge_for(GAME.id).for_hard()
    out: list[Row] = []
    for path in paths:
        for game in read_games(path):
            replay = replay_of(game)
            totals = game["totals"]
            best = max(totals)
            won = [1.0 / totals.count(best) if t == best else 0.0 for t in totals]
            nomads = game.get("options", {}).get("nomads") == "full"
            for i, state in enumerate(replay.states()):
                if state.is_over():
                    break
                if i % every:
                    continue
                values = knowledge.evaluate_all(state)
                stage = stage_of(state, stages)  # type: ignore[arg-type]
                used = knowledge.scale_for(state)
                for seat in range(len(values)):
                    out.append((stage, relative_value(values, seat), won[seat], nomads, used))
    return out


Position = tuple[int, bool, list[float], list[float]]  # stage, full Nomads, values, won shares


def positions(paths: Sequence[Path], every: int, stages: int) -> list[Position]:
    """Every seat's value at every ``every``-th position of every game, with who won."""
    knowledge = knowledge_for(GAME.id).for_hard()
    out: list[Position] = []
    for path in paths:
        for game in read_games(path):
            totals = game["totals"]
            best = max(totals)
            won = [1.0 / totals.count(best) if t == best else 0.0 for t in totals]
            nomads = game.get("options", {}).get("nomads") == "full"
            for i, state in enumerate(replay_of(game).states()):
                if state.is_over():
                    break
                if i % every == 0:
                    stage = stage_of(state, stages)  # type: ignore[arg-type]
                    out.append((stage, nomads, knowledge.evaluate_all(state), won))
    return out


def binary_loss(p: float, won: float) -> float:
    """The log loss of a win chance ``p`` for a seat that won ``won`` (a share of a win)."""
    p = min(max(p, 1e-6), 1.0 - 1e-6)
    return -(won * math.log(p) + (1.0 - won) * math.log(1.0 - p))


def form_loss(sample: Sequence[Position], form: str, scale: float) -> float:
    """Mean log loss per seat of ``win_chances(values, scale, form)`` against who won."""
    total = 0.0
    seats = 0
    for _stage, _nomads, values, won in sample:
        for p, w in zip(win_chances(values, scale, form), won, strict=True):
            total += binary_loss(p, w)
            seats += 1
    return total / seats


def compare_forms(data: Sequence[Position], stages: int) -> None:
    """Print each form's best log loss per variant and stage, then the weighted means."""
    print("variant stage positions " + " ".join(f"{f}_loss@scale" for f in WIN_CHANCE_FORMS))
    for nomads in (False, True):
        name = "nomads" if nomads else "base"
        sums = dict.fromkeys(WIN_CHANCE_FORMS, 0.0)
        count = 0
        for stage in range(stages):
            sample = [p for p in data if p[0] == stage and p[1] == nomads]
            if len(sample) < 20:
                continue
            cells = []
            for form in WIN_CHANCE_FORMS:
                loss, scale = min((form_loss(sample, form, s), s) for s in SCALES)
                sums[form] += loss * len(sample)
                cells.append(f"{loss:.4f}@{scale:g}")
            count += len(sample)
            print(f"{name} {stage} {len(sample)} " + " ".join(cells))
        means = " ".join(f"{f} {sums[f] / max(count, 1):.4f}" for f in WIN_CHANCE_FORMS)
        print(f"{name} weighted mean: {means}")


def log_loss(sample: Sequence[Row], scale: float | None) -> float:
    """Mean log loss of ``logistic(margin / scale)`` (``None``: the scale each row used)."""
    total = 0.0
    for _stage, margin, won, _nomads, used in sample:
        x = max(-30.0, min(30.0, margin / (scale or used)))
        total += binary_loss(1.0 / (1.0 + math.exp(-x)), won)
    return total / len(sample)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, nargs="*", default=list(DATA))
    parser.add_argument("--every", type=int, default=5)
    parser.add_argument("--stages", type=int, default=16)
    parser.add_argument("--forms", action="store_true", help="compare the win-chance forms")
    args = parser.parse_args(argv)
    if args.forms:
        compare_forms(positions(args.data, args.every, args.stages), args.stages)
        return 0
    data = rows(args.data, args.every, args.stages)
    print("variant stage rows best_scale log_loss_best log_loss_now")
    for nomads in (False, True):
        for stage in range(args.stages):
            sample = [r for r in data if r[0] == stage and r[3] == nomads]
            if len(sample) < 50:
                continue
            loss, scale = min((log_loss(sample, s), s) for s in SCALES)
            name = "nomads" if nomads else "base"
            print(f"{name} {stage} {len(sample)} {scale:g} {loss:.4f} {log_loss(sample, None):.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
