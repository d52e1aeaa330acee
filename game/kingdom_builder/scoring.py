"""Kingdom Builder scoring: castles and the 10 Kingdom Builder cards (KB §9).

Each rule is one function ``<card>_scored(board, homes)`` that takes the board and the
settlements of every seat (``homes[seat]`` is a set of hex ids) and returns, per seat, a
:class:`Scored`: the points and what on the map earned them (the settlements, rows, sectors and
special hexes that scored).  The point functions (``castles``, ``fishermen``, ...,
:data:`SCORERS`) and :func:`score_table` take their numbers from these, and
:func:`score_details` turns them into the plain lists the end-of-game view shows — so the
points drawn on the map are the points counted, by construction.  Every card is scored for every
player (KB §9); a settlement on water counts as a settlement for every card except Fishermen
(KB §9.2).

Nomads note: the replacement Workers and Merchants cards count nomad hexes like castles and
locations.  Nomad hexes exist only on Nomads sections, so ``board.specials`` (castles, locations
and nomad hexes) gives the base card in a base game and the replacement card whenever a Nomads
section is in play.  The three Nomads cards (Ambassadors, Families, Shepherds) pay gold during
play (KB §9.3; the state banks it as it is earned, per source): their column is the gold they
paid, and with the nomad tiles a ``treasure`` column holds the gold of Treasure tiles.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

from game.kingdom_builder import nomads as nm
from game.kingdom_builder.board import MOUNTAIN, SIZE, WATER, Board

#: The 10 base-game Kingdom Builder cards, in the rulebook's order.
CARDS = (
    "Fishermen",
    "Miners",
    "Merchants",
    "Workers",
    "Discoverers",
    "Knights",
    "Hermits",
    "Lords",
    "Citizens",
    "Farmers",
)
#: Every Kingdom Builder card: the 10 base cards and the 3 Nomads cards (KB §3.5, §9.3).
ALL_CARDS = CARDS + nm.CARDS
#: The score category of the gold Treasure tiles pay (Nomads with nomad tiles).
TREASURE = "treasure"

Homes = Sequence[set[int]]


class Scored(NamedTuple):
    """What one scoring category gives one seat, and what on the map earned it.

    ``hexes`` are the seat's settlements that scored, in no particular order (one per point-giving item where the
    card counts items: one per row for Discoverers, one per area for Hermits); ``rows`` are
    map rows (Discoverers, Knights); ``sectors`` quadrant indexes (0 top-left, 1 top-right, 2
    bottom-left, 3 bottom-right) with ``sector_points`` beside them (Lords, Farmers);
    ``specials`` castle, location or nomad hexes (castles, Merchants); ``groups`` settlement
    areas (Hermits: every area; Citizens: the largest; Merchants: the areas joining special
    hexes).  Hex ids are ``row * 20 + col``.
    """

    points: int
    hexes: tuple[int, ...] = ()
    rows: tuple[int, ...] = ()
    sectors: tuple[int, ...] = ()
    sector_points: tuple[int, ...] = ()
    specials: tuple[int, ...] = ()
    groups: tuple[tuple[int, ...], ...] = ()


Explainer = Callable[[Board, Homes], list[Scored]]


def groups(board: Board, home: set[int]) -> list[list[int]]:
    """The settlement areas of one seat: maximal sets connected through adjacency (KB §9),
    each sorted, in the order of their first (top-left) settlement."""
    return sorted(sorted(area) for area in _areas(board, home))


def _areas(board: Board, home: set[int] | frozenset[int]) -> list[list[int]]:
    """The settlement areas of one seat, in no order (:func:`groups` sorts them)."""
    seen: set[int] = set()
    out: list[list[int]] = []
    nbrs = board.nbrs
    for start in home:
        if start in seen:
            continue
        seen.add(start)
        group = [start]
        stack = [start]
        while stack:
            for n in nbrs[stack.pop()]:
                if n in home and n not in seen:
                    seen.add(n)
                    group.append(n)
                    stack.append(n)
        out.append(group)
    return out


def castles_scored(board: Board, homes: Homes) -> list[Scored]:
    """KB §9.1: 3 gold per castle hex touching at least one of your settlements (once each)."""
    nbrs = board.nbrs
    out = []
    for home in homes:
        touched = tuple(k for k in board.castles if any(n in home for n in nbrs[k]))
        hexes = tuple({n for k in touched for n in nbrs[k] if n in home})
        out.append(Scored(3 * len(touched), hexes, specials=touched))
    return out


def fishermen_scored(board: Board, homes: Homes) -> list[Scored]:
    """1 per settlement touching water; a settlement *on* water never scores (KB §9.2)."""
    terrain, wet = board.terrain, board.touches_water
    out = []
    for home in homes:
        hexes = tuple(h for h in home if wet[h] and terrain[h] != WATER)
        out.append(Scored(len(hexes), hexes))
    return out


def miners_scored(board: Board, homes: Homes) -> list[Scored]:
    """1 per settlement touching a mountain; one *on* a mountain (Nomads) never scores."""
    terrain, rocky = board.terrain, board.touches_mountain
    out = []
    for home in homes:
        hexes = tuple(h for h in home if rocky[h] and terrain[h] != MOUNTAIN)
        out.append(Scored(len(hexes), hexes))
    return out


def workers_scored(board: Board, homes: Homes) -> list[Scored]:
    """1 per settlement touching a location or castle hex (and nomad hex with Nomads); each
    settlement scores at most 1 however many special hexes it touches (KB §9.2)."""
    special = board.touches_special
    out = []
    for home in homes:
        hexes = tuple(h for h in home if special[h])
        out.append(Scored(len(hexes), hexes))
    return out


def merchants_scored(board: Board, homes: Homes) -> list[Scored]:
    """4 per special hex (location/castle, nomad with Nomads) joined to at least one other
    special hex through a chain of your own settlements (KB §9.2).

    Specials touched by the same settlement area are joined; joins are transitive (a chain may
    pass through a special hex), and each special scores at most once.  The settlements shown
    are the areas that join two or more special hexes (the links of the chains).
    """
    out = []
    specials = board.specials
    nbrs = board.nbrs
    for home in homes:
        parent: dict[int, int] = {}

        def find(x: int, parent: dict[int, int] = parent) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        links: list[tuple[int, ...]] = []
        for group in groups(board, home):
            touched = sorted({n for h in group for n in nbrs[h] if n in specials})
            for s in touched:
                parent.setdefault(s, s)
            for s in touched[1:]:
                a, b = find(touched[0]), find(s)
                if a != b:
                    parent[b] = a
            if len(touched) >= 2:
                links.append(tuple(group))
        sizes: dict[int, int] = {}
        for s in parent:
            root = find(s)
            sizes[root] = sizes.get(root, 0) + 1
        joined = tuple(sorted(s for s in parent if sizes[find(s)] >= 2))
        hexes = tuple(h for link in links for h in link)
        out.append(Scored(4 * len(joined), hexes, specials=joined, groups=tuple(links)))
    return out


def discoverers_scored(board: Board, homes: Homes) -> list[Scored]:
    """1 per horizontal row (of the 20) holding at least one of your settlements.  The
    settlement shown for each row is its leftmost."""
    out = []
    for home in homes:
        first: dict[int, int] = {}
        for h in home:
            row = h // SIZE
            if h < first.get(row, h + 1):
                first[row] = h
        rows = tuple(sorted(first))
        out.append(Scored(len(rows), tuple(first[r] for r in rows), rows))
    return out


def knights_scored(board: Board, homes: Homes) -> list[Scored]:
    """2 per settlement in the one row holding the most of your settlements (0 with none).
    Rows tied for the most give the same points; the topmost of them is shown."""
    out = []
    for home in homes:
        counts = [0] * SIZE
        for h in home:
            counts[h // SIZE] += 1
        best = max(counts)
        if best == 0:
            out.append(Scored(0))
            continue
        row = counts.index(best)
        hexes = tuple(h for h in home if h // SIZE == row)
        out.append(Scored(2 * best, hexes, (row,)))
    return out


def hermits_scored(board: Board, homes: Homes) -> list[Scored]:
    """1 per separate settlement area; a lone settlement is one area (KB §9.2, §10 #4).  The
    settlement shown for each area is its first (top-left)."""
    out = []
    for home in homes:
        areas = groups(board, home)
        out.append(
            Scored(len(areas), tuple(g[0] for g in areas), groups=tuple(tuple(g) for g in areas))
        )
    return out


def citizens_scored(board: Board, homes: Homes) -> list[Scored]:
    """1 per 2 settlements in your largest area, rounded down (the first of equally large
    areas is shown)."""
    out = []
    for home in homes:
        areas = groups(board, home)
        largest: tuple[int, ...] = ()
        for area in areas:
            if len(area) > len(largest):
                largest = tuple(area)
        out.append(Scored(len(largest) // 2, largest, groups=(largest,) if largest else ()))
    return out


def sector_row(board: Board, home: Iterable[int]) -> tuple[int, ...]:
    """One seat's settlements in each quadrant, in quadrant order (KB §9.2 Lords, Farmers)."""
    sector = board.sector
    counts = [0, 0, 0, 0]
    for h in home:
        counts[sector[h]] += 1
    return tuple(counts)


def sector_counts(board: Board, homes: Homes) -> list[list[int]]:
    """``counts[seat][sector]``: settlements of each seat in each quadrant."""
    return [list(sector_row(board, home)) for home in homes]


def _in_sectors(board: Board, home: set[int], sectors: Sequence[int]) -> tuple[int, ...]:
    if not sectors:
        return ()
    sector = board.sector
    return tuple(h for h in home if sector[h] in sectors)


def lords_scored(board: Board, homes: Homes) -> list[Scored]:
    """Per sector, 12 to every seat with the most settlements there and 6 to every seat with
    the next lower distinct count (KB §9.2 "Lords, in full").

    A tie for first does not cancel second place; a seat with 0 can take second place; in a
    sector where nobody has a settlement every seat is tied for the most (0), so every seat
    gets 12 there (the card's tie rule, as Board Game Arena scores it; docs decision 2).
    """
    counts = sector_counts(board, homes)
    won: list[list[tuple[int, int]]] = [[] for _ in homes]
    for q in range(4):
        col = [c[q] for c in counts]
        first = max(col, default=0)
        lower = [c for c in col if c < first]
        second = max(lower) if lower else None
        for seat, c in enumerate(col):
            if c == first:
                won[seat].append((q, 12))
            elif c == second:
                won[seat].append((q, 6))
    out = []
    for home, places in zip(homes, won, strict=True):
        sectors = tuple(q for q, _ in places)
        points = tuple(p for _, p in places)
        out.append(Scored(sum(points), _in_sectors(board, home, sectors), (), sectors, points))
    return out


def farmers_scored(board: Board, homes: Homes) -> list[Scored]:
    """3 per settlement in your weakest sector; a sector with none gives 0 (KB §9.2).  The
    first of equally weak sectors is shown."""
    out = []
    for home, counts in zip(homes, sector_counts(board, homes), strict=True):
        weakest = min(counts)
        q = counts.index(weakest)
        points = 3 * weakest
        out.append(Scored(points, _in_sectors(board, home, (q,)), (), (q,), (points,)))
    return out


def _points(explain: Explainer) -> Callable[[Board, Homes], list[int]]:
    """The point function of a rule: the points of its :class:`Scored` per seat."""

    def score(board: Board, homes: Homes) -> list[int]:
        return [s.points for s in explain(board, homes)]

    score.__name__ = explain.__name__.removesuffix("_scored")
    score.__doc__ = explain.__doc__
    return score


castles = _points(castles_scored)
fishermen = _points(fishermen_scored)
miners = _points(miners_scored)
workers = _points(workers_scored)
merchants = _points(merchants_scored)
discoverers = _points(discoverers_scored)
knights = _points(knights_scored)
hermits = _points(hermits_scored)
citizens = _points(citizens_scored)
lords = _points(lords_scored)
farmers = _points(farmers_scored)


def _merchants_points(board: Board, areas: list[list[int]]) -> int:
    """:func:`merchants_scored`'s points from the seat's areas: 4 per special hex joined to
    another through the seat's settlements (KB §9.2)."""
    specials = board.specials
    nbrs = board.nbrs
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for area in areas:
        touched = {n for h in area for n in nbrs[h] if n in specials}
        if len(touched) < 2:
            for k in touched:
                parent.setdefault(k, k)
            continue
        first = -1
        for k in touched:
            parent.setdefault(k, k)
            if first < 0:
                first = find(k)
            else:
                root = find(k)
                if root != first:
                    parent[root] = first
    sizes: dict[int, int] = {}
    for k in parent:
        root = find(k)
        sizes[root] = sizes.get(root, 0) + 1
    return 4 * sum(size for size in sizes.values() if size >= 2)


def own_points(board: Board, cards: Sequence[str], home: set[int] | frozenset[int]) -> int:
    """One seat's castles (KB §9.1) plus its points on every card of ``cards`` that scores a
    seat's settlements alone (KB §9.2: every base card but Lords, which compares seats; the
    Nomads cards pay gold during play and are not counted here) — the same points as the
    ``*_scored`` rules above, computed without what they explain (the areas found once for
    Merchants, Hermits and Citizens).  For the bots' evaluation, which scores many positions;
    a test holds it equal to the rules."""
    nbrs = board.nbrs
    points = 0
    for k in board.castles:
        for n in nbrs[k]:
            if n in home:
                points += 3
                break
    areas: list[list[int]] | None = None
    for card in cards:
        if card == "Fishermen":
            terrain, wet = board.terrain, board.touches_water
            points += sum(1 for h in home if wet[h] and terrain[h] != WATER)
        elif card == "Miners":
            terrain, rocky = board.terrain, board.touches_mountain
            points += sum(1 for h in home if rocky[h] and terrain[h] != MOUNTAIN)
        elif card == "Workers":
            special = board.touches_special
            points += sum(1 for h in home if special[h])
        elif card == "Discoverers":
            points += len({h // SIZE for h in home})
        elif card == "Knights":
            rows = [0] * SIZE
            for h in home:
                rows[h // SIZE] += 1
            points += 2 * max(rows)
        elif card == "Farmers":
            sector = board.sector
            counts = [0, 0, 0, 0]
            for h in home:
                counts[sector[h]] += 1
            points += 3 * min(counts)
        elif card in ("Merchants", "Hermits", "Citizens"):
            if areas is None:
                areas = _areas(board, home)
            if card == "Hermits":
                points += len(areas)
            elif card == "Citizens":
                points += max((len(a) for a in areas), default=0) // 2
            else:
                points += _merchants_points(board, areas)
    return points


#: Card name -> the rule explained per seat (points and what scored).
EXPLAINERS: dict[str, Explainer] = {
    "Fishermen": fishermen_scored,
    "Miners": miners_scored,
    "Merchants": merchants_scored,
    "Workers": workers_scored,
    "Discoverers": discoverers_scored,
    "Knights": knights_scored,
    "Hermits": hermits_scored,
    "Lords": lords_scored,
    "Citizens": citizens_scored,
    "Farmers": farmers_scored,
}

#: Card name -> points per seat.
SCORERS: dict[str, Callable[[Board, Homes], list[int]]] = {
    "Fishermen": fishermen,
    "Miners": miners,
    "Merchants": merchants,
    "Workers": workers,
    "Discoverers": discoverers,
    "Knights": knights,
    "Hermits": hermits,
    "Lords": lords,
    "Citizens": citizens,
    "Farmers": farmers,
}


Gold = Sequence[Sequence[int]]
"""Per seat, the in-play gold earned from each of :data:`~game.kingdom_builder.nomads.GOLD_SOURCES`
(Ambassadors, Families, Shepherds, Treasure)."""

_SOURCE = {source: i for i, source in enumerate(nm.GOLD_SOURCES)}


def _explained(
    board: Board, homes: Homes, cards: Sequence[str], gold: Gold, treasure: bool = False
) -> list[tuple[str, list[Scored]]]:
    """Each category in scoring order (castles, the cards, ``treasure`` with the nomad tiles)
    with what it gives every seat.  A Nomads card gives the gold it paid during play."""
    columns = [("castles", castles_scored(board, homes))]
    for card in cards:
        if card in _SOURCE:
            i = _SOURCE[card]
            columns.append((card, [Scored(g[i]) for g in gold]))
        else:
            columns.append((card, EXPLAINERS[card](board, homes)))
    if treasure:
        i = _SOURCE["Treasure"]
        columns.append((TREASURE, [Scored(g[i]) for g in gold]))
    return columns


def score_table(
    board: Board, homes: Homes, cards: Sequence[str], gold: Gold, treasure: bool = False
) -> list[dict[str, int]]:
    """Every seat's score by category: ``castles``, the three cards (a Nomads card: the gold it
    paid), ``treasure`` when nomad tiles are in play, and ``total`` (KB §9)."""
    columns = _explained(board, homes, cards, gold, treasure)
    table = []
    for seat in range(len(homes)):
        row = {name: scored[seat].points for name, scored in columns}
        row["total"] = sum(row.values())
        table.append(row)
    return table


def _pos(h: int) -> list[int]:
    return [h // SIZE, h % SIZE]


def score_details(
    board: Board, homes: Homes, cards: Sequence[str], gold: Gold, treasure: bool = False
) -> list[dict[str, Any]]:
    """What scored, per category (in :func:`score_table`'s order) and seat, as plain data:
    ``{"category", "seat", "points", "hexes": [[r, c], ...], "rows": [r, ...], "sectors":
    [q, ...], "sector_points": [p, ...], "specials": [[r, c], ...], "groups": [[[r, c], ...],
    ...]}`` (see :class:`Scored`).  ``points`` are exactly the :func:`score_table` points."""
    out = []
    for name, scored in _explained(board, homes, cards, gold, treasure):
        for seat, s in enumerate(scored):
            out.append(
                {
                    "category": name,
                    "seat": seat,
                    "points": s.points,
                    "hexes": [_pos(h) for h in sorted(s.hexes)],
                    "rows": list(s.rows),
                    "sectors": list(s.sectors),
                    "sector_points": list(s.sector_points),
                    "specials": [_pos(h) for h in s.specials],
                    "groups": [[_pos(h) for h in g] for g in s.groups],
                }
            )
    return out
