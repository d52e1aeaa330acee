"""Clicks and keys that did nothing now say why (issue 20, finding 6): Glen More's C with no
clan member chosen (the table's own guidance when one may be chosen, else the engine's reason),
Keyflower's click on a boat outside the boat choice (the engine's reason, KF §8), and the
winter tiles ticked in the winter choice marked unmistakably on the board."""

from __future__ import annotations

from typing import Any

import pygame

from game.ui.app import App
from game.ui.client import SeatSpec
from game.ui.local_game import start_local_game
from tests.ui.conftest import make_app, press, run_until


def test_glen_more_c_says_why_through_the_host(app: App) -> None:
    from game.ui.scenes.setup import StartingScene

    specs = [SeatSpec("human", "Ann", "red"), SeatSpec("bot", "Bot", "blue", "random")]
    client = start_local_game("glen-more", specs, {}, seed=3, bot_delay=0)
    app.push(StartingScene(app, client, 2))
    run_until(app, lambda: app.top is not None and app.top.name == "game" and app.top.view.legal)
    game = app.top
    assert game.view.pending.get("phase") != "move"  # type: ignore[attr-defined]
    press(app, pygame.K_c)
    assert game.refusal is not None, "C asks the host why"  # type: ignore[attr-defined]
    _pos, action, _when = game.refusal  # type: ignore[attr-defined]
    assert action[0] == "chieftain"
    run_until(app, lambda: bool(game.refusal_text(action)))  # type: ignore[attr-defined]
    text = game.refusal_text(action)  # type: ignore[attr-defined]
    assert text and ("chieftain" in text.lower() or "move" in text.lower()), text


def test_glen_more_c_with_several_clan_members_asks_to_choose_one(app: App) -> None:
    from game.commands.screenshot import _Feed, play_table
    from game.ui.client import TableClient
    from game.ui.scenes.game import GameScene

    for seed in range(1, 40):
        session, _ = play_table("glen-more", 2, seed, 400, "random", {}, until="move")
        state = session.state
        seat = state.to_move()[0] if state.to_move() else 0
        chiefs = [a for a in state.legal_actions(seat) if a[0] == "chieftain"]
        moves = {(a[1], a[2]) for a in state.legal_actions(seat) if a[0] in ("move", "chieftain")}
        if chiefs and len(moves) > 1:
            break
    else:
        raise AssertionError("no movement step with a choice of clan members")
    feed = _Feed([session.lobby_message(), session.state_message(seat, [])])
    scene = GameScene(app, TableClient("glen-more", {seat: feed}), 2)
    app.push(scene)
    app.step()
    assert scene.view.move_from is None  # type: ignore[attr-defined]
    press(app, pygame.K_c)
    assert any("First choose the clan member" in x.text for x in app.toasts)
    assert scene.refusal is None, "a choice of the table, not a refusal"


def test_keyflower_boat_click_outside_the_boat_choice_asks_the_engine(env: Any) -> None:
    from game.commands.screenshot import _Feed, play_table
    from game.ui.client import TableClient
    from game.ui.scenes.game import GameScene

    app = make_app((1280, 800))
    try:
        session, _ = play_table("keyflower", 3, 5, 40, "random", {})
        state = session.state
        assert state.view(None).get("phase") == "play"
        seat = state.to_move()[0]
        feed = _Feed([session.lobby_message(), session.state_message(seat, [])])
        scene = GameScene(app, TableClient("keyflower", {seat: feed}), 3)
        app.push(scene)
        app.step()
        boats = [h for h in scene.view.hits if h.kind == "boat"]  # type: ignore[attr-defined]
        assert boats
        pos = (int(boats[0].centre[0]), int(boats[0].centre[1]))
        intent = scene.view.intent(pos)
        assert intent == ("boat", str(boats[0].key))
        refusal = state.explain_illegal(seat, intent)
        assert refusal.key == "boat_not_now" and refusal.rule == "KF §8 step 5"
        assert "end of the season" in scene.view.reason_text(refusal.reason())
    finally:
        app.shutdown()


def test_ticked_winter_tiles_are_marked_on_the_board(env: Any) -> None:
    from game.commands.screenshot import _Feed, play_table
    from game.ui import palette as pal
    from game.ui.client import TableClient
    from game.ui.scenes.game import GameScene
    from tests.ui.conftest import click_at

    app = make_app((1280, 800))
    try:
        session, _ = play_table("keyflower", 3, 5, 4000, "random", {}, until="winter_pick")
        seat = session.state.to_move()[0]
        feed = _Feed([session.lobby_message(), session.state_message(seat, [])])
        scene = GameScene(app, TableClient("keyflower", {seat: feed}), 3)
        app.push(scene)
        for _ in range(3):
            app.step()
        view = scene.view
        hand = [h for h in view.hits if h.kind == "hand"]  # type: ignore[attr-defined]
        assert len(hand) >= 2
        before = len(view.ambient_rects() or [])
        click_at(app, (int(hand[0].centre[0]), int(hand[0].centre[1])))
        app.step()
        assert view.winter_sel == {str(hand[0].key)}  # type: ignore[attr-defined]
        # the ticked tile stops pulsing like the untouched ones: it wears its own green mark
        assert len(view.ambient_rects() or []) == before - 1
        r = hand[0].hex_r
        badge = (int(hand[0].centre[0] + r * 0.58), int(hand[0].centre[1] - r * 0.52))
        colour = app.screen.get_at(badge)[:3]
        assert max(abs(a - b) for a, b in zip(colour, pal.GOOD, strict=True)) < 40, colour
    finally:
        app.shutdown()
