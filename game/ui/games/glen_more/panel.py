"""The panels around the territories: the step box under the track (whose turn, the tile being
taken with its cost and effects, what to do now — the payment still due, the options of a
butcher or fair, a resource to choose, the trade waiting for Confirm, the movement points — and
what the next scoring compares), the header over the big territory (coins, whisky, chieftains,
bonnets, clan members, cards, points) and the other players' boxes over their compact
territories."""

from __future__ import annotations

from typing import Any

import pygame

from game.ui import palette as pal
from game.ui.games.glen_more import art
from game.ui.games.glen_more.common import GOLD, LOCH_NESS, RESOURCE_NAMES
from game.ui.games.glen_more.motion import MotionMixin
from game.ui.games.glen_more.text import (
    effect_lines,
    payment_text,
    res_name,
    reward_text,
    tile_name,
)
from game.ui.i18n import plural, t


class PanelMixin(MotionMixin):
    """The step box, the header and the other players' boxes."""

    # ---- the header over the big territory ---------------------------------------------------
    def _draw_header(self, surface: pygame.Surface) -> None:
        rect = self.rects.header
        if rect.width < 40 or rect.height < 12 or not self.view:
            return
        px = self.app.px
        seat = self.big_seat()
        pygame.draw.rect(surface, pal.BG_PANEL, rect, border_radius=px(10))
        if seat == self.current and not self.view.get("over"):
            pygame.draw.rect(surface, self._seat_rgb(seat), rect, 2, border_radius=px(10))
        x = rect.x + px(10)
        sw = self._swatch(seat, px(24))
        surface.blit(sw, sw.get_rect(midleft=(x, rect.centery)))
        x += px(32)
        right = rect.right - px(10)
        self.back_rect = pygame.Rect(0, 0, 0, 0)
        total = self.score_total(seat)
        self.score_chip_rects = [r for r in self.score_chip_rects if not rect.contains(r[0])]
        if total is not None:
            img = self.app.fonts.render(t("gm.vp_short", n=total), px(20), GOLD, True)
            projection = self.score_projection(seat)
            if projection is not None and projection != total:
                # banked points in gold; under them, small and named, where the preview stands
                note = self.app.fonts.render(
                    t("gm.vp_if_ended", n=projection), px(11), pal.TEXT_DIM
                )
                both = pygame.Rect(
                    0,
                    0,
                    max(img.get_width(), note.get_width()),
                    img.get_height() + note.get_height(),
                )
                both.midright = (right, rect.centery)
                box = img.get_rect(topright=both.topright)
                surface.blit(img, box)
                surface.blit(note, note.get_rect(topright=(both.right, box.bottom - px(2))))
                box = both
            else:
                box = img.get_rect(midright=(right, rect.centery))
                surface.blit(img, box)
            chip = box.inflate(px(8), px(4))
            self.score_chip_rects.append((chip, seat))
            right = box.x - px(12)
        if self.focus is not None and self.you is not None:
            label = t("gm.header.back")
            size = px(13)
            w = min(self.app.fonts.size(label, size)[0] + px(16), max(px(40), (right - x) // 3))
            self.back_rect = pygame.Rect(0, 0, w, px(26))
            self.back_rect.midright = (right, rect.centery)
            hovered = self.back_rect.collidepoint(self.mouse)
            pygame.draw.rect(
                surface,
                pal.BG_HOVER if hovered else pal.BG_PANEL_2,
                self.back_rect,
                border_radius=px(6),
            )
            pygame.draw.rect(surface, pal.HIGHLIGHT, self.back_rect, 1, border_radius=px(6))
            self._text(
                surface, label, size, pal.TEXT, self.back_rect.center, w - px(8), anchor="center"
            )
            right = self.back_rect.x - px(10)
        name = self._seat_label(seat)
        name_w = min(self.app.fonts.size(name, px(17), True)[0], max(px(60), (right - x) // 3))
        self._text(
            surface, name, px(17), pal.TEXT, (x, rect.centery), name_w, bold=True, anchor="midleft"
        )
        x += name_w + px(14)
        self._draw_counters(
            surface,
            seat,
            pygame.Rect(x, rect.y, max(0, right - x), rect.height),
            px(22),
            cards=True,
        )

    def _seat_label(self, seat: int) -> str:
        name = self._name(seat)
        tag = ""
        if seat == self.you:
            tag = t("gm.panel.you")
        elif seat < len(self.seats) and not self.seats[seat].connected:
            tag = t("gm.panel.away")
        elif seat < len(self.seats) and self.seats[seat].kind == "bot":
            tag = t("gm.panel.bot")
        if tag and tag.lower() not in name.lower():
            return f"{name} ({tag})"
        return name

    def _draw_counters(
        self, surface: pygame.Surface, seat: int, rect: pygame.Rect, h: int, cards: bool
    ) -> None:
        """Coins, whisky, chieftains (× Castle of Mey), bonnets, clan members on the
        territory, then the special-location cards (named when there is room)."""
        sv = self.seat_view(seat)
        if not sv or rect.width < 20:
            return
        fonts = self.app.fonts
        size = max(9, int(h * 0.72))
        mult = int(sv.get("chieftain_multiplier", 1) or 1)
        chiefs = str(sv.get("chieftains", 0)) + (f"×{mult}" if mult > 1 else "")
        items: list[tuple[pygame.Surface, str, str]] = [
            (
                art.coin_sprite(max(3, h // 2 - 1)),
                str(sv.get("coins", 0)),
                t("gm.chip.coins", n=sv.get("coins", 0)),
            ),
            (
                art.barrel_sprite(h),
                str(sv.get("whisky", 0)),
                t("gm.chip.whisky", n=sv.get("whisky", 0)),
            ),
            (
                art.meeple_sprite(max(6, h - 4), True),
                chiefs,
                t("gm.chip.chieftains", n=sv.get("chieftains", 0), m=mult),
            ),
            (
                art.bonnet_sprite(max(3, h // 3)),
                str(sv.get("bonnets", 0)),
                t("gm.chip.bonnets", n=sv.get("bonnets", 0)),
            ),
            (
                art.meeple_sprite(max(6, h - 4)),
                str(sv.get("clan_on_board", 0)),
                t("gm.chip.clan", n=sv.get("clan_on_board", 0)),
            ),
        ]
        card_ids = [c for c in sv.get("cards") or [] if isinstance(c, str)]
        items.append(
            (
                art.card_sprite(max(5, int(h * 0.62))),
                str(len(card_ids)),
                t("gm.chip.cards", n=len(card_ids)),
            )
        )
        x = rect.x
        cy = rect.centery
        for sprite, text, tip in items:
            img = fonts.render(text, size, pal.TEXT, True)
            w = sprite.get_width() + 3 + img.get_width()
            if x + w > rect.right:
                break
            surface.blit(sprite, sprite.get_rect(midleft=(x, cy)))
            surface.blit(img, img.get_rect(midleft=(x + sprite.get_width() + 3, cy)))
            self.chip_texts.append((pygame.Rect(x, cy - h // 2, w, h), tip))
            x += w + max(6, h // 2)
        if not cards:
            return
        chip_h = max(12, int(h * 0.9))
        for tile in card_ids:
            label = tile_name(tile)
            w = min(fonts.size(label, max(9, chip_h - 6))[0] + chip_h, self.app.px(150))
            if x + min(w, chip_h * 2) > rect.right:
                break
            w = min(w, rect.right - x)
            chip = pygame.Rect(x, cy - chip_h // 2, w, chip_h)
            pygame.draw.rect(surface, (250, 246, 230), chip, border_radius=chip_h // 4)
            pygame.draw.rect(surface, (120, 100, 60), chip, 1, border_radius=chip_h // 4)
            self._text(
                surface,
                label,
                max(9, chip_h - 6),
                (30, 28, 24),
                (chip.x + 4, chip.centery),
                chip.width - 8,
                anchor="midleft",
                minimum=7,
            )
            self.card_rects.append((chip, tile))
            x += w + 4

    # ---- the other players -------------------------------------------------------------------
    def _draw_others(self, surface: pygame.Surface) -> None:
        """The other players' boxes, drawn once into a layer and blitted while nothing they
        show changes (the view, the box under the mouse, the settings, the layout)."""
        rect = self.rects.others
        if rect.width <= 0 or rect.height <= 0:
            return
        hovered = next((s for s, b in self.other_boxes.items() if b.collidepoint(self.mouse)), None)
        live = (self.scoring is not None and not self.scoring.done) or any(
            a.kind == "place" and a.data.get("seat") != self.big_seat() for a in self.anims
        )
        settings = self.app.settings
        key = (
            id(self.view),
            hovered,
            tuple(self.other_boxes.items()),
            tuple(sorted((s, tuple(sorted(c))) for s, c in self.recent.items())),
            settings.colour_blind,
            settings.score_preview,
            settings.language,
            surface.get_size(),
        )
        layer = self._others_layer
        if live or layer is None or layer[0] != key:
            canvas = (
                layer[1]
                if layer is not None and layer[1].get_size() == surface.get_size()
                else None
            )
            if canvas is None:
                canvas = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
            canvas.fill((0, 0, 0, 0), rect)
            chips, scores = len(self.chip_texts), len(self.score_chip_rects)
            self._paint_others(canvas)
            layer = (key, canvas, self.chip_texts[chips:], self.score_chip_rects[scores:])
            self._others_layer = layer
        else:
            self.chip_texts.extend(layer[2])
            self.score_chip_rects.extend(layer[3])
        surface.blit(layer[1], rect, area=rect)

    def _paint_others(self, surface: pygame.Surface) -> None:
        px = self.app.px
        for seat, box in self.other_boxes.items():
            hovered = box.collidepoint(self.mouse)
            pygame.draw.rect(
                surface, pal.BG_HOVER if hovered else pal.BG_PANEL, box, border_radius=px(8)
            )
            if seat == self.current and not self.view.get("over"):
                pygame.draw.rect(surface, self._seat_rgb(seat), box, 2, border_radius=px(8))
            else:
                pygame.draw.rect(surface, pal.BORDER, box, 1, border_radius=px(8))
            head = self._box_head()
            line = head // 2
            x = box.x + px(6)
            sw = self._swatch(seat, px(16))
            surface.blit(sw, sw.get_rect(midleft=(x, box.y + line // 2 + px(2))))
            right = box.right - px(6)
            total = self.score_total(seat)
            if total is not None:
                img = self.app.fonts.render(t("gm.vp_short", n=total), px(15), GOLD, True)
                r = img.get_rect(midright=(right, box.y + line // 2 + px(2)))
                surface.blit(img, r)
                chip = r.inflate(px(6), px(6))
                projection = self.score_projection(seat)
                if projection is not None and projection != total:
                    dim = self.app.fonts.render(f"→{projection}", px(12), pal.TEXT_DIM)
                    spot = dim.get_rect(midright=(r.x - px(4), r.centery + px(1)))
                    surface.blit(dim, spot)
                    chip = chip.union(spot)
                    r = spot
                self.score_chip_rects.append((chip, seat))
                right = r.x - px(6)
            self._text(
                surface,
                self._seat_label(seat),
                px(14),
                pal.TEXT,
                (x + px(22), box.y + line // 2 + px(2)),
                right - x - px(22),
                bold=seat == self.current,
                anchor="midleft",
            )
            counters = pygame.Rect(x, box.y + line, box.width - px(12), line)
            self._draw_counters(surface, seat, counters, max(10, line - px(6)), cards=False)
            if seat not in self.small_grids:
                continue
            grid, inner = self.small_grids[seat]
            clip = surface.get_clip()
            surface.set_clip(inner.clip(clip))
            self._draw_grid(surface, seat, grid, inner, small=True)
            surface.set_clip(clip)

    # ---- the step box ----------------------------------------------------------------------------
    def _draw_step(self, surface: pygame.Surface) -> None:
        rect = self.rects.step
        self.choice_panel.rect = pygame.Rect(0, 0, 0, 0)
        if rect.width < 40 or rect.height < 30 or not self.view:
            return
        px = self.app.px
        pygame.draw.rect(surface, pal.BG_PANEL, rect, border_radius=px(10))
        pygame.draw.rect(surface, pal.BORDER, rect, 1, border_radius=px(10))
        x, w = rect.x + px(10), rect.width - px(20)
        y = rect.y + px(8)
        cur = self.current
        if self.view.get("over"):
            self._text(surface, t("gm.step.over"), px(17), GOLD, (x, y), w, bold=True)
            y += px(28)
            y = self._draw_standings(surface, pygame.Rect(x, y, w, rect.bottom - y - px(8)))
        elif cur is not None:
            sw = self._swatch(cur, px(20))
            surface.blit(sw, (x, y + px(2)))
            key = "gm.step.your_turn" if self.my_turn() else "gm.step.turn_of"
            self._text(
                surface,
                t(key, name=self._name(cur)),
                px(17),
                pal.TEXT,
                (x + px(28), y),
                w - px(28),
                bold=True,
            )
            y += px(28)
        # The tile being taken (or the track tile under the mouse, as a preview).
        tile = self.pending.get("tile") if not self.view.get("over") else None
        preview = False
        if tile is None:
            slot = self.slot_at(self.mouse)
            track = self.view.get("track") or []
            if slot is not None and slot < len(track) and isinstance(track[slot], dict):
                tile = track[slot].get("tile")
                preview = tile is not None
        card_h = self.card_size()
        if tile is not None:
            y = self._draw_card(surface, str(tile), pygame.Rect(x, y, w, card_h), preview)
        bottom = rect.bottom - px(8)
        if self.my_turn() and not self.view.get("over"):
            y = self._draw_instructions(surface, pygame.Rect(x, y, w, bottom - y))
        if bottom - y > px(70):
            self._draw_next_scoring(surface, pygame.Rect(x, y, w, bottom - y))

    def _draw_standings(self, surface: pygame.Surface, rect: pygame.Rect) -> int:
        """After the game: every player's total (counting up during the final sequence),
        best first, with the winners marked."""
        px = self.app.px
        n = self.n_seats()
        totals = [(self.score_total(s) or 0, s) for s in range(n)]
        winners = set(self.winners)
        row_h = px(26)
        y = rect.y
        for total, s in sorted(totals, key=lambda p: (-p[0], p[1])):
            if y + row_h > rect.bottom:
                break
            sw = self._swatch(s, px(18))
            surface.blit(sw, sw.get_rect(midleft=(rect.x, y + row_h // 2)))
            bold = s in winners
            self._text(
                surface,
                self._name(s),
                px(15),
                pal.TEXT,
                (rect.x + px(26), y + row_h // 2),
                rect.width - px(110),
                bold=bold,
                anchor="midleft",
            )
            self._text(
                surface,
                t("gm.vp_short", n=total),
                px(16),
                GOLD,
                (rect.right, y + row_h // 2),
                px(90),
                bold=True,
                anchor="midright",
            )
            y += row_h
        return y + px(6)

    def _draw_card(
        self, surface: pygame.Surface, tile: str, rect: pygame.Rect, preview: bool
    ) -> int:
        px = self.app.px
        fonts = self.app.fonts
        size = rect.height
        face = art.tile_face(tile, size)
        card = pygame.Rect(rect.x, rect.y, size, size)
        surface.blit(face, card)
        self.card_rects.append((card, tile))
        tx = card.right + px(10)
        tw = rect.right - tx
        if tw < px(30):
            return rect.bottom + px(6)
        ty = rect.y
        head = tile_name(tile)
        if preview:
            head = t("gm.step.preview", tile=head)
        self._text(surface, head, px(15), pal.ACCENT, (tx, ty), tw, bold=True)
        ty += fonts.line_height(px(15), True)
        from game.ui.games.glen_more.text import cost_text

        self._text(surface, t("gm.tile.cost", cost=cost_text(tile)), px(12), pal.TEXT, (tx, ty), tw)
        ty += fonts.line_height(px(12))
        # The effects beside the tile, then (when longer) under it across the box.
        line_h = fonts.line_height(px(12))
        below = rect.bottom + px(4)
        extra = 3
        for text in effect_lines(tile, self.on_placement()):
            sep = " " if " " in text else ""
            lines = self._wrap(text, px(12), tw)
            i = 0
            while i < len(lines) and ty + line_h <= rect.bottom + px(2):
                surface.blit(fonts.render(lines[i], px(12), pal.TEXT_DIM), (tx, ty))
                ty += line_h
                i += 1
            if i >= len(lines):
                continue
            ty = max(ty, below)
            rest = sep.join(lines[i:])
            for wide in self._wrap(rest, px(12), rect.width):
                if extra <= 0:
                    break
                surface.blit(fonts.render(wide, px(12), pal.TEXT_DIM), (rect.x, ty))
                ty += line_h
                extra -= 1
        return max(rect.bottom + px(8), ty + px(6))

    def _draw_instructions(self, surface: pygame.Surface, rect: pygame.Rect) -> int:
        """What to do now, from the pending decision (``view["pending"]``) and the legal list."""
        px = self.app.px
        x, y, w = rect.x, rect.y, rect.width
        p = self.pending
        phase = self.phase
        lines: list[tuple[str, pal.RGB]] = []
        if self.trade is not None:
            return self._draw_trade(surface, rect)
        if self.sell_pick is not None:
            lines.append((t("gm.step.sell_pick", res=res_name(self.sell_pick)), pal.ACCENT))
        if phase == "take":
            key = (
                "gm.step.discard" if self.acts.discards and not self.acts.takes else "gm.step.take"
            )
            lines.append((t(key), pal.TEXT))
        elif phase == "pay":
            pay = p.get("payment") or {}
            lines.append((t("gm.step.still_to_pay"), pal.TEXT_DIM))
            y = self._text_lines(surface, lines, x, y, w)
            lines = []
            y = self._draw_due(surface, pay, pygame.Rect(x, y, w, px(26)))
            if pay.get("for") == "effect" and p.get("reward"):
                lines.append((t("gm.step.for_reward", reward=reward_text(p["reward"])), GOLD))
            if not (self.acts.pays or self.acts.buys or self.acts.pay_clans) and self.acts.sells:
                lines.append((t("gm.step.sell_first"), pal.ACCENT))
            else:
                how = "gm.step.pay_how_clan" if self.acts.pay_clans else "gm.step.pay_how"
                lines.append((t(how), pal.TEXT_DIM))
        elif phase == "place":
            lines.append((t("gm.step.place"), pal.TEXT))
            lines.append((t("gm.step.place_rule"), pal.TEXT_DIM))
        elif phase in ("option", "resource"):
            if phase == "resource":
                queue = p.get("resource_for") or []
                if queue and isinstance(queue[0], list) and len(queue[0]) == 3:
                    lines.append((t("gm.step.resource", n=queue[0][2]), pal.TEXT_DIM))
            else:
                reward = p.get("reward") or {}
                if reward:
                    lines.append((t("gm.step.option"), pal.TEXT_DIM))
            y = self._text_lines(surface, lines, x, y, w)
            lines = []
            box_h = max(px(90), min(rect.bottom - y - px(4), px(230)))
            self.choice_panel.rect = pygame.Rect(x - px(4), y, w + px(8), box_h)
            self.choice_panel.hint = self.hint
            self.choice_panel.draw(surface, active=True)
            y += box_h + px(6)
        elif phase == "activate":
            n = len(self.acts.activates)
            lines.append(
                (plural("gm.step.activate", n) if n else t("gm.step.activate_none"), pal.TEXT)
            )
            first = p.get("placed_first")
            if isinstance(first, list) and len(first) == 2 and tuple(first) in self.acts.activates:
                lines.append((t("gm.step.first"), GOLD))
            if self.acts.loch_ness:
                key = "gm.step.loch_ness_on" if self.ness_mode else "gm.step.loch_ness"
                lines.append((t(key), LOCH_NESS))
            lines.append((t("gm.step.activate_how"), pal.TEXT_DIM))
        elif phase == "move":
            points = int(p.get("movement_points", 0) or 0)
            boot = art.boot_sprite(px(20))
            for i in range(min(points, 12)):
                surface.blit(boot, (x + i * (boot.get_width() + px(2)), y))
            self._text(
                surface,
                plural("gm.step.points", points),
                px(13),
                pal.TEXT,
                (x + min(points, 12) * (boot.get_width() + px(2)) + px(6), y + px(2)),
                w - min(points, 12) * px(22),
            )
            y += px(26)
            key = "gm.step.move_chosen" if self.move_from is not None else "gm.step.move"
            lines.append((t(key), pal.TEXT))
            lines.append((t("gm.step.move_rule"), pal.TEXT_DIM))
        return self._text_lines(surface, lines, x, y, w)

    def _text_lines(
        self, surface: pygame.Surface, lines: list[tuple[str, pal.RGB]], x: int, y: int, w: int
    ) -> int:
        fonts = self.app.fonts
        size = self.app.px(13)
        for text, colour in lines:
            for img in self._lines(text, size, colour, w, 4):
                surface.blit(img, (x, y))
                y += fonts.line_height(size)
            y += self.app.px(3)
        return y

    def _draw_due(self, surface: pygame.Surface, pay: dict[str, Any], rect: pygame.Rect) -> int:
        """The payment still due as cubes (any kinds as "?"), clan members, in words after."""
        px = self.app.px
        rad = max(5, rect.height // 2 - 3)
        x = rect.x + rad
        cy = rect.centery
        res = pay.get("resources") or {}
        for r in RESOURCE_NAMES:
            for _ in range(int(res.get(r, 0) or 0)):
                art.draw_resource(surface, r, (x, cy), rad, self._cb())
                x += 2 * rad + px(4)
        for _ in range(int(pay.get("any", 0) or 0)):
            pygame.draw.rect(
                surface, (200, 200, 206), (x - rad, cy - rad, 2 * rad, 2 * rad), border_radius=3
            )
            img = self.app.fonts.render("?", 2 * rad, (20, 20, 24), True)
            surface.blit(img, img.get_rect(center=(x, cy)))
            x += 2 * rad + px(4)
        for _ in range(int(pay.get("clan_members", 0) or 0)):
            art.draw_meeple(surface, (x, cy), 2 * rad)
            x += 2 * rad + px(4)
        self._text(
            surface,
            payment_text(pay),
            px(13),
            pal.TEXT,
            (x + px(4), cy),
            rect.right - x - px(4),
            anchor="midleft",
        )
        return rect.bottom + px(4)

    def _draw_trade(self, surface: pygame.Surface, rect: pygame.Rect) -> int:
        """The trade waiting for Confirm: what it buys or sells, its price, coins before and
        after (the market's price as the view shows it)."""
        px = self.app.px
        trade = self.trade
        assert trade is not None
        you = self.you if self.you is not None else 0
        coins = int(self.seat_view(you).get("coins", 0) or 0)
        res = str(trade[1] if trade[0] == "buy" else trade[3])
        row: dict[str, Any] = next(
            (m for m in self.view.get("market") or [] if m.get("resource") == res), {}
        )
        box = pygame.Rect(rect.x - px(4), rect.y, rect.width + px(8), min(rect.height, px(118)))
        pygame.draw.rect(surface, (60, 50, 26), box, border_radius=px(8))
        pygame.draw.rect(surface, pal.ACCENT, box, 2, border_radius=px(8))
        x, y, w = box.x + px(10), box.y + px(8), box.width - px(20)
        rad = px(12)
        art.draw_resource(surface, res, (x + rad, y + rad), rad, self._cb())
        if trade[0] == "buy":
            price = int(row.get("buy") or 0)
            title = plural("gm.trade.buy", int(price), res=res_name(res), price=price)
            after = coins - price
            note = t("gm.trade.buy_note")
        else:
            price = int(row.get("sell") or 0)
            title = plural(
                "gm.trade.sell",
                int(price),
                res=res_name(res),
                price=price,
                where=self.tile_words(self.you or 0, trade[1:3]),
            )
            after = coins + price
            note = t("gm.trade.sell_note")
        self._text(
            surface,
            title,
            px(15),
            pal.TEXT,
            (x + 2 * rad + px(8), y + rad),
            w - 2 * rad - px(8),
            bold=True,
            anchor="midleft",
        )
        y += 2 * rad + px(8)
        self._text(surface, t("gm.trade.coins", before=coins, after=after), px(14), GOLD, (x, y), w)
        y += px(22)
        fonts = self.app.fonts
        for img in self._lines(note + " " + t("gm.trade.confirm"), px(12), pal.TEXT_DIM, w, 3):
            if y + img.get_height() > box.bottom:
                break
            surface.blit(img, (x, y))
            y += fonts.line_height(px(12))
        return box.bottom + px(6)

    def _draw_next_scoring(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        """What the next scoring round compares, per player: whisky, chieftains and bonnets,
        cards — and the points it would give if held now (the engine's preview)."""
        px = self.app.px
        fonts = self.app.fonts
        n = self.n_seats()
        rounds = len(self.view.get("rounds") or [])
        if n == 0 or rounds >= 3 or self.view.get("over"):
            return
        stacks = self.view.get("stacks") or []
        left = stacks[rounds + 1] if rounds + 1 < len(stacks) else 0
        title = t("gm.next.title", round=rounds + 1, stack=rounds + 1, n=left)
        y = rect.y + px(4)
        head_h = px(8) + fonts.line_height(px(13), True) + px(2)
        if max(px(16), min(px(22), (rect.bottom - y - head_h) // (n + 1))) * (n + 1) > (
            rect.bottom - y - head_h
        ):
            return
        pygame.draw.line(surface, pal.BORDER, (rect.x, y), (rect.right, y))
        y += px(4)
        self._text(surface, title, px(13), pal.ACCENT, (rect.x, y), rect.width, bold=True)
        y += fonts.line_height(px(13), True) + px(2)
        row_h = max(px(16), min(px(22), (rect.bottom - y) // (n + 1)))
        if row_h * (n + 1) > rect.bottom - y:
            return
        cols = [rect.x + int(rect.width * f) for f in (0.42, 0.58, 0.74, 0.9)]
        icons = [
            art.barrel_sprite(row_h - 2),
            art.meeple_sprite(max(6, row_h - 6), True),
            art.card_sprite(max(5, int(row_h * 0.55))),
        ]
        for cx, icon in zip(cols, icons, strict=False):
            surface.blit(icon, icon.get_rect(center=(cx, y + row_h // 2)))
        self._text(
            surface,
            t("gm.next.vp"),
            px(11),
            pal.TEXT_DIM,
            (cols[3], y + row_h // 2),
            rect.right - cols[3] + px(20),
            anchor="center",
        )
        self.chip_texts.append((pygame.Rect(rect.x, y, rect.width, row_h), t("gm.next.help")))
        y += row_h
        preview = self.view.get("preview") or []
        key = f"scoring_{rounds + 1}"
        for s in range(n):
            sv = self.seat_view(s)
            sw = self._swatch(s, row_h - 6)
            surface.blit(sw, sw.get_rect(midleft=(rect.x, y + row_h // 2)))
            self._text(
                surface,
                self._name(s),
                px(12),
                pal.TEXT,
                (rect.x + row_h, y + row_h // 2),
                cols[0] - rect.x - row_h - px(14),
                anchor="midleft",
            )
            mult = int(sv.get("chieftain_multiplier", 1) or 1)
            chiefs = (
                f"{sv.get('chieftains', 0)}"
                + (f"×{mult}" if mult > 1 else "")
                + f"+{sv.get('bonnets', 0)}"
            )
            values = [str(sv.get("whisky", 0)), chiefs, str(len(sv.get("cards") or []))]
            for cx, value in zip(cols, values, strict=False):
                self._text(
                    surface, value, px(12), pal.TEXT, (cx, y + row_h // 2), px(60), anchor="center"
                )
            if (
                s < len(preview)
                and isinstance(preview[s], dict)
                and self.app.settings.score_preview
            ):
                self._text(
                    surface,
                    f"+{preview[s].get(key, 0)}",
                    px(12),
                    GOLD,
                    (cols[3], y + row_h // 2),
                    px(50),
                    bold=True,
                    anchor="center",
                )
            y += row_h

    def _draw_choice_hint(self) -> None:
        self.choice_panel.hint = self.hint
