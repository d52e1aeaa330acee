"""Turns of a season: bids, the colour rule, outbids, bringing back losing bids, passing
(KF §4.2, §5, D1, D2, D3, D15)."""

from __future__ import annotations

import pytest

from game.core.types import IllegalAction
from game.keyflower.bids import top_bid
from game.keyflower.const import BOATS, PLAY, RECLAIM
from game.keyflower.state import KeyflowerState
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

AUCTION = ["keywood", "alehouse", "stable", "peddler", "woodcutter", "quarryman"]


def table(players: int = 3) -> KeyflowerState:
    """Spring, a known auction, empty screens, seat 0 to move."""
    st = new(players, 3)
    empty_screens(st)
    set_auction(st, AUCTION)
    to_move_seat(st, 0)
    return st


def bids_at(st: KeyflowerState, tile: str, s: int | None = None) -> list[tuple[str, int]]:
    return [(a[2], a[3]) for a in acts(st, s, "bid") if a[1] == tile]


def test_bid_on_an_empty_tile_any_colour_any_count() -> None:
    """KF §5: a bid is any number (≥ 1) of keyples of one colour; no cap on bids."""
    st = table()
    set_screen(st, 0, red=3, blue=1)
    assert bids_at(st, "keywood") == [("red", 1), ("red", 2), ("red", 3), ("blue", 1)]
    assert bids_at(st, "turn_order_1") == bids_at(st, "keywood"), "turn-order tiles take bids"


def test_colour_rule_and_raise() -> None:
    """KF §5: once keyples are at a tile, others must match their colour and beat every other
    bid strictly."""
    st = table()
    set_screen(st, 0, red=3)
    st.apply(0, ("bid", "keywood", "red", 2))
    assert st.cur == 1
    set_screen(st, 1, red=2, blue=5)
    assert bids_at(st, "keywood") == [], "2 red do not beat 2 red; blue is the wrong colour"
    set_screen(st, 1, red=4, blue=5)
    assert bids_at(st, "keywood") == [("red", 3), ("red", 4)]
    with pytest.raises(IllegalAction, match="colour"):
        st.apply(1, ("bid", "keywood", "blue", 5))
    with pytest.raises(IllegalAction):
        st.apply(1, ("bid", "keywood", "red", 2))


def test_add_to_your_own_leading_bid() -> None:
    """KF §5: you may add keyples to your own bid, leading or not; one colour per bid."""
    st = table(2)
    set_screen(st, 0, red=3, blue=2)
    st.apply(0, ("bid", "keywood", "red", 1))
    st.apply(1, ("pass",))
    assert bids_at(st, "keywood") == [("red", 1), ("red", 2)]
    st.apply(0, ("bid", "keywood", "red", 2))
    assert st.bidn[tid("keywood") * 6] == 3


def test_use_follows_the_lock_of_bids() -> None:
    """KF §5 / D2: bids and uses share one lock colour."""
    st = table(2)
    set_screen(st, 0, yellow=2)
    st.apply(0, ("bid", "keywood", "yellow", 1))
    set_screen(st, 1, red=3, yellow=1)
    uses = [a for a in acts(st, 1, "use") if a[1] == "keywood"]
    assert uses == [("use", "keywood", "yellow", 1)]


def test_leading_bids_cannot_be_brought_back() -> None:
    """KF §5: only losing bids may be brought back."""
    st = table(2)
    set_screen(st, 0, red=3)
    set_screen(st, 1, red=3)
    st.apply(0, ("bid", "keywood", "red", 1))
    st.apply(1, ("bid", "keywood", "red", 2))
    assert ("reclaim", "keywood") in acts(st, 0)
    st.apply(0, ("pass",))
    assert all(a[0] != "reclaim" for a in acts(st, 1)), "seat 1 leads"


