"""Keyflower: the rules engine (pure Python; see ``docs/keyflower.md``).

``GAME`` is the :class:`~game.core.api.Game` registered as ``"keyflower"``; its states are
:class:`~game.keyflower.state.KeyflowerState`.
"""

from game.keyflower.game import GAME, KeyflowerGame
from game.keyflower.state import KeyflowerState

__all__ = ["GAME", "KeyflowerGame", "KeyflowerState"]
