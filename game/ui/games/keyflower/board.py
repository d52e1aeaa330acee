"""The season board: the season and the supplies (bag, green keyples, skill tiles, resources),
the auction tiles with every player's bid beside them (colour and count, the leading bid
marked), the turn-order tiles with their bids, the boats with their keyples and skill tiles —
each tile with its colour lock and this season's uses.  The animations that move keyples,
tiles, resources and loads between the board, the villages and the players are
:mod:`game.ui.games.keyflower.motion`'s.

The board is painted into a cached layer whenever the view changes; each frame blits it and
draws only the highlights of legal targets (pulsing), the hover and the hint.
"""

from __future__ import annotations

import math
from typing import Any

import pygame

from game.ui import palette as pal
from game.ui.games.keyflower import art
from game.ui.games.keyflower.common import (
    COLOURS,
    RESOURCES,
    SKILLS,
    Hit,
    as_dict,
    as_list,
    base_colour,
    rotated_edges,
    side_index,
    side_tokens,
    tile_def,
)
from game.ui.games.keyflower.scoring import ScoringMixin
from game.ui.games.keyflower.text import season_name, shown_name
from game.ui.i18n import t


class BoardMixin(ScoringMixin):
    """The season board."""

    def _all_village_hits(self) -> list[Hit]:
        """The villages' hits (the village section draws them)."""
        return []

    # ---- activity ------------------------------------------------------------------------
    def _activity(self) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for entry in self.view.get("activity") or []:
            if isinstance(entry, dict) and isinstance(entry.get("tile"), str):
                out[entry["tile"]] = entry
        return out

    @staticmethod
    def _leader(entry: dict[str, Any]) -> int | None:
        """The seat of the leading bid (bids never tie, KF §5)."""
        best, most = None, 0
        for bid in entry.get("bids") or []:
            if isinstance(bid, list) and len(bid) == 3 and int(bid[2]) > most:
                best, most = int(bid[0]), int(bid[2])
        return best

    # ---- the layer -------------------------------------------------------------------------
    def _season_layer(self) -> pygame.Surface:
        rect = self.season_rect
        key = (
            self._serial,
            rect.size,
            self._key(),
            self._phase(),
            self.show_private,
            tuple(sorted(self.winter_sel)),
            self.boat_pick,
            self._place_tile(),
        )
        cached = self.layers.get("season")
        if cached is not None and cached[0] == key:
            return cached[1]
        surf = pygame.Surface(rect.size, pygame.SRCALPHA)
        self._hits_season = []
        self._paint_season(surf)
        self.layers["season"] = (key, surf)
        return surf

    def _paint_season(self, surf: pygame.Surface) -> None:
        px = self.app.px
        w, h = surf.get_size()
        ox, oy = self.season_rect.topleft
        pygame.draw.rect(surf, pal.BG_PANEL, surf.get_rect(), border_radius=px(10))
        head_h = px(30)
        self._paint_header(surf, pygame.Rect(px(8), px(4), w - px(16), head_h))
        body = pygame.Rect(px(4), head_h + px(8), w - px(8), h - head_h - px(12))
        phase = self._phase()
        row_a: list[tuple[str, str, str]] = []  # (tile, face, role)
        title_a = ""
        if phase == "boats":
            row_a = self._new_tiles()
            title_a = t("kf.board.won_tiles")
        elif phase in ("play", "over") or not phase:
            row_a = [
                (str(a[0]), str(a[1]), "auction")
                for a in self.view.get("auction") or []
                if isinstance(a, list) and len(a) >= 2
            ]
            title_a = t("kf.board.auction")
        elif phase == "place":
            row_a = self._new_tiles()
            title_a = t("kf.board.new_tiles")
        elif phase == "winter_pick":
            row_a = self._winter_row()
            title_a = t("kf.board.winter_hand")
        title_b = t("kf.board.turn_order_boats")
        order = [s for s in as_list(self.view.get("boat_order")) if isinstance(s, int)]
        if phase == "boats" and order:
            title_b = t("kf.board.boat_order", names=", ".join(self._name(s) for s in order))
        row_b: list[tuple[str, str, str]] = []
        for entry in self.view.get("turn_order") or []:
            if isinstance(entry, list) and len(entry) >= 2:
                row_b.append((str(entry[0]), str(entry[1]), "turn_order"))
        for boat in self.view.get("boats") or []:
            if isinstance(boat, dict):
                row_b.append((str(boat.get("boat")), str(boat.get("side")), "boat"))
        if phase in ("place", "winter_pick") and row_a:
            row_b = []  # the boats are taken; what matters now is your tiles
        if not row_a:
            rows = [(title_b, row_b)]
            if phase == "over":
                rows = []
        elif not row_b:
            rows = [(title_a, row_a)]
        else:
            rows = [(title_a, row_a), (title_b, row_b)]
        if not rows:
            self._text(
                surf,
                t("kf.board.game_over"),
                body.center,
                px(20),
                pal.ACCENT,
                body.width,
                True,
                anchor="center",
            )
            return
        n_rows = len(rows)
        gap = px(4)
        row_h = (body.height - gap * (n_rows - 1)) // n_rows
        widest = max(len(r[1]) for r in rows) or 1
        # one size for every slot: the rows line up
        slot_w = body.width / max(widest, 6 if phase != "place" else 4)
        label_h = px(17)
        y = body.y
        act = self._activity()
        for title, items in rows:
            area = pygame.Rect(body.x, y, body.width, row_h)
            bids_max = max(
                [len(act.get(tile, {}).get("bids") or []) for tile, _f, _r in items] or [0]
            )
            self._text(
                surf, title, (area.x + px(6), area.y), px(12), pal.TEXT_DIM, area.width - px(12)
            )
            bid_h = px(17) * min(3, max(1, bids_max)) + px(2)
            # room for every boat's whole load below it
            loads = max(
                [self._load_rows(tile, slot_w) for tile, _f, r in items if r == "boat"] or [0]
            )
            bid_h = max(bid_h, px(16) * loads + px(4))
            avail_h = area.height - label_h - px(6) - bid_h
            r = max(8.0, min(slot_w / 2.08, avail_h / 1.75, px(56)))
            total = slot_w * len(items)
            x0 = area.x + (area.width - total) / 2
            for i, (tile, face, role) in enumerate(items):
                cx = x0 + slot_w * (i + 0.5)
                cy = area.y + label_h + px(6) + r * 0.87
                self._paint_slot(surf, tile, face, role, (cx, cy), r, slot_w, bid_h, (ox, oy))
            y += row_h + gap

    def _new_tiles(self) -> list[tuple[str, str, str]]:
        """Placement: every seat's tiles still to place (yours are clickable)."""
        out: list[tuple[str, str, str]] = []
        you = self._you()
        for sv in self._seat_views():
            s = int(sv.get("seat", -1))
            placed = {str(p[0]) for p in sv.get("placed") or [] if isinstance(p, list) and p}
            for tile in sv.get("won") or []:
                if s == you and str(tile) in placed:
                    continue
                out.append((str(tile), self._face_of(str(tile)), f"won:{s}"))
        return out

    def _winter_row(self) -> list[tuple[str, str, str]]:
        """Winter choice: your winter tiles (ticked ones are put up), when you may see them."""
        you = self._you()
        if you is None or not self.show_private:
            return []
        hand = self._seat_view(you).get("winter_hand")
        if not isinstance(hand, list):
            return []
        return [(str(x), "front", "hand") for x in hand]

    def _face_of(self, tile_id: str) -> str:
        """The face a won tile shows (summer boats keep the face they were auctioned with)."""
        prev = self.prev.get("auction") or []
        for a in list(self.view.get("auction") or []) + list(prev):
            if isinstance(a, list) and len(a) >= 2 and a[0] == tile_id:
                return str(a[1])
        return self._won_faces.get(
            tile_id, "front" if not tile_id.startswith("summer_boat") else "a"
        )

    def _paint_header(self, surf: pygame.Surface, rect: pygame.Rect) -> None:
        """Season, start player and purple keyple, passes, and the supplies as numbers."""
        px = self.app.px
        ox, oy = self.season_rect.topleft
        v = self.view
        season = str(v.get("season") or "")
        colour = art.TILE_RGB.get(season, pal.ACCENT)
        x = rect.x
        label = self._text(
            surf,
            season_name(season),
            (x, rect.centery),
            px(19),
            colour,
            px(140),
            True,
            anchor="midleft",
        )
        x = label.right + px(12)
        start = v.get("start")
        if isinstance(start, int) and 0 <= start < len(self.seats):
            sw = self._swatch(start, px(16))
            surf.blit(sw, sw.get_rect(midleft=(x, rect.centery)))
            art.draw_keyple(surf, (x + px(26), rect.centery), px(20), "purple", self._cb())
            self._hits_season.append(
                Hit("supply", "start", pygame.Rect(ox + x, oy + rect.y, px(36), rect.height))
            )
            x += px(42)
        passes = int(v.get("passes") or 0)
        if v.get("phase") == "play":
            x = self._text(
                surf,
                t("kf.board.passes", n=passes, of=len(self._seat_views())),
                (x, rect.centery),
                px(13),
                pal.TEXT_DIM,
                px(110),
                anchor="midleft",
            ).right + px(10)
        supply = as_dict(v.get("supply"))
        items: list[tuple[str, str, int]] = [
            ("bag", "bag", int(supply.get("bag") or 0)),
            ("green", "k", int(supply.get("green") or 0)),
            ("skills", "s", int(supply.get("skills") or 0)),
        ]
        res = as_list(supply.get("resources"))
        for k, name in enumerate(RESOURCES):
            items.append((name, "r", int(res[k]) if k < len(res) else 0))
        # right-aligned counters
        icon = px(18)
        widths = [
            icon + self.app.fonts.size(str(n), px(14), True)[0] + px(12) for _a, _b, n in items
        ]
        right = rect.right
        total = sum(widths)
        if total > right - x:
            icon = px(14)
        cx = right - total
        for (name, kind, n), wdt in zip(items, widths, strict=True):
            centre = (cx + icon / 2, rect.centery)
            if kind == "bag":
                art.draw_bag(surf, centre, icon)
            elif kind == "k":
                art.draw_keyple(surf, centre, icon, "green", self._cb())
            elif kind == "s":
                art.draw_skill(surf, centre, icon * 0.9, "saw")
            else:
                art.draw_resource(surf, centre, icon * 0.9, name)
            img = self.app.fonts.render(str(n), px(14), pal.TEXT, True)
            surf.blit(img, img.get_rect(midleft=(int(cx + icon + px(3)), rect.centery)))
            self._hits_season.append(
                Hit("supply", name, pygame.Rect(ox + cx, oy + rect.y, wdt, rect.height))
            )
            self.spots["bag" if name == "bag" else f"supply:{name}"] = (
                ox + centre[0],
                oy + centre[1],
            )
            cx += wdt

    def _paint_slot(
        self,
        surf: pygame.Surface,
        tile: str,
        face: str,
        role: str,
        centre: tuple[float, float],
        r: float,
        slot_w: float,
        bid_h: int,
        origin: tuple[int, int],
    ) -> None:
        """One tile of the board with its lock, uses and the bids beside it."""
        px = self.app.px
        ox, oy = origin
        cx, cy = centre
        td = tile_def(tile)
        if td is None:
            return
        taken = False
        if role == "boat":
            boat = next(
                (
                    b
                    for b in self.view.get("boats") or []
                    if isinstance(b, dict) and b.get("boat") == tile
                ),
                {},
            )
            taken = bool(boat.get("taken"))
        sprite = self._tile_sprite(tile, face, 0, r)
        if taken:
            sprite = sprite.copy()
            sprite.set_alpha(90)
        surf.blit(sprite, sprite.get_rect(center=(int(cx), int(cy))))
        abs_c = (ox + cx, oy + cy)
        self.spots[f"tile:{tile}"] = abs_c
        hit = Hit("tile", tile, pygame.Rect(0, 0, 0, 0), abs_c, r, {"face": face, "role": role})
        if role == "hand":
            hit.kind = "hand"
            if tile in self.winter_sel:
                # Ticked to put up: washed green, a thick green rim and a round check badge —
                # unmistakable beside the untouched tiles (which only pulse as targets).
                side = int(2 * r + 4)
                veil = pygame.Surface((side, side), pygame.SRCALPHA)
                pygame.draw.polygon(veil, (*pal.GOOD, 70), art.hex_points(side / 2, side / 2, r))
                surf.blit(veil, (int(cx - side / 2), int(cy - side / 2)))
                pygame.draw.polygon(surf, pal.GOOD, art.hex_points(cx, cy, r + 3), max(4, px(5)))
                bx, by = int(cx + r * 0.58), int(cy - r * 0.52)
                rad = max(7, int(r * 0.3))
                pygame.draw.circle(surf, (16, 40, 22), (bx, by), rad + 2)
                pygame.draw.circle(surf, pal.GOOD, (bx, by), rad)
                pygame.draw.lines(
                    surf,
                    (250, 252, 250),
                    False,
                    [
                        (bx - rad * 0.5, by + rad * 0.02),
                        (bx - rad * 0.12, by + rad * 0.42),
                        (bx + rad * 0.52, by - rad * 0.38),
                    ],
                    max(2, rad // 3),
                )
        elif role.startswith("won:"):
            hit.kind = "hand"
            seat = int(role.split(":")[1])
            sw = self._swatch(seat, px(14))
            surf.blit(sw, sw.get_rect(center=(int(cx - r * 0.62), int(cy - r * 0.62))))
            if self._place_tile() == tile:
                pygame.draw.polygon(surf, pal.SOURCE, art.hex_points(cx, cy, r + 2), 3)
        elif role == "boat":
            hit.kind = "boat"
            self._paint_load(surf, tile, (cx, cy + r * 0.87 + px(2)), slot_w, bid_h)
            if self.boat_pick == tile:
                pygame.draw.polygon(surf, pal.SOURCE, art.hex_points(cx, cy, r + 2), 3)
        if role == "turn_order":
            entry = next(
                (
                    e
                    for e in self.view.get("turn_order") or []
                    if isinstance(e, list) and e and e[0] == tile
                ),
                None,
            )
            if entry is not None and len(entry) >= 3 and entry[2]:
                art.draw_keyple(
                    surf, (cx + r * 0.55, cy - r * 0.45), max(10.0, r * 0.42), "purple", self._cb()
                )
        self._hits_season.append(hit)
        act = self._activity().get(tile)
        if act is not None:
            self._paint_lock_uses(surf, (cx, cy), r, act)
        if role in ("auction", "turn_order"):
            area = pygame.Rect(
                int(cx - slot_w / 2 + 2), int(cy + r * 0.87 + px(2)), int(slot_w - 4), bid_h
            )
            self.spots[f"bid:{tile}"] = (ox + area.centerx, oy + area.y + px(9))
            self._hits_season.append(Hit("bid", tile, area.move(ox, oy)))
            if act is not None and not self._bids_flying:
                self._paint_bids(surf, tile, act, area, origin)

    def _paint_lock_uses(
        self, surf: pygame.Surface, centre: tuple[float, float], r: float, act: dict[str, Any]
    ) -> None:
        """The colour lock (a ring in the keyples' colour, and its keyple) and this season's
        uses (up to three pips with the keyples placed: the production ladder, KF §6.2)."""
        cx, cy = centre
        lock = act.get("lock")
        if isinstance(lock, str) and lock in COLOURS:
            rgb = art.keyple_rgb(lock, self._cb())
            pygame.draw.polygon(surf, rgb, art.hex_points(cx, cy, r - 2), max(2, int(r / 13)))
            art.draw_keyple(
                surf, (cx - r * 0.62, cy + r * 0.5), max(8.0, r * 0.36), lock, self._cb()
            )
        uses = [u for u in act.get("uses") or [] if isinstance(u, list) and len(u) == 3]
        if not uses:
            return
        pip = max(4.0, r * 0.15)
        y = cy - r * 0.87 + pip + 2
        for i in range(3):
            x = cx + (i - 1) * pip * 2.3
            if i < len(uses):
                _seat, colour, n = uses[i]
                rgb = art.keyple_rgb(str(colour), self._cb())
                pygame.draw.circle(surf, rgb, (x, y), pip)
                pygame.draw.circle(surf, art.INK, (x, y), pip, 1)
                img = self.app.fonts.render(str(n), max(8, int(pip * 1.5)), pal.contrast(rgb), True)
                surf.blit(img, img.get_rect(center=(int(x), int(y))))
            else:
                pygame.draw.circle(surf, (255, 255, 255), (x, y), pip, 1)

    def _paint_bids(
        self,
        surf: pygame.Surface,
        tile: str,
        act: dict[str, Any],
        area: pygame.Rect,
        origin: tuple[int, int],
    ) -> None:
        """The bids beside a tile, highest first: seat, keyple colour, count; the leading bid
        in a gold frame with a crown."""
        px = self.app.px
        ox, oy = origin
        bids = sorted(
            (b for b in act.get("bids") or [] if isinstance(b, list) and len(b) == 3),
            key=lambda b: -int(b[2]),
        )
        if not bids:
            return
        leader = self._leader(act)
        ch = px(17)
        rows = max(1, area.height // ch)
        cols = max(1, math.ceil(len(bids) / rows))
        cw = area.width // cols
        for i, (seat, colour, n) in enumerate(bids):
            col, row = divmod(i, rows)
            chip = pygame.Rect(area.x + col * cw, area.y + row * ch, cw - 2, ch - 2)
            lead = seat == leader
            pygame.draw.rect(surf, pal.BG_PANEL_2, chip, border_radius=px(4))
            if lead:
                pygame.draw.rect(surf, art.GOLD, chip, 2, border_radius=px(4))
            x = chip.x + px(2)
            if 0 <= int(seat) < len(self.seats):
                sw = self._swatch(int(seat), ch - px(6))
                surf.blit(sw, sw.get_rect(midleft=(x, chip.centery)))
                x += ch - px(4)
            art.draw_keyple(surf, (x + px(6), chip.centery), ch - px(4), str(colour), self._cb())
            x += px(13)
            if lead and chip.width > px(52):
                art.draw_crown(surf, (chip.right - px(9), chip.centery), px(12))
            label = f"{n}"
            self._text(
                surf,
                label,
                (x, chip.centery),
                px(13),
                art.GOLD if lead else pal.TEXT,
                chip.right - x - 1,
                True,
                anchor="midleft",
                minimum=8,
            )
            self._hits_season.append(
                Hit(
                    "chip",
                    (tile, int(seat)),
                    chip.move(ox, oy),
                    data={"colour": colour, "n": int(n), "lead": lead},
                )
            )
            self.spots[f"chip:{tile}:{seat}"] = (ox + chip.centerx, oy + chip.centery)

    def _load_icons(self, boat: str) -> list[tuple[str, str, int]]:
        """A boat's load as (kind "k" or "s", colour or skill, count), face up (D22)."""
        for entry in self.view.get("boats") or []:
            if isinstance(entry, dict) and entry.get("boat") == boat:
                keys = entry.get("keyples") or []
                skills = entry.get("skills") or []
                out = [("k", c, int(n)) for c, n in zip(COLOURS[:3], keys, strict=False) if n]
                out += [("s", k, int(n)) for k, n in zip(SKILLS, skills, strict=False) if n]
                return out
        return []

    def _load_rows(self, boat: str, slot_w: float) -> int:
        """The lines a boat's load takes under it (every item shown)."""
        n = len(self._load_icons(boat))
        return math.ceil(n / max(1, int(slot_w // self.app.px(24)))) if n else 0

    def _paint_load(
        self, surf: pygame.Surface, boat: str, top: tuple[float, float], slot_w: float, h: int
    ) -> None:
        """A boat's load: its keyples by colour and its skill tiles, face up (D22), every item
        with its count (in as many lines as the room below the boat needs)."""
        px = self.app.px
        items = self._load_icons(boat)
        if not items:
            return
        line_h = px(16)
        rows = max(1, min(self._load_rows(boat, slot_w), (h - px(2)) // line_h))
        per_row = math.ceil(len(items) / rows)
        cell = min(px(30), int(slot_w / per_row))
        small = cell < px(26)
        icon, font = (px(12), px(11)) if small else (px(14), px(12))
        for i, (kind, name, n) in enumerate(items):
            row, col = divmod(i, per_row)
            in_row = min(per_row, len(items) - row * per_row)
            x0 = top[0] - in_row * cell / 2
            cx = x0 + col * cell + icon * 0.55
            cy = top[1] + row * line_h + px(8)
            if kind == "k":
                art.draw_keyple(surf, (cx, cy), icon, name, self._cb())
            else:
                art.draw_skill(surf, (cx, cy), icon * 0.86, name)
            img = self.app.fonts.render(str(n), font, pal.TEXT, True)
            surf.blit(img, img.get_rect(midleft=(int(cx + icon * 0.5), int(cy))))

    def _tile_sprite(self, tile: str, face: str, rot: int, r: float) -> pygame.Surface:
        """A tile's sprite at radius ``r`` (cached by art)."""
        from game.ui.i18n import language

        td = tile_def(tile)
        assert td is not None
        side = side_index(td, face)
        detail = 2 if r >= px_detail(self, 2) else (1 if r >= px_detail(self, 1) else 0)
        label = shown_name(tile, face) if detail else _abbr(shown_name(tile, face))
        if td.kind == "turn_order" and detail >= 2:
            label = t("kf.tile.turn_order_short")  # the number is drawn large below
        rr = round(max(3.0, r), 1)
        return art.tile_sprite(
            (tile, face, language()),
            rr,
            rotated_edges(td, rot),
            base_colour(td),
            label,
            side_tokens(td, side) if detail >= 2 else (),
            td.sides[side].vp if side < len(td.sides) else 0,
            side == 1 and td.kind in ("home", "village"),
            detail,
            self._cb(),
            self.app.fonts.render,
        )

    # ---- each frame ------------------------------------------------------------------------
    def _draw_season(self, surface: pygame.Surface) -> None:
        if self.season_rect.width <= 0 or self.season_rect.height <= 0:
            return
        layer = self._season_layer()  # painted even while held: its hits and spots count
        held = self._held_board()
        surface.blit(held or layer, self.season_rect.topleft)
        if held is None:
            self._draw_board_targets(surface)

    def _held_board(self) -> pygame.Surface | None:
        """The season board as it was before the season ended, while its bids fly off."""
        for a in self.anims:
            if (
                a.kind == "hold"
                and a.surface is not None
                and not a.tween.done
                and a.surface.get_size() == self.season_rect.size
            ):
                return a.surface
        return None

    def _paint_held_board(self) -> pygame.Surface | None:
        """The previous view's season board with its bids taken off (they are flying home or
        to the bag): what the table shows while the season ends (KF §8)."""
        if not self.prev or self.season_rect.width <= 0 or self.season_rect.height <= 0:
            return None
        view, spots, hits = self.view, dict(self.spots), self._hits_season
        surf = pygame.Surface(self.season_rect.size, pygame.SRCALPHA)
        try:
            # the same layout as before (the bids' room kept), the chips left out
            self.view, self._hits_season, self._bids_flying = self.prev, [], True
            self._paint_season(surf)
        finally:
            self.view, self.spots, self._hits_season = view, spots, hits
            self._bids_flying = False
        return surf

    def _pulse(self) -> int:
        """The alpha of pulsing targets (drawn from the pulse's step: ``GameView.pulse``)."""
        return 150 + int(105 * self.pulse())

    def _draw_board_targets(self, surface: pygame.Surface) -> None:
        """Legal targets on the board: tiles that may be used, spaces beside tiles that take a
        bid, your losing bids that may be brought back, boats to choose, tiles to place or
        tick; the target being composed; the hint."""
        if not self.legal:
            return
        strong = self.app.settings.strong_outlines
        alpha = self._pulse()
        c = self.composer
        chosen = str(c.prefix[1]) if len(c.prefix) >= 2 and c.prefix[0] in ("bid", "use") else ""
        for hit in getattr(self, "_hits_season", []):
            tile = str(hit.key) if not isinstance(hit.key, tuple) else str(hit.key[0])
            colour: pal.RGB | None = None
            if (
                (
                    hit.kind == "tile"
                    and tile in self.use_at
                    and self._stage() in ("start", "reclaim")
                )
                or (hit.kind in ("boat", "tile") and tile in self.boat_at)
                or (
                    hit.kind == "hand"
                    and (
                        tile in self.place_at
                        or tile in self.place_tile_at
                        or (
                            self.winter_sets
                            and self._phase() == "winter_pick"
                            and tile not in self.winter_sel  # ticked: its green rim shows
                        )
                    )
                )
            ):
                colour = pal.HIGHLIGHT
            if colour is not None and hit.hex_r > 0:
                sprite = art.highlight_sprite(round(hit.hex_r, 1), colour, strong)
                sprite.set_alpha(alpha)
                spot = sprite.get_rect(center=(int(hit.centre[0]), int(hit.centre[1])))
                surface.blit(sprite, spot)
                self.pulsing(spot)
            if hit.kind == "bid" and tile in self.bid_at:
                box = hit.rect.inflate(-2, 0)
                veil = pygame.Surface(box.size, pygame.SRCALPHA)
                veil.fill((*pal.HIGHLIGHT, alpha // 6))
                surface.blit(veil, box)
                self.pulsing(box)
                pygame.draw.rect(
                    surface,
                    (*pal.HIGHLIGHT,),
                    box,
                    2 if strong else 1,
                    border_radius=self.app.px(4),
                )
            if hit.kind == "tile" and tile in self.recent and hit.hex_r > 0:
                # what others did here since your last action
                pygame.draw.polygon(
                    surface,
                    (245, 245, 250),
                    art.hex_points(hit.centre[0], hit.centre[1], hit.hex_r * 0.9),
                    2,
                )
            if hit.kind == "chip" and hit.key[1] == self._you() and tile in self.reclaim_at:
                pygame.draw.rect(
                    surface, pal.SOURCE, hit.rect.inflate(4, 4), 2, border_radius=self.app.px(5)
                )
            if tile == chosen and hit.kind == ("bid" if c.prefix[0] == "bid" else "tile"):
                if hit.hex_r > 0:
                    pygame.draw.polygon(
                        surface,
                        pal.SOURCE,
                        art.hex_points(hit.centre[0], hit.centre[1], hit.hex_r + 2),
                        3,
                    )
                else:
                    pygame.draw.rect(
                        surface, pal.SOURCE, hit.rect.inflate(4, 4), 3, border_radius=self.app.px(5)
                    )

    # ---- animations ------------------------------------------------------------------------


def px_detail(view: Any, level: int) -> float:
    """The hex radius from which a tile shows its name (level 1) and its effect icons (2)."""
    return view.app.px(22 if level == 1 else 36)


def _abbr(name: str) -> str:
    """A short label for a tiny hex: the first letters of the name."""
    words = name.replace("'", "").split()
    if len(words) >= 2 and all(w[:1].isascii() for w in words):
        return "".join(w[0] for w in words[:3]).upper()
    return name[:3]
