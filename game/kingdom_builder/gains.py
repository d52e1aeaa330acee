"""What each legal placement of the seat to move would gain: the hover preview (issue 8).

For every legal ``("place", r, c)`` of the seat to move — a build (the mandatory action, a build
tile, a Donation) or the destination of a move (Barn, Harbor, Paddock, Caravan, a Resettlement
step) — :func:`placement_gains` says how the seat's *previewed* score (``preview_scores()``,
"if the game ended now") would change, by category, and which tiles the placement would take
(location tiles, KB §6.1; nomad tiles, KB §7) or, for a move, lose (KB §6.2).  The client shows
it on hover and never re-derives a rule.

**How.**  Recomputing the score table for each of ~60 placements would cost milliseconds per
position, and a host builds views after every action.  So each category's change is computed
*incrementally* from a few tables of the seat's settlements built once per position (areas,
rows, sectors, the special hexes each area joins): one small function per category below, each
stating the rule it follows (KB §9).  A move is a lift and a build: the exact preview without
the moving settlement is computed once, and the destinations are built on that.  Exactness is
checked by ``tests/kingdom_builder/test_gains.py``, which compares every listed gain with the
score after really applying the action, over random games with every card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from game.kingdom_builder import nomads as nm
from game.kingdom_builder.board import MOUNTAIN, SIZE, WATER, Board
from game.kingdom_builder.scoring import TREASURE, score_table

if TYPE_CHECKING:
    from game.kingdom_builder.state import KingdomBuilderState


class _Seat:
    """Tables of one seat's settlements ``home`` that the category gains read, each built only
    if one of the game's cards needs it.  ``touch[x]`` is how many of them touch hex ``x``."""

    __slots__ = ("best_row", "group", "largest", "rows", "sizes", "specials", "touch", "uf")

    def __init__(
        self, board: Board, home: set[int], touch: bytearray | bytes, cards: Sequence[str]
    ) -> None:
        self.touch = touch
        self.rows: list[int] = []
        self.best_row = 0
        if "Knights" in cards or "Discoverers" in cards:
            self.rows = [0] * SIZE
            for h in home:
                self.rows[h // SIZE] += 1
            self.best_row = max(self.rows)
        # settlement areas (KB §9): group id per settlement, sizes, special hexes touched
        self.group: dict[int, int] = {}
        self.sizes: list[int] = []
        self.specials: list[set[int]] = []
        self.largest = 0
        self.uf: dict[int, int] = {}
        need_specials = "Merchants" in cards
        if need_specials or "Hermits" in cards or "Citizens" in cards:
            self._areas(board, home, need_specials)

    def _areas(self, board: Board, home: set[int], need_specials: bool) -> None:
        nbrs = board.nbrs
        specials = board.specials
        group = self.group
        for start in home:
            if start in group:
                continue
            gid = len(self.sizes)
            group[start] = gid
            stack = [start]
            size = 0
            touched: set[int] = set()
            while stack:
                x = stack.pop()
                size += 1
                for n in nbrs[x]:
                    if n in home:
                        if n not in group:
                            group[n] = gid
                            stack.append(n)
                    elif need_specials and n in specials:
                        touched.add(n)
            self.sizes.append(size)
            self.specials.append(touched)
        self.largest = max(self.sizes, default=0)
        # Merchants (KB §9.2): special hexes joined through areas, as components
        if need_specials:
            for touched in self.specials:
                first = -1
                for x in touched:
                    self.uf.setdefault(x, x)
                    root = self.find(x)
                    if first < 0:
                        first = root
                    elif root != first:
                        self.uf[root] = first

    def find(self, x: int) -> int:
        uf = self.uf
        while uf[x] != x:
            uf[x] = uf[uf[x]]
            x = uf[x]
        return x


def _lords_share(column: list[int], s: int) -> int:
    """KB §9.2 Lords in one sector for seat ``s`` (12 for the most, ties included, 6 for the
    next lower count; an empty sector gives everyone 12 — decision 2)."""
    first = max(column)
    if column[s] == first:
        return 12
    second = max((c for c in column if c < first), default=None)
    return 6 if column[s] == second else 0


class _Context:
    """Everything the per-hex gains read, for seat ``s`` with settlements ``homes``."""

    def __init__(
        self,
        st: KingdomBuilderState,
        s: int,
        homes: Sequence[set[int]],
        touch: bytearray | bytes,
        build: bool,
    ) -> None:
        board = st.board
        self.st = st
        self.board = board
        self.s = s
        self.cards = st.cards
        self.home = homes[s]
        self.seat = _Seat(board, homes[s], touch, st.cards)
        self.build = build
        self._groups_of = -1
        self._groups: set[int] = set()
        self.sector_counts: list[list[int]] = []
        if "Lords" in st.cards or "Farmers" in st.cards:
            sector = board.sector
            for home in homes:
                counts = [0, 0, 0, 0]
                for x in home:
                    counts[sector[x]] += 1
                self.sector_counts.append(counts)
        # Families (KB §9.3): the placement that would be the 3rd of the mandatory action
        self.families_line: list[int] | None = None
        third = st.pending is None and not st.mand_done and st.placed == 2
        if build and third and "Families" in st.cards:
            self.families_line = st.mand_hexes

    def gains(self, h: int) -> dict[str, int]:
        """The change of every category of the seat's preview if it had a settlement on ``h``
        (``h`` empty, not in ``home``)."""
        self._groups_of = -1
        out: dict[str, int] = {}
        castles = self._castles(h)
        if castles:
            out["castles"] = castles
        for card in self.cards:
            g = _CARD_GAINS[card](self, h)
            if g:
                out[card] = g
        return out

    # ---- castles and cards: one function per rule -------------------------------------------
    def _castles(self, h: int) -> int:
        """KB §9.1: 3 per castle next to ``h`` that no settlement of the seat touches yet."""
        touch = self.seat.touch
        castles = self.board.castle_set
        return 3 * sum(1 for n in self.board.nbrs[h] if n in castles and not touch[n])

    def _adjacent_groups(self, h: int) -> set[int]:
        """The seat's areas that ``h`` touches (kept for the hex being looked at)."""
        if self._groups_of != h:
            group = self.seat.group
            self._groups = {group[n] for n in self.board.nbrs[h] if n in group}
            self._groups_of = h
        return self._groups


def _fishermen(ctx: _Context, h: int) -> int:
    """KB §9.2: +1 if ``h`` touches water and is not itself water."""
    b = ctx.board
    return 1 if b.touches_water[h] and b.terrain[h] != WATER else 0


def _miners(ctx: _Context, h: int) -> int:
    """KB §9.2: +1 if ``h`` touches a mountain and is not itself a mountain."""
    b = ctx.board
    return 1 if b.touches_mountain[h] and b.terrain[h] != MOUNTAIN else 0


def _workers(ctx: _Context, h: int) -> int:
    """KB §9.2 (replacement card with Nomads): +1 if ``h`` touches a special hex."""
    return 1 if ctx.board.touches_special[h] else 0


def _merchants(ctx: _Context, h: int) -> int:
    """KB §9.2 Merchants: ``h`` joins the areas it touches into one; the special hexes they and
    ``h`` touch become one component.  If it holds 2 or more special hexes, each special hex
    that was not joined before (a component of its own) now scores 4."""
    seat = ctx.seat
    specials = ctx.board.specials
    touched = {n for n in ctx.board.nbrs[h] if n in specials}
    for g in ctx._adjacent_groups(h):
        touched |= seat.specials[g]
    if len(touched) < 2:
        return 0
    uf = seat.uf
    comps: dict[int, int] = {}  # root -> size
    new = 0
    for x in touched:
        if x in uf:
            root = seat.find(x)
            comps[root] = comps.get(root, 0) + 1
        else:
            new += 1
    # sizes of the whole components touched (not only the specials next to h)
    total = new
    singles = new
    if comps:
        size: dict[int, int] = {}
        for x in uf:
            root = seat.find(x)
            if root in comps:
                size[root] = size.get(root, 0) + 1
        total += sum(size.values())
        singles += sum(1 for n in size.values() if n == 1)
    return 4 * singles if total >= 2 else 0


def _discoverers(ctx: _Context, h: int) -> int:
    """KB §9.2: +1 if ``h``'s row holds none of the seat's settlements yet."""
    return 1 if ctx.seat.rows[h // SIZE] == 0 else 0


def _knights(ctx: _Context, h: int) -> int:
    """KB §9.2: 2 per settlement of the fullest row — +2 if ``h``'s row becomes the fullest."""
    seat = ctx.seat
    return 2 * (max(seat.best_row, seat.rows[h // SIZE] + 1) - seat.best_row)


def _hermits(ctx: _Context, h: int) -> int:
    """KB §9.2: 1 per area — ``h`` is a new area, merging the k areas it touches: 1 − k."""
    return 1 - len(ctx._adjacent_groups(h))


def _citizens(ctx: _Context, h: int) -> int:
    """KB §9.2: half the largest area — ``h`` and the areas it touches form one area."""
    seat = ctx.seat
    merged = 1 + sum(seat.sizes[g] for g in ctx._adjacent_groups(h))
    largest = seat.largest
    return max(largest, merged) // 2 - largest // 2


def _lords(ctx: _Context, h: int) -> int:
    """KB §9.2 Lords: the seat's share in ``h``'s sector with one more settlement there."""
    q = ctx.board.sector[h]
    column = [c[q] for c in ctx.sector_counts]
    before = _lords_share(column, ctx.s)
    column[ctx.s] += 1
    return _lords_share(column, ctx.s) - before


def _farmers(ctx: _Context, h: int) -> int:
    """KB §9.2 Farmers: 3 per settlement of the seat's weakest sector."""
    mine = list(ctx.sector_counts[ctx.s])
    before = min(mine)
    mine[ctx.board.sector[h]] += 1
    return 3 * (min(mine) - before)


def _ambassadors(ctx: _Context, h: int) -> int:
    """KB §9.3: a *built* settlement touching another seat's settlement pays 1."""
    if not ctx.build:
        return 0
    st = ctx.st
    return (
        nm.CARD_GOLD["Ambassadors"] if any(st.adj[q][h] for q in range(st.n) if q != ctx.s) else 0
    )


def _shepherds(ctx: _Context, h: int) -> int:
    """KB §9.3: a *built* settlement touching no empty hex of its own terrain pays 2."""
    if not ctx.build:
        return 0
    same = ctx.st.free[ctx.board.terrain[h]]
    if any(n in same for n in ctx.board.nbrs[h]):
        return 0
    return nm.CARD_GOLD["Shepherds"]


def _families(ctx: _Context, h: int) -> int:
    """KB §9.3: the 3rd mandatory settlement pays 2 if the three are a straight line."""
    line = ctx.families_line
    if line is None:
        return 0
    want = {*line, h}
    if len(want) != 3:
        return 0
    for fwd, _ in ctx.board.axes:
        for x in want:
            y = fwd[x]
            if y >= 0 and fwd[y] >= 0 and {x, y, fwd[y]} == want:
                return nm.CARD_GOLD["Families"]
    return 0


_CARD_GAINS = {
    "Fishermen": _fishermen,
    "Miners": _miners,
    "Merchants": _merchants,
    "Workers": _workers,
    "Discoverers": _discoverers,
    "Knights": _knights,
    "Hermits": _hermits,
    "Citizens": _citizens,
    "Lords": _lords,
    "Farmers": _farmers,
    "Ambassadors": _ambassadors,
    "Families": _families,
    "Shepherds": _shepherds,
}


def _pos(h: int) -> list[int]:
    return [h // SIZE, h % SIZE]


def _takes(st: KingdomBuilderState, s: int, h: int) -> list[list[int]]:
    """The tiles a settlement arriving on ``h`` takes: one from each location hex with tiles
    that ``s`` never took from (KB §6.1), the tile of each nomad hex still holding one (KB §7)."""
    out = [_pos(loc) for loc in st.board.loc_adj[h] if st.left[loc] > 0 and loc not in st.taken[s]]
    out += [_pos(nh) for nh in st.board.nomad_adj[h] if nh in st.nomad_left]
    return out


def _loses(st: KingdomBuilderState, s: int, frm: int, to: int) -> list[list[int]]:
    """The location tiles ``s`` loses by moving from ``frm`` to ``to`` (KB §6.2): those of
    hexes next to ``frm`` that none of its settlements would touch any more."""
    held = st.tiles[s]
    a = st.adj[s]
    around_to = st.board.nbr_set[to]
    return [
        _pos(loc)
        for loc in st.board.loc_adj[frm]
        if loc in held and a[loc] - 1 + (1 if loc in around_to else 0) == 0
    ]


def placement_gains(st: KingdomBuilderState) -> list[dict[str, Any]]:
    """For each legal placement of the seat to move, in the legal list's order::

        {"hex": [r, c], "total": n, "points": {category: change, ...},
         "take": [[r, c], ...], "lose": [[r, c], ...]}

    ``points`` lists only the categories that change (the names of ``scores``); ``take`` and
    ``lose`` (tiles taken, tiles lost by a move) appear only when not empty.  Empty when the
    seat to move has no placement to make.
    """
    if st.over:
        return []
    s = st.cur
    targets = sorted(st._decide().place)  # the legal list's places, in its order
    if not targets:
        return []
    board = st.board
    loc_adj, nomad_adj, nomad_left = board.loc_adj, board.nomad_adj, st.nomad_left
    p = st.pending
    frm = p[2] if p is not None else -1
    if frm < 0:
        ctx = _Context(st, s, st.homes, st.adj[s], build=True)
        base: dict[str, int] = {}
    else:
        homes = [set(home) for home in st.homes]
        homes[s].discard(frm)
        touch = bytearray(st.adj[s])
        for n in board.nbrs[frm]:
            touch[n] -= 1
        ctx = _Context(st, s, homes, touch, build=False)
        before = st.preview_scores()[s]
        lifted = score_table(board, homes, st.cards, st.gold, st.nomad_tiles)[s]
        base = {k: lifted[k] - before[k] for k in before if k not in ("total", TREASURE)}
    out = []
    for h in targets:
        points = ctx.gains(h)
        if base:
            for k, v in base.items():
                points[k] = points.get(k, 0) + v
            points = {k: v for k, v in points.items() if v}
        entry: dict[str, Any] = {
            "hex": [h // SIZE, h % SIZE],
            "total": sum(points.values()),
            "points": points,
        }
        if loc_adj[h] or (nomad_left and nomad_adj[h]):
            take = _takes(st, s, h)
            if take:
                entry["take"] = take
        if frm >= 0:
            lose = _loses(st, s, frm, h)
            if lose:
                entry["lose"] = lose
        out.append(entry)
    return out
