"""What a Kingdom Builder turn really changes: candidate turns played on by greedy bots (issue 23).

The hard level's evaluation (``game/kingdom_builder/fitted.py``) is fitted on self-play games:
at a position, the seats' final scores are regressed on their features.  Most of what it learns
is *between* games and seats — who drew better cards, who sits on a better board — while a
decision needs what differs *within* one position, between the turns a seat may play there.
This script measures that directly, by counterfactual games:

1. it plays seeded 4-player games of greedy bots (count-bounded, no clock: the same seed gives
   the same game) and at every ``--every``-th turn start takes the hard level's candidate turns
   (its planner's, the first ``--candidates`` distinct ones);
2. it plays each candidate in the real state and the rest of the game by four greedy bots, the
   same for every candidate (their seeds, the deck: common random numbers), and records every
   seat's features (:meth:`Evaluator.features`) after 1, 4 and 8 turns (8: where the hard
   level's playouts judge a position) and the final totals.

Each branch also keeps the actions played from the candidate's turn end to the last mark
(``path``), so the positions at the marks can be rebuilt without the bots (:func:`mark_states`)
and judged by any other features later.  ``--turns N`` branches only the first N turn starts
of each game (the opening, where the choice's own part of the outcome is largest).

``fit`` then regresses, position by position and seat by seat, how the final score differences
move between the candidates on how the features at the horizon move — the fit a decision needs
— and reports how well the committed fit and the plain sum predict that variation (held out by
game seed) against the refit::

    python -m bench.kb_counterfactual generate --games 20 --start 2000 --out /tmp/cf.jsonl.gz
    python -m bench.kb_counterfactual fit --data /tmp/cf.jsonl.gz

Counts, not clocks: the same seeds give the same file on any machine.  The opening's 708
positions of ``docs/experiments/kingdom-builder.md`` (*The opening's value, learnt from the real
game*) are committed: ``fit --data bench/data/kb-cf-opening.jsonl.gz --penalty 0.05 0.01 0.2 1``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from bench.fitting import mse, read_games, ridge
from bench.search_regret import hard_searcher
from game.bots import GreedyBot
from game.bots.base import apply_trusted
from game.core.rng import Rng, derive_seed
from game.kingdom_builder import GAME
from game.kingdom_builder.codes import EMPTY
from game.kingdom_builder.evaluation import FEATURES, Evaluator, stage_of
from game.kingdom_builder.scoring import groups
from game.kingdom_builder.state import KingdomBuilderState

PLAYERS = 4
#: Turn ends after the root turn at which the features are recorded (8: the hard level's
#: playouts end there, every seat having played two turns).
MARKS = (1, 4, 8)


def greedy_bots(tag: str, seed: int) -> list[GreedyBot]:
    return [
        GreedyBot(derive_seed(seed, tag, s), cpu_budget=None, safety_net=False)
        for s in range(PLAYERS)
    ]


def play_on(
    st: KingdomBuilderState, seed: int, evaluator: Evaluator
) -> tuple[dict[int, Any], list[float], list[list[Any]]]:
    """Play ``st`` to the end with fresh greedy bots (the same for every branch of a position);
    returns the features of every seat after each of :data:`MARKS` turn ends (the first turn
    end is the candidate's own), the final totals, and the actions played up to the last mark
    (``[seat, action]``: the positions at the marks can be rebuilt without the bots)."""
    bots = greedy_bots("kb-cf-on", seed)
    marks: dict[int, Any] = {}
    path: list[list[Any]] = []
    ends = 1
    step = 0
    if 1 in MARKS and not st.over:
        marks[1] = {"stage": stage_of(st, 4), "feats": evaluator.features(st)}
    while not st.is_over():
        seat = st.to_move()[0]
        turn = st.turn_id()
        hidden = st.determinize(seat, derive_seed(seed, "kb-cf-agent", seat, step))
        action = bots[seat].choose(hidden, seat)
        if ends < MARKS[-1]:
            path.append([seat, list(action)])
        st.apply(seat, action)
        step += 1
        if st.turn_id() != turn and not st.is_over():
            ends += 1
            if ends in MARKS:
                marks[ends] = {"stage": stage_of(st, 4), "feats": evaluator.features(st)}
    totals = [float(row["total"]) for row in st.scores()]
    return marks, totals, path


def game_positions(
    seed: int, options: dict[str, Any]
) -> Iterator[tuple[int, KingdomBuilderState, int]]:
    """Game ``seed`` as :func:`generate` plays it (four greedy bots, count-bounded): every turn
    start as ``(turn number, state, seat to move)``, the turns counted from 1.  The state is the
    live game: a caller reads or copies it and must not change it."""
    state: KingdomBuilderState = GAME.new(PLAYERS, options, seed)
    bots = greedy_bots("kb-cf-main", seed)
    turns = 0
    last_turn = None
    step = 0
    while not state.is_over():
        seat = state.to_move()[0]
        if state.turn_id() != last_turn:
            last_turn = state.turn_id()
            turns += 1
            yield turns, state, seat
        hidden = state.determinize(seat, derive_seed(seed, "kb-cf-main-agent", seat, step))
        state.apply(seat, bots[seat].choose(hidden, seat))
        step += 1


def branch_game(
    seed: int,
    every: int,
    candidates: int,
    options: dict[str, Any],
    worlds: int = 1,
    turns: int | None = None,
) -> list[Any]:
    """The positions of game ``seed``: every ``every``-th turn start of a greedy game (with
    ``turns``, only the first ``turns`` turn starts: the opening), each with its candidates
    played on."""
    evaluator = Evaluator()
    searcher = hard_searcher(derive_seed(seed, "kb-cf-plans"), None)
    out = []
    for turn, state, seat in game_positions(seed, options):
        if turns is not None and turn > turns:
            break
        if turn % every == 0:
            out.append(
                branch_position(state, seat, seed, turn, candidates, evaluator, searcher, worlds)
            )
    return out


def branch_position(
    state: KingdomBuilderState,
    seat: int,
    seed: int,
    turn: int,
    candidates: int,
    evaluator: Evaluator,
    searcher: Any,
    worlds: int = 1,
) -> dict[str, Any]:
    """The candidates of ``seat``'s turn in ``state``, each played on to the end: in the real
    state (``marks``, ``totals``) and, with ``worlds`` > 1, in ``worlds - 1`` other worlds the
    seat cannot tell from it (its view determinized: the rivals' hands and the draw pile dealt
    again, other greedy seeds), the same worlds for every candidate (``more``)."""
    view = state.determinize(seat, derive_seed(seed, "kb-cf-view", turn))
    plans = searcher.candidate_turns(view, seat)[:candidates]
    bases = [state] + [
        state.determinize(seat, derive_seed(seed, "kb-cf-world", turn, w)) for w in range(1, worlds)
    ]
    rows = []
    for k, plan in enumerate(plans):
        results = []
        for w, base in enumerate(bases):
            world = base.clone()
            turn_id = world.turn_id()
            ok = True
            for action in plan:
                if action not in world.legal_actions(seat):
                    ok = False
                    break
                apply_trusted(world, seat, action)
            if not ok or world.turn_id() == turn_id:
                break  # a plan that does not end the turn in the real state (never seen)
            tag = (
                derive_seed(seed, "kb-cf-branch", turn)
                if w == 0
                else derive_seed(seed, "kb-cf-branch", turn, w)
            )
            marks, totals, path = play_on(world, tag, evaluator)
            results.append(
                {"marks": {str(m): v for m, v in marks.items()}, "totals": totals, "path": path}
            )
        if len(results) < len(bases):
            continue
        row = {"plan": k, "actions": [list(a) for a in plan], **results[0]}
        if worlds > 1:
            row["more"] = results[1:]
        rows.append(row)
    return {
        "seed": seed,
        "turn": turn,
        "seat": seat,
        "stage": stage_of(state, 4),
        "branches": rows,
    }


def generate(
    start: int,
    games: int,
    every: int,
    candidates: int,
    out: Path,
    options: Any,
    worlds: int = 1,
    turns: int | None = None,
) -> None:
    t0 = time.process_time()
    with gzip.open(out, "at", encoding="utf-8") as f:
        for seed in range(start, start + games):
            for pos in branch_game(seed, every, candidates, options, worlds, turns):
                f.write(json.dumps(pos, separators=(",", ":")) + "\n")
                f.flush()
            print(
                f"game {seed} done, {time.process_time() - t0:.0f} s CPU",
                file=sys.stderr,
                flush=True,
            )


def replayed(
    positions: list[dict[str, Any]], options: dict[str, Any]
) -> Iterator[tuple[KingdomBuilderState, int, dict[str, Any]]]:
    """Each recorded position with its game replayed to it as :func:`generate` played it:
    ``(state, seat to move, position)``, by seed and then turn, each game played once and no
    further than its last recorded position (the state is live: copy it to keep it)."""
    by_seed: dict[int, dict[int, dict[str, Any]]] = {}
    for pos in positions:
        by_seed.setdefault(pos["seed"], {})[pos["turn"]] = pos
    for seed, wanted in sorted(by_seed.items()):
        last = max(wanted)
        for turn, state, seat in game_positions(seed, options):
            if turn > last:
                break
            if turn in wanted:
                yield state, seat, wanted[turn]


def mark_states(
    state: KingdomBuilderState, seat: int, branch: dict[str, Any], world: int = 0
) -> Iterator[tuple[int, KingdomBuilderState]]:
    """The positions at the marks of one branch, rebuilt without the bots: ``state`` is the
    position the branch was played from (world 0 the real one; for ``world`` > 0 the caller
    passes that world's determinized state), the candidate's actions and the recorded ``path``
    are applied to a copy, and ``(mark, position)`` is yielded at each mark reached (the
    position is live: copy it to keep it)."""
    record = branch if world == 0 else branch["more"][world - 1]
    st = state.clone()
    for action in branch["actions"]:
        apply_trusted(st, seat, tuple(action))
    ends = 1
    if 1 in MARKS and not st.over:
        yield 1, st
    for mover, action in record["path"]:
        turn = st.turn_id()
        apply_trusted(st, mover, tuple(action))
        if st.turn_id() != turn and not st.is_over():
            ends += 1
            if ends in MARKS:
                yield ends, st


def read(paths: Sequence[Path]) -> list[dict[str, Any]]:
    """Every position of the files :func:`generate` wrote (a file still being written: the
    positions complete so far)."""
    return [pos for path in paths for pos in read_games(path)]


def within_rows(
    positions: list[dict[str, Any]],
    mark: str,
    stages: int = 4,
    feats: dict[tuple[int, int, int], list[list[float]]] | None = None,
) -> dict[int, list[tuple[int, list[float], float]]]:
    """Per stage (at the mark), rows ``(seed, x, y)``: for each position and seat, the seat's
    features minus the seats' mean, and its final total minus the seats' mean, each centred
    over the position's candidates (what differs between the turns the seat could play).
    ``feats`` replaces the recorded features: every seat's, by ``(seed, turn, plan)``."""
    rows: dict[int, list[tuple[int, list[float], float]]] = {s: [] for s in range(stages)}
    for pos in positions:
        branches = [b for b in pos["branches"] if mark in b["marks"]]
        if len(branches) < 2:
            continue
        stage = branches[0]["marks"][mark]["stage"]
        per_branch = []
        for b in branches:
            seats = (
                b["marks"][mark]["feats"]
                if feats is None
                else feats[pos["seed"], pos["turn"], b["plan"]]
            )
            totals = b["totals"]
            n = len(seats)
            fmean = [sum(col) / n for col in zip(*seats, strict=True)]
            tmean = sum(totals) / n
            per_branch.append(
                [
                    ([v - m for v, m in zip(f, fmean, strict=True)], t - tmean)
                    for f, t in zip(seats, totals, strict=True)
                ]
            )
        for s in range(PLAYERS):
            xs = [pb[s][0] for pb in per_branch]
            ys = [pb[s][1] for pb in per_branch]
            k = len(xs)
            xm = [sum(col) / k for col in zip(*xs, strict=True)]
            ym = sum(ys) / k
            for x, y in zip(xs, ys, strict=True):
                rows[stage].append(
                    (pos["seed"], [v - m for v, m in zip(x, xm, strict=True)], y - ym)
                )
    return rows


#: What :func:`reach` adds to the nine features (``fit --extra``).
REACH = ("locations_near", "castles_near", "areas", "largest_area", "room_near")


def reach(st: KingdomBuilderState, seat: int) -> tuple[float, ...]:
    """Descriptors of where a seat can still grow that the nine features leave out (see
    :data:`REACH`; "near": within two hexes of its settlements): location hexes with tiles left
    it has not taken a tile from, castles it does not touch yet, its connected areas, its
    largest area, and the empty hexes near it (in tens)."""
    board = st.board
    home = st.homes[seat]
    ring: set[int] = set()
    for h in home:
        ring.update(board.nbrs[h])
    near = set(ring)
    for h in ring:
        near.update(board.nbrs[h])
    touched = {n for h in home for n in board.nbrs[h] if n in board.castles}
    areas = groups(board, home)  # the rules' own areas (KB §9)
    return (
        float(
            sum(
                1
                for loc in board.locations
                if loc in near and st.left[loc] > 0 and loc not in st.taken[seat]
            )
        ),
        float(sum(1 for c in board.castles if c in near and c not in touched)),
        float(len(areas)),
        float(max((len(a) for a in areas), default=0)),
        sum(1 for h in near if st.owner[h] == EMPTY) / 10,
    )


def reach_features(
    positions: list[dict[str, Any]], mark: str, options: dict[str, Any]
) -> dict[tuple[int, int, int], list[list[float]]]:
    """Every branch's features at ``mark`` followed by :func:`reach`'s descriptors, every seat's,
    by ``(seed, turn, plan)``: each game replayed once as :func:`generate` played it and each
    branch's position rebuilt from its recorded actions (:func:`mark_states`)."""
    evaluator = Evaluator()
    out: dict[tuple[int, int, int], list[list[float]]] = {}
    for state, seat, pos in replayed(positions, options):
        for b in pos["branches"]:
            for m, st in mark_states(state, seat, b):
                if str(m) == mark:
                    out[pos["seed"], pos["turn"], b["plan"]] = [
                        [*f, *reach(st, s)] for s, f in enumerate(evaluator.features(st))
                    ]
    return out


def sse(rows: list[tuple[int, list[float], float]], coef: Sequence[float]) -> float:
    """The summed squared error of ``coef . x`` against ``y`` over ``rows``."""
    return mse([x for _, x, _ in rows], [y for _, _, y in rows], coef) * len(rows)


def fit(
    paths: Sequence[Path],
    mark: str,
    penalties: Sequence[float],
    extra: bool = False,
    options: dict[str, Any] | None = None,
) -> None:
    """Per stage at ``mark``, how well the committed multipliers, the plain sum and a refit
    (ridge towards the committed, each of ``penalties``) predict the within-position rows of
    :func:`within_rows`, held out by game seed (even seeds fit, odd seeds judged, and the other
    way round); with ``extra``, the refit also weighs :func:`reach`'s descriptors (prior 0)."""
    from game.kingdom_builder import fitted
    from game.kingdom_builder.hard_level import FEATURES as HF

    assert tuple(HF) == tuple(FEATURES)
    positions = read(paths)
    print(f"{len(positions)} positions, {sum(len(p['branches']) for p in positions)} branches")
    feats = reach_features(positions, mark, options or {}) if extra else None
    names = (*FEATURES, *REACH) if extra else FEATURES
    rows = within_rows(positions, mark, feats=feats)
    pad = [0.0] * (len(names) - len(FEATURES))
    plain = (1.0, 1.0, 1.0, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0, *pad)
    for stage, data in rows.items():
        if len(data) < 20:
            continue
        committed = (*fitted.FITTED[stage], *pad)
        total = sum(y * y for _, _, y in data)
        a = [r for r in data if r[0] % 2 == 0]
        b = [r for r in data if r[0] % 2 == 1]
        n = len(data)
        print(f"stage {stage}: {n} rows, var {total / n:.3f}")
        zero = sum(y * y for _, _, y in a + b) / n
        print(
            f"  held-out mse: zero {zero:.3f}, plain {(sse(a, plain) + sse(b, plain)) / n:.3f}, "
            f"committed {(sse(a, committed) + sse(b, committed)) / n:.3f}"
        )
        for penalty in penalties:
            held = 0.0
            for train, test in ((a, b), (b, a)):
                if train and test:
                    c = ridge(
                        [x for _, x, _ in train], [y for _, _, y in train], penalty, committed
                    )
                    held += sse(test, c)
            print(f"  refit, penalty {penalty}: held-out mse {held / n:.3f}")
        print(
            "  committed: "
            + " ".join(f"{f}={c:.2f}" for f, c in zip(names, committed, strict=True))
        )
        coef = ridge([x for _, x, _ in data], [y for _, _, y in data], penalties[0], committed)
        print(
            f"  refit ({penalties[0]}): "
            + " ".join(f"{f}={c:.2f}" for f, c in zip(names, coef, strict=True))
        )


def seat_margin(totals: Sequence[float], seat: int) -> float:
    """``seat``'s final total minus the mean of its rivals'."""
    return totals[seat] - (sum(totals) - totals[seat]) / (len(totals) - 1)


def branch_margins(branch: dict[str, Any], seat: int) -> list[float]:
    """``seat``'s final margin over its rivals' mean in each world a candidate was played on:
    the real one, then the others (``more``)."""
    return [seat_margin(w["totals"], seat) for w in [branch, *branch.get("more", [])]]


def choice_worth(positions: list[dict[str, Any]], stages: int = 4) -> dict[int, dict[str, float]]:
    """Per stage of the positions played on in two worlds or more: how much of what the choice
    among the candidates changes is the choice's and how much the world's.  For the seat that
    chose, its final margin over its rivals' mean, centred over the candidates within each
    world (``c[k][w]``): ``total`` its variance, ``signal`` the covariance between two worlds
    (what the candidate carries into every world), ``first`` the planner's first turn's mean
    centred margin, ``best`` the centred margin in world 0 of the candidate that did best in
    world 1 (and the other way round): what choosing by one look ahead into the real game would
    be worth."""
    acc: dict[int, dict[str, float]] = {}
    for pos in positions:
        branches = pos["branches"]
        if len(branches) < 2 or "more" not in branches[0]:
            continue
        seat = pos["seat"]
        cols = [branch_margins(b, seat) for b in branches]
        worlds = len(cols[0])
        means = [sum(c[w] for c in cols) / len(cols) for w in range(worlds)]
        cen = [[c[w] - means[w] for w in range(worlds)] for c in cols]
        a = acc.setdefault(
            pos["stage"],
            {"positions": 0, "rows": 0, "total": 0.0, "signal": 0.0, "first": 0.0, "best": 0.0},
        )
        a["positions"] += 1
        for k, c in enumerate(cen):
            a["rows"] += 1
            a["total"] += (c[0] ** 2 + c[1] ** 2) / 2
            a["signal"] += c[0] * c[1]
            if branches[k]["plan"] == 0:
                a["first"] += (c[0] + c[1]) / 2
        best1 = max(range(len(cen)), key=lambda k: cen[k][1])
        best0 = max(range(len(cen)), key=lambda k: cen[k][0])
        a["best"] += (cen[best1][0] + cen[best0][1]) / 2
    out = {}
    for stage, a in sorted(acc.items()):
        n, rows = a["positions"], a["rows"]
        out[stage] = {
            "positions": n,
            "total": a["total"] / rows,
            "signal": a["signal"] / rows,
            "first": a["first"] / n,
            "best": a["best"] / n,
        }
    return out


def choose(
    paths: Sequence[Path],
    search: dict[str, Any],
    options: dict[str, Any],
    stages: Sequence[int] | None = None,
) -> list[dict[str, Any]]:
    """The hard level's choice at every position of the files, scored by the real game.

    Each position's game is replayed as :func:`generate` played it, and the hard level's
    search (with ``search`` over the game's parameters) is run from the same view of the seat
    with the random draws the candidates were proposed with, so that it races the very turns
    recorded — at most as many as were recorded.  A row per position with two candidates or
    more: ``margins``, each candidate's mean final margin over the rivals' mean (over the
    worlds played), ``plans`` their indices among the planner's turns, and ``chosen``, the
    index in ``margins`` of the turn the search chose (``None``: a turn not played on, e.g.
    one that does not end the turn).  ``stages``: only the positions of those stages (quarters
    of the fastest builder's supply, as recorded) are searched and scored."""
    rows = []
    searchers: dict[int, Any] = {}  # one planner a game, its draws running on from turn to turn
    for state, seat, pos in replayed(read(paths), options):
        seed, turn = int(pos["seed"]), pos["turn"]
        if seed not in searchers:
            searchers[seed] = hard_searcher(derive_seed(seed, "kb-cf-plans"), None)
        searcher = searchers[seed]
        branches = pos["branches"]
        view = state.determinize(seat, derive_seed(seed, "kb-cf-view", turn))
        draws = Rng(searcher.rng.state)  # the draws the candidates are proposed with
        plans = searcher.candidate_turns(view, seat)
        if len(branches) < 2 or (stages is not None and pos["stage"] not in stages):
            continue  # (the planner's draws taken all the same: the next position's follow)
        for b in branches:
            recorded = b.get("actions")
            if recorded is not None and json.dumps(recorded) != json.dumps(plans[b["plan"]]):
                raise ValueError(f"game {seed} turn {turn}: not the recorded candidates")
        chooser = hard_searcher(0, {**search, "max_plans": 1 + max(b["plan"] for b in branches)})
        chooser.rng = draws
        chosen = json.dumps(chooser.search(view, seat))
        margins = [sum(ms) / len(ms) for ms in (branch_margins(b, seat) for b in branches)]
        rows.append(
            {
                "seed": seed,
                "turn": turn,
                "stage": pos["stage"],
                "plans": [b["plan"] for b in branches],
                "margins": margins,
                "chosen": next(
                    (k for k, b in enumerate(branches) if json.dumps(plans[b["plan"]]) == chosen),
                    None,
                ),
            }
        )
    return rows


def choice_gain(rows: list[dict[str, Any]], base: list[dict[str, Any]] | None = None) -> str:
    """What :func:`choose`'s choices are worth, per decision, in points of the chooser's final
    margin: against the candidates' mean and against the planner's first turn (mean ± standard
    error over the positions whose choice was played on), and with ``base`` (another run's
    rows) against its choices at the positions both chose a turn played on, in all and stage by
    stage."""

    def centred(row: dict[str, Any], k: int) -> float:
        m = row["margins"]
        return float(m[k] - sum(m) / len(m))

    def mean_se(xs: list[float]) -> str:
        n = len(xs)
        if n < 2:
            return f"n {n}"
        mu = sum(xs) / n
        sd = math.sqrt(sum((x - mu) ** 2 for x in xs) / (n - 1))
        return f"{mu:+.2f} ± {sd / math.sqrt(n):.2f} (n {n})"

    played = [r for r in rows if r["chosen"] is not None and 0 in r["plans"]]
    lines = [
        f"{len(played)} of {len(rows)} positions with the choice played on",
        "choice against the candidates' mean: "
        + mean_se([centred(r, r["chosen"]) for r in played]),
        "choice against the planner's first turn: "
        + mean_se([centred(r, r["chosen"]) - centred(r, r["plans"].index(0)) for r in played]),
    ]
    if base is not None:
        other = {(r["seed"], r["turn"]): r for r in base if r["chosen"] is not None}
        pairs = [
            (r, other[r["seed"], r["turn"]]) for r in played if (r["seed"], r["turn"]) in other
        ]
        diffs = [(r["stage"], centred(r, r["chosen"]) - centred(b, b["chosen"])) for r, b in pairs]
        lines.append(
            "choice against the base run's: "
            + mean_se([d for _s, d in diffs])
            + f", the same turn at {sum(r['chosen'] == b['chosen'] for r, b in pairs)}"
        )
        for stage in sorted({s for s, _d in diffs}):
            lines.append(f"  stage {stage}: " + mean_se([d for s, d in diffs if s == stage]))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate")
    gen.add_argument("--games", type=int, default=20)
    gen.add_argument("--start", type=int, default=2000)
    gen.add_argument("--every", type=int, default=5)
    gen.add_argument("--candidates", type=int, default=4)
    gen.add_argument("--options", type=json.loads, default={})
    gen.add_argument(
        "--worlds", type=int, default=1, help="play each candidate on in this many worlds"
    )
    gen.add_argument(
        "--turns", type=int, help="only the first TURNS turn starts of each game (the opening)"
    )
    gen.add_argument("--out", type=Path, required=True)
    fitp = sub.add_parser("fit")
    fitp.add_argument("--data", type=Path, nargs="+", required=True)
    fitp.add_argument("--mark", default="8")
    fitp.add_argument(
        "--penalty", type=float, nargs="+", default=[0.05], help="ridge penalties to try"
    )
    fitp.add_argument(
        "--extra", action="store_true", help="also weigh the reach descriptors (replays the games)"
    )
    fitp.add_argument("--options", type=json.loads, default={})
    worth = sub.add_parser("worth", help="how much of a choice's outcome is the choice's")
    worth.add_argument("--data", type=Path, nargs="+", required=True)
    ch = sub.add_parser("choose", help="the hard level's choice at each position, scored")
    ch.add_argument("--data", type=Path, nargs="+", required=True)
    ch.add_argument("--search", type=json.loads, default={}, help="search parameters (JSON)")
    ch.add_argument("--options", type=json.loads, default={})
    ch.add_argument("--out", type=Path, required=True, help="the rows (JSON)")
    ch.add_argument("--base", type=Path, help="another run's rows, to compare choice by choice")
    ch.add_argument(
        "--stages", type=int, nargs="+", help="only the positions of these stages (0-3)"
    )
    args = parser.parse_args(argv)
    if args.command == "choose":
        rows = choose(args.data, args.search, args.options, args.stages)
        args.out.write_text(json.dumps(rows))
        base = json.loads(args.base.read_text()) if args.base else None
        print(choice_gain(rows, base))
        return 0
    if args.command == "worth":
        for stage, w in choice_worth(read(args.data)).items():
            print(
                f"stage {stage}: {w['positions']} positions; variance of the chooser's centred "
                f"margin {w['total']:.2f} points^2, of it the choice's {w['signal']:.2f}; "
                f"planner's first turn {w['first']:+.2f}, best by another world {w['best']:+.2f}"
            )
        return 0
    if args.command == "generate":
        generate(
            args.start,
            args.games,
            args.every,
            args.candidates,
            args.out,
            args.options,
            args.worlds,
            args.turns,
        )
    else:
        fit(args.data, args.mark, args.penalty, args.extra, args.options)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
