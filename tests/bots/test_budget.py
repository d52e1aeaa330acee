"""Budgets no machine load can shrink (``game/bots/budget.py``, issue 23): a count first, a
CPU-time ceiling of the thinking thread, a wall-clock safety net of 3x that ceiling; the games'
hooks (``PLAN_EVALS``, ``SEARCH["iterations"]``, ``SEARCH["cpu_budget"]``); the host's deadline
just past the bot's own safety net."""

from __future__ import annotations

import dataclasses
import time
from typing import Any

import pytest

from game.bots import (
    DIFFICULTIES,
    BotProcess,
    GreedyBot,
    MctsBot,
    decision_deadline,
    hard_bot,
    make_bot,
)
from game.bots import knowledge as kn
from game.bots.budget import (
    HARD_CPU_BUDGET,
    HARD_WORK,
    PLAN_CPU_BUDGET,
    PLAN_EVALS,
    SAFETY_FACTOR,
    Budget,
    Meter,
    host_deadline,
)
from game.core.registry import get_game
from tests import testgame

testgame.register()


def burn(seconds: float) -> None:
    """Use ``seconds`` of this thread's CPU time."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


# ---- the meter --------------------------------------------------------------------------------


def test_the_cpu_ceiling_counts_the_threads_cpu_time_not_the_clock() -> None:
    meter = Meter(cpu=0.1, wall=None)
    time.sleep(0.25)  # waiting (for a core, for anything) is not thinking
    assert not meter.spent()
    burn(0.12)
    assert meter.spent()
    assert meter.cut == "cpu"
    assert meter.spent(), "a spent meter stays spent"
    assert meter.cpu_seconds() >= 0.1


def test_the_safety_net_is_three_times_the_ceiling_of_wall_clock_time() -> None:
    budget = Budget(cpu=0.05)
    assert budget.wall == pytest.approx(SAFETY_FACTOR * 0.05)
    assert SAFETY_FACTOR == 3.0
    meter = budget.meter()
    time.sleep(0.16)
    assert meter.spent()
    assert meter.cut == "wall"
    assert Budget(cpu=0.05, safety_net=False).wall is None
    quiet = Budget(cpu=0.05, safety_net=False).meter()
    time.sleep(0.16)
    assert not quiet.spent()


def test_a_meter_without_limits_is_never_spent() -> None:
    meter = Meter.unlimited()
    burn(0.02)
    assert not meter.spent()
    assert meter.cut is None


def test_a_share_of_a_meter_takes_part_of_its_ceiling_and_its_net() -> None:
    meter = Meter(cpu=1.0, wall=None)
    part = meter.share(0.05)
    burn(0.06)
    assert part.spent() and part.cut == "cpu"
    assert not meter.spent()
    netted = Meter(cpu=10.0, wall=0.05).share(0.5)
    time.sleep(0.06)
    assert netted.spent() and netted.cut == "wall"
    assert not Meter.unlimited().share(0.1).spent()


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"count": 0}, {"count": True}, {"cpu": 0.0}, {"cpu": -1.0}, {"cpu": float("nan")}],
)
def test_a_budget_without_a_positive_bound_is_refused(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        Budget(**kwargs)


# ---- the bots' budgets ------------------------------------------------------------------------


def test_the_planner_stops_at_its_count_and_the_same_count_gives_the_same_turn() -> None:
    """A greedy decision is bounded by its evaluations (not by time): with the CPU ceiling and
    without it, the same seed plans the same turn — the ceiling is never reached."""
    state = get_game("kingdom-builder").new(4, {}, 3)
    seat = state.to_move()[0]
    bounded = GreedyBot(5, max_evals=50)
    free = GreedyBot(5, max_evals=50, cpu_budget=None)
    assert bounded.choose(state.determinize(seat, 1), seat) == free.choose(
        state.determinize(seat, 1), seat
    )
    assert bounded.last_thought and bounded.last_cut is None
    assert 50 <= bounded.last_evals < 50 + len(state.legal_actions(seat)) + 1
    assert free.last_evals == bounded.last_evals


def test_the_planners_cpu_ceiling_cuts_a_count_too_large(monkeypatch: pytest.MonkeyPatch) -> None:
    state = get_game("kingdom-builder").new(4, {}, 3)
    seat = state.to_move()[0]
    known = kn.knowledge_for("kingdom-builder")

    def slow_evaluate(s: Any) -> list[float]:
        burn(0.002)
        return known.evaluate_all(s)

    slow = dataclasses.replace(known, evaluate_all=slow_evaluate)
    # (no wall-clock safety net: on a busy test machine it could end the planning first)
    bot = GreedyBot(5, max_evals=100_000, cpu_budget=0.1, safety_net=False, knowledge=slow)
    c0 = time.thread_time()
    action = bot.choose(state.determinize(seat, 1), seat)
    assert action in state.legal_actions(seat)
    assert bot.last_cut == "cpu"
    assert bot.last_evals < 100
    assert time.thread_time() - c0 < 0.1 + 0.3


def test_a_games_plan_evals_sets_the_greedy_levels_count(monkeypatch: pytest.MonkeyPatch) -> None:
    known = dataclasses.replace(kn.knowledge_for(testgame.GAME_ID), plan_evals=7)
    monkeypatch.setattr(
        "game.bots.greedy.knowledge_for",
        lambda game_id: known if game_id == testgame.GAME_ID else kn.knowledge_for(game_id),
    )
    state = get_game(testgame.GAME_ID).new(3, {}, 4)
    seat = state.to_move()[0]
    for name in ("easy", "normal", "greedy"):
        bot = make_bot(name, 1)
        assert isinstance(bot, GreedyBot)
        assert bot.evals_for(known, state, seat) == 7
        bot.choose(state.determinize(seat, 1), seat)
        assert bot.last_evals < 7 + len(state.legal_actions(seat)) + 1
    assert GreedyBot(1, max_evals=30).evals_for(known, state, seat) == 30
    plain = dataclasses.replace(known, plan_evals=None)
    assert GreedyBot(1).evals_for(plain, state, seat) == PLAN_EVALS


def test_plan_evals_may_depend_on_the_position() -> None:
    """A game whose positions cost very different amounts to evaluate may give its count as a
    function of the position; a function that answers nonsense is a clear error."""
    known = kn.knowledge_for(testgame.GAME_ID)
    state = get_game(testgame.GAME_ID).new(3, {}, 4)
    seat = state.to_move()[0]
    by_seat = dataclasses.replace(known, plan_evals=lambda s, q: 10 + q)
    assert GreedyBot(1).evals_for(by_seat, state, seat) == 10 + seat
    broken = dataclasses.replace(known, plan_evals=lambda s, q: 0)
    with pytest.raises(ValueError, match="PLAN_EVALS"):
        GreedyBot(1).evals_for(broken, state, seat)
    assert kn._plan_evals("g", None) is None
    assert kn._plan_evals("g", 40) == 40


def test_the_hard_level_takes_the_games_iterations_and_ceiling(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """By default the hard level plays the game's ``SEARCH["iterations"]`` within its
    ``SEARCH["cpu_budget"]``; a budget the caller gives (CPU seconds, or iterations) is kept."""
    known = dataclasses.replace(
        kn.knowledge_for(testgame.GAME_ID), search=(("cpu_budget", 2.5), ("iterations", 9))
    )
    monkeypatch.setattr(
        "game.bots.mcts.knowledge_for",
        lambda game_id: known if game_id == testgame.GAME_ID else kn.knowledge_for(game_id),
    )
    state = get_game(testgame.GAME_ID).new(3, {}, 4)
    seat = state.to_move()[0]

    default = hard_bot(1)
    default.search(state.determinize(seat, 1), seat)
    assert (default.iterations, default.cpu_budget, default.work) == (9, 2.5, HARD_WORK)
    assert default.last_iterations >= 9 and default.last_cut is None

    counted = hard_bot(1, iterations=4)
    counted.search(state.determinize(seat, 1), seat)
    assert (counted.iterations, counted.cpu_budget, counted.work) == (4, 2.5, None)

    timed = hard_bot(1, budget=0.05, safety_net=False)
    timed.search(state.determinize(seat, 1), seat)
    assert (timed.iterations, timed.cpu_budget, timed.work) == (None, 0.05, None)
    assert timed.last_cut == "cpu"


def test_the_same_seed_and_count_give_the_same_hard_decision() -> None:
    state = get_game("glen-more").new(4, {}, 6)
    seat = state.to_move()[0]
    first = hard_bot(3, iterations=12)
    second = hard_bot(3, iterations=12)
    assert first.search(state.determinize(seat, 2), seat) == second.search(
        state.determinize(seat, 2), seat
    )
    assert first.last_iterations == second.last_iterations


@pytest.mark.parametrize(
    ("search", "message"),
    [
        ({"iterations": 0}, "iterations"),
        ({"iterations": 2.5}, "iterations"),
        ({"iterations": True}, "iterations"),
        ({"work": 0}, "work"),
        ({"cpu_budget": 0}, "cpu_budget"),
        ({"cpu_budget": "3"}, "cpu_budget"),
    ],
)
def test_a_bad_search_budget_is_refused(search: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        kn.search_parameters("some-game", search)


@pytest.mark.parametrize("value", [0, -5, 1.5, True, "many"])
def test_a_bad_plan_evals_is_refused(value: Any) -> None:
    with pytest.raises(ValueError, match="PLAN_EVALS"):
        kn._positive_int("some-game", "PLAN_EVALS", value)


def test_every_game_sets_its_counts() -> None:
    """Each game's evaluation module calibrates its own counts (issue 23)."""
    for game_id in ("kingdom-builder", "keyflower", "glen-more"):
        known = kn.knowledge_for(game_id)
        state = get_game(game_id).new(4, {}, 1)
        evals = known.evals_for(state, state.to_move()[0])
        assert evals is not None and evals >= 50
        search = dict(known.search)
        assert (search.get("work") or 0) >= 1000 or (search.get("iterations") or 0) >= 10
        assert search.get("cpu_budget", HARD_CPU_BUDGET) <= HARD_CPU_BUDGET < 2.0


