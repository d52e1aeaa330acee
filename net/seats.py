"""The seats this computer's players hold at LAN tables, kept in the user data folder.

A host gives a player a token with their seat (``joined``, ``docs/protocol.md``); the token is
the only way back to that seat after the connection dropped, the host restarted from its save,
or this program was closed.  :class:`SeatStore` keeps every token a client of this computer
holds — per host address, table and seat — in ``<user data dir>/seats.json`` (``$LANTERN_DATA_DIR``
moves it), so that

* the window reconnects with it by itself, and its join screen offers "take your seat back"
  after the program was started again;
* ``lantern join --headless`` killed and started again with the same data folder takes its
  seat back and plays on.

A seat is remembered once its game runs (before the start a dropped seat opens again, so the
token would lead nowhere) and forgotten when the game is over or the host refuses the token (a
closed table keeps it: its host may continue the game from its save).  Each entry names the process holding the seat now (``holder``, its pid):
another live process of this computer never takes a seat held by a running one (two headless
players sharing a data folder would otherwise take each other's seats); a seat whose holder
has ended is free to take back.

The file comes from outside like a message: it is read with a size limit, every entry is
checked field by field (host, port, table id and token shaped as the protocol allows, seat
number, names cleaned and bounded) and an entry that fails is left out; a file that is not a
valid store at all counts as empty — a damaged file never stops a client, it is rewritten on
the next change.  Writes are atomic (temporary file, fsync, rename) and, where the system has
``fcntl``, serialised between processes by a lock file, so the window and headless players
of one data folder never lose each other's seats.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from game.core.match import clean_text, write_atomic
from net import protocol
from net.autosave import data_dir
from net.protocol import ProtocolError

#: The store's file name in the user data folder.
FILE_NAME = "seats.json"
#: The store's format version (a file of another version counts as empty).
VERSION = 1
#: The largest store file read (a bigger one counts as empty).
MAX_FILE_BYTES = 256 * 1024
#: Seats kept (the newest); older ones are dropped when a new one is remembered.
MAX_KEPT = 64
#: A seat not used for this many seconds is forgotten (a game does not pause for weeks).
MAX_AGE = 14 * 24 * 3600.0
#: A host address: a name or an IPv4/IPv6 address, as typed or discovered.
_HOST = re.compile(r"[A-Za-z0-9.\-:\[\]%_]{1,253}")


@dataclass(frozen=True)
class StoredSeat:
    """One seat held at a host's table (see the module docstring)."""

    host: str
    port: int
    table: str
    token: str
    seat: int
    game: str = ""
    #: The player's name at the table (shown on the join screen).
    name: str = ""
    #: When it was last remembered (seconds since the epoch).
    saved: float = 0.0
    #: The process holding the seat now (0: none).
    holder: int = 0

    @property
    def place(self) -> tuple[str, int, str, int]:
        """Host, port, table and seat: one token each."""
        return (self.host, self.port, self.table, self.seat)

    @property
    def address(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class BadEntry(ValueError):
    """A store entry that fails the check (it is left out)."""


def _string(raw: dict[str, Any], key: str, limit: int) -> str:
    value = raw.get(key, "")
    if not isinstance(value, str) or len(value) > 4 * limit:
        raise BadEntry(f"{key} must be a short string")
    return clean_text(value)[:limit]


def _integer(raw: dict[str, Any], key: str, lo: int, hi: int) -> int:
    value = raw.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise BadEntry(f"{key} must be an integer from {lo} to {hi}")
    return value


def check_entry(raw: Any) -> StoredSeat:
    """One entry of the file as a :class:`StoredSeat`; :class:`BadEntry` when any field is
    missing, of the wrong type or out of range."""
    if not isinstance(raw, dict):
        raise BadEntry("an entry must be a map")
    host = raw.get("host")
    if not isinstance(host, str) or not _HOST.fullmatch(host):
        raise BadEntry("host must be a host name or address")
    try:
        table = protocol.TABLE_ID("table", raw.get("table"))
        token = protocol.TOKEN("token", raw.get("token"))
        game = protocol.GAME_ID("game", raw["game"]) if raw.get("game") else ""
    except ProtocolError as exc:
        raise BadEntry(exc.text) from None
    saved = raw.get("saved", 0.0)
    if not isinstance(saved, int | float) or isinstance(saved, bool) or not math.isfinite(saved):
        raise BadEntry("saved must be a time")
    return StoredSeat(
        host=host.lower(),
        port=_integer(raw, "port", 1, 65535),
        table=table,
        token=token,
        seat=_integer(raw, "seat", 0, protocol.MAX_SEATS - 1),
        game=game,
        name=_string(raw, "name", protocol.MAX_NAME),
        saved=max(0.0, float(saved)),
        holder=_integer(raw, "holder", 0, 2**31 - 1) if "holder" in raw else 0,
    )


def parse(data: bytes, now: float | None = None) -> list[StoredSeat]:
    """The valid, recent entries of a store file's bytes, newest first (one per token)."""
    if len(data) > MAX_FILE_BYTES:
        return []
    try:
        raw = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError):
        return []
    if not isinstance(raw, dict) or raw.get("version") != VERSION:
        return []
    entries = raw.get("seats")
    if not isinstance(entries, list):
        return []
    now = time.time() if now is None else now
    seats: list[StoredSeat] = []
    for item in entries[: MAX_KEPT * 4]:
        try:
            seat = check_entry(item)
        except BadEntry:
            continue
        if now - seat.saved <= MAX_AGE:
            seats.append(seat)
    seats.sort(key=lambda s: s.saved, reverse=True)
    out: list[StoredSeat] = []
    tokens: set[str] = set()
    places: set[tuple[str, int, str, int]] = set()
    for seat in seats:
        place = seat.place
        if seat.token in tokens or place in places:
            continue
        tokens.add(seat.token)
        places.add(place)
        out.append(seat)
    return out[:MAX_KEPT]


