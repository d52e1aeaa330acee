"""Fit the hard level's Kingdom Builder evaluation from self-play games (issue 23).

The evaluation (``game/kingdom_builder/evaluation.py``) sums, per seat, the score it would have
if the game ended now, its location and nomad tiles (worth points per turn left) and half of
next turn's expected gain (``potential``).  That sum says nothing of the turns after the next:
a seat with more open hexes around it, or a better spread of them, keeps scoring more for the
rest of the game.  This script measures how well each of the evaluation's features predicts the
final scores of real games and fits one multiplier per feature and game stage, which the hard
level uses (``FITTED`` in ``game/kingdom_builder/fitted.py``); greedy and normal keep the plain
sum.

Two steps, each writing a file that is committed, so the weights can be refitted after a rules
or evaluation change (and a third that measures the fit)::

    python -m bench.fit_kingdom_builder generate --games 142 --out bench/data/kb-selfplay.jsonl.gz
    python -m bench.fit_kingdom_builder generate --judge fitted --start 10000 --games 200 \\
        --out bench/data/kb-selfplay-fitted.jsonl.gz
    python -m bench.fit_kingdom_builder fit --data bench/data/kb-selfplay.jsonl.gz \\
        bench/data/kb-selfplay-fitted.jsonl.gz --out game/kingdom_builder/fitted.py
    python -m bench.fit_kingdom_builder duel --games 40 --start 1000 [--options '{"nomads": "full"}']

``generate`` plays 4-player games with seeds ``start..start+games-1``: three greedy bots and a
fourth seat that is greedy or (every other game) easy, for a spread of positions; games
``4k+2`` and ``4k+3`` use the full Nomads expansion (the hard level plays both).  Every bot is
bounded by its count of evaluations (no clock: the same seed gives the same game).  Each line
of the output is one game as a replay: seed, options, bots, every action and the final totals.
After a rules change the games must be generated again (old replays no longer replay).

``fit`` replays every game, and at every ``--every``-th position where a seat is about to act
computes every seat's features (``Evaluator.features``).  Within one position the seats' final
scores minus their mean are regressed on their features minus the features' means (only
differences between seats decide a game), by ridge regression pulled towards the plain sum's
weights (1 for score and tiles, the evaluation's ``potential`` weight, 0 for the features it
does not use), separately for each stage — how far the fastest builder is through its
settlements, in ``--stages`` equal bins.  Games are split in two halves by seed: the fit on one
half is scored on the other (the mean squared error of the predicted score differences, against
the plain sum's), then the final fit uses every game.  The output is a Python module with the
multipliers.  ``fit --drop NAME`` keeps a feature the plain sum does not use at 0 (``--drop
supply``: ``bench/kb_tile_use.py`` shows what the hard level's search does with that one);
``fit --turn-starts --every 1`` samples only the positions where a seat begins its turn, where
the hard level's playouts end (played, it won as many games as the committed fit: docs/bots.md).
``fit --tested-seat`` reads games of ``python -m bench.bots --replays`` (the hard level against
three greedy bots: positions such as the level meets and the play that follows them) and gives
the seat each line names as tested a column of its own, not pulled towards 0 and not written:
it takes up what the tested bot's own play adds whatever the position, which would otherwise be
credited to the features its positions happen to have.
"""

from __future__ import annotations

import argparse
import json
import textwrap
from collections.abc import Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from bench.fitting import Sample, fit_stages, fitted_module, generate, read_games, self_play_bots
from game.bots import EASY_TEMPERATURE, GreedyBot
from game.bots.knowledge import knowledge_for
from game.core.match import Replay, play_match
from game.core.rng import derive_seed
from game.kingdom_builder import GAME
from game.kingdom_builder.evaluation import DEFAULT_WEIGHTS, FEATURES, Evaluator, stage_of
from game.kingdom_builder.state import KingdomBuilderState

PLAYERS = 4
DATA = Path("bench/data/kb-selfplay.jsonl.gz")
#: The plain sum's weight of each feature (``Evaluator.evaluate_all``).
PRIOR: tuple[float, ...] = (1.0, 1.0, 1.0, DEFAULT_WEIGHTS.potential, 0.0, 0.0, 0.0, 0.0, 0.0)


def options_of(index: int) -> dict[str, Any]:
    """Base game for games ``4k`` and ``4k+1``, full Nomads for ``4k+2`` and ``4k+3``."""
    return {"nomads": "full"} if index % 4 >= 2 else {}


