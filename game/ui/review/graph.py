"""The review's graph: every seat's margin over its strongest rival after every turn.

One line per seat in its colour (the reviewed seat's drawn thicker), the zero line where the
lead changes hands, and the reviewed seat's turning points as numbered markers on its line —
the selected one ringed.  The x axis is the game's steps (actions), so the graph lines up with
the replay's progress bar; the y axis is symmetric around zero and at least one ``scale`` (a
decisive margin) high.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from game.ui import palette as pal
from game.ui.games.base import SeatInfo
from game.ui.i18n import t

if TYPE_CHECKING:
    from game.ui.app import App


class Graph:
    """Draws a review's graph into a rect and maps clicks on it back to turning points."""

    def __init__(self, review: dict[str, Any], seats: list[SeatInfo]) -> None:
        self.review = review
        self.seats = seats
        graph = review["graph"]
        self.steps: list[int] = graph["steps"]
        self.rows: list[list[float]] = graph["margins"]
        self.last = max(1, self.steps[-1] if self.steps else 1)
        top = max((abs(m) for row in self.rows for m in row), default=0.0)
        self.top = max(float(review.get("scale") or 1.0), top) * 1.1
        self.rect = pygame.Rect(0, 0, 0, 0)
        #: (turning point number, centre) as last drawn.
        self.points: list[tuple[int, tuple[int, int]]] = []

    def _xy(self, step: float, value: float) -> tuple[int, int]:
        r = self.rect
        x = r.x + int(r.width * step / self.last)
        y = r.centery - int(r.height / 2 * value / self.top)
        return (x, max(r.y, min(r.bottom, y)))

    def value_at(self, seat: int, step: int) -> float:
        """``seat``'s margin at the last point at or before ``step``."""
        value = 0.0
        for s, row in zip(self.steps, self.rows, strict=True):
            if s > step:
                break
            value = row[seat]
        return value

    def draw(
        self, surface: pygame.Surface, rect: pygame.Rect, app: App, selected: int | None
    ) -> None:
        px = app.px
        fonts = app.fonts
        self.rect = rect.inflate(-px(16), -px(28))
        self.rect.y = rect.y + px(8)
        r = self.rect
        pygame.draw.rect(surface, pal.BG_PANEL, rect, border_radius=px(8))
        pygame.draw.rect(surface, pal.BORDER, rect, 1, border_radius=px(8))
        pygame.draw.line(surface, pal.TEXT_DIM, (r.x, r.centery), (r.right, r.centery), 1)
        ahead = fonts.render(t("review.graph.ahead"), px(12), pal.TEXT_DIM)
        behind = fonts.render(t("review.graph.behind"), px(12), pal.TEXT_DIM)
        surface.blit(ahead, (r.x + px(4), r.y))
        surface.blit(behind, (r.x + px(4), r.bottom - behind.get_height()))
        seat = int(self.review["seat"])
        order = [s for s in range(len(self.seats)) if s != seat] + [seat]
        blind = app.settings.colour_blind
        for s in order:
            if s >= len(self.seats):
                continue
            points = [
                self._xy(step, row[s]) for step, row in zip(self.steps, self.rows, strict=True)
            ]
            if len(points) >= 2:
                width = px(4) if s == seat else px(2)
                pygame.draw.lines(surface, self.seats[s].rgb(blind), False, points, width)
        turns = {t_["number"]: t_ for t_ in self.review["turns"]}
        self.points = []
        for rank, number in enumerate(self.review["turning_points"], 1):
            turn = turns[number]
            centre = self._xy(turn["step"], self.value_at(seat, turn["step"]))
            radius = px(10)
            colour = pal.HINT if number == selected else pal.ACCENT
            pygame.draw.circle(surface, (20, 20, 28), centre, radius + 2)
            pygame.draw.circle(surface, colour, centre, radius)
            label = fonts.render(str(rank), px(13), (20, 20, 28), True)
            surface.blit(label, label.get_rect(center=centre))
            self.points.append((number, centre))
        caption = fonts.render(t("review.graph.caption"), px(12), pal.TEXT_DIM)
        surface.blit(caption, caption.get_rect(midbottom=(rect.centerx, rect.bottom - px(3))))

    def point_at(self, pos: tuple[int, int], app: App) -> int | None:
        """The turning point whose marker is at ``pos`` (its turn number), or None."""
        reach = app.px(14)
        for number, (x, y) in self.points:
            if abs(pos[0] - x) <= reach and abs(pos[1] - y) <= reach:
                return number
        return None
