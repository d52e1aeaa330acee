"""Kingdom Builder's refusals speak every language: each ``IllegalAction`` the engine raises
(``game/kingdom_builder/explain.py``) carries a ``key`` with plain ``params``, and the client's
catalogue has ``reason.kingdom-builder.<key>`` in English, Japanese and Dutch using only those
params — checked on many refused actions of random positions with the full Nomads expansion."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pygame
import pytest

from game.bots import make_bot
from game.core.registry import get_game
from game.kingdom_builder import explain as kb_explain
from game.ui import i18n
from game.ui.app import App
from game.ui.games.base import SeatInfo
from game.ui.games.kingdom_builder import KingdomBuilderView
from tests.ui.conftest import make_app
from tests.ui.test_i18n import fields

PREFIX = "reason.kingdom-builder."


@pytest.fixture
def kb_app(env: Any) -> Any:
    application = make_app((1024, 640))
    yield application
    application.shutdown()


def _refusals(seed: int, players: int) -> list[tuple[Any, int, tuple[Any, ...], Any]]:
    """(state, seat, action, IllegalAction) for refused actions along a random game: every kind
    on random hexes, stop and end, odd shapes, and the seat not to move."""
    rng = random.Random(seed)
    state = get_game("kingdom-builder").new(players, {"nomads": "full"}, seed)
    bots = [make_bot("random", seed + s) for s in range(players)]
    out = []
    steps = 0
    while not state.is_over() and steps < 400:
        seat = state.to_move()[0]
        if steps % 9 == 0:
            legal = set(state.legal_actions(seat))
            tries: list[tuple[Any, ...]] = [
                ("stop",),
                ("end",),
                ("end", 1),
                ("fly", 1, 2),
                ("place", 20, 3),
            ]
            for _ in range(60):
                kind = rng.choice(["place", "use", "move_from", "wall", "remove"])
                tries.append((kind, rng.randrange(20), rng.randrange(20)))
            tries += [("use", r, c) for r in range(20) for c in range(20) if rng.random() < 0.05]
            for action in tries:
                if action in legal:
                    continue
                refusal = state.why_not(seat, action)
                assert refusal is not None, action
                out.append((state.clone(), seat, action, refusal))
            other = (seat + 1) % players
            refusal = state.why_not(other, ("place", 0, 0))
            assert refusal is not None
            out.append((state.clone(), other, ("place", 0, 0), refusal))
        state.apply(seat, bots[seat].choose(state, seat))
        steps += 1
    return out


def test_every_refusal_has_a_key_and_a_translation_using_its_params(kb_app: App) -> None:
    seats = [SeatInfo(i, f"P{i + 1}", "red", "human") for i in range(5)]
    view = KingdomBuilderView(kb_app, seats)
    view.layout(pygame.Rect(8, 50, 1000, 580), 120)
    keys: set[str] = set()
    for seed, players in ((1, 2), (2, 3), (3, 5)):
        for _state, _seat, action, refusal in _refusals(seed, players):
            reason = refusal.reason()
            key = reason["key"]
            assert key, (action, str(refusal))
            keys.add(key)
            assert all(isinstance(v, (str, int)) for v in reason["params"].values())
            for code in ("en", "ja", "nl"):
                # The game's entry, or the shared one (the contract's own refusals: game over,
                # not your turn, malformed), whose fields the params fill.
                cat = i18n.catalogue(code)
                names = [n for n in (PREFIX + key, f"reason.{key}") if n in cat]
                assert any(fields(cat[n]) <= set(reason["params"]) for n in names), (
                    code,
                    key,
                    reason["params"],
                )
            text = view.reason_text(reason)
            assert text and "{" not in text
    # The refusals a player meets most are among them.
    assert {"terrain_card", "not_your_turn", "occupied", "unbuildable"} <= keys, keys


def test_every_key_the_engine_names_is_translated() -> None:
    """The keys written in ``explain.py`` (literal, and the families built from a step or an
    action kind) all have their catalogue entry."""
    source = Path(kb_explain.__file__).read_text("utf-8")
    literal = set(re.findall(r'key="([a-z_]+)"', source))
    literal |= {f"finish_{name}" for name in kb_explain.STEP_NAMES.values()}
    literal |= {f"needs_tile_{kind}" for kind in ("move_from", "wall", "stop", "remove")}
    literal |= set(re.findall(r'"(terrain_[a-z]+)"', source))
    assert len(literal) > 40
    for code in ("en", "ja", "nl"):
        cat = i18n.catalogue(code)
        missing = sorted(k for k in literal if PREFIX + k not in cat)
        assert missing == [], (code, missing)


def test_the_client_says_a_refusal_in_the_chosen_language(kb_app: App) -> None:
    seats = [SeatInfo(0, "Ann", "red", "human"), SeatInfo(1, "Bo", "blue", "human")]
    view = KingdomBuilderView(kb_app, seats)
    reason = {
        "text": "(3, 4) is Canyon; your terrain card shows Grass",
        "rule": "KB §4.2",
        "key": "terrain_card",
        "params": {"hex": "(3, 4)", "terrain": "C", "allowed": "G"},
    }
    try:
        assert view.reason_text(reason) == "(3, 4) is Canyon; your terrain card shows Grass."
        i18n.set_language("ja")
        assert view.reason_text(reason) == "(3, 4)は峡谷です。あなたの地形カードは草原です。"
        i18n.set_language("nl")
        turn = {
            "text": "x",
            "rule": "",
            "key": "not_your_turn",
            "params": {"current": 1, "seat": 0},
        }
        assert view.reason_text(turn) == "Bo is aan de beurt, niet jij."
        # No key, or a key this client does not know: the host's sentence.
        assert view.reason_text({"text": "a bid is 0 to 2", "key": "", "params": {}}) == (
            "A bid is 0 to 2"
        )
        assert view.reason_text({"text": "odd", "key": "no_such_key", "params": {}}) == "Odd"
        core = {"text": "it is not seat 1's turn", "key": "not_your_turn", "params": {}}
        assert "{" not in view.reason_text(core)
    finally:
        i18n.set_language("en")
