"""The headless player: sit in a free seat of a LAN host and play a whole game with a bot
(``python -m game join HOST:PORT --bot random --headless --json``, :func:`play_headless`).

It talks to the host through :class:`net.client.AsyncClient`, so everything from the host is
checked as for any client; a host that cannot be played with (other rules, a refusal, silence)
ends it with :class:`JoinError` and one clean sentence — never a traceback.  After a dropped
connection in a running game it takes its seat back with its token (``reconnect``)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field
from typing import Any

from game.bots import make_bot
from game.core.match import clean_text
from game.core.registry import UnknownGame, get_game
from game.core.rng import derive_seed
from net.client import (
    KEEPALIVE_SECONDS,
    REJOIN_REFUSED,
    SILENCE_SECONDS,
    AsyncClient,
    ConnectionClosed,
    HostError,
    NoAnswer,
    Reconnect,
    bad_host,
    connect_failure,
)
from net.connection import DISCONNECTED, KEEPALIVE_N
from net.protocol import ErrorCode, ProtocolError
from net.seats import SeatStore, StoredSeat
from net.versions import MISMATCH_CODES, Mismatch, check_host, from_refusal


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
