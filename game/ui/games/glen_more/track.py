"""The track and the market: the 14 spaces of the rondel as a loop (five along the top, two down
each side, five along the bottom, clockwise from the top left), with the tiles, the players'
figures, the die figure and the empty space at the head; the market's five price ladders inside
the loop, and the stacks and scorings under them.

* Whose turn it is: the figure right after the empty space (the hindmost, GM §3) wears a pulsing
  ring in its colour, an arrow runs from the empty space to it, and the top bar names it.
* Tiles within reach (the seat's ``take`` actions) are outlined, numbered for the keys 1-9 and
  carry their cost; the others are veiled while the seat chooses.  ``discard`` targets (no tile
  can be taken, GM §4.1 D10) are marked with a cross.
* A market row shows its three spaces (price 1, 2, 3) with the coins on them, and Buy / Sell
  buttons with the price of the next purchase or sale; a trade waits for Confirm.
"""

from __future__ import annotations

import math
from typing import Any

import pygame

from game.ui import palette as pal
from game.ui.games.glen_more import art
from game.ui.games.glen_more.common import GOLD, RESOURCE_NAMES, tile_of
from game.ui.games.glen_more.scoring import ScoringMixin
from game.ui.i18n import t

SLOTS = 14


def loop_positions(rect: pygame.Rect, pad: int) -> tuple[float, list[tuple[float, float]]]:
    """The size of a space and the centres of the 14 spaces around ``rect``: 0-4 along the
    top (left to right), 5-6 down the right side, 7-11 along the bottom (right to left),
    12-13 up the left side — clockwise, as the track is numbered."""
    w, h = rect.width - 2 * pad, rect.height - 2 * pad
    s = max(8.0, min(w / 5.4, h / 4.3))
    x0, x1 = rect.x + pad + s / 2, rect.right - pad - s / 2
    y0, y1 = rect.y + pad + s / 2, rect.bottom - pad - s / 2
    top = [(x0 + (x1 - x0) * i / 4, y0) for i in range(5)]
    right = [(x1, y0 + (y1 - y0) * k / 3) for k in (1, 2)]
    bottom = [(x1 - (x1 - x0) * i / 4, y1) for i in range(5)]
    left = [(x0, y1 - (y1 - y0) * k / 3) for k in (1, 2)]
    return s, top + right + bottom + left


