"""The Glen More table view against real engine views: every legal action is reachable by the
clicks (and keys) a player would use and nothing else is, trades show their price before
Confirm, every event gets a log line, hover texts explain every tile in three languages, and the
scorings add up to the engine's scores."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pygame
import pytest

from game.bots import make_bot
from game.core.registry import get_game
from game.glen_more.tiles import KINDS, RESOURCES
from game.ui import i18n
from game.ui.app import App
from game.ui.games.base import SeatInfo
from game.ui.games.glen_more import TILE_SLUGS, GlenMoreView
from game.ui.games.glen_more.common import SCORE_CATEGORIES, Legal
from game.ui.games.glen_more.help import help_pages, tile_groups
from game.ui.games.glen_more.scoring import final_show, round_tallies
from game.ui.games.glen_more.text import effect_lines, tile_info, tile_name
from tests.ui.conftest import make_app

COLOURS = ["red", "blue", "green", "yellow", "purple"]


def _seats(n: int) -> list[SeatInfo]:
    return [SeatInfo(i, f"P{i + 1}", COLOURS[i], "human", True) for i in range(n)]


def _view(app: App, n: int) -> GlenMoreView:
    view = GlenMoreView(app, _seats(n))
    w, h = app.size
    view.layout(pygame.Rect(8, 60, w - 16, h - 68), 140)
    return view


@pytest.fixture
def gm_app(env: Any) -> Iterator[App]:
    application = make_app((1280, 800))
    yield application
    application.shutdown()


def _positions(seed: int, players: int, limit: int = 400) -> Iterator[Any]:
    """Every position of a random game (the state itself, mutated: use it at once)."""
    state = get_game("glen-more").new(players, {}, seed)
    bots = [make_bot("random", seed * 10 + s) for s in range(players)]
    for _ in range(limit):
        if state.is_over():
            return
        yield state
        seat = state.to_move()[0]
        state.apply(seat, bots[seat].choose(state, seat))


def _show(view: GlenMoreView, app: App, state: Any, seat: int | None) -> None:
    legal = state.legal_actions(seat) if seat is not None and seat in state.to_move() else []
    view.set_turn(list(state.to_move()), state.turn_id(), None)
    view._question = ()  # each try starts as a fresh decision (no armed trade or selection)
    view.set_view(state.view(seat), legal, [])
    view.draw(app.screen)


def _click(view: GlenMoreView, app: App, pos: tuple[int, int] | None) -> Any:
    assert pos is not None
    got = view.click(pos)
    view.draw(app.screen)
    return got


def _key(view: GlenMoreView, key: int) -> Any:
    return view.key(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))


def _grid_point(view: GlenMoreView, cell: tuple[int, int]) -> tuple[int, int]:
    assert view.big_grid is not None
    x, y = view.big_grid.centre(*cell)
    return (int(x), int(y))


def choose_by_clicks(view: GlenMoreView, app: App, action: tuple[Any, ...]) -> Any:
    """What a player's clicks (and keys) for ``action`` produce, from a fresh decision."""
    kind = action[0]
    if kind in ("take", "discard", "pay", "option", "resource"):
        if kind in ("option", "resource"):
            for _ in range(40):  # scroll the choice panel until the value shows
                if view.target(action) is not None:
                    break
                view.choice_panel.wheel(view.choice_panel.rect.center, -1)
                view.draw(app.screen)
        return _click(view, app, view.target(action))
    if kind == "buy":
        assert _click(view, app, view.target(action)) is None
        assert view.trade == action, "a buy waits for Confirm with its price shown"
        confirm = {b.id: b for b in view.buttons()}["gm_trade_confirm"]
        assert confirm.action == action and confirm.primary
        assert view.default_action() == action
        return _click(view, app, view.target(action))  # a second click confirms too
    if kind == "sell":
        assert _click(view, app, view.target(action)) is None
        if view.trade != action:
            assert view.sell_pick == action[3], "several tiles hold it: pick the tile"
            assert _click(view, app, _grid_point(view, (action[1], action[2]))) is None
        assert view.trade == action
        return {b.id: b for b in view.buttons()}["gm_trade_confirm"].action
    if kind in ("place", "activate", "pay_clan"):
        return _click(view, app, _grid_point(view, (action[1], action[2])))
    if kind == "loch_ness":
        cell = (action[1], action[2])
        if cell in view.acts.activates:
            assert _key(view, pygame.K_l) is None and view.ness_mode
        return _click(view, app, _grid_point(view, cell))
    if kind in ("move", "chieftain"):
        src = (action[1], action[2])
        if view.move_from not in (None, src):
            _key(view, pygame.K_BACKSPACE)
        if view.move_from != src:
            assert _click(view, app, _grid_point(view, src)) is None
        assert view.move_from == src
        if kind == "chieftain":
            button = {b.id: b for b in view.buttons()}["gm_chieftain"]
            assert button.action == action and button.enabled
            return _key(view, pygame.K_c)
        return _click(view, app, _grid_point(view, (action[3], action[4])))
    if kind in ("done", "end"):
        by_action = {b.action: b for b in view.buttons() if b.action is not None}
        assert by_action[action].primary
        return view.default_action()
    raise AssertionError(f"no way to click {action}")


