from __future__ import annotations

from collections.abc import Iterator

import pytest

from game.core import registry


@pytest.fixture(scope="module")
def tiny() -> Iterator[str]:
    """Register the test-only tiny game as ``tiny`` for the tests of one module (never in the real registry)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(registry._MODULES, "tiny", "tests.bots.tinygame")
        registry._cache.pop("tiny", None)
        yield "tiny"
    registry._cache.pop("tiny", None)
