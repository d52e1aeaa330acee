"""Upgrades (KF §7.2, §7.3; D7, D8): tiles of the user's own village flipped to their upgraded side.

Each upgrade point of a transport use flips one tile, after all transport
(:mod:`~game.keyflower.transport`): a home or village tile of the seat's own village, not flipped
yet (not boats, summer boats, turn-order or winter tiles), the tile just used included (D7).
Resource costs are paid with resources lying on that tile — gold for any basic resource
(KF §7.3), ``any_resource`` with any kinds, any resource for any other with summer boat 3a —
and skill-tile costs from behind the screen; all of it goes back to the supply (D8).  Each tile
and each distinct payment is one action, ``("upgrade", tile, wood, stone, iron, gold, saw,
pickaxe, anvil)``.  Functions take the state as ``st``; only :func:`upgrade` changes it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.core.types import Action, Event
from game.keyflower.const import F_3A
from game.keyflower.supply import spend_skill
from game.keyflower.tiles import GOLD, RESOURCES, SKILLS, TILES, Cost

if TYPE_CHECKING:
    from game.keyflower.state import KeyflowerState


def resource_payments(have: list[int], cost: Cost, wild: bool) -> list[tuple[int, ...]]:
    """KF §7.2 (D8): every distinct way to pay ``cost``'s resources from ``have`` (wood, stone,
    iron, gold on the tile): gold stands for any basic resource, ``any_resource`` takes any
    kinds (gold included); with summer boat 3a (``wild``) any resource pays for any other."""
    need = cost.res
    total = need[0] + need[1] + need[2] + need[3] + cost.any_res
    if total == 0:
        return [(0, 0, 0, 0)]
    out: list[tuple[int, ...]] = []
    ranges = [range(min(have[k], total) + 1) for k in range(4)]
    for w in ranges[0]:
        for st_ in ranges[1]:
            for i in ranges[2]:
                g = total - w - st_ - i
                if g < 0 or g > have[3]:
                    continue
                if not wild:
                    short = sum(max(0, need[k] - (w, st_, i)[k]) for k in range(3))
                    if g < need[GOLD] + short:
                        continue
                out.append((w, st_, i, g))
    return out


def skill_payments(have: list[int], cost: Cost) -> list[tuple[int, ...]]:
    """KF §7.2: every distinct way to pay ``cost``'s skill tiles from the screen ``have``."""
    need = cost.skills
    extra = cost.any_skill
    if not extra:
        return [tuple(need)] if all(have[k] >= need[k] for k in range(3)) else []
    out: list[tuple[int, ...]] = []
    for a in range(extra + 1):
        for b in range(extra - a + 1):
            c = extra - a - b
            pay = (need[0] + a, need[1] + b, need[2] + c)
            if all(have[k] >= pay[k] for k in range(3)):
                out.append(pay)
    return out


def upgrade_actions(st: KeyflowerState, s: int, t: int) -> tuple[Action, ...]:
    """KF §7.2 (D7): the ``("upgrade", tile, *payment)`` actions with which ``s`` may flip ``t``
    now — a home or village tile of its own village, not flipped yet; resources from the tile
    itself, skills from the screen.  (A pure function of the tile, its resources, summer boat
    3a and the screen's skill tiles: kept, with the payments, in :data:`_UPGRADE_PAYS`.)"""
    return _payments(st, s, t)[1]


def can_upgrade(st: KeyflowerState, s: int, t: int) -> bool:
    """Whether ``s`` may flip ``t`` now (:func:`upgrade_actions` is not empty)."""
    return bool(_payments(st, s, t)[0])


def any_upgrade(st: KeyflowerState, s: int) -> bool:
    """Whether seat ``s`` can upgrade a tile of its village now (:func:`can_upgrade` of any),
    tiles with no upgrade skipped before the call."""
    side = st.side
    return any(
        not side[t] and UPGRADE_TOTAL[t] >= 0 and can_upgrade(st, s, t) for t in st.vil_order(s)
    )


_NO_PAYMENTS: tuple[tuple[tuple[int, ...], ...], tuple[Action, ...]] = ((), ())
#: Per tile: the resources its upgrade costs in all (fixed kinds and any), -1 if the tile
#: cannot be upgraded (:attr:`Tile.upgradable`).
UPGRADE_TOTAL: tuple[int, ...] = tuple(
    sum(t.cost.res) + t.cost.any_res if t.upgradable and t.cost is not None else -1 for t in TILES
)


def _payments(
    st: KeyflowerState, s: int, t: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[Action, ...]]:
    """(payments, actions) of :func:`upgrade_actions`.

    :func:`resource_payments` never looks past ``total`` (the cost's resources in all) of one
    kind on the tile, so the memo's key holds each count capped at ``total``: the same
    payments, met far more often."""
    total = UPGRADE_TOTAL[t]
    if total < 0 or st.side[t] or st.where[t] != s:
        return _NO_PAYMENTS
    b = t * 4
    res = st.res
    sk = st.skills[s]
    wild = st.flags[s] & F_3A
    r0, r1, r2, r3 = res[b], res[b + 1], res[b + 2], res[b + 3]
    key = (
        t,
        r0 if r0 < total else total,
        r1 if r1 < total else total,
        r2 if r2 < total else total,
        r3 if r3 < total else total,
        wild,
        sk[0],
        sk[1],
        sk[2],
    )
    got = _UPGRADE_PAYS.get(key)
    if got is None:
        if len(_UPGRADE_PAYS) >= 20_000:
            _UPGRADE_PAYS.clear()
        cost = TILES[t].cost
        assert cost is not None
        pays = resource_payments(res[b : b + 4], cost, bool(wild))
        skp = skill_payments(sk, cost) if pays else []
        every = tuple((*r, *k) for r in pays for k in skp)
        tid = TILES[t].id
        got = _UPGRADE_PAYS[key] = (every, tuple(("upgrade", tid, *pay) for pay in every))
    return got


#: :func:`_payments` by (tile, its four resources each capped at the cost's total, 3a, the
#: three skill counts).
_UPGRADE_PAYS: dict[tuple[int, ...], tuple[tuple[tuple[int, ...], ...], tuple[Action, ...]]] = {}


def upgrade(st: KeyflowerState, s: int, t: int, pay: tuple[int, ...], events: list[Event]) -> None:
    """KF §7.2 (D7, D8): flip ``t`` to its upgraded side; the resources paid leave the tile and
    the skill tiles the screen, all back to the supply."""
    b = t * 4
    for k in range(4):
        if pay[k]:
            st.res[b + k] -= pay[k]
            st.ressup[k] += pay[k]
    for k in range(3):
        if pay[4 + k]:
            spend_skill(st, s, k, pay[4 + k])
    st.side[t] = 1
    st.pupg -= 1
    st.pupgraded = True
    events.append(
        {
            "type": "upgrade",
            "seat": s,
            "tile": TILES[t].id,
            "paid": {
                **{RESOURCES[k]: pay[k] for k in range(4) if pay[k]},
                **{SKILLS[k]: pay[4 + k] for k in range(3) if pay[4 + k]},
            },
        }
    )
