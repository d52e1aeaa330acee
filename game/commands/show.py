"""``lantern show FILE``: print the state of a saved game or replay.

At the end of the file's actions, or after ``--step N`` actions.  ``--json`` prints the state's
:meth:`~game.core.api.GameState.report` as one JSON object (fields documented per game in
``docs/show-json.md``).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from game.cli import UsageError
from game.core.match import Replay
from game.core.registry import UnknownGame
from game.core.types import BadState


def add_parser(sub: Any) -> None:
    p = sub.add_parser("show", help="print the state of a saved game or replay")
    p.add_argument("file", help="a .replay or saved game file")
    p.add_argument("--step", type=int, default=None, help="show the state after N actions")
    p.add_argument("--json", action="store_true", help="print a JSON object instead of text")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        replay = Replay.load(args.file)
        state = replay.state_at(args.step)
    except (BadState, UnknownGame) as exc:
        raise UsageError(f"{args.file}: {exc}") from None
    step = len(replay.actions) if args.step is None else args.step
    if args.json:
        report = state.report()
        report["step"] = step
        report["steps"] = len(replay.actions)
        report["seed"] = replay.seed
        seats = report.get("seats")
        # A save holds its seats' reconnect tokens (for its host only): never printed.
        records = [
            {k: v for k, v in info.items() if k not in ("token", "creator")}
            for info in replay.seats
        ]
        if isinstance(seats, list) and len(seats) == len(records):
            # the game reports its own per-seat facts: add the names, keep the game's fields
            pairs = zip(seats, records, strict=True)
            report["seats"] = [{**info, **entry} for entry, info in pairs]
        else:
            report["seats"] = records
        print(json.dumps(report))
    else:
        print(f"{args.file}: step {step} of {len(replay.actions)}, seed {replay.seed}")
        print(state.report_text())
    return 0
