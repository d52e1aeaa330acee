"""What the parts of the game scene share (``game.py``, ``handoff.py``, ``table_bar.py``,
``table_refusals.py``): the scene's fields, declared once with their types, and the few methods
one part calls in another.  :class:`~game.ui.scenes.game.GameScene` sets them all."""

from __future__ import annotations

from typing import Any

import pygame

from game.ui.client import TableClient
from game.ui.games.base import GameView, ViewButton
from game.ui.scene import Scene
from game.ui.widgets import Button


class TableBase(Scene):
    """The fields of a table in play (see the module docstring)."""

    client: TableClient
    view: GameView
    #: The local seat the table shows (``None``: a spectator's table).
    shown: int | None
    #: The seat the curtain was last lifted for (hot-seat).
    revealed: int | None
    _secret_trait: bool | None
    bar: pygame.Rect
    status_rect: pygame.Rect
    undo_button: Button
    restart_button: Button
    hint_button: Button
    help_button: Button
    menu_button: Button
    #: The view's own buttons (``GameView.buttons``), by id, and their widgets.
    view_specs: dict[str, ViewButton]
    view_buttons: list[Button]
    _view_key: tuple[tuple[str, str, str], ...]
    #: Why the shown seat may not take an action (the host's ``explanation``), per decision:
    #: asked actions with the ``seq`` they were asked at, and the answers (None: legal).
    _why_key: tuple[Any, ...]
    _why_asked: dict[tuple[Any, ...], int]
    _why: dict[tuple[Any, ...], dict[str, Any] | None]
    #: A refused click: where, which action, when (its reason shows at the pointer).
    refusal: tuple[tuple[int, int], tuple[Any, ...], float] | None

    def _refresh_view(self, force: bool = False) -> None:
        """Give the view the state message to draw (``game.py``)."""
        raise NotImplementedError

    def act(self, action: tuple[Any, ...]) -> None:
        """Send ``action`` for the shown seat when it is legal (``game.py``)."""
        raise NotImplementedError

    def _can_send(self) -> bool:
        """The shown seat may send an action now (``game.py``)."""
        raise NotImplementedError

    def _may_show(self, seat: int) -> bool:
        """Hot-seat: whether the table may act for ``seat`` (``handoff.py``)."""
        raise NotImplementedError
