"""Glen More artwork drawn in code: tile faces (frame in the tile's colour group, river and road,
an emblem per kind of tile, the special-location card and its bonnets), resource cubes (each
resource its own colour *and* silhouette), clan members, chieftains, whisky barrels, coins,
bonnets, the players' figures (seat colour and seat shape) and the die figure.

Every sprite is drawn once per size (and palette) and cached; the table then only blits.
"""

from __future__ import annotations

import math
from functools import cache, lru_cache

import pygame

from game.ui import palette as pal
from game.ui.games.glen_more.common import (
    CATEGORY_COLOURS,
    COIN,
    RESOURCE_COLOURS,
    RESOURCE_COLOURS_CB,
    RIVER,
    ROAD,
    WHISKY,
    slug,
    tile_of,
)

Point = tuple[float, float]
INK = (28, 26, 30)


# ---- emblems of the tiles ---------------------------------------------------------------------
def _tree(s: pygame.Surface, x: float, y: float, r: float) -> None:
    pygame.draw.rect(s, (90, 60, 34), (x - r * 0.12, y + r * 0.35, r * 0.24, r * 0.5))
    pygame.draw.polygon(
        s, (34, 104, 52), [(x, y - r), (x - r * 0.65, y + r * 0.45), (x + r * 0.65, y + r * 0.45)]
    )
    pygame.draw.polygon(
        s, (60, 140, 70), [(x, y - r), (x - r * 0.2, y - r * 0.2), (x + r * 0.1, y - r * 0.3)]
    )


def _forest(s: pygame.Surface, cx: float, cy: float, r: float) -> None:
    _tree(s, cx - r * 0.45, cy + r * 0.1, r * 0.55)
    _tree(s, cx + r * 0.45, cy + r * 0.15, r * 0.5)
    _tree(s, cx, cy - r * 0.15, r * 0.7)


def _quarry(s: pygame.Surface, cx: float, cy: float, r: float) -> None:
    for dx, dy, k, shade in ((-0.4, 0.25, 0.5, 0.8), (0.35, 0.3, 0.45, 0.9), (0, -0.15, 0.6, 1.0)):
        x, y, rr = cx + dx * r, cy + dy * r, k * r
        pts = [
            (x - rr, y + rr * 0.5),
            (x - rr * 0.6, y - rr * 0.6),
            (x + rr * 0.3, y - rr * 0.8),
            (x + rr, y - rr * 0.1),
            (x + rr * 0.7, y + rr * 0.6),
        ]
        pygame.draw.polygon(s, pal.shade((150, 150, 158), shade), pts)
        pygame.draw.polygon(s, (70, 70, 78), pts, max(1, int(r / 12)))


def _grain(s: pygame.Surface, cx: float, cy: float, r: float) -> None:
    w = max(1, int(r / 10))
    for dx in (-0.45, -0.15, 0.15, 0.45):
        x = cx + dx * r
        pygame.draw.line(s, (170, 130, 40), (x, cy + r * 0.8), (x, cy - r * 0.5), w)
        for k in range(4):
            y = cy - r * 0.55 + k * r * 0.22
            pygame.draw.ellipse(s, (236, 196, 64), (x - r * 0.16, y - r * 0.08, r * 0.16, r * 0.2))
            pygame.draw.ellipse(s, (236, 196, 64), (x, y - r * 0.08, r * 0.16, r * 0.2))


def _sheep(s: pygame.Surface, cx: float, cy: float, r: float) -> None:
    for dx, dy in ((-0.3, 0), (0, -0.15), (0.3, 0), (-0.15, 0.18), (0.15, 0.18)):
        pygame.draw.circle(s, (248, 248, 242), (cx + dx * r, cy + dy * r), r * 0.3)
    pygame.draw.circle(s, INK, (cx + r * 0.62, cy - r * 0.08), r * 0.2)
    for dx in (-0.3, 0.25):
        pygame.draw.line(
            s, INK, (cx + dx * r, cy + r * 0.4), (cx + dx * r, cy + r * 0.7), max(1, int(r / 9))
        )


