"""LAN discovery on loopback only: beacons, probes, and junk datagrams (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import contextlib
import re
import socket
import time
from typing import Any

import msgpack
import pytest

from net import discovery
from net.discovery import (
    MAGIC,
    MAX_DATAGRAM,
    Announcer,
    Browser,
    beacon_message,
    decode_datagram,
    default_announce_targets,
    parse_address,
    parse_addresses,
)
from net.protocol import PROTOCOL_VERSION
from tests.net.helpers import connect, run, tcp_host

LOOPBACK = "127.0.0.1"


def wait_hosts(browser: Browser, count: int = 1, timeout: float = 5.0) -> list[Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        hosts = browser.hosts()
        if len(hosts) >= count:
            return hosts
        time.sleep(0.02)
    return browser.hosts()


def test_loopback_hosts_never_broadcast() -> None:
    assert default_announce_targets("127.0.0.1") == [("127.0.0.1", discovery.DISCOVERY_PORT)]
    assert default_announce_targets("127.0.0.5") == [("127.0.0.1", discovery.DISCOVERY_PORT)]
    assert default_announce_targets("0.0.0.0") == [("255.255.255.255", discovery.DISCOVERY_PORT)]


def test_addresses_parse_with_clear_errors() -> None:
    assert parse_address("10.0.0.2:9000", 7777) == ("10.0.0.2", 9000)
    assert parse_address("lanhost", 7777) == ("lanhost", 7777)
    assert parse_address(":7778", 1, any_host=True) == ("", 7778)
    assert parse_addresses("127.0.0.1:1, 127.0.0.2", 5) == [("127.0.0.1", 1), ("127.0.0.2", 5)]
    for bad, reason in [(":80", "no host"), ("h:x", "number"), ("h:70000", "1 to 65535")]:
        with pytest.raises(ValueError, match=reason):
            parse_address(bad, 7777)


def test_beacons_fit_a_datagram_whatever_the_tables() -> None:
    table = {
        "table": "t1", "game": "kingdom-builder", "name": "x" * 32, "players": 4,
        "open": 2, "started": False, "over": False, "title": "Kingdom Builder",
    }  # fmt: skip
    data = beacon_message("host", 7777, [dict(table, table=f"t{i}") for i in range(64)])
    assert len(data) <= MAX_DATAGRAM
    msg = decode_datagram(data)
    assert msg is not None and msg["t"] == "beacon" and msg["more"] > 0
    assert len(msg["tables"]) + msg["more"] == 64


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\xc1\xc1",
        msgpack.packb({"t": "beacon"}),  # no magic
        msgpack.packb({"t": "hello", "magic": MAGIC}),
        msgpack.packb(msgpack.ExtType(1, b"x")),
        b"x" * (MAX_DATAGRAM + 1),
    ],
)
def test_junk_datagrams_are_ignored(data: bytes) -> None:
    assert decode_datagram(data) is None


def test_a_browser_hears_beacons_and_probe_answers_on_loopback(bid_race: str) -> None:
    browser = Browser(listen=(LOOPBACK, 0))
    try:

        async def body() -> None:
            async with tcp_host() as host:
                host.hub.create_table(bid_race, 3, name="Friday", pinned=True)
                announcer = Announcer(
                    "Lantern test", host.port, host.hub.summaries, [browser.address], interval=0.1
                )
                await announcer.start(LOOPBACK, 0)
                try:
                    hosts = await asyncio.to_thread(wait_hosts, browser)
                    assert len(hosts) == 1
                    info = hosts[0]
                    assert (info.address, info.port, info.name) == (
                        LOOPBACK,
                        host.port,
                        "Lantern test",
                    )
                    assert info.compatible and info.version == PROTOCOL_VERSION
                    assert info.tables[0]["name"] == "Friday" and info.tables[0]["open"] == 3
                    # What the beacon says is what a client finds there.
                    client = await connect(host)
                    await client.send({"t": "join", "table": info.tables[0]["table"]})
                    assert (await client.expect("joined"))["seat"] == 0
                    await client.close()
                    # A second browser that only probes gets an answer straight back.
                    prober = Browser(listen=(LOOPBACK, 0), probe=[(LOOPBACK, announcer.udp_port)])
                    try:
                        heard = await asyncio.to_thread(wait_hosts, prober)
                        assert [h.port for h in heard] == [host.port]
                    finally:
                        prober.close()
                finally:
                    announcer.close()

        run(body, timeout=20)
    finally:
        browser.close()


def test_junk_sent_to_the_announcer_is_ignored(bid_race: str) -> None:
    async def body() -> None:
        announcer = Announcer("h", 1234, lambda: [], [], interval=10)
        await announcer.start(LOOPBACK, 0)
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
                sock.bind((LOOPBACK, 0))
                sock.settimeout(1.0)
                for junk in (b"\xc1", msgpack.packb({"t": "probe"}), b"\x00" * 2000):
                    sock.sendto(junk, (LOOPBACK, announcer.udp_port))
                probe = msgpack.packb({"t": "probe", "magic": MAGIC, "version": PROTOCOL_VERSION})
                sock.sendto(probe, (LOOPBACK, announcer.udp_port))
                data = await asyncio.to_thread(sock.recv, 4096)
                reply = decode_datagram(data)
                assert reply is not None and reply["port"] == 1234
        finally:
            announcer.close()

    run(body, timeout=10)


def test_join_discover_lists_what_it_hears(bid_race: str) -> None:
    """``lantern join --discover --listen ... --probe ...`` as a process, loopback only."""
    import json
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]

    async def body() -> None:
        async with tcp_host() as host:
            announcer = Announcer("Disco", host.port, host.hub.summaries, [], interval=10)
            await announcer.start(LOOPBACK, 0)
            try:
                proc = await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "tests.net.run_cli", "join", "--discover",
                    "--listen", f"{LOOPBACK}:0", "--probe", f"{LOOPBACK}:{announcer.udp_port}",
                    "--seconds", "0.6", "--json",
                    cwd=root, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
                )  # fmt: skip
                out, err = await proc.communicate()
                assert proc.returncode == 0, err
                hosts = json.loads(out)
                assert [(h["name"], h["port"]) for h in hosts] == [("Disco", host.port)]
            finally:
                announcer.close()

    run(body, timeout=30)


# ---- hostile datagrams (issue 9, "LAN discovery"; docs/protocol.md "Limits") ------------------

HOSTILE_NAME = "\x1b[2J\x1b]0;pwned\x07Evil\r\nHost\u202e"


def beacon(port: int, name: str = "Host", tables: Any = None, **extra: Any) -> bytes:
    msg = {
        "t": "beacon",
        "magic": MAGIC,
        "version": PROTOCOL_VERSION,
        "name": name,
        "port": port,
        "tables": [] if tables is None else tables,
        **extra,
    }
    return msgpack.packb(msg)


def good_table(i: int = 1, **changes: Any) -> dict[str, Any]:
    return {
        "table": f"t{i}",
        "game": "kingdom-builder",
        "name": f"Table {i}",
        "players": 3,
        "open": 1,
        "started": False,
        "over": False,
        **changes,
    }


MALFORMED_TABLES: list[Any] = [
    {},
    {"table": "t1"},
    good_table(open="1"),
    good_table(players=None),
    good_table(table="bad id with spaces"),
    good_table(name=5),
    good_table(name="N" * 100),
    good_table(started="no"),
    5,
    "t1",
    None,
    [good_table()],
]


def test_a_beacon_keeps_only_what_checks_out() -> None:
    msg = decode_datagram(beacon(7000, HOSTILE_NAME, [*MALFORMED_TABLES, good_table(2)]))
    assert msg is not None
    info = discovery.host_info(msg, LOOPBACK)
    assert info is not None
    assert info.name == "Evil Host"
    assert [t["table"] for t in info.tables] == ["t2"]
    assert info.tables[0]["name"] == "Table 2"
    many = decode_datagram(beacon(7000, "x" * 300, [good_table(i) for i in range(30)]))
    assert many is None or len(discovery.host_info(many, LOOPBACK).tables) <= 16  # type: ignore[union-attr]
    info = discovery.host_info({"port": 7000, "name": "x" * 300, "version": 1, "tables": []}, "h")
    assert info is not None and len(info.name) == discovery.MAX_HOST_NAME
    for bad in ({"port": "7000"}, {"port": 0}, {"port": True}, {"version": "1"}, {"tables": {}}):
        fields = {"port": 7000, "name": "h", "version": 1, "tables": [], **bad}
        assert discovery.host_info(fields, "h") is None


def free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.bind((LOOPBACK, 0))
        return int(sock.getsockname()[1])


def send_for(port: int, datagrams: list[bytes], seconds: float, source: str = LOOPBACK) -> None:
    """Send ``datagrams`` to ``port`` over and over for ``seconds`` (from a thread)."""
    deadline = time.monotonic() + seconds
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.bind((source, 0))
        while time.monotonic() < deadline:
            for data in datagrams:
                sock.sendto(data, (LOOPBACK, port))
            time.sleep(0.05)


@pytest.mark.parametrize("mode", ["text", "json"])
def test_join_discover_survives_malformed_beacons(
    mode: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``tables: [{}]`` (and every other malformed table) never crashes ``join --discover``;
    names lose their control characters and line breaks."""
    import json
    import threading

    from game.cli import main

    port = free_udp_port()
    datagrams = [
        beacon(7001, HOSTILE_NAME, [{}]),
        beacon(7002, "Mixed", [*MALFORMED_TABLES, good_table(3, name="Fri\nday\x1b[1m")]),
        beacon(7003, "\n\n", [good_table(4)]),
    ]
    sender = threading.Thread(target=send_for, args=(port, datagrams, 1.5))
    sender.start()
    argv = ["join", "--discover", "--listen", f"{LOOPBACK}:{port}", "--seconds", "1.0"]
    code = main(argv + (["--json"] if mode == "json" else []))
    sender.join()
    out, err = capsys.readouterr()
    assert code == 0, err
    assert not re.search(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]", out), repr(out)
    if mode == "json":
        hosts = {h["port"]: h for h in json.loads(out)}
        assert hosts[7001]["name"] == "Evil Host" and hosts[7001]["tables"] == []
        assert [t["name"] for t in hosts[7002]["tables"]] == ["Fri day"]
        assert hosts[7003]["name"] == LOOPBACK  # nothing printable left: the address stands in
    else:
        lines = out.splitlines()
        assert len(lines) == 3, out
        assert any("Evil Host  no tables" in line for line in lines)
        assert any("Mixed  t3 kingdom-builder (1 open)" in line for line in lines)


