"""``determinize`` and a seat in the middle of its turn (``docs/keyflower.md``, "Hidden
information"; issue 19, leak B): its screen is resampled for every other seat, given what its
turn so far shows, and the copy stays a position where that turn can be finished."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator

import pytest

from game.core.rng import Rng, derive_seed
from game.keyflower import hidden
from game.keyflower.const import NONE, PAY_KEYPLE, PLAY
from game.keyflower.hidden import turn_goes_on
from game.keyflower.state import KeyflowerState
from tests.keyflower.helpers import new


def mid_turn_positions(games: int = 8, players: int = 4) -> Iterator[KeyflowerState]:
    """Every position of a few random games where a seat is part-way through its turn."""
    for g in range(games):
        st = new(players, 500 + g)
        rng = Rng(derive_seed(g, "mid-turn walk"))
        while not st.is_over():
            seats = st.to_move()
            seat = seats[rng.randbelow(len(seats))]
            acts = st.legal_actions(seat)
            st.apply(seat, acts[rng.randbelow(len(acts))])
            if st.phase == PLAY and st.stage != NONE:
                yield st.clone()


def _unknown(st: KeyflowerState, s: int) -> int:
    return sum(st.keys[s][:3]) - sum(st.kknown[s][:3]) + sum(st.skills[s]) - sum(st.sknown[s])


def test_the_screen_of_a_seat_mid_turn_is_dealt_again_for_the_others() -> None:
    """For each other seat and a spectator: the view is the same, the busy seat's turn still
    stands and can be played to its end, and its screen changes from copy to copy."""
    positions = varied = 0
    for st in mid_turn_positions():
        busy = st.cur
        for seat in [s for s in range(st.n) if s != busy] + [None]:
            screens = set()
            for k in range(6):
                copy = st.determinize(seat, derive_seed(positions, seat or 0, k))
                assert copy.view(seat) == st.view(seat)
                assert turn_goes_on(copy, busy)
                assert sum(copy.keys[busy]) == sum(st.keys[busy])
                assert sum(copy.skills[busy]) == sum(st.skills[busy])
                screens.add((tuple(copy.keys[busy]), tuple(copy.skills[busy])))
                _finish_turn(copy, busy, derive_seed(k, "finish"))
            varied += len(screens) > 1
        positions += 1
    assert positions > 100
    assert varied > positions // 2, "the mid-turn screen is rarely resampled"


def _finish_turn(st: KeyflowerState, seat: int, seed: int) -> None:
    """Play ``seat``'s turn to its end at random: every step has a legal action."""
    rng = Rng(seed)
    turn = st.turn_id()
    while st.turn_id() == turn and not st.is_over():
        acts = st.legal_actions(seat)
        assert acts, f"a dead end at stage {st.stage} in a determinized copy"
        st.apply(seat, acts[rng.randbelow(len(acts))])


def test_a_seat_mid_turn_keeps_its_own_screen() -> None:
    """Its own screen is part of what it sees: its copy (its bots plan on it) keeps it, and its
    legal actions."""
    for i, st in enumerate(mid_turn_positions(games=3)):
        copy = st.determinize(st.cur, i)
        assert copy.keys[st.cur] == st.keys[st.cur] and copy.skills[st.cur] == st.skills[st.cur]
        assert copy.legal_actions(st.cur) == st.legal_actions(st.cur)


def test_a_seat_asked_which_keyple_to_pay_holds_two_colours_in_every_copy() -> None:
    """The engine asks only when the choice is real: the table knows the seat has two colours
    at least, so every copy gives it two."""
    found = 0
    for i, st in enumerate(mid_turn_positions(games=30)):
        if st.stage != PAY_KEYPLE:
            continue
        found += 1
        for k in range(5):
            copy = st.determinize((st.cur + 1) % st.n, derive_seed(i, k))
            assert sum(1 for c in copy.keys[st.cur] if c) >= 2
            assert sum(copy.keys[st.cur]) >= st.pleft
    if not found:
        pytest.skip("no payment of 'any keyple' came up in these random games")


def test_both_draws_follow_the_exact_distribution() -> None:
    """A mid-turn screen is drawn from the pool given that its turn stands: by random draws
    (the first that passes), or — when they keep failing — by weighing every possible screen.
    Both follow the exact distribution (computed here from the pools), within sampling error."""
    st = next(p for p in mid_turn_positions() if _unknown(p, p.cur) >= 3)
    busy, seat, runs = st.cur, (st.cur + 1) % st.n, 1500
    exact = _exact(st, seat)
    assert len(exact) > 1
    # expected total variation of an empirical distribution is about 0.4 of this
    bound = sum(math.sqrt(p * (1 - p) / runs) for p in exact.values())

    def distance() -> float:
        seen: Counter[tuple[tuple[int, ...], tuple[int, ...]]] = Counter()
        for k in range(runs):
            copy = st.determinize(seat, derive_seed(k, "weighed"))
            seen[(tuple(copy.keys[busy]), tuple(copy.skills[busy]))] += 1
        assert set(seen) <= set(exact), "a screen the turn so far rules out"
        return sum(abs(seen[x] / runs - exact[x]) for x in exact) / 2

    assert distance() < bound
    tries = hidden.TRIES
    try:
        hidden.TRIES = 0  # straight to the weighed choice
        assert distance() < bound
    finally:
        hidden.TRIES = tries


def _exact(st: KeyflowerState, seat: int) -> dict[tuple[tuple[int, ...], tuple[int, ...]], float]:
    """The probability of each screen of the seat mid-turn, as ``seat`` may believe it."""
    copy, busy = st.clone(), st.cur
    others = [s for s in range(st.n) if s != seat]
    keyples, ksizes = hidden._pool(copy.keys, copy.kknown, others, copy.bag, 3)
    skills, ssizes = hidden._pool(copy.skills, copy.sknown, others, copy.sksup, 3)
    kbase, sbase = copy.keys[busy][:], copy.skills[busy][:]
    weights = {}
    for w, k, sk in hidden._weighed(keyples, ksizes[busy], skills, ssizes[busy]):
        if hidden._try(copy, busy, kbase, k, sbase, sk):
            weights[(tuple(copy.keys[busy]), tuple(copy.skills[busy]))] = w
    total = sum(weights.values())
    return {x: w / total for x, w in weights.items()}
