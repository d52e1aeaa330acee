"""The host's brain: every table, every connection, and the bots, on one asyncio loop.

A :class:`Hub` is what both transports drive — :mod:`net.host` (TCP) and :mod:`net.local`
(in-process, for hot-seat and bot games) — so there is exactly one code path from a received
frame to an applied action:

1. a transport hands :meth:`Hub.receive` one frame body from a :class:`Peer`;
2. the hub decodes it (:func:`net.protocol.decode`), checks its shape
   (:func:`net.protocol.validate_client`) and dispatches on its type;
3. game actions go to the table's :class:`~net.session.Session`, which enforces the rules;
4. the hub autosaves, then sends every member of the table its own message
   (``state.view(seat)``; spectators ``view(None)``), and lets bots whose turn it is think.

Every method runs on the hub's event loop; nothing here blocks it.  Bots think in a thread
pool on determinized copies (``state.determinize(seat, seed)``) and their choice comes back
through the same validation as a human's.  Autosaves are written by a single background
thread, in order.  An error in one message is answered to its sender only; a malfunctioning
peer is dropped without touching anyone else.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import itertools
import logging
import os
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from game.bots import BotCancelled, BotProcess, Decision, hint_async, make_bot, think
from game.core.match import Bot, Replay, write_atomic
from game.core.rng import Rng, derive_seed
from game.core.types import Action, Event, Seat
from game.core.wire import to_plain
from net import protocol
from net.protocol import PROTOCOL_VERSION, ErrorCode, ProtocolError
from net.session import BOT, HUMAN, Session, TableSettings

log = logging.getLogger("lantern.host")

#: Environment variable that moves the user data directory (tests, portable installs).
DATA_DIR_ENV = "LANTERN_DATA_DIR"
#: After this many bad messages in a row a peer is dropped.
MAX_BAD_MESSAGES = 32
#: Most tables one hub runs at once.
MAX_TABLES = 64
#: An autosave is written this many seconds after the action that asked for it (bursts of
#: actions within the delay are written once).
SAVE_DELAY = 0.05
#: The bot whose choice a hint shows (``game.bots.hint``: the normal level), and the longest a
#: hint may think in the worker process before it is given up.
HINT_BOT = "normal"
HINT_DEADLINE = 30.0


def data_dir() -> Path:
    """The user data directory: ``$LANTERN_DATA_DIR`` or the platform's one for lantern-table."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("lantern-table"))


def default_save_dir() -> Path:
    """Where autosaves go unless told otherwise: ``<user data dir>/saves``."""
    return data_dir() / "saves"


class Peer(Protocol):
    """One connection as the hub sees it (a TCP socket or an in-process queue)."""

    pid: int
    label: str

    def deliver(self, frame: bytes) -> bool:
        """Queue one encoded frame; ``False`` if the peer's outbox is full (it gets dropped)."""
        ...

    def close(self) -> None:
        """End the connection (after already queued frames are sent, where possible)."""
        ...


@dataclass
class Member:
    """The hub's record of one peer: handshake, name, and where it sits."""

    peer: Peer
    greeted: bool = False
    name: str = "Player"
    table: Session | None = None
    seat: Seat | None = None
    token: str | None = None
    bad_in_a_row: int = 0

    @property
    def owner(self) -> bool:
        return self.table is not None and self.table.is_owner(self.token)


@dataclass
class _BotJob:
    """One bot decision of one seat, from its (optional) delay to its answer."""

    seq: int
    timer: asyncio.TimerHandle | None = None
    decision: Decision | None = None
    stopped: bool = False

    def stop(self) -> None:
        self.stopped = True
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.decision is not None:
            self.decision.cancel()


@dataclass
class _HintJob:
    """A hint being computed for one seat's decision at position ``seq``, and who asked."""

    seq: int
    decision: Decision
    askers: list[Member] = field(default_factory=list)


@dataclass
class TableExtras:
    """Hub-side bookkeeping of a table (its members, bots and save file)."""

    members: dict[int, Member] = field(default_factory=dict)
    jobs: dict[Seat, _BotJob] = field(default_factory=dict)
    hints: dict[Seat, _HintJob] = field(default_factory=dict)
    bots: dict[Seat, tuple[str, Bot]] = field(default_factory=dict)
    save_path: Path | None = None
    saver: _Saver = field(default_factory=lambda: _Saver())
    announced_waiting: list[Seat] = field(default_factory=list)
    #: Created by the host itself (CLI): kept even when nobody is connected.
    pinned: bool = False


