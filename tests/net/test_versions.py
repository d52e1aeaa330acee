"""Versions on the wire (``net/versions.py``, ``docs/protocol.md`` "Versions"): the hello and
the welcome carry the program version and every game's rules version beside the protocol
version; a guest of another release, or a table whose rules differ, is refused with one
message naming both versions and where to get the host's — by the host, and by the guest
when the host does not check — in English, Japanese and Dutch, from ``lantern join`` too.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from game.core.registry import get_game
from game.ui.i18n import set_language
from net import host_messages, protocol, versions
from net.client import AsyncClient
from net.headless import HeadlessOptions, JoinError, play_headless
from net.host import HostConfig, TcpHost
from net.hub import Hub
from net.protocol import PROTOCOL_VERSION, ErrorCode
from net.versions import Versions, check_guest, check_host, describe, from_refusal
from tests.net.helpers import read_until_closed, run

ROOT = Path(__file__).resolve().parents[2]

# ---- the policy --------------------------------------------------------------------------------


def test_the_same_release_series_plays_and_another_does_not() -> None:
    assert versions.programs_compatible("0.2.0", "0.2.7")  # a patch release: bug fixes only
    assert versions.programs_compatible("1.4.0rc1", "1.4.2")
    assert not versions.programs_compatible("0.2.0", "0.3.0")
    assert not versions.programs_compatible("1.2.0", "2.2.0")
    assert not versions.programs_compatible("banana", "0.2.0")
    assert versions.programs_compatible("banana", "banana")


def test_every_game_has_a_rules_version_and_the_hello_says_them() -> None:
    rules = versions.rules_versions()
    for game in ("kingdom-builder", "keyflower", "glen-more"):
        assert rules[game] == get_game(game).rules_version >= 1
    hello = {"t": "hello", "version": PROTOCOL_VERSION, **versions.hello_fields()}
    assert protocol.validate_client(hello)["rules"] == rules
    assert hello["program"] == versions.PROGRAM_VERSION


def test_the_checks_of_both_sides() -> None:
    host = Versions(PROTOCOL_VERSION, "0.2.0", {"glen-more": 1, "keyflower": 1}, 7780)
    guest = {"version": PROTOCOL_VERSION, "program": "0.2.3", "rules": {"glen-more": 1}}
    assert check_guest(host, guest) is None
    assert check_guest(host, guest, "glen-more") is None
    other = check_guest(host, guest, "keyflower")  # the guest has no Keyflower at all
    assert other is not None and (other.why, other.host_rules, other.guest_rules) == (
        "rules",
        1,
        None,
    )
    newer = check_guest(host, {**guest, "program": "0.3.0"})
    assert newer is not None and (newer.why, newer.code) == ("program", "version_mismatch")
    assert check_guest(host, {"version": PROTOCOL_VERSION}, "glen-more") is None  # a script
    old = check_guest(host, {**guest, "version": PROTOCOL_VERSION + 1})
    assert old is not None and old.why == "protocol"
    me = Versions(PROTOCOL_VERSION, "0.2.0", {"glen-more": 1}, None)
    welcome = {"version": PROTOCOL_VERSION, "program": "0.2.1", "rules": {"glen-more": 2}}
    assert check_host(welcome, None, me) is None
    rules = check_host(welcome, "glen-more", me)
    assert rules is not None and rules.code == "rules_mismatch"
    silent = check_host({"version": PROTOCOL_VERSION}, None, me)  # a host that says nothing
    assert silent is not None and silent.why == "unknown"


# ---- the host refuses ---------------------------------------------------------------------------


class Host:
    """A real host on 127.0.0.1 in its own thread; its versions can be made other."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.hub = Hub(autosave=False)
        self.server = TcpHost(self.hub, HostConfig(bind="127.0.0.1", port=0))
        asyncio.run_coroutine_threadsafe(self.server.start(), self.loop).result(5)

    def call(self, fn: Any) -> Any:
        async def run_it() -> Any:
            return fn()

        return asyncio.run_coroutine_threadsafe(run_it(), self.loop).result(5)

    @property
    def port(self) -> int:
        return self.server.port

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self.server.stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


@pytest.fixture
def host() -> Iterator[Host]:
    h = Host()
    yield h
    h.stop()


def test_the_welcome_carries_the_program_rules_and_install_page(host: Host) -> None:
    host.hub.install_port = 7780

    async def body() -> dict[str, Any]:
        client = await AsyncClient.connect("127.0.0.1", host.port)
        welcome = await client.hello("Ann")
        await client.close()
        return welcome

    welcome = run(body)
    assert welcome["program"] == versions.PROGRAM_VERSION
    assert welcome["rules"] == versions.rules_versions()
    assert welcome["install"] == 7780
    assert host_messages.validate_host(welcome)["install"] == 7780


def test_a_guest_of_another_release_is_refused_with_both_versions(host: Host) -> None:
    host.hub.program = "0.9.1"
    host.hub.install_port = 7780

    async def body() -> list[dict[str, Any]]:
        reader, writer = await asyncio.open_connection("127.0.0.1", host.port)
        hello = {"t": "hello", "version": PROTOCOL_VERSION, **versions.hello_fields()}
        writer.write(protocol.encode(hello))
        got = await read_until_closed(reader)
        writer.close()
        return got

    (refusal,) = run(body)  # the connection is closed after it
    assert refusal["code"] == ErrorCode.VERSION_MISMATCH
    assert refusal["versions"] == {
        "protocol": PROTOCOL_VERSION,
        "program": "0.9.1",
        "install": 7780,
    }
    assert "0.9.1" in refusal["text"] and versions.PROGRAM_VERSION in refusal["text"]
    mismatch = from_refusal(host_messages.validate_host(refusal))
    assert (mismatch.why, mismatch.host_program, mismatch.install) == ("program", "0.9.1", 7780)


