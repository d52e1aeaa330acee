"""No window size, text length or language crashes the client (issue "Ready for a real LAN
party": a window manager may ignore the minimum size; a window too small once crashed the
program — and with it the LAN table it hosted).

Every screen — menu, setup, join (with a kept seat and long names), lobby (6 seats), saved
games, settings, each game's table mid-game, its results, help, "reconnecting..." — is drawn
while the window is resized through sizes from 640x400 to 2560x1440 (and odd shapes), in
English, Japanese and Dutch, through the real resize event.  Nothing may raise.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame
import pytest

from game.ui.app import App
from tests.ui.conftest import make_app

SIZES = [
    (640, 400),
    (800, 480),
    (1024, 560),
    (1024, 640),
    (1100, 1000),
    (1280, 720),
    (1280, 800),
    (1600, 900),
    (1920, 1080),
    (2560, 1440),
    (700, 1300),
    (2560, 420),
]
LONG = "Wolfeschlegelsteinhausenbergerdorff"[:32]


def resize(app: App, size: tuple[int, int]) -> None:
    """What a window manager does: the surface changes, then the resize event arrives.  The
    window manager here insists on its size (a tiling one): the app does not make a too small
    window larger again (``App._keep_min_size``), so every layout meets every size."""
    import time

    app._min_forced = time.monotonic()
    pygame.display.set_mode(size, pygame.RESIZABLE)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1]))
    app.step()
    app.step()


def _feed_table(app: App, game_id: str, players: int, actions: int) -> Any:
    """A game scene fed a real mid-game position (the host's own Session made it)."""
    from game.commands.screenshot import _Feed, play_table
    from game.ui.client import TableClient
    from game.ui.scenes.game import GameScene

    session, events = play_table(game_id, players, 5, actions, "random", {})
    seat = session.state.to_move()[0] if session.state.to_move() else 0
    session.seats[seat].name = LONG
    feed = _Feed([session.lobby_message(), session.state_message(seat, events)])
    client = TableClient(game_id, {seat: feed})
    client.chat.append((seat, f"{LONG}: " + "long line of chat " * 20))
    client.chat_total = 1
    return GameScene(app, client, players)


def _files(app: App) -> Any:
    from game.core.match import Replay
    from game.core.registry import get_game
    from game.ui.scenes.files import FilesScene
    from game.ui.settings import saves_dir

    folder = saves_dir()
    folder.mkdir(parents=True, exist_ok=True)
    game = get_game("kingdom-builder")
    state = game.new(3, {}, 11)
    replay = Replay(
        "kingdom-builder",
        3,
        11,
        seats=[
            {"name": LONG, "kind": "human"},
            {"name": "Bo", "kind": "bot", "bot": "easy"},
            {"name": "Ché", "kind": "human"},
        ],
    )
    for _ in range(7):
        seat = state.to_move()[0]
        action = state.legal_actions(seat)[0]
        state.apply(seat, action)
        replay.actions.append((seat, action))
    (folder / "kb-long.save").write_bytes(replay.to_bytes())
    (folder / "broken.save").write_bytes(b"\x00not a save" * 40)
    return FilesScene(app, "saves")


def _join(app: App) -> Any:
    from game.ui.scenes.join import JoinScene
    from net.seats import SeatStore, StoredSeat

    SeatStore().remember(
        StoredSeat("192.168.100.200", 65000, "t12", "token-of-a-kept-seat", 4, "keyflower", LONG),
        hold=False,
    )
    return JoinScene(app)


def _lobby(app: App) -> Any:
    from game.ui.client import TableClient
    from game.ui.scenes.lobby import LobbyScene

    seats = [
        {"seat": i, "kind": kind, "name": LONG if kind != "open" else "", "colour": colour,
         "ready": i % 2 == 0, "bot": "hard" if kind == "bot" else None, "connected": i != 3}
        for i, (kind, colour) in enumerate(
            zip(["human", "human", "bot", "human", "open", "human"],
                ["red", "blue", "green", "yellow", "purple", "orange"], strict=True)
        )
    ]  # fmt: skip
    lobby = {
        "t": "lobby", "table": "t1", "game": "keyflower", "title": "Keyflower", "players": 6,
        "options": {}, "settings": {"name": LONG, "allow_hints": True, "bot_delay_ms": 0,
                                    "autostart": False},
        "seats": seats, "spectators": 3, "started": False, "over": False, "seq": 0,
        "seed": None, "bots": ["random"], "colours": ["red"], "can_start": False,
        "owner_seat": 0,
    }  # fmt: skip

    class Quiet:
        connected = True

        def send(self, msg: dict[str, Any]) -> None: ...

        def poll(self) -> list[dict[str, Any]]:
            return []

        def close(self) -> None: ...

    client = TableClient("keyflower", {0: Quiet()}, lobby=lobby, table_id="t1", owner=0)
    client.chat = [(i % 6, f"{LONG}: " + "words " * 40) for i in range(30)]
    return LobbyScene(app, client, 6, hosting=False, address="192.168.100.200:65000")


def _reconnecting(app: App) -> list[Any]:
    from game.ui.scenes.reconnect import ReconnectOverlay

    table = _feed_table(app, "kingdom-builder", 4, 40)
    table.client.link = {"cause": "host_gone", "reason": "x" * 300, "attempt": 12,
                         "retry_in": 8.0, "at": 0.0, "since": 0.0}  # fmt: skip
    return [table, ReconnectOverlay(app, table.client)]


def _results(app: App) -> list[Any]:
    from game.commands.screenshot import _Feed, play_table
    from game.ui.client import TableClient
    from game.ui.scenes.game import GameScene
    from game.ui.scenes.results import ResultsScene

    session, events = play_table("kingdom-builder", 4, 9, 10_000, "random", {})
    feed = _Feed([session.lobby_message(), session.state_message(0, events)])
    table = GameScene(app, TableClient("kingdom-builder", {0: feed}), 4)
    result = session.game_over_message()
    return [table, ResultsScene(app, result, table.view.seats, table.view.score_categories(), None)]


def _setup(mode: str) -> Callable[[App], Any]:
    def make(app: App) -> Any:
        from game.ui.scenes.setup import SetupScene

        return SetupScene(app, mode)

    return make


def _menu(app: App) -> Any:
    from game.ui.scenes.menu import MenuScene

    return MenuScene(app)


def _settings(app: App) -> Any:
    from game.ui.scenes.settings import SettingsScene

    return SettingsScene(app)


def _help(app: App) -> list[Any]:
    from game.ui.scenes.overlays import HelpOverlay

    table = _feed_table(app, "kingdom-builder", 3, 30)
    return [table, HelpOverlay(app, table.help_topic)]


SCENES: dict[str, Callable[[App], Any]] = {
    "menu": _menu,
    "setup-local": _setup("local"),
    "setup-host": _setup("host"),
    "join": _join,
    "lobby": _lobby,
    "files": _files,
    "settings": _settings,
    "kingdom-builder": lambda app: _feed_table(app, "kingdom-builder", 4, 70),
    "keyflower": lambda app: _feed_table(app, "keyflower", 6, 60),
    "glen-more": lambda app: _feed_table(app, "glen-more", 5, 40),
    "results": _results,
    "help": _help,
    "reconnecting": _reconnecting,
}


@pytest.mark.parametrize("lang", ["en", "ja", "nl"])
@pytest.mark.parametrize("name", sorted(SCENES))
def test_every_screen_survives_every_size(env: Any, lang: str, name: str) -> None:
    app = make_app((1280, 800), language=lang)
    try:
        made = SCENES[name](app)
        for scene in made if isinstance(made, list) else [made]:
            app.push(scene)
        app.step()
        for size in SIZES:
            resize(app, size)
            assert app.size == size
            assert app.running and app.stack, f"{name} closed at {size}"
        resize(app, (1280, 800))
    finally:
        app.shutdown()
