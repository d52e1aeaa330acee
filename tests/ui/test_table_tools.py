"""Tools at the table: hints (asked from the host), chat lines, and handing a disconnected
seat to a bot — each through the real in-process or loopback LAN host."""

from __future__ import annotations

import time
from typing import Any

import pygame

from game.ui.app import App
from game.ui.client import SeatSpec, TableClient
from game.ui.local_game import start_local_game
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


def _poll_until(conn: Any, done: Any, timeout: float = 5.0) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []
    deadline = time.monotonic() + timeout
    while not done(seen):
        assert time.monotonic() < deadline, f"timed out; saw {[m.get('t') for m in seen]}"
        seen += conn.poll()
        time.sleep(0.005)
    return seen


def test_chat_in_the_lobby_and_the_game(app: App) -> None:
    from tests.ui.conftest import type_text

    client = _host_lan_table(app)
    lobby = app.top
    assert lobby is not None
    remote = _remote(client.server.port, str(client.table_id))
    try:
        run_until(
            app, lambda: client.lobby is not None and client.lobby["seats"][1]["kind"] == "human"
        )
        press(app, pygame.K_t)
        assert app.focus is lobby.widget("lobby_chat")
        type_text(app, "hello from the host")
        press(app, pygame.K_RETURN)
        said = _poll_until(remote, lambda seen: any(m.get("t") == "chat" for m in seen))
        line = next(m for m in said if m["t"] == "chat")
        assert line["text"] == "hello from the host" and line["seat"] == 0
        remote.send({"t": "chat", "text": "hi!"})
        run_until(app, lambda: client.chat_total == 2)
        assert client.chat[-1] == (1, "Remote: hi!")
        app.step()  # drawn in the lobby's chat box
        remote.send({"t": "ready"})
        run_until(app, lambda: bool(client.lobby and client.lobby["can_start"]))
        click(app, "lobby_start")
        run_until(app, lambda: app.top is not None and app.top.name == "game")
        game = app.top
        run_until(app, lambda: bool(client.states))
        assert [line.text for line in game.log if line.chat] == [  # type: ignore[attr-defined]
            "Player 1: hello from the host",
            "Remote: hi!",
        ]
        # T opens the chat line; typed letters never reach the game's keys (H is the hint key).
        press(app, pygame.K_t)
        assert app.focus is game.widget("chat_input")
        press(app, pygame.K_h)
        type_text(app, "h")
        assert not client.hint_asked
        press(app, pygame.K_RETURN)
        _poll_until(remote, lambda seen: any(m.get("text") == "h" for m in seen))
        run_until(app, lambda: client.chat_total == 3)
        assert game.log[-1].chat and game.log[-1].text == "Player 1: h"  # type: ignore[attr-defined]
    finally:
        remote.close()


ODD = [
    "🎲🎉 emoji",
    "\u202eright to left\u202c",
    "zero\u200bwidth\u200djoiner\ufeff",
    "e\u0301\u0301\u0301 combining",
    "日本語のテキスト、とても長い" * 20,
    "W" * 500,
    "tab\tnew\nline\x00nul\x1bescape",
    "",
]


def test_odd_chat_text_never_breaks_the_client(app: App) -> None:
    """Whatever another program sends as chat (the host only removes control characters),
    it is stored clean and bounded, and drawn in the log and the lobby."""
    from game.ui.client import safe_text
    from game.ui.scenes.game import GameScene
    from game.ui.scenes.lobby import LobbyScene

    for text in ODD:
        clean = safe_text(text)
        assert len(clean) <= 500 and all(ch.isprintable() for ch in clean)
    assert safe_text("a\x00b\nc") == "a b c"
    assert safe_text(12345) == "12345" and safe_text(["x"]) == "['x']"
    client = _solo_game(app)
    game = app.top
    assert isinstance(game, GameScene)
    run_until(app, lambda: bool(client.states))
    for i, text in enumerate([*ODD, 7, None, {"a": 1}]):
        client._receive(None, {"t": "chat", "seat": i % 3 - 1, "name": text, "text": text})
    client._receive(None, {"t": "chat", "seat": "x", "text": "seat is not a number"})
    app.step()
    app.step()
    assert len([line for line in game.log if line.chat]) == len(ODD) + 4
    lobby = LobbyScene(app, client, 2, hosting=False)
    app.push(lobby)
    app.step()
    app.pop()


