"""The analysis of one seat's game: each of its turns judged, the graph, the turning points.

**Only what the seat could see.**  Every turn of the reviewed seat is judged from the position
before it as the seat saw it: ``state.determinize(seat, seed)`` — other seats' hidden cards and
unrevealed choices, the order of every deck and bag resampled — never the real one.  The
seeds come from the seat and the step alone (never from the replay's own seed, which decides
every hidden card), so two games the seat could not tell apart get the same review.  The graph
is worked out the same way: each point is the evaluation averaged over sampled worlds of what
the seat saw then.

**A turn's judgement.**  The hard level's search (:func:`game.bots.hard_bot`, with a fixed
playout count instead of a time, so a review is reproducible) looks for the best turn.  The
turn the seat played and the turn found are then played in the same ``worlds`` sampled worlds
(common random numbers: the same hidden cards, draws and rival replies for both), each followed
by a round of the search's look-ahead — the rivals' cheap policy, the seat's own next turn by
the planner — and compared by the seat's margin over its strongest rival at the end, in the
game's points.  The **loss** is how much the found turn did better (0 when it did not); the
**reasons** are what it has more of right after the turn, in the evaluation's terms
(:mod:`game.bots.reasons`).

**The turning points** are the turns that lost most (at least a tenth of the game's ``SCALE``
and :data:`MIN_LOSS` points), at most :data:`TURNING_POINTS`, worst first.

The result is a plain dict (``docs/review.md`` lists every field); :func:`review_replay` is the
entry point, :func:`review_positions` the same from positions (tests build twins with it).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from game.bots import make_bot
from game.bots.base import BotCancelled, CancelToken, apply_trusted, check_cancel
from game.bots.greedy import TurnPlanner
from game.bots.knowledge import Knowledge, knowledge_for, relative_value
from game.bots.mcts import MctsBot
from game.bots.reasons import compare, play_turn
from game.core.api import GameState
from game.core.match import Replay
from game.core.rng import Rng, derive_seed
from game.core.types import Action, BadState, Seat
from game.review.settings import ReviewSettings, default_settings

#: The salt of every seed a review uses (with the seat and the step; never the game's seed).
SALT = "lantern-review"
#: At most this many turning points per seat.
TURNING_POINTS = 3
#: A turning point loses at least this many points (and a tenth of the game's ``SCALE``).
MIN_LOSS = 0.5
#: The share of ``SCALE`` a turning point loses at least.
MIN_LOSS_SHARE = 0.1
#: The planner's evaluations for the seat's own next turn in a look-ahead (the hard level's
#: ``playout_plan_evals`` when the game sets it to more than 0).
PLAYOUT_PLAN_EVALS = 100
#: A look-ahead ends after at most this many rounds of turns (turns x players).
LOOK_AHEAD_TURNS = 3

Progress = Callable[[int, int], None]


class ReviewCancelled(Exception):
    """The review was cancelled (its cancel token was set)."""


@dataclass
class SeatTurn:
    """One turn of the reviewed seat: where it began and what the seat played."""

    number: int  # the seat's n-th turn, from 1
    turn: int  # the turn id
    start: int  # the replay step (actions applied) before the seat's first action of the turn
    before: GameState  # the real position then (only ever determinized for the seat)
    steps: list[int] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    forced: bool = True  # every decision of the turn had a single legal action


@dataclass
class GraphPoint:
    """A point of the graph: a position after a turn ended (or the start, or the end)."""

    step: int
    state: GameState


def min_loss(knowledge: Knowledge) -> float:
    """The least loss that makes a turning point (points)."""
    return max(MIN_LOSS, MIN_LOSS_SHARE * knowledge.scale)


def walk(replay: Replay, seat: Seat) -> tuple[list[SeatTurn], list[GraphPoint], GameState]:
    """Replay the game once: the seat's turns, the graph's positions (copies), the end.

    :class:`BadState` if the replay does not replay (an illegal action, a wrong final hash)."""
    if not 0 <= seat < replay.players:
        raise BadState(f"the game has seats 0 to {replay.players - 1}, not {seat}")
    turns: dict[int, SeatTurn] = {}
    points: list[GraphPoint] = []
    states: Iterator[GameState] = replay.states()
    state = next(states)
    points.append(GraphPoint(0, state.clone()))
    for i, (who, _action) in enumerate(replay.actions):
        before_turn = state.turn_id()
        if who == seat:
            record = turns.get(before_turn)
            if record is None:
                record = turns[before_turn] = SeatTurn(
                    len(turns) + 1, before_turn, i, state.clone()
                )
            record.steps.append(i)
            record.actions.append(replay.actions[i][1])
            if len(state.legal_actions(seat)) > 1:
                record.forced = False
        state = next(states)
        if state.turn_id() != before_turn or state.is_over():
            points.append(GraphPoint(i + 1, state.clone()))
    if points[-1].step != len(replay.actions):
        points.append(GraphPoint(len(replay.actions), state.clone()))  # a save: where it stands
    if replay.final_hash is not None and state.state_hash() != replay.final_hash:
        raise BadState(
            f"final state hash {state.state_hash()} differs from the recorded {replay.final_hash}"
        )
    return list(turns.values()), points, state


def search_bot(game_id: str, seed: int, iterations: int) -> MctsBot:
    """The hard level's search with the game's tuning and a fixed playout count: no CPU
    ceiling and no wall-clock safety net, so the count alone ends it (a review gives the same
    result on any machine, at any load)."""
    bot = make_bot("hard", seed, iterations=iterations, safety_net=False, ceiling=False)
    assert isinstance(bot, MctsBot)
    return bot


def margin(state: GameState, seat: Seat, knowledge: Knowledge) -> float:
    """``seat``'s margin over its strongest rival: the final scores' once the game is over,
    else the evaluation's."""
    if state.is_over():
        return relative_value([float(row["total"]) for row in state.scores()], seat)
    return knowledge.value(state, seat)


