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

    def request(self, text: str, pos: tuple[int, int], immediate: bool = False) -> None:
        """Ask for ``text`` at ``pos`` this frame (call every frame while it applies)."""
        if text != self.text:
            self.age = 0.0
        self.text = text
        self.pos = pos
        self.immediate = immediate

    def clear(self) -> None:
        self.text = ""
        self.age = 0.0

    def update(self, dt: float) -> None:
        if self.text:
            self.age += dt

    def draw(self, surface: pygame.Surface, app: App) -> None:
        if not self.text or (self.age < DELAY and not self.immediate):
            return
        size = app.px(14)
        max_w = app.px(360)
        img = app.fonts.render(self.text, size, pal.TEXT, wrap=max_w)
        pad = app.px(8)
        box = pygame.Rect(0, 0, img.get_width() + 2 * pad, img.get_height() + 2 * pad)
        x, y = self.pos
        box.topleft = (x + app.px(16), y + app.px(20))
        sw, sh = surface.get_size()
        if box.right > sw - 4:
            box.right = x - app.px(8)
        if box.bottom > sh - 4:
            box.bottom = y - app.px(8)
        box.clamp_ip(surface.get_rect())
        shadow = box.move(3, 3)
        pygame.draw.rect(surface, (0, 0, 0), shadow, border_radius=app.px(6))
        draw_box(surface, box, (30, 34, 44), pal.ACCENT_DARK, radius=app.px(6))
        surface.blit(img, (box.x + pad, box.y + pad))
