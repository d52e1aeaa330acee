"""Where a turn's actions are on a game's table: numbered rings drawn over a game view.

Each game's view package may have a ``review`` module with ``marks(view, actions) ->
list[Mark]``: for the actions of a turn, the shapes on its table that they chose — a hex of
Kingdom Builder's map, a Keyflower tile or village hex, a Glen More track space or territory
cell — in the view's own (window) coordinates, from where its last frame drew things.  A game
without one (the generic view) gets no rings: the two tables side by side still show what
changed.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pygame

from game.ui import palette as pal
from game.ui.games import VIEWS

if TYPE_CHECKING:
    from game.ui.app import App
    from game.ui.games.base import GameView

Point = tuple[float, float]


@dataclass
class Mark:
    """A ring around a polygon (``points``) or a rectangle (``rect``)."""

    points: list[Point] | None = None
    rect: pygame.Rect | None = None

    @classmethod
    def poly(cls, points: Sequence[Point]) -> Mark:
        return cls(points=[(float(x), float(y)) for x, y in points])

    @classmethod
    def box(cls, rect: Any) -> Mark:
        return cls(rect=pygame.Rect(rect))

    def centre(self) -> Point:
        if self.points:
            xs = [p[0] for p in self.points]
            ys = [p[1] for p in self.points]
            return (sum(xs) / len(xs), sum(ys) / len(ys))
        assert self.rect is not None
        return (float(self.rect.centerx), float(self.rect.centery))

    def top(self) -> float:
        if self.points:
            return min(p[1] for p in self.points)
        assert self.rect is not None
        return float(self.rect.top)


MarksOf = Callable[["GameView", list[tuple[Any, ...]]], list[Mark]]


def marks_for(game_id: str) -> MarksOf | None:
    """The game's ``marks`` function (``game/ui/games/<game>/review.py``), if it has one."""
    package = VIEWS.get(game_id)
    if package is None:
        return None
    try:
        module = importlib.import_module(f"{package}.review")
    except ModuleNotFoundError:
        return None
    fn: MarksOf | None = getattr(module, "marks", None)
    return fn


def draw_marks(
    surface: pygame.Surface, app: App, marks: list[Mark], colour: pal.RGB, ghost: bool
) -> None:
    """Numbered rings (1, 2, ... in the order of the turn); a *ghost* (the suggested turn) is
    filled translucent as well, so the suggestion reads as a shadow of a move."""
    width = max(3, app.px(4))
    dark = (20, 20, 28)
    for number, mark in enumerate(marks, 1):
        if ghost:
            layer = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
            if mark.points:
                pygame.draw.polygon(layer, (*colour, 90), mark.points)
            elif mark.rect is not None:
                pygame.draw.rect(layer, (*colour, 90), mark.rect, border_radius=app.px(6))
            surface.blit(layer, (0, 0))
        if mark.points:
            pygame.draw.polygon(surface, dark, mark.points, width + 2)
            pygame.draw.polygon(surface, colour, mark.points, width)
        elif mark.rect is not None:
            r = mark.rect.inflate(app.px(6), app.px(6))
            pygame.draw.rect(surface, dark, r, width + 2, border_radius=app.px(7))
            pygame.draw.rect(surface, colour, r, width, border_radius=app.px(7))
        cx, _cy = mark.centre()
        radius = app.px(11)
        centre = (int(cx), int(max(radius, mark.top() - radius * 0.4)))
        pygame.draw.circle(surface, dark, centre, radius + 2)
        pygame.draw.circle(surface, colour, centre, radius)
        label = app.fonts.render(str(number), app.px(14), pal.contrast(colour), True)
        surface.blit(label, label.get_rect(center=centre))
