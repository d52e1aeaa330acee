"""Wording (issue 20, finding 5): counts agree with their nouns ("1 coin", "2 coins", "used
once"), Glen More names tiles instead of coordinates ("places Forest east of Village", "sell 1
wood from Forest"), the start stack is called that, Keyflower moves "1 iron" (no "a iron") and a
tile's "use" hint says what that tile does — in English, Japanese and Dutch.

Checked on the log lines of whole games played by bots through the host's own Session."""

from __future__ import annotations

import re
from typing import Any

import pytest

from game.ui.games.base import SeatInfo
from game.ui.i18n import plural, set_language, t
from tests.ui.conftest import make_app


def _lines(app: Any, game_id: str, players: int, seed: int, actions: int) -> list[str]:
    """Every log line of a bot game, as the first seat's table writes it."""
    from game.commands.screenshot import _Feed, history, play_table
    from game.ui.client import TableClient
    from game.ui.scenes.game import GameScene

    session, _events = play_table(game_id, players, seed, actions, "random", {})
    feed = _Feed([session.lobby_message(), session.state_message(0, [])])
    scene = GameScene(app, TableClient(game_id, {0: feed}), players)
    app.push(scene)
    app.step()
    out = []
    for evs in history:
        for ev in session.state.visible_events(evs, 0):
            line = scene.view.describe_event(ev)
            if line is not None:
                out.append(line.text)
    app.pop()
    return out


@pytest.mark.parametrize("lang", ["en", "ja", "nl"])
def test_glen_more_names_tiles_not_coordinates(env: Any, lang: str) -> None:
    app = make_app(language=lang)
    try:
        lines = _lines(app, "glen-more", 3, 4, 400)
        cell = {"en": r"row \d+, column \d+", "ja": r"\d+行\d+列", "nl": r"rij \d+, kolom \d+"}
        assert lines and not [x for x in lines if re.search(cell[lang], x)], "no coordinates"
        place = t("gm.log.place", name="", tile="", where="").strip()
        placed = [x for x in lines if place.split()[0] in x] if lang == "en" else []
        for line in placed:
            assert any(f" {side} of " in line for side in ("east", "west", "north", "south"))
        if lang == "en":
            assert not [x for x in lines if " 1 coins" in x or " 1 clan members" in x]
            assert not [x for x in lines if "(s)" in x]
    finally:
        app.shutdown()


def test_keyflower_moves_one_iron_and_counts_uses(env: Any) -> None:
    app = make_app(language="en")
    try:
        lines = _lines(app, "keyflower", 3, 2, 1500)
        assert lines
        assert not [x for x in lines if " a iron" in x or " a wood" in x]
        moved = [x for x in lines if " moves 1 " in x]
        assert moved, "resources were moved"
    finally:
        app.shutdown()
    set_language("en")
    assert plural("kf.hover.lock", 1, colour="red", uses=1).endswith("used once this season")
    assert plural("kf.hover.lock", 2, colour="red", uses=2).endswith("used 2 times this season")
    set_language("nl")
    assert "één keer" in plural("kf.hover.lock", 1, colour="rood", uses=1)
    set_language("en")


@pytest.mark.parametrize(
    ("key", "n", "text"),
    [
        ("gm.log.gain.coins", 1, "Ann gets 1 coin"),
        ("gm.log.gain.coins", 3, "Ann gets 3 coins"),
        ("gm.log.gain.clan_member", 2, "Ann gets 2 clan members"),
        ("gm.log.gain.movement", 1, "Ann gets 1 movement point"),
        ("gm.log.gain.movement", 2, "Ann gets 2 movement points"),
    ],
)
def test_counts_agree_with_their_nouns(key: str, n: int, text: str) -> None:
    set_language("en")
    assert plural(key, n, name="Ann") == text


