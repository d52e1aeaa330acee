"""The idle table's changing parts (issue 20, "a window that sleeps"): while a table waits for
the player's move, only its pulsing targets change, each game's view says where
(:meth:`GameView.ambient_rects`), and the window keeps one picture per pulse step
(``game/ui/ambient.py``) instead of drawing the table again.

Checked on the real pictures: the whole table drawn at two steps of the pulse differs only
inside the parts the view names; a frame copied from the kept pictures is exactly the frame the
table would draw; and once every step is kept, slow frames draw nothing."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from game.ui import app as app_module
from game.ui.app import App
from game.ui.client import SeatSpec
from game.ui.games.base import PULSE_SPEED, PULSE_STEPS
from game.ui.local_game import start_local_game
from tests import testgame
from tests.ui.conftest import make_app, run_until

GAMES = ("kingdom-builder", "keyflower", "glen-more", testgame.GAME_ID)


@pytest.fixture(autouse=True)
def registered() -> None:
    testgame.register()


def waiting_table(app: App, game: str) -> Any:
    """A table of this computer against a bot, at the player's first decision with targets,
    once nothing animates any more."""
    from game.ui.scenes.setup import StartingScene

    specs = [SeatSpec("human", "Ann", "red"), SeatSpec("bot", "Bot", "blue", "random")]
    client = start_local_game(game, specs, {}, seed=5, bot_delay=0)
    app.push(StartingScene(app, client, 2))
    run_until(
        app,
        lambda: app.top is not None and app.top.name == "game" and bool(app.top.view.legal),
        timeout=60,
    )
    scene = app.top
    assert scene is not None
    run_until(app, lambda: not scene.view.animating(), timeout=30)
    app.tooltip.clear()
    return scene


def at_step(scene: Any, step: int) -> None:
    """Put the table's clock in pulse step ``step`` (the middle of it)."""
    period = 2 * 3.141592653589793 / PULSE_SPEED
    scene.view.clock = (step + 0.5) * period / PULSE_STEPS


def picture(app: App) -> pygame.Surface:
    app.draw()
    return app.screen.copy()


