"""The files an install page serves: a catalogue fixed when the server starts.

:func:`scan` lists the wheels (``.whl``) and source archives (``.tar.gz``) lying directly in
the given folders — no subfolders, no symbolic links, only names made of letters, digits and
``._+!-`` — and records each file's path, size, identity and sha256.  The server looks a
requested name up in this catalogue and opens only the path recorded for it, so nothing a
request says is ever turned into a path: a file outside the folders cannot be named at all.
When a file is opened to be served, its identity (device, inode, size, modification time)
must still be the one scanned, so the sha256 the index announced is the file's.

Names follow the packaging specifications: a project's name is normalised as PEP 503 says
(:func:`normalise`); a wheel's file name is ``name-version(-build)?-python-abi-platform.whl``
and a source archive's ``name-version.tar.gz``.
"""

from __future__ import annotations

import contextlib
import email.parser
import hashlib
import logging
import os
import re
import stat
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger("lantern.install")

#: Characters a served file name may hold (every real wheel and sdist name fits).
_SAFE_NAME = re.compile(r"[A-Za-z0-9._+!-]{1,200}")
_WHEEL = re.compile(
    r"(?P<name>[A-Za-z0-9._]+?)-(?P<version>[A-Za-z0-9._+!]+)(-(?P<build>\d[A-Za-z0-9_.]*))?"
    r"-(?P<python>[A-Za-z0-9._]+)-(?P<abi>[A-Za-z0-9._]+)-(?P<platform>[A-Za-z0-9._]+)\.whl"
)
_SDIST = re.compile(r"(?P<name>[A-Za-z0-9._-]+)-(?P<version>[0-9][A-Za-z0-9._+!]*)\.tar\.gz")
#: Largest file a wheelhouse may serve, and the most files it lists.
MAX_FILE_BYTES = 512 * 1024 * 1024
MAX_FILES = 2000
#: Largest METADATA / PKG-INFO read to find ``Requires-Python``.
MAX_METADATA_BYTES = 1024 * 1024


def normalise(name: str) -> str:
    """A project name as PEP 503 normalises it: lower case, runs of ``-_.`` made one ``-``."""
    return re.sub(r"[-_.]+", "-", name).lower()


@dataclass(frozen=True)
class Entry:
    """One file of the wheelhouse."""

    name: str  # the file name, as served under /files/
    path: Path
    project: str  # normalised project name
    version: str
    size: int
    sha256: str
    requires_python: str  # "" when the file does not say
    #: (device, inode, size, mtime_ns) when scanned: the file served must be this one.
    identity: tuple[int, int, int, int]

    @property
    def is_wheel(self) -> bool:
        return self.name.endswith(".whl")

    @property
    def tags(self) -> tuple[str, str, str]:
        """A wheel's (python, abi, platform) tags (``("", "", "")`` for a source archive)."""
        found = _WHEEL.fullmatch(self.name)
        if found is None:
            return ("", "", "")
        return (found["python"], found["abi"], found["platform"])


@dataclass(frozen=True)
class Wheelhouse:
    """The catalogue: file name -> :class:`Entry` (see the module docstring)."""

    entries: dict[str, Entry]

    def projects(self) -> dict[str, list[Entry]]:
        """Normalised project name -> its files, sorted by name."""
        out: dict[str, list[Entry]] = {}
        for entry in sorted(self.entries.values(), key=lambda e: e.name):
            out.setdefault(entry.project, []).append(entry)
        return dict(sorted(out.items()))

    def total_bytes(self) -> int:
        return sum(e.size for e in self.entries.values())

    def has_project(self, project: str) -> bool:
        return any(e.project == project for e in self.entries.values())


def parse_name(filename: str) -> tuple[str, str] | None:
    """``(normalised project, version)`` of a wheel or source archive name, else ``None``."""
    if not _SAFE_NAME.fullmatch(filename):
        return None
    found = _WHEEL.fullmatch(filename) or _SDIST.fullmatch(filename)
    if found is None:
        return None
    return normalise(found["name"]), found["version"]


