"""Every Glen More sub-scene drawn at the smallest and the largest window sizes, in English,
Japanese and Dutch: each step of a turn (take, pay, place, resource, option, activate, move), a
trade waiting for Confirm, the scoring round over the table, the end-of-game sequence, the
results, the help overlay (every page), the curtain and the replay viewer; and a resize sweep
down to 640x400 that must not crash."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pygame
import pytest

from game.commands import screenshot
from game.commands.screenshot import _Feed, play_table
from game.ui import i18n
from game.ui.app import App
from game.ui.client import TableClient
from tests.ui.conftest import click, make_app, press
from tests.ui.test_scenes import check_layout

#: Each step of a turn, reached by normal bots playing a 4-player game (seed 3): the first
#: position whose ``pending.phase`` is that step.
PHASES = ("take", "activate", "move", "resource", "place", "pay", "option")
SIZES = [(1024, 640), (1920, 1080), (2560, 1440)]


@pytest.fixture(params=SIZES, ids=["1024x640", "1920x1080", "2560x1440"])
def sized(request: Any, env: Any) -> Iterator[App]:
    application = make_app(request.param)
    yield application
    application.shutdown()
    i18n.set_language("en")


def _table(
    app: App,
    actions: int,
    players: int = 4,
    seed: int = 3,
    until: str | None = None,
    stop_on: str | None = None,
) -> Any:
    """The game scene after ``actions`` bot actions (or the first position in step ``until``,
    or the first action with a ``stop_on`` event), over the main menu (so that closing it does
    not end the app)."""
    from game.ui.scenes.game import GameScene
    from game.ui.scenes.menu import MenuScene

    if not app.stack:
        app.push(MenuScene(app))

    session, events = play_table(
        "glen-more", players, seed, actions, "normal", {}, stop_on=stop_on, until=until
    )
    state = session.state
    seat = state.to_move()[0] if state.to_move() else 0
    messages = [session.lobby_message(), session.state_message(seat, events)]
    if state.is_over():
        messages.append(session.game_over_message())
    game = GameScene(app, TableClient("glen-more", {seat: _Feed(messages)}), players)
    app.push(game)
    game.revealed = seat
    for _ in range(3):
        app.step()
    return game


def _check_view(app: App, game: Any) -> None:
    """The table's parts lie inside the window and apart; no catalogue key shows raw."""
    check_layout(app, game)
    screen = pygame.Rect((0, 0), app.size)
    rects = game.view.rects
    parts = [rects.track, rects.step, rects.header, rects.grid, rects.others, rects.log]
    for r in parts:
        assert screen.contains(r), (r, screen)
    for i, a in enumerate(parts):
        for b in parts[i + 1 :]:
            assert not a.colliderect(b), (a, b)
    seen: list[str] = []
    real = app.fonts.render

    def spy(text: str, *args: Any, **kwargs: Any) -> pygame.Surface:
        seen.append(text)
        return real(text, *args, **kwargs)

    app.fonts.render = spy  # type: ignore[method-assign]
    try:
        app.step()
    finally:
        app.fonts.render = real  # type: ignore[method-assign]
    assert seen
    assert not [s for s in seen if "gm." in s or "{" in s], [s for s in seen if "gm." in s]


@pytest.mark.parametrize("lang", ["en", "ja", "nl"])
def test_every_step_of_a_turn_draws(sized: App, lang: str) -> None:
    app = sized
    app.apply_language(lang)
    for phase in PHASES:
        game = _table(app, 10**6, until=phase)
        assert game.view.phase == phase, (phase, game.view.phase)
        assert game.view.legal, phase
        _check_view(app, game)
        # Hover over the track, the market and the territory: tooltips, previews.
        for rect in list(game.view.slot_rects.values())[:6] + list(game.view.market_rows.values()):
            pygame.event.post(
                pygame.event.Event(
                    pygame.MOUSEMOTION, pos=rect.center, rel=(0, 0), buttons=(0, 0, 0)
                )
            )
            app.step()
        if phase == "pay" and game.view.acts.buys:
            res = next(iter(game.view.acts.buys))
            click_pos = game.view.buy_rects[res].center
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=click_pos, button=1))
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=click_pos, button=1))
            app.step()
            assert game.view.trade is not None
            _check_view(app, game)  # the trade box and Confirm / Cancel in the top bar
        app.pop()


