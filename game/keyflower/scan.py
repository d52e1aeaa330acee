"""The first list of a turn, in one scan of the tiles (KF §5, §6.1–§6.3): the engine's hot path.

Every turn starts with the list of every bid and every use open to the seat (``play.turn_actions``).
:func:`scan_bids` and :func:`add_all_use_options` build it in one loop each over the bid tiles and
the use tiles, giving exactly what ``bids.bid_options`` / ``play.use_options`` give tile by tile
(``tests/keyflower/test_fast_paths.py``), from interned actions and memos that are pure functions
of their keys.  The per-face tables the rules read (:data:`SIDE_ACTION`, :data:`SIDE_OF`,
:data:`SIDE_PAYS`) live here too.  Functions take the state as ``st`` and never change it.
"""

from __future__ import annotations

from itertools import chain
from typing import TYPE_CHECKING

from game.core.types import Action
from game.keyflower.const import F_4A, F_4B, USE_ACT
from game.keyflower.tiles import COLOURS, GREEN, TILES, WINTER, Side

if TYPE_CHECKING:
    from game.keyflower.state import KeyflowerState

ALL_COLOURS = (0, 1, 2, 3)
#: The action side of every tile face: ``SIDE_ACTION[tile * 2 + side]`` (None: no action).
SIDE_ACTION: tuple[str | None, ...] = tuple(
    (t.sides[i].action if i < len(t.sides) else None) for t in TILES for i in range(2)
)


#: ``SIDE_OF[tile * 2 + side]``: the Side object (None past a tile's last side).
SIDE_OF: tuple[Side | None, ...] = tuple(
    (t.sides[i] if i < len(t.sides) else None) for t in TILES for i in range(2)
)
#: ``SIDE_PAYS[tile * 2 + side]``: whether using that side costs extra items (KF §6.3).
SIDE_PAYS: tuple[bool, ...] = tuple(bool(x is not None and x.pays) for x in SIDE_OF)


#: ``BID_ROWS[tile * 4 + colour][n]``: the interned ``("bid", tile, colour, n)``, grown as
#: larger screens meet the tile (:func:`bid_row`).
BID_ROWS: list[tuple[Action, ...]] = [() for _ in range(len(TILES) * 4)]


def bid_row(t: int, colour: int, most: int) -> tuple[Action, ...]:
    """The bid actions of ``t`` in ``colour`` for 0..at least ``most`` keyples."""
    tid, name = TILES[t].id, COLOURS[colour]
    size = max(most + 1, 16)
    row = tuple(("bid", tid, name, n) for n in range(size))
    BID_ROWS[t * 4 + colour] = row
    return row


