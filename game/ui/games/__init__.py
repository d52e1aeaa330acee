"""Per-game table views, chosen by game id.

Each game the client can show has a module (or package) here whose ``VIEW`` is a
:class:`~game.ui.games.base.GameView` subclass; the game scene, the replay viewer and the
screenshot command look it up with :func:`view_class`.  Keyflower and Glen More plug in by adding
their module to :data:`VIEWS`.  Every other game — one this client has no view for yet, the
framework's test game — is played with the game-neutral :mod:`game.ui.games.generic` view.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from game.ui.i18n import t

if TYPE_CHECKING:
    from game.ui.games.base import GameView

#: Game id -> module defining ``VIEW``.
VIEWS: dict[str, str] = {
    "kingdom-builder": "game.ui.games.kingdom_builder",
    "keyflower": "game.ui.games.keyflower",
    "glen-more": "game.ui.games.glen_more",
}
#: The view of every game not in :data:`VIEWS`.
GENERIC = "game.ui.games.generic"


class NoView(LookupError):
    """A game this client has no view of its own for (only with ``generic=False``)."""


def view_class(game_id: str, generic: bool = True) -> type[GameView]:
    """The view class of ``game_id``: its own, else (``generic``) the game-neutral view."""
    module = VIEWS.get(game_id)
    if module is None:
        if not generic:
            raise NoView(t("error.no_view", game=game_id))
        module = GENERIC
    cls: type[GameView] = importlib.import_module(module).VIEW
    return cls


def seat_colours(game_id: str) -> tuple[str, ...]:
    """The seat colours ``game_id``'s seats are offered: none its pieces wear
    (``GameView.PIECE_COLOURS``, ``palette.seat_colours_for``)."""
    from game.ui import palette

    return palette.seat_colours_for(view_class(game_id).PIECE_COLOURS)


def help_pages(game_id: str) -> list[tuple[Callable[[], str], Callable[[], list[tuple[str, ...]]]]]:
    """The help overlay's pages for ``game_id`` (rules, tiles, cards; for a game shown by the
    generic view, how that table works)."""
    module = VIEWS.get(game_id, GENERIC)
    pages: list[tuple[Callable[[], str], Callable[[], list[tuple[str, ...]]]]] = (
        importlib.import_module(module).help_pages()
    )
    return pages


def value_label(game_id: str, option: str, value: object) -> str:
    """How the setup screen names a value of a game option (section, card, ...)."""
    module = VIEWS.get(game_id)
    if module is not None:
        fn = getattr(importlib.import_module(module), "option_value_label", None)
        if fn is not None:
            label: str = fn(option, value)
            return label
    return str(value)


def fit_options(game_id: str, players: int, options: dict[str, object]) -> dict[str, object]:
    """``options`` made to fit ``players`` seats, as the game's view module says (its optional
    ``fit_options``: Kingdom Builder's fifth player brings the Nomads expansion) — what the setup
    screen shows when the number of players changes; unchanged for other games."""
    module = VIEWS.get(game_id)
    if module is not None:
        fn = getattr(importlib.import_module(module), "fit_options", None)
        if fn is not None:
            fitted: dict[str, object] = fn(players, dict(options))
            return fitted
    return dict(options)
