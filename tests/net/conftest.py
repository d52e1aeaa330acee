from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from game.core import registry
from tests.net import tinygame


@pytest.fixture
def tiny(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Register the test-only game ``tiny`` for one test."""
    monkeypatch.setitem(registry._MODULES, tinygame.GAME_ID, "tests.net.tinygame")
    registry._cache.pop(tinygame.GAME_ID, None)
    yield tinygame.GAME_ID
    registry._cache.pop(tinygame.GAME_ID, None)


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every net test writes autosaves under tmp_path, never the real user directory."""
    path = tmp_path / "lantern-data"
    monkeypatch.setenv("LANTERN_DATA_DIR", str(path))
    return path
