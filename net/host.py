"""The LAN host: an asyncio TCP server in front of a :class:`~net.hub.Hub`.

Each connection gets a read loop that enforces the transport's limits before the hub sees
anything (``docs/protocol.md``):

* the 4-byte length prefix is checked against :data:`~net.protocol.MAX_CLIENT_FRAME` before
  the body is read (a bad length closes the connection — the stream can no longer be trusted);
* a whole frame — the rest of its header and its body — must arrive within ``frame_timeout``
  of its first byte (a client that vanishes mid-frame, or dribbles a header one byte at a time
  to hold a connection, is cut off);
* a client must say ``hello`` within ``hello_timeout`` and then send something (a ``ping`` will
  do) at least every ``idle_timeout`` seconds;
* a token bucket allows ``rate`` messages a second with bursts of ``burst``; a flood closes the
  connection;
* outgoing frames go straight to the socket's transport; a peer whose unsent data exceeds
  ``outbox_limit`` bytes (it stopped reading) is dropped, and so is a lagging peer (over
  :data:`LAGGING` bytes unsent) while all peers together hold more than ``outbox_budget``
  bytes, so slow or silent clients never hold the others back nor fill the host's memory;
* at most ``max_connections`` at once, and ``max_per_address`` from one address; more are told
  ``busy`` and closed.

Every problem closes only the offending connection; a dropped player's seat is kept for their
token.  :func:`serve` runs a host until it is told to stop (the ``host`` command).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from dataclasses import dataclass

from net import protocol
from net.hub import Hub
from net.protocol import ErrorCode, ProtocolError

log = logging.getLogger("lantern.host")

#: Seconds a closing connection gets to send its last messages before it is cut off.
CLOSE_GRACE = 2.0
#: The interpreter's thread switch interval in a host process (``sys.setswitchinterval``):
#: bot and autosave threads hand the GIL back to the event loop within 1 ms instead of 5 ms.
HOST_SWITCH_INTERVAL = 0.001


@dataclass
class HostConfig:
    """Where to listen and the per-connection limits (see the module docstring)."""

    bind: str = "0.0.0.0"
    port: int = 7777
    max_connections: int = 256
    max_per_address: int = 16
    hello_timeout: float = 10.0
    idle_timeout: float = 60.0
    frame_timeout: float = 10.0
    rate: float = 100.0
    burst: float = 200.0
    outbox_limit: int = 1024 * 1024
    outbox_budget: int = 32 * 1024 * 1024


#: A peer with more than this many unsent bytes is "lagging": it is the one dropped when all
#: peers' unsent data together exceed the host's ``outbox_budget``.
LAGGING = 64 * 1024


class TcpPeer:
    """One TCP connection as the hub sees it (a :class:`~net.hub.Peer`).

    ``address`` is the remote IP address; ``trusted`` is always false (only the in-process
    transport of hot-seat games is trusted, e.g. to fix a seed).
    """

    trusted = False

    def __init__(
        self, pid: int, writer: asyncio.StreamWriter, outbox_limit: int, host: TcpHost | None
    ) -> None:
        self.pid = pid
        peer = writer.get_extra_info("peername")
        self.address = str(peer[0]) if isinstance(peer, tuple) else ""
        self.label = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else f"peer#{pid}"
        self._writer = writer
        self._limit = outbox_limit
        self._host = host
        self._overflowed = False
        self.closing = False

    def unsent(self) -> int:
        """Bytes queued for this peer that the socket has not taken yet."""
        return self._writer.transport.get_write_buffer_size()

    def deliver(self, frame: bytes) -> bool:
        if self.closing:
            return True
        transport = self._writer.transport
        if transport.is_closing():
            return True
        transport.write(frame)
        unsent = transport.get_write_buffer_size()
        if unsent > self._limit or (
            unsent > LAGGING and self._host is not None and self._host.over_budget()
        ):
            self._overflowed = True
            return False
        return True

    def abort(self) -> None:
        self.closing = True
        self._writer.transport.abort()

    def close(self) -> None:
        """Send what is queued, then close; a peer that does not read is cut off at once."""
        if self.closing:
            return
        self.closing = True
        transport = self._writer.transport
        if self._overflowed:
            transport.abort()
            return
        self._writer.close()
        # A peer that stops reading would keep the socket open forever: cut it off later.
        asyncio.get_running_loop().call_later(CLOSE_GRACE, transport.abort)


class TcpHost:
    """The TCP server (see the module docstring).  ``await start()``, later ``await stop()``."""

    def __init__(self, hub: Hub, config: HostConfig | None = None) -> None:
        self.hub = hub
        self.config = config or HostConfig()
        self._server: asyncio.Server | None = None
        self._peers: dict[int, TcpPeer] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._ids = itertools.count(1)

    @property
    def port(self) -> int:
        assert self._server is not None, "start() the host first"
        return int(self._server.sockets[0].getsockname()[1])

    @property
    def connections(self) -> int:
        return len(self._peers)

    def over_budget(self) -> bool:
        """Whether all peers' unsent data together exceed ``outbox_budget``."""
        return sum(p.unsent() for p in self._peers.values()) > self.config.outbox_budget

    async def start(self) -> None:
        self._server = await asyncio.start_server(
            self._handle, self.config.bind, self.config.port, limit=protocol.MAX_CLIENT_FRAME * 2
        )
        log.info("listening on %s:%d", self.config.bind, self.port)

    async def stop(self, reason: str = "the host is shutting down") -> None:
        """Close the server and every connection (telling them why), then stop the hub."""
        if self._server is not None:
            self._server.close()
        message = protocol.encode(protocol.error(ErrorCode.SHUTTING_DOWN, reason))
        for peer in list(self._peers.values()):
            peer.deliver(message)
            peer.close()
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=CLOSE_GRACE + 1)
        for peer in list(self._peers.values()):
            peer.abort()
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=1)
        self.hub.shutdown(wait=True)
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 5)

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        pid = next(self._ids)
        peer = TcpPeer(pid, writer, self.config.outbox_limit, self)
        try:
            busy = ""
            if len(self._peers) >= self.config.max_connections:
                busy = "this host has too many connections"
            elif (
                sum(1 for p in self._peers.values() if p.address == peer.address)
                >= self.config.max_per_address
            ):
                busy = (
                    f"this host already has {self.config.max_per_address} connections from "
                    f"your address ({peer.address})"
                )
            if busy:
                peer.deliver(protocol.encode(protocol.error(ErrorCode.BUSY, busy)))
                return
            self._peers[pid] = peer
            self.hub.attach(peer)
            reason = await self._read_loop(reader, peer)
            log.info("%s: connection ended (%s)", peer.label, reason)
        except Exception:
            log.exception("%s: connection failed", peer.label)
        finally:
            self._peers.pop(pid, None)
            self.hub.detach(peer)
            peer.close()
            if task is not None:
                self._tasks.discard(task)

    async def _read_loop(self, reader: asyncio.StreamReader, peer: TcpPeer) -> str:
        cfg = self.config
        tokens = cfg.burst
        last = time.monotonic()
        while not peer.closing:
            member = self.hub.members.get(peer.pid)
            if member is None:
                return "dropped by the host"
            wait = cfg.idle_timeout if member.greeted else cfg.hello_timeout
            try:
                async with asyncio.timeout(wait):
                    first = await reader.readexactly(1)
            except TimeoutError:
                text = (
                    f"no message for {wait:g} s; send a ping now and then"
                    if member.greeted
                    else f'no "hello" within {wait:g} s'
                )
                self._fatal(peer, ErrorCode.IDLE, text)
                return "idle"
            except (asyncio.IncompleteReadError, ConnectionError):
                return "closed by the client"
            try:
                # From its first byte, the whole frame must arrive within frame_timeout.
                async with asyncio.timeout(cfg.frame_timeout):
                    header = first + await reader.readexactly(protocol.HEADER_BYTES - 1)
                    length = protocol.frame_length(header, protocol.MAX_CLIENT_FRAME)
                    body = await reader.readexactly(length)
            except ProtocolError as exc:
                self._fatal(peer, exc.code, exc.text)
                return exc.text
            except TimeoutError:
                self._fatal(
                    peer,
                    ErrorCode.BAD_FRAME,
                    f"frame not received whole within {cfg.frame_timeout:g} s of its first byte",
                )
                return "incomplete frame"
            except (asyncio.IncompleteReadError, ConnectionError):
                return "closed mid-frame"
            now = time.monotonic()
            tokens = min(cfg.burst, tokens + (now - last) * cfg.rate)
            last = now
            if tokens < 1:
                self._fatal(peer, ErrorCode.FLOOD, "too many messages too fast")
                return "flood"
            tokens -= 1
            self.hub.receive(peer, body)
        return "closed by the host"

    def _fatal(self, peer: TcpPeer, code: str, text: str) -> None:
        member = self.hub.members.get(peer.pid)
        if member is not None:
            self.hub.send(member, protocol.error(code, text))
            self.hub.drop(member, text)
        else:
            peer.deliver(protocol.encode(protocol.error(code, text)))
        peer.close()
