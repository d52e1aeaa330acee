"""Games by id.

Each entry names the module that defines the game's :class:`~game.core.api.Game` object as
``GAME``; the module is imported on first use, so listing games stays cheap.  Games planned but
not yet playable are listed in :data:`PLANNED`, so :func:`get_game` says so clearly instead of
failing on an import.

Tests and new games add entries with :func:`register` (and take them away with
:func:`unregister`); nothing outside this module touches its tables.
"""

from __future__ import annotations

import importlib

from game.core.api import Game
from game.core.types import GameError

_MODULES: dict[str, str] = {
    "kingdom-builder": "game.kingdom_builder",
    "keyflower": "game.keyflower",
    "glen-more": "game.glen_more",
}

#: Ids reserved for games whose engines are planned but not yet part of this build.
PLANNED: dict[str, str] = {}

#: Ids registered by :func:`register` that stay out of menus (test games).
_HIDDEN: set[str] = set()

_cache: dict[str, Game] = {}


class UnknownGame(GameError):
    """A game id that is not in the registry."""


def register(game_id: str, module: str, *, listed: bool = True) -> None:
    """Register the game ``game_id`` whose ``GAME`` lives in the module named ``module``.

    ``listed=False`` keeps it out of :func:`game_ids` (menus, "every game" loops of the tools)
    while :func:`get_game` still finds it — for test games.  The conformance kit
    (``tests/conformance``) runs over :func:`registered_ids`, listed or not.
    """
    _MODULES[game_id] = module
    _cache.pop(game_id, None)
    if listed:
        PLANNED.pop(game_id, None)
        _HIDDEN.discard(game_id)
    else:
        _HIDDEN.add(game_id)


def unregister(game_id: str) -> None:
    """Forget a game registered with :func:`register` (tests clean up with this)."""
    _MODULES.pop(game_id, None)
    _HIDDEN.discard(game_id)
    _cache.pop(game_id, None)


def module_of(game_id: str) -> str | None:
    """The module name registered for ``game_id`` (``None`` if there is none)."""
    return _MODULES.get(game_id)


def game_ids() -> list[str]:
    """Ids of every playable game, in menu order (test games left out)."""
    return [g for g in _MODULES if g not in _HIDDEN]


def registered_ids() -> list[str]:
    """Ids of every registered game, test games included."""
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
