"""A dropped player gets their seat back, in the window (issue "Ready for a real LAN party").

The window under test joins or hosts a LAN table on 127.0.0.1 like a player does; the other
side is the network package's own host (``LanServer``) and plain TCP clients.  A cut link
shows "reconnecting..." over the table (the game stays drawn) and comes back by itself; a seat
handed to a bot comes back to its player; after the program is started again the join screen
offers "take your seat back"; a refused join goes back to the join screen with the reason; a
window that hosts a table keeps serving it when its own scene fails or its own connection is
lost for good.
"""

from __future__ import annotations

import ipaddress
import time
from typing import Any

import pygame
import pytest

from game.ui.app import App
from game.ui.client import TableClient
from game.ui.lan import LanServer, lan_addresses
from net.protocol import PROTOCOL_VERSION
from net.seats import SeatStore, StoredSeat
from tests.ui.conftest import click, click_at, make_app, run_until, two_seat_table


def _cut(server: LanServer) -> None:
    """Break every client's link from the host's side (a cable pulled)."""

    def abort() -> None:
        for peer in list(server._server._peers.values()):
            peer.abort()

    server.call(abort)


def _join(app: App, server: LanServer, table: str) -> Any:
    from game.ui.scenes.lobby import join_lan_table
    from game.ui.scenes.menu import MenuScene

    app.push(MenuScene(app))
    join_lan_table(app, "127.0.0.1", server.port, table)
    run_until(app, lambda: app.top is not None and app.top.name == "game", timeout=20)
    game = app.top
    run_until(app, lambda: bool(game.view.view))  # type: ignore[attr-defined]
    return game


def _play_one(app: App, game: Any) -> None:
    """Wait for our turn and make one move; until the host has it."""
    client: TableClient = game.client
    run_until(app, lambda: bool(game.view.legal) and 0 not in client.busy, timeout=20)
    seq = client.state_of(0)["seq"]  # type: ignore[index]
    legal = game.view.legal
    game.act(next((a for a in legal if a[0] == "place"), legal[-1]))
    run_until(app, lambda: client.latest()["seq"] > seq, timeout=20)  # type: ignore[index]


def test_a_cut_link_shows_reconnecting_over_the_table_and_comes_back(app: App) -> None:
    server = LanServer("Host")
    try:
        game = _join(app, server, two_seat_table(server))
        client: TableClient = game.client
        seat_token = client.tokens[0]
        [kept] = SeatStore().at("127.0.0.1", server.port)  # the game runs: the token is kept
        assert (kept.seat, kept.token, kept.table) == (0, seat_token, client.table_id)
        _cut(server)
        run_until(app, lambda: app.top is not None and app.top.name == "reconnecting")
        overlay = app.top
        assert app.stack[-2] is game and game.view.view  # the table stays drawn under it
        why, _when = overlay.texts()  # type: ignore[attr-defined]
        assert "broke" in why and "host closed" not in why
        app.step()
        run_until(app, lambda: app.scene_named("reconnecting") is None, timeout=20)
        assert any("Back at the table" in toast.text for toast in app.toasts)
        assert app.top is game and client.tokens[0] == seat_token and client.link is None
        _play_one(app, game)
        game.leave_table()
    finally:
        server.close()


