"""What a click on the Glen More table asks for (``GlenMoreView.intent``), legal or not, so the
game scene can ask the host why a refused one is refused and say so at the pointer.

On random games (the view alone, no host): every point a player can click — each track space,
each Buy and Sell button, each cube, each cell around the seat's territory, each option of the
choice box — asks for an action of the engine's shape that the engine either allows (then it is
in the legal list) or refuses with a rule's key (never a malformed or "not your turn" answer);
each legal action's target asks for that very action; nothing is asked for out of turn.

Through the real in-process host and the game scene, in Japanese: a click on a tile of the track
the seat cannot pay and place (GM §4.1 D9), on a cell of its territory where the taken tile may
not go (GM §4.2: a corner only, far from clan members, no edge), and on a tile or market button
whose activation or trade the rules refuse (GM §4.3, §6) shows the host's reason at the pointer;
hovering over a refused target puts the reason in the tooltip."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pygame
import pytest

from game.bots import make_bot
from game.core.registry import get_game
from game.ui import i18n
from game.ui.app import App
from game.ui.client import SeatSpec, TableClient
from game.ui.games.base import SeatInfo
from game.ui.games.glen_more import GlenMoreView
from game.ui.games.glen_more.text import tile_name
from game.ui.local_game import start_local_game
from tests.ui.conftest import click_at, make_app, run_until

JAPANESE = re.compile("[\u3040-\u30ff\u4e00-\u9fff]")
#: Answers a click of the table must never get: it asks in the engine's shape, in its turn.
NEVER = {"bad_shape", "unknown_action", "not_your_turn", "game_over", "not_legal_now"}
#: GM §4.1 D9: a tile the seat cannot pay for and place, or whose whisky it lacks.
TRACK_KEYS = {"take_cannot", "take_whisky"}
#: GM §4.2: where the taken tile may not go (a corner of the territory, no clan member near).
PLACE_KEYS = {"corner_only", "no_clan_near"}
#: GM §4.3 activation, §8 Loch Ness, §6 the market: refusals of the rule itself (not the step).
ACTIVATE_OR_MARKET_KEYS = {
    "not_activatable",
    "activate_nothing",
    "loch_ness_used",
    "pay_not_needed",
    "pay_blocks",
    "buy_row_full",
    "buy_no_coins",
    "buy_blocks",
    "sell_no_coins",
}


@pytest.fixture
def gm_app(env: Any) -> Iterator[App]:
    application = make_app((1024, 640))
    yield application
    application.shutdown()


# ---- the view alone, on random games ------------------------------------------------------------
def _view(app: App, players: int) -> GlenMoreView:
    seats = [SeatInfo(i, f"P{i + 1}", "red", "human", True) for i in range(players)]
    view = GlenMoreView(app, seats)
    view.layout(pygame.Rect(8, 60, app.size[0] - 16, app.size[1] - 68), 140)
    return view


def _show(view: GlenMoreView, state: Any, seat: int) -> list[tuple[Any, ...]]:
    legal = state.legal_actions(seat) if seat in state.to_move() else []
    view.set_turn(list(state.to_move()), state.turn_id(), None)
    view._question = ()  # each position is a fresh decision (no armed trade or selection)
    view.set_view(state.view(seat), legal, [])
    view.draw(view.app.screen)
    return [tuple(a) for a in legal]


def _points(view: GlenMoreView) -> list[tuple[int, int]]:
    """Every point a player may click: track spaces, market buttons, cubes, the cells in and
    around the shown territory, the options of the choice box."""
    out = [r.center for r in view.slot_rects.values()]
    out += [r.center for r in (*view.buy_rects.values(), *view.sell_rects.values())]
    out += [box.center for box, _seat, _cell, _res in view.cube_rects]
    out += [o.rect.center for o in view.choice_panel.options]
    grid, seat = view.big_grid, view.big_seat()
    if grid is not None and seat < len(view.territories) and view.territories[seat]:
        rows = [r for r, _ in view.territories[seat]]
        cols = [c for _, c in view.territories[seat]]
        for r in range(min(rows) - 2, max(rows) + 3):
            for c in range(min(cols) - 2, max(cols) + 3):
                x, y = grid.centre(r, c)
                if view.rects.grid.collidepoint(x, y):
                    out.append((int(x), int(y)))
    return out


def _check_position(view: GlenMoreView, state: Any, seat: int, keys: set[str]) -> None:
    legal = _show(view, state, seat)
    for pos in _points(view):
        intent = view.intent(pos)
        if intent is None:
            continue
        action = tuple(intent)
        refusal = state.why_not(seat, action)
        assert (refusal is None) == (action in legal), (action, refusal)
        if refusal is not None:
            assert refusal.key not in NEVER, (action, refusal)
            text = view.reason_text(refusal.reason())
            assert text and "{" not in text, (action, text)
            keys.add(refusal.key)
    for action in legal:
        point = view.target(action)
        if point is None:
            continue
        intent = view.intent(point)
        assert intent is not None and tuple(intent) in legal, (action, intent)
        kind = action[0]
        same = kind in ("take", "discard", "buy", "pay", "place", "activate", "option", "resource")
        if kind == "chieftain" and view.move_from in (None, (action[1], action[2])):
            same = True
        if same:
            assert tuple(intent) == action, (action, intent)
        if kind == "move" and view.move_from == (action[1], action[2]) and view.big_grid:
            # The clan member is chosen (its cell is the target): where it steps asks for it.
            x, y = view.big_grid.centre(action[3], action[4])
            assert view.intent((int(x), int(y))) == action


def test_every_click_asks_in_the_engine_shape_and_legal_targets_ask_for_themselves(
    gm_app: App,
) -> None:
    keys: set[str] = set()
    positions = 0
    for seed, players in ((1, 2), (2, 3), (3, 4)):
        state = get_game("glen-more").new(players, {}, seed)
        bots = [make_bot("random", seed * 10 + s) for s in range(players)]
        view = _view(gm_app, players)
        for step in range(260):
            if state.is_over():
                break
            seat = state.to_move()[0]
            if step % 5 == 0:
                _check_position(view, state, seat, keys)
                positions += 1
                # The seats not to move: no click of theirs asks for anything.
                other = (seat + 1) % players
                _show(view, state, other)
                assert all(view.intent(p) is None for p in _points(view))
            state.apply(seat, bots[seat].choose(state, seat))
    assert positions > 100
    # Every kind of step is met, with the engine's reasons for it.
    assert {"take_cannot", "no_edge", "corner_only", "cell_taken", "not_activatable"} <= keys
    assert {"slot_empty", "no_cube", "step_take", "step_activate", "move_own_tiles"} <= keys
    assert len(keys) >= 18, keys


def test_nothing_is_asked_when_the_game_is_over(gm_app: App) -> None:
    state = get_game("glen-more").new(2, {}, 4)
    bots = [make_bot("random", 40 + s) for s in range(2)]
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, bots[seat].choose(state, seat))
    view = _view(gm_app, 2)
    _show(view, state, 0)
    assert all(view.intent(p) is None for p in _points(view))


# ---- through the host and the game scene, in Japanese ------------------------------------------
def _my_turn(app: App, seed: int) -> tuple[Any, TableClient]:
    from game.ui.scenes.game import GameScene

    client = start_local_game(
        "glen-more",
        [SeatSpec("human", "Ann", "red"), SeatSpec("bot", "Bot", "blue", "random")],
        {},
        seed=seed,
        bot_delay=0,
    )
    app.push(GameScene(app, client, 2))
    game = app.top
    assert game is not None and game.name == "game"
    _wait_my_turn(app, game, client)
    return game, client


def _wait_my_turn(app: App, game: Any, client: TableClient) -> None:
    run_until(
        app,
        lambda: (
            client.game_over is not None
            or (bool(game.view.legal) and 0 not in client.busy and 0 in client.to_move())
        ),
    )
    assert client.game_over is None


def _seq(client: TableClient) -> int:
    state = client.state_of(0)
    assert state is not None
    return int(state["seq"])


Finder = Callable[[Any], "tuple[tuple[int, int], tuple[Any, ...]] | None"]


def _refused(view: Any, kinds: set[str]) -> list[tuple[tuple[int, int], tuple[Any, ...]]]:
    """The points of the table whose click asks for an action of ``kinds`` refused now."""
    legal = set(view.legal)
    out = []
    for pos in _points(view):
        intent = view.intent(pos)
        if intent is not None and intent[0] in kinds and tuple(intent) not in legal:
            out.append((pos, tuple(intent)))
    return out


def _reason_of(app: App, game: Any, pos: tuple[int, int], action: tuple[Any, ...]) -> Any:
    """Click at ``pos``; the host's reason for ``action`` is shown at the pointer."""
    seq = _seq(client := game.client)
    click_at(app, pos)
    assert game.refusal is not None and game.refusal[1] == action
    run_until(app, lambda: game._refusal_shown())
    assert _seq(client) == seq, "nothing was sent to the host but the question"
    return game._why[action]


