"""The idle window (issue "Ready for a real LAN party": the window used half a core on the menu
and at a waiting table).  The loop asks each scene how many frames it needs
(:meth:`Scene.frame_rate`) and, in a slow frame with no event, sends to the screen only the
parts that change (:meth:`Scene.ambient_rects`) — checked here on the frames the loop really
sends; the CPU it saves is measured in ``bench/ui.py`` (``ui.idle_cpu_percent.*``)."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from game.ui import app as app_module
from game.ui.app import FPS, App
from game.ui.client import SeatSpec
from game.ui.local_game import start_local_game
from tests.ui.conftest import run_until


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every flip (``None``) and partial update (its rects) the window makes."""
    calls: list[Any] = []
    flip, update = pygame.display.flip, pygame.display.update
    monkeypatch.setattr(pygame.display, "flip", lambda: (calls.append(None), flip())[1])
    monkeypatch.setattr(
        pygame.display, "update", lambda rects=None: (calls.append(rects), update(rects))[1]
    )
    return calls


def _waiting_table(app: App) -> Any:
    from game.ui.scenes.setup import StartingScene

    specs = [SeatSpec("human", "Ann", "red"), SeatSpec("bot", "Bot", "blue", "easy")]
    client = start_local_game("kingdom-builder", specs, {}, seed=3, bot_delay=0)
    app.push(StartingScene(app, client, 2))
    run_until(app, lambda: app.top is not None and app.top.name == "game" and app.top.view.legal)
    game = app.top
    run_until(app, lambda: not game.view.animating())  # type: ignore[attr-defined]
    return game


def test_the_menu_and_a_waiting_table_ask_for_few_frames(app: App) -> None:
    from game.ui.scenes.menu import MenuScene

    app.push(MenuScene(app))
    app.step()
    app.step()  # the kept seats are read once the first frame is on the screen
    app._last_input = 0.0  # nobody touched anything for a while
    assert app.frame_rate() == 0.0, "nothing moves on the menu"
    game = _waiting_table(app)
    app.step()
    app._last_input = 0.0
    assert 0 < app.frame_rate() < FPS, "the legal hexes pulse slowly"
    game.client.conns.clear()  # the table now only waits (no seat of ours to move)
    game.view.legal = []
    game.view.actions_at = {}
    assert app.frame_rate() == 0.0


def test_a_slow_frame_sends_only_the_pulsing_hexes(
    app: App, sent: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = _waiting_table(app)
    rects = app.ambient_rects()
    assert rects, "the legal hexes"
    hexes = game.view.ambient_rects()
    assert len(hexes) == len(game.view.actions_at)
    assert rects == [h.clip(app.screen.get_rect()) for h in hexes]
    # Each part is its own copy to the screen: many go as the rectangle around them.
    update = [rects[0].unionall(rects[1:])] if len(rects) > app_module.MAX_RECTS else rects
    screen = app.screen.get_rect()
    assert sum(r.w * r.h for r in rects) < screen.w * screen.h * 0.75
    for h in game.view.actions_at:
        centre = tuple(int(v) for v in game.view.hexes.centre(*h))
        assert any(r.collidepoint(centre) for r in rects)

    app.step(slow=True)  # the first slow frame after the last full one
    sent.clear()
    clock = [app._full_flip + 0.1]
    monkeypatch.setattr(app_module.time, "monotonic", lambda: clock[0])
    app.step(slow=True)
    assert sent == [update], "a slow frame with no event sends only what pulses"
    drawn = pygame.image.tobytes(app.screen, "RGB")
    app.draw()  # the whole picture of the same moment
    assert pygame.image.tobytes(app.screen, "RGB") == drawn, "nothing else had changed"
    app.step()
    assert sent[-1] is None, "a frame at the full rate sends the whole window"
    clock[0] += app_module.FULL_FLIP_EVERY + 0.01
    app.step(slow=True)
    assert sent[-1] is None, "the whole window at least every FULL_FLIP_EVERY seconds"
    clock[0] += 0.1
    pygame.event.post(pygame.event.Event(pygame.USEREVENT))
    app.step(slow=True)
    assert sent[-1] is None, "an event (a message arrived, a key) sends the whole window"


def test_whatever_else_moves_asks_for_the_whole_window(app: App) -> None:
    game = _waiting_table(app)
    assert app.ambient_rects()
    game.view.hint = game.view.legal[0]  # a hint's marker bounces
    assert app.ambient_rects() is None
    game.view.hint = None
    game.refusal = ((10, 10), game.view.legal[0], app.time)  # a refusal's bubble fades
    assert app.ambient_rects() is None
    game.refusal = None
    from game.ui.scenes.overlays import MessageOverlay

    app.push(MessageOverlay(app, lambda: "hello"))  # a scene that does not say
    assert app.ambient_rects() is None


def test_the_idle_figure_is_measured_in_a_real_window_process() -> None:
    """``bench/ui.py`` runs the real main loop in a fresh process (a smoke run: the figure
    itself is written in the bench, never asserted)."""
    import bench.ui

    assert set(bench.ui.IDLE_SCENES) == {"menu", "table_others"}
    assert all(f"ui.idle_cpu_percent.{s}" in bench.ui.FIGURES for s in bench.ui.IDLE_SCENES)
    for game in ("kingdom-builder", "keyflower", "glen-more"):
        for size in ("1280x800", "1920x1080"):
            assert f"ui.idle_cpu_percent.{game}.{size}" in bench.ui.FIGURES
    figure = bench.ui.idle_cpu_percent("menu", 0.2, 0.5)
    assert 0.0 <= figure <= 400.0


def test_the_idle_wait_ends_with_an_event_from_another_thread(app: App) -> None:
    """A message from the network (``App.wakeup`` from the connection's thread) ends the wait
    within a look or two (``POLL_STEP``), not when the next frame is due."""
    import threading
    import time

    pygame.event.get()
    assert app._wait(20.0) == [], "nothing happened: the wait ends when the frame is due"
    threading.Timer(0.05, app.wakeup).start()
    start = time.perf_counter()
    events = app._wait(0.0)  # no frame due for a second
    waited = time.perf_counter() - start
    assert [e.type for e in events] == [app._wake_type]
    assert waited < 0.9, waited
