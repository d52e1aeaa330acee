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

Anyone on the LAN can send datagrams, so both sides are bounded (``docs/protocol.md``,
"Limits"):

* a browser keeps what a beacon says only after checking it like a host message: the host name
  cleaned of control characters and cut to :data:`MAX_HOST_NAME` characters, each table checked
  against :data:`net.host_messages.TABLE_SUMMARY` (a malformed table is left out), at most
  :data:`MAX_TABLES_PER_HOST` tables per host; and it lists at most :data:`MAX_HOSTS_PER_ADDRESS`
  hosts (TCP ports) per sender address and :data:`MAX_HOSTS` in all — a beacon from a new host
  beyond these is ignored until older entries are forgotten;
* an announcer answers probes at most :data:`PROBE_ANSWERS_PER_ADDRESS` times a second per
  sender address (bursts of :data:`PROBE_BURST_PER_ADDRESS`) and :data:`PROBE_ANSWERS` times a
  second in all (bursts of :data:`PROBE_BURST`), so a stream of small probes never turns into
  an unbounded stream of beacons.
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

from net import host_messages, protocol

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
#: Longest host name a browser keeps (longer ones are cut).
MAX_HOST_NAME = 64
#: Most tables a browser keeps per host (a beacon of 1,200 bytes holds about 12).
MAX_TABLES_PER_HOST = 16
#: Most hosts (TCP ports) a browser lists per sender address, and in all.
MAX_HOSTS_PER_ADDRESS = 4
MAX_HOSTS = 64
#: Probe answers per second (and bursts) per sender address, and in all.
PROBE_ANSWERS_PER_ADDRESS = 1.0
PROBE_BURST_PER_ADDRESS = 3
PROBE_ANSWERS = 20.0
PROBE_BURST = 40
#: Sender addresses whose probe budget an announcer remembers (the oldest are forgotten).
PROBE_SENDERS_KEPT = 4096

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
        self._senders: dict[str, _Bucket] = {}
        self._all = _Bucket(PROBE_ANSWERS, PROBE_BURST, time.monotonic())
        #: Probes answered and probes left unanswered by the rate limits (for tests, logs).
        self.probes_answered = 0
        self.probes_refused = 0

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

    def may_answer(self, sender: str, now: float | None = None) -> bool:
        """Whether a probe from ``sender`` gets a beacon now (the limits of the module
        docstring); each answer spends from the sender's budget and the announcer's."""
        now = time.monotonic() if now is None else now
        bucket = self._senders.get(sender)
        if bucket is None:
            if len(self._senders) >= PROBE_SENDERS_KEPT:
                self._senders.pop(next(iter(self._senders)))
            bucket = self._senders[sender] = _Bucket(
                PROBE_ANSWERS_PER_ADDRESS, PROBE_BURST_PER_ADDRESS, now
            )
        if not bucket.ready(now) or not self._all.ready(now):
            self.probes_refused += 1
            return False
        bucket.take()
        self._all.take()
        self.probes_answered += 1
        return True

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
        if msg is None or msg["t"] != "probe" or self.transport is None:
            return
        if self.may_answer(str(addr[0])):
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


class _Bucket:
    """A token bucket: ``rate`` tokens a second, at most ``burst`` saved up."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens, self.stamp = float(burst), now

    def ready(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + max(0.0, now - self.stamp) * self.rate)
        self.stamp = now
        return self.tokens >= 1.0

    def take(self) -> None:
        self.tokens -= 1.0


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


_TABLE = host_messages.record(host_messages.TABLE_SUMMARY)
_HOST_NAME = protocol.label(MAX_HOST_NAME)


def host_info(msg: dict[str, Any], sender: str) -> HostInfo | None:
    """What a browser keeps of a beacon from ``sender`` (``None`` if it is unusable): the port
    and version checked, the name cleaned and cut, each table checked against
    :data:`net.host_messages.TABLE_SUMMARY` (malformed ones left out), at most
    :data:`MAX_TABLES_PER_HOST` of them."""
    port, name, version, tables = (msg.get(k) for k in ("port", "name", "version", "tables"))
    if not (
        isinstance(port, int)
        and not isinstance(port, bool)
        and 0 < port < 65536
        and isinstance(name, str)
        and isinstance(version, int)
        and not isinstance(version, bool)
        and isinstance(tables, list)
    ):
        return None
    kept = []
    for i, entry in enumerate(tables[:MAX_TABLES_PER_HOST]):
        try:
            kept.append(_TABLE(f"tables[{i}]", entry))
        except protocol.ProtocolError:
            continue
    return HostInfo(sender, port, _HOST_NAME("name", name) or sender, version, kept)


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
        #: Beacons of new hosts left out by the limits (for tests and the curious).
        self.ignored = 0
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
            info = host_info(msg, str(sender[0]))
            if info is not None:
                self.heard(info)

    def heard(self, info: HostInfo) -> bool:
        """Keep ``info`` (a beacon just heard), within the limits of the module docstring:
        a known host is updated; a new one is listed only while its sender address has fewer
        than :data:`MAX_HOSTS_PER_ADDRESS` hosts and the list fewer than :data:`MAX_HOSTS`
        (hosts not heard for :data:`FORGET_AFTER` seconds are forgotten first)."""
        key = (info.address, info.port)
        with self._lock:
            if key not in self._hosts:
                cutoff = time.monotonic() - FORGET_AFTER
                for old in [k for k, h in self._hosts.items() if h.seen < cutoff]:
                    del self._hosts[old]
                same = sum(1 for address, _port in self._hosts if address == info.address)
                if same >= MAX_HOSTS_PER_ADDRESS or len(self._hosts) >= MAX_HOSTS:
                    self.ignored += 1
                    return False
            self._hosts[key] = info
            return True

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
