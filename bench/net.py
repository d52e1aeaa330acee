"""LAN host speed on loopback: latency to the last client, view frame sizes, host CPU.

The host runs in its own process (as on a LAN party's host machine) on 127.0.0.1 with
autosaves on; six asyncio clients in this process sit at one table — as many seats as the game
has (up to six) and spectators for the rest — and play random legal actions as fast as the
host answers.

* ``net.latency_p50_ms`` / ``net.latency_p99_ms`` — from the moment the host's read loop hands
  an action's frame to the hub, to the moment the *last* of the six clients has decoded the
  ``state`` frame of the new position (one monotonic clock, shared by the processes); over every
  action of the first registered game (target p99 < 3 ms).
* ``net.view_bytes_max.<game>`` — the largest ``state`` frame (view, events, legal actions,
  header included) any client received during a whole game of each registered game (target
  < 16 KB).
* ``net.host_cpu_ms_per_action`` — host process CPU time (all threads: loop, autosave writer)
  from the start of a game to its end, divided by its actions.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
import statistics
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from game.core.registry import game_ids, get_game
from game.core.types import Event
from net.client import AsyncClient
from net.host import HOST_SWITCH_INTERVAL, HostConfig, TcpHost
from net.hub import Hub
from net.session import Session

CLIENTS = 6

FIGURES: dict[str, str] = {
    "net.latency_p50_ms": "ms, action arrival at the host to the 6th client's new view, median",
    "net.latency_p99_ms": "ms, the same, 99th percentile (target < 3)",
    "net.host_send_p50_ms": "ms, action arrival to the last frame written to the sockets, median",
    "net.host_send_p99_ms": "ms, the same, 99th percentile (the host's share of the latency)",
    "net.host_cpu_ms_per_action": "ms of host process CPU per applied action (6 clients)",
    "net.actions_measured": "actions in the latency sample",
    **{
        f"net.view_bytes_max.{g}": f"bytes, largest state frame of a whole {g} game (target < 16384)"
        for g in game_ids()
    },
}


# ---- the host process ----------------------------------------------------------------------


def _host_main(conn: Connection, save_dir: str) -> None:
    asyncio.run(_host(conn, save_dir))


async def _host(conn: Connection, save_dir: str) -> None:
    sys.setswitchinterval(HOST_SWITCH_INTERVAL)  # as ``lantern host`` does
    hub = Hub(save_dir=Path(save_dir), autosave=True)
    server = TcpHost(hub, HostConfig(bind="127.0.0.1", port=0, rate=1e6, burst=1e6))
    await server.start()
    arrivals: dict[str, dict[int, float]] = {}
    handled: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    receive = hub.receive

    def timed_receive(peer: Any, body: bytes, limit: int = 65536) -> None:
        arrived = time.perf_counter()
        member = hub.members.get(peer.pid)
        table = member.table if member is not None else None
        before = table.seq if table is not None else -1
        receive(peer, body, limit)
        if table is not None and table.seq != before:
            arrivals.setdefault(table.table_id, {})[table.seq] = arrived
            handled.setdefault(table.table_id, []).append(time.perf_counter() - arrived)

    hub.receive = timed_receive  # type: ignore[method-assign]

    def started(table: Session, events: list[Event]) -> None:
        cpu.setdefault(table.table_id, [time.process_time()])

    hub.on_change.append(started)
    hub.on_game_over.append(lambda table: cpu[table.table_id].append(time.process_time()))
    conn.send(server.port)
    loop = asyncio.get_running_loop()
    while True:
        command = await loop.run_in_executor(None, conn.recv)
        if command[0] == "table":
            _, game_id, players, seed = command
            table = hub.create_table(game_id, players, seed=seed, autostart=True, pinned=True)
            conn.send(table.table_id)
        elif command[0] == "stats":
            table = hub.tables[command[1]]
            start, end = cpu[table.table_id][0], cpu[table.table_id][-1]
            conn.send(
                (
                    arrivals.get(table.table_id, {}),
                    handled.get(table.table_id, []),
                    end - start,
                    len(table.replay.actions),
                )
            )
        else:
            break
    await server.stop()


# ---- the clients -----------------------------------------------------------------------------


async def _client(
    port: int,
    table: str,
    seat: int | None,
    rng: random.Random,
    received: dict[int, list[float]],
    sizes: list[int],
) -> None:
    client = await AsyncClient.connect("127.0.0.1", port)
    await client.hello(f"bench {seat}")
    join: dict[str, Any] = {"t": "join", "table": table}
    join.update({"spectate": True} if seat is None else {"seat": seat})
    await client.send(join)
    await client.expect("joined")
    while True:
        msg = await client.recv(60)
        if msg["t"] == "state":
            received.setdefault(msg["seq"], []).append(time.perf_counter())
            sizes.append(client.frame_sizes[-1])
            if seat is not None and seat in msg["to_move"] and msg["legal"]:
                action = rng.choice(msg["legal"])
                await client.send({"t": "action", "seq": msg["seq"], "action": action})
        elif msg["t"] == "game_over":
            break
    await client.close()


async def _play_one(
    port: int, table: str, players: int, seed: int
) -> tuple[dict[int, list[float]], list[int]]:
    received: dict[int, list[float]] = {}
    sizes: list[int] = []
    seats: list[int | None] = [*range(players), *([None] * max(0, CLIENTS - players))]
    await asyncio.gather(
        *(
            _client(port, table, seat, random.Random(seed * 100 + i), received, sizes)
            for i, seat in enumerate(seats)
        )
    )
    return received, sizes


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def run(quick: bool) -> dict[str, float]:
    ctx = multiprocessing.get_context("spawn")
    parent, child = ctx.Pipe()
    with tempfile.TemporaryDirectory(prefix="lantern-bench-") as save_dir:
        process = ctx.Process(target=_host_main, args=(child, save_dir), daemon=True)
        process.start()
        try:
            port = parent.recv()
            return _measure(parent, port, quick)
        finally:
            parent.send(("stop",))
            process.join(timeout=10)
            if process.is_alive():
                process.kill()


def _measure(conn: Connection, port: int, quick: bool) -> dict[str, float]:
    figures: dict[str, float] = {}
    latencies: list[float] = []
    host_side: list[float] = []
    cpu_total = 0.0
    actions_total = 0
    ids = game_ids()
    for index, game_id in enumerate(ids):
        game = get_game(game_id)
        players = min(game.max_players, CLIENTS)
        rounds = (1 if quick else 6) if index == 0 else 1
        biggest = 0
        for r in range(rounds):
            seed = 1000 + r
            conn.send(("table", game_id, players, seed))
            table = conn.recv()
            received, sizes = asyncio.run(_play_one(port, table, players, seed))
            conn.send(("stats", table))
            arrivals, handled, cpu, actions = conn.recv()
            biggest = max(biggest, *sizes)
            if index == 0:
                for seq, arrived in arrivals.items():
                    times = received.get(seq, [])
                    if len(times) == CLIENTS:
                        latencies.append((max(times) - arrived) * 1000)
                host_side.extend(h * 1000 for h in handled)
                cpu_total += cpu
                actions_total += actions
        figures[f"net.view_bytes_max.{game_id}"] = float(biggest)
    figures["net.latency_p50_ms"] = statistics.median(latencies) if latencies else float("nan")
    figures["net.latency_p99_ms"] = _percentile(latencies, 0.99) if latencies else float("nan")
    figures["net.host_send_p50_ms"] = statistics.median(host_side) if host_side else float("nan")
    figures["net.host_send_p99_ms"] = _percentile(host_side, 0.99) if host_side else float("nan")
    figures["net.host_cpu_ms_per_action"] = (
        cpu_total * 1000 / actions_total if actions_total else float("nan")
    )
    figures["net.actions_measured"] = float(len(latencies))
    return dict(sorted(figures.items()))
