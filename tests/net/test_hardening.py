"""The host against cheating and greedy clients (issue "Hardening"), through real sockets on
127.0.0.1 and, for ``kill -9``, a real host process.

Each test names the attack it reproduces; the limits are those of ``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import net.hub as hub_module
import net.membership as membership
from game.core.match import Replay
from net import protocol
from net.client import AsyncClient, HostError
from net.host import LAGGING
from net.hub import Hub
from net.local import LocalHost
from net.protocol import PROTOCOL_VERSION, ErrorCode
from tests.net.helpers import (
    LOOPBACK,
    connect,
    raw_connection,
    read_until_closed,
    run,
    tcp_host,
)

ROOT = Path(__file__).resolve().parents[2]


async def create(client: AsyncClient, **fields: Any) -> dict[str, Any]:
    msg = {"t": "create_table", "game": "kingdom-builder", "players": 2, **fields}
    await client.send(msg)
    return await client.expect("joined")


async def lobby_where(client: AsyncClient, test: Any) -> dict[str, Any]:
    while True:
        lobby = await client.expect("lobby")
        if test(lobby):
            return lobby


async def error_of(client: AsyncClient, msg: dict[str, Any]) -> str:
    await client.send(msg)
    return str((await client.expect("error"))["code"])


# ---- cheating ---------------------------------------------------------------------------------


def test_a_remote_creator_cannot_choose_the_seed() -> None:
    """The seed decides every hidden card: a LAN client may not fix it."""

    async def body() -> None:
        async with tcp_host() as host:
            c = await connect(host)
            assert await error_of(c, {"t": "create_table", "game": "kingdom-builder",
                                      "players": 2, "seed": 7}) == ErrorCode.NOT_ALLOWED  # fmt: skip
            assert not host.hub.tables
            await create(c)
            lobby = await c.expect("lobby")
            assert lobby["seed"] is None  # chosen by the host, and secret until the end

    run(body)


def test_a_seed_fixed_in_this_program_is_shown_to_everyone() -> None:
    """Hot-seat and the tools may fix a seed; then the lobby shows it to all."""
    with LocalHost(autosave=False) as h:
        conn = h.connect()
        conn.send({"t": "hello", "version": PROTOCOL_VERSION, "name": "Local"})
        conn.send({"t": "create_table", "game": "kingdom-builder", "players": 2, "seed": 7})
        deadline = time.monotonic() + 5
        seen: list[dict[str, Any]] = []
        while time.monotonic() < deadline and not any(m["t"] == "lobby" for m in seen):
            seen += conn.poll()
            time.sleep(0.01)
        lobby = next(m for m in seen if m["t"] == "lobby")
        assert lobby["seed"] == 7


def test_creator_rights_never_pass_to_a_spectator_and_come_back_with_the_creator() -> None:
    async def body() -> None:
        async with tcp_host() as host:
            creator, seated, watcher = [await connect(host, n) for n in ("Ann", "Ben", "Cat")]
            joined = await create(creator)
            table, token = joined["table"], joined["token"]
            await watcher.send({"t": "join", "table": table, "spectate": True})
            await watcher.expect("joined")
            await seated.send({"t": "join", "table": table})
            await seated.expect("joined")
            await seated.send({"t": "ready"})
            await lobby_where(creator, lambda lb: lb["seats"][1]["ready"])
            await creator.send({"t": "start"})
            await creator.expect("state")
            await creator.close()  # the creator drops mid-game
            heir = await seated.expect("joined")
            assert heir["owner"] is True and heir["seat"] == 1
            # The spectator never holds the rights: it cannot hand seats to bots.
            assert await error_of(watcher, {"t": "set_seat", "seat": 0, "kind": "bot",
                                            "bot": "random"}) == ErrorCode.NOT_OWNER  # fmt: skip
            back = await connect(host, "Ann")
            await back.send({"t": "join", "table": table, "token": token})
            rejoined = await back.expect("joined")
            assert rejoined["owner"] is True and rejoined["seat"] == 0
            demoted = await seated.expect("joined")
            assert demoted["owner"] is False

    run(body)


def test_rights_wait_for_the_creator_when_only_spectators_remain() -> None:
    async def body() -> None:
        async with tcp_host() as host:
            creator = await connect(host, "Ann")
            watcher = await connect(host, "Cat")
            joined = await create(creator)
            table = joined["table"]
            await creator.send({"t": "set_seat", "seat": 1, "kind": "bot", "bot": "random"})
            await watcher.send({"t": "join", "table": table, "spectate": True})
            await watcher.expect("joined")
            await creator.send({"t": "start"})
            await creator.expect("state")
            await creator.close()
            await watcher.expect("lobby")
            assert await error_of(watcher, {"t": "close_table"}) == ErrorCode.NOT_OWNER
            assert host.hub.tables[table].owner_token == ""

    run(body)


def test_nobody_can_chat_under_another_players_name() -> None:
    """A spectator saying hello as "Alice" while Alice sits there speaks as "Alice (2)" and is
    marked as a spectator."""

    async def body() -> None:
        async with tcp_host() as host:
            alice = await connect(host, "Alice")
            table = (await create(alice))["table"]
            fake = await connect(host, "alice")
            await fake.send({"t": "join", "table": table, "spectate": True})
            await fake.expect("joined")
            await fake.send({"t": "chat", "text": "hello"})
            line = await alice.expect("chat")
            assert line["name"] == "alice (2)" and line["spectator"] is True
            again = await connect(host, "Alice")
            await again.send({"t": "join", "table": table})
            await again.expect("joined")
            lobby = await lobby_where(alice, lambda lb: lb["seats"][1]["kind"] == "human")
            assert lobby["seats"][1]["name"] == "Alice (3)"  # "alice (2)" is the spectator
            await again.send({"t": "set_seat", "seat": 1, "name": "ALICE"})
            lobby = await lobby_where(alice, lambda lb: lb["seats"][1]["name"] != "Alice (3)")
            assert lobby["seats"][1]["name"] == "ALICE (3)"

    run(body)


# ---- greedy clients ---------------------------------------------------------------------------


def test_one_address_cannot_fill_the_host_with_tables() -> None:
    async def body() -> None:
        async with tcp_host() as host:
            clients = [
                await connect(host, f"C{i}") for i in range(hub_module.MAX_TABLES_PER_ADDRESS)
            ]
            for c in clients:
                await create(c)
            extra = await connect(host, "greedy")
            assert (
                await error_of(
                    extra, {"t": "create_table", "game": "kingdom-builder", "players": 2}
                )
                == ErrorCode.TOO_MANY_TABLES
            )

    run(body)


def test_a_table_nobody_attends_is_saved_and_reclaimed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The attack: create, give every seat to a bot, start, leave — 64 times.  Now a bots-only
    table nobody watches is closed after ORPHAN_GRACE, and its save holds the game; a table
    whose human players are away waits ABANDONED_GRACE for them."""
    monkeypatch.setattr(membership, "ORPHAN_GRACE", 0.3)
    monkeypatch.setattr(membership, "ABANDONED_GRACE", 1.2)

    async def wait_closed(host: Any, table: str, within: float) -> float:
        start = time.monotonic()
        while table in host.hub.tables and time.monotonic() - start < within:
            await asyncio.sleep(0.05)
        assert table not in host.hub.tables
        return time.monotonic() - start

    async def body() -> None:
        async with tcp_host(save_dir=tmp_path) as host:
            c = await connect(host)
            table = (await create(c, spectate=True))["table"]
            for seat in (0, 1):
                await c.send({"t": "set_seat", "seat": seat, "kind": "bot", "bot": "random"})
            await c.send({"t": "start"})
            await c.expect("state")
            await c.send({"t": "leave"})
            await c.expect("left")
            assert table in host.hub.tables
            await wait_closed(host, table, 3.0)
            saves = list(tmp_path.glob("*.save"))
            assert len(saves) == 1 and Replay.load(saves[0]).actions

            human = await connect(host)
            table = (await create(human))["table"]
            await human.send({"t": "set_seat", "seat": 1, "kind": "bot", "bot": "random"})
            await human.send({"t": "start"})
            await human.expect("state")
            await human.close()  # the player is away: the table waits longer for them
            await asyncio.sleep(0.6)
            assert table in host.hub.tables
            await wait_closed(host, table, 3.0)

    run(body)


