"""bench.score_sources: a level's points category by category, from bench.bots replay files."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from bench import score_sources


def _game(seat: int, rows: list[dict[str, int]]) -> dict[str, object]:
    return {"game": "kingdom-builder", "seed": 1, "seat": seat, "scores": rows}


GAMES = [
    # the tested seat 0 wins; Citizens 2 against the others' mean (6 + 0 + 3) / 3 = 3
    _game(
        0,
        [
            {"castles": 6, "Citizens": 2, "total": 8},
            {"castles": 0, "Citizens": 6, "total": 6},
            {"castles": 3, "Citizens": 0, "total": 3},
            {"castles": 3, "Citizens": 3, "total": 6},
        ],
    ),
    # the tested seat 2 ties with seat 1 for the win (half a win); no Citizens this game
    _game(
        2,
        [
            {"castles": 0, "Farmers": 3, "total": 3},
            {"castles": 6, "Farmers": 4, "total": 10},
            {"castles": 3, "Farmers": 7, "total": 10},
            {"castles": 0, "Farmers": 2, "total": 2},
        ],
    ),
]


def test_each_category_is_the_tested_seat_against_the_others_mean() -> None:
    count, table = score_sources.tally(GAMES)
    assert count == 2
    assert table["Citizens"].edges == [pytest.approx(-1.0)]
    assert table["Farmers"].edges == [pytest.approx(7 - 3)]
    assert table["castles"].edges == [pytest.approx(6 - 2), pytest.approx(3 - 2)]
    # wins: the whole first game, half of the tied second
    assert (table["Citizens"].won, table["Farmers"].won, table["total"].won) == (1.0, 0.5, 1.5)
    mean, se = table["castles"].mean_edge()
    assert mean == pytest.approx(2.5) and se == pytest.approx(1.5)


def test_a_shifted_total_says_what_a_point_a_game_would_win() -> None:
    """``--shifts``: the tested seat's wins had its total been D points higher in every game."""
    count, won = score_sources.shifted_shares(GAMES, [0.0, 1.0, -1.0, -2.0])
    assert count == 2
    # 8 against 6 and a 10-10 tie: a point more wins the tie, a point less loses it, and two
    # less tie the first game three ways at 6 (a third of a win)
    assert won == {0.0: 1.5, 1.0: 2.0, -1.0: 1.0, -2.0: pytest.approx(1 / 3)}


def test_a_tie_shares_the_win() -> None:
    assert score_sources.win_share([10, 10, 3], 0) == 0.5
    assert score_sources.win_share([10, 9, 3], 1) == 0.0
    assert score_sources.win_share([10, 9, 3], 0) == 1.0


def test_the_command_reads_replay_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "run.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as f:
        for game in GAMES:
            f.write(json.dumps(game) + "\n")
    assert score_sources.main([str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("2 games;")
    assert "Farmers" in out and "+4.00" in out


def test_options_keep_the_games_of_one_variant(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "run.jsonl.gz"
    first, second = ({**GAMES[0], "options": {"nomads": "full"}}, {**GAMES[1], "options": {}})
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.write(json.dumps(first) + "\n")
        f.write(json.dumps(second) + "\n")
    assert score_sources.main([str(path), "--options", '{"nomads": "full"}']) == 0
    out = capsys.readouterr().out
    assert out.startswith("1 games;") and "Citizens" in out and "Farmers" not in out
    assert score_sources.main([str(path), "--options", "{}"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1 games;") and "Farmers" in out and "Citizens" not in out


def test_by_map_splits_one_category_by_the_maps_sections_and_castles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """KB §3.1: a map is four sections; each game counts once under each of its sections and
    once under its map's number of castle hexes, set up from the game's seed."""
    from game.kingdom_builder import GAME

    board: Any = GAME.new(4, {"nomads": "full"}, 13).board  # type: ignore[attr-defined]
    record = {
        **GAMES[0],
        "game": "kingdom-builder",
        "players": 4,
        "seed": 13,
        "options": {"nomads": "full"},
        "rules_version": GAME.rules_version,
    }
    labels = score_sources.map_labels(record)
    assert labels == [f"section {n}" for n in board.names] + [f"{len(board.castles)} castles"]
    count, table = score_sources.tally_by_map([record], "castles")
    assert count == 1 and set(table) == set(labels)
    # castles: 6 against the others' mean (0 + 3 + 3) / 3 = 2, a whole win
    assert all(cat.edges == [pytest.approx(4.0)] and cat.won == 1.0 for cat in table.values())
    path = tmp_path / "run.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.write(json.dumps(record) + "\n")
    assert score_sources.main([str(path), "--by-map", "castles"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1 games; the tested seat's points in castles")
    assert f"section {board.names[0]}" in out and "+4.00" in out
