"""The replay viewer: step forwards and backwards through a saved game.

A replay file holds the game's inputs (game, players, options, seed, seats, actions); the
viewer plays the actions through the engine once, keeping the spectator view and the public
events after each one, then shows any step instantly.  Stepping forward animates that step's
events; jumping back simply shows the earlier view.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import pygame

from game.ui import palette as pal
from game.ui.games import view_class
from game.ui.games.base import GameView, LogLine, SeatInfo, shown_name
from game.ui.i18n import t
from game.ui.scene import Scene
from game.ui.widgets import Button
from game.ui.widgets.log import LogBox

if TYPE_CHECKING:
    from game.ui.app import App

AUTO_STEP = 0.7
#: Seconds of this process's CPU time one listing of finished games may spend replaying records
#: for their results (the rest are worked out on the next listings; every result is remembered
#: while the program runs).  CPU time, not the clock: on a busy machine a listing takes longer
#: but works out as many results.
SUMMARY_BUDGET = 0.4

_summaries: dict[tuple[str, float], tuple[list[int], list[int]] | None] = {}
_listing = [0.0]  # the CPU time the current listing began at (start_listing)


def start_listing() -> None:
    """A new listing of finished games begins: a fresh :data:`SUMMARY_BUDGET`."""
    _listing[0] = time.process_time()


def replay_summary(replay: Any, path: str, mtime: float) -> tuple[str, str]:
    """A finished record's result for the list of replays: ``(players with their totals, the
    winners)`` — e.g. ``("Ann 72, Bo 65", "Ann")`` — from replaying it through the engine
    (``Replay.state_at``, which checks the recorded final hash); ``("", "")`` for a record
    that does not replay, or once this listing's CPU budget (:func:`start_listing`) is spent.
    The result is remembered per file and modification time; the names are put in each time (a
    bot's name in the language of the moment)."""
    key = (path, mtime)
    if key not in _summaries:
        if time.process_time() - _listing[0] > SUMMARY_BUDGET:
            return ("", "")
        try:
            state = replay.state_at()
            result = ([int(row.get("total", 0)) for row in state.scores()], state.winners())
        except Exception:  # a record that does not replay is listed without a result
            result = None
        _summaries[key] = result
    known = _summaries[key]
    if known is None:
        return ("", "")
    totals, winners = known

    def name(i: int) -> str:
        info = replay.seats[i] if i < len(replay.seats) else {}
        info = info or {}
        return shown_name(str(info.get("name") or f"#{i + 1}"), str(info.get("kind")))

    return (
        ", ".join(f"{name(i)} {total}" for i, total in enumerate(totals)),
        ", ".join(name(i) for i in winners),
    )


class ReplayScene(Scene):
    """A finished (or saved) game, one action at a time (see the module docstring)."""

    name = "replay"
    help_topic = "replay"

    def __init__(self, app: App, path: str, step: int = 0) -> None:
        super().__init__(app)
        self.path = path
        from game.core.match import Replay
        from game.core.types import BadState, IllegalAction

        self.replay = Replay.load(path)
        self.help_topic = f"game:{self.replay.game}"
        state = self.replay.new_state()
        self.views: list[dict[str, Any]] = [state.view(None)]
        self.events: list[list[dict[str, Any]]] = [[]]
        #: Who was to move and the turn number after each step (for the view's top-bar marks).
        self.turns: list[tuple[list[int], int]] = [(list(state.to_move()), state.turn_id())]
        for i, (seat, action) in enumerate(self.replay.actions):
            try:
                evs = state.apply(seat, action)
            except IllegalAction as exc:
                raise BadState(f"replay action {i + 1} is illegal: {exc}") from None
            self.views.append(state.view(None))
            self.events.append(state.visible_events(evs, None))
            self.turns.append((list(state.to_move()), state.turn_id()))
        seats = []
        for i in range(self.replay.players):
            info = self.replay.seats[i] if i < len(self.replay.seats) else {}
            info = info or {}
            seats.append(
                SeatInfo(
                    seat=i,
                    name=shown_name(str(info.get("name") or f"#{i + 1}"), str(info.get("kind"))),
                    colour=str(info.get("colour") or pal.COLOUR_NAMES[i]),
                    kind=str(info.get("kind") or "human"),
                )
            )
        self.view: GameView = view_class(self.replay.game)(app, seats)
        self.view.replaying = True  # nobody is thinking in a recorded game
        self.step = 0
        self.playing = False
        self.timer = 0.0
        self.log: list[LogLine] = []
        self.logbox = LogBox()
        self.buttons = [
            Button(
                "replay_start",
                "|<",
                lambda: self.go(0),
                tooltip=lambda: t("replay.start") + " (Home)",
            ),
            Button(
                "replay_back",
                "<",
                lambda: self.go(self.step - 1),
                tooltip=lambda: t("replay.back") + " (←)",
            ),
            Button(
                "replay_play",
                lambda: t("replay.pause") if self.playing else t("replay.play"),
                self.toggle_play,
                style="primary",
                hint="P",
            ),
            Button(
                "replay_forward",
                ">",
                lambda: self.go(self.step + 1),
                tooltip=lambda: t("replay.forward") + " (→)",
            ),
            Button(
                "replay_end",
                ">|",
                lambda: self.go(len(self.views) - 1),
                tooltip=lambda: t("replay.end") + " (End)",
            ),
            Button("replay_close", lambda: t("replay.close"), app.pop, hint="Esc"),
            Button(
                "replay_review",
                lambda: t("review.button"),
                self.open_review,
                tooltip=lambda: t("review.button.tip"),
            ),
        ]
        for b in self.buttons:
            self.add(b)
        self._show(max(0, min(self.steps, step)), animate=False)

    @property
    def steps(self) -> int:
        return len(self.views) - 1

    def go(self, step: int) -> None:
        step = max(0, min(self.steps, step))
        if step == self.step:
            return
        self._show(step, animate=step == self.step + 1)

    def _show(self, step: int, animate: bool) -> None:
        self.step = step
        events = self.events[step] if animate else []
        if not animate:
            self.view.finish_animations()
        self.view.set_turn(*self.turns[step])
        self.view.set_view(self.views[step], [], events)
        self.log = []
        self.logbox.to_newest()
        for evs in self.events[max(0, step - 60) : step + 1]:
            for ev in evs:
                line = self.view.describe_event(ev)
                if line is not None:
                    self.log.append(line)
        if step == self.steps and self.views[step].get("over"):
            self.view.start_scoring()

    def open_review(self) -> None:
        """The game review of this file (:mod:`game.ui.scenes.review`); opened over the viewer
        unless the viewer was itself opened from a review (then back to it)."""
        below = self.app.scene_named("review")
        if below is not None:
            self.app.pop()
            return
        from game.ui.scenes.review import ReviewScene

        try:
            scene = ReviewScene(self.app, self.path)
        except Exception as exc:
            self.app.toast(t("files.load_failed", error=str(exc)), "error")
            return
        self.app.push(scene)

    def toggle_play(self) -> None:
        if self.step >= self.steps:
            self.go(0)
        self.playing = not self.playing
        self.timer = 0.0

    def on_key(self, event: pygame.event.Event) -> bool:
        k = event.key
        if k == pygame.K_LEFT:
            self.go(self.step - 1)
        elif k == pygame.K_RIGHT:
            self.go(self.step + 1)
        elif k == pygame.K_HOME:
            self.go(0)
        elif k == pygame.K_END:
            self.go(self.steps)
        elif k in (pygame.K_p, pygame.K_SPACE):
            self.toggle_play()
        else:
            return False
        return True

    def handle(self, event: pygame.event.Event) -> bool:
        if super().handle(event):
            return True
        if event.type == pygame.MOUSEWHEEL and self.log_rect.collidepoint(self.app.mouse):
            self.logbox.wheel(event.y)
            return True
        if event.type == pygame.MOUSEMOTION:
            self.view.mouse_moved(event.pos)
        elif (
            event.type == pygame.MOUSEBUTTONUP
            and event.button == 1
            and self.bar_track.collidepoint(event.pos)
        ):
            frac = (event.pos[0] - self.bar_track.x) / max(1, self.bar_track.width)
            self.go(round(frac * self.steps))
            return True
        return False

    def tooltip_at(self, pos: tuple[int, int]) -> str:
        return super().tooltip_at(pos) or self.view.hover(pos)

    def update(self, dt: float) -> None:
        super().update(dt)
        self.view.update(dt)
        if self.playing:
            self.timer += dt
            speed = self.app.settings.animation_speed or 4.0
            if self.timer >= AUTO_STEP / speed:
                self.timer = 0.0
                if self.step >= self.steps:
                    self.playing = False
                else:
                    self.go(self.step + 1)

    def layout(self, w: int, h: int) -> None:
        super().layout(w, h)
        px = self.app.px
        bar_h = px(52)
        self.bar = pygame.Rect(0, 0, w, bar_h)
        margin = px(8)
        area = pygame.Rect(margin, bar_h + margin, w - 2 * margin, h - bar_h - 2 * margin)
        log_h = max(px(90), min(px(200), int(area.height * 0.16)))
        # The game's view lays out its table and says where the log goes.
        self.log_rect = pygame.Rect(self.view.layout(area, log_h).log)
        x = px(10)
        widths = [px(52), px(48), px(120), px(48), px(52)]
        for b, bw in zip(self.buttons[:5], widths, strict=True):
            b.rect = pygame.Rect(x, (bar_h - px(38)) // 2, bw, px(38))
            x += bw + px(6)
        self.buttons[5].rect = pygame.Rect(w - px(130), (bar_h - px(38)) // 2, px(120), px(38))
        self.buttons[6].rect = pygame.Rect(w - px(260), (bar_h - px(38)) // 2, px(120), px(38))
        self.bar_track = pygame.Rect(
            x + px(14), bar_h // 2 - px(8), self.buttons[6].rect.x - x - px(28) - px(150), px(16)
        )

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(pal.BG)
        self.view.draw(surface)
        px = self.app.px
        pygame.draw.rect(surface, pal.BG_PANEL, self.bar)
        pygame.draw.line(surface, pal.BORDER, self.bar.bottomleft, self.bar.bottomright)
        track = self.bar_track
        pygame.draw.rect(surface, pal.BG_PANEL_2, track, border_radius=px(6))
        filled = track.copy()
        filled.width = int(track.width * self.step / max(1, self.steps))
        pygame.draw.rect(surface, pal.ACCENT_DARK, filled, border_radius=px(6))
        knob = (track.x + filled.width, track.centery)
        pygame.draw.circle(surface, pal.ACCENT, knob, px(9))
        label = t("replay.step", step=self.step, steps=self.steps)
        img = self.app.fonts.render(label, px(15), pal.TEXT)
        surface.blit(img, img.get_rect(midleft=(track.right + px(12), track.centery)))
        self.logbox.draw(surface, self.app, self.log_rect, self.log, self.view.seats, "")
        self.draw_widgets(surface)
