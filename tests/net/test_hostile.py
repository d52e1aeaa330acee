"""Bad input on real sockets (127.0.0.1): a clear error or a dropped offender, nothing lost.

Every attack runs while another table plays a game; afterwards that game must have finished
with every client agreeing with the host, and the host's record must replay to the same final
state (docs/protocol.md "Frames", "Errors").  The games are the shared test game "Bid and Race"
(``tests/testgame``).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import socket
import struct
from collections.abc import Awaitable, Callable
from typing import Any

import msgpack
import pytest

from game.core.match import Replay
from net import protocol
from net.client import ConnectionClosed
from net.host import TcpHost
from net.protocol import MAX_CLIENT_FRAME, PROTOCOL_VERSION, ErrorCode
from tests.net.helpers import (
    connect,
    frame_of,
    hello_frame,
    raw_connection,
    read_one,
    read_until_closed,
    run,
    start_game,
    tcp_host,
)

LIMITS = {
    "hello_timeout": 0.4,
    "idle_timeout": 0.8,
    "frame_timeout": 0.4,
    "rate": 50,
    "burst": 100,
    "max_per_address": 200,  # every attacker here is on 127.0.0.1 (test_hardening covers it)
}

Attack = Callable[[TcpHost], Awaitable[None]]


async def closed_with(host: TcpHost, data: bytes, code: str) -> list[dict[str, Any]]:
    """Send ``data`` on a new raw connection; the host must answer ``code`` and hang up."""
    reader, writer = await raw_connection(host)
    writer.write(data)
    messages = await read_until_closed(reader)
    writer.close()
    assert messages and messages[-1]["t"] == "error", messages
    assert messages[-1]["code"] == code, messages[-1]
    return messages


async def answered_and_open(host: TcpHost, bodies: list[bytes], codes: list[str]) -> None:
    """After hello, each body is answered with its error code and the connection stays usable."""
    reader, writer = await raw_connection(host)
    writer.write(hello_frame())
    assert (await read_one(reader))["t"] == "welcome"
    for body, code in zip(bodies, codes, strict=True):
        writer.write(frame_of(body))
        reply = await read_one(reader)
        assert (reply["t"], reply["code"]) == ("error", code), reply
        assert reply["text"]
    writer.write(protocol.encode({"t": "ping", "n": 42}))
    assert await read_one(reader) == {"t": "pong", "n": 42}
    writer.close()


async def random_bytes(host: TcpHost) -> None:
    data = b"\xfe\xed" + random.Random(5).randbytes(600)
    messages = await closed_with(host, data, ErrorCode.BAD_FRAME)
    assert "exceeds the limit" in messages[-1]["text"]


async def huge_length_prefix(host: TcpHost) -> None:
    await closed_with(host, struct.pack(">I", 2**32 - 1), ErrorCode.BAD_FRAME)
    await closed_with(
        host, struct.pack(">I", MAX_CLIENT_FRAME + 1) + b"x" * 100, ErrorCode.BAD_FRAME
    )


async def zero_length_frame(host: TcpHost) -> None:
    await closed_with(host, hello_frame() + struct.pack(">I", 0), ErrorCode.BAD_FRAME)


async def truncated_frame_then_silence(host: TcpHost) -> None:
    messages = await closed_with(host, struct.pack(">I", 100) + b"\x81", ErrorCode.BAD_FRAME)
    assert "not received whole within" in messages[-1]["text"]


async def vanish_mid_frame(host: TcpHost) -> None:
    before = host.connections
    _reader, writer = await raw_connection(host)
    writer.write(hello_frame() + struct.pack(">I", 50) + b"\x85\xa1t")
    await writer.drain()
    writer.transport.abort()
    for _ in range(100):
        if host.connections <= before:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the host kept a vanished connection")


async def invalid_msgpack(host: TcpHost) -> None:
    await answered_and_open(
        host,
        [b"\xc1", b"\x92\x01", msgpack.packb(msgpack.ExtType(1, b"!")), msgpack.packb({7: 1})],
        [ErrorCode.BAD_FRAME] * 4,
    )


async def wrong_shapes(host: TcpHost) -> None:
    await answered_and_open(
        host,
        [
            msgpack.packb([1, 2, 3]),
            msgpack.packb({"type": "ping"}),
            msgpack.packb({"t": "join"}),
            msgpack.packb({"t": "action", "seq": "x", "action": ["seal"]}),
            msgpack.packb({"t": "chat", "text": "x" * 10_000}),
            msgpack.packb({"t": "launch_missiles"}),
        ],
        [ErrorCode.BAD_MESSAGE] * 5 + [ErrorCode.UNKNOWN_TYPE],
    )


async def before_hello(host: TcpHost) -> None:
    reader, writer = await raw_connection(host)
    writer.write(protocol.encode({"t": "list_tables"}))
    assert (await read_one(reader))["code"] == ErrorCode.HELLO_FIRST
    writer.write(protocol.encode({"t": "hello", "version": 999}))
    messages = await read_until_closed(reader)
    assert messages[-1]["code"] == ErrorCode.VERSION_MISMATCH
    assert f"version {protocol.PROTOCOL_VERSION}" in messages[-1]["text"]
    assert "999" in messages[-1]["text"]


async def silent_client(host: TcpHost) -> None:
    reader, writer = await raw_connection(host)
    messages = await read_until_closed(reader)
    assert messages[-1]["code"] == ErrorCode.IDLE and "hello" in messages[-1]["text"]
    writer.close()


async def idle_after_hello(host: TcpHost) -> None:
    messages = await closed_with(host, hello_frame(), ErrorCode.IDLE)
    assert messages[0]["t"] == "welcome"


async def flood(host: TcpHost) -> None:
    reader, writer = await raw_connection(host)
    writer.write(hello_frame() + protocol.encode({"t": "ping"}) * 3000)
    messages = await read_until_closed(reader)
    assert messages[-1]["code"] == ErrorCode.FLOOD


async def many_bad_messages(host: TcpHost) -> None:
    bad = frame_of(msgpack.packb({"t": "nope"})) * 40
    messages = await closed_with(host, hello_frame() + bad, ErrorCode.UNKNOWN_TYPE)
    assert len(messages) == 1 + 33  # welcome, then answers until the 33rd bad one in a row


async def hundred_connections(host: TcpHost) -> None:
    async def one(i: int) -> int | None:
        # The attacker's own connections may be cut (a hello that a loaded machine delays past
        # the short hello timeout of these tests); what matters is that the others play on.
        try:
            client = await connect(host, f"C{i}")
            await client.send({"t": "list_tables"})
            tables = await client.expect("tables")
            await client.close()
        except (ConnectionClosed, ConnectionError, asyncio.IncompleteReadError, TimeoutError):
            return None
        return len(tables["tables"])

    counts = [c for c in await asyncio.gather(*(one(i) for i in range(100))) if c is not None]
    assert counts and all(c >= 1 for c in counts)


ATTACKS: dict[str, Attack] = {
    "random_bytes": random_bytes,
    "huge_length_prefix": huge_length_prefix,
    "zero_length_frame": zero_length_frame,
    "truncated_frame_then_silence": truncated_frame_then_silence,
    "vanish_mid_frame": vanish_mid_frame,
    "invalid_msgpack": invalid_msgpack,
    "wrong_shapes": wrong_shapes,
    "before_hello": before_hello,
    "silent_client": silent_client,
    "idle_after_hello": idle_after_hello,
    "flood": flood,
    "many_bad_messages": many_bad_messages,
    "hundred_connections": hundred_connections,
}


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_attack_leaves_other_tables_playing(bid_race: str, name: str) -> None:
    async def body() -> None:
        async with tcp_host(**LIMITS) as host:
            table_id, players = await start_game(
                host, bid_race, 3, {"rounds": 5}, delay=0.004, seed=len(name)
            )
            games = [asyncio.create_task(p.play()) for p in players]
            await ATTACKS[name](host)
            results = await asyncio.gather(*games)
            table = host.hub.tables[table_id]
            assert table.over
            final = [s["total"] for s in table.state.scores()]
            for result in results:
                assert result is not None and [s["total"] for s in result["scores"]] == final
            record = Replay.from_bytes(table.save_bytes())
            assert record.verify().state_hash() == table.state.state_hash()
            for p in players:
                assert p.errors == []
                await p.client.close()

    run(body, timeout=30)


def test_players_act_only_for_their_own_seat(bid_race: str) -> None:
    """A client names no seat: the host acts for the connection's seat, and checks turn and seq."""

    async def body() -> None:
        async with tcp_host(**LIMITS) as host:
            _, players = await start_game(host, bid_race, 3)
            first = await players[1].client.expect("state")
            assert first["to_move"] == [0, 1, 2] and first["legal"][0] == ["bid", 0]
            # Seat 1 bids and seals: it has no decision left in this phase.
            await players[1].client.send({"t": "action", "seq": 0, "action": ["bid", 0]})
            await players[1].client.send({"t": "action", "seq": 1, "action": ["seal"]})
            while (await players[1].client.expect("state"))["seq"] < 2:
                pass
            await players[1].client.send({"t": "action", "seq": 2, "action": ["bid", 1]})
            assert (await players[1].client.expect("error"))["code"] == ErrorCode.NOT_YOUR_TURN
            # Naming another seat is not even a valid message.
            await players[1].client.send({"t": "action", "seq": 2, "action": ["bid", 1], "seat": 0})
            err = await players[1].client.expect("error")
            assert err["code"] == ErrorCode.BAD_MESSAGE and "'seat'" in err["text"]
            # A spectator cannot act.
            watcher = await connect(host, "W")
            await watcher.send({"t": "join", "table": players[0].table, "spectate": True})
            assert (await watcher.expect("joined"))["seat"] is None
            await watcher.send({"t": "action", "seq": 2, "action": ["bid", 1]})
            assert (await watcher.expect("error"))["code"] == ErrorCode.NOT_SEATED
            # Seat 0: a seq from the future, an illegal action, then a good one.
            state = await players[0].client.expect("state")
            await players[0].client.send({"t": "action", "seq": 7, "action": ["bid", 1]})
            assert (await players[0].client.expect("error"))["code"] == ErrorCode.STALE
            await players[0].client.send({"t": "action", "seq": 0, "action": ["bid", 5]})
            err = await players[0].client.expect("error")
            assert err["code"] == ErrorCode.ILLEGAL and "a bid is 0 to 3" in err["text"]
            await players[0].client.send({"t": "action", "seq": state["seq"], "action": ["bid", 1]})
            while (after := await players[0].client.expect("state"))["seq"] < 3:
                pass
            assert after["seq"] == 3 and after["last_action"]["seat"] == 0
            # Its next action chosen at the same old seq is stale (no double moves from a double
            # click), though seat 2's choice from seq 0 still counts.
            await players[0].client.send({"t": "action", "seq": 0, "action": ["seal"]})
            assert (await players[0].client.expect("error"))["code"] == ErrorCode.STALE
            await players[2].client.send({"t": "action", "seq": 0, "action": ["bid", 2]})
            while (late := await players[2].client.expect("state"))["seq"] < 4:
                pass
            assert late["last_action"] == {"seat": 2, "action": ["bid", 2], "text": "bid 2"}

    run(body, timeout=20)


