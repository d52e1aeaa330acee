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
import threading
import time
from dataclasses import dataclass
from typing import Any

from game.bots import make_bot
from game.core.match import clean_text
from game.core.registry import UnknownGame, get_game
from game.core.rng import derive_seed
from net import protocol
from net.connection import DISCONNECTED, KEEPALIVE_N, Wakeup, disconnected
from net.protocol import PROTOCOL_VERSION, ErrorCode, ProtocolError

#: Seconds between the keep-alive pings a client sends by itself (the host's idle limit is 60).
KEEPALIVE_SECONDS = 15.0
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
                raise HostError(msg["code"], msg["text"])
            self.skipped.append(msg)

    async def hello(self, name: str = "Player", client: str = "") -> dict[str, Any]:
        msg: dict[str, Any] = {"t": "hello", "version": PROTOCOL_VERSION, "name": name}
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

    def __init__(self, code: str, text: str) -> None:
        super().__init__(f"{code}: {text}")
        self.code = code
        self.text = text


class TcpConnection:
    """A :class:`~net.connection.Connection` over TCP, for the pygame loop.

    :meth:`open` returns at once; connecting happens on the connection's own thread, and a
    failure arrives through :meth:`poll` as ``{"t": "disconnected", "reason": ...}``.  Messages
    sent before the connection is up are sent as soon as it is.
    """

    def __init__(
        self,
        host: str,
        port: int,
        *,
        timeout: float = 5.0,
        wakeup: Wakeup | None = None,
        keepalive: float = KEEPALIVE_SECONDS,
    ) -> None:
        self.host = host
        self.port = port
        self._timeout = timeout
        self._wakeup = wakeup
        self._keepalive = keepalive
        self._inbox: queue.SimpleQueue[tuple[dict[str, Any], int]] = queue.SimpleQueue()
        #: Bytes of frames in the inbox (updated by both threads; a rough bound is enough).
        self._unread = 0
        self._pending: list[bytes] = []
        self._writer: asyncio.StreamWriter | None = None
        self._open = True
        self._up = threading.Event()
        self._stop = asyncio.Event()  # set on the network thread by close()
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
    ) -> TcpConnection:
        return cls(host, port, timeout=timeout, wakeup=wakeup, keepalive=keepalive)

    # ---- the UI side ------------------------------------------------------------------------
    @property
    def connected(self) -> bool:
        return self._open

    def wait_connected(self, timeout: float) -> bool:
        """Block up to ``timeout`` seconds until connected (for scripts, not the UI loop)."""
        return self._up.wait(timeout) and self._open

    def send(self, msg: dict[str, Any]) -> None:
        frame = protocol.encode(msg)
        if self._open:
            with contextlib.suppress(RuntimeError):  # the loop already stopped
                self._loop.call_soon_threadsafe(self._write, frame)

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

    def _write(self, frame: bytes) -> None:
        if self._writer is None:
            self._pending.append(frame)
        elif not self._writer.is_closing():
            self._writer.write(frame)

    def _shutdown(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self._stop.set()

    async def _main(self) -> None:
        reason = "connection closed"
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(self.host, self.port, limit=protocol.MAX_FRAME * 2),
                self._timeout,
            )
        except (OSError, TimeoutError) as exc:
            detail = "timed out" if isinstance(exc, TimeoutError) else exc.strerror or str(exc)
            self._open = False
            self._up.set()
            self._put(disconnected(f"could not connect to {self.host}:{self.port}: {detail}"))
            return
        self._writer = writer
        for frame in self._pending:
            writer.write(frame)
        self._pending.clear()
        self._up.set()
        pinger = asyncio.create_task(self._pings())
        stopper = asyncio.create_task(self._stop.wait())
        try:
            while True:
                reading = asyncio.create_task(read_frame(reader))
                done, _ = await asyncio.wait(
                    {reading, stopper}, return_when=asyncio.FIRST_COMPLETED
                )
                if reading not in done:
                    reading.cancel()
                    break
                msg, size = reading.result()
                if msg["t"] == "pong" and msg.get("n") == KEEPALIVE_N:
                    continue
                if self._unread + size > MAX_INBOX_BYTES:
                    reason = (
                        f"the host sent more than {MAX_INBOX_BYTES >> 20} MiB that this window "
                        "has not shown yet"
                    )
                    break
                self._put(msg, size)
        except (asyncio.IncompleteReadError, ConnectionError):
            reason = "the host closed the connection"
        except ProtocolError as exc:
            reason = bad_host(exc)
        finally:
            pinger.cancel()
            stopper.cancel()
            writer.close()
            self._open = False
            self._put(disconnected("connection closed" if self._stop.is_set() else reason))

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
    #: Give up on a host that sends nothing for this many seconds.
    silence_timeout: float = 120.0


