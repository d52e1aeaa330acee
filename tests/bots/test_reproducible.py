"""A seeded ``lantern simulate`` with any bots is the same game every time (issue 23).

Every level thinks for a count (the planner's evaluations, the search's playouts), never for
wall-clock time, and ``simulate`` turns the wall-clock safety net off: so the same command gives
the same game on a quiet machine and on a busy one.  Each game here is played twice in separate
processes with different ``PYTHONHASHSEED`` values, so an order that depends on string hashing
(iterating a set of strings, say) would show as a different game.  The replays — every action,
and the final state's hash — must be byte for byte the same.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from game.bots.budget import PLAN_CPU_BUDGET, Meter
from game.cli import main
from game.core.match import Replay

ROOT = Path(__file__).resolve().parents[2]


def simulate_twice(tmp_path: Path, *args: str) -> tuple[Replay, Replay]:
    """Run ``lantern simulate ARGS --save-replays DIR`` in two processes (hash seeds 1 and 2)
    at the same time, and return the two replays."""
    runs = []
    for hash_seed in ("1", "2"):
        out = tmp_path / f"hash{hash_seed}"
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        command = [sys.executable, "-m", "game", "simulate", *args, "--save-replays", str(out)]
        runs.append((out, subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE)))
    replays = []
    for out, process in runs:
        stdout, _ = process.communicate(timeout=1200)
        assert process.returncode == 0, stdout
        (path,) = out.iterdir()
        replays.append(Replay.load(path))
    return replays[0], replays[1]


def assert_same_game(a: Replay, b: Replay) -> None:
    assert a.final_hash is not None
    assert len(a.actions) == len(b.actions)
    for i, (x, y) in enumerate(zip(a.actions, b.actions, strict=True)):
        assert x == y, f"the games part at action {i}: {x} vs {y}"
    assert a.final_hash == b.final_hash
    assert a.to_bytes() == b.to_bytes()


def test_every_level_replays_the_same_glen_more_game(tmp_path: Path) -> None:
    """easy, normal, hard (a small iteration budget) and mcts at one 4-player table."""
    a, b = simulate_twice(
        tmp_path,
        *("--game", "glen-more", "--players", "4", "--seed", "11"),
        *("--bots", "easy,normal,hard,mcts", "--iterations", "6"),
    )
    assert_same_game(a, b)
    assert [s["bot"] for s in a.seats] == ["easy", "normal", "hard", "mcts"]


def test_the_keyflower_greedy_game_of_the_issue_replays(tmp_path: Path) -> None:
    """``simulate --game keyflower --players 2 --bots greedy --seed 7201`` gave different totals
    from run to run while the planner stopped at a wall-clock deadline (issue 23)."""
    a, b = simulate_twice(
        tmp_path, "--game", "keyflower", "--players", "2", "--bots", "greedy", "--seed", "7201"
    )
    assert_same_game(a, b)


def test_a_slow_core_plays_the_same_simulated_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``simulate`` lifts the bots' CPU ceilings (nobody waits there): on a core so slow that
    every ceiling would be reached — here the thread's CPU clock runs a thousand times fast —
    the counts still end every decision, and the game is the one a fast core plays."""
    args = ["simulate", "--game", "glen-more", "--players", "2", "--bots", "greedy,easy"]

    def play(name: str) -> Replay:
        out = tmp_path / name
        assert main([*args, "--seed", "3", "--save-replays", str(out)]) == 0
        (path,) = out.iterdir()
        return Replay.load(path)

    fast = play("fast")
    clock = iter(range(0, 10**12, 1000))
    monkeypatch.setattr(time, "thread_time", lambda: float(next(clock)) / 1000.0)
    assert_same_game(fast, play("slow"))
    assert Meter(cpu=PLAN_CPU_BUDGET).spent(), "the ceiling would have been reached"


@pytest.mark.slow
@pytest.mark.parametrize("game_id", ["kingdom-builder", "keyflower"])
def test_every_level_replays_the_same_game(tmp_path: Path, game_id: str) -> None:
    a, b = simulate_twice(
        tmp_path,
        *("--game", game_id, "--players", "4", "--seed", "5"),
        *("--bots", "easy,normal,hard,mcts", "--iterations", "6"),
    )
    assert_same_game(a, b)
