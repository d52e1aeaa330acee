"""The host's brain: every table and every connection, on one asyncio loop.

A :class:`Hub` is what both transports drive — :mod:`net.host` (TCP) and :mod:`net.local`
(in-process, for hot-seat and bot games) — so there is exactly one code path from a received
frame to an applied action:

1. a transport hands :meth:`Hub.receive` one frame body from a :class:`Peer`;
2. the hub decodes it (:func:`net.protocol.decode`), checks its shape
   (:func:`net.protocol.validate_client`) and dispatches on its type;
3. game actions go to the table's :class:`~net.session.Session`, which enforces the rules;
4. the hub autosaves (:mod:`net.autosave`), then sends every member of the table its own
   message (``state.view(seat)``; spectators ``view(None)``), and lets bots whose decision it
   is think (:mod:`net.thinking`).

The hub itself does dispatch and membership: who is connected, who sits where, who created a
table, who is told what — the comings and goings at a table (joining, leaving, the creator's
rights, tables nobody attends) in its part :class:`~net.membership.Membership`.  Bots and hints
are :class:`~net.thinking.Thinking`'s job, save files :class:`~net.autosave.Autosaver`'s.  Every method runs on the hub's event loop; nothing here
blocks it.  An error in one message is answered to its sender only; a malfunctioning peer is
dropped without touching anyone else.
"""

from __future__ import annotations

import asyncio
import collections
import itertools
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from game.core.match import Replay
from game.core.types import Action, Event, Seat
from game.core.wire import to_plain
from net import protocol
from net.autosave import DATA_DIR_ENV, Autosaver, data_dir, default_save_dir
from net.membership import Membership
from net.protocol import PROTOCOL_VERSION, ErrorCode, ProtocolError
from net.seat_rules import BOT, HUMAN, TableSettings
from net.session import Session
from net.thinking import HINT_BOT, HINT_DEADLINE, Thinking
from net.versions import PROGRAM_VERSION, Versions, check_guest, rules_versions

__all__ = [
    "DATA_DIR_ENV",
    "HINT_BOT",
    "HINT_DEADLINE",
    "Hub",
    "Member",
    "Peer",
    "data_dir",
    "default_save_dir",
]

log = logging.getLogger("lantern.host")

#: A peer whose refused frames reach this many within :data:`BAD_WINDOW` seconds is dropped
#: (counted whatever comes between them: pings do not reset the count).
MAX_BAD_MESSAGES = 32
BAD_WINDOW = 60.0
#: Most tables one hub runs at once, and most a remote address may have created and still open.
MAX_TABLES = 64
MAX_TABLES_PER_ADDRESS = 4
#: Hints a seat may ask for: HINT_BURST at once, then one per HINT_INTERVAL seconds.
HINT_BURST = 3
HINT_INTERVAL = 10.0
#: Tracebacks of internal errors logged per peer per LOG_WINDOW seconds (the rest are counted).
MAX_TRACEBACKS = 3
LOG_WINDOW = 60.0


class Peer(Protocol):
    """One connection as the hub sees it (a TCP socket or an in-process queue)."""

    pid: int
    label: str
    #: The remote address (limits per address); ``"local"`` for in-process peers.
    address: str
    #: True only for the in-process transport (hot-seat): it may fix a table's seed.
    trusted: bool

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
    #: When this peer's recent refused frames came (see :data:`MAX_BAD_MESSAGES`).
    bad: collections.deque[float] = field(default_factory=collections.deque)
    #: When its recent internal-error tracebacks were logged, and how many were left out.
    tracebacks: collections.deque[float] = field(default_factory=collections.deque)
    untold: int = 0
    #: The versions its ``hello`` said (``program``, ``rules``; ``net.versions``).
    hello: dict[str, Any] = field(default_factory=dict)

    @property
    def owner(self) -> bool:
        return self.table is not None and self.table.is_owner(self.token)


