"""Overlaps (issue 20, finding 9): a tooltip never hides the choice below the one pointed at;
the away banner sits over the log, not over the board's counters; the replay viewer does not
say a bot is thinking at every step (``test_replay_thinking`` below)."""

from __future__ import annotations

from typing import Any

import pygame

from game.ui.app import App
from game.ui.widgets.tooltip import Tooltip
from tests.ui.conftest import make_app


def test_the_tooltip_goes_beside_a_list_of_choices() -> None:
    options = [pygame.Rect(700, 300 + i * 40, 260, 34) for i in range(6)]
    tip = Tooltip()
    tip.request("what option 3 does", options[2].center, avoid=options)
    screen = pygame.Rect(0, 0, 1024, 640)
    box = tip.place(pygame.Rect(0, 0, 300, 80), screen, 8)
    assert box.collidelist(options) < 0, box
    assert screen.contains(box)
    # Without anything to avoid, the usual place (below and right of the pointer).
    tip.request("plain", (100, 100))
    assert tip.place(pygame.Rect(0, 0, 300, 80), screen, 8).topleft == (116, 120)


def test_a_choice_tooltip_in_the_keyflower_action_box_hides_no_other_choice(env: Any) -> None:
    from game.commands.screenshot import _Feed, play_table
    from game.ui.client import TableClient
    from game.ui.scenes.game import GameScene

    app = make_app((1024, 640))
    try:
        session, _ = play_table("keyflower", 4, 3, 2000, "random", {}, until="boats")
        seat = session.state.to_move()[0]
        feed = _Feed([session.lobby_message(), session.state_message(seat, [])])
        scene = GameScene(app, TableClient("keyflower", {seat: feed}), 4)
        app.push(scene)
        app.step()
        rects = scene.view.choice_rects()
        assert len(rects) >= 3
        target = rects[len(rects) // 2]
        pygame.event.post(
            pygame.event.Event(pygame.MOUSEMOTION, pos=target.center, rel=(0, 0), buttons=(0, 0, 0))
        )
        for _ in range(40):  # the tooltip's delay
            app.step()
        assert app.tooltip.text, "the boat's load in words"
        assert app.tooltip.avoid == rects
        drawn: list[pygame.Rect] = []
        real = pygame.draw.rect

        def spy(surface: Any, colour: Any, rect: Any, *a: Any, **k: Any) -> Any:
            drawn.append(pygame.Rect(rect))
            return real(surface, colour, rect, *a, **k)

        pygame.draw.rect = spy  # type: ignore[assignment]
        try:
            app.tooltip.draw(app.screen, app)
        finally:
            pygame.draw.rect = real  # type: ignore[assignment]
        box = drawn[-1]  # the tooltip's box (its shadow first)
        assert box.collidelist(rects) < 0, (box, rects)
    finally:
        app.shutdown()


def test_replay_thinking(app: App, tmp_path: Any) -> None:
    """A recorded game of bots: at every step the viewer says whose move it is, never that
    someone is thinking — in every game."""
    from game.commands.screenshot import play_table
    from game.ui.scenes.replay import ReplayScene

    for game_id, players, actions in (
        ("kingdom-builder", 3, 40),
        ("keyflower", 3, 60),
        ("glen-more", 3, 40),
    ):
        session, _ = play_table(game_id, players, 2, actions, "random", {})
        for info in session.seats:
            info.kind = "bot"
        session.replay.seats = session.seat_records()
        path = tmp_path / f"{game_id}.replay"
        session.replay.save(path)
        scene = app.push(ReplayScene(app, str(path)))
        statuses = set()
        for step in range(0, scene.steps + 1, 3):
            scene.go(step)
            app.step()
            statuses.add(scene.view.status())
        assert not [s for s in statuses if "thinking" in s or "Waiting" in s], statuses
        assert any(s.endswith(" to move") for s in statuses), statuses
        app.pop()


def test_the_keyflower_action_box_wraps_its_help_while_it_has_room(env: Any) -> None:
    """Finding 3: Dutch help text in the action box was cut with "..." with the box half
    empty; now it wraps onto the lines the box has, at the smallest window."""
    from game.commands.screenshot import _Feed, play_table
    from game.ui.client import TableClient
    from game.ui.scenes.game import GameScene

    app = make_app((1024, 640), language="nl")
    try:
        session, _ = play_table("keyflower", 4, 3, 20, "random", {})
        seat = session.state.to_move()[0]
        feed = _Feed([session.lobby_message(), session.state_message(seat, [])])
        scene = GameScene(app, TableClient("keyflower", {seat: feed}), 4)
        app.push(scene)
        calls: list[tuple[str, int, int, int]] = []
        real = app.fonts.render_lines

        def spy(text: str, size: int, colour: Any, width: int, max_lines: int, **k: Any) -> Any:
            out = real(text, size, colour, width, max_lines, **k)
            calls.append((text, width, max_lines, len(out)))
            return out

        app.fonts.render_lines = spy  # type: ignore[method-assign]
        prompt, info = scene.view._prompt()  # type: ignore[attr-defined]
        assert info and len(info) > 120, "a long help text"
        # A help text as long as the longest the box meets (a narrow box, a long language).
        info = info + " " + info
        scene.view._prompt = lambda: (prompt, info)  # type: ignore[attr-defined]
        app.step()
        drawn = [c for c in calls if c[0] == info]
        assert drawn
        text, width, max_lines, _n = drawn[-1]
        wrapped = app.fonts.wrap_lines(text, app.px(13), width)
        assert len(wrapped) > 4, "more lines than the box once gave it (4)"
        assert max_lines >= len(wrapped), "every line shown: the box has the room"
    finally:
        app.shutdown()
