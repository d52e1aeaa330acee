"""Hot-seat with curtains, through the real in-process host and the window's own events.

* The framework's test game ("Bid and Race", ``tests/testgame``) played by two humans on one
  computer with the generic view: in the sealed bids both seats choose at once — each behind
  its own curtain in turn, neither ever seeing the other's bid — then the race, where one seat
  may move several times in a row (no curtain between its own turns) and a neutral figure moves
  by itself; to the results.
* The curtain needs its own key or a click on its button: Enter (which ends a turn) pressed
  twice or held down never lifts it, nor does a key pressed before it came up.
"""

from __future__ import annotations

import itertools
import random
import time
from typing import Any

import pygame
import pytest

from game.ui.app import App
from game.ui.client import SeatSpec, TableClient
from game.ui.local_game import start_local_game
from game.ui.scenes.overlays import CurtainOverlay
from tests import testgame
from tests.ui.conftest import click, click_at, frame, press, run_until


@pytest.fixture(autouse=True)
def registered() -> None:
    testgame.register()


def _table(app: App, game: str, options: dict[str, Any], seed: int) -> TableClient:
    from game.ui.scenes.game import GameScene

    client = start_local_game(
        game,
        [SeatSpec("human", "Ann", "red"), SeatSpec("human", "Bo", "blue")],
        options,
        seed=seed,
        bot_delay=0,
    )
    app.push(GameScene(app, client, 2))
    return client


def _post_key(key: int, down: bool = True, up: bool = True) -> None:
    if down:
        pygame.event.post(
            pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0)
        )
    if up:
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode="", scancode=0))


def _compose(app: App, game: Any, action: tuple[Any, ...], rng: random.Random) -> None:
    """Put ``action`` together in the generic view's composer as a player would: a click on
    each field's value button (sometimes its number key instead)."""
    view = game.view
    composer = view.composer
    while tuple(action[: len(composer.prefix)]) == composer.prefix and len(composer.prefix) < len(
        action
    ):
        app.step()  # draw the panel: its buttons are where the last frame put them
        value = action[len(composer.prefix)]
        options = view.panel.options
        index = next(i for i, o in enumerate(options) if o.value == value)
        depth = len(composer.prefix)
        if index < 9 and rng.random() < 0.3:
            press(app, pygame.K_1 + index)
        else:
            click_at(app, options[index].rect.center)
        if len(composer.prefix) != depth + 1:
            return  # the action was finished and sent (the caller waits for the host's answer)


def test_test_game_hot_seat_with_simultaneous_bids_to_the_results(app: App) -> None:
    rng = random.Random(4)
    client = _table(app, testgame.GAME_ID, {"rounds": 2, "goal": 5}, seed=11)
    game = app.top
    assert game is not None and game.name == "game"
    assert type(game.view).__name__ == "GenericView", "no view of its own: the generic one"
    run_until(app, lambda: app.top is not None and app.top.name == "curtain")
    curtains: list[int] = []
    simultaneous_curtains = 0
    own_screens: set[int] = set()
    turns_in_a_row = 0
    last_mover: tuple[int, int] | None = None
    deadline = time.monotonic() + 120
    while app.top is not None and app.top.name != "results":
        assert time.monotonic() < deadline, f"the game did not end: {app.top.name}"
        top = app.top
        if isinstance(top, CurtainOverlay):
            seat = game.shown
            curtains.append(seat)
            if len(client.to_move()) > 1:
                simultaneous_curtains += 1
            # Behind the curtain: only what every player may see.
            assert game.view.view.get("you") is None
            assert game.view.view.get("hand") is None and game.view.view.get("bid") is None
            assert not game.view.legal
            # Enter never lifts it, pressed twice or held (key repeat).
            for _ in range(2):
                press(app, pygame.K_RETURN)
            for _ in range(6):
                _post_key(pygame.K_RETURN, up=False)
            frame(app)
            _post_key(pygame.K_RETURN, down=False)
            frame(app)
            assert app.top is top, "Enter lifted the curtain"
            if len(curtains) % 2:
                click(app, "curtain_ready")
            else:
                press(app, pygame.K_r)
            assert app.top is game
            continue
        if top is not game:
            frame(app)
            continue
        seat = game.shown
        msg = client.state_of(seat) if seat is not None else None
        if (
            client.game_over is not None
            or msg is None
            or not game.view.legal
            or seat in client.busy
        ):
            frame(app)
            continue
        # The seat's own screen: its secrets are its own.
        view = game.view.view
        assert view["you"] == seat and view["hand"] is not None
        own_screens.add(seat)
        if view["phase"] == "bid":
            other = 1 - seat
            assert view["bid"] is None or view["bid"] in range(4)
            # Nothing of the other seat's sealed choice shows: not in the view, not in the log.
            assert not any(line.text.split(": ", 1)[-1].startswith("bid —") for line in game.log)
            assert view["sealed"][seat] is False and other in range(2)
            last_mover = None
        else:
            turn = game.view.turn
            if last_mover is not None and last_mover[0] == seat and last_mover[1] != turn:
                turns_in_a_row += 1  # a new turn of the seat that moved last
            last_mover = (seat, turn)
        before = msg["seq"]
        action = rng.choice(game.view.legal)
        _compose(app, game, action, rng)
        run_until(
            app,
            lambda: (
                (client.state_of(seat) or {}).get("seq", -1) > before  # noqa: B023
                or client.game_over is not None
            ),
        )
    assert simultaneous_curtains >= 2, "each seat chose its bid behind its own curtain"
    assert own_screens == {0, 1}
    assert len(curtains) >= 4
    results = app.top
    assert results is not None and results.name == "results"
    table = results.table  # type: ignore[attr-defined]
    assert [key for key, _label in table.columns] == ["bids", "race", "coins", "total"]
    result = results.result  # type: ignore[attr-defined]
    assert len(result["scores"]) == 2 and result["winners"]
    # This seed has a seat moving twice in a row in the race: no curtain between its turns.
    assert turns_in_a_row > 0
    assert all(a != b for a, b in itertools.pairwise(curtains))
    app.step()


