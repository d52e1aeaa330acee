"""Scoring rounds, the final scoring and the score table, counted by hand (GM §7)."""

from __future__ import annotations

from game.glen_more.scoring import (
    CATEGORIES,
    banked,
    difference_points,
    final_scoring,
    preview,
    scoring_round,
)
from game.glen_more.tiles import END_CATEGORIES
from tests.glen_more.helpers import check_invariants, new, put, set_coins, set_whisky


def test_difference_table() -> None:
    """GM §7.1 (D20): difference to the fewest 0/1/2/3/4/5+ gives 0/1/2/3/5/8 VP."""
    assert difference_points([0, 1, 2, 3, 4, 5, 9]) == [0, 1, 2, 3, 5, 8, 8]
    assert difference_points([4, 4, 4]) == [0, 0, 0]
    assert difference_points([2, 7]) == [0, 8]


def three_territories():
    """Three seats with hand-checked territories (valid placements):

    * seat 0: road row — Iona Abbey, a distillery, a forest, a quarry (east), a grain field and
      a village (west): 7 tiles, 4 yellow (Iona Abbey, distillery, forest, quarry);
    * seat 1: Loch Morar, a sheep pasture (river, south) and a cattle pasture (river, north), a
      grain field and a forest (road, east): 6 tiles, 3 green;
    * seat 2: a village north (river), Duart Castle and Castle Moil beside it (plain), a road
      village east: 5 tiles, 3 villages with the start village (castles do not count).
    """
    st = new(3, seed=21)
    for col, tile in ((1, "S2-15"), (2, "S1-07"), (3, "S0-08"), (4, "S0-01")):
        put(st, 0, 0, col, tile)
    put(st, 0, 0, -1, "S0-05")
    put(st, 0, 0, -2, "S0-04")
    put(st, 1, 1, 0, "S2-04")
    put(st, 1, 2, 0, "S0-03")
    put(st, 1, -1, 0, "S0-06")
    put(st, 1, 0, 1, "S1-10")
    put(st, 1, 0, 2, "S2-09")
    put(st, 2, -1, 0, "S1-06")
    put(st, 2, 0, 1, "S2-10")
    put(st, 2, -1, 1, "S2-11")
    put(st, 2, -1, -1, "S1-17")
    check_invariants(st)
    return st


def test_scoring_round_counted_by_hand() -> None:
    """GM §7.1: whisky 0/2/7 → differences 0/2/7 → 0/2/8 VP; chieftains + bonnets 1/0/3
    (seat 0: 1 chieftain; seat 2: 2 chieftains + Castle Moil's bonnet) → 1/0/3 VP; special
    cards 1/1/2 → 0/0/1 VP; totals 1/2/12."""
    st = three_territories()
    set_whisky(st, 1, 2)
    set_whisky(st, 2, 7)
    st.chieftains[0] = 1
    st.chieftains[2] = 2
    st.clan_stock -= 3
    record = scoring_round(st, 1, 1)
    assert record["counts"] == {"whisky": [0, 2, 7], "chieftains": [1, 0, 3], "specials": [1, 1, 2]}
    assert record["points"] == {"whisky": [0, 2, 8], "chieftains": [1, 0, 3], "specials": [0, 0, 1]}
    assert record["total"] == [1, 2, 12]
    assert record["detail"] == {
        "chieftains": [1, 0, 2],
        "multiplier": [1, 1, 1],
        "bonnets": [0, 0, 1],
    }


def test_castle_of_mey_doubles_chieftains_not_bonnets() -> None:
    """GM §7.1 (D19): with Castle of Mey the category is 2 × chieftains + bonnets; bonnets on
    every own card count (Castle of Mey's own bonnet and Cawdor Castle's three)."""
    st = new(2, seed=4)
    put(st, 0, -1, 0, "S0-02")
    put(st, 0, -1, 1, "S2-07")  # Castle of Mey: 1 bonnet
    put(st, 0, -1, -1, "S3-01")  # Cawdor Castle: 3 bonnets
    st.chieftains[0] = 2
    st.clan_stock -= 2
    record = scoring_round(st, 1, 1)
    assert record["counts"]["chieftains"] == [2 * 2 + 1 + 3, 0]
    assert record["points"]["chieftains"] == [8, 0]