@pytest.mark.parametrize("players,seed", [(2, 1), (4, 2), (3, 5), (5, 7)])
def test_every_legal_action_is_reachable_by_clicks(gm_app: App, players: int, seed: int) -> None:
    view = _view(gm_app, players)
    kinds: set[str] = set()
    for i, state in enumerate(_positions(seed, players)):
        if i % 3:
            continue
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        for action in legal:
            _show(view, gm_app, state, seat)
            got = choose_by_clicks(view, gm_app, action)
            assert got == action, (action, got)
            kinds.add(action[0])
    assert {"take", "place", "activate", "done", "sell"} <= kinds


def test_clicks_anywhere_choose_only_legal_actions(gm_app: App) -> None:
    view = _view(gm_app, 3)
    w, h = gm_app.size
    for i, state in enumerate(_positions(3, 3, 160)):
        if i % 7:
            continue
        seat = state.to_move()[0]
        legal = set(state.legal_actions(seat))
        _show(view, gm_app, state, seat)
        for x in range(4, w, 37):
            for y in range(60, h, 29):
                got = view.click((x, y))
                assert got is None or got in legal, (x, y, got)
                view.trade = None
                view.sell_pick = None
                view.focus = None


def test_nothing_is_clickable_for_another_seat_or_a_spectator(gm_app: App) -> None:
    view = _view(gm_app, 2)
    state = next(s for i, s in enumerate(_positions(4, 2)) if i == 12)
    other = 1 - state.to_move()[0]
    for seat in (other, None):
        _show(view, gm_app, state, seat)
        assert not view.acts.on_board() and not view.acts.takes
        w, h = gm_app.size
        for x in range(4, w, 41):
            for y in range(60, h, 31):
                assert view.click((x, y)) is None
                assert view.trade is None
        assert [b for b in view.buttons() if b.action is not None] == []


def test_a_trade_shows_its_price_and_cancels(gm_app: App) -> None:
    """GM §6: a market button arms the trade; the step box names the price and the coins
    before and after; Backspace (or Cancel) drops it."""
    view = _view(gm_app, 2)
    for state in _positions(6, 2):
        seat = state.to_move()[0]
        buys = [a for a in state.legal_actions(seat) if a[0] == "buy"]
        if buys:
            break
    else:
        raise AssertionError("no purchase in the game")
    _show(view, gm_app, state, seat)
    action = buys[0]
    row = next(m for m in state.view(seat)["market"] if m["resource"] == action[1])
    assert view.click(view.target(action)) is None  # type: ignore[arg-type]
    assert view.trade == action
    coins = state.view(seat)["seats"][seat]["coins"]
    texts = _texts_drawn(view, gm_app)
    assert f"{coins} → {coins - row['buy']}" in " ".join(texts)
    assert "Confirm" in view.status() or "Enter" in view.status()
    ids = [b.id for b in view.buttons()]
    assert ids == ["gm_trade_cancel", "gm_trade_confirm"]
    _key(view, pygame.K_BACKSPACE)
    assert view.trade is None


