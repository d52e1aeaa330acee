"""The command line with Keyflower: simulate for every player count, show --json (with the
fields docs/keyflower.md documents), replay --verify (subprocesses, the real CLI)."""

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
        timeout=300,
    )


def records(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_simulate_plays_complete_games(players: int) -> None:
    done = lantern(
        "simulate", "--game", "keyflower", "--players", str(players), "--bots", "random",
        "--games", "3", "--seed", "1", "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    games = records(done.stdout)
    assert [g["seed"] for g in games] == [1, 2, 3]
    for g in games:
        assert g["game"] == "keyflower" and len(g["scores"]) == players
        for sc in g["scores"]:
            assert set(sc) == {"tiles", "turn_order", "boats", "storage", "winter", "gold", "total"}
            assert sc["total"] == sum(v for k, v in sc.items() if k != "total")
        assert g["winners"] and g["actions"] > 50


@pytest.fixture(scope="module")
def replay(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("kf-replays")
    done = lantern(
        "simulate", "--game", "keyflower", "--players", "4", "--bots", "random", "--games", "1",
        "--seed", "5", "--json", "--save-replays", str(folder),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return Path(records(done.stdout)[0]["replay"])


def test_replay_verifies(replay: Path) -> None:
    done = lantern("replay", str(replay), "--verify", "--json")
    assert done.returncode == 0, done.stderr


def test_show_json_at_the_end_has_the_documented_fields(replay: Path) -> None:
    """docs/keyflower.md "show --json": per seat the village (tile, name, side, position,
    rotation, resources), the supply, purple keyple, winter tiles, boats; the season; at the
    end the score per category and the assignment the scorer chose."""
    done = lantern("show", str(replay), "--json")
    assert done.returncode == 0, done.stderr
    rep = json.loads(done.stdout)
    assert rep["game"] == "keyflower" and rep["over"] and rep["season"] == "winter"
    for key in ("supply", "auction", "turn_order", "boats", "activity", "scores", "winners"):
        assert key in rep
    for seat in rep["seats"]:
        for key in ("village", "supply", "purple", "winter_tiles", "boats", "score", "scoring"):
            assert key in seat, key
        tile = seat["village"][0]
        assert set(tile) == {"tile", "name", "side", "q", "r", "rotation", "resources"}
        assert set(seat["supply"]) == {"keyples", "resources", "skills"}
        scoring = seat["scoring"]
        for key in ("flip", "printed", "turn_order", "storage", "boats", "winter", "assignment",
                    "unassigned", "pool", "purple"):  # fmt: skip
            assert key in scoring, key
        assert seat["score"]["total"] == sum(v for k, v in seat["score"].items() if k != "total")
        # recompute the categories from the details, as a reader would by hand
        sc = seat["score"]
        assert sc["tiles"] == sum(scoring["printed"].values())
        assert sc["storage"] == sum(scoring["storage"].values())
        assert sc["boats"] == sum(scoring["boats"].values())
        assert sc["winter"] == sum(scoring["winter"].values())
        assert sc["turn_order"] == sum(scoring["turn_order"].values())
        assert len(seat["boats"]) == 1


def test_show_json_mid_game(replay: Path) -> None:
    done = lantern("show", str(replay), "--step", "40", "--json")
    assert done.returncode == 0, done.stderr
    rep = json.loads(done.stdout)
    assert rep["step"] == 40 and not rep["over"]
    assert all(sc["total"] == 0 for sc in rep["scores"]), "nothing is banked before the end"
    text = lantern("show", str(replay), "--step", "40")
    assert text.returncode == 0 and "Keyflower, 4 players" in text.stdout
