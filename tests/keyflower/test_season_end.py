"""The end of a season in the order of the rules, boats, the purple keyple, placement
(KF §8 steps 1–10, §9, §11.2 1a/1b/2a, D5, D12, D13, D14, D16)."""

from __future__ import annotations

from game.keyflower.const import BOATS, OUT, PLACE, PLAY, WON
from game.keyflower.state import KeyflowerState
from game.keyflower.tiles import RIVER, SUMMER, TILES
from game.keyflower.village import DIRS, HOME_HEX, ROT_EDGES, fits, frontier, placements
from tests.keyflower.helpers import (
    acts,
    check_invariants,
    empty_screens,
    new,
    put,
    set_auction,
    set_screen,
    tid,
    to_move_seat,
)


def spring() -> KeyflowerState:
    """3 players, seat 0 to move, a known auction, empty screens."""
    st = new(3, 21)
    empty_screens(st)
    set_auction(st, ["keywood", "alehouse", "woodcutter", "quarryman"])
    st.start = st.purple = 0
    to_move_seat(st, 0)
    return st


def test_end_of_season_steps_in_order() -> None:
    """KF §8: 1 losing bids back to their owners; 2 unbid tiles leave, their keyples to the
    supply (D5); 3 winners take their tiles with the keyples used on them, winning bids to the
    supply; 4 keyples on village tiles to the village's owner; 5 boat choice by turn-order tile,
    then clockwise from the start player (D12); 8 purple keyple; 9 placement."""
    st = spring()
    set_screen(st, 0, red=4, yellow=2)
    set_screen(st, 1, red=4, blue=1)
    set_screen(st, 2, red=3, blue=2)
    home0 = TILES[st.home[0]].id
    st.apply(0, ("bid", "keywood", "red", 1))
    st.apply(1, ("bid", "keywood", "red", 2))
    st.apply(2, ("use", "keywood", "red", 1))  # on the auction tile: goes to its winner
    st.apply(0, ("use", "alehouse", "yellow", 1))  # nobody bids on the Alehouse
    st.apply(1, ("use", home0, "blue", 1))  # seat 1's keyple on seat 0's home
    st.apply(2, ("bid", "turn_order_1", "blue", 2))
    st.apply(0, ("bid", "turn_order_2", "red", 1))  # the purple tile in 3-player games
    bag_before = list(st.bag)
    keys_before = [list(k) for k in st.keys]
    for s in (1, 2, 0):
        st.apply(s, ("pass",))
    assert st.phase == BOATS
    # 1. seat 0's losing red bid at Keywood comes back, seen by all
    assert st.keys[0][0] == keys_before[0][0] + 1
    # 2. the Alehouse leaves; its yellow keyple goes to the bag
    assert st.where[tid("alehouse")] == OUT
    # 3. Keywood to seat 1 with seat 2's red keyple used on it; the winning 2 red to the bag
    assert st.where[tid("keywood")] == WON and st.won[1] == [tid("keywood")]
    assert st.keys[1][0] == keys_before[1][0] + 1
    # 4. seat 1's blue keyple on seat 0's home goes to seat 0
    assert st.keys[0][1] == keys_before[0][1] + 1
    assert st.bag[0] == bag_before[0] + 2 + 1, "winning bid (2) + seat 0's turn-order bid (1)"
    assert st.bag[1] == bag_before[1] + 2, "seat 2's winning turn-order bid"
    assert st.bag[2] == bag_before[2] + 1
    # 5. boats: turn-order 1 (seat 2), 2 (seat 0), then the others clockwise from the start
    assert st.border == [2, 0, 1] and st.to_move() == (2,)
    check_invariants(st)
    for s in (2, 0, 1):
        boat = acts(st, s)[0]
        i = st.boats.index(tid(boat[1]))
        load = st.bkeys[i * 3 : i * 3 + 3]
        before = list(st.keys[s])
        st.apply(s, boat)
        assert [st.keys[s][c] - before[c] for c in range(3)] == load
    # 8. purple to the winner of the purple tile; 9. seat 1 places Keywood
    assert st.purple == 0
    assert st.phase == PLACE and st.to_move() == (1,)
    check_invariants(st)


def test_purple_passes_clockwise_when_nobody_bids_on_it() -> None:
    """D13: nobody bid on the purple tile: the purple keyple goes to the next player clockwise
    from its holder; that player starts the next season."""
    st = spring()
    st.purple = 2
    for s in (0, 1, 2):
        st.apply(s, ("pass",))
    for s in st.border[:]:
        st.apply(s, acts(st, s)[0])
    assert st.purple == 0
    assert st.phase == PLAY and st.season == 1 and st.start == 0 and st.cur == 0


def test_one_boat_per_player_however_many_turn_order_tiles() -> None:
    """KF §8 step 5: a player who won several turn-order tiles chooses once, at its lowest
    number."""
    st = spring()
    set_screen(st, 1, red=2)
    to_move_seat(st, 1)
    st.apply(1, ("bid", "turn_order_2", "red", 1))
    st.apply(2, ("pass",))
    st.apply(0, ("pass",))
    st.apply(1, ("bid", "turn_order_1", "red", 1))
    for s in (2, 0, 1):
        st.apply(s, ("pass",))
    assert st.border == [1, 0, 2]


