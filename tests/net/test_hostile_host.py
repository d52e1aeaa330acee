"""``lantern join --headless`` against a hostile host (a fake host on 127.0.0.1).

Every malformed reply — a missing or mistyped field in ``welcome``, ``tables``, ``joined``,
``lobby``, ``state``, ``sample``, ``game_over``, ``error``; a game this program does not have;
a ``sample`` the game cannot read; frames that are not msgpack, too large, too deep or too
many maps; oversized chat; escape sequences in texts — ends the run with one clear line on
standard error and exit code 1, never a traceback (docs/protocol.md, "What a client checks").
The good conversation of the same fake host finishes a game (exit 0), so each case differs
from a working one by exactly the malformed message.
"""

from __future__ import annotations

import json
import re
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import msgpack
import pytest

from game.cli import main
from net import protocol
from tests.net.fakehost import (
    FINAL_SCORES,
    FakeHost,
    Peer,
    Replacement,
    frame,
    good_messages,
    headless_script,
    seat_records,
    table_summary,
)

ROOT = Path(__file__).resolve().parents[2]
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def join_in_process(
    port: int, capsys: pytest.CaptureFixture[str], *extra: str
) -> tuple[int, str, str]:
    code = main(
        ["join", f"127.0.0.1:{port}", "--headless", "--bot", "random", "--timeout", "3", *extra]
    )
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_clear_line(code: int, out: str, err: str, *words: str) -> str:
    assert code == 1, (code, out, err)
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("lantern join: "), err
    assert not CONTROL.search(err.rstrip("\n")), repr(err)
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


def with_fields(name: str, **changes: Any) -> dict[str, Any]:
    """The good ``name`` message with fields changed (a value of ``...`` removes the field)."""
    msg = good_messages()[name]
    for key, value in changes.items():
        if value is ...:
            del msg[key]
        else:
            msg[key] = value
    return msg


def deep(levels: int) -> Any:
    value: Any = 0
    for _ in range(levels):
        value = [value]
    return value


ANSI = "\x1b[31mboom\x1b[0m\r\nsecond line\x07\x1b]0;pwned\x07 \x9b2J end\u202e"

