"""The host's autosaves: every table's match record on disk, written off the event loop.

A table's save file is its :class:`~game.core.match.Replay` (seed, options, seats, every
action), the same format as a replay, in the user data folder's ``saves/`` (or the folder the
host was given).  Two layers keep it safe:

* **The journal** (``<save>.journal``, :func:`game.core.match.journal_entry`): before the host
  sends anyone the views of a change, the change is appended to the journal with one small
  ``os.write`` (a few microseconds, on the loop).  A host killed at any moment (``kill -9``)
  therefore never leaves a client having seen a position that the save does not hold:
  :meth:`~game.core.match.Replay.load` reads the save and then the journal.
* **The snapshot**: :class:`Autosaver` hands whole records to one writer thread (encoding, the
  atomic write and its fsync never block the loop), and a burst of actions within
  :data:`SAVE_DELAY` seconds becomes one write.  When a game starts (or is continued) the
  snapshot is written at once and the journal begins empty; when it ends, the final snapshot
  is written at once and the journal removed.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import logging
import os
import threading
import time
from pathlib import Path

from game.core.match import Replay, journal_entry, journal_path, write_atomic
from game.core.types import Action, Seat

log = logging.getLogger("lantern.host")

#: Environment variable that moves the user data directory (tests, portable installs).
DATA_DIR_ENV = "LANTERN_DATA_DIR"
#: An autosave is written this many seconds after the action that asked for it (bursts of
#: actions within the delay are written once).
SAVE_DELAY = 0.05


def data_dir() -> Path:
    """The user data directory: ``$LANTERN_DATA_DIR`` or the platform's one for lantern-table."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("lantern-table"))


def default_save_dir() -> Path:
    """Where autosaves go unless told otherwise: ``<user data dir>/saves``."""
    return data_dir() / "saves"


class Saver:
    """The newest unsaved record of one table, handed from the loop to the writer thread."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._pending: Replay | None = None
        self._busy = False

    def put(self, record: Replay) -> None:
        with self._lock:
            self._pending = record

    def claim(self) -> bool:
        """True if the caller must schedule :meth:`flush` (no flush is running or queued)."""
        with self._lock:
            if self._busy:
                return False
            self._busy = True
            return True

    def flush(self) -> None:
        """Write the newest record until none is pending (runs on the writer thread).

        It first waits :data:`SAVE_DELAY` seconds, so a burst of actions becomes one write.
        """
        while True:
            time.sleep(SAVE_DELAY)
            with self._lock:
                record, self._pending = self._pending, None
                if record is None:
                    self._busy = False
                    return
            try:
                write_atomic(self.path, record.to_bytes())
            except OSError as exc:
                log.error("autosave to %s failed: %s", self.path, exc)


class Autosaver:
    """Save files of every table of one hub (``folder=None``: :func:`default_save_dir`)."""

    def __init__(self, folder: Path | None, enabled: bool = True) -> None:
        self.folder = folder
        self.enabled = enabled
        self._savers: dict[str, Saver] = {}
        self._journals: dict[str, int] = {}
        self._pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="lantern-save"
        )

    def open(self, table_id: str, game_id: str, path: Path | None = None) -> Path | None:
        """Name the save file of a new table (``None`` when autosaves are off); ``path``
        continues an existing save file in place (one game, one file)."""
        if not self.enabled:
            return None
        if path is None:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            folder = self.folder if self.folder is not None else default_save_dir()
            path = folder / f"{game_id}-{stamp}-{table_id}.save"
        self._savers[table_id] = Saver(path)
        return path

    def begin(self, table_id: str, record: Replay) -> None:
        """The game starts (or continues): write the snapshot now and start an empty journal."""
        saver = self._savers.get(table_id)
        if saver is None:
            return
        self._close_journal(table_id)
        try:
            write_atomic(saver.path, record.to_bytes())
            fd = os.open(
                journal_path(saver.path), os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o644
            )
        except OSError as exc:
            log.error("autosave to %s failed: %s", saver.path, exc)
            return
        self._journals[table_id] = fd

    def journal(self, table_id: str, start: int, actions: list[tuple[Seat, Action]]) -> None:
        """Record at once that the table's actions from index ``start`` on are now ``actions``
        (one action appended, or an undo's rewritten tail) — before anyone sees the change."""
        fd = self._journals.get(table_id)
        if fd is None:
            return
        try:
            os.write(fd, journal_entry(start, actions))
        except OSError as exc:
            log.error("the autosave journal of table %s failed: %s", table_id, exc)
            self._close_journal(table_id)

    def finish(self, table_id: str, record: Replay) -> None:
        """The game is over: write the final snapshot now and drop the journal."""
        saver = self._savers.get(table_id)
        if saver is None:
            return
        saver.put(record)  # a queued older write must not overwrite the final one
        try:
            write_atomic(saver.path, record.to_bytes())
        except OSError as exc:
            log.error("autosave to %s failed: %s", saver.path, exc)
            return
        self._close_journal(table_id)
        with contextlib.suppress(OSError):
            os.unlink(journal_path(saver.path))

    def _close_journal(self, table_id: str) -> None:
        fd = self._journals.pop(table_id, None)
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)

    def path(self, table_id: str) -> Path | None:
        saver = self._savers.get(table_id)
        return saver.path if saver is not None else None

    def save(self, table_id: str, record: Replay) -> None:
        """Queue ``record`` for the writer thread (it never blocks the loop)."""
        saver = self._savers.get(table_id)
        if saver is None:
            return
        saver.put(record)
        if saver.claim():
            try:
                self._pool.submit(saver.flush)
            except RuntimeError:  # shutting down: write it here
                saver.flush()

    def forget(self, table_id: str) -> None:
        """The table is closed: its file (and journal) stay, queued writes still happen."""
        self._savers.pop(table_id, None)
        self._close_journal(table_id)

    def shutdown(self, wait: bool = True) -> None:
        """Flush pending writes (with ``wait``) and stop the writer thread."""
        self._pool.shutdown(wait=wait)
        for table_id in list(self._journals):
            self._close_journal(table_id)
