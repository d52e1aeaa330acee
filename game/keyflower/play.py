"""The turns of a season: bid, use, pass, and every tile's effect (KF §4.2, §5, §6, §7).

A turn is built step by step (``docs/keyflower.md``, "Actions"):

1. ``("pass",)``, or ``("reclaim", tile)`` for each losing bid brought back (KF §5: all of its
   keyples, never part of a bid; several bids only of one colour), then
2. ``("bid", tile, colour, n)``: ``n`` more keyples of ``colour`` from behind the screen join
   the reclaimed ones at ``tile`` (KF §5 colour rule and raise), or ``("use", tile, colour,
   n)`` (KF §6.2 colour rule and ladder).  If the whole list would be longer than
   ``FLAT_LIMIT`` (a large screen at the start of a season), the tile is asked first —
   ``("bid_tile", tile)`` / ``("use_tile", tile)`` — and the flat actions for that tile next.
3. A use resolves the tile's current side (KF §6.3, §6.4): the white icons and the "any"
   payments ask ``("resource", kind)``, ``("keyple", colour)``, ``("pay_keyple", colour)``,
   ``("pay_skill", kind)`` when there is a real choice; a transport tile asks ``("move", tile,
   kind)`` + ``("move_to", tile)`` for each step, ``("upgrade", tile, w, s, i, g, saw, pickaxe,
   anvil)`` for each flip with its payment, and ``("done",)``.

A step inside a turn with a single possible answer (the only count a bid can take, the only
road out of a tile, a payment of the only kind held) is taken at once, without asking.  Every
listed action can be completed: a reclaim or a target is listed only if some way to finish the
turn with it exists.  Functions take the state as ``st`` and change it in place.

This module holds the uses (KF §6), the decision (:func:`turn_actions`) and the applying of
each step and each tile's effect; it builds on :mod:`~game.keyflower.bids` (KF §5),
:mod:`~game.keyflower.transport` (KF §7.1), :mod:`~game.keyflower.upgrades` (KF §7.2) and
:mod:`~game.keyflower.supply` (keyples, skill tiles and resources changing hands).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.core.types import Action, Event
from game.keyflower.bids import (
    bid_options,
    can_bid,
    place_bid,
    reclaim_and_spend,
    settle_locks,
)
from game.keyflower.const import (
    BID,
    BID_TILE_ACT,
    CHOOSE_KEYPLE,
    CHOOSE_RESOURCE,
    DONE,
    F_2A,
    F_2B,
    F_4B,
    FLAT_LIMIT,
    KEYPLE_ACT,
    MOVE_ACT,
    MOVE_TO,
    MOVE_TO_ACT,
    NONE,
    PASS,
    PAY_KEYPLE,
    PAY_KEYPLE_ACT,
    PAY_SKILL,
    PAY_SKILL_ACT,
    RECLAIM,
    RECLAIM_ACT,
    RESOURCE_ACT,
    TRANSPORT,
    USE,
    USE_ACT,
    USE_TILE_ACT,
)
from game.keyflower.scan import (
    ALL_COLOURS,
    SIDE_ACTION,
    SIDE_OF,
    SIDE_PAYS,
    add_all_use_options,
    scan_bids,
)
from game.keyflower.supply import (
    gain_keyples,
    green_to,
    produce_to,
    random_keyples_to,
    random_skills_to,
    spend_keyples,
    spend_skill,
    to_supply,
)
from game.keyflower.tiles import (
    BAG_COLOURS,
    CHOICE,
    COLOURS,
    EXCHANGE,
    INDEX,
    KEYPLES,
    PRODUCE,
    RESOURCES,
    SKILLS,
    SKILLTILES,
    TILES,
    WINTER,
    Side,
)
from game.keyflower.tiles import TRANSPORT as TRANSPORT_ACTION
from game.keyflower.transport import after_transport_step, movable, move_to
from game.keyflower.upgrades import UPGRADE_TOTAL, upgrade, upgrade_actions
from game.keyflower.village import transport_neighbours

if TYPE_CHECKING:
    from game.keyflower.state import KeyflowerState


def side_of(st: KeyflowerState, t: int) -> Side:
    """The side ``t`` shows now."""
    return TILES[t].sides[st.side[t]]


# ---- uses -----------------------------------------------------------------------------------
def use_colours(st: KeyflowerState, s: int, t: int) -> tuple[int, ...]:
    """KF §6.2 colour rule for a use: the lock colour (any on a tile with no keyples); with
    summer boat 4b any single colour (the lock stays)."""
    lock = st.lock[t]
    if lock < 0 or st.flags[s] & F_4B:
        return ALL_COLOURS
    return (lock,)


def last_use(st: KeyflowerState, t: int) -> int:
    """Keyples placed by the previous use of ``t`` this season (0 if none)."""
    us = st.uses.get(t)
    return us[-1][2] if us else 0


def can_pay(st: KeyflowerState, s: int, side: Side, colour: int, n: int) -> bool:
    """KF §6.3: after placing ``n`` keyples of ``colour`` from the screen, can ``s`` still pay
    the exchange's extra items from behind the screen?  (D3: never from a reclaimed bid.)"""
    keys = st.keys[s]
    fixed = 0
    for c, need in _PAY_SPEC[id(side)][0]:
        if keys[c] - (n if c == colour else 0) < need:
            return False
        fixed += need
    any_k = side.pay_any_keyple
    if any_k and keys[0] + keys[1] + keys[2] + keys[3] - n - fixed < any_k:
        return False
    sk = st.skills[s]
    fixed = 0
    for k, need in _PAY_SPEC[id(side)][1]:
        if sk[k] < need:
            return False
        fixed += need
    any_s = side.pay_any_skill
    return not any_s or sk[0] + sk[1] + sk[2] - fixed >= any_s


