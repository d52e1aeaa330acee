"""Winter: the winter-tile choice, turn-order tiles kept, boats taken into villages
(KF §4.1 step 3, §8 step 6, §10, §12, D25)."""

from __future__ import annotations

from game.core.rng import Rng
from game.keyflower.const import BOATS, OUT, OVER, PLACE, PLAY, WINTER_PICK, WON
from game.keyflower.state import KeyflowerState
from game.keyflower.tiles import BOAT, TILES, TURN_ORDER, WINTER
from tests.keyflower.helpers import (
    acts,
    check_invariants,
    new,
    random_walk,
    set_screen,
    to_move_seat,
)


def to_winter(players: int, seed: int) -> KeyflowerState:
    st = new(players, seed)
    rng = Rng(seed)
    while st.phase != WINTER_PICK:
        random_walk(st, rng, 1)
    return st


def test_winter_choice_is_simultaneous_secret_and_at_least_one() -> None:
    """KF §4.1: every player picks at least one of their winter tiles at the same time; the
    picks are revealed together and form the winter auction; the rest leave the game."""
    st = to_winter(4, 3)
    assert st.to_move() == (0, 1, 2, 3)
    turn = st.turn_id()
    for s in range(4):
        options = acts(st, s)
        assert len(options) == 7, "3 tiles: every non-empty set"
        assert all(a[0] == "winter_tiles" and 1 <= len(a) - 1 <= 3 for a in options)
    hands = [list(h) for h in st.hands]
    other_before = acts(st, 1)
    events = st.apply(0, acts(st, 0)[0])  # one tile
    assert st.turn_id() == turn and st.to_move() == (1, 2, 3)
    assert next(e for e in events if e["type"] == "winter_choice")["only"] == [0]
    assert acts(st, 1) == other_before
    assert st.view(1)["seats"][0]["done"] is True
    assert "winter_pick" not in st.view(1)["seats"][0]
    st.apply(1, acts(st, 1)[-1])  # all three
    st.apply(2, acts(st, 2)[0])
    events = st.apply(3, acts(st, 3)[0])
    assert any(e["type"] == "winter_auction" and e.get("reveal") for e in events)
    assert st.phase == PLAY and st.turn_id() > turn
    assert len(st.auction) == 1 + 3 + 1 + 1
    for s in range(4):
        for t in hands[s]:
            assert st.where[t] in (OUT, -3)
    assert all(TILES[t].season == WINTER for t in st.auction)
    check_invariants(st)


def test_winter_tiles_have_no_action() -> None:
    """KF §10: in winter only village tiles can be used."""
    st = to_winter(3, 5)
    for s in range(3):
        st.apply(s, acts(st, s)[0])
    s = st.cur
    set_screen(st, s, red=3)
    uses = {a[1] for a in acts(st, s, "use")}
    assert not any(TILES[t].id in uses for t in st.auction)


def test_turn_order_tiles_and_boats_join_villages_in_winter() -> None:
    """KF §8 step 6, §10: winter turn-order tiles won are kept and placed; each player takes one
    boat tile into the village, however many turn-order tiles they won."""
    st = to_winter(3, 7)
    for s in range(3):
        st.apply(s, acts(st, s)[0])
    to_move_seat(st, st.cur)
    s = st.cur
    set_screen(st, s, red=5)
    st.apply(s, ("bid", "turn_order_1", "red", 1))
    st.apply(st.cur, ("pass",))
    st.apply(st.cur, ("pass",))
    st.apply(s, ("bid", "turn_order_2", "red", 1))
    while st.phase == PLAY:
        st.apply(st.cur, ("pass",))
    assert st.phase == BOATS and st.border[0] == s
    assert sorted(TILES[t].id for t in st.won[s] if TILES[t].kind == TURN_ORDER) == [
        "turn_order_1",
        "turn_order_2",
    ]
    while st.phase == BOATS:
        st.apply(st.cur, acts(st)[0])
    boats = [[t for t in st.won[x] if TILES[t].kind == BOAT] for x in range(3)]
    assert [len(b) for b in boats] == [1, 1, 1]
    assert all(st.where[t] == WON for b in boats for t in b)
    assert st.phase == PLACE
    rng = Rng(1)
    while st.phase == PLACE:
        random_walk(st, rng, 1)
    assert st.phase == OVER
    for t in st.tord:
        assert st.where[t] == s
    check_invariants(st)
    fin = st.final()
    adjacent = fin.details[s]["turn_order"]
    assert set(adjacent) == {"turn_order_1", "turn_order_2"}
    from game.keyflower.village import adjacent_tiles

    for name, pts in adjacent.items():
        t = next(x for x in st.tord if TILES[x].id == name)
        assert pts == adjacent_tiles(st.vil[s], st.hexof[t]) >= 1
