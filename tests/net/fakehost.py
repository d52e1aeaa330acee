"""A scripted *hostile* host for the client tests: an asyncio server on 127.0.0.1.

:class:`FakeHost` runs its own event loop on a daemon thread, so the client under test — a
``lantern join`` run in this process or in a subprocess, the window's ``TcpConnection`` —
talks to it over a real socket.  Each connection runs a *script*: an ``async`` function given a
:class:`Peer`, which reads the client's frames and writes whatever the test wants, well formed
or not.

:func:`good_messages` is a complete, valid conversation for the headless player at a table of
the shared test game "Bid and Race" (``tests/testgame``; seat 0, seat 1 a bot): ``welcome``, ``joined``, ``lobby``, ``state``,
``sample``, ``game_over``.  :func:`headless_script` plays it, with any message replaced by a
malformed one (or by raw bytes), so each test changes exactly one thing.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import struct
import threading
from collections.abc import Awaitable, Callable
from typing import Any

import msgpack

from net import protocol
from net.protocol import PROTOCOL_VERSION
from tests import testgame

LOOPBACK = "127.0.0.1"

Script = Callable[["Peer"], Awaitable[None]]


class Peer:
    """One client connection seen from the fake host."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.received: list[dict[str, Any]] = []

    async def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        """The client's next message (keep-alive pings are skipped)."""
        while True:
            async with asyncio.timeout(timeout):
                header = await self.reader.readexactly(4)
                body = await self.reader.readexactly(int.from_bytes(header, "big"))
            msg = protocol.decode(body)
            self.received.append(msg)
            if msg["t"] != "ping":
                return msg

    async def expect(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        while True:
            msg = await self.recv(timeout)
            if msg["t"] == kind:
                return msg

    async def send(self, msg: dict[str, Any] | bytes) -> None:
        """A message (packed without any check, so it may be anything) or raw bytes."""
        data = msg if isinstance(msg, bytes) else frame(msgpack.packb(msg, use_bin_type=True))
        self.writer.write(data)
        await self.writer.drain()

    async def wait_closed(self, timeout: float = 10.0) -> None:
        """Until the client hangs up (reading and dropping whatever it still sends)."""
        with contextlib.suppress(Exception):
            async with asyncio.timeout(timeout):
                while await self.reader.read(65536):
                    pass


def frame(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


class FakeHost:
    """A TCP server on 127.0.0.1 (free port) running ``script`` for every connection."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.errors: list[BaseException] = []
        self.peers: list[Peer] = []
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.server = self._call(asyncio.start_server(self._serve, LOOPBACK, 0))
        self.port: int = self.server.sockets[0].getsockname()[1]

    def _call(self, coro: Awaitable[Any], timeout: float = 10.0) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)  # type: ignore[arg-type]

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = Peer(reader, writer)
        self.peers.append(peer)
        try:
            await self.script(peer)
        except (ConnectionError, asyncio.IncompleteReadError, TimeoutError):
            pass  # the client hung up: that is what most tests expect
        except Exception as exc:  # a bug in the test's script: reported by the test
            self.errors.append(exc)
        finally:
            writer.close()

    def close(self) -> None:
        if not self.thread.is_alive():
            return

        async def stop() -> None:
            self.server.close()
            for peer in self.peers:
                peer.writer.transport.abort()  # at once, even with unsent data queued

        with contextlib.suppress(Exception):
            self._call(stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)

    def __enter__(self) -> FakeHost:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def table_summary() -> dict[str, Any]:
    return {
        "table": "t1",
        "game": testgame.GAME_ID,
        "title": testgame.GAME.title,
        "name": "Test table",
        "players": 2,
        "open": 1,
        "humans": 0,
        "bots": 1,
        "spectators": 0,
        "started": False,
        "over": False,
    }


def seat_records() -> list[dict[str, Any]]:
    return [
        {
            "seat": 0,
            "kind": "human",
            "name": "Bot",
            "colour": "red",
            "ready": False,
            "bot": None,
            "connected": True,
        },
        {
            "seat": 1,
            "kind": "bot",
            "name": "Random bot",
            "colour": "blue",
            "ready": True,
            "bot": "random",
            "connected": True,
        },
    ]


#: The scores the fake host's ``game_over`` announces (seat 1 wins).
FINAL_SCORES = [
    {"bids": 3, "race": 1, "coins": 1, "total": 5},
    {"bids": 3, "race": 2, "coins": 2, "total": 7},
]


def welcome(host: str = "fake", tables: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A host's ``welcome`` that says this program's versions (``net.versions``), as a real
    host of this version does (a welcome without them is refused by the client)."""
    from net.versions import Versions

    mine = Versions.mine()
    return {
        "t": "welcome",
        "version": PROTOCOL_VERSION,
        "host": host,
        "tables": tables or [],
        "program": mine.program,
        "rules": mine.rules,
    }


def good_messages() -> dict[str, dict[str, Any]]:
    """A valid conversation with the headless player (seat 0 of a 2-seat test game table, in
    the sealed bids where both seats choose at once)."""
    state = testgame.GAME.new(2, {}, 7)
    sample = state.determinize(0, 11).to_dict()
    return {
        "welcome": welcome("fake", [table_summary()]),
        "joined": {"t": "joined", "table": "t1", "seat": 0, "token": "tok-0", "owner": False},
        "lobby": {
            "t": "lobby",
            "table": "t1",
            "game": testgame.GAME_ID,
            "title": testgame.GAME.title,
            "players": 2,
            "options": {},
            "settings": {
                "name": "",
                "allow_hints": False,
                "bot_delay_ms": 0,
                "autostart": True,
            },
            "seats": seat_records(),
            "spectators": 0,
            "started": False,
            "over": False,
            "seq": 0,
            "bots": ["random", "easy"],
            "colours": ["red", "blue", "green"],
            "can_start": False,
            "owner_seat": None,
        },
        "state": {
            "t": "state",
            "table": "t1",
            "seq": 0,
            "turn": 0,
            "decision": 0,
            "view": state.view(0),
            "events": [],
            "to_move": list(state.to_move()),
            "legal": [list(a) for a in state.legal_actions(0)],
            "last_action": None,
            "can_undo": False,
            "over": False,
            "waiting": [],
        },
        "sample": {"t": "sample", "table": "t1", "seq": 0, "seat": 0, "state": sample},
        "game_over": {
            "t": "game_over",
            "table": "t1",
            "game": testgame.GAME_ID,
            "seed": 7,
            "players": 2,
            "scores": FINAL_SCORES,
            "winners": [1],
            "actions": 1,
            "seats": seat_records(),
        },
    }


Replacement = dict[str, Any] | bytes | list[dict[str, Any] | bytes]


def headless_script(replace: dict[str, Replacement] | None = None) -> Script:
    """The good conversation (:func:`good_messages`) with some messages replaced.

    ``replace`` maps a message name to what is sent instead: a message, raw bytes, or a list of
    those (sent in order).  After the replaced message the script goes on as a host would, so a
    client that wrongly accepted it would still reach the end of the game.
    """
    good = good_messages()
    replace = replace or {}

    async def send(peer: Peer, name: str) -> None:
        item = replace.get(name, good[name])
        for one in item if isinstance(item, list) else [item]:
            await peer.send(copy.deepcopy(one))

    async def script(peer: Peer) -> None:
        await peer.expect("hello")
        await send(peer, "welcome")
        await peer.expect("join")
        await send(peer, "joined")
        await send(peer, "lobby")
        await peer.expect("ready")
        await send(peer, "state")
        await peer.expect("sample")
        await send(peer, "sample")
        await peer.expect("action")
        await send(peer, "game_over")
        await peer.wait_closed()

    return script
