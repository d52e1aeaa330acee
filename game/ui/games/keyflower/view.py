"""The Keyflower view put together: the table's layout, the view dict in, the buttons, hover
texts and each frame's drawing in order (see :mod:`game.ui.games.keyflower`)."""

from __future__ import annotations

import math
from typing import Any

import pygame

from game.ui import palette as pal
from game.ui.games.base import Action, Regions, SeatInfo, ViewButton
from game.ui.games.keyflower import art
from game.ui.games.keyflower.clean import clean_view, well_formed
from game.ui.games.keyflower.common import COLOURS, RESOURCES, SKILLS, Hit, as_dict, as_list
from game.ui.games.keyflower.panel import PanelMixin
from game.ui.games.keyflower.scoring import Scoring
from game.ui.games.keyflower.text import (
    category_name,
    colour_name,
    keyples_text,
    resource_name,
    resources_text,
    skills_text,
    tile_name,
    tile_text,
    use_text,
)
from game.ui.i18n import lazy, plural, t

#: How much of the table's height the season board takes, by phase (the villages get the rest:
#: during placement and the winter choice the villages matter most).
SEASON_SHARE = {"play": 0.44, "boats": 0.44, "place": 0.3, "winter_pick": 0.36, "over": 0.2}


class KeyflowerView(PanelMixin):
    """Draws a Keyflower view and maps clicks to legal actions."""

    #: Every pulse is drawn from ``pulse()`` and marked (``GameView.ambient_rects``).
    MARKS_PULSE = True
    #: The keyples (red, blue, yellow, green, the purple start keyple) and the resources (wood,
    #: stone, iron, gold).
    PIECE_COLOURS = ("red", "blue", "yellow", "green", "purple", "brown", "grey", "navy", "gold")

    def __init__(self, app: Any, seats: list[SeatInfo]) -> None:
        super().__init__(app, seats)
        self._arranged_for: tuple[Any, ...] = ()
        self._index_legal()

    # ---- layout ------------------------------------------------------------------------------
    def layout(self, area: pygame.Rect, log_height: int) -> Regions:
        """The board (season board over the villages) left; the players, your screen and the
        action box right, the log under them."""
        px = self.app.px
        margin = px(8)
        panel_w = max(px(290), min(px(460), int(area.width * 0.3)))
        board = pygame.Rect(area.x, area.y, area.width - panel_w - margin, area.height)
        panel = pygame.Rect(
            board.right + margin, area.y, panel_w, area.height - log_height - margin
        )
        log = pygame.Rect(panel.x, panel.bottom + margin, panel_w, log_height)
        self.board_rect = board
        self.panel_rect = panel
        self._arrange()
        self._layout_panel()
        self.layers.clear()
        return Regions(board, panel, log)

    def _arrange(self) -> None:
        """The season board and the villages inside the board area (by phase and seats)."""
        px = self.app.px
        board = self.board_rect
        gap = px(6)
        phase = self._phase() or "play"
        self._arranged_for = (phase, len(self._seat_views()), board.size)
        season_h = int(board.height * SEASON_SHARE.get(phase, 0.42))
        self.season_rect = pygame.Rect(board.x, board.y, board.width, season_h)
        vil = pygame.Rect(
            board.x,
            self.season_rect.bottom + gap,
            board.width,
            board.bottom - self.season_rect.bottom - gap,
        )
        self.villages_rect = vil
        others = max(0, len(self._seat_views()) - 1)
        if others == 0:
            self.big_rect = pygame.Rect(vil)
            self.compact_list = []
            return
        share = 0.36 if others == 1 else (0.4 if others <= 3 else 0.46)
        comp_w = int(vil.width * share)
        self.big_rect = pygame.Rect(vil.x, vil.y, vil.width - comp_w - gap, vil.height)
        area = pygame.Rect(self.big_rect.right + gap, vil.y, comp_w, vil.height)
        cols = 1 if others <= 2 else 2
        rows = math.ceil(others / cols)
        cw = (area.width - gap * (cols - 1)) // cols
        ch = (area.height - gap * (rows - 1)) // rows
        self.compact_list = [
            pygame.Rect(area.x + (i % cols) * (cw + gap), area.y + (i // cols) * (ch + gap), cw, ch)
            for i in range(others)
        ]
        self.layers.clear()

    def set_seats(self, seats: list[SeatInfo]) -> None:
        super().set_seats(seats)
        self.layers.clear()

    # ---- the view dict in ------------------------------------------------------------------
    def set_view(
        self, view: dict[str, Any], legal: list[Action], events: list[dict[str, Any]]
    ) -> None:
        self.prev = self.view
        # the host's view checked and bounded first (clean.py): the table trusts it then
        self.view = clean_view(view, len(self.seats) or 6)
        self._serial += 1
        self.legal = [tuple(a) for a in legal if well_formed(tuple(a))]
        old_phase = str(self.prev.get("phase") or "")
        if self._phase() != old_phase:
            self.focus_seat = None
            self.zoom = 1.0
            self.zoom_at = None
        if (
            self._phase() or "play",
            len(self._seat_views()),
            self.board_rect.size,
        ) != self._arranged_for and self.board_rect.width > 0:
            self._arrange()
            self._layout_panel()
        self._index_legal()
        if self.composer.set_legal(self.legal, (self.decision, self.turn)):
            self._new_question()
        else:
            # the same question: keep what was chosen, unless it no longer continues
            if (
                self.picked
                and self.picked not in self.move_at
                and self.picked not in self.upgrade_at
            ):
                self.picked = None
        self._animate(
            [e for e in events if isinstance(e, dict)] if isinstance(events, list) else []
        )
        if self.view.get("over") and self.scoring is None and not events:
            # arrived at an ended game (reconnect, replay): show it scored at once
            self.scoring = Scoring(
                [c for c, _ in self.score_categories()],
                [dict(s) for s in self.view.get("scores") or []],
                1e9,
            )

    def _view_id(self) -> int:
        return self._serial

    # ---- buttons -----------------------------------------------------------------------------
    def buttons(self) -> list[ViewButton]:
        """Pass (P) or Finish (D) when listed, Back (a field back) and Confirm (Enter)."""
        out: list[ViewButton] = []
        if ("pass",) in self.legal:
            out.append(
                ViewButton(
                    "kf_pass",
                    lazy("kf.action.pass"),
                    ("pass",),
                    hint="P",
                    tooltip=lazy("kf.action.pass.tip"),
                )
            )
        if ("done",) in self.legal:
            out.append(
                ViewButton(
                    "kf_done",
                    lazy("kf.action.done"),
                    ("done",),
                    hint="D",
                    tooltip=lazy("kf.action.done.tip"),
                )
            )
        if self.legal:
            confirm = self.confirm_action()
            out.append(
                ViewButton(
                    "kf_back",
                    lazy("composer.back"),
                    on_click=self.back,
                    hint="Bksp",
                    enabled=self.can_go_back(),
                    tooltip=lazy("composer.back.tip"),
                )
            )
            out.append(
                ViewButton(
                    "kf_confirm",
                    lazy("composer.confirm"),
                    confirm,
                    hint="Enter",
                    primary=True,
                    enabled=confirm is not None,
                    width=130,
                )
            )
        return out

    def choice_rects(self) -> list[pygame.Rect]:
        return [pygame.Rect(rect) for rect, _value, _label in self.options]

    # ---- sounds ------------------------------------------------------------------------------
    def cues(self, events: list[dict[str, Any]]) -> list[str]:
        """A knock for a move; "outbid" when another seat bids on a tile your bid led (read
        from the table before the events); "round" at the end of a season (KF §8)."""
        out = super().cues(events)
        you = self._you()
        act = self._activity()
        for ev in events:
            if not isinstance(ev, dict):
                continue
            kind = ev.get("type")
            if kind == "season_end" and "round" not in out:
                out.append("round")
            if kind == "bid" and you is not None and ev.get("seat") != you:
                tile = ev.get("tile")
                entry = act.get(tile) if isinstance(tile, str) else None
                if entry is not None and self._leader(entry) == you and "outbid" not in out:
                    out.append("outbid")
        return out

    # ---- time --------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        speed = self._speed()
        self.clock += dt
        if self.anims:
            step = dt * (speed if speed > 0 else 1000)
            for a in self.anims:
                a.tween.update(step)
            self.anims = [a for a in self.anims if not a.tween.done]
        if self.scoring is not None and not self.scoring.done:
            self.scoring.elapsed += dt * (speed if speed > 0 else 1000)

    # ---- hover -------------------------------------------------------------------------------
    def mouse_moved(self, pos: tuple[int, int]) -> None:
        self.mouse = pos
        focus = None
        if self.view.get("over") and self.scoring_done():
            for rect, cat, seat in self.score_cells:
                if rect.collidepoint(pos):
                    focus = (cat, seat)
        if focus != self.hover_focus:
            self.hover_focus = focus

    def hover(self, pos: tuple[int, int]) -> str:
        for rect, _value, label in self.options:
            if rect.collidepoint(pos):
                return label
        if self.view.get("over"):
            for rect, cat, seat in self.score_cells:
                if rect.collidepoint(pos):
                    return (
                        f"{self._name(seat)}: {category_name(cat)}\n"
                        + "\n".join(self._score_lines(cat, seat))
                        if self._score_lines(cat, seat)
                        else f"{self._name(seat)}: {category_name(cat)}"
                    )
        if (
            self._phase() == "place"
            and self.legal
            and self.big_grid is not None
            and self.big_rect.collidepoint(pos)
        ):
            cell = self.big_grid.cell_at(*pos)
            if cell in self.place_targets():
                return t("kf.hover.place_here")
        hit = self.hit_at(pos)
        if hit is None:
            return ""
        return self._hit_text(hit)

    def _hit_text(self, hit: Hit) -> str:
        kind = hit.kind
        if kind in ("tile", "hand", "boat", "winter"):
            tile = str(hit.key)
            face = hit.data.get("face")
            if face is None:
                face = self._face_in_view(tile)
            lines = [tile_text(tile, face)]
            lines += self._tile_state(tile, hit)
            click = self._click_hint(tile, kind, face)
            if click:
                lines.insert(0, click)
            return "\n".join(x for x in lines if x)
        if kind == "bid":
            tile = str(hit.key)
            lines = []
            if tile in self.bid_at:
                lines.append(t("kf.hover.bid_here", tile=tile_name(tile)))
            lines += self._bids_lines(tile)
            return "\n".join(lines) or t("kf.hover.no_bids", tile=tile_name(tile))
        if kind == "chip":
            tile, seat = hit.key
            d = hit.data
            text = t(
                "kf.hover.chip",
                name=self._name(seat),
                keyples=keyples_text(int(d.get("n", 0)), str(d.get("colour"))),
                tile=tile_name(tile),
            )
            if d.get("lead"):
                text += " " + t("kf.hover.leading")
            if seat == self._you() and tile in self.reclaim_at:
                text = t("kf.hover.reclaim") + "\n" + text
            return text
        if kind == "res":
            tile, res = hit.key
            text = t("kf.hover.resource", res=resource_name(res), tile=tile_name(tile))
            if ("move", tile, res) in self.legal:
                text = t("kf.hover.move", res=resource_name(res)) + "\n" + text
            return text
        if kind == "seat":
            return self._seat_text(int(hit.key))
        if kind == "supply":
            return self._supply_text(str(hit.key))
        if kind == "mine":
            what, name, n = hit.key
            return keyples_text(n, name) if what == "k" else skills_text(n, name)
        if kind == "village":
            return t("kf.hover.village", name=self._name(hit.key))
        return ""

    def _face_in_view(self, tile: str) -> str:
        for s in range(len(self._seat_views())):
            for entry in self._village(s):
                if entry[0] == tile:
                    return entry[4]
        return self._face_of(tile)

    def _click_hint(self, tile: str, kind: str, face: Any = None) -> str:
        if not self.legal:
            return ""
        phase = self._phase()
        stage = self._stage()
        if phase == "boats" and tile in self.boat_at:
            return t("kf.hover.take_boat")
        if (
            phase == "place"
            and kind == "hand"
            and (tile in self.place_at or tile in self.place_tile_at)
        ):
            return t("kf.hover.place_pick")
        if phase == "winter_pick" and kind == "hand":
            return t("kf.hover.winter_tick")
        if stage == "transport" and (tile in self.move_at or tile in self.upgrade_at):
            return t("kf.hover.transport_tile")
        if stage == "move_to" and tile in self.move_to_at:
            return t("kf.hover.move_to")
        if stage in ("start", "reclaim"):
            if tile in self.use_at:
                return use_text(tile, face)
            if tile in self.bid_at:
                return t("kf.hover.bid_here", tile=tile_name(tile))
        return ""

    def _tile_state(self, tile: str, hit: Hit) -> list[str]:
        """This season's lock, uses and bids, and the resources on a tile."""
        lines = []
        act = self._activity().get(tile)
        if act is not None:
            uses = [u for u in act.get("uses") or [] if isinstance(u, list) and len(u) == 3]
            lock = act.get("lock")
            if isinstance(lock, str) and lock in COLOURS:
                lines.append(
                    plural("kf.hover.lock", len(uses), colour=colour_name(lock), uses=len(uses))
                )
            for seat, colour, n in uses:
                lines.append(
                    t(
                        "kf.hover.used_by",
                        name=self._name(seat),
                        keyples=keyples_text(int(n), str(colour)),
                    )
                )
            lines += self._bids_lines(tile)
        seat = hit.data.get("seat")
        if isinstance(seat, int):
            for entry in self._village(seat):
                if entry[0] == tile and any(entry[5]):
                    items = [resources_text(n, RESOURCES[k]) for k, n in enumerate(entry[5]) if n]
                    lines.append(t("kf.hover.resources", items=", ".join(items)))
            lines.append(t("kf.hover.in_village", name=self._name(seat)))
        if hit.kind == "boat":
            lines += self._load_lines(tile)
        return lines

    def _bids_lines(self, tile: str) -> list[str]:
        act = self._activity().get(tile)
        if act is None:
            return []
        leader = self._leader(act)
        out = []
        for seat, colour, n in sorted(
            (b for b in act.get("bids") or [] if isinstance(b, list) and len(b) == 3),
            key=lambda b: -int(b[2]),
        ):
            text = t(
                "kf.hover.bid", name=self._name(seat), keyples=keyples_text(int(n), str(colour))
            )
            if seat == leader:
                text += " " + t("kf.hover.leading")
            out.append(text)
        return out

    def _load_lines(self, boat: str) -> list[str]:
        entry = next(
            (
                b
                for b in self.view.get("boats") or []
                if isinstance(b, dict) and b.get("boat") == boat
            ),
            None,
        )
        if entry is None:
            return []
        keys = entry.get("keyples") or []
        skills = entry.get("skills") or []
        items = [keyples_text(int(n), c) for c, n in zip(COLOURS[:3], keys, strict=False) if n]
        items += [skills_text(int(n), k) for k, n in zip(SKILLS, skills, strict=False) if n]
        if entry.get("taken"):
            return [t("kf.hover.boat_taken")]
        return [t("kf.hover.load", items=", ".join(items) or "—")]

    def _seat_text(self, seat: int) -> str:
        sv = self._seat_view(seat)
        lines = [self._name(seat)]
        known = sv.get("known_keyples") or []
        keys = sv.get("keyples")
        if isinstance(keys, list) and (seat != self._you() or self.show_private):
            lines.append(
                t(
                    "kf.hover.keyples_exact",
                    items=", ".join(
                        keyples_text(int(n), c) for c, n in zip(COLOURS, keys, strict=False) if n
                    )
                    or "—",
                )
            )
        else:
            lines.append(
                t(
                    "kf.hover.keyples",
                    n=int(sv.get("keyple_count") or 0),
                    known=", ".join(
                        keyples_text(int(n), c) for c, n in zip(COLOURS, known, strict=False) if n
                    )
                    or "—",
                )
            )
        skills = sv.get("skills")
        if isinstance(skills, list) and (seat != self._you() or self.show_private):
            lines.append(
                t(
                    "kf.hover.skills_exact",
                    items=", ".join(
                        skills_text(int(n), k) for k, n in zip(SKILLS, skills, strict=False) if n
                    )
                    or "—",
                )
            )
        else:
            kn = sv.get("known_skills") or []
            lines.append(
                t(
                    "kf.hover.skills",
                    n=int(sv.get("skill_count") or 0),
                    known=", ".join(
                        skills_text(int(n), k) for k, n in zip(SKILLS, kn, strict=False) if n
                    )
                    or "—",
                )
            )
        hand = sv.get("winter_hand")
        n_hand = len(hand) if isinstance(hand, list) else int(hand or 0)
        if n_hand:
            lines.append(t("kf.hover.winter_hand", n=n_hand))
        if sv.get("purple"):
            lines.append(t("kf.hover.purple"))
        won = sv.get("won") or []
        if won:
            lines.append(t("kf.hover.won", tiles=", ".join(tile_name(x) for x in won)))
        scores = self.view.get("preview") or []
        if seat < len(scores) and isinstance(scores[seat], dict) and not self.view.get("over"):
            parts = [
                f"{category_name(k)} {v}" for k, v in scores[seat].items() if k != "total" and v
            ]
            lines.append(
                t(
                    "kf.hover.preview",
                    total=scores[seat].get("total", 0),
                    parts=", ".join(parts) or "—",
                )
            )
        return "\n".join(lines)

    def _supply_text(self, name: str) -> str:
        supply = as_dict(self.view.get("supply"))
        if name == "bag":
            return t("kf.hover.bag", n=int(supply.get("bag") or 0))
        if name == "green":
            return t("kf.hover.green", n=int(supply.get("green") or 0))
        if name == "skills":
            return t("kf.hover.skill_supply", n=int(supply.get("skills") or 0))
        if name == "start":
            return t("kf.hover.start", name=self._name(self.view.get("start")))
        res = as_list(supply.get("resources"))
        if name in RESOURCES:
            k = RESOURCES.index(name)
            n = int(res[k]) if k < len(res) else 0
            return t("kf.hover.resource_supply", res=resource_name(name), n=n)
        return ""

    # ---- drawing -----------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        if not self.view:
            return
        self.overflows = []
        self._draw_season(surface)
        self._draw_villages(surface)
        if self.panel_rect.width > 0:
            surface.blit(self._panel_layer(), self.panel_rect.topleft)
        self._draw_action_box(surface)
        self._draw_hint(surface)
        self._draw_anims(surface)
        self.hits = self._hits_season + self._all_village_hits() + self._hits_panel

    def _draw_hint(self, surface: pygame.Surface) -> None:
        """The hinted action: a bouncing ring on its tile, bid space, bid, boat or hex."""
        action = self.hint
        if action is None or action not in self.legal:
            return
        bounce = abs(math.sin(self.pulse_angle()))
        kind = action[0]
        target = action[1] if len(action) > 1 else None
        zone = {"bid": "bid", "bid_tile": "bid", "reclaim": "chip"}.get(str(kind), "tile")
        if kind == "place" and self.big_grid is not None and len(action) == 5:
            cx, cy = self.big_grid.centre(int(action[2]), int(action[3]))
            r = self.big_grid.size
            if self.ghost is None:
                # the hinted tile, turned as the hint says, where the hint puts it
                self._draw_ghost(
                    surface,
                    self.big_grid,
                    str(action[1]),
                    (int(action[2]), int(action[3])),
                    int(action[4]),
                    legal=True,
                )
            pygame.draw.polygon(
                surface, pal.HINT, art.hex_points(cx, cy, r * (1 + 0.08 * bounce)), 3
            )
            kind, zone = "place_tile", "tile"  # and ring the tile in the row above
        wanted = set(action[1:]) if kind == "winter_tiles" else {target}
        for hit in self._hits_season + self._all_village_hits():
            key = hit.key[0] if isinstance(hit.key, tuple) else hit.key
            if key not in wanted:
                continue
            if kind == "reclaim" and not (hit.kind == "chip" and hit.key[1] == self._you()):
                continue
            if zone == "bid" and hit.kind != "bid":
                continue
            if zone == "tile" and hit.kind not in ("tile", "hand", "boat"):
                continue
            if hit.hex_r > 0:
                pygame.draw.polygon(
                    surface,
                    pal.HINT,
                    art.hex_points(
                        hit.centre[0], hit.centre[1], hit.hex_r * (1.04 + 0.08 * bounce)
                    ),
                    3,
                )
            else:
                grow = 4 + int(4 * bounce)
                pygame.draw.rect(
                    surface, pal.HINT, hit.rect.inflate(grow, grow), 3, border_radius=self.app.px(6)
                )


VIEW = KeyflowerView