def _play_until(
    app: App,
    game: Any,
    client: TableClient,
    kinds: set[str],
    keys: set[str],
    rng: random.Random,
    prefer: Callable[[tuple[Any, ...]], bool] = lambda a: a[0] != "sell",
    steps: int = 80,
    hover: bool = False,
) -> tuple[tuple[int, int], tuple[Any, ...], dict[str, Any]]:
    """Play the human seat on (the bot plays the other) until a click on the table asks for
    an action of ``kinds`` that the host refuses with one of ``keys``; the candidates are
    clicked (or, with ``hover``, the mouse rests on them) and the found point, action and
    reason returned."""
    asked: set[tuple[Any, ...]] = set()
    for _ in range(steps):
        for pos, action in _refused(game.view, kinds):
            if action in asked:
                continue
            asked.add(action)
            if hover:
                _hover_says(app, game, pos, action)
                reason = game._why[action]
            else:
                reason = _reason_of(app, game, pos, action)
            if reason["key"] in keys:
                return pos, action, reason
        legal = list(game.view.legal)
        seq = _seq(client)
        game.act(rng.choice([a for a in legal if prefer(a)] or legal))
        run_until(app, lambda s=seq: _seq(client) > s)  # type: ignore[misc]
        _wait_my_turn(app, game, client)
        asked.clear()
    raise AssertionError(f"no refused {kinds} with {keys} on the table")


