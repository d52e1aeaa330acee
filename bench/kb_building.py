"""How the tested Kingdom Builder seat builds, beside the bots it plays (issue 23).

A reader of ``python -m bench.bots ... --replays F.jsonl.gz`` files: it replays each game and
counts, for the tested seat and for the mean of the other seats, the settlements left in the
supply when the game ended (the game ends with the round in which a seat builds its last, KB
§8; a settlement never built scores nothing), the settlements built and moved, and the tiles
used, by kind (build tiles: an extra settlement, KB §7; move tiles: a settlement moved, none
added; the Nomads tiles by their names).  A level that out-scores its rivals but builds fewer
settlements shows it here::

    python -m bench.kb_building bench/data/kb-level-games.jsonl.gz --options '{}'

``--options`` keeps only the games whose options equal it (``'{}'``: the base game;
``'{"nomads": "full"}'``: the full expansion); ``--games`` the first that many.  Counts only:
it replays finished games, it plays none.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from bench.decision_cpu import read_games
from bench.fit_kingdom_builder import replay_of
from game.commands.common import options_argument
from game.core.api import GameState
from game.kingdom_builder.codes import BUILD_TILES, MOVE_TILES
from game.kingdom_builder.state import KingdomBuilderState

DEFAULT_REPLAYS = Path(__file__).resolve().parent / "data" / "kb-level-games.jsonl.gz"

#: Counts by name (per game: the other seats' are their mean, so not whole numbers).
Tally = defaultdict[str, float]


def _kb(state: GameState) -> KingdomBuilderState:
    if not isinstance(state, KingdomBuilderState):
        raise ValueError("not a Kingdom Builder game")
    return state


def game_counts(game: dict[str, Any]) -> tuple[Tally, Tally]:
    """The tested seat's counts in one game and the other seats' mean (see the module
    docstring): ``left`` (settlements in the supply at the end), ``built``, ``moved``, ``turns``
    and ``tile:KIND`` (the tiles used, by kind)."""
    seat = game["seat"]
    replay = replay_of(game)
    states = replay.states()
    state = _kb(next(states))
    own: Tally = defaultdict(float)
    others: Tally = defaultdict(float)
    share = 1.0 / (state.players - 1)
    # a "place" right after a "move_from" is a settlement's new hex (a move tile, Resettlement)
    last = [""] * state.players
    for (mover, action), after in zip(replay.actions, states, strict=True):
        counts, weight = (own, 1.0) if mover == seat else (others, share)
        kind = action[0]
        if kind == "use":
            tile = state.tile_kind(action[1] * 20 + action[2])
            counts[f"tile:{tile}"] += weight
        elif kind == "place":
            counts["moved" if last[mover] == "move_from" else "built"] += weight
        elif kind == "end":
            counts["turns"] += weight
        last[mover] = kind
        state = _kb(after)
    for s in range(state.players):
        counts, weight = (own, 1.0) if s == seat else (others, share)
        counts["left"] += weight * state.supply[s]
    return own, others


def tally(games: Iterable[dict[str, Any]]) -> tuple[int, Tally, Tally]:
    """The games read and the sums of :func:`game_counts` over them."""
    count = 0
    own: Tally = defaultdict(float)
    others: Tally = defaultdict(float)
    for game in games:
        a, b = game_counts(game)
        for name, value in a.items():
            own[name] += value
        for name, value in b.items():
            others[name] += value
        count += 1
    return count, own, others


def report(count: int, own: Tally, others: Tally) -> list[str]:
    """One line a count: the tested seat's mean a game, the other seats' mean, the difference."""
    lines = [f"{count} games; per game, the tested seat / the other seats' mean"]
    if not count:
        return lines
    names = ["left", "built", "moved", "turns"]
    tiles = sorted({name for name in (*own, *others) if name.startswith("tile:")})
    build = [t for t in tiles if t[5:] in BUILD_TILES]
    move = [t for t in tiles if t[5:] in MOVE_TILES]
    rest = [t for t in tiles if t not in build and t not in move]
    for name in [*names, *build, *move, *rest]:
        a, b = own[name] / count, others[name] / count
        lines.append(f"  {name:<20} {a:6.2f} / {b:6.2f}   {a - b:+.2f}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("replays", type=Path, nargs="+")
    parser.add_argument("--games", type=int, default=10**9, help="at most this many games")
    parser.add_argument(
        "--options",
        type=options_argument,
        help="only the games played with exactly these options (JSON, '{}' the base game)",
    )
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be positive")
    games: list[dict[str, Any]] = []
    for path in args.replays:
        games.extend(read_games(path, args.games - len(games), args.options))
    for line in report(*tally(games)):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
