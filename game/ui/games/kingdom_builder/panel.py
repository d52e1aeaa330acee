"""The side panel: the turn box (whose turn, the terrain card, placements, deck), the shown
seat's tile buttons, every player's row (settlements left, tiles, score) and the cards with
their live score per player.  Painted into one cached surface, redrawn when what it shows
changes."""

from __future__ import annotations

from typing import Any

import pygame

from game.ui import palette as pal
from game.ui.games.base import Action
from game.ui.games.kingdom_builder import art
from game.ui.games.kingdom_builder.board import BoardMixin
from game.ui.games.kingdom_builder.common import hex_of
from game.ui.games.kingdom_builder.scoring import GOLD
from game.ui.games.kingdom_builder.text import (
    card_short_key,
    category_name,
    terrain_name,
    tile_name,
)
from game.ui.i18n import t


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

    def _paint_panel(self, surf: pygame.Surface) -> None:
        """Turn box, your tiles, players, cards (coordinates relative to the panel)."""
        px = self.app.px
        fonts = self.app.fonts
        ox, oy = self.panel_rect.topleft
        w = self.panel_rect.width
        v = self.view
        y = 0
        turn = v.get("turn") or {}
        current = v.get("current")
        you = v.get("you")

        # Turn box: whose turn, the terrain card, placements, deck.
        box_h = px(112)
        box = pygame.Rect(0, y, w, box_h)
        pygame.draw.rect(surf, pal.BG_PANEL, box, border_radius=px(10))
        card_rect = pygame.Rect(box.right - px(76), box.y + px(10), px(64), px(92))
        private = self.show_private
        code = turn.get("terrain") if current is not None else None
        if code is None and you is not None and not v.get("over") and private:
            code = v["seats"][you].get("hand")
        art.card_art(surf, card_rect, code, terrain_name(code) if code else "", self._render)
        tx = box.x + px(12)
        text_w = card_rect.x - tx - px(8)
        if v.get("over"):
            head = t("kb.panel.game_over")
            colour = pal.ACCENT
        elif current is not None:
            head = t("kb.panel.turn_of", name=self._name(current))
            colour = self._seat_rgb(current)
            sw = self._swatch(current, px(20))
            surf.blit(sw, (tx, box.y + px(12)))
            tx2 = tx + px(26)
            size = fonts.fit(head, px(18), text_w - px(26), True)
            img = fonts.render(
                fonts.ellipsize(head, size, text_w - px(26), True), size, pal.TEXT, True
            )
            surf.blit(img, (tx2, box.y + px(9)))
            head = ""
        else:
            head, colour = "", pal.TEXT
        if head:
            img = fonts.render(fonts.ellipsize(head, px(18), text_w, True), px(18), colour, True)
            surf.blit(img, (tx, box.y + px(9)))
        ly = box.y + px(40)
        if current is not None and not v.get("over"):
            placed = int(turn.get("placed", 0))
            label = t("kb.panel.placed")
            img = fonts.render(label, px(14), pal.TEXT_DIM)
            surf.blit(img, (tx, ly))
            hx = tx + img.get_width() + px(8)
            for i in range(3):
                c = (hx + px(9) + i * px(20), ly + img.get_height() // 2)
                if i < placed:
                    pygame.draw.circle(surf, self._seat_rgb(current), c, px(7))
                pygame.draw.circle(surf, pal.TEXT_DIM, c, px(7), 1)
            ly += px(24)
        info = t(
            "kb.panel.deck",
            deck=v.get("deck", 0),
            discard=len(v.get("discard", [])),
            round=v.get("round", 0),
        )
        img = fonts.render(fonts.ellipsize(info, px(13), text_w), px(13), pal.TEXT_DIM)
        surf.blit(img, (tx, ly))
        ly += px(20)
        if v.get("end_triggered") and not v.get("over"):
            img = fonts.render(
                fonts.ellipsize(t("kb.panel.final_round"), px(13), text_w, True),
                px(13),
                pal.ACCENT,
                True,
            )
            surf.blit(img, (tx, ly))
        elif (
            you is not None
            and current != you
            and private
            and not v.get("over")
            and v["seats"][you].get("hand")
        ):
            text = t("kb.panel.your_card", terrain=terrain_name(v["seats"][you]["hand"]))
            img = fonts.render(fonts.ellipsize(text, px(13), text_w), px(13), pal.TEXT)
            surf.blit(img, (tx, ly))
        if self.scoring is not None and not self.scoring.done:
            self._paint_scoring_box(surf, box, self.scoring)
        y = box.bottom + px(8)

        # Your tiles: buttons that start their action.
        if you is not None:
            tiles = v["seats"][you].get("tiles", [])
            if tiles:
                pending = (turn.get("pending") or {}) if current == you else {}
                # "click to use" only while a tile can still be used (not at the game's end).
                key = "kb.panel.your_tiles_held" if v.get("over") else "kb.panel.your_tiles"
                heading = fonts.render(t(key), px(13), pal.TEXT_DIM)
                surf.blit(heading, (px(4), y))
                y += heading.get_height() + px(2)
                bw = min(px(120), (w - px(6) * (len(tiles) - 1)) // max(1, len(tiles)))
                if len(tiles) > 3 and bw < px(84):
                    per_row = max(1, (w + px(6)) // (px(84) + px(6)))
                    bw = (w - px(6) * (per_row - 1)) // per_row
                else:
                    per_row = len(tiles)
                bh = px(34)
                for i, tile in enumerate(tiles):
                    rect = pygame.Rect(
                        (i % per_row) * (bw + px(6)), y + (i // per_row) * (bh + px(6)), bw, bh
                    )
                    action: Action | None = ("use", tile["hex"][0], tile["hex"][1])
                    if action not in self.legal:
                        action = None
                    active = bool(pending) and hex_of(pending.get("hex", (-1, -1))) == hex_of(
                        tile["hex"]
                    )
                    # ready (usable now or later this turn), used, or pending (new this turn).
                    state = str(tile.get("state", "ready"))
                    self._paint_tile_button(surf, rect, tile, action, state, active, i)
                    self.tile_buttons.append((rect.move(ox, oy), action, tile))
                rows = (len(tiles) + per_row - 1) // per_row
                y += rows * (bh + px(6)) + px(4)

        # Players.
        y = self._paint_players(surf, y)
        # Cards with the live score per player.
        self._paint_cards(surf, y)

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
        base = art.LOCATION_COLOURS.get(tile["type"], (120, 120, 120))
        hovered = index == self._hover_button
        if action is not None or active:
            fill = pal.shade(base, 1.15 if hovered else 1.0)
            border = pal.HIGHLIGHT
            text_colour = (255, 255, 255)
        else:
            fill = pal.shade(base, 0.42)
            border = pal.shade(base, 0.7)
            text_colour = (170, 170, 170)
        pygame.draw.rect(surf, fill, rect, border_radius=px(6))
        pygame.draw.rect(
            surf, border, rect, 2 if (action is not None or active) else 1, border_radius=px(6)
        )
        if active:
            pygame.draw.rect(surf, pal.SOURCE, rect.inflate(4, 4), 2, border_radius=px(7))
        name = tile_name(tile["type"])
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

    def _paint_players(self, surf: pygame.Surface, y: int) -> int:
        px = self.app.px
        fonts = self.app.fonts
        v = self.view
        w = self.panel_rect.width
        ox, oy = self.panel_rect.topleft
        seats = v.get("seats", [])
        row_h = px(40)
        current = v.get("current")
        you = v.get("you")
        scores = v.get("preview") or v.get("scores", [])
        show_scores = self.app.settings.score_preview or v.get("over")
        for seat_view in seats:
            s = seat_view["seat"]
            rect = pygame.Rect(0, y, w, row_h - px(4))
            fill = pal.BG_PANEL_2 if s == current else pal.BG_PANEL
            pygame.draw.rect(surf, fill, rect, border_radius=px(8))
            if s == current:
                pygame.draw.rect(surf, self._seat_rgb(s), rect, 2, border_radius=px(8))
            sw = self._swatch(s, px(22))
            surf.blit(sw, sw.get_rect(midleft=(rect.x + px(8), rect.centery)))
            x = rect.x + px(36)
            # Right side: score, then settlements left, then tiles.
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
            tiles = seat_view.get("tiles", [])
            chip_w, chip_h = px(26), px(18)
            max_chips = max(0, (right - x - px(70)) // (chip_w + px(3)))
            shown = tiles[:max_chips]
            cx = right - len(shown) * (chip_w + px(3))
            for tile in shown:
                chip = pygame.Rect(cx, rect.centery - chip_h // 2, chip_w, chip_h)
                state = tile.get("state", "ready")
                art.tile_chip(
                    surf,
                    chip,
                    tile["type"],
                    t(f"kb.tile.{tile['type']}.abbr"),
                    self._render,
                    "ready" if state == "ready" else state,
                )
                cx += chip_w + px(3)
            name_right = right - len(shown) * (chip_w + px(3)) - px(6)
            if len(tiles) > len(shown):
                more = fonts.render(f"+{len(tiles) - len(shown)}", px(12), pal.TEXT_DIM, True)
                surf.blit(more, more.get_rect(midright=(name_right, rect.centery)))
                name_right -= more.get_width() + px(4)
            name = self._name(s)
            tag = ""
            if s == you:
                tag = t("kb.panel.you")
            elif s < len(self.seats) and not self.seats[s].connected:
                tag = t("kb.panel.away")
            elif (
                s < len(self.seats)
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

    def _paint_cards(self, surf: pygame.Surface, y: int) -> None:
        """Castles and the three cards: name and the live score per player on the first line,
        the card's short rule below."""
        px = self.app.px
        fonts = self.app.fonts
        v = self.view
        w = self.panel_rect.width
        ox, oy = self.panel_rect.topleft
        cats = self._categories()
        scores = v.get("preview") or v.get("scores", [])
        show_scores = self.app.settings.score_preview or v.get("over")
        avail_h = self.panel_rect.height - y
        if avail_h <= px(30):
            return
        row_h = min(px(72), avail_h // max(1, len(cats)))
        live = self.scoring if self.scoring is not None and not self.scoring.done else None
        current_step = live.step if live is not None else -1
        hovered = self.hover_focus if live is None else None
        body_size = px(13)
        line_h = fonts.line_height(body_size)
        for i, key in enumerate(cats):
            rect = pygame.Rect(0, y, w, row_h - px(4))
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
            n = len(scores)
            chip_w, chip_h = px(28), px(20)
            right_w = (chip_w + px(3)) * n if show_scores else 0
            title_w = rect.width - px(16) - right_w - px(6)
            name = category_name(key)
            title = fonts.render(
                fonts.ellipsize(name, px(15), title_w, True), px(15), pal.ACCENT, True
            )
            surf.blit(title, (rect.x + px(8), rect.y + px(3)))
            text_top = rect.y + px(3) + title.get_height()
            max_lines = max(0, (rect.bottom - px(3) - text_top) // line_h)
            short = t(card_short_key(key))
            for j, img in enumerate(
                fonts.render_lines(short, body_size, pal.TEXT_DIM, rect.width - px(16), max_lines)
            ):
                surf.blit(img, (rect.x + px(8), text_top + j * line_h))
            if show_scores:
                cx = rect.right - right_w - px(5)
                cy = rect.y + px(4) + title.get_height() // 2
                for s in range(n):
                    value: int | None = scores[s].get(key, 0)
                    if live is not None and i < len(live.categories):
                        value = live.value(i, s)
                    chip = pygame.Rect(cx, cy - chip_h // 2, chip_w, chip_h)
                    colour = self._seat_rgb(s)
                    pygame.draw.rect(surf, colour, chip, border_radius=px(5))
                    pygame.draw.rect(surf, pal.shade(colour, 0.5), chip, 1, border_radius=px(5))
                    if hovered == (key, s):
                        pygame.draw.rect(surf, GOLD, chip.inflate(4, 4), 2, border_radius=px(6))
                    self.score_chips.append((chip.move(ox, oy), key, s))
                    if value is not None:
                        num = fonts.render(str(value), px(13), pal.contrast(colour), True)
                        surf.blit(num, num.get_rect(center=chip.center))
                    cx += chip_w + px(3)
            y += row_h
