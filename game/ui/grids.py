"""Board geometry for game views: hex grids in axial coordinates (flat-top or pointy-top) and
square grids — cell → pixel and pixel → cell exactly, corners, sides and neighbours, the outline
of a set of cells, and a fit-to-rectangle zoom of any set of cells (a village or a territory
that grows during the game).

* :class:`HexGrid` — axial ``(q, r)`` hexes.  Flat-top is Keyflower's village: its sides are
  numbered as the shared tile data lists them (:data:`FLAT_SIDES`: bottom, lower-left,
  upper-left, top, upper-right, lower-right — clockwise on screen from the bottom), so a tile's
  ``edges[i]`` lies on side ``i`` of its hex.  Pointy-top is offered for completeness;
  Kingdom Builder's fixed odd-r map keeps :class:`game.ui.hexlayout.HexLayout`.
* :class:`SquareGrid` — ``(row, col)`` squares: Glen More's territories (rows grow down,
  columns right; negative numbers allowed, a territory grows in every direction).

The maths of hexes follows the Red Blob Games hexagon guide (axial coordinates, cube rounding).
Everything here is plain arithmetic on floats and tuples (no pygame), so the views and the tests
use it alike.  Screen y grows downwards.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from game.ui.hexlayout import cube_round

SQRT3 = math.sqrt(3.0)

Cell = tuple[int, int]
Point = tuple[float, float]
Segment = tuple[Point, Point]
#: A rectangle as (x, y, width, height).
Box = tuple[float, float, float, float]

#: Flat-top sides in the order of Keyflower's tile data (``edges``), clockwise from the bottom.
FLAT_SIDES: tuple[str, ...] = (
    "bottom",
    "lower_left",
    "upper_left",
    "top",
    "upper_right",
    "lower_right",
)
#: The axial (dq, dr) of the neighbour across each flat-top side, in :data:`FLAT_SIDES` order.
FLAT_DIRECTIONS: tuple[Cell, ...] = ((0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1), (1, 0))
#: Pointy-top sides, clockwise from the upper right.
POINTY_SIDES: tuple[str, ...] = (
    "upper_right",
    "right",
    "lower_right",
    "lower_left",
    "left",
    "upper_left",
)
POINTY_DIRECTIONS: tuple[Cell, ...] = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))

#: Square sides and the (drow, dcol) of the neighbour across each.
SQUARE_SIDES: tuple[str, ...] = ("top", "right", "bottom", "left")
SQUARE_DIRECTIONS: tuple[Cell, ...] = ((-1, 0), (0, 1), (1, 0), (0, -1))


def _fit_scale(
    box: Box, extent: tuple[float, float, float, float], max_size: float | None
) -> tuple[float, float, float]:
    """Scale and offset that put the unit-size ``extent`` (left, top, right, bottom) centred in
    ``box``: returns (size, x offset, y offset) of the unit origin."""
    x, y, w, h = box
    left, top, right, bottom = extent
    ew, eh = max(right - left, 1e-9), max(bottom - top, 1e-9)
    size = max(1.0, min(w / ew, h / eh))
    if max_size is not None:
        size = min(size, max_size)
    ox = x + (w - ew * size) / 2 - left * size
    oy = y + (h - eh * size) / 2 - top * size
    return size, ox, oy


@dataclass(frozen=True)
class HexGrid:
    """Axial hexes of radius ``size`` (centre to corner) whose hex (0, 0) is centred at
    ``origin``; ``flat`` chooses flat-top (else pointy-top)."""

    origin: Point
    size: float
    flat: bool = True

    # ---- building ------------------------------------------------------------------------
    @classmethod
    def fit(
        cls,
        box: Box,
        cells: Iterable[Cell],
        flat: bool = True,
        max_size: float | None = None,
    ) -> HexGrid:
        """The largest grid (at most ``max_size``) that shows every hex of ``cells`` inside
        ``box``, centred in it.  No cells: hex (0, 0) alone."""
        unit = cls((0.0, 0.0), 1.0, flat)
        cells = list(cells) or [(0, 0)]
        hw, hh = (1.0, SQRT3 / 2) if flat else (SQRT3 / 2, 1.0)
        xs = [unit.centre(*c)[0] for c in cells]
        ys = [unit.centre(*c)[1] for c in cells]
        extent = (min(xs) - hw, min(ys) - hh, max(xs) + hw, max(ys) + hh)
        size, ox, oy = _fit_scale(box, extent, max_size)
        return cls((ox, oy), size, flat)

    def zoomed(self, factor: float, about: Point) -> HexGrid:
        """The grid scaled by ``factor`` around the pixel ``about`` (a mouse-wheel zoom)."""
        ax, ay = about
        ox, oy = self.origin
        return HexGrid(
            (ax + (ox - ax) * factor, ay + (oy - ay) * factor), self.size * factor, self.flat
        )

    # ---- hex -> pixel --------------------------------------------------------------------
    def centre(self, q: int, r: int) -> Point:
        """Pixel centre of hex (q, r)."""
        ox, oy = self.origin
        if self.flat:
            return (ox + self.size * 1.5 * q, oy + self.size * SQRT3 * (r + q / 2))
        return (ox + self.size * SQRT3 * (q + r / 2), oy + self.size * 1.5 * r)

    def corners(self, q: int, r: int, scale: float = 1.0) -> list[Point]:
        """The six corners, clockwise on screen: flat-top from the right corner, pointy-top
        from the top corner (``scale`` shrinks the hex about its centre)."""
        cx, cy = self.centre(q, r)
        rad = self.size * scale
        start = 0 if self.flat else -90
        return [
            (
                cx + rad * math.cos(math.radians(start + 60 * i)),
                cy + rad * math.sin(math.radians(start + 60 * i)),
            )
            for i in range(6)
        ]

    @property
    def sides(self) -> tuple[str, ...]:
        return FLAT_SIDES if self.flat else POINTY_SIDES

    def side_corners(self, q: int, r: int, side: int) -> Segment:
        """The two corners of side ``side`` (an index of :attr:`sides`) of hex (q, r)."""
        pts = self.corners(q, r)
        first = (side + 1) % 6 if self.flat else side % 6
        return (pts[first], pts[(first + 1) % 6])

    def neighbour(self, q: int, r: int, side: int) -> Cell:
        """The hex across side ``side`` of (q, r)."""
        dq, dr = (FLAT_DIRECTIONS if self.flat else POINTY_DIRECTIONS)[side % 6]
        return (q + dq, r + dr)

    def neighbours(self, q: int, r: int) -> list[Cell]:
        return [self.neighbour(q, r, i) for i in range(6)]

    # ---- pixel -> hex --------------------------------------------------------------------
    def cell_at(self, x: float, y: float) -> Cell:
        """The hex whose area holds pixel (x, y) (the caller decides whether it is on the board)."""
        px = (x - self.origin[0]) / self.size
        py = (y - self.origin[1]) / self.size
        if self.flat:
            fq = 2 / 3 * px
            fr = -px / 3 + SQRT3 / 3 * py
        else:
            fq = SQRT3 / 3 * px - py / 3
            fr = 2 / 3 * py
        return cube_round(fq, fr)

    # ---- sets of hexes -------------------------------------------------------------------
    def outline(self, cells: Iterable[Cell]) -> list[Segment]:
        """The border of a set of hexes: every side whose neighbour is not in the set."""
        area = set(cells)
        return [
            self.side_corners(q, r, side)
            for q, r in sorted(area)
            for side in range(6)
            if self.neighbour(q, r, side) not in area
        ]

    def ring(self, cells: Iterable[Cell]) -> set[Cell]:
        """The hexes next to the set but not in it (where a village can grow)."""
        area = set(cells)
        return {n for q, r in area for n in self.neighbours(q, r)} - area

    def bounds(self, cells: Iterable[Cell]) -> Box:
        """The pixel rectangle covered by the hexes of ``cells``."""
        pts = [p for q, r in cells for p in self.corners(q, r)]
        if not pts:
            return (self.origin[0], self.origin[1], 0.0, 0.0)
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


@dataclass(frozen=True)
class SquareGrid:
    """Square cells of side ``size`` whose cell (0, 0) has its top-left corner at ``origin``."""

    origin: Point
    size: float

    @classmethod
    def fit(
        cls, box: Box, cells: Iterable[Cell], margin: float = 0.0, max_size: float | None = None
    ) -> SquareGrid:
        """The largest grid (at most ``max_size``) that shows every cell of ``cells`` with
        ``margin`` cells of room around them inside ``box``, centred.  No cells: (0, 0) alone."""
        cells = list(cells) or [(0, 0)]
        rows = [c[0] for c in cells]
        cols = [c[1] for c in cells]
        extent = (
            min(cols) - margin,
            min(rows) - margin,
            max(cols) + 1 + margin,
            max(rows) + 1 + margin,
        )
        size, ox, oy = _fit_scale(box, extent, max_size)
        return cls((ox, oy), size)

    def zoomed(self, factor: float, about: Point) -> SquareGrid:
        """The grid scaled by ``factor`` around the pixel ``about`` (a mouse-wheel zoom)."""
        ax, ay = about
        ox, oy = self.origin
        return SquareGrid((ax + (ox - ax) * factor, ay + (oy - ay) * factor), self.size * factor)

    def _x(self, col: int) -> int:
        return round(self.origin[0] + col * self.size)

    def _y(self, row: int) -> int:
        return round(self.origin[1] + row * self.size)

    def rect(self, row: int, col: int) -> tuple[int, int, int, int]:
        """Cell (row, col) in whole pixels (x, y, w, h); neighbouring cells share their edge
        exactly, with neither gap nor overlap."""
        x, y = self._x(col), self._y(row)
        return (x, y, self._x(col + 1) - x, self._y(row + 1) - y)

    def centre(self, row: int, col: int) -> Point:
        ox, oy = self.origin
        return (ox + (col + 0.5) * self.size, oy + (row + 0.5) * self.size)

    def corners(self, row: int, col: int) -> list[Point]:
        """Top-left, top-right, bottom-right, bottom-left."""
        ox, oy = self.origin
        x0, y0 = ox + col * self.size, oy + row * self.size
        x1, y1 = x0 + self.size, y0 + self.size
        return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]

    def side_corners(self, row: int, col: int, side: int) -> Segment:
        """The two corners of side ``side`` (:data:`SQUARE_SIDES`: top, right, bottom, left)."""
        pts = self.corners(row, col)
        return (pts[side % 4], pts[(side + 1) % 4])

    def cell_at(self, x: float, y: float) -> Cell:
        """The cell holding pixel (x, y) (a pixel on a shared edge belongs to the lower/right)."""
        return (
            math.floor((y - self.origin[1]) / self.size),
            math.floor((x - self.origin[0]) / self.size),
        )

    @staticmethod
    def neighbour(row: int, col: int, side: int) -> Cell:
        dr, dc = SQUARE_DIRECTIONS[side % 4]
        return (row + dr, col + dc)

    @staticmethod
    def around(row: int, col: int) -> list[Cell]:
        """The eight cells around (row, col): orthogonal and diagonal (Glen More's clan
        adjacency and activation)."""
        return [(row + dr, col + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]

    def outline(self, cells: Iterable[Cell]) -> list[Segment]:
        """The border of a set of cells: every side whose neighbour is not in the set."""
        area = set(cells)
        return [
            self.side_corners(r, c, side)
            for r, c in sorted(area)
            for side in range(4)
            if self.neighbour(r, c, side) not in area
        ]

    def ring(self, cells: Iterable[Cell]) -> set[Cell]:
        """The cells sharing an edge with the set but not in it (where a territory can grow)."""
        area = set(cells)
        return {self.neighbour(r, c, s) for r, c in area for s in range(4)} - area
