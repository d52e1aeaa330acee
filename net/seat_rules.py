"""Who sits where at a table: seats, their kinds, colours and secret tokens, the spectators, and
the lobby's rules for changing them.

:class:`SeatRules` is the part of :class:`net.session.Session` that seats players, bots and
spectators and checks who may change a seat; the session adds the game.  What it enforces (see
also :mod:`net.session`): seat kinds ``open`` / ``human`` / ``bot`` (with a bot name from
:func:`game.bots.bot_names`), names unique at the table (ignoring case, spectators included, so
nobody speaks or plays as someone else), distinct colours, ready flags, unguessable reconnect
tokens compared in constant time, and that only the table's creator changes other seats.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from typing import Any

from game.bots import bot_names
from game.core.types import Seat
from net.protocol import MAX_NAME, MAX_SEATS, ErrorCode, ProtocolError

OPEN = "open"
HUMAN = "human"
BOT = "bot"
SEAT_KINDS = (OPEN, HUMAN, BOT)

#: Seat colours, in the order new seats get them (a seat may pick any unused one).
COLOURS: tuple[str, ...] = (
    "red",
    "blue",
    "green",
    "yellow",
    "purple",
    "orange",
    "white",
    "black",
    "pink",
    "teal",
    "brown",
    "grey",
    "lime",
    "navy",
    "gold",
    "cyan",
)
assert len(COLOURS) >= MAX_SEATS

#: At most this many spectators per table.
MAX_SPECTATORS = 32


#: The shape of a seat token (:func:`new_token`), checked when a save brings one back.
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,64}")


def new_token() -> str:
    """A fresh unguessable seat token (URL-safe, 22 characters)."""
    return secrets.token_urlsafe(16)


@dataclass
class SeatState:
    """One seat of a table.  ``token`` is secret (only its holder ever receives it)."""

    index: int
    colour: str
    kind: str = OPEN
    name: str = ""
    ready: bool = False
    bot: str | None = None
    token: str | None = None
    connected: bool = False

    def public(self) -> dict[str, Any]:
        """What every member of the table may see of this seat (no token)."""
        return {
            "seat": self.index,
            "kind": self.kind,
            "name": self.name,
            "colour": self.colour,
            "ready": self.ready,
            "bot": self.bot,
            "connected": self.connected or self.kind == BOT,
        }


@dataclass
class TableSettings:
    """Table-wide settings (shown in the lobby; changed by the creator before the start)."""

    name: str = ""
    #: Whether seats may ask for hints (offline default on, LAN default off).
    allow_hints: bool = False
    #: A pause before each bot action, so people can follow (0 for headless games).
    bot_delay_ms: int = 0
    #: Start as soon as every seat is taken (the headless host's ``--autostart``).
    autostart: bool = False

    def public(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "allow_hints": self.allow_hints,
            "bot_delay_ms": self.bot_delay_ms,
            "autostart": self.autostart,
        }


class SeatRules:
    """The seats and spectators of a table and the rules for changing them (a part of
    :class:`net.session.Session`, which holds these fields)."""

    table_id: str
    players: int
    seats: list[SeatState]
    spectators: dict[str, str]
    started: bool
    owner_token: str | None
    creator_token: str | None

    def open_seat(self, preferred: int | None = None) -> int:
        """The seat a new player gets: ``preferred`` if open, else the first open seat."""
        if preferred is not None:
            self._check_index(preferred)
            if self.seats[preferred].kind != OPEN:
                raise ProtocolError(ErrorCode.SEAT_TAKEN, f"seat {preferred + 1} is taken")
            return preferred
        for seat in self.seats:
            if seat.kind == OPEN:
                return seat.index
        raise ProtocolError(ErrorCode.TABLE_FULL, f"table {self.table_id} has no open seat")

    def seat_human(self, index: int, name: str) -> str:
        """Put a player in an open seat; returns the seat's new (secret) token.

        The name is made unique at the table (see :meth:`unique_name`).
        """
        seat = self.seats[index]
        seat.kind, seat.bot, seat.ready, seat.connected = HUMAN, None, False, True
        seat.name = self.unique_name(name, seat=index)
        seat.token = new_token()
        return seat.token

    def new_spectator(self, name: str = "") -> str:
        """A spectator's token; it speaks under a name unique at the table."""
        if len(self.spectators) >= MAX_SPECTATORS:
            raise ProtocolError(
                ErrorCode.TABLE_FULL, f"table {self.table_id} has {MAX_SPECTATORS} spectators"
            )
        token = new_token()
        self.spectators[token] = self.unique_name(name or "Spectator")
        return token

    @property
    def spectator_tokens(self) -> set[str]:
        return set(self.spectators)

    def spectator_name(self, token: str | None) -> str:
        return self.spectators.get(token or "", "Spectator")

    def forget_spectator(self, token: str) -> None:
        self.spectators.pop(token, None)

    def unique_name(self, name: str, seat: Seat | None = None) -> str:
        """``name``, or ``name (2)``, ``name (3)``, ... so that no other seat or spectator of
        this table has it (ignoring case): nobody can speak or play as someone else."""
        name = name.strip() or "Player"
        taken = {s.name.casefold() for s in self.seats if s.index != seat and s.kind != OPEN}
        taken |= {n.casefold() for n in self.spectators.values()}
        candidate, n = name, 1
        while candidate.casefold() in taken:
            n += 1
            suffix = f" ({n})"
            candidate = name[: MAX_NAME - len(suffix)] + suffix
        return candidate

    def is_creator(self, token: str | None) -> bool:
        return (
            token is not None
            and self.creator_token is not None
            and secrets.compare_digest(token, self.creator_token)
        )

    def find_token(self, token: str) -> tuple[bool, Seat | None]:
        """``(known, seat)``: the seat holding ``token`` (``None`` for a spectator token)."""
        for seat in self.seats:
            if seat.token is not None and secrets.compare_digest(seat.token, token):
                return True, seat.index
        for known in self.spectators:
            if secrets.compare_digest(known, token):
                return True, None
        return False, None

    def reclaim(self, index: int) -> None:
        """The holder of a seat's token is back: the seat is human and connected again.

        A bot that stood in for the seat steps aside.
        """
        seat = self.seats[index]
        seat.kind, seat.bot, seat.connected = HUMAN, None, True

    def release(self, index: int) -> None:
        """The seat's player left or dropped.

        In the lobby the seat opens again; once the game runs the seat stays reserved for its
        token (the game waits, or the creator hands it to a bot).
        """
        seat = self.seats[index]
        if seat.kind != HUMAN:
            seat.connected = False
            return
        if self.started:
            seat.connected = False
            seat.ready = False
        else:
            self._open(seat)

    def is_owner(self, token: str | None) -> bool:
        return (
            token is not None
            and self.owner_token is not None
            and secrets.compare_digest(token, self.owner_token)
        )

    def set_seat(
        self,
        index: int,
        *,
        by_seat: Seat | None,
        by_owner: bool,
        kind: str | None = None,
        bot: str | None = None,
        name: str | None = None,
        colour: str | None = None,
    ) -> bool:
        """Change one seat (lobby rules below); returns whether a player lost the seat.

        * kind ``bot`` (with ``bot``, a :func:`~game.bots.bot_names` name) and kind ``open``:
          the creator only.  Before the start any seat; afterwards only a seat whose player is
          disconnected (or an open seat) may be handed to a bot, and seats cannot be opened.
        * kind ``human``: never set directly — a seat becomes human when a player joins it.
        * ``bot`` alone: the creator changes a bot seat's bot (difficulty).
        * ``name`` / ``colour``: a player for their own seat; the creator for bot and open seats.
        """
        self._check_index(index)
        seat = self.seats[index]
        own = by_seat == index
        displaced = False
        if kind is not None and kind != seat.kind:
            if kind == HUMAN:
                raise ProtocolError(
                    ErrorCode.NOT_ALLOWED, "a seat becomes human when a player joins it"
                )
            if not by_owner:
                raise ProtocolError(
                    ErrorCode.NOT_OWNER, "only the table's creator changes who sits where"
                )
            if self.started:
                if kind == OPEN:
                    raise ProtocolError(
                        ErrorCode.NOT_ALLOWED,
                        "seats cannot be opened once the game has started; "
                        "a disconnected seat can be handed to a bot",
                    )
                if seat.kind == HUMAN and seat.connected:
                    raise ProtocolError(
                        ErrorCode.NOT_ALLOWED,
                        f"{seat.name or f'seat {index + 1}'} is connected; only a disconnected "
                        "seat can be handed to a bot",
                    )
            displaced = seat.kind == HUMAN and seat.connected
            if kind == OPEN:
                self._open(seat)
            else:
                name_of_bot = self._check_bot(bot or "random")
                keep_token = self.started and seat.kind == HUMAN
                seat.kind, seat.bot, seat.ready = BOT, name_of_bot, True
                seat.connected = False
                if not keep_token:
                    seat.token = None
                if not seat.name or not keep_token:
                    seat.name = bot_label(name_of_bot)
        elif bot is not None:
            if seat.kind != BOT:
                raise ProtocolError(ErrorCode.NOT_ALLOWED, f"seat {index + 1} is not a bot seat")
            if not by_owner:
                raise ProtocolError(ErrorCode.NOT_OWNER, "only the table's creator changes bots")
            old_label = bot_label(seat.bot or "")
            seat.bot = self._check_bot(bot)
            if seat.name == old_label:
                seat.name = bot_label(seat.bot)
        if name is not None or colour is not None:
            may = own or (by_owner and seat.kind != HUMAN)
            if not may:
                raise ProtocolError(
                    ErrorCode.NOT_ALLOWED,
                    "players set their own name and colour; the creator names bot seats",
                )
            if colour is not None:
                if colour not in COLOURS:
                    raise ProtocolError(
                        ErrorCode.BAD_MESSAGE,
                        f"unknown colour {colour!r}; colours: {', '.join(COLOURS)}",
                    )
                if any(s.colour == colour and s.index != index for s in self.seats):
                    raise ProtocolError(ErrorCode.COLOUR_TAKEN, f"{colour} is taken")
                seat.colour = colour
            if name is not None:
                seat.name = self.unique_name(name, seat=index)
        return displaced

    def set_ready(self, index: int, ready: bool) -> None:
        if self.started:
            raise ProtocolError(ErrorCode.ALREADY_STARTED, "the game has already started")
        self.seats[index].ready = ready

    def owner_seat(self) -> Seat | None:
        """The seat of the table's creator (``None`` if the creator watches or is gone)."""
        if self.owner_token is None:
            return None
        for seat in self.seats:
            if seat.token is not None and self.is_owner(seat.token):
                return seat.index
        return None

    def _check_index(self, index: int) -> None:
        if not 0 <= index < self.players:
            raise ProtocolError(
                ErrorCode.BAD_SEAT, f"seat {index} does not exist (seats 0..{self.players - 1})"
            )

    def _check_bot(self, name: str) -> str:
        known = bot_names()
        if name not in known:
            raise ProtocolError(
                ErrorCode.UNKNOWN_BOT, f"unknown bot {name!r}; known bots: {', '.join(known)}"
            )
        return name

    def _open(self, seat: SeatState) -> None:
        seat.kind, seat.bot, seat.token = OPEN, None, None
        seat.name, seat.ready, seat.connected = "", False, False


def bot_label(bot: str) -> str:
    """The name a bot seat gets: ``Bot (hard)``."""
    return f"Bot ({bot})"


def dedupe_colours(seats: list[SeatState]) -> None:
    """Give a seat whose colour an earlier seat took the first colour nobody has (a save's
    colours are not trusted)."""
    used: set[str] = set()
    for seat in seats:
        if seat.colour in used:
            seat.colour = next(c for c in COLOURS if c not in used)
        used.add(seat.colour)
