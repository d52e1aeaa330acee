"""How long a bot may think: budgets that no machine load can shrink.

A bot's thinking is bounded three ways, in this order of importance:

1. **A count** — the turn planner's evaluations of positions (``max_evals``; a game sets its
   own with ``PLAN_EVALS``), the search's work (``work``: the evaluations and actions of its
   playouts; a game sets the hard level's with ``SEARCH["work"]``) or its playouts
   (``iterations``, ``SEARCH["iterations"]``).  The count is the bound that normally ends the
   thinking, and it does not depend on the machine: with the same seed and the same count a
   bot makes the same decision on a quiet core and on a busy one.
2. **A CPU-time ceiling** — seconds of CPU time of the *thinking thread*
   (:func:`time.thread_time`: a bot thinks in a daemon thread or in a worker process, and the
   time other threads and processes take from the core is not counted).  It stops a count
   that turns out too large for the position or the machine.  A ceiling that is hit makes the
   decision depend on the machine's speed (not on its load, within a few percent).
3. **A wall-clock safety net** — :data:`SAFETY_FACTOR` times the CPU ceiling of wall-clock
   time, so that a player never waits forever on a machine so busy that the thinking thread
   hardly gets a core.  Benchmarks and ``lantern simulate`` (where nobody waits) turn it off:
   their games then never depend on the load.

A :class:`Meter` is started on the thinking thread at the beginning of a decision and asked
:meth:`Meter.spent` between units of work (an evaluation, a playout).  The bots record which
limit, if any, ended their last decision (``last_cut``: ``None``, ``"cpu"`` or ``"wall"``).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

#: The wall-clock safety net is this many times the CPU ceiling.
SAFETY_FACTOR = 3.0

#: The turn planner's evaluations per turn (greedy, easy, normal) for a game whose evaluation
#: module sets no ``PLAN_EVALS``.
PLAN_EVALS = 1500
#: The CPU ceiling of an easy, normal or greedy decision (seconds): the promised longest
#: decision of those levels (``DIFFICULTIES[...].max_seconds``; issue 23: at most 0.3 s).
#: The count takes about 0.15-0.25 s at the 95th percentile on a quiet core of the reference
#: machine, so this cuts few decisions there and some on a slower core (a cut decision plays
#: the best plan found so far); 0.5 s until 2026-12-05 (docs/bots.md, *Budgets*).
PLAN_CPU_BUDGET = 0.3
#: The hard level's work per decision (its playouts' evaluations and actions,
#: :meth:`game.bots.mcts.MctsBot._out_of_work`) for a game that sets no ``SEARCH["work"]``.
HARD_WORK = 10_000
#: The hard level's CPU ceiling per decision (seconds) unless the game's
#: ``SEARCH["cpu_budget"]`` says otherwise: the promised longest hard decision.  Below the
#: promise of issue 23 for the 95th percentile (2 s; 3 s at most), so that both hold on a core
#: however slow: each game's count takes about 1.0-1.2 s of CPU at the 95th percentile on a
#: quiet core of the reference machine (Glen More's 90 playouts about 1.8 s), so this ceiling
#: cuts few decisions there and more on a slower core (docs/bots.md, *Budgets*: *A slower core*;
#: a decision cut short plays the best turn found so far).
HARD_CPU_BUDGET = 1.9
#: The ``mcts`` bot's playouts and CPU ceiling per decision.
MCTS_ITERATIONS = 1000
MCTS_CPU_BUDGET = 1.0


def host_deadline(cpu: float) -> float:
    """The host's deadline for a decision with a CPU ceiling of ``cpu`` seconds: the bot's own
    wall-clock safety net (:data:`SAFETY_FACTOR` x ``cpu``) and two seconds more for the bot to
    wrap up and send its answer.  Past it the host plays a random legal action (a bot that
    stopped answering)."""
    return SAFETY_FACTOR * cpu + 2.0


@dataclass(frozen=True)
class Budget:
    """A count (or ``None``), a CPU ceiling in seconds (or ``None``) and whether the wall-clock
    safety net (:data:`SAFETY_FACTOR` times the CPU ceiling) applies."""

    count: int | None = None
    cpu: float | None = None
    safety_net: bool = True

    def __post_init__(self) -> None:
        if self.count is not None and (isinstance(self.count, bool) or self.count < 1):
            raise ValueError(f"a count budget must be at least 1, not {self.count!r}")
        if self.cpu is not None and not self.cpu > 0:
            raise ValueError(f"a CPU budget must be positive, not {self.cpu!r}")
        if self.count is None and self.cpu is None:
            raise ValueError("a budget needs a count or a CPU ceiling")

    @property
    def wall(self) -> float | None:
        """The wall-clock safety net in seconds (``None``: none)."""
        if not self.safety_net or self.cpu is None:
            return None
        return SAFETY_FACTOR * self.cpu

    def meter(self) -> Meter:
        """A meter for one decision, started now on the calling (thinking) thread."""
        return Meter(self.cpu, self.wall)


class Meter:
    """The CPU ceiling and the wall-clock safety net of one decision, started on the thread
    that thinks (see the module docstring).

    ``cpu`` and ``wall`` are seconds from now (``None``: no such limit).  :meth:`spent` says
    whether either has passed and remembers which (:attr:`cut`); once spent, a meter stays
    spent.
    """

    __slots__ = ("_cpu0", "_cpu_end", "_wall0", "_wall_end", "cut")

    def __init__(self, cpu: float | None = None, wall: float | None = None) -> None:
        self._cpu0 = time.thread_time()
        self._wall0 = time.perf_counter()
        self._cpu_end = self._cpu0 + cpu if cpu is not None else math.inf
        self._wall_end = self._wall0 + wall if wall is not None else math.inf
        #: Which limit ended the thinking: ``None`` (none yet), ``"cpu"`` or ``"wall"``.
        self.cut: str | None = None

    @classmethod
    def unlimited(cls) -> Meter:
        """A meter that is never spent (a count alone bounds the work); it reads no clock."""
        meter = cls.__new__(cls)
        meter._cpu0 = meter._wall0 = 0.0
        meter._cpu_end = meter._wall_end = math.inf
        meter.cut = None
        return meter

    def spent(self) -> bool:
        """Whether the CPU ceiling or the wall-clock safety net has passed."""
        if self.cut is not None:
            return True
        if self._wall_end != math.inf and time.perf_counter() >= self._wall_end:
            self.cut = "wall"
            return True
        if self._cpu_end != math.inf and time.thread_time() >= self._cpu_end:
            self.cut = "cpu"
            return True
        return False

    def share(self, fraction: float) -> Meter:
        """A meter for part of the work: ``fraction`` of this meter's CPU ceiling from now (at
        most what is left of it), and the same wall-clock safety net."""
        if self._cpu_end == math.inf and self._wall_end == math.inf:
            return Meter.unlimited()
        child = Meter()
        if self._cpu_end != math.inf:
            whole = self._cpu_end - self._cpu0
            child._cpu_end = min(self._cpu_end, child._cpu0 + fraction * whole)
        child._wall_end = self._wall_end
        return child

    def cpu_seconds(self) -> float:
        """CPU time of this thread since the meter started (0 for an unlimited meter)."""
        return time.thread_time() - self._cpu0 if self._cpu0 else 0.0

    def wall_seconds(self) -> float:
        """Wall-clock time since the meter started (0 for an unlimited meter)."""
        return time.perf_counter() - self._wall0 if self._wall0 else 0.0


__all__ = [
    "HARD_CPU_BUDGET",
    "HARD_WORK",
    "MCTS_CPU_BUDGET",
    "MCTS_ITERATIONS",
    "PLAN_CPU_BUDGET",
    "PLAN_EVALS",
    "SAFETY_FACTOR",
    "Budget",
    "Meter",
    "host_deadline",
]
