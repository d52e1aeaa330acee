"""Keyflower artwork drawn in code: flat-topped tile hexes with their roads, rivers and fields,
keyples, resources, skill tiles, the wagon and house of transport tiles, coins and the tile's
effect as a row of icons.

Every piece has a shape of its own besides its colour, so nothing depends on telling colours
apart: resources are a log (wood), a rough stone, an ingot (iron) and a coin (gold); skill tiles
carry a saw, a pick axe or an anvil; roads are light bands with a dashed line, rivers blue bands
with a white wave.  With the colour-blind palette the keyples switch to the Okabe–Ito colours and
carry a mark of their colour (red a triangle, blue a square, yellow a circle, green a diamond).

A tile sprite is drawn once per (tile, face, rotation, radius, detail, palette, language) and
cached; the table then only blits.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache

import pygame

from game.ui import palette as pal

#: Renders text: (text, size, colour, bold) -> a surface (the app's font cache).
FontRender = Callable[[str, int, pal.RGB, bool], pygame.Surface]

SQRT3 = math.sqrt(3.0)

#: Keyple colours (normal, colour-blind safe) and the mark each carries in the colour-blind
#: palette.
KEYPLE_RGB: dict[str, tuple[pal.RGB, pal.RGB]] = {
    "red": ((212, 52, 48), (213, 94, 0)),
    "blue": ((46, 104, 214), (0, 114, 178)),
    "yellow": ((246, 206, 36), (240, 228, 66)),
    "green": ((52, 164, 72), (0, 158, 115)),
    "purple": ((142, 70, 180), (204, 121, 167)),
}
KEYPLE_MARK: dict[str, str] = {
    "red": "triangle",
    "blue": "square",
    "yellow": "circle",
    "green": "diamond",
    "purple": "star",
}
RESOURCE_RGB: dict[str, pal.RGB] = {
    "wood": (150, 96, 48),
    "stone": (170, 170, 176),
    "iron": (92, 104, 122),
    "gold": (246, 196, 48),
}
SKILL_RGB: dict[str, pal.RGB] = {
    "saw": (196, 120, 60),
    "pickaxe": (128, 128, 140),
    "anvil": (70, 80, 96),
}
#: Tile backgrounds by season / kind (KF §2): spring green, summer gold, autumn rust, winter ice,
#: home sand, boats sea blue, turn-order tiles slate.
TILE_RGB: dict[str, pal.RGB] = {
    "spring": (128, 184, 96),
    "summer": (214, 178, 74),
    "autumn": (196, 120, 70),
    "winter": (176, 204, 226),
    "home": (214, 196, 150),
    "boat": (84, 150, 190),
    "summer_boat": (96, 176, 186),
    "turn_order": (128, 128, 156),
}
ROAD = (232, 214, 170)
ROAD_LINE = (120, 96, 64)
RIVER = (60, 130, 210)
RIVER_LINE = (220, 240, 255)
FIELD = (96, 150, 70)
GOLD = (255, 200, 60)
GOLD_DARK = (120, 80, 10)
INK = (28, 26, 24)
PAPER = (250, 246, 232)


def keyple_rgb(colour: str, colour_blind: bool) -> pal.RGB:
    entry = KEYPLE_RGB.get(colour)
    if entry is None:
        return (150, 150, 150)
    return entry[1] if colour_blind else entry[0]


# ---- hexes ------------------------------------------------------------------------------------
def hex_points(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """Corners of a flat-topped hex, clockwise on screen from the right corner (the corner order
    of :class:`game.ui.grids.HexGrid`: side ``i`` runs from corner ``i + 1`` to ``i + 2``)."""
    return [
        (cx + r * math.cos(math.radians(60 * i)), cy + r * math.sin(math.radians(60 * i)))
        for i in range(6)
    ]


def side_mid(cx: float, cy: float, r: float, side: int) -> tuple[float, float]:
    """The midpoint of side ``side`` (0 bottom, then clockwise: lower-left, upper-left, top,
    upper-right, lower-right) of a flat-topped hex."""
    a = math.radians(90 + 60 * side)
    d = r * SQRT3 / 2
    return (cx + d * math.cos(a), cy + d * math.sin(a))


def sprite_size(r: float) -> tuple[int, int]:
    """A flat-topped hex sprite of radius ``r``: width 2r, height √3·r (plus a pixel)."""
    return math.ceil(2 * r) + 2, math.ceil(SQRT3 * r) + 2


# ---- small pieces -----------------------------------------------------------------------------
def draw_keyple(
    surface: pygame.Surface,
    centre: tuple[float, float],
    size: float,
    colour: str,
    colour_blind: bool = False,
    outline: pal.RGB = INK,
) -> None:
    """A keyple (a little figure) ``size`` pixels tall, with its colour's mark when
    ``colour_blind``."""
    cx, cy = centre
    rgb = keyple_rgb(colour, colour_blind)
    h = max(6.0, size)
    head_r = h * 0.2
    head = (cx, cy - h * 0.28)
    body = [
        (cx - h * 0.36, cy + h * 0.46),
        (cx - h * 0.22, cy - h * 0.08),
        (cx + h * 0.22, cy - h * 0.08),
        (cx + h * 0.36, cy + h * 0.46),
    ]
    arms = [
        (cx - h * 0.44, cy + h * 0.06),
        (cx - h * 0.2, cy - h * 0.1),
        (cx + h * 0.2, cy - h * 0.1),
        (cx + h * 0.44, cy + h * 0.06),
        (cx + h * 0.3, cy + h * 0.16),
        (cx - h * 0.3, cy + h * 0.16),
    ]
    pygame.draw.polygon(surface, rgb, arms)
    pygame.draw.polygon(surface, rgb, body)
    pygame.draw.circle(surface, rgb, head, head_r)
    width = 1
    pygame.draw.polygon(surface, outline, body, width)
    pygame.draw.circle(surface, outline, head, head_r, width)
    if colour_blind and h >= 9:
        mark = KEYPLE_MARK.get(colour, "circle")
        pal.draw_shape(surface, mark, (cx, cy + h * 0.2), h * 0.16, pal.contrast(rgb))


def draw_resource(
    surface: pygame.Surface, centre: tuple[float, float], size: float, kind: str
) -> None:
    """A resource token ``size`` pixels wide: wood a log, stone a rough stone, iron an ingot,
    gold a coin (the shape tells them apart as well as the colour)."""
    cx, cy = centre
    s = max(5.0, size) / 2
    rgb = RESOURCE_RGB.get(kind, (150, 150, 150))
    dark = pal.shade(rgb, 0.55)
    if kind == "wood":
        rect = pygame.Rect(0, 0, int(s * 2), int(s * 1.2))
        rect.center = (int(cx), int(cy))
        pygame.draw.rect(surface, rgb, rect, border_radius=max(1, int(s * 0.5)))
        pygame.draw.rect(surface, dark, rect, 1, border_radius=max(1, int(s * 0.5)))
        ring = (rect.right - s * 0.45, cy)
        pygame.draw.circle(surface, pal.shade(rgb, 1.35), ring, s * 0.42)
        pygame.draw.circle(surface, dark, ring, s * 0.42, 1)
    elif kind == "stone":
        pts = [
            (cx - s * 0.95, cy + s * 0.2),
            (cx - s * 0.55, cy - s * 0.75),
            (cx + s * 0.35, cy - s * 0.9),
            (cx + s * 0.95, cy - s * 0.1),
            (cx + s * 0.6, cy + s * 0.8),
            (cx - s * 0.4, cy + s * 0.85),
        ]
        pygame.draw.polygon(surface, rgb, pts)
        pygame.draw.polygon(surface, dark, pts, 1)
    elif kind == "iron":
        pts = [
            (cx - s * 0.6, cy - s * 0.55),
            (cx + s * 0.6, cy - s * 0.55),
            (cx + s * 1.0, cy + s * 0.55),
            (cx - s * 1.0, cy + s * 0.55),
        ]
        pygame.draw.polygon(surface, rgb, pts)
        pygame.draw.line(
            surface, pal.shade(rgb, 1.4), (cx - s * 0.5, cy - s * 0.3), (cx + s * 0.5, cy - s * 0.3)
        )
        pygame.draw.polygon(surface, pal.shade(rgb, 0.45), pts, 1)
    else:  # gold (and anything else) a coin
        pygame.draw.circle(surface, rgb, (cx, cy), s * 0.9)
        pygame.draw.circle(surface, GOLD_DARK, (cx, cy), s * 0.9, 1)
        pygame.draw.circle(surface, pal.shade(rgb, 1.3), (cx, cy), s * 0.45, 1)


def draw_skill(
    surface: pygame.Surface, centre: tuple[float, float], size: float, kind: str
) -> None:
    """A skill tile ``size`` pixels wide: a light square with a saw, a pick axe or an anvil."""
    cx, cy = centre
    s = max(6.0, size) / 2
    rect = pygame.Rect(0, 0, int(s * 2), int(s * 2))
    rect.center = (int(cx), int(cy))
    pygame.draw.rect(surface, (236, 226, 200), rect, border_radius=max(1, int(s * 0.3)))
    pygame.draw.rect(
        surface,
        pal.shade(SKILL_RGB.get(kind, (90, 90, 90)), 0.8),
        rect,
        1,
        border_radius=max(1, int(s * 0.3)),
    )
    ink = SKILL_RGB.get(kind, INK)
    w = max(1, int(s * 0.18))
    if kind == "saw":
        blade = [
            (cx - s * 0.7, cy - s * 0.15),
            (cx + s * 0.7, cy - s * 0.45),
            (cx + s * 0.7, cy + s * 0.05),
            (cx - s * 0.7, cy + s * 0.35),
        ]
        pygame.draw.polygon(surface, (150, 150, 160), blade)
        teeth = []
        for i in range(6):
            x = cx - s * 0.7 + i * s * 0.28
            y = cy + s * 0.35 - i * s * 0.06
            teeth += [(x, y), (x + s * 0.14, y + s * 0.2)]
        if len(teeth) >= 2:
            pygame.draw.lines(surface, INK, False, teeth, 1)
        pygame.draw.rect(
            surface, ink, (cx - s * 0.95, cy - s * 0.35, s * 0.4, s * 0.75), border_radius=2
        )
    elif kind == "pickaxe":
        pygame.draw.line(
            surface,
            (120, 80, 40),
            (cx - s * 0.5, cy + s * 0.7),
            (cx + s * 0.35, cy - s * 0.35),
            w + 1,
        )
        head = [
            (cx - s * 0.55, cy - s * 0.55),
            (cx + s * 0.1, cy - s * 0.75),
            (cx + s * 0.75, cy - s * 0.2),
            (cx + s * 0.15, cy - s * 0.45),
        ]
        pygame.draw.polygon(surface, ink, head)
    else:  # anvil
        pts = [
            (cx - s * 0.8, cy - s * 0.45),
            (cx + s * 0.75, cy - s * 0.45),
            (cx + s * 0.5, cy - s * 0.1),
            (cx + s * 0.2, cy - s * 0.05),
            (cx + s * 0.3, cy + s * 0.45),
            (cx + s * 0.6, cy + s * 0.7),
            (cx - s * 0.6, cy + s * 0.7),
            (cx - s * 0.3, cy + s * 0.45),
            (cx - s * 0.2, cy - s * 0.05),
            (cx - s * 0.55, cy - s * 0.15),
        ]
        pygame.draw.polygon(surface, ink, pts)


def draw_wagon(surface: pygame.Surface, centre: tuple[float, float], size: float) -> None:
    """The transport wagon."""
    cx, cy = centre
    s = max(6.0, size) / 2
    body = pygame.Rect(0, 0, int(s * 1.8), int(s * 0.8))
    body.midbottom = (int(cx), int(cy + s * 0.2))
    pygame.draw.rect(surface, (150, 100, 50), body, border_radius=2)
    pygame.draw.rect(surface, INK, body, 1, border_radius=2)
    for dx in (-0.5, 0.5):
        pygame.draw.circle(surface, INK, (cx + dx * s, cy + s * 0.45), s * 0.3)
        pygame.draw.circle(surface, (200, 200, 200), (cx + dx * s, cy + s * 0.45), s * 0.12)


def draw_house(surface: pygame.Surface, centre: tuple[float, float], size: float) -> None:
    """The upgrade house (an arrow up on a house)."""
    cx, cy = centre
    s = max(6.0, size) / 2
    pts = [
        (cx - s * 0.8, cy - s * 0.05),
        (cx, cy - s * 0.85),
        (cx + s * 0.8, cy - s * 0.05),
        (cx + s * 0.6, cy - s * 0.05),
        (cx + s * 0.6, cy + s * 0.8),
        (cx - s * 0.6, cy + s * 0.8),
        (cx - s * 0.6, cy - s * 0.05),
    ]
    pygame.draw.polygon(surface, (220, 90, 60), pts)
    pygame.draw.polygon(surface, INK, pts, 1)
    arrow = [
        (cx, cy - s * 0.35),
        (cx + s * 0.35, cy + s * 0.1),
        (cx + s * 0.12, cy + s * 0.1),
        (cx + s * 0.12, cy + s * 0.6),
        (cx - s * 0.12, cy + s * 0.6),
        (cx - s * 0.12, cy + s * 0.1),
        (cx - s * 0.35, cy + s * 0.1),
    ]
    pygame.draw.polygon(surface, PAPER, arrow)


def draw_coin(
    surface: pygame.Surface,
    centre: tuple[float, float],
    radius: float,
    value: int | str,
    render: FontRender,
) -> None:
    """A victory-point coin with its number."""
    cx, cy = centre
    r = max(5.0, radius)
    pygame.draw.circle(surface, GOLD, (cx, cy), r)
    pygame.draw.circle(surface, GOLD_DARK, (cx, cy), r, max(1, int(r / 6)))
    img = render(str(value), max(8, int(r * 1.25)), INK, True)
    if img.get_width() > r * 1.7:
        img = pygame.transform.smoothscale(
            img, (int(r * 1.7), max(1, int(img.get_height() * r * 1.7 / img.get_width())))
        )
    surface.blit(img, img.get_rect(center=(int(cx), int(cy))))


def draw_crown(surface: pygame.Surface, centre: tuple[float, float], size: float) -> None:
    """A small gold crown: the leading bid."""
    cx, cy = centre
    s = max(6.0, size) / 2
    pts = [
        (cx - s, cy + s * 0.6),
        (cx - s, cy - s * 0.5),
        (cx - s * 0.5, cy),
        (cx, cy - s * 0.8),
        (cx + s * 0.5, cy),
        (cx + s, cy - s * 0.5),
        (cx + s, cy + s * 0.6),
    ]
    pygame.draw.polygon(surface, GOLD, pts)
    pygame.draw.polygon(surface, GOLD_DARK, pts, 1)


def draw_winter_tile(surface: pygame.Surface, centre: tuple[float, float], size: float) -> None:
    """A face-down winter tile (a pale hex)."""
    cx, cy = centre
    r = max(4.0, size / 2)
    pygame.draw.polygon(surface, TILE_RGB["winter"], hex_points(cx, cy, r))
    pygame.draw.polygon(surface, pal.shade(TILE_RGB["winter"], 0.5), hex_points(cx, cy, r), 1)


def draw_bag(surface: pygame.Surface, centre: tuple[float, float], size: float) -> None:
    """The cloth bag of keyples."""
    cx, cy = centre
    s = max(8.0, size) / 2
    pts = [
        (cx - s * 0.35, cy - s * 0.7),
        (cx + s * 0.35, cy - s * 0.7),
        (cx + s * 0.2, cy - s * 0.45),
        (cx + s * 0.85, cy + s * 0.2),
        (cx + s * 0.6, cy + s * 0.85),
        (cx - s * 0.6, cy + s * 0.85),
        (cx - s * 0.85, cy + s * 0.2),
        (cx - s * 0.2, cy - s * 0.45),
    ]
    pygame.draw.polygon(surface, (176, 140, 96), pts)
    pygame.draw.polygon(surface, INK, pts, 1)
    pygame.draw.line(
        surface, (110, 70, 40), (cx - s * 0.3, cy - s * 0.5), (cx + s * 0.3, cy - s * 0.5), 2
    )


# ---- icon rows (a tile's effect) -------------------------------------------------------------
#: An icon token: ("n", 3), ("k", colour|"any"|"rand"|"choice"), ("r", kind|"any"|"choice"),
#: ("s", kind|"any"|"rand"), ("wagon",), ("house",), ("arrow",), ("vp", n), ("eq",), ("plus",),
#: ("x",), ("store", rate).
Token = tuple[object, ...]


def _token_width(token: Token, h: float, render: FontRender) -> float:
    kind = token[0]
    if kind == "n":
        return render(str(token[1]), max(8, int(h * 0.9)), INK, True).get_width() + h * 0.05
    if kind in ("arrow", "plus", "x", "eq"):
        return h * 0.6
    if kind == "vp":
        return h * 1.05
    return h * 1.0


def token_row_width(tokens: Sequence[Token], h: float, render: FontRender) -> float:
    return sum(_token_width(tok, h, render) for tok in tokens) + h * 0.08 * max(0, len(tokens) - 1)


def draw_tokens(
    surface: pygame.Surface,
    tokens: Sequence[Token],
    centre: tuple[float, float],
    h: float,
    render: FontRender,
    colour_blind: bool = False,
    ink: pal.RGB = INK,
) -> None:
    """A row of effect icons ``h`` pixels tall centred on ``centre``."""
    total = token_row_width(tokens, h, render)
    x = centre[0] - total / 2
    cy = centre[1]
    gap = h * 0.08
    for tok in tokens:
        w = _token_width(tok, h, render)
        mid = (x + w / 2, cy)
        kind = tok[0]
        arg = str(tok[1]) if len(tok) > 1 else ""
        if kind == "n":
            img = render(arg, max(8, int(h * 0.9)), ink, True)
            surface.blit(img, img.get_rect(center=(int(mid[0]), int(cy))))
        elif kind == "k":
            if arg in KEYPLE_RGB:
                draw_keyple(surface, mid, h * 0.95, arg, colour_blind)
            else:
                draw_keyple(surface, mid, h * 0.95, "purple", False, INK)
                _wild_mark(surface, mid, h, arg, render)
        elif kind == "r":
            if arg in RESOURCE_RGB:
                draw_resource(surface, mid, h * 0.9, arg)
            else:
                _any_box(surface, mid, h, render, arg)
        elif kind == "s":
            if arg in SKILL_RGB:
                draw_skill(surface, mid, h * 0.9, arg)
            else:
                draw_skill(surface, mid, h * 0.9, "none")
                _wild_mark(surface, mid, h, arg, render)
        elif kind == "wagon":
            draw_wagon(surface, mid, h)
        elif kind == "house":
            draw_house(surface, mid, h)
        elif kind == "vp":
            draw_coin(surface, mid, h * 0.48, arg, render)
        elif kind == "arrow":
            pts = [
                (x + w * 0.1, cy - h * 0.12),
                (x + w * 0.55, cy - h * 0.12),
                (x + w * 0.55, cy - h * 0.28),
                (x + w * 0.95, cy),
                (x + w * 0.55, cy + h * 0.28),
                (x + w * 0.55, cy + h * 0.12),
                (x + w * 0.1, cy + h * 0.12),
            ]
            pygame.draw.polygon(surface, ink, pts)
        elif kind in ("plus", "x", "eq"):
            sym = {"plus": "+", "x": "×", "eq": "="}[kind]
            img = render(sym, max(8, int(h * 0.9)), ink, True)
            surface.blit(img, img.get_rect(center=(int(mid[0]), int(cy))))
        x += w + gap


def _wild_mark(
    surface: pygame.Surface, mid: tuple[float, float], h: float, arg: str, render: FontRender
) -> None:
    """ "?" (random), "*" (any) or a white diamond (your choice) over an icon."""
    sym = {"rand": "?", "any": "*", "choice": "!"}.get(arg, "")
    if not sym:
        return
    if arg == "choice":
        pygame.draw.circle(surface, PAPER, (mid[0] + h * 0.3, mid[1] - h * 0.3), h * 0.2)
        pygame.draw.circle(surface, INK, (mid[0] + h * 0.3, mid[1] - h * 0.3), h * 0.2, 1)
        return
    img = render(sym, max(8, int(h * 0.62)), (255, 255, 255), True)
    surface.blit(img, img.get_rect(center=(int(mid[0]), int(mid[1] + h * 0.12))))


def _any_box(
    surface: pygame.Surface, mid: tuple[float, float], h: float, render: FontRender, arg: str
) -> None:
    """A resource of any kind (or of your choice): four small tokens in a square."""
    s = h * 0.42
    for i, kind in enumerate(("wood", "stone", "iron", "gold")):
        dx = (-0.5 if i % 2 == 0 else 0.5) * s
        dy = (-0.5 if i < 2 else 0.5) * s
        draw_resource(surface, (mid[0] + dx, mid[1] + dy), s * 0.95, kind)
    if arg == "choice":
        _wild_mark(surface, mid, h, arg, render)


# ---- the tile sprite ---------------------------------------------------------------------------
def _band(
    surface: pygame.Surface,
    cx: float,
    cy: float,
    r: float,
    side: int,
    colour: pal.RGB,
    depth: float,
) -> None:
    """A strip along side ``side`` ``depth`` (0..1 of the apothem) deep."""
    corners = hex_points(cx, cy, r)
    a, b = corners[(side + 1) % 6], corners[(side + 2) % 6]
    k = 1 - depth
    ia = (cx + (a[0] - cx) * k, cy + (a[1] - cy) * k)
    ib = (cx + (b[0] - cx) * k, cy + (b[1] - cy) * k)
    pygame.draw.polygon(surface, colour, [a, b, ib, ia])


def draw_tile_base(
    surface: pygame.Surface,
    cx: float,
    cy: float,
    r: float,
    base: pal.RGB,
    edges: Sequence[str],
    colour_blind: bool,
) -> None:
    """The ground of a tile: its colour, a field band on every side, and roads and rivers
    running from their sides to the middle, so that matching sides are seen at a glance."""
    pygame.draw.polygon(surface, base, hex_points(cx, cy, r))
    for side, edge in enumerate(edges):
        if edge == "field":
            _band(surface, cx, cy, r, side, pal.shade(FIELD, 1.1), 0.16)
    hub = r * 0.34
    for side, edge in enumerate(edges):
        if edge not in ("road", "river"):
            continue
        mx, my = side_mid(cx, cy, r, side)
        a = math.radians(90 + 60 * side)
        ex, ey = cx + hub * math.cos(a), cy + hub * math.sin(a)
        width = max(3, int(r * (0.3 if edge == "river" else 0.26)))
        colour = RIVER if edge == "river" else ROAD
        pygame.draw.line(surface, pal.shade(colour, 0.6), (mx, my), (ex, ey), width + 2)
        pygame.draw.line(surface, colour, (mx, my), (ex, ey), width)
        if edge == "road":
            # a dashed centre line
            n = 3
            for i in range(n):
                t0, t1 = i / n + 0.06, i / n + 0.2
                pygame.draw.line(
                    surface,
                    ROAD_LINE,
                    (mx + (ex - mx) * t0, my + (ey - my) * t0),
                    (mx + (ex - mx) * t1, my + (ey - my) * t1),
                    max(1, width // 5),
                )
        else:
            # a white wave
            steps = 6
            pts = []
            for i in range(steps + 1):
                t = i / steps
                px = mx + (ex - mx) * t
                py = my + (ey - my) * t
                off = math.sin(t * math.pi * 2) * width * 0.22
                pts.append((px - math.sin(a) * off, py + math.cos(a) * off))
            pygame.draw.lines(surface, RIVER_LINE, False, pts, max(1, width // 5))
        # the side itself in the edge's colour: what must match the neighbour's side
        _band(surface, cx, cy, r, side, colour, 0.1)
    pygame.draw.polygon(surface, pal.shade(base, 0.5), hex_points(cx, cy, r - 0.5), 1)


@lru_cache(maxsize=1024)
def tile_sprite(
    key: tuple[object, ...],
    r: float,
    edges: tuple[str, ...],
    base: pal.RGB,
    label: str,
    tokens: tuple[Token, ...],
    vp: int,
    upgraded: bool,
    detail: int,
    colour_blind: bool,
    render: FontRender,
) -> pygame.Surface:
    """One tile as it lies on the table (``edges`` already rotated, side 0 at the bottom).

    ``detail`` 0: only the ground and a short label; 1: the name and the VP coin; 2: also the
    effect as icons.  ``key`` (tile, face, language, ...) only tells cached sprites apart.
    """
    w, h = sprite_size(r)
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    cx, cy = w / 2, h / 2
    draw_tile_base(surf, cx, cy, r, base, edges, colour_blind)
    if upgraded:
        # the upgraded side: a darker rim and a small star
        pygame.draw.polygon(
            surf, pal.shade(base, 0.45), hex_points(cx, cy, r - 1), max(2, int(r / 9))
        )
    plate_w = r * (1.36 if detail >= 2 else 1.3)
    plate_h = r * (0.86 if detail >= 2 else 0.52)
    plate = pygame.Rect(0, 0, int(plate_w), int(plate_h))
    plate.center = (int(cx), int(cy))
    pygame.draw.rect(surf, (*PAPER, 235), plate, border_radius=max(2, int(r / 8)))
    pygame.draw.rect(surf, pal.shade(base, 0.55), plate, 1, border_radius=max(2, int(r / 8)))
    size = max(8, int(r * (0.3 if detail >= 2 else 0.34)))
    img = render(label, size, INK, True)
    avail = plate.width - 4
    if avail < 4:  # too small for any text
        return surf
    if img.get_width() > avail:
        img = pygame.transform.smoothscale(
            img, (avail, max(1, int(img.get_height() * avail / img.get_width())))
        )
    if detail >= 2 and tokens:
        surf.blit(img, img.get_rect(midtop=(plate.centerx, plate.y + 1)))
        th = min(plate.height - img.get_height() - 3, r * 0.36)
        row_w = token_row_width(tokens, th, render)
        if row_w > plate.width - 4:
            th = th * (plate.width - 4) / row_w
        draw_tokens(
            surf, tokens, (plate.centerx, plate.bottom - th / 2 - 2), th, render, colour_blind
        )
    else:
        surf.blit(img, img.get_rect(center=plate.center))
    if detail >= 1 and vp:
        draw_coin(surf, (cx + r * 0.58, cy - r * 0.56), max(5.0, r * 0.2), vp, render)
    if upgraded and detail >= 1:
        sx, sy = cx - r * 0.58, cy - r * 0.56
        pal.draw_shape(surf, "star", (sx, sy), max(4.0, r * 0.17), GOLD, GOLD_DARK)
    return surf


@lru_cache(maxsize=64)
def highlight_sprite(
    r: float, colour: pal.RGB, strong: bool, fill_alpha: int = 50
) -> pygame.Surface:
    """A legal target: a light wash over the hex and a bright double outline just outside it
    (outside, so that it never looks like a tile's colour ring, which lies inside)."""
    w, h = sprite_size(r * 1.2)
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    cx, cy = w / 2, h / 2
    pygame.draw.polygon(surf, (255, 255, 255, fill_alpha), hex_points(cx, cy, r))
    width = max(3, round(r * (0.2 if strong else 0.12)))
    outer = r + width * 0.6
    pygame.draw.polygon(surf, (20, 20, 24, 220), hex_points(cx, cy, outer), width + 2)
    pygame.draw.polygon(surf, (*colour, 255), hex_points(cx, cy, outer), width)
    return surf


@lru_cache(maxsize=64)
def slot_sprite(r: float) -> pygame.Surface:
    """An empty hex where a tile may go (dashed look: a faint outline)."""
    w, h = sprite_size(r)
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.polygon(surf, (255, 255, 255, 22), hex_points(w / 2, h / 2, r))
    pygame.draw.polygon(surf, (255, 255, 255, 60), hex_points(w / 2, h / 2, r - 1), 1)
    return surf
