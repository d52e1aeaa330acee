"""How far Kingdom Builder's hard level is from the best last turn, by the rules' points.

In a seat's last turn of the game nothing after it is the seat's to use, so the best turn is
the one that scores most now (KB §8: the game ends with the round in which a seat builds its last
settlement).  Two measurements on the hard seat's games of a replay file (one JSON object a line,
as ``bench.bots --replays`` writes them; default the committed level games)::

    python -m bench.kb_last_turn gaps --games 120
    python -m bench.kb_last_turn planner --games 40 --evals 1500 3000 6000
    python -m bench.kb_last_turn beams --games 40 --beams 6 25 50 200
    python -m bench.kb_last_turn shapes --games 60 --shapes 10:6000:2 60:40000:0

``gaps``: at the hard seat's last turn start of each game, a wide beam search of the turn
(``--beam`` partial turns a step, judged by the rules' points after each action) finds the most
points the seat could have had right after its turn; printed beside what it had after the turn
it played, game by game, with the mean gap for the turns where the end was already triggered
and for the others.  ``planner``: at every turn start of the hard seat that the game's
``last_turn`` hook calls its last, the bots' turn planner judging by the rules' points
(the game's ``live_scores``, else :func:`game.bots.knowledge.live_totals`: the same values;
beam 6, as the hard level's ``last_turn_plans``) with
each of ``--evals`` evaluations: the best margin it finds and its CPU time, against the first
count given.  ``beams``: at the same turns (the hard seat's last turn of each game, when the
hook calls it so), the points the seat had after the turn it played against :func:`best_points`
with each of ``--beams`` widths, and that search's CPU time: how close the level's last turn
comes to a wide search of the points alone.  ``shapes``: at the same turns, the last-turn
planner (the rules' points as its judge) in each ``--shapes`` form ``BEAM:EVALS:LOOK`` (its beam,
its evaluations and its ``look_through``: how many steps deep an action that leaves the judge's
value unchanged is expanded in the same step; ``m``: two deep, but only where the seat is left
partway through a move, the game's ``midway`` — the search parameter ``last_turn_look``
``"midway"``) — the seat's points after the planner's best
plan (a plan the count cut short finished by a beam of 10), how many were cut short, and the CPU
time: how a shape of the planner would do there.  Counts, not clocks: the figures are the same on
any machine but the CPU seconds.
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from bench.decision_cpu import read_games
from bench.fit_kingdom_builder import replay_of
from game.bots import knowledge as kn
from game.bots.greedy import TurnPlanner
from game.bots.root_turns import look_only_for
from game.commands.common import options_argument
from game.core.api import GameState
from game.core.rng import Rng
from game.kingdom_builder.evaluation import last_turn

DEFAULT_REPLAYS = Path(__file__).resolve().parent / "data" / "kb-level-games.jsonl.gz"


def _points(state: GameState) -> list[int]:
    rows = state.scores() if state.is_over() else state.preview_scores()
    return [int(row["total"]) for row in rows]


def hard_turn_starts(game: dict[str, Any]) -> Iterator[tuple[GameState, list[int] | None]]:
    """The hard seat's turn starts of a replayed game (copies), each with the rules' points
    right after that turn ended (``None`` if the replay stops inside it)."""
    replay = replay_of(game)
    seat = game["seat"]
    turn = None
    start: GameState | None = None
    for state in replay.states():
        if state.turn_id() != turn or state.is_over():
            if start is not None:
                yield start, _points(state)
                start = None
            if state.is_over():
                return
            turn = state.turn_id()
            if seat in state.to_move():
                start = state.clone()
    if start is not None:
        yield start, None


def hard_turn_from_end(game: dict[str, Any], from_end: int) -> tuple[GameState, list[int]] | None:
    """The hard seat's ``from_end``-th last complete turn of a replayed game (1: its last): the
    turn's start and the rules' points right after it (``None`` if the seat has fewer complete
    turns; a turn the replay stops inside is not counted — ``bench.bots`` replays end with the
    game, so there the last complete turn is the seat's last)."""
    complete = [(start, points) for start, points in hard_turn_starts(game) if points is not None]
    if from_end < 1 or len(complete) < from_end:
        return None
    return complete[-from_end]


def best_points(state: GameState, seat: int, beam: int) -> int:
    """The most rules' points ``seat`` can have right after its turn from ``state``: a beam
    search over its actions (``beam`` distinct positions a step, best points first)."""
    frontier = [state]
    turn = state.turn_id()
    best = _points(state)[seat]
    while frontier:
        found: list[tuple[int, GameState]] = []
        for position in frontier:
            for action in position.legal_actions(seat):
                after = position.clone()
                after.apply_unchecked(seat, action)
                points = _points(after)[seat]
                if after.is_over() or after.turn_id() != turn:
                    best = max(best, points)
                else:
                    found.append((points, after))
        found.sort(key=lambda pair: -pair[0])
        seen: set[str] = set()
        frontier = []
        for _, after in found:
            key = after.state_hash()
            if key not in seen:
                seen.add(key)
                frontier.append(after)
                if len(frontier) >= beam:
                    break
    return best


def gaps(games: list[dict[str, Any]], beam: int) -> dict[str, float]:
    """:func:`best_points` against the points after the turn played, at each game's last turn
    of the hard seat; the mean gap where the end was triggered and where it was not."""
    sums: dict[bool, list[float]] = {True: [0, 0.0], False: [0, 0.0]}
    for game in games:
        last = hard_turn_from_end(game, 1)
        if last is None:
            continue
        start, after = last
        seat = game["seat"]
        best = best_points(start.clone(), seat, beam)
        gap = best - after[seat]
        triggered = bool(getattr(start, "end_triggered", False))
        sums[triggered][0] += 1
        sums[triggered][1] += gap
        print(
            f"game {game['seed']}: after {after[seat]}, best {best}, gap {gap}"
            f"{' (end triggered)' if triggered else ''}",
            flush=True,
        )
    out = {}
    for triggered, (count, total) in sums.items():
        name = "triggered" if triggered else "not_triggered"
        out[f"{name}.turns"] = count
        out[f"{name}.mean_gap"] = total / count if count else 0.0
    return out


def planner(games: list[dict[str, Any]], evals: Sequence[int]) -> dict[str, float]:
    """The live-points planner's best margin at the hard seat's last turns, by evaluations."""
    knowledge = kn.knowledge_for("kingdom-builder").for_hard()
    scored = dataclasses.replace(knowledge, evaluate_all=knowledge.live_scores or kn.live_totals)
    cpu = {count: 0.0 for count in evals}
    better = {count: 0 for count in evals}
    worse = {count: 0 for count in evals}
    points = {count: 0.0 for count in evals}
    positions = 0
    for game in games:
        seat = game["seat"]
        for start, _ in hard_turn_starts(game):
            if not last_turn(start, seat):
                continue
            world = start.determinize(seat, 1)
            tops = {}
            for count in evals:
                began = time.process_time()
                plans = TurnPlanner(scored, beam=6, max_evals=count).plans(
                    world.clone(), seat, Rng(1)
                )
                cpu[count] += time.process_time() - began
                tops[count] = max(plan.value for plan in plans)
            positions += 1
            for count in evals:
                difference = tops[count] - tops[evals[0]]
                better[count] += difference > 0
                worse[count] += difference < 0
                points[count] += difference
    out: dict[str, float] = {"positions": positions}
    for count in evals:
        out[f"{count}.cpu_s"] = cpu[count] / positions if positions else 0.0
        out[f"{count}.better"] = better[count]
        out[f"{count}.worse"] = worse[count]
        out[f"{count}.points"] = points[count] / positions if positions else 0.0
    return out


def flagged_last_turns(
    games: list[dict[str, Any]],
) -> Iterator[tuple[dict[str, Any], int, GameState, list[int]]]:
    """Each game's last turn of the hard seat, if the ``last_turn`` hook calls it the last: the
    game, the seat, the turn's start and the rules' points right after it."""
    for game in games:
        seat = game["seat"]
        last = hard_turn_from_end(game, 1)
        if last is not None and last_turn(last[0], seat):
            yield game, seat, last[0], last[1]


def beams(games: list[dict[str, Any]], widths: Sequence[int]) -> dict[str, float]:
    """The seat's points after its last turn as played, and :func:`best_points` with each beam
    width, averaged over the games whose last hard turn the ``last_turn`` hook calls the last."""
    played = 0.0
    found = {width: 0.0 for width in widths}
    cpu = {width: 0.0 for width in widths}
    positions = 0
    for game, seat, start, after in flagged_last_turns(games):
        positions += 1
        played += after[seat]
        row = []
        for width in widths:
            began = time.process_time()
            best = best_points(start.clone(), seat, width)
            cpu[width] += time.process_time() - began
            found[width] += best
            row.append(f"beam {width}: {best}")
        print(f"game {game['seed']}: played {after[seat]}, " + ", ".join(row), flush=True)
    out: dict[str, float] = {"positions": positions}
    if positions:
        out["played.points"] = played / positions
        for width in widths:
            out[f"{width}.points"] = found[width] / positions
            out[f"{width}.cpu_s"] = cpu[width] / positions
    return out


#: A shape of the last-turn planner: its beam, its evaluations and its look-through (a number
#: of steps, or ``"m"``: two, through midway positions only).
Shape = tuple[int, int, int | str]


def shapes(games: list[dict[str, Any]], forms: Sequence[Shape]) -> dict[str, float]:
    """The last-turn planner in each ``(beam, evals, look_through)`` form at the hard seat's
    last turns the ``last_turn`` hook flags: the seat's mean points after its best plan
    (finished by :func:`best_points` with a beam of 10 if the count cut it short), how many
    were cut short, its CPU seconds; beside the points the seat scored there."""
    knowledge = kn.knowledge_for("kingdom-builder").for_hard()
    scored = dataclasses.replace(knowledge, evaluate_all=knowledge.live_scores or kn.live_totals)
    points = dict.fromkeys(forms, 0.0)
    cpu = dict.fromkeys(forms, 0.0)
    short = dict.fromkeys(forms, 0)
    played = 0.0
    positions = 0
    for _game, seat, start, after in flagged_last_turns(games):
        positions += 1
        played += after[seat]
        for form in forms:
            beam, evals, look = form
            began = time.process_time()
            planner = TurnPlanner(
                scored,
                beam=beam,
                max_evals=evals,
                look_through=2 if look == "m" else int(look),
                look_only=look_only_for(scored, "midway" if look == "m" else "any"),
            )
            plans = planner.plans(start.clone(), seat, Rng(1))
            cpu[form] += time.process_time() - began
            state = start.clone()
            turn = state.turn_id()
            for action in plans[0].actions:
                state.apply_unchecked(seat, action)
            if not state.is_over() and state.turn_id() == turn:
                short[form] += 1
                points[form] += best_points(state, seat, 10)
            else:
                points[form] += _points(state)[seat]
    out: dict[str, float] = {"positions": positions}
    if positions:
        out["played.points"] = played / positions
        for form in forms:
            name = ":".join(str(part) for part in form)
            out[f"{name}.points"] = points[form] / positions
            out[f"{name}.cut_short"] = short[form]
            out[f"{name}.cpu_s"] = cpu[form] / positions
    return out


def _shape(text: str) -> Shape:
    """``BEAM:EVALS:LOOK`` as whole numbers (beam and evaluations at least 1), LOOK a whole
    number or ``m`` (midway positions only)."""
    parts = text.split(":")
    try:
        if len(parts) != 3:
            raise ValueError(text)
        beam, evals = int(parts[0]), int(parts[1])
        look: int | str = "m" if parts[2] == "m" else int(parts[2])
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not BEAM:EVALS:LOOK") from None
    if beam < 1 or evals < 1 or (isinstance(look, int) and look < 0):
        raise argparse.ArgumentTypeError(f"{text!r}: beam and evaluations >= 1, look >= 0 or m")
    return beam, evals, look


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("gaps", "planner", "beams", "shapes"))
    parser.add_argument("--replays", type=Path, default=DEFAULT_REPLAYS)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--beam", type=int, default=200)
    parser.add_argument("--evals", type=int, nargs="+", default=[1500, 3000, 6000])
    parser.add_argument("--beams", type=int, nargs="+", default=[6, 25, 50, 200])
    parser.add_argument("--shapes", type=_shape, nargs="+", default=[(10, 6000, 2), (60, 40000, 0)])
    parser.add_argument(
        "--options",
        type=options_argument,
        default={},
        help="the games' options (JSON; default the base game)",
    )
    args = parser.parse_args(argv)
    if (
        args.games < 1
        or args.beam < 1
        or any(count < 1 for count in args.evals)
        or any(width < 1 for width in args.beams)
    ):
        parser.error("--games, --beam, --evals and --beams must be positive")
    games = list(read_games(args.replays, args.games, args.options))
    if args.command == "gaps":
        result = gaps(games, args.beam)
    elif args.command == "planner":
        result = planner(games, args.evals)
    elif args.command == "shapes":
        result = shapes(games, args.shapes)
    else:
        result = beams(games, args.beams)
    for name, value in result.items():
        print(f"{name}: {round(value, 3)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
