"""Fit the hard level's Keyflower evaluation from self-play games (issue 23).

The evaluation (``game/keyflower/evaluation.py``) is a sum of named terms
(:func:`~game.keyflower.evaluation.explain_terms`: printed VP, actions, upgrades, keyples,
winter tiles, ...), each weighted 1 by hand.  This script measures how much each term is really
worth — how many final points one point of the term predicts — and writes the multipliers that
the hard level's evaluation applies (``game/keyflower/fitted.py``).

Two steps, so the weights can be refitted after a rules or evaluation change::

    python -m bench.fit_keyflower generate --games 160 --workers 2   # self-play -> CSV
    python -m bench.fit_keyflower fit                                  # CSV -> fitted.py
    python -m bench.fit_keyflower duel --games 40                      # the check

``generate`` plays 4-player games of four *easy-like* greedy bots (the turn planner with a
beam of 3, ``--evals`` evaluations per turn, and a temperature of 2 VP, so the games are
varied but sensible; no wall clock: a seed gives the same game), and at about one turn start in
twelve during the seasons' turns records, for every seat, the season, the passes so far and
every term of its value, then at the end each seat's final score.  Rows go to
``bench/data/keyflower_selfplay.csv.gz`` (one per seat and position; a name ending in ``.gz``
is written and read gzipped).

``fit`` solves, for each season, a ridge-regularised least-squares fit of each seat's final
*margin* (its final score less the mean of the other three) on the same margins of its terms:
``margin ~ sum(w_term * term margin)`` — the game's general level of points cancels out, and
what is fitted is what tells a better position from a worse one, which is all a bot's choices
compare.  The multipliers ``w_term`` are written.  Each multiplier is clamped to ``[0, 2.5]`` (a term never counts against a seat, nor
dominates on the strength of a few rows) and pulled towards 1 by the ridge (``--ridge``), so a
term that rarely occurs in the data stays near the hand-set weight.  The fit prints each
season's rows, the R² of the hand weights (all 1) and of the fitted ones on held-out games
(every fifth game) of the margin, so a refit shows whether it predicts better.

``duel`` checks that the fitted weights choose better: a greedy bot judging with them against
three greedy bots with the hand weights (same planner and budget), the tested seat rotated.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import multiprocessing
import sys
from pathlib import Path
from typing import IO, cast

from bench.fitting import solve
from game.bots.greedy import GreedyBot
from game.core.rng import Rng, derive_seed
from game.keyflower import GAME
from game.keyflower import evaluation as ev
from game.keyflower.const import PLAY
from game.keyflower.fitted import TERM_WEIGHTS as COMMITTED  # what a refit replaces

DATA = Path(__file__).resolve().parent / "data" / "keyflower_selfplay.csv.gz"
FITTED = Path(__file__).resolve().parents[1] / "game" / "keyflower" / "fitted.py"
SEASONS = ("spring", "summer", "autumn", "winter")
COLUMNS = ("game", "season", "passes", "seat", *ev.TERMS, "final")
#: A turn start is recorded with this chance (1 in 12: some 10 positions a game).
RECORD_ONE_IN = 12


def play_one(game: int, evals: int) -> list[list[float]]:
    """One self-play game; its recorded rows (see the module docstring)."""
    state = GAME.new(4, None, derive_seed(0x4B46, game))
    bots = [
        GreedyBot(
            derive_seed(game, seat),
            beam=3,
            temperature=2.0,
            max_evals=evals,
            cpu_budget=None,
            safety_net=False,
        )
        for seat in range(4)
    ]
    pick = Rng(derive_seed(game, 0x5EED))
    rows: list[list[float]] = []
    while not state.is_over():
        seat = state.to_move()[0]
        if (
            state.phase == PLAY
            and state.stage == 0
            and seat == state.cur
            and pick.randbelow(RECORD_ONE_IN) == 0
        ):
            for s in range(4):
                # each seat's value as that seat sees it (its own screen; others resampled)
                world = state.determinize(s, pick.next64())
                terms = ev.explain_terms(world, s)
                rows.append(
                    [game, state.season, state.passes, s, *(round(terms[t], 3) for t in ev.TERMS)]
                )
        state.apply(seat, bots[seat].choose(state.determinize(seat, pick.next64()), seat))
    finals = [row["total"] for row in state.scores()]
    for row in rows:
        row.append(finals[int(row[3])])
    return rows


def _work(args: tuple[int, int]) -> list[list[float]]:
    return play_one(*args)


def _open(path: Path, mode: str) -> IO[str]:
    """``path`` as text (``"r"``, ``"w"``, ``"a"``), gzipped when its name ends in ``.gz``."""
    if path.suffix == ".gz":
        return cast(IO[str], gzip.open(path, mode + "t", encoding="utf-8", newline=""))
    return path.open(mode, encoding="utf-8", newline="")


def generate(games: int, evals: int, workers: int, out: Path, start: int = 0) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    new = not out.exists() or start == 0
    with _open(out, "w" if new else "a") as f:
        writer = csv.writer(f)
        if new:
            writer.writerow(COLUMNS)
        jobs = [(g, evals) for g in range(start, start + games)]
        with multiprocessing.Pool(workers) as pool:
            for i, rows in enumerate(pool.imap(_work, jobs), 1):
                writer.writerows(rows)
                f.flush()
                print(f"game {jobs[i - 1][0]}: {len(rows)} rows", file=sys.stderr, flush=True)


# ---- the fit -------------------------------------------------------------------------------
def ridge(xs: list[list[float]], ys: list[float], lam: float, prior: list[float]) -> list[float]:
    """Least squares of ``ys`` on ``xs`` (the last column a constant) with an L2 pull of every
    coefficient but the constant towards ``prior``, scaled by each column's spread."""
    k = len(xs[0])
    ata = [[0.0] * k for _ in range(k)]
    aty = [0.0] * k
    for x, y in zip(xs, ys, strict=True):
        for i in range(k):
            xi = x[i]
            if not xi:
                continue
            aty[i] += xi * y
            row = ata[i]
            for j in range(k):
                row[j] += xi * x[j]
    for i in range(k - 1):
        # ``lam`` = 1: the pull weighs as much as the data on that column
        scale = lam * max(ata[i][i], 1e-6 * len(xs))
        ata[i][i] += scale
        aty[i] += scale * prior[i]
    return solve(ata, aty)


