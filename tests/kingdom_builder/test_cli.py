"""The command line with Kingdom Builder: simulate, replay --verify, show (subprocesses)."""

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


SIM = ["simulate", "--game", "kingdom-builder", "--players", "4", "--bots", "random"]


def _records(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def test_simulate_five_players_with_the_full_nomads_expansion():
    """The issue's command: 3 complete 5-player games with nomad tiles and the Nomads cards."""
    out = lantern(
        "simulate",
        "--game",
        "kingdom-builder",
        "--players",
        "5",
        "--options",
        '{"nomads": "full", "cards": ["Ambassadors", "Families", "Shepherds"]}',
        "--bots",
        "random",
        "--games",
        "3",
        "--json",
    )
    assert out.returncode == 0, out.stderr
    records = _records(out.stdout)
    assert len(records) == 3
    for record in records:
        assert len(record["scores"]) == 5 and record["winners"]
        assert {"castles", "Ambassadors", "Families", "Shepherds", "total"} <= set(
            record["scores"][0]
        )


def test_simulate_json_is_reproducible():
    first = lantern(*SIM, "--games", "3", "--seed", "7", "--json")
    second = lantern(*SIM, "--games", "3", "--seed", "7", "--json")
    assert first.returncode == 0, first.stderr
    a, b = _records(first.stdout), _records(second.stdout)
    assert [r["seed"] for r in a] == [7, 8, 9]
    for x, y in zip(a, b, strict=True):
        x.pop("seconds"), y.pop("seconds")
        assert x == y
        assert x["game"] == "kingdom-builder" and len(x["scores"]) == 4
        assert all("castles" in s and "total" in s for s in x["scores"])
        assert x["winners"] and x["actions"] > 50


@pytest.fixture(scope="module")
def replays(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("replays")
    done = lantern(*SIM, "--games", "2", "--seed", "3", "--json", "--save-replays", str(folder))
    assert done.returncode == 0, done.stderr
    for record in _records(done.stdout):
        assert Path(record["replay"]).exists()
    return folder


def test_replay_verify_and_show(replays: Path):
    path = replays / "kingdom-builder-seed3.replay"
    done = lantern("replay", str(path), "--verify", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["verified"] and result["game"] == "kingdom-builder"
    shown = lantern("show", str(path), "--json")
    assert shown.returncode == 0, shown.stderr
    report = json.loads(shown.stdout)
    assert report["over"] and report["winners"]
    assert len(report["board"]) == 20 and len(report["settlements"]) == 4
    assert len(report["cards"]) == 3 and len(report["scores"]) == 4
    assert report["seats"][0]["name"] == "random 1" and "supply" in report["seats"][0]
    text = lantern("show", str(path), "--step", "40")
    assert text.returncode == 0 and "step 40 of" in text.stdout and "total" in text.stdout


def test_tampered_and_truncated_replays_fail_clearly(replays: Path, tmp_path: Path):
    data = (replays / "kingdom-builder-seed4.replay").read_bytes()
    tampered = tmp_path / "tampered.replay"
    flipped = bytearray(data)
    spot = data.index(b"place") + 2
    flipped[spot] ^= 0x01
    tampered.write_bytes(bytes(flipped))
    done = lantern("replay", str(tampered), "--verify")
    assert done.returncode != 0
    assert "modified or damaged" in done.stderr or "damaged or truncated" in done.stderr
    truncated = tmp_path / "truncated.replay"
    truncated.write_bytes(data[: len(data) // 2])
    done = lantern("replay", str(truncated), "--verify")
    assert done.returncode != 0 and "truncated" in done.stderr
    assert "Traceback" not in done.stderr
    shown = lantern("show", str(truncated), "--json")
    assert shown.returncode == 2 and "Traceback" not in shown.stderr


@pytest.mark.parametrize(
    "args",
    [
        [*SIM[:4], "6"],
        [*SIM[:4], "5", "--options", '{"nomads": "off"}'],
        [*SIM[:4], "four"],
        [*SIM, "--options", '{"colour": "red"}'],
        [*SIM, "--options", '{"sections": ["Barn"]}'],
        ["simulate", "--game", "kingdom-builders", "--players", "2"],
        [*SIM, "--games", "0"],
    ],
)
def test_wrong_arguments_exit_with_code_2(args):
    done = lantern(*args)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and done.stderr.strip()