def test_final_scoring_counted_by_hand() -> None:
    """GM §7.2: +1 VP per coin; −3 VP per tile more than the fewest (5): seat 0 has 7 (−6),
    seat 1 has 6 (−3), seat 2 has 5 (0); Iona Abbey 2 × 4 yellow tiles = 8 (distillery and
    the abbey itself included, D18); Loch Morar 2 × 3 green = 6; Duart Castle 3 × 3 villages
    = 9 (start village included, castles not, D18)."""
    st = three_territories()
    set_coins(st, 0, 4)
    set_coins(st, 1, 0)
    set_coins(st, 2, 7)
    final = final_scoring(st)
    assert final["coins"] == [4, 0, 7] and final["coin_points"] == [4, 0, 7]
    assert final["tiles"] == [7, 6, 5] and final["fewest_tiles"] == 5
    assert final["tile_penalty"] == [-6, -3, 0]
    effects = final["end_effects"]
    assert effects["iona_abbey"] == {"tiles": [4, 0, 0], "points": [8, 0, 0], "owner": [0]}
    assert effects["loch_morar"] == {"tiles": [0, 3, 0], "points": [0, 6, 0], "owner": [1]}
    assert effects["duart_castle"] == {"tiles": [0, 0, 3], "points": [0, 0, 9], "owner": [2]}


def test_banked_scores_and_categories() -> None:
    """GM §7: banked points are the brown-tile VP, the rounds held and, at the end, the final
    scoring; the categories never change (contract rule 6)."""
    st = three_territories()
    set_whisky(st, 2, 3)
    st.tile_vp[1] = 5
    rows = banked(st)
    assert [list(r) for r in rows] == [[*CATEGORIES, "total"]] * 3
    assert [r["total"] for r in rows] == [0, 5, 0]
    st.rounds.append(scoring_round(st, 1, 1))
    st.stacks[1] = []
    st._scores = None
    rows = st.scores()
    # whisky 0/0/3 → 0/0/3; chieftains 0/0/1 → 0/0/1; specials 1/1/2 → 0/0/1
    assert [r["scoring_1"] for r in rows] == [0, 0, 5]
    assert [r["total"] for r in rows] == [0, 5, 5]
    assert all(r["coins"] == 0 and r["tile_penalty"] == 0 for r in rows)
    assert set(END_CATEGORIES) <= set(rows[0])


def test_preview_adds_the_next_round_and_the_final_extras() -> None:
    """The live preview: banked + the next round as if held now + coins, penalty and end
    effects as if the game ended now."""
    st = three_territories()
    rows = preview(st)
    # round 1 now: specials 1/1/2 → 0/0/1, chieftains (bonnets) 0/0/1 → 0/0/1
    assert [r["scoring_1"] for r in rows] == [0, 0, 2]
    assert [r["coins"] for r in rows] == [6, 6, 6]
    assert [r["tile_penalty"] for r in rows] == [-6, -3, 0]
    assert [r["iona_abbey"] for r in rows] == [8, 0, 0]
    assert [r["total"] for r in rows] == [8, 9, 17]
    assert st.preview_scores() == rows
    assert [r["total"] for r in st.scores()] == [0, 0, 0]


def test_ties_share_the_win() -> None:
    """GM §7.3 (D21): tied players share the victory."""
    st = new(3, seed=2)
    assert st.winners() == [0, 1, 2]
    st.tile_vp[1] = 2
    st._scores = None
    assert st.winners() == [1]


def test_game_over_scores_hold_every_category() -> None:
    from tests.glen_more.test_properties import playout

    st = playout(5, 4, deep=False)
    rows = st.scores()
    for s, row in enumerate(rows):
        assert row["tile_points"] == st.tile_vp[s]
        assert sum(row[f"scoring_{k}"] for k in (1, 2, 3)) == sum(r["total"][s] for r in st.rounds)
        assert row["coins"] == st.coins[s]
        assert row["tile_penalty"] == -3 * (len(st.grid[s]) - min(len(g) for g in st.grid))
    assert st.preview_scores() == rows
