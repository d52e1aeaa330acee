"""The Keyflower table against real engine views: every legal action can be made with the
mouse and keys the way a player would (a click on a tile, the space beside it, a bid, an option
of the action box, a hex of the village, a rotation, Confirm) and nothing else can; every
event of whole games gets a log line; each phase draws in both palettes and every language;
secrets stay behind the screen; the end-of-game scoring shows the engine's own details.

Rule references: ``docs/keyflower.md`` (view fields, actions) and ``shared/rules/keyflower.md``
(KF §n)."""

from __future__ import annotations

import random
from typing import Any

import pygame
import pytest

from game.bots import make_bot
from game.core.registry import get_game
from game.ui.app import App
from game.ui.games.base import SeatInfo
from game.ui.games.keyflower import KeyflowerView
from tests.ui.conftest import make_app

COLOURS = ["red", "blue", "green", "yellow", "purple", "orange"]


def seats(n: int) -> list[SeatInfo]:
    return [SeatInfo(i, f"P{i + 1}", COLOURS[i], "human", True) for i in range(n)]


def make_view(app: App, n: int) -> KeyflowerView:
    view = KeyflowerView(app, seats(n))
    w, h = app.size
    view.layout(pygame.Rect(8, 60, w - 16, h - 68), 140)
    return view


def show(view: KeyflowerView, state: Any, seat: int | None, events: Any = ()) -> None:
    """Give the view what the host would send ``seat`` and draw one frame."""
    legal = state.legal_actions(seat) if seat is not None and seat in state.to_move() else []
    view.set_turn(list(state.to_move()), state.turn_id(), None)
    view.set_view(state.view(seat), legal, list(events))
    view.draw(view.app.screen)


def _key(view: KeyflowerView, key: int) -> Any:
    return view.key(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))


def _hit(view: KeyflowerView, kind: str, key: Any) -> tuple[int, int]:
    for hit in view.hits:
        if hit.kind == kind and hit.key == key:
            if hit.hex_r > 0:
                return (round(hit.centre[0]), round(hit.centre[1]))
            return hit.rect.center
    raise AssertionError(f"nothing drawn for {kind} {key!r}")


def _click(view: KeyflowerView, pos: tuple[int, int]) -> Any:
    view.mouse_moved(pos)
    action = view.click(pos)
    view.draw(view.app.screen)
    return action


def _pick_option(view: KeyflowerView, value: Any) -> Any:
    for rect, v, _label in view.options:
        if v == value:
            return _click(view, rect.center)
    raise AssertionError(f"no option {value!r} among {[o[1] for o in view.options]}")


def _finish(view: KeyflowerView, action: tuple[Any, ...], got: Any) -> Any:
    """Answer the composer's questions (colour, count, payment) until the action is made."""
    for _ in range(6):
        if got is not None:
            return got
        c = view.composer
        if c.complete() == action and not [o for o in view.options if o[1][0] == "field"]:
            return view.default_action()
        n = len(c.prefix)
        assert tuple(action[:n]) == c.prefix, (action, c.prefix)
        if c.complete() == action:
            return view.default_action()
        got = _pick_option(view, ("field", action[n]))
    return got