def scan_bids(
    st: KeyflowerState, s: int, out: list[Action], limit: int
) -> tuple[list[int], list[int]]:
    """:func:`_bid_into` for every bid tile in one loop (the hot path of every turn's first
    list), appending the bids to ``out`` while it holds at most ``limit`` (a tile's bids go in
    whole: past ``limit`` the list is only too long); returns the tiles where ``s`` can bid
    and, as :func:`losing_bids`, those where its bid does not lead.  The bids of a tile with
    no keyple are a pure function of the screen, the colour fixed by reclaimed bids and
    whether any were reclaimed: they come from :data:`_FREE_BIDS`."""
    bidn = st.bidn
    bidc = st.bidc
    n = st.n
    precl = st.precl
    pcol = st.pcol
    k = st.pk
    floor = 0 if k else 1
    keys = st.keys[s]
    locks = st.lock
    any_4a = bool(st.flags[s] & F_4A)
    rows = BID_ROWS
    targets: list[int] = []
    losing: list[int] = []
    free_key = (pcol, floor, *keys)
    free = _FREE_BIDS.get(free_key)
    if free is None:
        if len(_FREE_BIDS) >= 5_000:
            _FREE_BIDS.clear()
        free = _FREE_BIDS[free_key] = {}
    for t in st.auction + st.tord:
        lock = locks[t]
        if lock < 0:
            # no keyple on the tile (D2: the lock is set by the first): any colour (or the
            # reclaimed bids' one), one keyple or more, the reclaimed ones included
            seg = free.get(t)
            if seg is None:
                seg = free[t] = _free_bids(t, pcol, floor, keys)
            if seg:
                targets.append(t)
                if len(out) <= limit:
                    out += seg
            continue
        base = t * 6
        mine = bidn[base + s]
        if mine:
            # the best other bid (bids are never negative: one's own counts as 0)
            others = bidn[base : base + n]
            others[s] = 0
            most_other = max(others)
            if most_other > mine:
                losing.append(t)
            col = bidc[base + s]
            if pcol >= 0 and pcol != col:
                continue
            least = most_other + 1 - k if t in precl else most_other + 1 - mine - k
        else:
            if not any_4a or lock == GREEN:
                # the lock's colour (D2): none of it behind the screen, no bid (the least bid
                # is ``floor`` or more)
                if pcol >= 0 and pcol != lock:
                    continue
                most = keys[lock]
                if most < floor:
                    continue
                least = max(bidn[base : base + n]) + 1 - k
                if least < floor:
                    least = floor
                if most >= least:
                    targets.append(t)
                    if len(out) <= limit:
                        row = rows[t * 4 + lock]
                        if len(row) <= most:
                            row = bid_row(t, lock, most)
                        out += row[least : most + 1]
                continue
            # summer boat 4a: any single colour (D15)
            least = max(bidn[base : base + n]) + 1 - k
            if least < floor:
                least = floor
            found = False
            for col in ALL_COLOURS if pcol < 0 else (pcol,):
                most = keys[col]
                if most >= least:
                    found = True
                    if len(out) > limit:
                        break
                    row = rows[t * 4 + col]
                    if len(row) <= most:
                        row = bid_row(t, col, most)
                    out += row[least : most + 1]
            if found:
                targets.append(t)
            continue
        if least < floor:
            least = floor
        most = keys[col]
        if most >= least:
            targets.append(t)
            if len(out) <= limit:
                row = rows[t * 4 + col]
                if len(row) <= most:
                    row = bid_row(t, col, most)
                out += row[least : most + 1]
    return targets, losing


def _free_bids(t: int, pcol: int, least: int, keys: list[int]) -> tuple[Action, ...]:
    """The bids at ``t`` while no keyple is on it: each colour (only ``pcol`` if set) from
    ``least`` keyples to the whole screen."""
    acts: list[Action] = []
    for col in ALL_COLOURS if pcol < 0 else (pcol,):
        most = keys[col]
        if most >= least:
            row = BID_ROWS[t * 4 + col]
            if len(row) <= most:
                row = bid_row(t, col, most)
            acts += row[least : most + 1]
    return tuple(acts)


#: The bids of a tile with no keyple on it, by (reclaimed colour, least count, the screen's
#: four counts), then tile: a pure function of the key, filled as met; cleared when large.
_FREE_BIDS: dict[tuple[int, ...], dict[int, tuple[Action, ...]]] = {}


PaySpec = tuple[tuple[tuple[int, int], ...], int, int, tuple[tuple[int, int], ...], int, int]


def _pay_cap(st: KeyflowerState, s: int, spec: PaySpec, colour: int) -> int:
    """The most keyples of ``colour`` ``s`` may place from the screen on a face paying ``spec``
    (its :data:`_PAY_CAP` entry) and still
    pay its extra items (KF §6.3; D3: never from a reclaimed bid), -1 if it cannot pay at all.
    :func:`can_pay` is monotone in the count (each payment needs a number of items left behind
    the screen), so the counts that can pay are exactly ``0..cap``."""
    fixed_k, any_k, fixed_total, fixed_s, any_s, fixed_s_total = spec
    sk = st.skills[s]
    for kind, need in fixed_s:
        if sk[kind] < need:
            return -1
    if any_s and sk[0] + sk[1] + sk[2] - fixed_s_total < any_s:
        return -1
    keys = st.keys[s]
    cap = 99
    for c, need in fixed_k:
        if c == colour:
            if keys[c] - need < cap:
                cap = keys[c] - need
        elif keys[c] < need:
            return -1
    if any_k:
        room = keys[0] + keys[1] + keys[2] + keys[3] - fixed_total - any_k
        if room < cap:
            cap = room
    return cap


