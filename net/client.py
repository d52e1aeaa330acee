"""Clients of a LAN host: for the UI, for scripts and tests, and a headless bot player.

* :class:`TcpConnection` — the UI's :class:`~net.connection.Connection` over TCP: an asyncio
  loop in a daemon thread does all the network work; the pygame loop only calls the
  non-blocking ``send`` and ``poll``.
* :class:`AsyncClient` — the same protocol on the caller's own asyncio loop (tests, benchmarks,
  the headless player).
* :func:`play_headless` — sit in a free seat and play a whole game with a bot
  (``python -m game join HOST:PORT --bot random --headless --json``).

Everything from the host is checked before it is used, like the host checks a client's
messages: the length before the body (at most :data:`~net.protocol.MAX_FRAME`), a strict
msgpack decode with bounded counts and depth, then the message's shape field by field
(:func:`net.protocol.validate_host`).  A host that sends anything else is a bad host: the
connection ends with a sentence saying what was wrong (``disconnected`` for the UI,
:class:`JoinError` for the headless player) — never a traceback.  What a client keeps is
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
from dataclasses import dataclass, field
from typing import Any, Final

from game.bots import make_bot
from game.core.match import clean_text
from game.core.registry import UnknownGame, get_game
from game.core.rng import derive_seed
from net import protocol
from net.connection import (
    DISCONNECTED,
    KEEPALIVE_N,
    RECONNECTED,
    RECONNECTING,
    Cause,
    Wakeup,
    disconnected,
)
from net.protocol import PROTOCOL_VERSION, ErrorCode, ProtocolError
from net.seats import SeatStore, StoredSeat
from net.versions import MISMATCH_CODES, Mismatch, check_host, from_refusal, hello_fields

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
    :func:`~net.protocol.validate_host` (raises :class:`ProtocolError` on bad data)."""
    header = await reader.readexactly(protocol.HEADER_BYTES)
    length = protocol.frame_length(header, protocol.MAX_FRAME)
    body = await reader.readexactly(length)
    msg = protocol.validate_host(protocol.decode(body, protocol.MAX_FRAME))
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


# ---- the headless player ---------------------------------------------------------------------


@dataclass
class HeadlessOptions:
    """What :func:`play_headless` needs besides the address."""

    table: str | None = None
    bot: str = "random"
    name: str = ""
    seed: int | None = None
    budget: float | None = None
    #: Give up waiting for a free seat after this many seconds.
    join_timeout: float = 30.0
    #: Give up on a host that sends nothing for this many seconds (it answers every ping).
    silence_timeout: float = SILENCE_SECONDS
    #: Where this player's seat tokens are kept (``None``: nowhere).  A seat kept there for this
    #: host (and ``table``) is taken back before a free one is looked for.
    store: SeatStore | None = None
    #: Whether a seat kept in ``store`` is taken back (else a free seat is taken).
    take_back: bool = True
    #: Seconds to keep trying to get back to the seat after the connection dropped in a running
    #: game (0: do not try).
    reconnect: float = 60.0
    #: How the reconnect attempts are spaced.
    backoff: Reconnect = field(default_factory=Reconnect)
    #: Seconds to wait before each action (so people can follow; 0: none).
    delay: float = 0.0


class JoinError(Exception):
    """The headless player could not join or finish a game (the text says why).

    The text is one line without control characters (parts of it may come from the host).
    ``mismatch`` says why the host and this program cannot play together (``net.versions``:
    ``lantern join`` says it in the player's language).
    """

    def __init__(self, text: str, mismatch: Mismatch | None = None) -> None:
        super().__init__(clean_text(text)[:500])
        self.mismatch = mismatch


def _mismatch_error(mismatch: Mismatch) -> JoinError:
    return JoinError(mismatch.english(), mismatch)


