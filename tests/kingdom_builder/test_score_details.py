"""What each scoring category scored, for drawing the end of the game on the map (KB §9).

``scoring.score_details`` and ``view()["scoring"]`` must give exactly the points of
``state.scores()``, category by category, on every end position; the hand-built positions of
``test_scoring.py`` check what is shown (settlements, rows, sectors, special hexes).
"""

from __future__ import annotations

import pytest

from game.core.rng import Rng
from game.core.wire import is_plain
from game.kingdom_builder import GAME
from game.kingdom_builder.scoring import CARDS, score_details
from game.kingdom_builder.state import KingdomBuilderState
from net.protocol import encode
from tests.kingdom_builder.helpers import position
from tests.kingdom_builder.test_scoring import MERCHANT_CHAIN, _sector_position


def _random_end(seed: int) -> KingdomBuilderState:
    """A random game played to its end; every card appears in some game of seeds 0..9."""
    cards = [CARDS[seed % 10], CARDS[(seed + 3) % 10], CARDS[(seed + 7) % 10]]
    st = GAME.new(2 + seed % 3, {"cards": cards, "nomads": seed % 4 == 1}, seed)
    rng = Rng(seed + 77)
    while not st.is_over():
        acts = st.legal_actions(st.cur)
        st.apply(st.cur, acts[rng.randbelow(len(acts))])
    return st


def _details(st: KingdomBuilderState) -> list[dict]:
    return score_details(st.board, st.homes, st.cards, st.gold)


def _entry(details: list[dict], category: str, seat: int) -> dict:
    (entry,) = [d for d in details if d["category"] == category and d["seat"] == seat]
    return entry


def _hexes(values) -> set[tuple[int, int]]:
    return {(r, c) for r, c in values}


