"""Geometry for the coming boards (``game/ui/grids.py``): flat-top hexes (Keyflower's village,
sides in the order of the shared tile data) and square grids (Glen More's territory) — pixel to
cell and back, sides and neighbours, outlines, fitting any set of cells into a rectangle."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from game.ui.grids import FLAT_SIDES, HexGrid, SquareGrid

coords = st.integers(-30, 30)
cells = st.lists(st.tuples(st.integers(-8, 8), st.integers(-8, 8)), min_size=1, max_size=25)
unit = st.floats(-0.999, 0.999)


@given(q=coords, r=coords, flat=st.booleans(), size=st.floats(4, 80), dx=unit, dy=unit)
def test_every_point_inside_a_hex_maps_back_to_it(
    q: int, r: int, flat: bool, size: float, dx: float, dy: float
) -> None:
    grid = HexGrid((311.5, -47.25), size, flat)
    cx, cy = grid.centre(q, r)
    assert grid.cell_at(cx, cy) == (q, r)
    # Any point of the inscribed circle (radius sqrt(3)/2 of the hex's) is inside the hex.
    inner = size * math.sqrt(3) / 2 * 0.999
    norm = math.hypot(dx, dy)
    if norm > 1:
        dx, dy = dx / norm, dy / norm
    assert grid.cell_at(cx + dx * inner, cy + dy * inner) == (q, r)


@given(q=coords, r=coords, flat=st.booleans(), side=st.integers(0, 5))
def test_sides_are_shared_with_the_neighbour_across_them(
    q: int, r: int, flat: bool, side: int
) -> None:
    grid = HexGrid((0.0, 0.0), 20.0, flat)
    n = grid.neighbour(q, r, side)
    a, b = grid.side_corners(q, r, side)
    c, d = grid.side_corners(*n, (side + 3) % 6)
    close = lambda p, s: math.dist(p, s) < 1e-6  # noqa: E731
    assert close(a, d) and close(b, c), "the same edge, walked the other way"
    # The neighbour's centre is the mirror image of this centre in the middle of the side.
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    here, there = grid.centre(q, r), grid.centre(*n)
    assert math.dist(((here[0] + there[0]) / 2, (here[1] + there[1]) / 2), mid) < 1e-6


def test_flat_sides_follow_the_keyflower_tile_data() -> None:
    """Keyflower's tiles list their sides bottom, lower-left, upper-left, top, upper-right,
    lower-right (flat-topped, clockwise): side i of the grid is that side on screen."""
    grid = HexGrid((0.0, 0.0), 10.0, flat=True)
    x0, y0 = grid.centre(0, 0)
    where = {}
    for i, name in enumerate(FLAT_SIDES):
        x, y = grid.centre(*grid.neighbour(0, 0, i))
        where[name] = (round(x - x0, 3), round(y - y0, 3))
    assert where["bottom"][0] == 0 and where["bottom"][1] > 0
    assert where["top"][0] == 0 and where["top"][1] < 0
    assert where["lower_left"][0] < 0 < where["lower_left"][1]
    assert where["upper_left"][0] < 0 and where["upper_left"][1] < 0
    assert where["upper_right"][0] > 0 > where["upper_right"][1]
    assert where["lower_right"][0] > 0 and where["lower_right"][1] > 0
    a, b = grid.side_corners(0, 0, 3)  # the top side is horizontal
    assert abs(a[1] - b[1]) < 1e-9 and a[1] < y0


@given(area=cells, flat=st.booleans(), w=st.integers(60, 1500), h=st.integers(60, 900))
def test_fit_shows_every_hex_inside_the_box(
    area: list[tuple[int, int]], flat: bool, w: int, h: int
) -> None:
    box = (13.0, 29.0, float(w), float(h))
    grid = HexGrid.fit(box, area, flat)
    x, y, bw, bh = grid.bounds(area)
    assert x >= box[0] - 1e-6 and y >= box[1] - 1e-6
    assert x + bw <= box[0] + box[2] + 1e-6 and y + bh <= box[1] + box[3] + 1e-6
    # As large as possible: it touches two opposite sides of the box (unless the 1px floor).
    assert grid.size == 1.0 or min(abs(bw - w), abs(bh - h)) < 1e-6
    capped = HexGrid.fit(box, area, flat, max_size=5)
    assert capped.size <= 5


def test_outline_and_ring_of_hexes() -> None:
    grid = HexGrid((0.0, 0.0), 10.0)
    assert len(grid.outline([(0, 0)])) == 6
    assert len(grid.outline([(0, 0), (0, 1)])) == 10
    seven = [(0, 0), *grid.neighbours(0, 0)]
    assert len(grid.outline(seven)) == 18
    assert len(grid.ring([(0, 0)])) == 6 and len(grid.ring(seven)) == 12


def test_zoom_keeps_the_point_under_the_mouse() -> None:
    grid = HexGrid((100.0, 80.0), 12.0)
    about = grid.centre(3, -2)
    zoomed = grid.zoomed(1.5, about)
    assert zoomed.size == 18.0 and math.dist(zoomed.centre(3, -2), about) < 1e-9
    sq = SquareGrid((5.0, 5.0), 30.0)
    centre = sq.centre(-1, 4)
    assert math.dist(sq.zoomed(0.5, centre).centre(-1, 4), centre) < 1e-9


@given(
    row=coords,
    col=coords,
    size=st.floats(3, 90),
    dx=st.floats(0.001, 0.999),
    dy=st.floats(0.001, 0.999),
)
def test_square_cells_both_ways(row: int, col: int, size: float, dx: float, dy: float) -> None:
    grid = SquareGrid((-17.5, 42.0), size)
    x0, y0 = grid.corners(row, col)[0]
    assert grid.cell_at(x0 + dx * size, y0 + dy * size) == (row, col)
    cx, cy = grid.centre(row, col)
    assert grid.cell_at(cx, cy) == (row, col)


@given(row=coords, col=coords, size=st.floats(3, 90))
def test_square_rects_tile_without_gaps(row: int, col: int, size: float) -> None:
    grid = SquareGrid((0.25, 0.75), size)
    x, y, w, h = grid.rect(row, col)
    right = grid.rect(row, col + 1)
    below = grid.rect(row + 1, col)
    assert right[0] == x + w and below[1] == y + h
    assert right[1] == y and below[0] == x


@given(area=cells, margin=st.integers(0, 2), w=st.integers(60, 1500), h=st.integers(60, 900))
def test_square_fit_shows_every_cell_and_the_margin(
    area: list[tuple[int, int]], margin: int, w: int, h: int
) -> None:
    box = (7.0, 3.0, float(w), float(h))
    grid = SquareGrid.fit(box, area, margin=margin)
    shown = set(area) | (grid.ring(area) if margin else set())
    for r, c in shown:
        for x, y in grid.corners(r, c):
            assert box[0] - 1e-6 <= x <= box[0] + box[2] + 1e-6
            assert box[1] - 1e-6 <= y <= box[1] + box[3] + 1e-6


def test_square_outline_neighbours_and_ring() -> None:
    grid = SquareGrid((0.0, 0.0), 10.0)
    assert len(grid.outline([(0, 0)])) == 4
    assert len(grid.outline([(0, 0), (0, 1), (1, 0), (1, 1)])) == 8
    assert len(SquareGrid.around(2, 2)) == 8 and (2, 2) not in SquareGrid.around(2, 2)
    assert grid.ring([(0, 0)]) == {(-1, 0), (1, 0), (0, -1), (0, 1)}
    top = grid.side_corners(0, 0, 0)
    assert top == ((0.0, 0.0), (10.0, 0.0))