#: Per exchange side (by ``id``): its fixed keyple and skill payments as (kind, count) pairs.
_PAY_SPEC: dict[int, tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]] = {
    id(x): (
        tuple((c, v) for c, v in enumerate(x.pay_colours) if v),
        tuple((k, v) for k, v in enumerate(x.pay_skills) if v),
    )
    for t in TILES
    for x in t.sides
}


def use_range(st: KeyflowerState, s: int, t: int) -> tuple[int, int]:
    """(least, most) keyples a use of ``t`` may place in all (KF §6.2: more than the previous
    use, at most 3; all reclaimed keyples are placed)."""
    return max(last_use(st, t) + 1, st.pk, 1), 3


def use_counts(st: KeyflowerState, s: int, t: int, colour: int) -> list[int]:
    """The numbers ``n`` of screen keyples of ``colour`` a use of ``t`` may add."""
    lo, hi = use_range(st, s, t)
    k = st.pk
    have = st.keys[s][colour]
    i = t * 2 + st.side[t]
    side = SIDE_OF[i]
    pays = SIDE_PAYS[i]
    out = []
    for m in range(lo, hi + 1):
        n = m - k
        if n > have:
            break
        if not pays or can_pay(st, s, side, colour, n):  # type: ignore[arg-type]
            out.append(n)
    return out


def can_use(st: KeyflowerState, s: int, t: int) -> bool:
    """Whether ``s`` can finish a use of ``t`` now (KF §6.1, §6.2, §6.3)."""
    if SIDE_ACTION[t * 2 + st.side[t]] is None:
        return False
    us = st.uses.get(t)
    last = us[-1][2] if us else 0
    k = st.pk
    lo = max(last + 1, k, 1)
    if lo > 3:
        return False
    c = st.pcol
    cols = use_colours(st, s, t)
    if c >= 0:
        if c not in cols:
            return False
        cols = (c,)
    keys = st.keys[s]
    i = t * 2 + st.side[t]
    side = SIDE_OF[i]
    pays = SIDE_PAYS[i]
    for col in cols:
        n = lo - k
        if n <= keys[col] and (not pays or can_pay(st, s, side, col, n)):  # type: ignore[arg-type]
            return True
    return False


