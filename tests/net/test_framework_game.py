"""The framework's test game through a real host on 127.0.0.1: simultaneous sealed bids,
consecutive turns of one seat, the automatic neutral figure and banked scores (``tests/testgame``).

Checks the host's rules for simultaneous choices (``docs/architecture.md`` rule 3 and
``net/session.py``): choices made at the same position all count; a seat takes back its own
commitment while others' stay; bots of several seats think at once without cancelling each
other; a seat that drops in the middle of the phase gets its half-made choice back.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import net.thinking as thinking_module
from game.core import registry
from net.client import AsyncClient
from tests import testgame
from tests.net.helpers import Player, connect, run, start_game, tcp_host


@pytest.fixture(autouse=True)
def registered() -> None:
    testgame.register()
    yield
    registry._cache.pop(testgame.GAME_ID, None)


async def state_of(client: AsyncClient, **want: Any) -> dict[str, Any]:
    """The next state message (skipping others) whose fields match ``want``."""
    while True:
        msg = await client.expect("state")
        if all(msg.get(k) == v for k, v in want.items()):
            return msg


async def act(client: AsyncClient, seq: int, *action: Any) -> None:
    await client.send({"t": "action", "seq": seq, "action": list(action)})


def test_choices_made_at_the_same_position_all_count() -> None:
    """Three seats bid at seq 0; the 2nd and 3rd bids arrive after the 1st changed the table
    (seq 1, 2) and are still accepted — nobody's choice is 'stale'."""

    async def body() -> None:
        async with tcp_host() as host:
            table, players = await start_game(host, testgame.GAME_ID, 3)
            first = [await state_of(p.client) for p in players]
            assert all(m["seq"] == 0 and m["to_move"] == [0, 1, 2] for m in first)
            for p in players:
                await act(p.client, 0, "bid", 1)
            last = await state_of(players[0].client, seq=3)
            assert last["view"]["bid"] == 1 and last["legal"] == [["seal"]]
            for p in players:
                await act(p.client, 3, "seal")  # all sealed at the position each saw
            resolved = await state_of(players[2].client, seq=6)
            assert resolved["view"]["phase"] == "race"
            assert resolved["view"]["last_bids"] == [1, 1, 1]
            assert any(e["type"] == "bids" for e in resolved["events"])
            for p in players:
                assert not [m for m in p.client.skipped if m["t"] == "error"]
            hub_table = host.hub.tables[table]
            assert hub_table.replay.actions[:6] == [
                (0, ("bid", 1)),
                (1, ("bid", 1)),
                (2, ("bid", 1)),
                (0, ("seal",)),
                (1, ("seal",)),
                (2, ("seal",)),
            ]

    run(body)


def test_undo_in_the_simultaneous_phase_keeps_the_other_seats_choices() -> None:
    """Seat 0 seals, seat 1 bids, then seat 0 takes its seal back: seat 1's bid stays; seat 0
    restarts its turn (bid and seal gone) and bids again; the phase then resolves normally."""

    async def body() -> None:
        async with tcp_host() as host:
            table, players = await start_game(host, testgame.GAME_ID, 2)
            a, b = players[0].client, players[1].client
            await state_of(a)
            await state_of(b)
            await act(a, 0, "bid", 2)
            await act(a, 1, "seal")
            await act(b, 0, "bid", 3)
            seen = await state_of(a, seq=3)
            assert seen["can_undo"] and seen["to_move"] == [1]
            assert seen["view"]["sealed"] == [True, False]
            await a.send({"t": "undo", "seq": 3})
            undone = await state_of(a, seq=4)
            assert undone["view"]["sealed"] == [False, False] and undone["view"]["bid"] == 2
            assert undone["legal"] == [["seal"]]
            b_view = await state_of(b, seq=4)
            assert b_view["view"]["bid"] == 3 and b_view["legal"] == [["seal"]]
            assert host.hub.tables[table].replay.actions == [(0, ("bid", 2)), (1, ("bid", 3))]
            await a.send({"t": "undo", "seq": 4, "turn": True})  # restart the turn
            restarted = await state_of(a, seq=5)
            assert restarted["view"]["bid"] is None and not restarted["can_undo"]
            assert host.hub.tables[table].replay.actions == [(1, ("bid", 3))]
            await act(a, 5, "bid", 0)
            await act(a, 6, "seal")
            await act(b, 5, "seal")  # chosen at seq 5: still this seat's decision
            resolved = await state_of(b, seq=8)
            assert resolved["view"]["last_bids"] == [0, 3]
            assert resolved["view"]["scores"][1]["bids"] == testgame.BID_POINTS
            assert not resolved["can_undo"]
            await b.send({"t": "undo", "seq": 8})
            refused = await b.expect("error")
            assert refused["code"] == "undo_refused"

    run(body)