def play_game(index: int, judge: str = "plain", only: str | None = None) -> dict[str, Any]:
    """One self-play game as a replay line: the game of :func:`options_of` the index, or with
    ``only`` ``"base"`` / ``"full-nomads"`` that game whatever the index."""
    # judge "fitted": every bot judges with the hard level's fitted evaluation (the fit's
    # second round: positions such as the hard level reaches)
    knowledge = knowledge_for(GAME.id).for_hard() if judge == "fitted" else None
    bots, names = self_play_bots(index, PLAYERS, "kb-fit", EASY_TEMPERATURE, knowledge)
    agents = [lambda st, s, b=b: b.choose(st, s) for b in bots]
    options: dict[str, Any] = options_of(index)
    if only is not None:
        options = {"nomads": "full"} if only == "full-nomads" else {}
    result = play_match(GAME.id, PLAYERS, index, agents, options=options)
    return {
        "seed": index,
        "players": PLAYERS,
        "options": options,
        "rules_version": GAME.rules_version,
        "bots": names,
        "judge": judge,
        "actions": [[seat, list(action)] for seat, action in result.replay.actions],
        "totals": [row["total"] for row in result.scores],
    }


def replay_of(game: dict[str, Any]) -> Replay:
    """The replay of one self-play game as :func:`generate` wrote it."""
    return Replay(
        game=GAME.id,
        players=game["players"],
        seed=game["seed"],
        options=game.get("options", {}),
        rules_version=game["rules_version"],
        actions=[(seat, tuple(a)) for seat, a in game["actions"]],
    )


def positions(
    game: dict[str, Any], every: int, turn_starts: bool = False
) -> Iterator[KingdomBuilderState]:
    """Every ``every``-th position of a replayed game where a seat is to act (the finished game
    excluded), the first included — or, with ``turn_starts``, every ``every``-th position where a
    seat is about to begin its turn (where the hard level's playouts end: every seat has then
    played whole turns)."""
    turn = None
    count = 0
    for state in replay_of(game).states():
        st: KingdomBuilderState = state  # type: ignore[assignment]
        if st.over:
            break
        if turn_starts:
            if st.turn_id() == turn:
                continue
            turn = st.turn_id()
        count += 1
        if (count - 1) % every == 0:
            yield st


def samples(
    game: dict[str, Any],
    every: int,
    stages: int,
    evaluator: Evaluator,
    turn_starts: bool = False,
) -> Iterator[Sample]:
    """``(seed, stage, features per seat, final totals)`` at the :func:`positions` of a
    replayed game."""
    totals = [float(t) for t in game["totals"]]
    for st in positions(game, every, turn_starts):
        yield game["seed"], stage_of(st, stages), evaluator.features(st), totals


def read_samples(
    paths: Sequence[Path],
    every: int,
    stages: int,
    keep: Sequence[bool],
    turn_starts: bool,
    tested_seat: bool,
    nomads_only: bool = False,
) -> tuple[list[Sample], list[Sample], int, int]:
    """The samples of every game of ``paths`` (with ``nomads_only``, of its full-Nomads games
    alone: the others are not replayed) and of its full-Nomads games, and the two counts of
    games; a feature whose ``keep`` is false is zeroed, and with ``tested_seat`` each seat gets
    a last term, 1 for the seat the game's line names as ``seat`` (:func:`fit`)."""
    evaluator = Evaluator()
    data: list[Sample] = []
    nomads: list[Sample] = []
    games = nomads_games = 0
    for path in paths:
        for g in read_games(path):
            is_nomads = g.get("options", {}).get("nomads") == "full"
            if nomads_only and not is_nomads:
                continue
            games += 1
            nomads_games += is_nomads
            tested = g.get("seat") if tested_seat else None
            extra = [
                (1.0 if seat == tested else 0.0,) if tested_seat else () for seat in range(PLAYERS)
            ]
            rows = [
                (
                    seed,
                    stage,
                    [
                        tuple(v if k else 0.0 for v, k in zip(f, keep, strict=True)) + extra[seat]
                        for seat, f in enumerate(feats)
                    ],
                    t,
                )
                for seed, stage, feats, t in samples(g, every, stages, evaluator, turn_starts)
            ]
            data.extend(rows)
            if is_nomads:
                nomads.extend(rows)
    return data, nomads, games, nomads_games


