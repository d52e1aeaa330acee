"""A slider: a value between 0 and 1 in steps, set by a click or a drag on its track, the wheel,
or the arrow keys while the pointer is on it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from game.ui import palette as pal
from game.ui.widgets.base import TextLike, Widget, draw_box

if TYPE_CHECKING:
    from game.ui.app import App


class Slider(Widget):
    """A value in ``[0, 1]`` rounded to ``steps`` steps; ``on_change(value)`` after each change,
    ``label(value)`` the text beside the track (e.g. "60 %")."""

    def __init__(
        self,
        id: str,
        value: float,
        on_change: Callable[[float], None] | None = None,
        *,
        steps: int = 20,
        label: Callable[[float], str] | None = None,
        tooltip: TextLike | None = None,
        enabled: bool | Callable[[], bool] = True,
    ) -> None:
        super().__init__(id, tooltip=tooltip, enabled=enabled)
        self.steps = max(1, steps)
        self.value = self._round(value)
        self.on_change = on_change
        self.label = label or (lambda v: f"{round(v * 100)} %")
        self.dragging = False
        self.track = pygame.Rect(0, 0, 0, 0)

    def _round(self, value: float) -> float:
        value = max(0.0, min(1.0, float(value)))
        return round(value * self.steps) / self.steps

    def set(self, value: float) -> None:
        """Set the value (rounded to a step); ``on_change`` when it changed."""
        value = self._round(value)
        if value == self.value:
            return
        self.value = value
        if self.on_change is not None:
            self.on_change(value)

    def _at(self, x: int) -> float:
        if self.track.width <= 0:
            return self.value
        return (x - self.track.x) / self.track.width

    def handle(self, event: pygame.event.Event, app: App) -> bool:
        if not self.visible:
            return False
        if event.type == pygame.MOUSEMOTION:
            self.hovered = self.rect.collidepoint(event.pos)
            if self.dragging and self.enabled:
                self.set(self._at(event.pos[0]))
                return True
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if self.rect.collidepoint(event.pos) and self.enabled:
                self.dragging = True
                self.set(self._at(event.pos[0]))
                return True
            return False
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            was = self.dragging
            self.dragging = False
            return was
        if event.type == pygame.MOUSEWHEEL and self.hovered and self.enabled:
            self.set(self.value + event.y / self.steps)
            return True
        if event.type == pygame.KEYDOWN and self.hovered and self.enabled:
            if event.key in (pygame.K_LEFT, pygame.K_DOWN):
                self.set(self.value - 1 / self.steps)
                return True
            if event.key in (pygame.K_RIGHT, pygame.K_UP):
                self.set(self.value + 1 / self.steps)
                return True
        return False

    def draw(self, surface: pygame.Surface, app: App) -> None:
        if not self.visible:
            return
        px = app.px
        text = self.label(self.value)
        label_w = app.fonts.size("100 %", px(16))[0] + px(16)
        self.track = pygame.Rect(
            self.rect.x + px(10),
            self.rect.centery - px(3),
            max(px(40), self.rect.width - label_w - px(20)),
            px(6),
        )
        enabled = self.enabled
        draw_box(surface, self.track, pal.BG_PANEL_2, pal.BORDER, radius=px(3))
        filled = pygame.Rect(self.track.x, self.track.y, int(self.track.width * self.value), px(6))
        if filled.width > 0:
            colour = pal.ACCENT if enabled else pal.TEXT_DISABLED
            pygame.draw.rect(surface, colour, filled, border_radius=px(3))
        knob = (self.track.x + int(self.track.width * self.value), self.track.centery)
        fill = pal.BG_HOVER if (self.hovered or self.dragging) and enabled else pal.BG_PANEL
        pygame.draw.circle(surface, fill, knob, px(9))
        pygame.draw.circle(surface, pal.ACCENT if enabled else pal.BORDER, knob, px(9), 2)
        colour = pal.TEXT if enabled else pal.TEXT_DISABLED
        img = app.fonts.render(text, px(16), colour)
        surface.blit(img, img.get_rect(midleft=(self.track.right + px(16), self.rect.centery)))
