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


#: Design pixels a button's label shrinks to before its key hint goes, then the label is cut.
MIN_LABEL = 11


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
        #: Whether the key hint is drawn (a crowded bar leaves the keys out).
        self.keys = True

    @property
    def selected(self) -> bool:
        s = self._selected
        return bool(s()) if callable(s) else bool(s)

    def label_layout(self, app: App) -> tuple[str, int, bool]:
        """The label as drawn, its size and whether the key hint is drawn beside it: the label
        shrinks (down to :data:`MIN_LABEL` design pixels) next to its hint; when even that does
        not fit the hint is left out (it stays in the tooltip and the help), and only a label
        that does not fit alone ends in "..."."""
        fonts = app.fonts
        label = resolve(self.text)
        hint = resolve(self.hint) if self.keys else ""
        bold = self.style == "primary"
        size = app.px(self.font_size)
        minimum = min(size, max(9, app.px(MIN_LABEL)))
        avail = max(10, self.rect.width - 2 * app.px(10))
        if hint:
            room = avail - fonts.size(hint, app.px(12))[0] - app.px(6)
            fitted = fonts.fit(label, size, max(10, room), bold=bold, minimum=minimum)
            if fonts.size(label, fitted, bold)[0] <= room:
                return label, fitted, True
        fitted = fonts.fit(label, size, avail, bold=bold, minimum=minimum)
        return fonts.ellipsize(label, fitted, avail, bold=bold), fitted, False

    def label_cut(self, app: App) -> bool:
        """Whether the label ends in "..." at the button's size."""
        return self.label_layout(app)[0] != resolve(self.text)

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
        label, size, with_hint = self.label_layout(app)
        bold = self.style == "primary"
        img = app.fonts.render(label, size, fg, bold=bold)
        hint_img = None
        if with_hint:
            hint_colour = pal.TEXT_DIM if enabled else fg
            if enabled and (self.style == "primary" or sum(fill) > 380):
                # A light (primary) button: a dark hint reads better.
                hint_colour = (90, 62, 16)
            hint_img = app.fonts.render(resolve(self.hint), app.px(12), hint_colour)
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
