"""Every refusal explains itself (issue 10), through the real in-process host and the window's
own events: the pointer over a target the rules refuse shows the host's reason (asked once per
target and decision) in the chosen language, and so does a click on it; "Restart turn" takes
back every move of the turn; "Leave the table" asks first; a spectator has no seat buttons."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from game.ui import i18n
from game.ui.app import App
from game.ui.client import SeatSpec, TableClient
from game.ui.local_game import start_local_game
from tests.ui.conftest import click, click_at, press, run_until


def _solo(app: App, seed: int = 3, bots_only: bool = False) -> TableClient:
    from game.ui.scenes.game import GameScene

    first = (
        SeatSpec("bot", "Ada", "red", "random") if bots_only else SeatSpec("human", "Ann", "red")
    )
    client = start_local_game(
        "kingdom-builder",
        [first, SeatSpec("bot", "Bot", "blue", "random")],
        {},
        seed=seed,
        bot_delay=0 if not bots_only else 200,
    )
    app.push(GameScene(app, client, 2))
    return client


def _my_turn(app: App, client: TableClient) -> Any:
    game = app.top
    assert game is not None and game.name == "game"
    run_until(
        app,
        lambda: bool(game.view.legal) and 0 not in client.busy and 0 in client.to_move(),  # type: ignore[attr-defined]
    )
    return game


def _refused_hex(game: Any) -> tuple[int, int]:
    """A buildable hex of another terrain than the card's, nobody on it."""
    view = game.view.view
    terrain = view["turn"]["terrain"]
    taken = {tuple(h) for s in view["seats"] for h in s["settlements"]}
    for r, row in enumerate(view["board"]):
        for c, code in enumerate(row):
            if code in "GCDFT" and code != terrain and (r, c) not in taken:
                return (r, c)
    raise AssertionError("no such hex")


def _at(game: Any, r: int, c: int) -> tuple[int, int]:
    x, y = game.view.hexes.centre(r, c)
    return (round(x), round(y))


def _hover(app: App, pos: tuple[int, int]) -> None:
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    )
    app.step()


@pytest.mark.parametrize("code", ["en", "ja", "nl"])
def test_the_pointer_over_a_refused_hex_shows_the_hosts_reason(app: App, code: str) -> None:
    from game.ui.games.kingdom_builder import terrain_name

    app.apply_language(code)
    try:
        client = _solo(app)
        game = _my_turn(app, client)
        r, c = _refused_hex(game)
        pos = _at(game, r, c)
        _hover(app, pos)
        action = ("place", r, c)
        assert game.view.intent(pos) == action
        assert game._why_asked == {action: client.state_of(0)["seq"]}  # type: ignore[index]
        run_until(app, lambda: action in game._why)
        reason = game._why[action]
        assert reason["key"] == "terrain_card"
        text = game.tooltip_at(pos)
        board = game.view.view["board"]
        card = game.view.view["turn"]["terrain"]
        expected = i18n.t(
            "reason.kingdom-builder.terrain_card",
            hex=f"({r}, {c})",
            terrain=terrain_name(board[r][c]),
            allowed=terrain_name(card),
        )
        assert text.startswith(i18n.t("game.refused", reason=expected)), text
        # Asked once per target and decision: more frames over it send nothing new.
        sent = dict(game._why_asked)
        for _ in range(5):
            _hover(app, pos)
        assert game._why_asked == sent
        # A legal hex asks nothing and says how to build there.
        place = next(a for a in game.view.legal if a[0] == "place")
        _hover(app, _at(game, place[1], place[2]))
        assert (place[0], place[1], place[2]) not in game._why_asked
    finally:
        app.apply_language("en")


def test_a_click_on_a_refused_hex_says_why_at_once(app: App) -> None:
    client = _solo(app, seed=5)
    game = _my_turn(app, client)
    r, c = _refused_hex(game)
    pos = _at(game, r, c)
    seq = client.state_of(0)["seq"]  # type: ignore[index]
    click_at(app, pos)
    assert game.refusal is not None and game.refusal[1] == ("place", r, c)
    run_until(app, lambda: game._refusal_shown())
    assert "Not possible" in game.refusal_text(("place", r, c))
    assert client.state_of(0)["seq"] == seq, "nothing was sent to the host but the question"
    app.step()  # drawn
    # Moving away puts it away.
    _hover(app, (5, app.size[1] - 5))
    assert not game._refusal_shown()


def test_explanations_are_kept_per_decision(app: App) -> None:
    client = _solo(app, seed=7)
    game = _my_turn(app, client)
    r, c = _refused_hex(game)
    _hover(app, _at(game, r, c))
    run_until(app, lambda: ("place", r, c) in game._why)
    place = next(a for a in game.view.legal if a[0] == "place")
    seq = client.state_of(0)["seq"]  # type: ignore[index]
    game.act(place)
    run_until(app, lambda: client.state_of(0)["seq"] > seq and 0 not in client.busy)  # type: ignore[index]
    app.step()
    now = client.state_of(0)["seq"]  # type: ignore[index]
    # A new decision: the pointer (still on the hex) asks again, at the new position.
    assert game._why_asked == {("place", r, c): now}, "a new decision asks again"


def test_restart_turn_takes_back_every_move_of_the_turn(app: App) -> None:
    client = _solo(app, seed=9)
    game = _my_turn(app, client)
    before = client.state_of(0)["view"]  # type: ignore[index]
    restart = game.widget("restart")
    assert restart.visible and not restart.enabled, "nothing to take back yet"
    for _ in range(2):
        place = next(a for a in game.view.legal if a[0] == "place")
        seq = client.state_of(0)["seq"]  # type: ignore[index]
        game.act(place)
        run_until(app, lambda: client.state_of(0)["seq"] > seq and 0 not in client.busy)  # type: ignore[index]  # noqa: B023
    assert client.state_of(0)["view"]["turn"]["placed"] == 2  # type: ignore[index]
    app.step()
    assert restart.enabled
    seq = client.state_of(0)["seq"]  # type: ignore[index]
    click(app, "restart")
    run_until(app, lambda: client.state_of(0)["seq"] > seq and 0 not in client.busy)  # type: ignore[index]
    now = client.state_of(0)["view"]  # type: ignore[index]
    assert now["turn"] == before["turn"] and now["seats"] == before["seats"]
    app.step()
    assert any("restarted their turn" in line.text for line in game.log)


def test_leaving_the_table_asks_first(app: App) -> None:
    client = _solo(app, seed=4)
    game = _my_turn(app, client)
    press(app, pygame.K_ESCAPE)
    assert app.top is not None and app.top.name == "game_menu"
    click(app, "menu_leave")
    confirm = app.top
    assert confirm is not None and confirm.name == "confirm"
    assert "saved" in confirm.question()  # type: ignore[attr-defined,operator]
    click(app, "confirm_no")
    assert app.top is game and not client.closed
    press(app, pygame.K_ESCAPE)
    click(app, "menu_leave")
    click(app, "confirm_yes")
    assert app.top is not None and app.top.name == "menu"
    assert client.closed


def test_a_spectator_has_no_seat_buttons(app: App) -> None:
    client = _solo(app, seed=2, bots_only=True)
    game = app.top
    assert game is not None
    run_until(app, lambda: bool(client.states))
    app.step()
    assert game.shown is None  # type: ignore[attr-defined]
    for wid in ("undo", "restart", "hint"):
        assert not game.widget(wid).visible, wid
    assert game.find("end_turn") is None
    # Nothing is asked for a spectator.
    game.tooltip_at((200, 300))
    assert game._why_asked == {}  # type: ignore[attr-defined]
