"""The game window against a hostile host: malformed messages end the connection, never the
window (issue 9, "A hostile host"; docs/protocol.md, "What a client checks").

The window joins a LAN table of a fake host (127.0.0.1) exactly as a player does
(``join_lan_table``: a real ``TcpConnection``), reaches the lobby or the game scene with valid
messages, and then receives one malformed ``lobby``, ``state``, ``game_over``, ``waiting``,
``hint``, ``chat`` or ``error`` message, or a broken frame.  Every frame is a real
``App.step()`` under SDL's dummy driver: none may raise, the window stays open, and the player
is told why the connection ended (the lobby returns to the menu with a message; the game shows
"connection lost").  Valid but hostile text (escape sequences) is shown cleaned.
"""

from __future__ import annotations

import asyncio
import copy
import re
import struct
import threading
import time
from collections.abc import Iterator
from typing import Any

import msgpack
import pytest

from game.core.registry import get_game
from game.ui.app import App
from net.client import TcpConnection
from tests.net import fakehost
from tests.net.fakehost import FakeHost, Peer, frame

#: A 2-seat Kingdom Builder position for the messages (seat 0 is the window's player).
_KB = get_game("kingdom-builder").new(2, {}, 7)


def seats() -> list[dict[str, Any]]:
    return [
        {
            "seat": i,
            "kind": "human",
            "name": name,
            "colour": colour,
            "ready": True,
            "bot": None,
            "connected": True,
        }
        for i, (name, colour) in enumerate([("You", "red"), ("Rival", "blue")])
    ]


def lobby(started: bool = True, **changes: Any) -> dict[str, Any]:
    msg = {
        "t": "lobby",
        "table": "t1",
        "game": "kingdom-builder",
        "title": "Kingdom Builder",
        "players": 2,
        "options": {},
        "settings": {"name": "", "allow_hints": True, "bot_delay_ms": 0, "autostart": True},
        "seats": seats(),
        "spectators": 0,
        "started": started,
        "over": False,
        "seq": 0,
        "seed": None,
        "bots": ["random"],
        "colours": ["red", "blue"],
        "can_start": False,
        "owner_seat": None,
    }
    return {**msg, **changes}


def state(**changes: Any) -> dict[str, Any]:
    to_move = list(_KB.to_move())
    msg = {
        "t": "state",
        "table": "t1",
        "seq": 0,
        "turn": _KB.turn_id(),
        "decision": 0,
        "view": _KB.view(0),
        "events": [],
        "to_move": to_move,
        "legal": [list(a) for a in _KB.legal_actions(0)] if 0 in to_move else [],
        "last_action": None,
        "can_undo": False,
        "over": False,
        "waiting": [],
    }
    return {**msg, **changes}


def game_over(**changes: Any) -> dict[str, Any]:
    msg = {
        "t": "game_over",
        "table": "t1",
        "game": "kingdom-builder",
        "seed": 7,
        "players": 2,
        "scores": [{"total": 10}, {"total": 12}],
        "winners": [1],
        "actions": 50,
        "seats": seats(),
    }
    return {**msg, **changes}


ANSI = "\x1b[31mboom\x1b[0m\r\nsecond\x07 line\u202e"

#: name -> (phase at which it arrives: "lobby" or "game", the message or raw bytes)
BAD: dict[str, tuple[str, Any]] = {
    "lobby without players": ("lobby", {k: v for k, v in lobby().items() if k != "players"}),
    "lobby seats [1, 2, 3]": ("lobby", lobby(seats=[1, 2, 3])),
    "lobby game 7": ("lobby", lobby(game=7)),
    "lobby seats do not match players": ("lobby", lobby(players=3)),
    "lobby of another table": ("lobby", lobby(table="t9")),
    "lobby of another game": ("game", lobby(game="glen-more")),
    "lobby with three seats now": (
        "game",
        lobby(players=3, seats=[*seats(), {**seats()[1], "seat": 2}]),
    ),
    "state without view": ("lobby", {k: v for k, v in state().items() if k != "view"}),
    "state view as text": ("game", state(view="board")),
    "state to_move [5]": ("game", state(to_move=[5])),
    "state to_move [1, 1]": ("game", state(to_move=[1, 1])),
    "state legal [[1]]": ("game", state(legal=[[1]])),
    "state events of numbers": ("game", state(events=[1, 2])),
    "state event by seat 9": ("game", state(events=[{"type": "place", "seat": 9}])),
    "state last_action half": ("game", state(last_action={"seat": 0})),
    "game_over without scores": ("game", {k: v for k, v in game_over().items() if k != "scores"}),
    "game_over players 3": ("game", game_over(players=3, seats=[*seats(), seats()[1]])),
    "game_over winner 7": ("game", game_over(winners=[7])),
    "game_over scores as text": ("game", game_over(scores="10:12")),
    "waiting for seat 9": ("game", {"t": "waiting", "table": "t1", "seats": [{"seat": 9}]}),
    "hint action {}": ("game", {"t": "hint", "table": "t1", "seq": 0, "action": {}}),
    "error without text": ("game", {"t": "error", "code": "internal"}),
    "unknown message type": ("game", {"t": "teleport"}),
    "garbage frame": ("game", frame(b"\xc1\xc1 garbage")),
    "frame of 4 GiB": ("game", struct.pack(">I", 2**32 - 1)),
    "nested 900 deep": ("game", frame(b"\x82\xa1t\xa4pong\xa1n" + b"\x91" * 900 + b"\xc0")),
}