class _Lost(Exception):
    """The connection ended (or went silent) while the game ran: try to get back."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


async def _find_seat(
    client: AsyncClient, welcome: dict[str, Any], opts: HeadlessOptions
) -> dict[str, Any]:
    """Join the named table, or the first table with an open seat whose game has this
    program's rules (``net.versions``); retry until the timeout."""
    deadline = time.monotonic() + opts.join_timeout
    tables: list[dict[str, Any]] = welcome["tables"]
    while True:
        games = {t["table"]: t["game"] for t in tables}
        if opts.table is not None:
            candidates = [opts.table]
        else:
            candidates = [t["table"] for t in tables if t["open"] > 0 and not t["over"]]
        refused = [m for m in (check_host(welcome, games.get(c)) for c in candidates) if m]
        if candidates and len(refused) == len(candidates):
            raise _mismatch_error(refused[0])  # every table it could take plays other rules
        for table_id in candidates:
            if check_host(welcome, games.get(table_id)) is not None:
                continue
            await client.send({"t": "join", "table": table_id, "name": opts.name or "Bot"})
            reply = await client.expect("joined", "error")
            if reply["t"] == "joined":
                return reply
            if reply["code"] in MISMATCH_CODES:
                raise _mismatch_error(from_refusal(reply))
            if reply["code"] not in (ErrorCode.TABLE_FULL, ErrorCode.SEAT_TAKEN):
                raise JoinError(f"table {table_id}: {reply['text']}")
        if time.monotonic() > deadline:
            where = f"table {opts.table}" if opts.table else "any table"
            raise JoinError(f"no free seat at {where} within {opts.join_timeout:g} s")
        await asyncio.sleep(0.2)
        await client.send({"t": "list_tables"})
        tables = (await client.expect("tables"))["tables"]


async def _take_back(
    client: AsyncClient, host: str, port: int, opts: HeadlessOptions
) -> dict[str, Any] | None:
    """Sit down again in a seat this computer kept for this host (the newest first), if the
    host still knows its token; a token the host refuses is forgotten."""
    if opts.store is None or not opts.take_back:
        return None
    for kept in opts.store.free(host, port, opts.table):
        await client.send({"t": "join", "table": kept.table, "token": kept.token})
        reply = await client.expect("joined", "error")
        if reply["t"] == "joined":
            return reply
        if reply["code"] in REJOIN_REFUSED:
            opts.store.forget(kept.token)
    return None


async def play_headless(host: str, port: int, opts: HeadlessOptions) -> dict[str, Any]:
    """Take a seat, play with ``opts.bot`` until the game ends, return the result.

    The seat is one kept in ``opts.store`` for this host (a run that was killed takes its seat
    back), else a free one.  If the connection drops while the game runs, the player connects
    again with backoff and takes the seat back with its token for up to ``opts.reconnect``
    seconds (a host restarted from its save knows the token too).

    The result has the fields of ``python -m game simulate --json``: ``game``, ``seed``,
    ``players``, ``bots`` (each seat's bot name, or ``"human"``), ``scores``, ``winners``,
    ``actions``, ``seconds``; plus ``table`` and ``seat`` (this client's).  The bot chooses on
    the ``sample`` the host sends for the seat (a determinized copy; no secrets of others).
    """
    player = _Headless(host, port, opts)
    try:
        client = await player.connect()
    except (OSError, TimeoutError) as exc:
        raise JoinError(f"could not connect to {host}:{port}: {exc}") from None
    try:
        welcome = await client.hello(opts.name or f"{opts.bot} bot", client="lantern join")
        mismatch = check_host(welcome)
        if mismatch is not None:
            raise _mismatch_error(mismatch)
        player.welcome = welcome
        joined = await _take_back(client, host, port, opts)
        if joined is None:
            joined = await _find_seat(client, welcome, opts)
        if joined["seat"] is None:
            raise JoinError(f"the host gave no seat at table {joined['table']}, only a view")
        return await player.play(client, joined)
    except HostError as exc:
        if exc.code in MISMATCH_CODES:
            raise _mismatch_error(from_refusal(exc.msg)) from None
        raise JoinError(f"the host refused: {exc.text}") from None
    except ProtocolError as exc:
        raise JoinError(bad_host(exc)) from None
    except ConnectionClosed:
        raise JoinError(
            "the host closed the connection (or the network lost it) before the game ended"
        ) from None
    except NoAnswer as exc:
        raise JoinError(str(exc)) from None
    except TimeoutError:
        raise JoinError(f"the host sent nothing for {opts.silence_timeout:g} s") from None
    except OSError as exc:
        raise JoinError(f"the connection to the host broke: {exc.strerror or exc}") from None
    finally:
        await player.close()


