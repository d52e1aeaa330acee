"""``python -m game host`` and ``python -m game join`` as real processes on 127.0.0.1.

For every registered game, and the shared test game "Bid and Race" (``tests/testgame``, which
the processes register through ``tests/net/run_cli.py``): a host process with
``--exit-when-done`` and four ``join --headless`` processes play a whole game; every client
prints the host's final scores and the host exits 0.
Saved games resume; damaged saves and bad arguments get a clear message and exit code 2.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from game.core.match import Replay
from game.core.registry import game_ids, get_game
from net.session import Session
from tests.testgame import GAME_ID as TEST_GAME

ROOT = Path(__file__).resolve().parents[2]


def command(game_id: str) -> list[str]:
    """The lantern command; the test game needs the launcher that registers it."""
    module = "tests.net.run_cli" if game_id == TEST_GAME else "game"
    return [sys.executable, "-m", module]


def start_host(game_id: str, *args: str) -> tuple[subprocess.Popen[str], dict[str, Any]]:
    host = subprocess.Popen(
        [*command(game_id), "host", "--bind", "127.0.0.1", "--port", "0", "--json", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert host.stdout is not None
    line = host.stdout.readline()
    if not line:
        host.wait(10)
        raise AssertionError(f"host did not start: {host.stderr.read() if host.stderr else ''}")
    listening = json.loads(line)
    assert listening["event"] == "listening" and listening["port"] > 0
    return host, listening


def join(game_id: str, port: int, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            *command(game_id),
            "join",
            f"127.0.0.1:{port}",
            "--bot",
            "random",
            "--headless",
            "--json",
            *args,
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(proc: subprocess.Popen[str], timeout: float = 90) -> tuple[int, str, str]:
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        raise AssertionError(f"process did not finish: {err[-2000:]}") from None
    return proc.returncode, out, err


@pytest.mark.parametrize("game_id", [*game_ids(), TEST_GAME])
def test_host_and_four_join_processes_play_a_whole_game(
    game_id: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if game_id == TEST_GAME:
        request.getfixturevalue("bid_race")
    game = get_game(game_id)
    players = max(game.min_players, min(4, game.max_players))
    host, listening = start_host(
        game_id,
        "--table", game_id, "--players", str(players), "--autostart", "--exit-when-done",
        "--save-dir", str(tmp_path),
    )  # fmt: skip
    clients = [join(game_id, listening["port"], "--seed", str(i)) for i in range(players)]
    results = []
    for client in clients:
        code, out, err = finish(client)
        assert code == 0, err
        results.append(json.loads(out))
    code, out, err = finish(host)
    assert code == 0, err
    over = json.loads(out.splitlines()[-1])
    assert over["event"] == "game_over" and over["game"] == game_id
    assert sorted(r["seat"] for r in results) == list(range(players))
    for result in results:
        assert result["scores"] == over["scores"]
        assert result["winners"] == over["winners"]
        assert (result["seed"], result["actions"]) == (over["seed"], over["actions"])
    replay = Replay.load(over["save"])
    assert replay.final_hash is not None and len(replay.actions) == over["actions"]
    assert replay.verify().scores() == over["scores"]
    assert "game over" in err


def test_resume_continues_a_saved_game_with_its_bots(bid_race: str, tmp_path: Path) -> None:
    session = Session.create("t1", bid_race, 3, {"rounds": 3}, seed=21)
    session.seat_human(0, "Ann")
    session.seat_human(1, "Ben")
    session.set_seat(2, by_seat=0, by_owner=True, kind="bot", bot="random")
    session.start()
    session.act(0, 0, ("bid", 1))
    session.act(0, 1, ("seal",))
    record = session.record()
    # A save keeps each seat's token (its players reconnect: test_seats_come_back); this one's
    # players are gone for good, so their seats are open to newcomers.
    record.seats = [
        {k: v for k, v in s.items() if k not in ("token", "creator")} for s in record.seats
    ]
    save = tmp_path / "saved.save"
    save.write_bytes(record.to_bytes())
    host, listening = start_host(
        bid_race, "--resume", str(save), "--exit-when-done", "--save-dir", str(tmp_path / "new")
    )
    assert listening["tables"] == ["t1"]
    clients = [join(bid_race, listening["port"]) for _ in range(2)]
    outs = [finish(c) for c in clients]
    assert all(code == 0 for code, _, _ in outs), outs
    code, out, err = finish(host)
    assert code == 0, err
    over = json.loads(out.splitlines()[-1])
    assert over["bots"] == ["human", "human", "random"]
    replay = Replay.load(over["save"])
    assert replay.actions[:2] == [(0, ("bid", 1)), (0, ("seal",))]
    assert replay.verify().scores() == over["scores"]
    assert "resumed after 2 actions" in err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "not a Lantern Table"),
        (b"\x93garbage that is not msgpack at all", "damaged or truncated"),
        (None, "cannot read"),
    ],
)
def test_a_damaged_save_is_refused_clearly(
    bid_race: str, tmp_path: Path, content: bytes | None, message: str
) -> None:
    path = tmp_path / "broken.save"
    if content is not None:
        path.write_bytes(content)
    proc = subprocess.run(
        [*command(bid_race), "host", "--bind", "127.0.0.1", "--port", "0", "--resume", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert proc.returncode == 2
    assert message in proc.stderr and "Traceback" not in proc.stderr


def test_a_truncated_save_is_refused_clearly(bid_race: str, tmp_path: Path) -> None:
    session = Session.create("t1", bid_race, 2, seed=2)
    session.seat_human(0, "A")
    session.seat_human(1, "B")
    session.start()
    session.act(0, 0, ("bid", 1))
    path = tmp_path / "cut.save"
    path.write_bytes(session.save_bytes()[:-9])
    proc = subprocess.run(
        [*command(bid_race), "host", "--bind", "127.0.0.1", "--port", "0", "--resume", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert proc.returncode == 2 and "lantern host:" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["host", "--table", TEST_GAME], "--table needs --players"),
        (["host", "--table", TEST_GAME, "--players", "2", "--bots", "skynet"], "unknown bot"),
        (
            ["host", "--table", TEST_GAME, "--players", "2", "--bots", "random,random,random"],
            "3 seats",
        ),
        (["host", "--table", TEST_GAME, "--players", "9"], "2 to 6 players"),
        (["host", "--table", "chess", "--players", "2"], "unknown game"),
        (["host", "--exit-when-done"], "needs a --table"),
        (["host", "--announce", "127.0.0.1:notaport"], "port must be a number"),
        (["join", "127.0.0.1:7777", "--bot", "random"], "--headless"),
        (["join", "127.0.0.1:7777", "--headless", "--bot", "skynet"], "unknown bot"),
        (["join"], "HOST:PORT"),
    ],
)
def test_bad_arguments_exit_2_with_a_reason(bid_race: str, args: list[str], message: str) -> None:
    proc = subprocess.run(
        [*command(bid_race), *args], cwd=ROOT, capture_output=True, text=True, timeout=30
    )
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr


def test_join_reports_an_unreachable_host(bid_race: str) -> None:
    import socket

    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    started = time.monotonic()
    proc = subprocess.run(
        [*command(bid_race), "join", f"127.0.0.1:{port}", "--headless"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert proc.returncode == 1
    assert "could not connect to 127.0.0.1" in proc.stderr
    assert time.monotonic() - started < 20


def test_a_plain_host_serves_until_terminated(bid_race: str) -> None:
    """``lantern host`` without a table: clients create tables; SIGTERM stops it cleanly."""
    import asyncio
    import signal

    from tests.net.helpers import Player

    host, listening = start_host(bid_race, "--no-announce", "--no-autosave")
    try:

        async def play() -> dict[str, Any] | None:
            from net.client import AsyncClient

            a = await AsyncClient.connect("127.0.0.1", listening["port"])
            await a.hello("A")
            await a.send({"t": "create_table", "game": bid_race, "players": 2})
            table = (await a.expect("joined"))["table"]
            b = await AsyncClient.connect("127.0.0.1", listening["port"])
            await b.hello("B")
            pb = Player(b, 1)
            await pb.join(table)
            await b.send({"t": "ready"})
            await a.expect("lobby")
            while not (await a.expect("lobby"))["seats"][1]["ready"]:
                pass
            await a.send({"t": "start"})
            pa = Player(a, 2)
            pa.seat = 0
            results = await asyncio.gather(pa.play(), pb.play())
            await a.close()
            await b.close()
            return results[0]

        result = asyncio.run(play())
        assert result is not None and result["game"] == bid_race
    finally:
        host.send_signal(signal.SIGTERM)
        code, _, err = finish(host, timeout=20)
    assert code == 0, err
    assert "game over" in err
