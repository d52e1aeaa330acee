"""The Glen More table: the track (rondel) with the market inside it, every player's territory
(the shown seat's large, the others compact), the step box, and every animation.

Drawn from the view dict only (``docs/glen-more.md``, "View"): the ``track`` (tiles, figures,
the die figure, the ``empty`` head), the ``market`` rows, ``stacks`` and ``removed``, each
seat's ``tiles`` (cubes, clan members), coins, whisky, chieftains, bonnets and cards, the
``pending`` decision (the taken tile, the payment due, the options, the tiles still to
activate, movement points), the scoring ``rounds`` and ``final`` record, ``scores`` and
``preview``.  Tile names, costs, edges and effects are the tile data the engine plays with
(``game.glen_more.tiles.catalogue``).  What a click does comes only from the seat's ``legal``
list:

* ``("take", slot)`` / ``("discard", slot)`` — a highlighted tile on the track;
* ``("pay", r, c, res)`` — a ringed cube on the territory; ``("pay_clan", r, c)`` — a ringed
  clan member;
* ``("buy", res)`` / ``("sell", r, c, res)`` — a market row's Buy / Sell (then, for a sale from
  one of several tiles, the tile), shown with its price until Confirm (Enter);
* ``("place", r, c)`` — a legal spot (the taken tile's ghost);
* ``("activate", r, c)`` / ``("loch_ness", r, c)`` — a lit tile (Loch Ness first with L);
* ``("option", i)`` / ``("resource", res)`` — a button of the choice panel (keys 1-9);
* ``("move", r1, c1, r2, c2)`` — a clan member, then a tile next to it;
  ``("chieftain", r, c)`` — the chosen clan member, then Chieftain (C);
* ``("done",)`` / ``("end",)`` — the view's buttons Done and End turn (Enter).

**The package** copies the Kingdom Builder view's layout:

========================  ===============================================================
``common``                tile data, constants, the legal list indexed, :class:`GMBase`
``text``                  names, costs, effects, the status line, log lines
``input``                 clicks, keys, hover → one legal action, a step, or nothing
``scoring``               the scoring rounds and the end of the game, category by category
``track``                 the rondel, the market, the stacks
``territory``             the territories (big and compact), legal targets, animations
``panel``                 the step box, the header, the other players' boxes
``view``                  :class:`GlenMoreView`: layout, the view dict in, buttons, draw
``help``                  the help overlay's pages
``art``                   tiles, cubes, pieces drawn in code (cached per size)
========================  ===============================================================

This package exports what the client asks of every game view module: ``VIEW``,
``help_pages`` and ``option_value_label``.
"""

from game.ui.games.glen_more.common import TILE_SLUGS, TILES
from game.ui.games.glen_more.help import help_pages
from game.ui.games.glen_more.text import option_value_label, tile_name
from game.ui.games.glen_more.view import GlenMoreView

VIEW = GlenMoreView

__all__ = [
    "TILES",
    "TILE_SLUGS",
    "VIEW",
    "GlenMoreView",
    "help_pages",
    "option_value_label",
    "tile_name",
]
