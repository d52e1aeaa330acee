from __future__ import annotations

import pytest

from game.core import registry


@pytest.fixture
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> str:
    """Register the core tests' toy game as ``toy`` for the duration of one test."""
    monkeypatch.setitem(registry._MODULES, "toy", "tests.core.toy")
    registry._cache.pop("toy", None)
    yield "toy"
    registry._cache.pop("toy", None)
