"""Coming back after a crash (issue 20, finding 1): a window killed at a running LAN game opens
again on the main menu, which offers the seat first — one click takes it back — with the log
kept so far (``game/ui/seatlog.py``) and the player's name.

The other side is the network package's own host (``LanServer``) on 127.0.0.1; the first window
is dropped without closing anything (its process would be gone: the host only sees the link
break), the second starts with the same data folders.
"""

from __future__ import annotations

import json
import time
from typing import Any

from game.ui.lan import LanServer
from game.ui.seatlog import MAX_EVENTS, SeatLog
from game.ui.settings import Settings
from net.seats import SeatStore
from tests.ui.conftest import click, make_app, run_until, two_seat_table
from tests.ui.test_lan_seats import _join, _play_one


def test_the_menu_offers_the_seat_back_with_its_log_and_name(env: Any) -> None:
    from game.ui.scenes.menu import MenuScene

    server = LanServer("Host")
    try:
        first = make_app()
        first.settings.player_name = "Hana"
        game = _join(first, server, two_seat_table(server))
        for _ in range(3):
            _play_one(first, game)
        run_until(first, lambda: len(game.log) >= 3)
        lines = [line.text for line in game.log if not line.chat]
        token = game.client.tokens[0]
        # The crash: nothing is closed or saved by the window; the host sees the link drop.
        for conn in game.client.conns.values():
            conn.close()
        table = server.hub.tables["t1"]
        deadline = time.monotonic() + 5
        while server.call(lambda: table.seats[0].connected):
            assert time.monotonic() < deadline
            time.sleep(0.01)

        assert Settings.load().player_name == "Hana", "the name was saved when joining"
        second = make_app()  # started again, same folders (settings here without the name)
        try:
            menu = second.push(MenuScene(second))
            second.step()
            second.step()  # the store is read once the first frame is on the screen
            back = menu.widget("take_back")
            assert back.visible, "the main menu offers the seat first"
            assert "Back to your seat" in str(back.text()) and "Hana" in str(back.text())  # type: ignore[operator]
            assert back.rect.y < menu.widget("play_local").rect.y
            click(second, "take_back")
            run_until(second, lambda: second.top is not None and second.top.name == "game")
            scene = second.top
            run_until(second, lambda: bool(scene.view.view))  # type: ignore[attr-defined]
            assert scene.client.tokens[0] == token  # type: ignore[attr-defined]
            assert second.settings.player_name == "Hana", "the seat's name comes back"
            assert server.call(lambda: table.seats[0].connected)
            restored = [line.text for line in scene.log]  # type: ignore[attr-defined]
            assert restored[: len(lines)] == lines, "the log so far comes back"
            assert any("window was closed" in text for text in restored)
            _play_one(second, scene)
            scene.leave_table()  # type: ignore[attr-defined]
            run_until(second, lambda: second.top is not None and second.top.name == "menu")
            # A guest who left a running game on purpose may come back the same way.
            second.step()
            assert second.top.widget("take_back").visible  # type: ignore[union-attr]
        finally:
            second.shutdown()
    finally:
        server.close()


def test_no_offer_without_a_kept_seat(app: Any) -> None:
    from game.ui.scenes.menu import MenuScene

    menu = app.push(MenuScene(app))
    app.step()
    assert not menu.widget("take_back").visible
    assert menu.widget("play_local").style == "primary"
    assert SeatStore().seats() == []


def test_a_seat_log_is_read_like_data_from_outside(tmp_path: Any) -> None:
    log = SeatLog("t1", "token-abc", tmp_path)
    log.append([{"type": "place", "seat": 0}, "junk", {"no": "type"}])
    log.append([])
    with log.path.open("a", encoding="utf-8") as f:
        f.write("{not json\n")
        f.write(json.dumps({"type": "not a list"}) + "\n")
        f.write(json.dumps([{"type": 5}, {"type": "end_turn", "seat": 0}]) + "\n")
    assert log.load() == [{"type": "place", "seat": 0}, {"type": "end_turn", "seat": 0}]
    for i in range(2 * MAX_EVENTS + 10):
        log.append([{"type": "n", "i": i}])
    kept = log.load()
    assert len(kept) <= MAX_EVENTS and kept[-1] == {"type": "n", "i": 2 * MAX_EVENTS + 9}
    assert log.path.stat().st_size < 1_000_000
    other = SeatLog("../../etc", "x", tmp_path)
    assert other.path.parent == tmp_path, "a table id never leaves the folder"
    log.forget()
    assert log.load() == [] and not log.path.exists()