@dataclass
class TableExtras:
    """Hub-side bookkeeping of a table: its members and announcements."""

    members: dict[int, Member] = field(default_factory=dict)
    announced_waiting: list[Seat] = field(default_factory=list)
    #: Created by the host itself (CLI): kept even when nobody is connected.
    pinned: bool = False
    #: The address of the peer that created it (tables per address).
    address: str = ""
    #: Since when nobody is connected (None: someone is), and the timer that may close it.
    unattended: float | None = None
    reaper: asyncio.TimerHandle | None = None
    #: Per seat: the times of its recent hints (see :data:`HINT_BURST`).
    hints: dict[Seat, collections.deque[float]] = field(default_factory=dict)


class Hub(Membership):
    """All tables of one host (see the module docstring).

    ``save_dir``: where autosaves go (``None``: :func:`default_save_dir`); ``autosave=False``
    turns them off.  ``allow_hints`` is the default of new tables (LAN hosts: off; the
    in-process host: on); ``hints_ceiling`` (default: ``allow_hints``) is the ceiling for
    remote creators: without it, a table created over the network can never turn hints on
    (the headless host's ``--allow-hints``; a LAN host in the window lets its tables choose).  ``bot_process``, ``bot_budget`` and ``bot_deadline`` go to
    :class:`~net.thinking.Thinking`.
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
        bot_deadline: float | None = None,
        max_tables: int = MAX_TABLES,
        max_tables_per_address: int = MAX_TABLES_PER_ADDRESS,
        hints_ceiling: bool | None = None,
    ) -> None:
        self.host_name = host_name
        self.allow_hints = allow_hints
        self.hints_ceiling = allow_hints if hints_ceiling is None else hints_ceiling
        self.max_tables = max_tables
        self.max_tables_per_address = max_tables_per_address
        self.tables: dict[str, Session] = {}
        self.extras: dict[str, TableExtras] = {}
        self.members: dict[int, Member] = {}
        self._ids = itertools.count(1)
        self.saves = Autosaver(save_dir, enabled=autosave)
        self.thinking = Thinking(
            apply=self._apply,
            send=self.send,
            bot_process=bot_process,
            bot_budget=bot_budget,
            bot_deadline=bot_deadline,
        )
        self._closed = False
        #: Called with a table whose game just ended (the CLI's --exit-when-done listens).
        self.on_game_over: list[Callable[[Session], None]] = []
        #: Called after every start, applied action and undo with the table and the events
        #: (benchmarks and tests listen).
        self.on_change: list[Callable[[Session, list[Event]], None]] = []
        #: The versions this host says in ``welcome`` and checks in ``hello`` (``net.versions``;
        #: ``rules`` ``None``: the registered games'), and its install page's port, if it
        #: serves one (``net/install``).
        self.program = PROGRAM_VERSION
        self.rules: dict[str, int] | None = None
        self.install_port: int | None = None
        rules_versions()  # import every game now, not on the event loop at the first hello

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
            now = time.monotonic()
            bad = member.bad
            bad.append(now)
            while bad and now - bad[0] > BAD_WINDOW:
                bad.popleft()
            fatal = exc.fatal or len(bad) > MAX_BAD_MESSAGES
            self.send(member, exc.message())
            if fatal:
                self.drop(member, exc.text if exc.fatal else "too many refused messages")
        except RecursionError:
            self.send(member, protocol.error(ErrorCode.BAD_MESSAGE, "a value is nested too deep"))
        except Exception:
            self._log_internal(member)
            self.send(
                member,
                protocol.error(ErrorCode.INTERNAL, "the host hit an internal error; see its log"),
            )

    def _log_internal(self, member: Member) -> None:
        """Log an internal error's traceback, at most :data:`MAX_TRACEBACKS` per peer per
        :data:`LOG_WINDOW` seconds (a peer cannot flood the log)."""
        now = time.monotonic()
        logged = member.tracebacks
        while logged and now - logged[0] > LOG_WINDOW:
            logged.popleft()
        if len(logged) >= MAX_TRACEBACKS:
            member.untold += 1
            return
        logged.append(now)
        suffix = (
            f" ({member.untold} more since the last one were not logged)" if member.untold else ""
        )
        member.untold = 0
        log.exception("internal error handling a message from %s%s", member.peer.label, suffix)

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
        address: str = "",
    ) -> Session:
        """Open a table (for the CLI, the in-process host and the ``create_table`` message).

        ``bots`` gives seats to bots by position (``None`` leaves a seat open); ``address`` is
        the creating peer's (tables per address); a ``seed`` given here is shown in the lobby.
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
        self.extras[table.table_id].address = address
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
        self,
        replay: Replay,
        *,
        autostart: bool = True,
        pinned: bool = True,
        path: Path | None = None,
        keep_tokens: bool = False,
        **settings: Any,
    ) -> Session:
        """Continue a saved game (see :meth:`Session.resume`); raises ``BadState``.

        ``path``: the save file it came from, which the table goes on writing (one game, one
        file); ``keep_tokens``: its players take their seats back with their tokens (a LAN
        table continued)."""
        if len(self.tables) >= self.max_tables:
            raise ProtocolError(
                ErrorCode.TOO_MANY_TABLES, f"this host already runs {self.max_tables} tables"
            )
        table = Session.resume(
            f"t{next(self._ids)}",
            replay,
            keep_tokens=keep_tokens,
            settings=TableSettings(
                allow_hints=settings.get("allow_hints", self.allow_hints),
                bot_delay_ms=settings.get("bot_delay_ms", 0),
                autostart=autostart,
            ),
        )
        self._register(table, pinned, path)
        self.saves.begin(table.table_id, table.record())
        log.info("table %s: %s resumed after %d actions", table.table_id, replay.game, table.seq)
        self._after_change(table)
        return table

    def close_table(self, table: Session, reason: str) -> None:
        """Close a table: members are told, bots stop, the autosave is kept."""
        if table.closed:
            return
        table.closed = True
        extras = self.extras.pop(table.table_id)
        if extras.reaper is not None:
            extras.reaper.cancel()
        self.tables.pop(table.table_id, None)
        self.thinking.close_table(table)
        self.saves.forget(table.table_id)
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
        self.thinking.shutdown()
        self.saves.shutdown(wait=wait)

    def summaries(self) -> list[dict[str, Any]]:
        return [t.summary() for t in self.tables.values()]

    # ---- dispatch -------------------------------------------------------------------------
    def _dispatch(self, member: Member, msg: dict[str, Any]) -> None:
        kind = msg["t"]
        if not member.greeted and kind not in ("hello", "ping"):
            raise ProtocolError(ErrorCode.HELLO_FIRST, 'say "hello" first (with your version)')
        handler: Callable[[Member, dict[str, Any]], None] = getattr(self, f"_on_{kind}")
        handler(member, msg)

    def versions(self) -> Versions:
        """This host's versions (``net.versions``), as ``welcome`` says them."""
        rules = self.rules if self.rules is not None else rules_versions()
        return Versions(PROTOCOL_VERSION, self.program, rules, self.install_port)

    def _on_hello(self, member: Member, msg: dict[str, Any]) -> None:
        mine = self.versions()
        if msg["version"] != PROTOCOL_VERSION:
            raise ProtocolError(
                ErrorCode.VERSION_MISMATCH,
                f"this host speaks Lantern Table protocol version {PROTOCOL_VERSION} and your "
                f"program speaks version {msg['version']}; use the same version of Lantern "
                "Table on both computers",
                fatal=True,
                versions=mine.wire(),
            )
        mismatch = check_guest(mine, msg)
        if mismatch is not None:
            raise ProtocolError(mismatch.code, mismatch.english(), True, versions=mine.wire())
        member.greeted = True
        member.name = msg.get("name") or member.name
        member.hello = {k: msg[k] for k in ("version", "program", "rules") if k in msg}
        log.info("%s: hello from %s (%s)", member.peer.label, member.name, msg.get("client", ""))
        fields = {"program": mine.program, "rules": mine.rules, "install": mine.install}
        self.send(member, protocol.welcome(self.host_name, self.summaries(), fields))

    def _check_rules(self, member: Member, game: str) -> None:
        """Refuse a table whose game has other rules than the guest's (``rules_mismatch``)."""
        mine = self.versions()
        mismatch = check_guest(mine, member.hello, game)
        if mismatch is not None:
            raise ProtocolError(mismatch.code, mismatch.english(), versions=mine.wire(game))

    def _on_ping(self, member: Member, msg: dict[str, Any]) -> None:
        self.send(member, protocol.pong(msg.get("n")))

    def _on_list_tables(self, member: Member, msg: dict[str, Any]) -> None:
        self.send(member, protocol.tables(self.summaries()))

    def _on_create_table(self, member: Member, msg: dict[str, Any]) -> None:
        self._check_free(member)
        self._check_rules(member, msg["game"])
        peer = member.peer
        if msg.get("seed") is not None and not peer.trusted:
            raise ProtocolError(
                ErrorCode.NOT_ALLOWED,
                "the host chooses the seed of a LAN table; a player cannot fix it",
            )
        if not peer.trusted:
            mine = sum(1 for x in self.extras.values() if x.address == peer.address)
            if mine >= self.max_tables_per_address:
                raise ProtocolError(
                    ErrorCode.TOO_MANY_TABLES,
                    f"your address already has {mine} tables open on this host "
                    f"(at most {self.max_tables_per_address}); close or finish one first",
                )
        hints = msg.get("allow_hints")
        table = self.create_table(
            msg["game"],
            msg["players"],
            msg.get("options"),
            seed=msg.get("seed"),
            name=msg.get("name", ""),
            allow_hints=None if hints is None else hints and (self.hints_ceiling or peer.trusted),
            bot_delay_ms=msg.get("bot_delay_ms", 0),
            address="" if peer.trusted else peer.address,
        )
        try:
            if msg.get("spectate"):
                token = table.new_spectator(member.name)
                seat = None
            else:
                seat = table.open_seat(msg.get("seat", 0))
                token = table.seat_human(seat, member.name)
        except ProtocolError:
            self.close_table(table, "its creator could not sit down")
            raise
        table.owner_token = table.creator_token = token
        self._seat_member(member, table, seat, token)

    def _on_join(self, member: Member, msg: dict[str, Any]) -> None:
        token = msg.get("token")
        table = self.tables.get(msg["table"])
        if token is not None and (table is None or not table.find_token(token)[0]):
            # A host restarted from its save numbers its tables anew: a token finds its table.
            table = next((t for t in self.tables.values() if t.find_token(token)[0]), table)
        if table is None:
            table = self._table(msg["table"])
        self._check_rules(member, table.game.id)
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
                self.thinking.cancel_seat(table, seat)
            if table.is_creator(token) and not table.is_owner(token):
                self._restore_creator(table, token)
        elif msg.get("spectate"):
            token = table.new_spectator(msg.get("name") or member.name)
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
        if msg.get("allow_hints") and not self.hints_ceiling and not member.peer.trusted:
            raise ProtocolError(
                ErrorCode.NOT_ALLOWED,
                "this host does not give hints (its owner can start it with --allow-hints)",
            )
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
        whole = bool(msg.get("turn"))
        start = table.undo(member.seat, msg["seq"], whole_turn=whole)
        self.saves.journal(table.table_id, start, table.replay.actions[start:])
        log.info(
            "table %s seq %d: seat %s %s",
            table.table_id,
            table.seq,
            member.seat,
            "restarted its turn" if whole else "undid a move",
        )
        self._after_change(table, [{"type": "undo", "seat": member.seat, "turn": whole}])

    def _on_sample(self, member: Member, msg: dict[str, Any]) -> None:
        """A determinized copy of the state for the asking seat (its own bots use it).

        It holds nothing the seat cannot see: everything hidden from it is resampled — also
        the secrets of a seat in the middle of its turn — and the random generator reseeded
        (rule 5 of the contract), so any seated player may ask, whoever is to move.
        """
        table = self._my_table(member)
        self._check_own_seat(member, table)
        if not table.started:
            raise ProtocolError(ErrorCode.NOT_STARTED, "the game has not started yet")
        if table.over:
            raise ProtocolError(ErrorCode.GAME_OVER, "the game is over")
        seat = member.seat
        assert seat is not None
        if not table.decision_seq(seat) <= msg["seq"] <= table.seq:
            raise ProtocolError(
                ErrorCode.STALE,
                f"seq {msg['seq']} is not your current decision (it began at "
                f"{table.decision_seq(seat)}, now {table.seq})",
            )
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

    def _on_explain(self, member: Member, msg: dict[str, Any]) -> None:
        """Why the asking seat may not take an action now — the rule, as data the client can
        translate — for the pointer over a board element (or ``legal: true``)."""
        table = self._my_table(member)
        self._check_own_seat(member, table)
        reason = table.explain(member.seat, msg["seq"], msg["action"])
        self.send(
            member,
            {
                "t": "explanation",
                "table": table.table_id,
                "seq": msg["seq"],
                "action": to_plain(list(msg["action"])),
                "legal": reason is None,
                "reason": reason,
            },
        )

    def _on_hint(self, member: Member, msg: dict[str, Any]) -> None:
        """What the normal bot would do for the asking seat's current decision.

        Only at a table that allows hints, for the seat's own decision
        (:meth:`Session.check_hint`); :meth:`net.thinking.Thinking.hint` works it out off the
        loop on a copy holding only what the seat may see and answers
        ``hint {table, seq, action}``, unless the decision moved on meanwhile.
        """
        table = self._my_table(member)
        self._check_own_seat(member, table)
        seat = member.seat
        assert seat is not None
        table.check_hint(seat, msg["seq"])
        now = time.monotonic()
        recent = self.extras[table.table_id].hints.setdefault(seat, collections.deque())
        while recent and now - recent[0] > HINT_BURST * HINT_INTERVAL:
            recent.popleft()
        if len(recent) >= HINT_BURST:
            wait = HINT_BURST * HINT_INTERVAL - (now - recent[0])
            raise ProtocolError(
                ErrorCode.HINT_LIMIT,
                f"{HINT_BURST} hints in {HINT_BURST * HINT_INTERVAL:g} s at most; "
                f"ask again in {wait:.0f} s",
            )
        recent.append(now)
        self.thinking.hint(member, table, seat)

    def _on_chat(self, member: Member, msg: dict[str, Any]) -> None:
        table = self._my_table(member)
        if member.seat is not None:
            name = table.seats[member.seat].name
        else:
            name = table.spectator_name(member.token)
        line = {
            "t": "chat",
            "table": table.table_id,
            "seat": member.seat,
            "name": name,
            "spectator": member.seat is None,
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

    # ---- registering a table -----------------------------------------------------------
    def _register(self, table: Session, pinned: bool, path: Path | None = None) -> None:
        self.tables[table.table_id] = table
        self.extras[table.table_id] = TableExtras(pinned=pinned)
        self.saves.open(table.table_id, table.game.id, path)

    def save_path(self, table_id: str) -> Path | None:
        """Where table ``table_id``'s autosave goes (``None`` when autosaves are off)."""
        return self.saves.path(table_id)

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
        self.saves.begin(table.table_id, table.record())
        log.info("table %s: the game starts", table.table_id)
        self._broadcast_lobby(table)
        self._after_change(table)

    def _apply(self, table: Session, seat: Seat | None, seq: int, action: Action) -> None:
        events = table.act(seat, seq, action)
        log.debug("table %s seq %d: seat %s %s", table.table_id, table.seq, seat, action)
        actions = table.replay.actions
        self.saves.journal(table.table_id, len(actions) - 1, actions[-1:])
        self._after_change(table, events)

    def _after_change(self, table: Session, events: list[Event] | None = None) -> None:
        """Send everyone their view, autosave, announce the end or waits, wake bots."""
        events = events or []
        self.thinking.drop_old_hints(table)
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
        self.thinking.wake(table)

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
        frames: dict[bool, tuple[dict[str, Any], bytes]] = {}
        for member in list(extras.members.values()):
            local = member.peer.trusted
            if local not in frames:
                message = table.lobby_message(local=local)
                frames[local] = (message, protocol.encode(message))
            self.send(member, *frames[local])

    def _autosave(self, table: Session) -> None:
        """Queue the table's save file (:class:`~net.autosave.Autosaver`; never blocks); the
        final one of a finished game is written at once."""
        if table.over:
            self.saves.finish(table.table_id, table.record())
        elif table.started:
            self.saves.save(table.table_id, table.record())