def r2(xs: list[list[float]], ys: list[float], w: list[float]) -> float:
    mean = sum(ys) / len(ys)
    tot = sum((y - mean) ** 2 for y in ys)
    res = sum(
        (y - sum(a * b for a, b in zip(x, w, strict=True))) ** 2
        for x, y in zip(xs, ys, strict=True)
    )
    return 1.0 - res / max(tot, 1e-9)


def _margins(
    rows: list[dict[str, str]], season: int
) -> tuple[list[tuple[int, list[float], float]]]:
    """Per recorded position of ``season``, per seat: (game, its terms less the mean of the
    other seats', its final score less theirs)."""
    # a position's four rows are written together, seats 0 to 3
    groups = [rows[i : i + 4] for i in range(0, len(rows) - 3, 4)]
    out: list[tuple[int, list[float], float]] = []
    for group in groups:
        if [r["seat"] for r in group] != ["0", "1", "2", "3"]:
            raise ValueError("the data's rows are not in fours (seats 0 to 3 of a position)")
        if int(group[0]["season"]) != season:
            continue
        terms = [[float(r[t]) for t in ev.TERMS] for r in group]
        finals = [float(r["final"]) for r in group]
        for i, r in enumerate(group):
            others = [j for j in range(4) if j != i]
            x = [terms[i][k] - sum(terms[j][k] for j in others) / 3 for k in range(len(ev.TERMS))]
            y = finals[i] - sum(finals[j] for j in others) / 3
            out.append((int(r["game"]), x, y))
    return (out,)


def fit(data: Path, lam: float, out: Path | None) -> dict[int, dict[str, float]]:
    """Per season: the margin of a seat's final score over the others' mean, fitted on the same
    margins of its terms (a whole game's level of points cancels out; what is left is what
    tells a better position from a worse one: what a bot's choices compare)."""
    with _open(data, "r") as f:
        rows = list(csv.DictReader(f))
    fitted: dict[int, dict[str, float]] = {}
    for season in range(4):
        (margins,) = _margins(rows, season)
        train = [(x, y) for g, x, y in margins if g % 5]
        test = [(x, y) for g, x, y in margins if not g % 5]
        if len(train) < 40:
            print(f"{SEASONS[season]}: {len(train)} rows, too few: weights left at 1")
            fitted[season] = dict.fromkeys(ev.TERMS, 1.0)
            continue
        prior = [1.0] * len(ev.TERMS)
        # no constant: margins are symmetric (a zero column keeps the solver's shape)
        w = ridge([[*x, 0.0] for x, _ in train], [y for _, y in train], lam, prior)
        clamped = [min(2.5, max(0.0, v)) for v in w[:-1]]
        xs = [x for x, _ in test]
        ys = [y for _, y in test]
        hand = r2(xs, ys, prior) if test else float("nan")
        new = r2(xs, ys, clamped) if test else float("nan")
        was = r2(xs, ys, [COMMITTED[season][t] for t in ev.TERMS]) if test else float("nan")
        print(
            f"{SEASONS[season]}: {len(train)} rows to fit, {len(test)} held out; "
            f"R² of the margin: hand weights {hand:.3f}, committed {was:.3f}, fitted {new:.3f}"
        )
        print("   " + ", ".join(f"{t} {v:.2f}" for t, v in zip(ev.TERMS, clamped, strict=True)))
        fitted[season] = {t: round(v, 3) for t, v in zip(ev.TERMS, clamped, strict=True)}
    if out is not None:
        out.write_text(_module_text(fitted, len(rows), lam, data.name), encoding="utf-8")
        print(f"written {out}")
    return fitted