def compose(view: KeyflowerView, action: tuple[Any, ...], rng: random.Random) -> Any:
    """Make ``action`` through the table as a player would; returns what the view sends."""
    kind = action[0]
    you = view.view["you"]
    if kind == "pass":
        return _key(view, pygame.K_p)
    if kind == "done":
        return _key(view, pygame.K_d)
    if kind == "reclaim":
        if rng.random() < 0.5:
            return _click(view, _hit(view, "chip", (action[1], you)))
        return _pick_option(view, action)
    if kind in ("bid", "bid_tile"):
        return _finish(view, action, _click(view, _hit(view, "bid", action[1])))
    if kind in ("use", "use_tile"):
        return _finish(view, action, _click(view, _hit(view, "tile", action[1])))
    if kind in ("pay_keyple", "pay_skill", "resource", "keyple"):
        return _finish(view, action, None)
    if kind == "move":
        if rng.random() < 0.5:
            return _click(view, _hit(view, "res", (action[1], action[2])))
        assert _click(view, _hit(view, "tile", action[1])) is None
        return _pick_option(view, action)
    if kind == "move_to":
        return _click(view, _hit(view, "tile", action[1]))
    if kind == "upgrade":
        got = _click(view, _hit(view, "tile", action[1]))
        return got if got is not None else _pick_option(view, action)
    if kind == "boat":
        assert _click(view, _hit(view, "boat", action[1])) is None
        if rng.random() < 0.5:
            return view.default_action()
        return _click(view, _hit(view, "boat", action[1]))
    if kind == "place_tile":
        return _click(view, _hit(view, "hand", action[1]))
    if kind == "place":
        if view.composer.prefix[:2] != ("place", action[1]):
            assert _click(view, _hit(view, "hand", action[1])) is None
        _tile, q, r, rot = action[1:]
        x, y = view.big_grid.centre(q, r)
        assert _click(view, (round(x), round(y))) is None
        while view.ghost_rot != rot:
            assert view.ghost_action() is None or view.ghost_rot != rot
            _key(view, pygame.K_e)
            view.draw(view.app.screen)
        assert view.ghost_action() == action
        if rng.random() < 0.5:
            return _click(view, (round(x), round(y)))
        return view.default_action()
    if kind == "winter_tiles":
        for tile in action[1:]:
            _click(view, _hit(view, "hand", tile))
        return view.default_action()
    raise AssertionError(f"no way to make {action}")


@pytest.fixture
def kf_app(env: Any) -> Any:
    application = make_app((1280, 800))
    yield application
    application.shutdown()


def play_through_the_table(app: App, players: int, seed: int, log: list[str] | None = None) -> Any:
    """A whole game in which every action of every seat is made through the table."""
    state = get_game("keyflower").new(players, {}, seed)
    views = [make_view(app, players) for _ in range(players)]
    bots = [make_bot("random", seed * 10 + s) for s in range(players)]
    rng = random.Random(seed)
    kinds: set[str] = set()
    events: list[list[dict[str, Any]]] = [[] for _ in range(players)]
    steps = 0
    while not state.is_over():
        seat = state.to_move()[0]
        view = views[seat]
        show(view, state, seat, events[seat])
        events[seat] = []
        action = bots[seat].choose(state, seat)
        got = compose(view, action, rng)
        assert got == action, (state.view(seat)["phase"], action, got)
        assert got in state.legal_actions(seat)
        kinds.add(action[0])
        evs = state.apply(seat, action)
        for s in range(players):
            visible = state.visible_events(evs, s)
            events[s].extend(visible)
            if log is not None and s == 0:
                log.extend(
                    line.text for ev in visible if (line := views[0].describe_event(ev)) is not None
                )
        steps += 1
    return state, kinds, steps


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 7), (4, 3), (6, 8)])
def test_every_action_of_whole_games_is_made_through_the_table(
    kf_app: App, players: int, seed: int
) -> None:
    state, kinds, steps = play_through_the_table(kf_app, players, seed)
    assert state.is_over() and steps > 60
    # every kind of step a game of this size needs came through the table
    assert {"pass", "bid", "use", "boat", "place", "winter_tiles"} <= kinds
    if players == 6:
        # long lists are narrowed by tile first (docs/keyflower.md, E1): through the table too
        assert {"use_tile", "bid_tile", "place_tile"} <= kinds


def test_clicks_only_ever_send_legal_actions(kf_app: App) -> None:
    """Clicking everywhere on the table at many positions never sends an action outside the
    seat's legal list (and nothing at all for a seat that is not to move)."""
    state = get_game("keyflower").new(4, {}, 12)
    bots = [make_bot("random", s) for s in range(4)]
    view = make_view(kf_app, 4)
    other = make_view(kf_app, 4)
    w, h = kf_app.size
    points = [(x, y) for x in range(10, w, 23) for y in range(64, h, 29)]
    rng = random.Random(2)
    for step in range(120):
        if state.is_over():
            break
        seat = state.to_move()[0]
        if step % 6 == 0:
            show(view, state, seat)
            legal = set(state.legal_actions(seat))
            for pos in rng.sample(points, 120):
                got = view.click(pos)
                view.draw(kf_app.screen)
                assert got is None or got in legal, got
            idle = [s for s in range(4) if s not in state.to_move()]
            show(other, state, idle[0] if idle else None)  # a seat not to move, or a spectator
            for pos in rng.sample(points, 60):
                assert other.click(pos) is None
        state.apply(seat, bots[seat].choose(state, seat))