def _cow(s: pygame.Surface, cx: float, cy: float, r: float) -> None:
    body = pygame.Rect(0, 0, r * 1.2, r * 0.7)
    body.center = (int(cx - r * 0.1), int(cy + r * 0.05))
    pygame.draw.ellipse(s, (140, 86, 46), body)
    pygame.draw.circle(s, (110, 66, 36), (cx + r * 0.55, cy - r * 0.2), r * 0.26)
    pygame.draw.line(
        s,
        (236, 230, 210),
        (cx + r * 0.4, cy - r * 0.45),
        (cx + r * 0.3, cy - r * 0.62),
        max(1, int(r / 10)),
    )
    pygame.draw.line(
        s,
        (236, 230, 210),
        (cx + r * 0.7, cy - r * 0.45),
        (cx + r * 0.82, cy - r * 0.62),
        max(1, int(r / 10)),
    )
    for dx in (-0.5, -0.25, 0.15, 0.35):
        pygame.draw.line(
            s,
            (90, 56, 30),
            (cx + dx * r, cy + r * 0.3),
            (cx + dx * r, cy + r * 0.65),
            max(1, int(r / 9)),
        )


def _house(
    s: pygame.Surface, x: float, y: float, r: float, wall: pal.RGB = (236, 228, 210)
) -> None:
    body = pygame.Rect(0, 0, r * 1.1, r * 0.8)
    body.midtop = (int(x), int(y - r * 0.05))
    pygame.draw.rect(s, wall, body)
    pygame.draw.polygon(s, (150, 60, 48), [(x - r * 0.7, y), (x, y - r * 0.65), (x + r * 0.7, y)])
    pygame.draw.rect(s, (70, 50, 36), (x - r * 0.14, body.bottom - r * 0.4, r * 0.28, r * 0.4))
    pygame.draw.rect(s, INK, body, max(1, int(r / 10)))


def _village(s: pygame.Surface, cx: float, cy: float, r: float) -> None:
    _house(s, cx - r * 0.42, cy + r * 0.1, r * 0.55)
    _house(s, cx + r * 0.38, cy + r * 0.2, r * 0.5)
    _house(s, cx, cy - r * 0.2, r * 0.6)


def _castle(s: pygame.Surface, cx: float, cy: float, r: float) -> None:
    stone, dark = (206, 204, 210), (64, 66, 80)
    u = r * 0.2
    body = pygame.Rect(0, 0, int(6 * u), int(3.6 * u))
    body.midbottom = (int(cx), int(cy + 3 * u))
    pygame.draw.rect(s, stone, body)
    for k in range(3):
        pygame.draw.rect(s, stone, (body.x + k * 2.2 * u, body.y - 1.0 * u, 1.6 * u, 1.1 * u))
    for side in (-1, 1):
        tower = pygame.Rect(0, 0, int(2.0 * u), int(5.6 * u))
        tower.midbottom = (int(cx + side * 3.1 * u), body.bottom)
        pygame.draw.rect(s, stone, tower)
        pygame.draw.polygon(
            s,
            (60, 90, 150),
            [
                (tower.x - 0.3 * u, tower.y),
                (tower.centerx, tower.y - 1.9 * u),
                (tower.right + 0.3 * u, tower.y),
            ],
        )
        pygame.draw.rect(s, dark, tower, max(1, int(u * 0.3)))
    gate = pygame.Rect(0, 0, int(1.6 * u), int(2.2 * u))
    gate.midbottom = body.midbottom
    pygame.draw.rect(s, dark, gate, border_top_left_radius=int(u), border_top_right_radius=int(u))
    pygame.draw.rect(s, dark, body, max(1, int(u * 0.3)))


def _loch(s: pygame.Surface, cx: float, cy: float, r: float, ness: bool = False) -> None:
    pygame.draw.ellipse(s, (44, 96, 170), (cx - r, cy - r * 0.6, 2 * r, 1.2 * r))
    w = max(1, int(r / 10))
    for k in range(3):
        y = cy - r * 0.25 + k * r * 0.25
        for j in range(3):
            x = cx - r * 0.65 + j * r * 0.45
            pygame.draw.arc(
                s, (170, 210, 250), (x, y - r * 0.1, r * 0.4, r * 0.22), 0.3, math.pi - 0.3, w
            )
    if ness:
        for k, h in enumerate((0.3, 0.22, 0.16)):
            x = cx - r * 0.2 + k * r * 0.32
            pygame.draw.circle(
                s, (40, 110, 70), (x, cy + r * 0.05), r * h, draw_top_left=True, draw_top_right=True
            )
        pygame.draw.circle(s, (40, 110, 70), (cx - r * 0.45, cy - r * 0.25), r * 0.13)