def test_connections_per_address_are_limited() -> None:
    async def body() -> None:
        async with tcp_host(max_per_address=5) as host:
            held = [await connect(host, f"C{i}") for i in range(5)]
            with pytest.raises(HostError) as err:
                await connect(host, "one too many")
            assert err.value.code == ErrorCode.BUSY and LOOPBACK in err.value.text
            await held[0].close()
            for _ in range(50):
                if host.connections < 5:
                    break
                await asyncio.sleep(0.02)
            await connect(host, "room again")

    run(body)


def test_a_header_dribbled_byte_by_byte_is_cut_off() -> None:
    async def body() -> None:
        async with tcp_host(frame_timeout=0.5, idle_timeout=30) as host:
            reader, writer = await raw_connection(host)
            start = time.monotonic()
            for byte in b"\x00\x00\x00":
                writer.write(bytes([byte]))
                await writer.drain()
                await asyncio.sleep(0.3)
            messages = await read_until_closed(reader)
            assert messages[-1]["code"] == ErrorCode.BAD_FRAME
            assert time.monotonic() - start < 2.0

    run(body)


def test_refused_frames_count_even_between_pings() -> None:
    """Bad frames alternated with pings used to keep a peer alive forever."""

    async def body() -> None:
        async with tcp_host() as host:
            reader, writer = await raw_connection(host)
            writer.write(protocol.encode({"t": "hello", "version": PROTOCOL_VERSION}))
            for i in range(hub_module.MAX_BAD_MESSAGES + 5):
                writer.write(protocol.encode({"t": "nonsense"}))
                writer.write(protocol.encode({"t": "ping", "n": i}))
            await writer.drain()
            messages = await read_until_closed(reader)
            codes = [m.get("code") for m in messages if m["t"] == "error"]
            assert codes.count(ErrorCode.UNKNOWN_TYPE) == hub_module.MAX_BAD_MESSAGES + 1
            assert host.connections == 0

    run(body)


