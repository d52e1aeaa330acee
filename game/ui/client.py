"""The client side of one table: its connections, the latest messages, and how to act.

Every game the window shows goes through ``net`` connections (``docs/protocol.md``):

* **hot-seat and bots** — an in-process :class:`net.local.LocalHost`
  (:mod:`game.ui.local_game` starts one); one connection per human
  seat played on this computer (each with its own seat token), bot seats filled by the host;
  a game of bots only is watched through one spectator connection, and a hot-seat game (two
  or more local seats) has one too: it feeds the log and the animations with public events
  only, and shows the table while no seat's curtain is lifted (``docs/ui.md``, "Hot-seat");
* **LAN** — one TCP connection (:class:`net.client.TcpConnection`) that reconnects by itself
  when its link drops (``net/connection.py``): while it does, :attr:`TableClient.link` says why
  and the scenes draw "reconnecting..." over the table; the seat's token is kept in the user
  data folder (:class:`net.seats.SeatStore`) once the game runs, so the join screen offers the
  seat back after the program was started again.

:class:`TableClient` polls every connection each frame (never blocking), keeps the newest
``lobby``, the newest ``state`` per local seat and the ``game_over`` result, collects the events
to animate and log (from one connection only, so nothing is shown twice), and sends actions and
undos with the sequence number of the state they were chosen in.  It decides no rule: what may
be done comes from each seat's ``legal`` list.

Everything a host sends is checked before any scene sees it (``docs/protocol.md``, "What a
client checks").  The transports check each message against the protocol's schema before
``poll`` returns it (:func:`net.host_messages.validate_host`: every field the UI reads is there with
its type, text cleaned, undefined fields dropped; ``net/connection.py``), and end the
connection with a ``disconnected`` message saying what was wrong when one fails.  This client
then checks each message against what the table already said (the same table, game and player
count; seat numbers below the player count); one that disagrees ends its connection the same
way.  Either way nothing more is read from that connection, the scenes get one notice of kind
``disconnected`` whose text says why, and the window stays open.

So a scene may rely on the shapes in :data:`net.host_messages.HOST_MESSAGES`.  It may not rely on the
*content* of a ``state``'s ``view`` and ``events`` beyond "a map" and "maps with a string
``type``, any ``seat`` below the player count": those belong to the game, and its view must
treat them as data from outside.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from game.ui.games.base import SeatInfo
from game.ui.i18n import has, t
from net.protocol import ErrorCode, ProtocolError
from net.versions import MISMATCH_CODES

#: Chat lines kept for the lobby and the game log.
MAX_CHAT_LINES = 200
#: The pause before a bot acts, so people can follow (``$LANTERN_BOT_DELAY_MS`` overrides it).
BOT_DELAY_MS = 350


#: The longest chat line this client sends (the protocol allows 500 characters).
CHAT_MAX = 200


def safe_text(text: object, limit: int = 500) -> str:
    """``text`` made safe to draw: a string, control and other unprintable characters turned
    into spaces, at most ``limit`` characters (chat comes from other people's programs)."""
    raw = text if isinstance(text, str) else str(text)
    cleaned = "".join(ch if ch.isprintable() else " " for ch in raw[: limit * 2])
    return " ".join(cleaned.split())[:limit]


def describe_cause(cause: str, reason: str) -> str:
    """What happened to a connection, in the player's language (``net.connection.Cause``):
    ``net.cause.<cause>`` with the transport's English ``reason`` as the detail."""
    key = f"net.cause.{cause}"
    text = t(key, reason=safe_text(reason, 300)) if has(key) else safe_text(reason, 300)
    return safe_text(text, 400)


def _inconsistent(text: str) -> ProtocolError:
    return ProtocolError(ErrorCode.BAD_MESSAGE, text)


def bot_delay_ms() -> int:
    try:
        return max(0, min(10_000, int(os.environ.get("LANTERN_BOT_DELAY_MS", BOT_DELAY_MS))))
    except ValueError:
        return BOT_DELAY_MS


class Conn(Protocol):
    """The part of ``net.connection.Connection`` the client uses."""

    @property
    def connected(self) -> bool: ...

    def send(self, msg: dict[str, Any]) -> None: ...

    def poll(self) -> list[dict[str, Any]]: ...

    def close(self) -> None: ...


@dataclass
class SeatSpec:
    """One seat as chosen in the setup scene."""

    kind: str  # "human" | "bot"
    name: str
    colour: str
    bot: str = "normal"


@dataclass
class Notice:
    """Something to tell the player: an error from the host, a disconnect, a chat line."""

    kind: str  # error | info | chat | disconnected
    text: str
    code: str = ""
    #: An ``illegal`` error's reason as data (``{text, rule, key, params}``), to translate.
    reason: dict[str, Any] | None = None


@dataclass
class TableClient:
    """The connections of one table (see the module docstring).

    ``conns`` maps a seat to its connection; the key ``None`` is a spectator connection.
    """

    game_id: str
    conns: dict[int | None, Conn]
    local_host: Any = None
    table_id: str | None = None
    owner: int | None = None
    lobby: dict[str, Any] | None = None
    states: dict[int | None, dict[str, Any]] = field(default_factory=dict)
    game_over: dict[str, Any] | None = None
    notices: list[Notice] = field(default_factory=list)
    #: Events (from the log connection) not yet given to the view, oldest first.
    events: list[dict[str, Any]] = field(default_factory=list)
    #: Chat lines and other text for the log: (seat or None, text).
    chat: list[tuple[int | None, str]] = field(default_factory=list)
    tokens: dict[int | None, str] = field(default_factory=dict)
    waiting: list[dict[str, Any]] = field(default_factory=list)
    #: Seats whose action or undo was sent and not yet answered (no double sends).
    busy: set[int] = field(default_factory=set)
    on_joined: Callable[[TableClient, int | None, dict[str, Any]], None] | None = None
    closed: bool = False
    #: A LAN server this client runs (closed with the client), if any.
    server: Any = None
    #: A connection joined without a seat number is filed under its seat once ``joined`` says.
    rekey: bool = False
    #: The newest ``hint`` answer per seat, and the position each seat last asked a hint for.
    hints: dict[int, dict[str, Any]] = field(default_factory=dict)
    hint_asked: dict[int, int] = field(default_factory=dict)
    #: How many chat lines arrived in all (``chat`` keeps the newest :data:`MAX_CHAT_LINES`).
    chat_total: int = 0
    #: Connections ended because their host sent a bad message (``id`` of the connection).
    refused: set[int] = field(default_factory=set)
    #: LAN: the host's address, and where this computer keeps its seat tokens.
    address: tuple[str, int] | None = None
    store: Any = None
    #: While the link to the host is down and being made again: ``{cause, reason, attempt,
    #: retry_in, since}`` of the newest ``reconnecting`` message; ``None`` while it is up.
    link: dict[str, Any] | None = None
    #: Called when :attr:`link` changes (the window shows or hides "reconnecting...").
    on_link: Callable[[TableClient], None] | None = None
    #: The connection ended for good (a ``disconnected`` arrived).
    lost: bool = False
    #: Called with the LAN server instead of closing it when the client closes after its own
    #: connection was lost: the table goes on for the other players.
    keep_server: Callable[[Any], None] | None = None
    #: Events of the game so far, for the log of a game continued from its save (visible to
    #: the seat played here, or public); the game scene takes them once.
    history: list[dict[str, Any]] = field(default_factory=list)
    #: The history ends where this window stopped (a LAN seat taken back after the window
    #: closed, ``game/ui/seatlog.py``): the log says that what happened meanwhile is missing.
    history_gap: bool = False
    #: Where a LAN seat's events are kept on disk (``game/ui/seatlog.py``), once its game runs.
    seat_log: Any = None
    #: (table, token) of the seat last written to :attr:`store`.
    _kept: tuple[str, str] | None = None
    #: A ``joined`` after a reconnect may name another table (a host restarted from its save).
    _rejoining: bool = False
    #: Seats whose next state replaces the one kept whatever its ``seq`` (after a reconnect:
    #: a host restarted from its save counts anew, without the undos it had counted).
    _fresh: set[int | None] = field(default_factory=set)
    #: ``explanation`` answers per seat, newest last (the scene matches ``seq`` and ``action``).
    explanations: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    #: The host's ``welcome`` (its versions: ``net.versions``).
    welcome: dict[str, Any] | None = None

    # ---- which connection is which ----------------------------------------------------------
    @property
    def local_seats(self) -> list[int]:
        """Seats played on this computer, in seat order."""
        return sorted(s for s in self.conns if s is not None)

    @property
    def log_key(self) -> int | None:
        """The connection whose events feed the animations and the log: the one seat played
        here, else the spectator connection (hot-seat: public events only), else the first."""
        seats = self.local_seats
        if len(seats) == 1 or (seats and None not in self.conns):
            return seats[0]
        return None

    @property
    def started(self) -> bool:
        return bool(self.lobby and self.lobby.get("started")) or bool(self.states)

    def latest(self) -> dict[str, Any] | None:
        """The newest state message of any connection."""
        best = None
        for msg in self.states.values():
            if best is None or msg.get("seq", -1) > best.get("seq", -1):
                best = msg
        return best

    def to_move(self) -> list[int]:
        latest = self.latest()
        return list(latest.get("to_move", [])) if latest else []

    def seat_infos(self, players: int) -> list[SeatInfo]:
        """Names, colours and kinds of every seat (from the lobby)."""
        seats = (self.lobby or {}).get("seats", [])
        out = []
        for i in range(players):
            info = seats[i] if i < len(seats) else {}
            name = info.get("name") or f"#{i + 1}"
            out.append(
                SeatInfo(
                    seat=i,
                    name=name,
                    colour=info.get("colour") or "grey",
                    kind=info.get("kind") or "human",
                    local=i in self.conns,
                    connected=bool(info.get("connected", True)),
                )
            )
        return out

    # ---- the loop -----------------------------------------------------------------------------
    def poll(self) -> bool:
        """Read every connection; True when anything changed.

        Each message (schema-checked by its transport) is checked against the table before it
        changes anything; one that disagrees ends its connection with a ``disconnected``
        notice saying why (see the module docstring).
        """
        changed = False
        for conn in list(self.conns.values()):
            if id(conn) in self.refused:
                conn.poll()  # the transport's own last words: already told
                continue
            for msg in conn.poll():
                changed = True
                key = next((k for k, c in self.conns.items() if c is conn), None)
                try:
                    self._check_consistent(msg)
                except ProtocolError as exc:
                    self._refuse(conn, exc)
                    break
                self._receive(key, msg)
                if id(conn) in self.refused:
                    break  # a version mismatch: nothing after it counts
        return changed

    def refuse(self, reason: str) -> None:
        """A scene found the host's data unusable (a ``view`` its game view cannot draw, say):
        end every connection the way a bad message does — one ``disconnected`` notice saying
        why, nothing more read, the window open."""
        for conn in self.conns.values():
            if id(conn) not in self.refused:
                self.refused.add(id(conn))
                with contextlib.suppress(Exception):
                    conn.close()
        text = safe_text(f"the host sent something this window cannot show ({reason})", 300)
        self.notices.append(Notice("disconnected", text, "bad_host"))

    def _refuse(self, conn: Conn, exc: ProtocolError) -> None:
        """End ``conn``: its host sent something this client cannot use."""
        self.refused.add(id(conn))
        with contextlib.suppress(Exception):
            conn.close()
        text = safe_text(f"the host sent a bad message ({exc.text})", 300)
        self.notices.append(Notice("disconnected", text, "bad_host"))

    def _check_versions(self, game: str | None) -> None:
        """The host's versions (its ``welcome``) must play with this program's — and, once the
        lobby names the table's game, its rules too (``net.versions``): else end the
        connection with the message that names both versions (``version_mismatch`` /
        ``rules_mismatch``)."""
        from net.versions import check_host

        if self.welcome is None:
            return
        mismatch = check_host(self.welcome, game)
        if mismatch is None:
            return
        for conn in self.conns.values():
            if id(conn) not in self.refused:
                self.refused.add(id(conn))
                with contextlib.suppress(Exception):
                    conn.close()
        self.notices.append(Notice("error", self._mismatch_text(mismatch), mismatch.code))

    def _mismatch_text(self, mismatch: Any) -> str:
        from net.versions import describe

        return safe_text(describe(mismatch, self.address[0] if self.address else ""), 1000)

    def _check_consistent(self, msg: dict[str, Any]) -> None:
        """A message must agree with what the table already said: its table, its game, its
        player count, and seat numbers below that count.  (Fields are read with ``get``: the
        schema is the transport's check, and test doubles send only what they need.)"""
        kind = msg.get("t")
        table = msg.get("table")
        if kind == "joined" and self._rejoining:
            return  # the same seat, perhaps at a table numbered anew
        if table is not None and self.table_id is not None and table != self.table_id:
            raise _inconsistent(f"a {kind} message is about table {table}, not {self.table_id}")
        players = (self.lobby or {}).get("players")
        if kind in ("lobby", "game_over"):
            game = msg.get("game")
            if self.game_id and game is not None and game != self.game_id:
                raise _inconsistent(f"a {kind} message is about {game}, not {self.game_id}")
            if isinstance(players, int) and msg.get("players", players) != players:
                raise _inconsistent(f"a {kind} message has another number of seats")
            return
        if not isinstance(players, int):
            return
        seats: list[Any] = [msg.get("seat")]
        if kind == "state":
            seats += [*msg.get("to_move", ()), *msg.get("waiting", ())]
            seats.append((msg.get("last_action") or {}).get("seat"))
            seats += [ev.get("seat") for ev in msg.get("events", ()) if isinstance(ev, dict)]
        elif kind == "waiting":
            seats += [w.get("seat") for w in msg.get("seats", ()) if isinstance(w, dict)]
        bad = next((s for s in seats if isinstance(s, int) and not 0 <= s < players), None)
        if bad is not None:
            raise _inconsistent(f"a {kind} message names seat {bad} of a {players}-seat table")

    def _receive(self, key: int | None, msg: dict[str, Any]) -> None:
        kind = msg.get("t")
        if kind == "joined":
            seat = msg.get("seat")
            if self.rekey and key is None and isinstance(seat, int) and seat not in self.conns:
                self.conns[seat] = self.conns.pop(None)
                key = seat
                self.rekey = False
            self.table_id = msg.get("table")
            self.tokens[key] = msg.get("token", "")
            self._rejoining = False
            if msg.get("owner"):
                self.owner = key
            elif self.owner == key:
                self.owner = None
            if self.on_joined is not None:
                self.on_joined(self, key, msg)
            self._keep_seat()
        elif kind == "welcome":
            self.welcome = msg
            self._check_versions(None)
        elif kind == "lobby":
            first = self.lobby is None
            self.lobby = msg
            if first:
                self._check_versions(str(msg.get("game", "")))
            self._keep_seat()
        elif kind == "state":
            old = self.states.get(key)
            if old is None or key in self._fresh or msg.get("seq", 0) >= old.get("seq", 0):
                self.states[key] = msg
                self._fresh.discard(key)
            if key is not None:
                self.busy.discard(key)
            if key == self.log_key:
                self.events.extend(msg.get("events", []))
            self.waiting = [self._waiting_entry(w) for w in msg.get("waiting", [])]
            self._keep_seat()
            if key == self.log_key and self.seat_log is not None and self.game_over is None:
                self.seat_log.append(list(msg.get("events", [])))
        elif kind == "game_over":
            self.game_over = msg
            self._forget_seat()
        elif kind == "waiting":
            self.waiting = list(msg.get("seats", []))
        elif kind == "error":
            if key is not None:
                self.busy.discard(key)
                self.hint_asked.pop(key, None)
            if msg.get("code") == ErrorCode.SHUTTING_DOWN and self.address is not None:
                return  # the connection says it, naming the cause, when the link drops
            reason = msg.get("reason") if isinstance(msg.get("reason"), dict) else None
            text, code = str(msg.get("text", "")), str(msg.get("code", ""))
            if code in MISMATCH_CODES:
                from net.versions import from_refusal

                text = self._mismatch_text(from_refusal(msg))
            self.notices.append(Notice("error", text, code, reason))
        elif kind == "explanation":
            if key is not None:
                answers = self.explanations.setdefault(key, [])
                answers.append(msg)
                del answers[:-64]
        elif kind == "hint":
            if key is not None:
                self.hints[key] = msg
        elif kind == "chat":
            seat = msg.get("seat")
            name = safe_text(msg.get("name", ""), 32) or "?"
            self.chat.append(
                (seat if isinstance(seat, int) else None, f"{name}: {safe_text(msg.get('text'))}")
            )
            del self.chat[:-MAX_CHAT_LINES]
            self.chat_total += 1
        elif kind in ("left", "table_closed"):
            # A closed table keeps its seats' tokens: its host may continue it from the save.
            self.notices.append(Notice("info", str(msg.get("reason", "")), kind))
        elif kind == "reconnecting":
            self._rejoining = True
            self.link = {
                "cause": str(msg.get("cause", "")),
                "reason": safe_text(msg.get("reason", ""), 300),
                "attempt": int(msg.get("attempt", 0)),
                "retry_in": float(msg.get("retry_in", 0.0)),
                "since": (self.link or {}).get("since", time.monotonic()),
                "at": time.monotonic(),
            }
            self._link_changed()
        elif kind == "reconnected":
            self.link = None
            self._fresh = set(self.conns)
            self.busy.clear()  # nothing in flight survived the drop; the snapshot says what next
            self.hint_asked.clear()
            self.notices.append(Notice("info", t("net.reconnected"), "reconnected"))
            self._link_changed()
        elif kind == "disconnected":
            self.lost = True
            cause = str(msg.get("cause", ""))
            if cause == "seat_gone":
                self._forget_seat()
            text = (
                describe_cause(cause, str(msg.get("reason", "")))
                if cause
                else str(msg.get("reason", ""))
            )
            if self.link is not None:
                self.link = None
                self._link_changed()
            self.notices.append(Notice("disconnected", text, cause or kind))

    def _link_changed(self) -> None:
        if self.on_link is not None:
            self.on_link(self)

    # ---- kept seats ---------------------------------------------------------------------------
    def _lan_seat(self) -> tuple[int, str] | None:
        """The one seat this LAN client plays, and its token."""
        seats = self.local_seats
        if self.address is None or len(seats) != 1 or not self.tokens.get(seats[0]):
            return None
        return seats[0], self.tokens[seats[0]]

    def _keep_seat(self) -> None:
        """Once the game runs, keep the seat's token in the store (once per table and token)."""
        mine = self._lan_seat()
        if mine is None or self.store is None or self.table_id is None or not self.started:
            return
        if self.game_over is not None:
            return
        if self.seat_log is None:
            from game.ui.seatlog import SeatLog

            self.seat_log = SeatLog(self.table_id, mine[1])
        if self._kept == (self.table_id, mine[1]):
            return
        from net.seats import StoredSeat

        seat, token = mine
        seats = (self.lobby or {}).get("seats", [])
        name = seats[seat].get("name", "") if seat < len(seats) else ""
        assert self.address is not None
        with contextlib.suppress(ValueError, OSError):
            self.store.remember(
                StoredSeat(
                    self.address[0],
                    self.address[1],
                    self.table_id,
                    token,
                    seat,
                    self.game_id,
                    str(name),
                )
            )
            self._kept = (self.table_id, token)

    def _forget_seat(self) -> None:
        mine = self._lan_seat()
        if mine is not None and self.store is not None:
            with contextlib.suppress(OSError):
                self.store.forget(mine[1])
            self._kept = None
        if self.seat_log is not None:
            self.seat_log.forget()
            self.seat_log = None

    def _waiting_entry(self, item: Any) -> dict[str, Any]:
        """``state.waiting`` lists seat numbers, ``waiting.seats`` dicts: one shape here."""
        if isinstance(item, dict):
            return item
        seats = (self.lobby or {}).get("seats", [])
        name = seats[item].get("name") if isinstance(item, int) and 0 <= item < len(seats) else None
        return {"seat": item, "name": name}

    # ---- acting -------------------------------------------------------------------------------
    def state_of(self, seat: int | None) -> dict[str, Any] | None:
        return self.states.get(seat)

    def can_act(self, seat: int) -> bool:
        st = self.states.get(seat)
        return bool(st and st.get("legal")) and seat not in self.busy

    def send_action(self, seat: int, action: tuple[Any, ...]) -> bool:
        """Send ``action`` for ``seat`` (chosen in that seat's newest state); False if not sent."""
        st = self.states.get(seat)
        conn = self.conns.get(seat)
        if st is None or conn is None or seat in self.busy:
            return False
        conn.send({"t": "action", "seq": st["seq"], "action": list(action)})
        self.busy.add(seat)
        return True

    def can_undo(self, seat: int) -> bool:
        st = self.states.get(seat)
        return bool(st and st.get("can_undo")) and seat not in self.busy

    def undo(self, seat: int, turn: bool = False) -> bool:
        """Take back the seat's last action — or (``turn``) all of its actions this turn."""
        st = self.states.get(seat)
        conn = self.conns.get(seat)
        if st is None or conn is None or seat in self.busy:
            return False
        conn.send({"t": "undo", "seq": st["seq"], **({"turn": True} if turn else {})})
        self.busy.add(seat)
        return True

    def explain(self, seat: int, action: tuple[Any, ...]) -> bool:
        """Ask why ``seat`` may not take ``action`` in its newest state (``explanation``)."""
        st = self.states.get(seat)
        conn = self.conns.get(seat)
        if st is None or conn is None or self.closed:
            return False
        conn.send({"t": "explain", "seq": st["seq"], "action": list(action)})
        return True

    def say(self, text: str) -> bool:
        """Send a chat line to the table (from this computer's first connection)."""
        line = safe_text(text, CHAT_MAX)
        if not line or not self.conns or self.closed:
            return False
        key = self.log_key if self.log_key in self.conns else next(iter(self.conns))
        self.conns[key].send({"t": "chat", "text": line})
        return True

    def away_seats(self) -> list[int]:
        """Human seats of other computers whose player is disconnected (from the lobby)."""
        seats = (self.lobby or {}).get("seats", [])
        return [
            i
            for i, s in enumerate(seats)
            if s.get("kind") == "human" and not s.get("connected", True) and i not in self.conns
        ]

    @property
    def hints_allowed(self) -> bool:
        """Whether this table allows hints (its lobby settings say so)."""
        return bool(((self.lobby or {}).get("settings") or {}).get("allow_hints"))

    def can_ask_hint(self, seat: int) -> bool:
        """The seat may act now, hints are allowed, and it has not asked in this position."""
        st = self.states.get(seat)
        return (
            self.hints_allowed
            and self.can_act(seat)
            and st is not None
            and self.hint_asked.get(seat) != st.get("seq")
        )

    def ask_hint(self, seat: int) -> bool:
        """Ask the host what the normal bot would do for ``seat`` now (False if not sent)."""
        st = self.states.get(seat)
        conn = self.conns.get(seat)
        if st is None or conn is None or not self.can_ask_hint(seat):
            return False
        conn.send({"t": "hint", "seq": st["seq"]})
        self.hint_asked[seat] = st["seq"]
        return True

    def hint_for(self, seat: int | None) -> tuple[Any, ...] | None:
        """The hinted action for ``seat``'s current position, if the host has answered."""
        if seat is None:
            return None
        st = self.states.get(seat)
        hint = self.hints.get(seat)
        if st is None or hint is None or hint.get("seq") != st.get("seq"):
            return None
        action = hint.get("action")
        return tuple(action) if isinstance(action, list) and action else None

    def hint_why(self, seat: int | None) -> list[dict[str, Any]]:
        """Why the hint for ``seat``'s current position is good (the host's ``why``: reasons
        ``{key, params, gain}``, best first); empty if the host gave none."""
        if seat is None or self.hint_for(seat) is None:
            return []
        why = self.hints[seat].get("why")
        return [r for r in why if isinstance(r, dict)] if isinstance(why, list) else []

    def send(self, seat: int | None, msg: dict[str, Any]) -> None:
        conn = self.conns.get(seat)
        if conn is not None:
            conn.send(msg)

    def take_events(self) -> list[dict[str, Any]]:
        events, self.events = self.events, []
        return events

    def take_notices(self) -> list[Notice]:
        notices, self.notices = self.notices, []
        return notices

    def close(self) -> None:
        """Close every connection and the in-process host (its autosave stays on disk)."""
        if self.closed:
            return
        self.closed = True
        for conn in self.conns.values():
            with contextlib.suppress(Exception):
                conn.close()
        if self.local_host is not None:
            with contextlib.suppress(Exception):
                self.local_host.close()
        if self.server is not None:
            server, self.server = self.server, None
            if self.lost and self.keep_server is not None:
                # This window's own connection failed, not its host: the table goes on for
                # the others, and this player can come back to it from the join screen.
                self.keep_server(server)
            else:
                with contextlib.suppress(Exception):
                    server.close()


def colour_plan(chosen: list[str], palette: Sequence[str]) -> list[tuple[int, str]]:
    """The colour changes, in order, that take seats from the colours the host gives them
    (``palette[i]`` for seat ``i``) to ``chosen`` without two seats ever holding one colour (the
    host refuses that): first each seat whose colour another seat wants steps aside to one that
    nobody holds or wants, then every seat takes its own."""
    current = list(palette[: len(chosen)])
    pool = [c for c in palette if c not in set(current) | set(chosen)]
    moves: list[tuple[int, str]] = []
    for i, colour in enumerate(current):
        if colour in chosen and chosen[i] != colour and pool:
            current[i] = pool.pop(0)
            moves.append((i, current[i]))
    for i, colour in enumerate(chosen):
        if current[i] != colour:
            current[i] = colour
            moves.append((i, colour))
    return moves


def _hello(name: str) -> dict[str, Any]:
    from net.protocol import PROTOCOL_VERSION
    from net.versions import hello_fields

    return {
        "t": "hello",
        "version": PROTOCOL_VERSION,
        "name": name,
        "client": "lantern-ui",
        **hello_fields(),
    }


#: Events of a save's past kept for the log of a continued game (the newest).
HISTORY_EVENTS = 4000


def history_events(replay: Any, viewer: int | None) -> list[dict[str, Any]]:
    """The events of a saved game so far, as ``viewer`` may see them (``None``: what everyone
    may see), for the log of a game continued from its save.  Replayed with the rules; a save
    that does not replay gives none (the host refuses it anyway)."""
    from game.core.types import GameError

    try:
        state = replay.new_state()
        events: list[dict[str, Any]] = []
        for seat, action in replay.actions:
            events.extend(state.visible_events(state.apply(seat, action), viewer))
            del events[:-HISTORY_EVENTS]
    except (GameError, ValueError):
        return []
    return events


def restore_log(scene: Any) -> None:
    """Write the client's :attr:`TableClient.history` into a game scene's log, before what
    happened since (once: the history is taken)."""
    from game.ui.games.base import LogLine
    from game.ui.scenes.game import MAX_LOG

    events, scene.client.history = scene.client.history, []
    lines = []
    for ev in events:
        line = scene.view.describe_event(ev)
        if line is not None:
            lines.append(line)
    if lines and scene.client.history_gap:
        lines.append(LogLine(None, t("game.log_gap")))
    scene.client.history_gap = False
    scene.log[:0] = lines
    del scene.log[:-MAX_LOG]