def test_every_event_has_a_log_line_and_private_ones_stay_private(kf_app: App) -> None:
    state = get_game("keyflower").new(3, {}, 5)
    view = make_view(kf_app, 3)
    bots = [make_bot("random", s) for s in range(3)]
    seen: set[str] = set()
    while not state.is_over():
        seat = state.to_move()[0]
        evs = state.apply(seat, bots[seat].choose(state, seat))
        for ev in state.visible_events(evs, 0):
            seen.add(ev["type"])
            view.show_private = True
            line = view.describe_event(ev)
            if ev["type"] != "place_tile":
                assert line is not None and line.text and "kf." not in line.text, ev
        # events of other seats' private choices are never shown to seat 0
        for ev in state.visible_events(evs, 0):
            if ev["type"] in ("winter_choice", "place", "drew_keyples", "winter_hand"):
                assert ev.get("seat") == 0
    view.show_private = False
    assert view.describe_event({"type": "drew_keyples", "seat": 0, "keyples": ["red"]}) is None
    assert {
        "bid",
        "use",
        "pass",
        "season_end",
        "boat",
        "placed",
        "winter_auction",
        "game_over",
        "produce",
    } <= seen


def _advance(state: Any, bots: list[Any], until: Any, limit: int = 600) -> None:
    for _ in range(limit):
        if state.is_over() or until(state):
            return
        seat = state.to_move()[0]
        state.apply(seat, bots[seat].choose(state, seat))
    raise AssertionError("the position was not reached")


def test_placement_ghost_turns_and_only_legal_rotations_place(kf_app: App) -> None:
    """KF §9: a new tile's ghost can be turned to every rotation; the sides touching the
    village are marked; Confirm is offered only for a rotation the engine lists."""
    state = get_game("keyflower").new(2, {}, 4)
    bots = [make_bot("random", s) for s in range(2)]
    _advance(state, bots, lambda st: st.view(None)["phase"] == "place")
    seat = state.to_move()[0]
    view = make_view(kf_app, 2)
    show(view, state, seat)
    legal = state.legal_actions(seat)
    place = next(a for a in legal if a[0] == "place")
    if view.composer.prefix[:2] != ("place", place[1]):
        _click(view, _hit(view, "hand", place[1]))
    x, y = view.big_grid.centre(place[2], place[3])
    _click(view, (round(x), round(y)))
    assert view.ghost == (place[2], place[3])
    fits = {a[4] for a in legal if a[:4] == place[:4]}
    seen = set()
    for _ in range(6):
        _key(view, pygame.K_e)
        view.draw(kf_app.screen)
        seen.add(view.ghost_rot)
        made = view.ghost_action()
        assert (made is not None) == (view.ghost_rot in fits)
        buttons = {b.id: b for b in view.buttons()}
        assert buttons["kf_confirm"].enabled == (made is not None)
        assert view.hover((round(x), round(y)))
    assert seen == set(range(6))
    # Back unpins the ghost, a hex that is not a target does nothing
    view.back()
    assert view.ghost is None
    assert view.click((2, 62)) is None


def test_the_screen_shows_only_your_own_secrets(kf_app: App) -> None:
    """Your keyples, skills and winter tiles are drawn for you only; with show_private off
    (hot-seat, someone else may look) nothing of them is drawn or logged."""
    state = get_game("keyflower").new(3, {}, 9)
    view = make_view(kf_app, 3)
    show(view, state, 0)
    hits = [h for h in view.hits if h.kind in ("mine", "winter")]
    assert len([h for h in hits if h.kind == "winter"]) == 3
    assert sum(h.key[2] for h in hits if h.kind == "mine" and h.key[0] == "k") == 8
    view.show_private = False
    view.layers.clear()
    view.draw(kf_app.screen)
    assert not [h for h in view.hits if h.kind in ("mine", "winter")]
    spectator = make_view(kf_app, 3)
    show(spectator, state, None)
    assert not [h for h in spectator.hits if h.kind in ("mine", "winter")]
    assert spectator.view["you"] is None


