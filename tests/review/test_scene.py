"""The window's game review (``game/ui/scenes/review.py``): opened from the results and from
the replay viewer, worked out in a worker process while the window goes on, cancelled, reopened
at once from the review saved beside the replay, and stepping into the replay at a turning
point."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from game.core.match import Replay
from game.review import cache
from game.ui.app import App
from game.ui.games.base import SeatInfo
from game.ui.scenes.replay import ReplayScene
from game.ui.scenes.results import ResultsScene
from game.ui.scenes.review import ReviewScene
from tests.review.helpers import bad_move_game
from tests.ui.conftest import click, click_at, make_app, press, run_until


@pytest.fixture
def app(env: Any) -> Iterator[App]:
    application = make_app((1280, 800))
    yield application
    application.shutdown()


@pytest.fixture(scope="module")
def short_game(bid_race: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Replay, int]:
    return bad_move_game(bid_race, 3, 1, options={"rounds": 3}, gap=2.0, after=99)


@pytest.fixture(scope="module")
def long_game() -> Replay:
    replay, _bad = bad_move_game("glen-more", 4, 1, gap=12.0, after=99)
    return replay


def _results(app: App, replay: Replay, path: Path) -> ResultsScene:
    state = replay.state_at()
    result = {
        "scores": state.scores(),
        "winners": state.winners(),
    }
    seats = [
        SeatInfo(s, f"P{s}", ("red", "blue", "green", "yellow")[s], "human" if s == 0 else "bot")
        for s in range(replay.players)
    ]
    seats[0].local = True
    scene = ResultsScene(app, result, seats, [], str(path))
    app.push(scene)
    app.step()
    return scene


def _review(app: App) -> ReviewScene:
    scene = app.top
    assert isinstance(scene, ReviewScene)
    return scene


def test_review_from_the_results_then_reopened_from_the_saved_review(
    app: App, short_game: tuple[Replay, int], tmp_path: Path
) -> None:
    replay, bad = short_game
    path = tmp_path / "game.replay"
    replay.save(path)
    _results(app, replay, path)
    click(app, "results_review")
    scene = _review(app)
    assert scene.seat == 0  # the player at this computer
    assert scene.job is not None and scene.running  # worked out in a worker process
    assert scene.job._process.pid != os.getpid()
    run_until(app, lambda: scene.review is not None, timeout=240)
    assert scene.review is not None and scene.review["turning_points"][0] == bad
    assert cache.cache_path(path).is_file()
    assert scene.selected == bad and scene.boards is not None
    for _ in range(3):
        app.step()
    # the two tables were drawn, the suggestion's rings as a ghost
    assert len(scene.boards._pictures) == 2
    press(app, pygame.K_ESCAPE)
    assert not isinstance(app.top, ReviewScene)
    # reopened: at once from the saved review, no worker started
    click(app, "results_review")
    again = _review(app)
    assert again.job is None and again.review == scene.review


def test_a_turning_point_opens_the_replay_at_that_turn(
    app: App, short_game: tuple[Replay, int], tmp_path: Path
) -> None:
    replay, bad = short_game
    path = tmp_path / "game.replay"
    replay.save(path)
    app.push(ReviewScene(app, str(path), 0))
    scene = _review(app)
    run_until(app, lambda: scene.review is not None, timeout=240)
    app.step()
    row = dict(scene.rows)[bad]
    click_at(app, row.center)  # the selected one: open it
    viewer = app.top
    assert isinstance(viewer, ReplayScene)
    turn = next(t for t in scene.review["turns"] if t["number"] == bad)  # type: ignore[index]
    assert viewer.step == turn["step"]
    # the viewer's Review button goes back to the review it came from
    click(app, "replay_review")
    assert app.top is scene


def test_review_from_the_replay_viewer(
    app: App, short_game: tuple[Replay, int], tmp_path: Path
) -> None:
    replay, _bad = short_game
    path = tmp_path / "game.replay"
    replay.save(path)
    app.push(ReplayScene(app, str(path)))
    app.step()
    click(app, "replay_review")
    scene = _review(app)
    assert scene.seat == 0
    run_until(app, lambda: scene.review is not None, timeout=240)
    # another seat's tab reviews that seat
    click(app, "review_seat_1")
    assert scene.seat == 1 and scene.review is None and scene.running
    run_until(app, lambda: scene.review is not None, timeout=240)
    assert scene.review is not None and scene.review["seat"] == 1


def test_cancel_stops_the_worker_and_saves_nothing(
    app: App, long_game: Replay, tmp_path: Path
) -> None:
    path = tmp_path / "long.replay"
    long_game.save(path)
    app.push(ReviewScene(app, str(path), 0))
    scene = _review(app)
    job = scene.job
    assert job is not None
    run_until(app, lambda: job.done >= 1, timeout=240)  # it is working: the window goes on
    assert scene.running and scene.review is None
    click(app, "review_run")  # Cancel
    run_until(app, lambda: scene.job is None, timeout=60)
    assert not job.alive and job.result is None
    assert scene.stopped and scene.review is None
    assert not cache.cache_path(path).exists()
    # Review again starts a new worker; leaving the scene ends it
    click(app, "review_run")
    second = scene.job
    assert second is not None and second.alive
    press(app, pygame.K_ESCAPE)
    run_until(app, lambda: not second.alive, timeout=30)
    assert not cache.cache_path(path).exists()


def test_a_file_that_cannot_be_reviewed_says_so(
    app: App, short_game: tuple[Replay, int], tmp_path: Path
) -> None:
    replay, _bad = short_game
    path = tmp_path / "newer.replay"
    newer = Replay(**{**replay.__dict__, "rules_version": replay.rules_version + 3})
    newer.save(path)
    results = _results(app, replay, path)
    click(app, "results_review")
    assert app.top is results  # refused with a message, nothing pushed
    assert any("rules version" in toast.text for toast in app.toasts)
