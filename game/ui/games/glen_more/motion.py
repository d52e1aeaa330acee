"""Every animation of the Glen More table.

Events become animations: figures walk the track, tiles lift off it, fly into a territory and
land, new tiles flip onto the track, cubes pop onto tiles, points and goods float up, clan
members walk and chieftains rise — each started from the engine's events, never from a rule of
its own.  The authoritative view is drawn underneath; a thing being animated is hidden until its
animation lands (the track's slots here, the territories' cells in
:mod:`game.ui.games.glen_more.territory`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import pygame

from game.ui import palette as pal
from game.ui.games.glen_more import art
from game.ui.games.glen_more.common import (
    GOLD,
    LOCH_NESS,
    cell_of,
)
from game.ui.games.glen_more.territory import TerritoryMixin, blit_alpha
from game.ui.i18n import plural, t
from game.ui.tween import Tween, arc, ease_in_out, ease_out_back, ease_out_cubic, linear

FIGURE_STEP = 0.07
FIGURE_TIME = 0.35
FLY_TIME = 0.5
POP_TIME = 0.35
FLOAT_TIME = 1.0
FLASH_TIME = 0.5
FLIP_TIME = 0.3
FADE_TIME = 0.5
STAGGER = 0.06


@dataclass
class Anim:
    """One running animation: ``kind``, its tween (0..1 unless said), and what it draws."""

    kind: str
    tween: Tween
    data: dict[str, Any] = field(default_factory=dict)


class MotionMixin(TerritoryMixin):
    """The animations over the track and the territories."""

    # ---- animations ---------------------------------------------------------------------------
    def _animate(self, events: list[dict[str, Any]]) -> None:
        """Animations for the events of one state message (see the module docstring)."""
        if self._speed() <= 0 or not self.track_centres:
            return
        backlog = max(
            (a.tween.delay + a.tween.duration - a.tween.elapsed for a in self.anims), default=0.0
        )
        if backlog > 1.5:
            self.finish_animations()
            backlog = 0.0
        delay = max(0.0, backlog)
        for ev in events:
            try:
                delay = self._animate_one(ev, delay)
            except (TypeError, ValueError, KeyError, IndexError, OverflowError):
                continue  # a malformed event animates nothing

    def _animate_one(self, ev: dict[str, Any], delay: float) -> float:
        kind = ev.get("type")
        seat = ev.get("seat")
        if kind in ("take", "discard", "die"):
            frm, to = int(ev["from"]), int(ev["slot"])
            path = self.track_path(frm, to)
            duration = FIGURE_TIME + FIGURE_STEP * max(0, len(path) - 2)
            who: Any = "die" if kind == "die" else int(ev["seat"])
            self.anims.append(
                Anim(
                    "figure",
                    Tween((0.0,), (1.0,), duration, ease_in_out, delay),
                    {"path": path, "who": who, "slot": to},
                )
            )
            lift = delay + duration * 0.6
            r = self.slot_rects.get(to)
            if r is not None and kind == "take":
                end = self.card_anchor()
                self.anims.append(
                    Anim(
                        "fly",
                        Tween((0.0,), (1.0,), FLY_TIME, ease_out_cubic, lift),
                        {"tile": ev.get("tile"), "a": r, "b": end, "fade": False},
                    )
                )
            elif r is not None:
                self.anims.append(
                    Anim(
                        "fade",
                        Tween((0.0,), (1.0,), FADE_TIME, linear, delay),
                        {"tile": ev.get("tile"), "rect": r, "cross": True},
                    )
                )
            return delay + duration
        if kind == "left_behind":
            for slot, tile in ev.get("tiles", []):
                r = self.slot_rects.get(int(slot))
                if r is not None:
                    self.anims.append(
                        Anim(
                            "fade",
                            Tween((0.0,), (1.0,), FADE_TIME, linear, delay),
                            {"tile": tile, "rect": r, "cross": False},
                        )
                    )
            return delay
        if kind == "refill":
            d = delay
            for slot, tile in ev.get("tiles", []):
                if int(slot) in self.slot_rects:
                    self.anims.append(
                        Anim(
                            "flip",
                            Tween((0.0,), (1.0,), FLIP_TIME, ease_out_cubic, d),
                            {"tile": tile, "slot": int(slot)},
                        )
                    )
                    d += STAGGER
            return d
        if not isinstance(seat, int):
            if kind == "scoring" and not self.view.get("over"):
                self.start_round(ev)
            return delay
        cell = cell_of(ev["cell"]) if isinstance(ev.get("cell"), list) else None
        rect = self.cell_rect(seat, cell) if cell is not None else None
        if kind == "place" and rect is not None:
            if seat == self.big_seat() and seat == self.you:
                start = self.card_anchor()
            else:
                slot = self.seat_view(seat).get("track_slot")
                start = self.slot_rects.get(slot, rect) if isinstance(slot, int) else rect
            self.anims.append(
                Anim(
                    "place",
                    Tween((0.0,), (1.0,), FLY_TIME, ease_out_back, delay),
                    {"tile": ev.get("tile"), "a": start, "b": rect, "seat": seat, "cell": cell},
                )
            )
            return delay + FLY_TIME * 0.8
        if rect is None:
            if kind == "buy" and isinstance(ev.get("resource"), str):
                row = self.market_rows.get(ev["resource"])
                if row is not None:
                    a = self.coin_anchor(seat)
                    self.anims.append(
                        Anim(
                            "coin",
                            Tween((0.0,), (1.0,), FLY_TIME, ease_out_cubic, delay),
                            {"a": a, "b": row.center},
                        )
                    )
            return delay
        if kind == "activate":
            self.anims.append(
                Anim(
                    "flash",
                    Tween((0.0,), (1.0,), FLASH_TIME, ease_out_cubic, delay),
                    {"rect": rect, "ness": bool(ev.get("loch_ness"))},
                )
            )
            return delay + STAGGER
        if kind == "produce":
            for k in range(max(0, min(3, int(ev.get("n", 1))))):
                self.anims.append(
                    Anim(
                        "pop",
                        Tween((0.0,), (1.0,), POP_TIME, ease_out_back, delay + k * STAGGER),
                        {"res": ev.get("resource"), "rect": rect},
                    )
                )
            return delay + STAGGER
        if kind == "gain":
            what = str(ev.get("what"))
            n = int(ev.get("n", 0))
            if what == "clan_member" and n:
                self.anims.append(
                    Anim(
                        "meeple",
                        Tween((0.0,), (1.0,), POP_TIME * 1.4, ease_out_back, delay),
                        {
                            "a": (rect.centerx, rect.y - rect.height * 0.4),
                            "b": rect.center,
                            "rise": False,
                        },
                    )
                )
            key = f"gm.float.{what}"
            self._float(plural(key, n), rect, delay, GOLD if what == "coins" else (240, 240, 240))
            return delay + STAGGER
        if kind == "score":
            self._float(t("gm.vp", n=ev.get("vp", 0)), rect, delay, GOLD, big=True)
            return delay + STAGGER
        if kind in ("pay", "sell"):
            b = rect.center
            if kind == "sell":
                row = self.market_rows.get(str(ev.get("resource")))
                if row is not None:
                    b = row.center
            else:
                b = self.card_anchor().center
            self.anims.append(
                Anim(
                    "cube",
                    Tween((0.0,), (1.0,), FLY_TIME, ease_out_cubic, delay),
                    {"res": ev.get("resource"), "a": rect.center, "b": b},
                )
            )
            return delay + STAGGER
        if kind == "pay_clan":
            self.anims.append(
                Anim(
                    "meeple",
                    Tween((0.0,), (1.0,), FLY_TIME, ease_out_cubic, delay),
                    {"a": rect.center, "b": (rect.centerx, rect.y - rect.height), "rise": True},
                )
            )
            return delay + STAGGER
        if kind == "move" and isinstance(ev.get("to"), list):
            src = (
                self.cell_rect(seat, cell_of(ev["from"]))
                if isinstance(ev.get("from"), list)
                else None
            )
            dst = self.cell_rect(seat, cell_of(ev["to"]))
            if src is not None and dst is not None:
                self.anims.append(
                    Anim(
                        "meeple",
                        Tween((0.0,), (1.0,), FLY_TIME, ease_in_out, delay),
                        {"a": src.center, "b": dst.center, "rise": False, "arc": True},
                    )
                )
            return delay + STAGGER
        if kind == "chieftain":
            self.anims.append(
                Anim(
                    "meeple",
                    Tween((0.0,), (1.0,), FLY_TIME * 1.6, ease_out_cubic, delay),
                    {
                        "a": rect.center,
                        "b": (rect.centerx, rect.y - rect.height * 0.8),
                        "rise": True,
                        "crown": True,
                    },
                )
            )
            self._float(t("gm.float.chieftain"), rect, delay, GOLD)
            return delay + STAGGER
        return delay

    def _float(
        self, text: str, rect: pygame.Rect, delay: float, colour: pal.RGB, big: bool = False
    ) -> None:
        """A text rising from ``rect``; texts from the same place follow each other."""
        same = sum(
            1
            for a in self.anims
            if a.kind == "float" and a.data["at"] == rect.center and not a.tween.done
        )
        self.anims.append(
            Anim(
                "float",
                Tween((0.0,), (1.0,), FLOAT_TIME, ease_out_cubic, delay + same * FLOAT_TIME * 0.45),
                {"text": text, "at": rect.center, "h": rect.height, "colour": colour, "big": big},
            )
        )

    def card_size(self) -> int:
        """The size of the taken tile in the step box."""
        px = self.app.px
        return int(min(px(86), max(px(40), self.rects.step.height // 4)))

    def card_anchor(self) -> pygame.Rect:
        """Where the step box shows the taken tile (a lifted tile flies there): under the
        step box's title line."""
        px = self.app.px
        size = self.card_size()
        return pygame.Rect(self.rects.step.x + px(10), self.rects.step.y + px(36), size, size)

    def coin_anchor(self, seat: int) -> tuple[int, int]:
        box = self.other_boxes.get(seat)
        if box is not None:
            return box.center
        return self.rects.header.center

    def _hidden_slots(self) -> set[int]:
        out = set()
        for a in self.anims:
            if a.kind in ("figure", "flip"):
                out.add(int(a.data["slot"]))
        return out

    def animating(self) -> bool:
        return bool(self.anims)

    def finish_animations(self) -> None:
        self.anims.clear()

    def _draw_anims(self, surface: pygame.Surface) -> None:
        size = max(8, int(self.track_size))
        for a in self.anims:
            if not a.tween.started:
                continue
            p = a.tween.value()[0]
            d = a.data
            if a.kind == "figure":
                path = d["path"]
                seg = p * (len(path) - 1)
                i = min(len(path) - 2, int(seg)) if len(path) > 1 else 0
                if len(path) > 1:
                    f = seg - i
                    (x0, y0), (x1, y1) = path[i], path[i + 1]
                    x, y = (
                        x0 + (x1 - x0) * f,
                        y0 + (y1 - y0) * f - size * 0.15 * math.sin(math.pi * f),
                    )
                else:
                    x, y = path[0]
                if d["who"] == "die":
                    sprite = art.die_sprite(max(8, int(size * 0.7)), self.last_roll or 0)
                    surface.blit(sprite, sprite.get_rect(center=(int(x), int(y))))
                else:
                    self._draw_figure(surface, int(d["who"]), (int(x), int(y)), size)
            elif a.kind in ("fly", "place"):
                ra, rb = d["a"], d["b"]
                x, y = arc(ra.center, rb.center, min(1.0, p), max(ra.height, rb.height) * 0.6)
                w = int(ra.width + (rb.width - ra.width) * min(1.0, max(0.0, p)))
                w = max(8, w // 4 * 4)  # sizes in steps: a flight draws few distinct sprites
                face = art.tile_face(str(d["tile"]), w)
                alpha = int(255 * (1 - 0.6 * p)) if a.kind == "fly" else 255
                blit_alpha(surface, face, face.get_rect(center=(int(x), int(y))).topleft, alpha)
            elif a.kind == "fade":
                r = d["rect"]
                face = art.tile_face(str(d["tile"]), max(8, r.width))
                blit_alpha(surface, face, r.topleft, int(255 * (1 - p)))
                if d.get("cross"):
                    w = max(2, r.width // 12)
                    pygame.draw.line(surface, pal.BAD, r.topleft, r.bottomright, w)
                    pygame.draw.line(surface, pal.BAD, r.topright, r.bottomleft, w)
            elif a.kind == "flip":
                r = self.slot_rects.get(d["slot"])
                if r is None:
                    continue
                w = max(2, int(r.width * p))
                face = pygame.transform.smoothscale(
                    art.tile_face(str(d["tile"]), size), (w, r.height)
                )
                surface.blit(face, face.get_rect(center=r.center))
            elif a.kind == "flash":
                r = d["rect"]
                colour = LOCH_NESS if d.get("ness") else GOLD
                grow = int(r.width * 0.3 * p)
                ring = pygame.Surface(r.inflate(grow * 2 + 8, grow * 2 + 8).size, pygame.SRCALPHA)
                pygame.draw.rect(
                    ring,
                    (*colour, int(255 * (1 - p))),
                    ring.get_rect(),
                    max(2, r.width // 14),
                    border_radius=r.width // 6,
                )
                surface.blit(ring, ring.get_rect(center=r.center))
            elif a.kind == "pop":
                r = d["rect"]
                rad = max(3, int(r.width * 0.12 * (0.4 + 0.9 * p)))
                art.draw_resource(
                    surface,
                    str(d["res"]),
                    (r.centerx, r.centery - r.height * 0.2 * (1 - p)),
                    rad,
                    self._cb(),
                )
            elif a.kind == "cube":
                x, y = arc(d["a"], d["b"], p, 40)
                art.draw_resource(surface, str(d["res"]), (x, y), max(4, size * 0.12), self._cb())
            elif a.kind == "coin":
                x, y = arc(d["a"], d["b"], p, 50)
                sprite = art.coin_sprite(max(4, int(size * 0.14)))
                surface.blit(sprite, sprite.get_rect(center=(int(x), int(y))))
            elif a.kind == "meeple":
                if d.get("arc"):
                    x, y = arc(d["a"], d["b"], p, 30)
                else:
                    x = d["a"][0] + (d["b"][0] - d["a"][0]) * p
                    y = d["a"][1] + (d["b"][1] - d["a"][1]) * p
                sprite = art.meeple_sprite(max(8, int(size * 0.4)), bool(d.get("crown")))
                alpha = int(255 * (1 - 0.7 * p)) if d.get("rise") else 255
                blit_alpha(surface, sprite, sprite.get_rect(center=(int(x), int(y))).topleft, alpha)
            elif a.kind == "float":
                x, y = d["at"]
                y -= d["h"] * 0.6 * p
                fsize = max(10, int(d["h"] * (0.32 if d.get("big") else 0.24)))
                img = self.app.fonts.render(d["text"], fsize, d["colour"], True)
                shadow = self.app.fonts.render(d["text"], fsize, (10, 10, 12), True)
                alpha = int(255 * min(1.0, 2.2 * (1 - p)))
                for surf, off in ((shadow, 2), (img, 0)):
                    pos = surf.get_rect(center=(int(x) + off, int(y) + off)).topleft
                    blit_alpha(surface, surf, pos, alpha)
