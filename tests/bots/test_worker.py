"""Bots thinking in the background: results, cancellation, deadlines, the worker process."""

from __future__ import annotations

import threading
import time

import pytest

from game.bots import (
    BotCancelled,
    BotProcess,
    BotTimeout,
    GreedyBot,
    MctsBot,
    hint,
    hint_async,
    make_bot,
    think,
)
from game.bots.base import check_cancel, gc_paused
from game.core.registry import get_game

KB = "kingdom-builder"


def opening(seed: int = 3, players: int = 4):  # type: ignore[no-untyped-def]
    return get_game(KB).new(players, {}, seed)


def test_think_gives_the_same_action_as_choosing_directly() -> None:
    state = opening()
    seat = state.to_move()[0]
    direct = GreedyBot(seed=5).choose(state.determinize(seat, 11), seat)
    decision = think(GreedyBot(seed=5), state, seat, 11)
    assert decision.result(timeout=30) == direct
    assert decision.done()


def test_think_never_touches_the_live_state() -> None:
    """The bot works on a determinized copy made before ``think`` returns."""
    state = opening()
    seat = state.to_move()[0]
    before = state.to_dict()
    decision = think(MctsBot(seed=1, budget=None, iterations=200), state, seat, 4)
    decision.result(timeout=60)
    assert state.to_dict() == before


def test_cancel_stops_a_long_search_quickly() -> None:
    state = opening()
    seat = state.to_move()[0]
    decision = think(MctsBot(seed=1, budget=60.0), state, seat, 4)
    time.sleep(0.2)
    started = time.perf_counter()
    decision.cancel()
    with pytest.raises(BotCancelled):
        decision.result(timeout=10)
    assert time.perf_counter() - started < 2.0


def test_a_decision_past_its_deadline_is_cancelled() -> None:
    state = opening()
    seat = state.to_move()[0]
    started = time.perf_counter()
    decision = think(MctsBot(seed=1, budget=60.0), state, seat, 4, deadline=0.3)
    with pytest.raises(BotTimeout):
        decision.result(timeout=10)
    assert time.perf_counter() - started < 3.0


def test_cancelling_before_the_bot_starts_still_ends_the_decision() -> None:
    state = opening()
    seat = state.to_move()[0]
    decision = think(GreedyBot(seed=1), state, seat, 4)
    decision.cancel()
    # Either it finished before the cancel landed, or it reports the cancellation.
    try:
        action = decision.result(timeout=10)
    except BotCancelled:
        return
    assert action in state.legal_actions(seat)


def test_cancel_token_and_gc_pause() -> None:
    event = threading.Event()
    check_cancel(event)
    check_cancel(None)
    event.set()
    with pytest.raises(BotCancelled):
        check_cancel(event)
    import gc

    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_hint_in_the_background_matches_the_direct_hint() -> None:
    state = opening(seed=8)
    seat = state.to_move()[0]
    assert hint_async(state, seat, seed=2).result(timeout=30) == hint(state, seat, seed=2)


def test_worker_process_decides_cancels_and_closes() -> None:
    state = opening(seed=5)
    seat = state.to_move()[0]
    with BotProcess() as process:
        decision = process.decide("greedy", 7, None, state, seat, 9, key=("table", seat))
        action = decision.result(timeout=60)
        assert action == make_bot("greedy", 7).choose(state.determinize(seat, 9), seat)
        slow = process.decide("mcts", 1, 60.0, state, seat, 9)
        time.sleep(0.3)
        started = time.perf_counter()
        slow.cancel()
        with pytest.raises(BotCancelled):
            slow.result(timeout=20)
        assert time.perf_counter() - started < 3.0
        # The process keeps working after a cancellation.
        again = process.decide("random", 3, None, state, seat, 9)
        assert again.result(timeout=30) in state.legal_actions(seat)
    with pytest.raises(RuntimeError):
        process.decide("random", 3, None, state, seat, 9)


def test_the_worker_registers_a_game_only_the_parent_knows(bid_race: str) -> None:
    """The worker is a fresh (spawned) process: a game that only tests register — the shared
    test game — reaches it as its module name, and the worker registers it before deciding."""
    state = get_game(bid_race).new(3, {}, 5)
    with BotProcess() as process:
        action = process.decide("greedy", 7, None, state, 0, 9).result(timeout=60)
    assert action == make_bot("greedy", 7).choose(state.determinize(0, 9), 0)
