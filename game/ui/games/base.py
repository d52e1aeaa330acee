"""The interface between the game scene and one game's table drawing.

The game scene owns everything common to all games — the connection, the top bar with its
buttons (undo, end turn, help, menu), the log, the hot-seat curtain, the results — and hands a
:class:`GameView` the rest: the board and the side panel.  The view

* draws what the latest ``view`` dict shows (it never looks at a game state);
* highlights exactly the actions in ``legal`` (the seat's legal actions as sent by the host) and
  turns a click into one of them — or into nothing;
* turns events into animations and log lines;
* runs the end-of-game scoring sequence before the results.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import pygame

from game.ui import palette as pal

if TYPE_CHECKING:
    from game.ui.app import App

Action = tuple[Any, ...]


@dataclass
class SeatInfo:
    """How the client shows a seat: its name, the host's colour name, who sits there (``kind``:
    human, bot or open, as in the lobby) and whether it is played on this computer."""

    seat: int
    name: str
    colour: str
    kind: str = "human"
    local: bool = False
    #: False while a human seat's player is away (disconnected); bots are always there.
    connected: bool = True

    def rgb(self, colour_blind: bool) -> pal.RGB:
        return pal.seat_colour(self.colour, colour_blind)

    def swatch(self, size: int, colour_blind: bool) -> pygame.Surface:
        return pal.seat_swatch(self.colour, self.seat, size, colour_blind)


@dataclass
class LogLine:
    """One line of the game log: who (for the colour) and what."""

    seat: int | None
    text: str
    #: A chat line (drawn in another colour), not something that happened in the game.
    chat: bool = False


class GameView:
    """Draws one game's table; subclasses implement every method that raises."""

    game_id: ClassVar[str] = ""
    #: Whether seats hold secrets (hot-seat then needs a curtain between human seats).
    has_secrets: ClassVar[bool] = True

    def __init__(self, app: App, seats: list[SeatInfo]) -> None:
        self.app = app
        self.seats = seats
        self.view: dict[str, Any] = {}
        self.legal: list[Action] = []
        self.board_rect = pygame.Rect(0, 0, 0, 0)
        self.panel_rect = pygame.Rect(0, 0, 0, 0)
        #: Whether the shown seat's secrets may be drawn and logged.  The game scene turns it
        #: off in hot-seat games while the shown seat is not the one to move (someone else may
        #: be looking at the screen).
        self.show_private = True
        #: The action a hint suggests (the host's normal bot), shown until the position changes.
        self.hint: Action | None = None

    # ---- layout and state ------------------------------------------------------------------
    def layout(self, board: pygame.Rect, panel: pygame.Rect) -> None:
        self.board_rect = pygame.Rect(board)
        self.panel_rect = pygame.Rect(panel)

    def set_seats(self, seats: list[SeatInfo]) -> None:
        """The seats' names, colours, kinds or connections changed (from the lobby)."""
        self.seats = seats

    def set_view(
        self, view: dict[str, Any], legal: list[Action], events: list[dict[str, Any]]
    ) -> None:
        """A new authoritative view (and the legal actions of the seat shown) arrived.

        ``events`` are what happened since the previous view; they start animations.
        """
        raise NotImplementedError

    def update(self, dt: float) -> None:
        """Advance animations by ``dt`` seconds (already scaled by the animation speed)."""

    def animating(self) -> bool:
        return False

    def finish_animations(self) -> None:
        """Jump every running animation to its end."""

    def draw(self, surface: pygame.Surface) -> None:
        raise NotImplementedError

    # ---- input -----------------------------------------------------------------------------
    def click(self, pos: tuple[int, int]) -> Action | None:
        """The legal action a click at ``pos`` chooses, or None."""
        raise NotImplementedError

    def set_hint(self, action: Action | None) -> None:
        """Show (or, with None, stop showing) the action a hint suggests; it is one of the
        ``legal`` actions (the game scene checks)."""
        self.hint = action

    def hover(self, pos: tuple[int, int]) -> str:
        """What a click at ``pos`` would do (a tooltip), or ""."""
        return ""

    def key(self, event: pygame.event.Event) -> Action | None:
        """A game-specific key that chooses an action (none by default)."""
        return None

    # ---- words -----------------------------------------------------------------------------
    def status(self) -> str:
        """One line for the top bar: whose turn and what to do."""
        raise NotImplementedError

    def end_action(self) -> Action | None:
        """The "end turn" action when it is legal (Enter/Space and the End turn button)."""
        return ("end",) if ("end",) in self.legal else None

    def extra_actions(self) -> list[tuple[Action, str]]:
        """Other legal actions that are not on the board (e.g. "stop"), with button labels."""
        return []

    def describe_event(self, event: dict[str, Any]) -> LogLine | None:
        """A log line for ``event`` (None for events not worth a line)."""
        return None

    def describe_action(self, action: Action) -> str:
        return " ".join(str(a) for a in action)

    # ---- the end ---------------------------------------------------------------------------
    def score_categories(self) -> list[tuple[str, str]]:
        """(score key, shown name) for each scoring category, in scoring order."""
        raise NotImplementedError

    def start_scoring(self) -> None:
        """Begin the end-of-game scoring sequence (category by category)."""

    def scoring_done(self) -> bool:
        return True

    def skip_scoring(self, everything: bool) -> None:
        """Hurry the end-of-game sequence: to its next step, or (``everything``) to its end."""

    def mouse_moved(self, pos: tuple[int, int]) -> None:
        """The mouse moved to ``pos`` (hover effects)."""

    def names(self) -> list[str]:
        return [s.name for s in self.seats]
