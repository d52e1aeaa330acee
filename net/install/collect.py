"""The running platform's wheels, made from what this computer has installed — no internet.

A host that never ran ``lantern wheelhouse`` still serves its own platform (the same operating
system, processor and Python version as its own):

* **Lantern Table's own wheel.**  When the running ``game`` package lives in a source tree (a
  checkout, installed with ``pip install -e .`` or not installed at all), the wheel is built
  from that tree with the project's build backend (setuptools, PEP 517): an sdist first, then
  the wheel from the unpacked sdist, so the wheel holds exactly what a release would.  This
  needs setuptools 77 or newer importable by this Python (the test extra installs it); without
  it, a wheel of this version prepared by ``lantern wheelhouse`` is served instead, if there is
  one.  Built wheels are cached under a digest of the source files.  When the running package
  was installed from a wheel, that installation is rebuilt into a wheel as the dependencies
  are.
* **The dependencies** (``Requires-Dist`` of the project, then of each dependency, extras
  left out): each installed distribution is rebuilt into a wheel from its installed files, as
  its ``RECORD`` lists them — every file's sha256 and size checked against the ``RECORD``
  first, so a modified installation is refused rather than handed on.  The wheel gets the
  tags of the installed one (its ``WHEEL`` file), its ``RECORD`` is written anew; the installer's
  own files (``INSTALLER``, ``REQUESTED``, ``direct_url.json``), compiled ``__pycache__`` files
  and the console scripts pip generated from the entry points are left out — pip makes those
  again when it installs the wheel.  A distribution with other files outside its package folder
  cannot be rebuilt faithfully and is refused.

What could not be made is reported as notes (shown on the install page and logged): a host
prepared offline serves only what it has.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import importlib.metadata as md
import io
import logging
import os
import re
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from net.install.wheelhouse import normalise

log = logging.getLogger("lantern.install")

PROJECT = "lantern-table"
#: Seconds a build of the project's wheel may take.
BUILD_TIMEOUT = 300.0
#: Files of an installed distribution's ``.dist-info`` that the installer wrote (not the wheel).
INSTALLER_FILES = frozenset({"INSTALLER", "REQUESTED", "direct_url.json", "RECORD"})


class CollectError(Exception):
    """One wheel could not be made (the text says why, for the page and the log)."""


@dataclass
class Collected:
    """The wheels made for this platform, and what could not be made."""

    files: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def cache_dir() -> Path:
    """Where made wheels are kept: ``$LANTERN_CACHE_DIR`` or the user cache folder."""
    override = os.environ.get("LANTERN_CACHE_DIR")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_cache_dir("lantern-table"))


# ---- names -------------------------------------------------------------------------------------
def _escape(name: str) -> str:
    """A distribution name as wheel file names write it (PEP 427 / binary distribution format)."""
    return re.sub(r"[-_.]+", "_", name).lower()


def _tags(wheel_text: str) -> str:
    """The ``python-abi-platform`` part of a wheel name from the ``Tag:`` lines of ``WHEEL``."""
    tags = [
        line.split(":", 1)[1].strip() for line in wheel_text.splitlines() if line.startswith("Tag:")
    ]
    if not tags or any(t.count("-") != 2 for t in tags):
        raise CollectError("its WHEEL file names no valid tags")
    columns: list[list[str]] = [[], [], []]
    for tag in tags:
        for i, part in enumerate(tag.split("-")):
            if part not in columns[i]:
                columns[i].append(part)
    return "-".join(".".join(col) for col in columns)


def _runtime(requirements: list[str] | None) -> list[str]:
    """The requirements that hold outside any extra (``foo>=1; extra == "x"`` is left out)."""
    return [r.strip() for r in requirements or [] if "extra" not in r.partition(";")[2]]


def _name(requirement: str) -> str | None:
    found = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    return found.group(1) if found else None


# ---- rebuilding an installed distribution ---------------------------------------------------
def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _console_scripts(dist: md.Distribution) -> set[str]:
    return {ep.name for ep in dist.entry_points if ep.group in ("console_scripts", "gui_scripts")}


def repack(dist: md.Distribution, out: Path) -> Path:
    """Rebuild the wheel of an installed distribution into ``out`` (see the module docstring);
    an existing wheel made from the same installation is reused."""
    name = dist.metadata["Name"]
    wheel_text = dist.read_text("WHEEL")
    record_text = dist.read_text("RECORD")
    if not name or wheel_text is None or record_text is None or dist.files is None:
        raise CollectError(f"{name or 'a distribution'}: its installation has no RECORD or WHEEL")
    filename = f"{_escape(name)}-{dist.version}-{_tags(wheel_text)}.whl"
    target = out / filename
    stamp = out / ".made" / (filename + ".record-sha256")
    record_digest = hashlib.sha256(record_text.encode()).hexdigest()
    if target.is_file() and stamp.is_file() and stamp.read_text().strip() == record_digest:
        return target
    scripts = _console_scripts(dist)
    members: list[tuple[str, bytes]] = []
    dist_info = ""
    for file in dist.files:
        rel = file.as_posix()
        parts = rel.split("/")
        if rel.startswith("/") or ".." in parts:
            stem = Path(parts[-1]).stem if parts[-1].lower().endswith(".exe") else parts[-1]
            if stem in scripts or parts[-1].removesuffix("-script.py") in scripts:
                continue  # a launcher pip generated from the entry points
            raise CollectError(f"{name}: it installed {rel} outside its package folder")
        if "__pycache__" in parts or rel.endswith(".pyc"):
            continue
        if len(parts) == 2 and parts[0].endswith(".dist-info"):
            dist_info = parts[0]
            if parts[1] in INSTALLER_FILES:
                continue
        if file.hash is None or file.hash.mode != "sha256":
            raise CollectError(f"{name}: its RECORD gives no sha256 for {rel}")
        try:
            data = Path(str(file.locate())).read_bytes()
        except OSError as exc:
            raise CollectError(f"{name}: cannot read {rel}: {exc}") from None
        if _record_hash(data) != f"sha256={file.hash.value}" or (
            file.size is not None and file.size != len(data)
        ):
            raise CollectError(f"{name}: {rel} was changed after it was installed")
        members.append((rel, data))
    if not dist_info:
        raise CollectError(f"{name}: its RECORD lists no .dist-info folder")
    record = io.StringIO()
    writer = csv.writer(record, lineterminator="\n")
    members.sort(key=lambda m: (m[0].startswith(dist_info + "/"), m[0]))
    for rel, data in members:
        writer.writerow([rel, _record_hash(data), len(data)])
    writer.writerow([f"{dist_info}/RECORD", "", ""])
    out.mkdir(parents=True, exist_ok=True)
    stamp.parent.mkdir(parents=True, exist_ok=True)
    partial = out / (filename + ".part")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as z:
        for rel, data in members:
            z.writestr(_zip_info(rel), data)
        z.writestr(_zip_info(f"{dist_info}/RECORD"), record.getvalue())
    os.replace(partial, target)
    stamp.write_text(record_digest + "\n")
    return target


def _zip_info(name: str) -> zipfile.ZipInfo:
    """A member with a fixed date and ordinary file permissions (the same bytes each time)."""
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    return info


def dependencies(requirements: list[str]) -> tuple[list[md.Distribution], list[str]]:
    """The installed distributions ``requirements`` need, depth first, each once; and the names
    of those not installed here."""
    found: dict[str, md.Distribution] = {}
    missing: list[str] = []
    todo = [n for n in map(_name, requirements) if n]
    while todo:
        name = todo.pop(0)
        key = normalise(name)
        if key in found or key in missing:
            continue
        try:
            dist = md.distribution(name)
        except md.PackageNotFoundError:
            missing.append(key)
            continue
        found[key] = dist
        todo.extend(n for n in map(_name, _runtime(dist.requires)) if n)
    return list(found.values()), missing


# ---- the project's own wheel -----------------------------------------------------------------
def source_tree() -> Path | None:
    """The source tree the running ``game`` package comes from (``None``: it was installed
    from a wheel)."""
    import game

    root = Path(game.__file__).resolve().parent.parent
    pyproject = root / "pyproject.toml"
    try:
        config = tomllib.loads(pyproject.read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return root if config.get("project", {}).get("name") == PROJECT else None


def _source_digest(root: Path) -> str:
    """A digest of the files a build reads (names, sizes, modification times)."""
    config = tomllib.loads((root / "pyproject.toml").read_text("utf-8"))
    include = config.get("tool", {}).get("setuptools", {}).get("packages", {}).get("find", {})
    tops = sorted({p.split(".")[0] for p in include.get("include", [])})
    digest = hashlib.sha256()
    paths = [root / "pyproject.toml", root / "README.md", root / "MANIFEST.in"]
    for top in tops:
        paths += sorted(p for p in (root / top).rglob("*") if "__pycache__" not in p.parts)
    for path in paths:
        try:
            st = path.stat()
        except OSError:
            continue
        if path.is_file():
            rel = path.relative_to(root).as_posix()
            digest.update(f"{rel}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:20]


#: Run by a child Python: build the sdist in the tree, then the wheel from the unpacked sdist.
_BUILD = """
import sys, tarfile, tempfile, os
from setuptools import build_meta
src, out = sys.argv[1], sys.argv[2]
os.chdir(src)
sdist = build_meta.build_sdist(out)
with tempfile.TemporaryDirectory() as tmp:
    with tarfile.open(os.path.join(out, sdist)) as tar:
        tar.extractall(tmp, filter="data")
    (top,) = os.listdir(tmp)
    os.chdir(os.path.join(tmp, top))
    wheel = build_meta.build_wheel(out)
