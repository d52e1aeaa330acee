"""Hot-seat hand-off timing (issue 20): the curtain comes only after the move that ended a turn
has landed — its animations, the bots' moves after it and their animations — and the table has
stayed in view for ``HANDOFF_PAUSE``; meanwhile the table shows only what everyone may see.  The
curtain says "Pass the computer to Bo" and lists what the others did since Bo's last turn; when
it lifts, what they changed is ringed on Bo's table.

Kingdom Builder through the real in-process host: Ann (seat 0) and Bo (seat 2) at this
computer, a bot (seat 1) between them, animations at normal speed.
"""

from __future__ import annotations

from typing import Any

import pytest

from game.ui.app import App
from game.ui.client import SeatSpec
from game.ui.local_game import start_local_game
from game.ui.scenes import handoff
from game.ui.scenes.overlays import CurtainOverlay
from tests.ui.conftest import click, frame, make_app, run_until


@pytest.fixture
def real_pause(monkeypatch: pytest.MonkeyPatch) -> float:
    monkeypatch.setattr(handoff, "HANDOFF_PAUSE", 0.8)
    return 0.8


@pytest.fixture
def animated(env: Any) -> Any:
    application = make_app((1280, 800), animation_speed=1.0)
    yield application
    application.shutdown()


def _table(app: App) -> Any:
    from game.ui.scenes.game import GameScene

    client = start_local_game(
        "kingdom-builder",
        [
            SeatSpec("human", "Ann", "red"),
            SeatSpec("bot", "Bot", "blue", "random"),
            SeatSpec("human", "Bo", "yellow"),
        ],
        {},
        seed=7,
        bot_delay=0,
    )
    scene = GameScene(app, client, 3)
    app.push(scene)
    return scene


def _play_turn(app: App, game: Any) -> None:
    """The shown seat builds its settlements and ends its turn (actions of its legal list)."""
    while True:
        run_until(app, lambda: bool(game.view.legal) and game.shown not in game.client.busy)
        legal = game.view.legal
        places = [a for a in legal if a[0] == "place"]
        if ("end",) in legal and not places:
            game.act(("end",))
            return
        game.act(places[0] if places else legal[0])
        frame(app)


def test_the_curtain_comes_after_the_moves_have_landed(animated: App, real_pause: float) -> None:
    app = animated
    game = _table(app)
    run_until(app, lambda: isinstance(app.top, CurtainOverlay), timeout=30)
    if app.top.player == "Bo":  # type: ignore[union-attr]
        # Bo starts: Bo's turn, then Ann's (nobody between them).
        click(app, "curtain_ready")
        _play_turn(app, game)
        run_until(app, lambda: isinstance(app.top, CurtainOverlay), timeout=30)
    assert app.top.player == "Ann"  # type: ignore[union-attr]
    click(app, "curtain_ready")
    assert app.top is game and game.revealed == 0
    _play_turn(app, game)
    run_until(app, lambda: 0 not in game.client.to_move())
    # From the end of Ann's turn to Bo's curtain: every frame shows the public table, no curtain
    # while anything moves, and the curtain only after the calm pause.
    calm = 0.0
    animated_frames = 0
    bot_moved = False
    frames = 0
    while not isinstance(app.top, CurtainOverlay):
        frames += 1
        assert frames < 4000, "Bo's curtain never came"
        frame(app)
        if isinstance(app.top, CurtainOverlay):
            break
        view = game.view
        assert view.view.get("you") is None, "between turns the table is the public one"
        assert not view.legal, "nobody acts between turns"
        bot_moved = bot_moved or any(line.seat == 1 for line in game.log)
        if view.animating() or game.client.events:
            animated_frames += 1
            calm = 0.0
        else:
            calm += 1 / 60
    assert bot_moved, "the bot's moves landed before the curtain"
    assert animated_frames > 0, "the moves animated on the table, not behind a curtain"
    assert calm >= real_pause - 1 / 60, f"the curtain came after {calm:.2f} s of calm"
    assert not game.view.animating()
    curtain = app.top
    assert isinstance(curtain, CurtainOverlay)
    assert curtain.player == "Bo"
    # What happened since Bo's last turn: the others' moves, none of Bo's.
    seats = {line.seat for line in curtain.since}
    assert seats and seats <= {0, 1, None}, seats
    assert 0 in seats and 1 in seats
    # Behind the curtain: nothing private.
    assert game.view.view.get("you") is None and not game.view.legal
    click(app, "curtain_ready")
    assert game.revealed == 2 and game.view.view.get("you") == 2
    assert game.view.legal, "Bo's own table, with Bo's moves"
    assert game.view.recent, "what the others built since Bo's last turn is ringed"
    assert set(game.view.recent.values()) <= {0, 1}
    # Bo plays; Ann's curtain lists Bo's and the bot's moves only (not Ann's own).
    _play_turn(app, game)
    run_until(app, lambda: isinstance(app.top, CurtainOverlay), timeout=60)
    curtain = app.top
    assert isinstance(curtain, CurtainOverlay) and curtain.player == "Ann"
    seats = {line.seat for line in curtain.since}
    assert 2 in seats and 0 not in seats, seats


def test_the_due_curtain_closes_the_menu_and_waits_for_the_pause(
    app: App, real_pause: float
) -> None:
    """The due curtain closes an overlay that is open (the table must be hidden), and with
    animations off it still waits for the pause."""
    game = _table(app)
    run_until(app, lambda: game.handoff is not None, timeout=30)
    game.open_menu()
    assert app.top is not None and app.top.name == "game_menu"
    for _ in range(int(real_pause * 60) - 6):
        frame(app)
    assert not isinstance(app.top, CurtainOverlay), "not before the pause"
    run_until(app, lambda: isinstance(app.top, CurtainOverlay), timeout=10)
    assert [s.name for s in app.stack][-2:] == ["game", "curtain"]