def _barrel(s: pygame.Surface, cx: float, cy: float, r: float) -> None:
    body = pygame.Rect(0, 0, r * 1.3, r * 1.6)
    body.center = (int(cx), int(cy))
    pygame.draw.ellipse(s, WHISKY, body)
    w = max(1, int(r / 7))
    for dy in (-0.45, 0.45):
        pygame.draw.line(
            s,
            (60, 40, 24),
            (body.x + r * 0.12, cy + dy * r),
            (body.right - r * 0.12, cy + dy * r),
            w,
        )
    pygame.draw.ellipse(s, (60, 40, 24), body, w)


def _distillery(s: pygame.Surface, cx: float, cy: float, r: float) -> None:
    pygame.draw.circle(s, (196, 120, 60), (cx - r * 0.2, cy + r * 0.15), r * 0.5)
    pygame.draw.rect(s, (196, 120, 60), (cx - r * 0.3, cy - r * 0.6, r * 0.2, r * 0.4))
    pygame.draw.line(
        s,
        (150, 90, 44),
        (cx - r * 0.2, cy - r * 0.6),
        (cx + r * 0.55, cy - r * 0.25),
        max(1, int(r / 8)),
    )
    pygame.draw.circle(
        s, (120, 70, 34), (cx - r * 0.2, cy + r * 0.15), r * 0.5, max(1, int(r / 10))
    )
    _barrel(s, cx + r * 0.55, cy + r * 0.35, r * 0.4)


def _butcher(s: pygame.Surface, cx: float, cy: float, r: float) -> None:
    blade = [
        (cx - r * 0.6, cy - r * 0.5),
        (cx + r * 0.35, cy - r * 0.5),
        (cx + r * 0.35, cy + r * 0.2),
        (cx - r * 0.6, cy + r * 0.2),
    ]
    pygame.draw.polygon(s, (206, 210, 216), blade)
    pygame.draw.polygon(s, INK, blade, max(1, int(r / 10)))
    pygame.draw.circle(s, INK, (cx - r * 0.35, cy - r * 0.28), r * 0.08)
    pygame.draw.rect(s, (110, 70, 40), (cx + r * 0.35, cy - r * 0.3, r * 0.55, r * 0.22))


def _fair(s: pygame.Surface, cx: float, cy: float, r: float) -> None:
    top = (cx, cy - r * 0.8)
    base = [(cx - r * 0.8 + k * r * 0.4, cy + r * 0.5) for k in range(5)]
    for k in range(4):
        colour = (200, 50, 50) if k % 2 == 0 else (246, 240, 226)
        pygame.draw.polygon(s, colour, [top, base[k], base[k + 1]])
    pygame.draw.polygon(s, INK, [top, base[0], base[-1]], max(1, int(r / 10)))
    pygame.draw.line(s, INK, top, (cx, cy - r * 1.0), max(1, int(r / 10)))
    pygame.draw.polygon(
        s, (60, 110, 200), [(cx, cy - r), (cx + r * 0.3, cy - r * 0.92), (cx, cy - r * 0.84)]
    )


def _grocer(s: pygame.Surface, cx: float, cy: float, r: float) -> None:
    box = pygame.Rect(0, 0, r * 1.4, r * 0.9)
    box.center = (int(cx), int(cy + r * 0.25))
    pygame.draw.rect(s, (170, 120, 70), box)
    pygame.draw.rect(s, INK, box, max(1, int(r / 10)))
    for k, res in enumerate(("grain", "cattle", "sheep")):
        draw_resource(s, res, (cx - r * 0.45 + k * r * 0.45, cy - r * 0.3), r * 0.24, False)


def _tavern(s: pygame.Surface, cx: float, cy: float, r: float) -> None:
    mug = pygame.Rect(0, 0, r * 0.9, r * 1.1)
    mug.center = (int(cx - r * 0.1), int(cy + r * 0.1))
    pygame.draw.rect(s, (210, 150, 50), mug, border_radius=int(r / 6))
    pygame.draw.ellipse(
        s, (250, 248, 236), (mug.x - r * 0.05, mug.y - r * 0.25, mug.width + r * 0.1, r * 0.45)
    )
    pygame.draw.arc(
        s,
        (120, 80, 30),
        (mug.right - r * 0.2, mug.y + r * 0.2, r * 0.5, r * 0.55),
        -math.pi / 2,
        math.pi / 2,
        max(1, int(r / 7)),
    )
    pygame.draw.rect(s, (120, 80, 30), mug, max(1, int(r / 10)), border_radius=int(r / 6))


