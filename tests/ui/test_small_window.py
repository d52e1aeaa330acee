"""The smallest window (issue 20, finding 2): the window never stays smaller than every layout
fits (``settings.MIN_SIZE``: a window manager that ignores the minimum size, or none, gets the
window back to it), and at that size the table's top bar cuts no button's label — in English,
Japanese and Dutch, in every game and at every stage, with the Hint button there."""

from __future__ import annotations

import itertools
from typing import Any

import pygame
import pytest

from game.ui.app import MIN_SIZE_GRACE, App
from game.ui.settings import MIN_SIZE
from tests.ui.conftest import make_app


def _resize(app: App, size: tuple[int, int]) -> None:
    """What a window manager (or ``xdotool windowsize``) does: the window changes, the
    event arrives."""
    pygame.display.set_mode(size, pygame.RESIZABLE)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1]))
    app.step()


def test_a_window_made_too_small_comes_back_to_the_smallest_size(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    from game.ui import app as app_module
    from game.ui.scenes.menu import MenuScene

    clock = [1000.0]
    monkeypatch.setattr(app_module.time, "monotonic", lambda: clock[0])
    app.push(MenuScene(app))
    _resize(app, (800, 600))
    assert app.size == MIN_SIZE and app.min_size_kept == 1
    assert pygame.display.get_surface().get_size() == MIN_SIZE
    assert app.settings.window_size == MIN_SIZE
    _resize(app, (1500, 900))
    assert app.size == (1500, 900), "larger sizes are the player's"
    clock[0] += MIN_SIZE_GRACE + 1
    _resize(app, (1000, 700))
    assert app.size == (1024, 700), "each side at least the smallest"
    # A window manager that insists at once (a tiling one) gets its way: no tug of war.
    _resize(app, (800, 600))
    assert app.size == (800, 600) and app.min_size_kept == 2
    app.step()


def _positions() -> list[tuple[str, int, int, str | None]]:
    out: list[tuple[str, int, int, str | None]] = []
    for actions in (5, 30, 70):
        out.append(("kingdom-builder", 5, actions, None))
    for until in ("transport", "move_to", "place", "boats", "winter_pick", None):
        out.append(("keyflower", 6, 2000 if until else 40, until))
    for actions in (3, 14, 40, 90):
        out.append(("glen-more", 5, actions, None))
    return out


@pytest.mark.parametrize("lang", ["en", "ja", "nl"])
def test_no_bar_button_is_cut_at_the_smallest_size(env: Any, lang: str) -> None:
    from game.commands.screenshot import _Feed, play_table, reached
    from game.ui.client import TableClient
    from game.ui.scenes.game import GameScene

    app = make_app(MIN_SIZE, language=lang)
    try:
        for game_id, players, actions, until in _positions():
            session, _events = play_table(game_id, players, 3, actions, "random", {}, until=until)
            assert until is None or reached(session.state, until)
            seat = session.state.to_move()[0]
            session.settings.allow_hints = True
            feed = _Feed([session.lobby_message(), session.state_message(seat, [])])
            scene = GameScene(app, TableClient(game_id, {seat: feed}), players)
            app.push(scene)
            for _ in range(3):
                app.step()
            bar = [b for b in scene.widgets if b.visible and b.rect.bottom <= scene.bar.bottom]
            ids = {b.id for b in bar}
            assert {"hint", "undo", "game_help", "game_menu"} <= ids, ids
            w = app.size[0]
            for b in bar:
                assert b.rect.x >= 0 and b.rect.right <= w, f"{game_id} {lang}: {b.id} outside"
                assert not b.label_cut(app), f"{game_id} {until} {lang}: {b.id} cut"  # type: ignore[attr-defined]
            rects = sorted(b.rect for b in bar)
            for a, b in itertools.pairwise(rects):
                assert a.right <= b.x, f"{game_id} {lang}: buttons overlap"
            assert scene.status_rect.right <= rects[0].x
            assert scene.status_rect.width >= app.px(160)
            app.pop()
    finally:
        app.shutdown()


def test_the_window_size_setting_shows_the_real_size_after_a_free_resize(app: App) -> None:
    from game.ui.scenes.settings import SettingsScene
    from game.ui.widgets import resolve

    scene = app.push(SettingsScene(app))
    app.step()
    choice = scene.widget("window_size")
    assert choice.value == (1024, 640)  # type: ignore[attr-defined]
    _resize(app, (1500, 900))  # by hand, with the settings open
    assert choice.value == (1500, 900)  # type: ignore[attr-defined]
    label = resolve(choice.options[choice.index][1])  # type: ignore[attr-defined]
    assert label == "1500 × 900 (custom)"
    _resize(app, (1280, 800))
    assert choice.value == (1280, 800)  # type: ignore[attr-defined]
    assert resolve(choice.options[choice.index][1]) == "1280 × 800"  # type: ignore[attr-defined]
