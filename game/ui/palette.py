"""Colours, seat colours and the seat shapes that back them up.

Seats get a colour (by the host's colour name) *and* a shape per seat (cross, crescent, heart,
hourglass, drop, pentagon), so nothing on screen depends on telling colours apart.  No game
piece has these shapes (Keyflower's keyples carry triangles, squares, circles, diamonds and
stars in the colour-blind palette; resources are circles and cubes), and a game's view names
the colours its pieces wear (``GameView.PIECE_COLOURS``): its seats are offered the others
(:func:`seat_colours_for`), so a purple seat never sits beside Keyflower's purple keyple.  With the
colour-blind setting the seat colours switch to the Okabe–Ito set (Okabe and Ito, "Color
Universal Design", 2008), distinguishable with every common colour-vision deficiency, and the
shapes are drawn on every piece on the board too.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pygame

from game.ui.i18n import has, t

RGB = tuple[int, int, int]

# ---- interface ----------------------------------------------------------------------------
BG = (24, 28, 36)
BG_PANEL = (34, 40, 52)
BG_PANEL_2 = (44, 51, 66)
BG_HOVER = (58, 68, 88)
BORDER = (86, 98, 122)
TEXT = (236, 238, 242)
TEXT_DIM = (160, 168, 184)
TEXT_DISABLED = (104, 112, 128)
ACCENT = (255, 196, 72)
ACCENT_DARK = (150, 104, 20)
GOOD = (110, 200, 120)
BAD = (236, 96, 88)
HIGHLIGHT = (255, 236, 120)
SOURCE = (120, 220, 255)
#: What a hint points at (a hex, a tile, a button).
HINT = (120, 255, 200)
CURTAIN = (16, 18, 26)

#: The host's colour names (``net.seat_rules.COLOURS``) -> (normal RGB, colour-blind-safe RGB).
#: The colour-blind column uses the Okabe–Ito set for the first six names (the ones seats get
#: first) and clearly different lightness for the rest; shapes carry the difference anyway.
SEAT_COLOURS: dict[str, tuple[RGB, RGB]] = {
    "red": ((206, 48, 56), (213, 94, 0)),
    "blue": ((52, 112, 220), (0, 114, 178)),
    "green": ((46, 160, 74), (0, 158, 115)),
    "yellow": ((240, 204, 40), (240, 228, 66)),
    "purple": ((150, 80, 190), (204, 121, 167)),
    "orange": ((236, 132, 36), (230, 159, 0)),
    "white": ((236, 236, 230), (245, 245, 245)),
    "black": ((44, 44, 52), (30, 30, 30)),
    "pink": ((236, 120, 170), (255, 190, 220)),
    "teal": ((30, 150, 150), (86, 180, 233)),
    "brown": ((130, 86, 50), (120, 70, 30)),
    "grey": ((128, 128, 136), (150, 150, 150)),
    "lime": ((160, 210, 60), (200, 230, 140)),
    "navy": ((30, 46, 110), (20, 40, 100)),
    "gold": ((200, 160, 40), (190, 150, 60)),
    "cyan": ((60, 200, 220), (160, 220, 250)),
}
COLOUR_NAMES: tuple[str, ...] = tuple(SEAT_COLOURS)

#: One shape per seat (seat 0 a cross, seat 1 a crescent, ...), drawn next to every seat
#: colour — none of them a shape a game piece has.
SHAPES: tuple[str, ...] = ("cross", "crescent", "heart", "hourglass", "drop", "pentagon")


#: The order seats are offered colours in (the clearest on the dark table first; black last).
PREFERRED: tuple[str, ...] = (
    "red",
    "blue",
    "green",
    "yellow",
    "purple",
    "orange",
    "pink",
    "teal",
    "white",
    "cyan",
    "lime",
    "navy",
    "brown",
    "grey",
    "gold",
    "black",
)


def seat_colours_for(avoid: frozenset[str] | set[str] | tuple[str, ...]) -> tuple[str, ...]:
    """The seat colour names a game offers: every one but ``avoid`` (the colours its pieces
    wear), clearest first (:data:`PREFERRED`)."""
    return tuple(c for c in PREFERRED if c in SEAT_COLOURS and c not in avoid)


def seat_colour(colour: str, colour_blind: bool = False) -> RGB:
    """The RGB of the host colour name ``colour`` (grey for an unknown name)."""
    entry = SEAT_COLOURS.get(colour)
    if entry is None:
        return (128, 128, 136)
    return entry[1] if colour_blind else entry[0]


def colour_label(colour: str, colour_blind: bool = False) -> str:
    """The name of a seat colour as it looks: with the colour-blind palette, the Okabe–Ito
    colour's own name where it differs ("Vermillion" for red, "Bluish green" ...)."""
    if colour_blind and has(f"colour.cb.{colour}"):
        return t(f"colour.cb.{colour}")
    return t(f"colour.{colour}") if has(f"colour.{colour}") else colour


def colour_text(colour: str, settings: Any) -> Callable[[], str]:
    """:func:`colour_label` looked up when drawn, following ``settings.colour_blind`` (a
    choice's item text)."""
    return lambda: colour_label(colour, bool(getattr(settings, "colour_blind", False)))