@pytest.mark.parametrize("lang", ["en", "ja", "nl"])
@pytest.mark.parametrize("size", [(1024, 640), (1920, 1080), (2560, 1440)])
def test_every_phase_draws_without_overflow(env: Any, lang: str, size: tuple[int, int]) -> None:
    """Each phase (turns, transport, boats, placement, winter choice, the end) at the smallest
    and the largest windows, in every language, in both palettes: every text fits."""
    app = make_app(size, language=lang)
    from game.ui.i18n import set_language

    set_language(lang)
    try:
        state = get_game("keyflower").new(4, {}, 21)
        bots = [make_bot("random", s) for s in range(4)]
        view = make_view(app, 4)
        wanted = ["play", "transport", "boats", "place", "winter_pick", "over"]
        found: set[str] = set()
        for step in range(2000):
            if state.is_over():
                break
            v = state.view(None)
            stage = (v.get("pending") or {}).get("stage")
            tag = "transport" if stage == "transport" else v["phase"]
            seat = state.to_move()[0]
            if tag not in found:
                found.add(tag)
                app.settings.colour_blind = step % 2 == 0
                show(view, state, seat)
                assert view.status()
                hover_all(view)
                assert not view.overflows, (tag, view.overflows)
            state.apply(seat, bots[seat].choose(state, seat))
        show(view, state, 0, [{"type": "game_over"}])
        view.start_scoring()
        for _ in range(80):
            view.update(0.25)
            view.draw(app.screen)
            assert not view.overflows, view.overflows
        found.add("over")
        assert set(wanted) <= found
    finally:
        set_language("en")
        app.shutdown()


def hover_all(view: KeyflowerView) -> None:
    """Hover every thing drawn: each says something (and none raises)."""
    for hit in list(view.hits):
        pos = (round(hit.centre[0]), round(hit.centre[1])) if hit.hex_r else hit.rect.center
        view.mouse_moved(pos)
        text = view.hover(pos)
        assert text and "kf." not in text, (hit.kind, hit.key, text)


def test_end_scoring_shows_the_engines_details_category_by_category(kf_app: App) -> None:
    """KF §13: the sequence goes category by category and seat by seat; each seat's points
    count up to the engine's score; the tiles it marks are exactly those the engine's details
    name for that category; the panel lists the winter assignment."""
    kf_app.settings.animation_speed = 1.0
    state = get_game("keyflower").new(3, {}, 2)
    bots = [make_bot("random", s) for s in range(3)]
    _advance(state, bots, lambda st: False, 2000)
    final = state.view(0)
    view = make_view(kf_app, 3)
    view.set_view(final, [], [{"type": "game_over"}])
    view.start_scoring()
    sc = view.scoring
    assert sc is not None and not view.scoring_done()
    assert sc.categories == ["tiles", "turn_order", "boats", "storage", "winter", "gold"]
    scores = state.scores()
    for beat in sc.beats:
        sc.elapsed = beat.start + beat.duration * 0.95
        view.draw(kf_app.screen)
        focus = view._focus()
        if beat.seat is None:
            assert focus is None
            continue
        cat = sc.categories[beat.category]
        assert focus is not None and focus.seat == beat.seat
        assert view._shown_big_seat() == beat.seat
        assert sc.value(beat.category, beat.seat) == scores[beat.seat][cat]
        details = final["final"][beat.seat]
        key = {
            "tiles": "printed",
            "turn_order": "turn_order",
            "boats": "boats",
            "storage": "storage",
            "winter": "winter",
        }.get(cat)
        if key:
            assert focus.tiles() == details[key]
        lines = view._score_lines(cat, beat.seat)
        assert lines, "every share says something (a seat that scored nothing says so)"
        if cat == "winter":
            for fam in details["assignment"].values():
                assert len([x for x in lines if "←" in x]) >= len(fam) or not fam
    sc.finish()
    view.update(0.01)
    assert view.scoring_done()
    assert [sc.running_total(s) for s in range(3)] == [row["total"] for row in scores]
    # afterwards a cell of the score table shows that category of that seat
    view.draw(kf_app.screen)
    rect, cat, seat = view.score_cells[4]
    view.mouse_moved(rect.center)
    assert view.hover_focus == (cat, seat)
    assert view.hover(rect.center)


