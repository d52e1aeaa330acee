"""Seats survive a host that stops (issue "Ready for a real LAN party"), and the host explains
why an action is refused before anyone tries it — through real sockets and real processes.

* A host process killed in the middle of a game and started again from its autosave
  (``lantern host --resume``) takes every player back: the save keeps each seat's token (on
  the host's disk only; ``show`` never prints it), a client reconnects with its old table id
  and token and finds its seat, and the game goes on to the end.
* ``explain {seq, action}`` answers ``explanation {legal, reason}``: the engine's rule as data.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from game.core.match import Replay
from net.client import AsyncClient
from tests.net.helpers import LOOPBACK, Player, connect, run, tcp_host

ROOT = Path(__file__).resolve().parents[2]


def start_host(*args: str) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "game", "host", "--bind", LOOPBACK, "--port", "0", "--json",
         "--no-announce", "--bot-threads", *args],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line, proc.stderr.read() if proc.stderr else "the host did not start"
    return proc, int(json.loads(line)["port"])


def test_a_restarted_host_takes_every_player_back(tmp_path: Path) -> None:
    save_dir = tmp_path / "saves"
    host, port = start_host(
        "--table", "kingdom-builder", "--players", "2", "--autostart", "--save-dir", str(save_dir)
    )
    seats: dict[int, tuple[str, str]] = {}
    try:

        async def first_half() -> None:
            players = []
            for i in range(2):
                client = await AsyncClient.connect(LOOPBACK, port)
                await client.hello(f"P{i}")
                player = Player(client, seed=i)
                await player.join("t1")
                assert player.seat is not None and player.token is not None
                seats[player.seat] = ("t1", player.token)
                players.append(player)
            tasks = [asyncio.create_task(p.play(stop_after=6)) for p in players]
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            os.kill(host.pid, signal.SIGKILL)  # mid-turn of one player, mid-wait of the other
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        run(first_half)
    finally:
        if host.poll() is None:
            host.kill()
        host.wait(10)
    [save] = list(save_dir.glob("*.save"))
    before = len(Replay.load(save).actions)
    assert before >= 10
    shown = subprocess.run(
        [sys.executable, "-m", "game", "show", str(save), "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert shown.returncode == 0, shown.stderr
    assert all(token not in shown.stdout for _t, token in seats.values())

    host, port = start_host("--resume", str(save), "--exit-when-done")
    try:

        async def second_half() -> list[dict[str, Any] | None]:
            players = []
            for seat, (table, token) in sorted(seats.items()):
                client = await AsyncClient.connect(LOOPBACK, port)
                await client.hello(f"P{seat} again")
                player = Player(client, seed=10 + seat)
                joined = await player.join(table, token=token)
                assert joined["seat"] == seat
                players.append(player)
            results = await asyncio.gather(*(p.play() for p in players))
            assert not [e for p in players for e in p.errors]
            first = players[0].states[0]
            assert first["seq"] == before  # nothing was lost
            return list(results)

        results = run(second_half, timeout=120)
        assert all(r is not None for r in results)
        assert results[0] == results[1]
        # --exit-when-done: the host writes the final snapshot (a background write) and exits
        assert host.wait(60) == 0
    finally:
        if host.poll() is None:
            host.kill()
        host.wait(30)
    final = Replay.load(save)
    assert final.final_hash is not None and len(final.actions) > before


def test_explain_names_the_rule_before_anyone_acts() -> None:
    async def body() -> None:
        async with tcp_host() as host:
            c = await connect(host)
            await c.send({"t": "create_table", "game": "kingdom-builder", "players": 2})
            await c.expect("joined")
            await c.send({"t": "set_seat", "seat": 1, "kind": "bot", "bot": "random"})
            await c.send({"t": "start"})
            state = await c.expect("state")
            while 0 not in state["to_move"]:
                state = await c.expect("state")
            legal = state["legal"][0]
            await c.send({"t": "explain", "seq": state["seq"], "action": legal})
            answer = await c.expect("explanation")
            assert answer["legal"] is True and answer["reason"] is None
            assert answer["action"] == legal
            places = {tuple(a) for a in state["legal"] if a[0] == "place"}
            illegal = next(
                ["place", r, col]
                for r in range(20)
                for col in range(20)
                if ("place", r, col) not in places
            )
            await c.send({"t": "explain", "seq": state["seq"], "action": illegal})
            answer = await c.expect("explanation")
            assert answer["legal"] is False
            reason = answer["reason"]
            assert reason["text"] and reason["rule"].startswith("KB")
            # Asking changes nothing: the same action is refused with the same rule.
            await c.send({"t": "action", "seq": state["seq"], "action": illegal})
            refused = await c.expect("error")
            assert refused["code"] == "illegal" and refused["reason"]["rule"] == reason["rule"]
            assert host.hub.tables["t1"].seq == state["seq"]

    run(body)
