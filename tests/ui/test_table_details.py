"""The smaller things players noticed at the table (issue 10): card rules shown whole where a
line fits, a log that wraps and scrolls, colour names that match the colour-blind palette,
score chips with the seat's shape, "your next card" outside the current player's box, no
"(you)" while several players share the screen, bot names in the player's language, Japanese
lines that never start with "、", and "Play again" with the same seats."""

from __future__ import annotations

import time
from typing import Any

import pygame
import pytest

from game.bots import make_bot
from game.core.registry import get_game
from game.ui import i18n
from game.ui import palette as pal
from game.ui.app import App
from game.ui.games.base import LogLine, SeatInfo, shown_name
from game.ui.games.kingdom_builder import KingdomBuilderView
from game.ui.text import NO_LINE_END, NO_LINE_START
from game.ui.widgets.log import LogBox
from tests.ui.conftest import click, make_app, run_until

COLOURS = ["red", "blue", "green", "yellow", "purple"]


def _view(app: App, n: int, local: list[int] | None = None) -> KingdomBuilderView:
    local = [0] if local is None else local
    seats = [SeatInfo(i, f"P{i + 1}", COLOURS[i], "human", i in local) for i in range(n)]
    view = KingdomBuilderView(app, seats)
    w, h = app.size
    view.layout(pygame.Rect(8, 50, w - 16, h - 58), max(app.px(90), int((h - 58) * 0.16)))
    return view


def _state(players: int, steps: int, seed: int = 3, **options: Any) -> Any:
    state = get_game("kingdom-builder").new(players, options, seed)
    bots = [make_bot("random", seed + s) for s in range(players)]
    for _ in range(steps):
        seat = state.to_move()[0]
        state.apply(seat, bots[seat].choose(state, seat))
    return state


@pytest.mark.parametrize("size", [(1024, 640), (1280, 800)])
@pytest.mark.parametrize("code", ["en", "nl", "ja"])
def test_card_rules_are_whole_where_their_lines_fit(env: Any, size: Any, code: str) -> None:
    """Four players with the longest rules (Lords, Merchants, Workers): every category's short
    rule is shown whole — none cut with "..." while a line of it would fit."""
    app = make_app(size, language=code)
    try:
        state = _state(4, 12, cards=["Lords", "Merchants", "Workers"])
        seat = state.to_move()[0]
        view = _view(app, 4, [seat])
        view.set_view(state.view(seat), state.legal_actions(seat), [])
        view.draw(app.screen)
        plan = view._plan(view._own_tiles())
        for key, lines in zip(view._categories(), plan.card_lines, strict=True):
            full = view._card_wrap(key, view.panel_rect.width - app.px(16))
            assert lines == full, (key, lines, full)
        for rect, _key in view.card_rows:
            assert view.panel_rect.contains(rect)
    finally:
        app.shutdown()


def test_the_log_wraps_long_lines_and_scrolls(env: Any) -> None:
    app = make_app((1024, 640))
    try:
        box = LogBox()
        seats = [SeatInfo(0, "Ann", "red"), SeatInfo(1, "Bo", "blue")]
        long = "Ann " + " ".join(f"word{i}" for i in range(60))
        lines = [LogLine(i % 2, f"line {i}") for i in range(30)] + [LogLine(0, long)]
        rect = pygame.Rect(700, 500, 300, 120)
        box.draw(app.screen, app, rect, lines, seats, "")
        wrapped = box._wrap(app, long, app.px(13), rect.width - app.px(16) - app.px(24))
        assert len(wrapped) > 3 and " ".join(wrapped) == long, "wrapped, nothing cut"
        assert box._total == 30 + len(wrapped) and box.scroll == 0
        box.wheel(2)
        assert box.scroll == 6
        box.wheel(100)
        assert box.scroll == box._total - box._rows, "no further than the oldest line"
        # New lines while scrolled back keep the rows in view where they were.
        before = box.scroll
        box.draw(app.screen, app, rect, [*lines, LogLine(1, "new")], seats, "")
        assert box.scroll == min(before + 1, box._total - box._rows)
        box.wheel(-1000)
        assert box.scroll == 0
    finally:
        app.shutdown()


def test_colour_names_follow_the_colour_blind_palette() -> None:
    try:
        assert pal.colour_label("red") == "Red"
        assert pal.colour_label("red", True) == "Vermillion"
        assert pal.colour_label("blue", True) == "Blue"
        i18n.set_language("nl")
        assert pal.colour_label("green", True) == "Blauwgroen"

        class S:
            colour_blind = False

        text = pal.colour_text("red", S)
        assert text() == "Rood"
        S.colour_blind = True
        assert text() == "Vermiljoen"
    finally:
        i18n.set_language("en")


