"""Bots and hints of the host: who thinks about which decision, and what happens to the answer.

Every bot seat to move gets one *job* per decision.  A job is keyed by its table, its seat and
the position it started from (``seq``); it stays valid as long as that seat's decision has not
changed (:meth:`~net.session.Session.decision_seq`), so in a simultaneous phase one seat's
commitment does not cancel the other bots' thinking.  A job whose decision moved on is stopped
and a new one started; an answer that comes back for an old decision is dropped.

Bots think on determinized copies (``state.determinize(seat, seed)``: nothing the seat may not
see) — in worker processes (:class:`game.bots.BotPool`: the host's thinking budget, at most a
few decisions at once, and never on the host's event loop), or with ``bot_process=False`` in a
daemon thread per decision (:func:`game.bots.think`; tests and the hot-seat host).  A bot's own
budget ends its decision (a count of evaluations or playouts, a CPU-time ceiling, a wall-clock
safety net of 3x that ceiling: :mod:`game.bots.budget`); the host's deadline is one more safety
net just past the bot's own (:func:`game.bots.decision_deadline`, unless ``bot_deadline`` sets
one for every decision): a decision past it is cancelled and a random legal action is played
instead.

Hints (:meth:`Thinking.hint`) are the normal bot's choice for a human seat's current decision,
computed the same way and sent only to the seats that asked, unless the decision moved on.
Before it is sent, a hint is explained (:func:`game.bots.reasons.hint_reasons`: what the turn
it begins gains, by the evaluation's own terms, on copies holding only what the seat may see)
in a daemon thread off the event loop; the answer's ``why`` lists those reasons.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from game.bots import (
    BotCancelled,
    BotPool,
    Decision,
    decision_deadline,
    hint_async,
    make_bot,
    think,
)
from game.bots.reasons import Reason, hint_reasons_async
from game.core.match import Bot
from game.core.rng import Rng, derive_seed
from game.core.types import Action, Seat
from game.core.wire import to_plain
from net import protocol
from net.protocol import ErrorCode, ProtocolError
from net.session import Session

log = logging.getLogger("lantern.host")

#: The bot whose choice a hint shows (``game.bots.hint``: the normal level), and the longest a
#: hint may think in the worker process before it is given up (seconds from when the process
#: takes it up: the normal level's own safety net is far shorter).
HINT_BOT = "normal"
HINT_DEADLINE = 10.0


class Asker(Protocol):
    """Whoever asked for a hint (the hub's member record)."""

    table: Session | None
    seat: Seat | None


@dataclass
class _BotJob:
    """One bot decision of one seat, from its (optional) delay to its answer."""

    seq: int
    timer: asyncio.TimerHandle | None = None
    decision: Decision | None = None
    stopped: bool = False

    def stop(self) -> None:
        self.stopped = True
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.decision is not None:
            self.decision.cancel()


@dataclass
class _HintJob:
    """A hint being computed for one seat's decision seen at position ``seq``, and who asked;
    once the action is known, its reasons are being worked out (``explaining``)."""

    seq: int
    decision: Decision
    askers: list[Any] = field(default_factory=list)
    seed: int = 0
    explaining: threading.Event | None = None

    def cancel(self) -> None:
        self.decision.cancel()
        if self.explaining is not None:
            self.explaining.set()


@dataclass
class _Table:
    """The thinking going on at one table."""

    jobs: dict[Seat, _BotJob] = field(default_factory=dict)
    hints: dict[Seat, _HintJob] = field(default_factory=dict)
    bots: dict[Seat, tuple[str, Bot]] = field(default_factory=dict)


def _current(table: Session, seat: Seat, seq: int) -> bool:
    """Whether a job that started at position ``seq`` still serves ``seat``'s decision."""
    return not table.closed and table.decision_seq(seat) <= seq <= table.seq


class Thinking:
    """Bot and hint scheduling for every table of one hub (see the module docstring).

    ``apply(table, seat, seq, action)`` plays a bot's choice through the hub's own path (the
    same validation as a human's); ``send(asker, message)`` answers a hint.  ``bot_budget``
    (CPU seconds) replaces the search bots' counts (:func:`game.bots.make_bot`);
    ``bot_deadline`` (seconds) replaces every level's own deadline.
    """

    def __init__(
        self,
        *,
        apply: Callable[[Session, Seat, int, Action], None],
        send: Callable[[Any, dict[str, Any]], None],
        bot_process: bool = False,
        bot_budget: float | None = None,
        bot_deadline: float | None = None,
    ) -> None:
        self._apply = apply
        self._send = send
        self.bot_budget = bot_budget
        self.bot_deadline = bot_deadline
        self._process: BotPool | None = BotPool() if bot_process else None
        self._tables: dict[str, _Table] = {}
        self._closed = False

    # ---- tables -----------------------------------------------------------------------------
    def _of(self, table: Session) -> _Table:
        held = self._tables.get(table.table_id)
        if held is None:
            held = self._tables[table.table_id] = _Table()
        return held

    def close_table(self, table: Session) -> None:
        """Stop every bot and hint of a closed table."""
        held = self._tables.pop(table.table_id, None)
        if held is None:
            return
        for job in held.jobs.values():
            job.stop()
        for hint in held.hints.values():
            hint.cancel()

    def shutdown(self) -> None:
        """Stop everything (the hub is shutting down)."""
        if self._closed:
            return
        self._closed = True
        for table_id in list(self._tables):
            held = self._tables.pop(table_id)
            for job in held.jobs.values():
                job.stop()
            for hint in held.hints.values():
                hint.cancel()
        if self._process is not None:
            self._process.close()

    def thinking(self, table: Session) -> int:
        """How many bot decisions of ``table`` are under way (tests, benchmarks)."""
        held = self._tables.get(table.table_id)
        return 0 if held is None else sum(1 for j in held.jobs.values() if not j.stopped)

    # ---- bots -------------------------------------------------------------------------------
    def wake(self, table: Session) -> None:
        """Start a decision for every bot seat to move that is not already deciding it.

        A job about an older decision of its seat is stopped; its replacement starts once the
        old one has ended (one bot object never thinks about two positions at once).
        """
        if self._closed or table.closed:
            return
        held = self._of(table)
        for seat in list(table.bot_seats_to_move()):
            job = held.jobs.get(seat)
            if job is not None and not job.stopped and _current(table, seat, job.seq):
                continue
            if job is not None and job.decision is not None and not job.decision.done():
                job.stop()  # _bot_done wakes the seat again when the old decision ends
                continue
            if job is not None:
                job.stop()
            self._think(table, held, seat)

    def cancel_seat(self, table: Session, seat: Seat) -> None:
        """A human took the seat back: its bot stops thinking."""
        held = self._tables.get(table.table_id)
        if held is None:
            return
        job = held.jobs.pop(seat, None)
        if job is not None:
            job.stop()

    def _bot(self, table: Session, held: _Table, seat: Seat) -> Bot:
        """The seat's bot object, kept for the whole game (bots cache their turn plans)."""
        name = table.bot_of(seat)
        assert name is not None
        kept = held.bots.get(seat)
        if kept is None or kept[0] != name:
            kept = (name, make_bot(name, derive_seed(table.seed, "bot", seat), self.bot_budget))
            held.bots[seat] = kept
        return kept[1]

    def _think(self, table: Session, held: _Table, seat: Seat) -> None:
        loop = asyncio.get_running_loop()
        job = _BotJob(table.seq)
        held.jobs[seat] = job

        def begin() -> None:
            job.timer = None
            if job.stopped or not _current(table, seat, job.seq) or table.bot_of(seat) is None:
                if held.jobs.get(seat) is job:
                    del held.jobs[seat]
                    self.wake(table)
                return
            name = table.bot_of(seat)
            assert name is not None
            world_seed = derive_seed(table.seed, "determinize", seat, job.seq)
            deadline = self.bot_deadline
            if deadline is None:
                deadline = decision_deadline(name, table.state.game_id, self.bot_budget)
            if self._process is not None:
                decision = self._process.decide(
                    name,
                    derive_seed(table.seed, "bot", seat),
                    self.bot_budget,
                    table.state,
                    seat,
                    world_seed,
                    key=(table.table_id, seat),
                    deadline=deadline,
                )
            else:
                bot = self._bot(table, held, seat)
                decision = think(bot, table.state, seat, world_seed, deadline=deadline)
            job.decision = decision
            self._when_done(decision, lambda f: self._bot_done(table, seat, job, f))

        delay = table.settings.bot_delay_ms / 1000
        if delay > 0:
            job.timer = loop.call_later(delay, begin)
        else:
            begin()

    def _bot_done(
        self,
        table: Session,
        seat: Seat,
        job: _BotJob,
        future: concurrent.futures.Future[Action],
    ) -> None:
        held = self._tables.get(table.table_id)
        if held is None or table.closed or held.jobs.get(seat) is not job:
            return
        del held.jobs[seat]
        if job.stopped or not _current(table, seat, job.seq) or table.bot_of(seat) is None:
            self.wake(table)  # the decision changed while it thought: think again
            return
        action: Action | None = None
        if future.cancelled():
            log.error("table %s: the decision of seat %d's bot was cancelled", table.table_id, seat)
        elif future.exception() is not None:
            log.error(
                "table %s: seat %d's bot failed: %s", table.table_id, seat, future.exception()
            )
        else:
            action = future.result()
        try:
            if action is None:
                raise ProtocolError(ErrorCode.INTERNAL, "the bot gave no action")
            self._apply(table, seat, job.seq, action)
        except ProtocolError as exc:
            if action is not None:
                log.error(
                    "table %s: seat %d's bot chose %r: %s", table.table_id, seat, action, exc.text
                )
            legal = table.legal(seat)
            if legal and not table.closed:
                fallback = Rng(derive_seed(table.seed, "fallback", seat, table.seq)).choice(legal)
                self._apply(table, seat, table.seq, fallback)

    # ---- hints ------------------------------------------------------------------------------
    def hint(self, asker: Asker, table: Session, seat: Seat) -> None:
        """What the normal bot would do for ``seat``'s current decision (:data:`HINT_BOT`).

        The caller checked the table's rules (:meth:`Session.check_hint`).  One computation per
        seat and decision: asking again while it runs (or while its answer is on its way) just
        waits for the same answer.
        """
        held = self._of(table)
        running = held.hints.get(seat)
        if running is not None and _current(table, seat, running.seq):
            if asker not in running.askers:
                running.askers.append(asker)
            return
        if running is not None:
            running.cancel()
        world_seed = derive_seed(table.seed, "hint", seat, table.seq)
        if self._process is not None:
            decision = self._process.decide(
                HINT_BOT,
                derive_seed(table.seed, "hint-bot", seat),
                None,
                table.state,
                seat,
                world_seed,
                key=("hint", table.table_id, seat),
                deadline=HINT_DEADLINE,
            )
        else:
            decision = hint_async(table.state.determinize(seat, world_seed), seat, world_seed)
        job = _HintJob(table.seq, decision, [asker], world_seed)
        held.hints[seat] = job
        self._when_done(decision, lambda f: self._hint_done(table, seat, job, f))

    def drop_old_hints(self, table: Session) -> None:
        """Stop computing hints about decisions that are gone."""
        held = self._tables.get(table.table_id)
        if held is None:
            return
        for seat, job in list(held.hints.items()):
            if not _current(table, seat, job.seq):
                job.cancel()
                del held.hints[seat]

    def _hint_done(
        self,
        table: Session,
        seat: Seat,
        job: _HintJob,
        future: concurrent.futures.Future[Action],
    ) -> None:
        held = self._tables.get(table.table_id)
        if held is None or table.closed:
            return
        if held.hints.get(seat) is job:
            del held.hints[seat]
        if not _current(table, seat, job.seq):
            return  # the decision moved on: the hint is of no use any more
        askers = [m for m in job.askers if m.table is table and m.seat == seat]
        error = None if future.cancelled() else future.exception()
        if future.cancelled() or error is not None:
            if not isinstance(error, BotCancelled) or future.cancelled():
                log.error("table %s: seat %d's hint failed: %s", table.table_id, seat, error)
            reply = protocol.error(ErrorCode.INTERNAL, "no hint could be worked out this time")
            for member in askers:
                self._send(member, reply)
            return
        action = tuple(future.result())
        try:
            why, cancel = hint_reasons_async(table.state, seat, action, job.seed)
        except Exception as exc:  # a hint without its reasons is still a hint
            log.error(
                "table %s: seat %d's hint could not be explained: %s", table.table_id, seat, exc
            )
            self._send_hint(table, seat, job, action, [])
            return
        job.explaining = cancel
        held.hints[seat] = job  # asking again meanwhile waits for this answer
        loop = asyncio.get_running_loop()

        def explained(f: concurrent.futures.Future[list[Reason]]) -> None:
            with contextlib.suppress(RuntimeError):  # a closed loop: the host has stopped
                loop.call_soon_threadsafe(self._hint_explained, table, seat, job, action, f)

        why.add_done_callback(explained)

    def _hint_explained(
        self,
        table: Session,
        seat: Seat,
        job: _HintJob,
        action: Action,
        future: concurrent.futures.Future[list[Reason]],
    ) -> None:
        held = self._tables.get(table.table_id)
        if held is None or table.closed:
            return
        if held.hints.get(seat) is job:
            del held.hints[seat]
        if not _current(table, seat, job.seq) or job.explaining is None:
            return
        if job.explaining.is_set():
            return  # cancelled: the decision moved on
        reasons: list[Reason] = []
        error = future.exception()
        if error is not None:
            log.error(
                "table %s: seat %d's hint could not be explained: %s", table.table_id, seat, error
            )
        else:
            reasons = future.result()
        self._send_hint(table, seat, job, action, reasons)

    def _send_hint(
        self, table: Session, seat: Seat, job: _HintJob, action: Action, reasons: list[Reason]
    ) -> None:
        message = {
            "t": "hint",
            "table": table.table_id,
            "seq": job.seq,
            "action": to_plain(list(action)),
            "why": [r.to_plain() for r in reasons],
        }
        for member in job.askers:
            if member.table is table and member.seat == seat:
                self._send(member, message)

    # ---- plumbing ---------------------------------------------------------------------------
    def _when_done(
        self, decision: Decision, callback: Callable[[concurrent.futures.Future[Action]], None]
    ) -> None:
        """Call ``callback(future)`` on the hub's loop once ``decision`` has ended.

        The decision's own ``concurrent.futures.Future`` is handed over (no asyncio future is
        made for it): a decision cancelled while the host shuts down — whose loop may stop
        before the callback runs — then never leaves an exception that nobody retrieved.
        """
        loop = asyncio.get_running_loop()

        def done(future: concurrent.futures.Future[Action]) -> None:
            if not future.cancelled():
                future.exception()  # retrieved here, whatever happens next
            with contextlib.suppress(RuntimeError):  # a closed loop: the host has stopped
                loop.call_soon_threadsafe(callback, future)

        decision.future.add_done_callback(done)
