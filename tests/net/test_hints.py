"""Hints: the host asks the normal bot what it would do for a seat (docs/protocol.md "Hints").

Refused unless the table allows hints (default on for in-process tables, off for LAN hosts,
changed by the creator with ``configure``), only for the seat to move in the current position;
computed off the host's loop on a determinized copy; dropped when the seat's decision moves on
(and only then: another seat's choice in a simultaneous phase leaves it alone).  Played on
Kingdom Builder and on the shared test game "Bid and Race" (``tests/testgame``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

import game.bots as bots
import net.thinking as hub_module
from net.local import LocalConnection, LocalHost
from net.protocol import ErrorCode
from tests.net.test_local import drain, hello, hot_seat, wait_for


@pytest.fixture
def host(bid_race: str, data_dir: Path) -> Iterator[LocalHost]:
    h = LocalHost(autosave=False)
    yield h
    h.close()


def _state(conn: LocalConnection) -> dict[str, Any]:
    return wait_for(conn, "state")


def _error(conn: LocalConnection, msg: dict[str, Any]) -> str:
    conn.send(msg)
    return str(wait_for(conn, "error")["code"])


def test_a_hint_is_a_legal_action_of_the_seat_to_move(host: LocalHost) -> None:
    """Kingdom Builder, hot-seat: the seat to move asks and gets one of its legal actions."""
    a, b = (host.connect() for _ in range(2))
    hello(a, "A")
    hello(b, "B")
    a.send({"t": "create_table", "game": "kingdom-builder", "players": 2, "seed": 4})
    table = wait_for(a, "joined")["table"]
    assert wait_for(a, "lobby")["settings"]["allow_hints"] is True  # offline default: on
    b.send({"t": "join", "table": table})
    wait_for(b, "joined")
    b.send({"t": "ready"})
    time.sleep(0.05)
    a.send({"t": "start"})
    states = {0: _state(a), 1: _state(b)}
    mover = states[0]["to_move"][0]
    conns = {0: a, 1: b}
    conns[mover].send({"t": "hint", "seq": states[mover]["seq"]})
    hint = wait_for(conns[mover], "hint", timeout=10)
    assert hint["seq"] == states[mover]["seq"] and hint["table"] == table
    assert hint["action"] in states[mover]["legal"]
    # Not for the other seat, not for an old position, not for spectators.
    other = 1 - mover
    assert _error(conns[other], {"t": "hint", "seq": states[other]["seq"]}) == "not_your_turn"
    assert _error(conns[mover], {"t": "hint", "seq": 99}) == ErrorCode.STALE
    watcher = host.connect()
    hello(watcher, "W")
    watcher.send({"t": "join", "table": table, "spectate": True})
    assert _error(watcher, {"t": "hint", "seq": states[mover]["seq"]}) == ErrorCode.NOT_SEATED
    assert not [m for m in drain(conns[other]) if m["t"] == "hint"]


def test_hints_are_off_unless_the_table_allows_them(bid_race: str, data_dir: Path) -> None:
    """A LAN-style host (hints off by default): refused with ``hints_off`` until the creator
    turns them on in the lobby; before the start a hint is ``not_started``."""
    with LocalHost(autosave=False, allow_hints=False) as h:
        conns = [h.connect() for _ in range(2)]
        for i, conn in enumerate(conns):
            hello(conn, f"P{i}")
        conns[0].send({"t": "create_table", "game": bid_race, "players": 2})
        table = wait_for(conns[0], "joined")["table"]
        assert wait_for(conns[0], "lobby")["settings"]["allow_hints"] is False
        assert _error(conns[0], {"t": "hint", "seq": 0}) == ErrorCode.HINTS_OFF
        conns[1].send({"t": "join", "table": table})
        wait_for(conns[1], "joined")
        assert _error(conns[1], {"t": "configure", "allow_hints": True}) == ErrorCode.NOT_OWNER
        conns[0].send({"t": "configure", "allow_hints": True})
        seen: list[dict[str, Any]] = []
        lobby = wait_for(conns[0], "lobby", seen)
        while lobby["settings"]["allow_hints"] is not True:  # earlier lobby frames may come first
            lobby = wait_for(conns[0], "lobby", seen)
        assert _error(conns[0], {"t": "hint", "seq": 0}) == ErrorCode.NOT_STARTED
        conns[1].send({"t": "ready"})
        time.sleep(0.05)
        conns[0].send({"t": "start"})
        state = _state(conns[0])
        assert state["to_move"] == [0, 1]  # the sealed bids: both seats choose
        conns[0].send({"t": "hint", "seq": state["seq"]})
        assert wait_for(conns[0], "hint", timeout=10)["action"] in state["legal"]


class _GatedBot:
    """A "normal" bot that waits for the test before answering (and notices cancels)."""

    name = "normal"
    gate = threading.Event()
    started = threading.Event()
    cancelled = threading.Event()
    seen: ClassVar[list[Any]] = []

    def choose(self, state: Any, seat: int, cancel: Any = None) -> Any:
        _GatedBot.seen.append(state)
        _GatedBot.started.set()
        while not _GatedBot.gate.wait(0.01):
            if cancel is not None and cancel.is_set():
                _GatedBot.cancelled.set()
                raise bots.BotCancelled("cancelled")
        return state.legal_actions(seat)[-1]


@pytest.fixture
def gated(monkeypatch: pytest.MonkeyPatch) -> type[_GatedBot]:
    for flag in (_GatedBot.gate, _GatedBot.started, _GatedBot.cancelled):
        flag.clear()
    _GatedBot.seen = []
    monkeypatch.setitem(bots._FACTORIES, "normal", lambda seed, *settings: _GatedBot())
    return _GatedBot


def test_a_hint_about_a_position_that_moved_on_is_dropped(
    host: LocalHost, gated: type[_GatedBot]
) -> None:
    conns = hot_seat(host, 2)
    state = _state(conns[0])
    conns[0].send({"t": "hint", "seq": state["seq"]})
    assert gated.started.wait(5)
    conns[0].send({"t": "action", "seq": state["seq"], "action": state["legal"][0]})
    newer = _state(conns[0])
    assert newer["seq"] == state["seq"] + 1
    assert gated.cancelled.wait(5), "the hint's bot is stopped once the position is gone"
    gated.gate.set()
    time.sleep(0.1)
    assert not [m for m in drain(conns[0]) if m["t"] in ("hint", "error")]


def test_another_seats_choice_does_not_drop_a_hint(host: LocalHost, gated: type[_GatedBot]) -> None:
    """Both seats bid at once: seat 1's bid changes the table (seq) but not seat 0's decision,
    so the hint seat 0 asked for keeps thinking and arrives, about the position it was asked at."""
    conns = hot_seat(host, 2)
    state = _state(conns[0])
    other = _state(conns[1])
    conns[0].send({"t": "hint", "seq": state["seq"]})
    assert gated.started.wait(5)
    conns[1].send({"t": "action", "seq": other["seq"], "action": ["bid", 1]})
    seen: list[dict[str, Any]] = []
    moved = wait_for(conns[0], "state", seen)
    assert moved["seq"] == state["seq"] + 1 and moved["decision"] == state["decision"]
    gated.gate.set()
    hint = wait_for(conns[0], "hint", seen)
    assert hint["seq"] == state["seq"] and hint["action"] in moved["legal"]
    assert not gated.cancelled.is_set()


def test_asking_twice_computes_once_and_the_bot_sees_a_determinized_copy(
    host: LocalHost, gated: type[_GatedBot], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot is handed ``state.determinize(seat, seed)``, never the table's state."""
    handed: list[Any] = []
    real = hub_module.hint_async

    def spy(state: Any, seat: int, seed: int = 0) -> Any:
        handed.append((state, seat, seed))
        return real(state, seat, seed)

    monkeypatch.setattr(hub_module, "hint_async", spy)
    conns = hot_seat(host, 2)
    state = _state(conns[0])
    conns[0].send({"t": "hint", "seq": state["seq"]})
    conns[0].send({"t": "hint", "seq": state["seq"]})
    assert gated.started.wait(5)
    gated.gate.set()
    hint = wait_for(conns[0], "hint")
    assert hint["action"] == state["legal"][-1]
    time.sleep(0.1)
    assert len(handed) == 1 and len(gated.seen) == 1
    world, seat, seed = handed[0]
    table = host.hub.tables[state["table"]]
    assert world is not table.state
    assert world.to_dict() == table.state.determinize(seat, seed).to_dict()


def test_with_a_bot_process_the_hint_is_worked_out_there(data_dir: Path) -> None:
    with LocalHost(autosave=False, bot_process=True) as h:
        conn = h.connect()
        hello(conn, "Solo")
        conn.send({"t": "create_table", "game": "kingdom-builder", "players": 2, "seed": 9})
        wait_for(conn, "joined")
        conn.send({"t": "set_seat", "seat": 1, "kind": "bot", "bot": "random"})
        conn.send({"t": "start"})
        seen: list[dict[str, Any]] = []
        state = wait_for(conn, "state", seen)
        while 0 not in state["to_move"]:
            state = wait_for(conn, "state", seen, timeout=10)
        conn.send({"t": "hint", "seq": state["seq"]})
        hint = wait_for(conn, "hint", timeout=20)
        assert hint["seq"] == state["seq"] and hint["action"] in state["legal"]
