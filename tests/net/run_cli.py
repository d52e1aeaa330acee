"""``python -m tests.net.run_cli ARGS``: the ``lantern`` command with the test game registered.

Subprocess tests use it to drive ``host`` and ``join`` with the shared test game "Bid and Race"
(``tests/testgame``), which the product registry never contains.
"""

from __future__ import annotations

import sys

from game.cli import main
from tests.testgame import register

if __name__ == "__main__":
    register()
    sys.exit(main())