def script_for(bad: Any, phase: str, go: threading.Event) -> Any:
    async def script(peer: Peer) -> None:
        await peer.expect("hello")
        await peer.send(fakehost.welcome())
        await peer.expect("join")
        await peer.send({"t": "joined", "table": "t1", "seat": 0, "token": "tok", "owner": False})
        if phase == "lobby":
            await peer.send(lobby(started=False))
            await asyncio.to_thread(go.wait, 10)
            await peer.send(copy.deepcopy(bad))
        else:
            await peer.send(lobby())
            await peer.send(state())
            await asyncio.to_thread(go.wait, 10)
            await peer.send(copy.deepcopy(bad))
        await peer.wait_closed(20)

    return script


@pytest.fixture
def window(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[App]:
    from tests.ui.conftest import make_app

    monkeypatch.setenv("LANTERN_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("LANTERN_DATA_DIR", str(tmp_path / "data"))
    app = make_app()
    yield app
    app.shutdown()


def frames_until(app: App, done: Any, timeout: float = 10.0) -> None:
    """Real frames (App.step must never raise) until ``done()``."""
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, [s.name for s in app.stack]
        app.step()
        time.sleep(0.005)


def join(app: App, port: int) -> Any:
    from game.ui.scenes.lobby import join_lan_table
    from game.ui.scenes.menu import MenuScene

    app.push(MenuScene(app))
    join_lan_table(app, "127.0.0.1", port, "t1")
    lobby_scene = app.top
    assert lobby_scene is not None and lobby_scene.name == "lobby"
    return lobby_scene.client  # type: ignore[attr-defined]


def toasts(app: App) -> list[str]:
    return [t.text for t in app.toasts]


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_malformed_message_ends_the_connection_not_the_window(window: App, case: str) -> None:
    app = window
    phase, bad = BAD[case]
    go = threading.Event()
    with FakeHost(script_for(bad, phase, go)) as host:
        client = join(app, host.port)
        if phase == "lobby":
            frames_until(app, lambda: client.lobby is not None)
        else:
            frames_until(app, lambda: app.top is not None and app.top.name == "game")
        go.set()
        if phase == "lobby":
            # The lobby says why and returns to the menu.
            frames_until(app, lambda: app.top is not None and app.top.name == "menu")
            said = " ".join(toasts(app))
        else:
            # The game says the connection was lost, with the reason.
            frames_until(app, lambda: app.scene_named("message") is not None)
            question = app.scene_named("message").question  # type: ignore[union-attr]
            said = str(question() if callable(question) else question)
        for _ in range(10):
            app.step()  # the window goes on drawing
        assert app.running
        assert not any(c.connected for c in client.conns.values())
        assert "bad" in said or "closed" in said, said
        assert not re.search(r"[\x00-\x1f\x7f-\x9f]", said), repr(said)
        assert not host.errors, host.errors


def test_hostile_text_reaches_the_window_cleaned(window: App) -> None:
    """Valid messages with escape sequences in a chat line and an error text: shown cleaned,
    and the connection stays."""
    app = window
    go = threading.Event()
    chat = {"t": "chat", "table": "t1", "seat": 1, "name": "\x1b[2JRival", "text": ANSI}
    error = {"t": "error", "code": "illegal", "text": ANSI}

    async def script(peer: Peer) -> None:
        await peer.expect("hello")
        await peer.send(fakehost.welcome())
        await peer.expect("join")
        await peer.send({"t": "joined", "table": "t1", "seat": 0, "token": "tok", "owner": False})
        await peer.send(lobby())
        await peer.send(state())
        await asyncio.to_thread(go.wait, 10)
        await peer.send(chat)
        await peer.send(error)
        await peer.wait_closed(20)

    with FakeHost(script) as host:
        client = join(app, host.port)
        frames_until(app, lambda: app.top is not None and app.top.name == "game")
        go.set()
        frames_until(app, lambda: client.chat_total > 0 and bool(app.toasts))
        for _ in range(5):
            app.step()
        assert app.scene_named("message") is None
        assert client.chat[-1][1] == "Rival: boom second line"
        assert any(t == "boom second line" for t in toasts(app)), toasts(app)


def test_a_valid_envelope_with_a_strange_view(window: App) -> None:
    """What the client layer cannot check: a ``view`` that is a map, but not one the game
    makes (the view's content belongs to the game).  App.step must not raise: the game scene
    catches what its view raises and refuses the host (``TableClient.refuse``)."""
    app = window
    go = threading.Event()
    strange = state(seq=1, view={"board": "none", "seats": 5})

    async def script(peer: Peer) -> None:
        await peer.expect("hello")
        await peer.send(fakehost.welcome())
        await peer.expect("join")
        await peer.send({"t": "joined", "table": "t1", "seat": 0, "token": "tok", "owner": False})
        await peer.send(lobby())
        await peer.send(state())
        await asyncio.to_thread(go.wait, 10)
        await peer.send(strange)
        await peer.wait_closed(20)

    with FakeHost(script) as host:
        client = join(app, host.port)
        frames_until(app, lambda: app.top is not None and app.top.name == "game")
        go.set()
        frames_until(app, lambda: client.latest() is not None and client.latest()["seq"] == 1)
        for _ in range(10):
            app.step()
        assert app.running
        assert app.scene_named("message") is not None, "the player is told, once"
        assert client.refused


def test_the_client_layer_hands_up_only_checked_messages() -> None:
    """``TcpConnection.poll`` returns only messages that passed ``validate_host`` (cleaned,
    undefined fields dropped), then one ``disconnected`` saying what was wrong."""
    go = threading.Event()

    async def script(peer: Peer) -> None:
        await peer.send({**lobby(), "extra": {"deep": [[1]]}, "title": "K\x1b[1mB"})
        await peer.send(lobby(seats=[1, 2]))
        await peer.send(state())  # never read: the connection ended before it
        await asyncio.to_thread(go.wait, 10)

    with FakeHost(script) as host:
        conn = TcpConnection.open("127.0.0.1", host.port)
        got: list[dict[str, Any]] = []
        deadline = time.monotonic() + 10
        while not any(m["t"] == "disconnected" for m in got):
            assert time.monotonic() < deadline
            got += conn.poll()
            time.sleep(0.01)
        go.set()
    assert [m["t"] for m in got] == ["lobby", "disconnected"]
    assert "extra" not in got[0] and got[0]["title"] == "KB"
    assert got[1]["reason"].startswith("the host sent a bad message (field 'seats[0]'")
    assert not conn.connected


def test_a_host_flooding_chat_faster_than_the_window_reads_is_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Unread frames are bounded (``MAX_INBOX_BYTES``, lowered here to 4 MiB)."""
    import net.client

    monkeypatch.setattr(net.client, "MAX_INBOX_BYTES", 4 << 20)
    body = msgpack.packb(
        {"t": "chat", "table": "t1", "seat": 1, "name": "E", "text": "x", "pad": "p" * 500_000}
    )
    stop = threading.Event()

    async def script(peer: Peer) -> None:
        while not stop.is_set():
            await peer.send(frame(body))

    with FakeHost(script) as host:
        conn = TcpConnection.open("127.0.0.1", host.port)
        deadline = time.monotonic() + 10
        while conn.connected:  # the window does not poll (a long frame, a dragged window)
            assert time.monotonic() < deadline
            time.sleep(0.05)
        stop.set()
        got = conn.poll()
    assert 1 <= len(got) <= 10
    assert got[-1]["t"] == "disconnected" and "MiB" in got[-1]["reason"]


def test_a_scene_can_end_the_connections_when_it_cannot_use_the_hosts_data() -> None:
    """``TableClient.refuse``: the path for data only a game view can judge."""
    from game.ui.client import TableClient

    go = threading.Event()

    async def script(peer: Peer) -> None:
        await peer.send(lobby())
        await asyncio.to_thread(go.wait, 10)

    with FakeHost(script) as host:
        conn = TcpConnection.open("127.0.0.1", host.port)
        client = TableClient("kingdom-builder", {0: conn})
        deadline = time.monotonic() + 10
        while client.lobby is None:
            assert time.monotonic() < deadline
            client.poll()
            time.sleep(0.01)
        client.refuse("the board is not a Kingdom Builder board")
        time.sleep(0.2)
        client.poll()
        go.set()
    notices = client.take_notices()
    assert [(n.kind, n.code) for n in notices] == [("disconnected", "bad_host")]
    assert "cannot show (the board is not a Kingdom Builder board)" in notices[0].text
    assert not conn.connected