def margins(state: GameState, knowledge: Knowledge) -> list[float]:
    """Every seat's margin over its strongest rival in ``state``."""
    if state.is_over():
        values = [float(row["total"]) for row in state.scores()]
    else:
        values = knowledge.evaluate_all(state)
    return [relative_value(values, s) for s in range(state.players)]


def look_ahead(
    world: GameState,
    seat: Seat,
    knowledge: Knowledge,
    rng: Rng,
    plan_evals: int,
    most: int,
) -> None:
    """Play ``world`` on until ``seat`` has played its next turn (or the game ends, or ``most``
    turns have ended): rivals by the game's cheap policy, ``seat`` by a small turn planner, as
    the hard level's playouts do.  Both turns compared then include exactly one more turn of
    the seat's own, whatever they did to the turn order."""
    rollout_action = knowledge.rollout_action
    ends = 0
    while ends < most and not world.is_over():
        mover = world.to_move()[0]
        turn = world.turn_id()
        if mover == seat:
            plans = TurnPlanner(knowledge, beam=2, max_evals=plan_evals).plans(world, mover, rng)
            play_turn(world, seat, plans[0].actions if plans else (), knowledge, rng, plan_evals)
            return
        actions = world.legal_actions(mover)
        apply_trusted(world, mover, rollout_action(world, mover, actions, rng))
        if world.turn_id() != turn:
            ends += 1


def _plain(actions: tuple[Action, ...] | list[Action]) -> list[list[Any]]:
    return [list(a) for a in actions]


def _texts(state: GameState, seat: Seat, actions: tuple[Action, ...]) -> list[str]:
    """English descriptions of a turn's actions, each in the position it was taken in."""
    copy = state.clone()
    texts = []
    for action in actions:
        texts.append(copy.describe(action))
        if seat in copy.to_move() and action in copy.legal_actions(seat):
            apply_trusted(copy, seat, action)
        else:
            break
    return texts


