"""The ``lantern`` / ``python -m game`` command line.

With no subcommand it opens the game window.  Subcommands live in :mod:`game.commands`, one
module each, registered in :data:`COMMANDS`; each module has ``add_parser(subparsers)`` and
``run(args) -> int``.  Wrong arguments print a clear message and exit with code 2.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.util
import os
import sys
from collections.abc import Sequence

from game import __version__

#: Subcommand name -> module in game.commands (imported only when used, to keep start-up fast).
COMMANDS: dict[str, str] = {
    "play": "game.commands.play",
    "simulate": "game.commands.simulate",
    "show": "game.commands.show",
    "replay": "game.commands.replay",
    "review": "game.commands.review",
    "bench": "game.commands.bench",
    "host": "game.commands.host",
    "join": "game.commands.join",
    "screenshot": "game.commands.screenshot",
    "wheelhouse": "game.commands.wheelhouse",
}


class UsageError(Exception):
    """Arguments that parse but make no sense (unknown game, bad bot name...): exit code 2."""


def _available_commands() -> dict[str, str]:
    found = {}
    for name, module in COMMANDS.items():
        if importlib.util.find_spec(module) is not None:
            found[name] = module
    return found


def build_parser(modules: dict[str, str]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="lantern",
        description="Lantern Table: Kingdom Builder, Keyflower and Glen More "
        "for LAN parties, hot-seat play and bots. Without a command it opens the game window.",
    )
    parser.add_argument("--version", action="version", version=f"Lantern Table {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for _name, module in modules.items():
        importlib.import_module(module).add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    modules = _available_commands()
    # Fast path: the window opens without building every subcommand's parser.
    if not args_list or (args_list[0] not in modules and not args_list[0].startswith("-")):
        if args_list:
            print(
                f"lantern: unknown command {args_list[0]!r}; see 'lantern --help'", file=sys.stderr
            )
            return 2
        if "play" in modules:
            return int(importlib.import_module(modules["play"]).run(None))
        print("lantern: the game window is not available in this build", file=sys.stderr)
        return 2
    parser = build_parser(modules)
    args = parser.parse_args(args_list)
    if args.command is None:
        return int(importlib.import_module(modules["play"]).run(args)) if "play" in modules else 2
    try:
        return int(args.func(args))
    except UsageError as exc:
        print(f"lantern {args.command}: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader of our output went away (``lantern simulate ... | head``): stop quietly.
        with contextlib.suppress(OSError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return 141
