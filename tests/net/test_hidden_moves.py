"""What each seat learns of the last action (issue 19, leak A): ``last_action`` is per seat.

``Session.last_action_for`` names an action only to its maker and to seats that saw all of its
events; a commitment of a simultaneous phase stays its maker's until the phase resolves,
whatever events the game made.  Through a real host, a seat cannot commit, read another seat's
choice, take its own back and choose again (the undo abuse of issue 19).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from game.core.match import Replay
from game.core.registry import get_game
from game.core.rng import Rng
from net import host_messages, protocol
from net.moves import HIDDEN_MOVE
from net.session import Session
from tests.conformance.game_secrets import hooks_of
from tests.conformance.leaks import Index
from tests.net.helpers import hello_frame, raw_connection, read_one, run, tcp_host
from tests.testgame import BidRaceState


def table(game_id: str, players: int = 3, **options: Any) -> Session:
    session = Session.create("t1", game_id, players, options, seed=11)
    for seat in range(players):
        session.seat_human(seat, f"P{seat}")
    session.start()
    return session


def act(s: Session, seat: int, *action: Any) -> None:
    s.act(seat, s.seq, tuple(action))


def hidden(seat: int) -> dict[str, Any]:
    return {"seat": seat, "action": None, "text": HIDDEN_MOVE}


# ---- the session ----------------------------------------------------------------------------
def test_a_sealed_bid_is_its_makers_alone_until_the_reveal(bid_race: str) -> None:
    """Rule 3: seat 0's bid (a private event) and its seal (a commitment of the simultaneous
    phase) reach only seat 0; the others and a spectator learn that seat 0 moved."""
    s = table(bid_race)
    act(s, 0, "bid", 2)
    assert s.last_action_for(0) == {"seat": 0, "action": ["bid", 2], "text": "bid 2"}
    for other in (1, 2, None):
        assert s.last_action_for(other) == hidden(0)
        assert s.state_message(other, [])["last_action"] == hidden(0)
        # a client's check takes the record without an action (protocol: "may be null")
        checked = host_messages.validate_host(
            protocol.decode(protocol.encode(s.state_message(other, []))[4:])
        )
        assert checked["last_action"] == hidden(0)
    act(s, 0, "seal")  # no private event, but the phase has not resolved
    assert [s.last_action_for(x) for x in (1, 2, None)] == [hidden(0)] * 3
    act(s, 1, "bid", 0)
    act(s, 1, "seal")
    act(s, 2, "bid", 3)
    act(s, 2, "seal")  # the last seal resolves the phase: its events are all public
    shown = {"seat": 2, "action": ["seal"], "text": "seal"}
    assert [s.last_action_for(x) for x in (0, 1, 2, None)] == [shown] * 4


def test_a_private_draw_hides_the_record_from_the_others(bid_race: str) -> None:
    """A dash draws a card only its seat sees: the others get the record without the action
    (they see what happened publicly in the events)."""
    s = table(bid_race, 2)
    for seat in (0, 1):
        act(s, seat, "bid", 0)
        act(s, seat, "seal")
    mover = s.state.to_move()[0]
    events = s.act(mover, s.seq, ("dash",))
    assert any(e.get("only") == [mover] for e in events)
    other = 1 - mover
    assert s.last_action_for(mover)["action"] == ["dash"]
    assert s.last_action_for(other) == hidden(mover) and s.last_action_for(None) == hidden(mover)
    seen = s.state.visible_events(events, other)
    assert seen and {"type": "dash", "seat": mover}.items() <= seen[0].items()


def test_an_undo_leaves_each_seat_its_own_record_of_the_move_before(bid_race: str) -> None:
    s = table(bid_race)
    act(s, 0, "bid", 1)
    act(s, 1, "bid", 3)
    s.undo(1, s.seq)  # seat 1 takes its bid back: the last move is seat 0's bid again
    assert s.last_action_for(0)["action"] == ["bid", 1]
    assert s.last_action_for(1) == hidden(0) and s.last_action_for(2) == hidden(0)
    s.undo(0, s.seq)
    assert s.last_move is None and s.state_message(2, [])["last_action"] is None


def test_a_resumed_table_keeps_a_commitment_hidden(bid_race: str) -> None:
    s = table(bid_race)
    act(s, 0, "bid", 2)
    act(s, 1, "bid", 1)
    back = Session.resume("t2", Replay.from_bytes(s.save_bytes()))
    assert back.last_action_for(1)["action"] == ["bid", 1]
    assert back.last_action_for(0) == hidden(1) and back.last_action_for(None) == hidden(1)


def test_a_game_that_forgets_to_mark_a_commitment_private_still_hides_it(
    bid_race: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The protection lives in the session: a simultaneous commitment is its maker's until the
    phase resolves even when the engine's event for it carries no ``"only"``."""
    real = BidRaceState._apply

    def careless(self: BidRaceState, seat: int, action: Any) -> Any:
        return [{k: v for k, v in e.items() if k != "only"} for e in real(self, seat, action)]

    monkeypatch.setattr(BidRaceState, "_apply", careless)
    s = table(bid_race)
    act(s, 0, "bid", 3)
    assert s.last_action_for(1) == hidden(0) and s.last_action_for(None) == hidden(0)
    assert s.last_action_for(0)["action"] == ["bid", 3]


