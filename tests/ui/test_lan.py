"""LAN play through the window, on loopback only: host a table, a second player joins over TCP,
the host starts; and the join screen finds a host by its UDP announcements."""

from __future__ import annotations

import time
from typing import Any

import pygame

from game.ui.app import App
from game.ui.lan import LanServer
from tests.ui.conftest import click, click_at, run_until, two_seat_table


def _remote_player(port: int, table: str, name: str = "Remote") -> Any:
    from net.client import TcpConnection
    from net.protocol import PROTOCOL_VERSION

    conn = TcpConnection.open("127.0.0.1", port)
    conn.send({"t": "hello", "version": PROTOCOL_VERSION, "name": name})
    conn.send({"t": "join", "table": table, "name": name})
    conn.send({"t": "ready"})
    return conn


def test_host_a_table_a_player_joins_and_the_game_starts(app: App) -> None:
    from game.ui.scenes.setup import SetupScene

    app.push(SetupScene(app, "host"))
    app.step()
    setup = app.top
    assert setup is not None
    players = setup.widget("players")
    while players.value != 2:  # type: ignore[attr-defined]
        click_at(app, (players.rect.x + 8, players.rect.centery))
    assert setup.widget("seat_kind_1").value == "open"  # type: ignore[attr-defined]
    click(app, "start")
    assert app.top is not None and app.top.name == "lobby"
    lobby = app.top
    client = lobby.client  # type: ignore[attr-defined]
    run_until(app, lambda: client.lobby is not None and client.table_id is not None)
    assert not lobby.widget("lobby_start").enabled
    remote = _remote_player(client.server.port, client.table_id)
    try:
        run_until(
            app,
            lambda: (
                client.lobby is not None
                and client.lobby["seats"][1]["kind"] == "human"
                and client.lobby["can_start"]
            ),
        )
        assert client.lobby["seats"][1]["name"] == "Remote"
        click(app, "lobby_start")
        run_until(app, lambda: app.top is not None and app.top.name == "game")
        game = app.top
        # The remote seat plays whenever it is its turn; the host sees its settlements appear.
        deadline = time.monotonic() + 30
        seen_remote = False
        while not seen_remote:
            assert time.monotonic() < deadline
            for msg in remote.poll():
                if msg.get("t") == "state" and msg.get("legal"):
                    remote.send({"t": "action", "seq": msg["seq"], "action": msg["legal"][0]})
            view = game.view.view  # type: ignore[attr-defined]
            if view and view["seats"][1]["settlements"]:
                seen_remote = True
            if game.view.legal:  # type: ignore[attr-defined]
                action = next((a for a in game.view.legal if a[0] == "place"), None)  # type: ignore[attr-defined]
                if action is not None and game.shown not in game.client.busy:  # type: ignore[attr-defined]
                    x, y = game.view.hexes.centre(action[1], action[2])  # type: ignore[attr-defined]
                    click_at(app, (x, y))
                elif ("end",) in game.view.legal:  # type: ignore[attr-defined]
                    game.end_turn()  # type: ignore[attr-defined]
            app.step()
            time.sleep(0.002)
        assert any("Remote" in line.text for line in game.log)  # type: ignore[attr-defined]
    finally:
        remote.close()
    pygame.event.post(
        pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0)
    )
    app.step()
    click(app, "menu_leave")
    assert app.top is not None and app.top.name == "confirm"  # leaving asks first
    click(app, "confirm_yes")
    assert app.top is not None and app.top.name == "menu"


def test_join_screen_finds_a_host_and_joins(app: App, monkeypatch: Any) -> None:
    from game.ui.scenes.join import JoinScene

    server = LanServer("Test host")
    try:
        table = two_seat_table(server)
        assert server.udp_port is not None
        monkeypatch.setenv("LANTERN_DISCOVERY_PROBE", f"127.0.0.1:{server.udp_port}")
        scene = app.push(JoinScene(app))
        listbox = scene.widget("tables")
        run_until(app, lambda: len(listbox.items) > 0, timeout=10)  # type: ignore[attr-defined]
        item = listbox.items[0]  # type: ignore[attr-defined]
        assert item.value == ("table", "127.0.0.1", server.port, table)
        click_at(app, listbox.row_rect(0).center)  # type: ignore[attr-defined]
        click(app, "join_table")
        assert app.top is not None and app.top.name == "lobby"
        run_until(app, lambda: app.top is not None and app.top.name == "game", timeout=20)
        game = app.top
        assert game.client.local_seats == [0]  # type: ignore[attr-defined]
        run_until(app, lambda: bool(game.view.view))  # type: ignore[attr-defined]
        game.leave_table()  # type: ignore[attr-defined]
    finally:
        server.close()


def test_join_by_address(app: App) -> None:
    from game.ui.scenes.join import JoinScene

    server = LanServer("Direct host")
    try:
        server.call(
            lambda: server.hub.create_table("kingdom-builder", 3, {}, bots=[None, None, "random"])
        )
        scene = app.push(JoinScene(app))
        field = scene.widget("address")
        click_at(app, field.rect.center)
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=f"127.0.0.1:{server.port}"))
        app.step()
        click(app, "connect")
        listbox = scene.widget("tables")
        run_until(
            app,
            lambda: any("Direct host" in i.title or "127.0.0.1" in i.detail for i in listbox.items),
            timeout=10,
        )  # type: ignore[attr-defined]
    finally:
        app.pop()
        server.close()
