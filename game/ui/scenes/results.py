"""The results: who won, and every player's score broken down by category (a
:class:`~game.ui.widgets.ScoreTable`: up to 6 players and a dozen categories fit at 1024x640,
more scroll)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame

from game.ui import palette as pal
from game.ui.games.base import SeatInfo
from game.ui.i18n import t
from game.ui.scenes.common import PageScene
from game.ui.widgets import Button, ScoreTable

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
        play_again: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(app)
        self.result = result
        self.seats = seats
        self.categories = categories
        self.replay_path = replay_path
        self.play_again = play_again
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
        self.again_button = Button(
            "results_again",
            lambda: t("results.again"),
            self.again,
            tooltip=lambda: t("results.again.tip"),
        )
        self.again_button.visible = play_again is not None
        self.review_button = Button(
            "results_review",
            lambda: t("review.button"),
            self.open_review,
            tooltip=lambda: t("review.button.tip"),
            enabled=lambda: self.replay_path is not None,
        )
        self.add(self.review_button)
        self.add(self.menu_button)
        self.add(self.replay_button)
        self.add(self.again_button)
        scores = result.get("scores", [])
        if not isinstance(scores, list):
            scores = []
        if not categories and scores and isinstance(scores[0], dict):
            # A view that names no categories: the result's own, as they come.
            categories = [(str(k), str(k).replace("_", " ")) for k in scores[0] if k != "total"]
        self.table = ScoreTable(
            "score_table",
            seats,
            [s if isinstance(s, dict) else {} for s in scores],
            categories,
            [w for w in result.get("winners", []) if isinstance(w, int)],
            t("results.total"),
        )
        self.table.shown = 1
        self.add(self.table)
        self.appear = 0.0

    @property
    def order(self) -> list[int]:
        """The seats, best first."""
        return self.table.order

    def to_menu(self) -> None:
        from game.ui.scenes.menu import MenuScene

        self.app.reset(MenuScene(self.app))

    def again(self) -> None:
        """A new game with the same seats and options (a table hosted on this computer)."""
        if self.play_again is not None:
            self.play_again()

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

    def open_review(self) -> None:
        """The game review (:mod:`game.ui.scenes.review`) of this game's replay, starting with
        the seat played at this computer."""
        if self.replay_path is None:
            return
        from game.ui.scenes.review import ReviewScene, default_seat

        try:
            scene = ReviewScene(self.app, self.replay_path, default_seat(self.seats))
        except Exception as exc:
            self.app.toast(t("files.load_failed", error=str(exc)), "error")
            return
        self.app.push(scene)

    def layout(self, w: int, h: int) -> None:
        super().layout(w, h)
        px = self.app.px
        back = px(200)
        bw = min(px(220), (w - px(64) - px(20) * 4 - back - px(112)) // 4)
        x = w - px(32)
        for button in (self.menu_button, self.replay_button, self.review_button, self.again_button):
            x -= bw
            button.rect = pygame.Rect(x, h - px(72), bw, px(44))
            x -= px(20)
        self.back_button.rect.width = back
        self.help_button.rect.x = self.back_button.rect.right + px(12)
        area = self.content_rect()
        head_h = self.app.fonts.line_height(px(30), True) + px(12)
        self.table.columns[-1] = ("total", t("results.total"))
        self.table.rect = pygame.Rect(area.x, area.y + head_h, area.width, area.height - head_h)
        self.table.layout(self.app)
        # A narrow table (few categories) is centred, as wide as its columns need.
        _name, _col, header_h, row_h, total = self.table.metrics(self.app)
        width = min(area.width, total + px(12))
        height = min(self.table.rect.height, header_h + row_h * len(self.table.order) + px(16))
        self.table.rect = pygame.Rect(0, area.y + head_h, width, height)
        self.table.rect.centerx = area.centerx
        self.table.layout(self.app)

    def update(self, dt: float) -> None:
        super().update(dt)
        self.appear += dt
        self.table.shown = min(len(self.table.order), int(self.appear / 0.25) + 1)

    def on_key(self, event: pygame.event.Event) -> bool:
        """Arrow keys scroll a table too wide or too tall for the window."""
        step = self.app.px(60)
        moves = {
            pygame.K_LEFT: (-step, 0),
            pygame.K_RIGHT: (step, 0),
            pygame.K_UP: (0, -step),
            pygame.K_DOWN: (0, step),
        }
        if event.key in moves:
            self.table.scroll_by(*moves[event.key])
            return True
        return False

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
        text = self.winners_text()
        size = fonts.fit(text, px(30), area.width, True, minimum=px(18))
        head = fonts.render(fonts.ellipsize(text, size, area.width, True), size, pal.ACCENT, True)
        surface.blit(head, head.get_rect(midtop=(area.centerx, area.y)))
        super().draw_widgets(surface)
