"""A push button: a label, an optional hotkey hint, a callback."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from game.ui import palette as pal
from game.ui.widgets.base import TextLike, Widget, draw_box, resolve

if TYPE_CHECKING:
    from game.ui.app import App

#: Button styles: fill, hover fill, text colour, border.
STYLES: dict[str, tuple[pal.RGB, pal.RGB, pal.RGB, pal.RGB]] = {
    "normal": (pal.BG_PANEL_2, pal.BG_HOVER, pal.TEXT, pal.BORDER),
    "primary": ((196, 138, 30), (226, 164, 46), (20, 18, 14), (255, 214, 120)),
    "danger": ((120, 44, 44), (150, 58, 58), pal.TEXT, (190, 90, 90)),
    "flat": (pal.BG_PANEL, pal.BG_HOVER, pal.TEXT, pal.BG_PANEL),
}


class Button(Widget):
    """Calls ``on_click()`` when clicked (or when its scene maps a key to it)."""

    focusable = True

    def __init__(
        self,
        id: str,
        text: TextLike,
        on_click: Callable[[], object] | None = None,
        *,
        style: str = "normal",
        hint: TextLike | None = None,
        tooltip: TextLike | None = None,
        enabled: bool | Callable[[], bool] = True,
        font_size: int = 17,
        selected: bool | Callable[[], bool] = False,
    ) -> None:
        super().__init__(id, tooltip=tooltip, enabled=enabled)
        self.text = text
        self.callback = on_click
        self.style = style
        self.hint = hint
        self.font_size = font_size
        self._selected = selected

    @property
    def selected(self) -> bool:
        s = self._selected
        return bool(s()) if callable(s) else bool(s)

    def on_click(self, pos: tuple[int, int], app: App) -> None:
        self.activate()

    def activate(self) -> None:
        if self.enabled and self.callback is not None:
            self.callback()

    def draw(self, surface: pygame.Surface, app: App) -> None:
        if not self.visible:
            return
        fill, hover, fg, border = STYLES.get(self.style, STYLES["normal"])
        enabled = self.enabled
        if not enabled:
            fill, fg, border = pal.BG_PANEL, pal.TEXT_DISABLED, pal.BG_PANEL_2
        elif self.pressed:
            fill = pal.shade(hover, 0.85)
        elif self.hovered or self.focused:
            fill = hover
        if self.selected and enabled:
            border = pal.ACCENT
        draw_box(
            surface, self.rect, fill, border, radius=app.px(7), width=2 if self.selected else 1
        )
        size = app.px(self.font_size)
        label = resolve(self.text)
        hint = resolve(self.hint)
        pad = app.px(10)
        avail = self.rect.width - 2 * pad
        hint_img = None
        if hint:
            hint_colour = pal.TEXT_DIM if enabled else fg
            if enabled and (self.style == "primary" or sum(fill) > 380):
                # A light (primary) button: a dark hint reads better.
                hint_colour = (90, 62, 16)
            hint_img = app.fonts.render(hint, app.px(12), hint_colour)
            avail -= hint_img.get_width() + app.px(6)
        size = app.fonts.fit(label, size, max(10, avail), bold=self.style == "primary")
        label = app.fonts.ellipsize(label, size, max(10, avail), bold=self.style == "primary")
        img = app.fonts.render(label, size, fg, bold=self.style == "primary")
        if hint_img is not None:
            total = img.get_width() + app.px(6) + hint_img.get_width()
            x = self.rect.centerx - total // 2
            surface.blit(img, img.get_rect(midleft=(x, self.rect.centery)))
            surface.blit(
                hint_img,
                hint_img.get_rect(
                    midleft=(x + img.get_width() + app.px(6), self.rect.centery + app.px(1))
                ),
            )
        else:
            surface.blit(img, img.get_rect(center=self.rect.center))
