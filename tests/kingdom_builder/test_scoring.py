"""Castles and the 10 Kingdom Builder cards on hand-built positions, counted by hand (KB §9).

First-game map (Tavern TL, Paddock TR, Oasis BL, Farm BR), rows used::

     0 f d d m m d d c c c c c c d d w d d d d
     1  f f d d d m m c c c m m c d d w d d d d
     3  w w f K g g t t m m m c m m w m d f f f
     6 d f L c w t t L c g c L t t w f f f f f
     7  d d c w t t g g g g g g t w g K g f g t
     8 d d d w t t t g g g g g t t w g g g g t
     9  d d w w t t t g g g g g t t w g g g t t
    10 d d c w w t t g g g d d c w w t t t g g
    11  d c w f f t t t g g d K c w t t t L g g
    13  w w w f g t f f f f c c f f w d d c c f
    14 w w w w g g g g f f c g g w f f d d c c

Special hexes: castles (3,3) (7,15) (11,11) (17,1); Tavern (6,2) (6,7); Paddock (2,18)
(6,11); Oasis (12,7) (17,5); Farm (11,17) (15,12).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from game.kingdom_builder import scoring
from game.kingdom_builder.board import ALL_SECTIONS, DIRECTIONS, SIZE, _neighbour, board_for
from tests.kingdom_builder.helpers import position

#: Two settlement areas joined by the Paddock hex (6,11):
#: A = (7,7) (7,8) (7,9) (6,10) touches Tavern (6,7) and Paddock (6,11);
#: B = (7,11) (8,11) (9,11) (10,11) touches Paddock (6,11) and the castle (11,11);
#: plus (3,2), alone, next to the castle (3,3) and to water.
MERCHANT_CHAIN = [(7, 7), (7, 8), (7, 9), (6, 10), (7, 11), (8, 11), (9, 11), (10, 11), (3, 2)]


def _score(st, card):
    return scoring.SCORERS[card](st.board, st.homes)


def test_castles_count_once_each():
    """KB §9.1: (3,2) and (3,4) both touch the castle (3,3): 3 once.  Seat 1 touches the
    castles (7,15) from (7,14) and (11,11) from (11,10): 6."""
    st = position(settlements={0: [(3, 2), (3, 4), (8, 8)], 1: [(7, 14), (11, 10)]})
    assert scoring.castles(st.board, st.homes) == [3, 6]
    assert [s["castles"] for s in st.preview_scores()] == [3, 6]


def test_fishermen():
    """(3,2) touches water (3,1); (7,4) touches (7,3); (14,4) touches (14,3); (8,8) none."""
    st = position(settlements={0: [(3, 2), (7, 4), (8, 8), (14, 4)]})
    assert _score(st, "Fishermen") == [3, 0]


def test_fishermen_settlement_on_water_scores_nothing():
    """KB §9.4: 4 settlements touch water and 1 of them stands on water (3,1): 3."""
    st = position(settlements={0: [(3, 2), (7, 4), (14, 4), (3, 1)]})
    assert _score(st, "Fishermen") == [3, 0]


def test_miners():
    """(1,4) touches the mountain (1,5); (0,2) touches (0,3); (8,8) none."""
    st = position(settlements={0: [(1, 4), (0, 2), (8, 8)]}, cards=("Miners", "Lords", "Hermits"))
    assert _score(st, "Miners") == [2, 0]


def test_miners_settlement_on_a_mountain_scores_nothing():
    """Nomads map (Quarry TL): (9,6) is a mountain (reached by Donation–Mountain, full Nomads)
    touching the mountain (8,7); (9,5) touches the mountain (9,6).  Only (9,5) scores."""
    st = position(
        sections=("Quarry", "Caravan", "Village", "Garden"),
        settlements={0: [(9, 6), (9, 5)]},
        nomads="full",
    )
    assert _score(st, "Miners") == [1, 0]


def test_workers():
    """(3,2), (3,4) touch the castle (3,3); (7,7) the Tavern (6,7); (8,8) nothing."""
    st = position(settlements={0: [(3, 2), (3, 4), (7, 7), (8, 8)]})
    assert _score(st, "Workers") == [3, 0]


def test_workers_count_nomad_hexes_with_nomads():
    """Nomads map: (5,3) touches the nomad hex (5,2) (replacement Workers card, KB §9.3)."""
    st = position(sections=("Quarry", "Caravan", "Village", "Garden"), settlements={0: [(5, 3)]})
    assert _score(st, "Workers") == [1, 0]


def test_merchants_chain_passes_through_a_special_hex():
    """A joins Tavern-Paddock, B joins Paddock-castle (11,11): 3 specials x 4 = 12; the lone
    (3,2) touches only the castle (3,3): 0."""
    st = position(settlements={0: MERCHANT_CHAIN})
    assert _score(st, "Merchants") == [12, 0]


def test_merchants_single_special_scores_nothing():
    st = position(settlements={0: [(7, 7), (7, 8), (3, 2)]})
    assert _score(st, "Merchants") == [0, 0]


def test_merchants_two_specials_one_group():
    """(7,7) (7,8) (7,9) (6,10): Tavern (6,7) and Paddock (6,11): 8."""
    st = position(settlements={0: MERCHANT_CHAIN[:4]})
    assert _score(st, "Merchants") == [8, 0]


def test_merchants_nomad_hexes_count_with_nomads():
    """Nomads map: (5,3) (5,4) (5,5) (5,6): (5,3) touches the nomad hex (5,2), (5,6) touches
    the nomad hex (5,7): 8."""
    st = position(
        sections=("Quarry", "Caravan", "Village", "Garden"),
        settlements={0: [(5, 3), (5, 4), (5, 5), (5, 6)]},
    )
    assert _score(st, "Merchants") == [8, 0]


def test_discoverers_knights_hermits_citizens_on_the_chain():
    """Rows 3, 6, 7, 8, 9, 10: Discoverers 6.  Row 7 holds (7,7) (7,8) (7,9) (7,11): Knights 8.
    Areas A (4), B (4), (3,2) (1): Hermits 3, Citizens 4 // 2 = 2."""
    st = position(settlements={0: MERCHANT_CHAIN})
    assert _score(st, "Discoverers") == [6, 0]
    assert _score(st, "Knights") == [8, 0]
    assert _score(st, "Hermits") == [3, 0]
    assert _score(st, "Citizens") == [2, 0]


