"""A line or paragraph of text."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.ui import palette as pal
from game.ui.widgets.base import TextLike, Widget, resolve

if TYPE_CHECKING:
    from game.ui.app import App


class Label(Widget):
    """Text drawn in its rectangle: aligned left, centre or right; wrapped when ``wrap``."""

    def __init__(
        self,
        text: TextLike,
        *,
        id: str = "",
        size: int = 16,
        colour: pal.RGB = pal.TEXT,
        bold: bool = False,
        align: str = "left",
        wrap: bool = False,
        valign: str = "center",
    ) -> None:
        super().__init__(id)
        self.text = text
        self.size = size
        self.colour = colour
        self.bold = bold
        self.align = align
        self.wrap = wrap
        self.valign = valign

    def draw(self, surface: pygame.Surface, app: App) -> None:
        if not self.visible:
            return
        text = resolve(self.text)
        if not text:
            return
        size = app.px(self.size)
        if self.wrap:
            img = app.fonts.render(text, size, self.colour, self.bold, wrap=self.rect.width)
        else:
            size = app.fonts.fit(text, size, self.rect.width, self.bold)
            text = app.fonts.ellipsize(text, size, self.rect.width, self.bold)
            img = app.fonts.render(text, size, self.colour, self.bold)
        r = img.get_rect()
        if self.align == "center":
            r.centerx = self.rect.centerx
        elif self.align == "right":
            r.right = self.rect.right
        else:
            r.left = self.rect.left
        if self.valign == "top" or self.wrap:
            r.top = self.rect.top
        else:
            r.centery = self.rect.centery
        clip = surface.get_clip()
        surface.set_clip(self.rect.clip(clip) if clip else self.rect)
        surface.blit(img, r)
        surface.set_clip(clip)