# ---- the undo abuse, through a TCP host ---------------------------------------------------------
class Raw:
    """A raw client: every frame decoded (nothing dropped by a schema check) and kept."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.frames: list[dict[str, Any]] = []

    async def send(self, msg: dict[str, Any]) -> None:
        self.writer.write(protocol.encode(msg))
        await self.writer.drain()

    async def next(self, kind: str, **want: Any) -> dict[str, Any]:
        while True:
            msg = await read_one(self.reader)
            self.frames.append(msg)
            if msg["t"] == kind and all(msg.get(k) == v for k, v in want.items()):
                return msg

    async def drain(self) -> None:
        """Read whatever arrives within a short while (the frames of others' moves)."""
        while True:
            try:
                self.frames.append(await read_one(self.reader, timeout=0.3))
            except TimeoutError:
                return


async def _seat(port_host: Any, table: str, seat: int) -> Raw:
    reader, writer = await raw_connection(port_host)
    writer.write(hello_frame())
    raw = Raw(reader, writer)
    await raw.next("welcome")
    await raw.send({"t": "join", "table": table, "seat": seat})
    await raw.next("joined")
    return raw


def _winter_pick_replay(players: int, seed: int) -> Replay:
    """A Keyflower game played at random up to its winter choice (every seat to choose)."""
    game = get_game("keyflower")
    state = game.new(players, {}, seed)
    rng = Rng(seed)
    actions: list[tuple[int, tuple[Any, ...]]] = []
    while state.view(None)["phase"] != "winter_pick":
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        action = legal[rng.randbelow(len(legal))]
        state.apply(seat, action)
        actions.append((seat, action))
    assert len(state.to_move()) == players
    return Replay(game="keyflower", players=players, seed=seed, options={},
                  rules_version=game.rules_version, actions=actions)  # fmt: skip


@pytest.mark.parametrize("players", [3])
def test_a_seat_cannot_read_a_winter_choice_then_take_its_own_back(players: int) -> None:
    """Issue 19's abuse: seat 0 commits its winter tiles, seat 1 commits, seat 0 reads what it
    received, takes its choice back and chooses again.  Nothing seat 0 received names seat 1's
    tiles (its hand, its choice) before the reveal."""

    async def body() -> None:
        async with tcp_host() as host:
            hub = host.hub
            session = hub.resume_table(_winter_pick_replay(players, 4), autostart=True)
            seats = [await _seat(host, session.table_id, s) for s in range(players)]
            first = await seats[0].next("state")
            await seats[0].send({"t": "action", "seq": first["seq"], "action": first["legal"][0]})
            await seats[0].next("state", seq=first["seq"] + 1)
            one = await seats[1].next("state", seq=first["seq"] + 1)
            pick = one["legal"][-1]
            await seats[1].send({"t": "action", "seq": one["seq"], "action": pick})
            await seats[0].next("state", seq=first["seq"] + 2)
            await seats[0].drain()
            secrets = hooks_of("keyflower").secrets(session.state, 0)
            assert any("seat 1's winter tile" in s.what for s in secrets)
            for frame in seats[0].frames:
                index = Index.of(frame)
                assert not [s.what for s in secrets if index.has(s)], frame
                assert not (frame["t"] == "state" and frame["last_action"]["action"] == pick)
            # The take-back and a new choice work as before; seat 1's choice stays.
            await seats[0].send({"t": "undo", "seq": first["seq"] + 2})
            undone = await seats[0].next("state", seq=first["seq"] + 3)
            assert undone["legal"] and session.state.view(1)["seats"][1]["winter_pick"]
            await seats[0].send(
                {"t": "action", "seq": undone["seq"], "action": undone["legal"][-1]}
            )
            await seats[0].next("state", seq=first["seq"] + 4)
            for raw in seats:
                raw.writer.close()

    run(body, timeout=60)


def test_a_seed_fixed_at_the_host_reaches_lan_players_only_at_the_end(bid_race: str) -> None:
    """``lantern host --seed`` fixes a table's seed; a player on the network sees it in the
    lobby only once the game is over (it decides every hidden card)."""

    async def body() -> None:
        async with tcp_host() as host:
            table = host.hub.create_table(
                bid_race, 2, {"rounds": 1}, seed=424242, pinned=True, autostart=True
            )
            seats = [await _seat(host, table.table_id, s) for s in range(2)]
            lobby = await seats[1].next("lobby")
            assert lobby["seed"] is None and table.lobby_message(local=True)["seed"] == 424242
            while not table.over:  # play it out at the session, then look at the lobby again
                seat = table.state.to_move()[0]
                host.hub._apply(table, seat, table.seq, table.legal(seat)[-1])
            host.hub._broadcast_lobby(table)
            assert (await seats[1].next("lobby", over=True))["seed"] == 424242
            assert all(
                f["seed"] is None for f in seats[1].frames if f["t"] == "lobby" and not f["over"]
            )
            for raw in seats:
                raw.writer.close()

    run(body, timeout=30)
