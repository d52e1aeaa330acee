"""The widget base class and the small pieces every widget shares.

Widgets are deliberately small: a rectangle, an id (tests find widgets by id and click their
centre), hover and press state, an optional tooltip.  A scene owns its widgets, places them in
``layout`` and passes events on; :meth:`Widget.handle` returns True when it used the event.
Texts may be given as plain strings or as callables (``lambda: t("menu.play_local")``) that are
evaluated at draw time, so a language switch shows at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame

from game.ui import palette as pal

if TYPE_CHECKING:
    from game.ui.app import App

TextLike = str | Callable[[], str]


def resolve(text: TextLike | None) -> str:
    """The string of a text given as a string or a callable."""
    if text is None:
        return ""
    return text() if callable(text) else text


class Widget:
    """A rectangle on screen that may react to the mouse and keyboard."""

    focusable = False

    def __init__(
        self,
        id: str = "",
        rect: pygame.Rect | None = None,
        tooltip: TextLike | None = None,
        enabled: bool | Callable[[], bool] = True,
        visible: bool = True,
    ) -> None:
        self.id = id
        self.rect = pygame.Rect(rect) if rect is not None else pygame.Rect(0, 0, 0, 0)
        self.tooltip = tooltip
        self._enabled = enabled
        self.visible = visible
        self.hovered = False
        self.pressed = False
        self.focused = False

    @property
    def enabled(self) -> bool:
        e = self._enabled
        return bool(e()) if callable(e) else bool(e)

    @enabled.setter
    def enabled(self, value: bool | Callable[[], bool]) -> None:
        self._enabled = value

    def tooltip_text(self) -> str:
        return resolve(self.tooltip)

    # ---- events ----------------------------------------------------------------------------
    def handle(self, event: pygame.event.Event, app: App) -> bool:
        """React to ``event``; True when the widget used it (it then goes no further)."""
        if not self.visible:
            return False
        if event.type == pygame.MOUSEMOTION:
            self.hovered = self.rect.collidepoint(event.pos)
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if self.rect.collidepoint(event.pos) and self.enabled:
                self.pressed = True
                self.on_press(event.pos, app)
                return True
            return False
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            was = self.pressed
            self.pressed = False
            if was and self.rect.collidepoint(event.pos) and self.enabled:
                self.on_click(event.pos, app)
                return True
            return was
        return False

    def on_press(self, pos: tuple[int, int], app: App) -> None:
        """The left button went down on the widget."""

    def on_click(self, pos: tuple[int, int], app: App) -> None:
        """The left button went down and up on the widget."""

    def update(self, dt: float, app: App) -> None:
        """Advance time-based state (caret blink, scrolling)."""

    def draw(self, surface: pygame.Surface, app: App) -> None:
        raise NotImplementedError


def draw_box(
    surface: pygame.Surface,
    rect: pygame.Rect,
    fill: tuple[int, int, int],
    border: tuple[int, int, int] | None = pal.BORDER,
    radius: int = 6,
    width: int = 1,
) -> None:
    """A rounded rectangle with an optional border."""
    pygame.draw.rect(surface, fill, rect, border_radius=radius)
    if border is not None and width > 0:
        pygame.draw.rect(surface, border, rect, width, border_radius=radius)


def blit_centred(surface: pygame.Surface, image: pygame.Surface, rect: pygame.Rect) -> None:
    surface.blit(image, image.get_rect(center=rect.center))


def key_of(event: Any) -> int:
    return int(getattr(event, "key", 0))
