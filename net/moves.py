"""What each seat learns of the last action: the ``last_action`` field, per seat.

Rule 11 of the contract (``docs/architecture.md``): nothing a seat receives holds what its view
hides.  The record of an action is built for each receiver from what that receiver saw of it:

* the seat that acted gets the whole record: ``{seat, action, text}``;
* so does a seat that saw every event of the action as it happened — ``visible_events`` left
  none out and changed none (a private draw, a private choice, is seen by the seats it names);
* a commitment of a simultaneous phase (several seats were to move and the turn goes on) is its
  maker's alone until the phase resolves, whatever events the game made for it (rule 3): a game
  that forgot an ``"only"`` mark does not leak through the record;
* everyone else, spectators too, learns that the seat moved: ``action`` is ``None`` and
  ``text`` is :data:`HIDDEN_MOVE`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game.core.api import GameState
from game.core.match import Replay
from game.core.types import Action, Event, Seat
from game.core.wire import to_plain

#: The text of the record of an action a seat may not see.
HIDDEN_MOVE = "a move that stays hidden for now"


@dataclass(frozen=True)
class Move:
    """An applied action with what decides who may read it: its events (with their ``"only"``
    marks) and whether it was a commitment of a simultaneous phase that has not resolved.  The
    two records a seat may get are built once (a host sends one per seat and position, and
    encodes it at once: treat them as read-only)."""

    seat: Seat
    action: Action
    text: str
    events: tuple[Event, ...]
    commitment: bool
    #: Every seat may read it: no private event, not a commitment.
    public: bool
    whole: dict[str, Any]
    hidden: dict[str, Any]


def move_of(
    state: GameState, seat: Seat, action: Action, events: list[Event], together: int | None
) -> Move:
    """The :class:`Move` of ``action`` just applied to ``state`` (which gave ``events``);
    ``together`` is the turn it was made in when several seats were to move (else ``None``):
    a commitment of a simultaneous phase if that turn goes on."""
    commitment = together is not None and state.turn_id() == together
    text = state.describe(action)
    public = not commitment and not any("only" in ev for ev in events)
    whole = {"seat": seat, "action": to_plain(list(action)), "text": text}
    hidden = {"seat": seat, "action": None, "text": HIDDEN_MOVE}
    return Move(seat, tuple(action), text, tuple(events), commitment, public, whole, hidden)


def last_move_of(replay: Replay) -> Move:
    """The last action of a saved game as a :class:`Move` (its position replayed once more)."""
    state = replay.state_at(len(replay.actions) - 1)
    seat, action = replay.actions[-1]
    turn, movers = state.turn_id(), len(state.to_move())
    events = state.apply(seat, action)
    return move_of(state, seat, action, events, turn if movers > 1 else None)


def record_for(move: Move | None, seat: Seat | None, state: GameState) -> dict[str, Any] | None:
    """``{seat, action, text}`` of ``move`` as ``seat`` (``None``: a spectator) may know it
    (see the module docstring); ``state`` judges which events ``seat`` sees.  The record is
    shared by every message that carries it (read-only)."""
    if move is None:
        return None
    if move.public or seat == move.seat:
        return move.whole
    if not move.commitment and sees_all(state, seat, move.events):
        return move.whole
    return move.hidden


def sees_all(state: GameState, seat: Seat | None, events: tuple[Event, ...]) -> bool:
    """Whether ``seat`` sees every one of ``events`` as it happened."""
    if not any("only" in ev for ev in events):
        return True
    whole = [{k: v for k, v in ev.items() if k != "only"} for ev in events]
    return state.visible_events(list(events), seat) == whole
