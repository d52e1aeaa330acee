"""What one seat cannot see, dealt again: Keyflower's ``determinize`` (rule 5 of the contract).

``docs/keyflower.md``, "Hidden information".  Everything ``seat`` cannot see is resampled:

* the unknown part of every other screen (screen minus ``kknown`` / ``sknown``), pooled with
  the bag (the skill supply) and dealt again keeping each screen's size — **also the screen of
  a seat in the middle of its turn** (a reclaim, a narrowed bid or use, a payment, a
  transport).  That seat's half-built turn says something about its screen (the table saw it
  stop to ask which keyple to pay, so it holds two colours at least), so its screen is drawn
  from the pool *given* what the turn so far shows: :func:`turn_goes_on` must hold for it, as it
  holds for the real screen.  Drawing at random and keeping the first draw that passes gives
  exactly that distribution; after :data:`TRIES` failed draws every possible screen is weighed
  (:func:`_weighed`), which always finds one, because the real screen is among them;
* other seats' winter hands with the undealt winter tiles, and their committed winter choices;
* other seats' placements of the placement phase.

Pools are sorted before shuffling and every test looks only at public facts and the drawn
screen, so the copy depends only on what ``seat`` sees and the seed.  The RNG is reseeded.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from game.core.rng import Rng, derive_seed
from game.core.types import Seat
from game.keyflower import play, seasons, transport, upgrades
from game.keyflower.const import (
    BID,
    HAND,
    NONE,
    OUT,
    OVER,
    PAY_KEYPLE,
    PAY_SKILL,
    PLACE,
    PLAY,
    RECLAIM,
    TRANSPORT,
    USE,
)
from game.keyflower.village import placements

if TYPE_CHECKING:
    from game.keyflower.state import KeyflowerState

_DETERMINIZE_SALT = 0x4B46_0001
_RESEED_SALT = 0x4B46_0002

#: Random draws of a mid-turn screen tried before every possible screen is weighed.
TRIES = 48


def turn_goes_on(st: KeyflowerState, s: int) -> bool:
    """Whether ``s``'s turn, part-way built (``st.stage``), stands as the table saw it with the
    screen ``s`` has in ``st``: the engine would have stopped at this step (it goes on by
    itself when only one choice is left), and the turn can be finished.  Public facts only,
    besides ``s``'s screen."""
    stage = st.stage
    if stage in (NONE, RECLAIM):
        # every reclaim was allowed only with a bid or use left to finish it
        return any(a[0] != "reclaim" for a in play.turn_actions(st, s))
    if stage in (BID, USE):
        return len(play.turn_actions(st, s)) > 1  # a single choice would have been made
    keys, skills = st.keys[s], st.skills[s]
    if stage == PAY_KEYPLE:
        colours = sum(1 for c in keys if c)
        return colours > 1 and sum(keys) >= st.pleft and sum(skills) >= st.pleft_s
    if stage == PAY_SKILL:
        kinds = sum(1 for k in skills if k)
        return kinds > 1 and sum(skills) >= st.pleft_s
    if stage == TRANSPORT:
        if st.ppts > 0 and not st.pupgraded and transport.movable(st, s):
            return True
        return st.pupg > 0 and upgrades.any_upgrade(st, s)
    return True  # a resource, a keyple from the bag, where to move: no screen involved


def determinize(st0: KeyflowerState, seat: Seat | None, seed: int) -> KeyflowerState:
    """A copy of ``st0`` in which what ``seat`` cannot see is resampled (module docstring)."""
    st = st0.clone()
    if st.phase == OVER:
        st.rng = Rng(derive_seed(seed, _RESEED_SALT))
        return st
    rng = Rng(derive_seed(seed, _DETERMINIZE_SALT))
    others = [s for s in range(st.n) if s != seat]
    busy = st.cur if st.phase == PLAY and st.stage != NONE and st.cur != seat else -1
    # the unknown part of each other screen, pooled with the bag / the skill supply (green is
    # always known: it never comes from a hidden draw)
    keyples, ksizes = _pool(st.keys, st.kknown, others, st.bag, 3)
    skills, ssizes = _pool(st.skills, st.sknown, others, st.sksup, 3)
    if busy >= 0:
        k, sk = _busy_screen(st, busy, keyples, ksizes[busy], skills, ssizes[busy], rng)
        for c in range(3):
            keyples[c] -= k[c]
            skills[c] -= sk[c]
        del ksizes[busy], ssizes[busy]
    st.bag = _deal(st.keys, ksizes, keyples, rng)
    st.sksup = _deal(st.skills, ssizes, skills, rng)
    _winter(st, seat, rng)
    if st.phase == PLACE:
        for s in range(st.n):
            if s == seat or not (st.pplaced[s] or st.psel[s] >= 0):
                continue
            tiles = [t for t, _, _ in st.pplaced[s]] + st.won[s]
            done = not st.won[s]
            st.pplaced[s] = []
            st.won[s] = sorted(tiles)
            st.psel[s] = -1
            if done:
                _random_placement(st, s, rng)
    st.rng = Rng(derive_seed(seed, _RESEED_SALT))
    st._dec = {}
    st._view = None
    return st


