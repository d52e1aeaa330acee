"""The Keyflower table: the season board over the villages, the players and your screen, and
every animation of a season.

Drawn from the view dict only (``docs/keyflower.md``, "View"): ``season``, ``phase``,
``supply``, ``auction``, ``turn_order``, ``activity`` (each tile's lock colour, bids and uses),
``boats``, ``pending`` (the current seat's half-built turn), each seat's ``village``,
``keyple_count`` / ``known_keyples``, ``skill_count``, ``purple``, ``winter_hand``, ``won``,
``done`` and — for the viewing seat — its screen (``keyples``, ``skills``, ``winter_hand``,
``placed``), the banked ``scores``, the ``preview`` and, at the end, ``final`` (the engine's
scoring details).  The box's static tile data (names, edges, both sides, costs) comes from the
engine's data file.  What a click does comes only from the seat's ``legal`` list (see
:mod:`.input`).

**The structure** (that of the Kingdom Builder view; each section's mixin may use the sections
listed above it):

========================  ===============================================================
``common``                constants, tile data helpers, :class:`KFBase` (state, helpers)
``text``                  names, effects written out, the status line, log lines
``input``                 clicks, keys, the action box's options -> one legal action
``scoring``               the end-of-game sequence and what it focuses on
``board``                 the season board and the animations
``village``               the villages: tiles, resources, targets, the placement ghost
``panel``                 the players, your screen, the action box, the scoring box
``view``                  :class:`KeyflowerView`: layout, the view dict in, buttons, hover
``help``                  the help overlay's pages
``art``                   tiles, keyples, resources, skill tiles drawn in code (cached)
========================  ===============================================================

This package exports what the client asks of every game view module: ``VIEW``, ``help_pages``
and ``option_value_label``.
"""

from game.ui.games.keyflower.help import help_pages
from game.ui.games.keyflower.text import option_value_label, tile_name, tile_text
from game.ui.games.keyflower.view import KeyflowerView

VIEW = KeyflowerView

__all__ = ["VIEW", "KeyflowerView", "help_pages", "option_value_label", "tile_name", "tile_text"]
