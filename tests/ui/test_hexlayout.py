"""Hex hit-testing: pixel -> hex is the exact inverse of hex -> pixel for every hex (KB §2)."""

from __future__ import annotations

import math

import pytest

from game.ui.hexlayout import SQRT3, HexLayout, cube_round, offset_to_axial

LAYOUTS = [
    HexLayout.fit((8, 60, 680, 572)),  # the board at 1024x640
    HexLayout.fit((8, 60, 1240, 1010)),  # the board at 1920x1080
    HexLayout((100.5, 37.25), 13.0),
]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_hex_round_trips(layout: HexLayout) -> None:
    for r in range(20):
        for c in range(20):
            x, y = layout.centre(r, c)
            assert layout.hex_at(x, y) == (r, c)
            # Points well inside the hex (towards each corner and each edge) map to it too.
            for k in range(12):
                angle = math.radians(-90 + 30 * k)
                reach = 0.92 * layout.size if k % 2 == 0 else 0.92 * layout.size * SQRT3 / 2
                px = x + reach * math.cos(angle)
                py = y + reach * math.sin(angle)
                assert layout.hex_at(px, py) == (r, c), (r, c, k)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_outside_the_map_is_no_hex(layout: HexLayout) -> None:
    x, y, w, h = layout.bounds()
    assert layout.hex_at(x - 5, y - 5) is None
    assert layout.hex_at(x + w + 5, y + h / 2) is None
    assert layout.hex_at(x + w / 2, y + h + 5) is None


def test_odd_rows_are_shifted_right_by_half_a_hex() -> None:
    """KB §2: odd-r offset."""
    layout = HexLayout((0.0, 0.0), 10.0)
    x0, _ = layout.centre(0, 3)
    x1, _ = layout.centre(1, 3)
    assert x1 - x0 == pytest.approx(SQRT3 * 10 / 2)


def test_neighbours_touch() -> None:
    """Each odd-r neighbour of KB §2 is one hex width away."""
    layout = HexLayout((0.0, 0.0), 10.0)
    for r, c in ((4, 4), (5, 4)):
        odd = r & 1
        nbrs = [
            (r, c - 1),
            (r, c + 1),
            (r - 1, c - 1 + odd),
            (r - 1, c + odd),
            (r + 1, c - 1 + odd),
            (r + 1, c + odd),
        ]
        cx, cy = layout.centre(r, c)
        for nr, nc in nbrs:
            nx, ny = layout.centre(nr, nc)
            assert math.hypot(nx - cx, ny - cy) == pytest.approx(SQRT3 * 10)


def test_fit_keeps_the_map_inside_the_rectangle() -> None:
    rect = (20, 30, 700, 500)
    layout = HexLayout.fit(rect)
    x, y, w, h = layout.bounds()
    assert x >= rect[0] - 1 and y >= rect[1] - 1
    assert x + w <= rect[0] + rect[2] + 2 and y + h <= rect[1] + rect[3] + 2


def test_cube_round_and_axial() -> None:
    assert cube_round(0.1, -0.1) == (0, 0)
    assert cube_round(0.6, 0.1) == (1, 0)
    assert offset_to_axial(3, 5) == (4, 3)