def test_a_seat_handed_to_a_bot_comes_back_to_its_player(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host's "Let a bot play" dialog promises it: the bot steps aside on reconnect."""
    from net.client import Reconnect

    monkeypatch.setattr(Reconnect, "delay", lambda self, attempt: 1.0)
    server = LanServer("Host")
    try:
        game = _join(app, server, two_seat_table(server))
        table = server.hub.tables[game.client.table_id]
        _cut(server)
        deadline = time.monotonic() + 5
        while server.call(lambda: table.seats[0].connected):
            assert time.monotonic() < deadline
            time.sleep(0.01)
        server.call(
            lambda: table.set_seat(0, by_seat=None, by_owner=True, kind="bot", bot="random")
        )
        assert table.seats[0].kind == "bot"
        run_until(app, lambda: app.scene_named("reconnecting") is not None)
        run_until(app, lambda: app.scene_named("reconnecting") is None, timeout=20)
        assert server.call(lambda: (table.seats[0].kind, table.seats[0].bot)) == ("human", None)
        assert game.client.lobby["seats"][0]["kind"] == "human"
        _play_one(app, game)
        game.leave_table()
    finally:
        server.close()


def test_after_a_restart_the_join_screen_offers_the_seat_back(env: Any) -> None:
    from game.ui.scenes.join import JoinScene

    server = LanServer("Host")
    try:
        first = make_app()
        game = _join(first, server, two_seat_table(server))
        _play_one(first, game)
        seq = game.client.latest()["seq"]
        first.shutdown()  # the program ends (the window was closed)
        table = server.hub.tables["t1"]
        deadline = time.monotonic() + 5
        while server.call(lambda: table.seats[0].connected):
            assert time.monotonic() < deadline
            time.sleep(0.01)

        second = make_app()  # started again, same data folder
        try:
            scene = second.push(JoinScene(second))
            listbox = scene.widget("tables")
            run_until(second, lambda: len(listbox.items) > 0)  # type: ignore[attr-defined]
            item = listbox.items[0]  # type: ignore[attr-defined]
            assert item.value[0] == "seat" and "Take your seat back" in item.title
            assert f"127.0.0.1:{server.port}" in item.title
            click_at(second, listbox.row_rect(0).center)  # type: ignore[attr-defined]
            assert "Take my seat back" in str(scene.widget("join_table").text())  # type: ignore[operator]
            click(second, "join_table")
            run_until(second, lambda: second.top is not None and second.top.name == "game")
            back = second.top
            run_until(second, lambda: bool(back.view.view))  # type: ignore[attr-defined]
            assert back.client.local_seats == [0]  # type: ignore[attr-defined]
            assert back.client.latest()["seq"] >= seq  # type: ignore[attr-defined]
            assert server.call(lambda: table.seats[0].connected)
            _play_one(second, back)
            back.leave_table()  # type: ignore[attr-defined]
        finally:
            second.shutdown()
    finally:
        server.close()


def test_a_refused_join_goes_back_with_the_reason(app: App) -> None:
    from game.ui.scenes.join import JoinScene
    from game.ui.scenes.lobby import join_lan_table

    server = LanServer("Host")
    try:
        two_seat_table(server)
        app.push(JoinScene(app))
        join_lan_table(app, "127.0.0.1", server.port, "t99")
        assert app.top is not None and app.top.name == "lobby"
        run_until(app, lambda: app.top is not None and app.top.name == "join")
        assert any("Could not join" in toast.text and "t99" in toast.text for toast in app.toasts)
        # A kept seat the host does not know (a token of another game): refused and forgotten.
        store = SeatStore()
        store.remember(StoredSeat("127.0.0.1", server.port, "t1", "unknown-token-1", 1), hold=False)
        scene = app.top
        scene.resume()  # type: ignore[union-attr]
        listbox = scene.widget("tables")  # type: ignore[union-attr]
        run_until(app, lambda: any(i.value[0] == "seat" for i in listbox.items))  # type: ignore[attr-defined]
        listbox.select(0)  # type: ignore[attr-defined]
        click(app, "join_table")
        run_until(app, lambda: app.top is not None and app.top.name == "join")
        assert store.at("127.0.0.1", server.port) == []
    finally:
        server.close()


def test_an_unreachable_host_goes_back_with_the_reason(app: App) -> None:
    import socket

    from game.ui.scenes.join import JoinScene
    from game.ui.scenes.lobby import join_lan_table

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    app.push(JoinScene(app))
    join_lan_table(app, "127.0.0.1", port, "t1")
    run_until(app, lambda: app.top is not None and app.top.name == "join")
    assert any("Could not reach the host" in toast.text for toast in app.toasts)


def test_a_guest_sets_their_name_on_the_join_screen(app: App, monkeypatch: Any) -> None:
    from game.ui.scenes.join import JoinScene

    server = LanServer("Host")
    try:
        table = two_seat_table(server)
        monkeypatch.setenv("LANTERN_DISCOVERY_PROBE", f"127.0.0.1:{server.udp_port}")
        scene = app.push(JoinScene(app))
        field = scene.widget("player_name")
        click_at(app, field.rect.center)
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="Zoë"))
        app.step()
        listbox = scene.widget("tables")
        run_until(app, lambda: len(listbox.items) > 0, timeout=10)  # type: ignore[attr-defined]
        listbox.select(0)  # type: ignore[attr-defined]
        click(app, "join_table")
        run_until(app, lambda: app.top is not None and app.top.name == "game", timeout=20)
        assert server.call(lambda: server.hub.tables[table].seats[0].name) == "Zoë"
        assert app.settings.player_name == "Zoë"
        app.top.leave_table()  # type: ignore[union-attr]
    finally:
        server.close()


def test_a_table_title_is_data_each_window_translates(app: App, monkeypatch: Any) -> None:
    """A Dutch host's table is "Anna's table" to an English guest, never "Tafel van Anna"."""
    from game.ui.i18n import set_language
    from game.ui.scenes.lobby import table_title

    app.settings.player_name = "Anna"
    app.apply_language("nl")
    client = _host_lan_table(app)
    try:
        lobby = client.lobby
        assert lobby is not None and lobby["settings"]["name"] == ""  # no text of the host's
        assert table_title(lobby).endswith("Tafel van Anna")
        set_language("en")
        assert table_title(lobby) == "Kingdom Builder — Anna's table"
        set_language("ja")
        assert table_title(lobby).endswith("Annaのテーブル")
        # The join screen of an English window lists it in English.
        set_language("en")
        from game.ui.scenes.join import JoinScene

        monkeypatch.setenv("LANTERN_DISCOVERY_PROBE", f"127.0.0.1:{client.server.udp_port}")
        scene = app.push(JoinScene(app))
        listbox = scene.widget("tables")
        run_until(app, lambda: len(listbox.items) > 0, timeout=10)  # type: ignore[attr-defined]
        assert listbox.items[0].title == "Anna's table — Kingdom Builder"  # type: ignore[attr-defined]
    finally:
        set_language("en")


