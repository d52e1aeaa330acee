"""Transport (KF §7.1, D6): resources moved one road step at a time in the user's own village.

Using a transport tile (your own, another seat's or an auction tile) gives transport and upgrade
points, doubled with summer boat 2b (:mod:`~game.keyflower.play` sets them).  Each point moves
one resource — gold included, from any tile of the village, home and storage tiles included — to
a neighbouring tile joined to it by road (with summer boat 2a any neighbour).  All transport
comes before any upgrade (:mod:`~game.keyflower.upgrades`): after the first flip no step is
listed; points not used are lost.  A step is asked as ``("move", tile, kind)`` then
``("move_to", tile)`` (a single road out is taken at once), and the use ends by itself when
nothing is left to do.  Functions take the state as ``st``; :func:`move_to` and
:func:`after_transport_step` change it in place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.core.types import Event
from game.keyflower.const import F_2A, TRANSPORT
from game.keyflower.tiles import RESOURCES, TILES
from game.keyflower.upgrades import any_upgrade
from game.keyflower.village import can_transport

if TYPE_CHECKING:
    from game.keyflower.state import KeyflowerState


def movable(st: KeyflowerState, s: int) -> list[tuple[int, int]]:
    """KF §7.1 (D6): (tile, resource kind) pairs that can take one transport step: a resource
    on a tile of ``s``'s village with a neighbour joined by road (any neighbour with 2a)."""
    vil = st.vil[s]
    any_side = bool(st.flags[s] & F_2A)
    res = st.res
    out = []
    for t in st.vil_order(s):
        b = t * 4
        if not (res[b] or res[b + 1] or res[b + 2] or res[b + 3]):
            continue
        if not can_transport(vil, st.rot, st.hexof[t], any_side):
            continue
        for k in range(4):
            if res[b + k]:
                out.append((t, k))
    return out


def move_to(st: KeyflowerState, s: int, to: int, events: list[Event]) -> None:
    """One transport step (KF §7.1): the chosen resource moves to a joined neighbour."""
    frm, k = st.pfrom, st.pkind
    st.res[frm * 4 + k] -= 1
    st.res[to * 4 + k] += 1
    st.ppts -= 1
    st.pfrom = -1
    st.pkind = -1
    st.stage = TRANSPORT
    events.append(
        {
            "type": "move",
            "seat": s,
            "from": TILES[frm].id,
            "to": TILES[to].id,
            "resource": RESOURCES[k],
        }
    )
    after_transport_step(st, s, events)


def after_transport_step(st: KeyflowerState, s: int, events: list[Event]) -> None:
    """End the use by itself when nothing is left to do (no step, no upgrade possible)."""
    can_move = st.ppts > 0 and not st.pupgraded and bool(movable(st, s))
    if can_move:
        return
    if st.pupg > 0 and any_upgrade(st, s):
        return
    st.end_turn(events)