def test_reclaimed_bid_moves_whole_and_only_one_colour() -> None:
    """KF §5, D3: a losing bid comes back whole; bids brought back together are of one colour;
    all their keyples go into this turn's single bid or use."""
    st = table(2)
    set_screen(st, 0, red=2, blue=1)
    set_screen(st, 1, red=5, blue=5)
    st.apply(0, ("bid", "keywood", "red", 2))
    st.apply(1, ("bid", "keywood", "red", 3))
    st.apply(0, ("bid", "alehouse", "blue", 1))
    st.apply(1, ("bid", "alehouse", "blue", 2))
    # seat 0 has no keyple left behind the screen, two losing bids of different colours
    assert set(acts(st, 0, "reclaim")) == {("reclaim", "keywood"), ("reclaim", "alehouse")}
    st.apply(0, ("reclaim", "keywood"))
    assert st.stage == RECLAIM and st.pk == 2
    assert acts(st, 0, "reclaim") == [], "the blue bid cannot join the red one"
    assert ("pass",) not in acts(st, 0), "a turn begun with a reclaim is finished, not passed"
    # the 2 red keyples must all be placed: bids of exactly 2 red (0 more from the screen)
    assert bids_at(st, "stable", 0) == [("red", 0)]
    assert bids_at(st, "keywood", 0) == [], "2 red do not beat 3 red there"
    uses = [a for a in acts(st, 0, "use") if a[1] == "stable"]
    assert uses == [("use", "stable", "red", 0)], "a use of 2 keyples from the reclaimed bid"
    st.apply(0, ("bid", "stable", "red", 0))
    assert st.bidn[tid("keywood") * 6] == 0 and st.bidn[tid("stable") * 6] == 2
    check_invariants(st)


def test_reclaim_and_raise_at_the_same_tile() -> None:
    """D3: re-bidding reclaimed keyples at the tile they came from is adding to that bid."""
    st = table(2)
    set_screen(st, 0, red=3)
    set_screen(st, 1, red=5)
    st.apply(0, ("bid", "keywood", "red", 1))
    st.apply(1, ("bid", "keywood", "red", 2))
    st.apply(0, ("reclaim", "keywood"))
    assert bids_at(st, "keywood", 0) == [("red", 2)], "1 back + 2 more beat 2"
    st.apply(0, ("bid", "keywood", "red", 2))
    assert top_bid(st, tid("keywood")) == (0, 3)


def test_reclaim_not_listed_when_its_keyples_fit_nowhere() -> None:
    """Every listed action can be finished: a bid of 4 that fits no use (more than 3) and no
    bid (every tile taken by a bigger bid or the wrong colour) cannot be brought back."""
    st = table(2)
    set_auction(st, ["keywood"])
    set_screen(st, 0, red=4)
    set_screen(st, 1, red=9, blue=9)
    st.apply(0, ("bid", "keywood", "red", 4))
    st.apply(1, ("bid", "keywood", "red", 9))
    st.apply(0, ("pass",))
    st.apply(1, ("bid", "turn_order_1", "blue", 9))
    assert acts(st, 0) == [("pass",)]


def test_keyples_placed_leave_the_screen() -> None:
    st = table(2)
    set_screen(st, 0, red=3)
    st.apply(0, ("bid", "keywood", "red", 2))
    assert st.keys[0][0] == 1
    check_invariants(st)


def test_purple_keyple_is_never_a_worker() -> None:
    """D13: the purple keyple cannot bid, be used on a tile or pay."""
    st = table(2)
    assert st.purple in (0, 1)
    assert acts(st, 0) == [("pass",)], "with an empty screen only passing is left"


