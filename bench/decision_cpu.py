"""CPU time of a bot level's decisions at fixed positions, and a fingerprint of what it chose.

A speed-up of a game's evaluation or engine should make the bots think faster and choose the
very same moves.  This replays the first ``--games`` games of a replay file (one JSON object a
line, as ``bench.bots --replays`` and the fit scripts write them), takes every ``--every``-th
turn start, and lets a fresh bot of ``--level`` (its own seed per position) decide there with
no CPU ceiling and no safety net — its count alone ends each decision, so the choices do not
depend on the machine — and prints the CPU seconds of all the decisions and a hash of the
actions chosen.  Run it in two checkouts, alternately (the machine's speed drifts): equal
hashes mean the same play, the CPU seconds say what the change saves::

    python -m bench.decision_cpu --level hard --games 2 --every 4
    python -m bench.decision_cpu --level greedy --games 4 --every 3 \\
        --replays bench/data/kb-hard-vs-greedy.jsonl.gz --repeat 3

``--options JSON`` takes only the games played with exactly those options (full Nomads:
``--replays bench/data/kb-level-games.jsonl.gz --options '{"nomads": "full"}'``).
``--repeat N`` runs the whole set N times and prints each run's CPU time (the decisions, and so
the hash, are the same every time).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from game.bots import make_bot
from game.commands.common import options_argument
from game.core.api import GameState
from game.core.match import Replay

DEFAULT_REPLAYS = Path(__file__).resolve().parent / "data" / "kb-hard-vs-greedy.jsonl.gz"


def read_games(
    path: Path, games: int, options: dict[str, Any] | None = None
) -> Iterator[dict[str, Any]]:
    """The first ``games`` games of a replay file (gzip or plain, one JSON object a line), only
    those played with exactly ``options`` when it is given."""
    opener: Any = gzip.open if path.suffix == ".gz" else open
    found = 0
    with opener(path, "rt", encoding="utf-8") as f:
        for line in f:
            if found >= games:
                return
            game = json.loads(line)
            if options is not None and game.get("options", {}) != options:
                continue
            found += 1
            yield game


def replay_of(game: dict[str, Any], *, actions: bool = True) -> Replay:
    """The replay of one game of a ``bench.bots --replays`` file (with ``actions=False``, its
    setup alone: the game as its seed dealt it, before any action)."""
    return Replay(
        game=game["game"],
        players=game["players"],
        seed=game["seed"],
        options=game.get("options", {}),
        rules_version=game["rules_version"],
        actions=[(seat, tuple(action)) for seat, action in game["actions"]] if actions else [],
    )


def turn_starts(game: dict[str, Any], every: int) -> Iterator[GameState]:
    """Every ``every``-th position of a replayed game where a seat begins its turn (the
    ``every``-th, the ``2 * every``-th, ...), as a copy."""
    replay = replay_of(game)
    turn = None
    count = 0
    for state in replay.states():
        if state.is_over():
            return
        if state.turn_id() == turn:
            continue
        turn = state.turn_id()
        count += 1
        if count % every == 0:
            yield state.clone()


def measure(level: str, positions: list[GameState]) -> tuple[float, str]:
    """CPU seconds of ``level``'s decisions at ``positions`` (a fresh bot each, seeded by the
    position's index, no ceiling) and a hash of the actions chosen."""
    digest = hashlib.sha256()
    cpu = 0.0
    for i, state in enumerate(positions):
        bot = make_bot(level, 1000 + i, safety_net=False, ceiling=False)
        seat = state.to_move()[0]
        start = time.process_time()
        action = bot.choose(state, seat)
        cpu += time.process_time() - start
        digest.update(repr(action).encode())
    return cpu, digest.hexdigest()[:16]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="hard", help="a make_bot name (default hard)")
    parser.add_argument("--replays", type=Path, default=DEFAULT_REPLAYS)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--every", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument(
        "--options",
        type=options_argument,
        help='only the games played with exactly these options (JSON, e.g. \'{"nomads": "full"}\')',
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.every < 1 or args.repeat < 1:
        parser.error("--games, --every and --repeat must be at least 1")
    options: dict[str, Any] | None = args.options
    positions = [
        s
        for game in read_games(args.replays, args.games, options)
        for s in turn_starts(game, args.every)
    ]
    for _ in range(args.repeat):
        cpu, fingerprint = measure(args.level, positions)
        print(
            f"{args.level}: {len(positions)} decisions, {cpu:.2f} s of CPU "
            f"({cpu / max(1, len(positions)):.3f} s a decision), choices {fingerprint}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