def _place_three_and_end(app: App, game: Any, client: TableClient) -> None:
    """The shown Kingdom Builder seat builds its three settlements by clicks."""
    seat = game.shown
    while ("end",) not in game.view.legal:
        run_until(app, lambda: bool(game.view.legal) and seat not in client.busy)
        if ("end",) in game.view.legal:
            break
        place = next(a for a in game.view.legal if a[0] == "place")
        before = client.state_of(seat)["seq"]
        click_at(app, game.view.hexes.centre(place[1], place[2]))
        run_until(app, lambda: client.state_of(seat)["seq"] > before)  # noqa: B023


def test_enter_twice_or_held_never_lifts_the_curtain(app: App) -> None:
    client = _table(app, "kingdom-builder", {}, seed=5)
    game = app.top
    assert game is not None
    run_until(app, lambda: app.top is not None and app.top.name == "curtain")
    first = game.shown
    press(app, pygame.K_r)
    assert app.top is game and game.revealed == first
    _place_three_and_end(app, game, client)
    # End the turn with Enter, and press Enter again at once — then hold it down.
    _post_key(pygame.K_RETURN)
    _post_key(pygame.K_RETURN)
    frame(app)
    for _ in range(30):
        _post_key(pygame.K_RETURN, up=False)
        frame(app)
        if app.top is not None and app.top.name == "curtain":
            break
    run_until(app, lambda: app.top is not None and app.top.name == "curtain")
    curtain = app.top
    for _ in range(20):
        _post_key(pygame.K_RETURN, up=False)
        _post_key(pygame.K_SPACE)
        frame(app)
    _post_key(pygame.K_RETURN, down=False)
    frame(app)
    assert app.top is curtain, "Enter or Space lifted the curtain"
    assert game.view.view["you"] is None, "the table behind it is the public one"
    # A click beside the button does nothing; a key held since before does nothing.
    click_at(app, (10, 10))
    assert app.top is curtain
    # The next seat's screen only after its own key.
    press(app, pygame.K_r)
    assert app.top is game and game.shown != first and game.revealed == game.shown
    assert game.view.view["you"] == game.shown


def test_a_key_or_click_begun_before_the_curtain_does_not_lift_it(app: App) -> None:
    client = _table(app, "kingdom-builder", {}, seed=6)
    game = app.top
    assert game is not None
    run_until(app, lambda: app.top is not None and app.top.name == "curtain")
    click(app, "curtain_ready")
    _place_three_and_end(app, game, client)
    # R goes down while the table is shown (and Enter ends the turn); it comes up under the
    # curtain: not a lift.  Same for a mouse button pressed before.
    _post_key(pygame.K_r, up=False)
    _post_key(pygame.K_RETURN)
    frame(app)
    run_until(app, lambda: app.top is not None and app.top.name == "curtain")
    curtain = app.top
    _post_key(pygame.K_r, down=False)
    frame(app)
    assert app.top is curtain
    button = curtain.widget("curtain_ready")
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=button.rect.center, button=1))
    frame(app)
    assert app.top is curtain, "a button released without being pressed under the curtain"
    click(app, "curtain_ready")
    assert app.top is game
