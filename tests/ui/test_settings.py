"""Settings live in the user config folder (here a temporary one) and survive bad files."""

from __future__ import annotations

import json
from typing import Any

from game.ui.settings import Settings, config_dir


def test_round_trip(env: Any) -> None:
    s = Settings(language="nl", window_size=(1440, 900), colour_blind=True, animation_speed=0.5)
    s.player_name = "Anna"
    s.save()
    assert Settings.path().parent == config_dir()
    assert str(config_dir()).startswith(str(env))
    loaded = Settings.load()
    assert loaded.to_dict() == s.to_dict()


def test_damaged_file_gives_defaults(env: Any) -> None:
    path = Settings.path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{not json", "utf-8")
    loaded = Settings.load()
    assert loaded.window_size == Settings().window_size


def test_bad_values_fall_back_one_by_one(env: Any) -> None:
    path = Settings.path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        json.dumps(
            {
                "language": "xx",
                "window_size": [10, 10],
                "fullscreen": "yes",
                "animation_speed": 99,
                "colour_blind": True,
                "player_name": 5,
            }
        ),
        "utf-8",
    )
    loaded = Settings.load()
    assert loaded.language == "en"
    assert loaded.window_size == (1024, 640)  # clamped to the smallest supported size
    assert loaded.fullscreen is False
    assert loaded.animation_speed == 1.0
    assert loaded.colour_blind is True
    assert loaded.player_name == ""


def test_settings_scene_changes_apply_and_save(env: Any) -> None:
    from game.ui.scenes.settings import SettingsScene
    from tests.ui.conftest import click_at, make_app

    app = make_app()
    try:
        scene = app.push(SettingsScene(app))
        app.step()
        lang = scene.widget("language")
        click_at(app, (lang.rect.right - 6, lang.rect.centery))
        assert app.settings.language == "ja"
        cb = scene.widget("colour_blind")
        click_at(app, cb.rect.center)
        assert app.settings.colour_blind is True
        app.pop()
        saved = json.loads(Settings.path().read_text("utf-8"))
        assert saved["language"] == "ja" and saved["colour_blind"] is True
    finally:
        from game.ui.i18n import set_language

        set_language("en")
        app.shutdown()
