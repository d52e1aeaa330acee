"""Final scoring: printed VP, layout, storage, gold, every winter tile, every boat, the purple
keyple, Flipper, and the best assignment checked against brute force
(KF §11.1, §12, §13, D17–D26)."""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from game.keyflower.scoring import (
    GROUP,
    SAME,
    SET,
    Bonus,
    bonus_of,
    final_scoring,
    seat_score,
    solve_family,
)
from game.keyflower.state import KeyflowerState
from game.keyflower.tiles import RIVER, ROAD, TILES
from game.keyflower.village import DIRS, HOME_HEX, ROT_EDGES, axial
from tests.keyflower.helpers import empty_screens, give, new, put, set_screen, tid

# positions in seat 0's village far from each other (layout does not matter unless tested)
SPOTS = [(3, 0), (-3, 0), (0, 3), (0, -3), (3, -3), (-3, 3), (5, 0), (-5, 0), (0, 5), (0, -5)]


def village(*tiles: str | tuple[str, int]) -> KeyflowerState:
    """A 2-player game, empty screens, seat 0 holding these tiles (name or (name, side))."""
    st = new(2, 13)
    empty_screens(st)
    st.purple = 1
    for i, spec in enumerate(tiles):
        name, side = (spec, 0) if isinstance(spec, str) else spec
        q, r = SPOTS[i]
        put(st, 0, name, q, r, side=side)
    return st


def score(st: KeyflowerState, s: int = 0) -> dict[str, int]:
    return seat_score(st, s).score


# ---- printed VP, storage, gold -------------------------------------------------------------
def test_printed_vp_of_current_sides() -> None:
    """KF §13 step 2: the VP printed on each tile's current side, home tile and boats too."""
    st = village(("stable", 1), ("woodcutter", 1), "forge", ("ianvincible", 1), ("flipper", 1))
    st.side[st.home[0]] = 1
    sc = score(st)
    assert sc["tiles"] == 5 + 3 + 3 + 5 + 2 + 5


def test_storage_tiles_keep_their_resources() -> None:
    """KF §13 steps 1 and 4: resources on Barn (1/2 any), Timber Yard, Stone Yard, Blacksmith
    (2/3 their kind or gold, D18) score there; other kinds lying there stay and score nothing
    (D19); they are not in the pool."""
    st = village(("barn", 1), "timber_yard", ("stone_yard", 1), "blacksmith")
    give(st, "barn", wood=1, gold=1)
    give(st, "timber_yard", wood=2, gold=1, stone=1)
    give(st, "stone_yard", stone=1)
    give(st, "blacksmith", wood=3)
    sc = seat_score(st, 0)
    assert sc.score["storage"] == 2 * 2 + 3 * 2 + 3 * 1 + 0
    assert sc.score["gold"] == 0, "gold on storage tiles is not in the pool"
    assert sc.detail["storage"] == {"barn": 4, "timber_yard": 6, "stone_yard": 3, "blacksmith": 0}


def test_gold_scores_one_each_from_any_tile() -> None:
    """KF §13 steps 1 and 5: every resource comes off the village tiles; unassigned gold
    scores 1 VP each."""
    st = village("keywood", "alehouse")
    give(st, "keywood", gold=2, wood=3)
    give(st, TILES[st.home[0]].id, gold=1)
    assert score(st)["gold"] == 3


# ---- winter tiles ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("tile", "screen", "res", "expected"),
    [
        ("keythedral", {}, {}, 12),
        ("apothecary", {"red": 4, "green": 3}, {}, 3),
        ("apothecary", {"red": 4}, {}, 0),
        ("apothecary", {"red": 5, "blue": 5}, {}, 6),
        ("craftsmens_guild", {"red": 2, "blue": 1, "yellow": 3, "green": 3}, {}, 5),
        ("village_hall", {"red": 3, "blue": 2, "green": 1}, {}, 3),
        ("key_market", {"green": 3, "red": 4}, {}, 6),
        ("windmill", {}, {"wood": 3, "iron": 2, "stone": 4}, 5),
        ("mercers_guild", {}, {"wood": 2, "stone": 1, "iron": 1}, 5),
        ("watermill", {}, {"wood": 3, "iron": 2, "stone": 1}, 3),
        ("key_guild", {"saw": 3, "anvil": 3}, {}, 10),
        ("scribes", {"saw": 2, "pickaxe": 1, "anvil": 2}, {}, 10),
        ("scholars", {"saw": 3, "pickaxe": 1, "anvil": 2}, {}, 9),
    ],
)
def test_each_winter_tile(
    tile: str, screen: dict[str, int], res: dict[str, int], expected: int
) -> None:
    """KF §13 step 6: Keythedral 12; Apothecary 3 per 5 keyples; Craftsmen's Guild 5 per red +
    blue + yellow (seed); Village Hall 1 per keyple of one colour; Key Market 2 per green;
    Windmill 5 per 5 resources; Mercers' Guild 5 per wood + stone + iron; Watermill 1 per
    resource of one kind; Key Guild 10 per 5 skills; Scribes 10 per saw + pickaxe + anvil;
    Scholars 3 per skill of one kind.  Incomplete sets score nothing."""
    st = village(tile)
    set_screen(st, 0, **screen)
    give(st, TILES[st.home[0]].id, **res)
    sc = seat_score(st, 0)
    assert sc.detail["winter"][tile] == expected
    assert sc.score["winter"] == expected


