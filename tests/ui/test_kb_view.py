"""The Kingdom Builder table view against real engine views: clicks choose exactly the legal
actions, every event gets a log line, and every view along a game draws."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from game.bots import make_bot
from game.core.registry import get_game
from game.ui.app import App
from game.ui.games.base import SeatInfo
from game.ui.games.kingdom_builder import KingdomBuilderView
from tests.ui.conftest import make_app


def _seats(n: int) -> list[SeatInfo]:
    colours = ["red", "blue", "green", "yellow"]
    return [SeatInfo(i, f"P{i + 1}", colours[i], "human", True) for i in range(n)]


def _view(app: App, n: int) -> KingdomBuilderView:
    view = KingdomBuilderView(app, _seats(n))
    w, h = app.size
    view.layout(pygame.Rect(8, 60, w - 16, h - 68), 140)
    return view


@pytest.fixture
def kb_app(env: Any) -> Any:
    application = make_app((1024, 640))
    yield application
    application.shutdown()


def _play(seed: int, players: int, steps: int) -> Any:
    state = get_game("kingdom-builder").new(players, {}, seed)
    bots = [make_bot("random", seed + s) for s in range(players)]
    for _ in range(steps):
        if state.is_over():
            break
        seat = state.to_move()[0]
        state.apply(seat, bots[seat].choose(state, seat))
    return state


def test_clicks_choose_exactly_the_legal_actions(kb_app: App) -> None:
    view = _view(kb_app, 3)
    for steps in (0, 7, 25, 60):
        state = _play(11, 3, steps)
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        view.set_view(state.view(seat), legal, [])
        view.draw(kb_app.screen)  # lays out the tile buttons
        targets = {(a[1], a[2]): a for a in legal if a[0] in ("place", "move_from", "wall")}
        assert view.hexes is not None
        for r in range(20):
            for c in range(20):
                x, y = view.hexes.centre(r, c)
                got = view.click((round(x), round(y)))
                if (r, c) in targets:
                    assert got == targets[(r, c)]
                elif got is not None:
                    # Only a location hex whose tile may be used answers otherwise.
                    assert got == ("use", r, c) and got in legal
        for rect, action, tile in view.tile_buttons:
            assert view.click(rect.center) == action
            assert action is None or action in legal
            assert action is None or (action[1], action[2]) == tuple(tile["hex"])


def test_nothing_is_clickable_for_another_seat(kb_app: App) -> None:
    view = _view(kb_app, 2)
    state = _play(5, 2, 4)
    other = 1 - state.to_move()[0]
    view.set_view(state.view(other), [], [])
    view.draw(kb_app.screen)
    assert view.hexes is not None
    for r in range(20):
        for c in range(20):
            assert view.click(tuple(map(int, view.hexes.centre(r, c)))) is None  # type: ignore[arg-type]
    assert "P" in view.status()


def test_a_whole_game_draws_logs_and_scores(kb_app: App) -> None:
    """Every view along a random game draws (with events animating), in both palettes."""
    view = _view(kb_app, 4)
    state = get_game("kingdom-builder").new(4, {}, 3)
    bots = [make_bot("random", s) for s in range(4)]
    kinds: set[str] = set()
    logged = 0
    kb_app.settings.animation_speed = 1.0
    i = 0
    while not state.is_over():
        seat = state.to_move()[0]
        events = state.apply(seat, bots[seat].choose(state, seat))
        visible = state.visible_events(events, 0)
        kinds.update(e["type"] for e in visible)
        nxt = state.to_move()[0] if not state.is_over() else 0
        view.set_view(state.view(0), state.legal_actions(0) if nxt == 0 else [], visible)
        for ev in visible:
            if view.describe_event(ev) is not None:
                logged += 1
        if i % 25 == 0:
            kb_app.settings.colour_blind = not kb_app.settings.colour_blind
            view.update(0.05)
            view.draw(kb_app.screen)
            assert view.status()
        i += 1
    assert {"place", "turn", "end_turn"} <= kinds
    assert logged > 100
    view.start_scoring()
    assert not view.scoring_done()
    for _ in range(400):
        if view.scoring_done():
            break
        view.update(0.1)
        view.draw(kb_app.screen)
    assert view.scoring_done()
    cats = [k for k, _ in view.score_categories()]
    assert cats[0] == "castles" and len(cats) >= 4


def test_hover_explains_a_click(kb_app: App) -> None:
    view = _view(kb_app, 2)
    state = _play(2, 2, 0)
    seat = state.to_move()[0]
    legal = state.legal_actions(seat)
    view.set_view(state.view(seat), legal, [])
    place = next(a for a in legal if a[0] == "place")
    assert view.hexes is not None
    pos = tuple(map(int, view.hexes.centre(place[1], place[2])))
    view.mouse_moved(pos)  # type: ignore[arg-type]
    text = view.hover(pos)  # type: ignore[arg-type]
    assert "Click to build" in text
    view.draw(kb_app.screen)


def _ended(seed: int, players: int, cards: list[str]) -> Any:
    state = get_game("kingdom-builder").new(players, {"cards": cards}, seed)
    bots = [make_bot("random", seed + s) for s in range(players)]
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, bots[seat].choose(state, seat))
    return state


@pytest.mark.parametrize(
    "cards", [["Knights", "Lords", "Hermits"], ["Merchants", "Discoverers", "Citizens"]]
)
def test_end_scoring_draws_what_scored_card_by_card_and_seat_by_seat(
    kb_app: App, cards: list[str]
) -> None:
    """The sequence shows, for each category and then each seat, exactly the host's
    ``view["scoring"]`` entry: a gold mark on every settlement that scored, while the shown
    points count up to the category's score (the UI decides nothing itself)."""
    from game.ui.games.kingdom_builder import GOLD

    kb_app.settings.animation_speed = 1.0
    state = _ended(3, 3, cards)
    final = state.view(0)
    entries = {(e["category"], e["seat"]): e for e in final["scoring"]}
    view = _view(kb_app, 3)
    view.set_view(final, [], [{"type": "game_over"}])
    view.start_scoring()
    sc = view.scoring
    assert sc is not None and not view.scoring_done()
    assert [sc.categories[b.category] for b in sc.beats if b.seat is None] == [
        "castles",
        *cards,
    ]
    assert view.hexes is not None
    shown_seats = []
    for beat in sc.beats:
        sc.elapsed = beat.start + beat.duration * 0.8
        view.draw(kb_app.screen)
        focus = view._focus()
        if beat.seat is None:
            assert focus is None
            continue
        category = sc.categories[beat.category]
        assert focus is not None and focus.entry == entries[(category, beat.seat)]
        assert sc.value(beat.category, beat.seat) == state.scores()[beat.seat][category]
        shown_seats.append((category, beat.seat))
        for r, c in focus.entry["hexes"]:
            x, y = view.hexes.centre(r, c)
            mark = (int(x + view.hexes.size * 0.5), int(y - view.hexes.size * 0.45))
            if any(label.collidepoint(mark) for label in view.label_rects):
                continue  # under a sector's "+12"
            assert tuple(kb_app.screen.get_at(mark))[:3] == GOLD, (category, (r, c))
    assert shown_seats == [(c, s) for c in ["castles", *cards] for s in range(3)]
    sc.finish()
    view.update(0.01)
    assert view.scoring_done()
    assert [sc.running_total(s) for s in range(3)] == [row["total"] for row in state.scores()]


