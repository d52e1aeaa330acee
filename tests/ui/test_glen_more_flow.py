"""Whole hot-seat Glen More games driven through the window, from the main menu to the results,
with posted mouse and key events only: 2 players (both at this computer) and 4 players (two
at this computer, two bots).

The human "players" click tiles on the track, cubes on their tiles, market buttons (then
Enter to confirm the trade), legal spots, lit tiles, clan members and where they step, the
choice panel's buttons; they press Enter for Done / End turn, C for a chieftain, L for Loch
Ness, 1 for the first tile within reach, Ctrl+Z once to take a placement back; and they lift
the curtain whenever the screen passes to the other player.
"""

from __future__ import annotations

import time
from typing import Any

import pygame
import pytest

from game.ui.app import App
from tests.ui.conftest import click, click_at, frame, press, run_until


def _choose(app: App, widget_id: str, value: Any) -> None:
    setup = app.top
    assert setup is not None
    choice = setup.widget(widget_id)
    for _ in range(40):
        if choice.value == value:  # type: ignore[attr-defined]
            return
        click_at(app, (choice.rect.right - 8, choice.rect.centery))
    raise AssertionError(f"{widget_id} never showed {value}")


def _setup(app: App, players: int, kinds: list[str]) -> None:
    click(app, "play_local")
    assert app.top is not None and app.top.name == "setup"
    _choose(app, "game", "glen-more")
    _choose(app, "players", players)
    for i, kind in enumerate(kinds[1:], start=1):
        _choose(app, f"seat_kind_{i}", kind)
    specs = app.top.seat_specs()  # type: ignore[attr-defined]
    assert [s.kind for s in specs] == [k.split(":")[0] for k in kinds]


def _point(view: Any, cell: tuple[int, int]) -> tuple[int, int]:
    x, y = view.big_grid.centre(*cell)
    return (int(x), int(y))


def _pick(legal: list[tuple[Any, ...]], tried: dict[str, int]) -> tuple[Any, ...]:
    """What the player does: try a purchase, a sale, keys and Loch Ness once each; otherwise
    the first action listed that is not a sale (the engine lists the step's actions first)."""
    for kind in ("buy", "loch_ness", "chieftain"):
        if not tried.get(kind):
            found = [a for a in legal if a[0] == kind]
            if found:
                return found[0]
    sells = [a for a in legal if a[0] == "sell"]
    if sells and not tried.get("sell") and legal[0][0] == "take":
        return sells[0]
    # A payment may need coins first: then selling is all there is to do.
    return next((a for a in legal if a[0] != "sell"), legal[0])


def _act(app: App, scene: Any, action: tuple[Any, ...], tried: dict[str, int]) -> None:
    """Choose ``action`` the way a player does, with clicks and keys."""
    view = scene.view
    kind = action[0]
    tried[kind] = tried.get(kind, 0) + 1
    if (
        kind == "take"
        and action == view.acts.takes.get(view.reachable_slots()[0])
        and not tried.get("key1")
    ):
        tried["key1"] = 1
        press(app, pygame.K_1)
    elif kind in ("take", "discard", "pay", "option", "resource"):
        if kind in ("option", "resource"):
            for _ in range(40):
                if view.target(action) is not None:
                    break
                pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False))
                app.mouse = view.choice_panel.rect.center
                app.step()
        click_at(app, view.target(action))
    elif kind == "buy":
        click_at(app, view.target(action))
        assert view.trade == action, "the purchase waits for Confirm"
        press(app, pygame.K_RETURN)
    elif kind == "sell":
        click_at(app, view.target(action))
        if view.trade != action:
            click_at(app, _point(view, (action[1], action[2])))
        assert view.trade == action
        click(app, "gm_trade_confirm")
    elif kind in ("place", "activate", "pay_clan"):
        click_at(app, _point(view, (action[1], action[2])))
    elif kind == "loch_ness":
        if (action[1], action[2]) in view.acts.activates and not view.ness_mode:
            press(app, pygame.K_l)
        click_at(app, _point(view, (action[1], action[2])))
    elif kind in ("move", "chieftain"):
        src = (action[1], action[2])
        if view.move_from not in (None, src):
            press(app, pygame.K_BACKSPACE)
        if view.move_from != src:
            click_at(app, _point(view, src))
        assert view.move_from == src
        if kind == "chieftain":
            press(app, pygame.K_c)
        else:
            click_at(app, _point(view, (action[3], action[4])))
    elif kind in ("done", "end"):
        press(app, pygame.K_RETURN)
    else:
        raise AssertionError(f"cannot play {action}")


def _human_move(app: App, tried: dict[str, int]) -> None:
    scene = app.top
    assert scene is not None and scene.name == "game"
    seat = scene.shown  # type: ignore[attr-defined]
    client = scene.client  # type: ignore[attr-defined]
    before = client.state_of(seat)["seq"]
    before_view = client.state_of(seat)["view"]
    legal = list(scene.view.legal)  # type: ignore[attr-defined]
    action = _pick(legal, tried)
    _act(app, scene, action, tried)
    run_until(app, lambda: client.state_of(seat)["seq"] > before or bool(client.game_over))
    if action[0] == "place" and not tried.get("undo") and client.can_undo(seat):
        tried["undo"] = 1
        after = client.state_of(seat)["seq"]
        press(app, pygame.K_z, pygame.KMOD_CTRL)
        run_until(app, lambda: client.state_of(seat)["seq"] > after)
        now = client.state_of(seat)["view"]
        assert now["seats"] == before_view["seats"], "the host restored the position"
        assert now["pending"]["phase"] == "place"


