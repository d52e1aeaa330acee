"""The villages: one large (yours, or the one you pick), the others compact beside it.  Each is a
grid of flat-topped hexes (:class:`game.ui.grids.HexGrid`, axial ``(q, r)`` as in the view) whose
tiles show their current side (upgraded ones their upgraded side, with a star), their roads,
rivers and fields reaching every side so matching is seen at a glance, the resources lying on
them, their colour lock and this season's uses.

Legal targets are highlighted from the ``legal`` list only: tiles that may be used, tiles whose
resources may move (transport) or that may be upgraded, the neighbours a resource may move to,
and during placement the hexes where the chosen tile may go — with a ghost of the tile, turned
with Q / E, whose sides that touch the village are marked ✓ or ✗ (its own edges against the
neighbours' edges, as drawn) and placed by Confirm only when the engine lists that rotation.
"""

from __future__ import annotations

import math
from typing import Any

import pygame

from game.ui import palette as pal
from game.ui.games.keyflower import art
from game.ui.games.keyflower.common import (
    RESOURCES,
    Cell,
    Hit,
    rotated_edges,
    tile_def,
)
from game.ui.games.keyflower.motion import MotionMixin
from game.ui.grids import HexGrid
from game.ui.i18n import t


class VillageMixin(MotionMixin):
    """The villages and what is drawn on them."""

    # ---- data --------------------------------------------------------------------------------
    def _village(self, seat: int) -> list[tuple[str, int, int, int, str, list[int]]]:
        """``(tile, q, r, rot, face, resources)`` of a seat's village (its own placements of
        this phase included, for the seat itself)."""
        out = []
        sv = self._seat_view(seat)
        for entry in sv.get("village") or []:
            if isinstance(entry, list) and len(entry) >= 6:
                res = [int(x) for x in entry[5]] if isinstance(entry[5], list) else [0] * 4
                out.append(
                    (str(entry[0]), int(entry[1]), int(entry[2]), int(entry[3]), str(entry[4]), res)
                )
        for entry in sv.get("placed") or []:
            if isinstance(entry, list) and len(entry) >= 4:
                tid = str(entry[0])
                out.append(
                    (
                        tid,
                        int(entry[1]),
                        int(entry[2]),
                        int(entry[3]),
                        self._face_of(tid),
                        [0, 0, 0, 0],
                    )
                )
        return out

    def _edges_at(self, seat: int) -> dict[Cell, tuple[str, ...]]:
        out = {}
        for tile, q, r, rot, _face, _res in self._village(seat):
            td = tile_def(tile)
            if td is not None:
                out[(q, r)] = rotated_edges(td, rot)
        return out

    # ---- layers ------------------------------------------------------------------------------
    def _village_key(self, seat: int, rect: pygame.Rect, big: bool) -> tuple[Any, ...]:
        extra: tuple[Any, ...] = ()
        if big:
            extra = (
                self.zoom,
                self.zoom_at,
                tuple(sorted(self.place_targets())),
                self._focus_key(),
            )
        return (self._serial, seat, rect.size, self._key(), big, extra)

    def _focus_key(self) -> tuple[Any, ...]:
        focus = self._focus()
        if focus is None:
            return ()
        return (focus.category, focus.seat, round(focus.progress, 1))

    def _village_layer(self, seat: int, rect: pygame.Rect, big: bool) -> pygame.Surface:
        name = "big" if big else f"v{seat}"
        key = self._village_key(seat, rect, big)
        cached = self.layers.get(name)
        if cached is not None and cached[0] == key:
            return cached[1]
        surf = pygame.Surface(rect.size, pygame.SRCALPHA)
        hits: list[Hit] = []
        self._paint_village(surf, seat, rect, big, hits)
        self._village_hits[name] = hits
        self.layers[name] = (key, surf)
        return surf

    def _paint_village(
        self, surf: pygame.Surface, seat: int, rect: pygame.Rect, big: bool, hits: list[Hit]
    ) -> None:
        px = self.app.px
        ox, oy = rect.topleft
        w, h = rect.size
        current = self.view.get("current")
        active = seat in self.to_move or current == seat
        pygame.draw.rect(surf, pal.BG_PANEL, surf.get_rect(), border_radius=px(10))
        if active:
            pygame.draw.rect(surf, self._seat_rgb(seat), surf.get_rect(), 2, border_radius=px(10))
        title_h = px(22) if big else px(18)
        sw = self._swatch(seat, title_h - px(6))
        surf.blit(sw, (px(6), px(3)))
        name = self._name(seat)
        you = self._you()
        if seat == you:
            name += " " + t("kf.panel.you_tag")
        title = t("kf.village.title", name=name)
        self._text(
            surf,
            title,
            (px(8) + sw.get_width(), px(2)),
            px(15) if big else px(12),
            pal.TEXT,
            w - px(14) - sw.get_width(),
            True,
        )
        if not big:
            hits.append(Hit("village", seat, pygame.Rect(ox, oy, w, title_h)))
        tiles = self._village(seat)
        cells = [(q, r) for _t, q, r, _rot, _f, _res in tiles]
        targets = self.place_targets() if big and seat == you else {}
        box = (px(4), title_h + px(2), w - px(8), h - title_h - px(6))
        fit_cells = cells + list(targets)
        grid = HexGrid.fit(box, fit_cells, flat=True, max_size=px(60) if big else px(30))
        if big and self.zoom != 1.0:
            about = self.zoom_at or (box[0] + box[2] / 2, box[1] + box[3] / 2)
            grid = grid.zoomed(self.zoom, (float(about[0]), float(about[1])))
        # the grid in window coordinates (for clicks and the frame's overlays)
        abs_grid = HexGrid((grid.origin[0] + ox, grid.origin[1] + oy), grid.size, True)
        if big:
            self.big_grid = abs_grid
            self.big_seat_shown = seat
        else:
            self.compact_grids[seat] = abs_grid
        clip = surf.get_clip()
        surf.set_clip(pygame.Rect(box[0], box[1], box[2], box[3]))
        r = grid.size
        act = self._activity()
        focus = self._focus()
        scored = focus.tiles() if focus is not None and focus.seat == seat else None
        for tile, q, rr, rot, face, res in tiles:
            cx, cy = grid.centre(q, rr)
            sprite = self._tile_sprite(tile, face, rot, r)
            if scored is not None and tile not in scored:
                sprite = sprite.copy()
                sprite.set_alpha(95)
            surf.blit(sprite, sprite.get_rect(center=(int(cx), int(cy))))
            entry = act.get(tile)
            if entry is not None:
                self._paint_lock_uses(surf, (cx, cy), r, entry)
            centre = (cx + ox, cy + oy)
            hits.append(
                Hit(
                    "tile",
                    tile,
                    pygame.Rect(0, 0, 0, 0),
                    centre,
                    r,
                    {"seat": seat, "cell": (q, rr), "face": face},
                )
            )
            # after the tile: its resources are hit first (the topmost thing drawn)
            self._paint_resources(surf, tile, (cx, cy), r, res, (ox, oy), hits, big)
            self.spots[f"tile:{tile}"] = centre
        if cells:
            qs = [grid.centre(q, rr) for q, rr in cells]
            self.spots[f"village:{seat}"] = (
                ox + sum(p[0] for p in qs) / len(qs),
                oy + sum(p[1] for p in qs) / len(qs),
            )
        else:
            self.spots[f"village:{seat}"] = (ox + w / 2, oy + h / 2)
        if scored is not None and focus is not None:
            self._paint_focus(surf, grid, seat, focus, tiles)
        surf.set_clip(clip)

    def _paint_resources(
        self,
        surf: pygame.Surface,
        tile: str,
        centre: tuple[float, float],
        r: float,
        res: list[int],
        origin: tuple[int, int],
        hits: list[Hit],
        big: bool,
    ) -> None:
        """The resources lying on a tile: a token per kind and its number, on the lower part
        of the hex (each token is a click target in the large village: transport)."""
        kinds = [(RESOURCES[k], n) for k, n in enumerate(res[:4]) if n]
        if not kinds:
            return
        cx, cy = centre
        size = max(7.0, r * 0.3)
        step = size * (1.7 if max(n for _k, n in kinds) > 1 else 1.15)
        x0 = cx - step * (len(kinds) - 1) / 2
        y = cy + r * 0.62
        for i, (kind, n) in enumerate(kinds):
            x = x0 + i * step
            back = pygame.Rect(0, 0, int(step - 1), int(size * 1.25))
            back.center = (int(x), int(y))
            pygame.draw.rect(surf, (30, 30, 34), back, border_radius=max(2, int(size / 3)))
            tx = x - (size * 0.35 if n > 1 else 0)
            art.draw_resource(surf, (tx, y), size, kind)
            if n > 1:
                img = self.app.fonts.render(str(n), max(8, int(size * 0.95)), pal.TEXT, True)
                surf.blit(img, img.get_rect(midleft=(int(tx + size * 0.5), int(y))))
            if big:
                hits.append(Hit("res", (tile, kind), back.move(*origin)))

    def _paint_focus(
        self,
        surf: pygame.Surface,
        grid: HexGrid,
        seat: int,
        focus: Any,
        tiles: list[tuple[str, int, int, int, str, list[int]]],
    ) -> None:
        """The scoring: gold rings and points on the tiles that scored, loops outlined."""
        where = {tile: (q, r) for tile, q, r, _rot, _f, _res in tiles}
        r = grid.size
        for chain in focus.outlines():
            cells = {where[x] for x in chain if x in where}
            for a, b in grid.outline(cells):
                pygame.draw.line(surf, art.GOLD, a, b, max(3, int(r / 6)))
            pts = [grid.centre(*where[x]) for x in chain if x in where]
            if len(pts) >= 2:
                pygame.draw.lines(surf, art.GOLD, len(pts) > 2, pts, max(2, int(r / 9)))
        items = sorted(focus.tiles().items())
        shown = math.ceil(len(items) * focus.progress)
        for tile, points in items[:shown]:
            if tile not in where:
                continue
            cx, cy = grid.centre(*where[tile])
            pygame.draw.polygon(
                surf, art.GOLD_DARK, art.hex_points(cx, cy, r - 1), max(3, int(r / 7)) + 2
            )
            pygame.draw.polygon(surf, art.GOLD, art.hex_points(cx, cy, r - 1), max(3, int(r / 7)))
            label = f"+{points}"
            size = max(10, int(r * 0.36))
            img = self.app.fonts.render(label, size, art.GOLD, True)
            box = img.get_rect(center=(int(cx), int(cy + r * 0.5))).inflate(size // 2, 2)
            veil = pygame.Surface(box.size, pygame.SRCALPHA)
            pygame.draw.rect(
                veil, (16, 18, 26, 220), veil.get_rect(), border_radius=box.height // 2
            )
            surf.blit(veil, box)
            pygame.draw.rect(surf, art.GOLD, box, 2, border_radius=box.height // 2)
            surf.blit(img, img.get_rect(center=box.center))

    # ---- each frame --------------------------------------------------------------------------
    def _shown_big_seat(self) -> int:
        """The seat whose village is drawn large now (the seat being scored, at the end)."""
        focus = self._focus()
        return focus.seat if focus is not None else self._big_seat()

    def _draw_villages(self, surface: pygame.Surface) -> None:
        big_seat = self._shown_big_seat()
        if self.big_rect.width > 0:
            layer = self._village_layer(big_seat, self.big_rect, True)
            surface.blit(layer, self.big_rect.topleft)
        others = [s for s in range(len(self._seat_views())) if s != big_seat]
        for s, rect in zip(others, self.compact_list, strict=False):
            layer = self._village_layer(s, rect, False)
            surface.blit(layer, rect.topleft)
        self.compact_rects = dict(zip(others, self.compact_list, strict=False))
        self._draw_village_targets(surface, big_seat)

    def _all_village_hits(self) -> list[Hit]:
        out: list[Hit] = []
        big_seat = self._shown_big_seat()
        out += self._village_hits.get("big", [])
        for s in self.compact_rects:
            if s != big_seat:
                out += self._village_hits.get(f"v{s}", [])
        return out

    def _draw_village_targets(self, surface: pygame.Surface, big_seat: int) -> None:
        """Legal targets on the villages (pulsing), the transport in progress, the ghost."""
        strong = self.app.settings.strong_outlines
        alpha = self._pulse()
        stage = self._stage()
        pending = self._pending()
        hits = self._all_village_hits()
        for hit in hits:
            if hit.kind != "tile" or not self.legal:
                continue
            tile = str(hit.key)
            colour: pal.RGB | None = None
            if stage in ("start", "reclaim") and tile in self.use_at:
                colour = pal.HIGHLIGHT
            elif stage == "transport" and (tile in self.move_at or tile in self.upgrade_at):
                colour = pal.SOURCE if tile in self.move_at else pal.ACCENT
            elif stage == "move_to" and tile in self.move_to_at:
                colour = pal.HIGHLIGHT
            if colour is not None:
                sprite = art.highlight_sprite(round(hit.hex_r, 1), colour, strong)
                sprite.set_alpha(alpha)
                lit = sprite.get_rect(center=(int(hit.centre[0]), int(hit.centre[1])))
                surface.blit(sprite, lit)
                self.pulsing(lit)
                if stage == "transport" and tile in self.upgrade_at and hit.hex_r > 14:
                    art.draw_house(
                        surface,
                        (hit.centre[0] + hit.hex_r * 0.62, hit.centre[1] - hit.hex_r * 0.62),
                        hit.hex_r * 0.36,
                    )
            if tile == self.picked or (stage == "move_to" and tile == pending.get("move_from")):
                pygame.draw.polygon(
                    surface,
                    pal.SOURCE,
                    art.hex_points(hit.centre[0], hit.centre[1], hit.hex_r + 1),
                    4,
                )
            if (
                len(self.composer.prefix) >= 2
                and self.composer.prefix[0] == "use"
                and self.composer.prefix[1] == tile
            ):
                pygame.draw.polygon(
                    surface,
                    pal.SOURCE,
                    art.hex_points(hit.centre[0], hit.centre[1], hit.hex_r + 1),
                    4,
                )
            if tile in self.recent and self.scoring is None:
                pygame.draw.polygon(
                    surface,
                    (245, 245, 250),
                    art.hex_points(hit.centre[0], hit.centre[1], hit.hex_r * 0.9),
                    2,
                )
        if stage == "move_to" and pending.get("move_kind"):
            spot = self.spots.get(f"tile:{pending.get('move_from')}")
            if spot is not None:
                bob = math.sin(2 * self.pulse_angle()) * self.app.px(3)
                centre = (spot[0], spot[1] - (self.big_grid.size if self.big_grid else 20) * 0.9)
                size = self.app.px(18)
                art.draw_resource(
                    surface, (centre[0], centre[1] + bob), size, str(pending.get("move_kind"))
                )
                self.pulsing(
                    pygame.Rect(0, 0, 2 * size + 4, 2 * size + self.app.px(6) + 4).move(
                        int(centre[0]) - size - 2, int(centre[1]) - size - self.app.px(3) - 2
                    )
                )
        if self._phase() == "place" and big_seat == self._you():
            self._draw_placement(surface)

    def _draw_placement(self, surface: pygame.Surface) -> None:
        """The hexes the chosen tile may go to, and its ghost (pinned, or under the mouse)."""
        grid = getattr(self, "big_grid", None)
        targets = self.place_targets()
        tile = self._place_tile()
        if grid is None or tile is None or not targets:
            return
        strong = self.app.settings.strong_outlines
        r = grid.size
        slot = art.highlight_sprite(round(r, 1), pal.HIGHLIGHT, strong, 30)
        slot.set_alpha(self._pulse())
        for target in targets:
            cx, cy = grid.centre(*target)
            spot = slot.get_rect(center=(int(cx), int(cy)))
            surface.blit(slot, spot)
            self.pulsing(spot)
        cell: Cell | None = self.ghost
        if cell is None:
            hover = grid.cell_at(*self.mouse) if self.big_rect.collidepoint(self.mouse) else None
            if hover in targets:
                cell = hover
        if cell is None:
            return
        rot = self.ghost_rot
        if self.ghost is None and rot not in targets[cell]:
            rot = targets[cell][0]
        self._draw_ghost(surface, grid, tile, cell, rot, legal=rot in targets[cell])

    def _draw_ghost(
        self, surface: pygame.Surface, grid: HexGrid, tile: str, cell: Cell, rot: int, legal: bool
    ) -> None:
        td = tile_def(tile)
        if td is None:
            return
        r = grid.size
        cx, cy = grid.centre(*cell)
        sprite = self._tile_sprite(tile, self._face_of(tile), rot, r).copy()
        sprite.set_alpha(200)
        surface.blit(sprite, sprite.get_rect(center=(int(cx), int(cy))))
        colour = pal.GOOD if legal else pal.BAD
        pygame.draw.polygon(surface, colour, art.hex_points(cx, cy, r), 3)
        # the sides that touch the village: do they match?  (✓ / ✗ on each)
        edges = rotated_edges(td, rot)
        around = self._edges_at(self._big_seat())
        mark = max(6.0, r * 0.16)
        for side in range(6):
            n = grid.neighbour(cell[0], cell[1], side)
            other = around.get(n)
            if other is None:
                continue
            match = other[(side + 3) % 6] == edges[side]
            mx, my = art.side_mid(cx, cy, r * 0.98, side)
            pygame.draw.circle(surface, (20, 20, 24), (mx, my), mark + 1)
            pygame.draw.circle(surface, pal.GOOD if match else pal.BAD, (mx, my), mark)
            if match:
                pygame.draw.lines(
                    surface,
                    (255, 255, 255),
                    False,
                    [
                        (mx - mark * 0.5, my),
                        (mx - mark * 0.1, my + mark * 0.45),
                        (mx + mark * 0.55, my - mark * 0.45),
                    ],
                    2,
                )
            else:
                d = mark * 0.45
                pygame.draw.line(surface, (255, 255, 255), (mx - d, my - d), (mx + d, my + d), 2)
                pygame.draw.line(surface, (255, 255, 255), (mx - d, my + d), (mx + d, my - d), 2)
