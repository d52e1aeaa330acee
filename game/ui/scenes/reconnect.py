""" "Reconnecting..." over the table while a LAN connection makes its link again.

The table stays visible under a light veil (the game scene keeps drawing and polling below);
a box says what happened in the player's language — the connection broke, the host is not
running, the network is lost, the host stopped — and when the next attempt comes, with a
button to leave the table.  It disappears by itself when the seat is back (a toast says so) or
when the connection ends for good (the scene below then says why).

:func:`watch_link` connects a LAN :class:`~game.ui.client.TableClient` to the window: it shows
the overlay whenever the client's link goes down.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from game.ui import palette as pal
from game.ui.i18n import has, t
from game.ui.scene import Scene
from game.ui.widgets import Button, draw_box

if TYPE_CHECKING:
    from game.ui.app import App
    from game.ui.client import TableClient


def watch_link(app: App, client: TableClient) -> None:
    """Show :class:`ReconnectOverlay` over the window whenever ``client``'s link is down."""

    def changed(c: TableClient) -> None:
        if c.link is None or c.closed:
            return
        if any(isinstance(s, ReconnectOverlay) and s.client is c for s in app.stack):
            return
        app.push(ReconnectOverlay(app, c))

    client.on_link = changed


def leave_to_menu(app: App, client: TableClient) -> None:
    """Give up waiting: close the client and go back to the main menu."""
    from game.ui.scenes.menu import MenuScene

    client.close()
    app.reset(MenuScene(app))


class ReconnectOverlay(Scene):
    """See the module docstring."""

    opaque = False
    name = "reconnecting"

    def __init__(
        self, app: App, client: TableClient, on_leave: Callable[[], None] | None = None
    ) -> None:
        super().__init__(app)
        self.client = client
        self.on_leave = on_leave or (lambda: leave_to_menu(app, client))
        self.leave_button = Button(
            "reconnect_leave", lambda: t("reconnect.leave"), self._leave, style="danger"
        )
        self.add(self.leave_button)
        self.box = pygame.Rect(0, 0, 0, 0)

    def _leave(self) -> None:
        self.app.remove(self)
        self.on_leave()

    def layout(self, w: int, h: int) -> None:
        super().layout(w, h)
        px = self.app.px
        self.box = pygame.Rect(0, 0, min(w - px(40), px(600)), min(h - px(40), px(230)))
        self.box.midtop = (w // 2, max(px(20), h // 5))
        self.leave_button.rect = pygame.Rect(0, 0, min(self.box.width - px(40), px(240)), px(44))
        self.leave_button.rect.midbottom = (self.box.centerx, self.box.bottom - px(16))

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.client.link is None or self.client.closed:
            self.app.remove(self)

    def on_escape(self) -> None:
        """Esc does nothing: leaving is the button's."""

    def handle(self, event: pygame.event.Event) -> bool:
        used = super().handle(event)
        # The table below cannot be played meanwhile (what it sent would be dropped).
        return used or event.type in (
            pygame.MOUSEBUTTONDOWN,
            pygame.MOUSEBUTTONUP,
            pygame.MOUSEWHEEL,
            pygame.KEYDOWN,
        )

    def frame_rate(self) -> float:
        return 12.0  # the dots and the countdown

    def texts(self) -> tuple[str, str]:
        """The cause in the player's language, and the attempt line."""
        link = self.client.link or {}
        cause = str(link.get("cause", ""))
        key = f"reconnect.cause.{cause}"
        why = t(key) if has(key) else t("reconnect.cause.lost")
        left = float(link.get("retry_in", 0.0)) - (time.monotonic() - float(link.get("at", 0.0)))
        if left > 0.05:
            when = t("reconnect.next", n=int(link.get("attempt", 0)) + 1, seconds=math.ceil(left))
        else:
            when = t("reconnect.trying", n=int(link.get("attempt", 0)) + 1)
        return why, when

    def draw(self, surface: pygame.Surface) -> None:
        veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        veil.fill((8, 10, 16, 110))
        surface.blit(veil, (0, 0))
        px = self.app.px
        fonts = self.app.fonts
        box = self.box
        draw_box(surface, box, pal.BG_PANEL, pal.ACCENT, radius=px(12), width=2)
        dots = "." * (1 + int(self.app.time * 3) % 3)
        title = fonts.render(t("reconnect.title") + dots, px(22), pal.ACCENT, True)
        surface.blit(title, (box.x + px(20), box.y + px(16)))
        why, when = self.texts()
        inner = box.width - px(40)
        top = box.y + px(20) + title.get_height()
        room = max(0, self.leave_button.rect.y - px(8) - top)
        size = px(15)
        line_h = fonts.line_height(size)
        rows = max(0, room // line_h - 1)
        y = top + px(4)
        for line in fonts.render_lines(why, size, pal.TEXT, inner, rows):
            surface.blit(line, (box.x + px(20), y))
            y += line_h
        if room >= line_h:
            img = fonts.render(fonts.ellipsize(when, size, inner), size, pal.TEXT_DIM)
            surface.blit(img, (box.x + px(20), y))
        self.draw_widgets(surface)
