"""LAN discovery on loopback only: beacons, probes, and junk datagrams (docs/protocol.md)."""

from __future__ import annotations

import asyncio
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
