"""Pieces several scenes share: the page frame (title, back button) and a decorative backdrop."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pygame

from game.ui import palette as pal
from game.ui.i18n import t
from game.ui.scene import Scene
from game.ui.widgets import Button, TextLike, resolve

if TYPE_CHECKING:
    from game.ui.app import App

_BACKDROP: dict[tuple[int, int], pygame.Surface] = {}

#: Terrain-like colours for the backdrop hexes.
_BACKDROP_COLOURS = ((62, 92, 58), (112, 84, 56), (128, 116, 70), (94, 72, 106), (44, 70, 52))


def backdrop(size: tuple[int, int]) -> pygame.Surface:
    """A dim field of hexes behind the menus (drawn once per window size)."""
    surf = _BACKDROP.get(size)
    if surf is not None:
        return surf
    w, h = size
    surf = pygame.Surface(size).convert()
    surf.fill(pal.BG)
    r = max(18, h // 18)
    dx = math.sqrt(3) * r
    row = 0
    y: float = -r
    while y < h + r:
        x = -dx + (dx / 2 if row % 2 else 0)
        col = 0
        while x < w + dx:
            k = (row * 7 + col * 13 + (row * col) % 5) % len(_BACKDROP_COLOURS)
            fade = 0.22 + 0.10 * math.sin(row * 0.7 + col * 0.45)
            base = _BACKDROP_COLOURS[k]
            colour = tuple(int(pal.BG[i] + (base[i] - pal.BG[i]) * fade) for i in range(3))
            pts = [
                (x + r * math.cos(math.radians(a)), y + r * math.sin(math.radians(a)))
                for a in (-90, -30, 30, 90, 150, 210)
            ]
            pygame.draw.polygon(surf, colour, pts)
            pygame.draw.polygon(surf, pal.BG, pts, 2)
            x += dx
            col += 1
        y += 1.5 * r
        row += 1
    shade = pygame.Surface(size, pygame.SRCALPHA)
    for i in range(h):
        a = int(150 * (1 - abs(i - h / 2) / (h / 2)) ** 0.5)
        pygame.draw.line(shade, (*pal.BG, a), (0, i), (w, i))
    surf.blit(shade, (0, 0))
    _BACKDROP.clear()
    _BACKDROP[size] = surf
    return surf


class PageScene(Scene):
    """A full-window page with a title at the top and a Back button at the bottom left."""

    title: TextLike = ""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.back_button = Button("back", lambda: t("common.back"), self.on_escape, hint="Esc")
        self.help_button = Button(
            "page_help", lambda: t("common.help"), lambda: app.show_help(self.help_topic), hint="F1"
        )
        self.add(self.back_button)
        self.add(self.help_button)

    def layout(self, w: int, h: int) -> None:
        super().layout(w, h)
        px = self.app.px
        self.back_button.rect = pygame.Rect(px(32), h - px(72), px(150), px(44))
        self.help_button.rect = pygame.Rect(px(194), h - px(72), px(120), px(44))

    def content_rect(self) -> pygame.Rect:
        """The area between the title and the bottom buttons."""
        w, h = self.size
        px = self.app.px
        return pygame.Rect(px(40), px(96), w - px(80), h - px(96) - px(96))

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(backdrop(surface.get_size()), (0, 0))
        px = self.app.px
        title = resolve(self.title)
        if title:
            img = self.app.fonts.render(title, px(34), pal.TEXT, bold=True)
            surface.blit(img, (px(40), px(28)))
            pygame.draw.line(
                surface,
                pal.ACCENT_DARK,
                (px(40), px(28) + img.get_height() + px(4)),
                (surface.get_width() - px(40), px(28) + img.get_height() + px(4)),
                2,
            )
        self.draw_widgets(surface)


def panel(surface: pygame.Surface, rect: pygame.Rect, app: App, title: str = "") -> int:
    """Draw a framed panel; returns the y where its content starts."""
    pygame.draw.rect(surface, pal.BG_PANEL, rect, border_radius=app.px(10))
    pygame.draw.rect(surface, pal.BORDER, rect, 1, border_radius=app.px(10))
    y = rect.y + app.px(10)
    if title:
        img = app.fonts.render(title, app.px(18), pal.ACCENT, bold=True)
        surface.blit(img, (rect.x + app.px(14), y))
        y += img.get_height() + app.px(6)
    return y