def test_the_start_stack_and_the_sell_title(app: Any) -> None:
    from game.ui.games.glen_more.text import stack_name, tile_info
    from game.ui.games.glen_more.view import GlenMoreView

    assert stack_name(0) == "the start stack" and stack_name(2) == "stack 2"
    from game.glen_more.tiles import catalogue

    start_forest = next(
        e["id"] for e in catalogue() if e.get("name") == "Forest" and e.get("stack") == 0
    )
    info = tile_info(start_forest, False)
    assert "stack 0" not in info and "the start stack" in info
    view = GlenMoreView(app, [SeatInfo(0, "Ann", "red"), SeatInfo(1, "Bo", "blue")])
    village = next(e["id"] for e in catalogue() if e.get("name") == "Village")
    view.territories = [{(0, 0): {"tile": village}, (0, 1): {"tile": start_forest}}, {}]
    assert view.place_words(0, (0, 2)) == "east of Forest"
    assert view.place_words(0, (1, 0)) == "south of Village"
    assert view.tile_words(0, (0, 1)) == "Forest"
    view.territories[0][(1, 1)] = {"tile": start_forest}
    # two Forests: which one, by a tile beside it (one of another name when there is one)
    assert view.tile_words(0, (1, 1)) == "Forest (south of Forest)"
    view.territories[0][(1, 0)] = {"tile": village}
    assert view.tile_words(0, (1, 1)) == "Forest (east of Village)"


def test_keyflower_use_hint_says_what_the_tile_does() -> None:
    from game.keyflower import tiles
    from game.ui.games.keyflower.text import use_text

    set_language("en")
    transport = next(
        tile.id
        for tile in tiles.TILES
        if tile.kind in ("home", "village") and tile.sides[0].action == "transport"
    )
    text = use_text(transport, None)
    assert "produce" not in text.lower() and "transport" in text.lower()
    producer = next(
        tile.id
        for tile in tiles.TILES
        if tile.kind in ("home", "village") and tile.sides[0].action == "produce"
    )
    assert "Produce" in use_text(producer, None)


def test_glen_more_says_game_over_after_the_final_scoring_and_labels_the_preview(
    env: Any,
) -> None:
    from game.commands.screenshot import _Feed, play_table
    from game.ui.client import TableClient
    from game.ui.scenes.game import GameScene

    app = make_app(language="en", animation_speed=1.0)
    try:
        session, events = play_table("glen-more", 2, 3, 100000, "random", {})
        assert session.state.is_over()
        seat = 0
        last = session.state.visible_events(events, seat)
        assert any(ev.get("type") == "game_over" for ev in last)
        messages = [session.lobby_message(), session.state_message(seat, last)]
        messages.append(session.game_over_message())
        scene = GameScene(app, TableClient("glen-more", {seat: _Feed(messages)}), 2)
        app.push(scene)
        app.step()
        over = t("gm.log.game_over", names="").split(":")[0]
        seen_running = False
        for _ in range(4000):
            app.step()
            if scene.scoring_started and not scene.view.scoring_done():
                seen_running = True
                assert not [x for x in scene.log if over in x.text], "not while it counts"
            if scene.view.scoring_done():
                break
        assert seen_running
        app.step()
        assert [x for x in scene.log if over in x.text], "the winner once it is shown"
    finally:
        app.shutdown()


def test_glen_more_header_shows_banked_points_and_the_named_projection(env: Any) -> None:
    from game.commands.screenshot import _Feed, play_table
    from game.ui.client import TableClient
    from game.ui.scenes.game import GameScene

    app = make_app(language="en")
    try:
        session, _events = play_table("glen-more", 3, 4, 60, "random", {})
        seat = session.state.to_move()[0]
        feed = _Feed([session.lobby_message(), session.state_message(seat, [])])
        scene = GameScene(app, TableClient("glen-more", {seat: feed}), 3)
        app.push(scene)
        app.step()
        view = scene.view
        banked = session.state.scores()[seat]["total"]
        projection = session.state.preview_scores()[seat]["total"]
        assert view.score_total(seat) == banked, "the header's big number is banked"
        assert view.score_projection(seat) == projection
        tip = view._score_text(seat)
        assert f"{banked} VP banked" in tip and "if the game ended now" in tip
        app.settings.score_preview = False
        assert view.score_projection(seat) is None
    finally:
        app.shutdown()
