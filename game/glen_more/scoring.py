"""Scoring rounds, the final scoring, banked and previewed scores (GM §7).

**A scoring round** (after the refill that empties stack 1, stack 2, and stack 3 at the end)
compares three counts separately: whisky barrels; chieftains plus bonnets (Castle of Mey doubles
the chieftains, not the bonnets: D19); special-location cards.  In each, a player scores by how
far their count is above the lowest count of the table (the die figure is no player, D6):
difference 0/1/2/3/4/5+ gives 0/1/2/3/5/8 VP (``tiles.DIFFERENCE_VP``, D20).

**The final scoring** (GM §7.2) adds 1 VP per coin, −3 VP per tile more than the player with the
fewest tiles, and the end effects of the special tiles (``vp_per_tile``: Iona Abbey, Loch Morar,
Duart Castle — their filters and points are in the data file).

**Score categories** (the same before and after the end): ``tile_points`` (brown tiles, banked
when scored), ``scoring_1`` .. ``scoring_3``, ``coins``, ``tile_penalty`` (zero or negative),
one per end-game special tile (``tiles.END_CATEGORIES``), ``total``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.core.types import Score
from game.glen_more.tiles import (
    COIN_VP,
    DIFFERENCE_VP,
    END_CATEGORIES,
    KINDS,
    ROUNDS,
    TILE_PENALTY,
    matches,
)

if TYPE_CHECKING:
    from game.glen_more.position import Position

#: The three compared counts of a scoring round, in order.
ROUND_CATEGORIES = ("whisky", "chieftains", "specials")
ROUND_KEYS: tuple[str, ...] = tuple(f"scoring_{r}" for r in range(1, ROUNDS + 1))
CATEGORIES: tuple[str, ...] = (
    "tile_points",
    *ROUND_KEYS,
    "coins",
    "tile_penalty",
    *END_CATEGORIES,
)


def difference_points(counts: list[int]) -> list[int]:
    """GM §7.1: VP per seat by the difference of its count to the lowest count (D20)."""
    low = min(counts)
    top = len(DIFFERENCE_VP) - 1
    return [DIFFERENCE_VP[min(c - low, top)] for c in counts]


def chieftain_count(st: Position, seat: int) -> int:
    """GM §7.1: chieftains (doubled with Castle of Mey, D19) plus the bonnets on the cards."""
    return st.chieftains[seat] * st.chieftain_multiplier(seat) + st.bonnets(seat)


def round_counts(st: Position) -> dict[str, list[int]]:
    """The three counts of a scoring round for every seat."""
    seats = range(st.n)
    return {
        "whisky": [st.whisky[s] for s in seats],
        "chieftains": [chieftain_count(st, s) for s in seats],
        "specials": [len(st.cards[s]) for s in seats],
    }


def scoring_round(st: Position, number: int, stack: int) -> dict[str, Any]:
    """The record of scoring round ``number`` (triggered by emptying ``stack``): the counts,
    what they are made of, and the points of each category and in all, per seat."""
    counts = round_counts(st)
    points = {cat: difference_points(counts[cat]) for cat in ROUND_CATEGORIES}
    seats = range(st.n)
    return {
        "round": number,
        "stack": stack,
        "counts": counts,
        "detail": {
            "chieftains": [st.chieftains[s] for s in seats],
            "multiplier": [st.chieftain_multiplier(s) for s in seats],
            "bonnets": [st.bonnets(s) for s in seats],
        },
        "points": points,
        "total": [sum(points[cat][s] for cat in ROUND_CATEGORIES) for s in seats],
    }


def end_effect_cells(st: Position, seat: int) -> dict[str, list[int]]:
    """GM §7.2: for each end-game special tile the seat owns, the cells of its territory whose
    tiles that special counts (Iona Abbey, Loch Morar, Duart Castle: ``docs/glen-more.md``)."""
    out: dict[str, list[int]] = {}
    grid = st.grid[seat]
    for k in st.cards[seat]:
        for op in KINDS[k].end_game:
            if op["op"] == "vp_per_tile":
                out[op["category"]] = sorted(
                    c for c, kind in grid.items() if matches(KINDS[kind], op["filter"])
                )
    return out


def end_effects(st: Position, seat: int) -> dict[str, dict[str, int]]:
    """GM §7.2: each end-game special tile the seat owns: matching tiles and points."""
    out: dict[str, dict[str, int]] = {}
    cells = end_effect_cells(st, seat)
    for k in st.cards[seat]:
        for op in KINDS[k].end_game:
            if op["op"] == "vp_per_tile":
                n = len(cells[op["category"]])
                out[op["category"]] = {"tiles": n, "points": n * int(op["vp"])}
    return out


def final_scoring(st: Position) -> dict[str, Any]:
    """GM §7.2: coins, the tile penalty and the end effects, per seat, with the counts."""
    seats = range(st.n)
    tiles = [len(st.grid[s]) for s in seats]
    fewest = min(tiles)
    effects = [end_effects(st, s) for s in seats]
    return {
        "coins": [st.coins[s] for s in seats],
        "coin_points": [st.coins[s] * COIN_VP for s in seats],
        "tiles": tiles,
        "fewest_tiles": fewest,
        "tile_penalty": [-(tiles[s] - fewest) * TILE_PENALTY for s in seats],
        "end_effects": {
            cat: {
                "tiles": [effects[s].get(cat, {}).get("tiles", 0) for s in seats],
                "points": [effects[s].get(cat, {}).get("points", 0) for s in seats],
                "owner": [s for s in seats if cat in effects[s]],
            }
            for cat in END_CATEGORIES
        },
    }


def _table(st: Position, rounds: list[dict[str, Any]], final: dict[str, Any] | None) -> list[Score]:
    rows = []
    for s in range(st.n):
        row = dict.fromkeys(CATEGORIES, 0)
        row["tile_points"] = st.tile_vp[s]
        for record in rounds:
            row[f"scoring_{record['round']}"] += record["total"][s]
        if final is not None:
            row["coins"] = final["coin_points"][s]
            row["tile_penalty"] = final["tile_penalty"][s]
            for cat in END_CATEGORIES:
                row[cat] = final["end_effects"][cat]["points"][s]
        row["total"] = sum(row[c] for c in CATEGORIES)
        rows.append(row)
    return rows


def banked(st: Position) -> list[Score]:
    """The points earned for good: brown tiles, rounds held, and the final scoring."""
    return _table(st, st.rounds, st.final)


def preview(st: Position) -> list[Score]:
    """The live preview: the banked points, plus — while the game runs — the next scoring
    round as if it were held now (in its ``scoring_k`` column) and the final scoring as if the
    game ended now."""
    if st.over:
        return banked(st)
    rounds = list(st.rounds)
    if len(rounds) < ROUNDS:
        rounds.append(scoring_round(st, len(rounds) + 1, -1))
    return _table(st, rounds, final_scoring(st))
