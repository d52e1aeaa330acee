"""What a tile of a seat's village is worth to it, for the bots' evaluation.

A tile (KF §6, §7): its printed VP (current side), the resources on a storage tile at its rate,
its action for each season its owner can still use it, an unflipped tile's upgrade (KF §7.2)
counted in part as its cost comes to hand, and what summer boats (KF §11.2), boats and
turn-order tiles kept in winter (KF §11.1, §12) will score; and the road contacts between a
village's tiles (KF §7.1).  :class:`TileValues` computes them for the evaluation
(:mod:`game.keyflower.evaluation`, whose docstring says what a seat's value reads) with one
seat's rates (:class:`game.keyflower.weights.SeatRates`).  The engine does not import this
module.  Rule references ``KF §n`` point to ``shared/rules/keyflower.md``.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from game.keyflower.const import (
    BOATS,
    F_1A,
    F_1B,
    F_2A,
    F_2B,
    F_3A,
    F_3B,
    F_4A,
    F_4B,
    FLAG_OF,
    PLAY,
    WINTER_PICK,
)
from game.keyflower.tiles import (
    BOAT,
    GOLD,
    HOME,
    STORAGE,
    SUMMER_BOAT,
    TILES,
    TURN_ORDER,
    VILLAGE,
    WINTER,
    Side,
)
from game.keyflower.tiles import TRANSPORT as TRANSPORT_ACTION
from game.keyflower.village import adjacent_tiles, best_road_loop, river_chain, road_joined
from game.keyflower.weights import SeatRates, Weights

if TYPE_CHECKING:
    from game.keyflower.state import KeyflowerState


class TileValues:
    """The tiles' values with a given set of :class:`~game.keyflower.weights.Weights`, and the
    memo of the boats whose score depends on the village's layout."""

    def __init__(self, weights: Weights) -> None:
        self.weights = weights
        self._layout: dict[Hashable, float] = {}

    def roads(self, st: KeyflowerState, s: int) -> int:
        """Road contacts between the seat's village tiles (KF §7.1: transport runs on roads)."""
        vil = st.vil[s]
        if st.flags[s] & F_2A:
            return 3 * len(vil)
        total = 0
        rot = st.rot
        for h in vil:
            for p in range(3):
                if road_joined(vil, rot, h, p):
                    total += 1
        return total

    def value(
        self,
        st: KeyflowerState,
        s: int,
        t: int,
        info: SeatRates,
        in_village: bool,
        acc: dict[str, float] | None = None,
    ) -> float:
        """A tile of the seat's village (or one it will add): printed VP, storage, its action
        for the uses still to come, its upgrade, and what boats, summer boats and turn-order
        tiles will score (with ``acc``: each part also added to its term)."""
        w = self.weights
        tile = TILES[t]
        side_i = st.side[t]
        side = tile.sides[side_i]
        value = float(side.vp)
        if acc is not None:
            acc["tiles"] += value
        kind = tile.kind
        extra = 0.0
        term = ""
        if kind in (HOME, VILLAGE):
            uses = info.uses_now if in_village else info.uses_after
            action = w.use_share * uses * info.use_value(side, w)
            value += action
            stored = 0.0
            if t in STORAGE and side.store:
                accepts, rate = side.store
                b = t * 4
                held = (
                    sum(st.res[b : b + 4])
                    if info.flags & F_3B
                    else sum(st.res[b + k] for k in accepts)
                )
                stored = rate * held
                value += stored
            upgrade = 0.0
            if tile.upgradable and side_i == 0:
                upgrade = self._upgrade(st, s, t, info, uses)
                value += upgrade
            if acc is not None:
                acc["actions"] += action
                acc["storage"] += stored
                acc["upgrades"] += upgrade
            return value
        if kind == SUMMER_BOAT:
            extra, term = self._summer_boat(st, side, info), "summer_boats"
        elif kind == BOAT:
            extra, term = self._boat_tile(st, s, t), "boats"
        elif kind == TURN_ORDER:
            # KF §12: 1 VP per village tile next to it (about 3 before it is placed)
            extra = float(adjacent_tiles(st.vil[s], st.hexof[t])) if in_village else 3.0
            term = "turn_order"
        if acc is not None and term:
            acc[term] += extra
        return value + extra

    def _upgrade(self, st: KeyflowerState, s: int, t: int, info: SeatRates, uses: float) -> float:
        """KF §7.2: the upgrade of an unflipped tile — its VP and better action less what it
        costs — counted from ``upgrade_far`` to ``upgrade_near`` as its cost comes to hand
        (resources on the tile, gold standing for any; skill tiles behind the screen)."""
        w = self.weights
        tile = TILES[t]
        if st.phase not in (PLAY, WINTER_PICK) and st.season == WINTER:
            return 0.0  # no upgrade can come any more
        cost = tile.cost
        assert cost is not None
        front, back = tile.sides[0], tile.sides[1]
        later = max(0.0, uses - 0.5)
        gain = (
            back.vp
            - front.vp
            + w.use_share * later * (info.use_value(back, w) - info.use_value(front, w))
        )
        need_res = sum(cost.res) + cost.any_res
        need_sk = sum(cost.skills) + cost.any_skill
        price = (need_res * info.res if need_res else 0.0) + need_sk * info.skill
        net = gain - price
        if net <= 0.0:
            return 0.0
        b = t * 4
        here = st.res[b : b + 4]
        wild = bool(info.flags & F_3A)
        met = 0
        spare_gold = here[GOLD]
        for k in range(3):
            need = cost.res[k]
            if need:
                have = here[k] if not wild else sum(here)
                got = min(need, have)
                met += got
                if need > got and not wild:
                    extra = min(need - got, spare_gold)
                    met += extra
                    spare_gold -= extra
        if cost.res[GOLD]:
            met += min(cost.res[GOLD], spare_gold if not wild else sum(here))
        if cost.any_res:
            met += min(cost.any_res, sum(here))
        sk = st.skills[s]
        for k in range(3):
            if cost.skills[k]:
                met += min(cost.skills[k], sk[k])
        if cost.any_skill:
            met += min(cost.any_skill, sum(sk))
        frac = min(1.0, met / max(1, need_res + need_sk))
        return net * (w.upgrade_far + (w.upgrade_near - w.upgrade_far) * frac)

    def _summer_boat(self, st: KeyflowerState, side: Side, info: SeatRates) -> float:
        """KF §11.2: what a summer boat's face still brings."""
        flag = FLAG_OF.get(side.special or "", 0)
        ends = 3 - st.season if st.phase in (PLAY, WINTER_PICK, BOATS) else 2 - st.season
        ends = max(0, ends)
        if flag == F_1A:
            return ends * side.amount * info.key
        if flag == F_1B:
            return ends * side.amount * info.key
        if flag in (F_2A, F_2B, F_4A, F_4B, F_3A):
            return 1.0 * info.uses_now
        if flag == F_3B:
            return 1.0
        return 0.0

    def _boat_tile(self, st: KeyflowerState, s: int, b: int) -> float:
        """KF §11.1: what a boat kept in winter will score in this village."""
        rule = TILES[b].boat_scoring
        per = rule.get("score_per", {})
        vil = st.vil[s]
        if "transport_capacity_in_village" in per:
            total = sum(
                TILES[x].sides[st.side[x]].transport
                for x in st.vorder[s]
                if TILES[x].sides[st.side[x]].action == TRANSPORT_ACTION
            )
            mult = 2 if rule.get("doubled_by") == "summer_boat_2b" and st.flags[s] & F_2B else 1
            return float(total * mult * int(per["transport_capacity_in_village"]))
        if "unassigned_keyple" in per:
            return 0.5 * sum(st.keys[s])
        key = (b, frozenset(vil.items()), tuple(st.rot[t] for t in st.vorder[s]))
        known = self._layout.get(key)
        if known is not None:
            return known
        value = 0.0
        if "tiles_in_best_road_loop" in per:
            _, loop = best_road_loop(vil, st.rot, 3)
            value = float(len(loop) * int(per["tiles_in_best_road_loop"]))
        elif "boats_on_river_connected_to_home" in rule:
            table = rule["boats_on_river_connected_to_home"]
            value = float(table.get(str(len(river_chain(vil, st.rot)) + 1), 0))
        elif rule.get("special"):
            value = 4.0  # Flipper's free flip (KF §13 step 0): about one upgrade
        if len(self._layout) > 20_000:
            self._layout.clear()
        self._layout[key] = value
        return value


__all__ = ["TileValues"]
