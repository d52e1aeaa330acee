"""Every level sits at a LAN table of Keyflower and Glen More (issue 16): bots the host runs
(``lantern host --bots``, thinking in its pool of worker processes) and bots that join over TCP
(``lantern join --bot``), as real processes on 127.0.0.1, play a whole game to its end; every
client sees the host's final scores and the save replays to them.

The host's hard level thinks 2 s a turn (the host has no budget option), so the game with it is
behind ``slow``; the joined search bots get a short ``--budget``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from game.core.match import Replay
from tests.net.test_cli import ROOT, finish, start_host

GAMES = ["keyflower", "glen-more"]


def join_bot(port: int, bot: str, seed: int) -> subprocess.Popen[str]:
    """``lantern join 127.0.0.1:PORT --bot BOT --headless --json`` with a short search budget."""
    return subprocess.Popen(
        [sys.executable, "-m", "game", "join", f"127.0.0.1:{port}", "--bot", bot, "--budget",
         "0.05", "--seed", str(seed), "--headless", "--json"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def play_at_host(game_id: str, host_bots: str, joined: list[str], tmp_path: Path) -> None:
    players = len(host_bots.split(",")) + len(joined)
    host, listening = start_host(
        game_id, "--table", game_id, "--players", str(players), "--bots", host_bots,
        "--autostart", "--exit-when-done", "--save-dir", str(tmp_path),
    )  # fmt: skip
    clients = [join_bot(listening["port"], bot, i) for i, bot in enumerate(joined)]
    results = []
    for client in clients:
        code, out, err = finish(client, timeout=1500)
        assert code == 0, err
        results.append(json.loads(out))
    code, out, err = finish(host, timeout=120)
    assert code == 0, err
    over = json.loads(out.splitlines()[-1])
    assert over["event"] == "game_over" and over["game"] == game_id
    assert over["bots"][: len(host_bots.split(","))] == host_bots.split(",")
    for result in results:
        assert result["scores"] == over["scores"]
        assert result["winners"] == over["winners"]
    replay = Replay.load(over["save"])
    assert replay.verify().scores() == over["scores"]


@pytest.mark.parametrize(
    ("game_id", "host_bots", "joined"),
    [("keyflower", "normal", ["hard"]), ("glen-more", "easy", ["mcts"])],
)
def test_a_host_bot_and_a_joined_bot_play_a_whole_two_player_game(
    game_id: str, host_bots: str, joined: list[str], tmp_path: Path
) -> None:
    """Two seats (kept small: the whole suite runs on two shared cores): a level thinking in
    the host's pool against a search bot joined over TCP."""
    play_at_host(game_id, host_bots, joined, tmp_path)


@pytest.mark.slow
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("game_id", GAMES)
def test_every_level_at_the_host_and_over_join_plays_a_whole_game(
    game_id: str, tmp_path: Path
) -> None:
    """``host --bots easy,normal,hard`` (the hard level at its own 2 s a turn: minutes on a
    shared machine) with a joined ``mcts``."""
    play_at_host(game_id, "easy,normal,hard", ["mcts"], tmp_path)
