"""Glen More's refusals speak every language: each ``IllegalAction`` the engine raises
(``game/glen_more/explain.py``, with the placement rules of ``grid.placement_problem``) carries a
``key`` with plain ``params``, and the client's catalogue has ``reason.glen-more.<key>`` in
English, Japanese and Dutch using only those params — checked on many refused actions of random
games (every kind on and around the territory, every track space, every resource, odd shapes,
the seats not to move), and shown in Japanese with the tile's Japanese name."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from game.bots import make_bot
from game.core.registry import get_game
from game.glen_more import explain as gm_explain
from game.glen_more import grid as G
from game.glen_more.codes import PHASES
from game.glen_more.tiles import KINDS, RESOURCES, TRACK_SLOTS
from game.ui import i18n
from game.ui.app import App
from game.ui.games.base import SeatInfo
from game.ui.games.glen_more import GlenMoreView
from game.ui.games.glen_more.text import res_name, tile_name
from tests.ui.conftest import make_app
from tests.ui.test_i18n import fields

PREFIX = "reason.glen-more."
KINDS_OF_CELL = ("place", "activate", "loch_ness", "pay_clan", "chieftain")


@pytest.fixture
def gm_app(env: Any) -> Iterator[App]:
    application = make_app((1024, 640))
    yield application
    application.shutdown()


def _view(app: App, players: int) -> GlenMoreView:
    seats = [SeatInfo(i, f"P{i + 1}", "red", "human", True) for i in range(players)]
    view = GlenMoreView(app, seats)
    view.layout(pygame.Rect(8, 60, app.size[0] - 16, app.size[1] - 68), 140)
    return view


def _tries(state: Any, rng: random.Random) -> list[tuple[Any, ...]]:
    """Actions of every kind: on and around the mover's territory, every track space, every
    resource and option, and odd shapes."""
    seat = state.cur
    cells = [G.row_col(c) for c in state.grid[seat]]
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    around = [
        (r, c)
        for r in range(min(rows) - 1, max(rows) + 2)
        for c in range(min(cols) - 1, max(cols) + 2)
    ]
    out: list[tuple[Any, ...]] = []
    for r, c in rng.sample(around, min(12, len(around))):
        out += [(kind, r, c) for kind in KINDS_OF_CELL]
        out.append(("move", r, c, r + rng.choice((-1, 0, 1, 2)), c + rng.choice((-1, 0, 1))))
        res = rng.choice(RESOURCES)
        out += [("pay", r, c, res), ("sell", r, c, res)]
    out += [(kind, slot) for kind in ("take", "discard") for slot in range(-1, TRACK_SLOTS + 1)]
    out += [(kind, res) for kind in ("buy", "resource") for res in RESOURCES]
    out += [("option", i) for i in range(-1, 5)]
    out += [("done",), ("end",), ("place", 200, 0), ("nope",), ("take", "x"), ("end", 1)]
    out += [("pay", 0, 0, "gold"), ("move", 0, 0), ("take",), ("",)]
    return out


def _refusals(seed: int, players: int, steps: int = 160) -> list[tuple[tuple[Any, ...], Any]]:
    """(action, IllegalAction) for refused actions along a random game, and the seats not to
    move (the contract's answer and the game's own)."""
    rng = random.Random(seed)
    state = get_game("glen-more").new(players, {}, seed)
    bots = [make_bot("random", seed * 10 + s) for s in range(players)]
    out = []
    for step in range(steps):
        if state.is_over():
            break
        seat = state.to_move()[0]
        if step % 4 == 0:
            legal = set(state.legal_actions(seat))
            for action in _tries(state, rng):
                if action in legal:
                    continue
                refusal = state.why_not(seat, action)
                assert refusal is not None, action
                out.append((action, refusal))
            other = (seat + 1) % players
            turn = state.why_not(other, ("end",))
            assert turn is not None
            out.append((("end",), turn))
            out.append((("end",), state.explain_illegal(other, ("end",))))
        state.apply(seat, bots[seat].choose(state, seat))
    return out


def _check(view: GlenMoreView, refusal: Any) -> str:
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


def test_every_refusal_has_a_key_and_a_translation_using_its_params(gm_app: App) -> None:
    view = _view(gm_app, 5)
    keys: set[str] = set()
    for seed, players in ((1, 2), (2, 3), (3, 5)):
        refusals = _refusals(seed, players)
        assert len(refusals) > 200
        for _action, refusal in refusals:
            keys.add(_check(view, refusal))
    # The refusals a player meets most are among them.
    assert {"not_your_turn", "no_edge", "step_take", "slot_empty", "not_your_tile"} <= keys, keys
    assert len(keys) >= 20, keys


def test_a_finished_game_refuses_with_a_key(gm_app: App) -> None:
    state = get_game("glen-more").new(2, {}, 4)
    bots = [make_bot("random", 40 + s) for s in range(2)]
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, bots[seat].choose(state, seat))
    view = _view(gm_app, 2)
    assert _check(view, state.why_not(0, ("end",))) == "game_over"
    assert _check(view, state.explain_illegal(0, ("end",))) == "game_over"


def test_every_key_the_engine_names_is_translated() -> None:
    """The keys written in ``explain.py`` and ``grid.py`` (literal, and the family built from
    the turn's step) all have their catalogue entry, in every language."""
    source = Path(gm_explain.__file__).read_text("utf-8")
    literal = set(re.findall(r'key="([a-z_]+)"', source))
    grid = Path(G.__file__).read_text("utf-8")
    literal |= set(re.findall(r'return \(?\s*"([a-z_]+)",', grid))
    literal |= {f"step_{phase}" for phase in PHASES if phase != "over"}
    literal -= {"game_over"}  # the shared entry says it
    assert {"cell_taken", "corner_only", "plain_fit"} <= literal
    assert len(literal) > 40
    for code in ("en", "ja", "nl"):
        cat = i18n.catalogue(code)
        missing = sorted(k for k in literal if PREFIX + k not in cat)
        assert missing == [], (code, missing)
        assert "reason.game_over" in cat


def test_a_refused_placement_is_said_in_japanese(gm_app: App) -> None:
    """A real refusal of the engine (a tile put far from the territory) in the player's
    language, the tile named as the table names it; the whose-turn answer names the player."""
    state: Any = get_game("glen-more").new(2, {}, 6)
    bots = [make_bot("random", 60 + s) for s in range(2)]
    while PHASES[state.phase] != "place":
        seat = state.to_move()[0]
        state.apply(seat, bots[seat].choose(state, seat))
    seat = state.cur
    view = _view(gm_app, 2)
    refusal = state.why_not(seat, ("place", 9, 9))
    assert refusal is not None and refusal.key == "no_edge"
    tile = KINDS[state.taken].id
    assert refusal.params == {"tile": tile}
    turn = state.explain_illegal(1 - seat, ("end",)).reason()
    cube = {"text": "x", "key": "no_cube", "params": {"res": "sheep"}}
    try:
        i18n.set_language("ja")
        assert view.reason_text(refusal.reason()) == (
            f"{tile_name(tile)}は領地と辺全体で接しなければなりません。"
        )
        assert re.search("[\u3040-\u30ff\u4e00-\u9fff]", tile_name(tile)), tile_name(tile)
        assert view.reason_text(turn) == f"今はP{seat + 1}の手番です。最後尾のコマが動きます。"
        assert view.reason_text(cube) == f"あなたのそのタイルには{res_name('sheep')}がありません。"
        i18n.set_language("nl")
        assert view.reason_text(cube) == "Er ligt geen schaap op die tegel van jou."
        i18n.set_language("en")
        assert view.reason_text(refusal.reason()) == (
            f"{tile_name(tile)} must share a full edge with your territory."
        )
    finally:
        i18n.set_language("en")
