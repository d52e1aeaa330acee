"""Complete games of every registered game through a TCP host on 127.0.0.1.

Every game in ``game.core.registry.game_ids()`` is covered automatically (plus the shared test
game "Bid and Race", ``tests/testgame``, with its simultaneous sealed bids): four clients play a whole game and must end with the host's final scores; each
seat's frames must hold exactly ``view(state, seat)`` and the events it may see; a client that
drops mid-game comes back with its token and finishes the game.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Any

import pytest

from game.core.registry import game_ids, get_game
from game.core.rng import derive_seed
from game.core.types import Event
from game.core.wire import to_plain
from net.protocol import ErrorCode
from net.session import Session
from tests.net.helpers import Player, connect, run, start_game, tcp_host
from tests.testgame import GAME_ID as TEST_GAME

GAMES = [*game_ids(), TEST_GAME]


@pytest.fixture(params=GAMES)
def game_id(request: pytest.FixtureRequest) -> Iterator[str]:
    if request.param == TEST_GAME:
        request.getfixturevalue("bid_race")
    yield request.param


def seats_for(game_id: str) -> int:
    game = get_game(game_id)
    return max(game.min_players, min(4, game.max_players))


class Recorder:
    """What the host sent, per seq: each seat's view and visible events (from the real state)."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.views: dict[int, dict[int | None, Any]] = {}
        self.events: dict[int, dict[int | None, list[Event]]] = {}
        self.private: dict[int, list[Event]] = {}
        self.leaks: list[str] = []

    def __call__(self, table: Session, events: list[Event]) -> None:
        state = table.state
        seq = table.seq
        seats: list[int | None] = [*range(self.players), None]
        self.views[seq] = {s: to_plain(state.view(s)) for s in seats}
        self.events[seq] = {s: to_plain(state.visible_events(events, s)) for s in seats}
        self.private[seq] = [e for e in events if "only" in e]
        # A view must not depend on anything hidden from its seat: resampling the hidden
        # part of the state (determinize) must leave the seat's view unchanged.
        for s in seats:
            world = state.determinize(s, derive_seed(seq, "secrecy", -1 if s is None else s))
            if to_plain(world.view(s)) != self.views[seq][s]:
                self.leaks.append(f"the view of seat {s} at seq {seq} depends on hidden state")


def test_complete_games_end_alike_for_every_client(game_id: str) -> None:
    async def body() -> None:
        async with tcp_host() as host:
            n = seats_for(game_id)
            recorder = Recorder(n)
            host.hub.on_change.append(recorder)
            table_id, players = await start_game(host, game_id, n, seed=3)
            watcher = await connect(host, "Watcher")
            await watcher.send({"t": "join", "table": table_id, "spectate": True})
            spectator = Player(watcher, 0)
            spectator.seat = None
            results = await asyncio.gather(*(p.play() for p in players), spectator.play())
            table = host.hub.tables[table_id]
            assert table.over
            assert recorder.leaks == []
            final = table.state.scores()
            for result in results:
                assert result is not None
                assert result["scores"] == final
                assert result["winners"] == table.state.winners()
                assert result["seed"] == table.seed and result["actions"] == len(
                    table.replay.actions
                )
            assert table.replay.verify().state_hash() == table.state.state_hash()
            # Every frame a seat received is exactly its view at that seq, with its events.
            for p in [*players, spectator]:
                assert p.states, "no state received"
                for msg in p.states:
                    assert msg["view"] == recorder.views[msg["seq"]][p.seat]
                    if msg["events"]:
                        assert msg["events"] == recorder.events[msg["seq"]][p.seat]
                    assert all("only" not in e for e in msg["events"])
                    if p.seat is None or p.seat not in msg["to_move"]:
                        assert msg["legal"] == []
            # Private events reach only the seats they name.
            for p in [*players, spectator]:
                for msg in p.states:
                    for private in recorder.private.get(msg["seq"], []):
                        if p.seat not in private["only"]:
                            stripped = {k: v for k, v in to_plain(private).items() if k != "only"}
                            assert stripped not in msg["events"]
            for p in [*players, spectator]:
                await p.client.close()

    run(body, timeout=90)


def test_kingdom_builder_frames_hide_other_seats_cards() -> None:
    """KB spec: a seat's terrain card is visible to its owner only (``hand`` null for others)."""
    if "kingdom-builder" not in game_ids():
        pytest.skip("Kingdom Builder is not registered in this build")

    async def body() -> None:
        async with tcp_host() as host:
            _, players = await start_game(host, "kingdom-builder", 3, seed=9)
            results = await asyncio.gather(*(p.play() for p in players))
            assert all(r is not None for r in results)
            checked = 0
            for p in players:
                for msg in p.states:
                    for entry in msg["view"]["seats"]:
                        if entry["seat"] != p.seat:
                            assert entry["hand"] is None
                        elif not msg["over"]:
                            assert entry["hand"] is not None
                            checked += 1
                    for event in msg["events"]:
                        if event["type"] == "card":
                            assert event["seat"] == p.seat
            assert checked > 0
            for p in players:
                await p.client.close()

    run(body, timeout=60)


