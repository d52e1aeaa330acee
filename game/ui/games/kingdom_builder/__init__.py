"""The Kingdom Builder table: the 2x2 map, the players, the cards, and every animation.

Drawn from the view dict only (``docs/kingdom-builder.md``, "View"): ``board`` (20 strings of
terrain codes), ``castles``, ``locations`` (with tiles left), ``walls``, each seat's
``settlements`` and ``tiles``, the three ``cards``, the ``turn`` (terrain card, placements,
pending tile action), the banked ``scores`` and the ``preview``.  What a click does comes only
from the seat's ``legal`` list:

* ``("place", r, c)`` / ``("move_from", r, c)`` / ``("wall", r, c)`` — a highlighted hex;
* ``("use", lr, lc)`` — one of the seat's tile buttons (or the location hex it came from);
* ``("stop",)`` and ``("end",)`` — the view's buttons "Stop" and "End turn" in the top bar.

The static layer (terrain, castles, locations, section borders) is drawn once per layout into
one surface; each frame blits it and draws only settlements, walls, highlights and animations.

**The template of a game view.**  One class, split along its sections, one module each:

========================  ===============================================================
``common``                constants, geometry helpers, :class:`KBBase` (state, shared helpers)
``text``                  names, the status line, hover texts, log lines
``input``                 clicks, keys, hover → one legal action or nothing
``scoring``               the end-of-game sequence and what it marks on the map
``board``                 the map: static layer, pieces, highlights, animations
``panel``                 the side panel
``view``                  :class:`KingdomBuilderView`: layout, the view dict in, buttons, draw
``help``                  the help overlay's pages
``art``                   sprites drawn in code (cached per size)
========================  ===============================================================

Each section's mixin may use the sections listed above it.  This package exports what the
client asks of every game view module: ``VIEW``, ``help_pages`` and ``option_value_label``.
"""

from game.ui.games.kingdom_builder.common import CARD_NAMES, LOCATION_TYPES, TERRAINS
from game.ui.games.kingdom_builder.help import help_pages
from game.ui.games.kingdom_builder.scoring import GOLD
from game.ui.games.kingdom_builder.text import (
    fit_options,
    option_value_label,
    terrain_name,
    tile_name,
)
from game.ui.games.kingdom_builder.view import KingdomBuilderView

VIEW = KingdomBuilderView

__all__ = [
    "CARD_NAMES",
    "GOLD",
    "LOCATION_TYPES",
    "TERRAINS",
    "VIEW",
    "KingdomBuilderView",
    "fit_options",
    "help_pages",
    "option_value_label",
    "terrain_name",
    "tile_name",
]
