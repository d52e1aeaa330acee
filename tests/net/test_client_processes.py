"""A dropped player gets their seat back — client processes killed and started again, and a
host process killed and restarted from its autosave (issue "Ready for a real LAN party").

Everything runs as real processes on 127.0.0.1: ``lantern host`` and ``lantern join
--headless --bot random --delay 40`` players (40 ms before each action, so a game lasts
seconds) that share one data folder (so each must take back its own
seat, never the other's: ``net/seats.py``).  A player is killed in the middle of its own turn
(frozen first with SIGSTOP, so the host's save proves it had not moved) and in the middle of
the other player's turn; a new process with the same data folder takes the seat back and the
game goes on to the end with every action kept.  Then the host itself is killed mid-game and
started again with ``--resume`` on the same port: the players reconnect by themselves.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from game.core.match import Replay
from game.core.types import BadState
from net.seats import SeatStore

ROOT = Path(__file__).resolve().parents[2]
LOOPBACK = "127.0.0.1"

pytestmark = pytest.mark.skipif(os.name != "posix", reason="SIGSTOP and SIGKILL")


def start_host(*args: str) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "game", "host", "--bind", LOOPBACK, "--json", "--no-announce",
         "--bot-threads", *args],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line, proc.stderr.read() if proc.stderr else "the host did not start"
    return proc, int(json.loads(line)["port"])


def start_player(port: int, data: Path, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "LANTERN_DATA_DIR": str(data)}
    return subprocess.Popen(
        [sys.executable, "-m", "game", "join", f"{LOOPBACK}:{port}", "--headless", "--bot",
         "random", "--delay", "40", "--json", *args],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip


def finish(proc: subprocess.Popen[str], timeout: float = 120) -> dict[str, Any]:
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        raise AssertionError(f"process did not finish: {err[-2000:]}") from None
    assert proc.returncode == 0, err[-2000:]
    return dict(json.loads(out.splitlines()[-1]))


def wait_for(check: Callable[[], Any], timeout: float = 120, what: str = "") -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value is not None and value is not False:
            return value
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


def record(save_dir: Path) -> Replay | None:
    """The host's save as it stands (its snapshot and journal), if there is one yet."""
    saves = list(save_dir.glob("*.save"))
    if not saves:
        return None
    try:
        return Replay.load(saves[0])
    except (BadState, OSError):
        return None  # being replaced this very moment


def to_move(save_dir: Path) -> tuple[int, set[int]]:
    replay = record(save_dir)
    if replay is None:
        return 0, set()
    return len(replay.actions), set(replay.state_at(None).to_move())


def seat_of(store: SeatStore, port: int, proc: subprocess.Popen[str]) -> int | None:
    return next((s.seat for s in store.at(LOOPBACK, port) if s.holder == proc.pid), None)


def kill_while(
    proc: subprocess.Popen[str],
    save_dir: Path,
    moving: Callable[[set[int]], bool],
    hold: subprocess.Popen[str] | None = None,
) -> int:
    """Kill ``proc`` at a moment when ``moving(to_move)`` holds, frozen first (and ``hold``,
    the player whose turn it is, with it) so that the save proves the moment (an action
    already on its way would reach the host within 0.2 s; a player left running could end
    their turn meanwhile, again and again on a slow machine, until the game is over).
    Returns the number of actions the save holds then."""
    frozen = [proc, *([hold] if hold is not None else [])]
    while True:
        wait_for(lambda: moving(to_move(save_dir)[1]), what="the moment to kill")
        for p in frozen:
            os.kill(p.pid, signal.SIGSTOP)
        time.sleep(0.2)
        actions, now = to_move(save_dir)
        if moving(now):
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(10)
            if hold is not None:
                os.kill(hold.pid, signal.SIGCONT)
            return actions
        for p in frozen:
            os.kill(p.pid, signal.SIGCONT)