def test_a_dropped_client_reconnects_with_its_token(game_id: str) -> None:
    async def body() -> None:
        async with tcp_host() as host:
            n = seats_for(game_id)
            table_id, players = await start_game(host, game_id, n, seed=5)
            victim = players[1]
            others = [asyncio.create_task(p.play()) for p in players if p is not victim]
            await victim.play(stop_after=1)  # one action of its own, then it is killed
            victim.client.writer.transport.abort()
            table = host.hub.tables[table_id]
            for _ in range(500):  # the others play on until the game waits for seat 1
                if table.waiting_seats() == [1]:
                    break
                await asyncio.sleep(0.01)
            assert table.waiting_seats() == [1]
            assert not table.seats[1].connected and table.seats[1].token == victim.token
            # Somebody else cannot take the seat, with or without a made-up token.
            intruder = await connect(host, "Intruder")
            await intruder.send({"t": "join", "table": table_id, "seat": 1})
            assert (await intruder.expect("error"))["code"] == ErrorCode.SEAT_TAKEN
            await intruder.send({"t": "join", "table": table_id, "token": "not-the-token"})
            assert (await intruder.expect("error"))["code"] == ErrorCode.BAD_TOKEN
            # The player comes back: joined, lobby, and a full snapshot of its seat.
            back = await connect(host, "P1 again")
            await back.send({"t": "join", "table": table_id, "token": victim.token})
            joined = await back.expect("joined")
            assert (joined["seat"], joined["table"]) == (1, table_id)
            snapshot = await back.expect("state")
            assert snapshot["seq"] == table.seq
            assert snapshot["view"] == to_plain(table.state.view(1))
            assert snapshot["legal"] == to_plain(table.state.legal_actions(1))
            assert snapshot["events"] == []
            again = Player(back, 99)
            again.seat, again.token, again.table = 1, victim.token, table_id
            # Its first move comes from the snapshot it just got.
            await back.send({"t": "action", "seq": snapshot["seq"], "action": snapshot["legal"][0]})
            results = await asyncio.gather(again.play(), *others)
            final = table.state.scores()
            assert all(r is not None and r["scores"] == final for r in results)
            assert table.replay.verify().state_hash() == table.state.state_hash()
            for p in [*players, again]:
                with contextlib.suppress(Exception):
                    await p.client.close()
            await intruder.close()

    run(body, timeout=90)


def test_the_creator_hands_a_dropped_seat_to_a_bot_and_the_player_takes_it_back(
    bid_race: str,
) -> None:
    async def body() -> None:
        async with tcp_host() as host:
            table_id, players = await start_game(host, bid_race, 3, {"rounds": 4}, seed=1)
            owner, victim, third = players
            victim.client.writer.transport.abort()
            await asyncio.sleep(0.05)
            # Not the creator: refused.
            await third.client.send({"t": "set_seat", "seat": 1, "kind": "bot", "bot": "random"})
            assert (await third.client.expect("error"))["code"] == ErrorCode.NOT_OWNER
            await owner.client.send({"t": "set_seat", "seat": 1, "kind": "bot", "bot": "random"})
            table = host.hub.tables[table_id]
            play = [asyncio.create_task(owner.play()), asyncio.create_task(third.play())]
            for _ in range(500):
                if len(table.replay.actions) > 6:
                    break
                await asyncio.sleep(0.01)
            assert any(seat == 1 for seat, _ in table.replay.actions)  # the bot played seat 1
            back = await connect(host, "back")
            await back.send({"t": "join", "table": table_id, "token": victim.token})
            assert (await back.expect("joined"))["seat"] == 1
            assert table.seats[1].kind == "human"
            returned = Player(back, 7)
            returned.seat = 1
            results = await asyncio.gather(returned.play(), *play)
            assert all(r is not None and r["scores"] == table.state.scores() for r in results)
            for c in (owner.client, third.client, back):
                await c.close()

    run(body, timeout=60)


