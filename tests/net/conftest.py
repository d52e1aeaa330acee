from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import testgame


@pytest.fixture
def bid_race() -> Iterator[str]:
    """The shared test game "Bid and Race" (``tests/testgame``), registered for one test."""
    with testgame.registered() as game_id:
        yield game_id


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every net test writes autosaves under tmp_path, never the real user directory."""
    path = tmp_path / "lantern-data"
    monkeypatch.setenv("LANTERN_DATA_DIR", str(path))
    return path
