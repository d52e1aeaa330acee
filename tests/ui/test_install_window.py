"""The window and issue 21: the version in the menu and the help; a host of another release
or a table of other rules refused with a dialog naming both versions and the host's install
page (English, Japanese, Dutch); *Host a LAN game* serving the install page, its address in
the lobby, off when the table closes.  Real window (SDL dummy driver), real hosts on
127.0.0.1."""

from __future__ import annotations

import urllib.request
from pathlib import Path
from typing import Any

import pygame
import pytest

from game import __version__
from game.ui.app import App
from game.ui.lan import LanServer
from game.ui.widgets.base import resolve
from net import versions
from tests.ui.conftest import click, click_at, make_app, run_until, two_seat_table

EXPECTED = {
    "en": "This host runs Lantern Table 0.9.1 and you have",
    "ja": "このホストはランタン・テーブル 0.9.1",
    "nl": "Deze host draait Lantern Table 0.9.1",
}


def _drawn(app: App, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    texts: list[str] = []
    render = app.fonts.render

    def record(text: str, *args: Any, **kwargs: Any) -> pygame.Surface:
        texts.append(text)
        return render(text, *args, **kwargs)

    monkeypatch.setattr(app.fonts, "render", record)
    return texts


def test_the_menu_and_the_help_show_the_version(env: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from game.ui.scenes.menu import MenuScene

    app = make_app()
    try:
        texts = _drawn(app, monkeypatch)
        app.push(MenuScene(app))
        app.step()
        assert any(__version__ in text and "Lantern Table" in text for text in texts)
        texts.clear()
        app.show_help()
        app.step()
        assert app.top is not None and app.top.name == "help"
        assert f"Lantern Table {__version__}" in texts
    finally:
        app.shutdown()


def _connect(app: App, port: int) -> Any:
    """Type the host's address on the join screen and press Connect; the list of tables."""
    from game.ui.scenes.join import JoinScene

    scene = app.push(JoinScene(app))
    field = scene.widget("address")
    click_at(app, field.rect.center)
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=f"127.0.0.1:{port}"))
    app.step()
    click(app, "connect")
    return scene.widget("tables")


def _dialog(app: App) -> str:
    run_until(app, lambda: app.top is not None and app.top.name == "message", timeout=10)
    return resolve(app.top.question)  # type: ignore[union-attr,attr-defined]


@pytest.mark.parametrize("language", ["en", "ja", "nl"])
def test_a_host_of_another_release_is_refused_with_a_dialog(env: Any, language: str) -> None:
    """The host refuses the hello of another release: asking it for its tables (Connect)
    shows the dialog at once; so does joining a table heard of on the network."""
    from game.ui.scenes.lobby import join_lan_table

    app = make_app(language=language)
    server = LanServer("Newer host")
    try:
        server.hub.program = "0.9.1"
        server.hub.install_port = 7780
        table = two_seat_table(server)
        _connect(app, server.port)
        for attempt in ("connect", "join"):
            text = _dialog(app)
            assert text.startswith(EXPECTED[language]), attempt
            assert __version__ in text
            assert "http://127.0.0.1:7780/" in text
            assert (
                "pip install --index-url http://127.0.0.1:7780/simple/ lantern-table==0.9.1" in text
            )
            click(app, "confirm_yes")  # OK closes it: back on the join screen
            assert app.top is not None and app.top.name == "join"
            if attempt == "connect":
                join_lan_table(app, "127.0.0.1", server.port, table)
        assert "lobby" not in [s.name for s in app.stack]
        assert server.call(lambda: server.hub.tables[table].seats[0].kind) == "open"
    finally:
        app.shutdown()
        server.close()


def test_a_table_of_other_rules_is_refused_with_a_dialog(env: Any) -> None:
    """Same release, other Kingdom Builder rules: the list says so, and joining shows the
    dialog; the seat stays open."""
    app = make_app()
    server = LanServer("Other rules")
    try:
        server.hub.rules = {**versions.rules_versions(), "kingdom-builder": 99}
        table = two_seat_table(server)
        listbox = _connect(app, server.port)
        run_until(app, lambda: len(listbox.items) > 0, timeout=10)  # type: ignore[attr-defined]
        assert "version 99" in listbox.items[0].detail  # type: ignore[attr-defined]
        click_at(app, listbox.row_rect(0).center)  # type: ignore[attr-defined]
        click(app, "join_table")
        text = _dialog(app)
        assert "Kingdom Builder rules version 99" in text
        assert "http://" not in text  # this host serves no install page: ask the host
        assert server.call(lambda: server.hub.tables[table].seats[0].kind) == "open"
    finally:
        app.shutdown()
        server.close()


def test_hosting_serves_the_install_page_until_the_table_closes(
    env: Any, wheel_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """*Host a LAN game* with *Serve the install page* on: the page serves Lantern Table and
    its dependencies, the lobby shows its address, a guest's welcome names it; leaving the
    table stops it."""
    from game.ui.scenes.setup import SetupScene

    monkeypatch.setenv("LANTERN_CACHE_DIR", str(wheel_cache))
    app = make_app()
    try:
        setup = app.push(SetupScene(app, "host"))
        app.step()
        toggle = setup.widget("install_page")
        assert toggle.visible and toggle.value is False  # the tests' default  # type: ignore[attr-defined]
        click(app, "install_page")
        assert app.settings.extra["host.install_page"] is True  # remembered
        click(app, "start")
        lobby = app.top
        assert lobby is not None and lobby.name == "lobby"
        server = lobby.client.server  # type: ignore[attr-defined]
        texts = _drawn(app, monkeypatch)
        run_until(app, lambda: server.install_state != "preparing", timeout=240)
        assert server.install_state == "ready", server.install_error
        port = server.install_port
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/simple/", timeout=10) as answer:
            index = answer.read().decode()
        for project in ("lantern-table", "pygame-ce", "msgpack", "platformdirs"):
            assert f'href="{project}/"' in index
        texts.clear()
        run_until(app, lambda: any(f"http://127.0.0.1:{port}/" in t for t in texts), timeout=5)
        assert server.hub.install_port == port  # every welcome names it
        lobby.on_escape()  # type: ignore[union-attr]
        run_until(app, lambda: app.top is not None and app.top.name != "lobby", timeout=10)
        if server in app.kept_servers:
            app.close_server(server)
        run_until(app, lambda: not server._thread.is_alive(), timeout=20)
        with pytest.raises(OSError):
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=3)
    finally:
        app.shutdown()
