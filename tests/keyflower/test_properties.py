"""Property tests: random playouts over many seeds and every player count, checked after every
action — keyple, skill and resource conservation, at most 6 keyples used on a tile, legal lists
within the protocol's bounds, refused actions leave the state untouched, saves round-trip with
the same hash, views hide other seats' screens, winter tiles and simultaneous choices.

The default run plays a few dozen games; ``pytest -m slow`` plays hundreds."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from game.core.rng import Rng, derive_seed
from game.core.types import IllegalAction
from game.core.wire import packb, to_plain, unpackb
from game.keyflower import GAME
from game.keyflower.const import PLACE, WINTER_PICK
from game.keyflower.state import KeyflowerState
from tests.keyflower.helpers import check_invariants, keyflower_twin, play_out

LEGAL_MAX = 500


def view_of(st: KeyflowerState, seat: int | None) -> Any:
    return to_plain(st.view(seat))


class Checker:
    """Everything checked after one action (``every`` > 1 thins out the slower checks)."""

    def __init__(self, every: int = 1) -> None:
        self.every = every
        self.count = 0
        self.rng = Rng(99)

    def __call__(self, st: KeyflowerState, seat: int, action: Any, events: list[Any]) -> None:
        self.count += 1
        check_invariants(st)
        for s in st.to_move():
            legal = st.legal_actions(s)
            assert 0 < len(legal) <= LEGAL_MAX, f"{len(legal)} legal actions"
            assert len(set(legal)) == len(legal), "a legal action is listed twice"
        for ev in events:
            if ev["type"] in ("draw_keyples", "draw_skills"):
                assert "keyples" not in ev and "skills" not in ev, "a public draw shows colours"
        if self.count % self.every:
            return
        # saves round-trip exactly (msgpack too), hash stable
        data = unpackb(packb(st.to_dict()))
        back = GAME.from_dict(data)
        assert back.to_dict() == st.to_dict() and back.state_hash() == st.state_hash()
        # a refused action leaves the state and its hash untouched
        if st.to_move():
            s = st.to_move()[0]
            before = st.state_hash()
            for bad in (("bid", "keythedral", "red", 99), ("use", "nowhere", "red", 1), ("x",)):
                with pytest.raises(IllegalAction):
                    st.apply(s, bad)
            assert st.state_hash() == before
        # what a seat cannot see does not show in its view
        for s in [*range(st.n), None]:
            mine = view_of(st, s)
            world = st.determinize(s, derive_seed(self.count, "world", -1 if s is None else s))
            assert view_of(world, s) == mine, f"seat {s}'s view depends on hidden state"
            det = GAME.from_dict(world.to_dict())
            assert det.to_dict() == world.to_dict()
            if s is not None:
                twin = keyflower_twin(st, s)
                assert view_of(twin, s) == mine
        # every seat to move can finish: apply one random legal action on a copy
        if st.to_move():
            s = st.to_move()[0]
            legal = st.legal_actions(s)
            copy = st.clone()
            copy.apply(s, legal[self.rng.randbelow(len(legal))])
            check_invariants(copy)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_keep_every_invariant(players: int) -> None:
    for seed in range(2):
        st = play_out(players, 100 * players + seed, Checker(every=3))
        assert st.is_over()
        scores = st.scores()
        assert all(sc["total"] == sum(v for k, v in sc.items() if k != "total") for sc in scores)


@settings(max_examples=15, deadline=None)
@given(players=hs.integers(2, 6), seed=hs.integers(0, 2**32 - 1))
def test_random_games_hypothesis(players: int, seed: int) -> None:
    play_out(players, seed, Checker(every=25))


def test_views_hide_committed_choices_and_screens() -> None:
    """Simultaneous phases: a committed winter choice or placement is seen by its maker only;
    screens show only their size and what the table knows."""
    seen_pick = seen_place = False
    for seed in range(6):
        rng = Rng(seed)
        st = GAME.new(4, None, seed)
        while not st.is_over() and not (seen_pick and seen_place):
            seats = st.to_move()
            seat = seats[rng.randbelow(len(seats))]
            legal = st.legal_actions(seat)
            st.apply(seat, legal[rng.randbelow(len(legal))])
            if st.phase == WINTER_PICK and len(st.to_move()) < st.n:
                done = next(s for s in range(st.n) if st.wpick[s] is not None)
                other = next(s for s in st.to_move())
                twin = st.clone()
                hand = twin.hands[done]
                twin.wpick[done] = tuple(hand) if twin.wpick[done] != tuple(hand) else (hand[0],)
                twin._view = None
                assert view_of(twin, other) == view_of(st, other)
                assert view_of(twin, done) != view_of(st, done)
                seen_pick = True
            if st.phase == PLACE and any(st.pplaced[s] for s in range(st.n)):
                done = next(s for s in range(st.n) if st.pplaced[s])
                for other in range(st.n):
                    if other != done:
                        v = view_of(st, other)["seats"][done]
                        assert "placed" not in v
                        assert len(v["village"]) == len(st.vorder[done])
                seen_place = True
    assert seen_pick and seen_place


def test_view_frames_stay_small() -> None:
    """The largest per-seat view (with its events and legal actions) over 6-player games stays
    under 16 KB (the bench measures it through the host: net.view_bytes_max.keyflower)."""
    biggest = 0

    def measure(st: KeyflowerState, seat: int, action: Any, events: list[Any]) -> None:
        nonlocal biggest
        for s in range(st.n):
            legal = st.legal_actions(s) if s in st.to_move() else []
            frame = {
                "view": st.view(s),
                "events": st.visible_events(events, s),
                "legal": [list(a) for a in legal],
            }
            biggest = max(biggest, len(packb(frame)))

    for seed in range(3):
        play_out(6, seed, measure)
    assert 0 < biggest < 16 * 1024


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_many_random_games(players: int) -> None:
    for seed in range(100):
        play_out(players, 10_000 * players + seed, Checker(every=50))