def test_a_table_of_other_rules_is_never_joined(host: Host) -> None:
    """The guest says it has Glen More rules 99: creating or joining a Glen More table is
    refused (the connection stays); a Keyflower table of the same rules is joined."""
    glen = host.call(lambda: host.hub.create_table("glen-more", 2, pinned=True)).table_id
    flower = host.call(lambda: host.hub.create_table("keyflower", 2, pinned=True)).table_id

    async def body() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        client = await AsyncClient.connect("127.0.0.1", host.port)
        rules = {**versions.rules_versions(), "glen-more": 99}
        await client.send({"t": "hello", "version": PROTOCOL_VERSION, "name": "G",
                           "program": versions.PROGRAM_VERSION, "rules": rules})  # fmt: skip
        await client.expect("welcome")
        await client.send({"t": "join", "table": glen})
        joined = await client.expect("joined", "error")
        await client.send({"t": "create_table", "game": "glen-more", "players": 2})
        created = await client.expect("joined", "error")
        await client.send({"t": "join", "table": flower})
        other = await client.expect("joined", "error")
        await client.close()
        return joined, created, other

    joined, created, other = run(body)
    for refusal in (joined, created):
        assert refusal["t"] == "error" and refusal["code"] == ErrorCode.RULES_MISMATCH
        assert refusal["versions"]["game"] == "glen-more"
        assert refusal["versions"]["rules"] == get_game("glen-more").rules_version
        assert "rules version" in refusal["text"]
    assert other["t"] == "joined"
    assert host.call(lambda: host.hub.tables[glen].seats[0].kind) == "open"


# ---- the guest refuses, and says it in its language -----------------------------------------

EXPECTED = {
    "en": ("This host runs Lantern Table 0.9.1 and you have", "install page"),
    "ja": ("このホストはランタン・テーブル 0.9.1", "インストールページ"),
    "nl": ("Deze host draait Lantern Table 0.9.1", "installatiepagina"),
}


@pytest.mark.parametrize("language", ["en", "ja", "nl"])
def test_the_message_names_both_versions_and_the_install_page(language: str) -> None:
    mismatch = from_refusal(
        {
            "code": "version_mismatch",
            "versions": {"protocol": PROTOCOL_VERSION, "program": "0.9.1", "install": 7780},
        }
    )
    set_language(language)
    try:
        text = describe(mismatch, "192.168.1.20")
        rules = describe(
            from_refusal(
                {
                    "code": "rules_mismatch",
                    "versions": {
                        "protocol": PROTOCOL_VERSION,
                        "program": "0.9.1",
                        "game": "glen-more",
                        "rules": 7,
                        "install": None,
                    },
                }
            ),
            "192.168.1.20",
        )
    finally:
        set_language("en")
    start, page = EXPECTED[language]
    assert text.startswith(start) and page in text
    assert versions.PROGRAM_VERSION in text
    assert "http://192.168.1.20:7780/" in text
    assert "pip install --index-url http://192.168.1.20:7780/simple/ lantern-table==0.9.1" in text
    assert " 7 " in rules and str(get_game("glen-more").rules_version) in rules
    assert "http://" not in rules  # that host serves no install page: ask the host


def test_the_headless_player_refuses_a_host_of_another_release(host: Host) -> None:
    host.hub.program = "0.9.1"

    async def body() -> None:
        await play_headless("127.0.0.1", host.port, HeadlessOptions(join_timeout=2))

    with pytest.raises(JoinError) as caught:
        run(body)
    assert caught.value.mismatch is not None and caught.value.mismatch.host_program == "0.9.1"


def test_the_headless_player_skips_tables_of_other_rules(host: Host) -> None:
    """A host that does not check (it takes any guest) but says its rules: the guest does not
    sit down at its Glen More table of other rules."""
    host.hub.rules = {**versions.rules_versions(), "glen-more": 99}
    host.call(lambda: host.hub.create_table("glen-more", 2, pinned=True))

    async def body() -> None:
        await play_headless("127.0.0.1", host.port, HeadlessOptions(join_timeout=2))

    with pytest.raises(JoinError) as caught:
        run(body)
    mismatch = caught.value.mismatch
    assert mismatch is not None and (mismatch.why, mismatch.host_rules) == ("rules", 99)
    assert host.call(lambda: [s.kind for t in host.hub.tables.values() for s in t.seats]) == [
        "open",
        "open",
    ]


@pytest.mark.parametrize("lang", ["en_GB.UTF-8", "ja_JP.UTF-8", "nl_NL.UTF-8"])
def test_lantern_join_says_it_in_the_system_language(host: Host, tmp_path: Path, lang: str) -> None:
    host.hub.program = "0.9.1"
    host.hub.install_port = 7780
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env.update(
        LANG=lang,
        LANTERN_CONFIG_DIR=str(tmp_path / "config"),
        LANTERN_DATA_DIR=str(tmp_path / "data"),
        PYTHONPATH=str(ROOT),
    )
    done = subprocess.run(
        [sys.executable, "-m", "game", "join", f"127.0.0.1:{host.port}", "--headless"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        cwd=tmp_path,
    )
    assert done.returncode == 1
    (line,) = done.stderr.strip().splitlines()
    start, page = EXPECTED[lang[:2]]
    assert line.startswith("lantern join: " + start) and page in line
    assert "http://127.0.0.1:7780/" in line and "Traceback" not in done.stderr