def test_several_tables_play_at_once(bid_race: str) -> None:
    async def body() -> None:
        async with tcp_host() as host:
            games = [
                await start_game(host, bid_race, 2 + i, {"rounds": 3}, seed=i) for i in range(3)
            ]
            bots = await connect(host, "Bots")
            await bots.send({"t": "create_table", "game": bid_race, "players": 3, "spectate": True})
            bot_table = (await bots.expect("joined"))["table"]
            for seat in range(3):
                await bots.send({"t": "set_seat", "seat": seat, "kind": "bot", "bot": "random"})
            await bots.send({"t": "start"})
            everyone = [p for _, ps in games for p in ps]
            results = await asyncio.gather(*(p.play() for p in everyone))
            over = await bots.expect("game_over", timeout=20)
            assert over["table"] == bot_table
            assert len(host.hub.tables) == 4
            for table_id, ps in games:
                final = host.hub.tables[table_id].state.scores()
                assert all(
                    r is not None and r["scores"] == final
                    for r, p in zip(results, everyone, strict=True)
                    if p in ps
                )
            for p in everyone:
                await p.client.close()
            await bots.close()

    run(body, timeout=60)


def test_lobby_errors_are_clear(bid_race: str) -> None:
    async def body() -> None:
        async with tcp_host() as host:
            a = await connect(host, "A")
            await a.send({"t": "create_table", "game": "chess", "players": 2})
            err = await a.expect("error")
            assert err["code"] == ErrorCode.UNKNOWN_GAME and "known games" in err["text"]
            await a.send(
                {"t": "create_table", "game": bid_race, "players": 2, "options": {"rounds": 0}}
            )
            assert (await a.expect("error"))["code"] == ErrorCode.BAD_OPTIONS
            await a.send({"t": "join", "table": "t99"})
            assert (await a.expect("error"))["code"] == ErrorCode.NO_TABLE
            await a.send({"t": "action", "seq": 0, "action": ["bid", 1]})
            assert (await a.expect("error"))["code"] == ErrorCode.NOT_AT_TABLE
            await a.send({"t": "create_table", "game": bid_race, "players": 2})
            table = (await a.expect("joined"))["table"]
            await a.send({"t": "start"})
            err = await a.expect("error")
            assert err["code"] == ErrorCode.NOT_READY and "seats still open: 2" in err["text"]
            await a.send({"t": "set_seat", "seat": 1, "kind": "bot", "bot": "nobody"})
            assert (await a.expect("error"))["code"] == ErrorCode.UNKNOWN_BOT
            b = await connect(host, "B")
            await b.send({"t": "join", "table": table})
            await b.expect("joined")
            await b.send({"t": "start"})
            assert (await b.expect("error"))["code"] == ErrorCode.NOT_OWNER
            await a.send({"t": "start"})
            err = await a.expect("error")
            assert err["code"] == ErrorCode.NOT_READY and "not ready yet: B" in err["text"]
            await b.send({"t": "chat", "text": "ready in a sec"})
            line = await a.expect("chat")
            assert (line["name"], line["seat"], line["text"]) == ("B", 1, "ready in a sec")
            await b.send({"t": "ready"})
            await b.expect("lobby")
            await a.send({"t": "start"})
            assert (await a.expect("state"))["seq"] == 0
            await b.send({"t": "join", "table": table})
            assert (await b.expect("error"))["code"] == ErrorCode.ALREADY_SEATED
            await a.close()
            await b.close()

    run(body, timeout=20)


def test_the_creators_rights_pass_on_when_it_leaves(bid_race: str) -> None:
    async def body() -> None:
        async with tcp_host() as host:
            a = await connect(host, "A")
            await a.send({"t": "create_table", "game": bid_race, "players": 2})
            table = (await a.expect("joined"))["table"]
            assert (await a.expect("lobby"))["owner_seat"] == 0
            await a.send({"t": "set_seat", "seat": 0, "kind": "bot", "bot": "random"})
            err = await a.expect("error")
            assert err["code"] == ErrorCode.NOT_ALLOWED and "leave the table" in err["text"]
            watcher = await connect(host, "W")
            await watcher.send({"t": "join", "table": table, "spectate": True})
            await watcher.expect("joined")
            b = await connect(host, "B")
            await b.send({"t": "join", "table": table})
            assert (await b.expect("joined"))["owner"] is False
            await a.send({"t": "leave"})
            await a.expect("left")
            promoted = await b.expect("joined")  # the seated player, not the spectator
            assert (promoted["owner"], promoted["seat"]) == (True, 1)
            lobby = await b.expect("lobby")
            assert lobby["owner_seat"] == 1 and lobby["seats"][0]["kind"] == "open"
            await b.send({"t": "set_seat", "seat": 0, "kind": "bot", "bot": "random"})
            await b.send({"t": "start"})
            assert (await b.expect("state"))["table"] == table  # it started
            for c in (a, b, watcher):
                await c.close()

    run(body, timeout=20)