def _play_to_results(app: App, deadline_s: float) -> tuple[int, dict[str, int], set[str]]:
    curtains = 0
    tried: dict[str, int] = {}
    seen_phases: set[str] = set()
    deadline = time.monotonic() + deadline_s
    run_until(app, lambda: app.top is not None and app.top.name in ("game", "curtain"))
    while app.top is not None and app.top.name != "results":
        assert time.monotonic() < deadline, f"the game did not end: {app.top.name}"
        top = app.top
        if top.name == "curtain":
            curtains += 1
            click(app, "curtain_ready")
            continue
        if top.name != "game":
            frame(app)
            continue
        seat = top.shown  # type: ignore[attr-defined]
        client = top.client  # type: ignore[attr-defined]
        msg = client.state_of(seat) if seat is not None else None
        if client.game_over is not None or msg is None or not top.view.legal or seat in client.busy:  # type: ignore[attr-defined]
            frame(app)
            continue
        seen_phases.add(top.view.phase)  # type: ignore[attr-defined]
        _human_move(app, tried)
    return curtains, tried, seen_phases


@pytest.mark.parametrize(
    "players,kinds",
    [
        (2, ["human", "human"]),
        (4, ["human", "bot:easy", "human", "bot:normal"]),
    ],
    ids=["2-players", "4-players"],
)
def test_glen_more_hot_seat_from_menu_to_results(app: App, players: int, kinds: list[str]) -> None:
    from game.ui.scenes.menu import MenuScene

    app.push(MenuScene(app))
    app.step()
    _setup(app, players, kinds)
    click(app, "start")
    curtains, tried, phases = _play_to_results(app, 240)
    assert curtains >= 2, "the curtain comes up between the two players at this computer"
    assert {"take", "place", "activate"} <= phases
    assert tried.get("undo") and tried.get("buy") and tried.get("key1")
    results = app.top
    assert results is not None
    result = results.result  # type: ignore[attr-defined]
    assert len(result["scores"]) == players and result["winners"]
    categories = [key for key, _name in results.categories]  # type: ignore[attr-defined]
    assert categories[:4] == ["tile_points", "scoring_1", "scoring_2", "scoring_3"]
    for score in result["scores"]:
        assert score["total"] == sum(v for k, v in score.items() if k != "total")
    app.step()
    click(app, "back")
    assert app.top is not None and app.top.name == "game"


def test_a_saved_glen_more_game_continues_where_it_stopped(app: App, env: Any) -> None:
    from game.ui.client import SeatSpec
    from game.ui.local_game import start_local_game
    from game.ui.scenes.files import FilesScene
    from game.ui.scenes.menu import MenuScene
    from game.ui.scenes.setup import StartingScene

    app.push(MenuScene(app))
    specs = [SeatSpec("human", "Ann", "red"), SeatSpec("bot", "Bot", "blue", "easy")]
    client = start_local_game("glen-more", specs, {}, seed=4)
    app.push(StartingScene(app, client, 2))
    run_until(app, lambda: app.top is not None and app.top.name == "game")
    game = app.top
    # No undo here: the resumed host counts actions, not the changes an undo adds.
    tried = {"buy": 1, "loch_ness": 1, "chieftain": 1, "sell": 1, "key1": 1, "undo": 1}
    # Play (by clicks) until Ann has placed two tiles; the bot plays its own turns.
    while len(game.view.view.get("seats", [{}])[0].get("tiles", [])) < 3:  # type: ignore[attr-defined]
        run_until(app, lambda: bool(game.view.legal) and 0 not in game.client.busy)  # type: ignore[attr-defined]
        _human_move(app, tried)
    seq = game.client.state_of(0)["seq"]  # type: ignore[attr-defined]
    tiles = game.view.view["seats"][0]["tiles"]  # type: ignore[attr-defined]
    game.leave_table()  # type: ignore[attr-defined]
    assert app.top is not None and app.top.name == "menu"
    files = app.push(FilesScene(app, "saves"))
    app.step()
    listbox = files.widget("files")
    assert len(listbox.items) == 1  # type: ignore[attr-defined]
    listbox.select(0)  # type: ignore[attr-defined]
    click(app, "open_file")
    run_until(app, lambda: app.top is not None and app.top.name == "game")
    resumed = app.top
    run_until(app, lambda: bool(resumed.view.view))  # type: ignore[attr-defined]
    assert resumed.client.local_seats == [0]  # type: ignore[attr-defined]
    now = resumed.view.view["seats"][0]["tiles"]  # type: ignore[attr-defined]
    # A territory only grows: every tile placed before the save is where it was.
    assert {(t["tile"], t["row"], t["col"]) for t in tiles} <= {
        (t["tile"], t["row"], t["col"]) for t in now
    }
    assert resumed.client.latest()["seq"] >= seq  # type: ignore[attr-defined]
    assert resumed.view.territories[0]  # type: ignore[attr-defined]
    resumed.leave_table()  # type: ignore[attr-defined]
