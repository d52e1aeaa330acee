"""The in-process host (hot-seat and bot games) through the UI's Connection API.

Played on the shared test game "Bid and Race" (``tests/testgame``) unless a test names
Kingdom Builder.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import game.bots as bots
from game.core.match import Replay
from game.core.types import BadState
from game.core.wire import to_plain
from net.local import LocalConnection, LocalHost
from net.protocol import PROTOCOL_VERSION, ErrorCode
from tests.testgame import GAME_ID


@pytest.fixture
def host(bid_race: str, data_dir: Path) -> Iterator[LocalHost]:
    h = LocalHost()
    yield h
    h.close()


def hello(conn: LocalConnection, name: str) -> None:
    conn.send({"t": "hello", "version": PROTOCOL_VERSION, "name": name})


_backlog: dict[int, list[dict[str, Any]]] = {}


def wait_for(
    conn: LocalConnection, kind: str, seen: list[dict[str, Any]] | None = None, timeout: float = 5
) -> dict[str, Any]:
    """The next message of type ``kind`` (earlier ones go to ``seen``; later ones wait)."""
    backlog = _backlog.setdefault(id(conn), [])
    deadline = time.monotonic() + timeout
    while True:
        while backlog:
            msg = backlog.pop(0)
            if seen is not None:
                seen.append(msg)
            if msg["t"] == kind:
                return msg
        if time.monotonic() > deadline:
            raise AssertionError(f"no {kind!r} within {timeout} s")
        backlog.extend(conn.poll())
        time.sleep(0.002)


def drain(conn: LocalConnection) -> list[dict[str, Any]]:
    backlog = _backlog.setdefault(id(conn), [])
    out = backlog + conn.poll()
    backlog.clear()
    return out


def hot_seat(host: LocalHost, players: int = 3, **create: Any) -> list[LocalConnection]:
    """One connection per human seat; the first creates the table; all ready; started."""
    conns = [host.connect() for _ in range(players)]
    for i, conn in enumerate(conns):
        hello(conn, f"P{i}")
    conns[0].send({"t": "create_table", "game": GAME_ID, "players": players, **create})
    joined = wait_for(conns[0], "joined")
    for conn in conns[1:]:
        conn.send({"t": "join", "table": joined["table"]})
        wait_for(conn, "joined")
        conn.send({"t": "ready"})
    time.sleep(0.05)
    conns[0].send({"t": "start"})
    return conns


def play_out(
    conns: dict[int, LocalConnection],
    rng: random.Random,
    on_message: Callable[[int, dict[str, Any]], None] | None = None,
    timeout: float = 20,
) -> dict[int, dict[str, Any]]:
    """Poll every connection like a UI does each frame; act randomly for the seat to move."""
    results: dict[int, dict[str, Any]] = {}
    deadline = time.monotonic() + timeout
    while len(results) < len(conns):
        assert time.monotonic() < deadline, "the game did not finish"
        for seat, conn in conns.items():
            for msg in drain(conn):
                if on_message is not None:
                    on_message(seat, msg)
                if msg["t"] == "state" and seat in msg["to_move"] and msg["legal"]:
                    conn.send(
                        {"t": "action", "seq": msg["seq"], "action": rng.choice(msg["legal"])}
                    )
                elif msg["t"] == "game_over":
                    results[seat] = msg
                elif msg["t"] == "error":
                    assert msg["code"] in (ErrorCode.STALE, ErrorCode.NOT_YOUR_TURN), msg
        time.sleep(0.001)
    return results


def test_hot_seat_game_ends_alike_for_every_seat(host: LocalHost) -> None:
    """Three seats on one host play to the end (one leaves and comes back with its token);
    every frame holds exactly its own seat's view of the position it names."""
    conns = hot_seat(host, 3)
    # Leaving after the start keeps the seat for its token: the game waits for it.
    conns[0].send({"t": "leave"})
    assert wait_for(conns[0], "left")["reason"] == "you left the table"
    views: dict[int, list[tuple[int, dict[str, Any]]]] = {0: [], 1: [], 2: []}

    def record(seat: int, msg: dict[str, Any]) -> None:
        if msg["t"] == "state":
            views[seat].append((msg["seq"], msg["view"]))

    tables = host.call(lambda: list(host.hub.tables))
    token = host.call(lambda: host.hub.tables[tables[0]].seats[0].token)
    conns[0].send({"t": "join", "table": tables[0], "token": token})
    results = play_out(dict(enumerate(conns)), random.Random(1), record)
    scores = {tuple(r["scores"][i]["total"] for i in range(3)) for r in results.values()}
    assert len(scores) == 1
    assert all(views.values())
    # No undo here, so seq k is the position after k actions of the record.
    record_of = host.call(lambda: host.hub.tables[tables[0]].record())
    positions = [state.clone() for state in record_of.states()]
    for seat, seen in views.items():
        for seq, view in seen:
            assert view == to_plain(positions[seq].view(seat)), f"seat {seat} at seq {seq}"