def _texts_drawn(view: GlenMoreView, app: App) -> list[str]:
    """Every string the view renders in one frame."""
    seen: list[str] = []
    real = app.fonts.render

    def spy(text: str, *args: Any, **kwargs: Any) -> pygame.Surface:
        seen.append(text)
        return real(text, *args, **kwargs)

    app.fonts.render = spy  # type: ignore[method-assign]
    try:
        view.draw(app.screen)
    finally:
        app.fonts.render = real  # type: ignore[method-assign]
    return seen


@pytest.mark.parametrize("players,seed", [(2, 11), (4, 12)])
def test_a_whole_game_draws_animates_logs_and_scores(gm_app: App, players: int, seed: int) -> None:
    gm_app.settings.animation_speed = 1.0
    view = _view(gm_app, players)
    state = get_game("glen-more").new(players, {}, seed)
    bots = [make_bot("random", seed + s) for s in range(players)]
    quiet = {"done", "end_turn", "paid", "setup", "refill", "final_scoring"}
    logged: set[str] = set()
    rounds = 0
    for step in range(2000):
        if state.is_over():
            break
        seat = state.to_move()[0]
        events = state.apply(seat, bots[seat].choose(state, seat))
        nxt = state.to_move()[0] if state.to_move() else seat
        view.set_turn(list(state.to_move()), state.turn_id(), None)
        view.set_view(
            state.view(nxt), state.legal_actions(nxt) if not state.is_over() else [], events
        )
        for ev in events:
            line = view.describe_event(ev)
            if line is None:
                assert ev["type"] in quiet or (ev["type"] == "refill" and not ev["tiles"]), ev
            else:
                assert line.text and "gm." not in line.text, (ev, line.text)
                logged.add(ev["type"])
            if ev["type"] == "scoring" and not state.is_over():
                rounds += 1
                assert view.round_show is not None, "a scoring round is shown on the table"
        if step % 5 == 0:
            view.update(0.07)
            view.draw(gm_app.screen)
            assert "gm." not in view.status()
    assert state.is_over()
    assert rounds == 2
    assert {
        "take",
        "place",
        "activate",
        "produce",
        "gain",
        "die" if players < 4 else "take",
    } <= logged
    # The end of the game: category by category, the totals counting up to the engine's.
    view.finish_animations()
    view.start_scoring()
    show = view.scoring
    assert show is not None and not view.scoring_done()
    keys = [tally.key for tally in show.tallies]
    assert keys[:5] == ["whisky", "chieftains", "specials", "coins", "tile_penalty"]
    scores = state.scores()
    while not view.scoring_done():
        view.update(0.3)
        view.draw(gm_app.screen)
    for s in range(players):
        assert show.running_total(s) == scores[s]["total"]
        assert view.score_total(s) == scores[s]["total"]
    assert [c for c, _ in view.score_categories()] == list(SCORE_CATEGORIES)
    assert set(SCORE_CATEGORIES) | {"total"} == set(scores[0])


