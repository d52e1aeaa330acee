"""Glen More: the rules engine (pure Python; see ``docs/glen-more.md``).

``GAME`` is the :class:`~game.core.api.Game` registered as ``"glen-more"``; its states are
:class:`~game.glen_more.state.GlenMoreState`.
"""

from game.glen_more.game import GAME, GlenMoreGame
from game.glen_more.state import GlenMoreState

__all__ = ["GAME", "GlenMoreGame", "GlenMoreState"]