def _module_text(fitted: dict[int, dict[str, float]], rows: int, lam: float, name: str) -> str:
    lines = [
        '"""Multipliers of the Keyflower evaluation\'s terms for the hard level, by season.',
        "",
        "Written by ``python -m bench.fit_keyflower fit`` (do not edit by hand): a ridge fit of",
        "each seat's final margin over the others on the margins of its terms, over",
        f"{rows} rows of ``bench/data/{name}`` (ridge {lam}); see",
        "``bench/fit_keyflower.py`` and ``docs/bots.md``.",
        '"""',
        "",
        "TERM_WEIGHTS: dict[int, dict[str, float]] = {",
    ]
    for season in range(4):
        lines.append(f"    {season}: {{  # {SEASONS[season]}")
        for t, v in fitted[season].items():
            lines.append(f'        "{t}": {v},')
        lines.append("    },")
    lines.append("}")
    return "\n".join(lines) + "\n"


# ---- the check -----------------------------------------------------------------------------
def duel_one(game: int, evals: int) -> float:
    """One 4-player game: a greedy bot judging with the hard level's evaluation in seat
    ``game % 4`` against three greedy bots with the hand weights (the same planner, ``evals``
    evaluations a turn, no clock); the tested seat's share of the win."""
    from game.bots.knowledge import knowledge_for

    known = knowledge_for("keyflower")
    state = GAME.new(4, None, derive_seed(0xD0E1, game))
    tested = game % 4
    bots = [
        GreedyBot(
            derive_seed(game, seat),
            max_evals=evals,
            cpu_budget=None,
            safety_net=False,
            knowledge=known.for_hard() if seat == tested else known,
        )
        for seat in range(4)
    ]
    rng = Rng(derive_seed(game, 0xD0E1))
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, bots[seat].choose(state.determinize(seat, rng.next64()), seat))
    winners = state.winners()
    return 1.0 / len(winners) if tested in winners else 0.0


def _duel(args: tuple[int, int]) -> float:
    return duel_one(*args)


def duel(games: int, evals: int, workers: int) -> None:
    """``games`` duels (:func:`duel_one`), the tested seat rotated; the win rate with its
    Wilson 95% interval (chance: 25%)."""
    wins = 0.0
    with multiprocessing.Pool(workers) as pool:
        for i, share in enumerate(pool.imap(_duel, [(g, evals) for g in range(games)]), 1):
            wins += share
            lo, hi = _wilson(wins, i)
            print(
                f"game {i}: {share:.2f}  wins {wins:.1f}/{i} = {wins / i:.1%} ({lo:.1%}-{hi:.1%})",
                flush=True,
            )


def _wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / d
    return max(0.0, c - h), min(1.0, c + h)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.fit_keyflower", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="play self-play games and record the terms")
    gen.add_argument("--games", type=int, default=160)
    gen.add_argument("--start", type=int, default=0, help="first game number (appends if > 0)")
    gen.add_argument("--evals", type=int, default=120, help="planner evaluations per turn")
    gen.add_argument("--workers", type=int, default=2)
    gen.add_argument("--out", type=Path, default=DATA)
    fit_p = sub.add_parser("fit", help="fit the multipliers and write game/keyflower/fitted.py")
    fit_p.add_argument("--data", type=Path, default=DATA)
    fit_p.add_argument("--ridge", type=float, default=0.5)
    fit_p.add_argument("--dry-run", action="store_true", help="print only, write nothing")
    duel_p = sub.add_parser(
        "duel", help="greedy with the fitted evaluation against 3 greedy with the hand one"
    )
    duel_p.add_argument("--games", type=int, default=40)
    duel_p.add_argument("--evals", type=int, default=300)
    duel_p.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    if args.command == "duel":
        duel(args.games, args.evals, args.workers)
    elif args.command == "generate":
        generate(args.games, args.evals, args.workers, args.out, args.start)
    else:
        fit(args.data, args.ridge, None if args.dry_run else FITTED)


if __name__ == "__main__":
    main()
