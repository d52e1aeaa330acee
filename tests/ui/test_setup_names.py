"""The setup screen's names and options panel: a seat switched from a bot to a human loses the
bot's name in every language (it was generated, not typed), a typed name stays, and a game
without options says so."""

from __future__ import annotations

from typing import Any

import pytest

from game.ui import i18n
from game.ui.scenes.setup import SetupScene
from tests.ui.conftest import make_app


@pytest.mark.parametrize("lang", ["en", "ja", "nl"])
def test_a_bot_seat_made_human_loses_the_bots_name(env: Any, lang: str) -> None:
    app = make_app((1024, 640))
    try:
        app.settings.language = lang
        i18n.set_language(lang)
        scene = SetupScene(app, "local")
        app.push(scene)
        row = scene.seat_rows[1]
        row.kind.set_value("bot:easy")
        scene.seat_kind_changed(1)
        bot_name = row.name.text
        assert bot_name == i18n.t("setup.bot_name", level=i18n.t("setup.level.easy"), n=2)
        row.kind.set_value("human")
        scene.seat_kind_changed(1)
        assert row.name.text == i18n.t("setup.player_n", n=2)
        row.name.set_text("Femke")
        row.kind.set_value("bot:hard")
        scene.seat_kind_changed(1)
        row.kind.set_value("human")
        scene.seat_kind_changed(1)
        assert row.name.text == i18n.t("setup.player_n", n=2)
        row.name.set_text("Femke")
        scene.seat_kind_changed(1)  # a human seat keeps what was typed
        assert row.name.text == "Femke"
    finally:
        i18n.set_language("en")
        app.shutdown()


def test_a_game_without_options_says_so(env: Any) -> None:
    app = make_app((1024, 640))
    try:
        scene = SetupScene(app, "local")
        app.push(scene)
        scene.game_choice.set_value("keyflower")
        scene.game_changed("keyflower")
        assert scene.game.id == "keyflower" and not scene.option_rows
        assert scene.no_options in scene.widgets
        scene.layout(1024, 640)
        assert scene.no_options.rect.top >= scene.options_title.rect.bottom
        assert scene.no_options.rect.bottom <= scene.right.bottom
        scene.game_choice.set_value("glen-more")
        scene.game_changed("glen-more")
        assert scene.no_options not in scene.widgets
    finally:
        app.shutdown()
