"""What building on a hex would add to a Kingdom Builder seat's value at once (the bots' view).

:func:`hex_gains` says, for each of a list of hexes, about what one settlement built there
would add to a seat's value right away — castles it would touch first (KB §9.1), location and
nomad tiles it would take (KB §6.1, §7), the three cards' gains (KB §9.2, §9.3).  It is fast and
approximate: the evaluation's potential (:mod:`game.kingdom_builder.evaluation`) sums it over
the hexes a seat's next card may open, and the search bot's playout policy picks a hex by it.
(The hover preview's *exact* score changes are :mod:`game.kingdom_builder.gains`, the engine's.)

The gains that depend only on the board and the cards are tabled once per layout
(:class:`_Static`); the Lords and Farmers gains read each seat's settlements per sector
(:func:`sector_counts`, :func:`lords_scores`).  Everything here reads only what every seat may
see.  The engine does not import this module (its placement rule, KB §4, is in
:mod:`game.kingdom_builder.state`).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

from game.kingdom_builder.board import MOUNTAIN, SIZE, WATER, Board
from game.kingdom_builder.scoring import sector_row
from game.kingdom_builder.weights import DEFAULT_WEIGHTS, Weights, nomad_value

if TYPE_CHECKING:
    from game.kingdom_builder.state import KingdomBuilderState


class _Static:
    """Per-board, per-card-set tables (built once, shared by every state of that layout)."""

    def __init__(self, board: Board, cards: tuple[str, ...]) -> None:
        terrain = board.terrain
        castles = set(board.castles)
        self.castle_adj: tuple[tuple[int, ...], ...] = tuple(
            tuple(n for n in board.nbrs[h] if n in castles) for h in range(SIZE * SIZE)
        )
        # Card gains that depend only on the hex: Fishermen, Miners, Workers (KB §9.2).
        flat = [0.0] * (SIZE * SIZE)
        for h in range(SIZE * SIZE):
            if "Fishermen" in cards and board.touches_water[h] and terrain[h] != WATER:
                flat[h] += 1.0
            if "Miners" in cards and board.touches_mountain[h] and terrain[h] != MOUNTAIN:
                flat[h] += 1.0
            if "Workers" in cards and board.touches_special[h]:
                flat[h] += 1.0
            # Merchants pays 4 per linked special hex; touching one is the first step.
            if "Merchants" in cards and board.touches_special[h]:
                flat[h] += 1.5
        self.flat = tuple(flat)
        self.knights = "Knights" in cards
        self.discoverers = "Discoverers" in cards
        self.hermits = "Hermits" in cards
        self.citizens = "Citizens" in cards
        self.lords = "Lords" in cards
        self.farmers = "Farmers" in cards
        self.ambassadors = "Ambassadors" in cards
        self.shepherds = "Shepherds" in cards
        self.families = "Families" in cards


_static_cache: dict[tuple[Hashable, ...], _Static] = {}


def _static(board: Board, cards: tuple[str, ...]) -> _Static:
    key = (board.names, board.rotations, cards)
    table = _static_cache.get(key)
    if table is None:
        if len(_static_cache) > 64:
            _static_cache.clear()
        table = _static_cache[key] = _Static(board, cards)
    return table


def sector_counts(st: KingdomBuilderState) -> list[tuple[int, ...]]:
    """Each seat's settlements per sector, in quadrant order (KB §9.2 Lords and Farmers; the
    rules' count, :func:`~game.kingdom_builder.scoring.sector_row`)."""
    return [sector_row(st.board, home) for home in st.homes]


def _lords_delta(counts: Sequence[Sequence[int]], s: int) -> list[float]:
    """Per sector: what one more settlement there adds to seat ``s``'s Lords score (KB §9.2:
    12 for the most settlements, ties included — an empty sector gives everyone 12 — and 6 for
    the next lower count), from the rivals' most and second-most settlements there (found in
    one pass).  The engine's own share is ``gains._lords_share``; a test holds the two equal."""
    out = []
    mine = counts[s]
    for q in range(4):
        top = second = -1  # the rivals' most settlements in the sector, and the most below it
        for p, row in enumerate(counts):
            if p != s:
                c = row[q]
                if c > top:
                    second, top = top, c
                elif top > c > second:
                    second = c
        m = mine[q]
        # 12 for the most (ties share it), 6 for the most below that (KB §9.2)
        before = 12 if m >= top else 6 if m >= second else 0
        after = 12 if m + 1 >= top else 6 if m + 1 >= second else 0
        out.append(float(after - before))
    return out