class TrackMixin(ScoringMixin):
    """The track, the market, the stacks."""

    track_size: float
    track_centres: list[tuple[float, float]]
    interior: pygame.Rect

    def _layout_track(self) -> None:
        rect = self.rects.track
        pad = self.app.px(8)
        self.track_size, self.track_centres = loop_positions(rect, pad)
        s = self.track_size
        gap = max(4, int(s * 0.14))
        self.interior = pygame.Rect(
            int(rect.x + pad + s + gap),
            int(rect.y + pad + s + gap),
            max(1, int(rect.width - 2 * pad - 2 * s - 2 * gap)),
            max(1, int(rect.height - 2 * pad - 2 * s - 2 * gap)),
        )
        size = int(s)
        self.slot_rects = {}
        for i, (cx, cy) in enumerate(self.track_centres):
            r = pygame.Rect(0, 0, size, size)
            r.center = (int(cx), int(cy))
            self.slot_rects[i] = r

    def slot_centre(self, slot: int) -> tuple[float, float]:
        if 0 <= slot < len(self.track_centres):
            return self.track_centres[slot]
        return (float(self.rects.track.centerx), float(self.rects.track.centery))

    def track_path(self, frm: int, to: int) -> list[tuple[float, float]]:
        """The centres a figure passes going clockwise from space ``frm`` to ``to``."""
        pts = [self.slot_centre(frm)]
        i = frm
        for _ in range(SLOTS):
            if i == to:
                break
            i = (i + 1) % SLOTS
            pts.append(self.slot_centre(i))
        return pts

    # ---- drawing ------------------------------------------------------------------------------
    def _draw_track(self, surface: pygame.Surface) -> None:
        rect = self.rects.track
        if rect.width <= 8 or rect.height <= 8 or not self.track_centres:
            return
        px = self.app.px
        pygame.draw.rect(surface, (30, 44, 38), rect, border_radius=px(12))
        pygame.draw.rect(surface, pal.BORDER, rect, 1, border_radius=px(12))
        pts = self.track_centres
        width = max(2, int(self.track_size * 0.1))
        pygame.draw.lines(surface, (52, 72, 60), True, pts, width)
        # Chevrons between the spaces: the track runs clockwise.
        for i in range(SLOTS):
            a, b = pts[i], pts[(i + 1) % SLOTS]
            mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
            ang = math.atan2(b[1] - a[1], b[0] - a[0])
            k = self.track_size * 0.09
            tip = (mx + math.cos(ang) * k, my + math.sin(ang) * k)
            left = (mx + math.cos(ang + 2.5) * k, my + math.sin(ang + 2.5) * k)
            right = (mx + math.cos(ang - 2.5) * k, my + math.sin(ang - 2.5) * k)
            pygame.draw.polygon(surface, (110, 140, 120), [tip, left, right])
        track = self.view.get("track") or []
        hidden = self._hidden_slots()
        choosing = self.phase == "take" and self.my_turn()
        keys = {s: i for i, s in enumerate(self.reachable_slots()[:9])}
        pulse = 0.5 + 0.5 * math.sin(self.clock * 4.0)
        size = int(self.track_size)
        for i in range(min(SLOTS, len(track))):
            r = self.slot_rects[i]
            entry = track[i]
            pygame.draw.rect(
                surface, (22, 30, 28), r.inflate(4, 4), border_radius=max(3, size // 8)
            )
            if i in hidden:
                continue
            if entry is None:
                self._draw_empty_space(surface, r, i == self.view.get("empty"))
                continue
            if entry.get("die"):
                sprite = art.die_sprite(max(8, int(size * 0.7)), self.last_roll or 0)
                surface.blit(sprite, sprite.get_rect(center=r.center))
                continue
            if "seat" in entry:
                self._draw_figure(surface, int(entry["seat"]), r.center, size)
                continue
            tile = entry.get("tile")
            surface.blit(art.tile_face(str(tile), size), r)
            self._draw_cost(surface, tile, r)
            if size >= self.app.px(62):
                self._tile_label(surface, tile, r)
            if choosing and i not in self.acts.takes and i not in self.acts.discards:
                veil = pygame.Surface(r.size, pygame.SRCALPHA)
                veil.fill((10, 12, 16, 150))
                surface.blit(veil, r)
            if i in self.acts.takes:
                colour = pal.shade(pal.HIGHLIGHT, 0.75 + 0.25 * pulse)
                pygame.draw.rect(
                    surface,
                    colour,
                    r.inflate(6, 6),
                    max(2, size // 18) + 1,
                    border_radius=max(3, size // 8),
                )
            elif i in self.acts.discards:
                pygame.draw.rect(
                    surface,
                    pal.BAD,
                    r.inflate(6, 6),
                    max(2, size // 18) + 1,
                    border_radius=max(3, size // 8),
                )
                w = max(2, size // 12)
                pygame.draw.line(surface, pal.BAD, r.topleft, r.bottomright, w)
                pygame.draw.line(surface, pal.BAD, r.topright, r.bottomleft, w)
            if i in keys and self.my_turn():
                badge = pygame.Rect(0, 0, max(12, size // 4), max(12, size // 4))
                badge.topleft = (r.x - 3, r.y - 3)
                pygame.draw.rect(surface, (16, 18, 24), badge, border_radius=badge.width // 3)
                pygame.draw.rect(surface, pal.HIGHLIGHT, badge, 1, border_radius=badge.width // 3)
                img = self.app.fonts.render(
                    str(keys[i] + 1), max(9, badge.height - 4), pal.HIGHLIGHT, True
                )
                surface.blit(img, img.get_rect(center=badge.center))
            if r.collidepoint(self.mouse):
                pygame.draw.rect(
                    surface, (245, 245, 250), r.inflate(2, 2), 2, border_radius=max(3, size // 8)
                )
        self._draw_turn_marker(surface)
        self._draw_market(surface)
        self._draw_stacks(surface)

    def _draw_empty_space(self, surface: pygame.Surface, r: pygame.Rect, head: bool) -> None:
        """An empty space (dashed); the one at the head of the track says so."""
        step = max(4, r.width // 8)
        colour = (120, 150, 130)
        for x in range(r.x, r.right, step * 2):
            pygame.draw.line(surface, colour, (x, r.y), (min(x + step, r.right), r.y), 2)
            pygame.draw.line(
                surface, colour, (x, r.bottom - 1), (min(x + step, r.right), r.bottom - 1), 2
            )
        for y in range(r.y, r.bottom, step * 2):
            pygame.draw.line(surface, colour, (r.x, y), (r.x, min(y + step, r.bottom)), 2)
            pygame.draw.line(
                surface, colour, (r.right - 1, y), (r.right - 1, min(y + step, r.bottom)), 2
            )
        if not head:
            return
        self._text(
            surface,
            t("gm.track.head"),
            max(9, r.height // 6),
            colour,
            r.center,
            r.width - 6,
            anchor="center",
        )

    def _draw_figure(
        self, surface: pygame.Surface, seat: int, centre: tuple[int, int], size: int
    ) -> None:
        sprite = art.figure_sprite(
            self._seat_rgb(seat), pal.seat_shape(seat), max(10, int(size * 0.78))
        )
        surface.blit(sprite, sprite.get_rect(center=centre))

    def _draw_turn_marker(self, surface: pygame.Surface) -> None:
        """The hindmost figure (whose turn it is): a ring in its colour, an arrow from the
        empty space to it."""
        cur = self.current
        if cur is None or self.view.get("over"):
            return
        slot = self.seat_view(cur).get("track_slot")
        if not isinstance(slot, int) or slot not in self.slot_rects or slot in self._hidden_slots():
            return
        r = self.slot_rects[slot]
        pulse = 0.5 + 0.5 * math.sin(self.clock * 4.0)
        colour = self._seat_rgb(cur)
        grow = 6 + int(4 * pulse)
        pygame.draw.rect(
            surface, (16, 18, 24), r.inflate(grow + 4, grow + 4), 3, border_radius=r.width // 6
        )
        pygame.draw.rect(surface, colour, r.inflate(grow, grow), 3, border_radius=r.width // 6)
        empty = self.view.get("empty")
        if isinstance(empty, int) and slot == (empty + 1) % SLOTS and empty in self.slot_rects:
            a = self.slot_centre(empty)
            b = self.slot_centre(slot)
            ang = math.atan2(b[1] - a[1], b[0] - a[0])
            k = self.track_size * 0.22
            mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
            tip = (mx + math.cos(ang) * k, my + math.sin(ang) * k)
            left = (mx + math.cos(ang + 2.4) * k, my + math.sin(ang + 2.4) * k)
            right = (mx + math.cos(ang - 2.4) * k, my + math.sin(ang - 2.4) * k)
            pygame.draw.polygon(surface, (16, 18, 24), [tip, left, right])
            pygame.draw.polygon(surface, colour, [tip, left, right], 0)
            pygame.draw.polygon(surface, (240, 240, 240), [tip, left, right], 1)

    def _tile_label(self, surface: pygame.Surface, tile: Any, r: pygame.Rect) -> None:
        from game.ui.games.glen_more.text import tile_name

        band = pygame.Rect(
            r.x + 2, r.bottom - max(12, r.height // 5), r.width - 4, max(12, r.height // 5) - 2
        )
        veil = pygame.Surface(band.size, pygame.SRCALPHA)
        veil.fill((12, 14, 18, 170))
        surface.blit(veil, band)
        self._text(
            surface,
            tile_name(tile),
            max(9, band.height - 3),
            (240, 240, 236),
            band.center,
            band.width - 4,
            anchor="center",
            minimum=8,
        )

    def _draw_cost(self, surface: pygame.Surface, tile: Any, r: pygame.Rect) -> None:
        """A tile's cost on the track: cubes (and any-kind cubes, whisky, a clan member) on a
        dark strip at its top; a free tile shows none."""
        entry = tile_of(tile)
        if entry is None:
            return
        cost = entry.get("cost") or {}
        items: list[str] = []
        for res in RESOURCE_NAMES:
            items += [res] * int((cost.get("resources") or {}).get(res, 0))
        items += ["any"] * int(cost.get("any", 0))
        items += ["whisky"] * int(cost.get("whisky", 0))
        items += ["clan"] * int(cost.get("clan_members", 0))
        if not items:
            return
        rad = max(3, int(r.width * 0.085))
        step = 2 * rad + 2
        strip = pygame.Rect(0, 0, len(items) * step + 4, 2 * rad + 4)
        strip.midtop = (r.centerx, r.y + 2)
        veil = pygame.Surface(strip.size, pygame.SRCALPHA)
        pygame.draw.rect(veil, (12, 14, 18, 205), veil.get_rect(), border_radius=rad)
        surface.blit(veil, strip)
        x = strip.x + 2 + rad
        cy = strip.centery
        for item in items:
            if item in RESOURCE_NAMES:
                art.draw_resource(surface, item, (x, cy), rad, self._cb())
            elif item == "any":
                pygame.draw.rect(
                    surface, (200, 200, 206), (x - rad, cy - rad, 2 * rad, 2 * rad), border_radius=2
                )
                img = self.app.fonts.render("?", max(8, 2 * rad), (20, 20, 24), True)
                surface.blit(img, img.get_rect(center=(x, cy)))
            elif item == "whisky":
                sprite = art.barrel_sprite(2 * rad + 2)
                surface.blit(sprite, sprite.get_rect(center=(x, cy)))
            else:
                art.draw_meeple(surface, (x, cy), 2 * rad)
            x += step

    def _draw_market(self, surface: pygame.Surface) -> None:
        px = self.app.px
        inner = self.interior
        strip_h = max(px(18), min(px(26), inner.height // 6))
        market = pygame.Rect(inner.x, inner.y, inner.width, inner.height - strip_h - px(2))
        self.market_rows, self.buy_rects, self.sell_rects = {}, {}, {}
        rows = self.view.get("market") or []
        if market.height < 10 or market.width < 40 or not rows:
            return
        rh = market.height / max(1, len(rows))
        for k, row in enumerate(rows):
            res = str(row.get("resource"))
            rr = pygame.Rect(market.x, int(market.y + k * rh), market.width, max(6, int(rh) - 2))
            self.market_rows[res] = rr
            self._draw_market_row(surface, rr, res, row)
        self.stack_rect = pygame.Rect(inner.x, market.bottom + px(2), inner.width, strip_h)

    def _draw_market_row(
        self, surface: pygame.Surface, rr: pygame.Rect, res: str, row: dict[str, Any]
    ) -> None:
        px = self.app.px
        armed = self.trade is not None and (
            (self.trade[0] == "buy" and self.trade[1] == res)
            or (self.trade[0] == "sell" and self.trade[3] == res)
        )
        pygame.draw.rect(
            surface,
            (40, 52, 48) if not armed else (70, 60, 30),
            rr,
            border_radius=max(2, rr.height // 5),
        )
        if armed:
            pygame.draw.rect(surface, pal.ACCENT, rr, 2, border_radius=max(2, rr.height // 5))
        rad = max(3, int(rr.height * 0.34))
        art.draw_resource(surface, res, (rr.x + rad + 4, rr.centery), rad, self._cb())
        filled = int(row.get("filled", 0) or 0)
        lw = max(10, min(int(rr.height * 1.05), rr.width // 8))
        x = rr.x + 2 * rad + 10
        prices = (1, 2, 3)
        coin = art.coin_sprite(max(3, int(rr.height * 0.36)))
        can_buy = res in self.acts.buys
        can_sell = res in self.acts.sells
        for i, price in enumerate(prices):
            box = pygame.Rect(x + i * (lw + 2), rr.y + 2, lw, rr.height - 4)
            pygame.draw.rect(surface, (24, 30, 30), box, border_radius=max(2, box.height // 5))
            if i < filled:
                surface.blit(coin, coin.get_rect(center=box.center))
                if can_sell and i == filled - 1:
                    pygame.draw.rect(
                        surface, pal.GOOD, box, 2, border_radius=max(2, box.height // 5)
                    )
            else:
                img = self.app.fonts.render(
                    str(price), max(8, int(box.height * 0.6)), (130, 140, 130), True
                )
                surface.blit(img, img.get_rect(center=box.center))
                if can_buy and i == filled:
                    pygame.draw.rect(
                        surface, pal.HIGHLIGHT, box, 2, border_radius=max(2, box.height // 5)
                    )
        bx = x + 3 * (lw + 2) + px(4)
        avail = rr.right - bx - px(2)
        bw = max(8, (avail - px(4)) // 2)
        buy_rect = pygame.Rect(bx, rr.y + 1, bw, rr.height - 2)
        sell_rect = pygame.Rect(buy_rect.right + px(4), rr.y + 1, bw, rr.height - 2)
        buy, sell = row.get("buy"), row.get("sell")
        self._market_button(
            surface,
            buy_rect,
            t("gm.market.buy", price=buy) if buy else "—",
            can_buy,
            self.trade is not None and self.trade[0] == "buy" and armed,
        )
        self._market_button(
            surface,
            sell_rect,
            t("gm.market.sell", price=sell) if sell else "—",
            can_sell,
            (self.trade is not None and self.trade[0] == "sell" and armed) or self.sell_pick == res,
        )
        self.buy_rects[res] = buy_rect
        self.sell_rects[res] = sell_rect

    def _market_button(
        self, surface: pygame.Surface, rect: pygame.Rect, label: str, enabled: bool, armed: bool
    ) -> None:
        radius = max(2, rect.height // 4)
        hovered = enabled and rect.collidepoint(self.mouse)
        fill = pal.BG_HOVER if hovered else (pal.BG_PANEL_2 if enabled else (32, 36, 44))
        if armed:
            fill = pal.ACCENT_DARK
        pygame.draw.rect(surface, fill, rect, border_radius=radius)
        border = pal.ACCENT if armed else (pal.HIGHLIGHT if enabled else pal.BORDER)
        pygame.draw.rect(surface, border, rect, 1, border_radius=radius)
        colour = pal.TEXT if enabled else pal.TEXT_DISABLED
        self._text(
            surface,
            label,
            max(9, int(rect.height * 0.55)),
            colour,
            rect.center,
            rect.width - 4,
            bold=enabled,
            anchor="center",
            minimum=8,
        )

    def _draw_stacks(self, surface: pygame.Surface) -> None:
        """The stacks' tiles left (stacks 1-3 end in a scoring; stack 0 only fills the first
        track), the rounds held, the tiles out of the game."""
        rect = self.stack_rect
        if rect.height < 8 or rect.width < 40:
            return
        stacks = self.view.get("stacks") or []
        rounds = len(self.view.get("rounds") or [])
        h = rect.height - 2
        x = rect.x
        for k, n in enumerate(stacks[:4]):
            if k == 0 and not n:
                continue
            back = art.tile_back(max(8, h), k)
            surface.blit(back, (x, rect.y + 1))
            x += back.get_width() + 2
            colour = pal.TEXT if n else pal.TEXT_DISABLED
            img = self.app.fonts.render(str(n), max(9, int(h * 0.62)), colour, True)
            surface.blit(img, img.get_rect(midleft=(x, rect.centery)))
            x += img.get_width() + 2
            if k >= 1:
                done = rounds >= k
                mark = pygame.Rect(x, rect.centery - h // 4, h // 2, h // 2)
                pygame.draw.circle(
                    surface, GOLD if done else (90, 80, 50), mark.center, max(2, h // 4)
                )
                if done:
                    pygame.draw.line(
                        surface,
                        (30, 20, 10),
                        (mark.x + 1, mark.centery),
                        (mark.centerx, mark.bottom - 1),
                        2,
                    )
                    pygame.draw.line(
                        surface,
                        (30, 20, 10),
                        (mark.centerx, mark.bottom - 1),
                        (mark.right, mark.y),
                        2,
                    )
                x += mark.width + 4
            x += max(2, h // 3)
        # Right-aligned (room permitting): the number of tiles out of the game.
        right = rect.right - 2
        removed = len(self.view.get("removed") or [])
        label = t("gm.track.removed", n=removed)
        small = max(9, int(h * 0.55))
        if self.app.fonts.size(label, small)[0] <= right - x:
            img = self.app.fonts.render(label, small, pal.TEXT_DIM)
            surface.blit(img, img.get_rect(midright=(right, rect.centery)))

    def _hidden_slots(self) -> set[int]:
        """Track spaces an animation is drawing instead (a figure on its way, a new tile)."""
        return set()
