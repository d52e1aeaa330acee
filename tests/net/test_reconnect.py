"""The window's TCP connection comes back by itself (issue "Ready for a real LAN party": a
dropped player gets their seat back) — through real sockets on 127.0.0.1.

A :class:`TcpConnection` with a :class:`Reconnect` policy seated in a running game whose link
drops says ``reconnecting`` (naming the cause), connects again with backoff, takes its seat
back with its token and says ``reconnected`` before the host's snapshot; messages sent while
the link is down are dropped.  What cannot be come back from ends the connection with a cause
the window can name: the table closed, the seat gone, a bad host, or this program closing.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from game.core.match import Replay
from net.client import Reconnect, TcpConnection
from net.host import HostConfig, TcpHost
from net.hub import Hub
from net.protocol import PROTOCOL_VERSION
from tests.net.fakehost import FakeHost, Peer
from tests.testgame import GAME_ID

FAST = Reconnect(delays=(0.05, 0.1, 0.2), give_up=20.0)


class LoopHost:
    """A TcpHost on 127.0.0.1 on its own thread, which can be stopped and started again on the
    same port (as a host restarted from its save)."""

    def __init__(self, save_dir: Path | None = None, port: int = 0) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.hub = Hub(save_dir=save_dir, autosave=save_dir is not None)
        self.server = TcpHost(self.hub, HostConfig(bind="127.0.0.1", port=port))
        self.call(self.server.start())

    def call(self, coro: Any, timeout: float = 10.0) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def run(self, fn: Any) -> Any:
        async def wrapped() -> Any:
            return fn()

        return self.call(wrapped())

    @property
    def port(self) -> int:
        return self.server.port

    def cut(self) -> None:
        """Break every client's link from the host's side (a network cable pulled there)."""

        def abort() -> None:
            for peer in list(self.server._peers.values()):
                peer.abort()

        self.run(abort)

    def stop(self) -> None:
        if self.thread.is_alive():
            self.call(self.server.stop())
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(5)


@pytest.fixture
def host(bid_race: str) -> Iterator[LoopHost]:
    h = LoopHost()
    yield h
    h.stop()


_unread: dict[int, list[dict[str, Any]]] = {}


def collect(conn: TcpConnection, until: Any, timeout: float = 10.0) -> list[dict[str, Any]]:
    """Poll like a frame loop until ``until(message)`` holds for a message: the messages up to
    that one (later ones polled meanwhile are kept for the next call)."""
    got: list[dict[str, Any]] = []
    waiting = _unread.setdefault(id(conn), [])
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        waiting.extend(conn.poll())
        while waiting:
            msg = waiting.pop(0)
            got.append(msg)
            if until(msg):
                return got
        time.sleep(0.005)
    raise AssertionError(f"timed out; got {[m['t'] for m in got]}")


def kind(name: str) -> Any:
    return lambda msg: msg["t"] == name


def seated(host: LoopHost, **kwargs: Any) -> tuple[TcpConnection, dict[str, Any]]:
    """A connection seated at seat 0 of a started 2-seat table (seat 1 a bot)."""
    table = host.run(
        lambda: host.hub.create_table(GAME_ID, 2, {}, bots=[None, "random"], autostart=True)
    ).table_id
    conn = TcpConnection.open("127.0.0.1", host.port, reconnect=FAST, **kwargs)
    conn.send({"t": "hello", "version": PROTOCOL_VERSION, "name": "Ann"})
    conn.send({"t": "join", "table": table, "name": "Ann"})
    got = collect(conn, kind("joined"))
    joined = next(m for m in got if m["t"] == "joined")
    collect(conn, kind("state"))
    return conn, joined


def test_a_cut_link_comes_back_to_the_same_seat(host: LoopHost) -> None:
    conn, joined = seated(host)
    assert conn.link_up
    host.cut()
    got = collect(conn, kind("reconnected"))
    [first, *_] = [m for m in got if m["t"] == "reconnecting"]
    assert first["cause"] == "lost" and first["attempt"] == 0 and first["retry_in"] > 0
    assert "lost" in first["reason"] and "host closed" not in first["reason"]
    assert conn.connected
    got = collect(conn, kind("state"))
    again = next(m for m in got if m["t"] == "joined")
    assert (again["table"], again["seat"], again["token"]) == (
        joined["table"],
        joined["seat"],
        joined["token"],
    )
    assert [m["t"] for m in got][:2] == ["joined", "lobby"]  # no second welcome
    assert conn.link_up
    table = host.hub.tables[joined["table"]]
    assert table.seats[0].connected
    conn.close()
    assert collect(conn, kind("disconnected"))[-1]["cause"] == "closed"


def test_a_seat_a_bot_took_over_comes_back_with_its_player(host: LoopHost) -> None:
    """The host's "Let a bot play" dialog promises the player takes the seat back by
    reconnecting: the bot steps aside when the token comes back."""
    conn, joined = seated(host)
    table = host.hub.tables[joined["table"]]
    host.cut()
    collect(conn, kind("reconnecting"))

    def hand_to_bot() -> None:
        table.set_seat(0, by_seat=None, by_owner=True, kind="bot", bot="random")

    host.run(hand_to_bot)
    assert table.seats[0].kind == "bot"
    collect(conn, kind("reconnected"))
    got = collect(conn, lambda m: m["t"] == "lobby" and m["seats"][0]["kind"] == "human")
    assert got[-1]["seats"][0]["connected"]
    assert table.seats[0].kind == "human" and table.seats[0].bot is None
    conn.close()


def test_a_stopped_host_is_waited_for_and_a_restarted_one_found(
    bid_race: str, tmp_path: Path
) -> None:
    """The host stops (it says so), is gone for a while (its port refuses connections), then
    starts again from its save on the same port: the connection finds its seat by the token
    although the table has a new id."""
    first = LoopHost(save_dir=tmp_path)
    conn, joined = seated(first)
    first.run(lambda: first.hub.create_table(GAME_ID, 2, {}))  # t2 shifts the numbering
    port = first.port
    save = first.hub.save_path(joined["table"])
    first.stop()
    got = collect(conn, lambda m: m["t"] == "reconnecting" and m["cause"] == "host_gone")
    stopped = next(m for m in got if m["t"] == "reconnecting")
    assert stopped["cause"] == "host_stopped" and "shutting down" in stopped["reason"]
    assert "refuses connections" in got[-1]["reason"]
    conn.send({"t": "chat", "text": "while away"})  # dropped, not queued
    assert save is not None
    second = LoopHost(save_dir=tmp_path, port=port)
    try:
        second.run(lambda: second.hub.create_table(GAME_ID, 2, {}))  # the new host's t1
        resumed = second.run(
            lambda: second.hub.resume_table(Replay.load(save), path=save, keep_tokens=True)
        )
        got = collect(conn, kind("state"), timeout=20)
        again = next(m for m in got if m["t"] == "joined")
        assert again["table"] == resumed.table_id != joined["table"]
        assert again["seat"] == 0 and again["token"] == joined["token"]
        assert not [m for m in got if m["t"] == "chat"]
        conn.close()
    finally:
        second.stop()


def test_a_host_that_lost_the_seat_ends_the_connection(bid_race: str) -> None:
    first = LoopHost()
    conn, _joined = seated(first)
    port = first.port
    first.stop()
    collect(conn, lambda m: m["t"] == "reconnecting" and m["cause"] == "host_gone")
    second = LoopHost(port=port)  # a new host without the table
    try:
        last = collect(conn, kind("disconnected"), timeout=20)[-1]
        assert last["cause"] == "seat_gone" and "no table" in last["reason"]
        assert not conn.connected
    finally:
        second.stop()


def test_a_closed_table_is_not_come_back_to(host: LoopHost) -> None:
    conn, joined = seated(host)
    table = host.hub.tables[joined["table"]]
    host.run(lambda: host.hub.close_table(table, "the creator closed it"))
    collect(conn, kind("table_closed"))
    host.cut()
    last = collect(conn, kind("disconnected"))[-1]
    assert last["cause"] == "lost"
    assert not conn.connected


def test_a_silent_host_means_the_network_is_lost(bid_race: str) -> None:
    """A host that accepts the connection and then says nothing (no pongs either): the
    network is lost after ``silence`` seconds, and the connection tries again."""
    answered = threading.Event()

    async def script(peer: Peer) -> None:
        await peer.expect("hello")
        await peer.send(
            {"t": "welcome", "version": PROTOCOL_VERSION, "host": "quiet", "tables": []}
        )
        join = await peer.expect("join")
        await peer.send({"t": "joined", "table": "t1", "seat": 0, "token": "tok-1", "owner": False})
        if join.get("token"):
            answered.set()
        await asyncio.sleep(30)

    with FakeHost(script) as fake:
        conn = TcpConnection.open(
            "127.0.0.1", fake.port, keepalive=0.1, silence=0.3, reconnect=FAST
        )
        conn.send({"t": "hello", "version": PROTOCOL_VERSION, "name": "Ann"})
        conn.send({"t": "join", "table": "t1"})
        got = collect(conn, kind("reconnecting"))
        assert got[-1]["cause"] == "network" and "nothing from the host" in got[-1]["reason"]
        conn.close()
        last = collect(conn, kind("disconnected"))[-1]
        assert last["cause"] == "closed"


def test_close_during_the_backoff_ends_at_once(bid_race: str) -> None:
    first = LoopHost()
    conn, _joined = seated(first)
    first.stop()
    collect(conn, kind("reconnecting"))
    started = time.monotonic()
    conn.close()
    assert collect(conn, kind("disconnected"))[-1]["cause"] == "closed"
    assert time.monotonic() - started < 2


def test_without_a_policy_a_drop_ends_the_connection(host: LoopHost) -> None:
    table = host.run(
        lambda: host.hub.create_table(GAME_ID, 2, {}, bots=[None, "random"], autostart=True)
    ).table_id
    conn = TcpConnection.open("127.0.0.1", host.port)
    conn.send({"t": "hello", "version": PROTOCOL_VERSION, "name": "Ann"})
    conn.send({"t": "join", "table": table})
    collect(conn, kind("state"))
    host.cut()
    last = collect(conn, kind("disconnected"))[-1]
    assert last == {
        "t": "disconnected",
        "reason": "the connection to the host was lost",
        "cause": "lost",
    }


def test_a_policy_gives_up_in_the_end(bid_race: str) -> None:
    first = LoopHost()
    table = first.run(
        lambda: first.hub.create_table(GAME_ID, 2, {}, bots=[None, "random"], autostart=True)
    ).table_id
    conn = TcpConnection.open(
        "127.0.0.1", first.port, reconnect=Reconnect(delays=(0.05,), give_up=0.5)
    )
    conn.send({"t": "hello", "version": PROTOCOL_VERSION, "name": "Ann"})
    conn.send({"t": "join", "table": table})
    collect(conn, kind("state"))
    first.stop()
    last = collect(conn, kind("disconnected"))[-1]
    assert last["cause"] == "host_gone" and "gave up" in last["reason"]