def test_scoring_round_end_sequence_results_help_curtain_replay(sized: App) -> None:
    app = sized
    app.settings.animation_speed = 1.0
    # The first scoring round arrives during play: shown over the table.
    game = _table(app, 10**6, stop_on="scoring")
    assert game.view.round_show is not None
    for _ in range(3):
        _check_view(app, game)
        game.view.round_show.next_beat()
    app.pop()
    # The end: the sequence, then the results with every category.
    game = _table(app, 10**6, players=3, seed=5)
    for _ in range(300):  # the last turn's animations first
        if game.scoring_started:
            break
        app.step(0.05)
    assert game.scoring_started and not game.view.scoring_done()
    _check_view(app, game)
    press(app, pygame.K_RETURN)
    assert game.view.scoring_done()
    for _ in range(10):  # the finished table stays a moment, then the results
        app.step(0.3)
    assert app.top is not None and app.top.name == "results"
    check_layout(app, app.top)
    click(app, "back")
    assert app.top is game
    # Help: every page.
    press(app, pygame.K_F1)
    assert app.top is not None and app.top.name == "help"
    for i in range(4):
        click(app, f"help_tab_{i}")
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-8, flipped=False))
        app.step()
        check_layout(app, app.top)
    press(app, pygame.K_F1)
    app.pop()
    # The curtain of a hot-seat table.
    game = _table(app, 40)
    game._curtain(game.shown)
    app.step()
    assert app.top is not None and app.top.name == "curtain"
    check_layout(app, app.top)
    click(app, "curtain_ready")
    app.pop()


def test_replay_viewer_steps_through_a_glen_more_game(sized: App, tmp_path: Any) -> None:
    from game.ui.scenes.replay import ReplayScene

    app = sized
    session, _events = play_table("glen-more", 2, 9, 10**6, "random", {})
    path = tmp_path / "gm.replay"
    session.replay.seats = session.seat_records()
    session.replay.save(path)
    replay = ReplayScene(app, str(path))
    app.push(replay)
    app.step()
    check_layout(app, replay)
    press(app, pygame.K_END)
    assert replay.step == replay.steps
    for _ in range(3):
        app.step()
    press(app, pygame.K_HOME)
    for _ in range(12):
        press(app, pygame.K_RIGHT)
    assert replay.step == 12
    check_layout(app, replay)


def test_resize_sweep_down_to_640x400(env: Any) -> None:
    app = make_app((1280, 800))
    app.settings.animation_speed = 1.0
    try:
        game = _table(app, 10**6, until="place")
        for w, h in [
            (1280, 800),
            (1100, 700),
            (900, 560),
            (800, 500),
            (700, 440),
            (640, 400),
            (1100, 1000),
            (3000, 700),
            (2560, 1440),
        ]:
            app.set_window_size((w, h))
            for _ in range(2):
                app.step()
            assert game.view.big_grid is not None
            if w >= 1024 and h >= 640:
                check_layout(app, game)
        app.set_window_size((640, 400))
        press(app, pygame.K_F1)
        app.step()
    finally:
        app.shutdown()


def test_colour_blind_palette_keeps_shapes(env: Any) -> None:
    app = make_app((1280, 800), colour_blind=True)
    try:
        game = _table(app, 10**6, until="pay")
        _check_view(app, game)
        normal = [game.view._res_rgb(r) for r in ("wood", "stone", "grain", "cattle", "sheep")]
        assert len(set(normal)) == 5
    finally:
        app.shutdown()
    assert screenshot.SCENES  # the screenshot command draws these scenes too


@pytest.mark.parametrize(
    "scene,extra",
    [
        ("game", ["--actions", "33", "--lang", "ja"]),
        ("round", ["--beat", "2"]),
        ("scoring", ["--beat", "5"]),
    ],
)
def test_the_screenshot_command_draws_glen_more(env: Any, scene: str, extra: list[str]) -> None:
    from game.cli import main

    out = env / f"gm-{scene}.png"
    code = main(
        [
            "screenshot",
            "--game",
            "glen-more",
            "--players",
            "4",
            "--seed",
            "3",
            "--scene",
            scene,
            *extra,
            "--out",
            str(out),
        ]
    )
    assert code == 0
    image = pygame.image.load(str(out))
    assert image.get_size() == (1280, 800)
    colours = {
        tuple(image.get_at((x, y)))[:3] for x in range(0, 1280, 37) for y in range(60, 790, 41)
    }
    assert len(colours) > 30


def test_screenshot_refuses_a_scoring_round_step_that_does_not_exist(env: Any, capsys: Any) -> None:
    from game.cli import main

    code = main(
        [
            "screenshot",
            "--game",
            "glen-more",
            "--scene",
            "round",
            "--beat",
            "9",
            "--out",
            str(env / "x.png"),
        ]
    )
    assert code == 2
    assert "--beat" in capsys.readouterr().err


def test_the_bench_measures_the_busiest_glen_more_table(env: Any) -> None:
    from bench import ui as bench_ui

    figures = bench_ui.busy_glen_more(3)
    assert set(figures) == {
        "ui.glen-more_frame_ms_median",
        "ui.glen-more_frame_ms_p95",
        "ui.glen-more_frame_anim_ms_median",
    }
    assert set(figures) <= set(bench_ui.FIGURES)
    assert all(v > 0 for v in figures.values())
