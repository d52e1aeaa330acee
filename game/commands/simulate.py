"""``lantern simulate``: play complete games headless with bots.

Game ``i`` (from 0) uses seed ``SEED + i``.  With ``--json`` each game prints one line::

    {"game", "seed", "players", "bots", "scores", "winners", "actions", "seconds"}

where ``scores`` is one ``{category: points, ..., "total": n}`` per seat.  The same command
prints the same scores every time (only ``seconds`` varies), on a busy machine as on a quiet
one and on a slow core as on a fast one: every bot thinks for a count of evaluations or playouts
(:mod:`game.bots.budget`), and neither the CPU-time ceiling nor the wall-clock safety net
applies (nobody waits for a simulation; ``make_bot(..., ceiling=False)``), so no decision is
cut short by the machine's speed.  ``--budget SECONDS`` makes the
search bots think for that much CPU time per decision instead of their count (then the games
depend on the machine's speed); ``--iterations N`` sets their count of playouts.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from game.bots import make_bot
from game.cli import UsageError
from game.commands.common import parse_bots, parse_options, resolve_game
from game.core.match import play_match
from game.core.rng import derive_seed
from game.core.types import GameError


def add_parser(sub: Any) -> None:
    p = sub.add_parser("simulate", help="play complete games headless with bots")
    p.add_argument("--game", required=True, help="game id, e.g. kingdom-builder")
    p.add_argument("--players", type=int, required=True, help="number of seats")
    p.add_argument("--bots", default="random", help="one bot name, or one per seat (comma list)")
    p.add_argument("--games", type=int, default=1, help="number of games (default 1)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first game (game i: seed+i)")
    p.add_argument("--options", default=None, help="game options as a JSON object")
    p.add_argument(
        "--budget",
        type=float,
        default=None,
        help="CPU seconds per decision for search bots (instead of their count of playouts)",
    )
    p.add_argument(
        "--iterations",
        type=int,
        default=None,
        help="playouts per decision for search bots (mcts, hard)",
    )
    p.add_argument("--json", action="store_true", help="one JSON object per game per line")
    p.add_argument("--save-replays", metavar="DIR", default=None, help="write each game's replay")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.budget is not None and not args.budget > 0:
        raise UsageError("--budget must be a positive number of seconds")
    if args.iterations is not None and args.iterations < 1:
        raise UsageError("--iterations must be at least 1")
    game = resolve_game(args.game, args.players)
    bots = parse_bots(args.bots, args.players)
    options = parse_options(args.options)
    out_dir = Path(args.save_replays) if args.save_replays else None
    wins = [0.0] * args.players
    for i in range(args.games):
        seed = args.seed + i
        agents = [
            make_bot(
                name,
                seed=derive_seed(seed, "bot", seat),
                budget=args.budget,
                iterations=args.iterations,
                safety_net=False,
                ceiling=False,
            ).choose
            for seat, name in enumerate(bots)
        ]
        try:
            result = play_match(
                game.id,
                args.players,
                seed,
                agents,
                options=options,
                seats=[
                    {"name": f"{name} {seat + 1}", "bot": name} for seat, name in enumerate(bots)
                ],
            )
        except GameError as exc:
            raise UsageError(str(exc)) from None
        winners = result.winners
        for w in winners:
            wins[w] += 1 / len(winners)
        record = {
            "game": game.id,
            "seed": seed,
            "players": args.players,
            "bots": bots,
            "scores": result.scores,
            "winners": winners,
            "actions": len(result.replay.actions),
            "seconds": round(result.seconds, 4),
        }
        if out_dir is not None:
            path = out_dir / f"{game.id}-seed{seed}.replay"
            try:
                result.replay.save(path)
            except OSError as exc:
                raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
            record["replay"] = str(path)
        if args.json:
            print(json.dumps(record), flush=True)
        else:
            totals = " ".join(
                f"{bots[s]}#{s}={sc['total']}" for s, sc in enumerate(record["scores"])
            )
            print(
                f"seed {seed}: {totals}  winners {winners}  "
                f"({record['actions']} actions, {record['seconds']:.2f}s)",
                flush=True,
            )
    if not args.json and args.games > 1:
        share = ", ".join(f"seat {s} ({bots[s]}) {w / args.games:.0%}" for s, w in enumerate(wins))
        print(f"wins over {args.games} games: {share}", file=sys.stdout)
    return 0
