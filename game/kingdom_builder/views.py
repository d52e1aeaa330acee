"""What each seat may see (``view``), the full report for ``show --json`` and its text form.

Secrets (KB §3.6, §4): a seat's terrain card is seen only by its owner until its turn starts
(then ``turn.terrain`` shows it to everyone); the order of the draw pile is seen by nobody.  The
discard pile is public, and so are the nomad tiles (face up on their hexes, KB §3.3, and face up
in front of the player who took them).  The RNG never appears in a view.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from game.core.types import Seat
from game.core.wire import plain_copy
from game.kingdom_builder import nomads as nm
from game.kingdom_builder.board import QUADRANTS, SIZE, TERRAIN_CODES
from game.kingdom_builder.codes import EMPTY, SOURCE, TARGET, TILE_STATES, VICTIM, WALL, WALL1, pos
from game.kingdom_builder.scoring import score_details

if TYPE_CHECKING:
    from game.kingdom_builder.state import KingdomBuilderState


def _nomad_terrain(st: KingdomBuilderState, h: int) -> str | None:
    t = nm.TILE_TERRAIN[st.nkind[h]]
    return TERRAIN_CODES[t] if t >= 0 else None


def _pending(st: KingdomBuilderState) -> dict[str, Any] | None:
    if st.pending is None:
        return None
    loc, step, frm, count = st.pending
    nomad = loc not in st.board.location_type
    return {
        "tile": st.tile_kind(loc),
        "nomad": nomad,
        "terrain": _nomad_terrain(st, loc) if nomad else None,
        "hex": pos(loc),
        "step": step,
        "from": pos(frm) if frm >= 0 else None,
        "left": pending_left(st),
        "hit": [q for q in range(st.n) if count >> q & 1] if step == VICTIM else [],
    }


def mandatory_left(st: KingdomBuilderState) -> int:
    """How many settlements the mandatory action can still build this turn (KB §4): 3 minus
    those placed, but never more than the supply holds or than the free hexes of the card's
    terrain (each placement fills one); 0 once the action is over or impossible."""
    if st.over or st.mand_done:
        return 0
    return min(3 - st.placed, st.supply[st.cur], len(st.free[st.terrain]))


def pending_left(st: KingdomBuilderState) -> int:
    """How much the tile action in progress can still do (KB §7): settlements a Donation can
    still build (capped by the supply and the free hexes of its terrain), steps Resettlement has
    left, other players a Sword has still to hit, stone walls Quarry may still place (capped by
    the walls left), 1 for the other tiles; 0 with no tile action."""
    p = st.pending
    if p is None:
        return 0
    loc, step, _, count = p
    kind = st.tile_kind(loc)
    s = st.cur
    if kind == "Donation":
        free = st.free[nm.TILE_TERRAIN[st.nkind[loc]]]
        return min(count, st.supply[s], len(free))
    if kind == "Resettlement":
        return count
    if step == VICTIM:
        return sum(1 for q in range(st.n) if q != s and not count >> q & 1 and st.homes[q])
    if step in (TARGET, SOURCE):
        return 1
    return min(2 if step == WALL1 else 1, st.walls_left)


def _turn(st: KingdomBuilderState) -> dict[str, Any] | None:
    if st.over:
        return None
    return {
        "seat": st.cur,
        "terrain": TERRAIN_CODES[st.terrain],
        "placed": st.placed,
        "mandatory_done": st.mand_done,
        "mandatory_left": mandatory_left(st),
        "outpost": st.outpost,
        "pending": _pending(st),
    }


def _seat(st: KingdomBuilderState, s: int, show_hand: bool) -> dict[str, Any]:
    tiles = st.tiles[s]
    held = st.nheld[s]
    hand = st.hands[s]
    return {
        "seat": s,
        "supply": st.supply[s],
        "settlements": [pos(h) for h in sorted(st.homes[s])],
        "tiles": [
            {
                "type": st.board.location_type[loc],
                "hex": pos(loc),
                "state": TILE_STATES[tiles[loc]],
            }
            for loc in sorted(tiles)
        ],
        "taken_from": [pos(loc) for loc in sorted(st.taken[s])],
        "nomad_tiles": [
            {
                "hex": pos(h),
                "tile": nm.TILE_TYPE[st.nkind[h]],
                "terrain": _nomad_terrain(st, h),
                "state": TILE_STATES[held[h]],
            }
            for h in sorted(held)
        ],
        "hand": TERRAIN_CODES[hand] if show_hand and hand >= 0 else None,
        "gold": st.gold_total(s),
    }


def view(st: KingdomBuilderState, seat: Seat | None) -> dict[str, Any]:
    """The plain-dict view of ``seat`` (``None``: a spectator); its fields are listed in
    ``docs/kingdom-builder.md`` (section "View").  The caller's own: nothing in it is shared
    with the state."""
    return plain_copy(shared_view(st, seat))


def shared_view(st: KingdomBuilderState, seat: Seat | None) -> dict[str, Any]:
    """:func:`view`, for the host, which encodes it at once.

    Everything but ``you`` and the seat's own hand is the same for every seat, so it is built
    once per position and shared by the views of that position (a host sends one view per seat
    after every action) and with the state: never keep or change it.
    """
    shared = st._view
    if shared is None:
        shared = st._view = _public(st, None, lambda s: False)
    out = dict(shared)
    out["you"] = seat
    if seat is not None and seat == st.cur and not st.over:
        # Only the seat to move gets the hover gains of its placements (views stay small).
        out["gains"] = st.placement_gains()
    if seat is not None and 0 <= seat < st.n and st.hands[seat] >= 0:
        seats = list(shared["seats"])
        seats[seat] = dict(seats[seat], hand=TERRAIN_CODES[st.hands[seat]])
        out["seats"] = seats
    return out


def _public(
    st: KingdomBuilderState, you: Seat | None, shows: Callable[[int], bool]
) -> dict[str, Any]:
    b = st.board
    out = {
        "game": st.game_id,
        "players": st.n,
        "you": you,
        "board": b.rows(),
        "sections": [
            {"name": name, "rotated": rot, "quadrant": QUADRANTS[q]}
            for q, (name, rot) in enumerate(zip(b.names, b.rotations, strict=True))
        ],
        "castles": [pos(h) for h in b.castles],
        "locations": [
            {"hex": pos(loc), "type": b.location_type[loc], "tiles": st.left[loc]}
            for loc in b.locations
        ],
        "expansion": st.nomads,
        "nomads": [
            {
                "hex": pos(h),
                "tile": nm.TILE_TYPE[st.nkind[h]] if h in st.nomad_left else None,
                "terrain": _nomad_terrain(st, h) if h in st.nomad_left else None,
            }
            for h in b.nomads
        ],
        "walls": [pos(h) for h in sorted(st.walls)],
        "walls_left": st.walls_left,
        "cards": list(st.cards),
        "deck": len(st.deck),
        "discard": [TERRAIN_CODES[t] for t in st.discard],
        "start_seat": st.start,
        "current": None if st.over else st.cur,
        "round": st.round,
        "end_triggered": st.end_triggered,
        "over": st.over,
        "turn": _turn(st),
        "seats": [_seat(st, s, shows(s)) for s in range(st.n)],
        "scores": st.scores(),
        "preview": st.preview_scores(),
        "gains": [],
    }
    if st.over:
        # What each category scored, to draw on the map (only at the end: views stay small).
        out["scoring"] = score_details(b, st.homes, st.cards, st.gold, st.nomad_tiles)
    return out


def report(st: KingdomBuilderState) -> dict[str, Any]:
    """The ``python -m game show --json`` object: full information (a saved file has no
    secrets from its reader).  Fields are documented in ``docs/kingdom-builder.md``; the
    caller's own, like a view."""
    out = {
        "game": st.game_id,
        "players": st.n,
        "to_move": list(st.to_move()),
        "over": st.over,
        "winners": st.winners() if st.over else [],
    }
    full = _public(st, None, lambda s: True)
    full.pop("you")
    out.update(full)
    out["settlements"] = [[pos(h) for h in sorted(home)] for home in st.homes]
    out["draw_pile"] = [TERRAIN_CODES[t] for t in reversed(st.deck)]
    return plain_copy(out)