def _host_lan_table(app: App) -> TableClient:
    from game.ui.scenes.setup import SetupScene

    app.push(SetupScene(app, "host"))
    app.step()
    setup = app.top
    assert setup is not None
    players = setup.widget("players")
    while players.value != 2:  # type: ignore[attr-defined]
        click_at(app, (players.rect.x + 8, players.rect.centery))
    click(app, "start")
    assert app.top is not None and app.top.name == "lobby"
    client: TableClient = app.top.client  # type: ignore[attr-defined]
    run_until(app, lambda: client.lobby is not None and client.table_id is not None)
    return client


def test_the_host_address_is_an_ip_a_person_can_type(app: App) -> None:
    for ip in lan_addresses("0.0.0.0"):
        assert isinstance(ipaddress.ip_address(ip), ipaddress.IPv4Address)
    assert lan_addresses("127.0.0.1") == ["127.0.0.1"]
    client = _host_lan_table(app)
    shown: list[str] = []
    real = app.fonts.render

    def spy(text: str, *args: Any, **kwargs: Any) -> Any:
        shown.append(text)
        return real(text, *args, **kwargs)

    app.fonts.render = spy  # type: ignore[method-assign]
    try:
        app.step()
    finally:
        app.fonts.render = real  # type: ignore[method-assign]
    assert any(f"127.0.0.1:{client.server.port}" in text for text in shown), shown


def _remote_player(port: int, table: str) -> Any:
    from net.client import TcpConnection

    conn = TcpConnection.open("127.0.0.1", port)
    conn.send({"t": "hello", "version": PROTOCOL_VERSION, "name": "Remote"})
    conn.send({"t": "join", "table": table, "name": "Remote"})
    conn.send({"t": "ready"})
    return conn


def _hosted_game(app: App) -> tuple[TableClient, Any, Any]:
    """The window hosts a 2-seat table, a remote player joins, the game starts."""
    client = _host_lan_table(app)
    remote = _remote_player(client.server.port, str(client.table_id))
    run_until(app, lambda: bool(client.lobby and client.lobby["can_start"]))
    click(app, "lobby_start")
    run_until(app, lambda: app.top is not None and app.top.name == "game" and bool(client.states))
    return client, remote, client.server


def _still_served(server: LanServer, remote: Any) -> None:
    """The table is open and answers the remote player."""
    assert server.hub.tables, "the table was closed"
    remote.send({"t": "chat", "text": "still there?"})
    deadline = time.monotonic() + 10
    while True:
        msgs = remote.poll()
        assert not [m for m in msgs if m["t"] in ("table_closed", "disconnected")], msgs
        if any(m["t"] == "chat" and m["text"] == "still there?" for m in msgs):
            return
        assert time.monotonic() < deadline
        time.sleep(0.01)


def test_a_hosting_window_whose_scene_fails_keeps_serving_the_table(app: App) -> None:
    _client, remote, server = _hosted_game(app)
    try:
        game = app.top

        def broken(surface: Any) -> None:
            raise IndexError("a bug in a view")

        game.draw = broken  # type: ignore[method-assign, union-attr]
        try:
            app.step()
        except IndexError as exc:  # what App.run does with it
            app.recover(exc)
        assert server in app.kept_servers
        assert [s.name for s in app.stack] == ["setup", "message"]  # the screen below it
        assert "a bug in a view" in str(app.top.question())  # type: ignore[union-attr]
        _still_served(server, remote)
        for _ in range(5):
            app.step()
        # The host's player takes their seat back from the join screen.
        click(app, "confirm_yes")
        from game.ui.scenes.join import JoinScene

        scene = app.push(JoinScene(app))
        listbox = scene.widget("tables")
        run_until(app, lambda: any(i.value[0] == "seat" for i in listbox.items))  # type: ignore[attr-defined]
        listbox.select(0)  # type: ignore[attr-defined]
        click(app, "join_table")
        run_until(app, lambda: app.top is not None and app.top.name == "game")
        back = app.top
        run_until(app, lambda: bool(back.client.states))  # type: ignore[attr-defined]
        assert back.client.owner is not None  # the creator's rights came back with the token
        _still_served(server, remote)
    finally:
        remote.close()


def test_a_hosting_window_that_loses_its_own_connection_keeps_serving(app: App) -> None:
    from net.client import TcpConnection

    client, remote, server = _hosted_game(app)
    try:
        # Another connection takes the host player's seat with its token: this window's own
        # connection ends for good ("replaced"); OK goes to the menu, the table goes on.
        thief = TcpConnection.open("127.0.0.1", server.port)
        thief.send({"t": "hello", "version": PROTOCOL_VERSION, "name": "Again"})
        thief.send({"t": "join", "table": client.table_id, "token": client.tokens[0]})
        run_until(app, lambda: app.scene_named("message") is not None)
        click(app, "confirm_yes")
        assert app.top is not None and app.top.name == "menu"
        assert server in app.kept_servers
        _still_served(server, remote)
        thief.close()
    finally:
        remote.close()