def test_jeweller_gold_two_each_instead_of_one() -> None:
    st = village("jeweller")
    give(st, TILES[st.home[0]].id, gold=3)
    sc = score(st)
    assert (sc["winter"], sc["gold"]) == (6, 0)


def test_gold_stands_for_a_basic_resource_at_scoring() -> None:
    """D18: gold counts as wood, stone or iron for Mercers' Guild and Watermill — then it does
    not also score its own 1 VP."""
    st = village("mercers_guild")
    give(st, TILES[st.home[0]].id, wood=1, stone=1, gold=2)
    sc = score(st)
    assert (sc["winter"], sc["gold"]) == (5, 1)


def test_each_item_counts_for_one_bonus_only() -> None:
    """KF §13 step 6: one item, one bonus; the engine finds the best split (D20)."""
    st = village("apothecary", "craftsmens_guild", "village_hall")
    set_screen(st, 0, red=3, blue=3, yellow=3, green=1)
    sc = seat_score(st, 0)
    # 3 Craftsmen sets (15) + 1 green left: Village Hall 1 beats nothing -> 16;
    # Apothecary could take 5 keyples (3 VP) only by breaking a set (-5)
    assert sc.score["winter"] == 16
    used = sc.detail["assignment"]["keyples"]
    total = sum(n for entry in used.values() for n in entry["items"].values())
    assert total <= 10


def test_white_wind_counts_unassigned_keyples() -> None:
    """KF §11.1 White Wind: 1 VP per keyple held at the end not used for another bonus."""
    st = village(("white_wind", 1), "key_market")
    set_screen(st, 0, red=4, green=2)
    sc = seat_score(st, 0)
    assert sc.detail["boats"]["white_wind"] == 4
    assert sc.detail["winter"]["key_market"] == 4


# ---- boats and turn-order tiles -------------------------------------------------------------
def road_rot(name: str, sides: tuple[int, ...]) -> int | None:
    t = tid(name)
    for r in range(6):
        if all(ROT_EDGES[t][r][p] == ROAD for p in sides):
            return r
    return None


def test_keyflower_boat_counts_transport_numbers() -> None:
    """KF §11.1 Keyflower: 1 VP per transport point shown (home tile included, upgrade numbers
    not), doubled with summer boat 2b."""
    st = village(("keyflower", 1), "stable", ("wainwright", 1))
    assert seat_score(st, 0).detail["boats"]["keyflower"] == 1 + 2 + 6
    put(st, 0, "summer_boat_2", 7, 0, side=1)
    assert seat_score(st, 0).detail["boats"]["keyflower"] == 2 * (1 + 2 + 6)


def test_sea_bastion_closed_road_loop() -> None:
    """KF §11.1 Sea Bastion, D21: the best closed road loop, 1 VP per tile on it."""
    st = village(("sea_bastion", 1))
    home = st.home[0]
    p = next(
        p for p in range(6)
        if ROT_EDGES[home][0][p] == ROAD and ROT_EDGES[home][0][(p + 1) % 6] == ROAD
    )  # fmt: skip
    a, b = HOME_HEX + DIRS[p], HOME_HEX + DIRS[(p + 1) % 6]
    ra = road_rot("keywood", ((p + 3) % 6, (p + 2) % 6))
    rb = road_rot("alehouse", ((p + 4) % 6, (p + 5) % 6))
    assert ra is not None and rb is not None
    put(st, 0, "keywood", *axial(a), ra)
    put(st, 0, "alehouse", *axial(b), rb)
    sc = seat_score(st, 0)
    assert sc.detail["boats"]["sea_bastion"] == 3
    assert sorted(sc.detail["road_loop"]) == sorted([TILES[home].id, "keywood", "alehouse"])


