"""What each seat may see (``view``), the full report for ``show --json`` and its text form.

Secrets (KB §3.6, §4): a seat's terrain card is seen only by its owner until its turn starts
(then ``turn.terrain`` shows it to everyone); the order of the draw pile is seen by nobody.  The
discard pile is public.  The RNG never appears in a view.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from game.core.types import Seat
from game.kingdom_builder.board import QUADRANTS, SIZE, TERRAIN_CODES
from game.kingdom_builder.scoring import score_details
from game.kingdom_builder.state import EMPTY, TILE_STATES, WALL, pos

if TYPE_CHECKING:
    from game.kingdom_builder.state import KingdomBuilderState


def _pending(st: KingdomBuilderState) -> dict[str, Any] | None:
    if st.pending is None:
        return None
    loc, step, frm = st.pending
    return {
        "tile": st.board.location_type[loc],
        "hex": pos(loc),
        "step": step,
        "from": pos(frm) if frm >= 0 else None,
    }


def _turn(st: KingdomBuilderState) -> dict[str, Any] | None:
    if st.over:
        return None
    return {
        "seat": st.cur,
        "terrain": TERRAIN_CODES[st.terrain],
        "placed": st.placed,
        "mandatory_done": st.mand_done,
        "pending": _pending(st),
    }


def _seat(st: KingdomBuilderState, s: int, show_hand: bool) -> dict[str, Any]:
    tiles = st.tiles[s]
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
        "hand": TERRAIN_CODES[hand] if show_hand and hand >= 0 else None,
        "gold": st.gold[s],
    }


def view(st: KingdomBuilderState, seat: Seat | None) -> dict[str, Any]:
    """The plain-dict view of ``seat`` (``None``: a spectator); its fields are listed in
    ``docs/kingdom-builder.md`` (section "View").

    Everything but ``you`` and the seat's own hand is the same for every seat, so it is built
    once per position and shared by the views of that position (a host sends one view per seat
    after every action).  Treat a view as read-only.
    """
    shared = st._view
    if shared is None:
        shared = st._view = _public(st, None, lambda s: False)
    out = dict(shared)
    out["you"] = seat
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
        "nomads": [{"hex": pos(h), "tile": None} for h in b.nomads],
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
    }
    if st.over:
        # What each category scored, to draw on the map (only at the end: views stay small).
        out["scoring"] = score_details(b, st.homes, st.cards, st.gold)
    return out


def report(st: KingdomBuilderState) -> dict[str, Any]:
    """The ``python -m game show --json`` object: full information (a saved file has no
    secrets from its reader).  Fields are documented in ``docs/kingdom-builder.md``."""
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
    return out


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
            + (f", using {st.board.location_type[st.pending[0]]}" if st.pending else "")
            + (", end triggered" if st.end_triggered else "")
        )
    scores = st.preview_scores()
    cats = [k for k in scores[0] if k != "total"]
    width = max(len(c) for c in [*cats, "total", "supply"]) + 1
    lines.append("seat  " + "".join(f"{c:>{width}}" for c in ["supply", *cats, "total"]))
    for s, row in enumerate(scores):
        vals = [st.supply[s]] + [row[c] for c in cats] + [row["total"]]
        lines.append(f"{s:>4}  " + "".join(f"{v:>{width}}" for v in vals))
    for s in range(st.n):
        if st.tiles[s]:
            held = ", ".join(
                f"{b.location_type[loc]}@{loc // SIZE},{loc % SIZE}"
                f"({['ready', 'used', 'new'][state]})"
                for loc, state in sorted(st.tiles[s].items())
            )
            lines.append(f"seat {s} tiles: {held}")
    return "\n".join(lines)