JUNK: list[Any] = [None, -1, 10**9, "", "nonsense", [], {}, [None], {"x": 1}, 2.5, True, [[1]]]


def _mutate(value: Any, rng: random.Random, depth: int = 0) -> Any:
    """A copy of ``value`` with some fields replaced by values of the wrong shape."""
    if rng.random() < 0.08:
        return rng.choice(JUNK)
    if isinstance(value, dict):
        out = {k: _mutate(v, rng, depth + 1) for k, v in value.items()}
        if out and rng.random() < 0.1:
            out.pop(rng.choice(list(out)))
        return out
    if isinstance(value, list):
        out_list = [_mutate(v, rng, depth + 1) for v in value]
        if rng.random() < 0.05:
            out_list.append(rng.choice(JUNK))
        return out_list
    return value


@pytest.mark.parametrize("seed", [13, 14, 15])
def test_views_and_events_of_strange_shapes_never_break_the_table(kf_app: App, seed: int) -> None:
    """Everything from the host is hostile: views, legal lists and events with missing keys,
    wrong types and unknown tiles draw, hover, click and log without an exception."""
    rng = random.Random(seed)
    state = get_game("keyflower").new(4, {}, 31 + seed)
    bots = [make_bot("random", s) for s in range(4)]
    view = make_view(kf_app, 4)
    w, h = kf_app.size
    for step in range(400):
        if state.is_over():
            break
        seat = state.to_move()[0]
        action = bots[seat].choose(state, seat)
        events = state.apply(seat, action)
        if step % 5:
            continue
        real = state.view(seat) if not state.is_over() else state.view(0)
        legal = [list(a) for a in (state.legal_actions(seat) if seat in state.to_move() else [])]
        for _ in range(3):
            bad_view = _mutate(real, rng)
            # the protocol lets only flat actions of strings and numbers through
            bad_legal = [
                [rng.choice(["x", -1, 10**9, "", 0]) if rng.random() < 0.1 else v for v in a]
                for a in legal
            ]
            bad_events = _mutate([dict(e) for e in events], rng)
            to_move = [rng.choice([s, s, -1, 99]) for s in state.to_move()]
            view.set_turn(to_move, rng.choice([None, 3, "x"]), None)
            view.set_view(
                bad_view,
                [tuple(a) for a in bad_legal if isinstance(a, list) and a],
                bad_events if isinstance(bad_events, list) else [],
            )
            view.update(0.1)
            view.draw(kf_app.screen)
            view.status()
            for ev in bad_events if isinstance(bad_events, list) else []:
                if isinstance(ev, dict):
                    view.describe_event(ev)
            for _ in range(6):
                pos = (rng.randrange(w), rng.randrange(60, h))
                view.mouse_moved(pos)
                view.hover(pos)
                view.click(pos)
            view.buttons()
    view.set_view(_mutate(state.view(0), rng), [], [{"type": "game_over"}])
    view.start_scoring()
    for _ in range(40):
        view.update(0.3)
        view.draw(kf_app.screen)


@pytest.mark.parametrize("lang", ["en", "ja", "nl"])
def test_every_tile_of_the_box_is_written_out_in_every_language(lang: str) -> None:
    """Hovering any tile shows its sides' effects and the upgrade cost in the chosen language:
    each of the 64 tiles has a name, both sides of an upgradable tile and its cost are there,
    and no untranslated key is left (KF §6, §7.2, §11, §12, §13)."""
    from game.keyflower.tiles import TILES
    from game.ui.games.keyflower import tile_name, tile_text
    from game.ui.games.keyflower.text import cost_text, side_text
    from game.ui.i18n import set_language

    set_language(lang)
    try:
        names = set()
        for tile in TILES:
            name = tile_name(tile.id)
            assert name and name != "?" and "kf." not in name
            names.add(name)
            for face in {s.face for s in tile.sides}:
                text = tile_text(tile.id, face)
                assert "kf." not in text and "{" not in text, (tile.id, text)
                # both sides of village tiles and summer boats; the face in play of the others
                faces = (
                    range(len(tile.sides))
                    if tile.kind != "turn_order"
                    else [[x.face for x in tile.sides].index(face)]
                )
                for i in faces:
                    assert side_text(tile, i) in text, (tile.id, i)
                if tile.kind in ("home", "village") and tile.cost is not None:
                    assert cost_text(tile) in text
        assert len(names) == len(TILES)  # every tile has a name of its own
    finally:
        set_language("en")


