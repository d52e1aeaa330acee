"""``lantern wheelhouse``: the pip commands it runs (offline), and one real download (only in
the slow run, and only when PyPI can be reached)."""

from __future__ import annotations

import json
import socket
import sys
from pathlib import Path

import pytest

from game import __version__
from game.cli import main
from net.install.prepare import PLATFORMS, PYTHONS, download_command


def test_one_pip_download_per_platform_and_python(tmp_path: Path) -> None:
    command = download_command(tmp_path, "linux-arm64", "3.13", ["pygame-ce>=2.5", "msgpack"])
    assert command == [
        sys.executable, "-m", "pip", "download", "--disable-pip-version-check",
        "--only-binary=:all:", "--dest", str(tmp_path), "--python-version", "3.13",
        "--implementation", "cp", "--platform", "manylinux2014_aarch64",
        "--platform", "manylinux_2_28_aarch64", "pygame-ce>=2.5", "msgpack",
    ]  # fmt: skip
    assert set(PLATFORMS) == {
        "windows-x86_64",
        "windows-arm64",
        "macos-x86_64",
        "macos-arm64",
        "linux-x86_64",
        "linux-arm64",
    }
    assert PYTHONS == ("3.11", "3.12", "3.13", "3.14")


def test_pythons_are_those_the_package_declares() -> None:
    import tomllib

    root = Path(__file__).resolve().parents[2]
    project = tomllib.loads((root / "pyproject.toml").read_text())["project"]
    assert project["requires-python"] == f">={PYTHONS[0]}"
    declared = [c.rsplit(" ", 1)[-1] for c in project["classifiers"] if c.count("::") == 2
                and c.startswith("Programming Language :: Python :: 3.")]  # fmt: skip
    assert declared == list(PYTHONS)


def test_dry_run_prints_every_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["wheelhouse", str(tmp_path / "wh"), "--dry-run"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(PLATFORMS) * len(PYTHONS)
    assert lines[0].startswith("windows-x86_64, Python 3.11: -m pip download")
    assert all("pygame-ce>=2.5 msgpack>=1.0.4 platformdirs>=3" in line for line in lines)
    assert not (tmp_path / "wh").exists() or not any((tmp_path / "wh").iterdir())


def test_bad_choices_are_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["wheelhouse", str(tmp_path), "--platform", "amiga", "--dry-run"]) == 2
    assert "unknown platform amiga" in capsys.readouterr().err
    assert main(["wheelhouse", str(tmp_path), "--python", "2.7", "--dry-run"]) == 2


def _pypi_reachable() -> bool:
    try:
        socket.create_connection(("pypi.org", 443), 3).close()
    except OSError:
        return False
    return True


@pytest.mark.slow
@pytest.mark.install
def test_a_real_download_for_one_platform(
    tmp_path: Path,
    wheel_cache: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if not _pypi_reachable():
        pytest.skip("PyPI cannot be reached from here")
    monkeypatch.setenv("LANTERN_CACHE_DIR", str(wheel_cache))
    dest = tmp_path / "wh"
    code = main(["wheelhouse", str(dest), "--platform", "windows-x86_64", "--python", "3.12",
                 "--json"])  # fmt: skip
    summary = json.loads(capsys.readouterr().out)
    assert code == 0, summary
    names = {p.name for p in dest.iterdir()}
    assert any(
        n.startswith("pygame_ce-") and n.endswith("-cp312-cp312-win_amd64.whl") for n in names
    )
    assert any(n.startswith("msgpack-") and n.endswith("-cp312-cp312-win_amd64.whl") for n in names)
    assert any(n.startswith("platformdirs-") for n in names)
    assert f"lantern_table-{__version__}-py3-none-any.whl" in names
    assert summary["downloads"][0]["ok"] and summary["files"] == len(names)
