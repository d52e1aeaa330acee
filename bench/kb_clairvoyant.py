"""What would knowing every hidden card be worth to Kingdom Builder's hard level? (issue 23)

A diagnostic, never a level: the hard level searches as it always does, but every world it
samples is the *real* game — its rivals' hidden cards and the draw pile in its real order (KB
§3.6, §4), so its playouts meet the very cards it will draw.  Only the world's RNG is reseeded
(the Nomads tiles' and a reshuffled discard pile's luck).  Against three greedy bots (the
hard seat rotated, as in ``python -m bench.bots --matchup hard_vs_greedy``) its win rate is an
upper bound of what search on the level's model could win if the cards were no secret: how far
the issue's 60% lies from what the luck of the draw allows.  With ``--fair`` the same loop plays
the level as it is (a determinized copy of the state, as every bot gets), for a paired run.

Counts only (the level's work count, the greedy planner's evaluations), so the same command
plays the same games on any machine::

    python -m bench.kb_clairvoyant --games 100 --start 500
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from typing import Any

from bench.bots import bench_bot, wilson
from game.core.rng import Rng, derive_seed
from game.kingdom_builder import GAME
from game.kingdom_builder.state import KingdomBuilderState

PLAYERS = 4


class ClairvoyantState(KingdomBuilderState):
    """A Kingdom Builder state whose :meth:`determinize` keeps every hidden card where it
    really is (the diagnostic's worlds); only the RNG is reseeded."""

    __slots__ = ()

    def determinize(self, seat: int | None, seed: int) -> KingdomBuilderState:
        st = self.clone()
        st.rng = Rng(derive_seed(seed, "kb-clairvoyant"))
        st.__class__ = ClairvoyantState
        return st


def clairvoyant(state: KingdomBuilderState) -> ClairvoyantState:
    """A copy of the real ``state`` that shows its hidden cards to whoever searches it."""
    st = state.clone()
    st.__class__ = ClairvoyantState
    return st  # type: ignore[return-value]


def play(index: int, options: dict[str, Any], fair: bool) -> tuple[float, list[int], int]:
    """Game ``index`` (its seed): the hard level in seat ``index % 4``, clairvoyant unless
    ``fair``, against three greedy bots; returns its share of the win, the totals and its
    seat."""
    tested = index % PLAYERS
    bots = [
        bench_bot(
            "hard" if seat == tested else "greedy",
            derive_seed(index, "bench-bot", seat),
            None,
            None,
        )
        for seat in range(PLAYERS)
    ]
    state: KingdomBuilderState = GAME.new(PLAYERS, options, index)
    step = 0
    while not state.is_over():
        seat = state.to_move()[0]
        if seat == tested and not fair:
            view: KingdomBuilderState = clairvoyant(state)
        else:
            view = state.determinize(seat, derive_seed(index, "kb-clairvoyant-view", step))
        state.apply(seat, bots[seat].choose(view, seat))
        step += 1
    winners = state.winners()
    share = 1.0 / len(winners) if tested in winners else 0.0
    return share, [int(s["total"]) for s in state.scores()], tested


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--start", type=int, default=500)
    parser.add_argument("--options", default="{}", help="game options (JSON)")
    parser.add_argument("--fair", action="store_true", help="the level as it is (no peeking)")
    args = parser.parse_args(argv)
    options = json.loads(args.options)
    wins = 0.0
    for n, index in enumerate(range(args.start, args.start + args.games), 1):
        c0 = time.process_time()
        share, totals, seat = play(index, options, args.fair)
        wins += share
        low, high = wilson(wins, n)
        print(
            f"  game {index} seat {seat}: share {share:.2f} totals {totals} "
            f"({time.process_time() - c0:.0f} s CPU) | {wins:.1f}/{n} = {wins / n:.3f} "
            f"[{low:.3f}, {high:.3f}]",
            flush=True,
        )
    who = "fair" if args.fair else "clairvoyant"
    print(f"{who} hard vs 3 greedy: {wins:.1f}/{args.games} = {wins / args.games:.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
