"""Kingdom Builder scoring: castles and the 10 Kingdom Builder cards (KB §9).

Each function takes the board and the settlements of every seat (``homes[seat]`` is a set of hex
ids) and returns one number per seat, so the functions are pure and easy to test on hand-built
positions.  Every card is scored for every player (KB §9); a settlement on water counts as a
settlement for every card except Fishermen (KB §9.2).

Nomads note: the replacement Workers and Merchants cards count nomad hexes like castles and
locations.  Nomad hexes exist only on Nomads sections, so ``board.specials`` (castles, locations
and nomad hexes) gives the base card in a base game and the replacement card whenever a Nomads
section is in play.  The three Nomads cards (Ambassadors, Families, Shepherds) score during play
into the state's ``gold`` and come with the Nomads issue.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

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

Homes = Sequence[set[int]]


def groups(board: Board, home: set[int]) -> list[list[int]]:
    """The settlement areas of one seat: maximal sets connected through adjacency (KB §9)."""
    seen: set[int] = set()
    out: list[list[int]] = []
    nbrs = board.nbrs
    for start in sorted(home):
        if start in seen:
            continue
        seen.add(start)
        group = [start]
        stack = [start]
        while stack:
            h = stack.pop()
            for n in nbrs[h]:
                if n in home and n not in seen:
                    seen.add(n)
                    group.append(n)
                    stack.append(n)
        out.append(sorted(group))
    return out


def castles(board: Board, homes: Homes) -> list[int]:
    """KB §9.1: 3 gold per castle hex touching at least one of your settlements (once each)."""
    nbrs = board.nbrs
    return [3 * sum(1 for k in board.castles if any(n in home for n in nbrs[k])) for home in homes]


def fishermen(board: Board, homes: Homes) -> list[int]:
    """1 per settlement touching water; a settlement *on* water never scores (KB §9.2)."""
    terrain, wet = board.terrain, board.touches_water
    return [sum(1 for h in home if wet[h] and terrain[h] != WATER) for home in homes]


def miners(board: Board, homes: Homes) -> list[int]:
    """1 per settlement touching a mountain; one *on* a mountain (Nomads) never scores."""
    terrain, rocky = board.terrain, board.touches_mountain
    return [sum(1 for h in home if rocky[h] and terrain[h] != MOUNTAIN) for home in homes]


def workers(board: Board, homes: Homes) -> list[int]:
    """1 per settlement touching a location or castle hex (and nomad hex with Nomads); each
    settlement scores at most 1 however many special hexes it touches (KB §9.2)."""
    special = board.touches_special
    return [sum(1 for h in home if special[h]) for home in homes]


def merchants(board: Board, homes: Homes) -> list[int]:
    """4 per special hex (location/castle, nomad with Nomads) joined to at least one other
    special hex through a chain of your own settlements (KB §9.2).

    Specials touched by the same settlement area are joined; joins are transitive (a chain may
    pass through a special hex), and each special scores at most once.
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

        for group in groups(board, home):
            touched = sorted({n for h in group for n in nbrs[h] if n in specials})
            for s in touched:
                parent.setdefault(s, s)
            for s in touched[1:]:
                a, b = find(touched[0]), find(s)
                if a != b:
                    parent[b] = a
        sizes: dict[int, int] = {}
        for s in parent:
            root = find(s)
            sizes[root] = sizes.get(root, 0) + 1
        out.append(4 * sum(1 for s in parent if sizes[find(s)] >= 2))
    return out


def discoverers(board: Board, homes: Homes) -> list[int]:
    """1 per horizontal row (of the 20) holding at least one of your settlements."""
    return [len({h // SIZE for h in home}) for home in homes]


def knights(board: Board, homes: Homes) -> list[int]:
    """2 per settlement in the one row holding the most of your settlements (0 with none)."""
    out = []
    for home in homes:
        counts = [0] * SIZE
        for h in home:
            counts[h // SIZE] += 1
        out.append(2 * max(counts))
    return out


def hermits(board: Board, homes: Homes) -> list[int]:
    """1 per separate settlement area; a lone settlement is one area (KB §9.2, §10 #4)."""
    return [len(groups(board, home)) for home in homes]


def citizens(board: Board, homes: Homes) -> list[int]:
    """1 per 2 settlements in your largest area, rounded down."""
    return [max((len(g) for g in groups(board, home)), default=0) // 2 for home in homes]


def sector_counts(board: Board, homes: Homes) -> list[list[int]]:
    """``counts[seat][sector]``: settlements of each seat in each quadrant."""
    out = []
    sector = board.sector
    for home in homes:
        counts = [0, 0, 0, 0]
        for h in home:
            counts[sector[h]] += 1
        out.append(counts)
    return out


def lords(board: Board, homes: Homes) -> list[int]:
    """Per sector, 12 to every seat with the most settlements there and 6 to every seat with
    the next lower distinct count (KB §9.2 "Lords, in full").

    A tie for first does not cancel second place; a seat with 0 can take second place; a
    sector where the highest count is 0 scores for nobody (project decision, KB §9.2 step 5).
    """
    counts = sector_counts(board, homes)
    out = [0] * len(homes)
    for q in range(4):
        col = [c[q] for c in counts]
        first = max(col)
        if first == 0:
            continue
        lower = [c for c in col if c < first]
        second = max(lower) if lower else None
        for seat, c in enumerate(col):
            if c == first:
                out[seat] += 12
            elif c == second:
                out[seat] += 6
    return out


def farmers(board: Board, homes: Homes) -> list[int]:
    """3 per settlement in your weakest sector; a sector with none gives 0 (KB §9.2)."""
    return [3 * min(c) for c in sector_counts(board, homes)]


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


def score_table(
    board: Board, homes: Homes, cards: Sequence[str], gold: Sequence[int]
) -> list[dict[str, int]]:
    """Every seat's score by category: ``castles``, the three cards, ``gold`` when any seat
    has in-play gold (Nomads), and ``total`` (KB §9)."""
    columns = [("castles", castles(board, homes))]
    columns += [(card, SCORERS[card](board, homes)) for card in cards]
    if any(gold):
        columns.append(("gold", list(gold)))
    table = []
    for seat in range(len(homes)):
        row = {name: values[seat] for name, values in columns}
        row["total"] = sum(row.values())
        table.append(row)
    return table