def fit(
    data_paths: Sequence[Path],
    out: Path | None,
    every: int,
    stages: int,
    penalty: float,
    drop: Sequence[str] = (),
    turn_starts: bool = False,
    tested_seat: bool = False,
    nomads_paths: Sequence[Path] = (),
) -> tuple[list[list[float]], list[list[float]]]:
    """Fit ``FITTED`` on every game (base and Nomads) and ``FITTED_NOMADS`` on the games with
    the full Nomads expansion alone — those of ``nomads_paths`` if given, else of the same
    files; write them to ``out`` if given.  The features named in ``drop`` get the multiplier 0
    (their column is zeroed, so the ridge keeps its prior); ``turn_starts`` samples turn starts
    only (:func:`samples`).  ``tested_seat`` adds a column that is 1 for the seat a game's line
    names as ``seat`` (the tested bot of a ``python -m bench.bots --replays`` game; 0 everywhere
    in self-play games): it takes up what that bot's own play adds to its score whatever the
    position, so the features are not credited with it, and it is left out of the multipliers
    written."""
    unknown = set(drop) - set(FEATURES)
    if unknown:
        raise SystemExit(f"unknown features to drop: {sorted(unknown)}")
    if any(PRIOR[FEATURES.index(name)] for name in drop):
        raise SystemExit("only a feature the plain sum does not use can be dropped")
    keep = [name not in drop for name in FEATURES]
    data, nomads, games, nomads_games = read_samples(
        data_paths, every, stages, keep, turn_starts, tested_seat
    )
    if nomads_paths:
        _, nomads, _, nomads_games = read_samples(
            nomads_paths, every, stages, keep, turn_starts, tested_seat, nomads_only=True
        )
    names, prior, free = FEATURES, PRIOR, 0
    if tested_seat:  # the tested seat's column is not pulled towards 0: it takes the whole edge
        names, prior, free = (*FEATURES, "tested"), (*PRIOR, 0.0), 1
    print("== every game (FITTED: the base game)")
    fitted = fit_stages(data, stages, penalty, names, prior, PLAYERS, free)
    print("== the games with the full Nomads expansion (FITTED_NOMADS)")
    fitted_nomads = fit_stages(nomads, stages, penalty, names, prior, PLAYERS, free)
    if tested_seat:
        fitted = [row[: len(FEATURES)] for row in fitted]
        fitted_nomads = [row[: len(FEATURES)] for row in fitted_nomads]
    if out is not None:
        counts = (games, len(data), nomads_games)
        write_module(
            out,
            fitted,
            fitted_nomads,
            counts,
            every,
            penalty,
            data_paths,
            turn_starts,
            tested_seat,
            nomads_paths,
        )
    return fitted, fitted_nomads


def write_module(
    out: Path,
    fitted: list[list[float]],
    fitted_nomads: list[list[float]],
    counts: tuple[int, int, int],
    every: int,
    penalty: float,
    data_paths: Sequence[Path],
    turn_starts: bool = False,
    tested_seat: bool = False,
    nomads_paths: Sequence[Path] = (),
) -> None:
    """Write the module of multipliers; ``counts`` is (games, positions, Nomads games)."""
    games, positions, nomads = counts
    where = "turn starts" if turn_starts else "positions"
    tested = (
        "; a column for each game's tested seat, fitted and left out: ``--tested-seat``"
        if tested_seat
        else ""
    )
    files = " and ".join(f"``{p.as_posix()}``" for p in data_paths)
    nomads_files = " and ".join(f"``{p.as_posix()}``" for p in nomads_paths)
    nomads_from = f" of {nomads_files}" if nomads_paths else ""
    about = textwrap.fill(
        f"Written by ``python -m bench.fit_kingdom_builder fit`` (do not edit by hand) from "
        f"{games} games in {files} ({positions} {where}, one in {every}; ridge "
        f"penalty {penalty} towards the plain sum{tested}).  ``FITTED[stage][i]`` multiplies feature "
        f"``FEATURES[i]`` of :mod:`game.kingdom_builder.evaluation` at stage ``stage`` (how far "
        f"the fastest builder is through its settlements, in ``len(FITTED)`` equal bins) in the "
        f"base game (fitted on every game); ``FITTED_NOMADS`` the same with the full Nomads "
        f"expansion (fitted on its {nomads} games{nomads_from} alone).",
        width=96,
        break_on_hyphens=False,
        break_long_words=False,
    )
    doc = "The hard level's multipliers of the Kingdom Builder evaluation's features, per stage."
    more = {"FITTED_NOMADS": ("The same with the full Nomads expansion.", fitted_nomads)}
    text = fitted_module(f"{doc}\n\n{about}", "FEATURES", FEATURES, fitted, more)
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out}")


