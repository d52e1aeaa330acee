"""The real package, installed far from this checkout, without the internet (issue 21).

* ``python -m build`` (with this environment's setuptools: no download) makes the sdist and
  the wheel; the wheel, installed into a fresh virtual environment in an empty temporary
  folder, runs ``lantern --version``, ``lantern screenshot`` and a host/join bot game — the
  installed copy, not this source tree.
* A host's install page (``lantern host --install-page``, the same code a LAN party uses)
  serves the index on 127.0.0.1, and pip installs Lantern Table from it into another fresh
  environment with no other index and no find-links, then ``lantern --version`` runs.

The dependencies come from this environment's installations, rebuilt into wheels
(``net/install/collect.py``), so nothing here needs the network.  These tests take about a
minute; ``-m "not install"`` leaves them out of a quick run.
"""

from __future__ import annotations

import json
import os
import re
import struct
import subprocess
import sys
import tarfile
import time
import venv
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from game import __version__
from net.install.collect import dependencies, repack, requirements

pytestmark = pytest.mark.install

ROOT = Path(__file__).resolve().parents[2]
BIN = "Scripts" if sys.platform == "win32" else "bin"


def clean_env(home: Path) -> dict[str, str]:
    """An environment with no trace of this checkout or of the machine's pip configuration:
    no PYTHONPATH, no PIP_* settings (no find-links), no pip configuration file."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PIP_", "PYTHON", "LANTERN_", "VIRTUAL_ENV"))
    }
    env.update(
        HOME=str(home),
        PIP_CONFIG_FILE=os.devnull,
        PIP_NO_INPUT="1",
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        LANTERN_CONFIG_DIR=str(home / "config"),
        LANTERN_DATA_DIR=str(home / "data"),
        LANTERN_CACHE_DIR=str(home / "cache"),
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        PYGAME_HIDE_SUPPORT_PROMPT="1",
    )
    return env


def fresh_venv(folder: Path) -> Path:
    """A new virtual environment (with pip from the standard library's bundled wheel)."""
    venv.EnvBuilder(with_pip=True, clear=True).create(folder)
    return folder / BIN


def run(cmd: list[str], env: dict[str, str], cwd: Path, timeout: float = 300) -> str:
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd, timeout=timeout)
    assert done.returncode == 0, f"{cmd}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """``python -m build --no-isolation``: the sdist, then the wheel built from it."""
    out = tmp_path_factory.mktemp("dist")
    run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(ROOT)],
        {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        out,
    )
    (wheel,) = out.glob("lantern_table-*.whl")
    (sdist,) = out.glob("lantern_table-*.tar.gz")
    return wheel, sdist


@pytest.fixture(scope="module")
def deps(wheel_cache: Path) -> Path:
    """This environment's installed dependencies, rebuilt into wheels (no network)."""
    folder = wheel_cache / "install" / "platform"
    found, missing = dependencies(requirements())
    assert not missing
    for dist in found:
        repack(dist, folder)
    return folder


def test_the_sdist_and_the_wheel_hold_every_data_file(built: tuple[Path, Path]) -> None:
    wheel, sdist = built
    assert wheel.name == f"lantern_table-{__version__}-py3-none-any.whl"
    names = set(zipfile.ZipFile(wheel).namelist())
    tracked = subprocess.run(
        ["git", "ls-files", "game", "net", "bench"], cwd=ROOT, capture_output=True, text=True
    ).stdout.split()
    shipped = {p for p in tracked if not p.endswith((".pyc",))}
    assert shipped and shipped <= names, sorted(shipped - names)[:10]
    assert "game/assets/fonts/NotoSansJP-Regular.otf" in names
    assert not any(n.startswith(("tests/", "assets/")) for n in names)
    meta = zipfile.ZipFile(wheel).read(f"lantern_table-{__version__}.dist-info/METADATA")
    assert f"Version: {__version__}".encode() in meta
    assert b"Requires-Dist: pygame-ce" in meta and b"Requires-Python: >=3.11" in meta
    with tarfile.open(sdist) as tar:
        members = tar.getnames()
    top = f"lantern_table-{__version__}"
    for needed in ("pyproject.toml", "README.md", "docs/install-page.md", "tests/conftest.py"):
        assert f"{top}/{needed}" in members, needed


