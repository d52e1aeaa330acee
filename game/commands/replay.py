"""``lantern replay FILE --verify``: re-run a replay and confirm its final state hash."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from game.core.match import Replay
from game.core.registry import UnknownGame
from game.core.types import BadState


def add_parser(sub: Any) -> None:
    p = sub.add_parser("replay", help="verify (or summarise) a replay file")
    p.add_argument("file", help="a .replay file")
    p.add_argument("--verify", action="store_true", help="re-run every action and check the hash")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        replay = Replay.load(args.file)
        if args.verify:
            if replay.final_hash is None:
                replay.state_at(None)  # an illegal action is the first thing to report
                raise BadState("this is a saved game that has not ended: no final hash to verify")
            state = replay.verify()
        else:
            state = replay.state_at(None)
    except (BadState, UnknownGame) as exc:
        print(f"lantern replay: {args.file}: {exc}", file=sys.stderr)
        return 1
    result = {
        "file": args.file,
        "game": replay.game,
        "seed": replay.seed,
        "players": replay.players,
        "actions": len(replay.actions),
        "verified": bool(args.verify),
        "hash": state.state_hash(),
        "scores": state.scores(),
        "winners": state.winners() if state.is_over() else [],
    }
    if args.json:
        print(json.dumps(result))
    elif args.verify:
        print(
            f"{args.file}: OK — {len(replay.actions)} actions re-run, final hash {result['hash']}"
        )
    else:
        print(
            f"{args.file}: {replay.game}, {replay.players} players, {len(replay.actions)} actions"
        )
    return 0
