"""The score table of the results: one row per player (best first), one column per scoring
category, then the total — for any game, from 2 players and 3 categories to 6 players and a
dozen categories, in any language, at any window size.

Columns share the width left by the name column (at most :data:`COL_MAX` each); a category's name
wraps onto up to three lines and shrinks to fit its column.  When even the narrowest columns do
not fit, the names stay put and the categories scroll sideways (mouse wheel over the table with
Shift or a sideways wheel, or the arrow keys of the results scene); when the rows do not fit,
they scroll up and down.  Nothing is drawn outside the widget's rectangle, and the mouse over a
shortened name shows it whole.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pygame

from game.ui import palette as pal
from game.ui.widgets.base import Widget

if TYPE_CHECKING:
    from game.ui.app import App
    from game.ui.games.base import SeatInfo

#: Design pixels: the widest and narrowest category column, the name column's range, rows.
COL_MAX = 130
COL_MIN = 62
#: The category columns' width when they scroll sideways anyway.
COL_SCROLL = 96
NAME_MAX = 260
NAME_MIN = 130
ROW_MAX = 50
ROW_MIN = 34
HEADER_LINES = 3


@dataclass
class Cell:
    """Where the last frame drew one cell: ``kind`` is "header", "name" or "value"."""

    rect: pygame.Rect
    kind: str
    key: str
    seat: int | None
    text: str
    shortened: bool = False


class ScoreTable(Widget):
    """Scores by category for every seat (see the module docstring)."""

    def __init__(
        self,
        id: str,
        seats: list[SeatInfo],
        scores: list[dict[str, Any]],
        categories: list[tuple[str, str]],
        winners: list[int],
        total_label: str,
    ) -> None:
        super().__init__(id)
        self.seats = seats
        self.scores = scores
        self.columns = [*categories, ("total", total_label)]
        self.winners = set(winners)
        self.order = sorted(range(len(scores)), key=lambda s: -_int(scores[s].get("total", 0)))
        #: How many rows are shown (the results appear one by one).
        self.shown = len(self.order)
        self.scroll_x = 0
        self.scroll_y = 0
        self.max_x = 0
        self.max_y = 0
        self.cells: list[Cell] = []
        self.mouse = (-1, -1)
        self.tooltip = self._tooltip

    # ---- geometry ----------------------------------------------------------------------------
    def metrics(self, app: App) -> tuple[int, int, int, int, int]:
        """(name column, category column, header height, row height, total table width)."""
        px = app.px
        fonts = app.fonts
        w = self.rect.width - px(12)
        names = [self._label(s) for s in self.order]
        name_need = max((fonts.size(n, px(18), True)[0] for n in names), default=0) + px(60)
        name_w = max(px(NAME_MIN), min(px(NAME_MAX), name_need))
        n = len(self.columns)
        col_w = min(px(COL_MAX), max(px(COL_MIN), (w - name_w) // max(1, n)))
        if name_w + n * col_w > w:
            # Not even narrow columns fit: the name column gives way first (to its minimum);
            # if that is not enough the categories scroll, in columns wide enough to read.
            name_w = max(px(NAME_MIN), w - n * col_w)
            if name_w + n * col_w > w:
                name_w = max(px(NAME_MIN), min(px(NAME_MAX), name_need, w // 4))
                col_w = px(COL_SCROLL)
        header_h = fonts.line_height(px(13), True) * HEADER_LINES + px(12)
        rows = max(1, len(self.order))
        row_h = max(px(ROW_MIN), min(px(ROW_MAX), (self.rect.height - header_h - px(8)) // rows))
        return name_w, col_w, header_h, row_h, name_w + n * col_w

    def layout(self, app: App) -> None:
        """Fix the scroll limits for the current rectangle (call after setting ``rect``)."""
        _name_w, _col_w, header_h, row_h, total = self.metrics(app)
        px = app.px
        self.max_x = max(0, total - (self.rect.width - px(12)))
        self.max_y = max(0, header_h + row_h * len(self.order) + px(8) - self.rect.height)
        self.scroll_x = min(self.scroll_x, self.max_x)
        self.scroll_y = min(self.scroll_y, self.max_y)

    def scroll_by(self, dx: int, dy: int) -> bool:
        """Scroll sideways / up and down; True if the view moved."""
        before = (self.scroll_x, self.scroll_y)
        self.scroll_x = max(0, min(self.max_x, self.scroll_x + dx))
        self.scroll_y = max(0, min(self.max_y, self.scroll_y + dy))
        return (self.scroll_x, self.scroll_y) != before

    # ---- events ------------------------------------------------------------------------------
    def handle(self, event: pygame.event.Event, app: App) -> bool:
        if not self.visible:
            return False
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            self.hovered = self.rect.collidepoint(event.pos)
            return False
        if event.type == pygame.MOUSEWHEEL and self.rect.collidepoint(app.mouse):
            step = app.px(60)
            sideways = bool(pygame.key.get_mods() & pygame.KMOD_SHIFT) or self.max_y == 0
            dx = -event.x * step
            dy = 0
            if sideways:
                dx -= event.y * step
            else:
                dy = -event.y * step
            self.scroll_by(dx, dy)
            return True
        return False

    def _tooltip(self) -> str:
        for cell in self.cells:
            if cell.shortened and cell.rect.collidepoint(self.mouse):
                return cell.text
        return ""

    # ---- drawing -----------------------------------------------------------------------------
    def _label(self, seat: int) -> str:
        name = self.seats[seat].name if 0 <= seat < len(self.seats) else f"#{seat + 1}"
        return f"{self.order.index(seat) + 1}. {name}"

    def draw(self, surface: pygame.Surface, app: App) -> None:
        if not self.visible or self.rect.width <= 0 or self.rect.height <= 0:
            return
        self.layout(app)
        px = app.px
        fonts = app.fonts
        rect = self.rect
        pygame.draw.rect(surface, pal.BG_PANEL, rect, border_radius=px(10))
        pygame.draw.rect(surface, pal.BORDER, rect, 1, border_radius=px(10))
        name_w, col_w, header_h, row_h, _total = self.metrics(app)
        inner = rect.inflate(-px(12), -px(8))
        self.cells = []
        clip = surface.get_clip()
        # Category columns scroll under a fixed name column; rows under a fixed header.
        cols_area = pygame.Rect(inner.x + name_w, inner.y, inner.width - name_w, inner.height)
        rows_area = pygame.Rect(inner.x, inner.y + header_h, inner.width, inner.height - header_h)
        x0 = cols_area.x - self.scroll_x
        # Header.
        surface.set_clip(cols_area.clip(clip))
        for i, (key, label) in enumerate(self.columns):
            cell = pygame.Rect(x0 + i * col_w, inner.y, col_w, header_h)
            if cell.right < cols_area.x or cell.x > cols_area.right:
                continue
            shortened = self._draw_header(surface, app, cell.inflate(-px(6), -px(6)), label)
            self.cells.append(Cell(cell.clip(cols_area), "header", key, None, label, shortened))
        surface.set_clip(clip)
        # Rows.
        scores = self.scores
        y = rows_area.y - self.scroll_y
        for seat in self.order[: self.shown]:
            row = pygame.Rect(inner.x, y, inner.width, row_h - px(4))
            y += row_h
            if row.bottom < rows_area.y or row.y > rows_area.bottom:
                continue
            surface.set_clip(rows_area.clip(clip))
            if seat in self.winners:
                pygame.draw.rect(surface, (70, 60, 30), row, border_radius=px(8))
                pygame.draw.rect(surface, pal.ACCENT, row, 1, border_radius=px(8))
            # The name column.
            x = row.x + px(6)
            if 0 <= seat < len(self.seats):
                sw = self.seats[seat].swatch(px(22), app.settings.colour_blind)
                surface.blit(sw, sw.get_rect(midleft=(x, row.centery)))
            x += px(30)
            label = self._label(seat)
            avail = inner.x + name_w - px(6) - x
            size = fonts.fit(label, px(18), avail, True, minimum=px(13))
            text = fonts.ellipsize(label, size, avail, True)
            img = fonts.render(text, size, pal.TEXT, True)
            surface.blit(img, img.get_rect(midleft=(x, row.centery)))
            name_cell = pygame.Rect(inner.x, row.y, name_w, row.height).clip(rows_area)
            self.cells.append(Cell(name_cell, "name", "", seat, label, text != label))
            # The values.
            surface.set_clip(rows_area.clip(cols_area).clip(clip))
            values = scores[seat] if seat < len(scores) else {}
            for i, (key, _label) in enumerate(self.columns):
                cell = pygame.Rect(x0 + i * col_w, row.y, col_w, row.height)
                if cell.right < cols_area.x or cell.x > cols_area.right:
                    continue
                total = key == "total"
                value = str(values.get(key, 0))
                size = fonts.fit(value, px(22 if total else 18), col_w - px(8), total, px(11))
                img = fonts.render(value, size, pal.ACCENT if total else pal.TEXT, total)
                surface.blit(img, img.get_rect(center=cell.center))
                visible = cell.clip(cols_area).clip(rows_area)
                self.cells.append(Cell(visible, "value", key, seat, value))
        surface.set_clip(clip)
        self._draw_scrollbars(surface, app, cols_area, rows_area)

    def _draw_header(
        self, surface: pygame.Surface, app: App, cell: pygame.Rect, label: str
    ) -> bool:
        """A category's name in its column: wrapped onto up to three lines, as large as fits
        (down to a minimum, then shortened with "..."); True when it had to be shortened."""
        px = app.px
        fonts = app.fonts
        size = px(15)

        def wrap(size: int) -> list[str]:
            # Lines break between words, or anywhere in Japanese; never inside a Latin word.
            if " " in label or all(ord(ch) >= 0x2E80 for ch in label):
                return fonts.wrap_lines(label, size, cell.width, True)
            return [label]

        while size > px(11):
            lines = wrap(size)
            if (
                len(lines) <= HEADER_LINES
                and len(lines) * fonts.line_height(size, True) <= cell.height
                and all(fonts.size(line, size, True)[0] <= cell.width for line in lines)
            ):
                break
            size -= 1
        line_h = fonts.line_height(size, True)
        lines = wrap(size)
        max_lines = max(1, min(HEADER_LINES, cell.height // max(1, line_h)))
        shortened = len(lines) > max_lines
        if shortened:
            lines = lines[:max_lines]
            lines[-1] = lines[-1] + " ..."
        shown = [fonts.ellipsize(line, size, cell.width, True) for line in lines]
        shortened = shortened or shown != lines
        top = cell.centery - len(shown) * line_h // 2
        for i, line in enumerate(shown):
            img = fonts.render(line, size, pal.TEXT_DIM, True)
            surface.blit(img, img.get_rect(midtop=(cell.centerx, top + i * line_h)))
        return shortened

    def _draw_scrollbars(
        self, surface: pygame.Surface, app: App, cols: pygame.Rect, rows: pygame.Rect
    ) -> None:
        px = app.px
        if self.max_x > 0:
            track = pygame.Rect(cols.x, self.rect.bottom - px(6), cols.width, px(4))
            frac = cols.width / (cols.width + self.max_x)
            bar_w = max(px(24), int(track.width * frac))
            left = track.x + int((track.width - bar_w) * self.scroll_x / self.max_x)
            pygame.draw.rect(
                surface, pal.ACCENT_DARK, (left, track.y, bar_w, track.height), border_radius=2
            )
            # A hint that more columns are there.
            if self.scroll_x < self.max_x:
                _arrow(surface, (cols.right - px(8), cols.y + px(10)), px(6), 1)
            if self.scroll_x > 0:
                _arrow(surface, (cols.x + px(8), cols.y + px(10)), px(6), -1)
        if self.max_y > 0:
            track = pygame.Rect(self.rect.right - px(6), rows.y, px(4), rows.height)
            frac = rows.height / (rows.height + self.max_y)
            bar_h = max(px(24), int(track.height * frac))
            top = track.y + int((track.height - bar_h) * self.scroll_y / self.max_y)
            pygame.draw.rect(
                surface, pal.ACCENT_DARK, (track.x, top, track.width, bar_h), border_radius=2
            )


def _arrow(surface: pygame.Surface, at: tuple[int, int], size: int, direction: int) -> None:
    x, y = at
    pts = [
        (x + direction * size, y),
        (x - direction * size, y - size),
        (x - direction * size, y + size),
    ]
    pygame.draw.polygon(surface, pal.ACCENT, pts)


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0
