from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests import testgame
from tests.ui.conftest import env  # noqa: F401  (settings and saves in a temporary folder)


@pytest.fixture(scope="module")
def bid_race() -> Iterator[str]:
    """The shared test game "Bid and Race" (``tests/testgame``), registered for one module."""
    with testgame.registered() as game_id:
        yield game_id
