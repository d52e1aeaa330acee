"""Thinking off the caller's thread: bot decisions as cancellable futures.

The host and the UI must never wait on a bot.  Two ways to run a decision:

* :func:`think` — in a daemon thread of this process.  Cheap to start, shares the GIL (the
  caller keeps running, at a share of one core).
* :class:`BotProcess` — in a separate worker process that keeps its bots (and their cached turn
  plans) between decisions.  The caller keeps a whole core; the state crosses as
  ``to_dict()`` of a determinized copy.  :class:`BotPool` spreads decisions over a few such
  processes (the host's budget for thinking: at most that many decisions run at once, and the
  host's own event loop never computes one).

Both return a :class:`Decision`: ``done()``, ``result(timeout)``, ``cancel()`` and ``future``
(a :class:`concurrent.futures.Future`; asyncio code awaits ``asyncio.wrap_future(d.future)``).
Both hand the bot only ``state.determinize(seat, seed)``, made on the *caller's* thread before
anything runs in the background — the live state is never shared with the worker, and no
bot ever sees another seat's secrets.  ``cancel()`` (a game abandoned, a seat taken back by a
human) makes the bot stop at its next check and the future raise :class:`BotCancelled`.  With a
``deadline`` (seconds of wall-clock time from the moment the bot starts thinking — in a worker
process, when the process takes the decision up, not while it waits behind another) the decision
is cancelled when it runs over and raises :class:`BotTimeout`; the caller then picks a fallback
(for instance a random legal action).  The bots' own budgets (:mod:`game.bots.budget`: a count,
a CPU ceiling and a wall-clock safety net of 3x that ceiling) normally end a decision long
before; :func:`game.bots.decision_deadline` is the deadline that fits a level.
"""

from __future__ import annotations

import contextlib
import inspect
import itertools
import multiprocessing
import multiprocessing.connection
import os
import threading
import traceback
from concurrent.futures import Future
from typing import Any

from game.bots.base import BotCancelled, CancelToken
from game.core import registry
from game.core.api import GameState
from game.core.match import Bot
from game.core.registry import get_game
from game.core.types import Action, Seat
from game.core.wire import as_action


class BotTimeout(BotCancelled):
    """A decision that ran past its deadline and was cancelled."""


class Decision:
    """One bot decision running in the background."""

    def __init__(self, cancel: threading.Event | None = None) -> None:
        self.future: Future[Action] = Future()
        self.future.set_running_or_notify_cancel()
        self._cancel_event = cancel if cancel is not None else threading.Event()
        self._timed_out = False
        self._timer: threading.Timer | None = None
        self._on_cancel: list[Any] = []
        #: A worker process's deadline, started when the process takes the decision up.
        self._deadline: float | None = None

    # ---- for the caller -----------------------------------------------------------------
    def done(self) -> bool:
        """Whether the decision is finished (an action, an error, or a cancellation)."""
        return self.future.done()

    def result(self, timeout: float | None = None) -> Action:
        """The chosen action; raises :class:`BotCancelled` if cancelled, ``TimeoutError`` if
        ``timeout`` seconds pass first."""
        return self.future.result(timeout)

    def cancel(self) -> None:
        """Stop thinking: the bot quits at its next check and the future raises
        :class:`BotCancelled` (a no-op once the decision is done)."""
        self._cancel_event.set()
        for hook in self._on_cancel:
            hook()
        if self._timer is not None:
            self._timer.cancel()

    # ---- for the runners ----------------------------------------------------------------
    @property
    def token(self) -> CancelToken:
        return self._cancel_event

    def _start_deadline(self, deadline: float | None) -> None:
        if (
            deadline is None
            or self.future.done()
            or self._timer is not None
            or self._cancel_event.is_set()
        ):
            return

        def expire() -> None:
            self._timed_out = True
            self.cancel()

        self._timer = threading.Timer(deadline, expire)
        self._timer.daemon = True
        self._timer.start()

    def _finish(self, action: Action | None, error: BaseException | None) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if self.future.done():
            return
        if isinstance(error, BotCancelled) and self._timed_out:
            error = BotTimeout("the bot ran past its deadline")
        if error is not None:
            self.future.set_exception(error)
        else:
            self.future.set_result(action)  # type: ignore[arg-type]


