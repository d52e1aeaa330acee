"""Where a Keyflower turn's actions are on the table (the game review's rings).

A tile a turn bid on, used, upgraded, moved goods from or to, or reclaimed a bid from — ringed
where the table shows it (in the season's row or in a village) — and the village hex a tile
was put on; the winter tiles put up.  Payments and counts (which keyples, how many) are steps
of the same choice and get no ring of their own.
"""

from __future__ import annotations

from typing import Any

from game.ui.games.base import GameView
from game.ui.games.keyflower import art
from game.ui.review.marks import Mark

#: Actions whose second field is the tile they are about.
TILE_ACTIONS = ("reclaim", "bid_tile", "bid", "use_tile", "use", "move", "move_to", "upgrade")
#: Where on the table a tile is looked for, most telling first.
ZONES = ("tile", "bid", "hand", "boat")


def marks(view: GameView, actions: list[tuple[Any, ...]]) -> list[Mark]:
    """The tiles and hexes ``actions`` chose, in order, as ``view`` last drew them."""
    hits = list(getattr(view, "_hits_season", [])) + list(
        getattr(view, "_all_village_hits", lambda: [])()
    )
    found: list[Mark] = []
    seen: set[Any] = set()
    for action in actions:
        kind = action[0]
        if kind == "place" and len(action) == 5:
            grid = getattr(view, "big_grid", None)
            if grid is not None:
                cx, cy = grid.centre(int(action[2]), int(action[3]))
                found.append(Mark.poly(art.hex_points(cx, cy, grid.size)))
            continue
        if kind == "winter_tiles":
            tiles = list(action[1:])
        elif kind in TILE_ACTIONS and len(action) > 1:
            tiles = [action[1]]
        else:
            continue
        for tile in tiles:
            if tile in seen:
                continue  # a bid in several steps, a use and its payment: one ring
            hit = _hit_of(hits, tile)
            if hit is None:
                continue
            seen.add(tile)
            if hit.hex_r > 0:
                found.append(Mark.poly(art.hex_points(hit.centre[0], hit.centre[1], hit.hex_r)))
            else:
                found.append(Mark.box(hit.rect))
    return found


def _hit_of(hits: list[Any], tile: Any) -> Any:
    for zone in ZONES:
        for hit in hits:
            key = hit.key[0] if isinstance(hit.key, tuple) else hit.key
            if key == tile and hit.kind == zone:
                return hit
    return None
