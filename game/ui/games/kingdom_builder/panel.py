"""The side panel: the turn box (whose turn, the terrain card, placements, deck, an armed
Outpost), the shown seat's own strip (its next terrain card, its location and nomad tile
buttons), every player's row (tiles and nomad tiles held, gold, settlements left, score) and the
scoring categories — castles, the three cards, Treasure's gold — with their live score per
player (each chip in the seat's colour *and* shape).  Painted into one cached surface, redrawn
when what it shows changes.

The panel's height is shared out (:meth:`PanelMixin._plan`): the turn box and the player rows
shrink on a short panel (five players at 1024x640), and each category's rule gets as many
wrapped lines as fit — never cut while a line fits."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pygame

from game.ui import palette as pal
from game.ui.games.base import Action
from game.ui.games.kingdom_builder import art
from game.ui.games.kingdom_builder.board import BoardMixin
from game.ui.games.kingdom_builder.common import NOMAD_CARD_NAMES, TREASURE, hex_of
from game.ui.games.kingdom_builder.scoring import GOLD, GOLD_DARK
from game.ui.games.kingdom_builder.text import (
    card_short_key,
    category_name,
    nomad_abbr,
    terrain_name,
)
from game.ui.i18n import has, t

#: Categories whose points are banked during play (the Nomads cards' gold, Treasure): their
#: chips show even with the score preview off.
BANKED = (*NOMAD_CARD_NAMES, TREASURE)


@dataclass
class PanelPlan:
    """Heights (window pixels) the panel gives its parts, and the lines of each category's
    rule (see :meth:`PanelMixin._plan`)."""

    box_h: int
    row_h: int
    card_lines: list[list[str]]
    card_heights: list[int]


class PanelMixin(BoardMixin):
    """The side panel."""

    def _panel_state_key(self) -> tuple[Any, ...]:
        return (
            id(self.view),
            self._hover_button,
            self._sprite_key(),
            self.app.settings.score_preview,
            self.scoring.step if self.scoring else -1,
            self.hover_focus,
        )

    def _draw_panel(self, surface: pygame.Surface) -> None:
        rect = self.panel_rect
        if rect.width <= 0:
            return
        key = self._panel_state_key()
        scoring_live = self.scoring is not None and not self.scoring.done
        if self.panel_surf is None or key != self._panel_key or scoring_live:
            self._panel_key = key
            surf = pygame.Surface(rect.size, pygame.SRCALPHA)
            self.tile_buttons = []
            self.row_rects = {}
            self.card_rows = []
            self.score_chips = []
            self._paint_panel(surf)
            self.panel_surf = surf
        surface.blit(self.panel_surf, rect.topleft)

    def _next_card(self) -> str | None:
        """The shown seat's own next terrain card, while another seat plays (private)."""
        v = self.view
        you = v.get("you")
        if you is None or v.get("over") or not self.show_private or v.get("current") == you:
            return None
        seats = v.get("seats") or []
        code = seats[you].get("hand") if isinstance(you, int) and you < len(seats) else None
        return code if isinstance(code, str) and has(f"kb.terrain.{code}") else None

    def _paint_panel(self, surf: pygame.Surface) -> None:
        """Turn box, your strip (next card, tiles), players, categories (coordinates relative
        to the panel)."""
        px = self.app.px
        tiles = self._own_tiles()
        plan = self._plan(tiles)
        box = pygame.Rect(0, 0, self.panel_rect.width, plan.box_h)
        self._paint_turn_box(surf, box)
        if self.scoring is not None and not self.scoring.done:
            self._paint_scoring_box(surf, box, self.scoring)
        y = box.bottom + px(8)
        y = self._paint_own(surf, y, tiles)
        y = self._paint_players(surf, y, plan.row_h)
        self._paint_cards(surf, y, plan)

    # ---- how the height is shared ------------------------------------------------------------
    def _own_height(self, tiles: list[dict[str, Any]]) -> int:
        px = self.app.px
        fonts = self.app.fonts
        if not tiles and self._next_card() is None:
            return 0
        height = fonts.line_height(px(13)) + px(2)
        if tiles:
            per_row = self._tiles_per_row(len(tiles))
            rows = (len(tiles) + per_row - 1) // per_row
            height += rows * (px(34) + px(6)) + px(4)
        else:
            height += px(6)
        return height

    def _tiles_per_row(self, n: int) -> int:
        px = self.app.px
        w = self.panel_rect.width
        bw = min(px(120), (w - px(6) * (n - 1)) // max(1, n))
        if n > 3 and bw < px(84):
            return max(1, (w + px(6)) // (px(84) + px(6)))
        return max(1, n)

    def _card_wrap(self, key: str, width: int) -> list[str]:
        size = self.app.px(13)
        return self.app.fonts.wrap_lines(t(card_short_key(key)), size, width)

    def _plan(self, tiles: list[dict[str, Any]]) -> PanelPlan:
        """Share the panel's height: the turn box, the own strip and the player rows first —
        compact ones when that leaves the categories' rules more of their lines — then the
        categories, each with the lines its rule needs (up to 3) while they fit; when they do
        not, the longest rules give up lines first and end in "...", the whole text on hover."""
        px = self.app.px
        fonts = self.app.fonts
        height = self.panel_rect.height
        cats = self._categories()
        players = len(self.view.get("seats") or [])
        line_h = fonts.line_height(px(13))
        title_h = fonts.line_height(px(15), True)
        pad = px(10)
        wraps = [self._card_wrap(k, self.panel_rect.width - px(16)) for k in cats]
        own = self._own_height(tiles)
        best: tuple[int, int, int, list[int]] | None = None
        # The roomy turn box and player rows, else compact ones — whichever cuts fewer lines
        # of the categories' rules (the roomy one when both show everything).
        for box_h, row_h in ((px(112), px(40)), (px(96), px(33))):
            avail = height - (box_h + px(8) + own + players * row_h + px(4))
            lines = [min(3, len(w)) for w in wraps]
            while sum(title_h + n * line_h + pad for n in lines) > avail and any(lines):
                longest = max(range(len(lines)), key=lambda i: (lines[i], i))
                lines[longest] -= 1
            cut = sum(len(w) for w in wraps) - sum(lines)
            if best is None or cut < best[0]:
                best = (cut, box_h, row_h, lines)
        assert best is not None
        _cut, box_h, row_h, lines = best
        avail = height - (box_h + px(8) + own + players * row_h + px(4))
        heights = [title_h + n * line_h + pad for n in lines]
        spare = avail - sum(heights)
        if spare > 0 and heights:
            # Breathing room, at most a few pixels per row.
            extra = min(px(12), spare // len(heights))
            heights = [h + extra for h in heights]
        card_lines = []
        for w, n in zip(wraps, lines, strict=True):
            shown = w[:n]
            if len(w) > n and n > 0:
                shown[-1] = fonts.ellipsize(
                    shown[-1] + " ...", px(13), self.panel_rect.width - px(16)
                )
            card_lines.append(shown)
        return PanelPlan(box_h, row_h, card_lines, heights)

    # ---- the turn box ----------------------------------------------------------------------
    def _paint_turn_box(self, surf: pygame.Surface, box: pygame.Rect) -> None:
        """Whose turn (swatch and name), the terrain card, the settlements built this turn, the
        round and piles; the final round, or an armed Outpost."""
        px = self.app.px
        fonts = self.app.fonts
        v = self.view
        turn = v.get("turn") or {}
        current = v.get("current")
        pygame.draw.rect(surf, pal.BG_PANEL, box, border_radius=px(10))
        card_h = box.height - px(20)
        card_rect = pygame.Rect(box.right - px(12) - int(card_h * 0.7), box.y + px(10), 0, card_h)
        card_rect.width = int(card_h * 0.7)
        code = turn.get("terrain") if current is not None else None
        art.card_art(surf, card_rect, code, terrain_name(code) if code else "", self._render)
        tx = box.x + px(12)
        text_w = card_rect.x - tx - px(8)
        compact = box.height < px(112)
        step = px(21) if compact else px(24)
        if v.get("over"):
            head = t("kb.panel.game_over")
            img = fonts.render(
                fonts.ellipsize(head, px(18), text_w, True), px(18), pal.ACCENT, True
            )
            surf.blit(img, (tx, box.y + px(8)))
        elif current is not None:
            head = t("kb.panel.turn_of", name=self._name(current))
            sw = self._swatch(current, px(20))
            surf.blit(sw, (tx, box.y + px(10)))
            size = fonts.fit(head, px(18), text_w - px(26), True)
            img = fonts.render(
                fonts.ellipsize(head, size, text_w - px(26), True), size, pal.TEXT, True
            )
            surf.blit(img, (tx + px(26), box.y + px(7)))
        ly = box.y + (px(34) if compact else px(40))
        if current is not None and not v.get("over"):
            placed = int(turn.get("placed", 0))
            label = t("kb.panel.placed")
            img = fonts.render(
                fonts.ellipsize(label, px(14), text_w - px(64)), px(14), pal.TEXT_DIM
            )
            surf.blit(img, (tx, ly))
            hx = tx + img.get_width() + px(8)
            for i in range(3):
                c = (hx + px(9) + i * px(20), ly + img.get_height() // 2)
                if i < placed:
                    pygame.draw.circle(surf, self._seat_rgb(current), c, px(7))
                pygame.draw.circle(surf, pal.TEXT_DIM, c, px(7), 1)
            ly += step
        info = t(
            "kb.panel.deck",
            deck=v.get("deck", 0),
            discard=len(v.get("discard", [])),
            round=v.get("round", 0),
        )
        img = fonts.render(fonts.ellipsize(info, px(13), text_w), px(13), pal.TEXT_DIM)
        surf.blit(img, (tx, ly))
        ly += px(18) if compact else px(20)
        note, colour = "", pal.ACCENT
        if v.get("end_triggered") and not v.get("over"):
            note = t("kb.panel.final_round")
        elif current is not None and int(turn.get("outpost") or 0) > 0:
            note, colour = t("kb.panel.outpost"), pal.SOURCE
        if note:
            img = fonts.render(fonts.ellipsize(note, px(13), text_w, True), px(13), colour, True)
            surf.blit(img, (tx, min(ly, box.bottom - img.get_height() - px(4))))

    # ---- the shown seat's strip ------------------------------------------------------------
    def _paint_own(self, surf: pygame.Surface, y: int, tiles: list[dict[str, Any]]) -> int:
        """The shown seat's own line — its tiles' heading on the left, its next terrain card on
        the right (outside the turn box, so it never reads as the current player's) — and a
        button per location or nomad tile it holds."""
        px = self.app.px
        fonts = self.app.fonts
        v = self.view
        w = self.panel_rect.width
        ox, oy = self.panel_rect.topleft
        nxt = self._next_card()
        if not tiles and nxt is None:
            return y
        line_h = fonts.line_height(px(13))
        right = w
        if nxt is not None:
            text = t("kb.panel.your_card", terrain=terrain_name(nxt))
            chip = pygame.Rect(0, 0, px(14), px(18))
            chip.midright = (w - px(2), y + line_h // 2)
            art.card_art(surf, chip, nxt, "", self._render)
            avail = w // 2 if tiles else w - chip.width - px(8)
            img = fonts.render(fonts.ellipsize(text, px(13), avail), px(13), pal.TEXT)
            surf.blit(img, img.get_rect(midright=(chip.x - px(5), y + line_h // 2)))
            right = chip.x - px(5) - img.get_width() - px(10)
        if tiles:
            key = "kb.panel.your_tiles_held" if v.get("over") else "kb.panel.your_tiles"
            heading = fonts.render(
                fonts.ellipsize(t(key), px(13), max(px(20), right - px(4))), px(13), pal.TEXT_DIM
            )
            surf.blit(heading, (px(4), y))
        y += line_h + px(2)
        if not tiles:
            return y + px(6)
        turn = v.get("turn") or {}
        pending = (turn.get("pending") or {}) if v.get("current") == v.get("you") else {}
        per_row = self._tiles_per_row(len(tiles))
        if per_row < len(tiles):
            bw = (w - px(6) * (per_row - 1)) // per_row
        else:
            bw = min(px(120), (w - px(6) * (len(tiles) - 1)) // max(1, len(tiles)))
        bh = px(34)
        for i, tile in enumerate(tiles):
            rect = pygame.Rect(
                (i % per_row) * (bw + px(6)), y + (i // per_row) * (bh + px(6)), bw, bh
            )
            action: Action | None = ("use", tile["hex"][0], tile["hex"][1])
            if action not in self.legal:
                action = None
            active = bool(pending) and hex_of(pending.get("hex", (-1, -1))) == hex_of(tile["hex"])
            # ready (usable now or later this turn), used, or pending (new this turn).
            state = str(tile.get("state", "ready"))
            self._paint_tile_button(surf, rect, tile, action, state, active, i)
            self.tile_buttons.append((rect.move(ox, oy), action, tile))
        rows = (len(tiles) + per_row - 1) // per_row
        return y + rows * (bh + px(6)) + px(4)

    def _paint_tile_button(
        self,
        surf: pygame.Surface,
        rect: pygame.Rect,
        tile: dict[str, Any],
        action: Action | None,
        state: str,
        active: bool,
        index: int,
    ) -> None:
        px = self.app.px
        base = art.chip_colour(str(tile.get("type")), tile.get("terrain"))
        hovered = index == self._hover_button
        if action is not None or active:
            fill = pal.shade(base, 1.15 if hovered else 1.0)
            border = pal.HIGHLIGHT
            text_colour = (255, 255, 255)
        else:
            fill = pal.shade(base, 0.42)
            border = pal.shade(base, 0.7)
            text_colour = (170, 170, 170)
        radius = px(2) if tile.get("nomad") else px(6)
        pygame.draw.rect(surf, fill, rect, border_radius=radius)
        pygame.draw.rect(
            surf, border, rect, 2 if (action is not None or active) else 1, border_radius=radius
        )
        if tile.get("nomad"):
            # Nomad tiles: cut corners, like the hexagonal tile on the board.
            cut = px(6)
            for cx, cy, dx, dy in (
                (rect.x, rect.y, 1, 1),
                (rect.right - 1, rect.y, -1, 1),
                (rect.x, rect.bottom - 1, 1, -1),
                (rect.right - 1, rect.bottom - 1, -1, -1),
            ):
                pygame.draw.polygon(
                    surf, pal.BG, [(cx, cy), (cx + dx * cut, cy), (cx, cy + dy * cut)]
                )
                pygame.draw.line(
                    surf, border, (cx + dx * cut, cy), (cx, cy + dy * cut), 2 if action else 1
                )
        if active:
            pygame.draw.rect(surf, pal.SOURCE, rect.inflate(4, 4), 2, border_radius=px(7))
        name = self.tile_label(tile)
        avail = rect.width - px(10)
        hint = None
        if action is not None and index < 9:
            # The key that uses this tile (1-9), small in the corner.
            hint = self.app.fonts.render(str(index + 1), px(11), pal.shade(text_colour, 0.85))
            avail -= 2 * (hint.get_width() + px(3))
        size = self.app.fonts.fit(name, px(14), avail, True)
        img = self.app.fonts.render(
            self.app.fonts.ellipsize(name, size, avail, True), size, text_colour, True
        )
        surf.blit(img, img.get_rect(center=rect.center))
        if hint is not None:
            surf.blit(hint, hint.get_rect(bottomright=(rect.right - px(4), rect.bottom - px(1))))
        if active:
            return
        if state == "used":
            pygame.draw.line(
                surf,
                (200, 200, 200),
                (rect.x + px(6), rect.bottom - px(6)),
                (rect.right - px(6), rect.y + px(6)),
                1,
            )
        elif state == "pending":
            dot = (rect.right - px(7), rect.y + px(7))
            pygame.draw.circle(surf, pal.ACCENT, dot, px(4))

    # ---- the players -----------------------------------------------------------------------
    def _coin(self, surf: pygame.Surface, centre: tuple[int, int], radius: int) -> None:
        pygame.draw.circle(surf, GOLD_DARK, centre, radius + 1)
        pygame.draw.circle(surf, GOLD, centre, radius)
        pygame.draw.circle(surf, (255, 240, 180), centre, max(1, radius // 2), 1)

    def _you_tag(self, s: int) -> str:
        """ "(you)" on the shown seat's row — unless several players share this screen (hot-seat),
        where it would pick one of them."""
        if s != self.view.get("you"):
            return ""
        if sum(1 for info in self.seats if info.local and info.kind == "human") > 1:
            return ""
        return t("kb.panel.you")

    def _paint_players(self, surf: pygame.Surface, y: int, row_h: int) -> int:
        px = self.app.px
        fonts = self.app.fonts
        v = self.view
        w = self.panel_rect.width
        ox, oy = self.panel_rect.topleft
        seats = v.get("seats", [])
        current = v.get("current")
        scores = v.get("preview") or v.get("scores", [])
        show_scores = self.app.settings.score_preview or v.get("over")
        show_gold = v.get("expansion") == "full" or any(sv.get("gold") for sv in seats)
        for seat_view in seats:
            s = seat_view["seat"]
            rect = pygame.Rect(0, y, w, row_h - px(4))
            fill = pal.BG_PANEL_2 if s == current else pal.BG_PANEL
            pygame.draw.rect(surf, fill, rect, border_radius=px(8))
            if s == current:
                pygame.draw.rect(surf, self._seat_rgb(s), rect, 2, border_radius=px(8))
            sw = self._swatch(s, min(px(22), rect.height - px(8)))
            surf.blit(sw, sw.get_rect(midleft=(rect.x + px(8), rect.centery)))
            x = rect.x + px(36)
            # Right side: score, then settlements left, gold, then tiles.
            right = rect.right - px(8)
            if show_scores and s < len(scores):
                total = scores[s].get("total", 0)
                if self.scoring is not None and not self.scoring.done:
                    total = self.scoring.running_total(s)
                img = fonts.render(str(total), px(18), pal.ACCENT, True)
                surf.blit(img, img.get_rect(midright=(right, rect.centery)))
                right -= max(img.get_width(), px(26)) + px(10)
            supply = seat_view.get("supply", 0)
            img = fonts.render(str(supply), px(15), pal.TEXT, True)
            surf.blit(img, img.get_rect(midright=(right, rect.centery)))
            right -= img.get_width() + px(3)
            house = art.house_sprite(
                self._seat_rgb(s), self._seat_shape(s), float(px(16)), self._emblems()
            )
            surf.blit(house, house.get_rect(midright=(right, rect.centery)))
            right -= house.get_width() + px(8)
            if show_gold:
                gold = int(seat_view.get("gold") or 0)
                img = fonts.render(str(gold), px(14), GOLD, True)
                surf.blit(img, img.get_rect(midright=(right, rect.centery)))
                right -= img.get_width() + px(3)
                rad = px(6)
                self._coin(surf, (right - rad, rect.centery), rad)
                right -= 2 * rad + px(8)
            chips = [
                (str(tile["type"]), None, str(tile.get("state", "ready")))
                for tile in seat_view.get("tiles", [])
            ] + [
                (str(tile.get("tile")), tile.get("terrain"), str(tile.get("state", "ready")))
                for tile in seat_view.get("nomad_tiles", [])
            ]
            chip_w, chip_h = px(26), px(18)
            max_chips = max(0, (right - x - px(70)) // (chip_w + px(3)))
            shown = chips[:max_chips]
            cx = right - len(shown) * (chip_w + px(3))
            for tile_type, terrain, state in shown:
                chip = pygame.Rect(cx, rect.centery - chip_h // 2, chip_w, chip_h)
                label = (
                    t(f"kb.tile.{tile_type}.abbr")
                    if has(f"kb.tile.{tile_type}.abbr")
                    else nomad_abbr(tile_type)
                )
                art.tile_chip(
                    surf,
                    chip,
                    tile_type,
                    label,
                    self._render,
                    "ready" if state == "ready" else state,
                    terrain if isinstance(terrain, str) else None,
                )
                cx += chip_w + px(3)
            name_right = right - len(shown) * (chip_w + px(3)) - px(6)
            if len(chips) > len(shown):
                more = fonts.render(f"+{len(chips) - len(shown)}", px(12), pal.TEXT_DIM, True)
                surf.blit(more, more.get_rect(midright=(name_right, rect.centery)))
                name_right -= more.get_width() + px(4)
            name = self._name(s)
            tag = self._you_tag(s)
            if not tag and s < len(self.seats) and not self.seats[s].connected:
                tag = t("kb.panel.away")
            elif (
                not tag
                and s < len(self.seats)
                and self.seats[s].kind == "bot"
                and t("kb.panel.bot").lower() not in self._name(s).lower()
            ):
                tag = t("kb.panel.bot")
            label = name + (f" ({tag})" if tag else "")
            avail = name_right - x
            size = fonts.fit(label, px(16), avail, s == current, minimum=px(12))
            img = fonts.render(
                fonts.ellipsize(label, size, avail, s == current), size, pal.TEXT, s == current
            )
            surf.blit(img, img.get_rect(midleft=(x, rect.centery)))
            self.row_rects[s] = rect.move(ox, oy)
            y += row_h
        return y + px(4)

    # ---- the categories ----------------------------------------------------------------------
    def _score_chip(
        self, surf: pygame.Surface, chip: pygame.Rect, seat: int, value: int | None
    ) -> None:
        """A seat's points in one category: its colour, its shape, the number."""
        px = self.app.px
        colour = self._seat_rgb(seat)
        pygame.draw.rect(surf, colour, chip, border_radius=px(5))
        pygame.draw.rect(surf, pal.shade(colour, 0.5), chip, 1, border_radius=px(5))
        ink = pal.contrast(colour)
        rad = max(2, chip.height // 5)
        pal.draw_shape(surf, self._seat_shape(seat), (chip.x + rad + px(3), chip.centery), rad, ink)
        if value is not None:
            num = self.app.fonts.render(str(value), px(13), ink, True)
            room = pygame.Rect(
                chip.x + 2 * rad + px(4), chip.y, chip.right - chip.x - 2 * rad - px(5), chip.height
            )
            surf.blit(num, num.get_rect(center=room.center))

    def _paint_cards(self, surf: pygame.Surface, y: int, plan: PanelPlan) -> None:
        """Castles, the three cards and Treasure: the name and the live score per player on the
        first line, the category's short rule below (as many lines as the plan gives)."""
        px = self.app.px
        fonts = self.app.fonts
        v = self.view
        w = self.panel_rect.width
        ox, oy = self.panel_rect.topleft
        cats = self._categories()
        preview = v.get("preview") or v.get("scores", [])
        banked = v.get("scores") or []
        show_all = self.app.settings.score_preview or v.get("over")
        live = self.scoring if self.scoring is not None and not self.scoring.done else None
        current_step = live.step if live is not None else -1
        hovered = self.hover_focus if live is None else None
        body_size = px(13)
        line_h = fonts.line_height(body_size)
        for i, key in enumerate(cats):
            height = plan.card_heights[i]
            if y + height - px(4) > self.panel_rect.height + px(2):
                break
            rect = pygame.Rect(0, y, w, height - px(4))
            highlighted = i == current_step or (hovered is not None and hovered[0] == key)
            pygame.draw.rect(
                surf, (58, 50, 30) if highlighted else pal.BG_PANEL, rect, border_radius=px(8)
            )
            pygame.draw.rect(
                surf,
                pal.ACCENT if highlighted else pal.BORDER,
                rect,
                2 if highlighted else 1,
                border_radius=px(8),
            )
            self.card_rows.append((rect.move(ox, oy), key))
            show = show_all or key in BANKED
            scores = preview if show_all else banked
            n = len(scores) if show else 0
            chip_w, chip_h = px(36), px(20)
            right_w = (chip_w + px(3)) * n
            title_w = rect.width - px(16) - right_w - px(6)
            name = category_name(key)
            size = fonts.fit(name, px(15), title_w, True, minimum=px(11))
            title = fonts.render(fonts.ellipsize(name, size, title_w, True), size, pal.ACCENT, True)
            surf.blit(title, (rect.x + px(8), rect.y + px(3)))
            text_top = rect.y + px(3) + fonts.line_height(px(15), True)
            for j, line in enumerate(plan.card_lines[i]):
                img = fonts.render(line, body_size, pal.TEXT_DIM)
                surf.blit(img, (rect.x + px(8), text_top + j * line_h))
            if n:
                cx = rect.right - right_w - px(5)
                cy = rect.y + px(4) + fonts.line_height(px(15), True) // 2
                for s in range(n):
                    value: int | None = scores[s].get(key, 0)
                    if live is not None and i < len(live.categories):
                        value = live.value(i, s)
                    chip = pygame.Rect(cx, cy - chip_h // 2, chip_w, chip_h)
                    self._score_chip(surf, chip, s, value)
                    if hovered == (key, s):
                        pygame.draw.rect(surf, GOLD, chip.inflate(4, 4), 2, border_radius=px(6))
                    self.score_chips.append((chip.move(ox, oy), key, s))
                    cx += chip_w + px(3)
            y += height
