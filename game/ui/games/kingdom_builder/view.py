"""The Kingdom Builder view put together: layout, the view dict in, buttons, and each frame's
drawing in order (see :mod:`game.ui.games.kingdom_builder`)."""

from __future__ import annotations

from typing import Any

import pygame

from game.ui.games.base import Action, Regions, SeatInfo, ViewButton
from game.ui.games.kingdom_builder.common import BOARD_ACTIONS, hex_of
from game.ui.games.kingdom_builder.panel import PanelMixin
from game.ui.games.kingdom_builder.scoring import Scoring
from game.ui.games.kingdom_builder.text import category_name
from game.ui.hexlayout import HexLayout
from game.ui.i18n import lazy


class KingdomBuilderView(PanelMixin):
    """Draws a Kingdom Builder view and maps clicks to legal actions."""

    def board_extent(self) -> tuple[float, float]:
        """The 20x20 odd-r map in hex radii (``HexLayout.extent(20, 20)``, rounded as the
        table has always been laid out)."""
        return (35.5, 30.5)

    def layout(self, area: pygame.Rect, log_height: int) -> Regions:
        """The map left, as large as the window allows; the panel right, the log under it."""
        regions = super().layout(area, log_height)
        inner = self.board_rect.inflate(-4, -4)
        self.hexes = HexLayout.fit((inner.x, inner.y, inner.width, inner.height))
        self.finish_animations()
        self.static = None
        self.panel_surf = None
        return regions

    def set_seats(self, seats: list[SeatInfo]) -> None:
        super().set_seats(seats)
        self.panel_surf = None  # names, colours and tags are drawn in the panel
        self._faded.clear()

    def set_view(
        self, view: dict[str, Any], legal: list[Action], events: list[dict[str, Any]]
    ) -> None:
        old_board = self.view.get("board")
        self.view = view
        self.legal = [tuple(a) for a in legal]
        if view.get("board") != old_board:
            self.static = None
        self.settlements = {
            hex_of(h): s["seat"] for s in view.get("seats", []) for h in s.get("settlements", [])
        }
        self.walls = {hex_of(h) for h in view.get("walls", [])}
        self.locations = {hex_of(loc["hex"]): loc for loc in view.get("locations", [])}
        self.nomads = {hex_of(n["hex"]): n for n in view.get("nomads") or [] if "hex" in n}
        self.actions_at = {}
        for action in self.legal:
            if action[0] in BOARD_ACTIONS and len(action) == 3:
                self.actions_at[(action[1], action[2])] = action
        self.panel_surf = None
        self.score_details = {
            (str(d.get("category")), int(d.get("seat", -1))): d
            for d in view.get("scoring") or []
            if isinstance(d, dict)
        }
        self._animate(events)
        if view.get("over") and self.scoring is None and not events:
            # Arrived at an ended game (reconnect, replay): show it scored at once.
            self.scoring = Scoring(self._categories(), view.get("scores", []), 1e9)

    def score_categories(self) -> list[tuple[str, str]]:
        return [(c, category_name(c)) for c in self._categories()]

    def buttons(self) -> list[ViewButton]:
        """End turn (Enter; enabled when ``("end",)`` is legal), and Stop while a tile action
        may stop early (``("stop",)`` is legal)."""
        out = [
            ViewButton(
                "end_turn",
                lazy("game.end_turn"),
                ("end",),
                hint="Enter",
                primary=True,
                enabled=("end",) in self.legal,
                width=150,
            )
        ]
        if ("stop",) in self.legal:
            out.append(ViewButton("stop", lazy("kb.action.stop"), ("stop",)))
        return out

    def update(self, dt: float) -> None:
        speed = self._speed()
        self.clock += dt
        if self.anims:
            step = dt * (speed if speed > 0 else 1000)
            for a in self.anims:
                a.tween.update(step)
            self.anims = [a for a in self.anims if not a.tween.done]
        if self.scoring is not None and not self.scoring.done:
            self.scoring.elapsed += dt * (speed if speed > 0 else 1000)
            self.panel_surf = None

    def draw(self, surface: pygame.Surface) -> None:
        if not self.view or self.hexes is None:
            return
        key = self._sprite_key()
        if self.static is None or key != self._static_key:
            self._static_key = key
            self._build_static()
            self.panel_surf = None
        assert self.static is not None
        focus = self._focus()
        if focus is not None:
            # The end of the game: the board is dimmed, what scored stays bright.
            surface.blit(self._darkened(), self.static_pos)
            self._draw_bright(surface, self._focus_hexes(focus))
            self._draw_focus_overlay(surface, focus)
        elif self.actions_at and self.scoring is None:
            # Choosing a hex: the board is dimmed and only the legal hexes stay bright.
            surface.blit(self._dimmed(), self.static_pos)
            self._draw_bright(surface, self.actions_at)
        else:
            surface.blit(self.static, self.static_pos)
        self._draw_dynamic(surface, focus)
        if focus is not None:
            self._draw_marks(surface, focus)
        self._draw_panel(surface)
        self._draw_hint(surface)
        self._draw_flying(surface)
