"""bench.bots's options: ``--replays`` keeps every game of a run as a replay that plays back to
its result; ``--players`` sets the seats (the tested seat rotated through them); ``--search`` is
checked as a game's ``SEARCH`` is, names and values, and ``--players`` and ``--options`` by the
game's own checks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import bots
from bench.fitting import read_games
from game.core.match import Replay


def _run(
    out: Path, start: int, capsys: pytest.CaptureFixture[str], *extra: str
) -> dict[str, object]:
    argv = ["--game", "kingdom-builder", "--matchup", "greedy_vs_random", "--games", "1"]
    argv += ["--start", str(start), "--workers", "1", "--replays", str(out), "--json", *extra]
    assert bots.main(argv) == 0
    figures: dict[str, object] = json.loads(capsys.readouterr().out)
    return figures


def test_each_game_is_appended_and_replays_to_its_scores(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "games.jsonl.gz"
    _run(out, 5, capsys)
    _run(out, 6, capsys)  # a second run adds to the file
    games = list(read_games(out))
    assert [g["seed"] for g in games] == [5, 6]
    for g in games:
        # game i puts the tested bot in seat i % 4 (the progress line's "seat")
        assert g["seat"] == g["seed"] % 4 and g["matchup"] == "greedy_vs_random"
        assert g["bots"][g["seat"]] == "greedy"
        assert sorted(g["bots"]) == ["greedy", "random", "random", "random"]
        replay = Replay(
            game=g["game"],
            players=g["players"],
            seed=g["seed"],
            options=g["options"],
            rules_version=g["rules_version"],
            actions=[(seat, tuple(action)) for seat, action in g["actions"]],
        )
        final = replay.state_at()
        assert final.is_over()
        assert final.scores() == g["scores"]
        assert [row["total"] for row in g["scores"]] == g["totals"]
        assert g["winners"] == list(final.winners())  # what bench.paired reads back


def test_players_sets_the_seats_and_rotates_the_tested_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "games.jsonl.gz"
    figures = _run(out, 5, capsys, "--players", "3")
    assert figures["bots.greedy_vs_random.players"] == 3.0
    (game,) = read_games(out)
    # game i puts the tested bot in seat i % players
    assert game["players"] == 3 and game["seat"] == 5 % 3
    assert game["bots"] == ["random", "random", "greedy"]
    assert len(game["totals"]) == 3


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--players", "6"], "2 to 4 players"),
        (["--players", "1"], "2 to 4 players"),
        (["--options", '{"nomads": "sometimes"}'], "nomads"),
        (["--options", "[1]"], "JSON object"),
        (["--game", "nope"], "unknown game"),
    ],
)
def test_a_bad_player_count_or_option_is_refused_before_any_game(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        bots.main(["--games", "1", "--workers", "1", "--matchup", "greedy_vs_random", *argv])
    assert exit_.value.code == 2
    assert says in capsys.readouterr().err


@pytest.mark.parametrize(
    ("search", "says"),
    [
        ('{"scale_factor": 0}', "scale_factor"),
        ('{"nope": 1}', "unknown search parameters"),
        ('{"work": -3}', "work"),
        ("[1]", "JSON object"),
    ],
)
def test_a_bad_search_is_refused_before_any_game(
    search: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        bots.main(["--games", "1", "--workers", "1", "--search", search])
    assert exit_.value.code == 2
    assert says in capsys.readouterr().err


def test_card_plays_only_the_games_that_deal_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # --card: of seeds 12-23 only those whose three Kingdom Builder cards include Citizens (KB §2)
    from game.core.registry import get_game

    game = get_game("kingdom-builder")
    dealt = [s for s in range(12, 24) if "Citizens" in game.new(4, None, s).cards]
    assert 0 < len(dealt) < 12  # the check below can fail either way
    assert bots.card_seeds("kingdom-builder", "Citizens", range(12, 24)) == dealt
    out = tmp_path / "games.jsonl.gz"
    argv = ["--game", "kingdom-builder", "--matchup", "greedy_vs_random", "--games", "12"]
    argv += ["--start", "12", "--workers", "1", "--replays", str(out), "--json"]
    assert bots.main([*argv, "--card", "Citizens"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["bots.greedy_vs_random.games"] == len(dealt)
    assert figures["bots.greedy_vs_random.card"] == "Citizens"
    games = list(read_games(out))
    assert [g["seed"] for g in games] == dealt
    assert all("Citizens" in g["scores"][0] for g in games)


def test_card_needs_a_game_that_deals_cards(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        bots.main(["--game", "glen-more", "--matchup", "greedy_vs_random", "--card", "Citizens"])
    assert "chooses Kingdom Builder games" in capsys.readouterr().err
