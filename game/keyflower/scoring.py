"""Final scoring (KF §13) with the best assignment of items to bonuses (D20, D23, D24, D26).

Steps, per seat:

0. Flipper (D17, D26): the engine flips the one tile (an unflipped home or village tile to its
   upgraded side, or a summer boat to its other face) that gives the best total — or none.
1. The pool: keyples and skill tiles behind the screen, every resource lying on the village
   tiles except the storage tiles (Barn, Blacksmith, Stone Yard, Timber Yard), which keep
   theirs (D19); the purple keyple if held.
2. ``tiles``: printed VP of every village tile's current side (home tile, boats included).
3. ``turn_order`` (winter turn-order tiles: 1 VP per adjacent tile, D25) and ``boats``
   (Keyflower, Sea Bastion, Sea Breeze; White Wind comes with the assignment).
4. ``storage``: resources on storage tiles of accepted kinds × the tile's rate (D18: gold counts
   as any basic resource; with summer boat 3b every resource counts).
5./6. The assignment: winter tiles and White Wind take items from the pool, each item counting
   for one bonus at most; unassigned gold scores 1 VP (``gold``); the purple keyple stands for
   one keyple, resource (in the pool or on an accepting storage tile) or skill tile.

**The assignment solver.**  Keyples, resources and skill tiles never compete with each other,
so each family is solved on its own (and the purple keyple tried in each of its roles).  Every
bonus has one of four shapes, read from the data: *fixed* (Keythedral), *set* of listed kinds
(Craftsmen's Guild, Mercers' Guild, Scribes; a one-kind set such as Key Market or Jeweller is a
per-item value), *same* (Village Hall, Watermill, Scholars: items of one chosen kind), *group*
of N items of any kinds (Apothecary, Windmill, Key Guild).  For each number of sets and each
chosen "same" kind, every leftover item has a best single value (unassigned, one-kind set or
"same"), and the best number of groups takes the cheapest leftovers — exact, because after the
sets are fixed the items of one kind are interchangeable.  Gold stands for wood, stone or iron
(D18): sets use the real kind first and gold for the shortfall (never worse: gold can do
everything wood can).  With summer boat 3b every resource is wild (treated as gold, D24).
``tests/keyflower/test_scoring.py`` checks the solver against brute force on small pools.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import mul
from typing import TYPE_CHECKING, Any

from game.keyflower.const import F_2B, F_3B, FLAG_OF
from game.keyflower.tiles import (
    BOAT,
    COLOURS,
    HOME,
    RESOURCES,
    SCORING,
    SKILLS,
    STORAGE,
    SUMMER_BOAT,
    TILES,
    TRANSPORT,
    TURN_ORDER,
    VILLAGE,
    WINTER_TILE,
    Side,
)
from game.keyflower.village import adjacent_tiles, best_road_loop, river_chain

if TYPE_CHECKING:
    from game.keyflower.state import KeyflowerState

CATEGORIES = ("tiles", "turn_order", "boats", "storage", "winter", "gold")

FIXED, SET, SAME, GROUP = "fixed", "set", "same", "group"
#: The Flipper boat's final-scoring effect (data ``winter_scoring.special``), D17.
FREE_FLIP = "free_upgrade_one_village_tile_including_summer_boat"
FAMILY_KINDS = {"keyples": COLOURS, "resources": RESOURCES, "skills": SKILLS}


@dataclass(frozen=True)
class Bonus:
    """One scoring tile in a family: ``shape`` with ``kinds`` (SET), ``size`` (GROUP), ``vp``."""

    tile: str
    shape: str
    vp: int
    kinds: tuple[int, ...] = ()
    size: int = 0


def bonus_of(tile_id: str, side: Side) -> tuple[str, Bonus] | None:
    """The family and shape of a winter tile's scoring rule (from the data's ``score_per``)."""
    rule = side.score
    if rule is None:
        return None
    if "vp" in rule and "set" not in rule:
        return "fixed", Bonus(tile_id, FIXED, int(rule["vp"]))
    family = rule["items"]
    names = FAMILY_KINDS[family]
    spec: dict[str, int] = rule["set"]
    vp = int(rule["vp"])
    if "any" in spec:
        return family, Bonus(tile_id, GROUP, vp, size=int(spec["any"]))
    if "same" in spec:
        return family, Bonus(tile_id, SAME, vp)
    kinds = tuple(names.index(k) for k, v in spec.items() for _ in range(int(v)))
    return family, Bonus(tile_id, SET, vp, kinds=kinds)


#: :func:`bonus_of` of every winter tile's face, by ``tile * 2 + side`` (None: no bonus).
_BONUS_OF: tuple[tuple[str, Bonus] | None, ...] = tuple(
    bonus_of(t.id, t.sides[i]) if t.kind == WINTER_TILE and i < len(t.sides) else None
    for t in TILES
    for i in range(2)
)


# ---- one family -----------------------------------------------------------------------------
@dataclass
class FamilyResult:
    """The best assignment in one family: points and where each item went."""

    points: int
    #: per bonus tile id: items assigned (kind -> count) and its points
    bonuses: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: items left unassigned (kind -> count) and what they scored
    unassigned: dict[int, int] = field(default_factory=dict)
    unassigned_points: int = 0


def solve_family(
    counts: list[int],
    bonuses: list[Bonus],
    leftover_vp: list[int],
    wild: int = -1,
) -> FamilyResult:
    """The best assignment of ``counts`` (items per kind) to ``bonuses``.

    ``leftover_vp[k]`` is what an unassigned item of kind ``k`` scores (gold 1, a keyple 1 with
    White Wind, else 0).  ``wild`` is the kind that may stand for any other kind in sets and
    "same" bonuses (gold), or -1.
    """
    sets, single_of, same, group, best = _solve(counts, bonuses, leftover_vp, wild)
    return _detail(counts, sets, single_of, same, group, leftover_vp, wild, best)


def _solve(
    counts: list[int],
    bonuses: list[Bonus],
    leftover_vp: list[int],
    wild: int,
) -> tuple[
    list[Bonus], dict[int, Bonus], Bonus | None, Bonus | None, tuple[int, tuple[int, ...], int, int]
]:
    """The search of :func:`solve_family`: (the multi-kind sets, the one-kind sets by kind, the
    "same" bonus, the group bonus, (points, set counts, same kind, groups) of the best);
    memoised (a pure function of its arguments)."""
    if not bonuses:
        # nothing to assign: every item scores what it scores unassigned
        return (
            [],
            {},
            None,
            None,
            (sum(map(mul, counts, leftover_vp)), (), -1, 0),
        )
    key = (tuple(counts), tuple(bonuses), tuple(leftover_vp), wild)
    got = _SOLVED.get(key)
    if got is None:
        if len(_SOLVED) >= 20_000:
            _SOLVED.clear()
        got = _SOLVED[key] = _search(counts, bonuses, leftover_vp, wild)
    return got


_Solved = tuple[
    list[Bonus], dict[int, Bonus], Bonus | None, Bonus | None, tuple[int, tuple[int, ...], int, int]
]
_SOLVED: dict[tuple[Any, ...], _Solved] = {}


def forget_assignments() -> None:
    """Empty the assignment search's memo (for benchmarks that time the search itself)."""
    _SOLVED.clear()


