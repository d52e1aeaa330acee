"""Scenes: the screens of the client, kept on a stack by the :class:`~game.ui.app.App`.

The top scene gets the events.  A scene that is not ``opaque`` (an overlay: help, the hot-seat
curtain, a confirmation) is drawn over the scenes below it, which keep animating.  Lifecycle:
``enter`` when pushed, ``pause``/``resume`` when another scene covers or uncovers it, ``leave``
when popped.  ``layout(w, h)`` runs on entry and whenever the window size or language changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.ui import palette as pal
from game.ui.widgets import Widget

if TYPE_CHECKING:
    from game.ui.app import App


class Scene:
    """A screen.  Subclasses create widgets in ``__init__`` and place them in ``layout``."""

    #: Draws the whole window (scenes below it need not be drawn).
    opaque = True
    #: The topic of the help overlay (F1) on this scene.
    help_topic = "general"
    #: The name tests and logs use for the scene.
    name = "scene"

    def __init__(self, app: App) -> None:
        self.app = app
        self.widgets: list[Widget] = []
        self.size = (0, 0)

    # ---- widgets ---------------------------------------------------------------------------
    def add(self, widget: Widget) -> Widget:
        self.widgets.append(widget)
        return widget

    def widget(self, id: str) -> Widget:
        """The widget called ``id`` (tests use it to find what to click)."""
        for w in self.widgets:
            if w.id == id:
                return w
        raise KeyError(f"{self.name} has no widget {id!r}")

    def find(self, id: str) -> Widget | None:
        for w in self.widgets:
            if w.id == id:
                return w
        return None

    # ---- lifecycle -------------------------------------------------------------------------
    def enter(self) -> None:
        """Pushed on the stack."""

    def leave(self) -> None:
        """Popped off the stack (release connections, timers)."""

    def pause(self) -> None:
        """Another scene was pushed over this one."""

    def resume(self) -> None:
        """The scene above was popped."""

    def layout(self, w: int, h: int) -> None:
        """Place the widgets for a window of ``w`` x ``h`` pixels."""
        self.size = (w, h)

    # ---- events ----------------------------------------------------------------------------
    def handle(self, event: pygame.event.Event) -> bool:
        """Offer ``event`` to the widgets (topmost first), then to :meth:`on_key`."""
        used = False
        for w in reversed(self.widgets):
            if w.handle(event, self.app):
                used = True
                break
        if event.type == pygame.MOUSEMOTION:
            # Every widget needs motion to update its hover state.
            for w in self.widgets:
                if w.visible:
                    w.hovered = w.rect.collidepoint(event.pos)
            return False
        if used:
            return True
        if event.type == pygame.KEYDOWN:
            return self.on_key(event)
        return False

    def on_key(self, event: pygame.event.Event) -> bool:
        """A key no widget used; True when handled."""
        return False

    def on_escape(self) -> None:
        """Esc (when nothing else used it): go back."""
        self.app.pop()

    def tooltip_at(self, pos: tuple[int, int]) -> str:
        """The tooltip for the mouse at ``pos`` (the hovered widget's, by default)."""
        for w in reversed(self.widgets):
            if w.visible and w.rect.collidepoint(pos):
                return w.tooltip_text()
        return ""

    # ---- time and drawing ------------------------------------------------------------------
    def update(self, dt: float) -> None:
        for w in self.widgets:
            w.update(dt, self.app)

    def draw(self, surface: pygame.Surface) -> None:
        if self.opaque:
            surface.fill(pal.BG)
        self.draw_widgets(surface)

    def draw_widgets(self, surface: pygame.Surface) -> None:
        for w in self.widgets:
            if w.visible:
                w.draw(surface, self.app)
