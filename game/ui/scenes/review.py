"""The game review: where a finished game was won and lost, for one seat at a time.

Opened from the results (the Review button) and from the replay viewer.  A review already
saved beside the replay (:mod:`game.review.cache`) opens at once; otherwise it runs in a worker
process (:class:`game.review.runner.ReviewJob`) with a progress bar and a Cancel button, and the
window goes on drawing and answering while it works.

What it shows (``docs/review.md``):

* a tab per seat (the seat reviewed first is the player at this computer); another tab reviews
  that seat (each seat is judged only from what *it* could see);
* the graph of every seat's margin over its strongest rival after every turn, with the
  reviewed seat's turning points numbered on its line;
* the turning points, worst first: how much each lost against the best turn the search found,
  and why, in the evaluation's own terms;
* for the selected turning point, the table after the turn played and after the turn suggested,
  side by side (the suggestion's pieces as a ghost), and a button that opens the replay viewer
  at that turn.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

import pygame

from game.ui import palette as pal
from game.ui.games import view_class
from game.ui.games.base import GameView, SeatInfo, shown_name
from game.ui.i18n import t
from game.ui.reasons import gain_text, reasons_text
from game.ui.review.boards import TurnBoards
from game.ui.review.graph import Graph
from game.ui.scene import Scene
from game.ui.widgets import Button

if TYPE_CHECKING:
    from game.review.analysis import SeatTurn
    from game.review.runner import ReviewJob
    from game.review.settings import ReviewSettings
    from game.ui.app import App

#: Frames a second while a review runs in the background (the progress bar; polling the worker).
WORKING_RATE = 8.0


def default_seat(seats: list[SeatInfo]) -> int:
    """The seat a review starts with: a human playing at this computer, else any human."""
    for wanted in (lambda s: s.local and s.kind == "human", lambda s: s.kind == "human"):
        for info in seats:
            if wanted(info):
                return info.seat
    return 0


def replay_seats(replay: Any) -> list[SeatInfo]:
    """The seats of a replay file as the client shows them."""
    seats = []
    for i in range(replay.players):
        info = replay.seats[i] if i < len(replay.seats) else {}
        info = info or {}
        seats.append(
            SeatInfo(
                seat=i,
                name=shown_name(str(info.get("name") or f"#{i + 1}"), str(info.get("kind"))),
                colour=str(info.get("colour") or pal.COLOUR_NAMES[i % len(pal.COLOUR_NAMES)]),
                kind=str(info.get("kind") or "human"),
            )
        )
    return seats


class ReviewScene(Scene):
    """The review of one replay file (see the module docstring)."""

    name = "review"
    help_topic = "review"

    def __init__(self, app: App, path: str, seat: int | None = None) -> None:
        super().__init__(app)
        from game.core.match import Replay

        self.path = path
        self.replay = Replay.load(path)
        self.replay.new_state()  # an unknown game or rules version: refused here, in one line
        self.game_id = self.replay.game
        self.seats = replay_seats(self.replay)
        self.seat = seat if seat is not None and 0 <= seat < self.replay.players else 0
        if seat is None:
            self.seat = default_seat(self.seats)
        self.job: ReviewJob | None = None
        self.review: dict[str, Any] | None = None
        self.error: str | None = None
        self.stopped = False
        self.settings: ReviewSettings | None = None
        self.turns: dict[int, SeatTurn] = {}
        self.selected: int | None = None
        self.boards: TurnBoards | None = None
        self.graph: Graph | None = None
        self.words: GameView | None = None
        self.rows: list[tuple[int, pygame.Rect]] = []
        self.tabs = [
            Button(
                f"review_seat_{i}",
                info.name,
                partial(self.open, i),
                selected=partial(self._is_seat, i),
                font_size=15,
            )
            for i, info in enumerate(self.seats)
        ]
        for b in self.tabs:
            self.add(b)
        self.close_button = Button(
            "review_close", lambda: t("review.close"), self.on_escape, hint="Esc"
        )
        self.run_button = Button(
            "review_run",
            lambda: t("review.cancel") if self.running else t("review.start"),
            self.toggle,
            style="primary",
        )
        self.replay_button = Button(
            "review_open_replay",
            lambda: t("review.open_replay"),
            self.open_replay,
            hint="Enter",
            enabled=lambda: self.selected is not None,
        )
        for b in (self.close_button, self.run_button, self.replay_button):
            self.add(b)
        self.open(self.seat)

    # ---- state ------------------------------------------------------------------------------
    def _is_seat(self, seat: int) -> bool:
        return self.seat == seat

    @property
    def running(self) -> bool:
        return self.job is not None and not self.job.finished

    def open(self, seat: int) -> None:
        """Show ``seat``'s review: the saved one at once, else start working it out."""
        from game.core.types import BadState
        from game.review import cache
        from game.review.analysis import walk
        from game.review.settings import default_settings

        self._stop_job()
        self.seat = seat
        self.review = None
        self.error = None
        self.stopped = False
        self.selected = None
        self.boards = None
        self.graph = None
        try:
            turns, _points, end = walk(self.replay, seat)
        except BadState as exc:
            self.error = str(exc)
            return
        self.turns = {record.number: record for record in turns}
        # the game's own words for the reasons' parameters (tiles, cards, score categories)
        self.words = view_class(self.game_id)(self.app, self.seats)
        self.words.set_view(end.view(seat), [], [])
        self.words.finish_animations()
        self.settings = default_settings(self.game_id, sum(1 for r in turns if not r.forced))
        found = cache.load(self.path, self.replay, seat, self.settings)
        if found is not None:
            self._show(found)
        else:
            self.start()

    def start(self) -> None:
        """Work the review out in a worker process."""
        from game.review.runner import ReviewJob

        if self.settings is None or self.running:
            return
        self.stopped = False
        self.error = None
        self.job = ReviewJob(self.path, self.game_id, self.seat, self.settings)

    def cancel(self) -> None:
        if self.job is not None and not self.job.finished:
            self.job.cancel()
            self.stopped = True

    def toggle(self) -> None:
        if self.running:
            self.cancel()
        elif self.review is None:
            self.start()

    def _stop_job(self) -> None:
        if self.job is not None:
            self.job.close(wait=0.5)
            self.job = None

    def _show(self, review: dict[str, Any]) -> None:
        self.review = review
        self.graph = Graph(review, self.seats)
        points = review["turning_points"]
        self.select(points[0] if points else None)

    def select(self, number: int | None) -> None:
        """Show turning point ``number`` (a turn number of the review) on the tables."""
        self.selected = number
        self.boards = None
        if number is None or self.review is None:
            return
        turn = self._turn(number)
        record = self.turns.get(number)
        if turn is None or record is None:
            return
        self.boards = TurnBoards(
            self.app,
            self.game_id,
            self.seats,
            self.seat,
            record.before,
            [tuple(a) for a in turn["move"]],
            [tuple(a) for a in turn["best"]],
        )

    def _turn(self, number: int) -> dict[str, Any] | None:
        assert self.review is not None
        for turn in self.review["turns"]:
            if turn["number"] == number:
                return dict(turn)
        return None

    def open_replay(self) -> None:
        """The replay viewer at the selected turning point (the position before the turn)."""
        if self.selected is None or self.review is None:
            return
        turn = self._turn(self.selected)
        if turn is None:
            return
        from game.ui.scenes.replay import ReplayScene

        try:
            scene = ReplayScene(self.app, self.path, step=int(turn["step"]))
        except Exception as exc:
            self.app.toast(t("files.load_failed", error=str(exc)), "error")
            return
        self.app.push(scene)

    # ---- lifecycle --------------------------------------------------------------------------
    def leave(self) -> None:
        self._stop_job()

    def on_escape(self) -> None:
        self._stop_job()
        self.app.pop()

    def frame_rate(self) -> float:
        return WORKING_RATE if self.running else 0.0

    def update(self, dt: float) -> None:
        super().update(dt)
        job = self.job
        if job is None:
            return
        job.poll()
        if job.result is not None:
            self.job = None
            self._show(job.result)
        elif job.error is not None:
            self.job = None
            self.error = job.error
        elif job.cancelled and not job.alive:
            self.job = None

    # ---- input ------------------------------------------------------------------------------
    def on_key(self, event: pygame.event.Event) -> bool:
        points = self.review["turning_points"] if self.review else []
        if event.key in (pygame.K_DOWN, pygame.K_RIGHT, pygame.K_UP, pygame.K_LEFT) and points:
            step = 1 if event.key in (pygame.K_DOWN, pygame.K_RIGHT) else -1
            index = points.index(self.selected) if self.selected in points else -step
            self.select(points[(index + step) % len(points)])
            return True
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.open_replay()
            return True
        return False

    def handle(self, event: pygame.event.Event) -> bool:
        if super().handle(event):
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.review is not None:
            for number, rect in self.rows:
                if rect.collidepoint(event.pos):
                    if number == self.selected:
                        self.open_replay()
                    else:
                        self.select(number)
                    return True
            if self.graph is not None:
                point = self.graph.point_at(event.pos, self.app)
                if point is not None:
                    self.select(point)
                    return True
        return False

    # ---- layout -----------------------------------------------------------------------------
    def layout(self, w: int, h: int) -> None:
        super().layout(w, h)
        px = self.app.px
        fonts = self.app.fonts
        self.bar = pygame.Rect(0, 0, w, px(52))
        y = (self.bar.height - px(36)) // 2
        self.close_button.rect = pygame.Rect(w - px(130), y, px(120), px(36))
        x = px(12) + min(px(360), w // 4)
        for b in self.tabs:
            bw = min(
                px(170), fonts.size(b.text if isinstance(b.text, str) else "", px(15))[0] + px(28)
            )
            b.rect = pygame.Rect(x, y, bw, px(36))
            x += bw + px(6)
        top = self.bar.bottom + px(30)
        upper = max(px(150), int((h - top) * 0.33))
        split = int(w * 0.55)
        self.graph_rect = pygame.Rect(px(12), top, split - px(18), upper)
        self.list_rect = pygame.Rect(split, top, w - split - px(12), upper)
        boards_top = top + upper + px(10)
        text_h = px(74)
        board_h = h - boards_top - text_h - px(10)
        half = (w - px(36)) // 2
        self.board_rects = [
            pygame.Rect(px(12), boards_top, half, board_h),
            pygame.Rect(px(24) + half, boards_top, half, board_h),
        ]
        self.text_rect = pygame.Rect(px(12), h - text_h - px(6), w - px(24) - px(260), text_h)
        self.replay_button.rect = pygame.Rect(w - px(250), h - text_h + px(14), px(238), px(40))
        self.progress_rect = pygame.Rect(0, 0, min(w - px(80), px(640)), px(26))
        self.progress_rect.center = (w // 2, top + (h - top) // 2)
        self.run_button.rect = pygame.Rect(0, 0, px(180), px(40))
        self.run_button.rect.midtop = (w // 2, self.progress_rect.bottom + px(50))

    # ---- drawing ----------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(pal.BG)
        px = self.app.px
        fonts = self.app.fonts
        w = surface.get_width()
        pygame.draw.rect(surface, pal.BG_PANEL, self.bar)
        pygame.draw.line(surface, pal.BORDER, self.bar.bottomleft, self.bar.bottomright)
        title = fonts.ellipsize(t("review.title"), px(22), min(px(340), w // 4 - px(8)), True)
        img = fonts.render(title, px(22), pal.ACCENT, True)
        surface.blit(img, img.get_rect(midleft=(px(14), self.bar.centery)))
        name = self.seats[self.seat].name
        note = fonts.ellipsize(t("review.honest", name=name), px(14), w - px(24))
        img = fonts.render(note, px(14), pal.TEXT_DIM)
        surface.blit(img, (px(14), self.bar.bottom + px(6)))
        self.run_button.visible = self.review is None
        self.replay_button.visible = self.review is not None
        if self.review is None:
            self._draw_progress(surface)
        else:
            self._draw_review(surface)
        self.draw_widgets(surface)
        blind = self.app.settings.colour_blind
        for tab, info in zip(self.tabs, self.seats, strict=True):
            r = tab.rect
            bar = pygame.Rect(r.x + px(10), r.bottom - px(6), r.width - px(20), px(3))
            pygame.draw.rect(surface, info.rgb(blind), bar, border_radius=px(2))

    def _draw_progress(self, surface: pygame.Surface) -> None:
        px = self.app.px
        fonts = self.app.fonts
        name = self.seats[self.seat].name
        r = self.progress_rect
        if self.error is not None:
            text = t("review.failed", error=self.error)
        elif self.running and self.job is not None:
            text = t("review.working", name=name, done=self.job.done, total=self.job.total)
        elif self.stopped:
            text = t("review.stopped")
        else:
            text = t("review.waiting")
        lines = fonts.render_lines(text, px(18), pal.TEXT, r.width + px(200), 3)
        y = r.y - px(12) - sum(img.get_height() for img in lines)
        for img in lines:
            surface.blit(img, img.get_rect(midtop=(r.centerx, y)))
            y += img.get_height()
        pygame.draw.rect(surface, pal.BG_PANEL_2, r, border_radius=px(8))
        fraction = self.job.fraction if self.job is not None else 0.0
        if fraction > 0:
            done = r.copy()
            done.width = max(px(10), int(r.width * fraction))
            pygame.draw.rect(surface, pal.ACCENT_DARK, done, border_radius=px(8))
        pygame.draw.rect(surface, pal.BORDER, r, 1, border_radius=px(8))
        if self.running and self.settings is not None:
            budget = t(
                "review.budget", iterations=self.settings.iterations, worlds=self.settings.worlds
            )
            img = fonts.render(fonts.ellipsize(budget, px(13), r.width), px(13), pal.TEXT_DIM)
            surface.blit(img, img.get_rect(midtop=(r.centerx, r.bottom + px(10))))
        self.run_button.enabled = self.error is None

    def _draw_review(self, surface: pygame.Surface) -> None:
        assert self.review is not None and self.graph is not None
        self.graph.draw(surface, self.graph_rect, self.app, self.selected)
        self._draw_list(surface)
        self._draw_boards(surface)
        self._draw_text(surface)

    def _draw_list(self, surface: pygame.Surface) -> None:
        assert self.review is not None
        px = self.app.px
        fonts = self.app.fonts
        r = self.list_rect
        pygame.draw.rect(surface, pal.BG_PANEL, r, border_radius=px(8))
        pygame.draw.rect(surface, pal.BORDER, r, 1, border_radius=px(8))
        head = fonts.render(t("review.turning_points"), px(17), pal.ACCENT, True)
        surface.blit(head, (r.x + px(12), r.y + px(8)))
        y = r.y + px(14) + head.get_height()
        self.rows = []
        points = self.review["turning_points"]
        if not points:
            for img in fonts.render_lines(
                t("review.none"), px(15), pal.TEXT_DIM, r.width - px(24), 4
            ):
                surface.blit(img, (r.x + px(12), y))
                y += img.get_height()
            return
        row_h = max(px(40), (r.bottom - y - px(8)) // max(1, len(points)))
        for rank, number in enumerate(points, 1):
            turn = self._turn(number)
            if turn is None:
                continue
            row = pygame.Rect(r.x + px(6), y, r.width - px(12), row_h - px(4))
            selected = number == self.selected
            if selected or row.collidepoint(self.app.mouse):
                pygame.draw.rect(
                    surface, pal.BG_HOVER if selected else pal.BG_PANEL_2, row, border_radius=px(6)
                )
            if selected:
                pygame.draw.rect(surface, pal.ACCENT, row, 1, border_radius=px(6))
            label = t(
                "review.point",
                rank=rank,
                number=number,
                loss=gain_text(float(turn["loss"]), signed=False),
            )
            img = fonts.render(
                fonts.ellipsize(label, px(15), row.width - px(16), True), px(15), pal.TEXT, True
            )
            surface.blit(img, (row.x + px(8), row.y + px(4)))
            why = self._why(turn)
            lines = fonts.render_lines(
                why,
                px(13),
                pal.TEXT_DIM,
                row.width - px(16),
                max(1, (row.height - img.get_height() - px(6)) // fonts.line_height(px(13))),
            )
            yy = row.y + px(4) + img.get_height()
            for line in lines:
                surface.blit(line, (row.x + px(8), yy))
                yy += line.get_height()
            self.rows.append((number, row))
            y += row_h

    def _why(self, turn: dict[str, Any]) -> str:
        """Why the suggested turn was better, in the player's language."""
        names = [s.name for s in self.seats]
        categories: dict[str, str] = {}
        words_of = None
        if self.words is not None:
            categories = dict(self.words.score_categories())
            words_of = self.words.reason_params
        text = reasons_text(turn["reasons"], self.game_id, names, categories, words_of)
        if text:
            return t("review.why", why=text)
        return t("review.why.search", points=gain_text(float(turn["loss"]), signed=False))

    def _draw_boards(self, surface: pygame.Surface) -> None:
        px = self.app.px
        fonts = self.app.fonts
        titles = [t("review.played"), t("review.suggested")]
        colours = [pal.ACCENT, pal.HINT]
        inner = []
        if self.boards is None and self.review is not None and not self.review["turning_points"]:
            titles, colours = ["", ""], [pal.BORDER, pal.BORDER]
        for rect, title, colour in zip(self.board_rects, titles, colours, strict=True):
            pygame.draw.rect(surface, pal.BG_PANEL, rect, border_radius=px(8))
            pygame.draw.rect(surface, colour, rect, 1, border_radius=px(8))
            img = fonts.render(title, px(16), colour, True)
            surface.blit(img, (rect.x + px(10), rect.y + px(4)))
            inner.append(
                pygame.Rect(
                    rect.x + px(4),
                    rect.y + px(8) + img.get_height(),
                    rect.width - px(8),
                    rect.height - px(12) - img.get_height(),
                )
            )
        if self.boards is None:
            if self.review is not None and not self.review["turning_points"]:
                whole = self.board_rects[0].union(self.board_rects[1])
                lines = fonts.render_lines(
                    t("review.none"), px(18), pal.TEXT_DIM, whole.width - px(80), 3
                )
                y = whole.centery - sum(img.get_height() for img in lines) // 2
                for img in lines:
                    surface.blit(img, img.get_rect(midtop=(whole.centerx, y)))
                    y += img.get_height()
            return
        self.boards.draw(surface, inner, surface.get_size())

    def _draw_text(self, surface: pygame.Surface) -> None:
        if self.selected is None or self.boards is None:
            return
        turn = self._turn(self.selected)
        if turn is None:
            return
        px = self.app.px
        fonts = self.app.fonts
        r = self.text_rect
        made, best = self.boards.texts
        y = r.y
        for label, text, colour in (
            (t("review.played"), made, pal.ACCENT),
            (t("review.suggested"), best, pal.HINT),
        ):
            head = fonts.render(label + ":", px(14), colour, True)
            surface.blit(head, (r.x, y))
            body = fonts.ellipsize(text, px(14), r.width - head.get_width() - px(8))
            img = fonts.render(body, px(14), pal.TEXT)
            surface.blit(img, (r.x + head.get_width() + px(8), y))
            y += max(head.get_height(), img.get_height()) + px(2)
        why = fonts.ellipsize(self._why(turn), px(15), r.width, True)
        img = fonts.render(why, px(15), pal.TEXT, True)
        surface.blit(img, (r.x, y + px(2)))