def identity(st: os.stat_result) -> tuple[int, int, int, int]:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


#: Flags to open a served file: read only, never through a symbolic link.
OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def _sha256(path: Path) -> tuple[str, tuple[int, int, int, int]]:
    """The sha256 of a plain file and its identity (a file swapped meanwhile is refused)."""
    digest = hashlib.sha256()
    fd = os.open(path, OPEN_FLAGS)
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise OSError(f"{path} is not a plain file")
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest(), identity(st)


def _requires_python(path: Path) -> str:
    """``Requires-Python`` from a wheel's METADATA or an sdist's PKG-INFO ("" if none)."""
    try:
        if path.name.endswith(".whl"):
            with zipfile.ZipFile(path) as z:
                names = [
                    n
                    for n in z.namelist()
                    if n.count("/") == 1 and n.endswith(".dist-info/METADATA")
                ]
                if len(names) != 1 or z.getinfo(names[0]).file_size > MAX_METADATA_BYTES:
                    return ""
                text = z.read(names[0]).decode("utf-8", "replace")
        else:
            with tarfile.open(path, "r:gz") as tar:
                member = next(
                    (m for m in tar if m.isfile() and m.name.count("/") == 1 and
                     m.name.endswith("/PKG-INFO")),
                    None,
                )  # fmt: skip
                if member is None or member.size > MAX_METADATA_BYTES:
                    return ""
                f = tar.extractfile(member)
                if f is None:
                    return ""
                text = f.read(MAX_METADATA_BYTES).decode("utf-8", "replace")
    except (OSError, zipfile.BadZipFile, tarfile.TarError, EOFError, ValueError):
        return ""
    value = email.parser.HeaderParser().parsestr(text).get("Requires-Python", "") or ""
    value = " ".join(str(value).split())
    return value if re.fullmatch(r"[0-9A-Za-z.,*<>=!~ ]{1,100}", value) else ""


def _entry(path: Path, st: os.stat_result) -> Entry | None:
    """The catalogue entry of one file (``None``: not one to serve; logged)."""
    parsed = parse_name(path.name)
    if parsed is None:
        return None
    if not stat.S_ISREG(st.st_mode):
        log.warning("install page: %s is not a plain file; not served", path)
        return None
    if st.st_size > MAX_FILE_BYTES:
        log.warning("install page: %s is larger than 512 MiB; not served", path)
        return None
    try:
        sha, ident = _sha256(path)
    except OSError as exc:
        log.warning("install page: cannot read %s: %s", path, exc)
        return None
    if ident != identity(st):
        log.warning("install page: %s changed while it was read; not served", path)
        return None
    return Entry(
        name=path.name,
        path=path,
        project=parsed[0],
        version=parsed[1],
        size=st.st_size,
        sha256=sha,
        requires_python=_requires_python(path),
        identity=ident,
    )


def scan(folders: list[Path], files: list[Path] | None = None) -> Wheelhouse:
    """The catalogue of the files directly in ``folders``, then of ``files`` (the first one of
    a name wins).  Files that are no wheel or sdist, symbolic links, subfolders and unreadable
    files are left out (and logged)."""
    entries: dict[str, Entry] = {}
    candidates: list[tuple[Path, os.stat_result]] = []
    for folder in folders:
        try:
            listing = sorted(os.scandir(folder), key=lambda d: d.name)
        except OSError as exc:
            log.warning("install page: cannot read %s: %s", folder, exc)
            continue
        for item in listing:
            with contextlib.suppress(OSError):
                candidates.append((Path(item.path), item.stat(follow_symlinks=False)))
    for path in files or []:
        with contextlib.suppress(OSError):
            candidates.append((path, path.lstat()))
    for path, st in candidates:
        if path.name in entries or len(entries) >= MAX_FILES:
            continue
        entry = _entry(path, st)
        if entry is not None:
            entries[entry.name] = entry
    return Wheelhouse(entries)


__all__ = ["OPEN_FLAGS", "Entry", "Wheelhouse", "identity", "normalise", "parse_name", "scan"]