def _bridge(s: pygame.Surface, cx: float, cy: float, r: float) -> None:
    rect = pygame.Rect(0, 0, r * 1.8, r * 1.2)
    rect.center = (int(cx), int(cy + r * 0.3))
    pygame.draw.rect(s, (150, 140, 130), (rect.x, rect.y, rect.width, r * 0.35))
    pygame.draw.arc(s, (120, 110, 100), rect, 0, math.pi, max(2, int(r / 5)))


def _abbey(s: pygame.Surface, cx: float, cy: float, r: float) -> None:
    body = pygame.Rect(0, 0, r * 1.2, r * 0.8)
    body.midbottom = (int(cx), int(cy + r * 0.6))
    pygame.draw.rect(s, (226, 218, 200), body)
    tower = pygame.Rect(0, 0, r * 0.45, r * 1.2)
    tower.midbottom = (int(cx - r * 0.25), body.bottom)
    pygame.draw.rect(s, (226, 218, 200), tower)
    pygame.draw.rect(s, INK, body, max(1, int(r / 10)))
    pygame.draw.rect(s, INK, tower, max(1, int(r / 10)))
    w = max(1, int(r / 8))
    x, y = tower.centerx, tower.y
    pygame.draw.line(s, INK, (x, y), (x, y - r * 0.4), w)
    pygame.draw.line(s, INK, (x - r * 0.14, y - r * 0.26), (x + r * 0.14, y - r * 0.26), w)


def _emblem(s: pygame.Surface, name: str, cx: float, cy: float, r: float) -> None:
    key = slug(name)
    if key == "forest":
        _forest(s, cx, cy, r)
    elif key == "quarry":
        _quarry(s, cx, cy, r)
    elif key == "grain_field":
        _grain(s, cx, cy, r)
    elif key == "pasture_sheep":
        _sheep(s, cx, cy, r)
    elif key == "cattle_pasture":
        _cow(s, cx, cy, r)
    elif key in ("village", "start_village"):
        _village(s, cx, cy, r)
    elif key.endswith("castle") or key.startswith("castle"):
        _castle(s, cx, cy, r)
    elif key.startswith("loch"):
        _loch(s, cx, cy, r, ness=key == "loch_ness")
    elif key == "distillery":
        _distillery(s, cx, cy, r)
    elif key == "butcher":
        _butcher(s, cx, cy, r)
    elif key == "fair":
        _fair(s, cx, cy, r)
    elif key == "grocer":
        _grocer(s, cx, cy, r)
    elif key == "tavern":
        _tavern(s, cx, cy, r)
    elif key == "bridge":
        _bridge(s, cx, cy, r)
    elif key == "iona_abbey":
        _abbey(s, cx, cy, r)