def _pool(
    screens: list[list[int]], known: list[list[int]], seats: list[int], supply: list[int], n: int
) -> tuple[list[int], dict[int, int]]:
    """Counts per kind of the unknown items of ``seats``' screens plus ``supply``, and how many
    each seat had; the screens are cut back to what is known."""
    pool = list(supply[:n])
    sizes: dict[int, int] = {}
    for s in seats:
        size = 0
        for c in range(n):
            u = screens[s][c] - known[s][c]
            pool[c] += u
            size += u
            screens[s][c] = known[s][c]
        sizes[s] = size
    return pool, sizes


def _deal(screens: list[list[int]], sizes: dict[int, int], pool: list[int], rng: Rng) -> list[int]:
    """Shuffle the pool (sorted first) and deal each seat its number of unknown items, in seat
    order; what is left is the new supply."""
    items = [c for c in range(len(pool)) for _ in range(pool[c])]
    rng.shuffle(items)
    for s, size in sizes.items():
        for c in items[:size]:
            screens[s][c] += 1
        del items[:size]
    return [items.count(c) for c in range(len(pool))]


def _busy_screen(
    st: KeyflowerState,
    s: int,
    keyples: list[int],
    ksize: int,
    skills: list[int],
    ssize: int,
    rng: Rng,
) -> tuple[list[int], list[int]]:
    """The unknown part of mid-turn seat ``s``'s screen (keyples, skill tiles), drawn from the
    pools given that its turn goes on (:func:`turn_goes_on`); ``s``'s screen is set to it."""
    kbase, sbase = st.keys[s][:], st.skills[s][:]
    kitems = [c for c in range(3) for _ in range(keyples[c])]
    sitems = [c for c in range(3) for _ in range(skills[c])]
    for _ in range(TRIES):
        k = _counts(rng.sample(kitems, ksize))
        sk = _counts(rng.sample(sitems, ssize))
        if _try(st, s, kbase, k, sbase, sk):
            return k, sk
    choices = [
        (weight, k, sk)
        for weight, k, sk in _weighed(keyples, ksize, skills, ssize)
        if _try(st, s, kbase, k, sbase, sk)
    ]
    assert choices, "the real screen passes, so some screen does"
    x = rng.randbelow(sum(w for w, _, _ in choices))
    for weight, k, sk in choices:
        if x < weight:
            _try(st, s, kbase, k, sbase, sk)
            return k, sk
        x -= weight
    raise AssertionError("unreachable")


def _counts(items: list[int]) -> list[int]:
    return [items.count(c) for c in range(3)]


def _try(
    st: KeyflowerState, s: int, kbase: list[int], k: list[int], sbase: list[int], sk: list[int]
) -> bool:
    """Give ``s`` this screen and tell whether its turn stands with it."""
    for c in range(3):
        st.keys[s][c] = kbase[c] + k[c]
        st.skills[s][c] = sbase[c] + sk[c]
    return turn_goes_on(st, s)


def _weighed(
    keyples: list[int], ksize: int, skills: list[int], ssize: int
) -> list[tuple[int, list[int], list[int]]]:
    """Every (keyples, skill tiles) a screen could hold, each with the number of ways to draw it
    from the pools (a product of binomials: drawing without replacement), in a fixed order."""
    out = []
    for k in _splits(keyples, ksize):
        wk = math.prod(math.comb(keyples[c], k[c]) for c in range(3))
        for sk in _splits(skills, ssize):
            ws = math.prod(math.comb(skills[c], sk[c]) for c in range(3))
            out.append((wk * ws, k, sk))
    return out


def _splits(pool: list[int], size: int) -> list[list[int]]:
    return [
        [a, b, size - a - b]
        for a in range(min(pool[0], size) + 1)
        for b in range(min(pool[1], size - a) + 1)
        if size - a - b <= pool[2]
    ]


def _winter(st: KeyflowerState, seat: Seat | None, rng: Rng) -> None:
    """Other seats' winter hands, pooled with the undealt winter tiles and dealt again keeping
    hand sizes; a committed but unrevealed winter choice is drawn again from the new hand."""
    hidden = [s for s in range(st.n) if s != seat and st.hands[s]]
    if not hidden:
        return
    wpool = sorted(st.wout + [t for s in hidden for t in st.hands[s]])
    rng.shuffle(wpool)
    for s in hidden:
        k = len(st.hands[s])
        st.hands[s] = sorted(wpool[:k])
        del wpool[:k]
        for t in st.hands[s]:
            st.where[t] = HAND
            st.holder[t] = s
        if st.wpick[s] is not None:
            hand = st.hands[s]
            size = 1 + rng.randbelow(len(hand))
            st.wpick[s] = tuple(sorted(rng.sample(hand, size)))
    st.wout = sorted(wpool)
    for t in st.wout:
        st.where[t] = OUT
        st.holder[t] = -1


def _random_placement(st: KeyflowerState, s: int, rng: Rng) -> None:
    """Place every tile ``s`` still has to place at random legal positions."""
    while st.won[s]:
        t = st.won[s][rng.randbelow(len(st.won[s]))]
        vil, rot, free = seasons.pending_village(st, s)
        spots = placements(vil, rot, t, free)
        h, r = spots[rng.randbelow(len(spots))]
        st.pplaced[s].append((t, h, r))
        st.won[s].remove(t)
    st.psel[s] = -1