def test_killed_players_take_their_seats_back_and_play_on(tmp_path: Path) -> None:
    save_dir, data = tmp_path / "saves", tmp_path / "data"
    host, port = start_host(
        "--port", "0", "--table", "kingdom-builder", "--players", "2", "--autostart",
        "--exit-when-done", "--save-dir", str(save_dir),
    )  # fmt: skip
    store = SeatStore(data / "seats.json")
    procs: list[subprocess.Popen[str]] = []
    try:
        a = start_player(port, data, "--name", "Ann")
        b = start_player(port, data, "--name", "Bob")
        procs += [a, b]
        seat_a = wait_for(lambda: seat_of(store, port, a), what="Ann's seat")
        seat_b = wait_for(lambda: seat_of(store, port, b), what="Bob's seat")
        assert {seat_a, seat_b} == {0, 1}
        wait_for(lambda: to_move(save_dir)[0] >= 12, what="a dozen actions")

        # Ann is killed in the middle of her own turn: the game waits for her.
        kept = kill_while(a, save_dir, lambda moving: seat_a in moving)
        before = record(save_dir)
        assert before is not None
        time.sleep(0.5)
        assert to_move(save_dir) == (kept, {seat_a})  # nothing moved without her
        a2 = start_player(port, data, "--name", "Ann")
        procs.append(a2)
        assert wait_for(lambda: seat_of(store, port, a2), what="Ann back") == seat_a
        wait_for(lambda: to_move(save_dir)[0] > kept + 8, what="the game to go on")

        # Bob is killed in the middle of Ann's turn: Ann plays on until the game waits for Bob.
        kill_while(b, save_dir, lambda moving: seat_a in moving, hold=a2)
        stuck = wait_for(
            lambda: (lambda n, m: n if m == {seat_b} else None)(*to_move(save_dir)),
            what="Bob's turn",
        )
        time.sleep(0.3)
        assert to_move(save_dir)[0] == stuck
        b2 = start_player(port, data, "--name", "Bob")
        procs.append(b2)

        result_a, result_b = finish(a2), finish(b2)
        assert (result_a["seat"], result_b["seat"]) == (seat_a, seat_b)
        assert result_a["scores"] == result_b["scores"]
        assert result_a["actions"] == result_b["actions"]
        out, err = host.communicate(timeout=60)
        assert host.returncode == 0, err[-2000:]
        over = json.loads(out.splitlines()[-1])
        assert over["scores"] == result_a["scores"] and over["actions"] == result_a["actions"]
        final = Replay.load(over["save"])
        assert final.final_hash is not None
        assert final.actions[: len(before.actions)] == before.actions  # nothing lost
        assert final.verify().scores() == over["scores"]
        assert store.at(LOOPBACK, port) == []  # game over: the seats are forgotten
    finally:
        for proc in [*procs, host]:
            if proc.poll() is None:
                proc.kill()
            proc.wait(10)


def test_players_reconnect_to_a_host_restarted_from_its_save(tmp_path: Path) -> None:
    save_dir = tmp_path / "saves"
    host, port = start_host(
        "--port", "0", "--table", "kingdom-builder", "--players", "2", "--autostart",
        "--save-dir", str(save_dir),
    )  # fmt: skip
    procs = [
        start_player(port, tmp_path / f"data{i}", "--name", f"P{i}", "--reconnect", "60")
        for i in range(2)
    ]
    second: subprocess.Popen[str] | None = None
    try:
        wait_for(lambda: to_move(save_dir)[0] >= 15, what="fifteen actions")
        os.kill(host.pid, signal.SIGKILL)  # mid-game, without a word to anyone
        host.wait(10)
        before = record(save_dir)
        assert before is not None and before.final_hash is None
        [save] = list(save_dir.glob("*.save"))
        time.sleep(1.0)  # the players find the host gone and keep trying
        second, again = start_host("--port", str(port), "--resume", str(save), "--exit-when-done")
        assert again == port
        results = [finish(p) for p in procs]
        assert results[0]["scores"] == results[1]["scores"]
        assert sorted(r["seat"] for r in results) == [0, 1]
        out, err = second.communicate(timeout=60)
        assert second.returncode == 0, err[-2000:]
        over = json.loads(out.splitlines()[-1])
        assert over["actions"] == results[0]["actions"]
        final = Replay.load(over["save"])
        assert over["save"] == str(save)  # one game, one file
        assert final.actions[: len(before.actions)] == before.actions  # nothing lost
        assert final.verify().scores() == over["scores"]
    finally:
        for proc in [*procs, host, *([second] if second else [])]:
            if proc.poll() is None:
                proc.kill()
            proc.wait(10)
