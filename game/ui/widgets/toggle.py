"""A check box with a label."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from game.ui import palette as pal
from game.ui.widgets.base import TextLike, Widget, draw_box, resolve

if TYPE_CHECKING:
    from game.ui.app import App


class Toggle(Widget):
    """On/off; ``on_change(value)`` after each click."""

    focusable = True

    def __init__(
        self,
        id: str,
        text: TextLike,
        value: bool = False,
        on_change: Callable[[bool], None] | None = None,
        *,
        tooltip: TextLike | None = None,
        enabled: bool | Callable[[], bool] = True,
    ) -> None:
        super().__init__(id, tooltip=tooltip, enabled=enabled)
        self.text = text
        self.value = value
        self.on_change = on_change

    def on_click(self, pos: tuple[int, int], app: App) -> None:
        self.value = not self.value
        if self.on_change is not None:
            self.on_change(self.value)

    def draw(self, surface: pygame.Surface, app: App) -> None:
        if not self.visible:
            return
        box = app.px(20)
        r = pygame.Rect(self.rect.x, self.rect.centery - box // 2, box, box)
        enabled = self.enabled
        fill = pal.BG_HOVER if self.hovered and enabled else pal.BG_PANEL_2
        draw_box(surface, r, fill, pal.ACCENT if self.value else pal.BORDER, radius=app.px(4))
        if self.value:
            pts = [
                (r.x + box * 0.22, r.y + box * 0.52),
                (r.x + box * 0.42, r.y + box * 0.72),
                (r.x + box * 0.78, r.y + box * 0.28),
            ]
            pygame.draw.lines(surface, pal.ACCENT, False, pts, max(2, app.px(3)))
        colour = pal.TEXT if enabled else pal.TEXT_DISABLED
        avail = self.rect.width - box - app.px(10)
        size = app.fonts.fit(resolve(self.text), app.px(16), avail)
        img = app.fonts.render(app.fonts.ellipsize(resolve(self.text), size, avail), size, colour)
        surface.blit(img, img.get_rect(midleft=(r.right + app.px(10), self.rect.centery)))