class _Headless:
    """One headless player: its seat, its bot, and what it answered, across reconnects."""

    def __init__(self, host: str, port: int, opts: HeadlessOptions) -> None:
        self.host, self.port, self.opts = host, port, opts
        self.started = time.perf_counter()
        self.client: AsyncClient | None = None
        self.table = ""
        self.seat = 0
        self.token = ""
        self.game: Any = None
        self.bot: Any = None
        self.readied = False
        self.running = False  # the game has started (the seat is kept for the token)
        self.decided: int | None = None  # the decision already answered: act once per decision
        self.asked: int | None = None  # the seq a sample was asked at (the answer is newer)
        self.welcome: dict[str, Any] = {}  # the host's welcome (its versions)

    async def connect(self) -> AsyncClient:
        self.client = await AsyncClient.connect(self.host, self.port)
        return self.client

    async def close(self) -> None:
        if self.client is not None:
            await self.client.close()

    def _joined(self, joined: dict[str, Any]) -> None:
        self.table, self.seat, self.token = joined["table"], joined["seat"], joined["token"]
        self.decided = self.asked = None  # a fresh snapshot follows: its decision is asked anew

    def _keep(self) -> None:
        """The game runs: keep the seat's token for a later run (or a host's restart)."""
        if self.opts.store is not None:
            self.opts.store.remember(
                StoredSeat(
                    self.host,
                    self.port,
                    self.table,
                    self.token,
                    self.seat,
                    self.game.id if self.game is not None else "",
                    self.opts.name or f"{self.opts.bot} bot",
                )
            )

    def _forget(self) -> None:
        if self.opts.store is not None and self.token:
            self.opts.store.forget(self.token)

    async def play(self, client: AsyncClient, joined: dict[str, Any]) -> dict[str, Any]:
        self._joined(joined)
        while True:
            pinger = asyncio.create_task(_keepalive(client))
            try:
                return await self._loop(client)
            except (ConnectionClosed, OSError, TimeoutError) as exc:
                if isinstance(exc, NoAnswer) or not self.running or self.opts.reconnect <= 0:
                    raise
                why = (
                    f"the host sent nothing for {self.opts.silence_timeout:g} s"
                    if isinstance(exc, TimeoutError)
                    else "the connection to the host was lost"
                )
            finally:
                pinger.cancel()
            client = await self._come_back(why)

    async def _come_back(self, why: str) -> AsyncClient:
        """Connect again with backoff and take the seat back with its token."""
        since = time.monotonic()
        attempt = 0
        await self.close()
        while True:
            wait = self.opts.backoff.delay(attempt)
            if time.monotonic() - since + wait > self.opts.reconnect:
                raise JoinError(f"{why}; gave up after {self.opts.reconnect:g} s of reconnecting")
            await asyncio.sleep(wait)
            attempt += 1
            try:
                client = await self.connect()
                await client.hello(self.opts.name or f"{self.opts.bot} bot", client="lantern join")
                await client.send({"t": "join", "table": self.table, "token": self.token})
                reply = await client.expect("joined", "error")
            except HostError as exc:  # busy, shutting down: the host is not ready yet
                why = f"the host refused: {exc.text}"
                await self.close()
                continue
            except (OSError, TimeoutError, ConnectionClosed) as exc:
                if isinstance(exc, OSError | TimeoutError) and not isinstance(exc, NoAnswer):
                    why = connect_failure(self.host, self.port, exc)[1]
                await self.close()
                continue
            if reply["t"] == "error":
                if reply["code"] in REJOIN_REFUSED:
                    self._forget()
                    raise JoinError(f"the host no longer has this seat: {reply['text']}")
                why = f"the host refused: {reply['text']}"
                await self.close()
                continue
            self._joined(reply)
            self._keep()
            return client

    async def _loop(self, client: AsyncClient) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        opts = self.opts
        table = self.table
        while True:
            msg = await client.recv(opts.silence_timeout)
            kind = msg["t"]
            if kind == "lobby":
                if self.game is None:
                    mismatch = check_host(self.welcome, msg["game"]) if self.welcome else None
                    if mismatch is not None:  # a kept seat at a table of other rules
                        raise _mismatch_error(mismatch)
                    try:
                        self.game = get_game(msg["game"])
                    except UnknownGame:
                        raise JoinError(
                            f"table {table} plays {msg['game']!r}, a game this program does not "
                            "have"
                        ) from None
                elif msg["game"] != self.game.id:
                    raise JoinError(f"the host switched table {table} to another game")
                if self.seat >= msg["players"]:
                    raise JoinError(
                        f"the host seated this player at seat {self.seat} of {msg['players']}"
                    )
                if msg["started"] and not self.running:
                    self.running = True
                    self._keep()
                if not msg["started"] and not self.readied:
                    self.readied = True
                    await client.send({"t": "ready"})
            elif kind == "state":
                if not self.running:
                    self.running = True
                    self._keep()
                if self.seat in msg["to_move"] and msg["legal"] and msg["decision"] != self.decided:
                    self.decided, self.asked = msg["decision"], msg["seq"]
                    await client.send({"t": "sample", "seq": self.asked})
            elif kind == "sample" and self.asked is not None and msg["seq"] >= self.asked:
                # The host samples its current position (another seat may have moved meanwhile).
                self.asked = None
                if self.game is None:
                    raise JoinError("the host sent a sample before the lobby")
                if msg["seat"] != self.seat:
                    raise JoinError(
                        f"the host sent seat {msg['seat']}'s sample to seat {self.seat}"
                    )
                if self.bot is None:
                    seed = opts.seed if opts.seed is not None else derive_seed(0, table, self.seat)
                    self.bot = make_bot(opts.bot, seed, opts.budget)
                chosen = await _choose(loop, self.game, msg["state"], self.bot, self.seat)
                if opts.delay > 0:
                    await asyncio.sleep(opts.delay)
                await client.send({"t": "action", "seq": msg["seq"], "action": list(chosen)})
            elif kind == "pong" and msg.get("n") == KEEPALIVE_N:
                continue
            elif kind == "error":
                if msg["code"] in (ErrorCode.STALE, ErrorCode.NOT_YOUR_TURN):
                    continue  # a newer state is on its way
                if msg["code"] == ErrorCode.ALREADY_STARTED:
                    continue  # the ready flag came too late to matter
                if msg["code"] == ErrorCode.SHUTTING_DOWN and self.running:
                    continue  # the connection ends next: come back when the host does
                if msg["code"] in MISMATCH_CODES:
                    raise _mismatch_error(from_refusal(msg))
                raise JoinError(f"the host refused: {msg['text']}")
            elif kind == "game_over":
                if self.game is not None and msg["game"] != self.game.id:
                    raise JoinError(f"the host ended table {table} with another game's result")
                self._forget()
                return {
                    "game": msg["game"],
                    "seed": msg["seed"],
                    "players": msg["players"],
                    "bots": [s["bot"] or s["kind"] for s in msg["seats"]],
                    "scores": msg["scores"],
                    "winners": msg["winners"],
                    "actions": msg["actions"],
                    "seconds": round(time.perf_counter() - self.started, 4),
                    "table": table,
                    "seat": self.seat,
                    "bot": opts.bot,
                }
            elif kind in ("table_closed", "left"):
                # The token stays kept: a closed table may be continued from its save, and
                # "left" unasked means another run took the seat over.
                raise JoinError(f"left table {table}: {msg['reason']}")
            elif kind == DISCONNECTED:  # pragma: no cover - only TcpConnection makes these
                raise ConnectionClosed(msg.get("reason", ""))