def test_options_nested_deep_are_a_bad_message_not_an_internal_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def body() -> None:
        async with tcp_host() as host:
            c = await connect(host)
            nested: Any = 1
            for _ in range(1000):
                nested = [nested]
            code = await error_of(c, {"t": "create_table", "game": "kingdom-builder",
                                      "players": 2, "options": {"sections": nested}})  # fmt: skip
            assert code in (ErrorCode.BAD_MESSAGE, ErrorCode.BAD_FRAME)
            await c.send({"t": "ping", "n": 1})
            assert (await c.expect("pong"))["n"] == 1

    with caplog.at_level(logging.ERROR, logger="lantern.host"):
        run(body)
    assert not [r for r in caplog.records if r.exc_info]


def test_internal_error_tracebacks_are_rate_limited(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(self: Hub, member: Any, msg: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(Hub, "_on_list_tables", broken)

    async def body() -> None:
        async with tcp_host() as host:
            c = await connect(host)
            for _ in range(20):
                assert await error_of(c, {"t": "list_tables"}) == ErrorCode.INTERNAL
            assert host.connections == 1

    with caplog.at_level(logging.ERROR, logger="lantern.host"):
        run(body)
    tracebacks = [r for r in caplog.records if r.exc_info]
    assert len(tracebacks) == hub_module.MAX_TRACEBACKS


def test_hints_never_exceed_the_hosts_setting_and_are_rate_limited() -> None:
    async def body() -> None:
        async with tcp_host() as host:  # a host started without --allow-hints
            c = await connect(host)
            await create(c, allow_hints=True)
            lobby = await c.expect("lobby")
            assert lobby["settings"]["allow_hints"] is False
            assert (
                await error_of(c, {"t": "configure", "allow_hints": True}) == ErrorCode.NOT_ALLOWED
            )

    run(body)

    async def rate() -> None:
        hub = Hub(autosave=False, allow_hints=True)
        from net.host import HostConfig, TcpHost

        host = TcpHost(hub, HostConfig(bind=LOOPBACK, port=0))
        await host.start()
        try:
            c = await connect(host)
            await create(c)
            await c.send({"t": "set_seat", "seat": 1, "kind": "bot", "bot": "random"})
            await c.send({"t": "start"})
            state = await c.expect("state")
            while 0 not in state["to_move"]:  # the bot may start: wait for our own turn
                state = await c.expect("state")
            codes = []
            for _ in range(hub_module.HINT_BURST + 1):
                await c.send({"t": "hint", "seq": state["seq"]})
            while "hint" not in codes:  # asking again joins the one computation under way
                msg = await c.expect("hint", "error", timeout=30)
                codes.append(msg.get("code", "hint"))
            assert codes == [ErrorCode.HINT_LIMIT, "hint"]
        finally:
            await host.stop()

    run(rate)


def test_unread_outboxes_cannot_fill_the_hosts_memory() -> None:
    """Peers that never read: each is cut off at its own limit, and lagging peers are dropped
    once all unsent data together pass the host's budget."""

    async def body() -> None:
        budget = 512 * 1024
        async with tcp_host(outbox_limit=8 * 1024 * 1024, outbox_budget=budget,
                            max_per_address=64, rate=100_000, burst=100_000) as host:  # fmt: skip
            talker = await connect(host, "talker")
            table = (await create(talker))["table"]

            async def listen() -> None:  # the talker reads its own lines: it is not lagging
                with contextlib.suppress(Exception):
                    while True:
                        await talker.recv(30)

            reading = asyncio.create_task(listen())
            silent = []
            for i in range(12):
                sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # keep the kernel out
                sock.setblocking(False)
                await asyncio.get_running_loop().sock_connect(sock, (LOOPBACK, host.port))
                reader, writer = await asyncio.open_connection(sock=sock)
                writer.transport.pause_reading()  # type: ignore[attr-defined]
                writer.write(protocol.encode({"t": "hello", "version": PROTOCOL_VERSION,
                                              "name": f"S{i}"}))  # fmt: skip
                writer.write(protocol.encode({"t": "join", "table": table, "spectate": True}))
                silent.append((reader, writer))
            await asyncio.sleep(0.2)
            # The kernel's socket buffers take the first megabytes; then the host's outboxes
            # fill, and the per-peer limit (8 MiB here) alone would let them take 100 MiB.
            slack = 2 * LAGGING + 64 * 1024
            for i in range(8000):
                await talker.send({"t": "chat", "text": "x" * 480 + str(i)})
                if i % 200 == 0:
                    await asyncio.sleep(0.01)
                    assert sum(p.unsent() for p in host._peers.values()) <= budget + slack
            await asyncio.sleep(0.3)
            assert sum(p.unsent() for p in host._peers.values()) <= budget + slack
            assert host.connections < 13  # laggards were dropped
            for _reader, writer in silent:
                writer.close()
            reading.cancel()

    run(body)


# ---- kill -9 ----------------------------------------------------------------------------------


def test_kill_9_never_loses_a_position_a_client_has_seen(tmp_path: Path) -> None:
    """A host process runs a bot game; a spectator watches; the host is killed with SIGKILL
    right after the spectator saw action N: the save (with its journal) holds at least N."""
    for kill_at in (5, 23, 41):
        save_dir = tmp_path / f"kill{kill_at}"
        host = subprocess.Popen(
            [sys.executable, "-m", "game", "host", "--bind", "127.0.0.1", "--port", "0", "--json",
             "--table", "kingdom-builder", "--players", "3", "--bots", "random,random,random",
             "--autostart", "--save-dir", str(save_dir), "--no-announce", "--bot-threads"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            assert host.stdout is not None
            listening = json.loads(host.stdout.readline())
            port = listening["port"]

            async def watch(port: int = port, kill_at: int = kill_at, pid: int = host.pid) -> int:
                client = await AsyncClient.connect(LOOPBACK, port)
                await client.hello("watcher")
                await client.send({"t": "join", "table": "t1", "spectate": True})
                while True:
                    msg = await client.recv(30)
                    if msg["t"] == "state" and msg["seq"] >= kill_at:
                        os.kill(pid, signal.SIGKILL)
                        return int(msg["seq"])

            seen = run(watch)
        finally:
            if host.poll() is None:
                host.kill()
            host.wait(10)
        saves = list(save_dir.glob("*.save"))
        assert len(saves) == 1
        assert len(Replay.load(saves[0]).actions) >= seen