def _pay_caps(st: KeyflowerState, s: int, spec: PaySpec) -> list[int]:
    """:func:`_pay_cap` for each colour, in one pass over the payment."""
    fixed_k, any_k, fixed_total, fixed_s, any_s, fixed_s_total = spec
    sk = st.skills[s]
    for kind, need in fixed_s:
        if sk[kind] < need:
            return [-1, -1, -1, -1]
    if any_s and sk[0] + sk[1] + sk[2] - fixed_s_total < any_s:
        return [-1, -1, -1, -1]
    keys = st.keys[s]
    room = keys[0] + keys[1] + keys[2] + keys[3] - fixed_total - any_k if any_k else 99
    out = [room, room, room, room]
    short = -1  # a fixed colour held short: every other colour cannot pay (two: none can)
    for c, need in fixed_k:
        have = keys[c] - need
        if have < out[c]:
            out[c] = have
        if have < 0:
            short = c if short == -1 else -2
    if short != -1:
        for col in ALL_COLOURS:
            if col != short:
                out[col] = -1
    return out


#: Per tile face (``tile * 2 + side``): the extra payment as (fixed keyples as (colour, n)
#: pairs, any keyples, fixed keyples in all, fixed skills as (kind, n) pairs, any skills,
#: fixed skills in all); faces that pay nothing hold ``None``.
_PAY_CAP: tuple[PaySpec | None, ...] = tuple(
    (
        tuple((c, v) for c, v in enumerate(x.pay_colours) if v),
        x.pay_any_keyple,
        sum(x.pay_colours),
        tuple((k, v) for k, v in enumerate(x.pay_skills) if v),
        x.pay_any_skill,
        sum(x.pay_skills),
    )
    if x is not None and x.pays
    else None
    for x in SIDE_OF
)


def add_all_use_options(st: KeyflowerState, s: int, out: list[Action]) -> None:
    """:func:`_add_use_options` for every tile of :func:`use_tiles`, in one loop (the hottest
    path of the engine: every turn's first list).  The counts of one colour at one tile are a
    run (from the ladder's least to the screen, the ladder's top or the payment's cap), taken
    as one slice of the interned actions; a tile open to every colour that costs nothing extra
    takes its whole list from :data:`_FREE_USES` by the screen's counts."""
    sides = st.side
    uses = st.uses
    locks = st.lock
    k = st.pk
    top = 3 - k
    pcol = st.pcol
    any_colour = st.flags[s] & F_4B
    keys = st.keys[s]
    # what each colour can place at most (the screen, the ladder's top)
    caps = (
        keys[0] if keys[0] < top else top,
        keys[1] if keys[1] < top else top,
        keys[2] if keys[2] < top else top,
        keys[3] if keys[3] < top else top,
    )
    free_cache = _FREE_USES.get(caps)
    if free_cache is None:
        free_cache = _FREE_USES[caps] = {}
    use_pay = _USE_PAY
    use_act = USE_ACT
    groups = st.vorder if st.season == WINTER else [st.auction, *st.vorder]
    if k == 0 and pcol < 0:
        # the first list of a turn (nothing reclaimed): the same loop without the reclaimed
        # keyples and colour; a face paying only skill tiles is free when they are there
        sk = st.skills[s]
        sk0, sk1, sk2 = sk
        skt = sk0 + sk1 + sk2
        fast_pay = _FAST_PAY
        for t in chain.from_iterable(groups):
            fpay = fast_pay[t * 2 + sides[t]]
            if fpay is None:
                continue
            us = uses.get(t)
            if us:
                first = us[-1][2] + 1
                if first > 3:
                    continue
            else:
                first = 1
            kspec: PaySpec | None = None
            if fpay:
                need0, need1, need2, need_all, kspec = fpay
                if sk0 < need0 or sk1 < need1 or sk2 < need2 or skt < need_all:
                    continue
            lock = locks[t]
            if lock >= 0 and not any_colour:
                last = caps[lock]
                if kspec is not None:
                    cap = _pay_cap(st, s, kspec, lock)
                    if cap < last:
                        last = cap
                if last >= first:
                    out += use_act[t][lock][first : last + 1]
                continue
            if kspec is None:
                got = free_cache.get(t * 4 + first)
                if got is None:
                    got = free_cache[t * 4 + first] = _free_uses(use_act[t], first, caps)
                out += got
                continue
            row = use_act[t]
            most = _pay_caps(st, s, kspec)
            for col in ALL_COLOURS:
                last = most[col]
                if last > caps[col]:
                    last = caps[col]
                if last >= first:
                    out += row[col][first : last + 1]
        return
    for t in chain.from_iterable(groups):
        i = t * 2 + sides[t]
        pay = use_pay[i]
        if pay is None:
            continue
        us = uses.get(t)
        lo = us[-1][2] + 1 if us else 1
        if k > lo:
            lo = k
        if lo > 3:
            continue
        first = lo - k
        lock = locks[t]
        # KF §6.2 colour rule: the lock (any colour on an empty tile or with 4b), narrowed to
        # the reclaimed bids' colour; -1: every colour
        if lock < 0 or any_colour:
            c = pcol
        elif pcol < 0 or pcol == lock:
            c = lock
        else:
            continue
        if not pay:
            if c >= 0:
                last = caps[c]
                if last >= first:
                    out += use_act[t][c][first : last + 1]
                continue
            got = free_cache.get(t * 4 + first)
            if got is None:
                got = free_cache[t * 4 + first] = _free_uses(use_act[t], first, caps)
            out += got
            continue
        row = use_act[t]
        if c >= 0:
            last = _pay_cap(st, s, pay, c)
            if last > caps[c]:
                last = caps[c]
            if last >= first:
                out += row[c][first : last + 1]
            continue
        most = _pay_caps(st, s, pay)
        for col in ALL_COLOURS:
            last = most[col]
            if last > caps[col]:
                last = caps[col]
            if last >= first:
                out += row[col][first : last + 1]


