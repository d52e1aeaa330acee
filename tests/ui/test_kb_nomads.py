"""The Kingdom Builder table with the Nomads expansion (issue 13, the client's part), against
real engine views: nomad tiles face up on their hexes and held in the panel (buttons that use
them exactly when the engine lists ``use``), gold per seat, the Nomads cards' live score,
statuses that count what the engine says is left, every new event in the log, the Sword's
targets, the end-of-game sequence over the new categories, the help in three languages, and
five players at 1024x640.

Positions are hand-built on the Nomads map of ``tests/kingdom_builder/test_nomads.py`` (Quarry
TL, Caravan TR, Village BL, Garden BR; nomad hexes (3,13) (5,2) (5,7) (7,5) (13,4) (17,16)).
"""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from game.bots import make_bot
from game.core.registry import get_game
from game.kingdom_builder import nomads as nm
from game.ui import i18n
from game.ui.app import App
from game.ui.games.base import SeatInfo
from game.ui.games.kingdom_builder import KingdomBuilderView
from game.ui.games.kingdom_builder.common import NOMAD_CARD_NAMES, NOMAD_TILE_TYPES, TREASURE
from game.ui.games.kingdom_builder.help import help_pages, open_detail_keys
from game.ui.games.kingdom_builder.text import card_name, nomad_name, tile_name
from tests.kingdom_builder.helpers import position
from tests.ui.conftest import make_app

NB = ("Quarry", "Caravan", "Village", "Garden")
COLOURS = ["red", "blue", "green", "yellow", "purple"]


def nb(**kw: Any) -> Any:
    kw.setdefault("sections", NB)
    kw.setdefault("nomads", "full")
    return position(**kw)


@pytest.fixture
def kb_app(env: Any) -> Any:
    application = make_app((1024, 640))
    yield application
    application.shutdown()


def _view(app: App, n: int, local: bool = True) -> KingdomBuilderView:
    seats = [SeatInfo(i, f"P{i + 1}", COLOURS[i], "human", local and i == 0) for i in range(n)]
    view = KingdomBuilderView(app, seats)
    w, h = app.size
    view.layout(pygame.Rect(8, 50, w - 16, h - 58), 120)
    return view


def _show(view: KingdomBuilderView, state: Any, seat: int = 0) -> None:
    legal = state.legal_actions(seat)
    view.set_view(state.view(seat), legal, [])
    view.draw(view.app.screen)  # lays the panel out (tile buttons, rows)


def _centre(view: KingdomBuilderView, r: int, c: int) -> tuple[int, int]:
    assert view.hexes is not None
    x, y = view.hexes.centre(r, c)
    return (round(x), round(y))


def test_nomad_tiles_lie_face_up_on_their_hexes_and_explain_themselves(kb_app: App) -> None:
    """KB §3.3: each nomad hex shows its face-up tile (a Donation in its terrain's colour);
    the hover names the tile, says what it does and who takes it."""
    from game.ui.games.kingdom_builder import art

    state = nb(nomad_tiles={(5, 7): "Sword", (7, 5): "Donation - Water"}, terrain="D")
    view = _view(kb_app, 2)
    _show(view, state)
    assert set(view.nomads) >= {(5, 7), (7, 5), (3, 13)}
    screen = kb_app.screen
    x, y = _centre(view, 7, 5)
    assert view.hexes is not None
    # The tile's face sits a little above the hex centre; its edge is in the Donation's colour.
    water = art.chip_colour("Donation", "W")
    near = [
        tuple(screen.get_at((x + dx, y - int(view.hexes.size * 0.12) + dy)))[:3]
        for dx in range(-9, 10, 3)
        for dy in range(-9, 10, 3)
    ]
    assert water in near
    text = view.hover(_centre(view, 5, 7))
    assert nomad_name("Sword") in text and "first player" in text
    text = view.hover(_centre(view, 7, 5))
    assert nomad_name("Donation", "W") == "Donation: Water" and "Donation: Water" in text
    # A nomad hex whose tile is gone says so.
    assert "gone" in view.hover(_centre(view, 3, 13))


def test_held_nomad_tiles_are_buttons_that_use_them_exactly_when_legal(kb_app: App) -> None:
    """A held nomad tile is a panel button (and its hex a click target) whose action is
    ``("use", r, c)`` exactly when the engine lists it: a pending tile waits a turn."""
    state = nb(
        settlements={0: [(4, 7)], 1: [(9, 9)]},
        nomad_held={0: {(5, 7): ("Sword", "ready"), (7, 5): ("Treasure", "pending")}},
        terrain="D",
    )
    legal = state.legal_actions(0)
    assert ("use", 5, 7) in legal and ("use", 7, 5) not in legal
    view = _view(kb_app, 2)
    _show(view, state)
    buttons = {
        (t["hex"][0], t["hex"][1]): (rect, action, t) for rect, action, t in view.tile_buttons
    }
    assert set(buttons) == {(5, 7), (7, 5)}
    rect, action, tile = buttons[(5, 7)]
    assert action == ("use", 5, 7) and tile["nomad"] and view.click(rect.center) == action
    rect, action, tile = buttons[(7, 5)]
    assert action is None and view.click(rect.center) is None
    assert "next turn" in view.hover(rect.center)
    assert view.click(_centre(view, 5, 7)) == ("use", 5, 7)  # the nomad hex uses it too
    # Key 1 uses the first usable tile.
    event = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_1, mod=0)
    assert view.key(event) == ("use", 5, 7)
    # Every seat's row shows the nomad tiles it holds; the gold column is there.
    view.set_view(state.view(1), [], [])
    view.draw(kb_app.screen)
    assert view.tile_buttons == [], "another seat's tiles are not buttons"