def test_the_list_is_capped_per_sender_address_and_in_all() -> None:
    browser = Browser(listen=(LOOPBACK, 0))
    try:
        tables = [good_table(i) for i in range(3)]
        for port in range(1, 20_001):  # 20,000 hosts from one address
            browser.heard(discovery.HostInfo(LOOPBACK, port, "h", 1, tables))
        assert len(browser.hosts()) == discovery.MAX_HOSTS_PER_ADDRESS
        for a in range(2, 202):  # 200 more addresses, 4 hosts each
            for port in range(1, 5):
                browser.heard(discovery.HostInfo(f"127.0.{a // 256}.{a % 256}", port, "h", 1, []))
        assert len(browser.hosts()) == discovery.MAX_HOSTS
        # A known host is still updated when the list is full.
        assert browser.heard(discovery.HostInfo(LOOPBACK, 1, "renamed", 1, []))
        assert any(h.name == "renamed" for h in browser.hosts())
        # Hosts not heard for FORGET_AFTER seconds make room.
        for h in browser._hosts.values():
            h.seen -= discovery.FORGET_AFTER + 1
        assert browser.heard(discovery.HostInfo("10.0.0.9", 7777, "late", 1, []))
        assert [h.name for h in browser.hosts()] == ["late"]
    finally:
        browser.close()


