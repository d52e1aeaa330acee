"""A review running in a worker process, so the window never waits for it.

:class:`ReviewJob` starts one review (one replay file, one seat, one budget) in a separate
process (``spawn``: nothing of the window's state is shared, and the window keeps its core).
The worker reports its progress after each judged turn, saves the finished review beside the
replay (:mod:`game.review.cache`) and sends it back.  The window calls :meth:`ReviewJob.poll`
once a frame (it never blocks) and :meth:`ReviewJob.cancel` to stop: the worker checks the
cancel flag inside the search and quits at once; one that does not end within a moment is
terminated.  A replay that does not replay gives :attr:`ReviewJob.error` (one sentence).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import os
import sys
import traceback
from typing import Any

from game.review.settings import ReviewSettings


def _child(
    conn: multiprocessing.connection.Connection,
    path: str,
    seat: int,
    plain: dict[str, int],
    cancel: Any,
    module: tuple[str, str] | None,
) -> None:
    """The worker: review, save beside the replay, send the result (or why not)."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(4)  # the window (and the bots of a game in progress) come first
    from game.core import registry
    from game.core.match import Replay
    from game.core.registry import UnknownGame
    from game.core.types import BadState
    from game.review import cache
    from game.review.analysis import ReviewCancelled, review_replay

    def send(*message: Any) -> None:
        with contextlib.suppress(OSError, EOFError, BrokenPipeError):
            conn.send(message)

    try:
        if module is not None and registry.module_of(module[0]) is None:
            registry.register(module[0], module[1], listed=False)  # a game only tests register
        settings = ReviewSettings(plain["iterations"], plain["worlds"], plain["graph_worlds"])
        replay = Replay.load(path)
        review = review_replay(
            replay, seat, settings, lambda done, total: send("progress", done, total), cancel
        )
        saved = cache.save(path, replay, seat, settings, review)
        send("done", review, saved)
    except ReviewCancelled:
        send("cancelled")
    except (BadState, UnknownGame) as exc:
        send("error", str(exc))
    except Exception as exc:  # reported to the window in one sentence, the details here
        traceback.print_exc(file=sys.stderr)
        send("error", f"{type(exc).__name__}: {exc}")
    finally:
        with contextlib.suppress(OSError):
            conn.close()


class ReviewJob:
    """One review in a worker process (see the module docstring)."""

    def __init__(self, path: str, game_id: str, seat: int, settings: ReviewSettings) -> None:
        from game.core import registry

        ctx = multiprocessing.get_context("spawn")
        self._conn, child_conn = ctx.Pipe(duplex=False)
        self._cancel = ctx.Event()
        self.seat = seat
        self.settings = settings
        #: Judged turns so far and in all (the progress bar).
        self.done = 0
        self.total = 1
        #: The finished review, and whether it was saved beside the replay.
        self.result: dict[str, Any] | None = None
        self.saved = False
        #: Why the review could not be made (one sentence), or None.
        self.error: str | None = None
        self.cancelled = False
        module = registry.module_of(game_id)
        plain = {
            "iterations": settings.iterations,
            "worlds": settings.worlds,
            "graph_worlds": settings.graph_worlds,
        }
        self._process = ctx.Process(
            target=_child,
            args=(
                child_conn,
                path,
                seat,
                plain,
                self._cancel,
                (game_id, module) if module else None,
            ),
            name="lantern-review",
            daemon=True,
        )
        self._process.start()
        child_conn.close()

    @property
    def finished(self) -> bool:
        """Whether the job has ended (a result, an error or a cancellation)."""
        return self.result is not None or self.error is not None or self.cancelled

    @property
    def fraction(self) -> float:
        return min(1.0, self.done / max(1, self.total))

    def poll(self) -> None:
        """Take in what the worker has sent so far (never waits)."""
        while not self.finished:
            try:
                if not self._conn.poll():
                    if not self._process.is_alive() and not self._conn.poll():
                        self.error = "the review stopped unexpectedly"
                    break
                message = self._conn.recv()
            except (EOFError, OSError):
                if not self.finished:
                    self.error = "the review stopped unexpectedly"
                break
            kind = message[0]
            if kind == "progress":
                self.done, self.total = int(message[1]), int(message[2])
            elif kind == "done":
                self.result, self.saved = message[1], bool(message[2])
                self.done = self.total
            elif kind == "cancelled":
                self.cancelled = True
            else:
                self.error = str(message[1])
        if self.finished:
            self._reap(0.0)

    def cancel(self) -> None:
        """Stop the review (the worker quits at its next check; see :meth:`close`)."""
        if self.finished:
            return
        self._cancel.set()
        self.cancelled = True

    def close(self, wait: float = 1.0) -> None:
        """Cancel if running and end the worker process (terminated after ``wait`` seconds)."""
        self.cancel()
        self._reap(wait)
        with contextlib.suppress(OSError):
            self._conn.close()

    def _reap(self, wait: float) -> None:
        process = self._process
        process.join(timeout=wait)
        if process.is_alive() and wait > 0:
            process.terminate()
            process.join(timeout=2.0)

    @property
    def alive(self) -> bool:
        """Whether the worker process is still running (tests)."""
        return self._process.is_alive()