def map_lines(st: KingdomBuilderState) -> list[str]:
    """The map as text: odd rows indented half a hex (odd-r).  Empty hexes show their terrain
    in lower case (g c d f t w m), ``K`` castle, ``L`` location, ``N`` nomad hex, ``#`` wall,
    ``0``-``4`` a settlement of that seat."""
    b = st.board
    lines = ["    " + " ".join(f"{c % 10}" for c in range(SIZE))]
    for r in range(SIZE):
        cells = []
        for c in range(SIZE):
            h = r * SIZE + c
            occ = st.owner[h]
            if occ == WALL:
                cells.append("#")
            elif occ != EMPTY:
                cells.append(str(occ))
            else:
                code = TERRAIN_CODES[b.terrain[h]]
                cells.append(code if code in "KLN" else code.lower())
        lines.append(f"{r:>2} " + (" " if r & 1 else "") + " ".join(cells))
    return lines


def report_text(st: KingdomBuilderState) -> str:
    """A readable summary: setup, the map, turn, tiles and a score table."""
    b = st.board
    secs = ", ".join(
        f"{QUADRANTS[q]} {n}{' (turned)' if r else ''}"
        for q, (n, r) in enumerate(zip(b.names, b.rotations, strict=True))
    )
    lines = [
        f"Kingdom Builder, {st.n} players; sections: {secs}",
        f"cards: {', '.join(st.cards)} (+ castles)",
    ]
    lines += map_lines(st)
    lines.append(
        "legend: g c d f t = grass canyon desert flower forest, w water, m mountain, "
        "K castle, L location, N nomad, # wall, digit = settlement of that seat"
    )
    if st.over:
        lines.append("game over; winners: " + ", ".join(f"seat {s}" for s in st.winners()))
    else:
        lines.append(
            f"round {st.round}, seat {st.cur} to move with {TERRAIN_CODES[st.terrain]}: "
            f"{st.placed} placed{', mandatory done' if st.mand_done else ''}"
            + (f", using {st.tile_kind(st.pending[0])}" if st.pending else "")
            + (", end triggered" if st.end_triggered else "")
        )
    scores = st.preview_scores()
    cats = [k for k in scores[0] if k != "total"]
    width = max(len(c) for c in [*cats, "total", "supply"]) + 1
    lines.append("seat  " + "".join(f"{c:>{width}}" for c in ["supply", *cats, "total"]))
    for s, row in enumerate(scores):
        vals = [st.supply[s]] + [row[c] for c in cats] + [row["total"]]
        lines.append(f"{s:>4}  " + "".join(f"{v:>{width}}" for v in vals))
    left = sorted(st.nomad_left)
    if left:
        lines.append(
            "nomad tiles: " + ", ".join(f"{st.nkind[h]}@{h // SIZE},{h % SIZE}" for h in left)
        )
    for s in range(st.n):
        if st.nheld[s]:
            held = ", ".join(
                f"{st.nkind[h]}@{h // SIZE},{h % SIZE}({['ready', 'used', 'new'][state]})"
                for h, state in sorted(st.nheld[s].items())
            )
            lines.append(f"seat {s} nomad tiles: {held}")
    for s in range(st.n):
        if st.tiles[s]:
            held = ", ".join(
                f"{b.location_type[loc]}@{loc // SIZE},{loc % SIZE}"
                f"({['ready', 'used', 'new'][state]})"
                for loc, state in sorted(st.tiles[s].items())
            )
            lines.append(f"seat {s} tiles: {held}")
    return "\n".join(lines)
