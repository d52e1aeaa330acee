"""Scenes: the screens of the client, kept on a stack by the :class:`~game.ui.app.App`.

The top scene gets the events.  A scene that is not ``opaque`` (an overlay: help, the hot-seat
curtain, a confirmation) is drawn over the scenes below it, which keep animating.  Lifecycle:
``enter`` when pushed, ``pause``/``resume`` when another scene covers or uncovers it, ``leave``
when popped.  ``layout(w, h)`` runs on entry and whenever the window size or language changes.

``frame_rate()`` tells the app's loop how many frames a second the scene needs when nobody
touches anything (``game/ui/app.py``): a scene that does not say gets 60; a still page says 0
and the window then sleeps until something happens.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.ui import palette as pal
from game.ui.widgets import Widget

#: The frame rate of a scene that does not say what it needs (the app's full rate).
FULL_RATE = 60.0

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

    def tooltip_avoid(self, pos: tuple[int, int]) -> list[pygame.Rect]:
        """What the tooltip at ``pos`` must not cover (e.g. the other choices of a list the
        pointer is on); none by default."""
        return []

    # ---- time and drawing ------------------------------------------------------------------
    def frame_rate(self) -> float:
        """Frames a second this scene needs while nobody touches anything: :data:`FULL_RATE`
        while something moves, fewer for a slow pulse, 0 when nothing changes by itself."""
        return FULL_RATE

    def ambient_rects(self) -> list[pygame.Rect] | None:
        """Where this scene's picture changes from one frame to the next while nobody touches
        anything and nothing but a slow pulse moves (the frames :meth:`frame_rate` asks for
        below the full rate): the window then sends only these parts to the screen.  ``None``
        (the default): anything may change, the whole window is sent."""
        return None

    def ambient_cycle(self) -> tuple[int, int] | None:
        """How the picture in :meth:`ambient_rects` repeats: ``(i, n)`` — it is the same at
        every frame of step ``i`` of a cycle of ``n`` steps, so the window keeps one picture
        per step (``game/ui/ambient.py``); ``None`` (the default): it does not repeat."""
        return None

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


class SafeScene(Scene):
    """A plain page after repeated failures: what happened, and quit (nothing else to fail:
    pygame's own font, no widgets)."""

    name = "safe"

    def frame_rate(self) -> float:
        return 0.0

    def handle(self, event: pygame.event.Event) -> bool:
        if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONUP):
            self.app.quit()
        return True

    def on_escape(self) -> None:
        self.app.quit()

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(pal.BG)
        font = pygame.font.Font(None, 28)
        lines = ["Lantern Table hit repeated errors (see the terminal).", "Press any key to quit."]
        if self.app.kept_servers:
            lines.insert(1, "Your LAN table keeps running for the other players until then.")
        for i, line in enumerate(lines):
            surface.blit(font.render(line, True, pal.TEXT), (40, 40 + 36 * i))
