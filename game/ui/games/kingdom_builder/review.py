"""Where a Kingdom Builder turn's actions are on the map (the game review's rings).

Every hex a turn chose: a settlement built or moved (``place``, ``move_from``), a wall, a
settlement removed, and the location a tile action was used from (``use``).
"""

from __future__ import annotations

from typing import Any

from game.ui.games.base import GameView
from game.ui.games.kingdom_builder.common import BOARD_ACTIONS
from game.ui.review.marks import Mark


def marks(view: GameView, actions: list[tuple[Any, ...]]) -> list[Mark]:
    """The hexes ``actions`` chose, in order, on the map as ``view`` last drew it."""
    hexes = getattr(view, "hexes", None)
    if hexes is None:
        return []
    found: list[Mark] = []
    for action in actions:
        if (action[0] in BOARD_ACTIONS or action[0] == "use") and len(action) == 3:
            try:
                found.append(Mark.poly(hexes.corners(int(action[1]), int(action[2]))))
            except (TypeError, ValueError):
                continue
    return found