def _choose(bot: Bot, state: GameState, seat: Seat, cancel: CancelToken) -> Action:
    """``bot.choose`` with the cancel token when the bot accepts one."""
    if "cancel" in inspect.signature(bot.choose).parameters:
        return bot.choose(state, seat, cancel=cancel)  # type: ignore[call-arg]
    return bot.choose(state, seat)


def think(
    bot: Bot,
    state: GameState,
    seat: Seat,
    seed: int,
    *,
    deadline: float | None = None,
) -> Decision:
    """Start ``bot`` deciding for ``seat`` in a daemon thread; returns at once.

    The bot gets ``state.determinize(seat, seed)``, made here on the caller's thread.  One bot
    object must not think about two decisions at once (its plan cache is not shared safely).
    """
    world = state.determinize(seat, seed)
    decision = Decision()

    def run() -> None:
        try:
            if decision.token.is_set():
                raise BotCancelled("cancelled before it started")
            action = _choose(bot, world, seat, decision.token)
        except BaseException as exc:
            decision._finish(None, exc)
        else:
            if decision.token.is_set():
                decision._finish(None, BotCancelled("cancelled"))
            else:
                decision._finish(action, None)

    decision._start_deadline(deadline)
    thread = threading.Thread(target=run, name=f"bot-{bot.name}-seat{seat}", daemon=True)
    thread.start()
    return decision


# ---- the worker process -----------------------------------------------------------------

_SLOTS = 256


class _SlotToken:
    """The child's view of a decision's cancel flag: a slot of a shared array."""

    def __init__(self, flags: Any, job: int) -> None:
        self.flags = flags
        self.job = job

    def is_set(self) -> bool:
        return bool(self.flags[self.job % _SLOTS] == self.job)


def _child_main(conn: multiprocessing.connection.Connection, flags: Any) -> None:
    """The worker process: build bots on demand and answer decisions one at a time."""
    from game.bots import make_bot
    from game.bots.knowledge import knowledge_for

    bots: dict[int, Bot] = {}
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg[0] == "stop":
            return
        _kind, job, bot_id, spec, (game_id, module), data, seat = msg
        try:
            if module is not None and registry.module_of(game_id) is None:
                registry.register(game_id, module, listed=False)  # a game only tests register
            bot = bots.get(bot_id)
            if bot is None:
                name, bot_seed, budget = spec
                bot = bots[bot_id] = make_bot(name, bot_seed, budget)
            token = _SlotToken(flags, job)
            if token.is_set():
                raise BotCancelled("cancelled before it started")
            state = get_game(game_id).from_dict(data)
            knowledge_for(game_id)  # the game's evaluation module loads before the deadline runs
            conn.send(("started", job, None))  # the decision's deadline runs from now
            action = _choose(bot, state, seat, token)
            reply: tuple[Any, ...] = ("ok", job, list(action))
        except BotCancelled as exc:
            reply = ("cancelled", job, str(exc))
        except Exception as exc:
            reply = ("error", job, f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}")
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return