def test_the_creator_lets_a_bot_play_for_a_player_who_left(app: App) -> None:
    """docs/protocol.md "Disconnects": the away seat is shown to everyone; the creator hands it
    to a bot from the game scene; the player's token takes it back."""
    from net.client import TcpConnection
    from net.protocol import PROTOCOL_VERSION

    client = _host_lan_table(app)
    remote = _remote(client.server.port, str(client.table_id))
    remote.send({"t": "ready"})
    joined = next(
        m
        for m in _poll_until(remote, lambda s: any(m["t"] == "joined" for m in s))
        if m["t"] == "joined"
    )
    run_until(app, lambda: bool(client.lobby and client.lobby["can_start"]))
    click(app, "lobby_start")
    run_until(app, lambda: app.top is not None and app.top.name == "game" and bool(client.states))
    game = app.top
    assert not game.widget("seat_to_bot").visible
    remote.close()
    run_until(app, lambda: game.widget("seat_to_bot").visible)
    assert client.away_seats() == [1]
    assert game.view.seats[1].connected is False  # type: ignore[attr-defined]
    app.step()  # the banner is drawn
    click(app, "seat_to_bot")
    assert app.top is not None and app.top.name == "confirm"
    click(app, "confirm_yes")
    run_until(app, lambda: client.lobby["seats"][1]["kind"] == "bot")  # type: ignore[index]
    assert client.lobby["seats"][1]["bot"] == "normal"  # type: ignore[index]
    run_until(app, lambda: not game.widget("seat_to_bot").visible)

    # The bot plays the seat's turns: play ours until the seat has built something.
    def remote_built() -> bool:
        view = game.view.view  # type: ignore[attr-defined]
        if game.view.legal and game.shown not in client.busy:  # type: ignore[attr-defined]
            legal = game.view.legal  # type: ignore[attr-defined]
            game.act(next((a for a in legal if a[0] == "place"), legal[-1]))  # type: ignore[attr-defined]
        return bool(view and view["seats"][1]["settlements"])

    run_until(app, remote_built, timeout=30)
    # The player comes back with the token and has the seat again.
    back = TcpConnection.open("127.0.0.1", client.server.port)
    try:
        back.send({"t": "hello", "version": PROTOCOL_VERSION, "name": "Remote"})
        back.send({"t": "join", "table": client.table_id, "token": joined["token"]})
        run_until(app, lambda: client.lobby["seats"][1]["kind"] == "human")  # type: ignore[index]
        assert client.away_seats() == []
    finally:
        back.close()


def test_a_hint_says_why_from_the_views_gains(app: App) -> None:
    """A hinted placement's toast names what it gains — each category's change with its
    reason, from the view's ``gains`` — not only where."""
    from game.commands.screenshot import _Feed, play_table
    from game.ui.scenes.game import GameScene

    session, _events = play_table("kingdom-builder", 3, 4, 30, "random", {})
    state = session.state
    seat = state.to_move()[0]
    gains = state.view(seat)["gains"]
    best = max(gains, key=lambda g: sum(1 for p in g["points"].values() if p))
    assert any(best["points"].values()), "a placement that scores"
    session.settings.allow_hints = True
    hint = ["place", *best["hex"]]
    feed = _Feed(
        [
            session.lobby_message(),
            session.state_message(seat, []),
            {"t": "hint", "table": "t1", "seq": session.seq, "action": hint},
        ]
    )
    client = TableClient("kingdom-builder", {seat: feed})
    client.table_id = "t1"
    game = GameScene(app, client, 3)
    app.push(game)
    app.step()
    assert game.view.hint == tuple(hint)
    toast = next(x.text for x in app.toasts if x.text.startswith("Hint:"))
    reason = game.view.hint_reason(tuple(hint))
    assert reason and reason in toast
    from game.ui.games.kingdom_builder.text import why

    for category, points in best["points"].items():
        if points:
            assert why(category, points) in toast, (category, toast)