def test_the_count_buttons_say_what_stands_at_the_tile_then(kf_app: App) -> None:
    """KF §5: a bid's total is the reclaimed keyples plus those added, plus your standing bid
    there (unless it was brought back); the count buttons say so."""
    state = get_game("keyflower").new(3, {}, 1)
    bots = [make_bot("random", s) for s in range(3)]
    view = make_view(kf_app, 3)
    checked = 0
    for _ in range(300):
        if state.is_over() or checked > 20:
            break
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        bids = [a for a in legal if a[0] == "bid"]
        if bids:
            show(view, state, seat)
            tile = bids[0][1]
            pending = state.view(seat)["pending"] or {}
            own = next(
                (
                    b[2]
                    for a in state.view(seat)["activity"]
                    if a["tile"] == tile
                    for b in a["bids"]
                    if b[0] == seat
                ),
                0,
            )
            if tile in (pending.get("reclaimed") or []):
                own = 0
            brought = pending.get("keyples") or 0
            for a in bids:
                if a[1] == tile:
                    label = view._count_label("bid", tile, a[3])
                    assert f"+{a[3]}" in label and str(own + brought + a[3]) in label
                    checked += 1
        state.apply(seat, bots[seat].choose(state, seat))
    assert checked


def test_a_target_with_one_way_left_is_sent_by_a_second_click_or_confirm(kf_app: App) -> None:
    """When a tile allows a single colour and count, a click chooses it, Confirm offers that
    very action and a second click on the tile sends it; a click on another target starts
    afresh; Back steps out again."""
    checked = 0
    for seed in range(6):
        state = get_game("keyflower").new(3, {}, seed)
        bots = [make_bot("random", s) for s in range(3)]
        view = make_view(kf_app, 3)
        for _ in range(200):
            if state.is_over() or checked >= 6:
                break
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            uses: dict[str, list[Any]] = {}
            for a in legal:
                if a[0] == "use":
                    uses.setdefault(a[1], []).append(a)
            single = [t for t, acts in uses.items() if len(acts) == 1]
            if single:
                show(view, state, seat)
                tile = single[0]
                assert _click(view, _hit(view, "tile", tile)) is None
                assert view.confirm_action() == uses[tile][0]
                assert {b.id: b for b in view.buttons()}["kf_confirm"].enabled
                assert _click(view, _hit(view, "tile", tile)) == uses[tile][0]
                view.back()
                view.back()
                assert view.composer.prefix == () and view.confirm_action() is None
                checked += 1
            state.apply(seat, bots[seat].choose(state, seat))
    assert checked


def test_the_wheel_zooms_the_large_village_about_the_mouse(kf_app: App) -> None:
    state = get_game("keyflower").new(2, {}, 3)
    view = make_view(kf_app, 2)
    show(view, state, 0)
    home = next(h for h in view.hits if h.kind == "tile" and h.data.get("seat") == 0)
    pos = (round(home.centre[0]), round(home.centre[1]))
    size = view.big_grid.size
    assert view.wheel(pos, 1)
    view.draw(kf_app.screen)
    assert view.big_grid.size > size
    # the tile under the mouse stays under it
    again = next(h for h in view.hits if h.kind == "tile" and h.key == home.key)
    assert abs(again.centre[0] - pos[0]) <= 2 and abs(again.centre[1] - pos[1]) <= 2
    assert not view.wheel((2, 62), 1)  # not over the village


