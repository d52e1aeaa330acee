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
    moves (:mod:`game.bots.mcts`); :data:`~game.bots.budget.MCTS_ITERATIONS` playouts per
    decision within a CPU ceiling of :data:`~game.bots.budget.MCTS_CPU_BUDGET` seconds.
``easy``, ``normal``, ``hard``
    The lobby's difficulty levels (:data:`DIFFICULTIES`): greedy with noise (a narrower plan
    search, and a turn picked at random weighted by how good it looks), greedy, and the search
    bot racing its best turns on common sampled worlds while looking ahead to its own next turn
    (:func:`hard_bot`).

**Budgets** (:mod:`game.bots.budget`): every level thinks for a *count* — the planner's
evaluations (the game's ``PLAN_EVALS``), the search's playouts (the game's
``SEARCH["iterations"]``) — within a CPU-time ceiling of the thinking thread and a wall-clock
safety net of 3x that ceiling, so the same seed gives the same game on a busy machine as on a
quiet one.  ``budget`` (seconds of CPU) replaces a search bot's count by a CPU-time bound;
``iterations`` replaces its count; ``safety_net=False`` drops the wall-clock net (benchmarks,
``simulate``: nobody waits there); ``ceiling=False`` drops the CPU ceiling too, so the count
alone ends a decision on a core however slow (``simulate``).

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
* ``make_bot(name, seed, budget, *, iterations=None, safety_net=True, ceiling=True)`` — a
  bot for a seat (use one bot object per seat and keep it for the whole game: it caches its
  turn plan between decisions).  ``decision_deadline(name, game_id, budget)`` — the host's
  deadline for one decision.
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
from game.bots.budget import (
    HARD_CPU_BUDGET,
    HARD_WORK,
    MCTS_CPU_BUDGET,
    MCTS_ITERATIONS,
    PLAN_CPU_BUDGET,
    host_deadline,
)
from game.bots.greedy import GreedyBot
from game.bots.knowledge import knowledge_for
from game.bots.mcts import MctsBot
from game.bots.random_bot import RandomBot
from game.bots.worker import BotPool, BotProcess, BotTimeout, Decision, think
from game.core.api import GameState
from game.core.match import Bot
from game.core.types import Action, Seat

#: The easy level's randomness: how many points of value make a turn e times likelier (a game's
#: evaluation module may set its own, ``EASY_TEMPERATURE``).
EASY_TEMPERATURE = 2.0


@dataclass(frozen=True)
class Difficulty:
    """One difficulty level offered in the lobby."""

    name: str
    label: str
    bot: str
    description: str
    #: The longest a decision of this level takes on the reference machine (seconds): its CPU
    #: ceiling (:mod:`game.bots.budget`).
    max_seconds: float


DIFFICULTIES: dict[str, Difficulty] = {
    "easy": Difficulty(
        "easy",
        "Easy",
        "easy",
        "Plays sensible turns but often settles for a worse one.",
        PLAN_CPU_BUDGET,
    ),
    "normal": Difficulty(
        "normal", "Normal", "normal", "Plays the turn that scores best right now.", PLAN_CPU_BUDGET
    ),
    "hard": Difficulty(
        "hard",
        "Hard",
        "hard",
        "Searches ahead, sampling the cards it cannot see, to find the strongest turn.",
        HARD_CPU_BUDGET,
    ),
}

Factory = Callable[..., Bot]

#: name -> factory(seed, budget, iterations, safety_net, cores) (see :func:`make_bot`).
_FACTORIES: dict[str, Factory] = {
    "random": lambda seed, budget, iterations, net, cores=1: RandomBot(seed),
    "greedy": lambda seed, budget, iterations, net, cores=1: GreedyBot(seed, safety_net=net),
    "mcts": lambda seed, budget, iterations, net, cores=1: MctsBot(
        seed,
        budget=budget or MCTS_CPU_BUDGET,
        iterations=iterations or (None if budget else MCTS_ITERATIONS),
        safety_net=net,
    ),
    "easy": lambda seed, budget, iterations, net, cores=1: GreedyBot(
        seed,
        beam=3,
        temperature=EASY_TEMPERATURE,
        game_temperature=True,
        safety_net=net,
        name="easy",
    ),
    "normal": lambda seed, budget, iterations, net, cores=1: GreedyBot(
        seed, safety_net=net, name="normal"
    ),
    "hard": lambda seed, budget, iterations, net, cores=1: hard_bot(
        seed, budget, iterations, net, cores
    ),
}


def hard_bot(
    seed: int = 0,
    budget: float | None = None,
    iterations: int | None = None,
    safety_net: bool = True,
    cores: int = 1,
) -> MctsBot:
    """The hard level: the search bot racing its best whole turns on common sampled worlds,
    looking one round ahead to its own next turn (see :mod:`game.bots.mcts`); a game's
    evaluation module may tune these search parameters (its ``SEARCH``), its budget among them.

    By default a decision does the game's ``SEARCH["work"]`` (else
    :data:`~game.bots.budget.HARD_WORK`) units of work — the playouts' evaluations, a count
    that follows the CPU time closely — and at most its ``SEARCH["iterations"]`` playouts if it
    sets some, within its ``SEARCH["cpu_budget"]`` (else
    :data:`~game.bots.budget.HARD_CPU_BUDGET`) seconds of CPU.  ``budget`` (CPU seconds) makes
    the CPU time the bound instead of the counts (no longer reproducible from the seed: how much
    is searched depends on the machine's speed); ``iterations`` makes that many playouts the
    count instead of the work.  Either one given here is kept over the game's.  The first
    decision of a turn searches, the rest of the turn is instant.

    ``cores > 1`` (an idle machine: hot-seat and bot games on a player's computer) plays the
    race's playouts on that many processes and multiplies the counts by it: ``cores`` times the
    search in about the same wall-clock time (:mod:`game.bots.parallel`; docs/bots.md says what
    it gains).  The default is one core.
    """
    fixed: set[str] = set()
    if budget is not None or iterations is not None:
        fixed.update(("iterations", "work"))
    if budget is not None:
        fixed.add("cpu_budget")
    counted = budget is None and iterations is None
    return MctsBot(
        seed,
        budget=budget or HARD_CPU_BUDGET,
        iterations=iterations,
        work=HARD_WORK if counted else None,
        root_policy="race",
        horizon_extra=1,
        playout_plan_evals=100,
        plan_beam=10,
        plan_per_first=2,
        game_tuning=True,
        fixed=frozenset(fixed),
        safety_net=safety_net,
        cores=cores,
        count_scale=cores,
        name="hard",
    )


def bot_names() -> list[str]:
    """Every name :func:`make_bot` accepts."""
    return list(_FACTORIES)


def make_bot(
    name: str,
    seed: int = 0,
    budget: float | None = None,
    *,
    iterations: int | None = None,
    safety_net: bool = True,
    cores: int = 1,
    ceiling: bool = True,
) -> Bot:
    """A new bot called ``name`` with its own RNG seeded from ``seed``.

    ``budget`` is the CPU time per decision in seconds for the search bots (``mcts``,
    ``hard``), which then think for that long rather than for their count of playouts;
    ``iterations`` sets that count instead.  Both are ignored by the other bots, whose count of
    evaluations is the game's.  ``safety_net=False`` drops the wall-clock safety net (3x the
    CPU ceiling): for benchmarks and simulations, where nobody waits and a game must not depend
    on the machine's load.  ``ceiling=False`` also drops the CPU-time ceiling of a decision
    that a count bounds (every level's default; not a ``budget`` given here, which *is* the
    bound): the count alone then ends every decision, so a seeded game is the same on a core
    however slow (``lantern simulate``: a ceiling reached on a slow core would otherwise cut a
    search short and change the game).  ``cores`` lets the hard level search on that many
    processes (see :func:`hard_bot`).
    """
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known bots: {', '.join(bot_names())}") from None
    if budget is not None and not budget > 0:
        raise ValueError(f"the budget must be positive seconds, not {budget!r}")
    if iterations is not None and iterations < 1:
        raise ValueError(f"the iteration budget must be at least 1, not {iterations!r}")
    if cores < 1:
        raise ValueError(f"cores must be at least 1, not {cores!r}")
    if cores > 1:
        bot = factory(seed, budget, iterations, safety_net, cores)
    else:
        bot = factory(seed, budget, iterations, safety_net)
    if not ceiling and budget is None:
        _count_only(bot)
    return bot


def _count_only(bot: Bot) -> None:
    """Drop ``bot``'s CPU-time ceiling (and so its wall-clock safety net, 3x the ceiling): its
    count of evaluations, playouts or work alone ends a decision (:func:`make_bot`'s
    ``ceiling=False``).  A game's ``SEARCH`` cannot bring a ceiling back."""
    if isinstance(bot, GreedyBot):
        bot.cpu_budget = None
    elif isinstance(bot, MctsBot):
        bot.cpu_budget = None
        bot.fixed = bot.fixed | {"cpu_budget"}


def decision_deadline(name: str, game_id: str, budget: float | None = None) -> float:
    """The host's wall-clock deadline for one decision of the bot ``name`` in the game
    ``game_id`` (seconds): past the bot's own safety net (3x its CPU ceiling — ``budget`` if
    given, else the level's or the game's ``SEARCH["cpu_budget"]``), after which the host plays
    a random legal action instead (:func:`game.bots.budget.host_deadline`)."""
    if name == "hard":
        ceiling = budget or float(
            dict(knowledge_for(game_id).search).get("cpu_budget", HARD_CPU_BUDGET)
        )
    elif name == "mcts":
        ceiling = budget or MCTS_CPU_BUDGET
    elif name in ("easy", "normal", "greedy", "random"):
        ceiling = PLAN_CPU_BUDGET
    else:  # a bot this module does not know the budget of (tests register some)
        ceiling = HARD_CPU_BUDGET
    return host_deadline(ceiling)


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
    "decision_deadline",
    "hard_bot",
    "hint",
    "hint_async",
    "make_bot",
    "think",
]