def test_the_sword_highlights_other_players_settlements_and_counts_them(kb_app: App) -> None:
    state = nb(
        players=4,
        settlements={0: [(4, 7)], 1: [(0, 0), (0, 1)], 2: [(19, 0)]},
        nomad_held={0: {(5, 7): ("Sword", "ready")}},
    )
    state.apply(0, ("use", 5, 7))
    view = _view(kb_app, 4)
    _show(view, state)
    assert {h: a for h, a in view.actions_at.items()} == {
        (0, 0): ("remove", 0, 0),
        (0, 1): ("remove", 0, 1),
        (19, 0): ("remove", 19, 0),
    }
    assert view.click(_centre(view, 19, 0)) == ("remove", 19, 0)
    left = state.view(0)["turn"]["pending"]["left"]
    assert (
        left == 2
        and view.status() == f"Sword: choose a settlement of another player to remove ({left} left)"
    )
    assert "P2" in view.hover(_centre(view, 0, 0))
    events = state.apply(0, ("remove", 0, 0))
    view.set_view(state.view(0), state.legal_actions(0), events)
    line = view.describe_event(events[0])
    assert line is not None and "P1" in line.text and "P2" in line.text


def test_resettlement_and_donation_say_what_is_left(kb_app: App) -> None:
    """The status counts the steps and settlements the engine says are left
    (``turn.pending.left``), and offers Stop once Resettlement may stop."""
    state = nb(
        settlements={0: [(4, 7)]},
        nomad_held={0: {(7, 5): ("Resettlement", "ready")}},
        terrain="D",
    )
    state.apply(0, ("use", 7, 5))
    view = _view(kb_app, 2)
    _show(view, state)
    assert view.status() == "Resettlement: choose one of your settlements to move one step (4 left)"
    src = next(a for a in state.legal_actions(0) if a[0] == "move_from")
    state.apply(0, src)
    _show(view, state)
    assert view.status().startswith("Resettlement: choose the neighbouring hex")
    dest = next(a for a in state.legal_actions(0) if a[0] == "place")
    events = state.apply(0, dest)
    view.set_view(state.view(0), state.legal_actions(0), events)
    assert ("stop",) in view.legal and view.status().endswith("(3 left), or stop")
    assert [b.id for b in view.buttons()] == ["end_turn", "stop"]
    state = nb(settlements={0: [(0, 0)]}, nomad_held={0: {(5, 2): ("Donation - Grass", "ready")}})
    state.apply(0, ("use", 5, 2))
    view.set_view(state.view(0), state.legal_actions(0), [])
    left = state.view(0)["turn"]["pending"]["left"]
    assert view.status() == f"Donation: Grass: build {left} more on Grass"


def test_an_armed_outpost_shows_in_the_turn_box_and_on_hover(kb_app: App) -> None:
    state = nb(settlements={0: [(0, 0)]}, nomad_held={0: {(5, 2): ("Outpost", "ready")}})
    state.apply(0, ("use", 5, 2))
    assert state.view(0)["turn"]["outpost"] == 1
    view = _view(kb_app, 2)
    _show(view, state)
    place = next(a for a in view.legal if a[0] == "place")
    assert "ignores the adjacency rule" in view.hover(_centre(view, place[1], place[2]))


def test_hover_and_hint_name_what_a_placement_gains_from_the_view(kb_app: App) -> None:
    """The hover over a legal placement lists the view's ``gains`` entry category by category
    with its reason, and the tiles it takes — never worked out by the UI."""
    from game.ui.games.kingdom_builder.text import signed, why

    for seed in range(6):
        state = get_game("kingdom-builder").new(
            3, {"nomads": "full", "cards": ["Ambassadors", "Citizens", "Hermits"]}, seed
        )
        seat = state.to_move()[0]
        view = _view(kb_app, 3)
        _show(view, state, seat)
        gains = state.view(seat)["gains"]
        assert gains
        for entry in gains:
            r, c = entry["hex"]
            text = view.hover(_centre(view, r, c))
            for cat, points in entry["points"].items():
                if points:
                    assert why(cat, points) in text, (cat, text)
                    assert signed(points) in text
            for tr, tc in entry.get("take", []):
                assert view._tile_at_name((tr, tc)) in text
            reason = view.hint_reason(("place", r, c))
            assert all(why(k, p) in reason for k, p in entry["points"].items() if p)
    assert why("castles", 3) == "next to a castle: +3"
    assert why("Citizens", 1) == "extends your largest area: +1"
    assert why("Hermits", -1) == "joins your areas: -1"