def use_options(st: KeyflowerState, s: int, t: int) -> list[Action]:
    """Every ``("use", tile, colour, n)`` open to ``s`` at ``t`` (KF §6.1–§6.3): a colour the
    colour rule allows, ``n`` more keyples from the screen so that all placed (with the
    reclaimed ones) are more than the previous use and at most 3, and the extra cost payable.
    At most 12 per tile, and only 29 tiles of the box have an action, so the list stays short."""
    out: list[Action] = []
    _add_use_options(st, s, t, out)
    return out


def _add_use_options(st: KeyflowerState, s: int, t: int, out: list[Action]) -> None:
    """:func:`use_options` appended to ``out`` (the hot path of every turn's first list)."""
    i = t * 2 + st.side[t]
    if SIDE_ACTION[i] is None:
        return
    us = st.uses.get(t)
    lo = us[-1][2] + 1 if us else 1
    k = st.pk
    if k > lo:
        lo = k
    if lo > 3:
        return
    lock = st.lock[t]
    pcol = st.pcol
    free = lock < 0 or st.flags[s] & F_4B
    if pcol >= 0:
        if not free and lock != pcol:
            return
        cols: tuple[int, ...] = (pcol,)
    else:
        cols = ALL_COLOURS if free else (lock,)
    keys = st.keys[s]
    row = USE_ACT[t]
    pays = SIDE_PAYS[i]
    side = SIDE_OF[i]
    for c in cols:
        have = keys[c]
        rc = row[c]
        for m in range(lo, 4):
            n = m - k
            if n > have:
                break
            if pays and not can_pay(st, s, side, c, n):  # type: ignore[arg-type]
                continue
            out.append(rc[n])


def use_tiles(st: KeyflowerState) -> list[int]:
    """KF §6.1: the tiles that may be used this season: the auction tiles (not in winter: winter
    tiles have no action) and every village tile, in a fixed order."""
    out = [] if st.season == WINTER else list(st.auction)
    for s in range(st.n):
        out.extend(st.vil_order(s))
    return out


# ---- the decision --------------------------------------------------------------------------
def _target_exists(st: KeyflowerState, s: int) -> bool:
    for t in st.bid_tiles():
        if can_bid(st, s, t):
            return True
    return any(can_use(st, s, t) for t in use_tiles(st))


def _reclaim_ok(st: KeyflowerState, s: int, t: int) -> bool:
    """Whether bringing back the losing bid at ``t`` still lets the turn be finished."""
    saved = st.precl, st.pcol, st.pk
    st.precl = (*st.precl, t)
    st.pcol = st.bidc[t * 6 + s]
    st.pk = saved[2] + st.bidn[t * 6 + s]
    ok = _target_exists(st, s)
    st.precl, st.pcol, st.pk = saved
    return ok


