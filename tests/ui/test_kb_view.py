"""The Kingdom Builder table view against real engine views: clicks choose exactly the legal
actions, every event gets a log line, and every view along a game draws."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from game.bots import make_bot
from game.core.registry import get_game
from game.ui.app import App
from game.ui.games.base import SeatInfo
from game.ui.games.kingdom_builder import KingdomBuilderView
from tests.ui.conftest import make_app


def _seats(n: int) -> list[SeatInfo]:
    colours = ["red", "blue", "green", "yellow"]
    return [SeatInfo(i, f"P{i + 1}", colours[i], "human", True) for i in range(n)]


def _view(app: App, n: int) -> KingdomBuilderView:
    view = KingdomBuilderView(app, _seats(n))
    w, h = app.size
    view.layout(pygame.Rect(8, 60, w - 400, h - 68), pygame.Rect(w - 380, 60, 372, h - 200))
    return view


@pytest.fixture
def kb_app(env: Any) -> Any:
    application = make_app((1024, 640))
    yield application
    application.shutdown()


def _play(seed: int, players: int, steps: int) -> Any:
    state = get_game("kingdom-builder").new(players, {}, seed)
    bots = [make_bot("random", seed + s) for s in range(players)]
    for _ in range(steps):
        if state.is_over():
            break
        seat = state.to_move()[0]
        state.apply(seat, bots[seat].choose(state, seat))
    return state


def test_clicks_choose_exactly_the_legal_actions(kb_app: App) -> None:
    view = _view(kb_app, 3)
    for steps in (0, 7, 25, 60):
        state = _play(11, 3, steps)
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        view.set_view(state.view(seat), legal, [])
        view.draw(kb_app.screen)  # lays out the tile buttons
        targets = {(a[1], a[2]): a for a in legal if a[0] in ("place", "move_from", "wall")}
        assert view.hexes is not None
        for r in range(20):
            for c in range(20):
                x, y = view.hexes.centre(r, c)
                got = view.click((round(x), round(y)))
                if (r, c) in targets:
                    assert got == targets[(r, c)]
                elif got is not None:
                    # Only a location hex whose tile may be used answers otherwise.
                    assert got == ("use", r, c) and got in legal
        for rect, action, tile in view.tile_buttons:
            assert view.click(rect.center) == action
            assert action is None or action in legal
            assert action is None or (action[1], action[2]) == tuple(tile["hex"])


def test_nothing_is_clickable_for_another_seat(kb_app: App) -> None:
    view = _view(kb_app, 2)
    state = _play(5, 2, 4)
    other = 1 - state.to_move()[0]
    view.set_view(state.view(other), [], [])
    view.draw(kb_app.screen)
    assert view.hexes is not None
    for r in range(20):
        for c in range(20):
            assert view.click(tuple(map(int, view.hexes.centre(r, c)))) is None  # type: ignore[arg-type]
    assert "P" in view.status()


def test_a_whole_game_draws_logs_and_scores(kb_app: App) -> None:
    """Every view along a random game draws (with events animating), in both palettes."""
    view = _view(kb_app, 4)
    state = get_game("kingdom-builder").new(4, {}, 3)
    bots = [make_bot("random", s) for s in range(4)]
    kinds: set[str] = set()
    logged = 0
    kb_app.settings.animation_speed = 1.0
    i = 0
    while not state.is_over():
        seat = state.to_move()[0]
        events = state.apply(seat, bots[seat].choose(state, seat))
        visible = state.visible_events(events, 0)
        kinds.update(e["type"] for e in visible)
        nxt = state.to_move()[0] if not state.is_over() else 0
        view.set_view(state.view(0), state.legal_actions(0) if nxt == 0 else [], visible)
        for ev in visible:
            if view.describe_event(ev) is not None:
                logged += 1
        if i % 25 == 0:
            kb_app.settings.colour_blind = not kb_app.settings.colour_blind
            view.update(0.05)
            view.draw(kb_app.screen)
            assert view.status()
        i += 1
    assert {"place", "turn", "end_turn"} <= kinds
    assert logged > 100
    view.start_scoring()
    assert not view.scoring_done()
    for _ in range(200):
        view.update(0.1)
        view.draw(kb_app.screen)
    assert view.scoring_done()
    cats = [k for k, _ in view.score_categories()]
    assert cats[0] == "castles" and len(cats) >= 4


def test_hover_explains_a_click(kb_app: App) -> None:
    view = _view(kb_app, 2)
    state = _play(2, 2, 0)
    seat = state.to_move()[0]
    legal = state.legal_actions(seat)
    view.set_view(state.view(seat), legal, [])
    place = next(a for a in legal if a[0] == "place")
    assert view.hexes is not None
    pos = tuple(map(int, view.hexes.centre(place[1], place[2])))
    view.mouse_moved(pos)  # type: ignore[arg-type]
    text = view.hover(pos)  # type: ignore[arg-type]
    assert "Click to build" in text
    view.draw(kb_app.screen)
