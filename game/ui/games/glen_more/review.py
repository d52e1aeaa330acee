"""Where a Glen More turn's actions are on the table (the game review's rings).

The track space a tile was taken from (or discarded at) and the territory cell it was placed
on, and a clan member's move; activations, payments and trades are the consequences of these
and get no ring of their own.
"""

from __future__ import annotations

from typing import Any

from game.ui.games.base import GameView
from game.ui.review.marks import Mark


def marks(view: GameView, actions: list[tuple[Any, ...]]) -> list[Mark]:
    """The track spaces and cells ``actions`` chose, in order, as ``view`` last drew them."""
    slots = getattr(view, "slot_rects", {})
    grid = getattr(view, "big_grid", None)
    found: list[Mark] = []
    for action in actions:
        kind = action[0]
        try:
            if kind in ("take", "discard") and len(action) == 2:
                rect = slots.get(int(action[1]))
                if rect is not None:
                    found.append(Mark.box(rect))
            elif kind == "place" and len(action) >= 3 and grid is not None:
                found.append(Mark.box(grid.rect(int(action[1]), int(action[2]))))
            elif kind == "move" and len(action) == 5 and grid is not None:
                found.append(Mark.box(grid.rect(int(action[3]), int(action[4]))))
        except (TypeError, ValueError):
            continue
    return found