def test_20000_fake_hosts_from_one_socket_make_a_short_list() -> None:
    """The attack of issue 9 over a real socket: 20,000 beacons, each a different TCP port
    with three tables, from one UDP socket.  The list holds 4 hosts (12 table rows)."""
    browser = Browser(listen=(LOOPBACK, 0))
    try:
        tables = [good_table(i) for i in range(3)]
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.bind((LOOPBACK, 0))
            for port in range(1, 20_001):
                sock.sendto(beacon(port, f"fake {port}", tables), browser.address)
                if port % 500 == 0:
                    time.sleep(0.01)  # let the browser read (a full buffer only drops more)
        time.sleep(0.3)
        hosts = browser.hosts()
        rows = sum(max(1, len(h.tables)) for h in hosts)
        assert len(hosts) == discovery.MAX_HOSTS_PER_ADDRESS and rows == 12
        assert browser.ignored > 1000
    finally:
        browser.close()


def test_probe_answers_are_rate_limited_per_sender_and_in_all() -> None:
    announcer = Announcer("h", 1234, lambda: [], [], interval=10)
    t0 = 1000.0
    # One sender: a burst of 3, then one a second.
    answered = sum(announcer.may_answer("10.0.0.1", t0 + i * 0.001) for i in range(100))
    assert answered == discovery.PROBE_BURST_PER_ADDRESS
    assert sum(announcer.may_answer("10.0.0.1", t0 + 1.0 + i * 0.01) for i in range(100)) == 1
    # Many senders: at most PROBE_BURST at once, then PROBE_ANSWERS a second in all.
    fresh = Announcer("h", 1234, lambda: [], [], interval=10)
    burst = sum(fresh.may_answer(f"10.1.{i // 256}.{i % 256}", t0) for i in range(1000))
    assert burst == discovery.PROBE_BURST
    later = sum(fresh.may_answer(f"10.2.{i // 256}.{i % 256}", t0 + 1.0) for i in range(1000))
    assert later == int(discovery.PROBE_ANSWERS)
    # The memory of senders is bounded.
    for i in range(discovery.PROBE_SENDERS_KEPT + 500):
        fresh.may_answer(f"10.3.{i // 256}.{i % 256}", t0 + 2.0)
    assert len(fresh._senders) == discovery.PROBE_SENDERS_KEPT


