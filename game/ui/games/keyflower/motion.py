"""The Keyflower table's animations: keyples, resources and skill tiles flying between the
season board, the villages and the players, tiles flying to their new places, popping up and
turning over, and the season's end played out (KF §12) — each started from the engine's events
(:meth:`MotionMixin.show_since`), never from a rule of its own, and never queued longer than
:data:`MAX_BACKLOG` seconds (a bot that plays fast).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import pygame

from game.ui import palette as pal
from game.ui.games.keyflower import art
from game.ui.games.keyflower.board import BoardMixin
from game.ui.games.keyflower.clean import num
from game.ui.games.keyflower.common import (
    Hit,
    as_dict,
    as_list,
    tile_def,
)
from game.ui.tween import Tween, arc, ease_in_out, ease_out_back, ease_out_cubic

#: Seconds per animation at speed 1.
FLY_TIME = 0.7
POP_TIME = 0.45
STAGGER = 0.08
#: Never let animations queue up longer than this (a bot that plays fast).
MAX_BACKLOG = 1.6


@dataclass
class Anim:
    """One running animation.

    ``kind``: "keyples" (keyple icons of ``items`` flying), "items" (resources "r:wood" and
    skills "s:saw" flying), "tile" (a tile hex flying), "pop" (a tile appearing at its spot),
    "flip" (a tile turning over), "hold" (the season board as it was, ``surface``, shown
    instead of the new one until the tween ends).  ``start`` is a point; ``end`` a point or a
    spot key resolved when drawn (the tile's new place is known only after the next layout).
    A flying tile grows or shrinks from radius ``r0`` to its radius where it lands; with
    ``cover`` the tile waits at its start and its new place stays empty until it lands."""

    kind: str
    tween: Tween
    start: tuple[float, float] = (0.0, 0.0)
    end: tuple[float, float] | str = (0.0, 0.0)
    items: list[str] = field(default_factory=list)
    tile: str = ""
    r0: float = 0.0
    cover: bool = False
    surface: pygame.Surface | None = None
    #: Part of the end of a season: plays out even when the game runs ahead of the table.
    keep: bool = False


class MotionMixin(BoardMixin):
    """The animations over the season board and the villages."""

    def _track_recent(self, events: list[dict[str, Any]], you: int | None) -> None:
        """Tiles other players than ``you`` used or bid on since your last action."""
        for ev in events:
            kind = ev.get("type")
            seat = ev.get("seat")
            if kind in ("bid", "use", "upgrade") and isinstance(seat, int) and seat != you:
                self.recent[str(ev.get("tile"))] = seat
            if kind in ("bid", "use", "pass", "boat") and seat == you:
                self.recent.clear()
            if kind == "season_end":
                self.recent.clear()

    def show_since(self, events: list[dict[str, Any]], seat: int) -> None:
        """Hot-seat: ring what others used or bid on in ``events`` (since ``seat``'s last
        action)."""
        self.recent.clear()
        self._track_recent([ev for ev in events if isinstance(ev, dict)], seat)

    def _animate(self, events: list[dict[str, Any]]) -> None:
        """Turn the events of a new view into animations (from where things were drawn)."""
        self._track_recent(events, self._you())
        if self._speed() <= 0:
            return
        backlog = self._backlog(self.anims)
        if backlog > MAX_BACKLOG:
            # the game runs ahead (bots playing fast): what is flying lands at once, but the
            # end of a season plays out and what follows waits for it
            self.anims = [a for a in self.anims if a.keep]
            backlog = self._backlog(self.anims)
        delay = max(0.0, backlog)
        for ev in events:
            delay = self._animate_event(ev, delay)

    @staticmethod
    def _backlog(anims: list[Anim]) -> float:
        """Seconds until the last of ``anims`` ends."""
        return max((a.tween.delay + a.tween.duration - a.tween.elapsed for a in anims), default=0.0)

    def _spot(self, key: str) -> tuple[float, float] | None:
        return self.spots.get(key)

    def _seat_spot(self, seat: Any) -> tuple[float, float]:
        if isinstance(seat, int):
            spot = self.spots.get(f"seat:{seat}")
            if spot is not None:
                return spot
        return (float(self.panel_rect.centerx), float(self.panel_rect.y + 40))

    def _fly(
        self,
        kind: str,
        start: tuple[float, float] | None,
        end: tuple[float, float] | str,
        items: list[str],
        delay: float,
        tile: str = "",
        time: float = FLY_TIME,
        cover: bool = False,
    ) -> float:
        if start is None or (not items and not tile):
            return delay
        self.anims.append(
            Anim(
                kind,
                Tween((0.0,), (1.0,), time, ease_out_cubic, delay),
                start,
                end,
                items[:8],
                tile,
                self._drawn_radius(tile) if tile else 0.0,
                cover,
            )
        )
        return delay + STAGGER

    def _drawn_radius(self, tile: str) -> float:
        """The radius a tile was last drawn with (board or village), 0 if it is not drawn."""
        for hit in self._hits_season + self._all_village_hits():
            if hit.key == tile and hit.hex_r > 0 and hit.kind in ("tile", "hand", "boat"):
                return hit.hex_r
        return 0.0

    def _animate_event(self, ev: dict[str, Any], delay: float) -> float:
        kind = ev.get("type")
        seat = ev.get("seat")
        tile = str(ev.get("tile") or "")
        if kind in ("bid", "use"):
            n = num(ev.get("added"))
            colour = str(ev.get("colour"))
            target = f"bid:{tile}" if kind == "bid" else f"tile:{tile}"
            for src in as_list(ev.get("reclaimed")):
                delay = self._fly(
                    "keyples",
                    self._spot(f"chip:{src}:{seat}") or self._spot(f"bid:{src}"),
                    target,
                    [colour],
                    delay,
                )
            if n:
                delay = self._fly("keyples", self._seat_spot(seat), target, [colour] * n, delay)
        elif kind == "produce":
            res = as_dict(ev.get("resources"))
            items = [f"r:{k}" for k, v in res.items() for _ in range(min(12, num(v)))]
            start = self._spot(f"tile:{tile}")
            if start is not None:
                delay = self._fly(
                    "items", (start[0], start[1] - 40), f"tile:{tile}", items, delay, time=POP_TIME
                )
        elif kind == "move":
            delay = self._fly(
                "items",
                self._spot(f"tile:{ev.get('from')}"),
                f"tile:{ev.get('to')}",
                [f"r:{ev.get('resource')}"],
                delay,
                time=0.5,
            )
        elif kind == "upgrade":
            spot = self._spot(f"tile:{tile}")
            if spot is not None:
                self.anims.append(
                    Anim(
                        "flip", Tween((0.0,), (1.0,), 0.5, ease_in_out, delay), spot, spot, [], tile
                    )
                )
                delay += STAGGER
        elif kind == "pay":
            items = [str(c) for c in as_list(ev.get("keyples"))]
            delay = self._fly(
                "keyples", self._seat_spot(seat), self._spot("bag") or "bag", items, delay
            )
            skills = [f"s:{k}" for k in as_list(ev.get("skills"))]
            delay = self._fly("items", self._seat_spot(seat), "supply:skills", skills, delay)
        elif kind == "draw_keyples":
            n = num(ev.get("count"))
            delay = self._fly("keyples", self._spot("bag"), f"seat:{seat}", ["?"] * n, delay)
        elif kind == "gain_green":
            n = num(ev.get("count"))
            delay = self._fly(
                "keyples", self._spot("supply:green"), f"seat:{seat}", ["green"] * n, delay
            )
        elif kind == "draw_skills":
            n = num(ev.get("count"))
            delay = self._fly(
                "items", self._spot("supply:skills"), f"seat:{seat}", ["s:?"] * n, delay
            )
        elif kind == "season_end":
            first = len(self.anims)
            delay = self._animate_season_end(ev, delay)
            for a in self.anims[first:]:
                a.keep = True
        elif kind == "boat":
            boat = str(ev.get("boat") or "")
            if ev.get("tile"):
                delay = self._fly(
                    "tile", self._spot(f"tile:{boat}"), f"village:{seat}", [], delay, boat
                )
            else:
                keys = [str(c) for c in as_list(ev.get("keyples"))]
                skills = [f"s:{k}" for k in as_list(ev.get("skills"))]
                delay = self._fly(
                    "keyples", self._spot(f"tile:{boat}"), f"seat:{seat}", keys, delay
                )
                delay = self._fly(
                    "items", self._spot(f"tile:{boat}"), f"seat:{seat}", skills, delay
                )
        elif kind == "purple":
            delay = self._fly(
                "keyples", self._seat_spot(ev.get("from")), f"seat:{seat}", ["purple"], delay
            )
        elif kind == "placed":
            # every new tile goes from the row of won tiles into its village
            for entry in as_list(ev.get("tiles")):
                if isinstance(entry, list) and len(entry) >= 2:
                    tid = str(entry[1])
                    delay = self._fly(
                        "tile", self._spot(f"tile:{tid}"), f"tile:{tid}", [], delay, tid, cover=True
                    )
                    self.anims.append(
                        Anim(
                            "pop",
                            Tween((0.0,), (1.0,), POP_TIME, ease_out_back, delay + FLY_TIME),
                            (0.0, 0.0),
                            f"tile:{tid}",
                            [],
                            tid,
                        )
                    )
        elif kind in ("season", "winter_auction"):
            tiles = ev.get("auction") if kind == "season" else ev.get("tiles")
            for entry in as_list(tiles):
                tid = str(entry[0] if isinstance(entry, list) else entry)
                self.anims.append(
                    Anim(
                        "pop",
                        Tween((0.0,), (1.0,), POP_TIME, ease_out_back, delay),
                        (0.0, 0.0),
                        f"tile:{tid}",
                        [],
                        tid,
                    )
                )
                delay += STAGGER / 2
        return delay

    def _animate_season_end(self, ev: dict[str, Any], delay: float) -> float:
        """KF §8 steps 1–4 as they happen.  The board stays as it was, its bids taken off:
        losing bids fly home, winning bids to the bag.  Then the won tiles (with the keyples
        used on them, which go to the winner) fly from their places to the row of won tiles,
        each marked with its winner, and the new board shows."""
        prev_act: dict[str, dict[str, Any]] = {}
        for entry in self.prev.get("activity") or []:
            if isinstance(entry, dict) and isinstance(entry.get("tile"), str):
                prev_act[entry["tile"]] = entry
        first = delay
        for tid, entry in prev_act.items():
            leader = self._leader(entry)
            for bid in entry.get("bids") or []:
                if not (isinstance(bid, list) and len(bid) == 3):
                    continue
                seat, colour, n = int(bid[0]), str(bid[1]), int(bid[2])
                start = self._spot(f"chip:{tid}:{seat}") or self._spot(f"bid:{tid}")
                end: tuple[float, float] | str = (
                    f"seat:{seat}" if seat != leader else (self._spot("bag") or "bag")
                )
                self._fly("keyples", start, end, [colour] * min(n, 6), first)
            first += STAGGER / 2
        delay = max(delay, first) + FLY_TIME * 0.6
        held = self._paint_held_board()
        if held is not None:
            self.anims.append(
                Anim("hold", Tween((0.0,), (1.0,), delay, ease_in_out, 0.0), surface=held)
            )
        won = as_list(ev.get("won"))
        for seat, tiles in enumerate(won):
            if not isinstance(tiles, list):
                continue
            for tid in tiles:
                tid = str(tid)
                self._won_faces[tid] = self._prev_face(tid)
                # the keyples used on a won tile go to its winner (KF §8 step 3) ...
                used = [
                    str(u[1])
                    for u in as_list(prev_act.get(tid, {}).get("uses"))
                    if isinstance(u, list) and len(u) == 3
                    for _ in range(int(u[2]))
                ]
                self._fly("keyples", self._spot(f"tile:{tid}"), f"seat:{seat}", used, delay)
                # ... and the tile to the row of won tiles, marked with its winner
                delay = self._fly(
                    "tile",
                    self._spot(f"tile:{tid}"),
                    f"tile:{tid}",
                    [],
                    delay,
                    tid,
                    time=0.9,
                    cover=True,
                )
        return delay

    def _prev_face(self, tile: str) -> str:
        for a in self.prev.get("auction") or []:
            if isinstance(a, list) and len(a) >= 2 and a[0] == tile:
                return str(a[1])
        for a in self.prev.get("turn_order") or []:
            if isinstance(a, list) and len(a) >= 2 and a[0] == tile:
                return str(a[1])
        return "front"

    def animating(self) -> bool:
        return bool(self.anims)

    def finish_animations(self) -> None:
        self.anims.clear()

    def _resolve(self, end: tuple[float, float] | str) -> tuple[float, float]:
        if isinstance(end, str):
            spot = self.spots.get(end)
            if spot is None and end.startswith("village:"):
                spot = self.spots.get("seat:" + end.split(":", 1)[1])
            return (
                spot
                if spot is not None
                else (float(self.panel_rect.centerx), float(self.panel_rect.y))
            )
        return end

    def _landing_hit(self, tile: str, end: tuple[float, float]) -> Hit | None:
        """``tile`` as drawn now at ``end`` (None if it is drawn elsewhere)."""
        for hit in self._hits_season + self._all_village_hits():
            if (
                hit.key == tile
                and hit.hex_r > 0
                and abs(hit.centre[0] - end[0]) + abs(hit.centre[1] - end[1]) < 4
            ):
                return hit
        return None

    def _landing(self, tile: str, end: tuple[float, float]) -> float:
        hit = self._landing_hit(tile, end)
        return hit.hex_r if hit is not None else 0.0

    def _flying_tile(self, a: Anim, pos: tuple[float, float], r: float, surface: Any) -> None:
        if tile_def(a.tile) is None or r < 3:
            return
        sprite = self._tile_sprite(a.tile, self._won_faces.get(a.tile, "front"), 0, r)
        surface.blit(sprite, sprite.get_rect(center=(int(pos[0]), int(pos[1]))))

    def _draw_anims(self, surface: pygame.Surface) -> None:
        px = self.app.px
        # tiles on their way: their new places stay empty, the ones still waiting sit where
        # they were (while the old board is held, they are on it)
        holding = self._held_board() is not None
        for a in self.anims:
            if a.kind != "tile" or not a.cover or holding:
                continue
            end = self._resolve(a.end)
            if abs(a.start[0] - end[0]) + abs(a.start[1] - end[1]) < 4:
                continue
            hit = self._landing_hit(a.tile, end)
            if hit is not None:
                r1 = hit.hex_r
                pygame.draw.polygon(
                    surface, pal.BG_PANEL, art.hex_points(end[0], end[1], r1 * 1.05 + 3)
                )
                if hit.kind == "hand":  # and the winner's mark beside it in the row
                    mark = pygame.Rect(0, 0, px(18), px(18))
                    mark.center = (int(end[0] - r1 * 0.62), int(end[1] - r1 * 0.62))
                    pygame.draw.rect(surface, pal.BG_PANEL, mark)
            if not a.tween.started:
                self._flying_tile(a, a.start, a.r0 or px(24), surface)
        for a in self.anims:
            if not a.tween.started or a.kind == "hold":
                continue
            p = a.tween.value()[0]
            end = self._resolve(a.end)
            if a.kind == "pop":
                r = px(26) * max(0.05, p)
                td = tile_def(a.tile)
                if td is not None:
                    pygame.draw.polygon(
                        surface,
                        pal.HIGHLIGHT,
                        art.hex_points(end[0], end[1], r),
                        max(2, int(3 * (1 - a.tween.raw_progress)) + 1),
                    )
                continue
            if a.kind == "flip":
                x, y = end
                w = abs(math.cos(math.pi * a.tween.raw_progress))
                rect = pygame.Rect(0, 0, max(2, int(px(44) * w)), px(38))
                rect.center = (int(x), int(y))
                pygame.draw.rect(surface, art.GOLD, rect, 3, border_radius=px(6))
                continue
            if abs(a.start[0] - end[0]) + abs(a.start[1] - end[1]) < 4:
                continue  # already where it goes (your own placements, seen before)
            lift = px(60)
            if a.kind == "tile":  # a tile slides, with a little lift
                lift = min(px(16), int(0.1 * math.dist(a.start, end)))
            x, y = arc(a.start, end, p, lift)
            if a.kind == "tile":
                r0 = a.r0 or px(24)
                r1 = self._landing(a.tile, end) or px(24)
                # whole steps of 2 px: a handful of sprites per flight, from the cache
                self._flying_tile(a, (x, y), 2 * round((r0 + (r1 - r0) * p) / 2), surface)
                continue
            n = len(a.items)
            for i, item in enumerate(a.items):
                dx = (i - (n - 1) / 2) * px(9)
                pos = (x + dx, y)
                if a.kind == "keyples":
                    if item == "?":
                        art.draw_keyple(surface, pos, px(18), "purple", False, (230, 230, 230))
                    else:
                        art.draw_keyple(surface, pos, px(18), item, self._cb())
                elif item.startswith("r:"):
                    art.draw_resource(surface, pos, px(14), item[2:])
                elif item.startswith("s:"):
                    art.draw_skill(surface, pos, px(14), item[2:])