def seat_shape(seat: int) -> str:
    """The shape that marks seat ``seat``."""
    return SHAPES[seat % len(SHAPES)]


def contrast(colour: RGB) -> RGB:
    """Black or white, whichever reads better on ``colour``."""
    r, g, b = colour[:3]
    luminance = 0.299 * r + 0.587 * g + 0.114 * b
    return (20, 20, 24) if luminance > 150 else (245, 245, 245)


def shade(colour: RGB, factor: float) -> RGB:
    """``colour`` darkened (factor < 1) or lightened towards white (factor > 1)."""
    if factor <= 1:
        return (int(colour[0] * factor), int(colour[1] * factor), int(colour[2] * factor))
    f = factor - 1
    return (
        int(colour[0] + (255 - colour[0]) * f),
        int(colour[1] + (255 - colour[1]) * f),
        int(colour[2] + (255 - colour[2]) * f),
    )


def shape_points(shape: str, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """Polygon points of ``shape`` centred at (cx, cy) with radius ``r`` (not for circles)."""
    if shape == "square":
        k = r * 0.82
        return [(cx - k, cy - k), (cx + k, cy - k), (cx + k, cy + k), (cx - k, cy + k)]
    if shape == "triangle":
        return [
            (cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
            for a in (-90, 30, 150)
        ]
    if shape == "diamond":
        return [(cx, cy - r), (cx + r * 0.8, cy), (cx, cy + r), (cx - r * 0.8, cy)]
    if shape == "star":
        pts = []
        for i in range(10):
            rad = r if i % 2 == 0 else r * 0.45
            a = math.radians(-90 + 36 * i)
            pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
        return pts
    if shape == "crescent":
        # horns to the right: the outer circle's left part, less a circle through the horns
        outer = [
            (cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
            for a in range(300, 59, -15)
        ]
        ix, ir = cx + r * 0.5, r * 0.866
        inner = [
            (ix + ir * math.cos(math.radians(b)), cy + ir * math.sin(math.radians(b)))
            for b in range(90, 271, 15)
        ]
        return outer + inner
    if shape == "heart":
        pts = []
        for i in range(24):
            a = 2 * math.pi * i / 24
            x = 16 * math.sin(a) ** 3
            y = 13 * math.cos(a) - 5 * math.cos(2 * a) - 2 * math.cos(3 * a) - math.cos(4 * a)
            pts.append((cx + x * r / 16.5, cy - (y + 2.5) * r / 16.5))
        return pts
    if shape == "hourglass":
        k = r * 0.78
        return [
            (cx - k, cy - r),
            (cx + k, cy - r),
            (cx + k * 0.14, cy),
            (cx + k, cy + r),
            (cx - k, cy + r),
            (cx - k * 0.14, cy),
        ]
    if shape == "drop":
        rad, oy = r * 0.62, cy + r * 0.36
        arc = [
            (cx + rad * math.cos(math.radians(a)), oy + rad * math.sin(math.radians(a)))
            for a in range(-30, 211, 15)
        ]
        return [(cx, cy - r), *arc]
    if shape == "pentagon":
        return [
            (cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
            for a in (-90, -18, 54, 126, 198)
        ]
    if shape == "cross":
        k, w = r, r * 0.36
        return [
            (cx - w, cy - k),
            (cx + w, cy - k),
            (cx + w, cy - w),
            (cx + k, cy - w),
            (cx + k, cy + w),
            (cx + w, cy + w),
            (cx + w, cy + k),
            (cx - w, cy + k),
            (cx - w, cy + w),
            (cx - k, cy + w),
            (cx - k, cy - w),
            (cx - w, cy - w),
        ]
    raise ValueError(f"unknown shape {shape!r}")


def draw_shape(
    surface: pygame.Surface,
    shape: str,
    centre: tuple[float, float],
    radius: float,
    colour: RGB,
    outline: RGB | None = None,
) -> None:
    """Draw a filled seat shape with an optional 1-pixel outline."""
    cx, cy = centre
    if shape == "circle":
        pygame.draw.circle(surface, colour, (cx, cy), radius)
        if outline is not None:
            pygame.draw.circle(surface, outline, (cx, cy), radius, 1)
        return
    pts = shape_points(shape, cx, cy, radius)
    pygame.draw.polygon(surface, colour, pts)
    if outline is not None:
        pygame.draw.polygon(surface, outline, pts, 1)


def seat_swatch(colour_name: str, seat: int, size: int, colour_blind: bool) -> pygame.Surface:
    """A small square badge: the seat colour with the seat's shape inside (lists, panels)."""
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    colour = seat_colour(colour_name, colour_blind)
    pygame.draw.rect(surf, colour, surf.get_rect(), border_radius=max(2, size // 5))
    pygame.draw.rect(surf, shade(colour, 0.55), surf.get_rect(), 1, border_radius=max(2, size // 5))
    draw_shape(surf, seat_shape(seat), (size / 2, size / 2), size * 0.3, contrast(colour))
    return surf
