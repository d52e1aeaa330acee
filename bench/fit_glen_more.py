"""Fit the hard level's Glen More evaluation from self-play games (issue 23).

The evaluation (``game/glen_more/evaluation.py``) is a sum of named terms, each an estimate in
VP of part of a seat's final score.  This script measures how well each term predicts the final
scores of real games and fits one multiplier per term and game stage, which the hard level uses
(``FITTED`` in ``game/glen_more/fitted.py``); greedy and normal keep the plain sum.

Two steps, each writing a file that is committed, so the weights can be refitted after a rules
or evaluation change::

    python -m bench.fit_glen_more generate --games 300 --out bench/data/gm-selfplay.jsonl.gz
    python -m bench.fit_glen_more fit --data bench/data/gm-selfplay.jsonl.gz \\
        --out game/glen_more/fitted.py

``generate`` plays 4-player games with seeds ``start..start+games-1``: three greedy bots and a
fourth seat that is greedy or (every other game) easy, for a spread of positions, all with
evaluation budgets only (no clock: the same seed gives the same game).  Each line of the output
is one game as a replay: seed, options, bots, every action and the final totals.  After a rules
change the games must be generated again (old replays no longer replay).

``fit`` replays every game, and at every position where a seat is about to act (a sample of one
in ``--every``) computes every seat's terms (``Evaluator.terms``).  Within one position the
seats' final scores minus their mean are regressed on their terms minus the terms' means (only
differences between seats decide a game), by ridge regression pulled towards 1 (the plain sum),
separately for each stage — the share of the stacks' tiles already drawn, in ``--stages``
equal bins.  Games are split in two halves by seed: the fit on one half is scored on the other
(the mean squared error of the predicted score differences, against the plain sum's), then the
final fit uses every game.  The output is a Python module with the multipliers.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from bench.fitting import (
    fit_stages,
    fitted_module,
    generate,
    read_games,
    self_play_bots,
)
from game.core.match import Replay, play_match
from game.glen_more import GAME
from game.glen_more.evaluation import EASY_TEMPERATURE, TERMS, Evaluator, stage_of
from game.glen_more.state import GlenMoreState

PLAYERS = 4


# ---- generate -------------------------------------------------------------------------------


def play_game(index: int) -> dict[str, Any]:
    """One self-play game as a replay line."""
    bots, names = self_play_bots(index, PLAYERS, "gm-fit", EASY_TEMPERATURE)
    agents = [lambda st, s, b=b: b.choose(st, s) for b in bots]
    result = play_match(GAME.id, PLAYERS, index, agents)
    return {
        "seed": index,
        "players": PLAYERS,
        "rules_version": GAME.rules_version,
        "bots": names,
        "actions": [[seat, list(action)] for seat, action in result.replay.actions],
        "totals": [row["total"] for row in result.scores],
    }


# ---- fit ------------------------------------------------------------------------------------


def samples(
    game: dict[str, Any], every: int, stages: int, evaluator: Evaluator
) -> Iterator[tuple[int, int, list[tuple[float, ...]], list[float]]]:
    """``(seed, stage, terms per seat, final totals)`` at every ``every``-th position of a
    replayed game (positions where a seat is to act, the finished game excluded)."""
    replay = Replay(
        game=GAME.id,
        players=game["players"],
        seed=game["seed"],
        rules_version=game["rules_version"],
        actions=[(seat, tuple(a)) for seat, a in game["actions"]],
    )
    totals = [float(t) for t in game["totals"]]
    for i, state in enumerate(replay.states()):
        st: GlenMoreState = state  # type: ignore[assignment]
        if st.over:
            break
        if i % every:
            continue
        yield game["seed"], stage_of(st, stages), evaluator.terms(st), totals


def fit(
    data_path: Path, out: Path | None, every: int, stages: int, penalty: float
) -> list[list[float]]:
    evaluator = Evaluator()
    data = [s for g in read_games(data_path) for s in samples(g, every, stages, evaluator)]
    ones = [1.0] * len(TERMS)
    fitted = fit_stages(data, stages, penalty, TERMS, ones, PLAYERS)
    if out is not None:
        games = len({s[0] for s in data})
        write_module(out, fitted, games, len(data), every, penalty, data_path)
    return fitted


def write_module(
    out: Path,
    fitted: list[list[float]],
    games: int,
    positions: int,
    every: int,
    penalty: float,
    data_path: Path,
) -> None:
    doc = f"""The hard level's multipliers of the Glen More evaluation's terms, per game stage.

Written by ``python -m bench.fit_glen_more fit`` (do not edit by hand) from {games} self-play
games in ``{data_path.as_posix()}`` ({positions} positions, one in {every}; ridge penalty
{penalty} towards 1).  ``FITTED[stage][i]`` multiplies term ``TERMS[i]`` of
:mod:`game.glen_more.evaluation` at stage ``stage`` (the share of the stacks' tiles drawn, in
``len(FITTED)`` equal bins)."""
    text = fitted_module(doc, "TERMS", TERMS, fitted)
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="play self-play games and write them as replays")
    gen.add_argument("--games", type=int, default=300)
    gen.add_argument("--start", type=int, default=0)
    gen.add_argument("--workers", type=int, default=1)
    gen.add_argument("--out", type=Path, default=Path("bench/data/gm-selfplay.jsonl.gz"))
    fitp = sub.add_parser("fit", help="fit the term multipliers from the games")
    fitp.add_argument("--data", type=Path, default=Path("bench/data/gm-selfplay.jsonl.gz"))
    fitp.add_argument("--out", type=Path, default=None)
    fitp.add_argument("--every", type=int, default=3)
    fitp.add_argument("--stages", type=int, default=4)
    fitp.add_argument("--penalty", type=float, default=0.05)
    args = parser.parse_args(argv)
    if args.command == "generate":
        generate(play_game, args.games, args.start, args.out, args.workers)
    else:
        fit(args.data, args.out, args.every, args.stages, args.penalty)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
