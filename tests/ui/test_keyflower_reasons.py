"""Keyflower's refusals speak every language: each ``IllegalAction`` the engine raises
(``game/keyflower/explain.py``) carries a ``key`` with plain ``params``, and the client's
catalogue has ``reason.keyflower.<key>`` in English, Japanese and Dutch using only those params
— checked on many refused actions of random games (what the table's clicks ask for, odd
tuples of every kind, the seats not to move), and on a real refused click in Japanese."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pygame
import pytest

from game.bots import make_bot
from game.core.registry import get_game
from game.keyflower import explain as kf_explain
from game.keyflower.const import ACTION_KINDS, STAGES
from game.keyflower.tiles import TILES
from game.ui import i18n
from game.ui.app import App
from game.ui.client import SeatSpec, TableClient
from game.ui.games.base import SeatInfo
from game.ui.games.keyflower import KeyflowerView
from game.ui.games.keyflower.text import colour_name, tile_name
from game.ui.local_game import start_local_game
from tests.ui.conftest import click_at, make_app, run_until
from tests.ui.test_i18n import fields

PREFIX = "reason.keyflower."
TILE_IDS = [t.id for t in TILES]
COLOURS = ["red", "blue", "yellow", "green", "purple", 7]
ODD = ["pass", "done", "x", "", 3, None]


@pytest.fixture
def kf_app(env: Any) -> Any:
    application = make_app((1024, 640))
    yield application
    application.shutdown()


def _view(app: App, players: int) -> KeyflowerView:
    seats = [SeatInfo(i, f"P{i + 1}", "red", "human", True) for i in range(players)]
    view = KeyflowerView(app, seats)
    view.layout(pygame.Rect(8, 60, app.size[0] - 16, app.size[1] - 68), 140)
    return view


def _show(view: KeyflowerView, state: Any, seat: int) -> None:
    legal = state.legal_actions(seat) if seat in state.to_move() else []
    view.set_turn(list(state.to_move()), state.turn_id(), None)
    view.set_view(state.view(seat), legal, [])
    view.draw(view.app.screen)


def _intents(view: KeyflowerView) -> list[tuple[Any, ...]]:
    """What a click on every target the table draws asks for (hexes for a tile to place)."""
    if view._phase() == "place" and view._place_tile() is not None:
        cells = [(q, r) for q in range(-3, 4) for r in range(-3, 4)]
        points = [tuple(round(v) for v in view.big_grid.centre(*c)) for c in cells]
    else:
        points = [
            (round(h.centre[0]), round(h.centre[1])) if h.hex_r else h.rect.center
            for h in view.hits
        ]
    out = []
    for pos in points:
        intent = view.intent(pos)
        if intent is not None:
            out.append(tuple(intent))
    return out


def _odd_tuples(rng: random.Random) -> list[tuple[Any, ...]]:
    """Actions of every kind with random (often wrong) arguments, and some odd shapes."""
    out: list[tuple[Any, ...]] = []
    for kind in ACTION_KINDS:
        for _ in range(3):
            tile = rng.choice([*TILE_IDS, "nope", 5])
            colour = rng.choice(COLOURS)
            n = rng.randrange(-1, 5)
            shapes = {
                "bid": (kind, tile, colour, n),
                "use": (kind, tile, colour, n),
                "move": (kind, tile, rng.choice(["wood", "stone", "iron", "gold", "x"])),
                "upgrade": (kind, tile, *[rng.randrange(2) for _ in range(7)]),
                "place": (kind, tile, rng.randrange(-3, 4), rng.randrange(-3, 4), 0),
                "winter_tiles": (kind, *rng.sample(TILE_IDS, 2)),
                "pay_keyple": (kind, colour),
                "keyple": (kind, colour),
                "pay_skill": (kind, rng.choice(["saw", "pickaxe", "anvil", "x"])),
                "resource": (kind, rng.choice(["wood", "stone", "iron", "gold", "x"])),
                "pass": (kind,),
                "done": (kind,),
            }
            out.append(shapes.get(kind, (kind, tile)))
    out += [(rng.choice(ODD),), ("nope", 1, 2), ("bid", "home_1")]
    return out


def _refusals(
    app: App, seed: int, players: int, steps: int = 240
) -> list[tuple[tuple[Any, ...], Any]]:
    """(action, IllegalAction) for refused actions along a random game: what the view's clicks
    ask for, odd tuples of every kind, and the seats not to move."""
    rng = random.Random(seed)
    state = get_game("keyflower").new(players, {}, seed)
    bots = [make_bot("random", seed + s) for s in range(players)]
    view = _view(app, players)
    out = []
    for step in range(steps):
        if state.is_over():
            break
        movers = state.to_move()
        seat = movers[0]
        if step % 10 == 0:
            legal = set(state.legal_actions(seat))
            tries = _odd_tuples(rng)
            if step % 20 == 0:
                _show(view, state, seat)
                tries += _intents(view)
            for action in tries:
                if action in legal:
                    continue
                refusal = state.why_not(seat, action)
                assert refusal is not None, action
                out.append((action, refusal))
            for other in range(players):
                if other not in movers:
                    turn = state.why_not(other, ("pass",))
                    assert turn is not None
                    out.append((("pass",), turn))
                    # The engine's own answer too (the contract answers first on the table).
                    out.append((("pass",), state.explain_illegal(other, ("bid", "nope", 1, 1))))
        state.apply(seat, bots[seat].choose(state, seat))
    return out


def _check(view: KeyflowerView, refusal: Any) -> str:
    reason = refusal.reason()
    key = reason["key"]
    assert key, str(refusal)
    assert all(isinstance(v, (str, int)) for v in reason["params"].values()), reason
    for code in ("en", "ja", "nl"):
        # The game's entry, or the shared one (the contract's refusals: game over, not your
        # turn, malformed), whose fields the params fill.
        cat = i18n.catalogue(code)
        names = [n for n in (PREFIX + key, f"reason.{key}") if n in cat]
        assert any(fields(cat[n]) <= set(reason["params"]) for n in names), (code, key, reason)
    text = view.reason_text(reason)
    assert text and "{" not in text, (key, text)
    return str(key)


def test_every_refusal_has_a_key_and_a_translation_using_its_params(kf_app: App) -> None:
    view = _view(kf_app, 6)
    keys: set[str] = set()
    for seed, players in ((1, 2), (2, 4), (3, 5)):
        refusals = _refusals(kf_app, seed, players)
        assert len(refusals) > 100
        for _action, refusal in refusals:
            keys.add(_check(view, refusal))
    # The refusals a player meets most are among them.
    assert {"bid_colour_raise", "not_your_turn", "step_start", "use_ladder"} <= keys, keys
    assert len(keys) >= 15, keys


def test_a_finished_game_refuses_with_a_key(kf_app: App) -> None:
    state = get_game("keyflower").new(2, {}, 4)
    bots = [make_bot("random", 40 + s) for s in range(2)]
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, bots[seat].choose(state, seat))
    view = _view(kf_app, 2)
    assert _check(view, state.why_not(0, ("pass",))) == "game_over"
    assert _check(view, state.explain_illegal(0, ("pass",))) == "game_over"


def test_every_key_the_engine_names_is_translated() -> None:
    """The keys written in ``explain.py`` (literal, and the family built from the turn's step)
    all have their catalogue entry, in every language."""
    source = Path(kf_explain.__file__).read_text("utf-8")
    literal = set(re.findall(r'key="([a-z_]+)"', source))
    literal |= {f"step_{stage}" for stage in STAGES}
    literal -= {"game_over"}  # the shared entry says it
    assert len(literal) > 30
    for code in ("en", "ja", "nl"):
        cat = i18n.catalogue(code)
        missing = sorted(k for k in literal if PREFIX + k not in cat)
        assert missing == [], (code, missing)
        assert "reason.game_over" in cat


def test_the_view_names_tiles_and_colours_in_the_chosen_language(kf_app: App) -> None:
    view = _view(kf_app, 2)
    reason = {
        "text": "x",
        "key": "not_enough_keyples",
        "params": {"colour": "red", "n": 3, "have": 1},
    }
    tile = TILE_IDS[10]
    bid = {"text": "x", "key": "bid_colour_raise", "params": {"tile": tile}}
    try:
        assert view.reason_text(reason) == (
            "Not enough red keyples behind your screen: you have 1, and this needs 3."
        )
        i18n.set_language("ja")
        assert view.reason_text(reason) == (
            "ついたての後ろの赤のキープルが足りません：3個必要ですが、1個しかありません。"
        )
        assert view.reason_text(bid).startswith(tile_name(tile) + "への入札は")
        i18n.set_language("nl")
        assert view.reason_text(reason) == (
            "Niet genoeg keyples (rood) achter je scherm: je hebt er 1, en dit vraagt er 3."
        )
    finally:
        i18n.set_language("en")


def _my_turn(app: App) -> tuple[Any, TableClient]:
    from game.ui.scenes.game import GameScene

    client = start_local_game(
        "keyflower",
        [SeatSpec("human", "Ann", "red"), SeatSpec("bot", "Bot", "blue", "random")],
        {},
        seed=5,
        bot_delay=0,
    )
    app.push(GameScene(app, client, 2))
    game = app.top
    assert game is not None and game.name == "game"
    run_until(
        app,
        lambda: bool(game.view.legal) and 0 not in client.busy and 0 in client.to_move(),  # type: ignore[attr-defined]
    )
    return game, client


def _refused_target(view: Any) -> tuple[tuple[int, int], tuple[Any, ...]] | None:
    """A point of the table whose click asks for an action the rules refuse now."""
    legal = set(view.legal)
    for hit in view.hits:
        pos = (round(hit.centre[0]), round(hit.centre[1])) if hit.hex_r else hit.rect.center
        intent = view.intent(pos)
        if intent is not None and tuple(intent) not in legal:
            return pos, tuple(intent)
    return None


def _seq(client: TableClient) -> int:
    state = client.state_of(0)
    assert state is not None
    return int(state["seq"])


def _my_turn_again(app: App, game: Any, client: TableClient) -> None:
    run_until(
        app,
        lambda: (
            client.game_over is not None
            or (bool(game.view.legal) and 0 not in client.busy and 0 in client.to_move())
        ),
    )
    assert client.game_over is None


def test_a_refused_click_says_why_in_japanese(app: App) -> None:
    """Through the real in-process host: a click on a tile the rules refuse shows the host's
    reason at the pointer in Japanese, with the tile's Japanese name."""
    app.apply_language("ja")
    try:
        game, client = _my_turn(app)
        rng = random.Random(2)
        target = _refused_target(game.view)
        for _ in range(30):
            if target is not None:
                break
            # Everything on the table is open at first: play on until something is refused.
            seq = _seq(client)
            game.act(rng.choice([a for a in game.view.legal if a[0] != "pass"] or game.view.legal))
            run_until(app, lambda s=seq: _seq(client) > s)  # type: ignore[misc]
            _my_turn_again(app, game, client)
            target = _refused_target(game.view)
        assert target is not None, "a refused target on the table"
        pos, action = target
        seq = _seq(client)
        click_at(app, pos)
        assert game.refusal is not None and game.refusal[1] == action
        run_until(app, lambda: game._refusal_shown())
        reason = game._why[action]
        assert reason["key"], reason
        params = dict(reason["params"])
        if "tile" in params:
            params["tile"] = tile_name(params["tile"])
        if "colour" in params:
            params["colour"] = colour_name(params["colour"])
        expected = i18n.t(PREFIX + reason["key"], **params)
        assert re.search("[\u3040-\u30ff\u4e00-\u9fff]", expected), expected
        assert game.refusal_text(action) == i18n.t("game.refused", reason=expected)
        assert _seq(client) == seq, "nothing was sent to the host but the question"
        app.step()  # drawn
    finally:
        app.apply_language("en")