def test_a_seat_that_drops_mid_phase_gets_its_choice_back() -> None:
    """Seat 1 has bid but not sealed when its connection dies; it reconnects with its token
    and finds its own (private) bid, the seal to do, and the game waiting for it."""

    async def body() -> None:
        async with tcp_host() as host:
            table, players = await start_game(host, testgame.GAME_ID, 3)
            for p in players:
                await state_of(p.client)
            await act(players[1].client, 0, "bid", 2)
            await state_of(players[1].client, seq=1)
            other = await state_of(players[0].client, seq=1)
            # The others never see the bid, only that nobody has sealed yet.
            assert other["view"]["bid"] is None and other["view"]["sealed"] == [False] * 3
            token = players[1].token
            await players[1].client.close()
            waiting = await players[0].client.expect("waiting")
            assert waiting["seats"] and waiting["seats"][0]["seat"] == 1
            again = await connect(host, "P1 again")
            await again.send({"t": "join", "table": table, "token": token})
            joined = await again.expect("joined")
            assert joined["seat"] == 1
            back = await state_of(again)
            assert back["view"]["bid"] == 2 and back["legal"] == [["seal"]]
            await act(again, back["seq"], "seal")
            await act(players[0].client, back["seq"], "bid", 0)
            await act(players[2].client, back["seq"], "bid", 0)
            final = await state_of(players[0].client, seq=back["seq"] + 3)
            await act(players[0].client, final["seq"], "seal")
            await act(players[2].client, final["seq"], "seal")
            resolved = await state_of(again, seq=final["seq"] + 2)
            assert resolved["view"]["last_bids"] == [0, 2, 0]

    run(body)


def test_a_whole_game_with_humans_and_bots_and_bots_think_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two human clients and two bots play to the end over TCP.  In the bid phases the bots
    decide at the same time as the humans; a human's commitment never restarts a bot's
    decision, so the host starts exactly one decision per bot action."""
    started: list[tuple[int, int]] = []
    real_think = thinking_module.think

    def counting_think(bot: Any, state: Any, seat: int, seed: int, deadline: Any = None) -> Any:
        started.append((seat, state.turn_id()))
        return real_think(bot, state, seat, seed, deadline=deadline)

    monkeypatch.setattr(thinking_module, "think", counting_think)

    async def body() -> dict[str, Any]:
        async with tcp_host() as host:
            humans = [await connect(host, f"H{i}") for i in range(2)]
            await humans[0].send(
                {"t": "create_table", "game": testgame.GAME_ID, "players": 4,
                 "options": {"rounds": 3}}
            )  # fmt: skip
            joined = await humans[0].expect("joined")
            table = joined["table"]
            for seat, bot in ((2, "greedy"), (3, "random")):
                await humans[0].send({"t": "set_seat", "seat": seat, "kind": "bot", "bot": bot})
            await humans[1].send({"t": "join", "table": table})
            await humans[1].expect("joined")
            await humans[1].send({"t": "ready"})
            while True:
                lobby = await humans[0].expect("lobby")
                if lobby["seats"][1]["ready"] and all(s["kind"] != "open" for s in lobby["seats"]):
                    break
            await humans[0].send({"t": "start"})
            players = [Player(c, 40 + i, delay=0.001) for i, c in enumerate(humans)]
            players[0].seat, players[1].seat = 0, 1
            results = await asyncio.gather(*(p.play() for p in players))
            hub_table = host.hub.tables[table]
            assert all(r is not None and r["scores"] == hub_table.state.scores() for r in results)
            assert not [e for p in players for e in p.errors]
            bot_actions = sum(1 for s, _a in hub_table.replay.actions if s >= 2)
            return {"bot_actions": bot_actions, "winners": results[0]["winners"]}

    outcome = run(body, timeout=120)
    assert outcome["winners"]
    assert len(started) == outcome["bot_actions"], "a bot decision was started twice"
