"""The name field and the setup that remembers (issue 20, finding 7): Ctrl+A selects everything
and typing replaces it; a click puts the caret where it is clicked (the text scrolled as drawn),
a drag or a double click selects; and the setup screen opens on the last game with its players,
names, colours and options — after the program was started again."""

from __future__ import annotations

from typing import Any

import pygame

from game.ui.app import App
from game.ui.settings import Settings
from game.ui.widgets import TextField
from tests.ui.conftest import click_at, make_app, press, type_text


def _field(app: App, text: str) -> TextField:
    from game.ui.scenes.setup import SetupScene

    scene = app.push(SetupScene(app, mode="local"))
    app.step()
    field = scene.widget("seat_name_0")
    assert isinstance(field, TextField)
    field.set_text(text)
    app.step()
    return field


def _x_of(app: App, field: TextField, index: int) -> int:
    """The window x of the gap before character ``index`` as the field draws it."""
    return (
        field.rect.x + app.px(8) - field._offset + app.fonts.size(field.text[:index], app.px(16))[0]
    )


def test_ctrl_a_selects_everything_and_typing_replaces_it(app: App) -> None:
    field = _field(app, "Player 1")
    click_at(app, field.rect.center)
    assert field.focused
    press(app, pygame.K_a, pygame.KMOD_CTRL)
    assert field.selected_text() == "Player 1"
    type_text(app, "Anna")
    assert field.text == "Anna" and field.caret == 4


def test_a_click_puts_the_caret_where_it_is_clicked(app: App) -> None:
    field = _field(app, "Player 1")
    # between "Play" and "er 1", a little right of the gap (the nearest gap wins)
    click_at(app, (_x_of(app, field, 4) + 2, field.rect.centery))
    assert field.caret == 4 and field.selected_text() == ""
    type_text(app, "X")
    assert field.text == "PlayXer 1"
    app.time += 1  # not a double click
    click_at(app, (_x_of(app, field, 0) + 1, field.rect.centery))
    assert field.caret == 0
    # Backspace with a selection removes it; Shift+End extends it.
    press(app, pygame.K_END, pygame.KMOD_SHIFT)
    assert field.selected_text() == "PlayXer 1"
    press(app, pygame.K_BACKSPACE)
    assert field.text == ""


def test_a_long_name_scrolled_in_the_field_still_takes_the_click_where_it_is(app: App) -> None:
    field = _field(app, "")
    long = "Wolfeschlegelsteinhausenbergerdorff"[:20]
    click_at(app, field.rect.center)
    field.rect.width = app.px(120)  # narrow: the text scrolls
    type_text(app, long)
    app.step()
    assert field._offset > 0
    app.time += 1
    target = len(long) - 3
    click_at(app, (_x_of(app, field, target), field.rect.centery))
    assert field.caret == target


def test_a_drag_and_a_double_click_select(app: App) -> None:
    field = _field(app, "Anna Maria")
    start = (_x_of(app, field, 0) + 1, field.rect.centery)
    end = (_x_of(app, field, 4), field.rect.centery)
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=start, rel=(0, 0), buttons=(1, 0, 0))
    )
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=end, rel=(0, 0), buttons=(1, 0, 0))
    )
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))
    app.step()
    assert field.selected_text() == "Anna"
    app.time += 1
    click_at(app, field.rect.center)
    click_at(app, field.rect.center)  # a double click
    assert field.selected_text() == "Anna Maria"
    press(app, pygame.K_LEFT)
    assert field.selection() == (0, 0), "an arrow collapses the selection to its side"


def test_the_setup_remembers_the_last_game_its_seats_and_options(env: Any) -> None:
    from game.ui.scenes.setup import SetupScene

    first = make_app()
    try:
        scene = first.push(SetupScene(first, mode="local"))
        first.step()
        scene.game_choice.set_value("glen-more")
        scene.game_changed("glen-more")
        scene.players_choice.set_value(3)
        scene.players_changed(3)
        scene.widget("seat_name_0").set_text("Hana")  # type: ignore[attr-defined]
        option = scene.option_rows[0]
        before = option.value()
        choice = option.main
        values = [v for v, _ in choice.options] if hasattr(choice, "options") else [True, False]
        changed = next(v for v in values if v != before)
        if hasattr(choice, "set_value"):
            choice.set_value(changed)  # type: ignore[attr-defined]
        else:
            choice.value = changed  # type: ignore[attr-defined]
        first.pop()  # leaving the screen keeps it (written to the settings file)
    finally:
        first.shutdown()

    second = make_app()  # started again: the settings come from the file
    second.settings = Settings.load()
    try:
        scene = second.push(SetupScene(second, mode="local"))
        second.step()
        assert scene.game.id == "glen-more", "the last game"
        assert scene.players_choice.value == 3
        assert scene.widget("seat_name_0").text == "Hana"  # type: ignore[attr-defined]
        assert scene.option_rows[0].value() == changed
        # Another game keeps its own setup; back to this one, this one's comes back.
        scene.game_choice.set_value("keyflower")
        scene.game_changed("keyflower")
        assert scene.game.id == "keyflower"
        scene.game_choice.set_value("glen-more")
        scene.game_changed("glen-more")
        assert scene.widget("seat_name_0").text == "Hana"  # type: ignore[attr-defined]
    finally:
        second.shutdown()


def test_a_damaged_remembered_setup_is_ignored(env: Any) -> None:
    from game.ui.scenes.setup import SetupScene

    app = make_app()
    try:
        app.settings.extra["setup.local"] = {
            "game": "glen-more",
            "games": {"glen-more": {"players": 99, "seats": "x", "options": {"a": [1]}}},
        }
        scene = app.push(SetupScene(app, mode="local"))
        app.step()
        assert scene.game.id == "glen-more"
        app.settings.extra["setup.local"] = {"game": 5, "games": []}
        scene = app.push(SetupScene(app, mode="local"))
        app.step()
    finally:
        app.shutdown()