def test_score_chips_carry_the_seats_shape(env: Any) -> None:
    app = make_app((1024, 640))
    try:
        view = _view(app, 2)
        view.seats = [SeatInfo(0, "A", "red"), SeatInfo(1, "B", "red")]  # the same colour
        chips = []
        for seat in (0, 1):
            surf = pygame.Surface((60, 30), pygame.SRCALPHA)
            view._score_chip(surf, pygame.Rect(0, 0, 60, 30), seat, 7)
            chips.append(pygame.image.tobytes(surf, "RGBA"))
        assert chips[0] != chips[1], "same colour, different shapes"
    finally:
        app.shutdown()


def test_your_next_card_is_not_in_the_current_players_box(env: Any) -> None:
    """While another player moves, the shown seat's next card is drawn in its own strip under
    the turn box; the turn box shows only the current player's turn."""
    app = make_app((1280, 800))
    try:
        state = _state(2, 5)
        current = state.to_move()[0]
        other = 1 - current
        view = _view(app, 2, [other])
        v = state.view(other)
        assert v["seats"][other]["hand"]
        view.set_view(v, [], [])
        assert view._next_card() == v["seats"][other]["hand"]
        view.draw(app.screen)
        box = pygame.Rect(view.panel_rect.topleft, (view.panel_rect.width, view._plan([]).box_h))
        with_card = app.screen.subsurface(box).copy()
        hidden = dict(v, seats=[dict(s, hand=None) for s in v["seats"]])
        view.set_view(hidden, [], [])
        assert view._next_card() is None
        view.draw(app.screen)
        without = app.screen.subsurface(box).copy()
        assert pygame.image.tobytes(with_card, "RGB") == pygame.image.tobytes(without, "RGB")
        # In hot-seat, while the seat's own turn has not come, the secret is not drawn at all.
        view.set_view(v, [], [])
        view.show_private = False
        assert view._next_card() is None
    finally:
        app.shutdown()


def test_no_you_while_players_share_the_screen(env: Any) -> None:
    app = make_app((1024, 640))
    try:
        state = _state(2, 0)
        seat = state.to_move()[0]
        alone = _view(app, 2, [seat])
        alone.set_view(state.view(seat), [], [])
        assert alone._you_tag(seat) == "you"
        shared = _view(app, 2, [0, 1])
        shared.set_view(state.view(seat), [], [])
        assert shared._you_tag(seat) == ""
    finally:
        app.shutdown()


def test_host_made_bot_names_speak_the_players_language() -> None:
    try:
        i18n.set_language("ja")
        assert shown_name("Bot (normal)", "bot") == "ボット(普通)"
        assert shown_name("Bot (hard)", "bot") == "ボット(強い)"
        assert shown_name("Bot (normal)", "human") == "Bot (normal)", "a person's name stays"
        assert shown_name("Robo", "bot") == "Robo"
        assert shown_name("Bot (weird)", "bot") == "Bot (weird)"
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("width", [90, 140, 200, 260, 333, 420])
def test_japanese_lines_never_start_with_closing_punctuation(env: Any, width: int) -> None:
    """Kinsoku: wrapped at any width, no line of any Japanese text starts with "、", "。", a
    closing bracket or a small kana, nor ends with an opening bracket; nothing is lost."""
    app = make_app((1024, 640), language="ja")
    try:
        fonts = app.fonts
        for key, text in i18n.catalogue("ja").items():
            for paragraph in text.split("\n"):
                lines = fonts.wrap_lines(paragraph, 16, width)
                at = 0
                for i, line in enumerate(lines):
                    at = paragraph.find(line, at)
                    if i and paragraph[at - 1 : at] != " ":  # a break at a space may
                        assert line[:1] not in NO_LINE_START, (key, line)
                    if i < len(lines) - 1:
                        assert line[-1:] not in NO_LINE_END, (key, line)
                squeeze = "".join(paragraph.split())
                assert "".join("".join(lines).split()) == squeeze, key
    finally:
        app.shutdown()