def test_a_click_on_a_refused_target_asks_the_host_why(kf_app: App) -> None:
    """What a click asks for (``intent``): a legal target gives one of its legal actions; any
    other tile, bid space, bid, resource or hex gives an action the engine refuses with a
    reason naming its rule — which the game scene asks the host for and shows at the pointer."""
    state = get_game("keyflower").new(4, {}, 17)
    bots = [make_bot("random", s) for s in range(4)]
    view = make_view(kf_app, 4)
    refused = 0
    for step in range(260):
        if state.is_over():
            break
        seat = state.to_move()[0]
        if step % 4 == 0:
            show(view, state, seat)
            legal = state.legal_actions(seat)
            if view._phase() == "place" and view._place_tile() is not None:
                cells = [(q, r) for q in range(-3, 4) for r in range(-3, 4)]
                points = [tuple(round(v) for v in view.big_grid.centre(*c)) for c in cells]
            else:
                points = [
                    (round(h.centre[0]), round(h.centre[1])) if h.hex_r else h.rect.center
                    for h in view.hits
                ]
            for pos in points:
                intent = view.intent(pos)  # type: ignore[arg-type]
                if intent is None or intent in legal:
                    continue
                refused += 1
                error = state.explain_illegal(seat, intent)
                assert str(error) and error.rule, intent
        state.apply(seat, bots[seat].choose(state, seat))
    assert refused > 20


def test_the_end_of_a_season_is_animated_from_the_board_as_it_was(kf_app: App) -> None:
    """KF §8: when the season ends, the board stays as it was with its bids taken off while
    every bid flies (losing ones to their players, winning ones to the bag); then each won tile
    flies from its place into the row of won tiles (its place there empty until it lands) and
    the keyples used on it go to its winner; at the end the new board shows.  A boat taken at
    once by a bot waits for all that instead of cutting it short."""
    kf_app.settings.animation_speed = 1.0
    state = get_game("keyflower").new(3, {}, 2)
    bots = [make_bot("random", 20 + s) for s in range(3)]
    view = make_view(kf_app, 3)
    show(view, state, 0)
    events: list[dict[str, Any]] = []
    while not any(ev.get("type") == "season_end" for ev in events):
        show(view, state, 0, state.visible_events(events, 0))
        view.finish_animations()
        seat = state.to_move()[0]
        events = state.apply(seat, bots[seat].choose(state, seat))
    before = view.view
    bids = [b for a in before["activity"] for b in a.get("bids") or [] if isinstance(b, list)]
    won = next(ev for ev in events if ev["type"] == "season_end")["won"]
    won_tiles = [str(x) for tiles in won for x in tiles]
    assert bids and won_tiles
    old_hits = list(view._hits_season)
    chips = [
        h.rect.move(-view.season_rect.x, -view.season_rect.y) for h in old_hits if h.kind == "chip"
    ]
    assert chips
    board_before = view._season_layer().copy()
    show(view, state, 0, state.visible_events(events, 0))
    assert view.view["phase"] == "boats"
    held = view._held_board()
    assert held is not None, "the old board is held while the bids fly"
    flights = [a for a in view.anims if a.kind == "keyples"]
    assert len(flights) >= len(bids)
    tiles = {a.tile for a in view.anims if a.kind == "tile" and a.cover}
    assert tiles == set(won_tiles)
    # the held board is the board as it was without its chips: the tiles where they were,
    # no chip where the bids were
    ox, oy = view.season_rect.topleft
    for hit in old_hits:
        if hit.kind == "tile":
            at = (round(hit.centre[0] - ox), round(hit.centre[1] - oy))
            assert held.get_at(at) == board_before.get_at(at), hit.key
    for chip in chips:
        assert any(
            held.get_at((x, chip.centery)) != board_before.get_at((x, chip.centery))
            for x in range(chip.x, chip.right)
        )
    # a bot takes the first boat at once: the end of the season still plays out (what is
    # flying otherwise lands at once when the game runs this far ahead of the table)
    from game.ui.games.keyflower.motion import MAX_BACKLOG

    view.update(0.05)
    assert view._backlog(view.anims) > MAX_BACKLOG
    seat = state.to_move()[0]
    events = state.apply(seat, bots[seat].choose(state, seat))
    assert any(ev["type"] == "boat" for ev in events)
    show(view, state, 0, state.visible_events(events, 0))
    assert view._held_board() is held
    assert {a.tile for a in view.anims if a.kind == "tile" and a.cover} == set(won_tiles)
    # time passes: the hold ends when the tiles start to fly, all lands in the end
    for _ in range(600):
        view.update(1 / 60)
        view.draw(kf_app.screen)
        if view._held_board() is None:
            break
    assert view._held_board() is None and view.animating()
    for _ in range(600):
        view.update(1 / 60)
        view.draw(kf_app.screen)
        if not view.animating():
            break
    assert not view.animating()
    row = {h.key for h in view.hits if h.kind == "hand"}
    assert set(won_tiles) <= row


