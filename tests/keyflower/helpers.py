"""Helpers shared by the Keyflower tests: random positions, invariants, twin positions."""

from __future__ import annotations

from typing import Any

from game.core.api import GameState
from game.core.rng import Rng, derive_seed
from game.core.types import Seat
from game.keyflower import GAME
from game.keyflower.const import NONE, PLAY
from game.keyflower.hidden import turn_goes_on
from game.keyflower.state import KeyflowerState
from game.keyflower.tiles import (
    BAG_START,
    GREEN_START,
    NTILES,
    RESOURCES_START,
    SKILLS_START,
)


def new(players: int = 4, seed: int = 1) -> KeyflowerState:
    return GAME.new(players, None, seed)


def random_walk(st: KeyflowerState, rng: Rng, steps: int) -> KeyflowerState:
    """Play up to ``steps`` random legal actions (any seat to move) on ``st``."""
    for _ in range(steps):
        if st.is_over():
            break
        seats = st.to_move()
        seat = seats[rng.randbelow(len(seats))]
        acts = st.legal_actions(seat)
        st.apply(seat, acts[rng.randbelow(len(acts))])
    return st


def play_out(players: int, seed: int, check: Any = None) -> KeyflowerState:
    """A whole random game; ``check(state, seat, action, events)`` after every action."""
    st = new(players, seed)
    rng = Rng(derive_seed(seed, "walk"))
    while not st.is_over():
        seats = st.to_move()
        assert seats, "nobody to move before the end"
        seat = seats[rng.randbelow(len(seats))]
        acts = st.legal_actions(seat)
        assert acts, f"seat {seat} to move without a legal action"
        action = acts[rng.randbelow(len(acts))]
        events = st.apply(seat, action)
        if check is not None:
            check(st, seat, action, events)
    return st


def keyple_totals(st: KeyflowerState) -> list[int]:
    """Red, blue, yellow, green keyples counted everywhere (bag, supply, screens, bids, uses,
    boats)."""
    tot = [*st.bag, st.green]
    for s in range(st.n):
        for c in range(4):
            tot[c] += st.keys[s][c]
    for t in range(NTILES):
        for s in range(st.n):
            if st.bidn[t * 6 + s]:
                tot[st.bidc[t * 6 + s]] += st.bidn[t * 6 + s]
    for us in st.uses.values():
        for _, c, m in us:
            tot[c] += m
    for i in range(len(st.boats)):
        for c in range(3):
            tot[c] += st.bkeys[i * 3 + c]
    return tot


def check_invariants(st: KeyflowerState) -> None:
    """Conservation of every piece (KF §2) and the per-tile limits (KF §6.2)."""
    assert keyple_totals(st) == [*BAG_START, GREEN_START]
    sk = list(st.sksup)
    for s in range(st.n):
        for k in range(3):
            sk[k] += st.skills[s][k]
    for i in range(len(st.boats)):
        for k in range(3):
            sk[k] += st.bskills[i * 3 + k]
    assert sk == list(SKILLS_START)
    res = list(st.ressup)
    for t in range(NTILES):
        for k in range(4):
            assert st.res[t * 4 + k] >= 0
            res[k] += st.res[t * 4 + k]
    assert res == list(RESOURCES_START)
    for s in range(st.n):
        for c in range(4):
            assert 0 <= st.kknown[s][c] <= st.keys[s][c]
        assert st.kknown[s][3] == st.keys[s][3], "green keyples are always known"
        for k in range(3):
            assert 0 <= st.sknown[s][k] <= st.skills[s][k]
    for us in st.uses.values():
        assert len(us) <= 3 and sum(m for _, _, m in us) <= 6, "KF §6.2: at most 6 keyples"
        assert all(1 <= m <= 3 for _, _, m in us)
        assert all(us[i][2] > us[i - 1][2] for i in range(1, len(us)))
    if not st.is_over():
        assert st.to_move(), "KF: someone is always to move before the end"


def keyflower_twin(state: GameState, seat: Seat) -> GameState:
    """The same position with hidden data changed (what ``seat`` cannot see): an unknown keyple
    behind another seat's screen swapped with a bag keyple of another colour, the same for a
    skill tile, and winter tiles swapped between other seats' hands (or with the undealt ones).
    The screen of a seat in the middle of its turn changes too, when its turn still stands as
    the table saw it (``game.keyflower.hidden.turn_goes_on``)."""
    assert isinstance(state, KeyflowerState)
    twin = state.clone()
    if twin.is_over():
        return twin  # at the end everything is shown: nothing is hidden any more
    busy = twin.cur if twin.phase == PLAY and twin.stage != NONE else -1
    others = [s for s in range(twin.n) if s != seat]
    for s in others:
        kept = (twin.keys[s][:], twin.skills[s][:], twin.bag[:], twin.sksup[:])
        for c in range(3):
            if twin.keys[s][c] > twin.kknown[s][c]:
                d = next((d for d in range(3) if d != c and twin.bag[d]), None)
                if d is not None:
                    twin.keys[s][c] -= 1
                    twin.keys[s][d] += 1
                    twin.bag[c] += 1
                    twin.bag[d] -= 1
                    break
        for k in range(3):
            if twin.skills[s][k] > twin.sknown[s][k]:
                j = next((j for j in range(3) if j != k and twin.sksup[j]), None)
                if j is not None:
                    twin.skills[s][k] -= 1
                    twin.skills[s][j] += 1
                    twin.sksup[k] += 1
                    twin.sksup[j] -= 1
                    break
        if s == busy and not turn_goes_on(twin, s):
            twin.keys[s], twin.skills[s], twin.bag, twin.sksup = kept
    hidden = [s for s in range(twin.n) if s != seat and twin.hands[s] and twin.wpick[s] is None]
    if hidden:
        a = hidden[0]
        if twin.wout:
            x, y = twin.hands[a][0], twin.wout[0]
            twin.hands[a][0], twin.wout[0] = y, x
            twin.holder[y], twin.holder[x] = a, -1
            twin.where[y], twin.where[x] = twin.where[x], twin.where[y]
            twin.hands[a].sort()
            twin.wout.sort()
        elif len(hidden) > 1:
            b = hidden[1]
            x, y = twin.hands[a][0], twin.hands[b][0]
            twin.hands[a][0], twin.hands[b][0] = y, x
            twin.holder[x], twin.holder[y] = b, a
            twin.hands[a].sort()
            twin.hands[b].sort()
    twin._dec = {}
    twin._view = None
    return twin


