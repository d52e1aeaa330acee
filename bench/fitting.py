"""What the evaluation-fitting scripts share (issue 23): self-play files and ridge regression.

``bench/fit_glen_more.py`` and ``bench/fit_kingdom_builder.py`` each play self-play games with
count-bounded bots (the same seed gives the same game), write them as replay lines to a gzipped
JSON-lines file that is committed, and fit one multiplier per evaluation term and game stage by
ridge regression of the seats' final scores on their terms (both centred within a position:
only differences between seats decide a game).  This module holds the parts that do not depend
on the game: writing and reading the files, the regression and its error.
"""

from __future__ import annotations

import gzip
import json
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from game.bots.greedy import GreedyBot
from game.bots.knowledge import Knowledge
from game.core.rng import derive_seed

#: One sample: ``(seed, stage, terms per seat, final totals per seat)``.
Sample = tuple[int, int, list[tuple[float, ...]], list[float]]


def self_play_bots(
    index: int,
    players: int,
    tag: str,
    easy_temperature: float,
    knowledge: Knowledge | None = None,
) -> tuple[list[Any], list[str]]:
    """The bots of self-play game ``index``: greedy bots and, every other game, an easy one in
    a rotating seat, each seeded from ``(index, tag, seat)`` and bounded by its count of
    evaluations only (no clock: the same seed gives the same game); ``knowledge`` (default: the
    game's own) is what they judge with."""
    names = ["greedy"] * players
    if index % 2:
        names[(index // 2) % players] = "easy"
    bots: list[Any] = []
    for seat, name in enumerate(names):
        seed = derive_seed(index, tag, seat)
        if name == "easy":
            bot = GreedyBot(
                seed,
                beam=3,
                temperature=easy_temperature,
                cpu_budget=None,
                safety_net=False,
                knowledge=knowledge,
                name="easy",
            )
        else:
            bot = GreedyBot(seed, cpu_budget=None, safety_net=False, knowledge=knowledge)
        bots.append(bot)
    return bots, names


def fitted_module(
    doc: str,
    label: str,
    names: Sequence[str],
    fitted: list[list[float]],
    more: dict[str, tuple[str, list[list[float]]]] | None = None,
) -> str:
    """The text of a module of fitted multipliers: ``doc`` (its docstring), the names they were
    fitted for as ``label``, the rows as ``FITTED`` and each of ``more`` (name: its comment
    and its rows) as another table."""

    def table(rows: list[list[float]]) -> str:
        return "\n".join("    (" + ", ".join(f"{c:.3f}" for c in coef) + ")," for coef in rows)

    listed = "\n".join(f'    "{name}",' for name in names)
    text = f'''"""{doc}
"""

from __future__ import annotations

#: The names these multipliers were fitted for, in order (checked when they are used).
{label}: tuple[str, ...] = (
{listed}
)

FITTED: tuple[tuple[float, ...], ...] = (
{table(fitted)}
)
'''
    for name, (comment, rows) in (more or {}).items():
        text += f"\n#: {comment}\n{name}: tuple[tuple[float, ...], ...] = (\n{table(rows)}\n)\n"
    return text


def generate(
    play_game: Callable[[int], dict[str, Any]], games: int, start: int, out: Path, workers: int
) -> None:
    """Play games ``start..start+games-1`` with ``play_game`` (on ``workers`` processes) and
    write each as one line of ``out``, flushed as it comes (a run stopped early keeps its
    games)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    indices = range(start, start + games)
    t0 = time.process_time()
    with gzip.open(out, "wt", encoding="utf-8") as f:
        if workers > 1:
            import multiprocessing

            with multiprocessing.get_context("spawn").Pool(workers) as pool:
                lines: Iterator[dict[str, Any]] = pool.imap(play_game, indices)
                for line in lines:
                    f.write(json.dumps(line, separators=(",", ":")) + "\n")
                    f.flush()
                    print(f"game {line['seed']}: {line['totals']}", file=sys.stderr, flush=True)
        else:
            for i in indices:
                line = play_game(i)
                f.write(json.dumps(line, separators=(",", ":")) + "\n")
                f.flush()
                print(f"game {i}: {line['totals']}", file=sys.stderr, flush=True)
    print(f"{games} games in {time.process_time() - t0:.0f} s CPU (this process) -> {out}")


def read_games(path: Path) -> Iterator[dict[str, Any]]:
    """The games of a file written by :func:`generate` (a file still being written: the games
    complete so far)."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        try:
            for line in f:
                if line.strip():
                    try:
                        yield json.loads(line)
                    except json.JSONDecodeError:
                        return  # a line cut short by a file still being written
        except EOFError:
            return


def centred(rows: Sequence[Sequence[float]]) -> list[list[float]]:
    """Each column minus its mean (the seats of one position)."""
    n = len(rows)
    means = [sum(col) / n for col in zip(*rows, strict=True)]
    return [[v - m for v, m in zip(row, means, strict=True)] for row in rows]


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve ``a x = b`` (a small dense system) by Gauss-Jordan with partial pivoting; an
    unknown without a usable pivot (a singular system) is 0."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    singular = set()
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        p = m[col][col]
        if abs(p) < 1e-12:
            singular.add(col)
            continue
        for j in range(col, n + 1):
            m[col][j] /= p
        for r in range(n):
            if r != col and m[r][col]:
                f = m[r][col]
                for j in range(col, n + 1):
                    m[r][j] -= f * m[col][j]
    return [0.0 if i in singular else m[i][n] for i in range(n)]


def ridge(
    xs: list[list[float]],
    ys: list[float],
    penalty: float,
    prior: Sequence[float] | None = None,
    free: int = 0,
) -> list[float]:
    """Coefficients ``c`` minimising ``sum (y - c.x)^2 + penalty * n * |c - prior|^2`` (``prior``
    all ones by default: the plain sum of the terms); the last ``free`` coefficients are not
    pulled (ordinary least squares for them)."""
    k = len(xs[0])
    n = len(xs)
    prior = list(prior) if prior is not None else [1.0] * k
    ata = [[0.0] * k for _ in range(k)]
    aty = [0.0] * k
    for x, y in zip(xs, ys, strict=True):
        for i in range(k):
            xi = x[i]
            if xi:
                aty[i] += xi * y
                row = ata[i]
                for j in range(k):
                    row[j] += xi * x[j]
    lam = penalty * n
    for i in range(k - free):
        ata[i][i] += lam
        aty[i] += lam * prior[i]
    return solve(ata, aty)


def ridge_towards_one(xs: list[list[float]], ys: list[float], penalty: float) -> list[float]:
    """:func:`ridge` pulled towards the plain sum (every multiplier 1)."""
    return ridge(xs, ys, penalty)


def design(data: Sequence[Sample], stage: int) -> tuple[list[list[float]], list[float]]:
    """The centred rows (terms) and targets (final totals) of one stage."""
    xs: list[list[float]] = []
    ys: list[float] = []
    for _seed, st, terms, totals in data:
        if st != stage:
            continue
        xs.extend(centred(terms))
        mean = sum(totals) / len(totals)
        ys.extend(t - mean for t in totals)
    return xs, ys


def mse(xs: list[list[float]], ys: list[float], coef: Sequence[float]) -> float:
    """Mean squared error of ``coef . x`` against ``y``."""
    if not xs:
        return 0.0
    total = 0.0
    for x, y in zip(xs, ys, strict=True):
        p = sum(c * v for c, v in zip(coef, x, strict=True))
        total += (y - p) ** 2
    return total / len(xs)


def fit_stages(
    data: Sequence[Sample],
    stages: int,
    penalty: float,
    names: Sequence[str],
    prior: Sequence[float],
    players: int,
    free: int = 0,
) -> list[list[float]]:
    """Fit one multiplier per term and stage; print the held-out check (games split in two
    halves by seed: fitted on one, scored on the other, against ``prior``'s error) and the
    multipliers fitted on every game, which are returned; the last ``free`` terms are not pulled
    towards their prior (:func:`ridge`)."""
    games = sorted({s[0] for s in data})
    half = set(games[::2])
    train = [s for s in data if s[0] in half]
    test = [s for s in data if s[0] not in half]
    print(f"{len(games)} games, {len(data)} positions, {stages} stages, penalty {penalty}")
    print("stage  positions  mse(prior)  mse(fit, held out)")
    for stage in range(stages):
        xs, ys = design(train, stage)
        tx, ty = design(test, stage)
        if not xs or not tx:
            continue
        coef = ridge(xs, ys, penalty, prior, free)
        print(
            f"{stage:5d}  {len(tx) // players:9d}  {mse(tx, ty, prior):10.1f}"
            f"  {mse(tx, ty, coef):8.1f}"
        )
    fitted = []
    for stage in range(stages):
        xs, ys = design(data, stage)
        fitted.append(ridge(xs, ys, penalty, prior, free) if xs else list(prior))
    print("term".ljust(18) + " ".join(f"{s:6d}" for s in range(stages)))
    for i, name in enumerate(names):
        print(name.ljust(18) + " ".join(f"{fitted[s][i]:6.2f}" for s in range(stages)))
    return fitted
