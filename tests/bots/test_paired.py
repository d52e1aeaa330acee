"""bench.paired: two runs of bench.bots on the same seeds, compared game by game."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import paired

BASE = """\
  hard_vs_greedy game 0 seat 0: share 1.00 totals [60, 50, 40, 30] (hard cpu ...) | 1.0/1
  hard_vs_greedy game 1 seat 1: share 0.00 totals [60, 50, 40, 30] (hard cpu ...) | 1.0/2
  hard_vs_greedy game 2 seat 2: share 0.50 totals [41, 20, 41, 30] (hard cpu ...) | 1.5/3
{"bots.hard_vs_greedy.winrate": 0.5}
"""
VARIANT = """\
  hard_vs_greedy game 1 seat 1: share 1.00 totals [50, 70, 40, 30] (...) | 1.0/1
  hard_vs_greedy game 0 seat 0: share 1.00 totals [62, 50, 40, 30] (...) | 2.0/2
  hard_vs_greedy game 7 seat 3: share 1.00 totals [1, 2, 3, 4] (...) | 3.0/3
"""


def test_runs_are_read_from_their_progress_lines() -> None:
    run = paired.read_run(BASE.splitlines())
    assert run == {
        0: paired.Game(1.0, 10),
        1: paired.Game(0.0, -10),
        2: paired.Game(0.5, 0),
    }


def test_only_the_games_both_played_are_compared(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    c = paired.compare(paired.read_run(BASE.splitlines()), paired.read_run(VARIANT.splitlines()))
    assert (c.games, c.base_wins, c.variant_wins) == (2, 1.0, 2.0)
    assert (c.base_only, c.variant_only) == (0, 1)
    # margins 10 -> 12 and -10 -> 20: differences 2 and 30
    assert c.margin_diff == pytest.approx(16.0)
    assert c.margin_se == pytest.approx(14.0)
    (tmp_path / "a.log").write_text(BASE)
    (tmp_path / "b.log").write_text(VARIANT)
    assert paired.main([str(tmp_path / "a.log"), str(tmp_path / "b.log")]) == 0
    assert "2 games in common" in capsys.readouterr().out


def test_malformed_lines_are_skipped() -> None:
    lines = [
        " x game 3 seat 9: share 1.00 totals [1, 2]",
        " x game 4 seat 0: share 1.00 totals [5]",
    ]
    assert paired.read_run(lines) == {}


def test_what_bench_bots_prints_is_read_back(capsys: pytest.CaptureFixture[str]) -> None:
    """The progress line of ``bench.bots`` (its ``_progress``) is what ``read_run`` reads."""
    from bench import bots

    result = {
        "matchup": "hard_vs_greedy",
        "index": 12,
        "seat": 0,
        "share": 0.5,
        "totals": [50, 61, 61, 40],
        "thought_cpu": {"hard": [1.0]},
        "cpu_longest": {"hard": 1.0},
        "longest": {"hard": 1.2},
        "count": {"hard": 1},
    }
    bots._progress([result])
    assert paired.read_run(capsys.readouterr().out.splitlines()) == {12: paired.Game(0.5, -11)}


def test_a_replays_file_is_a_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A ``bench.bots --replays`` file pairs by seed; the share comes from the recorded winners,
    or, without them, from the highest totals with ties shared (KB §8: no tie-breaker); other
    options are left out with ``--options``."""
    import gzip
    import json

    records = [
        {"seed": 0, "seat": 0, "totals": [60, 50, 40, 30], "options": {}},
        {"seed": 1, "seat": 1, "totals": [60, 50, 40, 30], "options": {}},
        {"seed": 2, "seat": 2, "totals": [41, 20, 41, 30], "options": {}},
        {"seed": 3, "seat": 3, "totals": [9, 9, 9, 9], "options": {}, "winners": [3]},
        {"seed": 4, "seat": 0, "totals": [70, 1, 1, 1], "options": {"nomads": "full"}},
    ]
    lines = [json.dumps(r) for r in records] + ["not json", '{"seed": 9}']
    run = paired.read_replays(lines, {})
    assert run == {
        0: paired.Game(1.0, 10),
        1: paired.Game(0.0, -10),
        2: paired.Game(0.5, 0),
        3: paired.Game(1.0, 0),
    }
    assert set(paired.read_replays(lines)) == {0, 1, 2, 3, 4}
    path = tmp_path / "level.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    (tmp_path / "b.log").write_text(VARIANT)
    assert paired.main([str(path), str(tmp_path / "b.log"), "--options", "{}"]) == 0
    assert "2 games in common" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        paired.main([str(path), str(tmp_path / "b.log"), "--options", "[1]"])