def lords_scores(counts: Sequence[Sequence[int]]) -> list[int]:
    """Lords for every seat from the sector counts (KB §9.2 "Lords, in full")."""
    out = [0] * len(counts)
    for q in range(4):
        column = [c[q] for c in counts]
        # the shares of _lords_delta (KB §9.2), the column's first and second found once
        first = max(column)
        second = max((c for c in column if c < first), default=None)
        for s, c in enumerate(column):
            if c == first:
                out[s] += 12
            elif c == second:
                out[s] += 6
    return out


def hex_gains(
    st: KingdomBuilderState,
    s: int,
    hexes: Sequence[int],
    left: float,
    weights: Weights | None = None,
    counts: Sequence[Sequence[int]] | None = None,
    build_gold: bool = True,
) -> list[float]:
    """About what building on each of ``hexes`` would add to seat ``s``'s value right away:
    castles it would touch first (KB §9.1), location and nomad tiles it would take (KB §6.1,
    §7), and the three cards' gains (KB §9.2, §9.3).  Fast and approximate: for search
    playouts and potential.  ``build_gold=False`` leaves out the Nomads cards' gold
    (Ambassadors, Shepherds, Families), which depends on the rivals' settlements and the free
    hexes around ``hexes`` — the potential leaves it out so that it stays cacheable by the
    seat's own settlements."""
    board = st.board
    table = _static(board, st.cards)
    weights = weights or DEFAULT_WEIGHTS
    flat, castle_adj, loc_adj = table.flat, table.castle_adj, board.loc_adj
    home = st.homes[s]
    taken = st.taken[s]
    tiles_left = st.left
    kinds = board.location_type
    per_turn = weights.tile_per_turn
    floor = weights.tile_floor
    adj = st.adj[s]
    rows: list[int] | None = None
    best_row = 0
    if table.knights or table.discoverers:
        rows = [0] * SIZE
        for h in home:
            rows[h // SIZE] += 1
        best_row = max(rows)
    sector_gain: list[float] | None = None
    if table.lords or table.farmers:
        if counts is None:
            counts = sector_counts(st)
        sector_gain = [0.0, 0.0, 0.0, 0.0]
        if table.lords:
            sector_gain = _lords_delta(counts, s)
        if table.farmers:
            mine = counts[s]
            low = min(mine)
            if mine.count(low) == 1:
                sector_gain[mine.index(low)] += 3.0
    sector = board.sector
    nomad_left = st.nomad_left
    nomad_adj = board.nomad_adj
    ambassadors = build_gold and table.ambassadors
    shepherds = build_gold and table.shepherds
    others = [st.adj[q] for q in range(st.n) if q != s] if ambassadors else []
    free = st.free
    terrain = board.terrain
    nbrs = board.nbrs
    line: list[int] = []
    if build_gold and table.families and st.cur == s and st.pending is None and not st.mand_done:
        line = st.mand_hexes
    out = []
    for h in hexes:
        g = flat[h]
        for k in castle_adj[h]:
            if not any(n in home for n in board.nbrs[k]):
                g += 3.0
        for loc in loc_adj[h]:
            if tiles_left[loc] > 0 and loc not in taken:
                g += max(floor, per_turn[kinds[loc]] * (left - 1.0))
        if rows is not None:
            r = rows[h // SIZE]
            if table.discoverers and r == 0:
                g += 1.0
            if table.knights and r + 1 > best_row:
                g += 2.0
        if sector_gain is not None:
            g += sector_gain[sector[h]]
        if table.hermits and adj[h] == 0:
            g += 1.0
        if table.citizens and adj[h] > 0:
            g += 0.5
        if nomad_left:
            for nh in nomad_adj[h]:
                if nh in nomad_left:
                    g += nomad_value(st, st.nkind[nh], weights)
        if others and any(a[h] for a in others):
            g += 1.0  # Ambassadors
        if shepherds:
            same = free[terrain[h]]
            if not any(n in same and n != h for n in nbrs[h]):
                g += 2.0
        if line:
            g += _families_gain(board, line, h, weights)
        out.append(g)
    return out


def _families_gain(board: Board, line: list[int], h: int, weights: Weights) -> float:
    """KB §9.3 Families: 2 for the mandatory settlement completing a straight line of 3
    neighbours; a little for the second one next to the first."""
    if len(line) == 1:
        return weights.families_start if h in board.nbr_set[line[0]] else 0.0
    a, b = line
    for fwd, back in board.axes:
        for x, y in ((a, b), (b, a)):
            if fwd[x] == y and (fwd[y] == h or back[x] == h):
                return 2.0
    return 0.0
