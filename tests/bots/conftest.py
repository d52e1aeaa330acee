from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests import testgame


@pytest.fixture(scope="module")
def bid_race() -> Iterator[str]:
    """The shared test game "Bid and Race" (``tests/testgame``), registered for the tests of
    one module (module scope: hypothesis tests may not use function-scoped fixtures)."""
    with testgame.registered() as game_id:
        yield game_id