def changed(a: pygame.Surface, b: pygame.Surface) -> pygame.mask.Mask:
    """The pixels where ``a`` and ``b`` differ."""
    d1 = a.copy()
    d1.blit(b, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    d2 = b.copy()
    d2.blit(a, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    d1.blit(d2, (0, 0), special_flags=pygame.BLEND_RGB_ADD)
    same = pygame.mask.from_threshold(d1, (0, 0, 0, 255), (1, 1, 1, 255))
    same.invert()
    return same


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("size", [(1024, 640), (1920, 1080)])
def test_only_the_named_parts_change_while_the_table_waits(
    env: Any, game: str, size: tuple[int, int]
) -> None:
    app = make_app(size)
    try:
        scene = waiting_table(app, game)
        pictures = []
        for step in (0, PULSE_STEPS // 4, PULSE_STEPS // 2, 3 * PULSE_STEPS // 4):
            at_step(scene, step)
            pictures.append(picture(app))
        rects = app.ambient_rects()
        assert rects is not None, f"{game}: the waiting table names what changes"
        allowed = pygame.mask.Mask(app.screen.get_size())
        for r in rects:
            allowed.draw(pygame.mask.Mask(r.size, fill=True), r.topleft)
        moved = pygame.mask.Mask(app.screen.get_size())
        for other in pictures[1:]:
            moved.draw(changed(pictures[0], other), (0, 0))
        if game != testgame.GAME_ID:
            assert moved.count() > 0, f"{game}: the legal targets pulse"
        else:
            assert moved.count() == 0 and rects == [], "the generic view has no pulse"
        moved.erase(allowed, (0, 0))
        outside = moved.get_bounding_rects()
        assert not outside, f"{game}: changes outside the named parts: {outside[:5]}"
        area = sum(r.w * r.h for r in rects)
        assert area < size[0] * size[1] * 0.5, f"{game}: the parts are small"
    finally:
        app.shutdown()


@pytest.mark.parametrize("game", GAMES[:3])
def test_kept_pictures_are_the_table_and_slow_frames_draw_nothing_once_kept(
    env: Any, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app((1280, 800))
    try:
        scene = waiting_table(app, game)
        clock = [1000.0]
        monkeypatch.setattr(app_module.time, "monotonic", lambda: clock[0])
        app._last_input = 0.0
        app.step()  # a whole frame
        drawn = app.painter.drawn
        period = 2 * 3.141592653589793 / PULSE_SPEED
        dt = period / PULSE_STEPS
        for _ in range(PULSE_STEPS * 2):  # two whole cycles of slow frames
            clock[0] += dt
            app.step(dt, slow=True)
        assert app.painter.complete, "every step's picture is kept"
        assert app.painter.drawn - drawn <= PULSE_STEPS + 1, "each step drawn once at most"
        calls: list[int] = []
        real_draw = scene.view.draw
        monkeypatch.setattr(scene.view, "draw", lambda s: (calls.append(1), real_draw(s))[1])
        copied = app.painter.copied
        for _ in range(PULSE_STEPS):
            clock[0] += dt
            app.step(dt, slow=True)
        # At most the whole frame drawn for safety every CHECK_EVERY seconds, which matches.
        assert len(calls) <= 1, "the table is not drawn again while it only pulses"
        assert app.painter.copied - copied >= PULSE_STEPS - 1
        assert app.painter.mismatches == 0
        kept = app.screen.copy()
        app.draw()  # the whole picture of the same moment
        assert changed(kept, app.screen).count() == 0, "a copied frame is the table's frame"
        # Anything happening forgets the pictures (an event: a whole frame).
        pygame.event.post(pygame.event.Event(pygame.USEREVENT))
        app.step(dt, slow=True)
        assert not app.painter.complete
    finally:
        app.shutdown()


def fed_table(app: App, game: str, players: int, seed: int, actions: int, until: str | None) -> Any:
    """The game scene of the seat to move after bots played (the host's own Session), fed
    its state message (no animations: nothing happened since)."""
    from game.commands.screenshot import _Feed, play_table, reached
    from game.ui.client import TableClient
    from game.ui.scenes.game import GameScene

    session, _events = play_table(game, players, seed, actions, "random", {}, until=until)
    assert until is None or reached(session.state, until), f"the bots reached {until}"
    seat = session.state.to_move()[0]
    feed = _Feed([session.lobby_message(), session.state_message(seat, [])])
    scene = GameScene(app, TableClient(game, {seat: feed}), players)
    app.push(scene)
    app.step()
    run_until(app, lambda: not scene.view.animating(), timeout=10)
    return scene


STAGES = [
    ("keyflower", 4, 3, 2000, "transport"),
    ("keyflower", 4, 3, 2000, "move_to"),
    ("keyflower", 3, 4, 2000, "place"),
    ("keyflower", 3, 4, 2000, "boats"),
    ("keyflower", 4, 5, 4000, "winter_pick"),
    ("glen-more", 3, 2, 40, None),
    ("glen-more", 4, 3, 90, "activate"),
    ("glen-more", 4, 6, 150, None),
    ("kingdom-builder", 4, 3, 60, None),
]


@pytest.mark.parametrize(("game", "players", "seed", "actions", "until"), STAGES)
def test_only_the_named_parts_change_at_every_stage(
    env: Any, game: str, players: int, seed: int, actions: int, until: str | None
) -> None:
    app = make_app((1280, 800))
    try:
        scene = fed_table(app, game, players, seed, actions, until)
        assert scene.view.legal, "the seat to move has targets"
        # the mouse over the middle of the board: hover effects are part of the picture
        pygame.event.post(
            pygame.event.Event(
                pygame.MOUSEMOTION, pos=scene.view.board_rect.center, rel=(0, 0), buttons=(0, 0, 0)
            )
        )
        app.step()
        app.tooltip.clear()
        pictures = []
        for step in (0, PULSE_STEPS // 4, PULSE_STEPS // 2, 3 * PULSE_STEPS // 4):
            at_step(scene, step)
            pictures.append(picture(app))
        rects = app.ambient_rects()
        assert rects is not None, f"{game} {until}: the waiting table names what changes"
        allowed = pygame.mask.Mask(app.screen.get_size())
        for r in rects:
            allowed.draw(pygame.mask.Mask(r.size, fill=True), r.topleft)
        moved = pygame.mask.Mask(app.screen.get_size())
        for other in pictures[1:]:
            moved.draw(changed(pictures[0], other), (0, 0))
        assert moved.count() > 0, f"{game} {until}: the targets pulse"
        moved.erase(allowed, (0, 0))
        outside = moved.get_bounding_rects()
        assert not outside, f"{game} {until}: changes outside the named parts: {outside[:5]}"
    finally:
        app.shutdown()
