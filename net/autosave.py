"""The host's autosaves: every table's match record on disk, written off the event loop.

A table's save file is its :class:`~game.core.match.Replay` (seed, options, seats, every
action), the same format as a replay, in the user data folder's ``saves/`` (or the folder the
host was given).  :class:`Autosaver` hands records to one writer thread: encoding and the atomic
write never block the loop, and a burst of actions (bots, a fast player) within
:data:`SAVE_DELAY` seconds becomes one write.
"""

from __future__ import annotations

import concurrent.futures
import logging
import os
import threading
import time
from pathlib import Path

from game.core.match import Replay, write_atomic

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
        self._pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="lantern-save"
        )

    def open(self, table_id: str, game_id: str) -> Path | None:
        """Name the save file of a new table (``None`` when autosaves are off)."""
        if not self.enabled:
            return None
        stamp = time.strftime("%Y%m%d-%H%M%S")
        folder = self.folder if self.folder is not None else default_save_dir()
        path = folder / f"{game_id}-{stamp}-{table_id}.save"
        self._savers[table_id] = Saver(path)
        return path

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
        """The table is closed: its file stays, queued writes still happen."""
        self._savers.pop(table_id, None)

    def shutdown(self, wait: bool = True) -> None:
        """Flush pending writes (with ``wait``) and stop the writer thread."""
        self._pool.shutdown(wait=wait)