def turn_actions(st: KeyflowerState, s: int) -> list[Action]:
    """The legal actions of ``s`` in the current stage of its turn (in PLAY)."""
    stage = st.stage
    if stage in (NONE, RECLAIM):
        acts: list[Action] = [PASS] if stage == NONE else []
        bids: list[Action] = []
        bid_targets, losing = scan_bids(st, s, bids, FLAT_LIMIT)
        for t in losing:
            if t in st.precl:
                continue
            if st.pcol >= 0 and st.bidc[t * 6 + s] != st.pcol:
                continue
            if _reclaim_ok(st, s, t):
                acts.append(RECLAIM_ACT[t])
        head = len(acts)
        room = FLAT_LIMIT - head
        if len(bids) <= room:
            # the uses go straight after the head, the bids after them if it all fits
            add_all_use_options(st, s, acts)
            if len(acts) - head + len(bids) <= room:
                acts += bids
                return acts
            uses = acts[head:]
            del acts[head:]
        else:
            uses = []
            add_all_use_options(st, s, uses)
        # too long to list flat: the tile first (E1).  A tile can be used exactly when it has a
        # use action (can_use: a payment possible with more keyples placed is possible with
        # fewer, so the least count decides), in the order of use_tiles
        acts.extend(USE_TILE_ACT[INDEX[tid]] for tid in dict.fromkeys(a[1] for a in uses))
        acts.extend(BID_TILE_ACT[t] for t in bid_targets)
        return acts
    t = st.ptile
    if stage == BID:
        return bid_options(st, s, t)
    if stage == USE:
        return use_options(st, s, t)
    if stage == PAY_KEYPLE:
        return [PAY_KEYPLE_ACT[c] for c in ALL_COLOURS if st.keys[s][c] > 0]
    if stage == PAY_SKILL:
        return [PAY_SKILL_ACT[k] for k in range(3) if st.skills[s][k] > 0]
    if stage == CHOOSE_RESOURCE:
        return [RESOURCE_ACT[r] for r in side_of(st, t).choice[1] if st.ressup[r] > 0]
    if stage == CHOOSE_KEYPLE:
        return [KEYPLE_ACT[c] for c in BAG_COLOURS if st.bag[c] > 0]
    if stage == TRANSPORT:
        acts = []
        if st.ppts > 0 and not st.pupgraded:
            for t2, kind in movable(st, s):
                acts.append(MOVE_ACT[t2][kind])
        if st.pupg > 0:
            side = st.side
            for t2 in st.vil_order(s):
                if not side[t2] and UPGRADE_TOTAL[t2] >= 0:  # (the rest has no upgrade)
                    acts += upgrade_actions(st, s, t2)
        acts.append(DONE)
        return acts
    if stage == MOVE_TO:
        vil = st.vil[s]
        h = st.hexof[st.pfrom]
        return [
            MOVE_TO_ACT[vil[x]]
            for x in transport_neighbours(vil, st.rot, h, bool(st.flags[s] & F_2A))
        ]
    raise AssertionError(f"unknown stage {stage}")


# ---- applying ----------------------------------------------------------------------------
def apply_turn(st: KeyflowerState, s: int, action: Action) -> list[Event]:
    """Apply one legal step of ``s``'s turn."""
    kind = action[0]
    events: list[Event] = []
    if kind == "use":
        st.ptile = st.tile_of(action[1])
        _place_use(st, s, COLOURS.index(action[2]), action[3], events)
        _effect(st, s, events)
    elif kind == "bid":
        st.ptile = st.tile_of(action[1])
        place_bid(st, s, COLOURS.index(action[2]), action[3], events)
        st.end_turn(events)
    elif kind == "pass":
        st.passes += 1
        events.append({"type": "pass", "seat": s})
        st.end_turn(events, passed=True)
    elif kind == "reclaim":
        t = st.tile_of(action[1])
        st.precl = (*st.precl, t)
        st.pcol = st.bidc[t * 6 + s]
        st.pk += st.bidn[t * 6 + s]
        st.stage = RECLAIM
        events.append(
            {
                "type": "reclaim",
                "seat": s,
                "tile": action[1],
                "keyples": st.bidn[t * 6 + s],
                "colour": COLOURS[st.pcol],
            }
        )
    elif kind == "bid_tile":
        st.ptile = st.tile_of(action[1])
        st.stage = BID
        only = turn_actions(st, s)
        if len(only) == 1:  # a forced count is no decision: place it at once
            place_bid(st, s, COLOURS.index(only[0][2]), only[0][3], events)
            st.end_turn(events)
        else:
            st.keep_decision(s, only)
    elif kind == "use_tile":
        st.ptile = st.tile_of(action[1])
        st.stage = USE
        only = turn_actions(st, s)
        if len(only) == 1:  # a forced colour and count is no decision: place it at once
            _place_use(st, s, COLOURS.index(only[0][2]), only[0][3], events)
            _effect(st, s, events)
        else:
            st.keep_decision(s, only)
    elif kind == "pay_keyple":
        pay_any_keyple(st, s, COLOURS.index(action[1]), events)
        _exchange_continue(st, s, events)
    elif kind == "pay_skill":
        pay_any_skill(st, s, SKILLS.index(action[1]), events)
        _exchange_continue(st, s, events)
    elif kind == "resource":
        r = RESOURCES.index(action[1])
        _choose_resource(st, s, r, events)
    elif kind == "keyple":
        c = COLOURS.index(action[1])
        _choose_keyple(st, s, c, events)
    elif kind == "move":
        st.pfrom = st.tile_of(action[1])
        st.pkind = RESOURCES.index(action[2])
        st.stage = MOVE_TO
        only = turn_actions(st, s)
        if len(only) == 1:  # one road out: no decision
            move_to(st, s, st.tile_of(only[0][1]), events)
        else:
            st.keep_decision(s, only)
    elif kind == "move_to":
        move_to(st, s, st.tile_of(action[1]), events)
    elif kind == "upgrade":
        upgrade(st, s, st.tile_of(action[1]), action[2:9], events)
        after_transport_step(st, s, events)
    elif kind == "done":
        events.append({"type": "done", "seat": s})
        st.end_turn(events)
    else:  # pragma: no cover - is_legal filtered it
        raise AssertionError(kind)
    return events


