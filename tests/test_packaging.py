"""Every data file the program reads ships in an installed copy (not only in this checkout).

setuptools' ``package-data`` patterns match relative to each package folder, so a data folder
that is not itself a package (``game/keyflower/data``, ``game/ui/locales/<game>``) needs its own
pattern in pyproject.toml; a file no pattern matches would be missing from a wheel.
"""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_every_data_file_under_game_is_matched_by_a_package_data_pattern() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns: dict[str, list[str]] = config["tool"]["setuptools"]["package-data"]
    missing = []
    for path in sorted((ROOT / "game").rglob("*")):
        if not path.is_file() or path.suffix in (".py", ".pyc") or "__pycache__" in path.parts:
            continue
        rel = path.relative_to(ROOT)
        matched = False
        for folder in [rel.parents[i] for i in range(len(rel.parts) - 1)]:
            package = ".".join(folder.parts)
            if not (ROOT / folder / "__init__.py").is_file():
                continue
            inner = rel.relative_to(folder).as_posix()
            for pattern in patterns.get(package, []) + patterns.get("*", []):
                if "/" not in pattern and "/" in inner:
                    continue  # "*.json" matches only files directly in the package folder
                if fnmatch.fnmatch(inner, pattern):
                    matched = True
        if not matched:
            missing.append(str(rel))
    assert not missing, f"not shipped by any package-data pattern: {missing}"


def test_packaging_is_declarative_with_one_version_source() -> None:
    """No setup.py and no hand-made mapping: pyproject.toml finds the packages, and the version
    comes from ``game.__version__`` alone (the menu, the help, ``--version`` and the wheel)."""
    import re

    from game import __version__

    assert not (ROOT / "setup.py").exists()
    assert not (ROOT / "assets").exists()  # the fonts live in the package, game/assets
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert config["project"]["dynamic"] == ["version"]
    assert "version" not in config["project"]
    assert config["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "game.__version__"}
    assert "package-dir" not in config["tool"]["setuptools"]
    include = config["tool"]["setuptools"]["packages"]["find"]["include"]
    assert set(include) == {"game", "game.*", "net", "net.*", "bench", "bench.*"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)


def test_lantern_version_prints_the_version(capsys: pytest.CaptureFixture[str]) -> None:
    from game import __version__
    from game.cli import main

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"Lantern Table {__version__}"
