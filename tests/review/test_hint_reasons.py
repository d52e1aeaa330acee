"""Hints that say why (issue 23): the host explains a hint by the evaluation's own terms
(``game/bots/reasons.py``), sends the reasons with it, and each table shows them in the player's
language — Kingdom Builder, Keyflower and Glen More, in English, Japanese and Dutch."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pygame
import pytest

from game.bots.reasons import Reason, compare, hint_reasons
from game.core.registry import get_game
from game.core.rng import Rng, derive_seed
from game.ui import i18n
from game.ui.app import App
from game.ui.client import SeatSpec
from game.ui.local_game import start_local_game
from game.ui.reasons import reason_text, reasons_text
from tests.bots.test_bots import TWINS
from tests.ui.conftest import make_app, press, run_until

GAMES = ("kingdom-builder", "keyflower", "glen-more")


def _positions(game_id: str, players: int, seed: int, count: int) -> list[Any]:
    """Positions along a random game (every few actions)."""
    state = get_game(game_id).new(players, {}, seed)
    rng = Rng(derive_seed(seed, "positions"))
    out = []
    step = 0
    while not state.is_over() and len(out) < count:
        seat = state.to_move()[0]
        actions = state.legal_actions(seat)
        state.apply(seat, actions[rng.randbelow(len(actions))])
        step += 1
        if step % 7 == 0:
            out.append(state.clone())
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_hint_reasons_are_gains_in_words_of_every_language(game_id: str) -> None:
    found: list[Reason] = []
    for state in _positions(game_id, 4, 3, 6):
        seat = state.to_move()[0]
        action = state.legal_actions(seat)[0]
        reasons = hint_reasons(state, seat, action, 11)
        assert len(reasons) <= 2
        assert [r.gain for r in reasons] == sorted((r.gain for r in reasons), reverse=True)
        for r in reasons:
            assert r.gain > 0 and not r.key.startswith("reason.")
            assert not {"gain", "loss", "points"} & set(r.params)
        found += reasons
    assert found, "some hinted turns gain something"
    names = ["Ann", "Bo", "Cy", "Di"]
    for code in ("en", "ja", "nl"):
        i18n.set_language(code)
        try:
            for r in found:
                text = reason_text(r.to_plain(), game_id, names)
                assert text and "{" not in text, (code, r)
        finally:
            i18n.set_language("en")


@pytest.mark.parametrize("game_id", GAMES)
def test_hint_reasons_ignore_what_the_seat_cannot_see(game_id: str) -> None:
    for state in _positions(game_id, 4, 5, 3):
        seat = state.to_move()[0]
        twin = TWINS[game_id](state, seat)
        action = state.legal_actions(seat)[-1]
        assert hint_reasons(state, seat, action, 2) == hint_reasons(twin, seat, action, 2)


def test_reasons_without_an_evaluation_hook_come_from_the_score_categories(bid_race: str) -> None:
    """The test game has no ``explain_terms``: its categories and the rival it holds back."""
    game = get_game(bid_race)
    state = game.new(2, {}, 1)
    before = state.clone()
    state.apply(0, ("bid", 2))
    state.apply(0, ("seal",))
    state.apply(1, ("bid", 0))
    state.apply(1, ("seal",))  # seat 0 wins the bids: 3 points banked
    reasons = compare([before], [state], 0, min_gain=0.1)
    keys = {(r.key, tuple(sorted(r.params.items()))) for r in reasons}
    assert ("score", (("category", "bids"),)) in keys
    text = reason_text(
        next(r for r in reasons if r.key == "score").to_plain(), bid_race, ["A", "B"]
    )
    assert text == "+3 points from bids"


def test_reason_words() -> None:
    rival = {"key": "rival", "params": {"seat": 1}, "gain": 2.26}
    assert reason_text(rival, "glen-more", ["Ann", "Bram"]) == "holds Bram back by 2.3 points"
    unknown = {"key": "term.whisky_rounds", "params": {}, "gain": -12.4}
    assert reason_text(unknown, "no-such-game") == "-12 points (whisky rounds)"
    both = reasons_text([rival, unknown], "glen-more", ["Ann", "Bram"])
    # Glen More words its terms (reason.glen-more.term.*): the game's own text, not the fallback
    assert both == "holds Bram back by 2.3 points, -12 VP from whisky in the scorings to come"


@pytest.fixture
def app(env: Any) -> Iterator[App]:
    application = make_app((1280, 800))
    yield application
    application.shutdown()


@pytest.mark.parametrize(
    ("game_id", "language"), [("kingdom-builder", "ja"), ("keyflower", "nl"), ("glen-more", "en")]
)
def test_the_table_shows_why(app: App, game_id: str, language: str) -> None:
    """A hint at the table (H) arrives with its reasons, shown in the player's language."""
    from game.ui.scenes.game import GameScene

    i18n.set_language(language)
    try:
        client = start_local_game(
            game_id,
            [SeatSpec("human", "Ann", "red"), SeatSpec("bot", "Bot", "blue", "random")],
            {},
            seed=4,
            bot_delay=0,
        )
        app.push(GameScene(app, client, 2))
        game = app.top
        assert game is not None
        run_until(app, lambda: bool(game.view.legal) and 0 not in client.busy, timeout=60)  # type: ignore[attr-defined]
        press(app, pygame.K_h)
        run_until(app, lambda: game.view.hint is not None, timeout=60)  # type: ignore[attr-defined]
        why = client.hint_why(0)
        assert why, "the host explains its hint"
        words = reasons_text(
            why,
            game_id,
            [s.name for s in game.view.seats],  # type: ignore[attr-defined]
            dict(game.view.score_categories()),  # type: ignore[attr-defined]
            game.view.reason_params,  # type: ignore[attr-defined]
        )
        assert words and "{" not in words
        assert any(words in toast.text for toast in app.toasts)
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize(
    "why",
    [
        "because",
        [{"key": "term.castles", "params": {}, "gain": "two"}],
        [{"key": "term.castles", "params": {}, "gain": float("inf")}],
        [{"key": "term.castles", "params": [], "gain": 1.0}],
        [{"key": "term.castles", "params": {}, "gain": 1.0}] * 5,
        [{"params": {}, "gain": 1.0}],
    ],
)
def test_a_hint_with_malformed_reasons_is_refused_by_the_client(why: Any) -> None:
    from net.host_messages import validate_host
    from net.protocol import ProtocolError

    good = {"t": "hint", "table": "t1", "seq": 3, "action": ["place", 1, 2]}
    assert validate_host(good)["action"] == ["place", 1, 2]
    ok = [{"key": "term.castles", "params": {"seat": 1}, "gain": 2}]
    assert validate_host({**good, "why": ok})["why"] == [
        {"key": "term.castles", "params": {"seat": 1}, "gain": 2.0}
    ]
    with pytest.raises(ProtocolError):
        validate_host({**good, "why": why})
