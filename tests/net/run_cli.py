"""``python -m tests.net.run_cli ARGS``: the ``lantern`` command with the tiny game registered.

Subprocess tests use it to drive ``host`` and ``join`` with the test-only game (the product
registry never contains it).
"""

from __future__ import annotations

import sys

from game.cli import main
from tests.net.tinygame import register

if __name__ == "__main__":
    register()
    sys.exit(main())