async def _keepalive(client: AsyncClient) -> None:
    """Ping now and then, so the host never takes a waiting player for a dead one (and its
    pongs show that the network still carries)."""
    while True:
        await asyncio.sleep(KEEPALIVE_SECONDS)
        with contextlib.suppress(Exception):
            await client.send({"t": "ping", "n": KEEPALIVE_N})


async def _choose(
    loop: asyncio.AbstractEventLoop, game: Any, data: dict[str, Any], bot: Any, seat: int
) -> tuple[Any, ...]:
    """The bot's action on the host's ``sample`` of the position.

    The sample comes from the host, so a state the game refuses (``BadState``) or one the bot
    cannot play from — whatever the engine raises on it — ends the game with a sentence.
    """
    try:
        world = game.from_dict(data)
    except Exception as exc:  # hostile data: BadState, or any error of an engine fed garbage
        raise JoinError(f"the host sent a position the game cannot read: {exc}") from None
    if seat not in world.to_move():
        raise JoinError(f"the host sent a position in which seat {seat} has nothing to do")
    try:
        chosen: tuple[Any, ...] = await loop.run_in_executor(None, bot.choose, world, seat)
    except Exception as exc:  # the position was accepted but is not one a game reaches
        raise JoinError(f"the bot cannot play the position the host sent: {exc}") from None
    return chosen
