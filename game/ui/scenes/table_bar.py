"""The game scene's top bar: what to do now (the view's status and its seat marks), then from the
right Menu, Help, the view's own buttons (End turn, Stop, a composer's Confirm), Undo, Restart
turn and Hint — each as wide as its label needs, shrinking together on a narrow window.  The
view's buttons become widgets here; their actions are sent through the scene."""

from __future__ import annotations

import math
from functools import partial

import pygame

from game.ui import palette as pal
from game.ui.i18n import t
from game.ui.scenes.table_base import TableBase
from game.ui.widgets import Button


def _shrink(widths: list[int], room: int, floor: int) -> list[int]:
    """``widths`` scaled down together to fit ``room``, none below ``floor``: a button that
    would shrink below the floor keeps the floor and the others share what is left (when even
    the floors do not fit, every button gets its floor)."""
    pinned: set[int] = set()
    while True:
        flexible = [i for i in range(len(widths)) if i not in pinned]
        left = room - floor * len(pinned)
        total = sum(widths[i] for i in flexible)
        if not flexible or total <= 0 or left <= 0:
            return [
                floor if i in pinned else max(floor, min(w, floor)) for i, w in enumerate(widths)
            ]
        scale = min(1.0, left / total)
        newly = {i for i in flexible if widths[i] * scale < floor}
        if not newly:
            return [floor if i in pinned else int(w * scale) for i, w in enumerate(widths)]
        pinned |= newly


class TableBarMixin(TableBase):
    """The top bar of :class:`~game.ui.scenes.game.GameScene`."""

    def _layout_bar(self, w: int, bar_h: int) -> None:
        """The top bar's buttons from the right: menu, help, the view's buttons (in their
        order), undo, hint — each as wide as its label needs; the status text gets the rest.
        On a narrow window the buttons shrink (labels shrink or end in "...") so the status
        keeps at least a third of the bar."""
        px = self.app.px
        bh = px(38)
        y = (bar_h - bh) // 2
        row = [
            (self.menu_button, px(96)),
            (self.help_button, px(96)),
            *[
                (b, px(self.view_specs[b.id].width if b.id in self.view_specs else 96))
                for b in reversed(self.view_buttons)
            ],
            (self.undo_button, px(110)),
            (self.restart_button, px(110)),
            (self.hint_button, px(96)),
        ]
        row = [(b, m) for b, m in row if b.visible]
        widths = [max(m, min(px(260), self._button_width(b))) for b, m in row]
        gap = px(8)
        room = w - px(10) - max(px(260), w // 3) - gap * len(row)
        if sum(widths) > room > 0:
            widths = _shrink(widths, room, px(56))
        x = w - px(10)
        for (b, _minimum), bw in zip(row, widths, strict=True):
            x -= bw
            b.rect = pygame.Rect(x, y, bw, bh)
            x -= gap
        self.status_rect = pygame.Rect(px(14), 0, max(px(40), x - px(24)), bar_h)

    def _button_width(self, button: Button) -> int:
        from game.ui.widgets import resolve

        px = self.app.px
        fonts = self.app.fonts
        width = fonts.size(resolve(button.text), px(button.font_size), button.style == "primary")[0]
        if button.hint:
            width += fonts.size(resolve(button.hint), px(12))[0] + px(6)
        return width + px(24)

    def _sync_seat_buttons(self) -> None:
        """Undo and Restart turn belong to a seat in a running game: a spectator's table has
        neither, nor has a finished game."""
        wanted = self.shown is not None and self.client.game_over is None
        if wanted != self.undo_button.visible:
            self.undo_button.visible = wanted
            self.restart_button.visible = wanted
            self.layout(*self.size)

    def _sync_view_buttons(self) -> None:
        """The view's buttons as widgets (rebuilt, and the bar laid out again, only when their
        ids or labels change; whether each is enabled is asked when it is drawn)."""
        from game.ui.widgets import resolve

        playing = self.shown is not None and self.client.game_over is None
        specs = self.view.buttons() if playing else []
        self.view_specs = {b.id: b for b in specs}
        key = tuple((b.id, resolve(b.label), b.hint) for b in specs)
        if key == self._view_key:
            return
        self._view_key = key
        for b in self.view_buttons:
            self.widgets.remove(b)
        self.view_buttons = []
        for spec in specs:
            b = Button(
                spec.id,
                spec.label,
                partial(self.press_view_button, spec.id),
                hint=spec.hint or None,
                style="primary" if spec.primary else "normal",
                tooltip=spec.tooltip,
                enabled=partial(self._view_button_enabled, spec.id),
            )
            self.view_buttons.append(b)
            self.add(b)
        self.layout(*self.size)

    def press_view_button(self, button_id: str) -> None:
        """A click on one of the view's buttons: send its action, or run its own step."""
        spec = self.view_specs.get(button_id)
        if spec is None or not self._view_button_enabled(button_id):
            return
        action = spec.action
        if spec.on_click is not None:
            action = spec.on_click()
        if action is not None:
            self.act(action)

    def _view_button_enabled(self, button_id: str) -> bool:
        spec = self.view_specs.get(button_id)
        if spec is None or not spec.enabled:
            return False
        if spec.action is not None:
            return self._can_send() and spec.action in self.view.legal
        return True

    def _draw_button_hint(self, surface: pygame.Surface) -> None:
        """A hint that is a button's action (End turn, Stop): a ring around that button."""
        hint = self.view.hint
        if hint is None:
            return
        button = next(
            (
                b
                for b in self.view_buttons
                if b.id in self.view_specs and self.view_specs[b.id].action == hint
            ),
            None,
        )
        if button is None or not button.visible:
            return
        grow = 6 + int(4 * abs(math.sin(self.app.time * 4.0)))
        pygame.draw.rect(
            surface, pal.HINT, button.rect.inflate(grow, grow), 3, border_radius=self.app.px(10)
        )

    def _draw_bar(self, surface: pygame.Surface) -> None:
        pygame.draw.rect(surface, pal.BG_PANEL, self.bar)
        pygame.draw.line(surface, pal.BORDER, self.bar.bottomleft, self.bar.bottomright)
        text = self.view.status()
        if self.shown is not None and self.shown in self.client.busy:
            text = t("game.sending")
        if self.client.waiting and not self.client.game_over:
            names = ", ".join(str(w.get("name") or "?") for w in self.client.waiting)
            seats = self.client.lobby.get("seats", []) if self.client.lobby else []
            human_wait = any(
                0 <= int(w.get("seat", -1)) < len(seats)
                and seats[int(w["seat"])].get("kind") != "bot"
                for w in self.client.waiting
            )
            if human_wait and not any(
                w.get("seat") in self.client.local_seats for w in self.client.waiting
            ):
                text = t("game.waiting_for", names=names)
        # The view marks whose turn it is (several seats in a simultaneous phase).
        self.view.draw_status(surface, self.status_rect, text)