def process_alive(pid: int) -> bool:
    """Whether process ``pid`` is running (this process always is)."""
    if pid <= 0:
        return False
    if pid == os.getpid():
        return True
    if os.name == "nt":  # pragma: no cover - Windows only
        return _windows_alive(pid)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process: alive
    except OSError:
        return False
    return True


def _windows_alive(pid: int) -> bool:  # pragma: no cover - Windows only
    import ctypes

    kernel = ctypes.windll.kernel32  # type: ignore[attr-defined]
    handle = kernel.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
    if not handle:
        return False
    try:
        code = ctypes.c_ulong()
        if not kernel.GetExitCodeProcess(handle, ctypes.byref(code)):
            return False
        return code.value == 259  # STILL_ACTIVE
    finally:
        kernel.CloseHandle(handle)


class SeatStore:
    """The seats file (see the module docstring).  ``path`` defaults to
    ``<user data dir>/seats.json``."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else data_dir() / FILE_NAME

    # ---- reading ------------------------------------------------------------------------------
    def seats(self) -> list[StoredSeat]:
        """Every valid seat of the file, newest first (none when the file is missing or bad)."""
        try:
            with open(self.path, "rb") as fh:
                data = fh.read(MAX_FILE_BYTES + 1)
        except OSError:
            return []
        return parse(data)

    def at(self, host: str, port: int) -> list[StoredSeat]:
        """The seats held at the host ``host:port``, newest first."""
        host = host.lower()
        return [s for s in self.seats() if s.host == host and s.port == port]

    def free(self, host: str, port: int, table: str | None = None) -> list[StoredSeat]:
        """The seats at ``host:port`` (at ``table`` when given) that this process may take back:
        held by nobody, by this process, or by a process that has ended."""
        return [
            s
            for s in self.at(host, port)
            if (table is None or s.table == table) and not self._held_elsewhere(s)
        ]

    def find(self, token: str) -> StoredSeat | None:
        return next((s for s in self.seats() if s.token == token), None)

    @staticmethod
    def _held_elsewhere(seat: StoredSeat) -> bool:
        return seat.holder not in (0, os.getpid()) and process_alive(seat.holder)

    # ---- writing ------------------------------------------------------------------------------
    def remember(self, seat: StoredSeat, hold: bool = True) -> None:
        """Keep ``seat`` (now, held by this process unless ``hold`` is false).  It replaces an
        entry with the same token (a host restarted from its save numbers its tables anew) or
        the same seat at the same host and table."""
        seat = replace(
            seat, host=seat.host.lower(), saved=time.time(), holder=os.getpid() if hold else 0
        )
        check_entry(seat.to_dict())  # never write what the next read would refuse

        def change(seats: list[StoredSeat]) -> list[StoredSeat]:
            kept = [s for s in seats if s.token != seat.token and s.place != seat.place]
            return [seat, *kept][:MAX_KEPT]

        self._update(change)

    def forget(self, token: str) -> None:
        """Drop the seat of ``token`` (its game ended, its table closed, the host refused it)."""
        self._update(lambda seats: [s for s in seats if s.token != token])

    def release(self, token: str) -> None:
        """This process no longer holds the seat of ``token`` (it stays remembered)."""
        pid = os.getpid()
        self._update(
            lambda seats: [
                replace(s, holder=0) if s.token == token and s.holder == pid else s for s in seats
            ]
        )

    def _update(self, change: Any) -> None:
        """Read, change and write the file under the lock; a file that cannot be written is
        left as it was (a client plays on without it)."""
        with contextlib.suppress(OSError), self._locked():
            before = self.seats()
            after = change(before)
            if after == before and self.path.exists():
                return
            body = {"version": VERSION, "seats": [s.to_dict() for s in after]}
            write_atomic(self.path, json.dumps(body, indent=1).encode("utf-8"))

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """An exclusive lock between processes (``fcntl``; without it, none)."""
        try:
            import fcntl
        except ImportError:  # pragma: no cover - Windows
            yield
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path.with_name(self.path.name + ".lock"), "a+b") as lock:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock.fileno(), fcntl.LOCK_UN)
