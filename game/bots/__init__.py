"""Bots that speak only the engine contract, so one bot plays every game.

**Bots** (:func:`make_bot` names, :func:`bot_names`):

``random``
    A uniformly random legal action.
``greedy``
    Plays the whole turn that the game's evaluation likes best for its seat
    (:mod:`game.bots.greedy`); the evaluation comes from the game's ``evaluation`` module
    (:mod:`game.bots.knowledge`), for Kingdom Builder :mod:`game.kingdom_builder.evaluation`.
``mcts``
    Information-set Monte Carlo tree search over determinized worlds with whole turns as root
    moves (:mod:`game.bots.mcts`); ``budget`` is its thinking time per decision in seconds
    (default 1.0).
``easy``, ``normal``, ``hard``
    The lobby's difficulty levels (:data:`DIFFICULTIES`): greedy with noise (a narrower plan
    search, and a turn picked at random weighted by how good it looks), greedy, and the search
    bot racing its best turns on common sampled worlds while looking ahead to its own next turn
    (:func:`hard_bot`).  ``budget`` overrides the hard level's thinking time per turn.

Only the first decision of a turn thinks; the bots cache the rest of their planned turn and
answer the turn's later decisions at once.  While thinking they pause Python's cyclic garbage
collector (:func:`game.bots.base.gc_paused`), whose full passes would otherwise add tenths of a
second to a decision in a big process.

Every bot has ``name`` and ``choose(state, seat, cancel=None) -> Action``
(:class:`game.core.match.Bot`); ``cancel`` is anything with ``is_set()`` (a
:class:`threading.Event`), checked while it thinks — once set, ``choose`` raises
:class:`BotCancelled`.  A bot only reads what its seat may see: it re-determinizes whatever state
it is handed (``state.determinize(seat, seed)``) before looking at it.

**API for the host, the lobby and the client:**

* ``DIFFICULTIES`` — ``{"easy": Difficulty, "normal": ..., "hard": ...}``: ``label``,
  ``bot`` (the :func:`make_bot` name), ``description`` and ``max_seconds`` (the promised
  longest decision).  Lobby seat menus list these; ``bot_names()`` lists every bot for the CLI.
* ``make_bot(name, seed, budget)`` — a bot for a seat (use one bot object per seat and keep it
  for the whole game: it caches its turn plan between decisions).
* ``think(bot, state, seat, seed, deadline=None) -> Decision`` — run one decision in a daemon
  thread; the bot gets ``state.determinize(seat, seed)`` made on the calling thread.
  ``Decision.done()``, ``.result(timeout)``, ``.cancel()``, ``.future`` (a
  ``concurrent.futures.Future``; in asyncio ``await asyncio.wrap_future(decision.future)``).
  Call ``cancel()`` when the game is abandoned or a human takes the seat back; past
  ``deadline`` seconds the decision is cancelled and raises :class:`BotTimeout`.
* ``BotProcess()`` — the same in a separate worker process (keeps a whole core for the UI):
  ``process.decide(name, bot_seed, budget, state, seat, seed, key=table_and_seat)``;
  ``process.close()`` at shutdown.
* ``hint(state, seat, seed=0) -> Action`` — what the *normal* bot would do for ``seat`` now
  (offline games; in LAN games only when the table allows hints).  ``hint_async(state, seat,
  seed=0) -> Decision`` does it in the background.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from game.bots.base import BotCancelled
from game.bots.greedy import GreedyBot
from game.bots.mcts import MctsBot
from game.bots.random_bot import RandomBot
from game.bots.worker import BotPool, BotProcess, BotTimeout, Decision, think
from game.core.api import GameState
from game.core.match import Bot
from game.core.types import Action, Seat

#: The hard level's thinking time per turn (seconds); its decisions stay within ``max_seconds``.
HARD_BUDGET = 2.0
#: The mcts bot's default thinking time per decision (seconds).
MCTS_BUDGET = 1.0
#: The easy level's randomness: how many points of value make a turn e times likelier.
EASY_TEMPERATURE = 2.0


@dataclass(frozen=True)
class Difficulty:
    """One difficulty level offered in the lobby."""

    name: str
    label: str
    bot: str
    description: str
    #: The longest a decision of this level takes on the reference machine (seconds).
    max_seconds: float


DIFFICULTIES: dict[str, Difficulty] = {
    "easy": Difficulty(
        "easy", "Easy", "easy", "Plays sensible turns but often settles for a worse one.", 0.5
    ),
    "normal": Difficulty(
        "normal", "Normal", "normal", "Plays the turn that scores best right now.", 0.5
    ),
    "hard": Difficulty(
        "hard",
        "Hard",
        "hard",
        "Searches ahead, sampling the cards it cannot see, to find the strongest turn.",
        3.0,
    ),
}

#: name -> factory(seed, budget); ``budget`` (seconds per decision) matters to search bots only.
_FACTORIES: dict[str, Callable[[int, float | None], Bot]] = {
    "random": lambda seed, budget: RandomBot(seed),
    "greedy": lambda seed, budget: GreedyBot(seed),
    "mcts": lambda seed, budget: MctsBot(seed, budget=budget or MCTS_BUDGET),
    "easy": lambda seed, budget: GreedyBot(seed, beam=3, temperature=EASY_TEMPERATURE, name="easy"),
    "normal": lambda seed, budget: GreedyBot(seed, name="normal"),
    "hard": lambda seed, budget: hard_bot(seed, budget),
}


def hard_bot(seed: int = 0, budget: float | None = None) -> MctsBot:
    """The hard level: the search bot racing its best whole turns on common sampled worlds,
    looking one round ahead to its own next turn (see :mod:`game.bots.mcts`); a game's
    evaluation module may tune these search parameters (its ``SEARCH``).

    ``budget`` (seconds per turn, default :data:`HARD_BUDGET`) bounds the search; the first
    decision of a turn takes about that long, the rest of the turn is instant.
    """
    return MctsBot(
        seed,
        budget=budget or HARD_BUDGET,
        root_policy="race",
        horizon_extra=1,
        playout_plan_evals=100,
        plan_beam=10,
        plan_per_first=2,
        game_tuning=True,
        name="hard",
    )


def bot_names() -> list[str]:
    """Every name :func:`make_bot` accepts."""
    return list(_FACTORIES)


def make_bot(name: str, seed: int = 0, budget: float | None = None) -> Bot:
    """A new bot called ``name`` with its own RNG seeded from ``seed``.

    ``budget`` is the thinking time per decision in seconds for search bots (ignored by others).
    """
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known bots: {', '.join(bot_names())}") from None
    return factory(seed, budget)


def hint(state: GameState, seat: Seat, seed: int = 0) -> Action:
    """What the normal bot would play for ``seat`` now (seeing only what ``seat`` sees)."""
    bot = make_bot("normal", seed)
    return bot.choose(state.determinize(seat, seed), seat)


def hint_async(state: GameState, seat: Seat, seed: int = 0) -> Decision:
    """:func:`hint` in a background thread (see :func:`think`)."""
    return think(make_bot("normal", seed), state, seat, seed)


__all__ = [
    "DIFFICULTIES",
    "BotCancelled",
    "BotPool",
    "BotProcess",
    "BotTimeout",
    "Decision",
    "Difficulty",
    "GreedyBot",
    "MctsBot",
    "RandomBot",
    "bot_names",
    "hard_bot",
    "hint",
    "hint_async",
    "make_bot",
    "think",
]
