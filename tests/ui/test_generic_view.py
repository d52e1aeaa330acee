"""The game-neutral view: any registered game without a view of its own is drawn from its view
dict and played from its legal actions (here the framework's test game, fed the host's own
messages), at the smallest and largest window, in the game scene and the replay viewer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from game.bots import make_bot
from game.commands.screenshot import _Feed, play_table
from game.core import registry
from game.core.match import play_match
from game.ui.app import App
from game.ui.client import TableClient
from game.ui.games import view_class
from game.ui.games.generic import GenericView, compact
from tests import testgame
from tests.ui.conftest import click, make_app, press
from tests.ui.test_scenes import SIZES, check_layout, render


@pytest.fixture(autouse=True)
def registered() -> None:
    testgame.register()


def test_every_registered_game_has_a_view() -> None:
    from game.ui.games.base import GameView
    from game.ui.games.kingdom_builder import KingdomBuilderView

    for game_id in registry.registered_ids():
        assert issubclass(view_class(game_id), GameView)
    assert view_class("kingdom-builder") is KingdomBuilderView
    assert view_class(testgame.GAME_ID) is GenericView
    assert view_class("a-game-from-another-client") is GenericView


def _scene(app: App, actions: int, seat: int | None = None) -> Any:
    from game.ui.scenes.game import GameScene

    session, events = play_table(testgame.GAME_ID, 4, 9, actions, "random", {"rounds": 1})
    state = session.state
    if seat is None:
        seat = state.to_move()[0] if state.to_move() else 0
    messages = [session.lobby_message(), session.state_message(seat, events)]
    if state.is_over():
        messages.append(session.game_over_message())
    game = GameScene(app, TableClient(testgame.GAME_ID, {seat: _Feed(messages)}), 4)
    return game, session, seat


@pytest.fixture(params=SIZES, ids=["1024x640", "1920x1080"])
def sized_app(request: Any, env: Any) -> Any:
    application = make_app(request.param)
    yield application
    application.shutdown()


@pytest.mark.parametrize("actions", [0, 3, 9, 20])
def test_the_generic_view_draws_and_offers_exactly_the_legal_actions(
    sized_app: App, actions: int
) -> None:
    app = sized_app
    game, session, seat = _scene(app, actions)
    render(app, game, frames=3)
    view = game.view
    assert isinstance(view, GenericView)
    assert view.view["you"] == seat
    legal = [tuple(a) for a in session.state.legal_actions(seat)]
    assert view.legal == legal
    # Every value the composer offers continues some legal action.
    offered = [o.value for o in view.panel.options]
    depth = len(view.composer.prefix)
    assert offered and all(
        any(a[:depth] == view.composer.prefix and a[depth] == v for a in legal) for v in offered
    )
    # Fields are drawn inside the table area; the seats and the composer inside the panel.
    for rect, _text in view.lines:
        if rect.width and rect.height:
            assert view.board_rect.contains(rect)
    assert view.panel_rect.contains(view.panel.rect)
    assert view.status()
    assert game.widget("composer_confirm").visible and game.widget("composer_back").visible
    press(app, pygame.K_F1)
    assert app.top is not None and app.top.name == "help"
    check_layout(app, app.top)
    press(app, pygame.K_ESCAPE)


def test_a_seat_that_is_not_choosing_gets_no_choices(app: App) -> None:
    _game, session, _seat = _scene(app, 9)
    waiting = next(s for s in range(4) if s not in session.state.to_move())
    game, session, _seat = _scene(app, 9, seat=waiting)
    render(app, game, frames=2)
    assert game.view.legal == [] and game.view.panel.options == []
    assert "Waiting for" in game.view.status()
    assert not game.widget("composer_confirm").enabled


def test_the_end_of_a_generic_game_goes_to_the_results(app: App) -> None:
    game, session, _seat = _scene(app, 10**6)
    assert session.state.is_over()
    render(app, game, frames=5)
    assert app.top is not None and app.top.name == "results"
    table = app.top.table  # type: ignore[attr-defined]
    assert [k for k, _l in table.columns] == ["bids", "race", "coins", "total"]
    click(app, "back")
    assert app.top is game and game.view.status() == "The game is over."


def test_the_replay_viewer_shows_a_generic_game(app: App, env: Any) -> None:
    from game.ui.scenes.replay import ReplayScene

    bots = [make_bot("random", s).choose for s in range(3)]
    result = play_match(testgame.GAME_ID, 3, 2, bots, options={"rounds": 1})
    path = Path(env) / "testgame.replay"
    result.replay.save(path)
    replay = ReplayScene(app, str(path))
    render(app, replay)
    assert isinstance(replay.view, GenericView)
    press(app, pygame.K_END)
    assert replay.step == replay.steps
    assert replay.view.to_move == [] and replay.log
    press(app, pygame.K_HOME)
    assert replay.view.to_move == list(range(3)), "the sealed bids: everyone chooses"


def test_odd_values_are_folded_never_crash() -> None:
    deep: Any = 1
    for _ in range(40):
        deep = [deep, {"k": deep}]
    assert len(compact(deep)) <= 160
    assert compact({"a": None, "b": True, "c": [1, "x"]}) == "a: —, b: yes, c: [1, x]"
    assert compact("line\nbreak\ttab") == "line break tab"
