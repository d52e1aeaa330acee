"""Pointy-top hexes in odd-r offset rows: hex <-> pixel, exactly both ways.

Kingdom Builder's map is ``rows`` x ``cols`` hexes addressed (row, col); odd rows are shifted
half a hex to the right (KB §2).  The maths follows the Red Blob Games hexagon guide: a hex of
radius ``size`` (centre to corner) is ``sqrt(3) * size`` wide and rows are ``1.5 * size`` apart.
:meth:`HexLayout.hex_at` converts a pixel to fractional axial coordinates and rounds in cube
space, so every pixel inside a hex maps back to that hex with no polygon tests.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SQRT3 = math.sqrt(3.0)

Hex = tuple[int, int]


@dataclass(frozen=True)
class HexLayout:
    """Where each hex of a ``rows`` x ``cols`` odd-r map sits on screen.

    ``origin`` is the pixel centre of hex (0, 0); ``size`` the hex radius in pixels.
    """

    origin: tuple[float, float]
    size: float
    rows: int = 20
    cols: int = 20

    # ---- building ------------------------------------------------------------------------
    @staticmethod
    def extent(rows: int, cols: int) -> tuple[float, float]:
        """Width and height of the whole map, in hex radii."""
        width = SQRT3 * (cols + (0.5 if rows > 1 else 0.0))
        height = 1.5 * (rows - 1) + 2.0
        return width, height

    @classmethod
    def fit(
        cls, rect: tuple[float, float, float, float], rows: int = 20, cols: int = 20
    ) -> HexLayout:
        """The largest layout whose map fits inside ``rect`` (x, y, w, h), centred in it."""
        x, y, w, h = rect
        ew, eh = cls.extent(rows, cols)
        size = max(1.0, min(w / ew, h / eh))
        width, height = ew * size, eh * size
        left = x + (w - width) / 2
        top = y + (h - height) / 2
        origin = (left + SQRT3 * size / 2, top + size)
        return cls(origin, size, rows, cols)

    # ---- hex -> pixel --------------------------------------------------------------------
    @property
    def hex_width(self) -> float:
        return SQRT3 * self.size

    def centre(self, row: int, col: int) -> tuple[float, float]:
        """Pixel centre of hex (row, col)."""
        ox, oy = self.origin
        return (
            ox + self.size * SQRT3 * (col + 0.5 * (row & 1)),
            oy + self.size * 1.5 * row,
        )

    def corners(self, row: int, col: int, scale: float = 1.0) -> list[tuple[float, float]]:
        """The six corners of hex (row, col), clockwise from the top (``scale`` shrinks it)."""
        cx, cy = self.centre(row, col)
        r = self.size * scale
        return [
            (cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
            for a in (-90, -30, 30, 90, 150, 210)
        ]

    def bounds(self) -> tuple[int, int, int, int]:
        """The pixel rectangle (x, y, w, h) covered by the whole map."""
        ew, eh = self.extent(self.rows, self.cols)
        ox, oy = self.origin
        left = ox - SQRT3 * self.size / 2
        top = oy - self.size
        return (
            math.floor(left),
            math.floor(top),
            math.ceil(ew * self.size) + 1,
            math.ceil(eh * self.size) + 1,
        )

    # ---- pixel -> hex --------------------------------------------------------------------
    def hex_at(self, x: float, y: float) -> Hex | None:
        """The hex under pixel (x, y), or ``None`` outside the map."""
        px = (x - self.origin[0]) / self.size
        py = (y - self.origin[1]) / self.size
        # Fractional axial coordinates of the point (pointy-top), with hex (0, 0) at q = r = 0.
        fq = SQRT3 / 3 * px - py / 3
        fr = 2 / 3 * py
        q, r = cube_round(fq, fr)
        col = q + (r - (r & 1)) // 2
        if 0 <= r < self.rows and 0 <= col < self.cols:
            return (r, col)
        return None


def cube_round(fq: float, fr: float) -> tuple[int, int]:
    """The axial hex (q, r) containing fractional axial point (fq, fr) (cube rounding)."""
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return int(q), int(r)


def offset_to_axial(row: int, col: int) -> tuple[int, int]:
    """Odd-r offset (row, col) to axial (q, r)."""
    return col - (row - (row & 1)) // 2, row
