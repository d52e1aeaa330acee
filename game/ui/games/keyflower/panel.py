"""The side panel: every player (keyples and skill tiles behind the screen — how many, and the
colours known from play —, the purple keyple, winter tiles in hand, the live score, who has
chosen in a simultaneous phase), your screen (your keyples by colour, skill tiles and winter
tiles: only yours, and only while nobody else may be looking), and the action box — what to do
now, the choices of the step (keyple colour and count, payment, resource, boat, rotation), and
during the end-of-game scoring the category being counted with the engine's best assignment.
"""

from __future__ import annotations

from typing import Any

import pygame

from game.ui import palette as pal
from game.ui.games.keyflower import art
from game.ui.games.keyflower.clean import num
from game.ui.games.keyflower.common import (
    CATEGORIES,
    COLOURS,
    RESOURCES,
    SKILLS,
    Hit,
    as_dict,
    as_list,
)
from game.ui.games.keyflower.text import (
    category_name,
    colour_name,
    keyples_text,
    resource_name,
    resources_text,
    skill_name,
    skills_text,
    tile_name,
)
from game.ui.games.keyflower.village import VillageMixin
from game.ui.i18n import t


class PanelMixin(VillageMixin):
    """The side panel."""

    def _layout_panel(self) -> None:
        px = self.app.px
        rect = self.panel_rect
        n = max(1, len(self.seats))
        row_h = px(34) if rect.height > px(520) else px(28)
        self.players_rect = pygame.Rect(rect.x, rect.y, rect.width, n * row_h)
        screen_h = px(78)
        self.screen_rect = pygame.Rect(
            rect.x, self.players_rect.bottom + px(6), rect.width, screen_h
        )
        top = self.screen_rect.bottom + px(6)
        self.action_rect = pygame.Rect(rect.x, top, rect.width, max(0, rect.bottom - top))
        self._row_h = row_h

    # ---- players -----------------------------------------------------------------------------
    def _panel_layer(self) -> pygame.Surface:
        rect = self.panel_rect
        sc = self.scoring
        live = sc is not None and not sc.done
        key = (
            self._serial,
            rect.size,
            self._key(),
            self.show_private,
            self.app.settings.score_preview,
            tuple(self.to_move),
            tuple(s.connected for s in self.seats),
            round(sc.elapsed, 1) if live and sc is not None else -1,
            tuple(sorted(self.winter_sel)),
        )
        cached = self.layers.get("panel")
        if cached is not None and cached[0] == key:
            return cached[1]
        surf = pygame.Surface(rect.size, pygame.SRCALPHA)
        self._hits_panel = []
        self._paint_players(surf)
        self._paint_screen(surf)
        self.layers["panel"] = (key, surf)
        return surf

    def _paint_players(self, surf: pygame.Surface) -> None:
        px = self.app.px
        ox, oy = self.panel_rect.topleft
        w = self.panel_rect.width
        row_h = self._row_h
        current = self.view.get("current")
        you = self._you()
        scores = self.view.get("preview") or self.view.get("scores") or []
        over = bool(self.view.get("over"))
        show_scores = self.app.settings.score_preview or over
        sc = self.scoring
        for sv in self._seat_views():
            s = int(sv.get("seat", -1))
            if not 0 <= s < len(self.seats):
                continue
            rect = pygame.Rect(0, s * row_h, w, row_h - px(3))
            active = s in self.to_move or s == current
            pygame.draw.rect(
                surf, pal.BG_PANEL_2 if active else pal.BG_PANEL, rect, border_radius=px(7)
            )
            if active:
                pygame.draw.rect(surf, self._seat_rgb(s), rect, 2, border_radius=px(7))
            sw = self._swatch(s, row_h - px(12))
            surf.blit(sw, sw.get_rect(midleft=(rect.x + px(6), rect.centery)))
            self.spots[f"seat:{s}"] = (ox + rect.x + px(60), oy + rect.centery)
            right = rect.right - px(6)
            if show_scores and s < len(scores) and isinstance(scores[s], dict):
                total = int(scores[s].get("total", 0))
                if sc is not None and not sc.done:
                    total = sc.running_total(s)
                img = self.app.fonts.render(str(total), px(16), pal.ACCENT, True)
                surf.blit(img, img.get_rect(midright=(right, rect.centery)))
                right -= max(img.get_width(), px(22)) + px(6)
            # keyples, skills, winter hand, done mark (right to left)
            small = px(13)
            hand = sv.get("winter_hand")
            n_hand = len(hand) if isinstance(hand, list) else int(hand or 0)
            if n_hand and not over:
                img = self.app.fonts.render(str(n_hand), small, (190, 220, 240), True)
                surf.blit(img, img.get_rect(midright=(right, rect.centery)))
                right -= img.get_width() + px(2)
                art.draw_winter_tile(surf, (right - px(7), rect.centery), px(14))
                right -= px(18)
            img = self.app.fonts.render(str(int(sv.get("skill_count") or 0)), small, pal.TEXT, True)
            surf.blit(img, img.get_rect(midright=(right, rect.centery)))
            right -= img.get_width() + px(2)
            art.draw_skill(surf, (right - px(6), rect.centery), px(12), "anvil")
            right -= px(16)
            img = self.app.fonts.render(
                str(int(sv.get("keyple_count") or 0)), small, pal.TEXT, True
            )
            surf.blit(img, img.get_rect(midright=(right, rect.centery)))
            right -= img.get_width() + px(2)
            art.draw_keyple(surf, (right - px(6), rect.centery), px(16), "yellow", self._cb())
            right -= px(16)
            if sv.get("purple"):
                art.draw_keyple(surf, (right - px(7), rect.centery), px(18), "purple", self._cb())
                right -= px(16)
            done = sv.get("done")
            if done is True:
                img = self.app.fonts.render("✓", px(15), pal.GOOD, True)
                surf.blit(img, img.get_rect(midright=(right, rect.centery)))
                right -= img.get_width() + px(4)
            tag = ""
            if s == you:
                tag = t("kf.panel.you")
            elif not self.seats[s].connected:
                tag = t("kf.panel.away")
            elif (
                self.seats[s].kind == "bot"
                and t("kf.panel.bot").lower() not in self.seats[s].name.lower()
            ):
                tag = t("kf.panel.bot")
            label = self.seats[s].name + (f" ({tag})" if tag else "")
            x = rect.x + px(10) + sw.get_width()
            self._text(
                surf,
                label,
                (x, rect.centery),
                px(14),
                pal.TEXT,
                right - x - px(4),
                active,
                anchor="midleft",
                minimum=px(10),
            )
            self._hits_panel.append(Hit("seat", s, rect.move(ox, oy)))
            self.seat_rows[s] = rect.move(ox, oy)

    def _paint_screen(self, surf: pygame.Surface) -> None:
        """Your screen: keyples by colour, skill tiles, winter tiles — yours only."""
        px = self.app.px
        ox, oy = self.panel_rect.topleft
        box = self.screen_rect.move(-ox, -oy)
        pygame.draw.rect(surf, pal.BG_PANEL, box, border_radius=px(8))
        pygame.draw.rect(surf, pal.BORDER, box, 1, border_radius=px(8))
        you = self._you()
        over = bool(self.view.get("over"))
        x, y = box.x + px(8), box.y + px(4)
        if you is None:
            self._text(
                surf,
                t("kf.screen.spectator"),
                (x, y + px(4)),
                px(13),
                pal.TEXT_DIM,
                box.width - px(16),
            )
            return
        sv = self._seat_view(you)
        keys = sv.get("keyples")
        skills = sv.get("skills")
        if not self.show_private or not isinstance(keys, list) or not isinstance(skills, list):
            self._text(
                surf,
                t("kf.screen.hidden"),
                (x, y + px(4)),
                px(13),
                pal.TEXT_DIM,
                box.width - px(16),
            )
            return
        self._text(surf, t("kf.screen.title"), (x, y), px(12), pal.TEXT_DIM, box.width - px(16))
        y += px(18)
        cell = (box.width - px(16)) // 7
        for i, colour in enumerate(COLOURS):
            cx = x + i * cell + px(9)
            art.draw_keyple(surf, (cx, y + px(11)), px(20), colour, self._cb())
            n = int(keys[i]) if i < len(keys) else 0
            img = self.app.fonts.render(str(n), px(15), pal.TEXT if n else pal.TEXT_DISABLED, True)
            surf.blit(img, img.get_rect(midleft=(int(cx + px(11)), int(y + px(11)))))
            self._hits_panel.append(
                Hit("mine", ("k", colour, n), pygame.Rect(ox + cx - px(10), oy + y, cell, px(22)))
            )
        for k, kind in enumerate(SKILLS):
            cx = x + (4 + k) * cell + px(9)
            art.draw_skill(surf, (cx, y + px(11)), px(17), kind)
            n = int(skills[k]) if k < len(skills) else 0
            img = self.app.fonts.render(str(n), px(15), pal.TEXT if n else pal.TEXT_DISABLED, True)
            surf.blit(img, img.get_rect(midleft=(int(cx + px(11)), int(y + px(11)))))
            self._hits_panel.append(
                Hit("mine", ("s", kind, n), pygame.Rect(ox + cx - px(10), oy + y, cell, px(22)))
            )
        y += px(26)
        hand = sv.get("winter_hand")
        if over:
            return
        if isinstance(hand, list) and hand:
            pick = sv.get("winter_pick")
            label = t("kf.screen.winter")
            lx = self._text(
                surf, label, (x, y + px(9)), px(12), pal.TEXT_DIM, px(90), anchor="midleft"
            ).right + px(6)
            n = len(hand)
            cw = max(px(40), (box.right - px(8) - lx - px(4) * (n - 1)) // max(1, n))
            for i, tile in enumerate(hand):
                chip = pygame.Rect(lx + i * (cw + px(4)), y, cw, px(18))
                picked = (isinstance(pick, list) and tile in pick) or tile in self.winter_sel
                fill = art.TILE_RGB["winter"] if not picked else art.GOLD
                pygame.draw.rect(surf, fill, chip, border_radius=px(4))
                self._text(
                    surf,
                    tile_name(tile),
                    chip.center,
                    px(11),
                    art.INK,
                    chip.width - px(4),
                    True,
                    anchor="center",
                    minimum=px(8),
                )
                self._hits_panel.append(Hit("winter", str(tile), chip.move(ox, oy)))

    # ---- the action box ---------------------------------------------------------------------
    def _draw_action_box(self, surface: pygame.Surface) -> None:
        px = self.app.px
        rect = self.action_rect
        self.options = []
        if rect.height < px(40):
            return
        pygame.draw.rect(surface, pal.BG_PANEL, rect, border_radius=px(10))
        pygame.draw.rect(surface, pal.BORDER, rect, 1, border_radius=px(10))
        sc = self.scoring
        if sc is not None and not sc.done:
            self._draw_scoring_box(surface, rect)
            return
        if self.view.get("over"):
            self._draw_score_table(surface, rect)
            return
        x, w = rect.x + px(10), rect.width - px(20)
        y = rect.y + px(8)
        prompt, info = self._prompt()
        r = self._text(surface, prompt, (x, y), px(16), pal.ACCENT, w, True, minimum=px(11))
        y = r.bottom + px(4)
        options = self.action_options()
        if info:
            # The help wraps onto as many lines as the box has room for, once the options
            # (two rows at least, when there are any) have theirs; "..." only past that.
            line_h = self.app.fonts.line_height(px(13))
            keep = min(2, len(options)) * px(35)
            lines = max(2, (rect.bottom - px(10) - keep - y) // line_h)
            for img in self.app.fonts.render_lines(info, px(13), pal.TEXT_DIM, w, lines):
                surface.blit(img, (x, y))
                y += line_h
            y += px(4)
        self._draw_options(surface, options, pygame.Rect(x, y, w, rect.bottom - y - px(6)))

    def _draw_options(
        self, surface: pygame.Surface, options: list[tuple[Any, str]], area: pygame.Rect
    ) -> None:
        """Buttons flowing in rows (keys 1-9 choose the first nine)."""
        px = self.app.px
        fonts = self.app.fonts
        if area.height < px(20):
            return
        bh, gap, size = px(30), px(5), px(13)
        lh = fonts.line_height(size)
        x, y = area.x, area.y
        hint = self.hint

        def text_room(i: int, icon: Any) -> int:
            """The room for a label on a full-width button."""
            room = area.width - px(13)
            if i < 9:
                room -= fonts.size(str(i + 1), px(11))[0] + px(4)
            return room - (px(20) if icon else 0)

        # a label too long for a whole row wraps onto a second line, when every option still
        # fits the box that way (else it is shortened on one line)
        lines: list[list[str]] = []
        loads = {
            i: self._load_icons(str(value[1]))
            for i, (value, _label) in enumerate(options)
            if isinstance(value, tuple) and len(value) == 2 and value[0] == "pick_boat"
        }
        for i, (value, label) in enumerate(options):
            if i in loads:  # a boat: its name and its load as icons (the words on hover)
                lines.append([tile_name(value[1])])
                continue
            wrapped = fonts.wrap_lines(label, size, text_room(i, self._option_icon(value)))
            if len(wrapped) > 1 and label.startswith(wrapped[0]):
                # the second line holds the rest (shortened if it must be)
                lines.append([wrapped[0], label[len(wrapped[0]) :].strip()])
            else:
                lines.append([label])
        tall = px(10) + 2 * lh
        if sum(tall if len(ls) > 1 else bh for ls in lines) + gap * len(options) > area.height:
            lines = [
                ls if i in loads else [label]
                for i, ((_v, label), ls) in enumerate(zip(options, lines, strict=True))
            ]
        for i, (value, label) in enumerate(options):
            key = f"{i + 1} " if i < 9 else ""
            icon = self._option_icon(value)
            two = len(lines[i]) > 1
            load = loads.get(i)
            shown = lines[i][0] if load is not None else label
            bw = fonts.size(key + shown, size)[0] + px(18) + (px(20) if icon else 0)
            if load is not None:
                bw += sum(self._load_icon_width(n) for _k, _name, n in load)
            bw = area.width if two else max(px(44), min(area.width, bw))
            h = tall if two else bh
            if x > area.x and x + bw > area.right:
                x, y = area.x, y + bh + gap
            if y + h > area.bottom:
                more = len(options) - i
                self._text(
                    surface,
                    t("kf.action.more", n=more),
                    (area.x, y),
                    px(12),
                    pal.TEXT_DIM,
                    area.width,
                )
                break
            rect = pygame.Rect(x, y, bw, h)
            hovered = rect.collidepoint(self.mouse)
            pygame.draw.rect(
                surface, pal.BG_HOVER if hovered else pal.BG_PANEL_2, rect, border_radius=px(6)
            )
            pygame.draw.rect(surface, pal.HIGHLIGHT, rect, 1, border_radius=px(6))
            if hint is not None and self._hinted(value, hint):
                pygame.draw.rect(surface, pal.HINT, rect.inflate(4, 4), 3, border_radius=px(8))
            tx = rect.x + px(7)
            if i < 9:
                num = fonts.render(str(i + 1), px(11), pal.TEXT_DIM)
                surface.blit(num, num.get_rect(midleft=(tx, rect.centery)))
                tx += num.get_width() + px(4)
            if icon:
                self._paint_icon(surface, icon, (tx + px(8), rect.centery))
                tx += px(20)
            if two:
                for k, line in enumerate(lines[i]):
                    self._text(
                        surface,
                        line,
                        (tx, rect.centery + (k - 1) * lh),
                        size,
                        pal.TEXT,
                        rect.right - px(6) - tx,
                        minimum=px(9),
                    )
            elif load is not None:
                icons_w = sum(self._load_icon_width(n) for _k, _name, n in load)
                r = self._text(
                    surface,
                    shown,
                    (tx, rect.centery),
                    size,
                    pal.TEXT,
                    max(px(30), rect.right - px(6) - tx - icons_w),
                    anchor="midleft",
                    minimum=px(9),
                )
                self._paint_load_icons(surface, load, (r.right + px(8), rect.centery))
            else:
                self._text(
                    surface,
                    label,
                    (tx, rect.centery),
                    size,
                    pal.TEXT,
                    rect.right - px(6) - tx,
                    anchor="midleft",
                    minimum=px(9),
                )
            self.options.append((rect, value, label))
            x += bw + gap
            if two:
                x, y = area.x, y + h + gap

    def _load_icon_width(self, n: int) -> int:
        px = self.app.px
        return px(16) + self.app.fonts.size(str(n), px(12), True)[0] + px(6)

    def _paint_load_icons(
        self, surface: pygame.Surface, load: list[tuple[str, str, int]], at: tuple[int, int]
    ) -> None:
        px = self.app.px
        x, y = at
        for kind, name, n in load:
            if kind == "k":
                art.draw_keyple(surface, (x + px(7), y), px(16), name, self._cb())
            else:
                art.draw_skill(surface, (x + px(7), y), px(13), name)
            img = self.app.fonts.render(str(n), px(12), pal.TEXT, True)
            surface.blit(img, img.get_rect(midleft=(x + px(16), y)))
            x += self._load_icon_width(n)

    def _option_icon(self, value: Any) -> tuple[str, str] | None:
        """The icon beside an option: a keyple of a colour, a resource, a skill tile."""
        if not isinstance(value, tuple) or not value:
            return None
        prefix = self.composer.prefix
        if value[0] == "field":
            v = value[1]
            kind = prefix[0] if prefix else ""
            if v in COLOURS and kind in ("bid", "use", "pay_keyple", "keyple"):
                return ("k", str(v))
            if v in RESOURCES:
                return ("r", str(v))
            if v in SKILLS:
                return ("s", str(v))
            if kind in ("bid", "use") and len(prefix) == 3 and prefix[2] in COLOURS:
                return ("k", str(prefix[2]))
            return None
        if value[0] == "move" and len(value) == 3:
            return ("r", str(value[2]))
        if value[0] == "upgrade":
            return ("h", "")
        return None

    def _paint_icon(
        self, surface: pygame.Surface, icon: tuple[str, str], at: tuple[int, int]
    ) -> None:
        px = self.app.px
        kind, name = icon
        if kind == "k":
            art.draw_keyple(surface, at, px(18), name, self._cb())
        elif kind == "r":
            art.draw_resource(surface, at, px(14), name)
        elif kind == "s":
            art.draw_skill(surface, at, px(14), name)
        elif kind == "h":
            art.draw_house(surface, at, px(16))

    def _hinted(self, value: Any, hint: tuple[Any, ...]) -> bool:
        if isinstance(value, tuple) and value and value[0] == "field":
            n = len(self.composer.prefix)
            return tuple(hint[:n]) == self.composer.prefix and len(hint) > n and hint[n] == value[1]
        return value == hint

    def _prompt(self) -> tuple[str, str]:
        """What the action box says: the question of the moment and a line of help."""
        if not self.legal:
            status = self.status()
            if self._phase() == "place" and self._you() is not None:
                sv = self._seat_view(self._you() or 0)
                if sv.get("done"):
                    return (t("kf.prompt.placed_wait"), status)
            return (status or t("kf.prompt.idle"), "")
        phase = self._phase()
        if phase == "boats":
            if self.boat_pick:
                return (
                    t("kf.prompt.boat_picked", boat=tile_name(self.boat_pick)),
                    t("kf.prompt.confirm"),
                )
            return (t("kf.prompt.boat"), t("kf.prompt.boat_help"))
        if phase == "place":
            tile = self._place_tile()
            if tile is None:
                return (t("kf.prompt.place_pick"), t("kf.prompt.place_help"))
            if self.ghost is None:
                return (
                    t("kf.prompt.place_where", tile=tile_name(tile)),
                    t("kf.prompt.place_rotate"),
                )
            fits = self.ghost_action() is not None
            return (
                t("kf.prompt.place_where", tile=tile_name(tile)),
                t("kf.prompt.fits") if fits else t("kf.prompt.no_fit"),
            )
        if phase == "winter_pick":
            names = ", ".join(tile_name(x) for x in sorted(self.winter_sel))
            return (
                t("kf.prompt.winter"),
                t("kf.prompt.winter_sel", tiles=names) if names else t("kf.prompt.winter_help"),
            )
        stage = self._stage()
        p = self._pending()
        c = self.composer
        if stage == "transport":
            head = t(
                "kf.prompt.transport",
                points=int(p.get("transport") or 0),
                upgrades=int(p.get("upgrades") or 0),
            )
            if self.picked:
                return (head, tile_name(self.picked))
            return (head, t("kf.prompt.transport_help"))
        if stage == "move_to":
            return (
                t("kf.prompt.move_to", res=resource_name(p.get("move_kind"))),
                t("kf.prompt.move_to_help"),
            )
        if stage in ("pay_keyple", "pay_skill", "choose_resource", "choose_keyple"):
            return (self.status(), "")
        if len(c.prefix) >= 2 and c.prefix[0] in ("bid", "use"):
            kind, tile = str(c.prefix[0]), str(c.prefix[1])
            head = t(f"kf.prompt.{kind}_at", tile=tile_name(tile))
            if c.depth == 2:
                return (head, t("kf.prompt.colour"))
            if self.chosen() is not None:
                return (
                    head,
                    t("kf.prompt.confirm_or_click", what=self.describe_action(self.chosen() or ())),
                )
            return (head, t("kf.prompt.count"))
        if stage == "reclaim":
            return (self.status(), t("kf.prompt.reclaim_help"))
        return (t("kf.prompt.turn"), t("kf.prompt.turn_help"))

    # ---- scoring -----------------------------------------------------------------------------
    def _draw_scoring_box(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        """The category being counted, the seat and its points counting up; for the winter
        tiles the engine's best assignment, bonus tile by bonus tile."""
        px = self.app.px
        sc = self.scoring
        assert sc is not None
        beat = sc.beat()
        if beat is None:
            return
        x, w = rect.x + px(10), rect.width - px(20)
        cat = sc.categories[beat.category]
        counter = self.app.fonts.render(
            f"{beat.category + 1}/{len(sc.categories)}", px(13), pal.TEXT_DIM
        )
        surface.blit(counter, counter.get_rect(topright=(rect.right - px(10), rect.y + px(10))))
        r = self._text(
            surface,
            category_name(cat),
            (x, rect.y + px(6)),
            px(20),
            pal.ACCENT,
            w - counter.get_width() - px(8),
            True,
        )
        y = r.bottom + px(2)
        for img in self.app.fonts.render_lines(
            t(f"kf.category.{cat}.text"), px(12), pal.TEXT_DIM, w, 3
        ):
            surface.blit(img, (x, y))
            y += self.app.fonts.line_height(px(12))
        if beat.seat is None:
            return
        y += px(6)
        sw = self._swatch(beat.seat, px(22))
        surface.blit(sw, (x, y))
        value = sc.value(beat.category, beat.seat) or 0
        pts = self.app.fonts.render(f"+{value}", px(22), pal.ACCENT, True)
        surface.blit(pts, pts.get_rect(topright=(rect.right - px(10), y - px(2))))
        self._text(
            surface,
            self._name(beat.seat),
            (x + px(30), y),
            px(17),
            pal.TEXT,
            w - px(36) - pts.get_width(),
            True,
        )
        y += px(30)
        lh = self.app.fonts.line_height(px(13))
        for line in self._score_lines(cat, beat.seat):
            room = (rect.bottom - px(4) - y) // lh
            if room <= 0:
                break
            # a long assignment wraps (indented) rather than being cut
            for i, img in enumerate(
                self.app.fonts.render_lines(line, px(13), pal.TEXT, w - px(12), min(3, room))
            ):
                surface.blit(img, (x + (px(12) if i else 0), y))
                y += lh

    def _score_lines(self, cat: str, seat: int) -> list[str]:
        """The details of one category for one seat, in words (``view["final"]``)."""
        d = self._final(seat)
        lines: list[str] = []
        if cat in ("tiles", "turn_order", "boats", "storage"):
            key = {
                "tiles": "printed",
                "turn_order": "turn_order",
                "boats": "boats",
                "storage": "storage",
            }[cat]
            got = as_dict(d.get(key))
            for tile, vp in sorted(got.items(), key=lambda kv: str(kv[0])):
                lines.append(t("kf.score.tile", tile=tile_name(tile), vp=num(vp, -999)))
            if cat == "tiles" and d.get("flip"):
                lines.append(t("kf.score.flip", tile=tile_name(d.get("flip"))))
            if cat == "boats":
                if d.get("road_loop"):
                    lines.append(t("kf.score.loop", n=len(as_list(d.get("road_loop")))))
                if d.get("river_chain"):
                    lines.append(t("kf.score.chain", n=len(as_list(d.get("river_chain")))))
        elif cat == "winter":
            assignment = as_dict(d.get("assignment"))
            winter = as_dict(d.get("winter"))
            shown: set[str] = set()
            for family in ("keyples", "resources", "skills"):
                entries = as_dict(assignment.get(family))
                for tile, entry in sorted(entries.items(), key=lambda kv: str(kv[0])):
                    if not isinstance(entry, dict):
                        continue
                    items = as_dict(entry.get("items"))
                    words = self._items_words(family, items)
                    lines.append(
                        t(
                            "kf.score.assign",
                            tile=tile_name(tile),
                            items=words or t("kf.score.nothing"),
                            vp=num(entry.get("points"), -999),
                        )
                    )
                    shown.add(tile)
            for tile, vp in sorted(winter.items(), key=lambda kv: str(kv[0])):
                if tile not in shown:
                    lines.append(t("kf.score.tile", tile=tile_name(tile), vp=num(vp, -999)))
            purple = d.get("purple")
            if isinstance(purple, dict) and purple.get("as"):
                lines.append(
                    t(
                        "kf.score.purple",
                        what=self._kind_word(str(purple["as"])),
                        vp=num(purple.get("points"), -999),
                    )
                )
        elif cat == "gold":
            un = as_dict(d.get("unassigned"))
            res = as_dict(un.get("resources"))
            lines.append(t("kf.score.gold", n=num(res.get("gold"))))
        return lines or [t("kf.score.none")]

    def _kind_word(self, kind: str) -> str:
        if kind in COLOURS:
            return t("kf.keyple_of", colour=colour_name(kind))
        if kind in RESOURCES:
            return resource_name(kind)
        if kind in SKILLS:
            return skill_name(kind)
        return kind

    def _items_words(self, family: str, items: dict[str, Any]) -> str:
        from game.ui.games.keyflower.text import join

        words = []
        for kind, n in items.items():
            n = num(n)
            if not n:
                continue
            if family == "keyples":
                words.append(keyples_text(n, kind))
            elif family == "skills":
                words.append(skills_text(n, kind))
            else:
                words.append(resources_text(n, kind))
        return join(words)

    def _draw_score_table(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        """After the sequence: a row per category, a column per seat; pointing at a cell shows
        that category of that seat on the table."""
        px = self.app.px
        scores = self.view.get("scores") or []
        n = len(scores)
        x, w = rect.x + px(8), rect.width - px(16)
        y = rect.y + px(6)
        self._text(surface, t("kf.score.title"), (x, y), px(15), pal.ACCENT, w, True)
        y += px(24)
        if not n:
            return
        label_w = min(px(120), w // 3)
        col_w = (w - label_w) // n
        row_h = min(px(24), max(px(16), (rect.bottom - y - px(4)) // (len(CATEGORIES) + 2)))
        for s in range(n):
            sw = self._swatch(s, min(px(18), row_h - 2))
            surface.blit(
                sw, sw.get_rect(center=(x + label_w + col_w * s + col_w // 2, y + row_h // 2))
            )
        y += row_h
        self.score_cells = []
        for cat in [*CATEGORIES, "total"]:
            is_total = cat == "total"
            self._text(
                surface,
                category_name(cat),
                (x, y + row_h // 2),
                px(12),
                pal.ACCENT if is_total else pal.TEXT_DIM,
                label_w - px(4),
                is_total,
                anchor="midleft",
                minimum=px(9),
            )
            for s in range(n):
                cell = pygame.Rect(x + label_w + col_w * s, y, col_w - px(2), row_h - px(2))
                if not is_total:
                    hovered = self.hover_focus == (cat, s)
                    pygame.draw.rect(
                        surface,
                        (58, 50, 30) if hovered else pal.BG_PANEL_2,
                        cell,
                        border_radius=px(4),
                    )
                    self.score_cells.append((cell, cat, s))
                value = int(scores[s].get(cat, 0)) if isinstance(scores[s], dict) else 0
                self._text(
                    surface,
                    str(value),
                    cell.center,
                    px(13),
                    pal.ACCENT if is_total else pal.TEXT,
                    cell.width,
                    is_total,
                    anchor="center",
                    minimum=px(9),
                )
            y += row_h