def probe_flood(seconds: float, sources: list[str]) -> tuple[int, int, int, int]:
    """Flood a real announcer (with 12 tables, so its beacon is near the 1,200-byte limit)
    with probes from ``sources`` for ``seconds``; return (probes, bytes in, answers, bytes
    out)."""
    tables = [
        {**good_table(i), "name": "A long table name here", "title": "Kingdom Builder"}
        for i in range(12)
    ]
    probe = msgpack.packb({"t": "probe", "magic": MAGIC, "version": PROTOCOL_VERSION})

    async def body() -> tuple[int, int, int, int]:
        announcer = Announcer("Flooded host", 7777, lambda: tables, [], interval=60)
        await announcer.start(LOOPBACK, 0)
        socks = []
        try:
            for source in sources:
                sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                sock.bind((source, 0))
                sock.setblocking(False)
                socks.append(sock)
            sent = received = received_bytes = 0
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline:
                for sock in socks:
                    for _ in range(5):
                        with contextlib.suppress(BlockingIOError):
                            sock.sendto(probe, (LOOPBACK, announcer.udp_port))
                            sent += 1
                    while True:
                        try:
                            data = sock.recv(4096)
                        except BlockingIOError:
                            break
                        received += 1
                        received_bytes += len(data)
                await asyncio.sleep(0.001)
            await asyncio.sleep(0.1)
            for sock in socks:
                while True:
                    try:
                        received_bytes += len(sock.recv(4096))
                        received += 1
                    except BlockingIOError:
                        break
            assert received == announcer.probes_answered
            return sent, sent * len(probe), received, received_bytes
        finally:
            for sock in socks:
                sock.close()
            announcer.close()

    return run(body, timeout=seconds + 20)


def test_a_probe_flood_gets_a_bounded_number_of_answers() -> None:
    seconds = 1.0
    probes, bytes_in, answers, bytes_out = probe_flood(seconds, [LOOPBACK])
    assert probes > 1000
    assert answers <= discovery.PROBE_BURST_PER_ADDRESS + seconds * 1.2  # ~1 a second
    assert bytes_out / bytes_in < 0.5
    sources = [f"127.0.1.{i}" for i in range(1, 101)]  # 100 loopback addresses
    probes, bytes_in, answers, bytes_out = probe_flood(seconds, sources)
    assert answers <= discovery.PROBE_BURST + seconds * discovery.PROBE_ANSWERS * 1.1 + 2


@pytest.mark.slow
def test_probe_flood_figures() -> None:
    """The figures of the report: 10 s of probes from one address and from 100 addresses."""
    for sources in ([LOOPBACK], [f"127.0.1.{i}" for i in range(1, 101)]):
        probes, bytes_in, answers, bytes_out = probe_flood(10.0, sources)
        beacon_size = bytes_out / max(1, answers)
        print(
            f"\n{len(sources)} source address(es), 10 s: {probes} probes ({bytes_in} B), "
            f"{answers} answers ({bytes_out} B, {beacon_size:.0f} B each, "
            f"{beacon_size / (bytes_in / probes):.1f}x a probe): "
            f"out/in = {bytes_out / bytes_in:.4f}"
        )
