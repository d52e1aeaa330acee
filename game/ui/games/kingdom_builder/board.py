"""Drawing the Kingdom Builder map: the static layer (terrain, castles, locations, section
borders) drawn once per layout, and each frame the settlements, walls, legal-target highlights,
the hover ghost, the hint marker and the animations (settlements dropping or sliding in, walls,
tiles flying between the map and the panel)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import pygame

from game.ui import palette as pal
from game.ui.games.kingdom_builder import art
from game.ui.games.kingdom_builder.common import BOARD_ACTIONS, Hex, hex_of, quadrant
from game.ui.games.kingdom_builder.scoring import Focus, ScoringMixin
from game.ui.games.kingdom_builder.text import nomad_abbr
from game.ui.hexlayout import HexLayout
from game.ui.i18n import has, t
from game.ui.tween import Tween, arc, ease_in_out, ease_out_bounce, ease_out_cubic

#: Seconds per animation at speed 1.
DROP_TIME = 0.42


SLIDE_TIME = 0.5


FLY_TIME = 0.7


STAGGER = 0.16


@dataclass
class Anim:
    """One running animation: a settlement dropping or sliding, a tile flying, a wall."""

    kind: str  # drop | slide | fly_in | fly_out | wall | lift
    tween: Tween
    seat: int | None = None
    hex: Hex | None = None
    start: tuple[float, float] = (0.0, 0.0)
    end: tuple[float, float] = (0.0, 0.0)
    tile: str = ""
    #: A nomad tile's Donation terrain (its chip's colour).
    terrain: str | None = None


class BoardMixin(ScoringMixin):
    """The map and its animations."""

    def _track_recent(self, events: list[dict[str, Any]], you: Any) -> None:
        """Hexes other players than ``you`` built on or moved to since your last turn."""
        for ev in events:
            kind = ev.get("type")
            seat = ev.get("seat")
            if kind in ("place", "move") and seat is not None and seat != you:
                self.recent[hex_of(ev.get("hex") or ev.get("to"))] = seat
                if kind == "move":
                    self.recent.pop(hex_of(ev["from"]), None)
            if kind == "remove" and ev.get("hex") is not None:
                self.recent.pop(hex_of(ev["hex"]), None)
            if kind == "end_turn" and (seat == you or you is None):
                self.recent.clear()

    def show_since(self, events: list[dict[str, Any]], seat: int) -> None:
        """Hot-seat: ring what others built in ``events`` (since ``seat``'s last turn)."""
        self.recent.clear()
        self._track_recent([ev for ev in events if isinstance(ev, dict)], seat)

    def _animate(self, events: list[dict[str, Any]]) -> None:
        self._track_recent(events, self.view.get("you"))
        if self._speed() <= 0 or self.hexes is None:
            return
        backlog = max(
            (a.tween.delay + a.tween.duration - a.tween.elapsed for a in self.anims), default=0
        )
        if backlog > 1.2:
            self.finish_animations()
            backlog = 0
        delay = max(0.0, backlog)
        hx = self.hexes
        for ev in events:
            kind = ev.get("type")
            seat = ev.get("seat")
            if kind == "place":
                h = hex_of(ev["hex"])
                cx, cy = hx.centre(*h)
                self.anims.append(
                    Anim(
                        "drop",
                        Tween((cy - hx.size * 2.2,), (cy,), DROP_TIME, ease_out_bounce, delay),
                        seat,
                        h,
                        (cx, cy - hx.size * 2.2),
                        (cx, cy),
                    )
                )
                delay += STAGGER
            elif kind == "move":
                a, b = hex_of(ev["from"]), hex_of(ev["to"])
                self.anims.append(
                    Anim(
                        "slide",
                        Tween((0.0,), (1.0,), SLIDE_TIME, ease_in_out, delay),
                        seat,
                        b,
                        hx.centre(*a),
                        hx.centre(*b),
                    )
                )
                delay += STAGGER
            elif kind == "wall":
                h = hex_of(ev["hex"])
                cx, cy = hx.centre(*h)
                self.anims.append(
                    Anim(
                        "wall",
                        Tween((cy - hx.size * 1.5,), (cy,), DROP_TIME, ease_out_bounce, delay),
                        None,
                        h,
                        (cx, cy - hx.size * 1.5),
                        (cx, cy),
                    )
                )
                delay += STAGGER
            elif kind == "remove" and isinstance(ev.get("victim"), int):
                # The Sword's victim's settlement rises off the map, back to its supply.
                h = hex_of(ev["hex"])
                cx, cy = hx.centre(*h)
                self.anims.append(
                    Anim(
                        "lift",
                        Tween((0.0,), (1.0,), SLIDE_TIME, ease_in_out, delay),
                        int(ev["victim"]),
                        None,
                        (cx, cy),
                        (cx, cy - hx.size * 2.4),
                    )
                )
                delay += STAGGER
            elif kind in ("gain_tile", "lose_tile", "gain_nomad") and seat is not None:
                h = hex_of(ev["hex"])
                board_pt = hx.centre(*h)
                row = self.row_rects.get(seat)
                panel_pt = (
                    (row.x + row.width * 0.6, row.centery)
                    if row is not None
                    else (self.panel_rect.centerx, self.panel_rect.y + 40)
                )
                gained = kind != "lose_tile"
                start, end = (board_pt, panel_pt) if gained else (panel_pt, board_pt)
                terrain = ev.get("terrain") if kind == "gain_nomad" else None
                self.anims.append(
                    Anim(
                        "fly_in" if gained else "fly_out",
                        Tween((0.0,), (1.0,), FLY_TIME, ease_out_cubic, delay),
                        seat,
                        None,
                        start,
                        end,
                        str(ev.get("tile_type") or ev.get("tile") or ""),
                        terrain if isinstance(terrain, str) else None,
                    )
                )
                delay += STAGGER

    def animating(self) -> bool:
        return bool(self.anims)

    def ambient_rects(self) -> list[pygame.Rect] | None:
        """While the legal hexes pulse and nothing else moves, only they change."""
        if self.anims or self.hint is not None or self.scoring is not None or not self.actions_at:
            return None
        if self.hexes is None:
            return None
        sw, sh = art.sprite_size(round(self.hexes.size, 1))
        rects = []
        for h in self.actions_at:
            cx, cy = self.hexes.centre(*h)
            rects.append(pygame.Rect(int(cx - sw / 2) - 2, int(cy - sh / 2) - 2, sw + 4, sh + 4))
        return rects

    def finish_animations(self) -> None:
        self.anims.clear()

    def _build_static(self) -> None:
        """Terrain, castles, locations (with their medallions) and section borders."""
        hx = self.hexes
        assert hx is not None
        board = self.view.get("board") or []
        x, y, w, h = hx.bounds()
        surf = pygame.Surface((w, h), pygame.SRCALPHA)
        shifted = HexLayout((hx.origin[0] - x, hx.origin[1] - y), hx.size, hx.rows, hx.cols)
        r = round(hx.size, 1)
        sw, sh = art.sprite_size(r)
        for row in range(min(20, len(board))):
            for col in range(min(20, len(board[row]))):
                code = board[row][col]
                cx, cy = shifted.centre(row, col)
                if code in "KLN":
                    sprite = art.special_sprite(code, r)
                else:
                    sprite = art.terrain_sprite(code, r, (row * 7 + col * 3) % 3)
                surf.blit(sprite, (cx - sw / 2, cy - sh / 2))
        # Location medallions with the tile's short name.
        for (row, col), loc in self.locations.items():
            self._medallion(surf, shifted.centre(row, col), hx.size, str(loc["type"]))
        # Section borders: the hex edges between two quadrants, drawn thicker.
        width = max(2, round(hx.size / 7))
        for row in range(20):
            for col in range(20):
                q = quadrant(row, col)
                corners = shifted.corners(row, col)
                odd = row & 1
                dirs = {
                    (row, col + 1): (1, 2),
                    (row + 1, col - 1 + odd): (3, 4),
                    (row + 1, col + odd): (2, 3),
                }
                for (nr, nc), (i, j) in dirs.items():
                    if 0 <= nr < 20 and 0 <= nc < 20 and quadrant(nr, nc) != q:
                        pygame.draw.line(surf, (30, 30, 36), corners[i], corners[j], width)
        self.static = surf
        self.static_dim = None
        self.static_dark = None
        self.static_pos = (x, y)

    def _medallion(
        self, surf: pygame.Surface, centre: tuple[float, float], size: float, tile: str
    ) -> None:
        """A location hex's medallion: the tile's colour and short name."""
        cx, cy = centre
        colour = art.LOCATION_COLOURS.get(tile, (120, 120, 120))
        pygame.draw.circle(surf, colour, (cx, cy), size * 0.62)
        pygame.draw.circle(
            surf, pal.shade(colour, 1.5), (cx, cy), size * 0.62, max(1, int(size / 10))
        )
        label = t(f"kb.tile.{tile}.abbr")
        px = max(8, int(size * 0.55))
        img = self.app.fonts.render(label, px, (252, 250, 244), bold=True)
        if img.get_width() > size * 1.1:
            px = max(8, int(px * size * 1.1 / img.get_width()))
            img = self.app.fonts.render(label, px, (252, 250, 244), bold=True)
        surf.blit(img, img.get_rect(center=(cx, cy - size * 0.05)))

    def _nomad_sprite(self, tile: str, terrain: Any) -> pygame.Surface:
        """The face-up nomad tile on a nomad hex (cached per tile, size, palette, language)."""
        assert self.hexes is not None
        r = round(self.hexes.size, 1)
        key = (tile, terrain, r, self._sprite_key())
        sprite = self._nomad_sprites.get(key)
        if sprite is None:
            label = self.app.fonts.render(
                nomad_abbr(tile), max(8, int(r * 0.55)), (252, 250, 244), bold=True
            )
            sprite = art.nomad_medallion(
                r, tile, terrain if isinstance(terrain, str) else None, label
            )
            if len(self._nomad_sprites) > 64:
                self._nomad_sprites.clear()
            self._nomad_sprites[key] = sprite
        return sprite

    def _draw_hint(self, surface: pygame.Surface) -> None:
        """The hinted action: a bouncing arrow over its hex, or a ring around its tile button
        (End turn and Stop are buttons of the game scene, which marks them itself)."""
        action = self.hint
        if action is None or action not in self.legal or self.hexes is None:
            return
        hx = self.hexes
        bounce = abs(math.sin(self.pulse_angle()))
        if action[0] in BOARD_ACTIONS and len(action) == 3:
            cx, cy = hx.centre(action[1], action[2])
            corners = hx.corners(action[1], action[2])
            width = max(3, round(hx.size / 5))
            pygame.draw.polygon(surface, (20, 20, 28), corners, width + 2)
            pygame.draw.polygon(surface, pal.HINT, corners, width)
            tip_y = cy - hx.size * (1.05 + 0.35 * bounce)
            half = hx.size * 0.45
            arrow = [
                (cx, tip_y),
                (cx - half, tip_y - half * 1.2),
                (cx + half, tip_y - half * 1.2),
            ]
            pygame.draw.polygon(surface, pal.HINT, arrow)
            pygame.draw.polygon(surface, (20, 20, 28), arrow, 2)
            return
        for rect, tile_action, _tile in self.tile_buttons:
            if tile_action == action:
                ring = rect.inflate(8 + int(4 * bounce), 8 + int(4 * bounce))
                pygame.draw.rect(surface, pal.HINT, ring, 3, border_radius=self.app.px(9))

    def _dimmed(self) -> pygame.Surface:
        assert self.static is not None
        if self.static_dim is None:
            self.static_dim = self.static.copy()
            self.static_dim.fill((150, 150, 160, 255), special_flags=pygame.BLEND_RGBA_MULT)
        return self.static_dim

    def _darkened(self) -> pygame.Surface:
        """The board darker than :meth:`_dimmed`: the background of the scoring."""
        assert self.static is not None
        if self.static_dark is None:
            self.static_dark = self.static.copy()
            self.static_dark.fill((92, 92, 100, 255), special_flags=pygame.BLEND_RGBA_MULT)
        return self.static_dark

    def _draw_bright(self, surface: pygame.Surface, hexes: Iterable[Hex]) -> None:
        """The undimmed terrain of ``hexes`` (legal targets, or what scored)."""
        hx = self.hexes
        assert hx is not None and self.static is not None
        r = round(hx.size, 1)
        sw, sh = art.sprite_size(r)
        board = self.view.get("board") or []
        for row, col in hexes:
            if not (0 <= row < len(board) and 0 <= col < len(board[row])):
                continue
            code = board[row][col]
            sprite = (
                art.special_sprite(code, r)
                if code in "KLN"
                else art.terrain_sprite(code, r, (row * 7 + col * 3) % 3)
            )
            cx, cy = hx.centre(row, col)
            surface.blit(sprite, (cx - sw / 2, cy - sh / 2))
            loc = self.locations.get((row, col))
            if loc is not None:
                self._medallion(surface, (cx, cy), hx.size, str(loc["type"]))

    def _draw_dynamic(self, surface: pygame.Surface, focus: Focus | None = None) -> None:
        hx = self.hexes
        assert hx is not None
        r = round(hx.size, 1)
        sw, sh = art.sprite_size(r)
        # Tiles left on each location hex: a small badge.
        for (row, col), loc in self.locations.items():
            n = int(loc.get("tiles", 0))
            cx, cy = hx.centre(row, col)
            bx, by = cx + hx.size * 0.55, cy + hx.size * 0.5
            rad = max(6, hx.size * 0.34)
            pygame.draw.circle(surface, (30, 30, 36) if n else (90, 90, 96), (bx, by), rad)
            pygame.draw.circle(surface, (240, 236, 220), (bx, by), rad, 1)
            img = self.app.fonts.render(str(n), max(8, int(rad * 1.3)), (250, 250, 250), bold=True)
            surface.blit(img, img.get_rect(center=(bx, by)))
        # Nomad tiles lying face up on their nomad hexes.
        for h, nomad in self.nomads.items():
            if nomad.get("tile"):
                sprite = self._nomad_sprite(str(nomad["tile"]), nomad.get("terrain"))
                cx, cy = hx.centre(*h)
                surface.blit(sprite, (cx - sw / 2, cy - sh / 2))
        # Walls.
        animated = {a.hex for a in self.anims if a.hex is not None}
        wall = art.wall_sprite(r)
        for h in self.walls:
            if h in animated:
                continue
            cx, cy = hx.centre(*h)
            surface.blit(wall, (cx - sw / 2, cy - sh / 2))
        # What changed since your last turn (not while the scoring is shown).
        for h in self.recent if focus is None else ():
            if h in self.settlements:
                cx, cy = hx.centre(*h)
                ring = art.ring_sprite(r, (245, 245, 250))
                surface.blit(ring, (cx - sw / 2, cy - sh / 2))
        # Legal targets.
        strong = self.app.settings.strong_outlines
        pulse = 150 + int(105 * self.pulse())
        if self.actions_at and (self.scoring is None):
            place = art.highlight_sprite(r, pal.HIGHLIGHT, strong)
            source = art.highlight_sprite(r, pal.SOURCE, strong, 40)
            wall_hl = art.highlight_sprite(r, (230, 230, 240), strong)
            victim = art.highlight_sprite(r, pal.BAD, strong, 40)
            for sprite in (place, source, wall_hl, victim):
                sprite.set_alpha(pulse)
            sprites = {"place": place, "move_from": source, "wall": wall_hl, "remove": victim}
            for h, action in self.actions_at.items():
                sprite = sprites[action[0]]
                cx, cy = hx.centre(*h)
                surface.blit(sprite, (cx - sw / 2, cy - sh / 2))
        # Settlements (while the scoring shows one seat, the others' fade).
        for h, seat in self.settlements.items():
            if h in animated:
                continue
            house = (
                self._house(seat)
                if focus is None or seat == focus.seat
                else self._faded_house(seat)
            )
            cx, cy = hx.centre(*h)
            surface.blit(house, house.get_rect(center=(cx, cy)))
        # The pending move's source: a marker on the settlement being moved.
        turn = self.view.get("turn") or {}
        pending = turn.get("pending")
        if pending and pending.get("from"):
            cx, cy = hx.centre(*hex_of(pending["from"]))
            pygame.draw.circle(
                surface, pal.SOURCE, (cx, cy), hx.size * 0.8, max(2, int(hx.size / 7))
            )
        # Hover: a ghost house where a click would build or move.
        if self.hover_hex is not None and self.scoring is None:
            hovered = self.actions_at.get(self.hover_hex)
            cx, cy = hx.centre(*self.hover_hex)
            if hovered is not None and hovered[0] == "place" and self.view.get("you") is not None:
                ghost = self._house(self.view["you"]).copy()
                ghost.set_alpha(150)
                surface.blit(ghost, ghost.get_rect(center=(cx, cy)))
            elif hovered is not None and hovered[0] == "wall":
                ghost = art.wall_sprite(r).copy()
                ghost.set_alpha(150)
                surface.blit(ghost, (cx - sw / 2, cy - sh / 2))
            pts = hx.corners(*self.hover_hex)
            colour = pal.HIGHLIGHT if hovered is not None else (240, 240, 240)
            pygame.draw.polygon(surface, colour, pts, 2)
        # Running animations on the board.
        for a in self.anims:
            if not a.tween.started:
                continue
            if a.kind == "drop" and a.seat is not None:
                y = a.tween.value()[0]
                house = self._house(a.seat)
                surface.blit(house, house.get_rect(center=(a.end[0], y)))
            elif a.kind == "slide" and a.seat is not None:
                p = a.tween.value()[0]
                x, y = arc(a.start, a.end, p, hx.size * 0.8)
                house = self._house(a.seat)
                surface.blit(house, house.get_rect(center=(x, y)))
            elif a.kind == "wall":
                y = a.tween.value()[0]
                surface.blit(wall, (a.end[0] - sw / 2, y - sh / 2))
            elif a.kind == "lift" and a.seat is not None:
                p = a.tween.value()[0]
                house = self._house(a.seat).copy()
                house.set_alpha(int(255 * (1 - p)))
                x = a.start[0] + (a.end[0] - a.start[0]) * p
                y = a.start[1] + (a.end[1] - a.start[1]) * p
                surface.blit(house, house.get_rect(center=(x, y)))

    def _draw_flying(self, surface: pygame.Surface) -> None:
        if self.hexes is None:
            return
        for a in self.anims:
            if a.kind not in ("fly_in", "fly_out") or not a.tween.started:
                continue
            p = a.tween.value()[0]
            x, y = arc(a.start, a.end, p, self.hexes.size * 3)
            w = max(24, int(self.hexes.size * 2.2))
            rect = pygame.Rect(0, 0, w, int(w * 0.62))
            rect.center = (int(x), int(y))
            chip = pygame.Surface(rect.size, pygame.SRCALPHA)
            art.tile_chip(
                chip,
                chip.get_rect(),
                a.tile,
                t(f"kb.tile.{a.tile}.abbr")
                if has(f"kb.tile.{a.tile}.abbr")
                else nomad_abbr(a.tile),
                self._render,
                terrain=a.terrain,
            )
            if a.kind == "fly_out":
                chip.set_alpha(int(255 * (1 - p)))
            surface.blit(chip, rect)
