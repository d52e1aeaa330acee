"""Every scene renders at the smallest (1024x640) and largest (1920x1080) supported size, with
its controls inside the window and not on top of each other; Esc and F1 behave."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from game.core.match import play_match
from game.ui.app import App
from game.ui.scene import Scene
from game.ui.widgets import Button, Choice, ListBox, TextField, Toggle
from tests.ui.conftest import click, click_at, make_app, press

SIZES = [(1024, 640), (1920, 1080)]
INTERACTIVE = (Button, Choice, Toggle, TextField, ListBox)


def check_layout(app: App, scene: Scene) -> None:
    screen = pygame.Rect((0, 0), app.size)
    shown = [w for w in scene.widgets if w.visible and w.rect.width > 0]
    for w in shown:
        assert screen.contains(w.rect), f"{scene.name}: {w.id or w} {w.rect} is outside {screen}"
    controls = [w for w in shown if isinstance(w, INTERACTIVE)]
    for i, a in enumerate(controls):
        for b in controls[i + 1 :]:
            assert not a.rect.colliderect(b.rect), f"{scene.name}: {a.id} overlaps {b.id}"


def render(app: App, scene: Scene, frames: int = 2) -> None:
    app.push(scene)
    for _ in range(frames):
        app.step()
    check_layout(app, scene)


def _finished_replay(data: Path) -> Path:
    from game.bots import make_bot

    bots = [make_bot("random", s).choose for s in range(2)]
    result = play_match(
        "kingdom-builder",
        2,
        5,
        bots,
        seats=[{"name": "Ann", "colour": "blue"}, {"name": "Bo", "colour": "red"}],
    )
    path = data / "saves" / "kingdom-builder-test.save"
    result.replay.save(path)
    return path


@pytest.fixture(params=SIZES, ids=["1024x640", "1920x1080"])
def sized_app(request: Any, env: Any) -> Any:
    application = make_app(request.param)
    yield application
    application.shutdown()


def test_menu_scenes(sized_app: App) -> None:
    from game.ui.scenes.files import FilesScene
    from game.ui.scenes.join import JoinScene
    from game.ui.scenes.menu import MenuScene
    from game.ui.scenes.settings import SettingsScene
    from game.ui.scenes.setup import SetupScene

    app = sized_app
    render(app, MenuScene(app))
    for scene in (
        SetupScene(app, "local"),
        SetupScene(app, "host"),
        SettingsScene(app),
        JoinScene(app),
        FilesScene(app, "saves"),
        FilesScene(app, "replays"),
    ):
        render(app, scene)
        press(app, pygame.K_F1)
        assert app.top is not None and app.top.name == "help"
        check_layout(app, app.top)
        press(app, pygame.K_ESCAPE)
        assert app.top is scene
        press(app, pygame.K_ESCAPE)
        assert app.top is not None and app.top.name == "menu"


def test_setup_options_expand(sized_app: App) -> None:
    """Choosing sections and cards by hand shows a choice per section and card, in the window."""
    from game.ui.scenes.setup import SetupScene

    app = sized_app
    scene = SetupScene(app, "local")
    render(app, scene)
    for name in ("opt_sections", "opt_rotations", "opt_cards"):
        click(app, name)
    check_layout(app, scene)
    options = scene.options()
    assert isinstance(options["sections"], list) and len(options["sections"]) == 4
    assert isinstance(options["cards"], list) and len(options["cards"]) == 3
    assert isinstance(options["rotations"], list) and len(options["rotations"]) == 4


def test_game_scenes(sized_app: App, env: Any) -> None:
    from game.commands.screenshot import _Feed, play_table
    from game.ui.client import TableClient
    from game.ui.scenes.game import GameScene
    from game.ui.scenes.overlays import ConfirmOverlay, GameMenuOverlay, MessageOverlay

    app = sized_app
    app.settings.animation_speed = 1.0
    session, events = play_table("kingdom-builder", 4, 3, 50, "random", {})
    seat = session.state.to_move()[0]
    messages = [session.lobby_message(), session.state_message(seat, events)]
    game = GameScene(app, TableClient("kingdom-builder", {seat: _Feed(messages)}), 4)
    render(app, game, frames=30)
    assert game.view.view["you"] == seat
    press(app, pygame.K_F1)
    assert app.top is not None and app.top.name == "help"
    for i in range(4):
        click(app, f"help_tab_{i}")
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-5, flipped=False))
        app.step()
    check_layout(app, app.top)
    press(app, pygame.K_F1)
    press(app, pygame.K_ESCAPE)
    assert isinstance(app.top, GameMenuOverlay)
    check_layout(app, app.top)
    press(app, pygame.K_ESCAPE)
    assert app.top is game
    render(app, ConfirmOverlay(app, "Really?", lambda: None))
    press(app, pygame.K_ESCAPE)
    render(app, MessageOverlay(app, "Done"))
    press(app, pygame.K_RETURN)
    assert app.top is game
    game._curtain(seat)
    app.step()
    assert app.top is not None and app.top.name == "curtain"
    check_layout(app, app.top)
    click(app, "curtain_ready")
    assert app.top is game


def test_a_click_shows_the_next_scoring_step_and_enter_ends_the_sequence(app: App) -> None:
    from game.commands.screenshot import _Feed, play_table
    from game.ui.client import TableClient
    from game.ui.scenes.game import GameScene

    app.settings.animation_speed = 1.0
    session, events = play_table("kingdom-builder", 2, 8, 10**6, "random", {})
    messages = [
        session.lobby_message(),
        session.state_message(0, events),
        session.game_over_message(),
    ]
    game = GameScene(app, TableClient("kingdom-builder", {0: _Feed(messages)}), 2)
    render(app, game)
    scoring = game.view.scoring  # type: ignore[attr-defined]
    assert game.scoring_started and not game.view.scoring_done()
    before = scoring.beat()
    click_at(app, game.view.board_rect.center)
    assert scoring.beat().start == before.end, "a click moves on to the next step"
    assert not game.results_button.visible
    press(app, pygame.K_RETURN)
    assert game.view.scoring_done()
    assert game.results_button.visible and app.top is game


def test_results_and_replay(sized_app: App, env: Any) -> None:
    from game.commands.screenshot import _Feed, play_table
    from game.ui.client import TableClient
    from game.ui.scenes.files import FilesScene
    from game.ui.scenes.game import GameScene

    app = sized_app
    session, events = play_table("kingdom-builder", 3, 8, 10**6, "random", {})
    assert session.state.is_over()
    messages = [
        session.lobby_message(),
        session.state_message(0, events),
        session.game_over_message(),
    ]
    game = GameScene(app, TableClient("kingdom-builder", {0: _Feed(messages)}), 3)
    render(app, game)
    for _ in range(5):
        app.step()
    assert app.top is not None and app.top.name == "results", "the results follow the scoring"
    results = app.top
    check_layout(app, results)
    assert results.winners_text()  # type: ignore[attr-defined]
    # A finished game in the saves folder is listed as a replay and opens in the viewer.
    _finished_replay(Path(env) / "data")
    files = FilesScene(app, "replays")
    render(app, files)
    listbox = files.widget("files")
    assert len(listbox.items) == 1  # type: ignore[attr-defined]
    listbox.select(0)  # type: ignore[attr-defined]
    click(app, "open_file")
    assert app.top is not None and app.top.name == "replay"
    replay = app.top
    check_layout(app, replay)
    press(app, pygame.K_END)
    assert replay.step == replay.steps  # type: ignore[attr-defined]
    press(app, pygame.K_LEFT)
    assert replay.step == replay.steps - 1  # type: ignore[attr-defined]
    press(app, pygame.K_HOME)
    assert replay.step == 0  # type: ignore[attr-defined]
    click(app, "replay_forward")
    assert replay.step == 1  # type: ignore[attr-defined]
    app.step()


def test_resize_and_fullscreen(env: Any) -> None:
    from game.ui.scenes.menu import MenuScene

    app = make_app((1280, 800))
    try:
        menu = app.push(MenuScene(app))
        app.set_window_size((1024, 640))
        app.step()
        check_layout(app, menu)
        press(app, pygame.K_F11)
        assert app.fullscreen
        press(app, pygame.K_F11)
        assert not app.fullscreen and app.size == (1024, 640)
    finally:
        app.shutdown()
