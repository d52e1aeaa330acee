"""Playouts of the hard level's race on more than one core (root parallelism).

The race (:meth:`game.bots.mcts.MctsBot._race`) plays every surviving turn in each sampled world;
those playouts are independent of one another given the world's seed.  With ``cores > 1`` the
search hands a share of each batch of playouts to ``cores - 1`` helper processes and plays the
rest itself, then takes the results in the order a single core would have played them — so the
decision is *the same* as on one core with the same counts (a test checks it), only sooner.  The
hard level therefore gains on an idle machine by searching ``cores`` times the work in the same
wall-clock time (:func:`game.bots.hard_bot`'s ``cores``); ``docs/bots.md`` says what that is
worth.  The default is one core.

The helpers are plain child processes (:func:`main` in a new interpreter, not
:mod:`multiprocessing`: a bot often thinks inside a daemonic worker process, which may not have
multiprocessing children), started once per bot and kept for its later decisions; they speak
length-prefixed pickles over their standard input and output with their parent only:

* ``("setup", game_id, module, state, seat, horizon, params, plans)`` — the position of a
  search (``state`` is ``to_dict()`` of the searching seat's determinized copy), the search's
  playout parameters (with ``game_tuning``: judge with the game's hard-level evaluation, as the
  parent does) and the turns to race;
* ``("run", [(seed, plan_index, stratum), ...])`` — play those playouts (``stratum``: the
  world's stratification, or ``None``); the answer is
  ``[(reward, work), ...]`` and the CPU time it took;
* ``("stop",)``.

A helper that dies or answers nonsense is dropped and its playouts are played by the parent: the
decision is still the same.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import struct
import subprocess
import sys
import time
import weakref
from collections.abc import Sequence
from typing import IO, Any

from game.core.types import Action

_HEADER = struct.Struct("!Q")
#: The largest message a helper or its parent accepts (a state and its turns are far smaller).
MAX_MESSAGE = 64 << 20

#: (the world's seed, the turn's index among the race's turns, the world's stratum or None)
Task = tuple[int, int, float | None]
Outcome = tuple[float, int]  # (the searching seat's reward, the playout's work)


def _send(stream: IO[bytes], message: Any) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_HEADER.pack(len(data)))
    stream.write(data)
    stream.flush()


def _receive(stream: IO[bytes]) -> Any:
    header = stream.read(_HEADER.size)
    if len(header) < _HEADER.size:
        raise EOFError("the other side closed the pipe")
    (size,) = _HEADER.unpack(header)
    if size > MAX_MESSAGE:
        raise ValueError(f"a message of {size} bytes is too large")
    data = stream.read(size)
    if len(data) < size:
        raise EOFError("the other side closed the pipe")
    return pickle.loads(data)  # only ever from our own parent or child process


class _Helper:
    """One helper process."""

    def __init__(self) -> None:
        env = dict(os.environ)
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        self.process = subprocess.Popen(
            [sys.executable, "-c", "from game.bots.parallel import main; main()"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )

    def send(self, message: Any) -> None:
        assert self.process.stdin is not None
        _send(self.process.stdin, message)

    def receive(self) -> Any:
        assert self.process.stdout is not None
        return _receive(self.process.stdout)

    def close(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.send(("stop",))
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=5)
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()


def _close_all(helpers: list[_Helper]) -> None:
    for helper in helpers:
        helper.close()
    helpers.clear()


class RacePool:
    """``cores - 1`` helper processes playing a share of a race's playouts (see the module
    docstring).  ``run_local(tasks)`` is how the parent plays its own share."""

    def __init__(self, cores: int) -> None:
        if cores < 2:
            raise ValueError("a race pool needs at least 2 cores")
        self.cores = cores
        self._helpers: list[_Helper] = [_Helper() for _ in range(cores - 1)]
        self._ready: list[bool] = [False] * len(self._helpers)
        self._finalizer = weakref.finalize(self, _close_all, self._helpers)
        #: CPU seconds the helpers spent on the last :meth:`run` calls since :meth:`setup`.
        self.helper_cpu = 0.0

    def setup(self, message: tuple[Any, ...]) -> None:
        """Send the position of a new search to every helper."""
        self.helper_cpu = 0.0
        for i, helper in enumerate(self._helpers):
            try:
                helper.send(message)
                self._ready[i] = True
            except (OSError, ValueError):
                self._ready[i] = False

    def run(self, tasks: Sequence[Task], run_local: Any) -> list[Outcome]:
        """The outcomes of ``tasks`` in order: every ``cores``-th task from the first is played
        here (``run_local(tasks) -> outcomes``), the others by the helpers."""
        shares = [list(tasks[i :: self.cores]) for i in range(self.cores)]
        sent = [False] * len(self._helpers)
        for i, helper in enumerate(self._helpers):
            if self._ready[i] and shares[i + 1]:
                try:
                    helper.send(("run", shares[i + 1]))
                    sent[i] = True
                except (OSError, ValueError):
                    self._ready[i] = False
        try:
            results: list[list[Outcome]] = [run_local(shares[0])]
        except BaseException:
            # cancelled (or failed) while the helpers play: their answers would be read by the
            # next search as its own, so they are ended and the bot starts new ones
            self.close()
            raise
        for i, helper in enumerate(self._helpers):
            share = shares[i + 1]
            outcomes: list[Outcome] | None = None
            if sent[i]:
                try:
                    reply = helper.receive()
                    outcomes, cpu = reply
                    if not isinstance(outcomes, list) or len(outcomes) != len(share):
                        raise ValueError("a helper answered with the wrong number of playouts")
                    self.helper_cpu += float(cpu)
                except (OSError, EOFError, ValueError, pickle.UnpicklingError, TypeError):
                    self._ready[i] = False
                    outcomes = None
            if outcomes is None:
                outcomes = run_local(share) if share else []
            results.append(outcomes)
        ordered: list[Outcome] = []
        for k in range(len(tasks)):
            ordered.append(results[k % self.cores][k // self.cores])
        return ordered

    @property
    def closed(self) -> bool:
        return not self._finalizer.alive

    def close(self) -> None:
        self._finalizer()


def _serve(stdin: IO[bytes], stdout: IO[bytes]) -> None:
    """A helper's loop: answer ``setup`` and ``run`` until ``stop`` or the pipe closes."""
    from game.bots.knowledge import knowledge_for
    from game.bots.mcts import MctsBot
    from game.core import registry
    from game.core.registry import get_game

    bot: MctsBot | None = None
    state: Any = None
    seat = 0
    horizon = 0
    plans: list[tuple[Action, ...]] = []
    knowledge: Any = None
    while True:
        try:
            message = _receive(stdin)
        except (EOFError, OSError):
            return
        kind = message[0]
        if kind == "stop":
            return
        if kind == "setup":
            _kind, game_id, module, data, seat, horizon, params, plans = message
            if module is not None and registry.module_of(game_id) is None:
                registry.register(game_id, module, listed=False)
            state = get_game(game_id).from_dict(data)
            knowledge = knowledge_for(game_id)
            if params.pop("game_tuning", False):
                knowledge = knowledge.for_hard()
            knowledge = knowledge.scaled(float(params.get("scale_factor", 1.0)))
            bot = MctsBot(0, budget=None, iterations=1, **params)
            continue
        if kind == "run" and bot is not None:
            started = time.thread_time()
            outcomes = [
                bot.race_playout(state, seat, plans[index], seed, knowledge, horizon, None, stratum)
                for seed, index, stratum in message[1]
            ]
            _send(stdout, (outcomes, time.thread_time() - started))


def main() -> None:
    """A helper process's entry point (``python -c "from game.bots.parallel import main;
    main()"``)."""
    protocol_out = sys.stdout.buffer
    sys.stdout = sys.stderr  # anything printed goes to stderr, not into the protocol
    _serve(sys.stdin.buffer, protocol_out)


__all__ = ["RacePool"]
