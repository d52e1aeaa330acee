"""A one-line text field (names, addresses), with IME composition for Japanese input."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from game.ui import palette as pal
from game.ui.widgets.base import TextLike, Widget, draw_box, resolve

if TYPE_CHECKING:
    from game.ui.app import App


class TextField(Widget):
    """Editable text.  Click to focus; type; Enter calls ``on_submit``.

    Characters arrive as ``TEXTINPUT`` events (so an input method can compose Japanese) and
    ``TEXTEDITING`` shows the text being composed.  ``allowed`` filters characters.
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
        self.composing = ""
        self._blink = 0.0

    def set_text(self, text: str) -> None:
        self.text = text[: self.max_length]
        self.caret = len(self.text)

    def on_press(self, pos: tuple[int, int], app: App) -> None:
        app.set_focus(self)
        # Put the caret at the clicked character.
        size = app.px(16)
        x = pos[0] - (self.rect.x + app.px(8))
        best = len(self.text)
        for i in range(len(self.text) + 1):
            if app.fonts.size(self.text[:i], size)[0] >= x:
                best = i
                break
        self.caret = best

    def _insert(self, chars: str) -> None:
        if self.allowed is not None:
            chars = "".join(c for c in chars if self.allowed(c))
        chars = "".join(c for c in chars if c.isprintable())
        room = self.max_length - len(self.text)
        if room <= 0 or not chars:
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
        return super().handle(event, app)

    def _key(self, event: pygame.event.Event, app: App) -> bool:
        k = event.key
        self._blink = 0.0
        if k == pygame.K_BACKSPACE:
            if self.caret > 0:
                self.text = self.text[: self.caret - 1] + self.text[self.caret :]
                self.caret -= 1
                self._changed()
        elif k == pygame.K_DELETE:
            if self.caret < len(self.text):
                self.text = self.text[: self.caret] + self.text[self.caret + 1 :]
                self._changed()
        elif k == pygame.K_LEFT:
            self.caret = max(0, self.caret - 1)
        elif k == pygame.K_RIGHT:
            self.caret = min(len(self.text), self.caret + 1)
        elif k == pygame.K_HOME:
            self.caret = 0
        elif k == pygame.K_END:
            self.caret = len(self.text)
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER):
            app.set_focus(None)
            if self.on_submit is not None:
                self.on_submit(self.text)
        elif k in (pygame.K_ESCAPE, pygame.K_TAB):
            app.set_focus(None)
            return k == pygame.K_ESCAPE
        elif k == pygame.K_v and event.mod & pygame.KMOD_CTRL:
            try:
                pasted = pygame.scrap.get_text() if pygame.scrap.get_init() else ""
            except pygame.error:
                pasted = ""
            self._insert(pasted.replace("\n", " "))
        # Printable keys arrive as TEXTINPUT; swallow their KEYDOWN so no shortcut fires.
        return True

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
            surface.blit(img, img.get_rect(midleft=(inner.x - offset, self.rect.centery)))
        else:
            caret_x, offset = 0, 0
            ph = resolve(self.placeholder)
            if ph and not self.focused:
                img = app.fonts.render(ph, size, pal.TEXT_DISABLED)
                surface.blit(img, img.get_rect(midleft=(inner.x, self.rect.centery)))
        if self.focused and self._blink < 0.55:
            x = inner.x + caret_x - offset
            h = app.fonts.line_height(size) * 0.8
            pygame.draw.line(
                surface,
                pal.ACCENT,
                (x, self.rect.centery - h / 2),
                (x, self.rect.centery + h / 2),
                2,
            )
        surface.set_clip(clip)