@pytest.mark.parametrize("budget", [0.0, -1.0])
def test_make_bot_refuses_a_budget_that_is_not_positive(budget: float) -> None:
    with pytest.raises(ValueError, match="budget"):
        make_bot("hard", 1, budget)
    with pytest.raises(ValueError, match="iteration"):
        make_bot("mcts", 1, iterations=0)


def test_mcts_thinks_for_a_count_unless_given_cpu_seconds() -> None:
    counted = make_bot("mcts", 1)
    assert isinstance(counted, MctsBot) and counted.iterations is not None
    timed = make_bot("mcts", 1, 0.2)
    assert isinstance(timed, MctsBot)
    assert (timed.iterations, timed.cpu_budget) == (None, 0.2)
    assert not make_bot("normal", 1, safety_net=False).safety_net  # type: ignore[attr-defined]


def test_without_a_ceiling_the_count_alone_ends_every_decision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``make_bot(..., ceiling=False)`` (``lantern simulate``) drops every level's CPU ceiling —
    a game's ``SEARCH["cpu_budget"]`` cannot bring it back — but keeps a ``budget`` given as
    the bound.  Checked on a CPU clock that runs a thousand times fast (a very slow core):
    with its ceiling the hard level gives up its race and greedy its plan; without, they
    decide as on the real clock."""
    known = dataclasses.replace(
        kn.knowledge_for(testgame.GAME_ID), search=(("cpu_budget", 2.5), ("iterations", 9))
    )
    monkeypatch.setattr(
        "game.bots.mcts.knowledge_for",
        lambda game_id: known if game_id == testgame.GAME_ID else kn.knowledge_for(game_id),
    )
    for name in ("easy", "normal", "greedy", "hard", "mcts"):
        bot: Any = make_bot(name, 1, safety_net=False, ceiling=False)
        assert bot.cpu_budget is None, name
    assert make_bot("hard", 1, 0.3, ceiling=False).cpu_budget == 0.3  # type: ignore[attr-defined]
    state = get_game(testgame.GAME_ID).new(3, {}, 4)
    seat = state.to_move()[0]
    uncapped: Any = make_bot("hard", 1, safety_net=False, ceiling=False)
    uncapped.search(state.determinize(seat, 1), seat)
    assert (uncapped.iterations, uncapped.cpu_budget) == (9, None), "SEARCH brings no ceiling"

    state = get_game("kingdom-builder").new(4, {}, 3)
    seat = state.to_move()[0]

    def decide(name: str, ceiling: bool) -> tuple[Any, str | None]:
        bot: Any = make_bot(name, 5, iterations=6, safety_net=False, ceiling=ceiling)
        return bot.choose(state.determinize(seat, 2), seat), bot.last_cut

    real = {name: decide(name, True) for name in ("greedy", "hard")}
    assert all(cut is None for _, cut in real.values())
    clock = iter(range(0, 10**9, 1000))
    monkeypatch.setattr(time, "thread_time", lambda: float(next(clock)) / 1000.0)
    assert decide("hard", True)[1] == "cpu" and decide("greedy", True)[1] == "cpu"
    for name, (action, _) in real.items():
        assert decide(name, False) == (action, None), name


# ---- the host's deadline ----------------------------------------------------------------------


def test_the_hosts_deadline_is_just_past_the_bots_own_safety_net() -> None:
    assert decision_deadline("normal", "kingdom-builder") == host_deadline(PLAN_CPU_BUDGET)
    assert host_deadline(PLAN_CPU_BUDGET) > SAFETY_FACTOR * PLAN_CPU_BUDGET
    ceiling = dict(kn.knowledge_for("keyflower").search).get("cpu_budget", HARD_CPU_BUDGET)
    assert decision_deadline("hard", "keyflower") == host_deadline(ceiling)
    assert decision_deadline("hard", "keyflower", 0.5) == host_deadline(0.5)
    assert DIFFICULTIES["hard"].max_seconds == HARD_CPU_BUDGET


def test_a_queued_decisions_deadline_starts_when_the_process_takes_it_up() -> None:
    """Behind a decision that thinks for a second of CPU, a quick one with a 0.5 s deadline is
    not timed out while it waits: its deadline runs from when the worker process starts it."""
    state = get_game("kingdom-builder").new(4, {}, 3)
    seat = state.to_move()[0]
    with BotProcess() as process:
        warm = process.decide("random", 1, None, state, seat, 2)
        warm.result(timeout=120)
        slow = process.decide("mcts", 2, 1.0, state, seat, 2)
        quick = process.decide("random", 3, None, state, seat, 2, deadline=0.5)
        assert slow.result(timeout=120) in state.legal_actions(seat)
        assert quick.result(timeout=120) in state.legal_actions(seat)


# ---- the search's work count ------------------------------------------------------------------


def test_a_work_budget_ends_the_race_after_the_round_that_reaches_it() -> None:
    """``work`` counts what the playouts do (planner evaluations, cheap-policy actions, final
    evaluations): the race stops at the end of the round in which it is reached, and the same
    seed and work give the same decision."""
    state = get_game("glen-more").new(4, {}, 6)
    seat = state.to_move()[0]
    first = hard_bot(3, iterations=10_000)
    first.work = 400
    plan = first.search(state.determinize(seat, 2), seat)
    assert first.last_work >= 400
    assert first.last_cut is None
    assert first.last_iterations < 10_000
    second = hard_bot(3, iterations=10_000)
    second.work = 400
    assert second.search(state.determinize(seat, 2), seat) == plan
    assert (second.last_work, second.last_iterations) == (first.last_work, first.last_iterations)
    with pytest.raises(ValueError, match="work"):
        MctsBot(1, work=0)


def test_rivals_in_playouts_may_be_greedy_planners(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``rival_plan_evals`` the other seats plan their turns in the playouts (with that
    many evaluations) instead of playing the cheap policy."""
    from game.bots import greedy

    planned: list[int] = []
    real = greedy.TurnPlanner.plans

    def recorded(self: Any, state: Any, seat: int, *args: Any, **kwargs: Any) -> Any:
        planned.append(seat)
        return real(self, state, seat, *args, **kwargs)

    monkeypatch.setattr(greedy.TurnPlanner, "plans", recorded)
    state = get_game("kingdom-builder").new(4, {}, 6)
    seat = state.to_move()[0]
    settings: dict[str, Any] = {
        "budget": None,
        "iterations": 8,
        "root_policy": "race",
        "horizon_extra": 1,
        "playout_plan_evals": 30,
    }
    MctsBot(3, **settings).search(state.determinize(seat, 2), seat)
    assert set(planned) == {seat}  # the root's planner and its own next turns only
    planned.clear()
    MctsBot(3, rival_plan_evals=20, **settings).search(state.determinize(seat, 2), seat)
    assert set(planned) == {0, 1, 2, 3}
