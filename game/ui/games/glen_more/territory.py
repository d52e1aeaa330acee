"""The players' territories.

The seat's own territory is drawn large in the middle (a square grid fitted to its tiles and,
while placing, to the legal spots); the others compact in the right column.  Each tile shows its
frame, river and road, emblem, its cubes (at most 3: a full tile says so), its clan members and,
for a special location, its card and bonnets.

What the seat may do is drawn from its ``legal`` list only:

* ``place`` — the taken tile as a ghost on every legal spot; the spot under the mouse shows
  which neighbours' edges it meets (ticked, rivers and roads continued) and which clan members
  make it reachable (ringed, the eight cells around outlined) — GM §4.2;
* ``pay`` / ``pay_clan`` — the cubes (clan members) that can pay are ringed;
* ``activate`` / ``loch_ness`` — the tiles still to activate light up, the new tile marked
  "1" while activating it first keeps its activation (D11); Loch Ness targets in blue;
* ``move`` / ``chieftain`` — clan members that may act are ringed; after choosing one, the
  tiles it may step to are outlined (GM §4.4).

The animations of the table are :mod:`game.ui.games.glen_more.motion`'s; a thing being animated
is hidden here until its animation lands (:meth:`TerritoryMixin._hidden_cells`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import pygame

from game.ui import palette as pal
from game.ui.games.glen_more import art
from game.ui.games.glen_more.common import (
    GOLD,
    LOCH_NESS,
    RIVER,
    ROAD,
    Cell,
    around,
    cell_of,
    tile_of,
)
from game.ui.games.glen_more.text import tile_name
from game.ui.games.glen_more.track import TrackMixin
from game.ui.grids import SquareGrid
from game.ui.i18n import t

if TYPE_CHECKING:
    from game.ui.games.glen_more.motion import Anim


def blit_alpha(
    surface: pygame.Surface, sprite: pygame.Surface, pos: tuple[int, int], alpha: int
) -> None:
    """Blit a shared (cached) sprite with an alpha, leaving the sprite as it was."""
    if alpha >= 255:
        surface.blit(sprite, pos)
        return
    before = sprite.get_alpha()
    sprite.set_alpha(max(0, alpha))
    surface.blit(sprite, pos)
    sprite.set_alpha(before)


class TerritoryMixin(TrackMixin):
    """The territories (big and compact)."""

    anims: list[Anim]
    other_order: list[int]

    # ---- layout -------------------------------------------------------------------------------
    def _relayout_grids(self) -> None:
        """Fit the big territory (its tiles, and the legal spots while placing) into its area,
        and each other seat's into its box."""
        self.small_grids = {}
        self.other_boxes = {}
        n = self.n_seats()
        if n == 0:
            self.big_grid = None
            return
        big = self.big_seat()
        rect = self.rects.grid.inflate(-self.app.px(12), -self.app.px(12))
        cells = list(self.territories[big]) if big < len(self.territories) else []
        margin = 0.45
        if big == self.you and self.acts.places:
            # Every spot whole, and the eight cells around it that the mouse over it marks
            # (GM §4.2: its clan members and sides): a cell of room on each side.
            cells += list(self.acts.places)
            margin = 1.0
        if rect.width > 4 and rect.height > 4:
            cap = max(8.0, min(rect.width / 4.2, rect.height / 4.2, self.app.px(124)))
            self.big_grid = SquareGrid.fit(
                (rect.x, rect.y, rect.width, rect.height), cells, margin=margin, max_size=cap
            )
        else:
            self.big_grid = None
        others = [s for s in range(n) if s != big]
        self.other_order = others
        area = self.rects.others
        if not others or area.height < 20:
            return
        gap = self.app.px(6)
        h = (area.height - gap * (len(others) - 1)) // len(others)
        head = self._box_head()
        for i, seat in enumerate(others):
            box = pygame.Rect(area.x, area.y + i * (h + gap), area.width, h)
            self.other_boxes[seat] = box
            inner = pygame.Rect(box.x + 4, box.y + head, box.width - 8, box.height - head - 4)
            if inner.width > 8 and inner.height > 8:
                tiles = list(self.territories[seat]) if seat < len(self.territories) else []
                grid = SquareGrid.fit(
                    (inner.x, inner.y, inner.width, inner.height),
                    tiles,
                    margin=0.15,
                    max_size=min(inner.width, inner.height) / 2.2,
                )
                self.small_grids[seat] = (grid, inner)

    def _box_head(self) -> int:
        return self.app.px(44)

    def cell_rect(self, seat: int, cell: Cell) -> pygame.Rect | None:
        """Where ``cell`` of ``seat``'s territory is drawn now (None: not drawn)."""
        if seat == self.big_seat() and self.big_grid is not None:
            return pygame.Rect(self.big_grid.rect(*cell))
        entry = self.small_grids.get(seat)
        if entry is not None:
            return pygame.Rect(entry[0].rect(*cell))
        return None

    # ---- drawing ------------------------------------------------------------------------------
    def _draw_territories(self, surface: pygame.Surface) -> None:
        self.cube_rects = []
        self._draw_big(surface)
        for seat, (grid, inner) in self.small_grids.items():
            self._draw_grid(surface, seat, grid, inner, small=True)

    def _draw_big(self, surface: pygame.Surface) -> None:
        rect = self.rects.grid
        px = self.app.px
        if rect.width <= 8 or rect.height <= 8:
            return
        pygame.draw.rect(surface, (30, 40, 34), rect, border_radius=px(12))
        pygame.draw.rect(surface, pal.BORDER, rect, 1, border_radius=px(12))
        grid = self.big_grid
        if grid is None:
            return
        seat = self.big_seat()
        clip = surface.get_clip()
        surface.set_clip(rect.inflate(-2, -2).clip(clip))
        tiles = self.territories[seat] if seat < len(self.territories) else {}
        # The empty cells next to the territory, faintly: where it can grow.
        for cell in grid.ring(tiles):
            r = pygame.Rect(grid.rect(*cell)).inflate(-4, -4)
            pygame.draw.rect(surface, (40, 54, 46), r, 1, border_radius=max(2, r.width // 10))
        acting = self.acting_on_own_grid()
        self._draw_grid(surface, seat, grid, rect, small=False)
        if acting:
            self._draw_actions(surface, grid, tiles)
        self._draw_cell_hint(surface, grid)
        surface.set_clip(clip)

    def _draw_grid(
        self,
        surface: pygame.Surface,
        seat: int,
        grid: SquareGrid,
        area: pygame.Rect,
        small: bool,
    ) -> None:
        """Every tile of ``seat``'s territory with its cubes and clan members."""
        tiles = self.territories[seat] if seat < len(self.territories) else {}
        hidden = self._hidden_cells(seat)
        size = int(grid.size)
        if size < 4:
            return
        own_cubes = seat == self.you and not small
        recent = self.recent.get(seat, set()) if small else set()
        for cell, entry in tiles.items():
            if cell in hidden:
                continue
            r = pygame.Rect(grid.rect(*cell))
            if not area.colliderect(r):
                continue
            face = art.tile_face(str(entry.get("tile")), max(8, r.width - 2))
            surface.blit(face, (r.x + 1, r.y + 1))
            self._draw_goods(surface, seat, cell, entry, r, small, own_cubes)
            if cell in recent:
                pygame.draw.rect(
                    surface,
                    (245, 245, 250),
                    r.inflate(-2, -2),
                    2,
                    border_radius=max(2, r.width // 9),
                )
            if not small and size >= self.app.px(92):
                self._name_band(surface, entry.get("tile"), r)

    def _name_band(self, surface: pygame.Surface, tile: Any, r: pygame.Rect) -> None:
        h = max(12, r.height // 7)
        band = pygame.Rect(r.x + r.width // 4, r.y + 3, r.width // 2, h)
        veil = pygame.Surface(band.size, pygame.SRCALPHA)
        pygame.draw.rect(veil, (12, 14, 18, 150), veil.get_rect(), border_radius=h // 2)
        surface.blit(veil, band)
        self._text(
            surface,
            tile_name(tile),
            h - 3,
            (240, 240, 236),
            band.center,
            band.width - 4,
            anchor="center",
            minimum=8,
        )

    def _draw_goods(
        self,
        surface: pygame.Surface,
        seat: int,
        cell: Cell,
        entry: dict[str, Any],
        r: pygame.Rect,
        small: bool,
        register: bool,
    ) -> None:
        """The cubes along the tile's bottom (a full tile marked), its clan members at the top
        left (with their number when more than one)."""
        cubes = self.cubes(entry)
        size = r.width
        if cubes:
            rad = max(2, int(size * (0.1 if not small else 0.12)))
            x = r.x + size * 0.2
            y = r.bottom - rad - max(2, size * 0.07)
            for res in cubes:
                if small and rad < 4:
                    colour = self._res_rgb(res)
                    pygame.draw.circle(surface, (20, 20, 24), (x, y), rad + 1)
                    pygame.draw.circle(surface, colour, (x, y), rad)
                else:
                    sprite = art.resource_sprite(res, rad, self._cb())
                    surface.blit(sprite, sprite.get_rect(center=(int(x), int(y))))
                if register:
                    box = pygame.Rect(0, 0, 2 * rad + 4, 2 * rad + 4)
                    box.center = (int(x), int(y))
                    self.cube_rects.append((box, seat, cell, res))
                x += 2 * rad + max(2, size * 0.05)
            if len(cubes) >= 3 and not small:
                pill = pygame.Rect(0, 0, max(14, int(size * 0.26)), max(9, int(size * 0.14)))
                pill.bottomright = (r.right - max(2, int(size * 0.05)), int(y - rad - 2))
                pygame.draw.rect(surface, (120, 30, 30), pill, border_radius=pill.height // 2)
                self._text(
                    surface,
                    t("gm.grid.full"),
                    pill.height - 2,
                    (250, 240, 230),
                    pill.center,
                    pill.width - 2,
                    anchor="center",
                    minimum=7,
                )
        clan = int(entry.get("clan", 0) or 0)
        if clan:
            h = max(6, int(size * (0.3 if not small else 0.38)))
            sprite = art.meeple_sprite(h)
            pos = (r.x + max(2, size * 0.06), r.y + max(2, size * 0.05))
            surface.blit(sprite, pos)
            if clan > 1:
                img = self.app.fonts.render(
                    f"×{clan}", max(8, int(h * 0.55)), (250, 250, 250), True
                )
                shadow = self.app.fonts.render(
                    f"×{clan}", max(8, int(h * 0.55)), (10, 10, 12), True
                )
                tx = pos[0] + sprite.get_width() - 1
                ty = pos[1] + sprite.get_height() - img.get_height()
                surface.blit(shadow, (tx + 1, ty + 1))
                surface.blit(img, (tx, ty))

    def _draw_actions(
        self, surface: pygame.Surface, grid: SquareGrid, tiles: dict[Cell, Any]
    ) -> None:
        """The seat's legal targets on its own territory (see the module docstring)."""
        acts = self.acts
        pulse = self.pulse()
        strong = self.app.settings.strong_outlines
        width = max(2, int(grid.size / (14 if strong else 22)))
        hover = grid.cell_at(*self.mouse) if self.rects.grid.collidepoint(self.mouse) else None
        glow = pal.shade(pal.HIGHLIGHT, 0.7 + 0.3 * pulse)
        # Placement spots: the taken tile as a ghost.
        tile = self.pending.get("tile")
        for cell in acts.places:
            r = pygame.Rect(grid.rect(*cell))
            if tile is not None:
                ghost = art.tile_face(str(tile), max(8, r.width - 2))
                blit_alpha(surface, ghost, (r.x + 1, r.y + 1), 210 if cell == hover else 95)
            pygame.draw.rect(
                surface, glow, r.inflate(-2, -2), width, border_radius=max(2, r.width // 9)
            )
            self.pulsing(r)
        if hover in acts.places:
            self._draw_place_reasons(surface, grid, hover, tiles)
        # Payment: the cubes and clan members that can pay.
        for box, _seat, cell, res in self.cube_rects:
            if ("pay", cell[0], cell[1], res) in acts.pays.get(cell, []):
                pygame.draw.circle(surface, glow, box.center, box.width * 0.62, 2)
                self.pulsing(box.inflate(box.width // 2 + 4, box.height // 2 + 4))
            if self.sell_pick == res and any((a[1], a[2]) == cell for a in acts.sells.get(res, [])):
                pygame.draw.circle(surface, pal.ACCENT, box.center, box.width * 0.62, 2)
        for cell in acts.pays:
            r = pygame.Rect(grid.rect(*cell))
            pygame.draw.rect(
                surface,
                glow,
                r.inflate(-2, -2),
                max(1, width - 1),
                border_radius=max(2, r.width // 9),
            )
            self.pulsing(r)
        if self.sell_pick is not None:
            for a in acts.sells.get(self.sell_pick, []):
                r = pygame.Rect(grid.rect(a[1], a[2]))
                pygame.draw.rect(
                    surface,
                    pal.ACCENT,
                    r.inflate(-2, -2),
                    width,
                    border_radius=max(2, r.width // 9),
                )
        for cell in acts.pay_clans:
            self._ring_meeple(surface, grid, cell, glow)
            self.pulsing(grid.rect(*cell))
        # Activation: the tiles still to activate light up (a tile still flying in, once it
        # has landed).
        first = self.pending.get("placed_first")
        first_cell = cell_of(first) if isinstance(first, list) and len(first) == 2 else None
        landing = self._hidden_cells(self.big_seat())
        for cell in acts.activates:
            if cell in landing:
                continue
            r = pygame.Rect(grid.rect(*cell))
            light = pygame.Surface(r.size, pygame.SRCALPHA)
            light.fill((255, 236, 150, 40 + int(40 * pulse)))
            surface.blit(light, r)
            self.pulsing(r)
            pygame.draw.rect(
                surface,
                GOLD,
                r.inflate(-2, -2),
                width + (1 if cell == hover else 0),
                border_radius=max(2, r.width // 9),
            )
            if cell == first_cell:
                self._badge(
                    surface,
                    "1",
                    (r.right - r.width // 6, r.y + r.height // 6),
                    GOLD,
                    max(10, r.width // 5),
                )
        for cell in acts.loch_ness:
            r = pygame.Rect(grid.rect(*cell)).inflate(-6, -6)
            strong = self.ness_mode or cell not in acts.activates
            colour = LOCH_NESS if strong else pal.shade(LOCH_NESS, 0.7)
            if strong:  # a lit tile keeps its gold outline: only the badge says Loch Ness
                self._dashed(surface, r, colour, max(2, width - 1))
            self._badge(
                surface,
                "N",
                (r.right - r.width // 6, r.centery),
                colour,
                max(10, r.width // 6),
            )
        # Clan members: who may act, and where the chosen one may step.
        for cell in self.move_sources():
            colour = pal.SOURCE if cell != self.move_from else pal.HIGHLIGHT
            self._ring_meeple(surface, grid, cell, colour, thick=cell == self.move_from)
        if self.move_from is not None:
            src = pygame.Rect(grid.rect(*self.move_from))
            for cell in acts.moves.get(self.move_from, {}):
                r = pygame.Rect(grid.rect(*cell))
                pygame.draw.rect(
                    surface, glow, r.inflate(-2, -2), width, border_radius=max(2, r.width // 9)
                )
                self.pulsing(r)
                if cell == hover:
                    pygame.draw.line(surface, pal.HIGHLIGHT, src.center, r.center, max(2, width))
                    sprite = art.meeple_sprite(max(6, int(r.width * 0.3)))
                    blit_alpha(surface, sprite, sprite.get_rect(center=r.center).topleft, 170)
        if hover is not None and hover in tiles:
            r = pygame.Rect(grid.rect(*hover))
            pygame.draw.rect(
                surface, (245, 245, 250), r.inflate(-1, -1), 1, border_radius=max(2, r.width // 9)
            )

    def _draw_place_reasons(
        self, surface: pygame.Surface, grid: SquareGrid, cell: Cell, tiles: dict[Cell, Any]
    ) -> None:
        """GM §4.2 at the spot under the mouse: its sides that meet the territory (ticked;
        a river or road continued across them) and the clan members in the eight cells around
        it (ringed), the eight cells outlined.  The spot is legal (the engine said so); this
        only shows why."""
        tile = tile_of(self.pending.get("tile"))
        edges = (tile or {}).get("edges") or {}
        r = pygame.Rect(grid.rect(*cell))
        block = pygame.Rect(grid.rect(cell[0] - 1, cell[1] - 1)).union(
            pygame.Rect(grid.rect(cell[0] + 1, cell[1] + 1))
        )
        self._dashed(surface, block.inflate(-2, -2), pal.SOURCE, 2)
        sides = (("N", (-1, 0), "S"), ("E", (0, 1), "W"), ("S", (1, 0), "N"), ("W", (0, -1), "E"))
        for side, (dr, dc), opposite in sides:
            other = tiles.get((cell[0] + dr, cell[1] + dc))
            if other is None:
                continue
            theirs = ((tile_of(other.get("tile")) or {}).get("edges") or {}).get(opposite, "none")
            mine = edges.get(side, "none")
            mx = r.centerx + dc * r.width / 2
            my = r.centery + dr * r.height / 2
            if mine != "none" and mine == theirs:
                colour = RIVER if mine == "river" else ROAD
                a = (r.centerx, r.centery)
                b = (r.centerx + dc * r.width, r.centery + dr * r.height)
                pygame.draw.line(
                    surface, pal.shade(colour, 1.25), a, b, max(3, int(r.width * 0.08))
                )
            k = max(5, r.width // 9)
            pygame.draw.circle(surface, (20, 24, 20), (mx, my), k + 2)
            pygame.draw.circle(surface, pal.GOOD, (mx, my), k)
            pygame.draw.lines(
                surface,
                (20, 24, 20),
                False,
                [(mx - k * 0.5, my), (mx - k * 0.1, my + k * 0.45), (mx + k * 0.55, my - k * 0.4)],
                max(2, k // 3),
            )
        for near in around(cell):
            entry = tiles.get(near)
            if entry is not None and int(entry.get("clan", 0) or 0):
                self._ring_meeple(surface, grid, near, pal.SOURCE, thick=True)

    def _ring_meeple(
        self,
        surface: pygame.Surface,
        grid: SquareGrid,
        cell: Cell,
        colour: pal.RGB,
        thick: bool = False,
    ) -> None:
        r = pygame.Rect(grid.rect(*cell))
        h = max(6, int(r.width * 0.3))
        centre = (r.x + max(2, r.width * 0.06) + h * 0.55, r.y + max(2, r.width * 0.05) + h * 0.5)
        pygame.draw.circle(surface, colour, centre, h * 0.72, 3 if thick else 2)

    def _badge(
        self,
        surface: pygame.Surface,
        text: str,
        centre: tuple[float, float],
        colour: pal.RGB,
        size: int,
    ) -> None:
        pygame.draw.circle(surface, (16, 18, 24), centre, size * 0.62)
        pygame.draw.circle(surface, colour, centre, size * 0.62, 2)
        img = self.app.fonts.render(text, max(8, int(size * 0.8)), colour, True)
        surface.blit(img, img.get_rect(center=(int(centre[0]), int(centre[1]))))

    def _dashed(self, surface: pygame.Surface, r: pygame.Rect, colour: pal.RGB, width: int) -> None:
        step = max(4, r.width // 10)
        for x in range(r.x, r.right, step * 2):
            pygame.draw.line(surface, colour, (x, r.y), (min(x + step, r.right), r.y), width)
            pygame.draw.line(
                surface, colour, (x, r.bottom), (min(x + step, r.right), r.bottom), width
            )
        for y in range(r.y, r.bottom, step * 2):
            pygame.draw.line(surface, colour, (r.x, y), (r.x, min(y + step, r.bottom)), width)
            pygame.draw.line(
                surface, colour, (r.right, y), (r.right, min(y + step, r.bottom)), width
            )

    def _draw_cell_hint(self, surface: pygame.Surface, grid: SquareGrid) -> None:
        """The hinted action on the territory: a ring and a bouncing arrow on its cell (for a
        step, from the clan member to where it goes)."""
        action = self.hint
        if action is None or action not in self.legal or not self.acting_on_own_grid():
            return
        kind = action[0]
        cells: list[Cell] = []
        if (
            kind in ("place", "activate", "loch_ness", "pay_clan", "chieftain", "pay")
            and len(action) >= 3
        ):
            cells = [(int(action[1]), int(action[2]))]
        elif kind == "move" and len(action) == 5:
            cells = [(int(action[1]), int(action[2])), (int(action[3]), int(action[4]))]
        elif kind == "sell" and len(action) == 4 and self.sell_pick == action[3]:
            cells = [(int(action[1]), int(action[2]))]
        if not cells:
            return
        bounce = abs(math.sin(self.pulse_angle()))
        for cell in cells:
            r = pygame.Rect(grid.rect(*cell))
            pygame.draw.rect(
                surface, (20, 20, 28), r.inflate(4, 4), 5, border_radius=max(3, r.width // 8)
            )
            pygame.draw.rect(
                surface, pal.HINT, r.inflate(4, 4), 3, border_radius=max(3, r.width // 8)
            )
        r = pygame.Rect(grid.rect(*cells[-1]))
        half = max(6, r.width * 0.18)
        tip_y = r.y - r.height * (0.05 + 0.15 * bounce)
        arrow = [
            (r.centerx, tip_y),
            (r.centerx - half, tip_y - half * 1.2),
            (r.centerx + half, tip_y - half * 1.2),
        ]
        pygame.draw.polygon(surface, pal.HINT, arrow)
        pygame.draw.polygon(surface, (20, 20, 28), arrow, 2)

    def _hidden_cells(self, seat: int) -> set[Cell]:
        """The cells of ``seat``'s territory whose tile is still flying in: drawn empty until
        it lands (:mod:`game.ui.games.glen_more.motion`)."""
        return {
            a.data["cell"] for a in self.anims if a.kind == "place" and a.data.get("seat") == seat
        }
