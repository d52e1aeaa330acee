"""The scorings shown on the table, category by category, against the player with the fewest.

* A **scoring round** (GM §7.1: after stack 1 and stack 2 run out, and at the end) compares
  whisky, chieftains plus bonnets, and special-location cards.  When its ``scoring`` event
  arrives during the game, a card over the territories shows each category in turn: every
  player's count as a row of units, the fewest count as a line all rows are measured from, the
  units above it lit, and the points (0/1/2/3/5/8 for 0/1/2/3/4/5+ more) counting up.  It runs
  by itself (a click moves on; the game goes on meanwhile).
* **The end of the game** (GM §7.2) is the same card, step by step: the third round's three
  categories, then coins (1 VP each), the tile penalty (−3 per tile more than the player with
  the fewest tiles) and each end-game special tile (Iona Abbey, Loch Morar, Duart Castle) for
  its owner; each player's total in the panel counts up with it.  A click shows the next step,
  Enter ends the sequence, then the results scene follows.

Everything shown is the engine's record (``view["rounds"]``, ``view["final"]``): counts,
fewest, points.  Nothing is recomputed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import pygame

from game.ui import palette as pal
from game.ui.games.glen_more import art
from game.ui.games.glen_more.common import END_CATEGORIES, GOLD, ROUND_CATEGORIES
from game.ui.games.glen_more.input import InputMixin
from game.ui.games.glen_more.text import category_name
from game.ui.i18n import t

#: Seconds (at speed 1) per category: its title first, then the counts and points appear.
BEAT = 2.2
#: The part of a beat before the units start to light up, and the part they take.
BEAT_INTRO = 0.25
BEAT_COUNT = 0.5
OUTRO = 0.4


@dataclass(frozen=True)
class Beat:
    """One step of a scoring: category ``category`` (an index into the tallies), from
    ``start`` for ``duration`` seconds.  ``seat`` is None: every seat is counted at once."""

    start: float
    duration: float
    category: int
    seat: int | None = None

    @property
    def end(self) -> float:
        return self.start + self.duration


@dataclass(frozen=True)
class Tally:
    """One category of a scoring as the engine recorded it: the counts per seat (None: not
    counted for that seat), the count all are measured from (the fewest; None when nobody is
    compared), the points per seat, and how each count is made up."""

    key: str
    counts: list[int | None]
    points: list[int]
    baseline: int | None
    detail: list[str] = field(default_factory=list)


def _ints(value: Any, n: int) -> list[int]:
    out = []
    for i in range(n):
        v = value[i] if isinstance(value, list) and i < len(value) else 0
        out.append(int(v) if isinstance(v, int) and not isinstance(v, bool) else 0)
    return out


def round_tallies(record: dict[str, Any], n: int) -> list[Tally]:
    """The three categories of a scoring-round record (``view["rounds"]`` entry)."""
    counts = record.get("counts") or {}
    points = record.get("points") or {}
    detail = record.get("detail") or {}
    out = []
    for cat in ROUND_CATEGORIES:
        c = _ints(counts.get(cat), n)
        lines = [""] * n
        if cat == "chieftains":
            chiefs = _ints(detail.get("chieftains"), n)
            mult = _ints(detail.get("multiplier"), n)
            bonnets = _ints(detail.get("bonnets"), n)
            lines = [
                t("gm.scoring.chieftain_detail", c=chiefs[s], m=max(1, mult[s]), b=bonnets[s])
                for s in range(n)
            ]
        out.append(Tally(cat, list(c), _ints(points.get(cat), n), min(c) if c else 0, lines))
    return out


def final_tallies(final: dict[str, Any], n: int) -> list[Tally]:
    """Coins, the tile penalty and each end-game special tile with an owner (final record)."""
    out = [
        Tally(
            "coins", list(_ints(final.get("coins"), n)), _ints(final.get("coin_points"), n), None
        ),
        Tally(
            "tile_penalty",
            list(_ints(final.get("tiles"), n)),
            _ints(final.get("tile_penalty"), n),
            int(final.get("fewest_tiles", 0) or 0),
        ),
    ]
    effects = final.get("end_effects") or {}
    for cat in END_CATEGORIES:
        e = effects.get(cat) or {}
        owners = {s for s in e.get("owner", []) if isinstance(s, int)}
        if not owners:
            continue
        tiles = _ints(e.get("tiles"), n)
        counts: list[int | None] = [tiles[s] if s in owners else None for s in range(n)]
        out.append(Tally(cat, counts, _ints(e.get("points"), n), None))
    return out


@dataclass
class ScoreShow:
    """A scoring on the table, one category after the other (see the module docstring)."""

    title: str
    tallies: list[Tally]
    #: Each seat's points before this scoring (the final sequence counts up from there);
    #: None for a round during the game (the panel shows the banked scores).
    base: list[int] | None = None
    final: bool = False
    elapsed: float = 0.0
    beats: list[Beat] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.beats:
            self.beats = [Beat(i * BEAT, BEAT, i) for i in range(len(self.tallies))]

    @property
    def length(self) -> float:
        return self.beats[-1].end if self.beats else 0.0

    @property
    def done(self) -> bool:
        return self.elapsed >= self.length + OUTRO

    def beat(self) -> Beat | None:
        for beat in self.beats:
            if self.elapsed < beat.end:
                return beat
        return None

    @property
    def step(self) -> int:
        beat = self.beat()
        return beat.category if beat is not None else len(self.tallies)

    def progress(self, beat: Beat) -> float:
        """How far the units and points of ``beat`` have appeared (0..1)."""
        t0 = beat.start + beat.duration * BEAT_INTRO
        return max(0.0, min(1.0, (self.elapsed - t0) / (beat.duration * BEAT_COUNT)))

    def value(self, index: int, seat: int) -> int | None:
        """The seat's points of tally ``index`` as shown now (None before its step)."""
        tally = self.tallies[index]
        points = tally.points[seat] if seat < len(tally.points) else 0
        beat = self.beats[index]
        if self.elapsed < beat.start:
            return None
        return round(points * self.progress(beat))

    def running_total(self, seat: int) -> int:
        base = self.base[seat] if self.base is not None and seat < len(self.base) else 0
        return base + sum(self.value(i, seat) or 0 for i in range(len(self.tallies)))

    def next_beat(self) -> None:
        beat = self.beat()
        self.elapsed = beat.end if beat is not None else self.length + OUTRO

    def finish(self) -> None:
        self.elapsed = self.length + OUTRO


