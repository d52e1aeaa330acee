"""The results: who won, and every player's score broken down by category."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from game.ui import palette as pal
from game.ui.games.base import SeatInfo
from game.ui.i18n import t
from game.ui.scenes.common import PageScene, panel
from game.ui.widgets import Button

if TYPE_CHECKING:
    from game.ui.app import App


class ResultsScene(PageScene):
    """The ``game_over`` result as a table: one row per player (best first), one column per
    scoring category, then the total."""

    name = "results"
    help_topic = "results"

    def __init__(
        self,
        app: App,
        result: dict[str, Any],
        seats: list[SeatInfo],
        categories: list[tuple[str, str]],
        replay_path: str | None = None,
    ) -> None:
        super().__init__(app)
        self.result = result
        self.seats = seats
        self.categories = categories
        self.replay_path = replay_path
        self.title = lambda: t("results.title")
        self.back_button.text = lambda: t("results.board")
        self.menu_button = Button(
            "results_menu", lambda: t("results.menu"), self.to_menu, style="primary"
        )
        self.replay_button = Button(
            "results_replay",
            lambda: t("results.replay"),
            self.watch_replay,
            enabled=lambda: self.replay_path is not None,
        )
        self.add(self.menu_button)
        self.add(self.replay_button)
        scores = result.get("scores", [])
        self.order = sorted(range(len(scores)), key=lambda s: -int(scores[s].get("total", 0)))
        self.appear = 0.0

    def to_menu(self) -> None:
        from game.ui.scenes.menu import MenuScene

        self.app.reset(MenuScene(self.app))

    def watch_replay(self) -> None:
        if self.replay_path is None:
            return
        from game.ui.scenes.replay import ReplayScene

        try:
            scene = ReplayScene(self.app, self.replay_path)
        except Exception as exc:
            self.app.toast(t("files.load_failed", error=str(exc)), "error")
            return
        self.app.push(scene)

    def layout(self, w: int, h: int) -> None:
        super().layout(w, h)
        px = self.app.px
        self.menu_button.rect = pygame.Rect(w - px(32) - px(240), h - px(72), px(240), px(44))
        self.replay_button.rect = pygame.Rect(w - px(32) - px(500), h - px(72), px(240), px(44))
        self.back_button.rect.width = px(220)
        self.help_button.rect.x = self.back_button.rect.right + px(12)

    def update(self, dt: float) -> None:
        super().update(dt)
        self.appear += dt

    def winners_text(self) -> str:
        winners = [self._name(s) for s in self.result.get("winners", [])]
        if len(winners) == 1:
            return t("results.winner", name=winners[0])
        return t("results.shared", names=", ".join(winners))

    def _name(self, seat: int) -> str:
        if 0 <= seat < len(self.seats):
            return self.seats[seat].name
        return f"#{seat + 1}"

    def draw_widgets(self, surface: pygame.Surface) -> None:
        px = self.app.px
        fonts = self.app.fonts
        area = self.content_rect()
        scores = self.result.get("scores", [])
        winners = set(self.result.get("winners", []))
        head = fonts.render(self.winners_text(), px(30), pal.ACCENT, bold=True)
        surface.blit(head, head.get_rect(midtop=(area.centerx, area.y)))
        cols = [*self.categories, ("total", t("results.total"))]
        table = pygame.Rect(area.x, area.y + head.get_height() + px(20), area.width, 0)
        row_h = px(50)
        table.height = row_h * (len(self.order) + 1) + px(24)
        table.width = min(area.width, px(260) + px(130) * len(cols))
        table.centerx = area.centerx
        panel(surface, table, self.app)
        name_w = table.width - px(130) * len(cols) - px(20)
        col_w = px(130)
        y = table.y + px(12)
        x0 = table.x + px(14)
        for i, (_key, label) in enumerate(cols):
            cx = x0 + name_w + i * col_w + col_w // 2
            size = fonts.fit(label, px(15), col_w - px(8), True)
            img = fonts.render(
                fonts.ellipsize(label, size, col_w - px(8), True), size, pal.TEXT_DIM, True
            )
            surface.blit(img, img.get_rect(center=(cx, y + row_h // 2)))
        y += row_h
        shown = min(len(self.order), int(self.appear / 0.25) + 1)
        for rank, seat in enumerate(self.order[:shown]):
            row = pygame.Rect(table.x + px(6), y, table.width - px(12), row_h - px(6))
            if seat in winners:
                pygame.draw.rect(surface, (70, 60, 30), row, border_radius=px(8))
                pygame.draw.rect(surface, pal.ACCENT, row, 1, border_radius=px(8))
            info = self.seats[seat] if seat < len(self.seats) else None
            x = x0
            if info is not None:
                sw = info.swatch(px(24), self.app.settings.colour_blind)
                surface.blit(sw, sw.get_rect(midleft=(x, row.centery)))
            x += px(34)
            label = f"{rank + 1}. {self._name(seat)}"
            img = fonts.render(
                fonts.ellipsize(label, px(18), name_w - px(40), True), px(18), pal.TEXT, True
            )
            surface.blit(img, img.get_rect(midleft=(x, row.centery)))
            for i, (key, _label) in enumerate(cols):
                value = scores[seat].get(key, 0) if seat < len(scores) else 0
                cx = x0 + name_w + i * col_w + col_w // 2
                colour = pal.ACCENT if key == "total" else pal.TEXT
                img = fonts.render(
                    str(value), px(22 if key == "total" else 18), colour, key == "total"
                )
                surface.blit(img, img.get_rect(center=(cx, row.centery)))
            y += row_h
        super().draw_widgets(surface)
