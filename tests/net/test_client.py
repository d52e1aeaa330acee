"""The UI's TCP Connection: non-blocking send/poll from any thread, keep-alive, disconnects."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from net.client import TcpConnection
from net.host import HostConfig, TcpHost
from net.hub import Hub
from net.protocol import PROTOCOL_VERSION, ErrorCode
from tests.testgame import GAME_ID


class ThreadedHost:
    """A TcpHost on 127.0.0.1 running on its own thread (as the UI's LAN host does)."""

    def __init__(self, **config: Any) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.server = TcpHost(Hub(autosave=False), HostConfig(bind="127.0.0.1", port=0, **config))
        asyncio.run_coroutine_threadsafe(self.server.start(), self.loop).result(5)

    @property
    def port(self) -> int:
        return self.server.port

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self.server.stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


@pytest.fixture
def host(bid_race: str) -> Iterator[ThreadedHost]:
    h = ThreadedHost(idle_timeout=0.6)
    yield h
    h.stop()


def collect(conn: TcpConnection, until: str, timeout: float = 5.0) -> list[dict[str, Any]]:
    """Poll like a frame loop does until a message of type ``until`` arrives."""
    got: list[dict[str, Any]] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got.extend(conn.poll())
        if any(m["t"] == until for m in got):
            return got
        time.sleep(0.005)
    raise AssertionError(f"no {until!r} within {timeout} s; got {got}")


def test_messages_sent_before_the_connection_is_up_are_delivered(host: ThreadedHost) -> None:
    """A table of the shared test game (``tests/testgame``) is created before the socket is up."""
    woken = threading.Event()
    conn = TcpConnection.open("127.0.0.1", host.port, wakeup=woken.set, keepalive=0.1)
    started = time.perf_counter()
    conn.send({"t": "hello", "version": PROTOCOL_VERSION, "name": "Ui"})
    conn.send({"t": "create_table", "game": GAME_ID, "players": 2})
    assert time.perf_counter() - started < 0.05  # never blocks the frame
    got = collect(conn, "lobby")
    assert [m["t"] for m in got] == ["welcome", "joined", "lobby"]
    assert woken.is_set()
    # Keep-alive pings keep the connection past the host's idle limit; their pongs are hidden.
    time.sleep(1.2)
    assert conn.connected
    assert all(m["t"] != "pong" for m in conn.poll())
    conn.send({"t": "ping", "n": 5})
    assert collect(conn, "pong")[-1] == {"t": "pong", "n": 5}
    conn.close()
    assert collect(conn, "disconnected")[-1] == {
        "t": "disconnected",
        "reason": "connection closed",
        "cause": "closed",
    }
    assert not conn.connected


def test_a_silent_connection_is_dropped_by_the_host(host: ThreadedHost) -> None:
    conn = TcpConnection.open("127.0.0.1", host.port, keepalive=60)
    conn.send({"t": "hello", "version": PROTOCOL_VERSION})
    got = collect(conn, "disconnected", timeout=5)
    assert [m.get("code") for m in got if m["t"] == "error"] == [ErrorCode.IDLE]
    assert got[-1]["cause"] == "dropped"
    assert got[-1]["reason"].startswith("the host ended the connection: no message for")


def test_an_unreachable_host_is_reported_through_poll() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    conn = TcpConnection.open("127.0.0.1", port)
    conn.send({"t": "hello", "version": PROTOCOL_VERSION})  # queued, then dropped: no error
    last = collect(conn, "disconnected")[-1]
    assert last["reason"].startswith(f"could not connect to 127.0.0.1:{port}")
    assert not conn.connected and not conn.wait_connected(0.1)


def test_host_shutdown_reaches_the_client(bid_race: str) -> None:
    h = ThreadedHost()
    conn = TcpConnection.open("127.0.0.1", h.port)
    assert conn.wait_connected(5)
    conn.send({"t": "hello", "version": PROTOCOL_VERSION})
    collect(conn, "welcome")
    h.stop()
    got = collect(conn, "disconnected")
    assert [m.get("code") for m in got if m["t"] == "error"] == [ErrorCode.SHUTTING_DOWN]


def test_close_right_after_open_is_clean(host: ThreadedHost) -> None:
    conn = TcpConnection.open("127.0.0.1", host.port)
    conn.close()
    assert collect(conn, "disconnected")[-1]["reason"] == "connection closed"
    conn.send({"t": "ping"})  # after close: ignored
    assert not conn.connected