def test_hermits_groups_of_5_1_1():
    """KB §9.4: areas of sizes 5, 1 and 1: 3."""
    st = position(settlements={0: [(8, 7), (8, 8), (8, 9), (8, 10), (8, 11), (3, 2), (0, 1)]})
    assert _score(st, "Hermits") == [3, 0]


def test_citizens_largest_group_of_7():
    """KB §9.4: the largest area has 7: 3 (and a separate area of 2 does not matter)."""
    row8 = [(8, c) for c in range(7, 14)]
    st = position(settlements={0: [*row8, (3, 2), (3, 1)]})
    assert _score(st, "Citizens") == [3, 0]


def test_no_settlements_score_zero_everywhere_but_lords():
    """With no settlement on the map every card gives 0, except Lords: in each of the 4
    sectors both seats are tied for the most (0), so each gets 4 x 12 (KB §9.2, decision 2)."""
    st = position()
    for card in scoring.CARDS:
        assert _score(st, card) == ([48, 48] if card == "Lords" else [0, 0]), card


def _in_sector(st, q, count, skip=0):
    """``count`` buildable hexes of quadrant q, not next to each other (scan order)."""
    out = []
    r0, c0 = (q // 2) * 10, (q % 2) * 10
    cells = [(r, c) for r in range(r0, r0 + 10, 2) for c in range(c0, c0 + 10, 2)]
    cells += [(r, c) for r in range(r0 + 1, r0 + 10, 2) for c in range(c0, c0 + 10)]
    for r, c in cells:
        if st.board.buildable[r * 20 + c]:
            out.append((r, c))
    return out[skip : skip + count]


def _sector_position(players, counts):
    """``counts[seat][q]`` settlements of each seat in each quadrant."""
    probe = position(players=players)
    homes = {}
    used = [0, 0, 0, 0]
    for seat, per_q in enumerate(counts):
        homes[seat] = []
        for q, n in enumerate(per_q):
            homes[seat] += _in_sector(probe, q, n, used[q])
            used[q] += n
    st = position(players=players, settlements=homes, cards=("Lords", "Farmers", "Hermits"))
    assert scoring.sector_counts(st.board, st.homes) == counts
    return st


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        # EMPTY: 12 for each sector nobody built in (every seat is tied for the most there)
        ([[4, 0, 0, 0], [4, 0, 0, 0], [1, 0, 0, 0]], [12, 12, 6]),  # KB §9.4: A 4, B 4, C 1
        ([[3, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], [12, 6, 6]),  # KB §9.4: zero takes second
        ([[8, 0, 0, 0], [8, 0, 0, 0], [6, 0, 0, 0], [2, 0, 0, 0]], [12, 12, 6, 0]),  # card
        ([[5, 0, 0, 0], [0, 0, 0, 0]], [12, 6]),
        ([[5, 0, 0, 0], [5, 0, 0, 0]], [12, 12]),  # a tie for first, nobody second
        ([[0, 0, 0, 0], [0, 0, 0, 0]], [0, 0]),  # nobody anywhere: all tied in every sector
        ([[2, 1, 0, 3], [1, 1, 0, 0], [0, 2, 0, 0]], [12 + 6 + 12, 6 + 6 + 6, 12 + 6]),
    ],
)
def test_lords(counts, expected):
    """KB §9.2 Lords in full: ties share, zero can be second, and a sector nobody built in
    gives every seat 12 — all are tied for the most there with 0, and tied seats each get the
    points (docs decision 2).  Each ``expected`` is the points of the occupied sectors; every
    sector nobody built in (the bottom-left one always) adds 12 to every seat."""
    empty = sum(1 for q in range(4) if all(c[q] == 0 for c in counts))
    expected = [e + 12 * empty for e in expected]
    st = _sector_position(len(counts), counts)
    assert _score(st, "Lords") == expected