def test_scoring_shows_each_category_against_the_fewest(gm_app: App) -> None:
    """GM §7.1: the counts, the fewest count and the points come from the engine's record;
    a click moves on to the next category, Enter ends the sequence."""
    state = get_game("glen-more").new(3, {}, 21)
    bots = [make_bot("random", 21 + s) for s in range(3)]
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, bots[seat].choose(state, seat))
    v = state.view(0)
    for record in v["rounds"]:
        tallies = round_tallies(record, 3)
        for tally in tallies:
            assert tally.counts == record["counts"][tally.key]
            assert tally.points == record["points"][tally.key]
            assert tally.baseline == min(record["counts"][tally.key])
    show = final_show(v)
    assert show is not None
    for s in range(3):
        assert show.base is not None
        assert show.base[s] == v["scores"][s]["tile_points"] + sum(
            r["total"][s] for r in v["rounds"] if r["round"] < 3
        )
    gm_app.settings.animation_speed = 1.0
    view = _view(gm_app, 3)
    view.set_view(v, [], [])
    view.scoring = None
    view.start_scoring()
    assert view.scoring is not None
    first = view.scoring.beat()
    view.skip_scoring(everything=False)
    assert view.scoring.beat() is not None and view.scoring.beat().start == first.end  # type: ignore[union-attr]
    texts = " ".join(_texts_drawn(view, gm_app))
    assert "Chieftains and bonnets" in texts and "fewest" in texts
    view.skip_scoring(everything=True)
    assert view.scoring_done()


def test_hover_explains_tiles_cubes_and_the_market_in_every_language(gm_app: App) -> None:
    view = _view(gm_app, 4)
    state = next(s for i, s in enumerate(_positions(8, 4)) if i == 90)
    seat = state.to_move()[0]
    try:
        for code in ("en", "ja", "nl"):
            i18n.set_language(code)
            _show(view, gm_app, state, seat)
            texts = []
            for rect in view.slot_rects.values():
                texts.append(view.hover(rect.center))
            for rect in view.market_rows.values():
                texts.append(view.hover(rect.center))
            texts.append(view.hover(view.stack_rect.center))
            grid = view.big_grid
            assert grid is not None
            for cell in view.territories[view.big_seat()]:
                x, y = grid.centre(*cell)
                texts.append(view.hover((int(x), int(y))))
            for box, *_rest in view.cube_rects:
                texts.append(view.hover(box.center))
            assert all(texts), "every tile, row and counter explains itself"
            for text in texts:
                assert "gm." not in text and "{" not in text, text
    finally:
        i18n.set_language("en")


def test_every_tile_has_a_name_cost_and_effect_in_three_languages() -> None:
    try:
        for code in ("en", "ja", "nl"):
            i18n.set_language(code)
            cat = i18n.catalogue(code)
            for slug in TILE_SLUGS:
                assert f"gm.tile.{slug}" in cat
            for kind in KINDS:
                info = tile_info(kind.id)
                assert tile_name(kind.id) in info
                assert effect_lines(kind.id) and effect_lines(kind.id, on_placement=True)
                assert "gm." not in info and "{" not in info
            for res in RESOURCES:
                assert f"gm.res.{res}" in cat
            for title, blocks in help_pages():
                assert title()
                for block in blocks():
                    assert all(part and "gm." not in part for part in block[1:])
    finally:
        i18n.set_language("en")


def test_the_clan_member_option_changes_what_grey_tiles_say() -> None:
    """GM §4.3: with clan members on placement a village gives its member when placed."""
    village = next(k.id for k in KINDS if k.name == "Village" and k.stack == 1)
    every = "\n".join(effect_lines(village, on_placement=False))
    once = "\n".join(effect_lines(village, on_placement=True))
    assert every.startswith("Each activation: 1 clan member onto this tile; 1 movement point")
    assert "When placed" not in every
    assert once.startswith("When placed: 1 clan member onto this tile\nEach activation: 1 move")


def test_the_help_lists_every_tile() -> None:
    ids = {e["id"] for group in tile_groups() for e in group}
    assert ids == {k.id for k in KINDS}
    text = " ".join(" ".join(b[1:]) for b in help_pages()[1][1]())
    for kind in KINDS:
        assert kind.id in text or kind.id == "START"


def test_legal_index_ignores_malformed_entries() -> None:
    acts = Legal.index([("take", "x"), ("place", 1), ("move", 0, 0, 1, 1), ("done",), ()])
    assert acts.takes == {} and acts.places == {}
    assert acts.moves == {(0, 0): {(1, 1): ("move", 0, 0, 1, 1)}}
    assert acts.done == ("done",)


