"""The table after the turn played and after the turn suggested, side by side.

Both are drawn by the game's own view (the same table the player saw), from the reviewed
seat's view of the position: the position before the turn with the seat's own actions of the
turn applied, and the same position with the suggested turn applied instead, as far as it
applies to the real game (a suggestion found in a sampled world stops where the real game
would have drawn differently).  Each table is drawn once at the window's size into its own
picture, its turn's actions ringed (:mod:`game.ui.review.marks`; the suggestion as a ghost),
and shown scaled into its half of the scene.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from game.core.api import GameState
from game.core.types import GameError
from game.ui import palette as pal
from game.ui.games import view_class
from game.ui.games.base import GameView, SeatInfo
from game.ui.i18n import t
from game.ui.review.marks import Mark, draw_marks, marks_for

if TYPE_CHECKING:
    from game.ui.app import App

Action = tuple[Any, ...]


def play_out(before: GameState, seat: int, actions: list[Action]) -> tuple[GameState, int]:
    """``before`` (copied) with ``seat``'s ``actions`` applied as long as they are legal;
    returns the position and how many applied."""
    state = before.clone()
    done = 0
    for action in actions:
        try:
            state.apply(seat, action)
        except GameError:
            break
        done += 1
    return state, done


def describe_turn(view: GameView, before: GameState, seat: int, actions: list[Action]) -> str:
    """``seat``'s ``actions`` in words of the player's language, each described by ``view`` in
    the position it was taken in (a Glen More ``take`` names the tile still on the track)."""
    state = before.clone()
    parts = []
    for action in actions:
        view.set_turn(list(state.to_move()), state.turn_id())
        view.set_view(state.view(seat), state.legal_actions(seat), [])
        parts.append(view.describe_action(action))
        try:
            state.apply(seat, action)
        except GameError:
            break
    view.finish_animations()
    return t("review.then").join(p for p in parts if p)


class TurnBoards:
    """The two tables of one turning point (see the module docstring)."""

    def __init__(
        self,
        app: App,
        game_id: str,
        seats: list[SeatInfo],
        seat: int,
        before: GameState,
        made: list[Action],
        best: list[Action],
    ) -> None:
        self.app = app
        self.game_id = game_id
        self.seat = seat
        self.turns: list[tuple[GameState, list[Action]]] = []
        for actions in (made, best):
            state, done = play_out(before, seat, actions)
            self.turns.append((state, actions[:done]))
        #: How many of the suggested actions apply to the real game.
        self.best_applied = len(self.turns[1][1])
        self.views: list[GameView] = [view_class(game_id)(app, seats) for _ in self.turns]
        words = view_class(game_id)(app, seats)
        #: The turn played and the turn suggested in words.
        self.texts = [describe_turn(words, before, seat, actions) for actions in (made, best)]
        self._pictures: list[pygame.Surface] = []
        self._scaled: dict[tuple[int, tuple[int, int]], pygame.Surface] = {}
        self._size: tuple[int, int] | None = None
        self.marks: list[list[Mark]] = [[], []]

    def pictures(self, size: tuple[int, int]) -> list[pygame.Surface]:
        """The two tables drawn at ``size`` (redrawn when the size changes)."""
        if self._size == size and self._pictures:
            return self._pictures
        self._size = size
        self._scaled.clear()
        self._pictures = []
        finder = marks_for(self.game_id)
        w, h = size
        area = pygame.Rect(self.app.px(8), self.app.px(8), w - self.app.px(16), h - self.app.px(16))
        for i, ((state, actions), view) in enumerate(zip(self.turns, self.views, strict=True)):
            view.layout(area, self.app.px(40))
            view.set_turn(list(state.to_move()), state.turn_id())
            view.set_view(state.view(self.seat), [], [])
            view.finish_animations()
            picture = pygame.Surface(size).convert()
            picture.fill(pal.BG)
            view.draw(picture)
            self.marks[i] = finder(view, actions) if finder is not None else []
            colour = pal.HINT if i == 1 else pal.ACCENT
            draw_marks(picture, self.app, self.marks[i], colour, ghost=i == 1)
            self._pictures.append(picture)
        return self._pictures

    def draw(
        self, surface: pygame.Surface, rects: list[pygame.Rect], size: tuple[int, int]
    ) -> None:
        """Both tables, each scaled to fit its rect (centred, aspect kept)."""
        for i, (picture, rect) in enumerate(zip(self.pictures(size), rects, strict=True)):
            pw, ph = picture.get_size()
            k = min(rect.width / pw, rect.height / ph)
            fit = (max(1, int(pw * k)), max(1, int(ph * k)))
            key = (i, fit)
            scaled = self._scaled.get(key)
            if scaled is None:
                scaled = pygame.transform.smoothscale(picture, fit)
                self._scaled[key] = scaled
            surface.blit(scaled, scaled.get_rect(center=rect.center))
