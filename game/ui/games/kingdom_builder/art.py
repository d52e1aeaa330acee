"""Kingdom Builder artwork drawn in code: terrain hexes with textures, castles, location and
nomad hexes, settlements, stone walls, location-tile chips and highlight overlays.

Every sprite is drawn once per hex size (and palette) and cached; the table then only blits.
Each terrain has a colour *and* a texture (grass tufts, canyon strata, desert dots, flowers,
trees, waves, peaks) so terrains stay apart without relying on colour.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from functools import cache

import pygame

from game.ui import palette as pal

#: Renders text: (text, size, colour, bold) -> a surface (the app's font cache).
FontRender = Callable[[str, int, pal.RGB, bool], pygame.Surface]

SQRT3 = math.sqrt(3.0)

#: Base colour of each terrain code (KB §1.3 legend: G C D F T W M K L N).
TERRAIN_COLOURS: dict[str, pal.RGB] = {
    "G": (150, 196, 92),
    "C": (190, 116, 72),
    "D": (232, 206, 128),
    "F": (198, 150, 206),
    "T": (58, 112, 62),
    "W": (70, 132, 196),
    "M": (132, 128, 124),
    "K": (176, 180, 190),
    "L": (226, 214, 180),
    "N": (206, 178, 132),
}

#: A colour per location type, for tile chips and the medallion on the location hex.
LOCATION_COLOURS: dict[str, pal.RGB] = {
    "Oracle": (128, 84, 168),
    "Farm": (160, 150, 40),
    "Oasis": (214, 128, 40),
    "Tower": (84, 104, 132),
    "Tavern": (150, 72, 52),
    "Barn": (176, 52, 52),
    "Harbor": (36, 88, 150),
    "Paddock": (120, 96, 60),
    "Quarry": (110, 110, 116),
    "Caravan": (186, 140, 52),
    "Village": (40, 130, 120),
    "Garden": (196, 80, 140),
}


#: A colour per nomad tile type (a Donation tile takes its terrain's colour).
NOMAD_COLOURS: dict[str, pal.RGB] = {
    "Donation": (150, 120, 70),
    "Treasure": (196, 150, 24),
    "Sword": (150, 46, 52),
    "Outpost": (70, 96, 150),
    "Resettlement": (96, 128, 64),
}


def chip_colour(tile_type: str, terrain: str | None = None) -> pal.RGB:
    """The colour of a tile chip: a location's, a nomad tile type's, a Donation's terrain."""
    if tile_type == "Donation" and terrain in TERRAIN_COLOURS:
        return pal.shade(TERRAIN_COLOURS[str(terrain)], 0.78)
    if tile_type in NOMAD_COLOURS:
        return NOMAD_COLOURS[tile_type]
    return LOCATION_COLOURS.get(tile_type, (120, 120, 120))


