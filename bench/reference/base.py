"""FROZEN for the reference bot (:mod:`bench.reference`): ``game/bots/base.py`` as it was at commit 1841520.  Do not improve it: it is the yardstick (issue 23).  Edit only to keep it importing.

Pieces every thinking bot shares: cancellation, turn boundaries, and plan caching.

**Cancellation.**  A bot's ``choose(state, seat, cancel=None)`` accepts any object with an
``is_set() -> bool`` method (a :class:`threading.Event`, a ``multiprocessing`` event); the bot
checks it inside its search loops and raises :class:`BotCancelled` once it is set.  A game that
is abandoned therefore never waits for a bot to finish thinking.

**Turns.**  A *turn* is what the contract's :meth:`~game.core.api.GameState.turn_id` says it
is: a seat's turn goes on while the seat is still to move *and* the turn id is the one the turn
started with.  A seat that moves again right after its own turn (Glen More's hindmost figure)
starts a new turn — with whatever the game drew in between, which a plan made before the draw
cannot know — so no plan ever runs across a turn boundary.  Bots plan whole turns and cache the
rest of the plan, keyed by the digest of what the seat will see after each planned action, so
the later decisions of a turn are instant.  A cached action is used only if it is legal again.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator
from typing import Protocol

from game.core.api import GameState
from game.core.types import Action, Seat
from game.core.wire import digest


class CancelToken(Protocol):
    """Anything that says whether to stop: a :class:`threading.Event` fits."""

    def is_set(self) -> bool: ...


class BotCancelled(Exception):
    """Raised by a bot's ``choose`` when its cancel token was set while it was thinking."""


def check_cancel(cancel: CancelToken | None) -> None:
    """Raise :class:`BotCancelled` if ``cancel`` is set."""
    if cancel is not None and cancel.is_set():
        raise BotCancelled("the bot's decision was cancelled")


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a bot thinks.

    A search allocates many short-lived copies of the state; with a large heap (the UI, caches)
    the collector's full passes then add pauses of tenths of a second to a decision.  Reference
    counting still frees everything the search drops; the collector resumes afterwards (if it
    was on), so memory use is unchanged once the decision is made.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def turn_continues(state: GameState, seat: Seat, turn: int) -> bool:
    """Whether ``seat``'s turn that began with turn id ``turn`` goes on in ``state``."""
    return not state.is_over() and state.turn_id() == turn and seat in state.to_move()


def apply_trusted(state: GameState, seat: Seat, action: Action) -> None:
    """Apply an action taken from ``state.legal_actions(seat)`` without checking it again.

    :meth:`GameState.apply_unchecked` is the contract's unchecked path; bots use it in their
    inner loops because every action they apply there came from the legal list of that very
    state.
    """
    state.apply_unchecked(seat, action)


def view_key(state: GameState, seat: Seat) -> str:
    """A digest of everything ``seat`` sees in ``state`` (the key of a cached plan)."""
    return digest(state.view(seat))


class PlanCache:
    """The rest of a planned turn, keyed by the view the seat will have before each step."""

    def __init__(self) -> None:
        self._steps: dict[str, Action] = {}

    def clear(self) -> None:
        self._steps.clear()

    def store(self, world: GameState, seat: Seat, plan: tuple[Action, ...]) -> None:
        """Remember ``plan[1:]``: replay ``plan`` on a copy of ``world`` and key each step.

        ``world`` is the (determinized) state in which ``plan[0]`` is about to be played.  The
        steps after the first are stored under the view the seat will have when they are due.
        """
        self._steps.clear()
        if len(plan) < 2:
            return
        copy = world.clone()
        turn = copy.turn_id()
        for i, action in enumerate(plan[:-1]):
            apply_trusted(copy, seat, action)
            if not turn_continues(copy, seat, turn):
                return
            self._steps[view_key(copy, seat)] = plan[i + 1]

    def next_action(self, state: GameState, seat: Seat, legal: list[Action]) -> Action | None:
        """The cached action for this exact view, if there is one and it is legal."""
        if not self._steps:
            return None
        action = self._steps.pop(view_key(state, seat), None)
        if action is None or action not in legal:
            self._steps.clear()
            return None
        return action
