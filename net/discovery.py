"""LAN discovery: hosts announce their tables over UDP, clients list what they hear.

* A host's :class:`Announcer` sends a **beacon** — one msgpack map
  ``{"t": "beacon", "magic": "lantern-table", "version", "name", "port", "tables"}`` of at most
  :data:`MAX_DATAGRAM` bytes — to each of its announce addresses every ``interval`` seconds,
  and answers a **probe** (``{"t": "probe", "magic": "lantern-table", "version"}``) that reaches
  its UDP socket with a beacon sent straight back to the prober.
* A client's :class:`Browser` listens on a UDP address (by default port
  :data:`DISCOVERY_PORT` on every interface), sends probes to its probe addresses, and keeps
  the hosts it heard from in the last :data:`FORGET_AFTER` seconds, each with the IP address the
  datagram came from and the TCP port the beacon names.

Every address is configurable.  A host bound to a loopback address announces only to
``127.0.0.1`` (:func:`default_announce_targets`), so development and CI machines never send a
datagram beyond 127.0.0.0/8.  Datagrams are decoded like frames (strict msgpack, no extension
types, plain values); anything else is ignored.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgpack

from net import protocol

log = logging.getLogger("lantern.discovery")

MAGIC = "lantern-table"
#: The UDP port browsers listen on for beacons.
DISCOVERY_PORT = 7778
#: Largest datagram sent or accepted (fits one Ethernet frame).
MAX_DATAGRAM = 1200
#: Seconds between beacons.
BEACON_INTERVAL = 2.0
#: A host not heard from for this long is dropped from the list.
FORGET_AFTER = 6.0

Address = tuple[str, int]


def is_loopback(host: str) -> bool:
    """True for 127.0.0.0/8, ``::1`` and ``localhost``."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def parse_address(text: str, default_port: int, any_host: bool = False) -> Address:
    """``"HOST[:PORT]"`` -> ``(host, port)``; raises ``ValueError`` with a readable reason.

    With ``any_host`` the address is one to listen on: an empty host (``":7778"``) means every
    interface and port 0 any free port.
    """
    host, sep, port_text = text.strip().rpartition(":")
    if not sep:
        host, port_text = text.strip(), str(default_port)
    if not host and not any_host:
        raise ValueError(f"{text!r} has no host")
    try:
        port = int(port_text)
    except ValueError:
        raise ValueError(f"{text!r}: the port must be a number") from None
    if not (0 if any_host else 1) <= port < 65536:
        raise ValueError(f"{text!r}: the port must be from 1 to 65535")
    return host, port


def parse_addresses(text: str, default_port: int) -> list[Address]:
    """A comma-separated list of :func:`parse_address` addresses."""
    return [parse_address(part, default_port) for part in text.split(",") if part.strip()]


def default_announce_targets(bind: str) -> list[Address]:
    """Where a host bound to ``bind`` announces itself by default.

    A loopback host announces to ``127.0.0.1`` only; any other host broadcasts to the LAN.
    """
    if is_loopback(bind):
        return [("127.0.0.1", DISCOVERY_PORT)]
    return [("255.255.255.255", DISCOVERY_PORT)]


def _is_broadcast(host: str) -> bool:
    return host in ("<broadcast>", "255.255.255.255") or host.endswith(".255")


def encode_datagram(msg: dict[str, Any]) -> bytes:
    data: bytes = msgpack.packb(msg, use_bin_type=True)
    return data


def decode_datagram(data: bytes) -> dict[str, Any] | None:
    """A well-formed Lantern Table datagram (``beacon`` or ``probe``), or ``None``."""
    if len(data) > MAX_DATAGRAM:
        return None
    try:
        msg = protocol.decode(data, MAX_DATAGRAM)
    except protocol.ProtocolError:
        return None
    if msg.get("magic") != MAGIC or msg["t"] not in ("beacon", "probe"):
        return None
    return msg


def probe_message() -> dict[str, Any]:
    return {"t": "probe", "magic": MAGIC, "version": protocol.PROTOCOL_VERSION}


def beacon_message(name: str, port: int, tables: list[dict[str, Any]]) -> bytes:
    """A beacon of at most :data:`MAX_DATAGRAM` bytes (tables are left out to fit)."""
    listed = [
        {k: t[k] for k in ("table", "game", "name", "players", "open", "started", "over")}
        for t in tables
    ]
    while True:
        data = encode_datagram(
            {
                "t": "beacon",
                "magic": MAGIC,
                "version": protocol.PROTOCOL_VERSION,
                "name": name[:64],
                "port": port,
                "tables": listed,
                "more": len(tables) - len(listed),
            }
        )
        if len(data) <= MAX_DATAGRAM or not listed:
            return data
        listed = listed[:-1]