def hex_points(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """Corners of a pointy-top hex, clockwise from the top."""
    return [
        (cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
        for a in (-90, -30, 30, 90, 150, 210)
    ]


def sprite_size(r: float) -> tuple[int, int]:
    return math.ceil(SQRT3 * r) + 2, math.ceil(2 * r) + 2


def _hex_mask(r: float) -> pygame.Surface:
    w, h = sprite_size(r)
    mask = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.polygon(mask, (255, 255, 255, 255), hex_points(w / 2, h / 2, r))
    return mask


def _texture(code: str, r: float, variant: int) -> pygame.Surface:
    """The pattern of a terrain on a rectangle the size of a hex sprite (not yet masked)."""
    w, h = sprite_size(r)
    base = TERRAIN_COLOURS[code]
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    surf.fill((*base, 255))
    rng = random.Random(f"{code}{variant}")
    dark = pal.shade(base, 0.72)
    light = pal.shade(base, 1.18)
    s = max(1.0, r / 12)
    if code == "G":
        for _ in range(int(9 * (r / 12) ** 1.2) + 4):
            x, y = rng.uniform(0, w), rng.uniform(h * 0.1, h * 0.95)
            for dx in (-1.6, 0, 1.6):
                pygame.draw.line(surf, dark, (x, y), (x + dx * s, y - 3.2 * s), max(1, int(s)))
    elif code == "C":
        for i in range(1, 6):
            y0 = h * i / 6 + rng.uniform(-1.5, 1.5) * s
            pts = [(x, y0 + math.sin(x / (3.5 * s) + i) * 1.4 * s) for x in range(0, w + 4, 4)]
            pygame.draw.lines(surf, dark if i % 2 else light, False, pts, max(1, int(s * 1.2)))
    elif code == "D":
        for _ in range(int(18 * (r / 12) ** 1.5) + 6):
            x, y = rng.uniform(0, w), rng.uniform(0, h)
            pygame.draw.circle(surf, pal.shade(base, 0.8), (x, y), max(1.0, 0.7 * s))
        for i in range(2):
            y0 = h * (0.35 + 0.3 * i)
            pts = [(x, y0 + math.sin(x / (5 * s)) * 1.8 * s) for x in range(0, w + 4, 4)]
            pygame.draw.lines(surf, light, False, pts, max(1, int(s)))
    elif code == "F":
        for _ in range(int(7 * (r / 12) ** 1.3) + 3):
            x, y = rng.uniform(2, w - 2), rng.uniform(2, h - 2)
            colour = rng.choice(((250, 240, 250), (238, 200, 90), (150, 70, 160)))
            for k in range(5):
                a = math.radians(72 * k)
                pygame.draw.circle(
                    surf, colour, (x + math.cos(a) * 1.5 * s, y + math.sin(a) * 1.5 * s), 1.1 * s
                )
            pygame.draw.circle(surf, (250, 210, 60), (x, y), 0.9 * s)
    elif code == "T":
        for _ in range(int(5 * (r / 12) ** 1.3) + 3):
            x, y = rng.uniform(0, w), rng.uniform(h * 0.2, h)
            t = 3.6 * s
            pygame.draw.polygon(
                surf, pal.shade(base, 0.6), [(x, y - 2 * t), (x - t, y), (x + t, y)]
            )
            pygame.draw.polygon(
                surf, pal.shade(base, 1.25), [(x, y - 2 * t), (x - t * 0.25, y - t), (x, y - t)]
            )
            pygame.draw.line(surf, (70, 50, 30), (x, y), (x, y + t * 0.5), max(1, int(s)))
    elif code == "W":
        for i in range(1, 5):
            y0 = h * i / 5
            x0 = rng.uniform(-4, 4) * s
            for k in range(4):
                cx = x0 + k * 7 * s
                rect = pygame.Rect(int(cx), int(y0 - 2 * s), int(7 * s), int(4 * s))
                pygame.draw.arc(surf, light, rect, 0.2, math.pi - 0.2, max(1, int(s)))
    elif code == "M":
        for i in range(2):
            x = w * (0.33 + 0.34 * i) + rng.uniform(-2, 2) * s
            y = h * (0.72 - 0.08 * i)
            t = r * (0.48 - 0.08 * i)
            pygame.draw.polygon(
                surf, pal.shade(base, 0.68), [(x - t, y), (x, y - 1.4 * t), (x + t, y)]
            )
            pygame.draw.polygon(
                surf,
                (236, 236, 240),
                [(x - t * 0.3, y - 1.0 * t), (x, y - 1.4 * t), (x + t * 0.3, y - 1.0 * t)],
            )
    surf.blit(_hex_mask(r), (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
    return surf


@cache
def terrain_sprite(code: str, r: float, variant: int = 0) -> pygame.Surface:
    """A terrain hex of radius ``r`` with its texture and a dark outline."""
    surf = _texture(code if code in "GCDFTWM" else "G", r, variant) if code in "GCDFTWM" else None
    w, h = sprite_size(r)
    if surf is None:
        surf = pygame.Surface((w, h), pygame.SRCALPHA)
        pygame.draw.polygon(surf, TERRAIN_COLOURS[code], hex_points(w / 2, h / 2, r))
    pts = hex_points(w / 2, h / 2, r - 0.5)
    pygame.draw.aalines(
        surf, pal.shade(TERRAIN_COLOURS.get(code, (128, 128, 128)), 0.55), True, pts
    )
    return surf


def draw_castle(surface: pygame.Surface, cx: float, cy: float, r: float) -> None:
    """A little castle: two towers and a gate."""
    stone, dark = (214, 214, 222), (70, 74, 90)
    u = r * 0.14
    body = pygame.Rect(0, 0, int(7 * u), int(4.2 * u))
    body.midbottom = (int(cx), int(cy + 3.2 * u))
    pygame.draw.rect(surface, stone, body)
    for k in range(3):
        pygame.draw.rect(surface, stone, (body.x + k * 2.6 * u, body.y - 1.2 * u, 1.8 * u, 1.3 * u))
    for side in (-1, 1):
        tower = pygame.Rect(0, 0, int(2.4 * u), int(6.4 * u))
        tower.midbottom = (int(cx + side * 3.6 * u), body.bottom)
        pygame.draw.rect(surface, stone, tower)
        pygame.draw.polygon(
            surface,
            (176, 52, 52),
            [
                (tower.x - 0.3 * u, tower.y),
                (tower.centerx, tower.y - 2.2 * u),
                (tower.right + 0.3 * u, tower.y),
            ],
        )
        pygame.draw.rect(surface, dark, tower, max(1, int(u * 0.35)))
    gate = pygame.Rect(0, 0, int(1.8 * u), int(2.4 * u))
    gate.midbottom = body.midbottom
    pygame.draw.rect(
        surface, dark, gate, border_top_left_radius=int(u), border_top_right_radius=int(u)
    )
    pygame.draw.rect(surface, dark, body, max(1, int(u * 0.35)))


def draw_tent(surface: pygame.Surface, cx: float, cy: float, r: float) -> None:
    """The nomad hex: a tent."""
    u = r * 0.5
    pygame.draw.polygon(
        surface,
        (150, 96, 52),
        [(cx - u, cy + 0.55 * u), (cx, cy - 0.75 * u), (cx + u, cy + 0.55 * u)],
    )
    pygame.draw.polygon(
        surface,
        (60, 40, 24),
        [(cx - 0.22 * u, cy + 0.55 * u), (cx, cy - 0.1 * u), (cx + 0.22 * u, cy + 0.55 * u)],
    )


@cache
def special_sprite(code: str, r: float) -> pygame.Surface:
    """Castle (K), location (L, without its medallion) and nomad (N) hexes."""
    w, h = sprite_size(r)
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    base = TERRAIN_COLOURS[code]
    pygame.draw.polygon(surf, base, hex_points(w / 2, h / 2, r))
    pygame.draw.polygon(surf, pal.shade(base, 1.12), hex_points(w / 2, h / 2, r * 0.8))
    if code == "K":
        draw_castle(surf, w / 2, h / 2, r)
    elif code == "N":
        draw_tent(surf, w / 2, h / 2, r)
    pygame.draw.aalines(surf, pal.shade(base, 0.5), True, hex_points(w / 2, h / 2, r - 0.5))
    return surf


@cache
def house_sprite(colour: pal.RGB, shape: str, r: float, emblem: bool) -> pygame.Surface:
    """A settlement: a little house in the seat colour (with the seat's shape when ``emblem``)."""
    size = int(r * 1.25) + 4
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    c = size / 2
    u = r * 0.1
    outline = pal.shade(colour, 0.4) if sum(colour) > 200 else (200, 200, 210)
    body = [
        (c - 4 * u, c - 0.5 * u),
        (c + 4 * u, c - 0.5 * u),
        (c + 4 * u, c + 4.2 * u),
        (c - 4 * u, c + 4.2 * u),
    ]
    roof = [(c - 5 * u, c - 0.3 * u), (c, c - 4.8 * u), (c + 5 * u, c - 0.3 * u)]
    # A soft shadow first.
    shadow = [(x + u * 0.8, y + u * 0.8) for x, y in body]
    pygame.draw.polygon(surf, (0, 0, 0, 90), shadow)
    pygame.draw.polygon(surf, colour, body)
    pygame.draw.polygon(surf, pal.shade(colour, 0.82), roof)
    width = max(1, round(u * 0.6))
    pygame.draw.polygon(surf, outline, body, width)
    pygame.draw.polygon(surf, outline, roof, width)
    if emblem:
        pal.draw_shape(surf, shape, (c, c + 1.9 * u), 1.9 * u, pal.contrast(colour))
    return surf


@cache
def wall_sprite(r: float) -> pygame.Surface:
    """A stone wall across a hex (Quarry)."""
    w, h = sprite_size(r)
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    u = r * 0.16
    rows = 3
    top = h / 2 - rows * u
    for i in range(rows):
        off = u if i % 2 else 0
        x = w / 2 - 4 * u + off
        while x < w / 2 + 3.5 * u:
            rect = pygame.Rect(int(x), int(top + i * 2 * u), int(1.9 * u), int(1.8 * u))
            pygame.draw.rect(surf, (150, 150, 158), rect, border_radius=max(1, int(u * 0.4)))
            pygame.draw.rect(surf, (60, 60, 70), rect, 1, border_radius=max(1, int(u * 0.4)))
            x += 2 * u
    return surf


@cache
def highlight_sprite(
    r: float, colour: pal.RGB, strong: bool, fill_alpha: int = 70
) -> pygame.Surface:
    """A translucent hex with a bright outline: a legal target."""
    w, h = sprite_size(r)
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.polygon(surf, (*colour, fill_alpha), hex_points(w / 2, h / 2, r))
    width = max(2, round(r * (0.22 if strong else 0.13)))
    pygame.draw.polygon(surf, (*colour, 255), hex_points(w / 2, h / 2, r - width / 2), width)
    return surf


@cache
def ring_sprite(r: float, colour: pal.RGB) -> pygame.Surface:
    """A thin hex ring (what changed since your last turn)."""
    w, h = sprite_size(r)
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.polygon(
        surf, (*colour, 230), hex_points(w / 2, h / 2, r * 0.86), max(2, round(r * 0.09))
    )
    return surf


def tile_chip(
    surface: pygame.Surface,
    rect: pygame.Rect,
    tile_type: str,
    label: str,
    font_render: FontRender,
    state: str = "ready",
    terrain: str | None = None,
) -> None:
    """A location or nomad tile: a chip in the tile's colour with a short label — rounded for a
    location tile, with cut corners for a nomad tile (and a Donation's terrain colour).

    ``state``: ready (bright), used (dim, struck through), pending (dim, dashed outline).
    """
    base = chip_colour(tile_type, terrain)
    fill = base if state == "ready" else pal.shade(base, 0.5)
    if tile_type in NOMAD_COLOURS:
        cut = max(2, rect.height // 4)
        pts = [
            (rect.x + cut, rect.y),
            (rect.right - 1 - cut, rect.y),
            (rect.right - 1, rect.centery),
            (rect.right - 1 - cut, rect.bottom - 1),
            (rect.x + cut, rect.bottom - 1),
            (rect.x, rect.centery),
        ]
        pygame.draw.polygon(surface, fill, pts)
        border = pal.shade(base, 1.45) if state == "ready" else pal.shade(base, 0.8)
        pygame.draw.polygon(surface, border, pts, max(1, rect.height // 14))
        _chip_label(surface, rect, label, font_render, state)
        return
    radius = max(3, rect.height // 4)
    pygame.draw.rect(surface, fill, rect, border_radius=radius)
    border = pal.shade(base, 1.45) if state == "ready" else pal.shade(base, 0.8)
    pygame.draw.rect(surface, border, rect, max(1, rect.height // 14), border_radius=radius)
    _chip_label(surface, rect, label, font_render, state)


def _chip_label(
    surface: pygame.Surface, rect: pygame.Rect, label: str, font_render: FontRender, state: str
) -> None:
    """A tile chip's short label and its state marks (used: struck through; pending: a dot)."""
    size = max(8, int(rect.height * 0.55))
    text_colour = (250, 248, 240) if state == "ready" else (190, 186, 180)
    img = font_render(label, size, text_colour, True)
    if img.get_width() > rect.width - 4:
        img = pygame.transform.smoothscale(
            img,
            (rect.width - 4, max(1, int(img.get_height() * (rect.width - 4) / img.get_width()))),
        )
    surface.blit(img, img.get_rect(center=rect.center))
    if state == "used":
        pygame.draw.line(
            surface, (230, 230, 230), rect.bottomleft, rect.topright, max(1, rect.height // 12)
        )
    elif state == "pending":
        pygame.draw.circle(
            surface, pal.ACCENT, (rect.right - 3, rect.y + 3), max(2, rect.height // 7)
        )


def nomad_medallion(
    r: float, tile_type: str, terrain: str | None, label: pygame.Surface
) -> pygame.Surface:
    """A nomad tile lying face up on its nomad hex: a hexagonal tile in its colour (a Donation in
    its terrain's) with its short name, the tent still peeking out below."""
    w, h = sprite_size(r)
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    colour = chip_colour(tile_type, terrain)
    cx, cy = w / 2, h / 2 - r * 0.12
    pygame.draw.polygon(surf, (20, 18, 14), hex_points(cx + 1, cy + 1.5, r * 0.66))
    pygame.draw.polygon(surf, colour, hex_points(cx, cy, r * 0.66))
    pygame.draw.polygon(
        surf, pal.shade(colour, 1.5), hex_points(cx, cy, r * 0.66), max(1, int(r / 10))
    )
    if label.get_width() > r * 1.05:
        scale = r * 1.05 / label.get_width()
        label = pygame.transform.smoothscale(
            label, (max(1, int(label.get_width() * scale)), max(1, int(label.get_height() * scale)))
        )
    surf.blit(label, label.get_rect(center=(cx, cy)))
    return surf


def card_art(
    surface: pygame.Surface,
    rect: pygame.Rect,
    code: str | None,
    label: str,
    font_render: FontRender,
) -> None:
    """A terrain card: the terrain's texture with its name on a band (``code`` None: face down)."""
    radius = max(4, rect.width // 10)
    if code is None:
        pygame.draw.rect(surface, (60, 70, 110), rect, border_radius=radius)
        pygame.draw.rect(surface, (160, 170, 210), rect, 2, border_radius=radius)
        inner = rect.inflate(-rect.width // 3, -rect.height // 3)
        pygame.draw.rect(surface, (90, 100, 150), inner, border_radius=radius)
        return
    r = max(rect.width, rect.height) * 0.62
    tex = _texture(code, r, 1)
    tw, th = tex.get_size()
    card = pygame.Surface(rect.size, pygame.SRCALPHA)
    card.fill((*TERRAIN_COLOURS[code], 255))
    # Fill the card with the unmasked pattern: tile the hex texture's middle.
    inner = pygame.Rect(int(tw * 0.22), int(th * 0.25), int(tw * 0.56), int(th * 0.5))
    patch = tex.subsurface(inner)
    for x in range(0, rect.width, patch.get_width()):
        for y in range(0, rect.height, patch.get_height()):
            card.blit(patch, (x, y))
    mask = pygame.Surface(rect.size, pygame.SRCALPHA)
    pygame.draw.rect(mask, (255, 255, 255, 255), mask.get_rect(), border_radius=radius)
    card.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
    surface.blit(card, rect)
    pygame.draw.rect(surface, (250, 246, 230), rect, max(2, rect.width // 22), border_radius=radius)
    band = pygame.Rect(rect.x + 3, rect.bottom - rect.height // 3, rect.width - 6, rect.height // 4)
    pygame.draw.rect(surface, (250, 246, 230), band, border_radius=max(2, radius // 2))
    size = max(9, int(band.height * 0.62))
    img = font_render(label, size, (30, 30, 30), True)
    if img.get_width() > band.width - 4:
        img = pygame.transform.smoothscale(
            img,
            (band.width - 4, max(1, int(img.get_height() * (band.width - 4) / img.get_width()))),
        )
    surface.blit(img, img.get_rect(center=band.center))
