"""The window's commands: ``screenshot`` draws the real game scene to a PNG, and the window
reports its first frame (what the start-up benchmark measures)."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from game.cli import main


def test_screenshot_of_the_game_scene(env: Any) -> None:
    out = env / "kb.png"
    code = main(
        [
            "screenshot",
            "--game",
            "kingdom-builder",
            "--players",
            "4",
            "--seed",
            "3",
            "--actions",
            "60",
            "--size",
            "1280x800",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    image = pygame.image.load(str(out))
    assert image.get_size() == (1280, 800)
    # Not a blank picture: the board has many colours.
    colours = {
        tuple(image.get_at((x, y)))[:3] for x in range(0, 860, 37) for y in range(60, 790, 41)
    }
    assert len(colours) > 30


@pytest.mark.parametrize(
    "args",
    [
        ["--players", "9"],
        ["--size", "big"],
        ["--game", "no-such-game"],
        ["--seat", "7"],
        ["--bots", "nobody"],
    ],
)
def test_screenshot_refuses_bad_arguments(env: Any, args: list[str], capsys: Any) -> None:
    code = main(["screenshot", "--actions", "3", "--out", str(env / "x.png"), *args])
    assert code == 2
    assert "lantern screenshot:" in capsys.readouterr().err


def test_window_reports_its_first_frame(env: Any, monkeypatch: Any, capsys: Any) -> None:
    from game.commands.play import run

    monkeypatch.setenv("LANTERN_FIRST_FRAME", "1")
    assert run(None) == 0
    assert capsys.readouterr().out.startswith("first-frame ")