def test_the_wheel_installed_far_away_runs_the_game(
    built: tuple[Path, Path], deps: Path, tmp_path: Path
) -> None:
    wheel, _ = built
    where = tmp_path / "elsewhere"
    where.mkdir()
    env = clean_env(tmp_path / "home")
    bin_dir = fresh_venv(tmp_path / "venv")
    python, lantern = str(bin_dir / "python"), str(bin_dir / "lantern")
    run([python, "-m", "pip", "install", "--no-index", "--find-links", str(deps), str(wheel)],
        env, where)  # fmt: skip
    assert run([lantern, "--version"], env, where).strip() == f"Lantern Table {__version__}"
    origin = run([python, "-c", "import game, net; print(game.__file__, net.__file__)"], env, where)
    assert str(tmp_path / "venv") in origin and str(ROOT) not in origin
    # The real game scene, drawn with the installed fonts, locales and board data.
    run([lantern, "screenshot", "--game", "kingdom-builder", "--players", "3", "--seed", "3",
         "--actions", "20", "--size", "1024x640", "--out", "kb.png"], env, where)  # fmt: skip
    png = (where / "kb.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", png[16:24]) == (1024, 640)
    # A short bot game between the installed host and the installed headless player.
    host = subprocess.Popen(
        [lantern, "host", "--bind", "127.0.0.1", "--port", "0", "--table", "kingdom-builder",
         "--players", "2", "--bots", "random", "--autostart", "--exit-when-done", "--json",
         "--no-announce", "--no-autosave", "--bot-threads", "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=where,
    )  # fmt: skip
    try:
        assert host.stdout is not None
        listening = json.loads(host.stdout.readline())
        port = listening["port"]
        joined = run([lantern, "join", f"127.0.0.1:{port}", "--headless", "--bot", "greedy",
                      "--json", "--fresh"], env, where, timeout=120)  # fmt: skip
        result = json.loads(joined)
        assert result["game"] == "kingdom-builder" and result["seat"] == 1
        assert len(result["scores"]) == 2 and result["actions"] > 20
        over = json.loads(host.stdout.readline())
        assert over["event"] == "game_over" and over["scores"] == result["scores"]
        assert host.wait(30) == 0
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()


@pytest.fixture
def install_page(wheel_cache: Path, tmp_path: Path) -> Iterator[tuple[int, subprocess.Popen[str]]]:
    """``lantern host --install-page`` of this checkout on 127.0.0.1 (its wheels made from what
    this environment has installed; the cache shared with the other tests of the run)."""
    env = {**os.environ, "LANTERN_CACHE_DIR": str(wheel_cache),
           "LANTERN_DATA_DIR": str(tmp_path / "host-data"), "PYTHONPATH": str(ROOT)}  # fmt: skip
    host = subprocess.Popen(
        [sys.executable, "-m", "game", "host", "--bind", "127.0.0.1", "--port", "0",
         "--install-page", "--install-port", "0", "--no-announce", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path,
    )  # fmt: skip
    try:
        assert host.stdout is not None
        assert json.loads(host.stdout.readline())["event"] == "listening"
        page = json.loads(host.stdout.readline())  # once the wheels are ready
        assert page["event"] == "install_page" and page["notes"] == [], page
        yield page["port"], host
    finally:
        host.terminate()
        host.wait(30)


def test_pip_installs_lantern_table_from_the_hosts_install_page_alone(
    install_page: tuple[int, subprocess.Popen[str]], tmp_path: Path
) -> None:
    port, host = install_page
    where = tmp_path / "guest"
    where.mkdir()
    env = clean_env(tmp_path / "home")
    bin_dir = fresh_venv(tmp_path / "guest-venv")
    index = f"http://127.0.0.1:{port}/simple/"
    started = time.monotonic()
    out = run([str(bin_dir / "python"), "-m", "pip", "install", "--no-cache-dir",
               "--index-url", index, "lantern-table"], env, where)  # fmt: skip
    seconds = time.monotonic() - started
    for project in ("lantern-table", "pygame-ce", "msgpack", "platformdirs"):
        assert re.search(rf"http://127\.0\.0\.1:{port}/files/{project.replace('-', '_')}", out)
    assert "pypi.org" not in out
    version = run([str(bin_dir / "lantern"), "--version"], env, where)
    assert version.strip() == f"Lantern Table {__version__}"
    assert host.poll() is None  # the game host serves on
    print(f"installed from the install page in {seconds:.1f} s")  # the bench measures it