class BotProcess:
    """A worker process that runs bot decisions (see the module docstring).

    ``decide(name, bot_seed, budget, state, seat, seed)`` builds the bot ``make_bot(name,
    bot_seed, budget)`` inside the process the first time that triple (and ``key``) is seen and
    reuses it afterwards, so a bot's turn plan survives between its decisions.  Decisions run
    one after another in the order they were asked.  ``close()`` ends the process.
    """

    def __init__(self) -> None:
        ctx = multiprocessing.get_context("spawn")
        self._flags = ctx.Array("q", [-1] * _SLOTS, lock=False)
        self._conn, child_conn = ctx.Pipe()
        self._process = ctx.Process(
            target=_child_main, args=(child_conn, self._flags), name="lantern-bots", daemon=True
        )
        self._process.start()
        child_conn.close()
        self._jobs = itertools.count(1)
        self._bot_ids: dict[tuple[Any, ...], int] = {}
        self._pending: dict[int, Decision] = {}
        self._lock = threading.Lock()
        self._send_lock = threading.Lock()
        self._closed = False
        self._reader = threading.Thread(target=self._read, name="lantern-bots-reader", daemon=True)
        self._reader.start()

    def decide(
        self,
        name: str,
        bot_seed: int,
        budget: float | None,
        state: GameState,
        seat: Seat,
        seed: int,
        *,
        key: Any = None,
        deadline: float | None = None,
    ) -> Decision:
        """Ask the process for ``seat``'s action; returns at once (see the class docstring)."""
        if self._closed:
            raise RuntimeError("the bot process is closed")
        world = state.determinize(seat, seed)
        spec = (name, bot_seed, budget)
        with self._lock:
            bot_id = self._bot_ids.setdefault((*spec, key), len(self._bot_ids) + 1)
            job = next(self._jobs)
            decision = Decision()
            self._pending[job] = decision

        def cancel_job() -> None:
            self._flags[job % _SLOTS] = job

        decision._on_cancel.append(cancel_job)
        # the deadline starts when the process takes the decision up (see _read), not while
        # it waits behind the decisions asked for before it
        decision._deadline = deadline
        game = (world.game_id, registry.module_of(world.game_id))
        message = ("choose", job, bot_id, spec, game, world.to_dict(), seat)
        try:
            with self._send_lock:
                self._conn.send(message)
        except (OSError, EOFError, BrokenPipeError):
            with self._lock:
                self._pending.pop(job, None)
            decision._finish(None, BotCancelled("the bot process stopped"))
        return decision

    @property
    def alive(self) -> bool:
        return not self._closed and self._process.is_alive()

    @property
    def pending(self) -> int:
        """Decisions asked for and not answered yet."""
        return len(self._pending)

    def _read(self) -> None:
        while True:
            try:
                kind, job, payload = self._conn.recv()
            except (EOFError, OSError):
                break
            if kind == "started":
                with self._lock:
                    decision = self._pending.get(job)
                if decision is not None:
                    decision._start_deadline(decision._deadline)
                continue
            with self._lock:
                decision = self._pending.pop(job, None)
            if decision is None:
                continue
            if kind == "ok":
                decision._finish(as_action(payload), None)
            elif kind == "cancelled":
                decision._finish(None, BotCancelled(payload))
            else:
                decision._finish(None, RuntimeError(f"bot failed in the worker process: {payload}"))
        with self._lock:
            pending, self._pending = self._pending, {}
        for decision in pending.values():
            decision._finish(None, BotCancelled("the bot process stopped"))

    def close(self) -> None:
        """Cancel whatever is pending and end the process."""
        if self._closed:
            return
        self._closed = True
        with self._lock:
            pending = list(self._pending.values())
        for decision in pending:
            decision.cancel()
        with contextlib.suppress(OSError, EOFError, BrokenPipeError), self._send_lock:
            self._conn.send(("stop",))
        self._process.join(timeout=5)
        if self._process.is_alive():
            self._process.terminate()
            self._process.join(timeout=5)
        self._conn.close()

    def __enter__(self) -> BotProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def default_workers() -> int:
    """How many bot processes a host runs: one core is left to the host (at least 2, at most 4,
    so several bots of a simultaneous phase think at once)."""
    return min(4, max(2, (os.cpu_count() or 2) - 1))


class BotPool:
    """A few :class:`BotProcess` workers behind the same ``decide`` / ``close`` interface.

    Each decision goes to the worker with the fewest unanswered decisions (ties: the one that
    served the same ``key`` last, so a seat's bot usually finds its cached plan).  A worker that
    died is replaced at the next decision.  At most ``workers`` decisions think at once, however
    many tables and bots the host has.
    """

    def __init__(self, workers: int | None = None) -> None:
        self.size = workers if workers is not None else default_workers()
        self._workers: list[BotProcess] = [BotProcess() for _ in range(self.size)]
        self._home: dict[Any, int] = {}
        self._lock = threading.Lock()
        self._closed = False

    def decide(
        self,
        name: str,
        bot_seed: int,
        budget: float | None,
        state: GameState,
        seat: Seat,
        seed: int,
        *,
        key: Any = None,
        deadline: float | None = None,
    ) -> Decision:
        """As :meth:`BotProcess.decide`, on the least busy worker."""
        if self._closed:
            raise RuntimeError("the bot pool is closed")
        with self._lock:
            for i, worker in enumerate(self._workers):
                if not worker.alive:
                    worker.close()
                    self._workers[i] = BotProcess()
            home = self._home.get(key, 0)
            index = min(range(self.size), key=lambda i: (self._workers[i].pending, i != home, i))
            self._home[key] = index
            worker = self._workers[index]
        return worker.decide(name, bot_seed, budget, state, seat, seed, key=key, deadline=deadline)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for worker in self._workers:
            worker.close()

    def __enter__(self) -> BotPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
