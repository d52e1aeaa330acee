"""The in-process host: hot-seat and bot games through the same host logic as LAN play.

:class:`LocalHost` runs a :class:`~net.hub.Hub` on an asyncio loop in a background daemon
thread of the UI's process.  :meth:`LocalHost.connect` returns a :class:`LocalConnection`, a
:class:`~net.connection.Connection` like the TCP one: every message is encoded to msgpack
frames and decoded on the other side, exactly as on the wire, so a message that would break
over TCP breaks here too, and the rules are enforced by the same code.

Hot-seat play opens one connection per local human seat (each gets its own seat token)::

    host = LocalHost()
    alice = host.connect()
    alice.send({"t": "hello", "version": PROTOCOL_VERSION, "name": "Alice"})
    alice.send({"t": "create_table", "game": "kingdom-builder", "players": 3})
    bob = host.connect()
    bob.send({"t": "hello", "version": PROTOCOL_VERSION, "name": "Bob"})
    bob.send({"t": "join", "table": "t1"})
    alice.send({"t": "set_seat", "seat": 2, "kind": "bot", "bot": "random"})
    bob.send({"t": "ready"})
    alice.send({"t": "start"})
    ... every frame: for msg in alice.poll(): ...; for msg in bob.poll(): ...
    host.close()

Offline tables allow hints by default.  Autosaves go to the user data directory's ``saves``
folder (``LANTERN_DATA_DIR`` or ``save_dir`` moves it); :meth:`LocalHost.resume` continues one.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import itertools
import os
import queue
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from game.core.match import Replay
from net import host_messages, protocol
from net.connection import Cause, Wakeup, disconnected
from net.hub import Hub

T = TypeVar("T")

#: A local connection whose UI stops polling is dropped after this many unread messages.
MAX_UNREAD = 100_000

_pids = itertools.count(1)


class LocalHost:
    """A hub on a background asyncio thread (see the module docstring)."""

    def __init__(
        self,
        *,
        save_dir: str | os.PathLike[str] | None = None,
        autosave: bool = True,
        allow_hints: bool = True,
        host_name: str = "This computer",
        bot_process: bool = False,
        bot_budget: float | None = None,
    ) -> None:
        self.hub = Hub(
            host_name=host_name,
            save_dir=Path(save_dir) if save_dir is not None else None,
            autosave=autosave,
            allow_hints=allow_hints,
            bot_process=bot_process,
            bot_budget=bot_budget,
        )
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="lantern-local-host", daemon=True
        )
        self._thread.start()
        self._closed = False

    # ---- running things on the host thread -----------------------------------------------
    def call(self, fn: Callable[..., T], *args: Any, timeout: float = 30.0) -> T:
        """Run ``fn(*args)`` on the host thread and return its result (or raise its error)."""
        if threading.current_thread() is self._thread:
            return fn(*args)
        done: concurrent.futures.Future[T] = concurrent.futures.Future()

        def run() -> None:
            try:
                done.set_result(fn(*args))
            except BaseException as exc:
                done.set_exception(exc)

        self._loop.call_soon_threadsafe(run)
        return done.result(timeout)

    def post(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn(*args)`` on the host thread soon; returns at once."""
        if not self._closed:
            self._loop.call_soon_threadsafe(fn, *args)

    # ---- the UI's entry points ------------------------------------------------------------
    def connect(self, wakeup: Wakeup | None = None) -> LocalConnection:
        """A new connection to this host (send ``hello`` first)."""
        if self._closed:
            raise RuntimeError("this LocalHost is closed")
        return LocalConnection(self, wakeup)

    def create_table(self, game_id: str, players: int, **kwargs: Any) -> str:
        """Open a table directly (see :meth:`Hub.create_table`); returns its id."""
        return self.call(lambda: self.hub.create_table(game_id, players, **kwargs).table_id)

    def resume(self, path: str | os.PathLike[str], **kwargs: Any) -> str:
        """Continue a saved game; returns the table id.

        Raises :class:`~game.core.types.BadState` with a readable reason for a damaged, foreign
        or finished file.
        """
        replay = Replay.load(path)
        kwargs.setdefault("path", Path(path))  # one game, one file: go on writing this one
        return self.call(lambda: self.hub.resume_table(replay, **kwargs).table_id)

    def close(self) -> None:
        """Stop bots, flush autosaves and end the host thread."""
        if self._closed:
            return
        self.call(lambda: self.hub.shutdown(wait=True), timeout=60)
        self._closed = True
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        if not self._thread.is_alive():
            self._loop.close()

    def __enter__(self) -> LocalHost:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class LocalConnection:
    """A :class:`~net.connection.Connection` to a :class:`LocalHost`."""

    def __init__(self, host: LocalHost, wakeup: Wakeup | None = None) -> None:
        self._host = host
        self._wakeup = wakeup
        self._inbox: queue.SimpleQueue[bytes | dict[str, Any]] = queue.SimpleQueue()
        self._open = True
        self.peer = _LocalPeer(self)
        host.post(host.hub.attach, self.peer)

    @property
    def connected(self) -> bool:
        return self._open

    def send(self, msg: dict[str, Any]) -> None:
        frame = protocol.encode(msg)
        if self._open:
            self._host.post(self._host.hub.receive, self.peer, frame[protocol.HEADER_BYTES :])

    def poll(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        while True:
            try:
                item = self._inbox.get_nowait()
            except queue.Empty:
                return out
            if isinstance(item, dict):
                out.append(item)
                continue
            try:
                out.append(host_messages.validate_host(protocol.decode(item, protocol.MAX_FRAME)))
            except protocol.ProtocolError as exc:  # a host bug: report it, never crash the UI
                out.append(disconnected(f"the host sent a bad message: {exc.text}", Cause.BAD_HOST))
                self.close()

    def close(self) -> None:
        if self._open:
            self._open = False
            self._host.post(self._host.hub.detach, self.peer)
            self._inbox.put(disconnected("connection closed"))

    # ---- called on the host thread (through the peer) -------------------------------------
    def _deliver(self, frame: bytes) -> bool:
        if not self._open:
            return True
        if self._inbox.qsize() > MAX_UNREAD:
            return False
        self._inbox.put(frame[protocol.HEADER_BYTES :])
        if self._wakeup is not None:
            # A wake-up is only a hint; it must never break the host.
            with contextlib.suppress(Exception):
                self._wakeup()
        return True

    def _closed_by_host(self) -> None:
        if self._open:
            self._open = False
            self._inbox.put(disconnected("the host closed the connection", Cause.DROPPED))


class _LocalPeer:
    """The host's side of a :class:`LocalConnection` (a :class:`~net.hub.Peer`)."""

    #: Connections inside the program itself (hot-seat, the LAN host's own window).
    trusted = True
    address = "local"

    def __init__(self, connection: LocalConnection) -> None:
        self.pid = next(_pids)
        self.label = f"local#{self.pid}"
        self._connection = connection

    def deliver(self, frame: bytes) -> bool:
        return self._connection._deliver(frame)

    def close(self) -> None:
        self._connection._closed_by_host()
