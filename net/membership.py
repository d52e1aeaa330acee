"""Who is at which table, and what happens when they come and go: the part of
:class:`net.hub.Hub` that seats connections at tables and takes them away.

* **Joining** (:meth:`Membership._seat_member`): a connection sits at a table (in a seat or as
  a spectator) with its token; a seated player takes the creator's rights nobody holds.
* **Leaving** (:meth:`Membership._leave_table`): a seat in the lobby opens again, a running
  game keeps it for its token; a table everyone left before or after its game closes.
* **The creator's rights** pass to the lowest seated human player still connected when the
  creator leaves — never to a spectator — and return to the creator who comes back with their
  token (:meth:`Membership._hand_over_ownership`, :meth:`Membership._restore_creator`).
* **A seat taken over**: a seat's token on a new connection unseats the old one
  (:meth:`Membership._evict_holder`).
* **Tables nobody attends** are closed, their autosave kept, after :data:`ORPHAN_GRACE` when no
  human sits at them and :data:`ABANDONED_GRACE` when their players are all away
  (:meth:`Membership._reap`).

Every method runs on the hub's event loop.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from game.core.types import Seat
from net import protocol
from net.protocol import ErrorCode, ProtocolError
from net.seat_rules import HUMAN
from net.session import Session

if TYPE_CHECKING:
    from net.hub import Member, TableExtras

log = logging.getLogger("lantern.host")

#: A running table with nobody connected is closed (its autosave kept, so it can be continued)
#: after ORPHAN_GRACE seconds when no human sits at it (bots only), or ABANDONED_GRACE seconds
#: when its human players are all away.
ORPHAN_GRACE = 30.0
ABANDONED_GRACE = 15 * 60.0


class Membership:
    """Seating connections at tables and taking them away (see the module docstring); a part
    of :class:`net.hub.Hub`, which holds the tables and their members."""

    tables: dict[str, Session]
    extras: dict[str, TableExtras]

    if TYPE_CHECKING:  # the hub's own, which these methods call

        def send(self, member: Member, msg: dict[str, Any], frame: bytes | None = None) -> None: ...

        def close_table(self, table: Session, reason: str) -> None: ...

        def _autosave(self, table: Session) -> None: ...

        def _broadcast_lobby(self, table: Session) -> None: ...

        def _after_seats_changed(self, table: Session) -> None: ...

        def _maybe_autostart(self, table: Session) -> None: ...

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

    def _seat_member(self, member: Member, table: Session, seat: Seat | None, token: str) -> None:
        member.table, member.seat, member.token = table, seat, token
        self.extras[table.table_id].members[member.peer.pid] = member
        if table.owner_token == "" and seat is not None:
            table.owner_token = token  # nobody held the creator's rights: a seated player does
        self._attended(table)
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
        extras = self._off_the_list(member, table)
        was_owner = table.is_owner(member.token)
        if member.seat is not None:
            table.release(member.seat)
        elif member.token is not None and not table.is_creator(member.token):
            table.forget_spectator(member.token)
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
        if not extras.members and not extras.pinned:
            self._unattended(table, extras)
        self._broadcast_lobby(table)
        self._after_seats_changed(table)

    # ---- tables nobody attends ------------------------------------------------------------
    def _attended(self, table: Session) -> None:
        """Someone is connected to ``table`` again: it is not reclaimed."""
        extras = self.extras.get(table.table_id)
        if extras is None:
            return
        extras.unattended = None
        if extras.reaper is not None:
            extras.reaper.cancel()
            extras.reaper = None

    def _unattended(self, table: Session, extras: TableExtras) -> None:
        """Nobody is connected to a running table: reclaim it after a grace period."""
        if extras.unattended is None:
            extras.unattended = time.monotonic()
        if extras.reaper is None:
            loop = asyncio.get_running_loop()
            extras.reaper = loop.call_later(ORPHAN_GRACE, self._reap, table)

    def _reap(self, table: Session) -> None:
        """Close a table nobody attends: after :data:`ORPHAN_GRACE` when no human sits at it,
        after :data:`ABANDONED_GRACE` when its human players are all away.  Its autosave is
        written first, so the game can be continued (``host --resume``, saved games)."""
        extras = self.extras.get(table.table_id)
        if extras is None or table.closed:
            return
        extras.reaper = None
        if extras.members or extras.unattended is None:
            return
        humans = any(seat.kind == HUMAN for seat in table.seats)
        waited = time.monotonic() - extras.unattended
        if humans and waited < ABANDONED_GRACE:
            loop = asyncio.get_running_loop()
            extras.reaper = loop.call_later(ABANDONED_GRACE - waited, self._reap, table)
            return
        self._autosave(table)
        self.close_table(table, "nobody was playing or watching; the game is saved")

    def _hand_over_ownership(self, table: Session, extras: TableExtras) -> None:
        """The creator left: its rights pass to the lowest seated human player still connected
        — never to a spectator.  With nobody seated, nobody holds them until the creator comes
        back with their token (:meth:`_restore_creator`).

        The new holder is told with a fresh ``joined`` whose ``owner`` is true.
        """
        heirs = sorted(
            (
                m
                for m in extras.members.values()
                if m.token is not None and m.seat is not None and table.seats[m.seat].kind == HUMAN
            ),
            key=lambda m: (m.seat, m.peer.pid),
        )
        if not heirs:
            table.owner_token = None if table.creator_token is None else ""
            log.info("table %s: nobody seated holds the creator's rights now", table.table_id)
            return
        heir = heirs[0]
        table.owner_token = heir.token
        log.info("table %s: %s holds the creator's rights now", table.table_id, heir.peer.label)
        self._tell_owner(heir, True)

    def _restore_creator(self, table: Session, token: str) -> None:
        """The table's creator is back: the rights return to them from whoever held them."""
        holder = next((m for m in self._members(table) if m.owner), None)
        table.owner_token = token
        log.info("table %s: its creator is back and holds the creator's rights", table.table_id)
        if holder is not None and holder.token != token:
            self._tell_owner(holder, False)

    def _tell_owner(self, member: Member, owner: bool) -> None:
        assert member.table is not None and member.token is not None
        self.send(
            member,
            {
                "t": "joined",
                "table": member.table.table_id,
                "seat": member.seat,
                "token": member.token,
                "owner": owner,
            },
        )

    def _unseat(self, member: Member, reason: str) -> None:
        """Remove a member whose seat was taken from it (creator's change, reconnect)."""
        table = member.table
        if table is None:
            return
        self._off_the_list(member, table)
        member.table, member.seat, member.token = None, None, None
        self.send(member, {"t": "left", "table": table.table_id, "reason": reason})

    def _off_the_list(self, member: Member, table: Session) -> TableExtras | None:
        """Take ``member`` off ``table``'s members; the table's bookkeeping (``None`` for a
        table the hub no longer runs)."""
        extras = self.extras.get(table.table_id)
        if extras is not None:
            extras.members.pop(member.peer.pid, None)
        return extras

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