@pytest.mark.parametrize(
    ("per_q", "expected"),
    [([5, 0, 7, 9], 0), ([2, 3, 4, 5], 6), ([3, 3, 3, 3], 9), ([0, 0, 0, 0], 0)],
)
def test_farmers(per_q, expected):
    """KB §9.4: counts 5/0/7/9: the weakest sector has 0: 0.  2/3/4/5: 3 x 2 = 6."""
    st = _sector_position(2, [per_q, [0, 0, 0, 0]])
    assert _score(st, "Farmers") == [expected, 0]


def test_score_table_has_castles_the_three_cards_and_total():
    st = position(settlements={0: MERCHANT_CHAIN}, cards=("Merchants", "Knights", "Hermits"))
    assert st.preview_scores()[0] == {
        "castles": 6,  # (3,3) from (3,2), (11,11) from (10,11)
        "Merchants": 12,
        "Knights": 8,
        "Hermits": 3,
        "total": 29,
    }
    assert st.preview_scores()[1] == {
        "castles": 0,
        "Merchants": 0,
        "Knights": 0,
        "Hermits": 0,
        "total": 0,
    }
    # Before the end nothing is banked yet (the contract's scores(): same categories, all 0).
    assert st.scores()[0] == dict.fromkeys(st.preview_scores()[0], 0)