def final_show(view: dict[str, Any]) -> ScoreShow | None:
    """The end-of-game sequence from an ended game's view: the third round (the records of
    rounds held in the game's last turn), then the final scoring; the points count up from
    each seat's total without them."""
    final = view.get("final")
    n = len(view.get("seats") or [])
    if not isinstance(final, dict) or n == 0:
        return None
    tallies: list[Tally] = []
    rounds = [r for r in view.get("rounds") or [] if isinstance(r, dict)]
    if rounds and rounds[-1].get("round") == 3:
        tallies += round_tallies(rounds[-1], n)
    tallies += final_tallies(final, n)
    scores = view.get("scores") or []
    totals = [int(scores[s].get("total", 0)) if s < len(scores) else 0 for s in range(n)]
    base = [totals[s] - sum(tl.points[s] for tl in tallies) for s in range(n)]
    return ScoreShow(t("gm.scoring.final_title"), tallies, base, final=True)


class ScoringMixin(InputMixin):
    """The scoring card over the territories, for the rounds and the end of the game."""

    scoring: ScoreShow | None
    round_show: ScoreShow | None
    round_rect: pygame.Rect

    # ---- the end of the game (the scene's sequence) -----------------------------------------
    def start_scoring(self) -> None:
        if self.scoring is None or self.scoring.elapsed >= 1e8:
            self.round_show = None
            self.scoring = final_show(self.view)
            if self.scoring is not None and self._speed() <= 0:
                self.scoring.finish()

    def scoring_done(self) -> bool:
        return self.scoring is None or self.scoring.done

    def skip_scoring(self, everything: bool) -> None:
        if self.scoring is not None and not self.scoring.done:
            if everything:
                self.scoring.finish()
            else:
                self.scoring.next_beat()

    def score_total(self, seat: int) -> int | None:
        """The total shown for ``seat``: counting up during the final sequence, else the points
        banked (the live preview is beside it, labelled: :meth:`score_projection`), else
        None."""
        if self.scoring is not None and not self.scoring.done:
            return self.scoring.running_total(seat)
        rows = self.view.get("scores") or []
        if 0 <= seat < len(rows) and isinstance(rows[seat], dict):
            return int(rows[seat].get("total", 0))
        return None

    def score_projection(self, seat: int) -> int | None:
        """While the game runs, with the score preview on: the total ``seat`` would have if
        the next scoring round were held now and the game ended now (the engine's preview:
        the tile penalty and the end-game tiles included — it moves as tiles are placed, so it
        is shown apart from the banked points and named).  None otherwise."""
        if self.view.get("over") or not self.app.settings.score_preview:
            return None
        if self.scoring is not None and not self.scoring.done:
            return None
        rows = self.view.get("preview") or []
        if 0 <= seat < len(rows) and isinstance(rows[seat], dict):
            return int(rows[seat].get("total", 0))
        return None

    # ---- rounds during the game ---------------------------------------------------------------
    def start_round(self, record: dict[str, Any]) -> None:
        """A scoring round happened (its event): show it, unless animations are off."""
        n = self.n_seats()
        if n == 0 or self._speed() <= 0:
            return
        title = t("gm.scoring.round_title", round=record.get("round", "?"))
        self.round_show = ScoreShow(title, round_tallies(record, n))

    def _shown_score(self) -> ScoreShow | None:
        if self.scoring is not None and not self.scoring.done:
            return self.scoring
        if self.round_show is not None and not self.round_show.done:
            return self.round_show
        return None

    def _round_covers(self, pos: tuple[int, int]) -> bool:
        """Whether a round's scoring, still running, is under ``pos`` (a click there shows
        its next beat)."""
        show = self.round_show
        if show is None or show.done or self.scoring is not None:
            return False
        return self.round_rect.collidepoint(pos)

    def _round_click(self, pos: tuple[int, int]) -> bool:
        if self._round_covers(pos) and self.round_show is not None:
            self.round_show.next_beat()
            return True
        return False

    def _round_hover(self, pos: tuple[int, int]) -> str:
        show = self._shown_score()
        if show is None or not self.round_rect.collidepoint(pos):
            return ""
        beat = show.beat()
        if beat is None:
            return ""
        return t(f"gm.scoring.rule.{show.tallies[beat.category].key}")

    # ---- drawing ------------------------------------------------------------------------------
    def _draw_score_show(self, surface: pygame.Surface) -> None:
        show = self._shown_score()
        if show is None:
            self.round_rect = pygame.Rect(0, 0, 0, 0)
            return
        beat = show.beat() or show.beats[-1]
        tally = show.tallies[beat.category]
        p = show.progress(beat)
        px = self.app.px
        fonts = self.app.fonts
        area = self.rects.grid.union(self.rects.header)
        n = len(tally.points)
        row_h = max(px(26), min(px(40), (area.height - px(166)) // max(1, n)))
        width = min(area.width - px(16), px(640))
        height = px(124) + n * row_h + px(30)
        box = pygame.Rect(0, 0, width, min(height, area.height - px(8)))
        box.center = area.center
        self.round_rect = box
        veil = pygame.Surface(box.size, pygame.SRCALPHA)
        pygame.draw.rect(veil, (18, 20, 28, 250), veil.get_rect(), border_radius=px(12))
        surface.blit(veil, box)
        pygame.draw.rect(surface, GOLD, box, 2, border_radius=px(12))
        x, w = box.x + px(14), box.width - px(28)
        counter = f"{beat.category + 1}/{len(show.tallies)}"
        cimg = fonts.render(counter, px(13), pal.TEXT_DIM)
        surface.blit(cimg, cimg.get_rect(topright=(box.right - px(14), box.y + px(10))))
        self._text(
            surface,
            show.title,
            px(15),
            pal.TEXT_DIM,
            (x, box.y + px(8)),
            w - cimg.get_width() - px(10),
        )
        self._text(
            surface, category_name(tally.key), px(22), GOLD, (x, box.y + px(28)), w, bold=True
        )
        y = box.y + px(62)
        rule = t(f"gm.scoring.rule.{tally.key}")
        for img in self._lines(rule, px(13), pal.TEXT_DIM, w, 2):
            surface.blit(img, (x, y))
            y += fonts.line_height(px(13))
        y = box.y + px(120)
        counted = [c for c in tally.counts if c is not None]
        most = max([*counted, 1])
        name_w = int(w * 0.26)
        points_w = px(70)
        count_w = px(110)
        bar_x = x + name_w + px(8)
        bar_w = max(px(20), w - name_w - points_w - count_w - px(24))
        unit = max(2.0, min(float(px(18)), bar_w / max(most, 1)))
        for seat in range(n):
            if y + row_h > box.bottom - px(24):
                break
            cy = y + row_h // 2
            sw = self._swatch(seat, px(18))
            surface.blit(sw, sw.get_rect(midleft=(x, cy)))
            self._text(
                surface,
                self._name(seat),
                px(15),
                pal.TEXT,
                (x + px(24), cy),
                name_w - px(26),
                anchor="midleft",
            )
            c = tally.counts[seat] if seat < len(tally.counts) else None
            if c is None:
                self._text(surface, "—", px(15), pal.TEXT_DIM, (bar_x, cy), bar_w, anchor="midleft")
            else:
                self._draw_units(surface, tally, seat, c, (bar_x, cy), unit, row_h, p)
                label = str(c)
                if tally.detail and tally.detail[seat]:
                    label += f" ({tally.detail[seat]})"
                if (
                    tally.baseline is not None
                    and c == tally.baseline
                    and counted.count(c) < len(counted)
                ):
                    label += " · " + t("gm.scoring.fewest")
                self._text(
                    surface,
                    label,
                    px(13),
                    pal.TEXT_DIM,
                    (bar_x + bar_w + px(8), cy),
                    count_w,
                    anchor="midleft",
                )
            value = show.value(beat.category, seat)
            if value is not None and (c is not None or value):
                colour = GOLD if value >= 0 else pal.BAD
                text = f"{value:+d}"
                self._text(
                    surface,
                    text,
                    px(20),
                    colour,
                    (box.right - px(14), cy),
                    points_w,
                    bold=True,
                    anchor="midright",
                )
            y += row_h
        if tally.baseline is not None and counted:
            lx = bar_x + tally.baseline * unit
            top = box.y + px(116)
            pygame.draw.line(surface, pal.SOURCE, (lx, top), (lx, min(y, box.bottom - px(24))), 2)
            self._text(
                surface,
                t("gm.scoring.fewest_line", n=tally.baseline),
                px(11),
                pal.SOURCE,
                (int(lx) + px(4), top - px(2)),
                px(200),
                anchor="bottomleft",
            )
        # Progress: one dot per category, and how to move on.
        dots_y = box.bottom - px(14)
        for i in range(len(show.tallies)):
            colour = GOLD if i <= beat.category else pal.BORDER
            pygame.draw.circle(surface, colour, (x + px(5) + i * px(14), dots_y), px(4))
        hint = t("gm.scoring.hint_final" if show.final else "gm.scoring.hint_round")
        self._text(
            surface,
            hint,
            px(12),
            pal.TEXT_DIM,
            (box.right - px(14), dots_y),
            w - len(show.tallies) * px(14) - px(12),
            anchor="midright",
        )

    def _draw_units(
        self,
        surface: pygame.Surface,
        tally: Tally,
        seat: int,
        c: int,
        at: tuple[int, int],
        unit: float,
        row_h: int,
        p: float,
    ) -> None:
        """A row of ``c`` units: those up to the fewest count dim, those above it lighting up
        one by one as the points count (red for the tile penalty)."""
        x0, cy = at
        h = max(4, min(int(unit * 0.8), row_h - 8))
        base = tally.baseline if tally.baseline is not None else 0
        above = max(0, c - base)
        lit = math.ceil(above * p)
        bad = tally.key == "tile_penalty"
        for i in range(c):
            rect = pygame.Rect(int(x0 + i * unit), cy - h // 2, max(2, int(unit) - 2), h)
            if i < base:
                colour = (90, 96, 110)
            elif i - base < lit:
                colour = pal.BAD if bad else GOLD
            else:
                colour = (60, 64, 76)
            pygame.draw.rect(surface, colour, rect, border_radius=max(1, h // 4))
        if tally.key == "whisky" and unit >= 10:
            sprite = art.barrel_sprite(max(8, h))
            for i in range(min(c, 40)):
                surface.blit(
                    sprite, sprite.get_rect(center=(int(x0 + i * unit + unit / 2 - 1), cy))
                )