@pytest.mark.parametrize("seed", range(30))
def test_detail_points_are_the_scores_of_every_category(seed):
    """KB §9: the points drawn on the map are the points counted, for castles and each card,
    for every seat, over random end positions (2-4 players, base and Nomads maps)."""
    st = _random_end(seed)
    scores = st.scores()
    details = _details(st)
    categories = [k for k in scores[0] if k != "total"]
    assert [d["category"] for d in details] == [c for c in categories for _ in range(st.n)]
    assert [d["seat"] for d in details] == list(range(st.n)) * len(categories)
    for d in details:
        assert d["points"] == scores[d["seat"]][d["category"]], d["category"]
        own = {(h // 20, h % 20) for h in st.homes[d["seat"]]}
        assert _hexes(d["hexes"]) <= own
        for group in d["groups"]:
            assert _hexes(group) <= own
        specials = {(h // 20, h % 20) for h in st.board.specials}
        assert _hexes(d["specials"]) <= specials
        assert all(0 <= r < 20 for r in d["rows"])
        assert all(0 <= q < 4 for q in d["sectors"])
        assert len(d["sector_points"]) == len(d["sectors"])
    view = st.view(0)
    assert view["scoring"] == details
    assert is_plain(view)


def test_view_has_scoring_only_at_the_end_and_stays_small():
    """The view carries ``scoring`` once the game is over; a whole final state frame of a
    4-player game stays far below the 16 KB view budget."""
    st = GAME.new(4, {"cards": ["Hermits", "Citizens", "Lords"]}, 5)
    rng = Rng(5)
    while not st.is_over():
        assert "scoring" not in st.view(st.cur)
        acts = st.legal_actions(st.cur)
        st.apply(st.cur, acts[rng.randbelow(len(acts))])
    for seat in (None, 0, 1, 2, 3):
        view = st.view(seat)
        assert len(view["scoring"]) == 4 * 4
        assert len(encode({"t": "state", "view": view})) < 8 * 1024


def test_castles_show_the_touched_castles_and_the_settlements_touching_them():
    """KB §9.1: (3,2) touches the castle (3,3); (10,11) touches (11,11)."""
    st = position(settlements={0: MERCHANT_CHAIN})
    entry = _entry(_details(st), "castles", 0)
    assert entry["points"] == 6
    assert _hexes(entry["specials"]) == {(3, 3), (11, 11)}
    assert _hexes(entry["hexes"]) == {(3, 2), (10, 11)}


def test_merchants_show_the_joined_specials_and_the_areas_that_join_them():
    """KB §9.2 Merchants: areas A and B join Tavern (6,7), Paddock (6,11) and the castle
    (11,11); the lone (3,2) touches only the castle (3,3), which is not joined."""
    st = position(settlements={0: MERCHANT_CHAIN})
    entry = _entry(_details(st), "Merchants", 0)
    assert entry["points"] == 12
    assert _hexes(entry["specials"]) == {(6, 7), (6, 11), (11, 11)}
    assert _hexes(entry["hexes"]) == set(MERCHANT_CHAIN) - {(3, 2)}
    assert [_hexes(g) for g in entry["groups"]] == [
        set(MERCHANT_CHAIN[:4]),
        set(MERCHANT_CHAIN[4:8]),
    ]


def test_rows_of_knights_and_discoverers():
    """Knights: row 7 holds (7,7) (7,8) (7,9) (7,11).  Discoverers: rows 3, 6-10, with the
    leftmost settlement of each row marked."""
    st = position(settlements={0: MERCHANT_CHAIN}, cards=("Knights", "Discoverers", "Hermits"))
    details = _details(st)
    knights = _entry(details, "Knights", 0)
    assert knights["rows"] == [7]
    assert _hexes(knights["hexes"]) == {(7, 7), (7, 8), (7, 9), (7, 11)}
    disc = _entry(details, "Discoverers", 0)
    assert disc["rows"] == [3, 6, 7, 8, 9, 10]
    assert _hexes(disc["hexes"]) == {(3, 2), (6, 10), (7, 7), (8, 11), (9, 11), (10, 11)}
    assert _entry(details, "Knights", 1) == {
        "category": "Knights",
        "seat": 1,
        "points": 0,
        "hexes": [],
        "rows": [],
        "sectors": [],
        "sector_points": [],
        "specials": [],
        "groups": [],
    }


def test_areas_of_hermits_and_citizens():
    """Hermits: areas A (4), B (4) and (3,2), one marked settlement each; Citizens: the first
    largest area, A."""
    st = position(settlements={0: MERCHANT_CHAIN}, cards=("Hermits", "Citizens", "Knights"))
    details = _details(st)
    hermits = _entry(details, "Hermits", 0)
    assert [_hexes(g) for g in hermits["groups"]] == [
        {(3, 2)},
        {(6, 10), (7, 7), (7, 8), (7, 9)},
        {(7, 11), (8, 11), (9, 11), (10, 11)},
    ]
    assert len(hermits["hexes"]) == hermits["points"] == 3
    citizens = _entry(details, "Citizens", 0)
    assert _hexes(citizens["hexes"]) == {(6, 10), (7, 7), (7, 8), (7, 9)}
    assert [_hexes(g) for g in citizens["groups"]] == [_hexes(citizens["hexes"])]


def test_sectors_of_lords_and_farmers():
    """KB §9.2 Lords: seat 0 is first in top-left and bottom-right, second in top-right; seat 2
    first in top-right and, with 0, second in bottom-right; nobody built in bottom-left, so
    every seat is tied first there (decision 2).  Farmers: seat 0's weakest sector is
    bottom-left (0)."""
    st = _sector_position(3, [[2, 1, 0, 3], [1, 1, 0, 0], [0, 2, 0, 0]])
    details = _details(st)
    lords = _entry(details, "Lords", 0)
    assert list(zip(lords["sectors"], lords["sector_points"], strict=True)) == [
        (0, 12),
        (1, 6),
        (2, 12),
        (3, 12),
    ]
    assert len(lords["hexes"]) == 6
    seat2 = _entry(details, "Lords", 2)
    assert (seat2["sectors"], seat2["sector_points"]) == ([1, 2, 3], [12, 12, 6])  # 0 is second
    farmers = _entry(details, "Farmers", 0)
    assert (farmers["sectors"], farmers["sector_points"], farmers["points"]) == ([2], [0], 0)
    assert farmers["hexes"] == []
