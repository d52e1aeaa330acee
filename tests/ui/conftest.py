"""Fixtures for the client tests: a window under SDL's dummy driver, driven by posted events.

Settings and saves go to a temporary folder (``LANTERN_CONFIG_DIR``, ``LANTERN_DATA_DIR``),
LAN hosting and discovery stay on loopback with free ports, and bots act without the
usual pause.  Helpers post real pygame events (mouse motion, button down and up, keys) and
step the app one frame at a time, exactly as the main loop does.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pygame
import pytest

from game.ui.app import App
from game.ui.settings import Settings


@pytest.fixture(autouse=True)
def quick_handoff(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hot-seat curtains come up after a short look at the calm table instead of the real
    pause (games played through to the results have dozens of them); the timing itself is
    checked with the real pause in ``test_handoff.py``."""
    from game.ui.scenes import handoff

    monkeypatch.setattr(handoff, "HANDOFF_PAUSE", 0.05)


@pytest.fixture
def env(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("LANTERN_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("LANTERN_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("LANTERN_LAN_BIND", "127.0.0.1")
    monkeypatch.setenv("LANTERN_LAN_PORT", "0")
    monkeypatch.setenv("LANTERN_DISCOVERY_LISTEN", "127.0.0.1:0")
    monkeypatch.setenv("LANTERN_BOT_DELAY_MS", "0")
    monkeypatch.setenv("LANTERN_INSTALL_PORT", "0")
    monkeypatch.setenv("LANTERN_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path


def make_app(size: tuple[int, int] = (1024, 640), **settings: Any) -> App:
    s = Settings(language="en", window_size=size, animation_speed=0.0)
    # A LAN table's install page builds wheels (seconds of CPU): tests that want it ask.
    s.extra["host.install_page"] = False
    for k, v in settings.items():
        setattr(s, k, v)
    return App(s, size)


@pytest.fixture
def app(env: Any) -> Iterator[App]:
    application = make_app()
    yield application
    application.shutdown()


def click_at(app: App, pos: tuple[int, int], steps: int = 1) -> None:
    """A left click at ``pos``: motion, button down, button up; then ``steps`` frames."""
    pos = (int(pos[0]), int(pos[1]))
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    )
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    for _ in range(steps):
        app.step()


def click(app: App, widget_id: str, steps: int = 1) -> None:
    """Click the centre of the top scene's widget ``widget_id``."""
    assert app.top is not None
    widget = app.top.widget(widget_id)
    assert widget.visible, f"{widget_id} is hidden"
    click_at(app, widget.rect.center, steps)


def press(app: App, key: int, mod: int = 0, steps: int = 1) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode="", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=mod, unicode="", scancode=0))
    for _ in range(steps):
        app.step()


def type_text(app: App, text: str) -> None:
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))
    app.step()


def frame(app: App, pause: float = 0.002) -> None:
    """One frame, then a short pause, as the real main loop's ``clock.tick`` gives.

    The in-process host and the bot worker's reader run on other threads of this process.  A
    loop that steps frames back to back (pygame releases and retakes the GIL inside every
    draw call) starves those threads for seconds; the real loop sleeps between frames.
    """
    app.step()
    if pause:
        time.sleep(pause)


def run_until(
    app: App, done: Callable[[], bool], timeout: float = 20.0, sleep: float = 0.002
) -> None:
    """Step frames until ``done()`` (the host and bots run on other threads meanwhile)."""
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            names = [s.name for s in app.stack]
            raise AssertionError(f"timed out; scenes {names}")
        frame(app, sleep)


def two_seat_table(server: Any) -> str:
    """Open a 2-seat Kingdom Builder table on a :class:`game.ui.lan.LanServer`: seat 0 free,
    seat 1 a random bot; it starts once seat 0 is taken.  Returns the table id."""
    return str(
        server.call(
            lambda: (
                server.hub.create_table(
                    "kingdom-builder", 2, {}, bots=[None, "random"], autostart=True
                ).table_id
            )
        )
    )