#: name -> (message replaced, replacement, words the error line must contain)
CASES: dict[str, tuple[str, Replacement, tuple[str, ...]]] = {
    "welcome without tables": ("welcome", with_fields("welcome", tables=...), ("tables",)),
    "welcome tables not a list": ("welcome", with_fields("welcome", tables="t1"), ("tables",)),
    "welcome tables [{}]": ("welcome", with_fields("welcome", tables=[{}]), ("tables[0]",)),
    "welcome open as text": (
        "welcome",
        with_fields("welcome", tables=[{**table_summary(), "open": "1"}]),
        ("tables[0].open",),
    ),
    "welcome version mistyped": ("welcome", with_fields("welcome", version="1"), ("version",)),
    "tables reply [{}]": (
        "joined",
        [
            protocol.error("table_full", "the table is full"),
            {"t": "tables", "tables": [{"table": 5}]},
        ],
        ("tables[0]",),
    ),
    "joined without token": ("joined", with_fields("joined", token=...), ("token",)),
    "joined seat as text": ("joined", with_fields("joined", seat="0"), ("seat",)),
    "joined seat 99": ("joined", with_fields("joined", seat=99), ("seat",)),
    "joined as a spectator": ("joined", with_fields("joined", seat=None), ("no seat",)),
    "lobby unknown game": ("lobby", with_fields("lobby", game="nope"), ("nope",)),
    "lobby game mistyped": ("lobby", with_fields("lobby", game=7), ("game",)),
    "lobby without started": ("lobby", with_fields("lobby", started=...), ("started",)),
    "lobby seats do not match players": ("lobby", with_fields("lobby", players=3), ("seats",)),
    "lobby seats [1, 2, 3]": ("lobby", with_fields("lobby", seats=[1, 2, 3]), ("seats[0]",)),
    "lobby seat names of 300,000 characters": (
        "lobby",
        with_fields("lobby", seats=[{**s, "name": "N" * 300_000} for s in seat_records()]),
        ("name",),
    ),
    "state without seq": ("state", with_fields("state", seq=...), ("seq",)),
    "state to_move as text": ("state", with_fields("state", to_move="0"), ("to_move",)),
    "state legal of numbers": ("state", with_fields("state", legal=[[1, 2]]), ("legal[0]",)),
    "state legal of maps": ("state", with_fields("state", legal=[{}]), ("legal[0]",)),
    "state events of numbers": ("state", with_fields("state", events=[1]), ("events[0]",)),
    "state view not a map": ("state", with_fields("state", view="board"), ("view",)),
    "state last_action half": (
        "state",
        with_fields("state", last_action={"seat": 0}),
        ("last_action",),
    ),
    "sample state {}": ("sample", with_fields("sample", state={}), ("position",)),
    "sample state of nonsense": (
        "sample",
        with_fields("sample", state={**good_messages()["sample"]["state"], "n": "two", "hands": 5}),
        ("position",),
    ),
    "sample for another seat": ("sample", with_fields("sample", seat=1), ("seat 1",)),
    "game_over without scores": ("game_over", with_fields("game_over", scores=...), ("scores",)),
    "game_over score as text": (
        "game_over",
        with_fields("game_over", scores=[{"total": "3"}, {"total": 5}]),
        ("scores[0]",),
    ),
    "game_over seats [1, 2]": (
        "game_over",
        with_fields("game_over", seats=[1, 2]),
        ("seats[0]",),
    ),
    "game_over winner 5": ("game_over", with_fields("game_over", winners=[5]), ("winners",)),
    "error with escape sequences": (
        "state",
        protocol.error("internal", ANSI),
        ("boom second line", "end"),
    ),
    "error without code": ("joined", {"t": "error", "text": "no"}, ("code",)),
    "left with escape sequences": (
        "state",
        {"t": "left", "table": "t1", "reason": ANSI},
        ("boom second line",),
    ),
    "unknown message type": ("state", {"t": "zap", "x": 1}, ("zap",)),
    "message without type": ("state", {"x": 1}, ("type",)),
    "chat of 1,000,000 characters": (
        "state",
        {"t": "chat", "table": "t1", "seat": 1, "name": "x", "text": "y" * 1_000_000},
        ("text",),
    ),
    "garbage bytes": ("state", frame(b"\xc1\xc1\xc1 not msgpack"), ("msgpack",)),
    "truncated msgpack": ("state", frame(b"\x85\xa1t"), ("truncated",)),
    "stray bytes": ("state", frame(msgpack.packb({"t": "pong", "n": 1}) + b"\x00"), ("stray",)),
    "extension type": ("state", frame(msgpack.packb(msgpack.ExtType(5, b"x"))), ("extension",)),
    "binary data": ("state", frame(msgpack.packb({"t": "pong", "n": b"x"})), ("binary",)),
    "length 0": ("state", struct.pack(">I", 0), ("empty frame",)),
    "length 4 GiB": ("state", struct.pack(">I", 2**32 - 1), ("exceeds",)),
    "nested 900 deep": ("state", frame(msgpack.packb({"t": "pong", "n": deep(900)})), ("deep",)),
    "120,000 empty maps": (
        "state",
        frame(msgpack.packb({"t": "pong", "x": [[{}] * 60_000] * 2})),
        ("maps",),
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_malformed_reply_ends_the_run_with_one_clear_line(
    bid_race: str, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    name, replacement, words = CASES[case]
    with FakeHost(headless_script({name: replacement})) as host:
        code, out, err = join_in_process(host.port, capsys)
        assert not host.errors, host.errors
    assert_one_clear_line(code, out, err, *words)
    assert out == ""


def test_the_good_conversation_of_the_fake_host_finishes_a_game(
    bid_race: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The baseline of every case above: nothing replaced, the game ends, exit 0."""
    with FakeHost(headless_script()) as host:
        code, out, err = join_in_process(host.port, capsys, "--json")
        assert not host.errors, host.errors
    assert code == 0, err
    result = json.loads(out)
    assert result["scores"] == FINAL_SCORES
    assert result["winners"] == [1] and result["seat"] == 0 and result["table"] == "t1"


def test_fields_a_message_does_not_define_are_ignored(
    bid_race: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Extra fields (and chat lines, with escape sequences) do not disturb the game."""
    chat = {"t": "chat", "table": "t1", "seat": 1, "name": "\x1b[2JEve", "text": ANSI}
    with FakeHost(
        headless_script(
            {
                "welcome": with_fields("welcome", extra={"deep": deep(20)}),
                "state": [chat, with_fields("state", bonus=[1, 2, 3])],
            }
        )
    ) as host:
        code, out, err = join_in_process(host.port, capsys)
    assert code == 0, err
    assert f"{bid_race} table t1, seat 0" in out and not CONTROL.search(out)


def run_join(port: int, *extra: str, timeout: float = 60) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.net.run_cli",
            "join",
            f"127.0.0.1:{port}",
            "--headless",
            "--bot",
            "random",
            "--timeout",
            "3",
            *extra,
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.parametrize("mode", [(), ("--json",)])
@pytest.mark.parametrize(
    "case", ["welcome tables [{}]", "sample state {}", "error with escape sequences"]
)
def test_the_real_command_fails_cleanly_in_text_and_json_mode(
    bid_race: str, case: str, mode: tuple[str, ...]
) -> None:
    name, replacement, words = CASES[case]
    with FakeHost(headless_script({name: replacement})) as host:
        proc = run_join(host.port, *mode)
        out, err = proc.communicate(timeout=60)
    assert_one_clear_line(proc.returncode, out, err, *words)
    assert out == ""


def rss_kib(pid: int, field: str = "VmHWM") -> int:
    """A process's peak (``VmHWM``) or current (``VmRSS``) resident memory in KiB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise AssertionError(f"no {field} for {pid}")


def chat_stream_script(stop: threading.Event, sent: list[int]) -> Any:
    """A host that answers ``join`` with nothing but 1 MiB chat frames until ``stop`` is set.

    Each frame is a valid ``chat`` message padded with a field no message defines, so the
    client must neither refuse it nor keep it: memory stays bounded however long it goes on.
    """
    pad = "p" * ((1 << 20) - 200)
    body = msgpack.packb(
        {"t": "chat", "table": "t1", "seat": 1, "name": "Eve", "text": "hi", "pad": pad}
    )
    assert len(body) <= protocol.MAX_FRAME
    data = frame(body)

    async def script(peer: Peer) -> None:
        await peer.expect("hello")
        await peer.send(good_messages()["welcome"])
        await peer.expect("join")
        while not stop.is_set():
            await peer.send(data)
            sent[0] += len(data)

    return script


def measure_chat_stream(seconds: float) -> tuple[int, int, int, str]:
    """Run ``lantern join --headless --json`` against :func:`chat_stream_script` for
    ``seconds``; return the client's peak RSS (KiB) after the first second and at the end,
    the bytes sent, and its standard error."""
    sent = [0]
    stop = threading.Event()
    with FakeHost(chat_stream_script(stop, sent)) as host:
        proc = run_join(host.port, "--json")
        time.sleep(1.0)
        early = rss_kib(proc.pid)
        time.sleep(seconds - 1.0)
        late = rss_kib(proc.pid)
        stop.set()
        host.close()
        _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1
    return early, late, sent[0], err


def test_a_host_streaming_1_mib_chat_frames_does_not_grow_the_client(bid_race: str) -> None:
    """Skipped messages are not kept: peak memory after 3 s of 1 MiB chat frames is close to
    the peak after the first few (the 10 s figure is in test_..._for_10_s, marked slow)."""
    early, late, sent, err = measure_chat_stream(3.0)
    assert sent > 20 << 20, sent  # the client kept reading: at least 20 MiB went through
    assert "closed the connection" in err
    assert late - early < 64 * 1024, (early, late)  # KiB
    assert "Traceback" not in err and len(err.splitlines()) == 1


@pytest.mark.slow
def test_a_host_streaming_1_mib_chat_frames_for_10_s(bid_race: str) -> None:
    early, late, sent, _err = measure_chat_stream(10.0)
    print(
        f"\n10 s of 1 MiB chat frames: {sent / 2**20:.0f} MiB sent, "
        f"peak RSS {early / 1024:.1f} MiB after 1 s, {late / 1024:.1f} MiB after 10 s"
    )
    assert late - early < 64 * 1024, (early, late)


def test_a_sample_of_a_newer_position_is_played(
    bid_race: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """In a simultaneous phase another seat may commit between this seat's ``state`` and its
    ``sample``: the host samples its current position (a newer ``seq``, the same decision), and
    the player acts on it — once (regression: it used to wait for a sample of the old seq)."""
    good = good_messages()
    newer_state = {**good["state"], "seq": 1, "decision": 0}
    newer_sample = {**good["sample"], "seq": 1}
    with FakeHost(headless_script({"sample": [newer_state, newer_sample]})) as host:
        code, _out, err = join_in_process(host.port, capsys)
        actions = [m for m in host.peers[0].received if m["t"] == "action"]
    assert code == 0, err
    assert [a["seq"] for a in actions] == [1]
