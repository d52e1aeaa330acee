"""Tools at the table: hints (asked from the host), chat lines, and handing a disconnected
seat to a bot — each through the real in-process or loopback LAN host."""

from __future__ import annotations

import time
from typing import Any

import pygame

from game.ui.app import App
from game.ui.client import SeatSpec, TableClient, start_local_game
from tests.ui.conftest import click, press, run_until


def _solo_game(app: App, seed: int = 3) -> TableClient:
    """One human against a random bot, in-process (hints are allowed offline)."""
    from game.ui.scenes.game import GameScene

    client = start_local_game(
        "kingdom-builder",
        [SeatSpec("human", "Ann", "red"), SeatSpec("bot", "Bot", "blue", "random")],
        {},
        seed=seed,
        bot_delay=0,
    )
    app.push(GameScene(app, client, 2))
    return client


def test_the_hint_button_asks_the_host_and_marks_a_legal_action(app: App) -> None:
    client = _solo_game(app)
    game = app.top
    assert game is not None and game.name == "game"
    run_until(app, lambda: bool(game.view.legal) and 0 not in client.busy)  # type: ignore[attr-defined]
    hint_button = game.widget("hint")
    assert hint_button.visible and hint_button.enabled
    press(app, pygame.K_h)
    assert not hint_button.enabled, "one hint per position"
    run_until(app, lambda: game.view.hint is not None)  # type: ignore[attr-defined]
    hint = game.view.hint  # type: ignore[attr-defined]
    assert hint in game.view.legal  # type: ignore[attr-defined]
    assert any(toast.text.startswith("Hint:") for toast in app.toasts)
    app.step()  # drawn with the hint marker
    seq = client.state_of(0)["seq"]  # type: ignore[index]
    game.act(hint)  # type: ignore[attr-defined]
    run_until(app, lambda: client.state_of(0)["seq"] > seq)  # type: ignore[index]
    assert game.view.hint is None, "the hint belongs to the position it was asked in"


def test_no_hint_button_at_a_table_without_hints(app: App) -> None:
    client = _solo_game(app)
    game = app.top
    assert game is not None
    run_until(app, lambda: client.lobby is not None and bool(client.states))
    assert game.widget("hint").visible
    client.lobby = {**client.lobby, "settings": {**client.lobby["settings"], "allow_hints": False}}  # type: ignore[dict-item]
    app.step()
    assert not game.widget("hint").visible
    press(app, pygame.K_h)
    assert any("Hints are off" in toast.text for toast in app.toasts)
    assert 0 not in client.hint_asked


def test_a_click_on_the_hint_button(app: App) -> None:
    client = _solo_game(app, seed=8)
    game = app.top
    assert game is not None
    run_until(app, lambda: bool(game.view.legal) and 0 not in client.busy)  # type: ignore[attr-defined]
    click(app, "hint")
    run_until(app, lambda: client.hint_for(0) is not None)
    assert client.hint_for(0) in [tuple(a) for a in client.state_of(0)["legal"]]  # type: ignore[index]


def _host_lan_table(app: App, players: int = 2) -> TableClient:
    """Host a LAN table from the setup screen (seats after the first open)."""
    from game.ui.scenes.setup import SetupScene
    from tests.ui.conftest import click_at

    app.push(SetupScene(app, "host"))
    app.step()
    setup = app.top
    assert setup is not None
    widget = setup.widget("players")
    while widget.value != players:  # type: ignore[attr-defined]
        side = widget.rect.x + 8 if widget.value > players else widget.rect.right - 8  # type: ignore[attr-defined]
        click_at(app, (side, widget.rect.centery))
    click(app, "start")
    assert app.top is not None and app.top.name == "lobby"
    client: TableClient = app.top.client  # type: ignore[attr-defined]
    run_until(app, lambda: client.lobby is not None and client.table_id is not None)
    return client


def _remote(port: int, table: str, name: str = "Remote") -> Any:
    from net.client import TcpConnection
    from net.protocol import PROTOCOL_VERSION

    conn = TcpConnection.open("127.0.0.1", port)
    conn.send({"t": "hello", "version": PROTOCOL_VERSION, "name": name})
    conn.send({"t": "join", "table": table, "name": name})
    return conn


def test_the_lan_table_creator_allows_hints_in_the_lobby(app: App) -> None:
    client = _host_lan_table(app)
    lobby = app.top
    assert lobby is not None
    toggle = lobby.widget("lobby_hints")
    assert toggle.visible and toggle.value is False, "LAN tables start without hints"  # type: ignore[attr-defined]
    remote = _remote(client.server.port, str(client.table_id))
    try:
        click(app, "lobby_hints")
        run_until(app, lambda: client.hints_allowed)
        seen: list[dict[str, Any]] = []
        deadline = time.monotonic() + 5
        while not any(m.get("t") == "lobby" and m["settings"]["allow_hints"] for m in seen):
            assert time.monotonic() < deadline, "the other player sees the setting"
            seen += remote.poll()
            time.sleep(0.005)
        assert lobby.widget("lobby_hints").value is True  # type: ignore[attr-defined]
    finally:
        remote.close()