def test_a_peer_that_stops_reading_is_dropped_alone(bid_race: str) -> None:
    """Bounded outboxes: a client whose unsent data passes the limit loses its connection."""

    async def body() -> None:
        async with tcp_host(outbox_limit=4096, rate=100_000, burst=100_000) as host:
            _, players = await start_game(host, bid_race, 2)
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
            sock.connect(("127.0.0.1", host.port))
            _reader, writer = await asyncio.open_connection(sock=sock)
            writer.transport.pause_reading()  # this spectator never reads
            writer.write(hello_frame())
            writer.write(
                protocol.encode({"t": "join", "table": players[0].table, "spectate": True})
            )
            await writer.drain()
            await asyncio.sleep(0.1)
            assert host.connections == 3
            # Small kernel buffers on both ends, so the host's own outbox is what fills up.
            newest = host._peers[max(host._peers)]
            newest._writer.get_extra_info("socket").setsockopt(
                socket.SOL_SOCKET, socket.SO_SNDBUF, 4096
            )

            async def listen(p: Any) -> None:
                with contextlib.suppress(Exception):
                    while True:
                        await p.client.recv()

            readers = [asyncio.create_task(listen(p)) for p in players]
            for _ in range(5_000):  # ~450 bytes per line, to everyone at the table
                await players[1].client.send({"t": "chat", "text": "x" * 400})
                await asyncio.sleep(0)  # let the host read it
                if host.connections == 2:
                    break
            assert host.connections == 2
            for task in readers:
                task.cancel()
            await asyncio.gather(*readers, return_exceptions=True)
            await players[0].client.send({"t": "ping", "n": 1})
            assert (await players[0].client.expect("pong"))["n"] == 1
            writer.close()

    run(body, timeout=30)


def test_too_many_connections_are_told_busy(bid_race: str) -> None:
    async def body() -> None:
        async with tcp_host(max_connections=3) as host:
            keep = [await connect(host) for _ in range(3)]
            reader, writer = await raw_connection(host)
            messages = await read_until_closed(reader)
            assert messages[-1]["code"] == ErrorCode.BUSY
            writer.close()
            for client in keep:
                await client.close()

    run(body, timeout=10)


def test_version_field_is_required(bid_race: str) -> None:
    async def body() -> None:
        async with tcp_host() as host:
            reader, writer = await raw_connection(host)
            writer.write(protocol.encode({"t": "hello"}))
            reply = await read_one(reader)
            assert reply["code"] == ErrorCode.BAD_MESSAGE and "version" in reply["text"]
            writer.write(protocol.encode({"t": "hello", "version": PROTOCOL_VERSION}))
            assert (await read_one(reader))["t"] == "welcome"
            writer.close()

    run(body, timeout=10)
