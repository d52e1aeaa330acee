"""Saved games (issue "Ready for a real LAN party"): one game, one entry — continuing a save
goes on writing the same file; a save can be deleted after a confirmation (a damaged one too);
the log comes back on continue; a LAN save continues as a LAN table its players rejoin with
their seats."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from game.core.match import Replay, journal_path
from game.ui.app import App
from game.ui.client import SeatSpec, TableClient
from game.ui.local_game import start_local_game
from game.ui.settings import lan_saves_dir, saves_dir
from net.protocol import PROTOCOL_VERSION
from tests.ui.conftest import click, click_at, make_app, run_until


def _play(app: App, game: Any, moves: int) -> None:
    """Make ``moves`` moves for seat 0 (the bot plays its own turns meanwhile)."""
    client: TableClient = game.client
    for _ in range(moves):
        run_until(app, lambda: bool(game.view.legal) and 0 not in client.busy, timeout=30)
        seq = client.state_of(0)["seq"]  # type: ignore[index]
        legal = game.view.legal
        game.act(next((a for a in legal if a[0] == "place"), legal[-1]))
        run_until(app, lambda seq=seq: client.state_of(0)["seq"] > seq, timeout=30)  # type: ignore[index, misc]


def _files(app: App) -> Any:
    from game.ui.scenes.files import FilesScene

    scene = app.push(FilesScene(app, "saves"))
    app.step()
    return scene


def _continue_first(app: App, files: Any) -> Any:
    listbox = files.widget("files")
    listbox.select(0)
    click(app, "open_file")
    run_until(app, lambda: app.top is not None and app.top.name == "game", timeout=30)
    game = app.top
    run_until(app, lambda: bool(game.view.view))  # type: ignore[attr-defined]
    return game


def test_one_game_one_entry_and_its_log_comes_back(app: App) -> None:
    from game.ui.scenes.menu import MenuScene
    from game.ui.scenes.setup import StartingScene

    app.push(MenuScene(app))
    specs = [SeatSpec("human", "Ann", "red"), SeatSpec("bot", "Bot", "blue", "easy")]
    client = start_local_game("kingdom-builder", specs, {}, seed=8, bot_delay=0)
    app.push(StartingScene(app, client, 2))
    run_until(app, lambda: app.top is not None and app.top.name == "game")
    game = app.top
    _play(app, game, 4)
    before = [line.text for line in game.log]  # type: ignore[attr-defined]
    assert len(before) >= 4
    game.leave_table()  # type: ignore[attr-defined]
    for _round in range(2):
        files = _files(app)
        assert len(files.widget("files").items) == 1, "one game, one entry"  # type: ignore[attr-defined]
        game = _continue_first(app, files)
        log = [line.text for line in game.log]  # type: ignore[attr-defined]
        assert log[: len(before)] == before, "the log comes back"
        _play(app, game, 2)
        before = [line.text for line in game.log]  # type: ignore[attr-defined]
        game.leave_table()  # type: ignore[attr-defined]
    files = _files(app)
    [item] = files.widget("files").items  # type: ignore[attr-defined]
    assert [p.name for p in saves_dir().glob("*.save")] == [Path(item.value).name]
    assert len(Replay.load(item.value).actions) >= 8


def test_a_save_is_deleted_only_after_a_confirmation(app: App) -> None:
    from game.ui.scenes.menu import MenuScene
    from game.ui.scenes.setup import StartingScene

    app.push(MenuScene(app))
    specs = [SeatSpec("human", "Ann", "red"), SeatSpec("bot", "Bot", "blue", "easy")]
    client = start_local_game("kingdom-builder", specs, {}, seed=8, bot_delay=0)
    app.push(StartingScene(app, client, 2))
    run_until(app, lambda: app.top is not None and app.top.name == "game")
    game = app.top
    _play(app, game, 1)
    game.leave_table()  # type: ignore[attr-defined]
    [save] = list(saves_dir().glob("*.save"))
    assert journal_path(save).exists()
    (saves_dir() / "damaged.save").write_bytes(b"\x00\x01 not a save")

    files = _files(app)
    listbox = files.widget("files")
    assert len(listbox.items) == 2  # type: ignore[attr-defined]
    damaged = next(i for i, item in enumerate(listbox.items) if not item.enabled)  # type: ignore[attr-defined]
    click_at(app, listbox.row_rect(damaged).center)  # type: ignore[attr-defined]
    assert not files.widget("open_file").enabled, "a damaged file cannot be opened"
    click(app, "delete_file")
    assert app.top is not None and app.top.name == "confirm"
    click(app, "confirm_no")  # "Keep it"
    assert (saves_dir() / "damaged.save").exists()
    click(app, "delete_file")
    click(app, "confirm_yes")
    assert not (saves_dir() / "damaged.save").exists()
    assert len(listbox.items) == 1  # type: ignore[attr-defined]
    listbox.select(0)  # type: ignore[attr-defined]
    click(app, "delete_file")
    click(app, "confirm_yes")
    assert not save.exists() and not journal_path(save).exists()
    assert listbox.items == []  # type: ignore[attr-defined]
    assert any("Deleted" in toast.text for toast in app.toasts)


def _remote(port: int, table: str, token: str | None = None) -> Any:
    from net.client import TcpConnection

    conn = TcpConnection.open("127.0.0.1", port)
    conn.send({"t": "hello", "version": PROTOCOL_VERSION, "name": "Remote"})
    if token is None:
        conn.send({"t": "join", "table": table, "name": "Remote"})
        conn.send({"t": "ready"})
    else:
        conn.send({"t": "join", "table": table, "token": token})
    return conn


def _remote_plays(remote: Any, seen: list[dict[str, Any]]) -> None:
    """The remote player plays its first legal action whenever asked (once per decision)."""
    for msg in remote.poll():
        seen.append(msg)
        if msg["t"] == "state" and msg["legal"]:
            decided = {m.get("decision") for m in seen[:-1] if m["t"] == "sent"}
            if msg["decision"] not in decided:
                remote.send({"t": "action", "seq": msg["seq"], "action": msg["legal"][0]})
                seen.append({"t": "sent", "decision": msg["decision"]})


def test_a_lan_save_continues_as_a_lan_table_its_players_rejoin(env: Any) -> None:
    from game.ui.scenes.setup import SetupScene

    first = make_app(player_name="Hostess")
    remote: Any = None
    try:
        first.push(SetupScene(first, "host"))
        first.step()
        players = first.top.widget("players")  # type: ignore[union-attr]
        while players.value != 2:  # type: ignore[attr-defined]
            click_at(first, (players.rect.x + 8, players.rect.centery))
        click(first, "start")
        client: TableClient = first.top.client  # type: ignore[union-attr]
        run_until(first, lambda: client.table_id is not None and client.lobby is not None)
        remote = _remote(client.server.port, str(client.table_id))
        run_until(first, lambda: bool(client.lobby and client.lobby["can_start"]))
        click(first, "lobby_start")
        run_until(first, lambda: first.top is not None and first.top.name == "game")
        game = first.top
        seen: list[dict[str, Any]] = []
        token = ""
        deadline = time.monotonic() + 60
        while len(game.log) < 8:  # type: ignore[attr-defined]
            assert time.monotonic() < deadline
            _remote_plays(remote, seen)
            token = token or next((m["token"] for m in seen if m["t"] == "joined"), "")
            if game.view.legal and 0 not in client.busy:  # type: ignore[attr-defined]
                legal = game.view.legal  # type: ignore[attr-defined]
                game.act(next((a for a in legal if a[0] == "place"), legal[-1]))  # type: ignore[attr-defined]
            first.step()
            time.sleep(0.003)
        log = [line.text for line in game.log]  # type: ignore[attr-defined]
        actions = client.latest()["seq"]  # type: ignore[index]
    finally:
        first.shutdown()  # the hosting window closes: its table closes for everyone
        if remote is not None:
            remote.close()
    [save] = list(lan_saves_dir().glob("*.save"))
    assert not list(saves_dir().glob("*.save")), "a LAN table saves among the LAN saves"

    second = make_app(player_name="Hostess")
    remote = None
    try:
        files = _files(second)
        [item] = files.widget("files").items  # type: ignore[attr-defined]
        assert item.detail.startswith("LAN table")
        game = _continue_first(second, files)
        client = game.client  # type: ignore[attr-defined]
        assert client.local_seats == [0] and client.owner == 0, "the creator's seat and rights"
        server = client.server
        assert server is not None and server.hub.save_path(client.table_id) == save
        assert [line.text for line in game.log][: len(log)] == log, "the log comes back"  # type: ignore[attr-defined]
        # The other player is away, its seat reserved for its token, and takes it back.
        run_until(second, lambda: client.away_seats() == [1])
        remote = _remote(server.port, "t1", token)
        run_until(second, lambda: client.away_seats() == [])
        seen = []
        deadline = time.monotonic() + 60
        while client.latest()["seq"] < actions + 6:  # type: ignore[index]
            assert time.monotonic() < deadline
            _remote_plays(remote, seen)
            if game.view.legal and 0 not in client.busy:  # type: ignore[attr-defined]
                legal = game.view.legal  # type: ignore[attr-defined]
                game.act(next((a for a in legal if a[0] == "place"), legal[-1]))  # type: ignore[attr-defined]
            second.step()
            time.sleep(0.003)
        assert not [m for m in seen if m["t"] == "error"], seen
        game.leave_table()  # type: ignore[attr-defined]
        assert len(Replay.load(save).actions) >= actions + 6
        assert [p.name for p in lan_saves_dir().glob("*.save")] == [save.name]
    finally:
        if remote is not None:
            remote.close()
        second.shutdown()
