"""The engine contract: what every game of Lantern Table implements.

A game is two objects:

* a :class:`Game` — the rules' description and factory (id, player counts, options,
  ``new(players, options, seed)``, ``from_dict``), registered by id in
  :mod:`game.core.registry`;
* a :class:`GameState` — one position of one game, *mutable* for speed (bots clone it and apply
  thousands of actions), holding everything including its own :class:`~game.core.rng.Rng`.

The life of a state::

    state = get_game("kingdom-builder").new(players=4, options={}, seed=7)
    while not state.is_over():
        seat = state.to_move()[0]
        action = pick(state.legal_actions(seat))
        events = state.apply(seat, action)          # raises IllegalAction, state untouched
    state.scores(), state.winners()

**Who acts.** :meth:`GameState.to_move` returns the seats that may act *now*.  Usually that is
one seat.  Games with choices several players make at once (Keyflower's winter tiles and
village placement, its final-scoring assignment) return several seats; each of them submits
actions independently and the state keeps what was chosen hidden until all have committed.
Kingdom Builder always has exactly one seat to move.

**Turns.** :meth:`GameState.turn_id` names the current *turn*: one seat's run of decisions in
sequential play, or a whole simultaneous phase (every seat's commitments until they are
resolved).  It changes exactly when a turn ends — also when the same seat moves again next, as on
Glen More's track — and never inside a turn.  Bots plan "until my turn ends", the host's undo
stays inside the current turn, and the client marks whose turn it is, all from this one number
instead of guessing from :meth:`GameState.to_move`.

**Automatic steps** (Glen More's neutral die figure, Keyflower's end-of-season bookkeeping, Kingdom
Builder's card draw) resolve inside :meth:`GameState.apply` of the action that triggers them;
``to_move()`` never names a seat that has nothing to decide, and it is empty only when the game is
over.

**Multi-step turns** (Kingdom Builder's tile actions, Keyflower's bids and transport, Glen More's
payment and activations in a chosen order) are sequences of small actions: the state keeps a
pending decision and ``legal_actions`` lists only what may come next.  Every legal action can
be completed, so a player can never walk into a dead end.  A large choice is built one field at
a time (``docs/architecture.md``, "Large choices step by step"), so a legal list stays within a
few hundred entries.

**Scores.** :meth:`GameState.scores` is what each seat has *banked*; it is final once the game is
over.  :meth:`GameState.preview_scores` is an optional projection for a live preview (Kingdom
Builder: "if the game ended now"); games whose projection is expensive keep it cheap or leave the
default (the banked scores).

**Randomness** comes only from ``state.rng``.  The same (game, players, options, seed) and the
same actions give the same game, bit for bit; a replay is just those inputs.

**Secrets.** :meth:`GameState.view` gives what one seat may see (``None`` = a spectator).  The
RNG state never appears in a view, and a view never shares a list or map with the state (the
host, which encodes views at once, may ask for :meth:`GameState.shared_view` instead).  :meth:`GameState.determinize` gives a copy in which
everything ``seat`` cannot see is resampled and the RNG reseeded — the only kind of state a bot
is handed, so a bot cannot read another seat's hand or the order of a deck.  Choices that
seats have committed in a simultaneous phase but that are not revealed yet are secrets too:
``determinize`` resamples them for the other seats, keeping the public fact that they were made.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from game.core.types import Action, Event, IllegalAction, Options, Score, Seat
from game.core.wire import WireError, as_action, digest


@dataclass(frozen=True)
class OptionSpec:
    """One option a player can set when creating a game (drives the setup screen and the CLI).

    ``kind`` is one of:

    * ``"bool"`` — ``default`` is a bool;
    * ``"choice"`` — one of ``choices`` (a ``"random"`` choice lets the seed decide);
    * ``"int"`` — between ``minimum`` and ``maximum``;
    * ``"multi"`` — a list of ``count`` distinct items of ``choices`` (or the string
      ``"random"``);
    * ``"flags"`` — a list of ``count`` bools (or the string ``"random"``);
    * ``"subset"`` — a list of distinct items of ``choices``, none to ``count`` of them
      (Kingdom Builder's ``exclude_cards``).
    """

    name: str
    kind: str
    default: Any
    label: str
    help: str = ""
    choices: tuple[str, ...] = ()
    minimum: int = 0
    maximum: int = 0
    count: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "default": self.default,
            "label": self.label,
            "help": self.help,
            "choices": list(self.choices),
            "minimum": self.minimum,
            "maximum": self.maximum,
            "count": self.count,
        }


class GameState(ABC):
    """One position of a game.  Subclasses implement the abstract methods.

    The public :meth:`apply` validates before it changes anything; subclasses implement
    :meth:`_apply`, which may assume the action is legal.
    """

    #: The registry id of the game this state belongs to.
    game_id: ClassVar[str]

    # ---- who, what ---------------------------------------------------------------------
    @property
    @abstractmethod
    def players(self) -> int:
        """Number of seats."""

    @abstractmethod
    def to_move(self) -> tuple[Seat, ...]:
        """Seats that may act now, in seat order; empty when the game is over."""

    @abstractmethod
    def turn_id(self) -> int:
        """The number of the current turn; it changes exactly when a turn ends.

        A *turn* is one seat's run of consecutive decisions in sequential play, or a whole
        simultaneous phase (every deciding seat's commitments up to their resolution).  The
        number grows by at least one at every end of a turn — even when the same seat is to
        move next (Glen More) — and stays the same for every action inside a turn, so
        ``seat in to_move() and turn_id() == before`` means "``seat``'s turn goes on".
        Saved with the state (``to_dict``), so it survives a save and a determinized copy.
        """

    @abstractmethod
    def legal_actions(self, seat: Seat) -> list[Action]:
        """Every action ``seat`` may take now (empty if it is not that seat's decision).

        The list is in a deterministic order, and every item is a plain tuple.
        """

    def is_legal(self, seat: Seat, action: Action) -> bool:
        """Whether ``action`` is legal for ``seat`` now.  Games may override with a faster test."""
        return action in self.legal_actions(seat)

    def explain_illegal(self, seat: Seat, action: Action) -> IllegalAction:
        """The error to raise for an illegal action, naming the rule that forbids it.

        Games override this to say *why* (which rule); the default only says that it is illegal.
        """
        return IllegalAction(f"{self.describe(action)} is not a legal action now")

    # ---- change ------------------------------------------------------------------------
    def apply(self, seat: Seat, action: Action | Sequence[Any]) -> list[Event]:
        """Apply ``action`` for ``seat`` and return what happened, as events.

        Raises :class:`IllegalAction` — with the state unchanged — when the game is over, when
        it is not ``seat``'s decision, or when the rules forbid the action.
        """
        act, refusal = self._check(seat, action)
        if refusal is not None:
            raise refusal
        return self._apply(seat, act)

    def why_not(self, seat: Seat, action: Action | Sequence[Any]) -> IllegalAction | None:
        """Why ``apply(seat, action)`` would refuse — the same checks, the same error — or
        ``None`` if it is legal now.  Changes nothing (the client asks it for a hover)."""
        return self._check(seat, action)[1]

    def _check(
        self, seat: Seat, action: Action | Sequence[Any]
    ) -> tuple[Action, IllegalAction | None]:
        try:
            act = (
                action
                if isinstance(action, tuple) and action and isinstance(action[0], str)
                else as_action(action)
            )
        except WireError as exc:
            return (), IllegalAction(f"malformed action: {exc}", "action format", key="malformed")
        if self.is_over():
            return act, IllegalAction("the game is over", "end of game", key="game_over")
        if seat not in self.to_move():
            return act, IllegalAction(
                f"it is not seat {seat}'s turn", "turn order", key="not_your_turn"
            )
        if not self.is_legal(seat, act):
            return act, self.explain_illegal(seat, act)
        return act, None

    def apply_unchecked(self, seat: Seat, action: Action) -> list[Event]:
        """Apply ``action`` *without* checking it: the fast path of searching bots.

        Only for an action taken from ``self.legal_actions(seat)`` of this very state (a bot
        playing out its own legal lists).  Anything else — a player's input, a saved file, a
        message — goes through :meth:`apply`, which validates first.  An illegal action here
        corrupts the state.
        """
        return self._apply(seat, action)

    @abstractmethod
    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        """Apply a legal action (already validated) and return its events (the games' hook)."""

    # ---- the end -----------------------------------------------------------------------
    @abstractmethod
    def is_over(self) -> bool:
        """True once the game has ended (final scores are then fixed)."""

    @abstractmethod
    def scores(self) -> list[Score]:
        """Each seat's *banked* points by category, with ``"total"``.

        Before the end: the points a seat has already earned for good (Glen More's scoring
        rounds, Kingdom Builder's Nomads gold).  After the end: the final score.  Categories are
        the same before and after the end, so a results table can be drawn at any time.
        """

    def preview_scores(self) -> list[Score]:
        """A projection for a live preview (documented per game); the banked scores by default.

        Kingdom Builder: the score *if the game ended now*.  Must be cheap enough for every
        view; a game whose exact projection is expensive (Keyflower's final assignment) gives an
        estimate or keeps this default.  Never used to decide the winner.
        """
        return self.scores()

    def winners(self) -> list[Seat]:
        """Seats with the highest total; ties share the win (no game here has a tie-breaker).

        Meaningful once the game is over (before that it names the current leaders).
        """
        totals = [s["total"] for s in self.scores()]
        best = max(totals)
        return [seat for seat, t in enumerate(totals) if t == best]

    # ---- what a seat sees --------------------------------------------------------------
    @abstractmethod
    def view(self, seat: Seat | None) -> dict[str, Any]:
        """A plain dict of what ``seat`` may see; ``None`` is a spectator.

        Never contains the RNG, other seats' secrets or the hidden order of a deck or bag.
        The value is the caller's own: it shares no list or map with the state (or with a
        cache the state keeps), so a caller may keep it while the game goes on, or change it,
        and neither side notices (``docs/architecture.md``, rule 10).
        """

    def shared_view(self, seat: Seat | None) -> dict[str, Any]:
        """``view(seat)`` for a caller that encodes it at once and neither keeps nor changes
        it — the host's ``state`` messages: it may share lists and maps with the state (a
        view cached for the position), which saves a deep copy per seat and position.  Always
        equal to ``view(seat)``; the default is ``view(seat)`` itself.
        """
        return self.view(seat)

    def visible_events(self, events: list[Event], seat: Seat | None) -> list[Event]:
        """The events ``seat`` may see: private events (``"only"``) are dropped for others."""
        out = []
        for ev in events:
            only = ev.get("only")
            if only is None:
                out.append(ev)
            elif seat is not None and seat in only:
                out.append({k: v for k, v in ev.items() if k != "only"})
        return out

    # ---- copies and saves --------------------------------------------------------------
    @abstractmethod
    def clone(self) -> GameState:
        """An independent copy (cheap: bots call this in their inner loop)."""

    @abstractmethod
    def determinize(self, seat: Seat | None, seed: int) -> GameState:
        """A copy where everything ``seat`` cannot see is resampled from ``seed``.

        Other seats' hidden cards and the order of hidden decks are shuffled consistently with
        what ``seat`` knows, and the copy's RNG is reseeded, so the copy cannot predict the real
        game's draws.  Bots only ever see states made this way.
        """

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """The whole state as a plain dict (saves, hashes); includes ``"format"``."""

    def state_hash(self) -> str:
        """A stable digest of the whole state (same state, same hash, on any machine)."""
        return digest(self.to_dict())

    # ---- words -------------------------------------------------------------------------
    def describe(self, action: Action) -> str:
        """A short English description of an action, for logs and errors."""
        return " ".join(str(a) for a in action)

    def report(self) -> dict[str, Any]:
        """The JSON object ``python -m game show --json`` prints (documented per game); like a
        view, the caller's own (rule 10).

        The base has ``game``, ``players``, ``to_move``, ``turn``, ``over``, ``scores`` and
        ``winners``;
        games add their own fields (Kingdom Builder: ``board``, ``settlements``, ...).
        """
        return {
            "game": self.game_id,
            "players": self.players,
            "to_move": list(self.to_move()),
            "turn": self.turn_id(),
            "over": self.is_over(),
            "scores": self.scores(),
            "winners": self.winners() if self.is_over() else [],
        }

    def report_text(self) -> str:
        """A readable summary for ``python -m game show`` (games override for a board picture)."""
        lines = [f"{self.game_id}, {self.players} players"]
        if self.is_over():
            lines.append("game over; winners: " + ", ".join(f"seat {s}" for s in self.winners()))
        else:
            lines.append("to move: " + ", ".join(f"seat {s}" for s in self.to_move()))
        for seat, score in enumerate(self.scores()):
            parts = ", ".join(f"{k} {v}" for k, v in score.items() if k != "total")
            lines.append(f"  seat {seat}: {score['total']} ({parts})")
        return "\n".join(lines)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, GameState)
            and other.game_id == self.game_id
            and other.to_dict() == self.to_dict()
        )

    __hash__ = None  # type: ignore[assignment]  # mutable


@dataclass(frozen=True)
class Game(ABC):
    """The rules of one game: its description and the factory of its states."""

    id: str
    title: str
    min_players: int
    max_players: int
    #: Bumped whenever a rules change would make old replays play out differently.
    rules_version: int
    options: tuple[OptionSpec, ...] = field(default=())
    #: Traits the host and the client ask instead of inspecting views (see
    #: ``docs/architecture.md``, "Game traits"):
    #: several seats may be in ``to_move()`` at once, each choosing without seeing the others;
    simultaneous: bool = False
    #: a seat holds something other seats may not see (hot-seat puts a curtain between seats);
    secrets: bool = True
    #: the game draws at random during play (events with ``"reveal"`` close the undo window).
    chance: bool = True

    @abstractmethod
    def new(self, players: int, options: Options | None, seed: int) -> GameState:
        """A new game at its first decision.

        Raises :class:`~game.core.types.BadOptions` for a bad player count or options.
        """

    @abstractmethod
    def from_dict(self, data: dict[str, Any]) -> GameState:
        """Rebuild a state from :meth:`GameState.to_dict`.

        Raises :class:`~game.core.types.BadState` for anything malformed.
        """

    def evaluate(self, state: GameState, seat: Seat) -> float:
        """How good ``state`` looks for ``seat`` (used by the greedy and search bots).

        The default is the previewed score margin (:meth:`GameState.preview_scores`): ``seat``'s
        total minus the best other total.  Games override it with knowledge of their own (see
        each game's ``evaluation`` module).
        """
        totals = [s["total"] for s in state.preview_scores()]
        others = [t for i, t in enumerate(totals) if i != seat]
        return float(totals[seat] - (max(others) if others else 0))

    def describe(self) -> dict[str, Any]:
        """Plain description for menus and the lobby."""
        return {
            "id": self.id,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "rules_version": self.rules_version,
            "options": [o.to_dict() for o in self.options],
            "traits": {
                "simultaneous": self.simultaneous,
                "secrets": self.secrets,
                "chance": self.chance,
            },
        }
