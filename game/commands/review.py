"""``lantern review FILE [--seat N] [--budget S] [--json]``: where a finished game was won and
lost, seat by seat (:mod:`game.review`).

Without ``--seat`` every seat a human played is reviewed (every seat of a game of bots only).
``--budget S`` gives the search ``S`` seconds of the hard level's thinking per turn, turned into
a fixed playout count (the same ``S`` gives the same review on any machine); by default the
hard level's own budget, lowered for a long game (``docs/review.md``).  A review is saved
beside the replay (``FILE.review``) and read back the next time unless ``--fresh``; ``--json``
prints one JSON object (fields in ``docs/review.md``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from game.core.match import Replay, clean_text
from game.core.registry import UnknownGame
from game.core.types import BadState


def add_parser(sub: Any) -> None:
    p = sub.add_parser("review", help="review a finished game: its turning points, seat by seat")
    p.add_argument("file", help="a .replay (or saved game) file")
    p.add_argument("--seat", type=int, default=None, help="review this seat only (from 0)")
    p.add_argument(
        "--budget",
        type=float,
        default=None,
        metavar="S",
        help="seconds of the hard level's thinking per turn (a fixed playout count)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--fresh", action="store_true", help="recompute even if a saved review matches")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(func=run)


def _seats(replay: Replay, wanted: int | None) -> list[int]:
    if wanted is not None:
        return [wanted]
    humans = [
        i
        for i, info in enumerate(replay.seats)
        if isinstance(info, dict) and info.get("kind") == "human" and i < replay.players
    ]
    return humans or list(range(replay.players))


def _name(replay: Replay, seat: int) -> str:
    info = replay.seats[seat] if seat < len(replay.seats) else {}
    name = info.get("name") if isinstance(info, dict) else None
    return clean_text(str(name)) if name else f"seat {seat}"


def run(args: argparse.Namespace) -> int:
    from game.cli import UsageError
    from game.review import cache
    from game.review.analysis import judged_turns, review_replay
    from game.review.settings import ReviewSettings, default_settings, iterations_for

    prog = "lantern review"
    try:
        replay = Replay.load(args.file)
        replay.new_state()  # an unknown game or rules version is the first thing to say
        if args.seat is not None and not 0 <= args.seat < replay.players:
            raise UsageError(f"--seat must be 0 to {replay.players - 1}")
        if args.budget is not None and not 0.05 <= args.budget <= 60:
            raise UsageError("--budget must be 0.05 to 60 seconds a turn")
        reviews = []
        for seat in _seats(replay, args.seat):
            if args.budget is not None:
                settings = ReviewSettings(iterations_for(replay.game, args.budget))
            else:
                settings = default_settings(replay.game, judged_turns(replay, seat))
            found = None if args.fresh else cache.load(args.file, replay, seat, settings)
            started = time.process_time()
            if found is None:

                def progress(done: int, total: int, seat: int = seat) -> None:
                    if not args.quiet:
                        print(f"\rseat {seat}: {done}/{total}", end="", file=sys.stderr)

                found = review_replay(replay, seat, settings, progress)
                if not args.quiet:
                    print(file=sys.stderr)
                saved = cache.save(args.file, replay, seat, settings, found)
                cached = False
            else:
                saved, cached = True, True
            reviews.append(
                (found, round(time.process_time() - started, 2), cached, saved, settings)
            )
    except (BadState, UnknownGame) as exc:
        print(f"{prog}: {args.file}: {exc}", file=sys.stderr)
        return 1
    if args.json:
        out = {
            "file": args.file,
            "game": replay.game,
            "players": replay.players,
            "actions": len(replay.actions),
            "names": [_name(replay, s) for s in range(replay.players)],
            "reviews": [
                {**found, "name": _name(replay, found["seat"]), "cpu_s": cpu, "cached": cached}
                for found, cpu, cached, _saved, _settings in reviews
            ],
        }
        print(json.dumps(out))
        return 0
    for found, cpu, cached, saved, _settings in reviews:
        _print_review(replay, found, cpu, cached, saved)
    return 0


def _print_review(
    replay: Replay, review: dict[str, Any], cpu: float, cached: bool, saved: bool
) -> None:
    from game.ui.reasons import gain_text, reasons_text

    seat = review["seat"]
    names = [_name(replay, s) for s in range(replay.players)]
    turns = {t["number"]: t for t in review["turns"]}
    settings = review["settings"]
    print(
        f"Review of {names[seat]} (seat {seat}): {replay.game}, {replay.players} players, "
        f"{len(turns)} turns; the search played {settings.get('iterations')} playouts a turn, "
        f"moves compared on {settings.get('worlds')} sampled worlds"
        + (" (saved review)" if cached else f" ({cpu:.1f} s CPU)")
    )
    print(
        f"Each turn is judged only from what {names[seat]} could see at that moment: other "
        "players' hidden cards and future draws are sampled, never read."
    )
    if not review["turning_points"]:
        print("No turning points: no turn lost much against the best the search found.")
    for rank, number in enumerate(review["turning_points"], 1):
        turn = turns[number]
        print(
            f"\n{rank}. Turn {number} (step {turn['step']}): about "
            f"{gain_text(turn['loss'], signed=False)} points lost"
        )
        print("   played:    " + "; ".join(turn["move_text"]))
        print("   suggested: " + "; ".join(turn["best_text"]))
        why = reasons_text(turn["reasons"], replay.game, names)
        if why:
            print("   why:       " + why)
    print("\nturn  step   loss  margin before -> after the turn played / the turn found")
    for turn in review["turns"]:
        mark = "*" if turn["number"] in review["turning_points"] else " "
        forced = "  (forced)" if turn["forced"] else ""
        print(
            f"{turn['number']:>4}{mark} {turn['step']:>4} {turn['loss']:>6.1f}  "
            f"{turn['value_before']:>7.1f} -> {turn['value_move']:>6.1f} / "
            f"{turn['value_best']:>6.1f}{forced}"
        )
    if not saved:
        print("(the review could not be saved beside the replay: the folder is not writable)")