print(sdist)
print(wheel)
"""


def _build_tools(out: Path) -> Path | None:
    """A folder holding setuptools 77 or newer for the build (``PYTHONPATH``), fetched once with
    pip into the cache — it needs pip's index (online, or the user's own pip configuration);
    ``None`` when pip cannot get it."""
    tools = out / "buildtools"
    if any(tools.glob("setuptools-*.dist-info")):
        return tools
    with tempfile.TemporaryDirectory(dir=out) as tmp:
        try:
            done = subprocess.run(
                [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                 "--no-input", "--retries", "1", "--timeout", "15", "--target", tmp,
                 "setuptools>=77"],
                capture_output=True, text=True, timeout=BUILD_TIMEOUT,
            )  # fmt: skip
        except (OSError, subprocess.TimeoutExpired):
            return None
        if done.returncode != 0:
            return None
        os.replace(tmp, tools)
        os.makedirs(tmp)  # the context removes it
    return tools


def _run_build(root: Path, tmp: str, tools: Path | None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    if tools is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tools), env.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-c", _BUILD, str(root), tmp],
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT,
        env=env,
    )


def build_own(root: Path, out: Path) -> list[Path]:
    """The project's wheel and sdist built from the source tree ``root`` (cached by a digest
    of the source files): with this Python's setuptools, else with setuptools fetched once
    into the cache (:func:`_build_tools`)."""
    import game

    folder = out / "built" / _source_digest(root)
    wheel = folder / f"{_escape(PROJECT)}-{game.__version__}-py3-none-any.whl"
    sdist = folder / f"{_escape(PROJECT)}-{game.__version__}.tar.gz"
    if wheel.is_file() and sdist.is_file():
        return [wheel, sdist]
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder.parent) as tmp:
        try:
            done = _run_build(root, tmp, None)
            if done.returncode != 0:
                tools = _build_tools(out)
                if tools is not None:
                    done = _run_build(root, tmp, tools)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise CollectError(f"building Lantern Table's wheel failed: {exc}") from None
        lines = done.stdout.strip().splitlines()
        if done.returncode != 0 or len(lines) < 2:
            log.info("install page: the build said:\n%s", done.stderr[-4000:])
            raise CollectError(
                "building Lantern Table's wheel needs setuptools 77 or newer (python -m pip "
                "install 'setuptools>=77', or run the host once while online), or a "
                "wheelhouse prepared with 'lantern wheelhouse'"
            )
        made = [Path(tmp) / lines[-2], Path(tmp) / lines[-1]]
        for path in made:
            os.replace(path, folder / path.name)
    if not (wheel.is_file() and sdist.is_file()):
        raise CollectError("the build made files of another name than expected")
    return [wheel, sdist]


def own_wheels(out: Path, prepared: list[Path]) -> list[Path]:
    """Lantern Table's own wheel (and sdist, from a source tree) for serving; ``prepared`` are
    wheelhouse folders to fall back to (see the module docstring)."""
    import game

    root = source_tree()
    if root is None:
        return [repack(md.distribution(PROJECT), out / "platform")]
    try:
        return build_own(root, out)
    except CollectError:
        name = f"{_escape(PROJECT)}-{game.__version__}-py3-none-any.whl"
        for folder in prepared:
            if (folder / name).is_file():
                log.info("install page: serving the prepared %s", folder / name)
                return []  # the wheelhouse folder itself is served
        raise


def requirements() -> list[str]:
    """The project's runtime requirements (``pygame-ce>=2.5``, ...): from its installed
    metadata, else its pyproject."""
    try:
        return _runtime(md.requires(PROJECT))
    except md.PackageNotFoundError:
        root = source_tree()
        if root is None:
            return []
        config = tomllib.loads((root / "pyproject.toml").read_text("utf-8"))
        return _runtime(list(config.get("project", {}).get("dependencies", [])))


def collect(prepared: list[Path] | None = None, out: Path | None = None) -> Collected:
    """Make this platform's wheels (see the module docstring); never raises for a wheel that
    cannot be made — it becomes a note."""
    out = out if out is not None else cache_dir() / "install"
    prepared = prepared or []
    result = Collected()
    try:
        result.files += own_wheels(out, prepared)
    except (CollectError, OSError, md.PackageNotFoundError) as exc:
        result.notes.append(f"Lantern Table's own wheel: {exc}")
    dists, missing = dependencies(requirements())
    for dist in dists:
        try:
            result.files.append(repack(dist, out / "platform"))
        except (CollectError, OSError) as exc:
            result.notes.append(str(exc))
    for name in missing:
        result.notes.append(f"{name} is not installed here, so this host cannot serve it")
    for note in result.notes:
        log.warning("install page: %s", note)
    return result


__all__ = [
    "CollectError",
    "Collected",
    "build_own",
    "cache_dir",
    "collect",
    "dependencies",
    "own_wheels",
    "repack",
    "requirements",
    "source_tree",
]
