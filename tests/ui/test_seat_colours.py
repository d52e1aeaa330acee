"""Seat colours and shapes no game piece uses (issue 20, finding 10): a Keyflower table never
seats a purple player beside the purple start keyple; seat shapes are not the marks keyples
wear nor the circles and squares of coins and cubes."""

from __future__ import annotations

from typing import Any

from game.ui import palette as pal
from game.ui.app import App
from game.ui.games import seat_colours, view_class
from game.ui.games.keyflower import art as kf_art


def test_seat_shapes_are_no_piece_shapes() -> None:
    marks = set(kf_art.KEYPLE_MARK.values())
    assert not set(pal.SHAPES) & marks
    assert not set(pal.SHAPES) & {"circle", "square"}
    assert len(set(pal.SHAPES)) == len(pal.SHAPES) >= 6
    for shape in pal.SHAPES:
        if shape != "circle":
            assert len(pal.shape_points(shape, 10, 10, 8)) >= 3


def test_each_game_offers_seats_only_colours_its_pieces_do_not_wear() -> None:
    keyples = set(kf_art.KEYPLE_RGB)
    offered = seat_colours("keyflower")
    assert len(offered) >= 6, "six players"
    assert not keyples & set(offered)
    for game_id in ("kingdom-builder", "keyflower", "glen-more"):
        pieces = set(view_class(game_id).PIECE_COLOURS)
        colours = seat_colours(game_id)
        assert not pieces & set(colours)
        assert len(colours) >= 6
        assert colours[-1] == "black" or "black" not in colours, "black (dark on dark) last"


def test_the_setup_gives_keyflower_seats_other_colours_than_keyples(app: App) -> None:
    from game.ui.scenes.setup import SetupScene

    scene = app.push(SetupScene(app, mode="local"))
    app.step()
    scene.game_choice.set_value("kingdom-builder")
    scene.game_changed("kingdom-builder")
    assert scene.seat_rows[0].colour.value == "red", "Kingdom Builder keeps its colours"
    scene.game_choice.set_value("keyflower")
    scene.game_changed("keyflower")
    scene.players_choice.set_value(6)
    scene.players_changed(6)
    colours = [r.colour.value for r in scene.seat_rows]
    assert len(set(colours)) == 6
    assert not set(colours) & set(kf_art.KEYPLE_RGB), colours
    offered = {v for v, _ in scene.seat_rows[0].colour.options}
    assert offered == set(seat_colours("keyflower"))
    specs = scene.seat_specs()
    assert not {s.colour for s in specs} & set(kf_art.KEYPLE_RGB)


def test_a_saved_setup_with_a_keyple_colour_is_not_restored(app: Any) -> None:
    from game.ui.scenes.setup import SetupScene

    app.settings.extra["setup.local"] = {
        "game": "keyflower",
        "games": {"keyflower": {"players": 3, "seats": [{"kind": "human", "colour": "purple"}]}},
    }
    scene = app.push(SetupScene(app, mode="local"))
    app.step()
    assert scene.seat_rows[0].colour.value != "purple"