class Announcer(asyncio.DatagramProtocol):
    """A host's beacons and probe answers (see the module docstring).

    ``tables`` is called for each beacon and returns the current table summaries.
    """

    def __init__(
        self,
        name: str,
        port: int,
        tables: Callable[[], list[dict[str, Any]]],
        targets: list[Address],
        interval: float = BEACON_INTERVAL,
    ) -> None:
        self.name = name
        self.port = port
        self.tables = tables
        self.targets = targets
        self.interval = interval
        self.transport: asyncio.DatagramTransport | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self, bind: str, udp_port: int) -> None:
        """Open the UDP socket on ``(bind, udp_port)`` (an ephemeral port if that is taken)."""
        loop = asyncio.get_running_loop()
        sock = _udp_socket(bind, udp_port, broadcast=any(_is_broadcast(h) for h, _ in self.targets))
        transport, _ = await loop.create_datagram_endpoint(lambda: self, sock=sock)
        self.transport = transport
        self._task = asyncio.create_task(self._beacons())
        log.info(
            "announcing to %s every %g s; probes on UDP %s",
            ", ".join(f"{h}:{p}" for h, p in self.targets) or "nobody",
            self.interval,
            sock.getsockname()[1],
        )

    @property
    def udp_port(self) -> int:
        assert self.transport is not None
        return int(self.transport.get_extra_info("sockname")[1])

    def beacon(self) -> bytes:
        return beacon_message(self.name, self.port, self.tables())

    async def _beacons(self) -> None:
        while True:
            data = self.beacon()
            for target in self.targets:
                if self.transport is None:
                    return
                with contextlib.suppress(OSError):
                    self.transport.sendto(data, target)
            await asyncio.sleep(self.interval)

    def datagram_received(self, data: bytes, addr: tuple[Any, ...]) -> None:
        msg = decode_datagram(data)
        if msg is not None and msg["t"] == "probe" and self.transport is not None:
            with contextlib.suppress(OSError):
                self.transport.sendto(self.beacon(), addr[:2])

    def error_received(self, exc: Exception) -> None:
        log.debug("discovery socket: %s", exc)

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
        if self.transport is not None:
            self.transport.close()
            self.transport = None


def _udp_socket(bind: str, port: int, broadcast: bool = False) -> socket.socket:
    family = socket.AF_INET6 if ":" in bind else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if broadcast:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
    try:
        sock.bind((bind, port))
    except OSError:
        sock.bind((bind, 0))
    sock.setblocking(False)
    return sock


@dataclass
class HostInfo:
    """A host heard on the LAN."""

    address: str
    port: int
    name: str
    version: int
    tables: list[dict[str, Any]]
    seen: float = field(default_factory=time.monotonic)

    @property
    def compatible(self) -> bool:
        return self.version == protocol.PROTOCOL_VERSION

    def to_dict(self) -> dict[str, Any]:
        return {
            "address": self.address,
            "port": self.port,
            "name": self.name,
            "version": self.version,
            "compatible": self.compatible,
            "tables": self.tables,
        }


def _host_info(msg: dict[str, Any], sender: str) -> HostInfo | None:
    port, name, version, tables = (msg.get(k) for k in ("port", "name", "version", "tables"))
    if not (
        isinstance(port, int)
        and 0 < port < 65536
        and isinstance(name, str)
        and isinstance(version, int)
        and isinstance(tables, list)
        and all(isinstance(t, dict) for t in tables)
    ):
        return None
    return HostInfo(sender, port, name, version, tables)


class Browser:
    """Lists the hosts heard on the LAN, from a background thread (never blocks the UI).

    ``listen``: the UDP address to receive beacons on (``("", DISCOVERY_PORT)`` = every
    interface); ``probe``: addresses to send probes to every ``interval`` seconds.
    :meth:`hosts` returns what was heard in the last :data:`FORGET_AFTER` seconds.
    """

    def __init__(
        self,
        listen: Address = ("", DISCOVERY_PORT),
        probe: list[Address] | None = None,
        interval: float = BEACON_INTERVAL,
    ) -> None:
        self.probe_targets = list(probe or [])
        self.interval = interval
        self._sock = _udp_socket(
            listen[0], listen[1], broadcast=any(_is_broadcast(h) for h, _ in self.probe_targets)
        )
        self._sock.settimeout(0.2)
        self._hosts: dict[Address, HostInfo] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="lantern-discovery", daemon=True)
        self._thread.start()

    @property
    def address(self) -> Address:
        host, port = self._sock.getsockname()[:2]
        return str(host), int(port)

    def hosts(self) -> list[HostInfo]:
        cutoff = time.monotonic() - FORGET_AFTER
        with self._lock:
            return sorted(
                (h for h in self._hosts.values() if h.seen >= cutoff),
                key=lambda h: (h.name, h.address, h.port),
            )

    def probe(self) -> None:
        data = encode_datagram(probe_message())
        for target in self.probe_targets:
            with contextlib.suppress(OSError):
                self._sock.sendto(data, target)

    def _run(self) -> None:
        next_probe = 0.0
        while not self._stop.is_set():
            now = time.monotonic()
            if self.probe_targets and now >= next_probe:
                self.probe()
                next_probe = now + self.interval
            try:
                data, sender = self._sock.recvfrom(MAX_DATAGRAM + 1)
            except TimeoutError:
                continue
            except OSError:
                if self._stop.is_set():
                    return
                continue
            msg = decode_datagram(data)
            if msg is None or msg["t"] != "beacon":
                continue
            info = _host_info(msg, str(sender[0]))
            if info is not None:
                with self._lock:
                    self._hosts[(info.address, info.port)] = info

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        self._sock.close()

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def discover(
    listen: Address = ("", DISCOVERY_PORT),
    probe: list[Address] | None = None,
    seconds: float = 2.5,
) -> list[HostInfo]:
    """Listen (and probe) for ``seconds``, then return the hosts heard (blocking; for scripts)."""
    with Browser(listen, probe) as browser:
        time.sleep(seconds)
        return browser.hosts()