def judge(
    record: SeatTurn,
    seat: Seat,
    knowledge: Knowledge,
    settings: ReviewSettings,
    cancel: CancelToken | None = None,
) -> dict[str, Any]:
    """One turn of ``seat``: the move made against the best the search finds (see the module
    docstring), as a plain dict."""
    seed = derive_seed(0, SALT, seat, record.start)
    before = record.before
    made = tuple(record.actions)
    entry: dict[str, Any] = {
        "number": record.number,
        "turn": record.turn,
        "step": record.start,
        "steps": list(record.steps),
        "seat": seat,
        "forced": record.forced,
        "move": _plain(made),
        "move_text": _texts(before.determinize(seat, seed), seat, made),
    }
    first = before.determinize(seat, seed)
    worlds = [
        before.determinize(seat, derive_seed(seed, "world", w)) for w in range(settings.worlds)
    ]
    entry["value_before"] = _mean([knowledge.value(w, seat) for w in worlds])
    if record.forced:
        best = made
    else:
        bot = search_bot(before.game_id, derive_seed(seed, "search"), settings.iterations)
        found = bot.search(first.clone(), seat, cancel)
        best = play_turn(
            first.clone(), seat, found, knowledge, Rng(derive_seed(seed, "best")), cancel=cancel
        )
    entry["best"] = _plain(best)
    entry["best_text"] = _texts(first, seat, best)
    same = best == made
    entry["same"] = same
    most = LOOK_AHEAD_TURNS * before.players
    # a hard level that plays its own later turns by the cheap policy (0) still gets a planner
    # here: the look-ahead is the seat's own next turn, as well played as the search can
    plan_evals = int(dict(knowledge.search).get("playout_plan_evals") or PLAYOUT_PLAN_EVALS)
    afters: dict[str, list[GameState]] = {"move": [], "best": []}
    ahead: dict[str, list[GameState]] = {"move": [], "best": []}
    for w, base in enumerate(worlds):
        check_cancel(cancel)
        world_seed = derive_seed(seed, "world", w)
        for name, plan in (("move", made), ("best", best)):
            if name == "best" and same:
                continue
            world = base.clone()
            play_turn(
                world, seat, plan, knowledge, Rng(derive_seed(world_seed, "finish")), cancel=cancel
            )
            afters[name].append(world.clone())
            if same:
                continue
            rng = Rng(derive_seed(world_seed, "look-ahead"))
            look_ahead(world, seat, knowledge, rng, plan_evals, most)
            ahead[name].append(world)
    entry["value_move"] = _mean([margin(w, seat, knowledge) for w in afters["move"]])
    if same:
        entry["value_best"] = entry["value_move"]
        entry["outlook_move"] = entry["outlook_best"] = None
        entry["loss"] = 0.0
        entry["reasons"] = []
    else:
        entry["value_best"] = _mean([margin(w, seat, knowledge) for w in afters["best"]])
        entry["outlook_move"] = _mean([margin(w, seat, knowledge) for w in ahead["move"]])
        entry["outlook_best"] = _mean([margin(w, seat, knowledge) for w in ahead["best"]])
        loss = max(0.0, entry["outlook_best"] - entry["outlook_move"])
        entry["loss"] = round(loss, 3)
        # why, in the evaluation's terms, where the loss is measured (after the next turn)
        entry["reasons"] = (
            [r.to_plain() for r in compare(ahead["move"], ahead["best"], seat)] if loss else []
        )
    for key in ("value_before", "value_move", "value_best", "outlook_move", "outlook_best"):
        if entry[key] is not None:
            entry[key] = round(entry[key], 3)
    return entry


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def graph(
    points: list[GraphPoint], seat: Seat, knowledge: Knowledge, settings: ReviewSettings
) -> dict[str, Any]:
    """Every seat's margin over its strongest rival after every turn, as ``seat`` could judge
    it then (the evaluation averaged over sampled worlds; the final scores at the end), and the
    win chance the search reads from it."""
    steps: list[int] = []
    rows: list[list[float]] = []
    wins: list[list[float]] = []
    for point in points:
        state = point.state
        if state.is_over():
            row = margins(state, knowledge)
            winners = state.winners()
            win = [1.0 / len(winners) if s in winners else 0.0 for s in range(state.players)]
        else:
            samples = [
                margins(
                    state.determinize(seat, derive_seed(0, SALT, seat, point.step, "g", g)),
                    knowledge,
                )
                for g in range(settings.graph_worlds)
            ]
            row = [_mean([m[s] for m in samples]) for s in range(state.players)]
            win = [_logistic(m / knowledge.scale) for m in row]
        steps.append(point.step)
        rows.append([round(m, 3) for m in row])
        wins.append([round(p, 4) for p in win])
    return {"steps": steps, "margins": rows, "win": wins}


def _logistic(x: float) -> float:
    if x < -30.0:
        return 0.0
    if x > 30.0:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


def turning_points(turns: list[dict[str, Any]], knowledge: Knowledge) -> list[int]:
    """The numbers of the turns that lost most (worst first; see the module docstring)."""
    least = min_loss(knowledge)
    lost = [t for t in turns if t["loss"] >= least]
    lost.sort(key=lambda t: (-t["loss"], t["number"]))
    return [t["number"] for t in lost[:TURNING_POINTS]]


def judged_turns(replay: Replay, seat: Seat) -> int:
    """How many turns of ``seat`` have a choice (what the default budget is spread over)."""
    turns, _points, _end = walk(replay, seat)
    return sum(1 for t in turns if not t.forced)


def review_replay(
    replay: Replay,
    seat: Seat,
    settings: ReviewSettings | None = None,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> dict[str, Any]:
    """Review ``seat``'s game in ``replay`` (see the module docstring); ``settings`` default to
    :func:`~game.review.settings.default_settings`.  ``progress(done, total)`` is called after
    each judged turn; a set ``cancel`` raises :class:`ReviewCancelled`.  :class:`BadState` if the
    replay does not replay."""
    turns, points, end = walk(replay, seat)
    if settings is None:
        settings = default_settings(replay.game, sum(1 for t in turns if not t.forced))
    return review_positions(replay.game, seat, turns, points, end, settings, progress, cancel)


def review_positions(
    game_id: str,
    seat: Seat,
    turns: list[SeatTurn],
    points: list[GraphPoint],
    end: GameState,
    settings: ReviewSettings,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> dict[str, Any]:
    """The review from the positions :func:`walk` found (see :func:`review_replay`)."""
    knowledge = knowledge_for(game_id)
    total = len(turns) + 1
    try:
        judged = []
        for i, record in enumerate(turns):
            check_cancel(cancel)
            judged.append(judge(record, seat, knowledge, settings, cancel))
            if progress is not None:
                progress(i + 1, total)
        check_cancel(cancel)
        series = graph(points, seat, knowledge, settings)
    except BotCancelled:
        raise ReviewCancelled("the review was cancelled") from None
    if progress is not None:
        progress(total, total)
    over = end.is_over()
    return {
        "game": game_id,
        "seat": seat,
        "players": end.players,
        "settings": settings.to_plain(),
        "scale": knowledge.scale,
        "min_loss": round(min_loss(knowledge), 3),
        "turns": judged,
        "turning_points": turning_points(judged, knowledge),
        "graph": series,
        "over": over,
        "scores": [int(row["total"]) for row in end.scores()] if over else None,
        "winners": end.winners() if over else [],
    }