def test_sea_breeze_boats_on_the_river_from_home() -> None:
    """KF §11.1 Sea Breeze: boats joined to the home tile by river: 1/2/3/4/5 -> 2/4/8/16/32."""
    st = village(("sea_breeze", 1))
    home = st.home[0]
    p = ROT_EDGES[home][0].index(RIVER)
    assert seat_score(st, 0).detail["boats"]["sea_breeze"] == 0
    h = HOME_HEX
    for name in ("summer_boat_1", "summer_boat_3"):
        h += DIRS[p]
        t = tid(name)
        r = next(r for r in range(6) if ROT_EDGES[t][r][(p + 3) % 6] == RIVER)
        put(st, 0, name, *axial(h), r)
    assert seat_score(st, 0).detail["boats"]["sea_breeze"] == 4


def test_turn_order_tile_one_point_per_adjacent_tile() -> None:
    """KF §12, D25: a turn-order tile kept in winter scores 1 VP per adjacent village tile."""
    st = village()
    put(st, 0, "turn_order_3", *axial(HOME_HEX + DIRS[0]))
    put(st, 0, "keywood", *axial(HOME_HEX + DIRS[1]))
    assert score(st)["turn_order"] == 2, "the home tile and Keywood touch it"


def test_flipper_free_flip_is_the_best_one() -> None:
    """D17, D26: Flipper's owner flips, for free, the tile that raises the score most."""
    st = village(("flipper", 1), "forge", "woodcutter")
    fin = final_scoring(st)
    assert fin.details[0]["flip"] == "forge"
    assert fin.scores[0]["tiles"] == 2 + 10 + 0


def test_flipper_may_turn_a_summer_boat() -> None:
    """D17: a summer boat may be turned to its other face (here 3a -> 3b: all resources count
    as gold)."""
    st = village(("flipper", 1), ("summer_boat_3", 0))
    give(st, TILES[st.home[0]].id, wood=4)
    st.side[st.home[0]] = 1  # home already upgraded: not a better flip
    fin = final_scoring(st)
    assert fin.details[0]["flip"] == "summer_boat_3"
    assert fin.scores[0]["gold"] == 4


def test_summer_boat_3b_every_resource_is_wild() -> None:
    """KF §11.2 3b, D24: at scoring every resource may count as any other, gold included."""
    st = village(("summer_boat_3", 1), "timber_yard")
    give(st, TILES[st.home[0]].id, stone=3)
    give(st, "timber_yard", iron=2)
    sc = score(st)
    assert sc["gold"] == 3 and sc["storage"] == 4


# ---- the purple keyple -------------------------------------------------------------------------
def test_purple_keyple_is_at_least_a_gold() -> None:
    """D23: the purple keyple held after winter can stand for a gold: at least 1 VP."""
    st = village()
    st.purple = 0
    sc = seat_score(st, 0)
    assert sc.score["total"] == 1 and sc.detail["purple"]["as"] == "gold"


def test_purple_keyple_takes_its_best_role() -> None:
    """KF §13 step 6: the purple keyple stands for one keyple, resource or skill tile — here the
    missing blue of a Craftsmen's set (5), rather than a gold (1)."""
    st = village("craftsmens_guild", ("blacksmith", 1))
    st.purple = 0
    set_screen(st, 0, red=1, yellow=1)
    sc = seat_score(st, 0)
    assert sc.detail["purple"] == {"as": "blue", "points": 5}
    st2 = village(("blacksmith", 1))
    st2.purple = 0
    sc2 = seat_score(st2, 0)
    assert sc2.detail["purple"] == {"as": "gold", "on": "blacksmith", "points": 3}
    assert sc2.score["storage"] == 3