def _random_game(players: int, seed: int, cards: list[str]) -> Any:
    return get_game("kingdom-builder").new(
        players,
        {"nomads": "full", "cards": cards, "sections": ["Quarry", "Caravan", "Village", "Garden"]},
        seed,
    )


def test_a_whole_nomads_game_for_five_logs_every_event_and_fits_1024x640(kb_app: App) -> None:
    """Five players with the full expansion at 1024x640: every view along a random game draws,
    every Nomads event gets a log line, and the panel's rows stay inside the panel."""
    state = _random_game(5, 7, ["Ambassadors", "Families", "Shepherds"])
    view = _view(kb_app, 5)
    bots = [make_bot("random", s) for s in range(5)]
    kinds: dict[str, int] = {}
    kb_app.settings.animation_speed = 1.0
    i = 0
    while not state.is_over():
        seat = state.to_move()[0]
        events = state.apply(seat, bots[seat].choose(state, seat))
        visible = state.visible_events(events, 0)
        for ev in visible:
            line = view.describe_event(ev)
            if line is not None:
                kinds[ev["type"]] = kinds.get(ev["type"], 0) + 1
                assert "{" not in line.text and line.text.strip()
        mover = state.to_move()[0] if not state.is_over() else None
        view.set_view(state.view(0), state.legal_actions(0) if mover == 0 else [], visible)
        if i % 15 == 0:
            view.update(0.05)
            view.draw(kb_app.screen)
            panel = view.panel_rect
            for rect in view.row_rects.values():
                assert panel.contains(rect)
            assert len(view.card_rows) == len(view._categories())
            for rect, _key in view.card_rows:
                assert panel.contains(rect), (rect, panel)
            for rect, _a, _t in view.tile_buttons:
                assert panel.contains(rect)
        i += 1
    assert {"gain_nomad", "use_nomad", "gold"} <= set(kinds), kinds
    final = state.view(0)
    view.set_view(final, [], [{"type": "game_over"}])
    assert [k for k, _ in view.score_categories()] == [
        "castles",
        "Ambassadors",
        "Families",
        "Shepherds",
        TREASURE,
    ]


def test_the_scoring_sequence_counts_the_nomads_cards_without_drawing_on_the_map(
    kb_app: App,
) -> None:
    """The Nomads cards and Treasure paid during play: their beats count the points up in the
    panel (the engine's entry has only ``points``) and leave the map as it is; the running
    totals end at the final scores."""
    state = _random_game(3, 2, ["Ambassadors", "Shepherds", "Knights"])
    bots = [make_bot("random", 2 + s) for s in range(3)]
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, bots[seat].choose(state, seat))
    kb_app.settings.animation_speed = 1.0
    view = _view(kb_app, 3)
    view.set_view(state.view(0), [], [{"type": "game_over"}])
    view.start_scoring()
    sc = view.scoring
    assert sc is not None
    assert sc.categories == ["castles", "Ambassadors", "Shepherds", "Knights", TREASURE]
    for beat in sc.beats:
        sc.elapsed = beat.start + beat.duration * 0.8
        view.draw(kb_app.screen)
        if beat.seat is None:
            continue
        category = sc.categories[beat.category]
        focus = view._focus()
        if category in (*NOMAD_CARD_NAMES, TREASURE):
            assert focus is None
        else:
            assert focus is not None and focus.category == category
    sc.finish()
    assert [sc.running_total(s) for s in range(3)] == [r["total"] for r in state.scores()]


@pytest.mark.parametrize("code", ["en", "ja", "nl"])
def test_the_help_names_every_nomad_tile_and_card_and_the_rules_notes(code: str) -> None:
    """Every nomad tile and Nomads card has its name and rule text in each language, and the
    rules page lists each detail the rules file leaves open (``nomads.OPEN_DETAILS``) with
    the decision taken."""
    try:
        i18n.set_language(code)
        pages = {title(): blocks() for title, blocks in help_pages()}
        text = "\n".join(" ".join(b[1:]) for blocks in pages.values() for b in blocks)
        for tile in NOMAD_TILE_TYPES:
            assert tile_name(tile) in text and i18n.t(f"kb.nomad.{tile}.text") in text
        for card in NOMAD_CARD_NAMES:
            assert card_name(card) in text and i18n.t(f"kb.card.{card}.text") in text
        assert len(open_detail_keys()) == len(nm.OPEN_DETAILS) >= 2
        for key, _detail in open_detail_keys():
            assert i18n.has(key) and i18n.t(key) in text
        if code != "en":
            assert tile_name("Sword") != "Sword" and card_name("Shepherds") != "Shepherds"
    finally:
        i18n.set_language("en")


def test_option_values_of_the_expansion_have_names() -> None:
    from game.ui.games.kingdom_builder import option_value_label

    labels = {option_value_label("nomads", v) for v in nm.MODES}
    assert len(labels) == 3 and not labels & set(nm.MODES)