def test_after_the_scoring_a_score_chip_shows_its_category_on_the_map(kb_app: App) -> None:
    state = _ended(4, 2, ["Fishermen", "Farmers", "Workers"])
    view = _view(kb_app, 2)
    view.set_view(state.view(1), [], [])  # arrived at an ended game: already scored
    assert view.scoring_done()
    view.draw(kb_app.screen)
    rect = next(c[0] for c in view.score_chips if c[1] == "Farmers" and c[2] == 0)
    view.mouse_moved(rect.center)
    focus = view._focus()
    assert focus is not None and (focus.category, focus.seat) == ("Farmers", 0)
    assert focus.entry["sectors"] and focus.entry["points"] == state.scores()[0]["Farmers"]
    view.draw(kb_app.screen)
    # A category row without a chip under the mouse: the seat shown (here seat 1).
    row = next(r for r, k in view.card_rows if k == "Workers")
    view.mouse_moved((row.x + 10, row.bottom - 6))
    assert view.hover_focus == ("Workers", 1)
    view.mouse_moved((0, 0))
    assert view._focus() is None


def test_the_log_names_the_terrain_from_the_board_of_the_first_state(kb_app: App) -> None:
    """The first state after joining carries recent events: their log lines name the terrain
    of the board in that same message (a desert hex is never called grass)."""
    from game.commands.screenshot import _Feed, history, play_table
    from game.ui.client import TableClient
    from game.ui.games.kingdom_builder import terrain_name
    from game.ui.scenes.game import GameScene

    session, _events = play_table("kingdom-builder", 2, 6, 40, "random", {})
    board = session.state.view(0)["board"]
    places = [ev for evs in history for ev in evs if ev["type"] == "place"]
    assert {board[r][c] for r, c in (ev["hex"] for ev in places)} - {"G"}, "need non-grass"
    first = session.state_message(0, places)
    game = GameScene(
        kb_app, TableClient("kingdom-builder", {0: _Feed([session.lobby_message(), first])}), 2
    )
    kb_app.push(game)
    kb_app.step()
    lines = [line.text for line in game.log]
    assert len(lines) == len(places)
    for ev, text in zip(places, lines, strict=True):
        r, c = ev["hex"]
        assert f"{terrain_name(board[r][c])} ({r}, {c})" in text, text


