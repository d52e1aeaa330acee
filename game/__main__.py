"""``python -m game``: the same as the ``lantern`` command."""

import sys

from game.cli import main

sys.exit(main())
