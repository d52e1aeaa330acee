"""``lantern`` / ``python -m game`` (no command) / ``lantern play``: open the game window.

Options (``lantern play``): ``--size WxH`` for the window, ``--fullscreen``, ``--lang en|ja|nl``.
Only the window's own modules load before the first frame; engines, bots and the network load
when a game starts.

For the start-up benchmark, ``LANTERN_FIRST_FRAME=1`` makes the window print
``first-frame <wall-clock seconds>`` once its first frame is on screen and close.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser("play", help="open the game window (the default without a command)")
    p.add_argument("--size", default=None, help="window size, e.g. 1280x800")
    p.add_argument("--fullscreen", action="store_true", help="start in full screen")
    p.add_argument("--lang", default=None, choices=["en", "ja", "nl"], help="language")
    p.set_defaults(func=run)


def parse_size(text: str) -> tuple[int, int]:
    """``"1280x800"`` -> (1280, 800); raises UsageError otherwise."""
    from game.cli import UsageError

    try:
        w, h = (int(v) for v in text.lower().replace("×", "x").split("x"))
    except ValueError:
        raise UsageError(f"--size must look like 1280x800, not {text!r}") from None
    if not (320 <= w <= 7680 and 240 <= h <= 4320):
        raise UsageError(f"--size {text} is outside 320x240 .. 7680x4320")
    return w, h


def run(args: argparse.Namespace | None) -> int:
    first_frame = os.environ.get("LANTERN_FIRST_FRAME") == "1"
    size = parse_size(args.size) if args is not None and args.size else None
    from game.ui.app import App
    from game.ui.scenes.menu import MenuScene
    from game.ui.settings import Settings

    settings = Settings.load()
    if args is not None and args.lang:
        settings.language = args.lang
    if args is not None and args.fullscreen:
        settings.fullscreen = True
    app = App(settings, size)
    app.push(MenuScene(app))
    if first_frame:
        app.step(0.0)
        print(f"first-frame {time.time():.6f}", flush=True)
        app.shutdown()
        return 0
    try:
        return app.run()
    except KeyboardInterrupt:
        app.shutdown()
        return 130


if __name__ == "__main__":
    sys.exit(run(None))