# ---- tiles ------------------------------------------------------------------------------------
@lru_cache(maxsize=1024)
def tile_face(tile_id: str, size: int) -> pygame.Surface:
    """A tile of ``size`` pixels: its colour group's frame, river (north–south) and road
    (east–west) where its edges have them, its emblem, and for a special location a card in
    the corner with its bonnets."""
    size = max(8, int(size))
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    entry = tile_of(tile_id)
    if entry is None:
        pygame.draw.rect(surf, (90, 90, 96), surf.get_rect(), border_radius=max(2, size // 10))
        return surf
    frame = CATEGORY_COLOURS.get(entry["category"], (140, 140, 140))
    radius = max(2, size // 9)
    pygame.draw.rect(surf, pal.shade(frame, 1.55), surf.get_rect(), border_radius=radius)
    edges = entry.get("edges", {})
    band = max(3, int(size * 0.17))
    if edges.get("N") == "river" or edges.get("S") == "river":
        x = size // 2 - band // 2
        pygame.draw.rect(surf, RIVER, (x, 0, band, size))
        for y in range(band // 2, size, max(4, band)):
            pygame.draw.line(
                surf,
                pal.shade(RIVER, 1.4),
                (x + band * 0.3, y),
                (x + band * 0.7, y + band * 0.3),
                1,
            )
    if edges.get("E") == "road" or edges.get("W") == "road":
        road = max(3, int(size * 0.13))
        y = size // 2 - road // 2
        pygame.draw.rect(surf, ROAD, (0, y, size, road))
        for x in range(0, size, max(6, road * 2)):
            pygame.draw.line(
                surf, pal.shade(ROAD, 0.7), (x, size // 2), (x + road * 0.8, size // 2), 1
            )
    r = size * 0.27
    cx, cy = size / 2, size * 0.47
    backdrop = pygame.Surface((size, size), pygame.SRCALPHA)
    pygame.draw.circle(backdrop, (*pal.shade(frame, 1.7), 215), (cx, cy), r * 1.25)
    surf.blit(backdrop, (0, 0))
    _emblem(surf, entry["name"], cx, cy, r)
    if entry.get("special"):
        card = pygame.Rect(0, 0, max(5, int(size * 0.16)), max(7, int(size * 0.22)))
        card.topright = (size - max(2, size // 14), max(2, size // 14))
        pygame.draw.rect(surf, (250, 246, 230), card, border_radius=max(1, size // 40))
        pygame.draw.rect(surf, INK, card, 1, border_radius=max(1, size // 40))
        _star(surf, card.centerx, card.centery, card.width * 0.32, (200, 150, 40))
        for k in range(int(entry.get("bonnets", 0))):
            draw_bonnet(
                surf, (card.centerx, card.bottom + size * 0.07 + k * size * 0.09), size * 0.06
            )
    width = max(2, size // 13)
    pygame.draw.rect(surf, frame, surf.get_rect(), width, border_radius=radius)
    pygame.draw.rect(surf, pal.shade(frame, 0.45), surf.get_rect(), 1, border_radius=radius)
    return surf


def _star(s: pygame.Surface, cx: float, cy: float, r: float, colour: pal.RGB) -> None:
    pts = []
    for i in range(10):
        rad = r if i % 2 == 0 else r * 0.45
        a = math.radians(-90 + 36 * i)
        pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    pygame.draw.polygon(s, colour, pts)


@cache
def tile_back(size: int, stack: int) -> pygame.Surface:
    """The back of a tile of stack ``stack`` (0–3): a dark tile with the stack number."""
    size = max(8, int(size))
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    colour = ((96, 120, 84), (84, 110, 140), (140, 110, 80), (120, 90, 130))[stack % 4]
    pygame.draw.rect(surf, colour, surf.get_rect(), border_radius=max(2, size // 9))
    pygame.draw.rect(
        surf,
        pal.shade(colour, 0.5),
        surf.get_rect(),
        max(1, size // 16),
        border_radius=max(2, size // 9),
    )
    for k in range(stack + 1):
        pygame.draw.circle(
            surf,
            (240, 236, 220),
            (size / 2 + (k - stack / 2) * size * 0.16, size / 2),
            max(2, size * 0.05),
        )
    return surf


# ---- cubes, pieces, goods --------------------------------------------------------------------
def resource_points(res: str, cx: float, cy: float, r: float) -> list[Point] | None:
    """The silhouette of a cube of ``res`` (None: drawn as circles, the sheep's cloud)."""
    if res == "wood":  # a square log end
        k = r * 0.86
        return [(cx - k, cy - k), (cx + k, cy - k), (cx + k, cy + k), (cx - k, cy + k)]
    if res == "stone":  # a hexagon
        return [
            (cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
            for a in range(0, 360, 60)
        ]
    if res == "grain":  # a tall sheaf (a drop)
        return [
            (cx, cy - r),
            (cx + r * 0.62, cy),
            (cx + r * 0.45, cy + r * 0.8),
            (cx - r * 0.45, cy + r * 0.8),
            (cx - r * 0.62, cy),
        ]
    if res == "cattle":  # a head with horns
        return [
            (cx - r, cy - r * 0.9),
            (cx - r * 0.5, cy - r * 0.45),
            (cx + r * 0.5, cy - r * 0.45),
            (cx + r, cy - r * 0.9),
            (cx + r * 0.7, cy + r * 0.25),
            (cx + r * 0.35, cy + r * 0.85),
            (cx - r * 0.35, cy + r * 0.85),
            (cx - r * 0.7, cy + r * 0.25),
        ]
    return None


def draw_resource(
    surface: pygame.Surface,
    res: str,
    centre: Point,
    r: float,
    colour_blind: bool,
    outline: pal.RGB = INK,
) -> None:
    """One cube of ``res`` of radius ``r``: its colour and its own silhouette (square wood,
    hexagonal stone, sheaf-shaped grain, horned cattle, cloud-shaped sheep)."""
    colour = (RESOURCE_COLOURS_CB if colour_blind else RESOURCE_COLOURS).get(res, (128, 128, 128))
    cx, cy = centre
    w = max(1, round(r / 6))
    pts = resource_points(res, cx, cy, r)
    if pts is None:
        for dx, dy, k in ((-0.42, 0.15, 0.5), (0.42, 0.15, 0.5), (0, -0.25, 0.58), (0, 0.3, 0.5)):
            pygame.draw.circle(surface, outline, (cx + dx * r, cy + dy * r), k * r + w)
        for dx, dy, k in ((-0.42, 0.15, 0.5), (0.42, 0.15, 0.5), (0, -0.25, 0.58), (0, 0.3, 0.5)):
            pygame.draw.circle(surface, colour, (cx + dx * r, cy + dy * r), k * r)
        return
    pygame.draw.polygon(surface, colour, pts)
    pygame.draw.polygon(surface, outline, pts, w)


@cache
def resource_sprite(res: str, r: int, colour_blind: bool) -> pygame.Surface:
    size = 2 * r + 4
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    draw_resource(surf, res, (size / 2, size / 2), r, colour_blind)
    return surf


def draw_meeple(
    surface: pygame.Surface,
    centre: Point,
    h: float,
    colour: pal.RGB = INK,
    outline: pal.RGB = (236, 236, 236),
) -> None:
    """A clan member (a meeple ``h`` pixels tall): head, arms out, two legs."""
    cx, cy = centre
    u = h / 10
    pts = [
        (cx - 1.4 * u, cy - 1.7 * u),
        (cx - 4.4 * u, cy - 1.0 * u),
        (cx - 4.8 * u, cy + 0.6 * u),
        (cx - 2.2 * u, cy + 0.5 * u),
        (cx - 3.4 * u, cy + 4.8 * u),
        (cx - 0.8 * u, cy + 4.8 * u),
        (cx, cy + 2.6 * u),
        (cx + 0.8 * u, cy + 4.8 * u),
        (cx + 3.4 * u, cy + 4.8 * u),
        (cx + 2.2 * u, cy + 0.5 * u),
        (cx + 4.8 * u, cy + 0.6 * u),
        (cx + 4.4 * u, cy - 1.0 * u),
        (cx + 1.4 * u, cy - 1.7 * u),
    ]
    width = max(1, round(u * 0.6))
    pygame.draw.circle(surface, outline, (cx, cy - 3.3 * u), 1.9 * u + width)
    pygame.draw.polygon(surface, outline, pts, width * 2 + 1)
    pygame.draw.polygon(surface, colour, pts)
    pygame.draw.circle(surface, colour, (cx, cy - 3.3 * u), 1.9 * u)


@cache
def meeple_sprite(h: int, chieftain: bool = False) -> pygame.Surface:
    w = int(h * 1.05) + 4
    surf = pygame.Surface((w, h + 4), pygame.SRCALPHA)
    draw_meeple(surf, (w / 2, h / 2 + 3), h)
    if chieftain:
        draw_bonnet(surf, (w / 2, h * 0.12 + 2), h * 0.22)
    return surf


def draw_bonnet(surface: pygame.Surface, centre: Point, r: float) -> None:
    """A Scottish bonnet (a flat blue cap with a red pompom)."""
    cx, cy = centre
    pygame.draw.ellipse(surface, (40, 70, 150), (cx - r * 1.3, cy - r * 0.45, r * 2.6, r * 0.9))
    pygame.draw.ellipse(surface, (20, 30, 70), (cx - r * 1.3, cy - r * 0.45, r * 2.6, r * 0.9), 1)
    pygame.draw.circle(surface, (210, 50, 50), (cx, cy - r * 0.55), max(1.5, r * 0.4))


@cache
def bonnet_sprite(r: int) -> pygame.Surface:
    surf = pygame.Surface((3 * r + 4, 2 * r + 4), pygame.SRCALPHA)
    draw_bonnet(surf, (surf.get_width() / 2, r + 3), r)
    return surf


@cache
def barrel_sprite(h: int) -> pygame.Surface:
    surf = pygame.Surface((h, h), pygame.SRCALPHA)
    _barrel(surf, h / 2, h / 2, h * 0.4)
    return surf


@cache
def coin_sprite(r: int) -> pygame.Surface:
    surf = pygame.Surface((2 * r + 2, 2 * r + 2), pygame.SRCALPHA)
    c = (r + 1, r + 1)
    pygame.draw.circle(surf, pal.shade(COIN, 0.6), c, r)
    pygame.draw.circle(surf, COIN, c, max(1, r - max(1, r // 6)))
    pygame.draw.circle(
        surf, pal.shade(COIN, 1.3), (c[0] - r * 0.25, c[1] - r * 0.25), max(1, r * 0.3)
    )
    return surf


@cache
def card_sprite(w: int) -> pygame.Surface:
    """A special-location card (a small white card with a star)."""
    h = int(w * 1.35)
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(surf, (250, 246, 230), surf.get_rect(), border_radius=max(1, w // 6))
    pygame.draw.rect(surf, INK, surf.get_rect(), 1, border_radius=max(1, w // 6))
    _star(surf, w / 2, h / 2, w * 0.32, (200, 150, 40))
    return surf


@cache
def boot_sprite(h: int) -> pygame.Surface:
    """A movement point (a boot)."""
    surf = pygame.Surface((h, h), pygame.SRCALPHA)
    u = h / 10
    pts = [
        (3 * u, 1 * u),
        (6 * u, 1 * u),
        (6 * u, 6 * u),
        (9 * u, 7 * u),
        (9 * u, 9 * u),
        (3 * u, 9 * u),
    ]
    pygame.draw.polygon(surf, (150, 100, 60), pts)
    pygame.draw.polygon(surf, INK, pts, max(1, round(u * 0.7)))
    return surf


@cache
def figure_sprite(colour: pal.RGB, shape: str, h: int) -> pygame.Surface:
    """A player's figure on the track: a pawn in the seat colour with the seat's shape."""
    w = int(h * 0.8) + 4
    surf = pygame.Surface((w, h + 4), pygame.SRCALPHA)
    cx = w / 2
    outline = pal.shade(colour, 0.4) if sum(colour) > 200 else (210, 210, 220)
    base = pygame.Rect(0, 0, int(h * 0.72), int(h * 0.2))
    base.midbottom = (int(cx), h + 2)
    body = [
        (cx - h * 0.26, h * 0.92),
        (cx - h * 0.1, h * 0.45),
        (cx + h * 0.1, h * 0.45),
        (cx + h * 0.26, h * 0.92),
    ]
    pygame.draw.ellipse(surf, (0, 0, 0, 90), base.move(2, 2))
    pygame.draw.polygon(surf, colour, body)
    pygame.draw.ellipse(surf, colour, base)
    pygame.draw.circle(surf, colour, (cx, h * 0.3), h * 0.2)
    width = max(1, round(h / 22))
    pygame.draw.polygon(surf, outline, body, width)
    pygame.draw.ellipse(surf, outline, base, width)
    pygame.draw.circle(surf, outline, (cx, h * 0.3), h * 0.2, width)
    pal.draw_shape(surf, shape, (cx, h * 0.3), h * 0.11, pal.contrast(colour))
    return surf


@cache
def die_sprite(h: int, value: int) -> pygame.Surface:
    """The neutral die figure (GM §9): a white die showing its last roll (0: none yet)."""
    surf = pygame.Surface((h, h), pygame.SRCALPHA)
    rect = surf.get_rect().inflate(-2, -2)
    pygame.draw.rect(surf, (0, 0, 0, 90), rect.move(2, 2), border_radius=h // 5)
    pygame.draw.rect(surf, (244, 242, 236), rect, border_radius=h // 5)
    pygame.draw.rect(surf, INK, rect, max(1, h // 18), border_radius=h // 5)
    spots = {
        0: [(0.5, 0.5)],
        1: [(0.5, 0.5)],
        2: [(0.3, 0.3), (0.7, 0.7)],
        3: [(0.28, 0.28), (0.5, 0.5), (0.72, 0.72)],
    }.get(value, [(0.5, 0.5)])
    for fx, fy in spots:
        colour = INK if value else (150, 150, 150)
        pygame.draw.circle(
            surf, colour, (rect.x + fx * rect.width, rect.y + fy * rect.height), max(1.5, h * 0.08)
        )
    return surf