def _place_use(st: KeyflowerState, s: int, colour: int, n: int, events: list[Event]) -> None:
    """KF §6.2: the keyples go on the tile (they stay there until the end of the season)."""
    t = st.ptile
    reclaim_and_spend(st, s, colour, n)
    m = st.pk + n
    st.uses[t] = (*st.uses.get(t, ()), (s, colour, m))
    settle_locks(st, t, colour)
    events.append(
        {
            "type": "use",
            "seat": s,
            "tile": TILES[t].id,
            "side": side_of(st, t).face,
            "colour": COLOURS[colour],
            "keyples": m,
            "added": n,
            "reclaimed": [TILES[b].id for b in st.precl] if st.precl else [],
        }
    )


def _effect(st: KeyflowerState, s: int, events: list[Event]) -> None:
    """KF §6.3/§6.4: the used side's effect, step by step where there is a real choice."""
    t = st.ptile
    side = side_of(st, t)
    act = side.action
    if act == PRODUCE:
        produce_to(st, s, t, side.produce, events)
        st.end_turn(events)
    elif act == CHOICE:
        st.pleft = side.choice[0]
        st.stage = CHOOSE_RESOURCE
        _choose_resource(st, s, -1, events)
    elif act == KEYPLES:
        if side.random_keyples:
            random_keyples_to(st, s, side.random_keyples, TILES[t].id, events)
        if side.green:
            green_to(st, s, side.green, events)
        if side.choice_keyples:
            st.pleft = side.choice_keyples
            st.stage = CHOOSE_KEYPLE
            _choose_keyple(st, s, -1, events)
        else:
            st.end_turn(events)
    elif act == SKILLTILES:
        random_skills_to(st, s, side.random_skills, TILES[t].id, events)
        st.end_turn(events)
    elif act == EXCHANGE:
        _exchange_pay(st, s, side, events)
    elif act == TRANSPORT_ACTION:
        mult = 2 if st.flags[s] & F_2B else 1
        st.ppts = side.transport * mult
        st.pupg = side.upgrade * mult
        st.pupgraded = False
        st.stage = TRANSPORT
        events.append(
            {
                "type": "transport",
                "seat": s,
                "tile": TILES[t].id,
                "transport": st.ppts,
                "upgrades": st.pupg,
            }
        )
        after_transport_step(st, s, events)
    else:  # pragma: no cover - can_use refuses sides without action
        raise AssertionError(f"{TILES[t].id} has no action")