@pytest.mark.parametrize("lang", ["en", "ja", "nl"])
def test_boat_options_name_the_boat_whole_and_show_its_load(env: Any, lang: str) -> None:
    """The boat choice (KF §8 step 5) at the smallest window with six players: each option of
    the action box shows its boat's whole name and its load as keyple and skill icons with
    counts (the load in words on hover), nothing shortened."""
    from game.ui.i18n import set_language

    app = make_app((1024, 640), language=lang)
    set_language(lang)
    try:
        state = get_game("keyflower").new(6, {}, 5)
        bots = [make_bot("random", s) for s in range(6)]
        while state.view(None)["phase"] != "boats":
            seat = state.to_move()[0]
            state.apply(seat, bots[seat].choose(state, seat))
        seat = state.to_move()[0]
        view = make_view(app, 6)
        cut: list[str] = []
        fonts = app.fonts
        ellipsize = fonts.ellipsize

        def watch(text: str, *args: Any, **kw: Any) -> str:
            out = ellipsize(text, *args, **kw)
            if out != text:
                cut.append(text)
            return out

        fonts.ellipsize = watch  # type: ignore[method-assign]
        show(view, state, seat)
        boats = [o for o in view.options if o[1][0] == "pick_boat"]
        assert len(boats) >= 4
        from game.ui.games.keyflower.text import tile_name

        for rect, (_k, boat), label in boats:
            name = tile_name(boat)
            assert name not in cut and label not in cut, (name, cut)
            load = view._load_icons(boat)
            entry = next(b for b in state.view(seat)["boats"] if b["boat"] == boat)
            assert sum(n for _k2, _c, n in load) == sum(entry["keyples"]) + sum(entry["skills"])
            assert rect.width <= view.action_rect.width
            view.mouse_moved(rect.center)
            assert view.hover(rect.center) == label and label.startswith(name)
    finally:
        set_language("en")
        app.shutdown()


@pytest.mark.parametrize("size", [(1024, 640), (1920, 1080)])
def test_every_boat_shows_its_whole_load(env: Any, size: tuple[int, int]) -> None:
    """KF §3/§8 (D22: the loads are face up): with six players the row of turn-order tiles and
    boats is crowded, yet every keyple colour and every skill tile on every boat is drawn
    below it with its count."""
    from game.ui.games.keyflower import art

    app = make_app(size)
    try:
        state = get_game("keyflower").new(6, {}, 4)
        view = make_view(app, 6)
        drawn: dict[str, list[tuple[str, str]]] = {}
        keyple, skill = art.draw_keyple, art.draw_skill
        paint_load = view._paint_load
        boat_now: list[str] = []

        def load(surf: Any, boat: str, *a: Any) -> None:
            boat_now.append(boat)
            drawn[boat] = []
            paint_load(surf, boat, *a)
            boat_now.pop()

        def count_keyple(surf: Any, at: Any, size: Any, colour: str, *a: Any) -> None:
            if boat_now:
                drawn[boat_now[-1]].append(("k", colour))
            keyple(surf, at, size, colour, *a)

        def count_skill(surf: Any, at: Any, size: Any, kind: str) -> None:
            if boat_now:
                drawn[boat_now[-1]].append(("s", kind))
            skill(surf, at, size, kind)

        view._paint_load = load  # type: ignore[method-assign]
        art.draw_keyple, art.draw_skill = count_keyple, count_skill  # type: ignore[assignment]
        try:
            view.layers.clear()
            show(view, state, 0)
        finally:
            art.draw_keyple, art.draw_skill = keyple, skill  # type: ignore[assignment]
        boats = state.view(0)["boats"]
        assert len(boats) == 6 and set(drawn) == {b["boat"] for b in boats}
        for b in boats:
            want = [
                ("k", c) for c, n in zip(["red", "blue", "yellow"], b["keyples"], strict=True) if n
            ]
            want += [
                ("s", k) for k, n in zip(["saw", "pickaxe", "anvil"], b["skills"], strict=True) if n
            ]
            assert drawn[b["boat"]] == want, b
    finally:
        app.shutdown()
