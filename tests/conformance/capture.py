"""Whole games through a real host on 127.0.0.1, every frame every member receives, and the
truth behind every position — what the capture test (``test_capture.py``) searches.

:func:`capture` opens a :class:`~net.host.TcpHost` (the real hub and sessions, autosaves on)
on a free loopback port, a table of the game with a fixed seed, hints allowed and autostart,
and connects a spectator and one raw client per seat over TCP.  The clients play random legal
actions and, along the way, do what a curious player's program would: ask for ``sample``\\ s
(also while another seat is in the middle of its turn), ``explain`` and ``hint``, take moves
back (also a commitment of a simultaneous phase), ask for a fresh snapshot, chat.  Every frame
is read off the socket and decoded with :func:`net.protocol.decode` only — nothing is dropped
by a client's schema check — and kept with the seat that received it and the position
(``seq``) at which it was sent.

The hub's ``on_change`` hook records the truth at every position: a copy of the full state,
the events of the change (with their ``"only"`` marks), the action and who took it.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.core.api import GameState
from game.core.rng import Rng
from game.core.types import Action, Event, Seat
from net import protocol
from net.host import HostConfig, TcpHost
from net.hub import Hub
from net.protocol import PROTOCOL_VERSION
from net.session import Session
from tests.conformance.leaks import Secret, item, value
from tests.conformance.leaks import acted as acted_secret

LOOPBACK = "127.0.0.1"
#: Most undos one seat sends in a game (each takes a move back, so play still ends).
MAX_UNDOS = 6
#: The shortest description of a private action searched for as text.
MIN_TEXT = 16


@dataclass
class Received:
    """One frame as a member received it."""

    who: Seat | None  # the receiving seat (None: the spectator)
    seq: int  # the table's position when it was sent (-1: before the start)
    msg: dict[str, Any]


@dataclass
class Position:
    """The truth after one change of the table (the start, an action or an undo)."""

    seq: int
    state: GameState
    events: list[Event]
    actor: Seat | None  # who acted (None: the start, or an undo)
    action: Action | None
    turn_before: int
    movers_before: tuple[Seat, ...]


@dataclass
class Capture:
    """Everything one captured game gives the checks."""

    game_id: str
    players: int
    seed: int
    table_id: str
    tokens: dict[Seat | None, str] = field(default_factory=dict)
    save_path: Path | None = None
    positions: dict[int, Position] = field(default_factory=dict)
    frames: list[Received] = field(default_factory=list)
    rng_states: set[int] = field(default_factory=set)
    over: bool = False
    #: What the clients did (the test checks that each kind really happened).
    did: dict[str, int] = field(default_factory=dict)

    def count(self, what: str) -> None:
        self.did[what] = self.did.get(what, 0) + 1

    def observers(self) -> list[Seat | None]:
        return [*range(self.players), None]

    def position(self, seq: int) -> Position:
        return self.positions[max(seq, 0)]

    def mid_turn(self, seq: int) -> Seat | None:
        """The seat in the middle of a turn of several steps at ``seq``: it acted last, its
        turn goes on and it is still to move (``None`` if there is none)."""
        position = self.positions.get(seq)
        if position is None or position.actor is None:
            return None
        state = position.state
        if state.turn_id() == position.turn_before and position.actor in state.to_move():
            return position.actor
        return None

    # ---- what every game shares ---------------------------------------------------------
    def shared_secrets(self, seq: int, observer: Seat | None) -> list[Secret]:
        """Tokens of the others, every RNG state of the game, the seed until the end, the save
        file, and other seats' private events and private actions (see the module docs)."""
        out: list[Secret] = []
        for who, token in self.tokens.items():
            if who != observer:
                name = "the spectator" if who is None else f"seat {who}"
                out.append(value(f"{name}'s token", token))
        out += [value("a state of the game's random generator", r) for r in self.rng_states]
        position = self.position(seq)
        if not position.state.is_over():
            out.append(value("the table's seed (secret until the end)", self.seed))
        if self.save_path is not None:
            out.append(value("the autosave's path", str(self.save_path)))
            out.append(value("the autosave's file name", self.save_path.name))
            out.append(value("the save folder", str(self.save_path.parent)))
        out += self._private_moves(seq, observer)
        return out

    def _private_moves(self, seq: int, observer: Seat | None) -> list[Secret]:
        """Other seats' private events up to ``seq`` (their content stays secret), and their
        actions that made such events while the turn they were made in goes on."""
        out: list[Secret] = []
        turn_now = self.position(seq).state.turn_id()
        for j in range(1, seq + 1):
            position = self.positions.get(j)
            if position is None or position.actor is None or position.actor == observer:
                continue
            hidden = [
                ev
                for ev in position.events
                if "only" in ev and (observer is None or observer not in ev["only"])
            ]
            for ev in hidden:
                entries = {k: v for k, v in ev.items() if k not in ("only", "reveal")}
                out.append(item(f"seat {position.actor}'s private event {entries}", entries))
            if hidden and position.action is not None and turn_now == position.turn_before:
                what = (
                    f"seat {position.actor}'s private action {list(position.action)} "
                    f"(seq {j}, before its phase resolved)"
                )
                out.append(acted_secret(what, position.actor, position.action))
                text = position.state.describe(position.action)
                if len(text) >= MIN_TEXT:  # a short text ("bid 2") may be anyone's
                    out.append(value(f"the words of {what}: {text!r}", text))
        return out