# ---- building positions for rules tests ---------------------------------------------------
COLOUR = {"red": 0, "blue": 1, "yellow": 2, "green": 3}
RES = {"wood": 0, "stone": 1, "iron": 2, "gold": 3}
SKILL = {"saw": 0, "pickaxe": 1, "anvil": 2}


def tid(name: str) -> int:
    from game.keyflower.tiles import INDEX

    return INDEX[name]


def set_screen(st: KeyflowerState, s: int, known: bool = True, **counts: int) -> None:
    """Give seat ``s`` exactly these keyples and skill tiles (others unchanged), through the
    bag, green supply and skill supply so every piece stays accounted for."""
    for name, n in counts.items():
        if name in COLOUR:
            c = COLOUR[name]
            have = st.keys[s][c]
            if c == 3:
                st.green += have - n
                assert st.green >= 0
            else:
                st.bag[c] += have - n
                assert st.bag[c] >= 0
            st.keys[s][c] = n
            st.kknown[s][c] = n if (known or c == 3) else min(st.kknown[s][c], n)
        else:
            k = SKILL[name]
            st.sksup[k] += st.skills[s][k] - n
            assert st.sksup[k] >= 0
            st.skills[s][k] = n
            st.sknown[s][k] = n if known else min(st.sknown[s][k], n)
    st._dec = {}
    st._view = None


def empty_screens(st: KeyflowerState) -> None:
    for s in range(st.n):
        set_screen(st, s, red=0, blue=0, yellow=0, green=0, saw=0, pickaxe=0, anvil=0)


def set_auction(st: KeyflowerState, names: list[str], side: int = 0) -> None:
    """Make ``names`` this season's auction (the old auction tiles leave the game)."""
    from game.keyflower.const import AUCTION, OUT

    for t in st.auction:
        st.where[t] = OUT
    st.auction = []
    for name in names:
        t = tid(name)
        assert st.where[t] < 0 and st.hexof[t] < 0, f"{name} is in a village"
        if t in (x for h in st.hands for x in h):
            for h in st.hands:
                if t in h:
                    h.remove(t)
            st.holder[t] = -1
        if t in st.wout:
            st.wout.remove(t)
        st.where[t] = AUCTION
        st.side[t] = side
        st.auction.append(t)
    st._dec = {}
    st._view = None


def put(st: KeyflowerState, s: int, name: str, q: int, r: int, rot: int = 0, side: int = 0) -> int:
    """Put tile ``name`` into seat ``s``'s village at axial (q, r) (no placement check)."""
    from game.keyflower.village import hex_id

    t = tid(name)
    if t in st.auction:
        st.auction.remove(t)
    for h in st.hands:
        if t in h:
            h.remove(t)
    if t in st.wout:
        st.wout.remove(t)
    st.side[t] = side
    st.put_tile(s, t, hex_id(q, r), rot)
    from game.keyflower.state import village_flags

    st.flags[s] = village_flags(st, s)
    st._dec = {}
    st._view = None
    return t


def give(st: KeyflowerState, name: str, **res: int) -> None:
    """Put resources from the supply on tile ``name`` (set to exactly these counts)."""
    t = tid(name)
    for kind, n in res.items():
        k = RES[kind]
        st.ressup[k] += st.res[t * 4 + k] - n
        assert st.ressup[k] >= 0
        st.res[t * 4 + k] = n
    st._dec = {}
    st._view = None


def on_tile(st: KeyflowerState, name: str) -> dict[str, int]:
    t = tid(name)
    return {k: st.res[t * 4 + i] for k, i in RES.items() if st.res[t * 4 + i]}


def to_move_seat(st: KeyflowerState, s: int) -> None:
    """Make it seat ``s``'s turn (PLAY, start of a turn)."""
    st.cur = s
    st.stage = NONE
    st._dec = {}
    st._view = None


def acts(st: KeyflowerState, s: int | None = None, kind: str | None = None) -> list[Any]:
    seat = st.cur if s is None else s
    out = st.legal_actions(seat)
    return [a for a in out if kind is None or a[0] == kind]
