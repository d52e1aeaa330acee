"""Bot strength and speed (``python -m game bench --only bots``; issues 5 and 23).

**Strength.**  4-player games of every registered game, one tested bot against three of another
kind, the tested bot's seat rotated through all four seats (game ``i`` puts it in seat
``i % 4``; game ``i`` uses seed ``i``).  A shared win counts ``1/k``.  Reported: the tested bot's
win rate and its Wilson 95% confidence interval; 25% is what chance gives.  ``--players N``
plays ``N``-seat games instead (the seat ``i % N``; chance ``1/N``): the targets below are for
four.

* ``greedy_vs_random`` — greedy (= normal) against 3 random bots (target: at least 70%);
* ``hard_vs_greedy`` — the hard level against 3 greedy bots (target: at least 60%, issue 23);
* ``hard_vs_reference`` — the hard level against 3 copies of the frozen reference bot (the
  hard level of commit 1841520, :mod:`bench.reference`; target: at least 40%);
* ``reference_vs_greedy`` — the frozen reference against 3 greedy bots (what the old hard level
  makes of today's greedy);
* ``easy_vs_greedy`` — easy against 3 greedy (= normal) bots: easy should lose most games
  (chance is 25%);
* ``normal_vs_easy`` — normal against 3 easy bots (the other side of the same comparison).

**Budgets.**  Every bot thinks for its count (:mod:`game.bots.budget`): the planner's
evaluations (the game's ``PLAN_EVALS``), the hard level's playouts (the game's
``SEARCH["iterations"]``, or ``--iterations N``), the hard level within its CPU ceiling as
players get it, the planner levels (greedy, easy, normal) with no ceiling — the yardstick must
not depend on the core's speed (since 2026-12-05; their 0.5 s ceiling of before cut a few
decisions in a thousand on a slow core); ``--budget S`` makes the hard level think for ``S``
CPU seconds a decision instead.  The reference bot thinks for
2 s of CPU a decision (its old 2 s of wall clock, now measured on the thread's CPU time).  The
wall-clock safety net is off: nobody waits here, and with it a busy machine could cut a
decision short.  So the figures do not depend on the machine's load (only the CPU-bound
reference bot depends on the machine's speed).  Each matchup reports its budgets
(``<matchup>.budget``), the load before and after it, and, per bot, the CPU time of the
decisions that thought (not the cached steps of a planned turn, not forced moves):
``decision_cpu_s_p50/_p95/_max.<bot>``, the same in wall-clock time
(``decision_wall_s_p50/_p95/_max.<bot>``) and how many decisions a CPU ceiling cut short
(``ceiling_cuts.<bot>``).

**Speed.**  ``mcts_sims_per_s.<game>``: iterations per second of the search bot from the opening
of a 4-player game (target: at least 300).  ``decision_s_max.<level>`` and
``decision_s_mean.<level>``: the longest and the mean decision (wall clock) of each difficulty
level in the strength games.  The machine's load average is reported beside the figures.

``--replays FILE`` appends every game to ``FILE`` as it finishes (gzipped JSON lines: the
replay, the bots by seat, the tested seat, the scores by category), for a look at the games
afterwards or a fit on the positions a level reaches (``bench.fitting.read_games`` reads it).
``--card NAME`` (Kingdom Builder) plays only the games of the ``--start``/``--games`` seeds
whose three cards include ``NAME``: a change aimed at one card is measured where it acts, and
pairs game by game with the level's games of the same seeds (``bench.paired``).

Games run in ``--workers`` processes (default 2: the machine has 2 cores).  ``--quick`` runs a
handful of games with a small hard iteration count, for smoke tests only.  Run long matchups
nice'd, in the background::

    python -m game bench --only bots
    python -m bench.bots --games 200 --matchup hard_vs_greedy   # one matchup, more games
    python -m bench.bots --game glen-more --games 100 --matchup hard_vs_greedy --start 100
    python -m bench.bots --game keyflower --games 40 --matchup hard_vs_reference --workers 1

Figures for Kingdom Builder are named ``bots.<what>``; other games add their id:
``bots.<game>.<what>``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import multiprocessing
import os
import re
import signal
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bench.reference import REFERENCE_CPU, reference_bot
from game.bots import MctsBot, hard_bot, make_bot
from game.bots.budget import HARD_CPU_BUDGET, HARD_WORK, PLAN_CPU_BUDGET, PLAN_EVALS
from game.bots.knowledge import knowledge_for, search_parameters
from game.commands.common import options_argument
from game.core.match import Bot, MatchResult, play_match
from game.core.registry import UnknownGame, game_ids, get_game
from game.core.rng import derive_seed
from game.core.types import BadOptions

REFERENCE_GAME = "kingdom-builder"
PLAYERS = 4


def _game_figures(game_id: str) -> dict[str, str]:
    """The figures of a game other than the reference one (``bots.<game>.<what>``)."""
    out: dict[str, str] = {}
    for matchup, meaning in (
        ("greedy_vs_random", "greedy wins vs 3 random (target >= 0.70)"),
        ("hard_vs_greedy", "hard wins vs 3 greedy (target >= 0.60)"),
        ("easy_vs_greedy", "easy wins vs 3 greedy (easy should lose most games)"),
        ("normal_vs_easy", "normal wins vs 3 easy"),
    ):
        out[f"bots.{game_id}.{matchup}.winrate"] = f"share of 4-player games {meaning}"
        out[f"bots.{game_id}.{matchup}.ci_low"] = "Wilson 95% interval, low end"
        out[f"bots.{game_id}.{matchup}.ci_high"] = "Wilson 95% interval, high end"
        out[f"bots.{game_id}.{matchup}.games"] = "games played"
    out[f"bots.mcts_sims_per_s.{game_id}"] = "mcts playouts/s from a 4-player opening (>= 300)"
    out[f"bots.hard_sims_per_s.{game_id}"] = "hard-level playouts/s (each plays its next turn too)"
    for level, target in (("easy", "0.5"), ("normal", "0.5"), ("hard", "3")):
        out[f"bots.{game_id}.decision_s_max.{level}"] = f"longest {level} decision, s (<= {target})"
        out[f"bots.{game_id}.decision_s_mean.{level}"] = f"mean {level} decision, s"
    out[f"bots.{game_id}.load_1min"] = "the machine's 1-minute load average after the games"
    return out


FIGURES: dict[str, str] = {
    "bots.greedy_vs_random.winrate": "share of 4-player games greedy wins vs 3 random (target >= 0.70)",
    "bots.greedy_vs_random.ci_low": "Wilson 95% interval, low end",
    "bots.greedy_vs_random.ci_high": "Wilson 95% interval, high end",
    "bots.greedy_vs_random.games": "games played",
    "bots.hard_vs_greedy.winrate": "share of 4-player games hard wins vs 3 greedy (target >= 0.60)",
    "bots.hard_vs_greedy.ci_low": "Wilson 95% interval, low end",
    "bots.hard_vs_greedy.ci_high": "Wilson 95% interval, high end",
    "bots.hard_vs_greedy.games": "games played",
    "bots.mcts_sims_per_s.kingdom-builder": "mcts playouts/s from a 4-player opening (target >= 300)",
    "bots.hard_sims_per_s.kingdom-builder": "hard-level playouts/s (each plays its next turn too)",
    "bots.decision_s_max.easy": "longest easy decision, s (target <= 0.5)",
    "bots.decision_s_max.normal": "longest normal (greedy) decision, s (target <= 0.5)",
    "bots.decision_s_max.hard": "longest hard decision, s (target <= 3)",
    "bots.decision_s_mean.hard": "mean hard decision, s",
    **_game_figures("glen-more"),
    **_game_figures("keyflower"),
}


@dataclass(frozen=True)
class Matchup:
    """One tested bot against ``players - 1`` copies of an opponent."""

    name: str
    tested: str
    opponent: str


MATCHUPS = {
    "greedy_vs_random": Matchup("greedy_vs_random", "greedy", "random"),
    "hard_vs_greedy": Matchup("hard_vs_greedy", "hard", "greedy"),
    "easy_vs_greedy": Matchup("easy_vs_greedy", "easy", "greedy"),
    "normal_vs_easy": Matchup("normal_vs_easy", "normal", "easy"),
    "hard_vs_reference": Matchup("hard_vs_reference", "hard", "reference"),
    "reference_vs_greedy": Matchup("reference_vs_greedy", "reference", "greedy"),
}

#: The bots whose decisions are timed and reported, in report order.
TIMED = ("easy", "greedy", "normal", "hard", "reference")


def bench_bot(
    name: str,
    seed: int,
    budget: float | None,
    iterations: int | None,
    search: dict[str, Any] | None = None,
) -> Bot:
    """A bot of a matchup: ``reference`` is the frozen reference (:mod:`bench.reference`);
    ``budget`` (CPU seconds), ``iterations`` and ``search`` (search parameters that replace
    the game's ``SEARCH``, for A/B comparisons) apply to the hard level only.  No wall-clock
    safety net: the games must not depend on the machine's load; and no CPU ceiling for the
    planner levels (greedy, easy, normal), whose count alone ends their decisions: the games
    do not depend on the core's speed either, but for the hard level's ceiling cuts."""
    if name == "reference":
        return reference_bot(seed, REFERENCE_CPU)
    if name != "hard":
        # the planner levels think for their count alone, as the yardstick they are: no
        # machine's speed changes what a greedy opponent plays (their decision times still show
        # what the count costs; players' bots keep the promised ceiling)
        return make_bot(name, seed, safety_net=False, ceiling=False)
    bot = make_bot(name, seed, budget, iterations=iterations, safety_net=False)
    if search:
        assert isinstance(bot, MctsBot)
        search_parameters("--search", search)  # names and values, as a game's SEARCH
        for key, value in search.items():
            setattr(bot, "cpu_budget" if key == "cpu_budget" else key, value)
        bot.fixed = bot.fixed | frozenset(search)
    return bot


def budget_mode(game_id: str, budget: float | None, iterations: int | None) -> dict[str, Any]:
    """What each bot thinks for in ``game_id``: the counts and CPU ceilings (see the module
    docstring)."""
    known = knowledge_for(game_id)
    search = dict(known.search)
    ceiling = search.get("cpu_budget", HARD_CPU_BUDGET)
    if budget is not None:
        hard: dict[str, Any] = {"mode": "cpu", "cpu_s": budget, "iterations": iterations}
    elif iterations is not None:
        hard = {"mode": "iterations", "iterations": iterations, "cpu_ceiling_s": ceiling}
    else:
        hard = {
            "mode": "work",
            "work": search.get("work", HARD_WORK),
            "iterations": search.get("iterations"),
            "cpu_ceiling_s": ceiling,
        }
    return {
        "hard": hard,
        "planner": {
            "mode": "evaluations",
            # a game's PLAN_EVALS may be a function of the position (Keyflower): named, so the
            # figures stay JSON
            "evaluations": (
                f"{known.plan_evals.__name__}(state, seat)"
                if callable(known.plan_evals)
                else known.plan_evals or PLAN_EVALS
            ),
            # players' planner bots stop at PLAN_CPU_BUDGET; the benchmark's do not
            "cpu_ceiling_s": None,
            "players_cpu_ceiling_s": PLAN_CPU_BUDGET,
        },
        "reference": {"mode": "cpu", "cpu_s": REFERENCE_CPU},
        "wall_clock_safety_net": False,
    }


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a proportion (95% for ``z = 1.96``)."""
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    denom = 1.0 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def play_one(task: tuple[Any, ...]) -> dict[str, Any]:
    """Play one game of a matchup; returns the tested seat's share and decision times."""
    game_id, matchup_name, tested, opponent, index, budget, *rest = task
    options = rest[0] if rest else None
    iterations = rest[1] if len(rest) > 1 else None
    search = rest[2] if len(rest) > 2 else None
    players = rest[3] if len(rest) > 3 else PLAYERS
    seed = index
    tested_seat = index % players
    names = [tested if seat == tested_seat else opponent for seat in range(players)]
    bots = [
        bench_bot(name, derive_seed(seed, "bench-bot", seat), budget, iterations, search)
        for seat, name in enumerate(names)
    ]
    longest: dict[str, float] = {}
    total: dict[str, float] = {}
    count: dict[str, int] = {}
    # CPU time of the thinking thread per decision: on a shared machine the wall clock also
    # counts the time the process waited for a core
    cpu_longest: dict[str, float] = {}
    # per bot name, the decisions that thought (not cached steps of a turn, not forced moves)
    thought_cpu: dict[str, list[float]] = {}
    thought_wall: dict[str, list[float]] = {}
    cuts: dict[str, int] = {}

    def timed(seat: int) -> Any:
        bot = bots[seat]
        name = names[seat]

        def agent(state: Any, s: int) -> Any:
            t0 = time.perf_counter()
            c0 = time.thread_time()
            action = bot.choose(state, s)
            dt = time.perf_counter() - t0
            cpu = time.thread_time() - c0
            cpu_longest[name] = max(cpu_longest.get(name, 0.0), cpu)
            longest[name] = max(longest.get(name, 0.0), dt)
            total[name] = total.get(name, 0.0) + dt
            count[name] = count.get(name, 0) + 1
            if getattr(bot, "last_thought", False):
                thought_cpu.setdefault(name, []).append(round(cpu, 5))
                thought_wall.setdefault(name, []).append(round(dt, 5))
                if getattr(bot, "last_cut", None) is not None:
                    cuts[name] = cuts.get(name, 0) + 1
            return action

        return agent

    result = play_match(game_id, players, seed, [timed(s) for s in range(players)], options)
    winners = result.winners
    share = 1.0 / len(winners) if tested_seat in winners else 0.0
    return {
        "game": game_id,
        "matchup": matchup_name,
        "index": index,
        "seat": tested_seat,
        "share": share,
        "totals": [s["total"] for s in result.scores],
        "replay": replay_line(result, names, matchup_name, tested_seat),
        "longest": longest,
        "total": total,
        "count": count,
        "cpu_longest": cpu_longest,
        "thought_cpu": thought_cpu,
        "thought_wall": thought_wall,
        "cuts": cuts,
    }


def replay_line(
    result: MatchResult, names: Sequence[str], matchup: str, seat: int
) -> dict[str, Any]:
    """One game as a line of ``--replays``: the replay (seed, options, rules version and every
    action: the fit scripts' format, ``bench.fitting.read_games`` reads it back), the bots by
    seat, the tested seat, each seat's scores by category and the winners (``bench.paired``
    reads them back)."""
    replay = result.replay
    return {
        "game": replay.game,
        "seed": replay.seed,
        "players": replay.players,
        "options": dict(replay.options),
        "rules_version": replay.rules_version,
        "bots": list(names),
        "matchup": matchup,
        "seat": seat,
        "actions": [[s, list(action)] for s, action in replay.actions],
        "totals": [row["total"] for row in result.scores],
        "scores": [dict(row) for row in result.scores],
        "winners": list(result.winners),
    }


class ReplayWriter:
    """Appends each finished game's :func:`replay_line` to a gzipped JSON-lines file, flushed
    game by game (a stopped run keeps its games; a second run on the same file adds to it)."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __call__(self, result: dict[str, Any]) -> None:
        with gzip.open(self.path, "at", encoding="utf-8") as f:
            f.write(json.dumps(result["replay"], separators=(",", ":")) + "\n")


def run_matchup(
    game_id: str,
    matchup: Matchup,
    games: int,
    workers: int = 2,
    budget: float | None = None,
    start: int = 0,
    verbose: bool = False,
    options: dict[str, Any] | None = None,
    iterations: int | None = None,
    search: dict[str, Any] | None = None,
    on_result: Callable[[dict[str, Any]], None] | None = None,
    players: int = PLAYERS,
    card: str | None = None,
) -> list[dict[str, Any]]:
    """Play ``games`` games of ``matchup`` (indices ``start..``) with ``players`` seats in
    ``workers`` processes; ``on_result`` is called with each game's result as it finishes.
    With ``card`` only the indices whose game deals that card (:func:`card_seeds`) are
    played."""
    indices: Sequence[int] = range(start, start + games)
    if card is not None:
        indices = card_seeds(game_id, card, indices, players, options)
    tasks = [
        (
            game_id,
            matchup.name,
            matchup.tested,
            matchup.opponent,
            index,
            budget,
            options,
            iterations,
            search,
            players,
        )
        for index in indices
    ]
    if workers <= 1:
        results = []
        try:
            for t in tasks:
                results.append(play_one(t))
                if on_result is not None:
                    on_result(results[-1])
                if verbose:
                    _progress(results)
        except Stopped:
            _STOPPED.append(len(results))
        return results
    ctx = multiprocessing.get_context("spawn")
    results = []
    with ctx.Pool(workers) as pool:
        try:
            for r in pool.imap_unordered(play_one, tasks):
                results.append(r)
                if on_result is not None:
                    on_result(r)
                if verbose:
                    _progress(results)
        except Stopped:
            # SIGTERM: keep the games finished so far (main reports how many)
            pool.terminate()
            _STOPPED.append(len(results))
    results.sort(key=lambda r: r["index"])
    return results


def card_seeds(
    game_id: str,
    card: str,
    seeds: Iterable[int],
    players: int = PLAYERS,
    options: dict[str, Any] | None = None,
) -> list[int]:
    """The seeds among ``seeds`` whose game deals ``card`` (Kingdom Builder: one of the three
    Kingdom Builder cards of the game, KB §2) — a change aimed at one card is played on the games
    that have it, and pairs with the level's games of the same seeds (``bench.paired``)."""
    if game_id != "kingdom-builder":
        raise ValueError(f"--card chooses Kingdom Builder games by their cards, not {game_id}'s")
    from game.kingdom_builder.state import KingdomBuilderState

    game = get_game(game_id)
    out = []
    for seed in seeds:
        state = game.new(players, options, seed)
        assert isinstance(state, KingdomBuilderState)
        if card in state.cards:
            out.append(seed)
    return out


#: Set when a SIGTERM stopped a run (the matchups after it are not played).
_STOPPED: list[int] = []


class Stopped(Exception):
    """The run was told to stop (SIGTERM): the figures cover the games finished so far."""


def _stop(signum: int, frame: Any) -> None:
    raise Stopped()


#: What :func:`_progress` prints of a game, as :mod:`bench.paired` reads it back: index, tested
#: seat, its share of the win, the totals.
PROGRESS_LINE = re.compile(r" game (\d+) seat (\d+): share ([0-9.]+) totals \[([-0-9, ]+)\]")


def _progress(results: list[dict[str, Any]]) -> None:
    wins = sum(r["share"] for r in results)
    n = len(results)
    lo, hi = wilson(wins, n)
    last = results[-1]
    times = " ".join(
        f"{name} cpu p50 {percentile(last['thought_cpu'].get(name, []), 0.5):.2f}s"
        f" max {last['cpu_longest'][name]:.2f}s (wall max {last['longest'][name]:.2f}s)"
        for name in sorted(last["longest"])
        if last["count"].get(name)
    )
    print(
        f"  {last['matchup']} game {last['index']} seat {last['seat']}: share {last['share']:.2f}"
        f" totals {last['totals']} ({times}) | {wins:.1f}/{n} = {wins / n:.3f}"
        f" [{lo:.3f}, {hi:.3f}]",
        flush=True,
    )


def summarise(prefix: str, results: Sequence[dict[str, Any]]) -> dict[str, float]:
    wins = sum(r["share"] for r in results)
    n = len(results)
    lo, hi = wilson(wins, n)
    return {
        f"{prefix}.winrate": round(wins / n, 4) if n else 0.0,
        f"{prefix}.ci_low": round(lo, 4),
        f"{prefix}.ci_high": round(hi, 4),
        f"{prefix}.games": float(n),
    }


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-quantile (0..1) of ``values``, nearest rank (0 for none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def thinking_times(prefix: str, results: Sequence[dict[str, Any]]) -> dict[str, float]:
    """Per bot: p50/p95/max CPU and wall-clock time of the decisions that thought, and how many
    a CPU ceiling cut short (``<prefix>.decision_cpu_s_p50.<bot>`` ...)."""
    out: dict[str, float] = {}
    for name in TIMED:
        cpu = [t for r in results for t in r.get("thought_cpu", {}).get(name, [])]
        wall = [t for r in results for t in r.get("thought_wall", {}).get(name, [])]
        if not cpu:
            continue
        for what, values in (("cpu", cpu), ("wall", wall)):
            out[f"{prefix}.decision_{what}_s_p50.{name}"] = round(percentile(values, 0.5), 3)
            out[f"{prefix}.decision_{what}_s_p95.{name}"] = round(percentile(values, 0.95), 3)
            out[f"{prefix}.decision_{what}_s_max.{name}"] = round(max(values), 3)
        out[f"{prefix}.thinking_decisions.{name}"] = float(len(cpu))
        out[f"{prefix}.ceiling_cuts.{name}"] = float(
            sum(r.get("cuts", {}).get(name, 0) for r in results)
        )
    return out


def decision_times(results: Sequence[dict[str, Any]], *names: str) -> tuple[float, float]:
    """(longest, mean) decision time of the bots called ``names`` over the games."""
    longest = max((r["longest"].get(n, 0.0) for r in results for n in names), default=0.0)
    total = sum(r["total"].get(n, 0.0) for r in results for n in names)
    count = sum(r["count"].get(n, 0) for r in results for n in names)
    return longest, (total / count if count else 0.0)


def sims_per_second(game_id: str, seconds: float, level: str = "mcts") -> float:
    """Search iterations (playouts) per second from the opening of a 4-player game: the mean
    over 3 openings of ``last_iterations / elapsed`` of one whole search (including the
    root's turn planning).  ``level`` is ``"mcts"`` (the mcts bot) or ``"hard"``."""
    return sims_rates(game_id, seconds, level)[0]


def sims_rates(game_id: str, seconds: float, level: str = "mcts") -> tuple[float, float]:
    """:func:`sims_per_second` and the same per second of the process's CPU time (what a
    quiet core would give; on a shared machine the wall-clock rate is lower)."""
    rates = []
    cpu_rates = []
    for seed in range(3):
        state = get_game(game_id).new(PLAYERS, {}, seed)
        seat = state.to_move()[0]
        bot = MctsBot(seed, budget=seconds) if level == "mcts" else hard_bot(seed, seconds)
        t0 = time.perf_counter()
        c0 = time.process_time()
        bot.search(state.determinize(seat, seed), seat)
        cpu = time.process_time() - c0
        rates.append(bot.last_iterations / (time.perf_counter() - t0))
        cpu_rates.append(bot.last_iterations / max(cpu, 1e-9))
    return sum(rates) / len(rates), sum(cpu_rates) / len(cpu_rates)


def _load() -> float:
    """The machine's 1-minute load average (0 where the system does not say)."""
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return 0.0


def run(quick: bool) -> dict[str, float]:
    figures: dict[str, float] = {}
    strength_games = {"greedy_vs_random": 8, "hard_vs_greedy": 2, "easy_vs_greedy": 2}
    if not quick:
        strength_games = {"greedy_vs_random": 200, "hard_vs_greedy": 100, "easy_vs_greedy": 20}
    hard_iterations = 8 if quick else None
    for game_id in game_ids():
        reference = game_id == REFERENCE_GAME
        prefix = "bots" if reference else f"bots.{game_id}"
        get_game(game_id)
        seconds = 1.0 if quick else 3.0
        figures[f"bots.mcts_sims_per_s.{game_id}"] = round(sims_per_second(game_id, seconds), 1)
        figures[f"bots.hard_sims_per_s.{game_id}"] = round(
            sims_per_second(game_id, seconds, "hard"), 1
        )
        games = dict(strength_games)
        if not reference:
            games["normal_vs_easy"] = games["easy_vs_greedy"]
        results = {
            name: run_matchup(game_id, MATCHUPS[name], n, iterations=hard_iterations)
            for name, n in games.items()
        }
        figures.update(summarise(f"{prefix}.greedy_vs_random", results["greedy_vs_random"]))
        figures.update(summarise(f"{prefix}.hard_vs_greedy", results["hard_vs_greedy"]))
        if not reference:
            figures.update(summarise(f"{prefix}.easy_vs_greedy", results["easy_vs_greedy"]))
            figures.update(summarise(f"{prefix}.normal_vs_easy", results["normal_vs_easy"]))
        all_games = [r for rs in results.values() for r in rs]
        easy_max, easy_mean = decision_times(all_games, "easy")
        normal_max, normal_mean = decision_times(all_games, "greedy", "normal")
        hard_max, hard_mean = decision_times(all_games, "hard")
        figures[f"{prefix}.decision_s_max.easy"] = round(easy_max, 3)
        figures[f"{prefix}.decision_s_max.normal"] = round(normal_max, 3)
        figures[f"{prefix}.decision_s_max.hard"] = round(hard_max, 3)
        figures[f"{prefix}.decision_s_mean.hard"] = round(hard_mean, 3)
        if not reference:
            figures[f"{prefix}.decision_s_mean.easy"] = round(easy_mean, 4)
            figures[f"{prefix}.decision_s_mean.normal"] = round(normal_mean, 4)
            figures[f"{prefix}.load_1min"] = _load()
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default=REFERENCE_GAME)
    parser.add_argument("--matchup", choices=sorted(MATCHUPS), action="append")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--start", type=int, default=0, help="first game index (= seed)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--budget",
        type=float,
        default=None,
        help="hard level: CPU seconds per decision instead of its count of playouts",
    )
    parser.add_argument(
        "--iterations", type=int, default=None, help="hard level: playouts per decision"
    )
    parser.add_argument(
        "--search",
        type=json.loads,
        default=None,
        help="hard level: search parameters replacing the game's SEARCH (JSON, e.g. "
        "'{\"rival_plan_evals\": 30}'), for A/B comparisons on common seeds",
    )
    parser.add_argument(
        "--players",
        type=int,
        default=PLAYERS,
        help="seats a game (default 4): the tested bot against players - 1 opponents, its "
        "seat rotated (game i puts it in seat i %% players); chance is 1 / players",
    )
    parser.add_argument(
        "--card",
        default=None,
        metavar="NAME",
        help="Kingdom Builder: play only the games of the --start/--games seeds whose three "
        "cards include NAME (e.g. Citizens), for a change aimed at one card",
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--options", type=options_argument, default=None, help="game options (JSON object)"
    )
    parser.add_argument(
        "--replays",
        default=None,
        metavar="FILE",
        help="append every game, as it finishes, to FILE (gzipped JSON lines: the replay, the "
        "bots by seat, the scores by category; what the fit scripts read)",
    )
    parser.add_argument(
        "--sims",
        type=float,
        default=None,
        metavar="SECONDS",
        help="measure bots.mcts_sims_per_s and bots.hard_sims_per_s of --game (searches of "
        "SECONDS from 3 openings) instead of playing matchups",
    )
    args = parser.parse_args(argv)
    if args.sims is None:
        try:  # the game's own checks of the player count and the options, before any game
            get_game(args.game).new(args.players, args.options, 0)
        except (UnknownGame, BadOptions) as exc:
            parser.error(str(exc))
        if args.card is not None:
            try:
                card_seeds(args.game, args.card, [0], args.players, args.options)
            except ValueError as exc:
                parser.error(str(exc))
    if args.search is not None:
        if not isinstance(args.search, dict):
            parser.error("--search takes a JSON object")
        try:
            search_parameters("--search", args.search)
        except ValueError as exc:
            parser.error(str(exc))
    figures: dict[str, Any] = {}
    prefix = "bots" if args.game == REFERENCE_GAME else f"bots.{args.game}"
    figures["load_1min_before"] = _load()
    if args.sims is not None:
        for level, what in (("mcts", "mcts_sims_per_s"), ("hard", "hard_sims_per_s")):
            rate, cpu_rate = sims_rates(args.game, args.sims, level)
            figures[f"bots.{what}.{args.game}"] = round(rate, 1)
            figures[f"bots.{what}_cpu.{args.game}"] = round(cpu_rate, 1)
        figures["load_1min_after"] = _load()
        print(json.dumps(figures, indent=None if args.json else 1))
        return 0
    signal.signal(signal.SIGTERM, _stop)
    figures[f"{prefix}.budget"] = budget_mode(args.game, args.budget, args.iterations)
    if args.search:
        figures[f"{prefix}.search"] = args.search
    for name in args.matchup or ["greedy_vs_random", "hard_vs_greedy"]:
        figures[f"{prefix}.{name}.load_1min_before"] = _load()
        results = run_matchup(
            args.game,
            MATCHUPS[name],
            args.games,
            workers=args.workers,
            budget=args.budget,
            start=args.start,
            verbose=not args.json,
            options=args.options,
            iterations=args.iterations,
            search=args.search,
            on_result=ReplayWriter(args.replays) if args.replays else None,
            players=args.players,
            card=args.card,
        )
        figures[f"{prefix}.{name}.load_1min_after"] = _load()
        figures[f"{prefix}.{name}.start"] = float(args.start)
        figures[f"{prefix}.{name}.players"] = float(args.players)
        if args.card is not None:
            figures[f"{prefix}.{name}.card"] = args.card
        figures.update(summarise(f"{prefix}.{name}", results))
        for bot in ("easy", "greedy", "normal", "hard", "reference"):
            longest, mean = decision_times(results, bot)
            if longest:
                figures[f"{prefix}.{name}.decision_s_max.{bot}"] = round(longest, 3)
                figures[f"{prefix}.{name}.decision_s_mean.{bot}"] = round(mean, 4)
                cpu = max((r["cpu_longest"].get(bot, 0.0) for r in results), default=0.0)
                figures[f"{prefix}.{name}.decision_cpu_s_max.{bot}"] = round(cpu, 3)
        figures.update(thinking_times(f"{prefix}.{name}", results))
        if _STOPPED:
            figures["stopped_after_games"] = float(_STOPPED[0])
            break
    figures["load_1min_after"] = _load()
    print(json.dumps(figures, indent=None if args.json else 1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

__all__ = ["FIGURES", "run"]