def test_bots_fill_seats_and_play(host: LocalHost) -> None:
    conn2 = host.connect()
    hello(conn2, "Solo")
    conn2.send({"t": "create_table", "game": GAME_ID, "players": 4, "options": {"rounds": 3}})
    table = wait_for(conn2, "joined")["table"]
    for seat in (1, 2, 3):
        conn2.send({"t": "set_seat", "seat": seat, "kind": "bot", "bot": "random"})
    lobby = None
    seen: list[dict[str, Any]] = []
    while lobby is None or [s["kind"] for s in lobby["seats"]] != ["human", "bot", "bot", "bot"]:
        lobby = wait_for(conn2, "lobby", seen)
    assert lobby["table"] == table and lobby["settings"]["allow_hints"] is True
    conn2.send({"t": "start"})
    results = play_out({0: conn2}, random.Random(2))
    # Every round: a bid and a seal per seat, and at least two moves per seat to cover the
    # 6 steps of the race with cards of at most 4.
    assert results[0]["actions"] >= 3 * (4 * 2 + 4 * 2)


def test_undo_through_the_connection(host: LocalHost) -> None:
    conns = hot_seat(host, 2)
    state = wait_for(conns[0], "state")
    conns[0].send({"t": "action", "seq": state["seq"], "action": ["bid", 2]})
    after = wait_for(conns[0], "state")
    assert after["can_undo"] and after["view"]["bid"] == 2
    other = wait_for(conns[1], "state", timeout=1)
    other = wait_for(conns[1], "state", timeout=1) if other["seq"] != after["seq"] else other
    assert other["can_undo"] is False and other["view"]["bid"] is None
    conns[1].send({"t": "undo", "seq": after["seq"]})
    refused = wait_for(conns[1], "error")
    assert refused["code"] == ErrorCode.UNDO_REFUSED
    conns[0].send({"t": "undo", "seq": after["seq"]})
    undone = wait_for(conns[0], "state")
    assert undone["seq"] == after["seq"] + 1
    assert undone["view"] == state["view"]
    assert undone["events"] == [{"type": "undo", "seat": 0, "turn": False}]
    assert undone["can_undo"] is False


def test_autosave_and_resume(host: LocalHost, data_dir: Path) -> None:
    conns = hot_seat(host, 2)
    state = wait_for(conns[0], "state")
    conns[0].send({"t": "action", "seq": state["seq"], "action": ["bid", 1]})
    state = wait_for(conns[0], "state")
    conns[0].send({"t": "action", "seq": state["seq"], "action": ["seal"]})
    wait_for(conns[0], "state")
    time.sleep(0.1)
    saves = list((data_dir / "saves").glob(f"{GAME_ID}-*.save"))
    assert len(saves) == 1
    replay = Replay.load(saves[0])
    assert replay.actions == [(0, ("bid", 1)), (0, ("seal",))]
    assert [s["name"] for s in replay.seats] == ["P0", "P1"]
    table = host.resume(saves[0])
    view = host.call(lambda: host.hub.tables[table].state_message(1, []))
    assert view["seq"] == 2 and view["waiting"] == [1]  # seat 0 has sealed; seat 1 is awaited
    broken = data_dir / "broken.save"
    broken.write_bytes(b"\x00garbage")
    with pytest.raises(BadState, match="not a Lantern Table"):
        host.resume(broken)


def test_a_bad_message_is_answered_and_the_host_carries_on(host: LocalHost) -> None:
    conn = host.connect()
    conn.send({"t": "create_table", "game": GAME_ID, "players": 2})
    assert wait_for(conn, "error")["code"] == ErrorCode.HELLO_FIRST
    hello(conn, "X")
    conn.send({"t": "teleport"})
    assert wait_for(conn, "error")["code"] == ErrorCode.UNKNOWN_TYPE
    conn.send({"t": "hello", "version": PROTOCOL_VERSION + 1})
    err = wait_for(conn, "error")
    assert err["code"] == ErrorCode.VERSION_MISMATCH and "version" in err["text"]
    assert wait_for(conn, "disconnected")["reason"] == "the host closed the connection"
    assert not conn.connected
    conn.send({"t": "ping"})  # ignored, no exception
    fresh = host.connect()
    hello(fresh, "Y")
    assert wait_for(fresh, "welcome")["version"] == PROTOCOL_VERSION


