"""The LAN lobby holds up: laid out again whenever the table changes, nothing overlapping at
1024x640 and 1280x800 (and full HD) with 4 and 6 seats, for a guest and for the host.

The window joins a real LAN table on 127.0.0.1 (seats filled by other TCP players and bots);
the geometry of every row and control is checked, and with ``LANTERN_SHOTS=DIR`` each lobby is
also saved as a PNG to look at.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pygame
import pytest

from game.ui.app import App
from game.ui.lan import LanServer
from net.protocol import PROTOCOL_VERSION
from tests.ui.conftest import make_app, run_until

SIZES = [(1024, 640), (1280, 800), (1920, 1080)]


def _players(port: int, table: str, names: list[str]) -> list[Any]:
    from net.client import TcpConnection

    conns = []
    for name in names:
        conn = TcpConnection.open("127.0.0.1", port)
        conn.send({"t": "hello", "version": PROTOCOL_VERSION, "name": name})
        conn.send({"t": "join", "table": table, "name": name})
        conns.append(conn)
    return conns


def _shot(app: App, name: str) -> None:
    folder = os.environ.get("LANTERN_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        pygame.image.save(app.screen, str(Path(folder) / f"{name}.png"))


def _check_layout(app: App, scene: Any) -> None:
    """Every visible part of the lobby in the window, and none over another."""
    w, h = app.size
    window = pygame.Rect(0, 0, w, h)
    seats = scene._lobby_seats()
    box = scene.box
    assert window.contains(box)
    rows = [
        pygame.Rect(box.x, box.y + app.px(12) + i * scene.row_h, box.width, scene.row_h)
        for i in range(len(seats))
    ]
    assert rows[-1].bottom <= box.bottom
    for choice in scene.seat_choices:
        if choice.visible:
            assert box.contains(choice.rect), (choice.id, choice.rect, box)
    below = [
        w
        for w in (scene.colour_label, scene.colour_choice, scene.ready_toggle, scene.hints_toggle)
        if w.visible
    ]
    for widget in below:
        assert widget.rect.top >= box.bottom, (widget.id, widget.rect, box)
        assert widget.rect.bottom <= scene.settings_y, widget.id
        assert window.contains(widget.rect), widget.id
    for a in below:
        for b in below:
            if a is not b:
                assert not a.rect.colliderect(b.rect), (a.id, b.id)
    bottom = min(scene.back_button.rect.top, scene.start_button.rect.top)
    if scene.chat_field.visible:
        assert scene.chat_rect.top >= scene.settings_y + app.px(20)
        assert scene.chat_rect.bottom <= bottom
    else:
        assert scene.settings_y + app.px(20) <= bottom


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("seats", [4, 6])
@pytest.mark.parametrize("role", ["guest", "host"])
def test_the_lobby_fits(env: Any, size: tuple[int, int], seats: int, role: str) -> None:
    from game.ui.scenes.lobby import LobbyScene, join_lan_table
    from game.ui.scenes.menu import MenuScene

    game = "kingdom-builder" if seats == 4 else "keyflower"
    colours = ["teal", "red", "orange", "blue", "gold", "green"]  # not the first ones
    app = make_app(size, player_name="Guest With A Long Name")
    server = LanServer("Host")
    others: list[Any] = []
    try:
        app.push(MenuScene(app))
        if role == "guest":
            table = server.call(
                lambda: (
                    server.hub.create_table(
                        game, seats, {}, bots=[None, None, None, "hard"][:seats]
                    ).table_id
                )
            )
            join_lan_table(app, "127.0.0.1", server.port, table)
            scene = app.top
            assert isinstance(scene, LobbyScene)
            run_until(app, lambda: scene.client.lobby is not None)
            others = _players(server.port, table, ["Ann", "Bertrand-Émile", "Chiyo"][: seats - 2])
        else:
            from game.core.registry import get_game
            from game.ui.client import SeatSpec
            from game.ui.scenes.lobby import host_lan_game

            specs = [SeatSpec("human", "Host", colours[0])]
            specs += [SeatSpec("human", "", colours[i]) for i in range(1, seats - 1)]
            specs += [SeatSpec("bot", "Bot", colours[seats - 1], "hard")]
            server.close()
            host_lan_game(app, get_game(game), specs, {})
            scene = app.top
            assert isinstance(scene, LobbyScene)
            run_until(app, lambda: scene.client.lobby is not None)
            # The creator's seat set-up (bot, names, every colour, then "ready") is applied
            # before anyone else sits down, as it would be at a real party.
            run_until(
                app,
                lambda: bool(scene.client.lobby["seats"][0].get("ready")),  # type: ignore[index]
            )
            server = scene.client.server
            others = _players(server.port, str(scene.client.table_id), ["Ann", "Bertrand-Émile"])
        run_until(
            app,
            lambda: (
                sum(s["kind"] != "open" for s in scene.client.lobby["seats"])  # type: ignore[index]
                >= min(seats, 5 if role == "guest" else 4)
            ),
        )
        scene.client.say("hello everyone")
        run_until(app, lambda: bool(scene.client.chat))
        for _ in range(3):
            app.step()
        assert len(scene._lobby_seats()) == seats
        assert not [t.text for t in app.toasts if t.kind == "error"]
        if role == "host":
            got = [s["colour"] for s in scene.client.lobby["seats"]]  # type: ignore[index]
            assert got == colours[:seats]
        _check_layout(app, scene)
        _shot(app, f"lobby-{role}-{seats}-{size[0]}x{size[1]}")
    finally:
        for conn in others:
            conn.close()
        app.shutdown()
        server.close()


def test_a_colour_plan_never_puts_two_seats_on_one_colour() -> None:
    from hypothesis import given
    from hypothesis import strategies as st

    from game.ui.client import colour_plan
    from net.seat_rules import COLOURS

    @given(st.integers(1, 8).flatmap(lambda n: st.permutations(COLOURS).map(lambda p: p[:n])))
    def check(chosen: tuple[str, ...]) -> None:
        held = list(COLOURS[: len(chosen)])
        for seat, colour in colour_plan(list(chosen), COLOURS):
            assert colour not in [c for i, c in enumerate(held) if i != seat], (chosen, seat)
            held[seat] = colour
        assert held == list(chosen)

    check()