def _exchange_pay(st: KeyflowerState, s: int, side: Side, events: list[Event]) -> None:
    """KF §6.3: pay the fixed items from the screen, then the 'any' ones (asked only when
    there is a real choice), then take the gain."""
    paid_k: list[str] = []
    paid_s: list[str] = []
    for c in ALL_COLOURS:
        for _ in range(side.pay_colours[c]):
            spend_keyples(st, s, c, 1)
            to_supply(st, c, 1)
            paid_k.append(COLOURS[c])
    for k in range(3):
        if side.pay_skills[k]:
            spend_skill(st, s, k, side.pay_skills[k])
            paid_s.extend([SKILLS[k]] * side.pay_skills[k])
    if paid_k or paid_s:
        events.append({"type": "pay", "seat": s, "keyples": paid_k, "skills": paid_s})
    st.pleft = side.pay_any_keyple
    st.pleft_s = side.pay_any_skill
    _exchange_continue(st, s, events)


def pay_any_keyple(st: KeyflowerState, s: int, colour: int, events: list[Event]) -> None:
    """Return one keyple of ``colour`` for an 'any keyple' cost (D10: to the bag or the green
    supply)."""
    spend_keyples(st, s, colour, 1)
    to_supply(st, colour, 1)
    st.pleft -= 1
    events.append({"type": "pay", "seat": s, "keyples": [COLOURS[colour]], "skills": []})


def pay_any_skill(st: KeyflowerState, s: int, kind: int, events: list[Event]) -> None:
    """Return one skill tile of ``kind`` for an 'any skill' cost (D10: back to the supply)."""
    spend_skill(st, s, kind, 1)
    st.pleft_s -= 1
    events.append({"type": "pay", "seat": s, "keyples": [], "skills": [SKILLS[kind]]})


def _exchange_continue(st: KeyflowerState, s: int, events: list[Event]) -> None:
    """Pay what is still owed ('any' items of a forced kind are paid without asking), then
    take the exchange's gain (KF §6.3) and end the turn."""
    keys = st.keys[s]
    while st.pleft > 0:
        have = [c for c in ALL_COLOURS if keys[c] > 0]
        if len(have) != 1:
            st.stage = PAY_KEYPLE
            return
        pay_any_keyple(st, s, have[0], events)
    sk = st.skills[s]
    while st.pleft_s > 0:
        have = [k for k in range(3) if sk[k] > 0]
        if len(have) != 1:
            st.stage = PAY_SKILL
            return
        pay_any_skill(st, s, have[0], events)
    t = st.ptile
    side = side_of(st, t)
    if any(side.produce):
        produce_to(st, s, t, side.produce, events)
    if side.green:
        green_to(st, s, side.green, events)
    if side.random_keyples:
        random_keyples_to(st, s, side.random_keyples, TILES[t].id, events)
    if side.random_skills:
        random_skills_to(st, s, side.random_skills, TILES[t].id, events)
    st.end_turn(events)


def _choose_resource(st: KeyflowerState, s: int, r: int, events: list[Event]) -> None:
    """The white resource icon (D9: wood, stone or iron); forced choices need no action."""
    t = st.ptile
    kinds = side_of(st, t).choice[1]
    dest = t if st.where[t] == s else st.home[s]
    while st.pleft > 0:
        if r < 0:
            have = [k for k in kinds if st.ressup[k] > 0]
            if len(have) > 1:
                return
            if not have:
                break
            r = have[0]
        st.ressup[r] -= 1
        st.res[dest * 4 + r] += 1
        events.append(
            {"type": "produce", "seat": s, "tile": TILES[dest].id, "resources": {RESOURCES[r]: 1}}
        )
        st.pleft -= 1
        r = -1
    st.end_turn(events)


def _choose_keyple(st: KeyflowerState, s: int, c: int, events: list[Event]) -> None:
    """The white keyple icon: a keyple of the chosen colour from the bag (seen by all)."""
    while st.pleft > 0:
        if c < 0:
            have = [x for x in BAG_COLOURS if st.bag[x] > 0]
            if len(have) > 1:
                return
            if not have:
                break
            c = have[0]
        st.bag[c] -= 1
        gain_keyples(st, s, c, 1)
        events.append({"type": "gain_keyple", "seat": s, "colour": COLOURS[c]})
        st.pleft -= 1
        c = -1
    st.end_turn(events)
