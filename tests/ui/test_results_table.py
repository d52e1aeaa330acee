"""The results table fits 6 players and a dozen categories at 1024x640 in every language, and
scrolls (never overflows) when there are more."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from game.ui import i18n
from game.ui.app import App
from game.ui.games.base import SeatInfo
from tests.ui.conftest import make_app, press
from tests.ui.test_scenes import SIZES, check_layout

NAMES = ["Annemarie", "Bram", "Chieko", "Daan-Willem", "Emiko", "Florentijn"]
COLOURS = ["red", "blue", "green", "yellow", "purple", "orange"]


def _categories(n: int) -> list[tuple[str, str]]:
    """Category names as long as the games' real ones (Kingdom Builder's cards, Keyflower's
    and Glen More's final scoring), in the current language where the client has them."""
    keys = ["castles", *[c for c in ("Fishermen", "Merchants", "Discoverers", "Hermits")]]
    names = [i18n.t("kb.card." + k) for k in keys]
    extra = [
        "Whisky barrels",
        "Special locations",
        "Clan members on the board",
        "Village tiles with keyples",
        "Winter tiles",
        "Gold and resources",
        "Skill tiles",
        "Coins left",
        "Largest group of settlements",
        "Turn-order tiles",
        "Transport",
        "Boats",
        "Upgrades",
        "Bonus",
        "Penalty for the fewest tiles",
        "Moors",
    ]
    names += extra
    return [(f"c{i}", names[i % len(names)]) for i in range(n)]


def _results(app: App, players: int, categories: int) -> Any:
    from game.ui.scenes.results import ResultsScene

    cats = _categories(categories)
    scores = []
    for s in range(players):
        row = {k: (s * 7 + i * 3) % 23 - (5 if i == 3 else 0) for i, (k, _l) in enumerate(cats)}
        row["total"] = sum(row.values()) + (120 if s == 2 else 0)
        scores.append(row)
    seats = [SeatInfo(i, NAMES[i], COLOURS[i], "human") for i in range(players)]
    result = {"scores": scores, "winners": [2]}
    scene = ResultsScene(app, result, seats, cats)
    app.push(scene)
    for _ in range(3):
        app.step()
    scene.appear = 60.0
    app.step()
    return scene


def _cells_inside(scene: Any) -> None:
    table = scene.table
    for cell in table.cells:
        if cell.rect.width and cell.rect.height:
            assert table.rect.contains(cell.rect), (cell.kind, cell.key, cell.rect, table.rect)


@pytest.mark.parametrize("lang", ["en", "ja", "nl"])
@pytest.mark.parametrize("size", SIZES, ids=["1024x640", "1920x1080"])
def test_six_players_and_a_dozen_categories_fit(env: Any, size: Any, lang: str) -> None:
    app = make_app(size, language=lang)
    try:
        scene = _results(app, 6, 12)
        check_layout(app, scene)
        table = scene.table
        screen = pygame.Rect((0, 0), app.size)
        assert screen.contains(table.rect)
        assert table.rect.bottom <= scene.back_button.rect.top, "the table stops above the buttons"
        assert table.max_x == 0 and table.max_y == 0, "everything fits without scrolling"
        _cells_inside(scene)
        headers = [c for c in table.cells if c.kind == "header"]
        assert [c.key for c in headers] == [*(f"c{i}" for i in range(12)), "total"]
        values = [c for c in table.cells if c.kind == "value"]
        assert len(values) == 6 * 13
        # Best first: the winner's row is on top.
        names = [c for c in table.cells if c.kind == "name"]
        assert names[0].seat == 2 and names[0].rect.y < names[1].rect.y
        if lang == "en" and size == (1920, 1080):
            assert not any(c.shortened for c in headers + names)
    finally:
        app.shutdown()


def test_more_categories_scroll_sideways_and_every_column_can_be_reached(env: Any) -> None:
    app = make_app((1024, 640))
    try:
        scene = _results(app, 6, 24)
        table = scene.table
        assert table.max_x > 0, "24 categories do not fit at 1024x640"
        _cells_inside(scene)
        seen = {c.key for c in table.cells if c.kind == "header"}
        assert "c0" in seen and "total" not in seen
        for _ in range(40):
            press(app, pygame.K_RIGHT)
            seen |= {c.key for c in table.cells if c.kind == "header"}
            _cells_inside(scene)
        assert table.scroll_x == table.max_x
        assert seen == {*(f"c{i}" for i in range(24)), "total"}
        # The names stay where they are while the categories scroll.
        assert {c.seat for c in table.cells if c.kind == "name"} == set(range(6))
        # The wheel over the table scrolls back.
        app.mouse = table.rect.center
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=30, flipped=False))
        app.step()
        assert table.scroll_x == 0
    finally:
        app.shutdown()


def test_a_small_table_scrolls_rows_too(env: Any) -> None:
    """A table given less room than its rows need (a view may put one in a panel): nothing is
    drawn outside it, the rows scroll."""
    app = make_app((1024, 640))
    try:
        scene = _results(app, 6, 12)
        table = scene.table
        table.rect = pygame.Rect(40, 100, 520, 200)
        table.draw(app.screen, app)
        _cells_inside(scene)
        assert table.max_y > 0 and table.max_x > 0
        press(app, pygame.K_DOWN)
        press(app, pygame.K_DOWN)
        assert table.scroll_y > 0
        _cells_inside(scene)
        _n, _c, _h, row_h, _t = table.metrics(app)
        shown = sum(c.rect.height for c in table.cells if c.kind == "name")
        assert 0 < shown < 6 * (row_h - app.px(4)), "part of the rows, scrolled"
    finally:
        app.shutdown()


def test_few_categories_make_a_narrow_centred_table(env: Any) -> None:
    app = make_app((1920, 1080))
    try:
        scene = _results(app, 2, 3)
        table = scene.table
        assert table.rect.width < app.size[0] // 2
        assert abs(table.rect.centerx - app.size[0] // 2) <= 2
        _cells_inside(scene)
    finally:
        app.shutdown()
