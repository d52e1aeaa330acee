"""A choice among a few values: ``< value >``, clicked or scrolled through.

Clicking the left or right arrow (or the left or right half) steps through the options; the
mouse wheel does too.  Options are ``(value, label)`` pairs; labels may be callables.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import pygame

from game.ui import palette as pal
from game.ui.widgets.base import TextLike, Widget, draw_box, resolve

if TYPE_CHECKING:
    from game.ui.app import App


class Choice(Widget):
    """One of ``options``; ``on_change(value)`` after each change."""

    focusable = True

    def __init__(
        self,
        id: str,
        options: Sequence[tuple[Any, TextLike]],
        value: Any = None,
        on_change: Callable[[Any], None] | None = None,
        *,
        tooltip: TextLike | None = None,
        enabled: bool | Callable[[], bool] = True,
        font_size: int = 16,
        swatch: Callable[[Any, int], pygame.Surface | None] | None = None,
    ) -> None:
        super().__init__(id, tooltip=tooltip, enabled=enabled)
        self.options = list(options)
        self.on_change = on_change
        self.font_size = font_size
        self.swatch = swatch
        values = [v for v, _ in self.options]
        self.index = values.index(value) if value in values else 0

    @property
    def value(self) -> Any:
        return self.options[self.index][0] if self.options else None

    def set_value(self, value: Any) -> None:
        for i, (v, _) in enumerate(self.options):
            if v == value:
                self.index = i
                return

    def set_options(self, options: Sequence[tuple[Any, TextLike]], value: Any = None) -> None:
        keep = self.value if value is None else value
        self.options = list(options)
        self.index = 0
        self.set_value(keep)

    def step(self, delta: int) -> None:
        if not self.options or not self.enabled:
            return
        self.index = (self.index + delta) % len(self.options)
        if self.on_change is not None:
            self.on_change(self.value)

    def handle(self, event: pygame.event.Event, app: App) -> bool:
        if (
            event.type == pygame.MOUSEWHEEL
            and self.visible
            and self.hovered
            and self.enabled
            and event.y
        ):
            self.step(-1 if event.y > 0 else 1)
            return True
        return super().handle(event, app)

    def on_click(self, pos: tuple[int, int], app: App) -> None:
        self.step(-1 if pos[0] < self.rect.centerx - self.rect.width // 6 else 1)

    def label(self) -> str:
        return resolve(self.options[self.index][1]) if self.options else ""

    def draw(self, surface: pygame.Surface, app: App) -> None:
        if not self.visible:
            return
        enabled = self.enabled
        fill = pal.BG_HOVER if self.hovered and enabled else pal.BG_PANEL_2
        draw_box(surface, self.rect, fill, pal.BORDER, radius=app.px(7))
        colour = pal.TEXT if enabled else pal.TEXT_DISABLED
        arrow = pal.ACCENT if enabled and len(self.options) > 1 else pal.TEXT_DISABLED
        h = self.rect.height
        a = max(4, h // 5)
        cy = self.rect.centery
        lx = self.rect.x + app.px(12)
        rx = self.rect.right - app.px(12)
        pygame.draw.polygon(surface, arrow, [(lx, cy), (lx + a, cy - a), (lx + a, cy + a)])
        pygame.draw.polygon(surface, arrow, [(rx, cy), (rx - a, cy - a), (rx - a, cy + a)])
        inner = self.rect.inflate(-2 * (app.px(12) + a + app.px(6)), 0)
        text = self.label()
        x_extra = 0
        sw = self.swatch(self.value, app.px(18)) if self.swatch is not None else None
        if sw is not None:
            x_extra = sw.get_width() + app.px(6)
        size = app.fonts.fit(text, app.px(self.font_size), inner.width - x_extra)
        text = app.fonts.ellipsize(text, size, inner.width - x_extra)
        img = app.fonts.render(text, size, colour)
        total = img.get_width() + x_extra
        x = inner.centerx - total // 2
        if sw is not None:
            surface.blit(sw, sw.get_rect(midleft=(x, cy)))
        surface.blit(img, img.get_rect(midleft=(x + x_extra, cy)))
