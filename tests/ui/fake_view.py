"""A game view for the framework tests whose table is not Kingdom Builder's: a wide board
across the top (like Keyflower's auction row), one small grid per seat under it, the side panel
and the log at the bottom right — it lays itself out, marks every seat in ``to_move`` and
names its own buttons."""

from __future__ import annotations

from typing import Any

import pygame

from game.ui import palette as pal
from game.ui.games.base import Action, GameView, LogLine, Regions, ViewButton


class WideView(GameView):
    """Draws rectangles where its layout put things; a click on grid ``i`` picks ``i``."""

    game_id = "wide-test"

    def __init__(self, app: Any, seats: Any) -> None:
        super().__init__(app, seats)
        self.grids: list[pygame.Rect] = []
        self.status_drawn: list[int] = []

    def layout(self, area: pygame.Rect, log_height: int) -> Regions:
        px = self.app.px
        gap = px(8)
        board = pygame.Rect(area.x, area.y, area.width, area.height // 3)
        below = area.height - board.height - gap
        panel_w = px(300)
        grids_w = area.width - panel_w - gap
        n = max(1, len(self.seats))
        self.grids = [
            pygame.Rect(area.x + i * grids_w // n, board.bottom + gap, grids_w // n - gap, below)
            for i in range(n)
        ]
        panel = pygame.Rect(
            area.right - panel_w, board.bottom + gap, panel_w, below - log_height - gap
        )
        log = pygame.Rect(panel.x, panel.bottom + gap, panel_w, log_height)
        self.board_rect, self.panel_rect = board, panel
        return Regions(board, panel, log)

    def set_view(
        self, view: dict[str, Any], legal: list[Action], events: list[dict[str, Any]]
    ) -> None:
        self.view = view
        self.legal = [tuple(a) for a in legal]

    def draw(self, surface: pygame.Surface) -> None:
        pygame.draw.rect(surface, pal.BG_PANEL, self.board_rect)
        for i, rect in enumerate(self.grids):
            colour = pal.HIGHLIGHT if ("pick", i) in self.legal else pal.BORDER
            pygame.draw.rect(surface, colour, rect, 2)

    def draw_status(self, surface: pygame.Surface, rect: pygame.Rect, text: str) -> None:
        self.status_drawn = self.active_seats()
        super().draw_status(surface, rect, text)

    def click(self, pos: tuple[int, int]) -> Action | None:
        for i, rect in enumerate(self.grids):
            if rect.collidepoint(pos) and ("pick", i) in self.legal:
                return ("pick", i)
        return None

    def status(self) -> str:
        return "Choose a grid" if self.legal else "Waiting"

    def buttons(self) -> list[ViewButton]:
        return [
            ViewButton("pass", "Pass", ("pass",), enabled=("pass",) in self.legal),
            ViewButton("done", "Done", ("done",), hint="Enter", primary=True),
        ]

    def describe_event(self, event: dict[str, Any]) -> LogLine | None:
        return LogLine(event.get("seat"), str(event.get("type")))

    def score_categories(self) -> list[tuple[str, str]]:
        return [("points", "Points")]


VIEW = WideView
