"""``lantern wheelhouse DIR``: prepare, while online, the wheels a LAN party needs.

For every platform guests use — Windows, macOS and Linux, on x86-64 and arm64 — and every
Python version Lantern Table supports, pip downloads the binary wheels of the project's
dependencies (``pip download --only-binary=:all: --platform ... --python-version ...
--implementation cp``; pip resolves the dependencies of dependencies too).  Next to them goes
Lantern Table's own wheel (and its sdist, when the running copy comes from a source tree),
made as the host makes it (:mod:`net.install.collect`).  A host then serves the folder
(``lantern host --install-page``, or the window), offline.

A platform is a list of pip platform tags, most specific last: pip accepts a wheel made for
any of them (for macOS, also for older macOS versions than the one named — the one named is
the oldest a guest may run).  A combination with no wheel for some dependency (a Python
version too new for it, say) fails alone; the others go on, and the summary says which.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

#: Python versions Lantern Table supports (pyproject's requires-python and classifiers).
PYTHONS: tuple[str, ...] = ("3.11", "3.12", "3.13", "3.14")
#: Our name for a platform -> the pip platform tags whose wheels run on it.
PLATFORMS: dict[str, tuple[str, ...]] = {
    "windows-x86_64": ("win_amd64",),
    "windows-arm64": ("win_arm64",),
    "macos-x86_64": ("macosx_11_0_x86_64",),
    "macos-arm64": ("macosx_11_0_arm64",),
    "linux-x86_64": ("manylinux2014_x86_64", "manylinux_2_28_x86_64"),
    "linux-arm64": ("manylinux2014_aarch64", "manylinux_2_28_aarch64"),
}
#: Seconds one pip download may take.
PIP_TIMEOUT = 600.0


def download_command(dest: Path, platform: str, python: str, requirements: list[str]) -> list[str]:
    """The pip command that downloads the wheels of ``requirements`` for one platform and
    Python version into ``dest``."""
    command = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--disable-pip-version-check",
        "--only-binary=:all:",
        "--dest",
        str(dest),
        "--python-version",
        python,
        "--implementation",
        "cp",
    ]
    for tag in PLATFORMS[platform]:
        command += ["--platform", tag]
    return [*command, *requirements]


@dataclass
class Outcome:
    """What one pip download did."""

    platform: str
    python: str
    ok: bool
    seconds: float
    error: str = ""


@dataclass
class Prepared:
    """What :func:`prepare` did."""

    dest: Path
    outcomes: list[Outcome] = field(default_factory=list)
    own: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    files: int = 0
    megabytes: float = 0.0
    seconds: float = 0.0

    def to_dict(self) -> dict[str, object]:
        return {
            "dest": str(self.dest),
            "files": self.files,
            "megabytes": self.megabytes,
            "seconds": self.seconds,
            "own": self.own,
            "downloads": [
                {
                    "platform": o.platform,
                    "python": o.python,
                    "ok": o.ok,
                    "seconds": o.seconds,
                    "error": o.error,
                }
                for o in self.outcomes
            ],
            "notes": self.notes,
        }


def _last_error(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("ERROR")]
    return (errors or lines or ["pip failed"])[0][:300]


def prepare(
    dest: Path,
    platforms: list[str],
    pythons: list[str],
    *,
    run: bool = True,
    report: object = None,
) -> Prepared:
    """Download every (platform, Python) combination into ``dest`` and add the project's own
    wheel; ``report(text)`` is told about each step."""
    from net.install.collect import CollectError, cache_dir, own_wheels, requirements

    say = report if callable(report) else (lambda text: None)
    started = time.monotonic()
    dest.mkdir(parents=True, exist_ok=True)
    result = Prepared(dest)
    needed = requirements()
    for platform in platforms:
        for python in pythons:
            command = download_command(dest, platform, python, needed)
            say(f"{platform}, Python {python}: {' '.join(command[1:])}")
            if not run:
                continue
            began = time.monotonic()
            try:
                done = subprocess.run(command, capture_output=True, text=True, timeout=PIP_TIMEOUT)
                ok, error = (
                    done.returncode == 0,
                    "" if done.returncode == 0 else _last_error(done.stderr or done.stdout),
                )
            except (OSError, subprocess.TimeoutExpired) as exc:
                ok, error = False, str(exc)[:300]
            result.outcomes.append(
                Outcome(platform, python, ok, round(time.monotonic() - began, 2), error)
            )
            if not ok:
                say(f"  failed: {error}")
    if run:
        try:
            for path in own_wheels(cache_dir() / "install", []):
                shutil.copy2(path, dest / path.name)
                result.own.append(path.name)
        except (CollectError, OSError) as exc:
            result.notes.append(f"Lantern Table's own wheel: {exc}")
        files = [p for p in dest.iterdir() if p.is_file() and p.name.endswith((".whl", ".tar.gz"))]
        result.files = len(files)
        result.megabytes = round(sum(p.stat().st_size for p in files) / 1e6, 1)
    result.seconds = round(time.monotonic() - started, 1)
    return result


__all__ = ["PLATFORMS", "PYTHONS", "Outcome", "Prepared", "download_command", "prepare"]
