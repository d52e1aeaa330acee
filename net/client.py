"""Clients of a LAN host: for the UI, for scripts and tests, and a headless bot player.

* :class:`TcpConnection` — the UI's :class:`~net.connection.Connection` over TCP: an asyncio
  loop in a daemon thread does all the network work; the pygame loop only calls the
  non-blocking ``send`` and ``poll``.
* :class:`AsyncClient` — the same protocol on the caller's own asyncio loop (tests, benchmarks,
  the headless player).
* the headless player (:func:`net.headless.play_headless`, built on :class:`AsyncClient`) —
  sit in a free seat and play a whole game with a bot
  (``python -m game join HOST:PORT --bot random --headless --json``).

Everything from the host is checked before it is used, like the host checks a client's
messages: the length before the body (at most :data:`~net.protocol.MAX_FRAME`), a strict
msgpack decode with bounded counts and depth, then the message's shape field by field
(:func:`net.host_messages.validate_host`).  A host that sends anything else is a bad host: the
connection ends with a sentence saying what was wrong (``disconnected`` for the UI,
:class:`net.headless.JoinError` for the headless player) — never a traceback.  What a client keeps is
bounded too: skipped messages (:data:`SKIPPED_KEPT`), unread frames (:data:`MAX_INBOX_BYTES`).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import queue
import random
import threading
import time
from dataclasses import dataclass
from typing import Any, Final

from game.core.match import clean_text
from net import host_messages, protocol
from net.connection import (
    KEEPALIVE_N,
    RECONNECTED,
    RECONNECTING,
    Cause,
    Wakeup,
    disconnected,
)
from net.protocol import PROTOCOL_VERSION, ErrorCode, ProtocolError
from net.versions import hello_fields

#: Seconds between the keep-alive pings a client sends by itself (the host's idle limit is 60).
KEEPALIVE_SECONDS = 5.0
#: Nothing from the host for this long (it answers every ping): the network is lost.
SILENCE_SECONDS = 20.0
#: How many skipped messages :meth:`AsyncClient.expect` keeps (the newest), for scripts.
SKIPPED_KEPT = 16
#: How many frame sizes :class:`AsyncClient` remembers (the newest), for benchmarks.
FRAME_SIZES_KEPT = 1024
#: Bytes of received frames the UI has not polled yet after which the host is dropped.
MAX_INBOX_BYTES = 64 * 1024 * 1024


class ConnectionClosed(Exception):
    """The host closed the connection (or it broke)."""


async def read_frame(reader: asyncio.StreamReader) -> tuple[dict[str, Any], int]:
    """Read one host frame and its size: the length checked first, then a strict decode and
    :func:`~net.host_messages.validate_host` (raises :class:`ProtocolError` on bad data)."""
    header = await reader.readexactly(protocol.HEADER_BYTES)
    length = protocol.frame_length(header, protocol.MAX_FRAME)
    body = await reader.readexactly(length)
    msg = host_messages.validate_host(protocol.decode(body, protocol.MAX_FRAME))
    return msg, length + protocol.HEADER_BYTES


async def read_message(reader: asyncio.StreamReader) -> dict[str, Any]:
    """Read one host frame (see :func:`read_frame`)."""
    return (await read_frame(reader))[0]


def bad_host(exc: ProtocolError) -> str:
    """The sentence shown when the host sent something a client refuses."""
    return f"the host sent a bad message ({clean_text(exc.text)[:300]})"


class AsyncClient:
    """A protocol client on the running asyncio loop.

    ``await AsyncClient.connect(host, port)``; ``await send(msg)``; ``await recv()`` (a
    checked message; :class:`ProtocolError` for a bad one); ``await expect("joined")`` skips
    other messages (the newest :data:`SKIPPED_KEPT` are kept in :attr:`skipped`) until one of
    the named types arrives — an ``error`` arriving first raises :class:`HostError`.
    """

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.skipped: collections.deque[dict[str, Any]] = collections.deque(maxlen=SKIPPED_KEPT)
        self.frame_sizes: collections.deque[int] = collections.deque(maxlen=FRAME_SIZES_KEPT)

    @classmethod
    async def connect(cls, host: str, port: int, timeout: float = 5.0) -> AsyncClient:
        hello_fields()  # import every game before the host's hello timer runs (``hello``)
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(host, port, limit=protocol.MAX_FRAME * 2), timeout
        )
        return cls(reader, writer)

    async def send(self, msg: dict[str, Any]) -> None:
        self.writer.write(protocol.encode(msg))
        await self.writer.drain()

    async def recv(self, timeout: float | None = None) -> dict[str, Any]:
        try:
            async with asyncio.timeout(timeout):
                msg, size = await read_frame(self.reader)
        except (asyncio.IncompleteReadError, ConnectionError) as exc:
            raise ConnectionClosed("the host closed the connection") from exc
        self.frame_sizes.append(size)
        return msg

    async def expect(self, *kinds: str, timeout: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            try:
                msg = await self.recv(max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                names = " or ".join(repr(k) for k in kinds)
                raise NoAnswer(f"no {names} from the host within {timeout:g} s") from None
            if msg["t"] in kinds:
                return msg
            if msg["t"] == "error" and "error" not in kinds:
                raise HostError(msg["code"], msg["text"], msg)
            self.skipped.append(msg)

    async def hello(self, name: str = "Player", client: str = "") -> dict[str, Any]:
        msg: dict[str, Any] = {"t": "hello", "version": PROTOCOL_VERSION, "name": name}
        msg.update(hello_fields())
        if client:
            msg["client"] = client
        await self.send(msg)
        return await self.expect("welcome")

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(Exception):
            await self.writer.wait_closed()


class NoAnswer(TimeoutError):
    """:meth:`AsyncClient.expect` waited in vain (the text names what for)."""


class HostError(Exception):
    """An ``error`` message from the host, as an exception (``code``, ``text``)."""

    def __init__(self, code: str, text: str, msg: dict[str, Any] | None = None) -> None:
        super().__init__(f"{code}: {text}")
        self.code = code
        self.text = text
        #: The whole ``error`` message (a version refusal's ``versions``).
        self.msg = msg or {"code": code, "text": text}


@dataclass(frozen=True)
class Reconnect:
    """How a :class:`TcpConnection` seated at a table comes back after its link dropped.

    It tries again after each of ``delays`` seconds in turn (then the last one, again and
    again), a quarter of each at random more or less so that every client of a host that
    restarts does not knock at once, until it is back or ``give_up`` seconds have passed since
    the drop.
    """

    delays: tuple[float, ...] = (0.5, 1.0, 2.0, 4.0, 8.0)
    give_up: float = 30 * 60.0

    def delay(self, attempt: int) -> float:
        base = self.delays[min(attempt, len(self.delays) - 1)] if self.delays else 1.0
        return base * random.uniform(0.75, 1.25)


#: Error codes of the host that end the connection for good when they answer a rejoin.
REJOIN_REFUSED: Final = frozenset(
    {
        ErrorCode.BAD_TOKEN,
        ErrorCode.NO_TABLE,
        ErrorCode.TABLE_FULL,
        ErrorCode.SEAT_TAKEN,
        ErrorCode.BAD_SEAT,
        ErrorCode.ALREADY_STARTED,
        ErrorCode.GAME_OVER,
        ErrorCode.NOT_ALLOWED,
    }
)
#: Error codes after which the host ends the connection (it may be made again).
DROPPING: Final = frozenset({ErrorCode.IDLE, ErrorCode.FLOOD, ErrorCode.BUSY})


class Rejoin:
    """Where a connection sits and how to sit there again, learned from the messages it sends
    and receives: the ``hello`` it sent, the table, seat and token of the last ``joined``,
    whether the game has started or ended, whether it left the table."""

    def __init__(self) -> None:
        self.hello: dict[str, Any] | None = None
        self.name: str | None = None
        self.table: str | None = None
        self.seat: int | None = None
        self.token: str | None = None
        self.started = False
        self.over = False
        self.left = False

    def sent(self, msg: dict[str, Any]) -> None:
        kind = msg.get("t")
        if kind == "hello":
            self.hello = dict(msg)
        elif kind in ("join", "create_table") and isinstance(msg.get("name"), str):
            self.name = msg["name"]
        elif kind in ("leave", "close_table"):
            self.left = True

    def received(self, msg: dict[str, Any]) -> None:
        kind = msg["t"]
        if kind == "joined":
            self.table, self.seat, self.token = msg["table"], msg["seat"], msg["token"]
            self.left = False
        elif kind == "lobby":
            self.started, self.over = msg["started"], msg["over"]
        elif kind == "state":
            self.started, self.over = True, self.over or msg["over"]
        elif kind == "game_over":
            self.over = True
        elif kind in ("left", "table_closed"):
            self.left = True

    @property
    def possible(self) -> bool:
        """Whether there is a place to go back to."""
        return self.hello is not None and self.table is not None and not self.left and not self.over

    def messages(self) -> list[dict[str, Any]]:
        """``hello``, then the ``join`` that takes the place back: the seat's token once the
        game runs (the host keeps the seat for it); in the lobby, where a dropped seat opens
        again, the same seat afresh; a spectator watches again."""
        assert self.hello is not None and self.table is not None
        join: dict[str, Any] = {"t": "join", "table": self.table}
        if self.seat is None:
            join["spectate"] = True
        elif self.started and self.token is not None:
            join["token"] = self.token
        else:
            join["seat"] = self.seat
            if self.name:
                join["name"] = self.name
        return [self.hello, join]


class _Ended(Exception):
    """The link ended: ``cause`` (:class:`~net.connection.Cause`) and the sentence."""

    def __init__(self, cause: str, reason: str) -> None:
        super().__init__(reason)
        self.cause = cause
        self.reason = reason


#: Causes after which a seated connection with a :class:`Reconnect` policy tries again.
RETRIED: Final = frozenset({Cause.LOST, Cause.NETWORK, Cause.HOST_STOPPED, Cause.DROPPED})


def connect_failure(host: str, port: int, exc: BaseException) -> tuple[str, str]:
    """(cause, sentence) for a connection attempt that failed with ``exc``."""
    where = f"{host}:{port}"
    if isinstance(exc, ConnectionRefusedError):
        return Cause.HOST_GONE, f"{where} refuses connections: the host is not running there"
    if isinstance(exc, TimeoutError):
        return Cause.NETWORK, f"no answer from {where}"
    text = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return Cause.NETWORK, f"cannot reach {where}: {text}"


class TcpConnection:
    """A :class:`~net.connection.Connection` over TCP, for the pygame loop.

    :meth:`open` returns at once; connecting happens on the connection's own thread, and a
    failure arrives through :meth:`poll` as ``{"t": "disconnected", "reason", "cause"}``.
    Messages sent before the connection is up are sent as soon as it is.

    Nothing from the host for ``silence`` seconds (it answers the keep-alive pings sent every
    ``keepalive`` seconds) means the network is lost.  With a ``reconnect`` policy, a
    connection seated at a table whose link drops connects again by itself (see
    ``net/connection.py``).
    """

    def __init__(
        self,
        host: str,
        port: int,
        *,
        timeout: float = 5.0,
        wakeup: Wakeup | None = None,
        keepalive: float = KEEPALIVE_SECONDS,
        silence: float = SILENCE_SECONDS,
        reconnect: Reconnect | None = None,
    ) -> None:
        self.host = host
        self.port = port
        self._timeout = timeout
        self._wakeup = wakeup
        self._keepalive = keepalive
        self._silence = max(silence, 2 * keepalive)
        self._reconnect = reconnect
        self._inbox: queue.SimpleQueue[tuple[dict[str, Any], int]] = queue.SimpleQueue()
        #: Bytes of frames in the inbox (updated by both threads; a rough bound is enough).
        self._unread = 0
        self._pending: list[bytes] = []
        self._writer: asyncio.StreamWriter | None = None
        self._ever_up = False
        self._open = True
        self._link = False
        self._up = threading.Event()
        self._stop = asyncio.Event()  # set on the network thread by close()
        self.rejoin = Rejoin()  # touched on the network thread only
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._run, name=f"lantern-net-{host}:{port}", daemon=True
        )
        self._thread.start()

    @classmethod
    def open(
        cls,
        host: str,
        port: int,
        *,
        timeout: float = 5.0,
        wakeup: Wakeup | None = None,
        keepalive: float = KEEPALIVE_SECONDS,
        silence: float = SILENCE_SECONDS,
        reconnect: Reconnect | None = None,
    ) -> TcpConnection:
        return cls(
            host,
            port,
            timeout=timeout,
            wakeup=wakeup,
            keepalive=keepalive,
            silence=silence,
            reconnect=reconnect,
        )

    # ---- the UI side ------------------------------------------------------------------------
    @property
    def connected(self) -> bool:
        """True until the connection has ended for good (also while it reconnects)."""
        return self._open

    @property
    def link_up(self) -> bool:
        """True while a TCP link to the host is up."""
        return self._link and self._open

    def wait_connected(self, timeout: float) -> bool:
        """Block up to ``timeout`` seconds until connected (for scripts, not the UI loop)."""
        return self._up.wait(timeout) and self._open

    def send(self, msg: dict[str, Any]) -> None:
        frame = protocol.encode(msg)
        if self._open:
            with contextlib.suppress(RuntimeError):  # the loop already stopped
                self._loop.call_soon_threadsafe(self._write, frame, dict(msg))

    def poll(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        while True:
            try:
                msg, size = self._inbox.get_nowait()
            except queue.Empty:
                return out
            self._unread -= size
            out.append(msg)

    def close(self) -> None:
        if self._open:
            self._open = False
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self._shutdown)

    # ---- the network thread -------------------------------------------------------------------
    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._main())
        finally:
            self._loop.close()

    def _put(self, msg: dict[str, Any], size: int = 0) -> None:
        self._unread += size
        self._inbox.put((msg, size))
        if self._wakeup is not None:
            with contextlib.suppress(Exception):
                self._wakeup()

    def _write(self, frame: bytes, msg: dict[str, Any] | None = None) -> None:
        if msg is not None:
            self.rejoin.sent(msg)
        if self._writer is None:
            if not self._ever_up:
                self._pending.append(frame)  # sent once the first connection is up
            # While the link is down after a drop the message is dropped: the host answers a
            # rejoin with everything the window needs, and an action chosen before the drop
            # must not arrive after it.
        elif not self._writer.is_closing():
            self._writer.write(frame)

    def _shutdown(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self._stop.set()

    async def _open_link(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        return await asyncio.wait_for(
            asyncio.open_connection(self.host, self.port, limit=protocol.MAX_FRAME * 2),
            self._timeout,
        )

    async def _main(self) -> None:
        try:
            reader, writer = await self._open_link()
        except (OSError, TimeoutError) as exc:
            detail = "timed out" if isinstance(exc, TimeoutError) else exc.strerror or str(exc)
            self._open = False
            self._up.set()
            self._put(
                disconnected(
                    f"could not connect to {self.host}:{self.port}: {detail}", Cause.UNREACHABLE
                )
            )
            return
        self._ever_up = True
        for frame in self._pending:
            writer.write(frame)
        self._pending.clear()
        self._up.set()
        ended = await self._serve(reader, writer, rejoining=False)
        while (
            ended.cause in RETRIED
            and self._reconnect is not None
            and self.rejoin.possible
            and not self._stop.is_set()
        ):
            ended = await self._come_back(ended)
        self._open = False
        if self._stop.is_set():
            ended = _Ended(Cause.CLOSED, "connection closed")
        self._put(disconnected(ended.reason, ended.cause))

    async def _come_back(self, ended: _Ended) -> _Ended:
        """Connect again with backoff until the link is back and has been served to its end
        (its own ending is returned), or the policy gives up (the last failure is returned)."""
        assert self._reconnect is not None
        policy = self._reconnect
        since = time.monotonic()
        attempt = 0
        while True:
            wait = policy.delay(attempt)
            if time.monotonic() - since + wait > policy.give_up:
                minutes = policy.give_up / 60
                return _Ended(ended.cause, f"{ended.reason} (gave up after {minutes:g} min)")
            self._put(
                {
                    "t": RECONNECTING,
                    "cause": ended.cause,
                    "reason": ended.reason,
                    "attempt": attempt,
                    "retry_in": round(wait, 2),
                }
            )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), wait)
            if self._stop.is_set():
                return _Ended(Cause.CLOSED, "connection closed")
            attempt += 1
            try:
                reader, writer = await self._open_link()
            except (OSError, TimeoutError) as exc:
                ended = _Ended(*connect_failure(self.host, self.port, exc))
                continue
            for msg in self.rejoin.messages():
                writer.write(protocol.encode(msg))
            return await self._serve(reader, writer, rejoining=True, attempts=attempt)

    async def _serve(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        *,
        rejoining: bool,
        attempts: int = 0,
    ) -> _Ended:
        """Read the host's frames until the link ends; how it ended."""
        self._writer = writer
        self._link = not rejoining
        pinger = asyncio.create_task(self._pings())
        stopper = asyncio.create_task(self._stop.wait())
        stopping = ""  # the host said it is shutting down (its text)
        dropping = ""  # the host said it drops this connection (its text)
        try:
            while True:
                reading = asyncio.create_task(read_frame(reader))
                done, _ = await asyncio.wait(
                    {reading, stopper}, timeout=self._silence, return_when=asyncio.FIRST_COMPLETED
                )
                if reading not in done:
                    reading.cancel()
                    if stopper in done:
                        return _Ended(Cause.CLOSED, "connection closed")
                    return _Ended(
                        Cause.NETWORK,
                        f"nothing from the host for {self._silence:g} s: the network "
                        "connection to it was lost",
                    )
                msg, size = reading.result()
                kind = msg["t"]
                if kind == "pong" and msg.get("n") == KEEPALIVE_N:
                    continue
                if kind == "error":
                    code, text = msg["code"], msg["text"]
                    if code == ErrorCode.SHUTTING_DOWN:
                        stopping = text
                    elif code in DROPPING:
                        dropping = text
                    elif code == ErrorCode.REPLACED:
                        self._put(msg, size)
                        return _Ended(Cause.REPLACED, text)
                    elif code == ErrorCode.VERSION_MISMATCH:
                        self._put(msg, size)
                        return _Ended(Cause.REFUSED, text)
                    elif rejoining and code in REJOIN_REFUSED:
                        self.rejoin.left = True
                        return _Ended(Cause.SEAT_GONE, text)
                if rejoining:
                    if kind == "welcome":
                        continue  # the window had it the first time
                    if kind == "joined":
                        rejoining = False
                        self._link = True
                        self._put({"t": RECONNECTED, "attempts": attempts})
                self.rejoin.received(msg)
                if kind == "table_closed":
                    self._put(msg, size)
                    self.rejoin.left = True
                    continue
                if self._unread + size > MAX_INBOX_BYTES:
                    return _Ended(
                        Cause.BAD_HOST,
                        f"the host sent more than {MAX_INBOX_BYTES >> 20} MiB that this window "
                        "has not shown yet",
                    )
                self._put(msg, size)
        except (asyncio.IncompleteReadError, ConnectionError):
            if self._stop.is_set():
                return _Ended(Cause.CLOSED, "connection closed")
            if stopping:
                return _Ended(Cause.HOST_STOPPED, f"the host stopped: {stopping}")
            if dropping:
                return _Ended(Cause.DROPPED, f"the host ended the connection: {dropping}")
            return _Ended(Cause.LOST, "the connection to the host was lost")
        except ProtocolError as exc:
            return _Ended(Cause.BAD_HOST, bad_host(exc))
        finally:
            self._link = False
            self._writer = None
            pinger.cancel()
            stopper.cancel()
            writer.close()

    async def _pings(self) -> None:
        frame = protocol.encode({"t": "ping", "n": KEEPALIVE_N})
        while True:
            await asyncio.sleep(self._keepalive)
            self._write(frame)
