"""Saved games: a local game autosaves after every move, shows up under "Continue a saved game"
and continues where it stopped; a host that goes away is reported, then the main menu."""

from __future__ import annotations

from typing import Any

from game.ui.app import App
from game.ui.client import SeatSpec
from game.ui.local_game import start_local_game
from tests.ui.conftest import click, run_until, two_seat_table


def test_continue_a_saved_game(app: App, env: Any) -> None:
    from game.ui.scenes.files import FilesScene
    from game.ui.scenes.menu import MenuScene
    from game.ui.scenes.setup import StartingScene

    app.push(MenuScene(app))
    specs = [SeatSpec("human", "Ann", "red"), SeatSpec("bot", "Bot", "blue", "easy")]
    client = start_local_game("kingdom-builder", specs, {}, seed=4)
    app.push(StartingScene(app, client, 2))
    run_until(app, lambda: app.top is not None and app.top.name == "game")
    game = app.top
    # Play until Ann has built at least one settlement (the bot plays its own turns).
    while True:
        run_until(app, lambda: bool(game.view.legal) and 0 not in game.client.busy)  # type: ignore[attr-defined]
        action = next(a for a in game.view.legal if a[0] in ("place", "end"))  # type: ignore[attr-defined]
        game.act(action)  # type: ignore[attr-defined]
        run_until(app, lambda: 0 not in game.client.busy)  # type: ignore[attr-defined]
        if game.view.view["seats"][0]["settlements"]:  # type: ignore[attr-defined]
            break
    seq = game.client.state_of(0)["seq"]  # type: ignore[attr-defined]
    built = game.view.view["seats"][0]["settlements"]  # type: ignore[attr-defined]
    game.leave_table()  # type: ignore[attr-defined]
    assert app.top is not None and app.top.name == "menu"

    files = app.push(FilesScene(app, "saves"))
    app.step()
    listbox = files.widget("files")
    assert len(listbox.items) == 1  # type: ignore[attr-defined]
    assert "Ann" in listbox.items[0].title  # type: ignore[attr-defined]
    listbox.select(0)  # type: ignore[attr-defined]
    click(app, "open_file")
    run_until(app, lambda: app.top is not None and app.top.name == "game")
    resumed = app.top
    run_until(app, lambda: bool(resumed.view.view))  # type: ignore[attr-defined]
    assert resumed.client.local_seats == [0]  # type: ignore[attr-defined]
    assert resumed.view.view["seats"][0]["settlements"][: len(built)] == built  # type: ignore[attr-defined]
    assert resumed.client.latest()["seq"] >= seq  # type: ignore[attr-defined]
    resumed.leave_table()  # type: ignore[attr-defined]


def test_losing_the_host_returns_to_the_menu(app: App) -> None:
    from game.ui.lan import LanServer
    from game.ui.scenes.lobby import join_lan_table
    from game.ui.scenes.menu import MenuScene

    app.push(MenuScene(app))
    server = LanServer("Going away")
    try:
        table = two_seat_table(server)
        join_lan_table(app, "127.0.0.1", server.port, table)
        run_until(app, lambda: app.top is not None and app.top.name == "game")
    finally:
        server.close()  # the host goes away
    run_until(app, lambda: app.scene_named("message") is not None)
    click(app, "confirm_yes")
    assert app.top is not None and app.top.name == "menu"
