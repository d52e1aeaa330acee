"""Shared pieces of the net tests: a TCP host on 127.0.0.1, clients, and a bot-driven player."""

from __future__ import annotations

import asyncio
import contextlib
import random
import struct
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from net import protocol
from net.client import AsyncClient
from net.host import HostConfig, TcpHost
from net.hub import Hub
from net.protocol import PROTOCOL_VERSION

T = TypeVar("T")
LOOPBACK = "127.0.0.1"


def run(coro_fn: Callable[[], Awaitable[T]], timeout: float = 60.0) -> T:
    """Run an async test body with an overall timeout (no pytest plugin needed)."""

    async def main() -> T:
        return await asyncio.wait_for(coro_fn(), timeout)

    return asyncio.run(main())


@contextlib.asynccontextmanager
async def tcp_host(save_dir: Path | None = None, **config: Any) -> AsyncIterator[TcpHost]:
    """A host listening on 127.0.0.1 on a free port, stopped afterwards."""
    hub = Hub(save_dir=save_dir, autosave=save_dir is not None)
    host = TcpHost(hub, HostConfig(bind=LOOPBACK, port=0, **config))
    await host.start()
    try:
        yield host
    finally:
        await host.stop()


async def connect(host: TcpHost, name: str = "Player") -> AsyncClient:
    client = await AsyncClient.connect(LOOPBACK, host.port)
    await client.hello(name)
    return client


async def raw_connection(host: TcpHost) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection(LOOPBACK, host.port)


def hello_frame() -> bytes:
    return protocol.encode({"t": "hello", "version": PROTOCOL_VERSION, "name": "raw"})


def frame_of(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


async def read_until_closed(
    reader: asyncio.StreamReader, timeout: float = 5.0
) -> list[dict[str, Any]]:
    """Every message until the host closes the connection."""
    out = []
    async with asyncio.timeout(timeout):
        while True:
            try:
                header = await reader.readexactly(4)
            except (asyncio.IncompleteReadError, ConnectionError):
                return out
            body = await reader.readexactly(int.from_bytes(header, "big"))
            out.append(protocol.decode(body))


async def read_one(reader: asyncio.StreamReader, timeout: float = 5.0) -> dict[str, Any]:
    async with asyncio.timeout(timeout):
        header = await reader.readexactly(4)
        body = await reader.readexactly(int.from_bytes(header, "big"))
    return protocol.decode(body)


class Player:
    """A client that plays its seat with random legal actions and records what it saw."""

    def __init__(self, client: AsyncClient, seed: int, delay: float = 0.0) -> None:
        self.client = client
        self.delay = delay
        self.rng = random.Random(seed)
        self.seat: int | None = None
        self.token: str | None = None
        self.table: str | None = None
        self.states: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.result: dict[str, Any] | None = None

    async def join(self, table: str, **fields: Any) -> dict[str, Any]:
        await self.client.send({"t": "join", "table": table, **fields})
        joined = await self.client.expect("joined")
        self.seat, self.token, self.table = joined["seat"], joined["token"], joined["table"]
        return joined

    async def play(self, stop_after: int | None = None) -> dict[str, Any] | None:
        """Play until game_over (or until ``stop_after`` own actions were sent)."""
        sent = 0
        decided = None  # the decision already answered: act once per decision
        while True:
            msg = await self.client.recv(30)
            if msg["t"] == "state":
                self.states.append(msg)
                if self.seat in msg["to_move"] and msg["legal"] and msg["decision"] != decided:
                    decided = msg["decision"]
                    if stop_after is not None and sent >= stop_after:
                        return None
                    if self.delay:
                        await asyncio.sleep(self.delay)
                    action = self.rng.choice(msg["legal"])
                    await self.client.send({"t": "action", "seq": msg["seq"], "action": action})
                    sent += 1
            elif msg["t"] == "error":
                self.errors.append(msg)
            elif msg["t"] == "game_over":
                self.result = msg
                return msg


async def start_game(
    host: TcpHost,
    game: str,
    players: int,
    options: dict[str, Any] | None = None,
    delay: float = 0.0,
    seed: int = 0,
) -> tuple[str, list[Player]]:
    """A table with ``players`` Player clients (seat order), created by the first, started."""
    clients = [await connect(host, f"P{i}") for i in range(players)]
    gamers = [Player(c, seed + i, delay) for i, c in enumerate(clients)]
    create: dict[str, Any] = {"t": "create_table", "game": game, "players": players}
    if options:
        create["options"] = options
    await clients[0].send(create)
    joined = await clients[0].expect("joined")
    gamers[0].seat, gamers[0].token, gamers[0].table = (
        joined["seat"],
        joined["token"],
        joined["table"],
    )
    for g in gamers[1:]:
        await g.join(joined["table"])
        await g.client.send({"t": "ready"})
    # Wait until the creator's lobby shows everyone ready, then start.
    while True:
        lobby = await clients[0].expect("lobby")
        if all(s["kind"] == "human" and (s["ready"] or s["seat"] == 0) for s in lobby["seats"]):
            break
    await clients[0].send({"t": "start"})
    return joined["table"], gamers
