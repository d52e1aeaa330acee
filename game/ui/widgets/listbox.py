"""A scrolling list of rows: discovered LAN tables, saved games, replays."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pygame

from game.ui import palette as pal
from game.ui.widgets.base import TextLike, Widget, draw_box, resolve

if TYPE_CHECKING:
    from game.ui.app import App


@dataclass
class ListItem:
    """One row: a title, an optional second line, and the value it stands for."""

    title: str
    detail: str = ""
    value: Any = None
    enabled: bool = True


class ListBox(Widget):
    """Rows that can be selected (click) and activated (double click or Enter)."""

    focusable = True

    def __init__(
        self,
        id: str,
        items: Sequence[ListItem] = (),
        *,
        on_select: Callable[[ListItem], None] | None = None,
        on_activate: Callable[[ListItem], None] | None = None,
        empty_text: TextLike = "",
        row_height: int = 48,
    ) -> None:
        super().__init__(id)
        self.items: list[ListItem] = list(items)
        self.on_select = on_select
        self.on_activate = on_activate
        self.empty_text = empty_text
        self.row_height = row_height
        self.selected: int | None = None
        self.scroll = 0
        self._last_click = (-1, 0)

    def set_items(self, items: Sequence[ListItem]) -> None:
        """Replace the rows, keeping the selection on the same value when it is still there."""
        old = self.selected_item
        self.items = list(items)
        self.selected = None
        if old is not None:
            for i, item in enumerate(self.items):
                if item.value == old.value:
                    self.selected = i
                    break
        self.scroll = min(self.scroll, self._max_scroll_rows())

    @property
    def selected_item(self) -> ListItem | None:
        if self.selected is None or not 0 <= self.selected < len(self.items):
            return None
        return self.items[self.selected]

    def _rows_visible(self, app: App | None = None) -> int:
        h = self._row_px
        return max(1, self.rect.height // max(1, h))

    _row_px = 48

    def _max_scroll_rows(self) -> int:
        return max(0, len(self.items) - self._rows_visible())

    def row_rect(self, index: int) -> pygame.Rect:
        """Where row ``index`` is drawn now (tests click there)."""
        y = self.rect.y + (index - self.scroll) * self._row_px
        return pygame.Rect(self.rect.x, y, self.rect.width, self._row_px)

    def select(self, index: int) -> None:
        if 0 <= index < len(self.items) and self.items[index].enabled:
            self.selected = index
            if self.on_select is not None:
                self.on_select(self.items[index])

    def handle(self, event: pygame.event.Event, app: App) -> bool:
        if not self.visible:
            return False
        self._row_px = app.px(self.row_height)
        if event.type == pygame.MOUSEWHEEL and self.hovered:
            self.scroll = max(0, min(self._max_scroll_rows(), self.scroll - event.y))
            return True
        if event.type == pygame.KEYDOWN and self.focused and self.items:
            if event.key == pygame.K_DOWN:
                self.select(min(len(self.items) - 1, (self.selected or 0) + 1))
                return True
            if event.key == pygame.K_UP:
                self.select(max(0, (self.selected or 0) - 1))
                return True
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.selected_item:
                if self.on_activate is not None:
                    self.on_activate(self.selected_item)
                return True
        return super().handle(event, app)

    def on_press(self, pos: tuple[int, int], app: App) -> None:
        app.set_focus(self)

    def on_click(self, pos: tuple[int, int], app: App) -> None:
        index = self.scroll + (pos[1] - self.rect.y) // max(1, self._row_px)
        if not 0 <= index < len(self.items):
            return
        now = pygame.time.get_ticks()
        double = self._last_click[0] == index and now - self._last_click[1] < 450
        self._last_click = (index, now)
        self.select(index)
        if double and self.on_activate is not None and self.items[index].enabled:
            self.on_activate(self.items[index])

    def draw(self, surface: pygame.Surface, app: App) -> None:
        if not self.visible:
            return
        self._row_px = app.px(self.row_height)
        draw_box(surface, self.rect, (22, 26, 34), pal.BORDER, radius=app.px(6))
        clip = surface.get_clip()
        surface.set_clip(
            self.rect.inflate(-2, -2).clip(clip) if clip else self.rect.inflate(-2, -2)
        )
        if not self.items:
            text = resolve(self.empty_text)
            if text:
                img = app.fonts.render(
                    text, app.px(15), pal.TEXT_DIM, wrap=self.rect.width - app.px(24)
                )
                surface.blit(
                    img, img.get_rect(midtop=(self.rect.centerx, self.rect.y + app.px(16)))
                )
        pad = app.px(12)
        for i in range(self.scroll, min(len(self.items), self.scroll + self._rows_visible() + 1)):
            item = self.items[i]
            r = self.row_rect(i)
            if i == self.selected:
                pygame.draw.rect(surface, (70, 60, 30), r.inflate(-4, -2), border_radius=app.px(5))
                pygame.draw.rect(surface, pal.ACCENT, r.inflate(-4, -2), 1, border_radius=app.px(5))
            elif self.hovered and r.collidepoint(pygame.mouse.get_pos()):
                pygame.draw.rect(surface, pal.BG_HOVER, r.inflate(-4, -2), border_radius=app.px(5))
            colour = pal.TEXT if item.enabled else pal.TEXT_DISABLED
            width = r.width - 2 * pad
            if item.detail:
                size = app.px(16)
                title = app.fonts.ellipsize(item.title, size, width)
                img = app.fonts.render(title, size, colour)
                surface.blit(img, (r.x + pad, r.y + app.px(4)))
                dsize = app.px(13)
                detail = app.fonts.ellipsize(item.detail, dsize, width)
                img = app.fonts.render(detail, dsize, pal.TEXT_DIM)
                surface.blit(img, (r.x + pad, r.bottom - img.get_height() - app.px(3)))
            else:
                size = app.px(16)
                img = app.fonts.render(app.fonts.ellipsize(item.title, size, width), size, colour)
                surface.blit(img, img.get_rect(midleft=(r.x + pad, r.centery)))
        surface.set_clip(clip)
        # A scroll bar when the rows do not fit.
        if len(self.items) > self._rows_visible():
            frac = self._rows_visible() / len(self.items)
            bar_h = max(app.px(20), int(self.rect.height * frac))
            top = self.rect.y + int(
                (self.rect.height - bar_h) * self.scroll / max(1, self._max_scroll_rows())
            )
            pygame.draw.rect(
                surface,
                pal.BORDER,
                (self.rect.right - app.px(6), top, app.px(4), bar_h),
                border_radius=2,
            )
