"""The command line with Glen More: simulate for every player count, show --json (subprocesses)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def lantern(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "game", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _records(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_simulate_plays_complete_games(players: int) -> None:
    """``simulate --game glen-more --players N --bots random`` plays complete games for every
    N from 2 to 5, the same way every time."""
    args = ["simulate", "--game", "glen-more", "--players", str(players), "--bots", "random"]
    first = lantern(*args, "--games", "3", "--seed", "1", "--json")
    assert first.returncode == 0, first.stderr
    records = _records(first.stdout)
    assert [r["seed"] for r in records] == [1, 2, 3]
    for r in records:
        assert r["game"] == "glen-more" and len(r["scores"]) == players
        assert all("scoring_3" in s and "tile_penalty" in s for s in r["scores"])
        assert r["winners"] and r["actions"] > 40
    if players == 3:
        again = _records(lantern(*args, "--games", "3", "--seed", "1", "--json").stdout)
        for x, y in zip(records, again, strict=True):
            x.pop("seconds"), y.pop("seconds")
            assert x == y


def test_show_json_of_a_replay(tmp_path: Path) -> None:
    """``show FILE --json``: the report documented in docs/glen-more.md, with the seat names."""
    done = lantern(
        "simulate", "--game", "glen-more", "--players", "3", "--bots", "random",
        "--games", "1", "--seed", "2", "--json", "--save-replays", str(tmp_path),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    path = tmp_path / "glen-more-seed2.replay"
    shown = lantern("show", str(path), "--json")
    assert shown.returncode == 0, shown.stderr
    report = json.loads(shown.stdout)
    assert report["game"] == "glen-more" and report["over"]
    assert report["step"] == report["steps"] and len(report["track"]) == 14
    for seat in report["seats"]:
        assert {"name", "bot", "tiles", "whisky", "coins", "chieftains", "bonnets", "cards"} <= set(
            seat
        )
    assert [r["round"] for r in report["rounds"]] == [1, 2, 3]
    mid = json.loads(lantern("show", str(path), "--json", "--step", "20").stdout)
    assert not mid["over"] and mid["pending"]["phase"]
    text = lantern("show", str(path), "--step", "20")
    assert text.returncode == 0 and "Glen More, 3 players" in text.stdout
    verify = lantern("replay", str(path), "--verify", "--json")
    assert verify.returncode == 0, verify.stderr