class JoinError(Exception):
    """The headless player could not join or finish a game (the text says why).

    The text is one line without control characters (parts of it may come from the host).
    """

    def __init__(self, text: str) -> None:
        super().__init__(clean_text(text)[:500])


async def _find_seat(
    client: AsyncClient, tables: list[dict[str, Any]], opts: HeadlessOptions
) -> dict[str, Any]:
    """Join the named table, or the first table with an open seat; retry until the timeout."""
    deadline = time.monotonic() + opts.join_timeout
    while True:
        if opts.table is not None:
            candidates = [opts.table]
        else:
            candidates = [t["table"] for t in tables if t["open"] > 0 and not t["over"]]
        for table_id in candidates:
            await client.send({"t": "join", "table": table_id, "name": opts.name or "Bot"})
            reply = await client.expect("joined", "error")
            if reply["t"] == "joined":
                return reply
            if reply["code"] not in (ErrorCode.TABLE_FULL, ErrorCode.SEAT_TAKEN):
                raise JoinError(f"table {table_id}: {reply['text']}")
        if time.monotonic() > deadline:
            where = f"table {opts.table}" if opts.table else "any table"
            raise JoinError(f"no free seat at {where} within {opts.join_timeout:g} s")
        await asyncio.sleep(0.2)
        await client.send({"t": "list_tables"})
        tables = (await client.expect("tables"))["tables"]


async def play_headless(host: str, port: int, opts: HeadlessOptions) -> dict[str, Any]:
    """Take a free seat, play with ``opts.bot`` until the game ends, return the result.

    The result has the fields of ``python -m game simulate --json``: ``game``, ``seed``,
    ``players``, ``bots`` (each seat's bot name, or ``"human"``), ``scores``, ``winners``,
    ``actions``, ``seconds``; plus ``table`` and ``seat`` (this client's).  The bot chooses on
    the ``sample`` the host sends for the seat (a determinized copy; no secrets of others).
    """
    started = time.perf_counter()
    try:
        client = await AsyncClient.connect(host, port)
    except (OSError, TimeoutError) as exc:
        raise JoinError(f"could not connect to {host}:{port}: {exc}") from None
    try:
        welcome = await client.hello(opts.name or f"{opts.bot} bot", client="lantern join")
        joined = await _find_seat(client, welcome["tables"], opts)
        if joined["seat"] is None:
            raise JoinError(f"the host gave no seat at table {joined['table']}, only a view")
        return await _play(client, joined, opts, started)
    except HostError as exc:
        raise JoinError(f"the host refused: {exc.text}") from None
    except ProtocolError as exc:
        raise JoinError(bad_host(exc)) from None
    except ConnectionClosed:
        raise JoinError("the host closed the connection before the game ended") from None
    except NoAnswer as exc:
        raise JoinError(str(exc)) from None
    except TimeoutError:
        raise JoinError(f"the host sent nothing for {opts.silence_timeout:g} s") from None
    except OSError as exc:
        raise JoinError(f"the connection to the host broke: {exc.strerror or exc}") from None
    finally:
        await client.close()


