"""The Glen More view put together: layout, the view dict in, buttons, and each frame's drawing
in order (see :mod:`game.ui.games.glen_more`)."""

from __future__ import annotations

from typing import Any

import pygame

from game.ui import palette as pal
from game.ui.games.base import Action, Regions, SeatInfo, ViewButton
from game.ui.games.glen_more.clean import clean_view
from game.ui.games.glen_more.common import Cell, Layout, Legal, cell_of
from game.ui.games.glen_more.panel import PanelMixin
from game.ui.games.glen_more.scoring import ScoreShow, final_show
from game.ui.i18n import lazy


class GlenMoreView(PanelMixin):
    """Draws a Glen More view and maps clicks to legal actions."""

    #: Every pulse is drawn from ``pulse()`` and marked (``GameView.ambient_rects``).
    MARKS_PULSE = True
    #: The resources' cubes (wood green, stone grey, grain yellow, cattle brown, sheep white)
    #: and the whisky barrels (amber).
    PIECE_COLOURS = ("green", "grey", "yellow", "gold", "brown", "white", "orange")

    def __init__(self, app: Any, seats: list[SeatInfo]) -> None:
        super().__init__(app, seats)
        self.anims = []
        self.other_order = []
        self.scoring: ScoreShow | None = None
        self.round_show: ScoreShow | None = None
        self.round_rect = pygame.Rect(0, 0, 0, 0)
        self.track_size = 0.0
        self.track_centres = []
        self.interior = pygame.Rect(0, 0, 0, 0)
        self._question: tuple[Any, ...] = ()
        self._cells_key: tuple[Any, ...] = ()

    # ---- layout ------------------------------------------------------------------------------
    def layout(self, area: pygame.Rect, log_height: int) -> Regions:
        """The track with the market inside it at the top left and the step box under it; the
        shown seat's territory large in the middle under its header; the other players'
        compact territories on the right with the log under them."""
        px = self.app.px
        gap = px(8)
        w, h = max(1, area.width), max(1, area.height)
        left_w = max(px(220), min(px(540), int(w * 0.34)))
        right_w = max(px(180), min(px(400), int(w * 0.22)))
        if left_w + right_w + 2 * gap > w - px(160):
            # A narrow window: the columns give way so the territory keeps some room.
            scale = max(0.3, (w - px(160) - 2 * gap) / max(1, left_w + right_w))
            left_w, right_w = int(left_w * scale), int(right_w * scale)
        centre_w = max(1, w - left_w - right_w - 2 * gap)
        track_h = max(px(120), min(int(left_w * 0.8), int(h * 0.52)))
        track_h = min(track_h, h)
        track = pygame.Rect(area.x, area.y, left_w, track_h)
        step = pygame.Rect(area.x, track.bottom + gap, left_w, max(1, h - track_h - gap))
        centre = pygame.Rect(track.right + gap, area.y, centre_w, h)
        head_h = min(px(52), max(1, h // 6))
        header = pygame.Rect(centre.x, centre.y, centre_w, head_h)
        grid = pygame.Rect(
            centre.x, header.bottom + gap // 2, centre_w, max(1, h - head_h - gap // 2)
        )
        log_h = min(log_height, max(1, h // 3))
        others = pygame.Rect(centre.right + gap, area.y, right_w, max(1, h - log_h - gap))
        log = pygame.Rect(others.x, others.bottom + gap, right_w, log_h)
        self.rects = Layout(track, step, header, grid, others, log)
        self.board_rect = centre
        self.panel_rect = step
        self._layout_track()
        self._relayout_grids()
        self.finish_animations()
        return Regions(centre, step, log)

    # ---- the view dict in --------------------------------------------------------------------
    def set_seats(self, seats: list[SeatInfo]) -> None:
        super().set_seats(seats)

    def set_view(
        self, view: dict[str, Any], legal: list[Action], events: list[dict[str, Any]]
    ) -> None:
        # What the host sent is data from outside: drawn only as far as it has the engine's
        # shape (clean.py); the seat's own number comes with it.
        view = clean_view(view)
        self.view = view
        self.legal = [tuple(a) for a in legal]
        self.acts = Legal.index(self.legal)
        self.territories = []
        for sv in view.get("seats") or []:
            cells: dict[Cell, dict[str, Any]] = {}
            for entry in sv.get("tiles") or []:
                try:
                    cells[(int(entry["row"]), int(entry["col"]))] = entry
                except (KeyError, TypeError, ValueError):
                    continue
            self.territories.append(cells)
        question = (self.decision, self.turn, tuple(self.legal))
        if question != self._question:
            # A new decision: half-made choices start afresh.
            self._question = question
            self.trade = None
            self.sell_pick = None
            self.ness_mode = False
            sources = sorted(set(self.acts.moves) | set(self.acts.chieftains))
            self.move_from = sources[0] if len(sources) == 1 else None
            if self.focus is not None and self.my_turn():
                self.focus = None
        self.composer.set_legal(self.acts.choices, question=(self.decision, self.turn))
        self.composer.skip_forced()
        self._track_recent(events, self.you)
        for ev in events:
            if ev.get("type") == "die" and isinstance(ev.get("roll"), int):
                self.last_roll = int(ev["roll"])
            if ev.get("type") == "game_over" and isinstance(ev.get("winners"), list):
                self.winners = [w for w in ev["winners"] if isinstance(w, int)]
        key = (
            self.big_seat(),
            tuple(tuple(sorted(t)) for t in self.territories),
            tuple(sorted(self.acts.places)),
        )
        if key != self._cells_key:
            self._cells_key = key
            self._relayout_grids()
        self._animate(events)
        if view.get("over") and self.scoring is None and not events:
            # Arrived at an ended game (reconnect, replay): show it scored at once.
            self.scoring = final_show(view)
            if self.scoring is not None:
                self.scoring.finish()

    def _track_recent(self, events: list[dict[str, Any]], you: int | None) -> None:
        """Tiles other players than ``you`` placed since your last turn (ringed)."""
        for ev in events:
            kind = ev.get("type")
            seat = ev.get("seat")
            if kind == "place" and isinstance(seat, int) and seat != you:
                try:
                    self.recent.setdefault(seat, set()).add(cell_of(ev.get("cell")))
                except (TypeError, ValueError, IndexError):
                    continue
            if kind == "end_turn" and (seat == you or you is None):
                self.recent.clear()

    def show_since(self, events: list[dict[str, Any]], seat: int) -> None:
        """Hot-seat: ring what others placed in ``events`` (since ``seat``'s last turn)."""
        self.recent.clear()
        self._track_recent([ev for ev in events if isinstance(ev, dict)], seat)

    # ---- buttons ------------------------------------------------------------------------------
    def buttons(self) -> list[ViewButton]:
        """Confirm / Cancel while a trade waits; Loch Ness first (L) while its extra activation
        is open; Chieftain (C) for the chosen clan member; Done (activations) and End turn
        (movement) — Enter."""
        out: list[ViewButton] = []
        if self.trade is not None:
            out.append(
                ViewButton(
                    "gm_trade_cancel",
                    lazy("gm.button.cancel"),
                    on_click=self._cancel_click,
                    hint="Bksp",
                )
            )
            out.append(
                ViewButton(
                    "gm_trade_confirm",
                    lazy("gm.button.confirm_trade"),
                    self.trade,
                    hint="Enter",
                    primary=True,
                    width=150,
                )
            )
            return out
        if self.sell_pick is not None:
            out.append(
                ViewButton(
                    "gm_trade_cancel",
                    lazy("gm.button.cancel"),
                    on_click=self._cancel_click,
                    hint="Bksp",
                )
            )
        if self.acts.loch_ness:
            out.append(
                ViewButton(
                    "gm_loch_ness",
                    lazy("gm.button.loch_ness_on" if self.ness_mode else "gm.button.loch_ness"),
                    on_click=self._toggle_ness,
                    hint="L",
                    tooltip=lazy("gm.button.loch_ness.tip"),
                )
            )
        if self.acts.chieftains or (self.acts.moves and self.phase == "move"):
            action = (
                self.acts.chieftains.get(self.move_from) if self.move_from is not None else None
            )
            out.append(
                ViewButton(
                    "gm_chieftain",
                    lazy("gm.button.chieftain"),
                    action,
                    hint="C",
                    enabled=action is not None,
                    tooltip=lazy("gm.button.chieftain.tip"),
                )
            )
        if self.acts.done is not None:
            out.append(
                ViewButton(
                    "gm_done",
                    lazy("gm.button.done"),
                    self.acts.done,
                    hint="Enter",
                    primary=True,
                    width=130,
                    tooltip=lazy("gm.button.done.tip"),
                )
            )
        if self.acts.end is not None:
            out.append(
                ViewButton(
                    "end_turn",
                    lazy("game.end_turn"),
                    self.acts.end,
                    hint="Enter",
                    primary=True,
                    width=150,
                )
            )
        return out

    def _cancel_click(self) -> Action | None:
        self.cancel()
        return None

    def _toggle_ness(self) -> Action | None:
        self.ness_mode = not self.ness_mode
        return None

    def choice_rects(self) -> list[pygame.Rect]:
        return self.choice_panel.option_rects() if self.acts.choices else []

    # ---- sounds -------------------------------------------------------------------------------
    def cues(self, events: list[dict[str, Any]]) -> list[str]:
        """A knock for a move; "round" for a scoring round during play (GM §7)."""
        out = super().cues(events)
        if any(isinstance(ev, dict) and ev.get("type") == "scoring" for ev in events):
            out.append("round")
        return out

    def scoring_beat(self) -> tuple[int, bool] | None:
        """The final scoring's category being shown (each plucks)."""
        show = self.scoring
        if show is None or show.done:
            return None
        beat = show.beat()
        return None if beat is None else (show.beats.index(beat), True)

    # ---- time ---------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        speed = self._speed()
        self.clock += dt
        step = dt * (speed if speed > 0 else 1000)
        if self.anims:
            for a in self.anims:
                a.tween.update(step)
            self.anims = [a for a in self.anims if not a.tween.done]
        for show in (self.scoring, self.round_show):
            if show is not None and not show.done:
                show.elapsed += step
        if self.round_show is not None and self.round_show.done:
            self.round_show = None

    # ---- drawing ------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        if not self.view:
            return
        self.chip_texts = []
        self.card_rects = []
        self.score_chip_rects = []
        self._draw_track(surface)
        self._draw_header(surface)
        self._draw_territories(surface)
        self._draw_others(surface)
        self._draw_step(surface)
        self._draw_track_hint(surface)
        self._draw_anims(surface)
        self._draw_score_show(surface)

    def _draw_track_hint(self, surface: pygame.Surface) -> None:
        """The hinted action on the track or at the market (a ring, bouncing)."""
        action = self.hint
        if action is None or action not in self.legal:
            return
        import math

        grow = 6 + int(4 * abs(math.sin(self.pulse_angle())))
        rect = None
        if action[0] in ("take", "discard"):
            rect = self.slot_rects.get(int(action[1]))
        elif action[0] == "buy":
            rect = self.buy_rects.get(str(action[1]))
        elif action[0] == "sell" and self.sell_pick is None:
            rect = self.sell_rects.get(str(action[3]))
        if rect is not None:
            pygame.draw.rect(
                surface,
                (20, 20, 28),
                rect.inflate(grow + 3, grow + 3),
                5,
                border_radius=self.app.px(8),
            )
            pygame.draw.rect(
                surface, pal.HINT, rect.inflate(grow, grow), 3, border_radius=self.app.px(8)
            )

    # ---- for tests and the hint: where a player clicks ----------------------------------------
    def target(self, action: Action) -> tuple[int, int] | None:
        """The point a player clicks to choose ``action`` (for a step, a trade or an option:
        its first click), from where the last frame drew things; None if it is not shown."""
        kind = action[0]
        if kind in ("take", "discard"):
            r = self.slot_rects.get(int(action[1]))
            return r.center if r else None
        if kind == "buy":
            r = self.buy_rects.get(str(action[1]))
            return r.center if r else None
        if kind == "sell":
            r = self.sell_rects.get(str(action[3]))
            return r.center if r else None
        if kind in ("option", "resource"):
            for option in self.choice_panel.options:
                if option.value == action[1]:
                    return option.rect.center
            return None
        grid = self.big_grid
        if grid is None or self.big_seat() != self.you:
            return None
        if kind == "pay":
            cell = (int(action[1]), int(action[2]))
            for box, _seat, c, res in self.cube_rects:
                if c == cell and res == action[3]:
                    return box.center
            return None
        if kind in ("place", "activate", "loch_ness", "pay_clan", "chieftain", "move"):
            x, y = grid.centre(int(action[1]), int(action[2]))
            return (int(x), int(y))
        return None
