"""A one-line text field (names, addresses), with IME composition for Japanese input."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from game.ui import palette as pal
from game.ui.widgets.base import TextLike, Widget, draw_box, resolve

if TYPE_CHECKING:
    from game.ui.app import App


#: Seconds within which a second click on the field is a double click (selects everything).
DOUBLE_CLICK = 0.4


class TextField(Widget):
    """Editable text.  Click to focus; type; Enter calls ``on_submit``.

    Characters arrive as ``TEXTINPUT`` events (so an input method can compose Japanese) and
    ``TEXTEDITING`` shows the text being composed.  ``allowed`` filters characters.

    A click puts the caret at the nearest gap between the characters under the pointer (the
    text scrolled as it is drawn), a drag selects, a double click or Ctrl+A selects everything;
    typing, pasting, Backspace and Delete replace or remove the selection; Shift with the
    arrows, Home and End extends it; Ctrl+C copies it.
    """

    focusable = True

    def __init__(
        self,
        id: str,
        text: str = "",
        *,
        placeholder: TextLike = "",
        max_length: int = 24,
        on_change: Callable[[str], None] | None = None,
        on_submit: Callable[[str], None] | None = None,
        allowed: Callable[[str], bool] | None = None,
        tooltip: TextLike | None = None,
        enabled: bool | Callable[[], bool] = True,
    ) -> None:
        super().__init__(id, tooltip=tooltip, enabled=enabled)
        self.text = text
        self.placeholder = placeholder
        self.max_length = max_length
        self.on_change = on_change
        self.on_submit = on_submit
        self.allowed = allowed
        self.caret = len(text)
        #: The other end of the selection (``None``: nothing selected).
        self.anchor: int | None = None
        self.composing = ""
        self._blink = 0.0
        #: How far the text is scrolled to the left (pixels, as last drawn).
        self._offset = 0
        self._last_press = -1e9
        self._dragging = False

    def set_text(self, text: str) -> None:
        self.text = text[: self.max_length]
        self.caret = len(self.text)
        self.anchor = None

    # ---- the selection -------------------------------------------------------------------------
    def selection(self) -> tuple[int, int]:
        """The selected characters ``[start, end)`` (empty: ``start == end``)."""
        if self.anchor is None:
            return (self.caret, self.caret)
        return (min(self.anchor, self.caret), max(self.anchor, self.caret))

    def selected_text(self) -> str:
        a, b = self.selection()
        return self.text[a:b]

    def select_all(self) -> None:
        self.anchor = 0
        self.caret = len(self.text)

    def _delete_selection(self) -> bool:
        a, b = self.selection()
        self.anchor = None
        if a == b:
            return False
        self.text = self.text[:a] + self.text[b:]
        self.caret = a
        return True

    def _move(self, caret: int, extend: bool) -> None:
        """Move the caret; with ``extend`` the selection grows from where it was."""
        if extend:
            if self.anchor is None:
                self.anchor = self.caret
        else:
            self.anchor = None
        self.caret = max(0, min(len(self.text), caret))
        if self.anchor == self.caret:
            self.anchor = None

    def index_at(self, x: int, app: App) -> int:
        """The gap between characters nearest to window x ``x`` (as the text is drawn)."""
        size = app.px(16)
        inner_x = self.rect.x + app.px(8)
        target = x - inner_x + self._offset
        best, best_d = 0, abs(target)
        for i in range(1, len(self.text) + 1):
            d = abs(app.fonts.size(self.text[:i], size)[0] - target)
            if d < best_d:
                best, best_d = i, d
        return best

    # ---- the mouse -----------------------------------------------------------------------------
    def on_press(self, pos: tuple[int, int], app: App) -> None:
        app.set_focus(self)
        now = app.time
        if now - self._last_press <= DOUBLE_CLICK:
            self.select_all()
            self._last_press = -1e9
            self._dragging = False
            return
        self._last_press = now
        self.anchor = None
        self.caret = self.index_at(pos[0], app)
        self._dragging = True

    def _insert(self, chars: str) -> None:
        if self.allowed is not None:
            chars = "".join(c for c in chars if self.allowed(c))
        chars = "".join(c for c in chars if c.isprintable())
        if not chars:
            return
        replaced = self._delete_selection()
        room = self.max_length - len(self.text)
        if room <= 0:
            if replaced:
                self._changed()
            return
        chars = chars[:room]
        self.text = self.text[: self.caret] + chars + self.text[self.caret :]
        self.caret += len(chars)
        self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self.text)

    def handle(self, event: pygame.event.Event, app: App) -> bool:
        if not self.visible:
            return False
        if self.focused and self.enabled:
            if event.type == pygame.TEXTINPUT:
                self.composing = ""
                self._insert(event.text)
                return True
            if event.type == pygame.TEXTEDITING:
                self.composing = event.text
                return True
            if event.type == pygame.KEYDOWN:
                return self._key(event, app)
            if event.type == pygame.MOUSEMOTION and self._dragging:
                # A drag selects from where the button went down.
                at = self.index_at(event.pos[0], app)
                if at != self.caret:
                    if self.anchor is None:
                        self.anchor = self.caret
                    self.caret = at
                    if self.anchor == self.caret:
                        self.anchor = None
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self._dragging = False
        return super().handle(event, app)

    def _key(self, event: pygame.event.Event, app: App) -> bool:
        k = event.key
        ctrl = bool(event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META))
        shift = bool(event.mod & pygame.KMOD_SHIFT)
        self._blink = 0.0
        if k == pygame.K_BACKSPACE:
            if self._delete_selection():
                self._changed()
            elif self.caret > 0:
                self.text = self.text[: self.caret - 1] + self.text[self.caret :]
                self.caret -= 1
                self._changed()
        elif k == pygame.K_DELETE:
            if self._delete_selection():
                self._changed()
            elif self.caret < len(self.text):
                self.text = self.text[: self.caret] + self.text[self.caret + 1 :]
                self._changed()
        elif k in (pygame.K_LEFT, pygame.K_RIGHT):
            a, b = self.selection()
            step = -1 if k == pygame.K_LEFT else 1
            if shift or a == b:
                self._move(self.caret + step, shift)
            else:  # a selection collapses to the side the arrow points to
                self._move(a if step < 0 else b, False)
        elif k == pygame.K_HOME:
            self._move(0, shift)
        elif k == pygame.K_END:
            self._move(len(self.text), shift)
        elif k == pygame.K_a and ctrl:
            self.select_all()
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER):
            app.set_focus(None)
            if self.on_submit is not None:
                self.on_submit(self.text)
        elif k in (pygame.K_ESCAPE, pygame.K_TAB):
            app.set_focus(None)
            return k == pygame.K_ESCAPE
        elif k == pygame.K_c and ctrl:
            self._copy()
        elif k == pygame.K_v and ctrl:
            try:
                pasted = pygame.scrap.get_text() if pygame.scrap.get_init() else ""
            except pygame.error:
                pasted = ""
            self._insert(pasted.replace("\n", " "))
        # Printable keys arrive as TEXTINPUT; swallow their KEYDOWN so no shortcut fires.
        return True

    def _copy(self) -> None:
        text = self.selected_text()
        if not text:
            return
        try:
            if pygame.scrap.get_init():
                pygame.scrap.put_text(text)
        except pygame.error:
            pass

    def update(self, dt: float, app: App) -> None:
        self._blink = (self._blink + dt) % 1.0

    def draw(self, surface: pygame.Surface, app: App) -> None:
        if not self.visible:
            return
        enabled = self.enabled
        border = pal.ACCENT if self.focused else (pal.BG_HOVER if self.hovered else pal.BORDER)
        draw_box(
            surface,
            self.rect,
            (22, 26, 34),
            border,
            radius=app.px(6),
            width=2 if self.focused else 1,
        )
        size = app.px(16)
        pad = app.px(8)
        clip = surface.get_clip()
        inner = self.rect.inflate(-2 * pad, -4)
        surface.set_clip(inner.clip(clip) if clip else inner)
        shown = self.text[: self.caret] + self.composing + self.text[self.caret :]
        if shown:
            colour = pal.TEXT if enabled else pal.TEXT_DISABLED
            img = app.fonts.render(shown, size, colour)
            caret_x = app.fonts.size(self.text[: self.caret] + self.composing, size)[0]
            offset = max(0, caret_x - inner.width + app.px(4))
            self._offset = offset
            a, b = self.selection()
            if self.focused and a != b and not self.composing:
                x0 = inner.x - offset + app.fonts.size(self.text[:a], size)[0]
                x1 = inner.x - offset + app.fonts.size(self.text[:b], size)[0]
                h = app.fonts.line_height(size)
                mark = pygame.Rect(x0, self.rect.centery - h // 2, max(1, x1 - x0), h)
                pygame.draw.rect(surface, pal.ACCENT_DARK, mark, border_radius=app.px(2))
            surface.blit(img, img.get_rect(midleft=(inner.x - offset, self.rect.centery)))
        else:
            caret_x, offset = 0, 0
            ph = resolve(self.placeholder)
            if ph and not self.focused:
                img = app.fonts.render(ph, size, pal.TEXT_DISABLED)
                surface.blit(img, img.get_rect(midleft=(inner.x, self.rect.centery)))
        if self.focused and self._blink < 0.55:
            x = inner.x + caret_x - offset
            caret_h = app.fonts.line_height(size) * 0.8
            pygame.draw.line(
                surface,
                pal.ACCENT,
                (x, self.rect.centery - caret_h / 2),
                (x, self.rect.centery + caret_h / 2),
                2,
            )
        surface.set_clip(clip)
