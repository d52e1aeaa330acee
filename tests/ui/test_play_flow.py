"""A whole hot-seat Kingdom Builder game driven through the window, from the main menu to the
results, with posted mouse and key events only.

Two human seats share the computer (so the curtain must come up between them) and one bot
plays the third seat.  The human "players" click highlighted hexes (pixel -> hex hit-testing),
their tile buttons, the curtain, and press Enter to end their turns; undo is tried on the way.
"""

from __future__ import annotations

import time

import pygame

from game.ui.app import App
from game.ui.games.kingdom_builder.common import BOARD_ACTIONS
from tests.ui.conftest import click, click_at, frame, press, run_until


def _setup_hot_seat(app: App) -> None:
    click(app, "play_local")
    assert app.top is not None and app.top.name == "setup"
    setup = app.top
    # 3 players: seat 1 and seat 2 human, seat 3 an easy bot.
    players = setup.widget("players")
    while players.value != 3:  # type: ignore[attr-defined]
        click_at(app, (players.rect.right - 8, players.rect.centery))
    kind2 = setup.widget("seat_kind_1")
    while kind2.value != "human":  # type: ignore[attr-defined]
        click_at(app, (kind2.rect.right - 8, kind2.rect.centery))
    kind3 = setup.widget("seat_kind_2")
    while kind3.value != "bot:easy":  # type: ignore[attr-defined]
        click_at(app, (kind3.rect.right - 8, kind3.rect.centery))
    specs = setup.seat_specs()  # type: ignore[attr-defined]
    assert [s.kind for s in specs] == ["human", "human", "bot"]
    assert len({s.colour for s in specs}) == 3


def _human_move(app: App, tried: dict[str, bool]) -> None:
    """One action for the human seat on screen, chosen like a player would, by clicking."""
    scene = app.top
    assert scene is not None and scene.name == "game"
    view = scene.view  # type: ignore[attr-defined]
    legal = view.legal
    seat = scene.shown  # type: ignore[attr-defined]
    before = scene.client.state_of(seat)["seq"]  # type: ignore[attr-defined]
    before_view = scene.client.state_of(seat)["view"]  # type: ignore[attr-defined]
    uses = [a for a in legal if a[0] == "use"]
    hexes = [a for a in legal if a[0] in BOARD_ACTIONS]  # Nomads: a Sword's "remove" too
    if uses and not tried.get("tile"):
        tried["tile"] = True
        rect = next(r for r, action, _t in view.tile_buttons if action == uses[0])
        click_at(app, rect.center)
    elif hexes:
        action = hexes[len(hexes) // 2]
        x, y = view.hexes.centre(action[1], action[2])
        assert view.click((int(x), int(y))) == action
        click_at(app, (x, y))
        if action[0] == "place" and not tried.get("undo") and scene.client.can_undo(seat):  # type: ignore[attr-defined]
            run_until(app, lambda: scene.client.state_of(seat)["seq"] > before)  # type: ignore[attr-defined]
            if scene.client.can_undo(seat):  # type: ignore[attr-defined]
                tried["undo"] = True
                after = scene.client.state_of(seat)["seq"]  # type: ignore[attr-defined]
                press(app, pygame.K_z, pygame.KMOD_CTRL)
                run_until(app, lambda: scene.client.state_of(seat)["seq"] > after)  # type: ignore[attr-defined]
                # The host restored the position before the click.
                now = scene.client.state_of(seat)["view"]  # type: ignore[attr-defined]
                assert now["seats"] == before_view["seats"]
                assert now["turn"] == before_view["turn"]
            return
    elif ("stop",) in legal:
        click(app, "stop")
    elif ("end",) in legal:
        press(app, pygame.K_RETURN)
    else:
        raise AssertionError(f"no action to take among {legal}")
    run_until(
        app, lambda: scene.client.state_of(seat)["seq"] > before or bool(scene.client.game_over)
    )  # type: ignore[attr-defined]


def test_hot_seat_game_from_menu_to_results(app: App) -> None:
    from game.ui.scenes.menu import MenuScene

    app.push(MenuScene(app))
    app.step()
    _setup_hot_seat(app)
    click(app, "start")
    curtains = 0
    tried: dict[str, bool] = {}
    deadline = time.monotonic() + 150
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
        msg = top.client.state_of(seat) if seat is not None else None  # type: ignore[attr-defined]
        if (
            top.client.game_over is not None
            or msg is None
            or not top.view.legal
            or seat in top.client.busy
        ):  # type: ignore[attr-defined]
            frame(app)
            continue
        _human_move(app, tried)
    assert curtains >= 2, "the curtain must come up between the two human seats"
    assert tried.get("tile") or tried.get("undo")
    results = app.top
    result = results.result  # type: ignore[attr-defined]
    assert len(result["scores"]) == 3
    assert result["winners"]
    # The results list every category and the total; they add up.
    for score in result["scores"]:
        assert score["total"] == sum(v for k, v in score.items() if k != "total")
    app.step()
    click(app, "back")
    assert app.top is not None and app.top.name == "game"