def _hover_says(app: App, game: Any, pos: tuple[int, int], action: tuple[Any, ...]) -> str:
    """The mouse comes to rest on ``pos`` (never clicked): the scene asks the host why and the
    tooltip starts with the reason, the target's own text under it."""
    assert action not in game._why_asked
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    )
    run_until(app, lambda: bool(game._why.get(action)))
    assert not game._refusal_shown()  # the mouse left the clicked point
    text = game.refusal_text(action)
    tip = game.tooltip_at(pos)
    assert text and tip.startswith(text), (text, tip)
    hover = game.view.hover(pos)
    assert tip == (text + "\n" + hover if hover else text)
    return text


def _says_japanese(game: Any, action: tuple[Any, ...], reason: dict[str, Any]) -> str:
    text = game.refusal_text(action)
    expected = i18n.t(
        "reason.glen-more." + reason["key"], **game.view.reason_params(dict(reason["params"]))
    )
    assert JAPANESE.search(expected), expected
    assert text == i18n.t("game.refused", reason=expected)
    return text


def test_a_refused_tile_of_the_track_says_why_at_the_pointer_and_on_hover(app: App) -> None:
    """GM §4.1 D9: a tile the seat cannot pay for and place is refused, in Japanese, in the
    tooltip while the mouse rests on it, and at the pointer when it is clicked."""
    app.apply_language("ja")
    try:
        game, client = _my_turn(app, 5)
        rng = random.Random(3)
        pos, action, reason = _play_until(
            app, game, client, {"take"}, TRACK_KEYS, rng, lambda a: a[0] == "take", hover=True
        )
        assert action[0] == "take" and reason["key"] in TRACK_KEYS
        tile = game.view.view["track"][action[1]]["tile"]
        assert reason["params"] == {"tile": tile}
        text = _says_japanese(game, action, reason)
        assert tile_name(tile) in text
        # Then the click: the same reason in a bubble at the pointer (the tooltip gives way).
        assert _reason_of(app, game, pos, action) == reason
        assert game.tooltip_at(pos) == ""
        app.step()  # the bubble is drawn
    finally:
        app.apply_language("en")


def test_a_refused_cell_for_the_taken_tile_says_why_in_japanese(app: App) -> None:
    """GM §4.2: a cell of the territory where the taken tile may not go (a corner only, no
    clan member near, no edge) is refused at the pointer in Japanese."""
    app.apply_language("ja")
    try:
        game, client = _my_turn(app, 7)
        rng = random.Random(4)
        pos, action, reason = _play_until(app, game, client, {"place"}, PLACE_KEYS, rng)
        assert action[0] == "place" and game.view.phase == "place"
        assert reason["key"] in PLACE_KEYS
        _says_japanese(game, action, reason)
        # The cell with its own reason: a corner of the territory, or far from clan members.
        cell = (action[1], action[2])
        tiles = game.view.territories[0]
        assert cell not in tiles
        assert game.view.big_grid.cell_at(*pos) == cell
        app.step()
        # Hover over another refused cell: the reason is in the tooltip.
        others = [
            (p, a)
            for p, a in _refused(game.view, {"place"})
            if a not in game._why_asked and (p[0] - pos[0]) ** 2 + (p[1] - pos[1]) ** 2 > 80**2
        ]
        assert others, "a second refused cell"
        hover_pos, hover_action = others[0]
        assert JAPANESE.search(_hover_says(app, game, hover_pos, hover_action))
        assert game._why[hover_action]["key"] in PLACE_KEYS | {"no_edge", "cell_taken"}
    finally:
        app.apply_language("en")


def test_a_refused_activation_or_trade_says_why_in_japanese(app: App) -> None:
    """GM §4.3 / §6: a tile whose activation, or a market button whose trade, the rules refuse
    (not merely the step of the turn) is refused at the pointer in Japanese."""
    app.apply_language("ja")
    try:
        game, client = _my_turn(app, 9)
        rng = random.Random(5)
        kinds = {"activate", "loch_ness", "buy", "sell", "pay"}
        _pos, action, reason = _play_until(app, game, client, kinds, ACTIVATE_OR_MARKET_KEYS, rng)
        assert action[0] in kinds and reason["key"] in ACTIVATE_OR_MARKET_KEYS
        _says_japanese(game, action, reason)
        app.step()
    finally:
        app.apply_language("en")