def test_a_hint_is_marked_and_named_for_every_kind_of_action(gm_app: App) -> None:
    """The normal bot's suggestion (any legal action) draws its mark and names itself."""
    view = _view(gm_app, 3)
    named: set[str] = set()
    for i, state in enumerate(_positions(13, 3, 200)):
        if i % 4:
            continue
        seat = state.to_move()[0]
        _show(view, gm_app, state, seat)
        for action in state.legal_actions(seat):
            view.set_hint(action)
            view.clock += 0.1
            view.draw(gm_app.screen)
            text = view.describe_action(action)
            assert text and "gm." not in text and "{" not in text, (action, text)
            named.add(action[0])
        view.set_hint(None)
    assert {"take", "place", "activate", "done", "sell"} <= named


JUNK: list[Any] = [
    None,
    -1,
    10**12,
    "x",
    "S9-99",
    [],
    {},
    [1, "a"],
    {"a": 1},
    True,
    3.5,
    [10**9, -(10**9)],
]


def _mutate(value: Any, rng: Any, depth: int = 0) -> Any:
    """``value`` with a few of its leaves or branches replaced by junk of another shape."""
    if rng.random() < 0.12 or depth > 5:
        return rng.choice(JUNK)
    if isinstance(value, dict):
        return {
            k: _mutate(v, rng, depth + 1) if rng.random() < 0.5 else v for k, v in value.items()
        }
    if isinstance(value, list):
        return [_mutate(v, rng, depth + 1) if rng.random() < 0.5 else v for v in value]
    return value


def test_a_view_or_events_of_a_strange_shape_never_break_the_table(gm_app: App) -> None:
    """The view dict and the events come from the host: a field of another type, an unknown
    tile, a count of a trillion, a seat that does not exist — the table draws what it can,
    answers clicks, hovers and keys, and never raises (docs/ui.md: data from outside)."""
    import random

    gm_app.settings.animation_speed = 1.0
    rng = random.Random(5)
    view = _view(gm_app, 3)
    w, h = gm_app.size
    state = get_game("glen-more").new(3, {}, 17)
    bots = [make_bot("random", 17 + s) for s in range(3)]
    drawn = 0
    for step in range(160):
        if state.is_over():
            break
        seat = state.to_move()[0]
        events = state.apply(seat, bots[seat].choose(state, seat))
        if step % 3:
            continue
        nxt = state.to_move()[0] if state.to_move() else seat
        legal = state.legal_actions(nxt) if not state.is_over() else []
        for _ in range(3):
            strange = _mutate(state.view(nxt), rng)
            strange_events = [_mutate(ev, rng) for ev in events] + [
                rng.choice(JUNK) for _ in range(2)
            ]
            strange_events = [
                ev if isinstance(ev, dict) else {"type": "x"} for ev in strange_events
            ]
            view.set_turn(list(state.to_move()), state.turn_id(), None)
            view.set_view(strange, legal, strange_events)
            for ev in strange_events:
                view.describe_event(ev)
            view.update(0.05)
            view.draw(gm_app.screen)
            drawn += bool(view.view)
            view.status()
            view.buttons()
            for _ in range(6):
                pos = (rng.randrange(w), rng.randrange(h))
                view.mouse_moved(pos)
                view.hover(pos)
                got = view.click(pos)
                assert got is None or got in legal
            for key in (pygame.K_1, pygame.K_l, pygame.K_c, pygame.K_TAB, pygame.K_BACKSPACE):
                got = _key(view, key)
                assert got is None or got in legal
    assert drawn > 60, "most strange views still draw a table"
    view.set_view({"seats": "none", "board": 5}, [], [{"type": "scoring"}])
    view.draw(gm_app.screen)
    assert view.status() == "" and view.click((w // 2, h // 2)) is None
    view.set_view({"seats": [{}], "over": True, "final": {"coins": "x"}}, [], [])
    view.start_scoring()
    view.draw(gm_app.screen)