def test_play_again_starts_the_same_seats_anew(app: App) -> None:
    """A finished game on this computer: "Play again" starts a new game with the same seats
    (names, kinds, bots, colours) and options."""
    from game.ui.client import SeatSpec
    from game.ui.local_game import start_local_game
    from game.ui.scenes.game import GameScene

    seats = [SeatSpec("bot", "Ada", "red", "random"), SeatSpec("bot", "Bob", "green", "random")]
    client = start_local_game(
        "kingdom-builder", seats, {"cards": ["Lords", "Miners", "Hermits"]}, seed=4, bot_delay=0
    )
    app.push(GameScene(app, client, 2))
    run_until(app, lambda: app.top is not None and app.top.name == "results", timeout=120)
    results = app.top
    assert results is not None and results.widget("results_again").visible
    click(app, "results_again")
    run_until(app, lambda: app.top is not None and app.top.name == "game", timeout=30)
    game = app.top
    new = game.client  # type: ignore[attr-defined]
    assert new is not client and client.closed
    run_until(app, lambda: new.lobby is not None and bool(new.states))
    lobby = new.lobby
    assert [(s["name"], s["kind"], s["bot"], s["colour"]) for s in lobby["seats"]] == [
        ("Ada", "bot", "random", "red"),
        ("Bob", "bot", "random", "green"),
    ]
    assert lobby["options"]["cards"] == ["Lords", "Miners", "Hermits"]
    assert [s.name for s in app.stack] == ["menu", "game"]
    new.close()
    time.sleep(0.01)


@pytest.mark.parametrize("mode", ["local", "host"])
def test_five_seats_in_setup_lobby_and_table_at_the_smallest_window(app: App, mode: str) -> None:
    """Kingdom Builder for five: choosing 5 players turns the Nomads expansion on (the fifth
    colour comes in its box), the game starts, and setup, lobby and table keep every control
    inside the 1024x640 window and apart."""
    from game.ui.scenes.setup import SetupScene
    from tests.ui.conftest import click_at
    from tests.ui.test_scenes import check_layout

    app.push(SetupScene(app, mode))
    app.step()
    setup = app.top
    assert setup is not None
    players = setup.widget("players")
    while players.value != 5:  # type: ignore[attr-defined]
        click_at(app, (players.rect.right - 8, players.rect.centery))
    assert setup.widget("opt_nomads").value == "full"  # type: ignore[attr-defined]
    check_layout(app, setup)
    for i in range(5):
        assert setup.widget(f"seat_kind_{i}").visible
    click(app, "start")
    expected = "lobby" if mode == "host" else "game"
    run_until(app, lambda: app.top is not None and app.top.name in (expected, "curtain"))
    scene = app.top
    assert scene is not None and scene.name == expected
    run_until(app, lambda: scene.client.lobby is not None)  # type: ignore[attr-defined]
    app.step()
    check_layout(app, scene)
    assert scene.client.lobby["options"]["nomads"] == "full"  # type: ignore[attr-defined]
    assert len(scene.client.lobby["seats"]) == 5  # type: ignore[attr-defined]
    if mode == "local":
        run_until(app, lambda: bool(scene.client.states))  # type: ignore[attr-defined]
        app.step()
        view = scene.view  # type: ignore[attr-defined]
        assert len(view.row_rects) == 5
        for rect in view.row_rects.values():
            assert view.panel_rect.contains(rect)


def test_the_replay_list_names_the_winner_and_every_total(env: Any) -> None:
    from game.core.match import play_match
    from game.ui.scenes.files import list_files

    expected = {}
    for seed in (5, 6):
        bots = [make_bot("random", seed + s).choose for s in range(2)]
        seats = [
            {"name": "Ann", "colour": "blue", "kind": "human"},
            {"name": "Bot (hard)", "colour": "red", "kind": "bot"},
        ]
        result = play_match("kingdom-builder", 2, seed, bots, seats=seats)
        path = env / "data" / "saves" / f"kb-{seed}.save"
        path.parent.mkdir(parents=True, exist_ok=True)
        result.replay.save(path)
        expected[str(path)] = result
    items = list_files("replays")
    assert len(items) == 2
    for item in items:
        result = expected[item.value]
        names = ["Ann", "Bot (hard)"]
        totals = ", ".join(
            f"{n} {row['total']}" for n, row in zip(names, result.scores, strict=True)
        )
        assert item.title.endswith(totals), item.title
        winners = ", ".join(names[w] for w in result.winners)
        assert item.detail.startswith(f"Won by {winners} · "), item.detail
    try:
        i18n.set_language("ja")
        item = list_files("replays")[0]
        assert "ボット(強い)" in item.title and item.detail.startswith("勝者: ")
    finally:
        i18n.set_language("en")
