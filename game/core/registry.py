"""Games by id.

Each entry names the module that defines the game's :class:`~game.core.api.Game` object as
``GAME``; the module is imported on first use, so listing games stays cheap.  Keyflower
(``keyflower``) and Glen More (``glen-more``) join this table when their engines land; until
then :func:`get_game` says so clearly instead of failing on an import.
"""

from __future__ import annotations

import importlib

from game.core.api import Game
from game.core.types import GameError

_MODULES: dict[str, str] = {
    "kingdom-builder": "game.kingdom_builder",
}

#: Ids reserved for games whose engines are planned but not yet part of this build.
PLANNED: dict[str, str] = {
    "keyflower": "Keyflower",
    "glen-more": "Glen More",
}

_cache: dict[str, Game] = {}


class UnknownGame(GameError):
    """A game id that is not in the registry."""


def game_ids() -> list[str]:
    """Ids of every playable game, in menu order."""
    return list(_MODULES)


def get_game(game_id: str) -> Game:
    """The :class:`Game` registered as ``game_id``."""
    game = _cache.get(game_id)
    if game is not None:
        return game
    module_name = _MODULES.get(game_id)
    if module_name is None:
        if game_id in PLANNED:
            raise UnknownGame(f"{PLANNED[game_id]} ({game_id}) is not playable in this version yet")
        known = ", ".join(game_ids())
        raise UnknownGame(f"unknown game {game_id!r}; known games: {known}")
    game = importlib.import_module(module_name).GAME
    if not isinstance(game, Game) or game.id != game_id:
        raise UnknownGame(f"{module_name}.GAME is not the Game {game_id!r}")
    _cache[game_id] = game
    return game


def all_games() -> list[Game]:
    """Every playable game."""
    return [get_game(g) for g in game_ids()]