def duel(start: int, games: int, options: dict[str, Any]) -> float:
    """Games ``start..start+games-1``: a greedy bot judging with the hard level's fitted
    evaluation (``game/kingdom_builder/fitted.py``) in seat ``index % 4`` against three greedy
    bots with the plain one (the same planner, its evaluation count, no clock: the same seeds
    give the same games); prints each game and returns the tested seat's share of the wins
    (chance: 25%)."""
    hard = knowledge_for(GAME.id).for_hard()
    wins = 0.0
    for n, index in enumerate(range(start, start + games), 1):
        tested = index % PLAYERS
        bots = [
            GreedyBot(
                derive_seed(index, "kb-duel", seat),
                cpu_budget=None,
                safety_net=False,
                knowledge=hard if seat == tested else None,
            )
            for seat in range(PLAYERS)
        ]
        agents = [lambda st, s, b=b: b.choose(st, s) for b in bots]
        result = play_match(GAME.id, PLAYERS, index, agents, options=options)
        share = 1.0 / len(result.winners) if tested in result.winners else 0.0
        wins += share
        totals = [row["total"] for row in result.scores]
        print(f"game {index} seat {tested}: {share:.2f} {totals}  {wins:.1f}/{n}", flush=True)
    print(f"fitted greedy vs 3 greedy: {wins:.1f}/{games} = {wins / games:.1%}")
    return wins / games


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="play self-play games and write them as replays")
    gen.add_argument("--games", type=int, default=400)
    gen.add_argument("--start", type=int, default=0)
    gen.add_argument("--workers", type=int, default=1)
    gen.add_argument("--out", type=Path, default=DATA)
    gen.add_argument(
        "--judge",
        choices=("plain", "fitted"),
        default="plain",
        help="the bots' evaluation: the plain sum, or the hard level's fitted one",
    )
    gen.add_argument(
        "--only",
        choices=("base", "full-nomads"),
        help="every game the base game, or with the full Nomads expansion (else half each)",
    )
    fitp = sub.add_parser("fit", help="fit the feature multipliers from the games")
    fitp.add_argument("--data", type=Path, nargs="+", default=[DATA])
    fitp.add_argument("--out", type=Path, default=None)
    fitp.add_argument("--every", type=int, default=2)
    fitp.add_argument("--stages", type=int, default=4)
    fitp.add_argument("--penalty", type=float, default=0.05)
    fitp.add_argument(
        "--turn-starts",
        action="store_true",
        help="sample only positions where a seat begins its turn (where playouts end)",
    )
    fitp.add_argument(
        "--drop",
        nargs="*",
        default=[],
        choices=FEATURES,
        help="features whose multiplier stays 0 (e.g. supply: a search exploits it)",
    )
    fitp.add_argument(
        "--tested-seat",
        action="store_true",
        help="games of python -m bench.bots --replays: a column for the tested seat, not kept",
    )
    fitp.add_argument(
        "--nomads-data",
        type=Path,
        nargs="+",
        default=[],
        help="fit FITTED_NOMADS on the full-Nomads games of these files instead",
    )
    duelp = sub.add_parser("duel", help="greedy with the fitted evaluation vs 3 plain greedy")
    duelp.add_argument("--games", type=int, default=40)
    duelp.add_argument("--start", type=int, default=1000)
    duelp.add_argument("--options", type=json.loads, default={}, help="game options (JSON)")
    args = parser.parse_args(argv)
    if args.command == "duel":
        duel(args.start, args.games, args.options)
    elif args.command == "generate":
        generate(
            partial(play_game, judge=args.judge, only=args.only),
            args.games,
            args.start,
            args.out,
            args.workers,
        )
    else:
        fit(
            args.data,
            args.out,
            args.every,
            args.stages,
            args.penalty,
            args.drop,
            args.turn_starts,
            args.tested_seat,
            args.nomads_data,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
