"""How many build tiles does Kingdom Builder's hard level use in a turn, against the greedy bot?

A search optimises whatever its evaluation rewards, including what the evaluation learned only
as a correlation.  The hard level's fitted evaluation pays 0.4-0.9 points for each settlement
still in supply (``game/kingdom_builder/fitted.py``: in self-play games, a seat that reached a
score with fewer settlements went on to score more); a turn can keep settlements in supply by
leaving a build tile unused (KB §6: a tile *may* be used once a turn).  This probe counts it:
at turn starts of greedy games (seeds 2000, 2001, ...; every third turn start where the seat
can use a build tile), the build tiles used by the hard level's chosen turn and by the greedy
bot's, with the bots' counts (no clock: the same output on any machine)::

    python -m bench.kb_tile_use --positions 30

Run it from a checkout with another ``fitted.py`` to compare fits (``fit --drop supply``).
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Sequence
from typing import Any

from bench.search_regret import hard_searcher
from game.bots import make_bot
from game.bots.base import turn_continues
from game.core.match import play_match
from game.core.rng import derive_seed
from game.core.types import Action
from game.kingdom_builder.board import SIZE
from game.kingdom_builder.codes import BUILD_TILES
from game.kingdom_builder.state import KingdomBuilderState

PLAYERS = 4


def positions(count: int) -> list[tuple[KingdomBuilderState, int, int]]:
    """At least ``count`` turn starts ``(state, seat, build tiles it can use)``."""
    out: list[tuple[KingdomBuilderState, int, int]] = []
    seed = 2000
    while len(out) < count:
        bots = [
            make_bot("greedy", derive_seed(seed, "tu", s), safety_net=False) for s in range(PLAYERS)
        ]
        turns: list[int] = []

        def agent(state: Any, seat: int, bots: list[Any] = bots, turns: list[int] = turns) -> Any:
            turn = state.turn_id()
            if not turns or turns[-1] != turn:
                turns.append(turn)
                usable = _build_uses(state, state.legal_actions(seat))
                if usable and len(turns) % 3 == 0:
                    out.append((state.clone(), seat, usable))
            return bots[seat].choose(state, seat)

        play_match("kingdom-builder", PLAYERS, seed, [agent] * PLAYERS)
        seed += 1
    return out


def _build_uses(st: KingdomBuilderState, actions: Sequence[Action]) -> int:
    """How many of ``actions`` start using a build tile (KB §6)."""
    return sum(
        1 for a in actions if a[0] == "use" and st.tile_kind(a[1] * SIZE + a[2]) in BUILD_TILES
    )


def greedy_turn(st: KingdomBuilderState, seat: int, seed: int) -> list[Action]:
    """The greedy bot's whole turn from ``st``, played on a copy."""
    bot = make_bot("greedy", seed, safety_net=False)
    world = st.clone()
    turn = world.turn_id()
    plan: list[Action] = []
    while turn_continues(world, seat, turn):
        action = bot.choose(world, seat)
        plan.append(action)
        world.apply(seat, action)
    return plan


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=30)
    args = parser.parse_args(argv)
    rows = []
    for i, (st, seat, usable) in enumerate(positions(args.positions)):
        hard = hard_searcher(derive_seed(i, "tu-h"), None).search(st.clone(), seat)
        greedy = greedy_turn(st, seat, derive_seed(i, "tu-g"))
        rows.append((usable, _build_uses(st, hard), _build_uses(st, greedy)))
        print(f"{i}: usable {usable}, hard uses {rows[-1][1]}, greedy uses {rows[-1][2]}")
    means = [statistics.fmean(col) for col in zip(*rows, strict=True)]
    print(
        f"{len(rows)} turn starts: build tiles usable {means[0]:.2f}, "
        f"used by the hard level {means[1]:.2f}, by the greedy bot {means[2]:.2f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
