"""Asking for the player's attention when it becomes their turn and the window is not in front.

:meth:`Attention.your_turn` — called by the table when the shown seat's turn begins — does
nothing while the window has the keyboard focus.  Otherwise the window's title says "Your
turn" (in the player's language) and the window flashes where the system can
(``pygame.Window.flash(FLASH_UNTIL_FOCUSED)``: a blinking task bar entry, a bouncing dock icon;
nothing where it cannot).  When the window gets the focus back the title is the usual one and
the flash stops.  Nothing here ever fails: a system without these features just does not show
them.
"""

from __future__ import annotations

import contextlib
import warnings
from typing import Any

import pygame

from game.ui.i18n import t


def _window() -> Any:
    """The pygame-ce window of the display module (None when there is none)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            return pygame.Window.from_display_module()
    except (AttributeError, pygame.error):
        return None


class Attention:
    """The window's title and flash (see the module docstring)."""

    def __init__(self) -> None:
        #: The window asks for attention now (title "Your turn", flashing).
        self.asking = False
        #: How many times it asked (tests read it).
        self.asked = 0

    @staticmethod
    def focused() -> bool:
        """Whether the window has the keyboard focus (in front)."""
        try:
            return bool(pygame.key.get_focused())
        except pygame.error:
            return True

    def title(self) -> str:
        """The title the window should have now."""
        if self.asking:
            return t("attention.your_turn_title", title=t("app.title"))
        return t("app.title")

    def show_title(self) -> None:
        with contextlib.suppress(pygame.error):
            pygame.display.set_caption(self.title())

    def your_turn(self) -> bool:
        """It became the player's turn: ask for attention if the window is not in front.
        True when it asked."""
        if self.focused():
            return False
        self.asking = True
        self.asked += 1
        self.show_title()
        window = _window()
        if window is not None:
            with contextlib.suppress(pygame.error, AttributeError):
                window.flash(pygame.FLASH_UNTIL_FOCUSED)
        return True

    def focus_gained(self) -> None:
        """The window is in front again: the usual title, no flash."""
        if not self.asking:
            return
        self.asking = False
        self.show_title()
        window = _window()
        if window is not None:
            with contextlib.suppress(pygame.error, AttributeError):
                window.flash(pygame.FLASH_CANCEL)
