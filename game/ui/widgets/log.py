"""The game log: every line wrapped to the box (never cut), the newest at the bottom, the wheel
scrolling back through them a few rows at a time, a thin bar showing where.

A :class:`LogBox` is drawn into a rectangle the scene chooses (the game table, the replay
viewer); lines are ``(seat or None, text, chat)`` as :class:`~game.ui.games.base.LogLine`.
Wrapped lines are cached per text and width, so a frame only wraps what is new.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pygame

from game.ui import palette as pal
from game.ui.widgets.base import draw_box

if TYPE_CHECKING:
    from game.ui.app import App

#: Chat lines in the log.
CHAT_COLOUR = (170, 210, 255)
#: Rows one click of the wheel scrolls.
WHEEL_ROWS = 3


class LogBox:
    """Wrapped, scrollable log lines (see the module docstring).  ``scroll`` counts rows up
    from the newest."""

    def __init__(self) -> None:
        self.scroll = 0
        self.rect = pygame.Rect(0, 0, 0, 0)
        self._wrapped: OrderedDict[tuple[str, int, int], list[str]] = OrderedDict()
        self._seen = 0
        self._rows = 1
        self._total = 0

    def _wrap(self, app: App, text: str, size: int, width: int) -> list[str]:
        key = (text, size, width)
        rows = self._wrapped.get(key)
        if rows is None:
            rows = app.fonts.wrap_lines(text, size, max(1, width)) or [""]
            self._wrapped[key] = rows
            if len(self._wrapped) > 2000:
                self._wrapped.popitem(last=False)
        return rows

    def wheel(self, dy: int) -> None:
        """The wheel over the log: up (``dy`` > 0) shows older lines."""
        self.scroll = max(0, min(self._total - self._rows, self.scroll + dy * WHEEL_ROWS))

    def to_newest(self) -> None:
        self.scroll = 0

    def draw(
        self,
        surface: pygame.Surface,
        app: App,
        rect: pygame.Rect,
        lines: Sequence[Any],
        seats: Sequence[Any],
        empty: str,
        outer: pygame.Rect | None = None,
    ) -> None:
        """The box (``outer``, by default ``rect``: a chat line may share it) and the lines
        that fit ``rect`` (``lines``: objects with ``seat``, ``text`` and ``chat``; ``seats``:
        what ``swatch(size, colour_blind)`` is called on for a line's seat)."""
        px = app.px
        self.rect = pygame.Rect(rect)
        draw_box(surface, outer or rect, pal.BG_PANEL, pal.BORDER, radius=px(8))
        inner = rect.inflate(-px(16), -px(10))
        if inner.width <= px(30) or inner.height <= 0:
            return
        size = px(13)
        line_h = app.fonts.line_height(size)
        rows = max(1, inner.height // line_h)
        text_x = inner.x + px(18)
        width = inner.right - text_x - px(6)
        if not lines:
            img = app.fonts.render(
                app.fonts.ellipsize(empty, size, inner.width), size, pal.TEXT_DISABLED
            )
            surface.blit(img, inner.topleft)
            self._total, self._rows, self.scroll = 0, rows, 0
            return
        wrapped = [self._wrap(app, line.text, size, width) for line in lines]
        total = sum(len(w) for w in wrapped)
        if self.scroll and len(lines) > self._seen:
            # New lines arrived while scrolled back: keep the rows in view where they are.
            self.scroll += sum(len(w) for w in wrapped[self._seen :])
        self._seen = len(lines)
        self._total, self._rows = total, rows
        self.scroll = max(0, min(total - rows, self.scroll))
        # The rows from the newest backwards: skip ``scroll`` rows, then fill the box.
        shown: list[tuple[Any, str, bool]] = []
        skip = self.scroll
        for line, parts in zip(reversed(lines), reversed(wrapped), strict=True):
            for j in range(len(parts) - 1, -1, -1):
                if skip:
                    skip -= 1
                    continue
                shown.append((line, parts[j], j == 0))
            if len(shown) >= rows:
                break
        shown = shown[:rows][::-1]
        y = inner.bottom - len(shown) * line_h
        for line, text, first in shown:
            seat = getattr(line, "seat", None)
            if first and isinstance(seat, int) and 0 <= seat < len(seats):
                sw = seats[seat].swatch(px(12), app.settings.colour_blind)
                surface.blit(sw, sw.get_rect(midleft=(inner.x, y + line_h // 2)))
            colour = CHAT_COLOUR if getattr(line, "chat", False) else pal.TEXT
            surface.blit(app.fonts.render(text, size, colour), (text_x, y))
            y += line_h
        if total > rows:
            bar_h = max(px(14), inner.height * rows // total)
            top = inner.bottom - bar_h - (inner.height - bar_h) * self.scroll // (total - rows)
            pygame.draw.rect(
                surface, pal.BORDER, (rect.right - px(6), top, px(3), bar_h), border_radius=2
            )