class _Member:
    """One raw TCP client: reads and decodes every frame, plays at random."""

    def __init__(
        self,
        cap: Capture,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        rng: Any,
        seat: Seat | None,
    ) -> None:
        self.cap = cap
        self.reader = reader
        self.writer = writer
        self.rng = rng
        self.seat = seat  # the seat it joins (None: the spectator)
        self.seq = -1
        self.decided: int | None = None
        self.undos = 0
        self.hints = 0
        self.snapshots = 0
        self.done = False

    async def send(self, msg: dict[str, Any]) -> None:
        self.writer.write(protocol.encode(msg))
        await self.writer.drain()

    async def read(self) -> dict[str, Any]:
        header = await self.reader.readexactly(protocol.HEADER_BYTES)
        length = protocol.frame_length(header, protocol.MAX_FRAME)
        body = await self.reader.readexactly(length)
        msg = protocol.decode(body, protocol.MAX_FRAME)
        if msg.get("t") == "state":
            self.seq = msg["seq"]
        self.cap.frames.append(Received(self.seat, self.seq, msg))
        return msg

    async def expect(self, kind: str) -> dict[str, Any]:
        while True:
            msg = await self.read()
            if msg.get("t") == kind:
                return msg

    async def play(self) -> None:
        """Read and answer frames until the game is over (the spectator only watches, and
        tries what a spectator may not do once)."""
        if self.seat is None:
            await self.send({"t": "sample", "seq": 0})
            await self.send({"t": "hint", "seq": 0})
        while not self.done:
            msg = await self.read()
            kind = msg.get("t")
            if kind == "game_over":
                self.done = True
            elif kind == "state" and self.seat is not None and not msg["over"]:
                await self._on_state(msg)

    async def _on_state(self, msg: dict[str, Any]) -> None:
        seq, rng, cap = msg["seq"], self.rng, self.cap
        mine = self.seat in msg["to_move"] and msg["legal"]
        if rng.random() < 0.2:
            cap.count("sample")
            if not mine:
                cap.count("sample while another seat decides")
            await self.send({"t": "sample", "seq": seq})
        if msg["can_undo"] and not mine and self.undos < MAX_UNDOS and rng.random() < 0.3:
            self.undos += 1
            cap.count("undo of a commitment while others decide")
            await self.send({"t": "undo", "seq": seq})
            return
        if not mine or msg["decision"] == self.decided:
            return
        self.decided = msg["decision"]
        legal = msg["legal"]
        if rng.random() < 0.1:
            cap.count("explain")
            await self.send({"t": "explain", "seq": seq, "action": rng.choice(legal)})
            await self.send({"t": "explain", "seq": seq, "action": ["no_such_move", 1]})
        if self.hints < 1 and rng.random() < 0.05:
            self.hints += 1
            cap.count("hint")
            await self.send({"t": "hint", "seq": seq})
        if self.snapshots < 1 and rng.random() < 0.03:
            self.snapshots += 1
            cap.count("snapshot")
            await self.send({"t": "join", "table": cap.table_id, "token": cap.tokens[self.seat]})
        if msg["can_undo"] and self.undos < MAX_UNDOS and rng.random() < 0.1:
            self.undos += 1
            self.decided = None
            cap.count("undo")
            await self.send({"t": "undo", "seq": seq, "turn": rng.random() < 0.3})
            return
        await self.send({"t": "action", "seq": seq, "action": rng.choice(legal)})

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(Exception):
            await self.writer.wait_closed()