def _search(counts: list[int], bonuses: list[Bonus], leftover_vp: list[int], wild: int) -> _Solved:
    """:func:`_solve` without the memo."""
    kinds = len(counts)
    sets = [b for b in bonuses if b.shape == SET and len(b.kinds) > 1]
    singles = [b for b in bonuses if b.shape == SET and len(b.kinds) == 1]
    sames = [b for b in bonuses if b.shape == SAME]
    groups = [b for b in bonuses if b.shape == GROUP]
    if len(sames) > 1 or len(groups) > 1:
        raise ValueError("the solver takes at most one 'same' and one 'group' bonus per family")
    same = sames[0] if sames else None
    group = groups[0] if groups else None
    # per-item value of a leftover: unassigned or a one-kind set (Key Market, Jeweller)
    base_val = list(leftover_vp)
    single_of: dict[int, Bonus] = {}
    for b in singles:
        k = b.kinds[0]
        if b.vp > base_val[k]:
            base_val[k] = b.vp
            single_of[k] = b
    total_items = sum(counts)
    # how many of each multi-kind set could ever be made
    limits = [total_items // len(b.kinds) for b in sets]
    best: tuple[int, tuple[int, ...], int, int] | None = (
        None  # points, set counts, same kind, groups
    )

    def rec(i: int, rem: list[int], pts: int, chosen: tuple[int, ...]) -> None:
        nonlocal best
        if i < len(sets):
            b = sets[i]
            c = 0
            r = rem
            while True:
                rec(i + 1, r, pts + c * b.vp, (*chosen, c))
                if c >= limits[i]:
                    break
                nxt = _take_set(r, b.kinds, wild)
                if nxt is None:
                    break
                r = nxt
                c += 1
            return
        for x in [-1, *range(kinds)] if same else [-1]:
            val = base_val[:]
            if x >= 0 and same is not None:
                if same.vp > val[x]:
                    val[x] = same.vp
                if wild >= 0 and same.vp > val[wild]:
                    val[wild] = same.vp
            g, gpts = _best_groups(rem, val, group)
            p = pts + gpts
            if best is None or p > best[0]:
                best = (p, chosen, x, g)

    rec(0, list(counts), 0, ())
    assert best is not None
    return sets, single_of, same, group, best


def family_points(
    counts: list[int], bonuses: list[Bonus], leftover_vp: list[int], wild: int = -1
) -> int:
    """The points of :func:`solve_family`'s best assignment, without the details."""
    return _solve(counts, bonuses, leftover_vp, wild)[4][0]


def _take_set(rem: list[int], kinds: tuple[int, ...], wild: int) -> list[int] | None:
    """One more set of ``kinds`` from ``rem``: real kinds first, the wild kind for the rest."""
    r = rem[:]
    for k in kinds:
        if r[k] > 0:
            r[k] -= 1
        elif wild >= 0 and k != wild and r[wild] > 0:
            r[wild] -= 1
        else:
            return None
    return r


def _best_groups(rem: list[int], val: list[int], group: Bonus | None) -> tuple[int, int]:
    """(groups, points): the best number of groups, each taking the cheapest leftovers; the
    rest score their per-item value."""
    order = sorted(range(len(rem)), key=lambda k: val[k])
    leftover = sum(rem[k] * val[k] for k in range(len(rem)))
    if group is None:
        return 0, leftover
    best_g, best_p = 0, leftover
    total = sum(rem)
    spent = 0
    taken = 0
    cursor = [rem[k] for k in order]
    ki = 0
    for g in range(1, total // group.size + 1):
        need = group.size
        while need:
            while cursor[ki] == 0:
                ki += 1
            t = min(need, cursor[ki])
            cursor[ki] -= t
            need -= t
            spent += t * val[order[ki]]
            taken += t
        p = g * group.vp + leftover - spent
        if p > best_p:
            best_g, best_p = g, p
    return best_g, best_p


def _detail(
    counts: list[int],
    sets: list[Bonus],
    single_of: dict[int, Bonus],
    same: Bonus | None,
    group: Bonus | None,
    leftover_vp: list[int],
    wild: int,
    best: tuple[int, tuple[int, ...], int, int],
) -> FamilyResult:
    """Rebuild where every item goes for the chosen optimum (for the report)."""
    points, chosen, x, g = best
    out = FamilyResult(points)
    rem = list(counts)
    for b, c in zip(sets, chosen, strict=True):
        used = [0] * len(rem)
        for _ in range(c):
            nxt = _take_set(rem, b.kinds, wild)
            assert nxt is not None
            for k in range(len(rem)):
                used[k] += rem[k] - nxt[k]
            rem = nxt
        out.bonuses[b.tile] = {"items": _named(used), "points": c * b.vp}
    val = list(leftover_vp)
    owner: list[Bonus | None] = [None] * len(rem)
    for k, b in single_of.items():
        val[k] = b.vp
        owner[k] = b
    if x >= 0 and same is not None:
        for k in {x, wild} - {-1}:
            if same.vp > val[k]:
                val[k] = same.vp
                owner[k] = same
    if group is not None:
        used = [0] * len(rem)
        need = g * group.size
        for k in sorted(range(len(rem)), key=lambda k: val[k]):
            t = min(need, rem[k])
            used[k] += t
            rem[k] -= t
            need -= t
        out.bonuses[group.tile] = {"items": _named(used), "points": g * group.vp}
    for b in (*single_of.values(), *([same] if same else [])):
        out.bonuses.setdefault(b.tile, {"items": {}, "points": 0})
    for k in range(len(rem)):
        if not rem[k]:
            continue
        holder = owner[k]
        if holder is not None:
            entry = out.bonuses[holder.tile]
            entry["items"][k] = entry["items"].get(k, 0) + rem[k]
            entry["points"] += rem[k] * val[k]
        else:
            out.unassigned[k] = rem[k]
            out.unassigned_points += rem[k] * val[k]
    if same is not None and x >= 0:
        out.bonuses[same.tile]["kind"] = x
    return out


def _named(used: list[int]) -> dict[int, int]:
    return {k: v for k, v in enumerate(used) if v}


# ---- a seat's whole score ---------------------------------------------------------------------
@dataclass
class SeatScore:
    score: dict[str, int]
    detail: dict[str, Any]


@dataclass
class Final:
    """The final scoring of every seat: ``scores`` (the score table) and ``details``."""

    scores: list[dict[str, int]]
    details: list[dict[str, Any]]


def _sides(st: KeyflowerState, s: int, flip: int) -> dict[int, int]:
    sides = {t: st.side[t] for t in st.vorder[s]}
    if flip >= 0:
        sides[flip] = 1 - sides[flip]
    return sides


def flip_options(st: KeyflowerState, s: int) -> list[int]:
    """D17: the tiles Flipper may flip for free: unflipped home/village tiles with an upgraded
    side, and every summer boat (to its other face)."""
    out = []
    for t in st.vorder[s]:
        tile = TILES[t]
        if tile.kind == SUMMER_BOAT or (
            tile.kind in (HOME, VILLAGE) and len(tile.sides) > 1 and st.side[t] == 0
        ):
            out.append(t)
    return out


@dataclass(frozen=True)
class Layout:
    """The parts of a village's score that do not depend on tile sides (edges never change)."""

    adjacent: dict[int, int]
    loop: list[int]
    chain: list[int]


def layout_of(st: KeyflowerState, s: int) -> Layout:
    vil = st.vil[s]
    adjacent = {
        t: adjacent_tiles(vil, st.hexof[t]) for t in st.vorder[s] if TILES[t].kind == TURN_ORDER
    }
    owned = [
        TILES[t].boat_scoring.get("score_per", {}) for t in st.vorder[s] if TILES[t].kind == BOAT
    ]
    loop: list[int] = []
    if any("tiles_in_best_road_loop" in p for p in owned):
        _, loop = best_road_loop(vil, st.rot, int(SCORING["road_loop_min_tiles"]))
    chain = river_chain(vil, st.rot)
    return Layout(adjacent, loop, chain)


def seat_score(
    st: KeyflowerState, s: int, flip: int = -1, layout: Layout | None = None
) -> SeatScore:
    """KF §13 steps 1–6 for seat ``s``, with ``flip`` (Flipper, step 0) applied."""
    if layout is None:
        layout = layout_of(st, s)
    sides = _sides(st, s, flip)
    vil = st.vil[s]
    flags = 0
    for t, sd in sides.items():
        if TILES[t].kind == SUMMER_BOAT:
            flags |= FLAG_OF.get(TILES[t].sides[sd].special or "", 0)
    wild_all = bool(flags & F_3B)
    detail: dict[str, Any] = {"flip": TILES[flip].id if flip >= 0 else None}
    score = {c: 0 for c in CATEGORIES}
    # step 2: printed VP
    printed: dict[str, int] = {}
    for t, sd in sides.items():
        vp = TILES[t].sides[sd].vp
        if vp:
            printed[TILES[t].id] = vp
            score["tiles"] += vp
    detail["printed"] = printed
    # step 3: layout (KF §11.1, §12): read from each boat's own scoring data
    boats: dict[str, int] = {}
    turn: dict[str, int] = {}
    white_wind = 0
    for t in sides:
        tile = TILES[t]
        if tile.kind == TURN_ORDER:
            pts = layout.adjacent[t] * int(SCORING["turn_order_vp_per_adjacent_tile"])
            turn[tile.id] = pts
            score["turn_order"] += pts
        if tile.kind != BOAT:
            continue
        rule = tile.boat_scoring
        per = rule.get("score_per", {})
        if "transport_capacity_in_village" in per:
            total = sum(
                TILES[x].sides[sd].transport
                for x, sd in sides.items()
                if TILES[x].sides[sd].action == TRANSPORT
            )
            mult = 2 if rule.get("doubled_by") == "summer_boat_2b" and flags & F_2B else 1
            boats[tile.id] = total * mult * int(per["transport_capacity_in_village"])
        elif "tiles_in_best_road_loop" in per:
            boats[tile.id] = len(layout.loop) * int(per["tiles_in_best_road_loop"])
            detail["road_loop"] = [TILES[vil[h]].id for h in layout.loop]
        elif "unassigned_keyple" in per:
            white_wind = int(per["unassigned_keyple"])
            boats[tile.id] = 0
        elif "boats_on_river_connected_to_home" in rule:
            table = rule["boats_on_river_connected_to_home"]
            boats[tile.id] = int(table.get(str(len(layout.chain)), 0))
            detail["river_chain"] = [TILES[vil[h]].id for h in layout.chain]
    detail["turn_order"] = turn
    # step 1: the pool; step 4: storage
    pool_res = [0, 0, 0, 0]
    storage: dict[str, int] = {}
    best_store = 0
    store_of = ""
    for t, sd in sides.items():
        b = t * 4
        here = st.res[b : b + 4]
        side = TILES[t].sides[sd]
        if t in STORAGE:
            accepts, rate = side.store if side.store else ((), 0)
            if wild_all:
                n = sum(here)
            else:
                n = sum(here[k] for k in accepts)
            storage[TILES[t].id] = n * rate
            score["storage"] += n * rate
            if rate > best_store:
                best_store, store_of = rate, TILES[t].id
        else:
            for k in range(4):
                pool_res[k] += here[k]
    detail["storage"] = storage
    # step 5/6: the assignment
    fams: dict[str, list[Bonus]] = {"keyples": [], "resources": [], "skills": []}
    fixed: dict[str, int] = {}
    for t, sd in sides.items():
        if TILES[t].kind != WINTER_TILE:
            continue
        got = _BONUS_OF[t * 2 + sd]
        if got is None:
            continue
        family, bonus = got
        if family == "fixed":
            fixed[bonus.tile] = bonus.vp
        else:
            fams[family].append(bonus)
    ww_vp = white_wind
    gold_vp = int(SCORING["unassigned_gold_vp"])
    keys = list(st.keys[s])
    skills = list(st.skills[s])
    res = [0, 0, 0, sum(pool_res)] if wild_all else pool_res

    def solve(family: str, counts: list[int]) -> FamilyResult:
        if family == "keyples":
            return solve_family(counts, fams["keyples"], [ww_vp] * 4)
        if family == "skills":
            return solve_family(counts, fams["skills"], [0, 0, 0])
        return solve_family(counts, fams["resources"], [0, 0, 0, gold_vp], wild=3)

    def points(family: str, counts: list[int]) -> int:
        if family == "keyples":
            return family_points(counts, fams["keyples"], [ww_vp] * 4)
        if family == "skills":
            return family_points(counts, fams["skills"], [0, 0, 0])
        return family_points(counts, fams["resources"], [0, 0, 0, gold_vp], wild=3)

    base = {
        "keyples": solve("keyples", keys),
        "resources": solve("resources", res),
        "skills": solve("skills", skills),
    }
    purple: dict[str, Any] | None = None
    if st.purple == s:
        # D23: the purple keyple as one keyple, resource (pool or storage) or skill tile
        options: list[tuple[int, str, int, list[int] | None]] = [(0, "none", -1, None)]
        for c in range(4):
            more = [keys[k] + (k == c) for k in range(4)]
            gain = points("keyples", more) - base["keyples"].points
            options.append((gain, "keyples", c, more))
        more = [res[k] + (k == 3) for k in range(4)]
        options.append((points("resources", more) - base["resources"].points, "resources", 3, more))
        if best_store:
            options.append((best_store, "storage", 3, None))
        for k in range(3):
            more = [skills[j] + (j == k) for j in range(3)]
            options.append((points("skills", more) - base["skills"].points, "skills", k, more))
        gain, fam, kind, counts = max(options, key=lambda o: o[0])
        if fam in base and counts is not None:
            base[fam] = solve(fam, counts)
        if fam == "storage":
            storage[store_of] = storage.get(store_of, 0) + best_store
            score["storage"] += best_store
            purple = {"as": "gold", "on": store_of, "points": gain}
        elif fam == "none":
            purple = {"as": None, "points": 0}
        else:
            purple = {"as": FAMILY_KINDS[fam][kind], "points": gain}
    detail["purple"] = purple
    if white_wind:
        ww_tile = next(
            TILES[t].id
            for t in sides
            if TILES[t].boat_scoring.get("score_per", {}).get("unassigned_keyple")
        )
        boats[ww_tile] = base["keyples"].unassigned_points
    winter: dict[str, int] = dict(fixed)
    for fam in ("keyples", "resources", "skills"):
        for tile_id, entry in base[fam].bonuses.items():
            winter[tile_id] = entry["points"]
    score["winter"] = sum(winter.values())
    score["boats"] = sum(boats.values())
    score["gold"] = base["resources"].unassigned_points
    score["total"] = sum(score[c] for c in CATEGORIES)
    detail["boats"] = boats
    detail["winter"] = winter
    detail["assignment"] = {
        fam: {
            tile: {
                "items": {FAMILY_KINDS[fam][k]: v for k, v in entry["items"].items()},
                "points": entry["points"],
                **({"kind": FAMILY_KINDS[fam][entry["kind"]]} if "kind" in entry else {}),
            }
            for tile, entry in base[fam].bonuses.items()
        }
        for fam in base
    }
    detail["unassigned"] = {
        fam: {FAMILY_KINDS[fam][k]: v for k, v in base[fam].unassigned.items()} for fam in base
    }
    detail["pool"] = {
        "keyples": {COLOURS[c]: keys[c] for c in range(4)},
        "resources": {RESOURCES[k]: pool_res[k] for k in range(4)},
        "skills": {SKILLS[k]: skills[k] for k in range(3)},
        "purple": st.purple == s,
        "resources_wild": wild_all,
    }
    return SeatScore(score, detail)


def final_scoring(st: KeyflowerState) -> Final:
    """KF §13 for every seat; the Flipper owner's free flip is the best one (D26)."""
    scores = []
    details = []
    for s in range(st.n):
        best = best_flip(st, s)
        scores.append(best.score)
        details.append(best.detail)
    return Final(scores, details)


def best_flip(st: KeyflowerState, s: int) -> SeatScore:
    """D17, D26: seat ``s``'s score with the best free flip if it owns Flipper (no flip on a
    tie; of equally good flips, the first in village order).

    Flipping a summer boat (its face's effect) or a storage tile (its rate) can change the
    assignment, so those candidates are scored in full; any other flip changes only the tile's
    printed VP and, with the Keyflower boat, its transport number — a difference, worked out
    without scoring the village again (``test_flipper_shortcut_matches_full_scoring``)."""
    layout = layout_of(st, s)
    base = seat_score(st, s, -1, layout)
    if not any(TILES[t].boat_scoring.get("special") == FREE_FLIP for t in st.vorder[s]):
        return base
    rate, doubled, flags = 0, False, 0
    for t in st.vorder[s]:
        tile = TILES[t]
        if tile.kind == BOAT:
            per = tile.boat_scoring.get("score_per", {})
            if "transport_capacity_in_village" in per:
                rate = int(per["transport_capacity_in_village"])
                doubled = tile.boat_scoring.get("doubled_by") == "summer_boat_2b"
        elif tile.kind == SUMMER_BOAT:
            flags |= FLAG_OF.get(tile.sides[st.side[t]].special or "", 0)
    mult = rate * (2 if doubled and flags & F_2B else 1)
    top = base.score["total"]
    best, pick = base, -1
    for t in flip_options(st, s):
        tile = TILES[t]
        if tile.kind == SUMMER_BOAT or t in STORAGE:
            cand = seat_score(st, s, t, layout)
            if cand.score["total"] > top:
                top, best, pick = cand.score["total"], cand, -1
            continue
        old, new = tile.sides[st.side[t]], tile.sides[1 - st.side[t]]
        moved = (new.transport if new.action == TRANSPORT else 0) - (
            old.transport if old.action == TRANSPORT else 0
        )
        total = base.score["total"] + new.vp - old.vp + moved * mult
        if total > top:
            top, pick = total, t
    if pick >= 0:
        best = seat_score(st, s, pick, layout)
        assert best.score["total"] == top
    return best


def preview(st: KeyflowerState) -> list[dict[str, int]]:
    """The live estimate shown before the end (public facts only): ``tiles`` = printed VP of
    the current sides, ``storage`` = what the storage tiles hold × their rate (accepted kinds),
    ``gold`` = gold lying in the village; the other categories stay 0."""
    out = []
    for s in range(st.n):
        sc = {c: 0 for c in CATEGORIES}
        for t in st.vorder[s]:
            side = TILES[t].sides[st.side[t]]
            sc["tiles"] += side.vp
            b = t * 4
            if t in STORAGE and side.store:
                accepts, rate = side.store
                sc["storage"] += rate * sum(st.res[b + k] for k in accepts)
            else:
                sc["gold"] += st.res[b + 3]
        sc["total"] = sum(sc[c] for c in CATEGORIES)
        out.append(sc)
    return out
