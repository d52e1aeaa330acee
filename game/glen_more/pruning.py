"""The Glen More search's pruning and transpositions: which actions are worth searching
(:func:`candidate_actions`) and which half-played turns are the same position (:func:`position_key`).
Hooks of :mod:`game.glen_more.evaluation`, found by :mod:`game.bots.knowledge`.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from game.core.types import Action, Seat
from game.glen_more import grid as G
from game.glen_more.codes import ACTIVATE, CUBE_TOTAL, MOVE, PAY

if TYPE_CHECKING:
    from game.core.api import GameState
    from game.glen_more.state import GlenMoreState


def candidate_actions(state: GameState, seat: Seat, actions: list[Action]) -> list[Action]:
    """The actions worth searching (GM §4, §6), in the engine's order.

    * A sale is kept only where it can matter: while paying (to raise coins), during the
      activations (to make room on a full tile, or to cash cubes in) and before ending the turn;
      before taking or placing a tile a sale gains nothing that selling later would not.  Of
      the sales of one resource kind only one is kept: from the tile holding the most cubes
      (ties: the first cell), as which tile a cube leaves matters only for room.
    * Of the payments with one resource kind only one is kept, from the fullest tile likewise.
    """
    st: GlenMoreState = state  # type: ignore[assignment]
    ph = st.phase
    keep_sales = ph in (PAY, ACTIVATE, MOVE)
    cubes = st.cubes[seat]
    out: list[Action] = []
    best_sale: dict[str, tuple[int, Action]] = {}
    best_pay: dict[str, tuple[int, Action]] = {}
    for a in actions:
        kind = a[0]
        if kind == "sell" or kind == "pay":
            if kind == "sell" and not keep_sales:
                continue
            held = CUBE_TOTAL[cubes.get(G.cell(a[1], a[2]), 0)]
            table = best_sale if kind == "sell" else best_pay
            known = table.get(a[3])
            if known is None or held > known[0]:
                table[a[3]] = (held, a)
            continue
        out.append(a)
    chosen = {a for _n, a in best_pay.values()} | {a for _n, a in best_sale.values()}
    if chosen:
        out = [a for a in actions if a in chosen or (a[0] not in ("sell", "pay") and a in out)]
    return out or actions


def position_key(state: GameState, seat: Seat) -> Hashable:
    """Everything the rest of the game depends on while ``seat`` plays its turn: its territory
    (tiles, cubes, clan members), its coins, whisky, chieftains, VP and cards, the market, the
    track and the pending step of the turn — not the order in which it got there."""
    st: GlenMoreState = state  # type: ignore[assignment]
    return (
        st.turn,
        st.phase,
        tuple(st.slots),
        frozenset(st.grid[seat].items()),
        frozenset(st.cubes[seat].items()),
        frozenset(st.clan[seat].items()),
        st.coins[seat],
        st.whisky[seat],
        st.chieftains[seat],
        st.tile_vp[seat],
        len(st.cards[seat]),
        tuple(st.market),
        st.taken,
        st.at,
        frozenset(st.todo),
        st.first,
        st.ness,
        st.points,
        tuple(st.need),
        st.need_any,
        st.need_clan,
        st.pay_for,
        st.reward_vp,
        st.reward_whisky,
        st.opt_cell,
        tuple(st.res_queue),
        st.place_op,
        st.all_tiles,
    )
