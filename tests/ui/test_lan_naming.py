"""LAN naming and a host that leaves (issue 20, finding 8): the join list calls a table opened in
a window what its lobby calls it ("Hana's table", after the player who opened it); when the host
closes the table, the joined player gets one message in their language — no banner waiting for
the host to come back, no "Let a bot play" for a host that is gone."""

from __future__ import annotations

import time
from typing import Any

from game.core.registry import get_game
from game.ui.app import App
from game.ui.client import SeatSpec
from game.ui.lan import LanServer
from net.client import TcpConnection
from net.protocol import PROTOCOL_VERSION
from tests.ui.conftest import click, make_app, run_until


def test_the_join_list_names_the_table_as_its_lobby_does(env: Any) -> None:
    from game.ui.scenes.join import JoinScene
    from game.ui.scenes.lobby import host_lan_game, table_title
    from game.ui.scenes.menu import MenuScene

    host = make_app()
    guest = make_app()
    try:
        assert host.settings.player_name == "", "no name in the settings: the seat's is used"
        host.push(MenuScene(host))
        specs = [SeatSpec("human", "Hana", "red"), SeatSpec("human", "", "blue")]
        host_lan_game(host, get_game("keyflower"), specs, {})
        run_until(host, lambda: host.top.client.lobby is not None)  # type: ignore[union-attr]
        lobby = host.top.client.lobby  # type: ignore[union-attr]
        server = host.top.client.server  # type: ignore[union-attr]
        assert table_title(lobby).endswith("Hana's table")
        scene = guest.push(JoinScene(guest))
        scene.widget("address").set_text(f"127.0.0.1:{server.port}")  # type: ignore[attr-defined]
        click(guest, "connect")
        listbox = scene.widget("tables")
        run_until(guest, lambda: bool(listbox.items), timeout=10)  # type: ignore[attr-defined]
        run_until(host, lambda: True)
        title = listbox.items[0].title  # type: ignore[attr-defined]
        assert title.startswith("Hana's table"), title
    finally:
        guest.shutdown()
        host.shutdown()


def test_a_host_that_closes_the_table_is_one_message(app: App) -> None:
    from game.ui.scenes.lobby import join_lan_table
    from game.ui.scenes.menu import MenuScene

    server = LanServer("Hana")
    host = TcpConnection.open("127.0.0.1", server.port)
    try:
        host.send({"t": "hello", "version": PROTOCOL_VERSION, "name": "Hana"})
        host.send({"t": "create_table", "game": "keyflower", "players": 2, "seat": 0})
        host.send({"t": "ready"})
        seen: list[str] = []
        deadline = time.monotonic() + 10
        while "joined" not in seen:  # the table exists before the window joins it
            assert time.monotonic() < deadline, seen
            seen += [str(m.get("t")) for m in host.poll()]
            time.sleep(0.01)
        app.push(MenuScene(app))
        join_lan_table(app, "127.0.0.1", server.port, "t1")
        run_until(app, lambda: app.top is not None and app.top.name == "lobby")
        run_until(app, lambda: app.top.client.lobby is not None)  # type: ignore[union-attr]
        click(app, "lobby_ready")
        time.sleep(0.2)
        host.send({"t": "start"})
        run_until(app, lambda: app.top is not None and app.top.name == "game")
        game = app.top
        # The host's own connection goes first (its window leaving), then its server.
        host.close()
        run_until(app, lambda: bool(game.client.away_seats()))  # type: ignore[union-attr]
        assert game.bot_button.visible, "a player who lost the connection: the owner may"  # type: ignore[union-attr]
        # The banner sits over the top of the log, not over the board's counters (finding 9).
        assert game.log_rect.contains(game.away_rect)  # type: ignore[union-attr]
        assert game.away_rect.contains(game.bot_button.rect)  # type: ignore[union-attr]
        assert not game.away_rect.colliderect(game.view.board_rect)  # type: ignore[union-attr]
        server.close()
        run_until(app, lambda: app.top is not None and app.top.name == "message")
        for _ in range(30):
            app.step()
        assert [s.name for s in app.stack].count("message") == 1
        assert app.scene_named("reconnecting") is None
        assert not game.bot_button.visible and game._away() == []  # type: ignore[union-attr]
        assert "closed the table" in str(app.top.question())  # type: ignore[union-attr]
        click(app, "confirm_yes")
        assert app.top is not None and app.top.name == "menu"
    finally:
        host.close()
        server.close()