def test_close_gives_a_last_disconnected_message(host: LocalHost) -> None:
    conn = host.connect()
    hello(conn, "Z")
    wait_for(conn, "welcome")
    conn.close()
    assert drain(conn)[-1] == {
        "t": "disconnected",
        "reason": "connection closed",
        "cause": "closed",
    }
    assert not conn.connected


class SlowBot:
    """Thinks until cancelled (checking its token like the real search bots do)."""

    name = "slow"
    cancelled = threading.Event()
    started = threading.Event()

    def choose(self, state: Any, seat: int, cancel: Any = None) -> Any:
        SlowBot.started.set()
        deadline = time.monotonic() + 20
        x = 0
        while time.monotonic() < deadline:
            x += 1  # busy, holding the GIL as pure-Python search does
            if cancel is not None and cancel.is_set():
                SlowBot.cancelled.set()
                raise bots.BotCancelled("cancelled")
        return state.legal_actions(seat)[0]


def test_closing_a_table_cancels_its_thinking_bot(
    host: LocalHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    SlowBot.cancelled.clear()
    SlowBot.started.clear()
    monkeypatch.setitem(bots._FACTORIES, "slow", lambda seed, *settings: SlowBot())
    conn = host.connect()
    hello(conn, "Owner")
    conn.send({"t": "create_table", "game": GAME_ID, "players": 2, "spectate": True})
    wait_for(conn, "joined")
    conn.send({"t": "set_seat", "seat": 0, "kind": "bot", "bot": "slow"})
    conn.send({"t": "set_seat", "seat": 1, "kind": "bot", "bot": "random"})
    conn.send({"t": "start"})
    assert SlowBot.started.wait(5)
    # The host keeps answering while the bot thinks.
    t0 = time.monotonic()
    conn.send({"t": "ping", "n": 7})
    assert wait_for(conn, "pong")["n"] == 7
    assert time.monotonic() - t0 < 1.0
    conn.send({"t": "close_table"})
    assert wait_for(conn, "table_closed")["reason"] == "closed by its creator"
    assert SlowBot.cancelled.wait(5)


def test_bots_can_think_in_a_worker_process(
    data_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """``bot_process=True``: decisions run in game.bots.BotProcess; the game plays through."""
    with LocalHost(bot_process=True, autosave=False) as h:
        conn = h.connect()
        hello(conn, "Watcher")
        conn.send({"t": "create_table", "game": "kingdom-builder", "players": 2, "spectate": True})
        wait_for(conn, "joined")
        for seat in (0, 1):
            conn.send({"t": "set_seat", "seat": seat, "kind": "bot", "bot": "random"})
        conn.send({"t": "start"})
        over = wait_for(conn, "game_over", timeout=60)
        assert over["actions"] > 20
    assert not [r for r in caplog.records if r.levelname == "ERROR"]


_CLOSE_WHILE_THINKING = """
import sys, time
from net.local import LocalHost
from net.protocol import PROTOCOL_VERSION

def main(bot_process):
    host = LocalHost(autosave=False, bot_process=bot_process, bot_budget=20.0)
    conn = host.connect()
    conn.send({"t": "hello", "version": PROTOCOL_VERSION, "name": "Watcher"})
    conn.send({"t": "create_table", "game": "kingdom-builder", "players": 2, "spectate": True})
    for seat in (0, 1):
        conn.send({"t": "set_seat", "seat": seat, "kind": "bot", "bot": "hard"})
    conn.send({"t": "start"})
    deadline = time.monotonic() + 10
    while not any(m["t"] == "state" for m in conn.poll()):
        assert time.monotonic() < deadline
        time.sleep(0.01)
    time.sleep(0.3)  # the hard bot is searching
    host.close()
    print("closed")

if __name__ == "__main__":
    main(sys.argv[1] == "process")
"""


@pytest.mark.parametrize("mode", ["thread", "process"])
def test_closing_while_a_bot_thinks_prints_no_unretrieved_exception(
    tmp_path: Path, mode: str
) -> None:
    """Closing a game while a bot thinks cancels its decision (BotCancelled); the host must
    read that outcome, so asyncio never prints "Future exception was never retrieved"."""
    script = tmp_path / "close_while_thinking.py"
    script.write_text(_CLOSE_WHILE_THINKING)
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, str(script), mode],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root), "LANTERN_DATA_DIR": str(tmp_path)},
    )
    assert done.returncode == 0, done.stderr
    assert "closed" in done.stdout
    assert "never retrieved" not in done.stderr, done.stderr
    assert "BotCancelled" not in done.stderr, done.stderr