class Hub:
    """All tables of one host (see the module docstring).

    ``save_dir``: where autosaves go (``None``: :func:`default_save_dir`); ``autosave=False``
    turns them off.  ``allow_hints`` is the default of new tables (LAN hosts: off; the
    in-process host: on).  Bots think in a daemon thread per decision
    (:func:`game.bots.think`), or with ``bot_process=True`` in one worker process
    (:class:`game.bots.BotProcess`, which keeps a core free for the host); a decision that runs
    past ``bot_deadline`` seconds is cancelled and a random legal action is played instead.
    """

    def __init__(
        self,
        *,
        host_name: str = "Lantern Table",
        save_dir: Path | None = None,
        autosave: bool = True,
        allow_hints: bool = False,
        bot_process: bool = False,
        bot_budget: float | None = None,
        bot_deadline: float = 60.0,
        max_tables: int = MAX_TABLES,
    ) -> None:
        self.host_name = host_name
        self.save_dir = save_dir
        self.autosave = autosave
        self.allow_hints = allow_hints
        self.bot_budget = bot_budget
        self.max_tables = max_tables
        self.tables: dict[str, Session] = {}
        self.extras: dict[str, TableExtras] = {}
        self.members: dict[int, Member] = {}
        self._ids = itertools.count(1)
        self.bot_deadline = bot_deadline
        self._bot_process: BotProcess | None = BotProcess() if bot_process else None
        self._save_pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="lantern-save"
        )
        self._closed = False
        #: Called with a table whose game just ended (the CLI's --exit-when-done listens).
        self.on_game_over: list[Callable[[Session], None]] = []
        #: Called after every start, applied action and undo with the table and the events
        #: (benchmarks and tests listen).
        self.on_change: list[Callable[[Session, list[Event]], None]] = []

    # ---- peers ----------------------------------------------------------------------------
    def attach(self, peer: Peer) -> None:
        self.members[peer.pid] = Member(peer)

    def detach(self, peer: Peer) -> None:
        """The peer is gone (closed, dropped or timed out): free or reserve its seat."""
        member = self.members.pop(peer.pid, None)
        if member is not None and member.table is not None:
            self._leave_table(member, reply=None)

    def receive(self, peer: Peer, body: bytes, limit: int = protocol.MAX_CLIENT_FRAME) -> None:
        """Handle one frame body from ``peer`` (never raises for anything the peer sent)."""
        member = self.members.get(peer.pid)
        if member is None:
            return
        try:
            msg = protocol.validate_client(protocol.decode(body, limit))
            self._dispatch(member, msg)
        except ProtocolError as exc:
            member.bad_in_a_row += 1
            fatal = exc.fatal or member.bad_in_a_row > MAX_BAD_MESSAGES
            self.send(member, exc.message())
            if fatal:
                self.drop(member, exc.text)
            return
        except Exception:
            log.exception("internal error handling a message from %s", peer.label)
            self.send(
                member,
                protocol.error(ErrorCode.INTERNAL, "the host hit an internal error; see its log"),
            )
            return
        member.bad_in_a_row = 0

    def send(self, member: Member, msg: dict[str, Any], frame: bytes | None = None) -> None:
        if frame is None:
            frame = protocol.encode(msg)
        if member.peer.pid in self.members and not member.peer.deliver(frame):
            log.warning("%s: outbox full; dropping the connection", member.peer.label)
            self.drop(member, "too slow: outbox full")

    def drop(self, member: Member, reason: str) -> None:
        """End a peer's connection (its seat is kept for reconnecting once the game runs)."""
        if member.peer.pid not in self.members:
            return
        log.info("%s: dropped (%s)", member.peer.label, reason)
        self.detach(member.peer)
        member.peer.close()

    # ---- tables ---------------------------------------------------------------------------
    def create_table(
        self,
        game_id: str,
        players: int,
        options: dict[str, Any] | None = None,
        *,
        seed: int | None = None,
        name: str = "",
        allow_hints: bool | None = None,
        bot_delay_ms: int = 0,
        autostart: bool = False,
        bots: list[str | None] | None = None,
        pinned: bool = False,
    ) -> Session:
        """Open a table (for the CLI, the in-process host and the ``create_table`` message).

        ``bots`` gives seats to bots by position (``None`` leaves a seat open).
        """
        if len(self.tables) >= self.max_tables:
            raise ProtocolError(
                ErrorCode.TOO_MANY_TABLES, f"this host already runs {self.max_tables} tables"
            )
        settings = TableSettings(
            name=name,
            allow_hints=self.allow_hints if allow_hints is None else allow_hints,
            bot_delay_ms=bot_delay_ms,
            autostart=autostart,
        )
        table = Session.create(
            f"t{next(self._ids)}", game_id, players, options, seed=seed, settings=settings
        )
        for seat, bot in enumerate(bots or []):
            if bot is not None and seat < players:
                table.set_seat(seat, by_seat=None, by_owner=True, kind=BOT, bot=bot)
        self._register(table, pinned)
        log.info(
            "table %s: %s, %d players, created%s",
            table.table_id,
            game_id,
            players,
            f" ({table.settings.name})" if table.settings.name else "",
        )
        self._maybe_autostart(table)
        return table

    def resume_table(
        self, replay: Replay, *, autostart: bool = True, pinned: bool = True, **settings: Any
    ) -> Session:
        """Continue a saved game (see :meth:`Session.resume`); raises ``BadState``."""
        if len(self.tables) >= self.max_tables:
            raise ProtocolError(
                ErrorCode.TOO_MANY_TABLES, f"this host already runs {self.max_tables} tables"
            )
        table = Session.resume(
            f"t{next(self._ids)}",
            replay,
            settings=TableSettings(
                allow_hints=settings.get("allow_hints", self.allow_hints),
                bot_delay_ms=settings.get("bot_delay_ms", 0),
                autostart=autostart,
            ),
        )
        self._register(table, pinned)
        log.info("table %s: %s resumed after %d actions", table.table_id, replay.game, table.seq)
        self._after_change(table)
        return table

    def close_table(self, table: Session, reason: str) -> None:
        """Close a table: members are told, bots stop, the autosave is kept."""
        if table.closed:
            return
        table.closed = True
        extras = self.extras.pop(table.table_id)
        self.tables.pop(table.table_id, None)
        for job in extras.jobs.values():
            job.stop()
        extras.jobs.clear()
        for hint in extras.hints.values():
            hint.decision.cancel()
        extras.hints.clear()
        message = {"t": "table_closed", "table": table.table_id, "reason": reason}
        for member in list(extras.members.values()):
            member.table, member.seat, member.token = None, None, None
            self.send(member, message)
        log.info("table %s closed (%s)", table.table_id, reason)

    def shutdown(self, wait: bool = True) -> None:
        """Stop every bot and flush pending autosaves (the hub cannot be used afterwards)."""
        if self._closed:
            return
        self._closed = True
        for table in list(self.tables.values()):
            extras = self.extras[table.table_id]
            for job in extras.jobs.values():
                job.stop()
            for hint in extras.hints.values():
                hint.decision.cancel()
        if self._bot_process is not None:
            self._bot_process.close()
        self._save_pool.shutdown(wait=wait)

    def summaries(self) -> list[dict[str, Any]]:
        return [t.summary() for t in self.tables.values()]

    # ---- dispatch -------------------------------------------------------------------------
    def _dispatch(self, member: Member, msg: dict[str, Any]) -> None:
        kind = msg["t"]
        if not member.greeted and kind not in ("hello", "ping"):
            raise ProtocolError(ErrorCode.HELLO_FIRST, 'say "hello" first (with your version)')
        handler: Callable[[Member, dict[str, Any]], None] = getattr(self, f"_on_{kind}")
        handler(member, msg)

    def _on_hello(self, member: Member, msg: dict[str, Any]) -> None:
        if msg["version"] != PROTOCOL_VERSION:
            raise ProtocolError(
                ErrorCode.VERSION_MISMATCH,
                f"this host speaks Lantern Table protocol version {PROTOCOL_VERSION} and your "
                f"program speaks version {msg['version']}; use the same version of Lantern "
                "Table on both computers",
                fatal=True,
            )
        member.greeted = True
        member.name = msg.get("name") or member.name
        log.info("%s: hello from %s (%s)", member.peer.label, member.name, msg.get("client", ""))
        self.send(member, protocol.welcome(self.host_name, self.summaries()))

    def _on_ping(self, member: Member, msg: dict[str, Any]) -> None:
        self.send(member, protocol.pong(msg.get("n")))

    def _on_list_tables(self, member: Member, msg: dict[str, Any]) -> None:
        self.send(member, protocol.tables(self.summaries()))

    def _on_create_table(self, member: Member, msg: dict[str, Any]) -> None:
        self._check_free(member)
        table = self.create_table(
            msg["game"],
            msg["players"],
            msg.get("options"),
            seed=msg.get("seed"),
            name=msg.get("name", ""),
            allow_hints=msg.get("allow_hints"),
            bot_delay_ms=msg.get("bot_delay_ms", 0),
        )
        try:
            if msg.get("spectate"):
                token = table.new_spectator()
                seat = None
            else:
                seat = table.open_seat(msg.get("seat", 0))
                token = table.seat_human(seat, member.name)
        except ProtocolError:
            self.close_table(table, "its creator could not sit down")
            raise
        table.owner_token = token
        self._seat_member(member, table, seat, token)

    def _on_join(self, member: Member, msg: dict[str, Any]) -> None:
        table = self._table(msg["table"])
        token = msg.get("token")
        if member.table is not None:
            if member.table is table and token is not None and token == member.token:
                self._seat_member(member, table, member.seat, token)  # a fresh snapshot
                return
            raise ProtocolError(
                ErrorCode.ALREADY_SEATED,
                f"this connection is at table {member.table.table_id}; leave it first",
            )
        if token is not None:
            known, seat = table.find_token(token)
            if not known:
                raise ProtocolError(ErrorCode.BAD_TOKEN, "this token is not valid at this table")
            if seat is not None:
                self._evict_holder(table, seat)
                table.reclaim(seat)
                self._cancel_bot(table, seat)
        elif msg.get("spectate"):
            token = table.new_spectator()
            seat = None
        else:
            seat = table.open_seat(msg.get("seat"))
            token = table.seat_human(seat, msg.get("name") or member.name)
        self._seat_member(member, table, seat, token)

    def _on_set_seat(self, member: Member, msg: dict[str, Any]) -> None:
        table = self._my_table(member)
        index = msg["seat"]
        if index == member.seat and msg.get("kind") not in (None, HUMAN):
            raise ProtocolError(
                ErrorCode.NOT_ALLOWED, "you sit in this seat; leave the table to give it up"
            )
        holder = self._holder(table, index)
        displaced = table.set_seat(
            index,
            by_seat=member.seat,
            by_owner=member.owner,
            kind=msg.get("kind"),
            bot=msg.get("bot"),
            name=msg.get("name"),
            colour=msg.get("colour"),
        )
        if displaced and holder is not None:
            self._unseat(holder, "the table's creator changed your seat")
        self._broadcast_lobby(table)
        self._maybe_autostart(table)
        self._after_seats_changed(table)

    def _on_configure(self, member: Member, msg: dict[str, Any]) -> None:
        table = self._my_table(member)
        self._check_owner(member)
        table.configure(
            options=msg.get("options"),
            name=msg.get("name"),
            allow_hints=msg.get("allow_hints"),
            bot_delay_ms=msg.get("bot_delay_ms"),
        )
        self._broadcast_lobby(table)

    def _on_ready(self, member: Member, msg: dict[str, Any]) -> None:
        table = self._my_table(member)
        if member.seat is None:
            raise ProtocolError(ErrorCode.NOT_SEATED, "spectators have no ready flag")
        table.set_ready(member.seat, msg.get("ready", True))
        self._broadcast_lobby(table)
        self._maybe_autostart(table)

    def _on_start(self, member: Member, msg: dict[str, Any]) -> None:
        table = self._my_table(member)
        if table.owner_token is not None and not member.owner:
            raise ProtocolError(ErrorCode.NOT_OWNER, "only the table's creator starts the game")
        if table.owner_token is None and member.seat is None:
            raise ProtocolError(ErrorCode.NOT_SEATED, "only a seated player starts this game")
        if table.started:
            raise ProtocolError(ErrorCode.ALREADY_STARTED, "the game has already started")
        problem = table.start_problem(by_seat=member.seat)
        if problem:
            raise ProtocolError(ErrorCode.NOT_READY, f"cannot start: {problem}")
        self._start(table)

    def _on_action(self, member: Member, msg: dict[str, Any]) -> None:
        table = self._my_table(member)
        self._check_own_seat(member, table)
        self._apply(table, member.seat, msg["seq"], msg["action"])

    def _on_undo(self, member: Member, msg: dict[str, Any]) -> None:
        table = self._my_table(member)
        self._check_own_seat(member, table)
        table.undo(member.seat, msg["seq"])
        log.info("table %s seq %d: seat %s undid a move", table.table_id, table.seq, member.seat)
        self._after_change(table, [{"type": "undo", "seat": member.seat}])

    def _on_sample(self, member: Member, msg: dict[str, Any]) -> None:
        """A determinized copy of the state for the asking seat (its own bots use it).

        It holds nothing the seat cannot see: everything hidden from it is resampled and the
        random generator reseeded (the contract of ``determinize``).
        """
        table = self._my_table(member)
        self._check_own_seat(member, table)
        if not table.started:
            raise ProtocolError(ErrorCode.NOT_STARTED, "the game has not started yet")
        if table.over:
            raise ProtocolError(ErrorCode.GAME_OVER, "the game is over")
        if msg["seq"] != table.seq:
            raise ProtocolError(
                ErrorCode.STALE, f"seq {msg['seq']} is not the current position ({table.seq})"
            )
        seat = member.seat
        assert seat is not None
        world = table.state.determinize(seat, secrets.randbits(63))
        self.send(
            member,
            {
                "t": "sample",
                "table": table.table_id,
                "seq": table.seq,
                "seat": seat,
                "state": world.to_dict(),
            },
        )

    def _on_hint(self, member: Member, msg: dict[str, Any]) -> None:
        """What the normal bot would do for the asking seat now (:data:`HINT_BOT`).

        Only at a table that allows hints, for the seat's own turn (:meth:`Session.check_hint`).
        The bot thinks off the loop (in the worker process when the hub has one, else in a
        thread) on ``state.determinize(seat, seed)`` — a copy holding only what the seat may
        see — and the answer ``hint {table, seq, action}`` goes to the askers, unless the
        position moved on meanwhile (then it is dropped).  One computation per seat and
        position: asking again while it runs just waits for the same answer.
        """
        table = self._my_table(member)
        self._check_own_seat(member, table)
        seat = member.seat
        assert seat is not None
        table.check_hint(seat, msg["seq"])
        extras = self.extras[table.table_id]
        running = extras.hints.get(seat)
        if running is not None and running.seq == table.seq:
            # Still thinking, or finished with its answer queued: that answer goes to this
            # asker too (the job leaves ``hints`` only once it has been answered).
            if member not in running.askers:
                running.askers.append(member)
            return
        if running is not None:
            running.decision.cancel()
        world_seed = derive_seed(table.seed, "hint", seat, table.seq)
        if self._bot_process is not None:
            decision = self._bot_process.decide(
                HINT_BOT,
                derive_seed(table.seed, "hint-bot", seat),
                None,
                table.state,
                seat,
                world_seed,
                key=("hint", table.table_id, seat),
                deadline=HINT_DEADLINE,
            )
        else:
            decision = hint_async(table.state.determinize(seat, world_seed), seat, world_seed)
        job = _HintJob(table.seq, decision, [member])
        extras.hints[seat] = job
        self._when_done(decision, lambda f: self._hint_done(table, seat, job, f))

    def _hint_done(
        self,
        table: Session,
        seat: Seat,
        job: _HintJob,
        future: concurrent.futures.Future[Action],
    ) -> None:
        extras = self.extras.get(table.table_id)
        if extras is None or table.closed:
            return
        if extras.hints.get(seat) is job:
            del extras.hints[seat]
        if table.seq != job.seq:
            return  # the position moved on: the hint is of no use any more
        askers = [m for m in job.askers if m.table is table and m.seat == seat]
        error = None if future.cancelled() else future.exception()
        if future.cancelled() or error is not None:
            if not isinstance(error, BotCancelled) or future.cancelled():
                log.error("table %s: seat %d's hint failed: %s", table.table_id, seat, error)
            reply = protocol.error(ErrorCode.INTERNAL, "no hint could be worked out this time")
            for member in askers:
                self.send(member, reply)
            return
        message = {
            "t": "hint",
            "table": table.table_id,
            "seq": job.seq,
            "action": to_plain(list(future.result())),
        }
        for member in askers:
            self.send(member, message)

    def _on_chat(self, member: Member, msg: dict[str, Any]) -> None:
        table = self._my_table(member)
        line = {
            "t": "chat",
            "table": table.table_id,
            "seat": member.seat,
            "name": table.seats[member.seat].name if member.seat is not None else member.name,
            "text": msg["text"],
        }
        frame = protocol.encode(line)
        for other in self._members(table):
            self.send(other, line, frame)

    def _on_leave(self, member: Member, msg: dict[str, Any]) -> None:
        self._my_table(member)
        self._leave_table(member, reply="you left the table")

    def _on_close_table(self, member: Member, msg: dict[str, Any]) -> None:
        table = self._my_table(member)
        self._check_owner(member)
        self.close_table(table, "closed by its creator")

    # ---- checks ---------------------------------------------------------------------------
    def _members(self, table: Session) -> list[Member]:
        extras = self.extras.get(table.table_id)
        return list(extras.members.values()) if extras is not None else []

    def _table(self, table_id: str) -> Session:
        table = self.tables.get(table_id)
        if table is None:
            raise ProtocolError(ErrorCode.NO_TABLE, f"there is no table {table_id!r} here")
        return table

    def _my_table(self, member: Member) -> Session:
        if member.table is None:
            raise ProtocolError(ErrorCode.NOT_AT_TABLE, "join a table first")
        return member.table

    def _check_free(self, member: Member) -> None:
        if member.table is not None:
            raise ProtocolError(
                ErrorCode.ALREADY_SEATED,
                f"this connection is at table {member.table.table_id}; leave it first",
            )

    def _check_owner(self, member: Member) -> None:
        if not member.owner:
            raise ProtocolError(ErrorCode.NOT_OWNER, "only the table's creator may do this")

    def _check_own_seat(self, member: Member, table: Session) -> None:
        if member.seat is None:
            raise ProtocolError(ErrorCode.NOT_SEATED, "spectators cannot play")
        if table.seats[member.seat].kind != HUMAN:
            raise ProtocolError(ErrorCode.NOT_ALLOWED, "a bot plays this seat now")

    # ---- membership -----------------------------------------------------------------------
    def _register(self, table: Session, pinned: bool) -> None:
        self.tables[table.table_id] = table
        extras = TableExtras(pinned=pinned)
        if self.autosave:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            folder = self.save_dir if self.save_dir is not None else default_save_dir()
            extras.save_path = folder / f"{table.game.id}-{stamp}-{table.table_id}.save"
        self.extras[table.table_id] = extras

    def _seat_member(self, member: Member, table: Session, seat: Seat | None, token: str) -> None:
        member.table, member.seat, member.token = table, seat, token
        self.extras[table.table_id].members[member.peer.pid] = member
        where = f"seat {seat}" if seat is not None else "as a spectator"
        log.info("%s: joined table %s %s", member.peer.label, table.table_id, where)
        self.send(
            member,
            {
                "t": "joined",
                "table": table.table_id,
                "seat": seat,
                "token": token,
                "owner": member.owner,
            },
        )
        self._broadcast_lobby(table)
        if table.started:
            self.send(member, table.state_message(seat, []))
            if table.over:
                self.send(member, table.game_over_message())
        self._maybe_autostart(table)
        self._after_seats_changed(table)

    def _leave_table(self, member: Member, reply: str | None) -> None:
        table = member.table
        if table is None:
            return
        extras = self.extras.get(table.table_id)
        if extras is not None:
            extras.members.pop(member.peer.pid, None)
        was_owner = table.is_owner(member.token)
        if member.seat is not None:
            table.release(member.seat)
        elif member.token is not None and not was_owner:
            table.spectator_tokens.discard(member.token)
        member.table, member.seat, member.token = None, None, None
        if reply is not None:
            self.send(member, {"t": "left", "table": table.table_id, "reason": reply})
        if table.closed or extras is None:
            return
        if not extras.members and not extras.pinned and (not table.started or table.over):
            self.close_table(table, "everyone left")
            return
        if was_owner:
            self._hand_over_ownership(table, extras)
        self._broadcast_lobby(table)
        self._after_seats_changed(table)

    def _hand_over_ownership(self, table: Session, extras: TableExtras) -> None:
        """The creator left: its rights pass to the lowest seated player (else a spectator).

        The new creator is told with a fresh ``joined`` whose ``owner`` is true.
        """
        members = sorted(
            (m for m in extras.members.values() if m.token is not None),
            key=lambda m: (m.seat is None, m.seat if m.seat is not None else 0, m.peer.pid),
        )
        if not members:
            return
        heir = members[0]
        table.owner_token = heir.token
        log.info("table %s: %s is the table's creator now", table.table_id, heir.peer.label)
        self.send(
            heir,
            {
                "t": "joined",
                "table": table.table_id,
                "seat": heir.seat,
                "token": heir.token,
                "owner": True,
            },
        )

    def _unseat(self, member: Member, reason: str) -> None:
        """Remove a member whose seat was taken from it (creator's change, reconnect)."""
        table = member.table
        if table is None:
            return
        extras = self.extras.get(table.table_id)
        if extras is not None:
            extras.members.pop(member.peer.pid, None)
        member.table, member.seat, member.token = None, None, None
        self.send(member, {"t": "left", "table": table.table_id, "reason": reason})

    def _holder(self, table: Session, seat: Seat) -> Member | None:
        for member in self._members(table):
            if member.seat == seat:
                return member
        return None

    def _evict_holder(self, table: Session, seat: Seat) -> None:
        """A seat's token came back on a new connection: the old one loses the seat."""
        holder = self._holder(table, seat)
        if holder is not None:
            self.send(
                holder,
                protocol.error(ErrorCode.REPLACED, "your seat was taken over by a new connection"),
            )
            self._unseat(holder, "your seat was taken over by a new connection")

    # ---- play -------------------------------------------------------------------------------
    def _maybe_autostart(self, table: Session) -> None:
        if (
            table.settings.autostart
            and not table.started
            and not table.closed
            and not table.start_problem(need_ready=False)
        ):
            self._start(table)

    def _start(self, table: Session) -> None:
        table.start()
        log.info("table %s: the game starts", table.table_id)
        self._broadcast_lobby(table)
        self._after_change(table)

    def _apply(self, table: Session, seat: Seat | None, seq: int, action: Action) -> None:
        events = table.act(seat, seq, action)
        log.debug("table %s seq %d: seat %s %s", table.table_id, table.seq, seat, action)
        self._after_change(table, events)

    def _after_change(self, table: Session, events: list[Event] | None = None) -> None:
        """Send everyone their view, autosave, announce the end or waits, wake bots."""
        events = events or []
        self._drop_old_hints(table)
        self._broadcast_state(table, events)
        self._autosave(table)
        for listener in self.on_change:
            try:
                listener(table, events)
            except Exception:
                log.exception("an on_change listener failed")
        if table.over:
            log.info(
                "table %s: game over after %d actions; winners %s",
                table.table_id,
                len(table.replay.actions),
                table.state.winners(),
            )
            message = table.game_over_message()
            frame = protocol.encode(message)
            for member in self._members(table):
                self.send(member, message, frame)
            for ended in self.on_game_over:
                ended(table)
            return
        self._after_seats_changed(table)

    def _after_seats_changed(self, table: Session) -> None:
        extras = self.extras.get(table.table_id)
        if extras is None or table.closed or not table.started:
            return
        waiting = table.waiting_seats()
        if waiting != extras.announced_waiting:
            extras.announced_waiting = waiting
            message = table.waiting_message()
            if waiting:
                log.info("table %s: waiting for %s", table.table_id, message["seats"])
            for member in list(extras.members.values()):
                self.send(member, message)
        self._wake_bots(table)

    def _broadcast_state(self, table: Session, events: list[Event]) -> None:
        frames: dict[Seat | None, bytes] = {}
        for member in self._members(table):
            key = member.seat
            frame = frames.get(key)
            if frame is None:
                frame = frames[key] = protocol.encode(table.state_message(key, events))
            self.send(member, {}, frame)

    def _broadcast_lobby(self, table: Session) -> None:
        extras = self.extras.get(table.table_id)
        if extras is None:
            return
        message = table.lobby_message()
        frame = protocol.encode(message)
        for member in list(extras.members.values()):
            self.send(member, message, frame)

    def _autosave(self, table: Session) -> None:
        """Queue the table's save file for the writer thread (it never blocks the loop).

        The loop only copies the record (a list of actions); encoding, hashing and the atomic
        write happen on the writer thread, :data:`SAVE_DELAY` seconds later.  Writes of one
        table coalesce: actions that come in while a write is pending are written with it.
        """
        extras = self.extras.get(table.table_id)
        if extras is None or extras.save_path is None or not table.started:
            return
        extras.saver.put(table.record())
        if extras.saver.claim():
            try:
                self._save_pool.submit(extras.saver.flush, extras.save_path)
            except RuntimeError:  # shutting down: write it here
                extras.saver.flush(extras.save_path)

    # ---- bots -------------------------------------------------------------------------------
    def _wake_bots(self, table: Session) -> None:
        """Start a decision for every bot seat to move that is not already deciding.

        A decision about an older position is cancelled; its replacement starts once the old
        one has stopped (one bot object never thinks about two positions at once).
        """
        extras = self.extras.get(table.table_id)
        if extras is None or self._closed or table.closed:
            return
        for seat in list(table.bot_seats_to_move()):
            job = extras.jobs.get(seat)
            if job is not None and job.seq == table.seq and not job.stopped:
                continue
            if job is not None and job.decision is not None and not job.decision.done():
                job.stop()  # _bot_done wakes the seat again when the old decision ends
                continue
            if job is not None:
                job.stop()
            self._think(table, extras, seat)

    def _bot(self, table: Session, extras: TableExtras, seat: Seat) -> Bot:
        """The seat's bot object, kept for the whole game (bots cache their turn plans)."""
        name = table.bot_of(seat)
        assert name is not None
        held = extras.bots.get(seat)
        if held is None or held[0] != name:
            held = (name, make_bot(name, derive_seed(table.seed, "bot", seat), self.bot_budget))
            extras.bots[seat] = held
        return held[1]

    def _think(self, table: Session, extras: TableExtras, seat: Seat) -> None:
        loop = asyncio.get_running_loop()
        job = _BotJob(table.seq)
        extras.jobs[seat] = job

        def begin() -> None:
            job.timer = None
            if job.stopped or table.closed or table.seq != job.seq:
                if extras.jobs.get(seat) is job:
                    del extras.jobs[seat]
                    self._wake_bots(table)
                return
            name = table.bot_of(seat)
            assert name is not None
            world_seed = derive_seed(table.seed, "determinize", seat, table.seq)
            if self._bot_process is not None:
                decision = self._bot_process.decide(
                    name,
                    derive_seed(table.seed, "bot", seat),
                    self.bot_budget,
                    table.state,
                    seat,
                    world_seed,
                    key=(table.table_id, seat),
                    deadline=self.bot_deadline,
                )
            else:
                bot = self._bot(table, extras, seat)
                decision = think(bot, table.state, seat, world_seed, deadline=self.bot_deadline)
            job.decision = decision
            self._when_done(decision, lambda f: self._bot_done(table, seat, job, f))

        delay = table.settings.bot_delay_ms / 1000
        if delay > 0:
            job.timer = loop.call_later(delay, begin)
        else:
            begin()

    def _bot_done(
        self,
        table: Session,
        seat: Seat,
        job: _BotJob,
        future: concurrent.futures.Future[Action],
    ) -> None:
        extras = self.extras.get(table.table_id)
        if extras is None or table.closed or extras.jobs.get(seat) is not job:
            return
        del extras.jobs[seat]
        if job.stopped or table.seq != job.seq or table.bot_of(seat) is None:
            self._wake_bots(table)  # the position changed while it thought: think again
            return
        action: Action | None = None
        if future.cancelled():
            log.error("table %s: the decision of seat %d's bot was cancelled", table.table_id, seat)
        elif future.exception() is not None:
            log.error(
                "table %s: seat %d's bot failed: %s", table.table_id, seat, future.exception()
            )
        else:
            action = future.result()
        try:
            if action is None:
                raise ProtocolError(ErrorCode.INTERNAL, "the bot gave no action")
            self._apply(table, seat, table.seq, action)
        except ProtocolError as exc:
            if action is not None:
                log.error(
                    "table %s: seat %d's bot chose %r: %s", table.table_id, seat, action, exc.text
                )
            legal = table.state.legal_actions(seat)
            if legal:
                fallback = Rng(derive_seed(table.seed, "fallback", seat, table.seq)).choice(legal)
                self._apply(table, seat, table.seq, fallback)

    def _drop_old_hints(self, table: Session) -> None:
        """Stop computing hints about positions that are gone."""
        extras = self.extras.get(table.table_id)
        if extras is None:
            return
        for seat, job in list(extras.hints.items()):
            if job.seq != table.seq:
                job.decision.cancel()
                del extras.hints[seat]

    def _when_done(
        self, decision: Decision, callback: Callable[[concurrent.futures.Future[Action]], None]
    ) -> None:
        """Call ``callback(future)`` on the hub's loop once ``decision`` has ended.

        The decision's own ``concurrent.futures.Future`` is handed over (no asyncio future is
        made for it): a decision cancelled while the host shuts down — whose loop may stop
        before the callback runs — then never leaves an exception that nobody retrieved.
        """
        loop = asyncio.get_running_loop()

        def done(future: concurrent.futures.Future[Action]) -> None:
            if not future.cancelled():
                future.exception()  # retrieved here, whatever happens next
            with contextlib.suppress(RuntimeError):  # a closed loop: the host has stopped
                loop.call_soon_threadsafe(callback, future)

        decision.future.add_done_callback(done)

    def _cancel_bot(self, table: Session, seat: Seat) -> None:
        extras = self.extras.get(table.table_id)
        if extras is None:
            return
        job = extras.jobs.pop(seat, None)
        if job is not None:
            job.stop()


class _Saver:
    """The newest unsaved record of one table, handed from the loop to the writer thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: Replay | None = None
        self._busy = False

    def put(self, record: Replay) -> None:
        with self._lock:
            self._pending = record

    def claim(self) -> bool:
        """True if the caller must schedule :meth:`flush` (no flush is running or queued)."""
        with self._lock:
            if self._busy:
                return False
            self._busy = True
            return True

    def flush(self, path: Path) -> None:
        """Write the newest record until none is pending (runs on the writer thread).

        It first waits :data:`SAVE_DELAY` seconds, so a burst of actions (bots, a fast
        player) becomes one write instead of one write each.
        """
        while True:
            time.sleep(SAVE_DELAY)
            with self._lock:
                record, self._pending = self._pending, None
                if record is None:
                    self._busy = False
                    return
            try:
                write_atomic(path, record.to_bytes())
            except OSError as exc:
                log.error("autosave to %s failed: %s", path, exc)
