"""``lantern review FILE [--seat N] [--budget S] [--json]`` (docs/review.md): the JSON fields,
the saved review read back, and one clear line — never a traceback — for a file that cannot be
reviewed."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import msgpack
import pytest

from game.cli import main
from game.core.match import Replay
from tests.review.helpers import bad_move_game

TURN_FIELDS = {
    "number",
    "turn",
    "step",
    "steps",
    "seat",
    "forced",
    "move",
    "move_text",
    "best",
    "best_text",
    "same",
    "value_before",
    "value_move",
    "value_best",
    "outlook_move",
    "outlook_best",
    "loss",
    "reasons",
}


@pytest.fixture(scope="module")
def game_file(bid_race: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, Replay]:
    replay, bad = bad_move_game(bid_race, 3, 1, options={"rounds": 3}, gap=2.0, after=99)
    path = tmp_path_factory.mktemp("cli") / "game.replay"
    replay.save(path)
    return path, bad, replay


def test_json_fields(game_file: tuple[Path, int, Replay], capsys: Any) -> None:
    path, bad, replay = game_file
    assert main(["review", str(path), "--seat", "0", "--budget", "0.2", "--json", "--fresh"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"file", "game", "players", "actions", "names", "reviews"} <= set(out)
    assert out["players"] == 3 and out["actions"] == len(replay.actions)
    assert out["names"] == ["P0", "P1", "P2"]
    (review,) = out["reviews"]
    assert review["seat"] == 0 and review["name"] == "P0" and review["cached"] is False
    assert review["turning_points"][0] == bad
    assert review["settings"]["iterations"] >= 1 and review["settings"]["worlds"] >= 1
    assert isinstance(review["cpu_s"], float)
    for turn in review["turns"]:
        assert set(turn) == TURN_FIELDS
        for reason in turn["reasons"]:
            assert set(reason) == {"key", "params", "gain"}
    graph = review["graph"]
    assert len(graph["steps"]) == len(graph["margins"]) == len(graph["win"])
    assert all(len(row) == 3 for row in graph["margins"])
    assert review["over"] is True and len(review["scores"]) == 3
    # again: read back from beside the replay, the same review
    assert main(["review", str(path), "--seat", "0", "--budget", "0.2", "--json"]) == 0
    again = json.loads(capsys.readouterr().out)["reviews"][0]
    assert again["cached"] is True
    assert {k: v for k, v in again.items() if k not in ("cached", "cpu_s")} == {
        k: v for k, v in review.items() if k not in ("cached", "cpu_s")
    }


def test_text_names_the_turning_points(game_file: tuple[Path, int, Replay], capsys: Any) -> None:
    path, bad, _replay = game_file
    assert main(["review", str(path), "--budget", "0.2", "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "Review of P0 (seat 0)" in text  # without --seat: the human seats
    assert "Review of P1" not in text
    assert f"1. Turn {bad} " in text
    assert "judged only from what P0 could see" in text


def _bad_files(replay: Replay, folder: Path) -> dict[str, Path]:
    files: dict[str, Path] = {}
    good = replay.to_bytes()
    files["truncated"] = folder / "truncated.replay"
    files["truncated"].write_bytes(good[: len(good) // 2])
    files["not a replay"] = folder / "noise.replay"
    files["not a replay"].write_bytes(b"\x00\x01 this is not a game" * 10)
    top = msgpack.unpackb(good, raw=False)
    top["body"]["seed"] = top["body"]["seed"] + 1
    files["modified"] = folder / "modified.replay"
    files["modified"].write_bytes(msgpack.packb(top))
    wrong = copy.deepcopy(replay)
    wrong.final_hash = "0" * len(replay.final_hash or "")
    files["fails verification"] = folder / "wrong-hash.replay"
    wrong.save(files["fails verification"])
    newer = copy.deepcopy(replay)
    newer.rules_version = replay.rules_version + 7
    files["unknown rules version"] = folder / "newer.replay"
    newer.save(files["unknown rules version"])
    files["missing"] = folder / "missing.replay"
    return files


def test_bad_files_get_one_clear_line(
    game_file: tuple[Path, int, Replay], tmp_path: Path, capsys: Any
) -> None:
    _path, _bad, replay = game_file
    expected = {
        "truncated": "truncated",
        "not a replay": "not a Lantern Table replay",
        "modified": "digest mismatch",
        "fails verification": "final state hash",
        "unknown rules version": "rules version",
        "missing": "cannot read",
    }
    for what, path in _bad_files(replay, tmp_path).items():
        assert main(["review", str(path), "--budget", "0.2"]) == 1, what
        err = capsys.readouterr().err
        assert "Traceback" not in err, what
        lines = [line for line in err.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("lantern review: "), (what, err)
        assert expected[what] in lines[0], (what, lines[0])
        assert not (tmp_path / (path.name + ".review")).exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--seat", "3"], "--seat must be 0 to 2"), (["--budget", "0"], "--budget must be")],
)
def test_bad_arguments_exit_2(
    game_file: tuple[Path, int, Replay], args: list[str], message: str, capsys: Any
) -> None:
    path, _bad, _replay = game_file
    assert main(["review", str(path), *args]) == 2
    assert message in capsys.readouterr().err
