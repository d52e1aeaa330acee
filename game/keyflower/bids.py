"""Bids (KF §5): who leads a tile, which bids lose, the tile's lock colour, and placing a bid.

A bid puts keyples of one colour beside an auction or turn-order tile.  Colour rule: your own
bid there fixes the colour, else the tile's lock colour (any colour on a tile with no keyples;
summer boat 4a: any single colour unless the lock is green, D15).  The lock is one per tile,
shared with uses (KF §6.2), set by the first keyples placed and changed only when none of its
colour is left (D2).  Raise: your total there must beat every other bid, so ties cannot occur.
Losing bids may be brought back, whole, into this turn's one bid or use (KF §5 "Reusing outbid
keyples", D3): the state holds them as ``st.precl`` / ``st.pcol`` / ``st.pk`` while the turn is
built (:mod:`~game.keyflower.play`).  The first list of a turn takes its bids from
:func:`~game.keyflower.scan.scan_bids`, equal to :func:`bid_options` tile by tile.  Functions
take the state as ``st``; :func:`fix_lock` and :func:`place_bid` change it in place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.core.types import Action, Event
from game.keyflower.const import F_4A
from game.keyflower.scan import ALL_COLOURS, BID_ROWS, bid_row
from game.keyflower.supply import spend_keyples
from game.keyflower.tiles import COLOURS, GREEN, TILES

if TYPE_CHECKING:
    from game.keyflower.state import KeyflowerState


def top_bid(st: KeyflowerState, t: int) -> tuple[int, int]:
    """(seat, keyples) of the leading bid at ``t`` ((-1, 0) if nobody bid).  Ties cannot occur
    (KF §5 raise), so the leader is unique."""
    base = t * 6
    bidn = st.bidn
    best, most = -1, 0
    for s in range(st.n):
        c = bidn[base + s]
        if c > most:
            best, most = s, c
    return best, most


def best_other(st: KeyflowerState, t: int, s: int) -> int:
    """The largest bid of any other seat at ``t`` (0 if none)."""
    base = t * 6
    bidn = st.bidn
    most = 0
    for o in range(st.n):
        if o != s and bidn[base + o] > most:
            most = bidn[base + o]
    return most


def losing_bids(st: KeyflowerState, s: int) -> list[int]:
    """KF §5: the tiles where ``s`` has a bid that does not lead (it may be brought back)."""
    out = []
    bidn = st.bidn
    for t in st.bid_tiles():
        mine = bidn[t * 6 + s]
        if mine and best_other(st, t, s) > mine:
            out.append(t)
    return out


def keyples_at(st: KeyflowerState, t: int, colour: int) -> bool:
    """Whether any keyple of ``colour`` is at ``t`` (in a bid or a use)."""
    base = t * 6
    for s in range(st.n):
        if st.bidn[base + s] and st.bidc[base + s] == colour:
            return True
    return any(c == colour for _, c, _ in st.uses.get(t, ()))


def fix_lock(st: KeyflowerState, t: int) -> None:
    """D2: a tile's lock colour is set by the first keyples placed there and changes only when
    no keyple of that colour is left (after a 4a bid whose rivals were brought back): it then
    becomes the colour of the leading bid."""
    lock = st.lock[t]
    has_bid = max(st.bidn[t * 6 : t * 6 + st.n]) > 0
    us = st.uses.get(t, ())
    if not has_bid and not us:
        st.lock[t] = -1
    elif lock >= 0 and keyples_at(st, t, lock):
        return
    elif has_bid:
        leader, _ = top_bid(st, t)
        st.lock[t] = st.bidc[t * 6 + leader]
    else:
        st.lock[t] = us[0][1]


def bid_colours(st: KeyflowerState, s: int, t: int, own_colour: int) -> tuple[int, ...]:
    """KF §5 colour rule for a bid at ``t`` by ``s`` (before a colour fixed by reclaimed bids):
    your own bid there fixes its colour; else the tile's lock colour, any colour on a tile with
    no keyples, and with summer boat 4a any single colour unless the lock is green (D15)."""
    if own_colour >= 0:
        return (own_colour,)
    lock = st.lock[t]
    if lock < 0 or (lock != GREEN and st.flags[s] & F_4A):
        return ALL_COLOURS
    return (lock,)


def _own_bid(st: KeyflowerState, s: int, t: int) -> tuple[int, int]:
    """(keyples, colour) of ``s``'s standing bid at ``t`` that stays there this turn (a bid
    brought back this turn is part of the reclaimed keyples: (0, its colour))."""
    i = t * 6 + s
    if t in st.precl:
        return 0, st.bidc[i]
    n = st.bidn[i]
    return n, (st.bidc[i] if n else -1)


def bid_range(st: KeyflowerState, s: int, t: int, colour: int) -> tuple[int, int]:
    """(least, most) keyples of ``colour`` from the screen a bid at ``t`` may add to the
    reclaimed ones (least > most: impossible).  KF §5: your total there must beat every other
    bid; at least one keyple is placed."""
    own, _ = _own_bid(st, s, t)
    k = st.pk
    need = best_other(st, t, s) + 1 - own - k
    least = max(need, 0 if k else 1)
    return least, st.keys[s][colour]


def bid_options(st: KeyflowerState, s: int, t: int) -> list[Action]:
    """Every ``("bid", tile, colour, n)`` open to ``s`` at ``t`` (KF §5)."""
    out: list[Action] = []
    _bid_into(st, s, t, out)
    return out


def can_bid(st: KeyflowerState, s: int, t: int) -> bool:
    """Whether ``s`` can finish a bid at ``t`` (with the keyples reclaimed so far)."""
    return _bid_into(st, s, t, None)


def _bid_into(st: KeyflowerState, s: int, t: int, out: list[Action] | None) -> bool:
    """KF §5 for one tile: the colour rule (your own bid's colour, else the lock, any on an
    empty tile, 4a), the raise (your total beats every other bid) and at least one keyple
    placed; the bids are appended to ``out`` (if given).  Returns whether any bid exists."""
    base = t * 6
    bidn = st.bidn
    mine = bidn[base + s]
    if mine:  # (a read never changes the state, even for a moment: no zeroing of one's own)
        most_other = max(0, *bidn[base : base + s], *bidn[base + s + 1 : base + st.n])
    else:
        most_other = max(bidn[base : base + st.n])
    if mine and t in st.precl:
        own, own_col = 0, st.bidc[base + s]
    else:
        own = mine
        own_col = st.bidc[base + s] if own else -1
    c = st.pcol
    if own_col >= 0:
        if c >= 0 and c != own_col:
            return False
        cols: tuple[int, ...] = (own_col,)
    else:
        # KF §5 colour rule (bid_colours): the lock; any colour on an empty tile or with 4a
        lock = st.lock[t]
        if lock < 0 or (lock != GREEN and st.flags[s] & F_4A):
            cols = ALL_COLOURS
        else:
            cols = (lock,)
        if c >= 0:
            if c not in cols:
                return False
            cols = (c,)
    k = st.pk
    least = most_other + 1 - own - k
    floor = 0 if k else 1
    if least < floor:
        least = floor
    keys = st.keys[s]
    ok = False
    for col in cols:
        most = keys[col]
        if most >= least:
            ok = True
            if out is None:
                break
            row = BID_ROWS[t * 4 + col]
            if len(row) <= most:
                row = bid_row(t, col, most)
            out += row[least : most + 1]
    return ok


def reclaim_and_spend(st: KeyflowerState, s: int, colour: int, n: int) -> None:
    """The seat's bids on the tiles it reclaimed keyples from are gone (they move with the
    keyples), and ``n`` keyples of ``colour`` leave its screen (KF §5, §6.2)."""
    for b in st.precl:
        st.bidn[b * 6 + s] = 0
        st.bidc[b * 6 + s] = -1
    spend_keyples(st, s, colour, n)


def settle_locks(st: KeyflowerState, t: int, colour: int) -> None:
    """After keyples of ``colour`` went on tile ``t``: an unlocked tile takes their colour,
    and the tiles they came from (and ``t``, unless its lock's colour was just placed, so it
    stays) have their lock checked again (KF §5, §6.2)."""
    if st.lock[t] < 0:
        st.lock[t] = colour
    for b in st.precl:
        fix_lock(st, b)
    if st.lock[t] != colour:
        fix_lock(st, t)


def place_bid(st: KeyflowerState, s: int, colour: int, n: int, events: list[Event]) -> None:
    """KF §5: the reclaimed keyples and ``n`` from the screen make (or raise) ``s``'s bid."""
    t = st.ptile
    i = t * 6 + s
    own = 0 if t in st.precl else st.bidn[i]
    reclaim_and_spend(st, s, colour, n)
    st.bidn[i] = own + st.pk + n
    st.bidc[i] = colour
    settle_locks(st, t, colour)
    events.append(
        {
            "type": "bid",
            "seat": s,
            "tile": TILES[t].id,
            "colour": COLOURS[colour],
            "keyples": st.bidn[i],
            "added": n,
            "reclaimed": [TILES[b].id for b in st.precl] if st.precl else [],
        }
    )