# ---- the solver against brute force ------------------------------------------------------------
def brute_force(counts: list[int], bonuses: list[Bonus], leftover: list[int], wild: int) -> int:
    """Try every assignment of every item (and every kind a wild item stands for)."""
    items = [k for k, n in enumerate(counts) for _ in range(n)]
    kinds = len(counts)
    targets = [None, *range(len(bonuses))]
    best = 0
    as_choices = [range(kinds) if k == wild else [k] for k in items]
    for where in product(targets, repeat=len(items)):
        for as_kind in product(*as_choices):
            pts = 0
            for i, b in enumerate(bonuses):
                mine = [as_kind[j] for j, w in enumerate(where) if w == i]
                if b.shape == GROUP:
                    pts += len(mine) // b.size * b.vp
                elif b.shape == SAME:
                    if mine and len(set(mine)) == 1:
                        pts += len(mine) * b.vp
                elif b.shape == SET:
                    need = {k: b.kinds.count(k) for k in set(b.kinds)}
                    sets = min(mine.count(k) // c for k, c in need.items())
                    pts += sets * b.vp
            pts += sum(leftover[items[j]] for j, w in enumerate(where) if w is None)
            best = max(best, pts)
    return best


FAMILIES = {
    "keyples": (4, ["apothecary", "craftsmens_guild", "village_hall", "key_market"]),
    "resources": (4, ["windmill", "mercers_guild", "watermill", "jeweller"]),
    "skills": (3, ["key_guild", "scribes", "scholars"]),
}


def family_bonuses(family: str, chosen: list[int]) -> list[Bonus]:
    names = FAMILIES[family][1]
    out = []
    for i in chosen:
        got = bonus_of(names[i], TILES[tid(names[i])].sides[0])
        assert got is not None and got[0] == family
        out.append(got[1])
    return out


@settings(max_examples=120, deadline=None)
@given(
    family=hs.sampled_from(sorted(FAMILIES)),
    data=hs.data(),
)
def test_solver_matches_brute_force(family: str, data: hs.DataObject) -> None:
    """D20: the assignment the engine computes is optimal (exhaustive search on small pools)."""
    kinds, names = FAMILIES[family]
    counts = data.draw(hs.lists(hs.integers(0, 3), min_size=kinds, max_size=kinds))
    if sum(counts) > 6:
        counts = [min(c, 1) for c in counts]
    chosen = data.draw(hs.lists(hs.integers(0, len(names) - 1), unique=True, max_size=3))
    bonuses = family_bonuses(family, chosen)
    if family == "resources":
        leftover, wild = [0, 0, 0, 1], 3
    elif family == "keyples":
        leftover, wild = [data.draw(hs.integers(0, 1))] * 4, -1
    else:
        leftover, wild = [0, 0, 0], -1
    got = solve_family(counts, bonuses, leftover, wild)
    assert got.points == brute_force(counts, bonuses, leftover, wild)
    # the reported assignment uses each item once and adds up to the points
    used = [0] * kinds
    pts = got.unassigned_points
    for entry in got.bonuses.values():
        pts += entry["points"]
        for k, n in entry["items"].items():
            used[k] += n
    for k, n in got.unassigned.items():
        used[k] += n
    assert used == counts
    assert pts == got.points


def test_total_is_the_sum_of_categories() -> None:
    st = village("keythedral", ("stable", 1), ("barn", 1))
    give(st, "barn", wood=2)
    give(st, "stable", gold=3)
    sc = score(st)
    assert sc["total"] == sum(v for k, v in sc.items() if k != "total") == 12 + 5 + 4 + 3


def full_flip_search(st: KeyflowerState, s: int) -> tuple[int, str | None]:
    best = seat_score(st, s)
    from game.keyflower.scoring import flip_options

    for t in flip_options(st, s):
        cand = seat_score(st, s, t)
        if cand.score["total"] > best.score["total"]:
            best = cand
    return best.score["total"], best.detail["flip"]


def test_flipper_shortcut_matches_full_scoring() -> None:
    """D26: the best flip found with differences equals the one found by scoring every flip
    in full (random villages with Flipper, Keyflower and summer boat 2b among them)."""
    from game.core.rng import Rng
    from game.keyflower.scoring import best_flip

    rng = Rng(5)
    names = [t.id for t in TILES if t.kind in ("village", "summer_boat") and t.season < 3]
    for trial in range(40):
        picks = rng.sample(names, 8)
        st = village(("flipper", 1), ("keyflower", 1), *[(n, rng.randbelow(2)) for n in picks])
        set_screen(st, 0, red=rng.randbelow(6), green=rng.randbelow(3), saw=rng.randbelow(3))
        give(st, TILES[st.home[0]].id, wood=rng.randbelow(4), gold=rng.randbelow(3))
        st.purple = rng.randbelow(2)
        got = best_flip(st, 0)
        assert (got.score["total"], got.detail["flip"]) == full_flip_search(st, 0), trial
