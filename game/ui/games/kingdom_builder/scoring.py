"""The end-of-game scoring sequence: category by category and in each category seat by seat,
the map darkens, what scored is washed in gold, outlined and marked while the points count up
(from the engine's ``view["scoring"]``); afterwards a category row or score chip in the panel
shows that category on the map again."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pygame

from game.ui import palette as pal
from game.ui.games.kingdom_builder import art
from game.ui.games.kingdom_builder.common import NOMAD_CARD_NAMES, TREASURE, Hex, hex_of
from game.ui.games.kingdom_builder.input import InputMixin
from game.ui.games.kingdom_builder.text import card_short_key, category_name
from game.ui.games.sequence import ScoreSequence
from game.ui.hexlayout import HexLayout
from game.ui.i18n import t

#: The end-of-game sequence (seconds at speed 1): each category's title, then each seat's
#: share of it drawn on the map (shorter for a seat that scored nothing), then a pause.
SCORE_INTRO = 0.6


SCORE_SEAT = 1.0


SCORE_SEAT_EMPTY = 0.4


SCORE_OUTRO = 0.4


#: The part of a seat's beat during which its points count up and its marks appear.
SCORE_COUNT = 0.6


#: The scoring marks: gold.
GOLD = (255, 200, 60)


GOLD_DARK = (120, 80, 10)


#: Categories whose gold was paid during play (the Nomads cards, Treasure).
IN_PLAY = (*NOMAD_CARD_NAMES, TREASURE)


class Scoring(ScoreSequence):
    """The end-of-game sequence: category by category, and in each category player by player,
    the points count up while the map shows what scored."""

    INTRO = SCORE_INTRO
    SEAT = SCORE_SEAT
    SEAT_EMPTY = SCORE_SEAT_EMPTY
    OUTRO = SCORE_OUTRO
    COUNT = SCORE_COUNT


@dataclass(frozen=True)
class Focus:
    """What the map shows of one category for one seat (``view["scoring"]`` entry), and how
    far its marks have appeared (0..1)."""

    category: str
    seat: int
    entry: dict[str, Any]
    progress: float = 1.0


def _sector_hexes(q: int) -> list[Hex]:
    """The 100 hexes of quadrant ``q`` (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right)."""
    r0, c0 = (q // 2) * 10, (q % 2) * 10
    return [(r, c) for r in range(r0, r0 + 10) for c in range(c0, c0 + 10)]


#: Odd-r neighbour offsets (even row, odd row) and the two corners of the shared edge
#: (corners clockwise from the top, as :meth:`HexLayout.corners` lists them).
_EDGES: tuple[tuple[tuple[int, int], tuple[int, int], tuple[int, int]], ...] = (
    ((0, 1), (0, 1), (1, 2)),  # east
    ((1, -1), (1, 0), (3, 4)),  # south-west
    ((1, 0), (1, 1), (2, 3)),  # south-east
    ((0, -1), (0, -1), (4, 5)),  # west
    ((-1, -1), (-1, 0), (5, 0)),  # north-west
    ((-1, 0), (-1, 1), (0, 1)),  # north-east
)


def _outline(
    surface: pygame.Surface,
    layout: HexLayout,
    area: set[Hex],
    colour: tuple[int, ...],
    width: int,
) -> None:
    """The outer border of a set of hexes: every edge whose other side is not in the set."""
    for row, col in area:
        corners = layout.corners(row, col)
        for even, odd, (i, j) in _EDGES:
            dr, dc = odd if row & 1 else even
            if (row + dr, col + dc) in area:
                continue
            a, b = corners[i], corners[j]
            pygame.draw.line(surface, colour, a, b, width)
            pygame.draw.circle(surface, colour, a, width / 2)
            pygame.draw.circle(surface, colour, b, width / 2)


def _on_map(category: str) -> bool:
    """Whether a category's scoring is shown on the map: a Nomads card's or Treasure's entry
    has only ``points`` (its gold was paid during play), so the map stays as it is while the
    panel counts it up."""
    return category not in IN_PLAY


class ScoringMixin(InputMixin):
    """The sequence, and what it draws on the map and in the panel's turn box."""

    def start_scoring(self) -> None:
        if self.scoring is None or self.scoring.elapsed >= 1e8:
            self.scoring = Scoring(self._categories(), self.view.get("scores", []))
            if self._speed() <= 0:
                self.scoring.elapsed = 1e9

    def scoring_done(self) -> bool:
        return self.scoring is None or self.scoring.done

    def skip_scoring(self, everything: bool) -> None:
        """A click shows the next step of the sequence; Enter ends it."""
        if self.scoring is not None and not self.scoring.done:
            if everything:
                self.scoring.finish()
            else:
                self.scoring.next_beat()
            self.panel_surf = None

    def _focus(self) -> Focus | None:
        """What the map shows of the scoring now: the seat being counted during the sequence,
        or after it the category (and seat) the mouse points at in the panel."""
        sc = self.scoring
        if sc is not None and not sc.done:
            beat = sc.beat()
            if beat is None or beat.seat is None:
                return None
            cat = sc.categories[beat.category]
            entry = self.score_details.get((cat, beat.seat))
            if entry is None or not _on_map(cat):
                return None
            return Focus(cat, beat.seat, entry, sc.progress(beat))
        if self.hover_focus is not None and self.view.get("over"):
            entry = self.score_details.get(self.hover_focus)
            if entry is not None and _on_map(self.hover_focus[0]):
                return Focus(self.hover_focus[0], self.hover_focus[1], entry)
        return None

    def _focus_hexes(self, focus: Focus) -> set[Hex]:
        """Every hex the focus shows bright: its rows, sectors, areas, settlements, specials."""
        e = focus.entry
        out: set[Hex] = set()
        for row in e.get("rows", []):
            out.update((int(row), c) for c in range(20))
        for q in e.get("sectors", []):
            out.update(_sector_hexes(int(q)))
        for group in e.get("groups", []):
            out.update(hex_of(h) for h in group)
        out.update(hex_of(h) for h in e.get("hexes", []))
        out.update(hex_of(h) for h in e.get("specials", []))
        return out

    def _draw_focus_overlay(self, surface: pygame.Surface, focus: Focus) -> None:
        """Rows and sectors washed in gold and outlined; areas outlined (cached per focus)."""
        hx = self.hexes
        assert hx is not None
        key = (focus.category, focus.seat, id(focus.entry), hx)
        if self._overlay is None or self._overlay[0] != key:
            x, y, w, h = hx.bounds()
            local = HexLayout((hx.origin[0] - x, hx.origin[1] - y), hx.size, hx.rows, hx.cols)
            surf = pygame.Surface((w, h), pygame.SRCALPHA)
            e = focus.entry
            bands: list[set[Hex]] = [
                {(int(row), c) for c in range(20)} for row in e.get("rows", [])
            ]
            bands += [set(_sector_hexes(int(q))) for q in e.get("sectors", [])]
            width = max(2, round(hx.size / 6))
            for band in bands:
                for row, col in band:
                    pygame.draw.polygon(surf, (*GOLD, 46), local.corners(row, col))
            for band in bands:
                _outline(surf, local, band, (*GOLD, 235), width)
            for group in e.get("groups", []):
                area = {hex_of(h) for h in group}
                _outline(surf, local, area, (20, 16, 8, 200), width + 2)
                _outline(surf, local, area, (255, 236, 170, 255), width)
            self._overlay = (key, surf)
        surface.blit(self._overlay[1], self.static_pos)

    def _faded_house(self, seat: int) -> pygame.Surface:
        """The seat's house, faded (another seat is being scored)."""
        assert self.hexes is not None
        key = (seat, round(self.hexes.size, 1), self._sprite_key())
        sprite = self._faded.get(key)
        if sprite is None:
            sprite = self._house(seat).copy()
            sprite.set_alpha(70)
            self._faded[key] = sprite
        return sprite

    def _draw_marks(self, surface: pygame.Surface, focus: Focus) -> None:
        """Gold rings on the special hexes that scored, a gold mark on every settlement that
        scored (appearing one by one while the points count up), and each sector's points."""
        hx = self.hexes
        assert hx is not None
        e = focus.entry
        size = hx.size
        pulse = 0.5 + 0.5 * math.sin(self.clock * 5.0)
        for h in e.get("specials", []):
            cx, cy = hx.centre(*hex_of(h))
            pygame.draw.circle(surface, GOLD_DARK, (cx, cy), size * 0.98, max(3, round(size / 4)))
            pygame.draw.circle(
                surface,
                pal.shade(GOLD, 0.9 + 0.2 * pulse),
                (cx, cy),
                size * 0.98,
                max(2, round(size / 6)),
            )
        hexes = sorted(hex_of(h) for h in e.get("hexes", []))
        shown = math.ceil(len(hexes) * focus.progress)
        ring = art.ring_sprite(round(size, 1), GOLD)
        sw, sh = art.sprite_size(round(size, 1))
        rad = max(4.0, size * 0.3)
        # A ring around each settlement, unless a row, sector or area already frames them.
        framed = bool(e.get("rows") or e.get("sectors") or e.get("groups"))
        for h in hexes[:shown]:
            cx, cy = hx.centre(*h)
            if not framed:
                surface.blit(ring, (cx - sw / 2, cy - sh / 2))
            mx, my = cx + size * 0.5, cy - size * 0.45
            pygame.draw.circle(surface, GOLD_DARK, (mx, my), rad + 1.5)
            pygame.draw.circle(surface, GOLD, (mx, my), rad)
            pygame.draw.circle(
                surface, (255, 240, 180), (mx - rad * 0.3, my - rad * 0.3), rad * 0.35
            )
        self.label_rects = []
        if focus.progress <= 0:
            return
        for q, points in zip(e.get("sectors", []), e.get("sector_points", []), strict=False):
            r0, c0 = (int(q) // 2) * 10, (int(q) % 2) * 10
            (ax, ay), (bx, by) = hx.centre(r0 + 4, c0 + 4), hx.centre(r0 + 5, c0 + 5)
            self._label(surface, f"+{points}", ((ax + bx) / 2, (ay + by) / 2), size * 1.6)

    def _label(
        self, surface: pygame.Surface, text: str, centre: tuple[float, float], height: float
    ) -> None:
        """A big gold number on a dark pill, readable over any terrain."""
        img = self.app.fonts.render(text, max(10, int(height)), GOLD, True)
        box = img.get_rect(center=(int(centre[0]), int(centre[1]))).inflate(
            int(height * 0.6), int(height * 0.1)
        )
        veil = pygame.Surface(box.size, pygame.SRCALPHA)
        pygame.draw.rect(veil, (16, 18, 26, 215), veil.get_rect(), border_radius=box.height // 2)
        surface.blit(veil, box)
        self.label_rects.append(box)
        pygame.draw.rect(surface, GOLD, box, 2, border_radius=box.height // 2)
        surface.blit(img, img.get_rect(center=box.center))

    def _paint_scoring_box(self, surf: pygame.Surface, box: pygame.Rect, sc: Scoring) -> None:
        """The turn box during the end-of-game sequence: the category being counted, its rule,
        and the seat whose points the map shows, counting up."""
        beat = sc.beat()
        if beat is None:
            return
        px = self.app.px
        fonts = self.app.fonts
        pygame.draw.rect(surf, (46, 40, 26), box, border_radius=px(10))
        pygame.draw.rect(surf, pal.ACCENT, box, 2, border_radius=px(10))
        key = sc.categories[beat.category]
        x, w = box.x + px(12), box.width - px(24)
        counter = fonts.render(f"{beat.category + 1}/{len(sc.categories)}", px(13), pal.TEXT_DIM)
        surf.blit(counter, counter.get_rect(topright=(box.right - px(12), box.y + px(10))))
        title_w = w - counter.get_width() - px(8)
        title = fonts.render(
            fonts.ellipsize(category_name(key), px(22), title_w, True), px(22), pal.ACCENT, True
        )
        surf.blit(title, (x, box.y + px(6)))
        rule = t(card_short_key(key))
        if key in IN_PLAY:
            # Paid during the game: the sequence only counts it up.
            rule = t("kb.scoring.in_play")
        y = box.y + px(8) + title.get_height()
        for img in fonts.render_lines(
            rule, px(13), pal.TEXT_DIM, w, 1 if beat.seat is not None else 2
        ):
            surf.blit(img, (x, y))
            y += fonts.line_height(px(13))
        if beat.seat is None:
            return
        cy = box.bottom - px(22)
        sw = self._swatch(beat.seat, px(24))
        surf.blit(sw, sw.get_rect(midleft=(x, cy)))
        value = sc.value(beat.category, beat.seat) or 0
        points = fonts.render(f"+{value}", px(24), pal.ACCENT, True)
        surf.blit(points, points.get_rect(midright=(box.right - px(12), cy)))
        avail = box.right - px(12) - points.get_width() - px(10) - (x + px(32))
        name = fonts.render(
            fonts.ellipsize(self._name(beat.seat), px(18), avail, True), px(18), pal.TEXT, True
        )
        surf.blit(name, name.get_rect(midleft=(x + px(32), cy)))
