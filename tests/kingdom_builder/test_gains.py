"""The hover gains of the seat to move's placements and the placements left this turn
(issue 8: the view carries what the UI needs, so the UI never re-derives a rule).

The gains are computed incrementally (``game/kingdom_builder/gains.py``); here every listed gain
is compared with the truth — the previewed score after really applying the placement, and the
tiles its events take and lose — in random games with every card, base and Nomads.
"""

from __future__ import annotations

import pytest

from game.core.rng import Rng
from game.kingdom_builder import GAME, scoring
from game.kingdom_builder.views import mandatory_left
from tests.kingdom_builder.helpers import filler, legal, play, position

#: Card sets covering all 13 cards (each set is one game's three cards).
CARD_SETS = [
    ["Merchants", "Hermits", "Citizens"],
    ["Lords", "Farmers", "Knights"],
    ["Fishermen", "Miners", "Workers"],
    ["Discoverers", "Merchants", "Lords"],
    ["Ambassadors", "Families", "Shepherds"],
    ["Citizens", "Shepherds", "Workers"],
]


def _truth(st, seat, action):
    """The change of ``seat``'s previewed score by category and the tiles taken and lost when
    ``action`` is really applied."""
    before = st.preview_scores()[seat]
    after_state = st.clone()
    events = after_state.apply(seat, action)
    after = after_state.preview_scores()[seat]
    points = {k: after[k] - before[k] for k in before if k != "total" and after[k] != before[k]}
    take = [e["hex"] for e in events if e["type"] in ("gain_tile", "gain_nomad")]
    lose = [e["hex"] for e in events if e["type"] == "lose_tile" and e["seat"] == seat]
    return points, sorted(take), sorted(lose)


def _check(st) -> int:
    seat = st.cur
    places = [a for a in st.legal_actions(seat) if a[0] == "place"]
    gains = st.view(seat)["gains"]
    assert [g["hex"] for g in gains] == [[a[1], a[2]] for a in places]
    for action, gain in zip(places, gains, strict=True):
        points, take, lose = _truth(st, seat, action)
        assert gain["points"] == points, (action, gain, points)
        assert gain["total"] == sum(points.values())
        assert sorted(gain.get("take", [])) == take, action
        assert sorted(gain.get("lose", [])) == lose, action
    return len(places)


@pytest.mark.parametrize("index", range(len(CARD_SETS)))
def test_every_listed_gain_is_what_the_placement_really_changes(index):
    """For every legal placement along random games (builds and every kind of move): the
    listed change of each category equals the preview after applying it, and the tiles listed
    are those taken and lost (KB §6, §7, §9)."""
    cards = CARD_SETS[index]
    nomads = "full" if index >= 3 else ("boards" if index % 2 else "off")
    checked = 0
    for seed in range(3):
        players = 2 + (seed + index) % (3 if nomads == "off" else 4)
        options = {"cards": cards, "nomads": nomads}
        if index >= 4:  # the 4 Nomads sections: 6 nomad tiles (Resettlement steps, Donation)
            options["sections"] = ["Quarry", "Caravan", "Village", "Garden"]
        st = GAME.new(players, options, seed)
        rng = Rng(seed * 31 + index)
        step = 0
        while not st.is_over():
            if step % 3 == 0 or st.pending is not None:
                checked += _check(st)
            acts = st.legal_actions(st.cur)
            st.apply(st.cur, acts[rng.randbelow(len(acts))])
            step += 1
    assert checked > 300


def test_gains_only_in_the_view_of_the_seat_to_move():
    """The hover gains are for the seat to move; other seats and spectators get none."""
    st = position(settlements={0: [(7, 7)]}, terrain="G")
    assert st.view(0)["gains"] and st.view(1)["gains"] == [] and st.view(None)["gains"] == []


def test_a_gain_by_hand():
    """First-game map, cards Fishermen, Merchants, Knights: seat 0 on (7,7) (touching the
    Tavern hex (6,7), whose tile it took) and (7,8); grass card.  (7,9) adds a third settlement
    to row 7: Knights 4 -> 6 (+2); it touches no water and no other special hex."""
    st = position(settlements={0: [(7, 7), (7, 8)]}, tiles={0: {(6, 7): "ready"}}, terrain="G")
    gains = {tuple(g["hex"]): g for g in st.view(0)["gains"]}
    assert gains[(7, 9)] == {"hex": [7, 9], "total": 2, "points": {"Knights": 2}}
    # (8,8) starts row 8 (1 < 2: no Knights change) and touches no water and no special hex
    assert gains[(8, 8)] == {"hex": [8, 8], "total": 0, "points": {}}


def test_mandatory_left_counts_the_supply_and_the_free_hexes():
    """Issue 8: "build 3 − placed" is wrong when the supply or the free hexes are fewer; the
    view says how many the mandatory action can still build (KB §4)."""
    st = position(settlements={0: [(7, 7)]}, terrain="G")
    assert st.view(0)["turn"]["mandatory_left"] == 3
    play(st, ("place", 7, 8))
    assert st.view(1)["turn"]["mandatory_left"] == 2
    homes = filler(position(), 38, avoid=[(7, 7), (7, 8)])
    st = position(settlements={0: homes}, terrain="G")
    assert mandatory_left(st) == 2  # the supply holds 2
    # HB's closed grass area: 1 free grass hex left in all the map is simulated by a card
    # whose terrain is nearly full: every flower field but one taken by seat 1
    probe = position()
    flowers = sorted(probe.free[3])
    st = position(
        players=3,
        settlements={
            1: [(x // 20, x % 20) for x in flowers[:39]],
            2: [(x // 20, x % 20) for x in flowers[39:-1]],
        },
        terrain="F",
    )
    assert len(st.free[3]) == 1 and st.view(0)["turn"]["mandatory_left"] == 1
    play(st, ("place", *sorted(legal(st))[0]))
    assert st.mand_done and st.view(0)["turn"]["mandatory_left"] == 0


def test_pending_left_for_tile_actions():
    """The tile action in progress says how much it can still do: Quarry 2 walls then 1."""
    st = position(
        sections=("Quarry", "Caravan", "Village", "Garden"),
        settlements={0: [(3, 4)]},
        tiles={0: {(2, 4): "ready"}},
        terrain="C",
    )
    play(st, ("use", 2, 4))
    assert st.view(0)["turn"]["pending"]["left"] == 2
    play(st, ("wall", *sorted(legal(st, "wall"))[0]))
    assert st.view(0)["turn"]["pending"]["left"] == 1


def test_score_categories_of_the_gains_are_score_categories():
    st = GAME.new(4, {"nomads": "full", "cards": ["Ambassadors", "Lords", "Merchants"]}, 1)
    names = set(st.preview_scores()[0]) - {"total"}
    for gain in st.view(st.cur)["gains"]:
        assert set(gain["points"]) <= names
    assert set(scoring.ALL_CARDS) >= {"Ambassadors", "Lords", "Merchants"}
