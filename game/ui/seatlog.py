"""The log of a LAN seat, kept on disk so that a window started again after a crash shows it.

A LAN player's window keeps the events its seat was shown (the same ones its log lines come
from) in ``<user data dir>/seatlogs/<table>-<token digest>.jsonl``, one JSON line per state
message, from the moment the game runs.  Taking the seat back with its token (the main menu's
"back to your seat", the join screen) reads them into :attr:`TableClient.history`, and the
game scene writes them into its log before what happens next
(:func:`game.ui.client.restore_log`), followed by a line saying that what happened while the
window was closed is not in it.  The file goes when the seat is forgotten (the game is over,
the host no longer knows the token).

Only this computer's player's own events are written, in this computer's data folder.  The
file is read like any data from outside: a size limit, each line parsed on its own, only maps
with a string ``type`` kept, at most :data:`MAX_EVENTS` (the newest); a damaged file gives what
can be read, never an error.  Writes append (a crash loses at most the line being written);
once the file holds twice :data:`MAX_EVENTS` it is rewritten with the newest.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from pathlib import Path
from typing import Any

from net.autosave import data_dir

#: Events kept per seat (as many as a continued local game's log gets).
MAX_EVENTS = 4000
#: The largest file read.
MAX_FILE_BYTES = 8 * 1024 * 1024
_TABLE = re.compile(r"[A-Za-z0-9_-]{1,64}")


def log_dir() -> Path:
    return data_dir() / "seatlogs"


class SeatLog:
    """The kept events of one seat (``table`` and ``token`` name it)."""

    def __init__(self, table: str, token: str, folder: Path | None = None) -> None:
        safe = table if _TABLE.fullmatch(table) else hashlib.sha256(table.encode()).hexdigest()
        digest = hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()[:24]
        self.path = (folder or log_dir()) / f"{safe[:64]}-{digest}.jsonl"
        self._lines: int | None = None

    def append(self, events: list[dict[str, Any]]) -> None:
        """Add a state message's events (never raises: a log that cannot be written is not
        kept)."""
        events = [ev for ev in events if isinstance(ev, dict)]
        if not events:
            return
        try:
            line = json.dumps(events, ensure_ascii=False, separators=(",", ":"), default=str)
        except (TypeError, ValueError):
            return
        with contextlib.suppress(OSError):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as f:
                f.write(line + "\n")
            if self._lines is None:
                self._lines = self._count()
            self._lines += len(events)
            if self._lines > 2 * MAX_EVENTS:
                self._trim()

    def load(self) -> list[dict[str, Any]]:
        """The kept events, oldest first (at most :data:`MAX_EVENTS`)."""
        try:
            if self.path.stat().st_size > MAX_FILE_BYTES:
                return []
            text = self.path.read_text("utf-8", errors="replace")
        except OSError:
            return []
        events: list[dict[str, Any]] = []
        for line in text.splitlines():
            try:
                batch = json.loads(line)
            except (ValueError, RecursionError):
                continue
            if not isinstance(batch, list):
                continue
            events.extend(
                ev for ev in batch if isinstance(ev, dict) and isinstance(ev.get("type"), str)
            )
            del events[:-MAX_EVENTS]
        return events

    def forget(self) -> None:
        with contextlib.suppress(OSError):
            self.path.unlink()
        self._lines = 0

    def _count(self) -> int:
        return len(self.load())

    def _trim(self) -> None:
        events = self.load()[-MAX_EVENTS:]
        tmp = self.path.with_suffix(".tmp")
        with contextlib.suppress(OSError):
            tmp.write_text(
                json.dumps(events, ensure_ascii=False, separators=(",", ":"), default=str) + "\n",
                "utf-8",
            )
            tmp.replace(self.path)
            self._lines = len(events)
