"""Tooltips: a small box of text near the mouse after it rests on something for a moment."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.ui import palette as pal
from game.ui.widgets.base import draw_box

if TYPE_CHECKING:
    from game.ui.app import App

#: Seconds the mouse must rest before a tooltip shows.
DELAY = 0.45


class Tooltip:
    """Shows ``text`` near ``pos`` once it has been requested for :data:`DELAY` seconds."""

    def __init__(self) -> None:
        self.text = ""
        self.pos = (0, 0)
        self.age = 0.0
        self.immediate = False
        #: Rectangles the box must not cover (the choices next to the one pointed at).
        self.avoid: list[pygame.Rect] = []

    def request(
        self,
        text: str,
        pos: tuple[int, int],
        immediate: bool = False,
        avoid: list[pygame.Rect] | None = None,
    ) -> None:
        """Ask for ``text`` at ``pos`` this frame (call every frame while it applies), kept
        off ``avoid`` where the window allows."""
        if text != self.text:
            self.age = 0.0
        self.text = text
        self.pos = pos
        self.immediate = immediate
        self.avoid = list(avoid or [])

    def clear(self) -> None:
        self.text = ""
        self.age = 0.0

    def update(self, dt: float) -> None:
        if self.text:
            self.age += dt

    def place(self, box: pygame.Rect, screen: pygame.Rect, gap: int) -> pygame.Rect:
        """Where the box goes: below and right of the pointer (left or above it at the
        window's edges) — unless that covers something in :attr:`avoid`: then beside them
        (left, right, above or below the group), the first of those that fits."""
        x, y = self.pos
        first = box.copy()
        first.topleft = (x + 2 * gap, y + 5 * gap // 2)
        if first.right > screen.right - 4:
            first.right = x - gap
        if first.bottom > screen.bottom - 4:
            first.bottom = y - gap
        first.clamp_ip(screen)
        if not self.avoid or first.collidelist(self.avoid) < 0:
            return first
        group = self.avoid[0].unionall(self.avoid[1:])
        for side in ("left", "right", "above", "below"):
            spot = box.copy()
            if side in ("left", "right"):
                spot.centery = y
                if side == "left":
                    spot.right = group.left - gap
                else:
                    spot.left = group.right + gap
            else:
                spot.centerx = x
                if side == "above":
                    spot.bottom = group.top - gap
                else:
                    spot.top = group.bottom + gap
            if not screen.contains(spot):
                moved = spot.clamp(screen)
                if moved.collidelist(self.avoid) >= 0:
                    continue
                spot = moved
            return spot
        return first

    def draw(self, surface: pygame.Surface, app: App) -> None:
        if not self.text or (self.age < DELAY and not self.immediate):
            return
        size = app.px(14)
        max_w = app.px(360)
        img = app.fonts.render(self.text, size, pal.TEXT, wrap=max_w)
        pad = app.px(8)
        box = pygame.Rect(0, 0, img.get_width() + 2 * pad, img.get_height() + 2 * pad)
        box = self.place(box, surface.get_rect(), app.px(8))
        shadow = box.move(3, 3)
        pygame.draw.rect(surface, (0, 0, 0), shadow, border_radius=app.px(6))
        draw_box(surface, box, (30, 34, 44), pal.ACCENT_DARK, radius=app.px(6))
        surface.blit(img, (box.x + pad, box.y + pad))
