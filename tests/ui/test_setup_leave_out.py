"""Leaving a card out without choosing all three by hand (issue "Ready for a real LAN party":
leaving Lords out needed choosing all three cards).  Kingdom Builder's ``exclude_cards`` option
(an ``OptionSpec`` of kind ``subset``) is a box per card on the setup screen; the engine draws
the random cards from the others and refuses what cannot be drawn, with its reason."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pygame
import pytest

from game.ui.app import App
from tests.ui.conftest import click, make_app, run_until
from tests.ui.test_scenes import check_layout


def _setup(app: App) -> Any:
    from game.ui.scenes.setup import SetupScene

    scene = app.push(SetupScene(app, "local"))
    app.step()
    return scene


@pytest.mark.parametrize("lang", ["en", "ja", "nl"])
@pytest.mark.parametrize("size", [(1024, 640), (1920, 1080)], ids=["1024x640", "1920x1080"])
def test_a_box_per_card_fits_beside_everything_else(env: Any, size: Any, lang: str) -> None:
    app = make_app(size, language=lang)
    try:
        scene = _setup(app)
        assert not scene.widget("opt_exclude_cards_Lords").visible, "none left out at first"
        assert scene.options()["exclude_cards"] == []
        click(app, "opt_exclude_cards")
        check_layout(app, scene)
        boxes = [w for w in scene.widgets if w.id.startswith("opt_exclude_cards_") and w.visible]
        assert len(boxes) == 13
        folder = os.environ.get("LANTERN_SHOTS")
        if folder:
            pygame.image.save(app.screen, str(Path(folder) / f"leave-out-{lang}-{size[0]}.png"))
    finally:
        app.shutdown()


def test_lords_left_out_never_come(app: App) -> None:
    scene = _setup(app)
    click(app, "opt_exclude_cards")
    click(app, "opt_exclude_cards_Lords")
    assert scene.options()["exclude_cards"] == ["Lords"]
    assert scene.options()["cards"] == "random"
    click(app, "start")
    run_until(app, lambda: app.top is not None and app.top.name == "game")
    game = app.top
    run_until(app, lambda: bool(game.view.view))  # type: ignore[attr-defined]
    cards = game.view.view["cards"]  # type: ignore[attr-defined]
    assert len(cards) == 3 and "Lords" not in cards


def test_too_many_left_out_is_refused_with_the_reason(app: App) -> None:
    from game.kingdom_builder.scoring import CARDS

    _setup(app)
    click(app, "opt_exclude_cards")
    for card in CARDS[:8]:
        click(app, f"opt_exclude_cards_{card}")
    click(app, "start")
    run_until(app, lambda: any("at least 3 must stay" in x.text for x in app.toasts))
    assert app.top is not None and app.top.name == "setup"


def test_a_first_game_leaves_nothing_out(app: App) -> None:
    scene = _setup(app)
    click(app, "opt_exclude_cards")
    click(app, "opt_exclude_cards_Lords")
    click(app, "opt_first_game")
    assert not scene.widget("opt_exclude_cards").enabled
    assert scene.options()["exclude_cards"] == []
    assert scene.options()["cards"] == "random"


def test_every_option_chosen_at_once_still_fits(env: Any) -> None:
    """Sections, rotations and cards chosen by hand and cards left out too, at the smallest
    window the setup screen is made for."""
    app = make_app((1024, 640), language="nl")
    try:
        scene = _setup(app)
        for name in ("opt_sections", "opt_rotations", "opt_cards", "opt_exclude_cards"):
            click(app, name)
        check_layout(app, scene)
        assert scene.options()["exclude_cards"] == []
        folder = os.environ.get("LANTERN_SHOTS")
        if folder:
            pygame.image.save(app.screen, str(Path(folder) / "leave-out-all-open.png"))
    finally:
        app.shutdown()
