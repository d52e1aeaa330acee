"""Kingdom Builder: the rules engine (pure Python; see ``docs/kingdom-builder.md``).

``GAME`` is the :class:`~game.core.api.Game` registered as ``"kingdom-builder"``; its states are
:class:`~game.kingdom_builder.state.KingdomBuilderState`.
"""

from game.kingdom_builder.game import GAME, KingdomBuilderGame
from game.kingdom_builder.state import KingdomBuilderState

__all__ = ["GAME", "KingdomBuilderGame", "KingdomBuilderState"]