async def _play(
    client: AsyncClient, joined: dict[str, Any], opts: HeadlessOptions, started: float
) -> dict[str, Any]:
    seat: int = joined["seat"]
    table: str = joined["table"]
    pinger = asyncio.create_task(_keepalive(client))
    try:
        return await _play_loop(client, seat, table, opts, started)
    finally:
        pinger.cancel()


async def _keepalive(client: AsyncClient) -> None:
    """Ping now and then, so the host never takes a waiting player for a dead one."""
    while True:
        await asyncio.sleep(KEEPALIVE_SECONDS)
        with contextlib.suppress(Exception):
            await client.send({"t": "ping", "n": KEEPALIVE_N})


async def _play_loop(
    client: AsyncClient, seat: int, table: str, opts: HeadlessOptions, started: float
) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    readied = False
    bot = None
    game = None
    decided: int | None = None  # the decision already answered: act once per decision
    asked: int | None = None  # the seq a sample was asked at (the answer is at least as new)
    while True:
        msg = await client.recv(opts.silence_timeout)
        kind = msg["t"]
        if kind == "lobby":
            if game is None:
                try:
                    game = get_game(msg["game"])
                except UnknownGame:
                    raise JoinError(
                        f"table {table} plays {msg['game']!r}, a game this program does not have"
                    ) from None
            elif msg["game"] != game.id:
                raise JoinError(f"the host switched table {table} to another game")
            if seat >= msg["players"]:
                raise JoinError(f"the host seated this player at seat {seat} of {msg['players']}")
            if not msg["started"] and not readied:
                readied = True
                await client.send({"t": "ready"})
        elif kind == "state":
            if seat in msg["to_move"] and msg["legal"] and msg["decision"] != decided:
                decided, asked = msg["decision"], msg["seq"]
                await client.send({"t": "sample", "seq": asked})
        elif kind == "sample" and asked is not None and msg["seq"] >= asked:
            # The host samples its current position (another seat may have moved meanwhile).
            asked = None
            if game is None:
                raise JoinError("the host sent a sample before the lobby")
            if msg["seat"] != seat:
                raise JoinError(f"the host sent seat {msg['seat']}'s sample to seat {seat}")
            if bot is None:
                seed = opts.seed if opts.seed is not None else derive_seed(0, table, seat)
                bot = make_bot(opts.bot, seed, opts.budget)
            chosen = await _choose(loop, game, msg["state"], bot, seat)
            await client.send({"t": "action", "seq": msg["seq"], "action": list(chosen)})
        elif kind == "pong" and msg.get("n") == KEEPALIVE_N:
            continue
        elif kind == "error":
            if msg["code"] in (ErrorCode.STALE, ErrorCode.NOT_YOUR_TURN):
                continue  # a newer state is on its way
            if msg["code"] == ErrorCode.ALREADY_STARTED:
                continue  # the ready flag came too late to matter
            raise JoinError(f"the host refused: {msg['text']}")
        elif kind == "game_over":
            if game is not None and msg["game"] != game.id:
                raise JoinError(f"the host ended table {table} with another game's result")
            return {
                "game": msg["game"],
                "seed": msg["seed"],
                "players": msg["players"],
                "bots": [s["bot"] or s["kind"] for s in msg["seats"]],
                "scores": msg["scores"],
                "winners": msg["winners"],
                "actions": msg["actions"],
                "seconds": round(time.perf_counter() - started, 4),
                "table": table,
                "seat": seat,
                "bot": opts.bot,
            }
        elif kind in ("table_closed", "left"):
            raise JoinError(f"left table {table}: {msg['reason']}")
        elif kind == DISCONNECTED:  # pragma: no cover - only TcpConnection makes these
            raise ConnectionClosed(msg.get("reason", ""))


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