def test_placement_lists_matching_positions() -> None:
    """KF §9: a new tile goes next to the village, every shared side matching (road to road,
    river to river, field to field), in any rotation."""
    st = spring()
    set_screen(st, 1, red=1)
    to_move_seat(st, 1)
    st.apply(1, ("bid", "keywood", "red", 1))
    for s in (2, 0, 1):
        st.apply(s, ("pass",))
    while st.phase == BOATS:
        st.apply(st.cur, acts(st)[0])
    spots = acts(st, 1)
    assert spots and all(a[0] == "place" and a[1] == "keywood" for a in spots)
    t = tid("keywood")
    for _, _, q, r, rot in spots:
        from game.keyflower.village import hex_id

        assert fits(st.vil[1], st.rot, t, hex_id(q, r), rot)
    all_spots = len(frontier(st.vil[1])) * 6
    assert len(spots) < all_spots, "mismatching positions are left out"
    before = st.turn_id()
    _, _, q, r, rot = spots[0]
    st.apply(1, spots[0])
    assert st.phase == PLAY and st.season == SUMMER and st.turn_id() > before
    assert st.where[t] == 1 and st.rot[t] == rot
    check_invariants(st)


def test_no_matching_position_allows_any_adjacent_hex() -> None:
    """D16: a won tile with no matching position goes on any empty hex next to the village,
    in any rotation."""
    # a (made-up) map: a ring of home tiles with their river turned inwards shows nothing but
    # roads outwards, and a boat has no road side
    vil = {HOME_HEX: tid("keywood")}
    rot = [0] * len(TILES)
    for p in range(6):
        t = tid(f"home_{p + 1}")
        vil[HOME_HEX + DIRS[p]] = t
        rot[t] = next(r for r in range(6) if ROT_EDGES[t][r][(p + 3) % 6] == RIVER)
    boat = tid("keyflower")
    ok = placements(vil, rot, boat, False)
    spots = frontier(vil)
    assert not any(fits(vil, rot, boat, h, r) for h in spots for r in range(6))
    assert ok == [(h, r) for h in spots for r in range(6)]


def test_summer_boat_2a_places_freely_from_the_moment_it_is_placed() -> None:
    """KF §9, §11.2 2a, D14: its owner need not match edges; placed first, it frees the rest."""
    st = new(2, 4)
    t2a = tid("summer_boat_2")
    st.side[t2a] = 0
    st.phase = PLACE
    for t in (t2a, tid("keywood")):
        st.where[t] = WON
        st.holder[t] = 0
        st.won[0].append(t)
    for t in st.auction:
        st.where[t] = OUT
    st.auction = []
    st._dec = {}
    both = acts(st, 0)
    kw_before = [a for a in both if a[1] == "keywood"]
    river = ROT_EDGES[st.home[0]][0].index(RIVER)
    from game.keyflower.village import axial

    q, r = axial(HOME_HEX + DIRS[river])
    rot = next(x for x in range(6) if ROT_EDGES[t2a][x][(river + 3) % 6] == RIVER)
    st.apply(0, ("place", "summer_boat_2", q, r, rot))
    kw_after = acts(st, 0)
    assert (
        len(kw_after) > len(kw_before)
        and len(kw_after) == len(frontier({**st.vil[0], HOME_HEX + DIRS[river]: t2a})) * 6
    )


def test_placements_stay_secret_until_everybody_is_done() -> None:
    """The framework's simultaneous path: placements are private ("only") until the last seat
    finishes, then revealed together; the turn id stays the same meanwhile."""
    st = new(2, 4)
    st.phase = PLACE
    for s, name in ((0, "keywood"), (1, "alehouse")):
        t = tid(name)
        for x in st.auction:
            st.where[x] = OUT
        st.where[t] = WON
        st.holder[t] = s
        st.won[s] = [t]
    st.auction = []
    st._dec = {}
    assert st.to_move() == (0, 1)
    turn = st.turn_id()
    view1 = st.view(1)
    options1 = acts(st, 1)
    events = st.apply(0, acts(st, 0)[0])
    assert st.to_move() == (1,) and st.turn_id() == turn
    assert all(e.get("only") == [0] for e in events if e["type"] == "place")
    assert st.view(1)["seats"][0]["village"] == view1["seats"][0]["village"]
    assert acts(st, 1) == options1, "seat 1's choices do not depend on seat 0's"
    events = st.apply(1, acts(st, 1)[0])
    assert any(e["type"] == "placed" and e.get("reveal") for e in events)
    assert st.turn_id() > turn and st.phase == PLAY


def test_summer_boat_1a_1b_pay_after_placement_from_summer_on() -> None:
    """KF §8 step 10, D14: at the end of summer (the season it was won), autumn and winter,
    1a draws 2 keyples, 1b takes 1 green."""
    st = new(2, 8)
    empty_screens(st)
    st.season = SUMMER
    put(st, 0, "summer_boat_1", 0, 1, side=0)
    put(st, 1, "summer_boat_3", 0, 1, side=0)
    from game.keyflower.seasons import finish_season

    events: list[dict] = []
    finish_season(st, events)
    assert sum(st.keys[0]) == 2 and st.kknown[0] == [0, 0, 0, 0]
    st2 = new(2, 8)
    empty_screens(st2)
    st2.season = SUMMER
    put(st2, 1, "summer_boat_1", 0, 1, side=1)
    finish_season(st2, [])
    assert st2.keys[1][3] == 1
    st3 = new(2, 8)
    empty_screens(st3)
    put(st3, 0, "summer_boat_1", 0, 1, side=0)
    finish_season(st3, [])  # the end of spring: nothing yet
    assert sum(st3.keys[0]) == 0