def test_summer_boat_4a_bids_any_colour_but_not_against_green() -> None:
    """KF §11.2 4a, D15: its owner may bid another single colour at a red/blue/yellow tile
    (turn-order tiles too), not at a green one; others still follow the original colour."""
    st = table(3)
    put(st, 0, "summer_boat_4", 0, -1, 0, side=0)
    set_screen(st, 0, blue=3, red=3)
    set_screen(st, 1, red=1, green=1)
    set_screen(st, 2, red=3, blue=3)
    to_move_seat(st, 1)
    st.apply(1, ("bid", "keywood", "red", 1))
    st.apply(2, ("pass",))
    assert bids_at(st, "keywood", 0) == [
        ("red", 2), ("red", 3), ("blue", 2), ("blue", 3),
    ]  # fmt: skip
    st.apply(0, ("bid", "keywood", "blue", 2))
    assert st.lock[tid("keywood")] == 0, "the lock stays red"
    st.apply(1, ("bid", "alehouse", "green", 1))
    assert bids_at(st, "keywood", 2) == [("red", 3)], "others still follow red"
    st.apply(2, ("pass",))
    assert bids_at(st, "alehouse", 0) == [], "4a does not help against a green lock"


def test_lock_changes_when_its_colour_leaves() -> None:
    """D2: the lock changes only when no keyple of its colour is left (a 4a bid whose rival was
    brought back): it becomes the colour of the leading bid."""
    st = table(2)
    put(st, 1, "summer_boat_4", 0, -1, 0, side=0)
    set_screen(st, 0, red=5)
    set_screen(st, 1, blue=5)
    st.apply(0, ("bid", "keywood", "red", 1))
    st.apply(1, ("bid", "keywood", "blue", 2))
    assert st.lock[tid("keywood")] == 0
    st.apply(0, ("reclaim", "keywood"))
    st.apply(0, ("bid", "alehouse", "red", 0))
    assert st.lock[tid("keywood")] == 1, "now blue leads and no red is left"


def test_passing_and_the_end_of_the_season() -> None:
    """KF §4.2, D1: passing does not end your participation; any bid or use resets the count;
    the season ends when every player has passed in succession."""
    st = table(3)
    set_screen(st, 1, red=2)
    st.apply(0, ("pass",))
    st.apply(1, ("bid", "keywood", "red", 1))
    assert st.passes == 0
    st.apply(2, ("pass",))
    assert st.cur == 0 and ("pass",) in acts(st, 0), "seat 0 plays again after passing"
    st.apply(0, ("pass",))
    assert st.phase == PLAY and st.passes == 2
    st.apply(1, ("pass",))
    assert st.phase == BOATS


def test_turn_id_changes_after_each_turn_not_inside() -> None:
    """The framework's turn boundary: a bid, use or pass is one turn however many steps."""
    st = table(2)
    set_screen(st, 0, red=3)
    set_screen(st, 1, red=6)
    st.apply(0, ("bid", "keywood", "red", 1))
    st.apply(1, ("bid", "keywood", "red", 2))
    t0 = st.turn_id()
    st.apply(0, ("reclaim", "keywood"))
    assert st.turn_id() == t0 and st.to_move() == (0,)
    st.apply(0, ("bid", "keywood", "red", 2))
    assert st.turn_id() > t0


def test_narrowing_step_when_the_list_is_long() -> None:
    """docs/keyflower.md "Actions" (E1): a first list longer than 200 asks the tile first."""
    st = table(2)
    set_screen(st, 0, red=30, blue=30, yellow=30, green=3)
    first = acts(st, 0)
    assert len(first) <= 200
    assert ("bid_tile", "keywood") in first and not acts(st, 0, "bid")
    assert ("use_tile", "alehouse") in first and not acts(st, 0, "use")
    st.apply(0, ("bid_tile", "keywood"))
    then = acts(st, 0)
    assert len(then) == 93 and all(a[0] == "bid" and a[1] == "keywood" for a in then)
    st.apply(0, ("bid", "keywood", "yellow", 7))
    assert st.bidn[tid("keywood") * 6] == 7
    set_screen(st, 0, red=30, blue=30, yellow=30, green=3)
    to_move_seat(st, 0)
    st.apply(0, ("use_tile", "alehouse"))
    uses = acts(st, 0)
    assert len(uses) == 12 and all(a[0] == "use" and a[1] == "alehouse" for a in uses)
    st.apply(0, ("use", "alehouse", "green", 2))
    assert st.uses[tid("alehouse")] == ((0, 3, 2),)
