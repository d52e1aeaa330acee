"""The action composer: a legal action built field by field from the seat's legal list (the
client decides no rule: only values some legal action continues with can be chosen)."""

from __future__ import annotations

from typing import Any

import pygame
from hypothesis import given
from hypothesis import strategies as st

from game.bots import make_bot
from game.core.registry import get_game
from game.ui.app import App
from game.ui.composer import Composer, ComposerPanel

# Small random legal lists: a kind and up to three int/str fields.
field = st.one_of(st.integers(0, 4), st.sampled_from(["red", "blue", "x"]))
action = st.tuples(st.sampled_from(["bid", "use", "pass", "end"])).flatmap(
    lambda kind: st.lists(field, max_size=3).map(lambda rest: (*kind, *rest))
)
legal_lists = st.lists(action, min_size=1, max_size=40, unique=True)


def _kb_legal(steps: int) -> list[tuple[Any, ...]]:
    state = get_game("kingdom-builder").new(3, {}, 5)
    bot = make_bot("random", 1)
    for _ in range(steps):
        seat = state.to_move()[0]
        state.apply(seat, bot.choose(state, seat))
    return state.legal_actions(state.to_move()[0])


def test_every_legal_action_can_be_composed_and_nothing_else() -> None:
    for steps in (0, 4, 17):
        legal = _kb_legal(steps)
        c = Composer(legal)
        assert set(c.options()) == {a[0] for a in legal}
        for target in legal:
            c.reset()
            sent = None
            for value in target:
                assert value in c.options()
                sent = c.choose(value)
            assert c.complete() == target
            # KB's actions never extend each other: the last field finishes the action.
            assert sent == target and c.finished()
        c.reset()
        assert c.choose("no-such-kind") is None and c.prefix == ()


def test_board_targets_are_the_next_two_fields() -> None:
    legal = _kb_legal(0)
    c = Composer(legal, fields={"place": ("row", "col")})
    c.choose("place")
    assert c.field_name() == "row"
    cells = c.targets(2)
    assert sorted(cells) == sorted((a[1], a[2]) for a in legal if a[0] == "place")
    r, col = cells[0]
    assert c.choose(r, col) == ("place", r, col)


def test_a_complete_prefix_that_can_go_on_waits_for_confirm() -> None:
    c = Composer([("pass",), ("pass", 2), ("bid", 1, "red"), ("bid", 1, "blue")])
    assert c.choose("pass") is None, "('pass',) is legal but ('pass', 2) goes on"
    assert c.complete() == ("pass",) and not c.finished()
    assert c.options() == [2]
    assert c.choose(2) == ("pass", 2)
    assert c.back() and c.prefix == ("pass",)
    assert c.back() and not c.back()
    assert c.choose("bid", 1) is None and c.complete() is None
    assert c.options() == ["red", "blue"]
    assert c.hinted(("bid", 1, "blue")) == ("blue",)
    assert c.hinted(("pass", 2)) is None


def test_a_new_legal_list_starts_afresh_the_same_one_keeps_the_choice() -> None:
    legal = [("bid_tile", 3), ("bid_tile", 5)]
    c = Composer(legal)
    c.choose("bid_tile")
    c.set_legal([list(a) for a in legal])  # the same list again (as the host sends lists)
    assert c.prefix == ("bid_tile",)
    # The engine's next step is a separate action: a new list, a new start.
    c.set_legal([("bid_colour", "red"), ("bid_colour", "green")])
    assert c.prefix == () and c.options() == ["bid_colour"]


@given(legal=legal_lists, picks=st.lists(st.integers(0, 50), max_size=8))
def test_random_choices_only_ever_reach_legal_actions(
    legal: list[tuple[Any, ...]], picks: list[int]
) -> None:
    c = Composer(legal)
    for pick in picks:
        options = c.options()
        if not options:
            break
        before = c.prefix
        sent = c.choose(options[pick % len(options)])
        assert any(a[: len(c.prefix)] == c.prefix for a in legal)
        if sent is not None:
            assert sent in legal and not any(
                len(a) > len(sent) and a[: len(sent)] == sent for a in legal
            )
        assert c.complete() is None or c.complete() in legal
        c.back()
        assert c.prefix == before
        c.choose(options[pick % len(options)])


def test_the_panel_scrolls_many_values_and_clicks_choose(app: App) -> None:
    legal = [("take", i, colour) for i in range(150) for colour in ("red", "blue")]
    c = Composer(legal, fields={"take": ("tile", "colour")})
    panel = ComposerPanel(app, c)
    for size in ((1024, 640), (1920, 1080)):
        app.set_window_size(size)
        panel.rect = pygame.Rect(20, 80, 300, 400)
        panel.draw(app.screen)
        assert panel.options, "the kind"
        assert panel.click(panel.options[0].rect.center) == (True, None)
        assert c.prefix == ("take",)
        panel.draw(app.screen)
        assert 5 < len(panel.options) < 150, "only what fits is drawn"
        assert all(panel.rect.contains(o.rect) for o in panel.options)
        first = panel.options[0].value
        assert panel.wheel((100, 300), -3)
        panel.draw(app.screen)
        assert panel.scroll > 0 and panel.options[0].value != first
        picked = panel.options[0]
        assert panel.click(picked.rect.center) == (True, None)
        assert c.prefix == ("take", picked.value)
        key = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_2, mod=0, unicode="2")
        assert panel.key(key) == ("take", picked.value, "blue")
        back = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0, unicode="")
        panel.key(back)
        panel.key(back)
        assert c.prefix == ("take",)
        c.reset()
        panel.scroll = 0
    assert panel.click((5, 5)) == (False, None)
    buttons = {b.id: b for b in panel.buttons()}
    assert not buttons["composer_back"].enabled and not buttons["composer_confirm"].enabled


def test_the_same_list_as_a_new_question_starts_afresh() -> None:
    """A seat that moves again (a new turn, or a new decision) may get the very same legal list:
    what was half chosen for the last one is forgotten."""
    legal = [("rest",), ("run", 1), ("run", 2), ("dash",)]
    c = Composer(legal)
    assert c.set_legal(legal, (5, 3)) is True
    c.choose("run")
    assert c.set_legal(legal, (5, 3)) is False and c.prefix == ("run",)
    assert c.set_legal(legal, (6, 4)) is True and c.prefix == ()


def test_forced_fields_are_taken_and_back_stops_there() -> None:
    c = Composer([("bid", 0), ("bid", 1), ("bid", 2)])
    c.skip_forced()
    assert c.prefix == ("bid",) and c.options() == [0, 1, 2]
    assert not c.can_go_back() and not c.back()
    lone = Composer([("seal",)])
    lone.skip_forced()
    assert lone.prefix == () and lone.options() == ["seal"], "a lone action still waits"
    assert lone.choose("seal") == ("seal",)