async def _connect(cap: Capture, port: int, rng: Any, name: str, seat: Seat | None) -> _Member:
    reader, writer = await asyncio.open_connection(LOOPBACK, port, limit=protocol.MAX_FRAME * 2)
    member = _Member(cap, reader, writer, rng, seat)
    await member.send({"t": "hello", "version": PROTOCOL_VERSION, "name": name})
    await member.expect("welcome")
    return member


def _rng_of(state: GameState) -> Rng:
    rngs = [v for v in vars(state).values() if isinstance(v, Rng)]
    assert len(rngs) == 1, "the contract: one Rng inside the state"
    return rngs[0]


async def _capture(
    game_id: str,
    players: int,
    seed: int,
    save_dir: Path,
    options: dict[str, Any] | None,
    max_actions: int | None,
) -> Capture:
    hub = Hub(save_dir=save_dir, autosave=True, allow_hints=True)
    host = TcpHost(hub, HostConfig(bind=LOOPBACK, port=0, rate=1e6, burst=1e6))
    await host.start()
    members: list[_Member] = []
    try:
        table = hub.create_table(
            game_id, players, options, seed=seed, allow_hints=True, autostart=True, pinned=True
        )
        cap = Capture(game_id, players, seed, table.table_id)
        cap.save_path = hub.save_path(table.table_id)
        cap.rng_states.add(_rng_of(table.state).state)

        def on_change(session: Session, events: list[Event]) -> None:
            if session is not table:
                return
            before = cap.positions.get(session.seq - 1)
            undo = bool(events) and events[0].get("type") == "undo"
            actor, action = (None, None)
            if session.seq > 0 and not undo and session.replay.actions:
                actor, action = session.replay.actions[-1]
            state = session.state.clone()
            cap.positions[session.seq] = Position(
                session.seq,
                state,
                [dict(e) for e in events],
                actor,
                action,
                before.state.turn_id() if before else state.turn_id(),
                tuple(before.state.to_move()) if before else (),
            )
            cap.rng_states.add(_rng_of(state).state)
            cap.over = session.over

        hub.on_change.append(on_change)
        spectator = await _connect(cap, host.port, random.Random(seed), "Watcher", None)
        await spectator.send({"t": "join", "table": table.table_id, "spectate": True})
        joined = await spectator.expect("joined")
        cap.tokens[None] = joined["token"]
        members.append(spectator)
        for s in range(players):
            member = await _connect(cap, host.port, random.Random(seed * 31 + s), f"P{s}", s)
            await member.send({"t": "join", "table": table.table_id, "seat": s})
            joined = await member.expect("joined")
            assert joined["seat"] == s
            cap.tokens[s] = joined["token"]
            members.append(member)
        await members[1].send({"t": "chat", "text": "good luck"})
        plays = [asyncio.ensure_future(m.play()) for m in members]
        if max_actions is None:
            await asyncio.gather(*plays)
        else:
            while not cap.over and len(table.replay.actions) < max_actions:
                done = [p for p in plays if p.done()]
                for p in done:
                    p.result()  # a client that failed fails the capture
                await asyncio.sleep(0.01)
            for p in plays:
                p.cancel()
            await asyncio.gather(*plays, return_exceptions=True)
        return cap
    finally:
        for m in members:
            await m.close()
        await host.stop()
        hub.shutdown()


def capture(
    game_id: str,
    players: int,
    seed: int,
    save_dir: Path,
    options: dict[str, Any] | None = None,
    max_actions: int | None = None,
    timeout: float = 240.0,
) -> Capture:
    """Play one whole game (or its first ``max_actions`` actions) through a TCP host and
    return what every member received (see the module docstring)."""

    async def main() -> Capture:
        return await asyncio.wait_for(
            _capture(game_id, players, seed, save_dir, options, max_actions), timeout
        )

    return asyncio.run(main())
