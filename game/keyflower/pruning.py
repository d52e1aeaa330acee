"""What the bots search in a Keyflower turn: the candidate actions (pruning) and the key that
merges transpositions.

Hooks of the bots' evaluation (:mod:`game.keyflower.evaluation` exports them; the engine does
not import this module).  Rule references ``KF §n`` point to ``shared/rules/keyflower.md``.

``candidate_actions`` keeps, of the bids and uses with one tile and one colour, the smallest
(and for bids the next larger), so a turn stays searchable; ``hard_candidate_actions`` (the hard
level's) also keeps only the best few placements of each tile; ``position_key`` merges the same
turn played in another order (transport steps, upgrades, placements).  ``smallest`` serves the
search bot's playout policy (:meth:`game.keyflower.evaluation.Evaluator.rollout_action`).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from game.core.types import Action, Seat
from game.keyflower.seasons import pending_village
from game.keyflower.tiles import FIELD, ROAD
from game.keyflower.village import DIRS, ROT_EDGES, hex_id

if TYPE_CHECKING:
    from game.core.api import GameState
    from game.keyflower.state import KeyflowerState


#: Placements kept per tile by :func:`hard_candidate_actions` when a list is long.
PLACES_PER_TILE = 4


def candidate_actions(state: GameState, seat: Seat, actions: list[Action]) -> list[Action]:
    """The actions worth searching (KF §5, §6.2), in the engine's order: of the bids with one
    tile and one colour the two smallest (the least raise that leads, and one more to be safer),
    of the uses the smallest (placing more keyples than needed only blocks the tile); every
    other action (pass, reclaims, narrowing steps, payments, transport, placements, boats,
    winter choices) is kept."""
    least: dict[tuple[Any, Any, Any], list[int]] = {}
    for a in actions:
        if a[0] == "bid" or a[0] == "use":
            least.setdefault((a[0], a[1], a[2]), []).append(a[3])
    if not least:
        return actions
    keep: set[tuple[Any, Any, Any, int]] = set()
    for (kind, tile, colour), counts in least.items():
        counts.sort()
        for n in counts[: 2 if kind == "bid" else 1]:
            keep.add((kind, tile, colour, n))
    return [a for a in actions if a[0] not in ("bid", "use") or a in keep]


def hard_candidate_actions(state: GameState, seat: Seat, actions: list[Action]) -> list[Action]:
    """The hard level's :func:`candidate_actions` (its ``HARD_CANDIDATE_ACTIONS``): the same,
    and of a long list of placements (more than ``PLACES_PER_TILE`` per tile, KF §9) the
    ``PLACES_PER_TILE`` positions of each tile (at most two turns of one hex) that join the most
    roads, then rivers, then tiles (roads carry transport, KF §7.1, and close Sea Bastion's
    loops; rivers carry Sea Breeze's chain; neighbours score turn-order tiles, KF §11.1, §12).
    A village of ten tiles offers some 50 positions per tile: planning them all starved the
    search's planners, and its placement phases cost ten times a turn (a hard decision took up
    to 14 s of CPU)."""
    if actions and actions[0][0] == "place":
        return _best_places(state, seat, actions)
    return candidate_actions(state, seat, actions)


def _best_places(state: GameState, seat: Seat, actions: list[Action]) -> list[Action]:
    """:func:`hard_candidate_actions` for a list of placements (see there)."""
    by_tile: dict[Any, list[tuple[int, int, Action]]] = {}
    for i, a in enumerate(actions):
        by_tile.setdefault(a[1], []).append((0, i, a))
    if all(len(v) <= PLACES_PER_TILE for v in by_tile.values()):
        return actions
    st: KeyflowerState = state  # type: ignore[assignment]
    vil, rots, _free = pending_village(st, seat)
    keep: set[int] = set()
    for tile_id, options in by_tile.items():
        if len(options) <= PLACES_PER_TILE:
            keep.update(i for _s, i, _a in options)
            continue
        t = st.tile_of(tile_id)
        scored = []
        for _s, i, a in options:
            h = hex_id(a[2], a[3])
            edges = ROT_EDGES[t][a[4]]
            score = 0
            for p in range(6):
                other = vil.get(h + DIRS[p])
                if other is None:
                    continue
                score += 1  # a neighbour
                mine = edges[p]
                if mine != FIELD and ROT_EDGES[other][rots[other]][(p + 3) % 6] == mine:
                    score += 100 if mine == ROAD else 10
            scored.append((-score, i, h))
        scored.sort()
        # the best positions, at most two turns of one hex (so the few kept spread out)
        per_hex: dict[int, int] = {}
        kept = 0
        for _s, i, h in scored:
            if per_hex.get(h, 0) >= 2:
                continue
            per_hex[h] = per_hex.get(h, 0) + 1
            keep.add(i)
            kept += 1
            if kept >= PLACES_PER_TILE:
                break
    return [a for i, a in enumerate(actions) if i in keep]


def position_key(state: GameState, seat: Seat) -> Hashable:
    """Everything the rest of the game depends on while ``seat`` plays its turn: the phase and
    step of the turn, the seat's screen, village (tiles, sides, rotations, resources) and
    placements of this phase, every bid, use and lock, the supplies, the boats, the winter
    hand, choices and auction tiles and the RNG — not the order in which the seat got there (transport steps,
    upgrades, placements)."""
    st: KeyflowerState = state  # type: ignore[assignment]
    tiles = list(st.vorder[seat])
    return (
        st.turn,
        st.phase,
        st.stage,
        st.season,
        st.cur,
        st.passes,
        st.purple,
        tuple(st.keys[seat]),
        tuple(st.skills[seat]),
        frozenset(
            (t, st.hexof[t], st.rot[t], st.side[t], tuple(st.res[t * 4 : t * 4 + 4])) for t in tiles
        ),
        frozenset(st.pplaced[seat]),
        tuple(sorted(st.won[seat])),
        st.psel[seat],
        st.wpick[seat],
        tuple(st.hands[seat]),
        tuple(st.auction),
        tuple(st.bidn),
        tuple(st.bidc),
        tuple(sorted(st.uses.items())),
        tuple(st.lock),
        tuple(st.bag),
        st.green,
        tuple(st.sksup),
        tuple(st.ressup),
        tuple(st.btaken),
        tuple(st.border),
        st.precl,
        st.pcol,
        st.pk,
        st.ptile,
        st.ppts,
        st.pupg,
        st.pupgraded,
        st.pfrom,
        st.pkind,
        st.pleft,
        st.pleft_s,
        st.rng.state,
    )


def smallest(actions: list[Action]) -> list[Action]:
    """Of bids or uses with one tile and one colour, the one adding the fewest keyples."""
    best: dict[tuple[Any, Any], Action] = {}
    for a in actions:
        key = (a[1], a[2])
        known = best.get(key)
        if known is None or a[3] < known[3]:
            best[key] = a
    return list(best.values())


__all__ = [
    "PLACES_PER_TILE",
    "candidate_actions",
    "hard_candidate_actions",
    "position_key",
    "smallest",
]