def test_without_a_board_the_log_gives_coordinates_only(kb_app: App) -> None:
    from game.ui.games.kingdom_builder import terrain_name

    view = _view(kb_app, 2)
    line = view.describe_event({"type": "place", "seat": 0, "hex": [1, 7], "tile": None})
    assert line is not None and line.text.endswith("(1, 7)")
    assert all(terrain_name(code) not in line.text for code in "GCDFTWM")
    turn = view.describe_event({"type": "turn", "seat": 1})
    assert turn is not None and terrain_name("G") not in turn.text


def test_the_status_counts_what_the_engine_says_is_left(kb_app: App) -> None:
    """ "Build N more" uses the view's ``turn.mandatory_left`` (the supply or the free hexes may
    allow fewer than 3 minus those placed); a view without it falls back to 3 minus placed."""
    view = _view(kb_app, 2)
    state = _play(2, 2, 0)
    seat = state.to_move()[0]
    legal = state.legal_actions(seat)
    v = state.view(seat)
    assert view.status() == "", "no view yet: nothing to say"
    view.set_view(v, legal, [])
    assert view.status().startswith("Your turn: build 3")
    short = dict(v, turn=dict(v["turn"], mandatory_left=2))
    view.set_view(short, legal, [])
    assert view.status().startswith("Build 2 more")
    once = dict(v, turn={**v["turn"], "placed": 1})
    once["turn"].pop("mandatory_left", None)
    view.set_view(once, legal, [])
    assert view.status().startswith("Build 2 more")
    view.set_view(dict(once, turn=dict(once["turn"], mandatory_left=1)), legal, [])
    assert view.status().startswith("Build 1 more")


def test_the_hover_says_what_the_engine_says_a_placement_gains(kb_app: App) -> None:
    """The hover over a legal hex names the tiles and points of the view's ``gains`` entry for
    it (computed by the engine; the UI derives no rule), and hides the points when the score
    preview is off."""
    view = _view(kb_app, 3)
    checked_take = checked_points = False
    for steps in range(0, 80, 3):
        state = _play(7, 3, steps)
        if state.is_over():
            break
        seat = state.to_move()[0]
        v = state.view(seat)
        legal = state.legal_actions(seat)
        view.set_view(v, legal, [])
        for entry in v.get("gains", []):
            r, c = entry["hex"]
            kb_app.settings.score_preview = True
            text = view._hex_text((r, c))
            if entry.get("take"):
                assert "Takes a tile" in text
                checked_take = True
            if entry.get("points"):
                assert "If the game ended now: " + f"{entry['total']:+d}" in text
                checked_points = True
                kb_app.settings.score_preview = False
                assert "If the game ended now" not in view._hex_text((r, c))
        if checked_take and checked_points:
            break
    kb_app.settings.score_preview = True
    assert checked_take and checked_points