def test_a_settlement_on_water_counts_for_every_card_but_fishermen():
    """KB §9 "your settlement includes those on water", §7 Harbor.  (4,3) is water next to
    the castle (3,3); (5,2) canyon touches (4,3) and the Tavern hex (6,2).  One area of 2
    joining the castle and the Tavern hex: castles 3, Merchants 8, Workers 2, Hermits 1,
    Citizens 1, Discoverers 2 (rows 4, 5), Knights 2, Lords 12 (top-left) + 3 x 12 (the three
    sectors nobody built in, decision 2), Farmers 0.
    Fishermen: (5,2) touches water, (4,3) stands on it: 1."""
    st = position(settlements={0: [(4, 3), (5, 2)]})
    expected = {
        "Merchants": 8,
        "Workers": 2,
        "Hermits": 1,
        "Citizens": 1,
        "Discoverers": 2,
        "Knights": 2,
        "Lords": 12 + 36,
        "Farmers": 0,
        "Fishermen": 1,
        "Miners": 0,
    }
    assert {card: _score(st, card)[0] for card in scoring.CARDS} == expected
    assert scoring.castles(st.board, st.homes) == [3, 0]


def test_merchants_one_special_touched_by_two_separate_areas_scores_nothing():
    """KB §9.2 Merchants: (3,2) and (3,4) both touch the castle (3,3) but are separate areas
    touching nothing else special: the castle is joined to no other special hex: 0."""
    st = position(settlements={0: [(3, 2), (3, 4)]})
    assert _score(st, "Merchants") == [0, 0]


def test_knights_tied_rows():
    """KB §9.2 Knights: rows 7 and 9 hold 2 settlements each, row 8 holds 1: 2 x 2 = 4."""
    st = position(settlements={0: [(7, 7), (7, 9), (8, 8), (9, 7), (9, 9)]})
    assert _score(st, "Knights") == [4, 0]


def test_discoverers_at_most_20():
    """KB §9.2 Discoverers: one settlement in each of the 20 rows: 20."""
    st = position()
    col = [next(c for c in range(20) if st.board.buildable[r * 20 + c]) for r in range(20)]
    st = position(settlements={0: [(r, col[r]) for r in range(20)]})
    assert _score(st, "Discoverers") == [20, 0]


def test_tied_totals_share_the_win():
    """KB §8: no tie-breaker.  Both seats touch the castle (3,3) (3 each) from (3,2) and
    (3,4): Knights 2, Discoverers 1, Hermits 1 each: 7 and 7, both win."""
    st = position(
        settlements={0: [(3, 2)], 1: [(3, 4)]}, cards=("Knights", "Discoverers", "Hermits")
    )
    assert [s["total"] for s in st.preview_scores()] == [7, 7]
    st.over = True  # the same position as a finished game: the final scores tie
    assert [s["total"] for s in st.scores()] == [7, 7]
    assert st.winners() == [0, 1]


@settings(max_examples=200, deadline=None)
@given(
    hs.permutations(ALL_SECTIONS),
    hs.lists(hs.booleans(), min_size=4, max_size=4),
    hs.lists(hs.integers(0, 10_000), min_size=0, max_size=6),
    hs.lists(hs.sampled_from(DIRECTIONS), min_size=0, max_size=120),
)
def test_own_points_equal_the_rules(sections, rotations, starts, steps):
    """``own_points`` (the evaluation's fast path) gives castles plus every card but Lords
    exactly as the ``*_scored`` rules do (KB §9.1, §9.2), for settlements grown as random walks
    from hexes beside special hexes (so they form areas, chains joining specials and lone
    settlements) on any layout, base or Nomads."""
    board = board_for(tuple(sections[:4]), tuple(rotations))
    beside = sorted({n for k in board.specials for n in board.nbrs[k]})
    home: set[int] = set()
    for i, start in enumerate(starts):
        h = beside[start % len(beside)]
        home.add(h)
        for d in steps[i :: len(starts)]:
            r, c = _neighbour(h // SIZE, h % SIZE, d)
            if 0 <= r < SIZE and 0 <= c < SIZE:
                h = r * SIZE + c
                home.add(h)
    one = [home]
    want = scoring.castles(board, one)[0] + sum(
        scoring.SCORERS[card](board, one)[0] for card in scoring.CARDS if card != "Lords"
    )
    assert scoring.own_points(board, scoring.ALL_CARDS, frozenset(home)) == want
    for card in scoring.CARDS:
        if card != "Lords":
            alone = scoring.castles(board, one)[0] + scoring.SCORERS[card](board, one)[0]
            assert scoring.own_points(board, (card,), home) == alone