def _free_uses(
    row: tuple[tuple[Action, ...], ...], first: int, caps: tuple[int, ...]
) -> tuple[Action, ...]:
    """The uses of a tile open to every colour whose face costs nothing extra: each colour's
    counts from ``first`` to its cap, colour by colour (``row``: the tile's ``USE_ACT``)."""
    return (
        row[0][first : caps[0] + 1]
        + row[1][first : caps[1] + 1]
        + row[2][first : caps[2] + 1]
        + row[3][first : caps[3] + 1]
    )


#: The use actions of a tile open to every colour whose face costs nothing extra, by what each
#: colour can place at most (the screen, the ladder's top), then ``tile * 4 + least count from
#: the screen``: a pure function of the keys, filled as met (at most 29 tiles x 3 x 4^4).
_FREE_USES: dict[tuple[int, ...], dict[int, tuple[Action, ...]]] = {}
#: Per tile face (``tile * 2 + side``): None if it has no action, ``()`` if using it costs
#: nothing extra, else its :data:`_PAY_CAP` entry.
_USE_PAY: tuple[PaySpec | tuple[()] | None, ...] = tuple(
    None if SIDE_ACTION[i] is None else (_PAY_CAP[i] or ()) for i in range(len(SIDE_OF))
)


#: Per tile face: :data:`_USE_PAY` for a turn's first list: None if it has no action, ``()``
#: if using it costs nothing extra, else the least skill tiles of each kind and in all it needs
#: (KF §6.3: fixed ones, plus any), and its keyple payment alone (None if it pays none).
_FastPay = tuple[int, int, int, int, PaySpec | None]


def _fast_pay(spec: PaySpec) -> _FastPay:
    """A payment as :data:`_FAST_PAY` holds it."""
    fixed_k, any_k, fixed_total, fixed_s, any_s, fixed_s_total = spec
    need = [sum(v for k, v in fixed_s if k == kind) for kind in range(3)]
    keyples: PaySpec | None = (fixed_k, any_k, fixed_total, (), 0, 0) if fixed_k or any_k else None
    return need[0], need[1], need[2], fixed_s_total + any_s, keyples


_FAST_PAY: tuple[_FastPay | tuple[()] | None, ...] = tuple(
    None if SIDE_ACTION[i] is None else () if spec is None else _fast_pay(spec)
    for i, spec in enumerate(_PAY_CAP)
)
