"""The game scene leaves the table to the game's view: its layout (where the boards, the panel
and the log go), its marks for the seats choosing now, and its own buttons in the top bar."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from game.commands.screenshot import _Feed
from game.ui.app import App
from game.ui.client import TableClient
from tests.ui.conftest import click, make_app, press
from tests.ui.test_scenes import SIZES, check_layout


class Recorder(_Feed):
    """A connection that replays messages and records what the client sends."""

    def __init__(self, messages: list[dict[str, Any]]) -> None:
        super().__init__(messages)
        self.sent: list[dict[str, Any]] = []

    def send(self, msg: dict[str, Any]) -> None:
        self.sent.append(msg)


def lobby(n: int = 3) -> dict[str, Any]:
    names, colours = ["Ann", "Bo", "Cy", "Di"], ["red", "blue", "green", "yellow"]
    return {
        "t": "lobby",
        "seats": [
            {"name": names[i], "colour": colours[i], "kind": "human", "connected": True}
            for i in range(n)
        ],
        "settings": {},
        "started": True,
    }


def state(seq: int, to_move: list[int], legal: list[list[Any]], turn: int = 7) -> dict[str, Any]:
    return {
        "t": "state",
        "seq": seq,
        "view": {"you": 0},
        "events": [],
        "to_move": to_move,
        "legal": legal,
        "can_undo": False,
        "turn": turn,
        "waiting": [],
    }


@pytest.fixture
def wide(monkeypatch: pytest.MonkeyPatch) -> None:
    from game.ui import games

    monkeypatch.setitem(games.VIEWS, "wide-test", "tests.ui.fake_view")


def _table(app: App, to_move: list[int], legal: list[list[Any]]) -> tuple[Any, Recorder]:
    from game.ui.scenes.game import GameScene

    feed = Recorder([lobby(), state(4, to_move, legal)])
    scene = GameScene(app, TableClient("wide-test", {0: feed}), 3)
    app.push(scene)
    app.step()
    app.step()
    return scene, feed


@pytest.mark.parametrize("size", SIZES, ids=["1024x640", "1920x1080"])
def test_the_view_lays_out_its_table_and_the_log(env: Any, wide: None, size: Any) -> None:
    app = make_app(size)
    try:
        scene, _feed = _table(app, [0], [["pick", 1], ["done"]])
        view = scene.view
        assert view.board_rect.width == app.size[0] - 2 * app.px(8), "a wide board on top"
        assert len(view.grids) == 3 and all(g.y > view.board_rect.bottom for g in view.grids)
        # The scene draws its log and chat line where the view put them.
        assert scene.log_rect.bottom <= app.size[1] and scene.log_rect.x == view.panel_rect.x
        assert scene.log_rect.y > view.panel_rect.bottom
        assert scene.log_rect.contains(scene.chat_field.rect)
        # The away banner sits over the top of the log (never over the board's counters,
        # issue 20); the Results button on the view's board.
        assert scene.log_rect.contains(scene.away_rect)
        assert not view.board_rect.colliderect(scene.away_rect)
        assert view.board_rect.collidepoint(scene.results_button.rect.center)
        check_layout(app, scene)
        ids = [b.id for b in scene.widgets if b.visible and b.rect.y < app.px(52)]
        assert {"pass", "done", "undo", "game_help", "game_menu"} <= set(ids)
        # Left to right: undo, the view's buttons in its order, help, menu.
        xs = {i: scene.widget(i).rect.x for i in ("undo", "pass", "done", "game_help")}
        assert xs["undo"] < xs["pass"] < xs["done"] < xs["game_help"]
    finally:
        app.shutdown()


def test_every_seat_in_to_move_is_marked(env: Any, wide: None) -> None:
    app = make_app((1024, 640))
    try:
        scene, _feed = _table(app, [0, 2], [["pick", 0]])
        assert scene.view.to_move == [0, 2] and scene.view.turn == 7
        assert scene.view.status_drawn == [0, 2]
    finally:
        app.shutdown()


def test_the_views_buttons_send_legal_actions_only(env: Any, wide: None) -> None:
    app = make_app((1024, 640))
    try:
        scene, feed = _table(app, [0], [["pick", 1], ["done"]])
        assert not scene.widget("pass").enabled, "('pass',) is not legal"
        click(app, "pass")
        assert feed.sent == []
        assert scene.widget("done").enabled
        click(app, "done")
        assert feed.sent == [{"t": "action", "seq": 4, "action": ["done"]}]
        assert not scene.widget("done").enabled, "nothing more while the action is in flight"
        press(app, pygame.K_RETURN)
        assert len(feed.sent) == 1
        # The host answers: the seat may act again; Enter is the primary button.
        feed.messages.append(state(5, [0], [["done"]]))
        app.step()
        press(app, pygame.K_RETURN)
        assert feed.sent[-1] == {"t": "action", "seq": 5, "action": ["done"]}
        # A click on the board goes through the view's click().
        feed.messages.append(state(6, [0], [["pick", 2]]))
        app.step()
        from tests.ui.conftest import click_at

        click_at(app, scene.view.grids[2].center)
        assert feed.sent[-1] == {"t": "action", "seq": 6, "action": ["pick", 2]}
    finally:
        app.shutdown()


def test_the_top_bar_never_overflows_at_the_smallest_window(env: Any, wide: None) -> None:
    """Many long button labels: the keys go, the status gives up room down to a fifth of the
    bar, then the buttons shrink."""
    from game.ui.games.base import ViewButton

    app = make_app((1024, 640))
    try:
        scene, _feed = _table(app, [0], [["pick", 1]])
        long = [ViewButton(f"b{i}", "A rather long button label " * 2) for i in range(5)]
        scene.view.buttons = lambda: long  # type: ignore[method-assign]
        app.step()
        check_layout(app, scene)
        assert scene.status_rect.width >= max(app.px(170), app.size[0] // 5) - app.px(40)
    finally:
        app.shutdown()


SWEEP = [(1024, 640), (1100, 1000), (1366, 768), (1920, 1080), (2560, 1440), (3000, 700)]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_tables_survive_a_resize_sweep(env: Any, lang: str) -> None:
    """Kingdom Builder's table, the generic view of the test game, their results and the
    curtain, at window sizes from the smallest to very wide and very tall: nothing crashes,
    every control stays inside the window and apart from the others."""
    from game.commands.screenshot import play_table
    from game.ui.scenes.game import GameScene
    from tests import testgame

    testgame.register()
    app = make_app((1024, 640), language=lang, animation_speed=1.0)
    try:
        for game_id, players, actions in (
            ("kingdom-builder", 4, 40),
            (testgame.GAME_ID, 6, 3),
            (testgame.GAME_ID, 6, 10**6),
        ):
            session, events = play_table(game_id, players, 5, actions, "random", {})
            seat = session.state.to_move()[0] if session.state.to_move() else 0
            messages = [session.lobby_message(), session.state_message(seat, events)]
            if session.state.is_over():
                messages.append(session.game_over_message())
            scene = GameScene(app, TableClient(game_id, {seat: _Feed(messages)}), players)
            app.reset(scene)
            for size in SWEEP:
                app.set_window_size(size)
                for _ in range(3):
                    app.step()
                for shown in list(app.stack):
                    assert shown.size == app.size
                check_layout(app, app.top)
                if app.top is scene and not session.state.is_over():
                    scene._curtain(seat)
                    app.step()
                    check_layout(app, app.top)
                    app.pop()
    finally:
        app.shutdown()


@pytest.mark.parametrize(
    "game_id, view",
    [
        ("kingdom-builder", {"board": "none", "seats": 5}),
        ("kingdom-builder", {"board": ["GG"] * 20, "seats": [{"seat": "x"}], "walls": [[1]]}),
        ("wide-test", {"you": 0}),
    ],
)
def test_a_view_the_game_never_makes_is_refused_not_raised(
    env: Any, wide: None, game_id: str, view: dict[str, Any]
) -> None:
    """A host's ``view`` the game's view cannot draw: the scene stops drawing the table,
    closes the connection as for a bad message and says so once; the window keeps running."""
    from game.ui.scenes.game import GameScene

    app = make_app((1024, 640))
    try:
        msg = {**state(3, [0], [["pick", 1]]), "view": view}
        feed = Recorder([lobby(), msg])
        scene = GameScene(app, TableClient(game_id, {0: feed}), 3)
        if game_id == "wide-test":
            scene.view.draw = lambda surface: 1 / 0  # type: ignore[method-assign]
        app.push(scene)
        for _ in range(5):
            app.step()
        assert scene.broken
        assert app.scene_named("message") is not None
        assert not feed.connected, "the connection is closed"
        press(app, pygame.K_RETURN)  # OK: back to the main menu
        assert app.top is not None and app.top.name == "menu"
    finally:
        app.shutdown()
