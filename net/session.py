"""One table: the authoritative game, its seats, and the rules of the lobby.

A :class:`Session` owns the only real :class:`~game.core.api.GameState` of a table and is the one
place where actions are checked and applied — for hot-seat, bot and LAN games alike (the
transports in :mod:`net.local` and :mod:`net.host` both go through :class:`net.hub.Hub`, which
calls this class).  It knows nothing about sockets, threads or asyncio: every method is a plain
synchronous step that either changes the table or raises :class:`~net.protocol.ProtocolError`
with the code and sentence the client will see.

What it enforces:

* **Actions** (:meth:`Session.act`): the game has started and is not over, the seat is one of
  ``state.to_move()``, the action was chosen at the seat's *current decision* (below), and the
  rules accept it (``state.apply`` raises ``IllegalAction`` naming the rule, and leaves the
  state untouched).
* **Decisions, per seat.**  ``seq`` counts every change of the game (an action or an undo), so
  a client's ``seq`` always says which state it saw.  Each seat's current decision began at
  :meth:`Session.decision_seq` — the last change that altered what that seat may do: its legal
  actions, the turn (``state.turn_id()``), or its own last action or undo.  An action is stale
  only if it was chosen before that: in a simultaneous phase another seat's commitment does not
  touch this seat's decision, so choices made at the same position all count.
* **Undo** (:meth:`Session.undo`): a seat may take back its own actions of the current turn
  (``state.turn_id()``), last first, or all of them at once ("restart turn"), as long as no
  event since then had ``"reveal": True`` (hidden information came out or randomness was used).
  Other seats' actions in the same turn — the other commitments of a simultaneous phase — stay:
  the table is rebuilt from the start of the turn with the remaining actions re-applied, and
  an undo that would make one of them illegal is refused.  Nothing of this lives in a view.
* **Hints** (:meth:`Session.check_hint`): only at a table whose ``allow_hints`` setting is on,
  for a seat to move, at its current decision.
* **Seats** (:meth:`Session.set_seat` and friends, from :class:`net.seat_rules.SeatRules`):
  seat kinds ``open`` / ``human`` / ``bot`` (with a bot name from :func:`game.bots.bot_names`),
  names, distinct colours, ready flags, reconnect tokens; only the table's creator changes other
  seats.
* **Secrets** (:meth:`Session.state_message`): every field a seat receives comes from its own
  ``view``, the events it may see (``visible_events``) and its own decision.  The record of the
  last action (:meth:`Session.last_action_for`) names the action only to a seat that saw all of
  its events, and never, before the phase resolves, to another seat than its maker when it was
  a commitment of a simultaneous phase; the others learn only *that* its seat acted.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from game.bots import bot_names
from game.core.api import Game, GameState
from game.core.match import Replay
from game.core.registry import UnknownGame, get_game
from game.core.types import Action, BadOptions, BadState, Event, GameError, IllegalAction, Seat
from game.core.wire import to_plain
from net.moves import Move, last_move_of, move_of, record_for
from net.protocol import MAX_SEATS, ErrorCode, ProtocolError
from net.seat_rules import (
    BOT,
    COLOURS,
    HUMAN,
    OPEN,
    TOKEN_SHAPE,
    SeatRules,
    SeatState,
    TableSettings,
    bot_label,
    dedupe_colours,
)

log = logging.getLogger("lantern.host")


@dataclass
class Session(SeatRules):
    """One table (see the module docstring).  Build with :meth:`create` or :meth:`resume`."""

    table_id: str
    game: Game
    players: int
    options: dict[str, Any]
    seed: int
    settings: TableSettings
    state: GameState
    seats: list[SeatState]
    replay: Replay
    started: bool = False
    seq: int = 0
    #: The token holding the creator's rights now (``None``: a table the host opened, which
    #: has no creator; ``""``: the rights wait for the creator's return), and the creator's own.
    owner_token: str | None = None
    creator_token: str | None = None
    #: The seed was fixed by whoever opened the table (tools, hot-seat): shown in the lobby.
    fixed_seed: bool = False
    #: Spectators' tokens and the (unique) names they speak under.
    spectators: dict[str, str] = field(default_factory=dict)
    #: The last applied action (``None`` before the first); each seat gets its own record of it.
    last_move: Move | None = None
    closed: bool = False
    #: The state where the undo window begins (the start of the turn, or the last reveal) and
    #: the number of recorded actions at that point; the actions since are the replay's tail.
    _barrier: GameState | None = None
    _barrier_actions: int = 0
    #: The last move when the barrier was set (what an undo of every later move leaves).
    _barrier_move: Move | None = None
    #: Why nothing before the barrier can be undone (the reason a refused undo gives).
    _undo_block: str = "nothing has been played yet"
    #: Per seat: the key of its current decision and the ``seq`` at which it began.
    _decisions: dict[Seat, tuple[tuple[int, int, int], int]] = field(default_factory=dict)
    #: Per seat: a counter bumped by each of its own actions and undos (part of the key).
    _acted: dict[Seat, int] = field(default_factory=dict)
    #: ``(seq, {seat: legal actions})``: the legal lists of the current position.
    _legal: tuple[int, dict[Seat, list[Action]]] = (-1, {})

    # ---- building ---------------------------------------------------------------------------
    @classmethod
    def create(
        cls,
        table_id: str,
        game_id: str,
        players: int,
        options: dict[str, Any] | None = None,
        *,
        seed: int | None = None,
        settings: TableSettings | None = None,
    ) -> Session:
        """A new table in its lobby.  Refuses unknown games, player counts and options."""
        game = _game(game_id)
        if not game.min_players <= players <= min(game.max_players, MAX_SEATS):
            raise ProtocolError(
                ErrorCode.BAD_OPTIONS,
                f"{game.title} takes {game.min_players} to {game.max_players} players, "
                f"not {players}",
            )
        opts = dict(options or {})
        fixed = seed is not None
        seed = secrets.randbits(63) if seed is None else seed
        state = _new_state(game, players, opts, seed)
        replay = Replay(
            game=game.id,
            players=players,
            seed=seed,
            options=opts,
            rules_version=game.rules_version,
        )
        seats = [SeatState(i, COLOURS[i]) for i in range(players)]
        return cls(
            table_id=table_id,
            game=game,
            players=players,
            options=opts,
            seed=seed,
            settings=settings or TableSettings(),
            state=state,
            seats=seats,
            replay=replay,
            fixed_seed=fixed,
        )

    @classmethod
    def resume(
        cls,
        table_id: str,
        replay: Replay,
        *,
        settings: TableSettings | None = None,
        keep_tokens: bool = False,
    ) -> Session:
        """A table that continues a saved game (already started).

        Bot seats get their bots back.  With ``keep_tokens`` (a LAN table continued, e.g. a
        host restarted from its autosave) every seat the save names a token for stays reserved
        for that token, so its player takes it back by reconnecting as if the host had never
        stopped, and the creator gets the creator's rights back; otherwise (a game on this
        computer) human seats are open until someone joins them.  The game waits for missing
        players.  Raises :class:`~game.core.types.BadState` for a save that cannot be continued
        (unknown game, other rules version, illegal action, already finished).
        """
        try:
            game = get_game(replay.game)
        except UnknownGame as exc:
            raise BadState(str(exc)) from None
        if replay.rules_version and replay.rules_version != game.rules_version:
            raise BadState(
                f"the save was made with {game.title} rules version {replay.rules_version}; "
                f"this program has version {game.rules_version}"
            )
        if not game.min_players <= replay.players <= min(game.max_players, MAX_SEATS):
            raise BadState(f"the save has {replay.players} players, which {game.title} refuses")
        if replay.final_hash is not None:
            raise BadState("this game has already ended (it is a replay, not a saved game)")
        try:
            state = replay.state_at(None)
        except GameError as exc:
            raise BadState(f"the save cannot be replayed: {exc}") from None
        if state.is_over():
            raise BadState("this game has already ended")
        seats = [SeatState(i, COLOURS[i]) for i in range(replay.players)]
        known_bots = set(bot_names())
        for seat, info in zip(seats, replay.seats, strict=False):
            if not isinstance(info, dict):
                continue
            colour = info.get("colour")
            if isinstance(colour, str) and colour in COLOURS:
                seat.colour = colour
            name = info.get("name")
            bot = info.get("bot")
            if info.get("kind") == BOT and isinstance(bot, str) and bot in known_bots:
                seat.kind, seat.bot = BOT, bot
                seat.name = name if isinstance(name, str) else bot_label(bot)
            elif isinstance(name, str):
                seat.name = name  # the name stays as a hint of who sat there
            token = info.get("token")
            if keep_tokens and isinstance(token, str) and TOKEN_SHAPE.fullmatch(token):
                seat.token = token
                if seat.kind == OPEN:
                    seat.kind = HUMAN  # reserved for its player, who is away until they return
        dedupe_colours(seats)
        session = cls(
            table_id=table_id,
            game=game,
            players=replay.players,
            options=dict(replay.options),
            seed=replay.seed,
            settings=settings or TableSettings(),
            state=state,
            seats=seats,
            replay=replay,
            started=True,
            seq=len(replay.actions),
        )
        if replay.actions:
            session.last_move = last_move_of(replay)
        if keep_tokens:
            creator = next(
                (
                    s.token
                    for s, info in zip(seats, replay.seats, strict=False)
                    if isinstance(info, dict) and info.get("creator") and s.token
                ),
                None,
            )
            session.owner_token = session.creator_token = creator
        session._set_barrier("the game was continued from a save here")
        session._refresh_decisions()
        return session

    # ---- seats --------------------------------------------------------------------------------
    def configure(
        self,
        *,
        options: dict[str, Any] | None = None,
        name: str | None = None,
        allow_hints: bool | None = None,
        bot_delay_ms: int | None = None,
    ) -> None:
        """Change table settings in the lobby (the creator only; checked by the caller).

        New game options rebuild the starting position (refused if the game refuses them) and
        clear every ready flag, since players agreed to the old ones.
        """
        if options is not None:
            if self.started:
                raise ProtocolError(ErrorCode.ALREADY_STARTED, "the game has already started")
            self.state = _new_state(self.game, self.players, dict(options), self.seed)
            self.options = dict(options)
            self.replay.options = dict(options)
            for seat in self.seats:
                if seat.kind == HUMAN:
                    seat.ready = False
        if name is not None:
            self.settings.name = name
        if allow_hints is not None:
            self.settings.allow_hints = allow_hints
        if bot_delay_ms is not None:
            self.settings.bot_delay_ms = bot_delay_ms

    def start_problem(self, by_seat: Seat | None = None, need_ready: bool = True) -> str:
        """Why the game cannot start now ("" if it can).

        Every seat must be taken and every human connected; with ``need_ready`` every human
        must also be ready, except ``by_seat`` (the creator, whose "start" says so).
        """
        if self.started:
            return "the game has already started"
        open_seats = [s.index + 1 for s in self.seats if s.kind == OPEN]
        if open_seats:
            return "seats still open: " + ", ".join(map(str, open_seats))
        away = [s.name for s in self.seats if s.kind == HUMAN and not s.connected]
        if away:
            return "not connected: " + ", ".join(away)
        unready = [
            s.name
            for s in self.seats
            if need_ready and s.kind == HUMAN and not s.ready and s.index != by_seat
        ]
        if unready:
            return "not ready yet: " + ", ".join(unready)
        return ""

    def start(self) -> None:
        """Begin play (the caller checked :meth:`start_problem`)."""
        self.started = True
        self.seq = 0
        self.replay.seats = self.seat_records()
        self._set_barrier("nothing has been played yet")
        self._refresh_decisions()

    # ---- play -----------------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.started and self.state.is_over()

    def act(self, seat: Seat | None, seq: int, action: Action) -> list[Event]:
        """Check and apply ``action`` for ``seat`` (see the module docstring); return events."""
        self._check_playing(seat, seq)
        assert seat is not None
        if seat not in self.state.to_move():
            raise ProtocolError(ErrorCode.NOT_YOUR_TURN, self._whose_turn())
        self._check_fresh(seat, seq)
        turn = self.state.turn_id()
        movers = len(self.state.to_move())
        try:
            events = self.state.apply(seat, action)
        except IllegalAction as exc:
            raise ProtocolError(ErrorCode.ILLEGAL, str(exc), reason=exc.reason()) from None
        except Exception as exc:
            # A bug in a rules engine must not leave the table half-changed: rebuild it.  The
            # error's own words stay in the host's log (they may quote the hidden state).
            self.state = self._replayed(self._tail())[0]
            log.exception(
                "table %s: the engine failed on %r by seat %s", self.table_id, action, seat
            )
            raise ProtocolError(
                ErrorCode.INTERNAL,
                f"the host could not apply {action!r} (a {type(exc).__name__} in the rules "
                "engine, see its log); the game is unchanged",
            ) from exc
        self.replay.actions.append((seat, tuple(action)))
        self.seq += 1
        self._acted[seat] = self._acted.get(seat, 0) + 1
        self.last_move = move_of(self.state, seat, action, events, turn if movers > 1 else None)
        if self.state.is_over():
            self._set_barrier("the game is over")
            self.replay.final_hash = self.state.state_hash()
        elif any(ev.get("reveal") for ev in events):
            self._set_barrier("hidden information was revealed since then")
        elif self.state.turn_id() != turn:
            self._set_barrier("the turn has passed")
        self._refresh_decisions()
        return events

    def undo(self, seat: Seat | None, seq: int, whole_turn: bool = False) -> int:
        """Take back ``seat``'s last action of the current turn — or, with ``whole_turn``, all
        of them ("restart turn") — keeping other seats' actions (see the module docstring).

        Returns the index from which the recorded actions changed (for the save's journal)."""
        self._check_playing(seat, seq)
        assert seat is not None
        self._check_fresh(seat, seq)
        tail = self._tail()
        own = [i for i, (s, _a) in enumerate(tail) if s == seat]
        if not own:
            if tail:
                raise ProtocolError(
                    ErrorCode.UNDO_REFUSED, "you have made no move to take back in this turn"
                )
            raise ProtocolError(ErrorCode.UNDO_REFUSED, f"nothing left to undo: {self._undo_block}")
        drop = set(own) if whole_turn else {own[-1]}
        kept = [entry for i, entry in enumerate(tail) if i not in drop]
        try:
            state, last = self._replayed(kept)
        except GameError:
            raise ProtocolError(
                ErrorCode.UNDO_REFUSED,
                "another player's later choice depends on that move; it cannot be taken back",
            ) from None
        self.state = state
        del self.replay.actions[self._barrier_actions :]
        self.replay.actions.extend(kept)
        self.seq += 1
        self._acted[seat] = self._acted.get(seat, 0) + 1
        self.last_move = last if kept else self._barrier_move
        self._refresh_decisions()
        return self._barrier_actions

    def check_hint(self, seat: Seat | None, seq: int) -> None:
        """Refuse a hint unless the table allows hints, the game runs, ``seq`` is at the seat's
        current decision and ``seat`` is to move (a hint is advice for the seat's own decision)."""
        if not self.settings.allow_hints:
            raise ProtocolError(
                ErrorCode.HINTS_OFF,
                "hints are off at this table (its creator can allow them in the lobby)",
            )
        self._check_playing(seat, seq)
        assert seat is not None
        if seat not in self.state.to_move():
            raise ProtocolError(
                ErrorCode.NOT_YOUR_TURN, "hints are for your own turn; " + self._whose_turn()
            )
        self._check_fresh(seat, seq)

    def explain(self, seat: Seat | None, seq: int, action: Action) -> dict[str, Any] | None:
        """Why ``seat`` may not take ``action`` now (``IllegalAction.reason()``), or ``None``
        if it may — what a pointer over a board element shows.  Changes nothing."""
        self._check_playing(seat, seq)
        assert seat is not None
        if seq > self.seq:
            raise ProtocolError(ErrorCode.STALE, f"seq {seq} is ahead of the table ({self.seq})")
        try:
            refusal = self.state.why_not(seat, action)
        except Exception as exc:  # an engine bug must not cost the table
            log.exception("table %s: the engine failed to explain %r", self.table_id, action)
            raise ProtocolError(
                ErrorCode.INTERNAL,
                f"the host could not explain {action!r} (a {type(exc).__name__}, see its log)",
            ) from exc
        return None if refusal is None else refusal.reason()

    def can_undo(self, seat: Seat | None) -> bool:
        """Whether ``seat`` has an action it may take back now."""
        if seat is None or not self.started or self.state.is_over():
            return False
        return any(s == seat for s, _a in self._tail())

    def decision_seq(self, seat: Seat) -> int:
        """The ``seq`` at which ``seat``'s current decision began (see the module docstring)."""
        entry = self._decisions.get(seat)
        return entry[1] if entry is not None else self.seq

    def legal(self, seat: Seat | None) -> list[Action]:
        """``seat``'s legal actions now (cached per position; empty for spectators)."""
        if seat is None or not self.started:
            return []
        cached_seq, lists = self._legal
        if cached_seq != self.seq:
            lists = {}
            self._legal = (self.seq, lists)
        legal = lists.get(seat)
        if legal is None:
            to_move = self.state.to_move()
            legal = lists[seat] = self.state.legal_actions(seat) if seat in to_move else []
        return legal

    def waiting_seats(self) -> list[Seat]:
        """Seats the game waits for: to move, but open or with their player disconnected."""
        if not self.started or self.state.is_over():
            return []
        return [
            s
            for s in self.state.to_move()
            if self.seats[s].kind == OPEN
            or (self.seats[s].kind == HUMAN and not self.seats[s].connected)
        ]

    def bot_seats_to_move(self) -> Iterator[Seat]:
        if not self.started or self.closed or self.state.is_over():
            return
        for s in self.state.to_move():
            if self.seats[s].kind == BOT:
                yield s

    # ---- messages ---------------------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        """The table as listed by ``tables`` (and LAN discovery beacons)."""
        return {
            "table": self.table_id,
            "game": self.game.id,
            "title": self.game.title,
            "name": self.settings.name or self.game.title,
            "players": self.players,
            "open": sum(1 for s in self.seats if s.kind == OPEN),
            "humans": sum(1 for s in self.seats if s.kind == HUMAN),
            "bots": sum(1 for s in self.seats if s.kind == BOT),
            "spectators": len(self.spectators),
            "started": self.started,
            "over": self.over,
        }

    def lobby_message(self, local: bool = False) -> dict[str, Any]:
        """The lobby as every member sees it.  A seed fixed by whoever opened the table is
        shown to members on this computer (``local``: hot-seat, the tools that fixed it); over
        the network it decides every hidden card, so a remote member sees it only once the game
        is over (as in ``game_over``)."""
        shown = self.fixed_seed and (local or self.over)
        return {
            "t": "lobby",
            "table": self.table_id,
            "game": self.game.id,
            "title": self.game.title,
            "players": self.players,
            "options": to_plain(self.options),
            "settings": self.settings.public(),
            "seats": [s.public() for s in self.seats],
            "spectators": len(self.spectators),
            "started": self.started,
            "over": self.over,
            "seq": self.seq,
            "seed": self.seed if shown else None,
            "bots": bot_names(),
            "colours": list(COLOURS),
            "can_start": self.start_problem() == "",
            "owner_seat": self.owner_seat(),
        }

    def state_message(self, seat: Seat | None, events: list[Event]) -> dict[str, Any]:
        """What ``seat`` (``None``: a spectator) receives after a change: its view only."""
        state = self.state
        to_move = list(state.to_move())
        return {
            "t": "state",
            "table": self.table_id,
            "seq": self.seq,
            "turn": state.turn_id(),
            "decision": self.decision_seq(seat) if seat is not None else None,
            "view": state.shared_view(seat),  # encoded at once by the caller
            "events": state.visible_events(events, seat),
            "to_move": to_move,
            "legal": self.legal(seat),
            "last_action": self.last_action_for(seat),
            "can_undo": self.can_undo(seat),
            "over": state.is_over(),
            "waiting": self.waiting_seats(),
        }

    def last_action_for(self, seat: Seat | None) -> dict[str, Any] | None:
        """``{seat, action, text}`` of the last applied action as ``seat`` may know it
        (:func:`net.moves.record_for`: the action only to its maker and to seats that saw all of
        its events, never while it is an unresolved commitment of a simultaneous phase)."""
        return record_for(self.last_move, seat, self.state)

    def game_over_message(self) -> dict[str, Any]:
        """The final result (the seed is public now: the game can be replayed)."""
        return {
            "t": "game_over",
            "table": self.table_id,
            "game": self.game.id,
            "seed": self.seed,
            "players": self.players,
            "scores": self.state.scores(),
            "winners": self.state.winners(),
            "actions": len(self.replay.actions),
            "seats": [s.public() for s in self.seats],
        }

    def waiting_message(self) -> dict[str, Any]:
        seats = [{"seat": s, "name": self.seats[s].name} for s in self.waiting_seats()]
        first = seats[0] if seats else {"seat": None, "name": None}
        return {"t": "waiting", "table": self.table_id, "seats": seats, **first}

    def seat_records(self) -> list[dict[str, Any]]:
        """Who sat where, as stored in the save file — with each seat's token and the creator's
        mark, so a LAN table continued from its save takes its players back (the file stays on
        the host's computer; tools that print a save leave these two fields out)."""
        records = []
        for s in self.seats:
            record: dict[str, Any] = {
                "name": s.name,
                "kind": s.kind,
                "bot": s.bot,
                "colour": s.colour,
            }
            if s.token is not None:
                record["token"] = s.token
                if self.is_creator(s.token):
                    record["creator"] = True
            records.append(record)
        return records

    def record(self) -> Replay:
        """A copy of the match record (seed, options, seats, every action so far)."""
        self.replay.seats = self.seat_records()
        return Replay(
            game=self.replay.game,
            players=self.replay.players,
            seed=self.replay.seed,
            options=dict(self.replay.options),
            rules_version=self.replay.rules_version,
            seats=self.seat_records(),
            actions=list(self.replay.actions),
            final_hash=self.replay.final_hash,
        )

    def save_bytes(self) -> bytes:
        """The autosave file: the replay format of :class:`~game.core.match.Replay`."""
        return self.record().to_bytes()

    def bot_of(self, seat: Seat) -> str | None:
        info = self.seats[seat]
        return info.bot if info.kind == BOT else None

    # ---- helpers ------------------------------------------------------------------------------
    def _check_playing(self, seat: Seat | None, seq: int) -> None:
        if seat is None:
            raise ProtocolError(ErrorCode.NOT_SEATED, "spectators cannot play")
        if not self.started:
            raise ProtocolError(ErrorCode.NOT_STARTED, "the game has not started yet")
        if self.state.is_over():
            raise ProtocolError(ErrorCode.GAME_OVER, "the game is over")

    def _whose_turn(self) -> str:
        names = [self.seats[s].name or f"seat {s + 1}" for s in self.state.to_move()]
        return "it is not your turn; waiting for " + " and ".join(names)

    def _check_fresh(self, seat: Seat, seq: int) -> None:
        began = self.decision_seq(seat)
        if not began <= seq <= self.seq:
            raise ProtocolError(
                ErrorCode.STALE,
                f"that was chosen in an older position (seq {seq}; your current decision began "
                f"at {began}, now {self.seq}); the current one has been sent",
            )

    def _tail(self) -> list[tuple[Seat, Action]]:
        """The actions since the undo barrier."""
        return self.replay.actions[self._barrier_actions :]

    def _set_barrier(self, reason: str) -> None:
        """Nothing before this point can be undone any more (a turn ended, a reveal, ...)."""
        self._barrier = self.state.clone()
        self._barrier_actions = len(self.replay.actions)
        self._barrier_move = self.last_move
        self._undo_block = reason

    def _replayed(self, actions: list[tuple[Seat, Action]]) -> tuple[GameState, Move | None]:
        """The barrier state with ``actions`` applied again, each checked (raises GameError),
        and the last of them as a :class:`Move` (``None`` when there are none)."""
        assert self._barrier is not None
        state = self._barrier.clone()
        last = None
        for seat, action in actions:
            turn, movers = state.turn_id(), len(state.to_move())
            events = state.apply(seat, action)
            last = (seat, action, events, turn if movers > 1 else None)
        return state, None if last is None else move_of(state, *last)

    def _refresh_decisions(self) -> None:
        """Start a new decision for every seat whose options, turn or own moves changed."""
        turn = self.state.turn_id()
        for seat in range(self.players):
            key = (turn, self._acted.get(seat, 0), hash(tuple(self.legal(seat))))
            entry = self._decisions.get(seat)
            if entry is None or entry[0] != key:
                self._decisions[seat] = (key, self.seq)


def _game(game_id: str) -> Game:
    try:
        return get_game(game_id)
    except UnknownGame as exc:
        raise ProtocolError(ErrorCode.UNKNOWN_GAME, str(exc)) from None


def _new_state(game: Game, players: int, options: dict[str, Any], seed: int) -> GameState:
    try:
        return game.new(players, options, seed)
    except (BadOptions, GameError, ValueError, TypeError, KeyError) as exc:
        raise ProtocolError(
            ErrorCode.BAD_OPTIONS, f"{game.title} refuses these options: {exc}"
        ) from None
