"""What the player to move in Glen More may do: the legal steps of the turn in progress.

GM §4.1 D9: a tile is offered only if it can be paid and placed; a payment step only if the
rest stays payable; an activation only if it can do something; selling is allowed at every step.
The list is built once per position (``GlenMoreState.legal_actions`` keeps it)."""

from __future__ import annotations

from game.core.types import Action
from game.glen_more import grid as G
from game.glen_more.codes import (
    ACTIVATE,
    BUY_ACTIONS,
    CUBE_CAP,
    CUBE_COUNTS,
    CUBE_KINDS,
    CUBE_TOTAL,
    DONE,
    END,
    FOR_TILE,
    MOVE,
    OPTION,
    PAY,
    PLACE,
    RESOURCE,
    RESOURCE_ACTIONS,
    TAKE,
    TILE_OPTIONS,
    pay_of,
)
from game.glen_more.market import can_pay_after_buy, can_pay_after_own
from game.glen_more.position import Position
from game.glen_more.tiles import ACTIVATE_OPS, KINDS, NRES, RESOURCES


class LegalMoves(Position):
    """The legal steps of the turn in progress (see the module docstring)."""

    def _decide(self) -> list[Action]:
        ph = self.phase
        if ph == TAKE:
            acts = self._take_actions()
        elif ph == PAY:
            acts = self._pay_actions()
        elif ph == PLACE:
            s = self.cur
            cls = KINDS[self.taken].edge_class
            acts = [("place", *G.rc(c)) for c in G.legal_cells(self.grid[s], self.clan[s], cls)]
        elif ph == RESOURCE:
            acts = list(RESOURCE_ACTIONS)
        elif ph == OPTION:
            acts = [
                ("option", i)
                for i, (need, any_n, _vp) in enumerate(
                    TILE_OPTIONS[self.grid[self.cur][self.opt_cell]]
                )
                if self._can_pay(need, any_n)
            ]
        elif ph == ACTIVATE:
            acts = self._activate_actions()
        elif ph == MOVE:
            acts = self._move_actions()
        else:
            return []
        acts.extend(self._sell_actions())
        return acts

    def _sell_actions(self) -> list[Action]:
        """GM §6: sell one cube from any own tile into a row holding coins."""
        s = self.cur
        market = self.market
        out: list[Action] = []
        cubes = self.cubes[s]
        if not cubes:
            return out
        for c in sorted(cubes):
            kinds = CUBE_KINDS[cubes[c]]
            if kinds:
                r, q = G.row_col(c)
                for k in kinds:
                    if market[k]:
                        out.append(("sell", r, q, RESOURCES[k]))
        return out

    def takeable(self) -> list[int]:
        """GM §4.1 D9: the track slots whose tile the player to move can pay (sales and
        purchases included) and then place."""
        s = self.cur
        grid = self.grid[s]
        near: set[int] | None = None
        placeable: dict[int, bool] = {}
        out = []
        for slot, k in enumerate(self.slots):
            if k < 0:
                continue
            kind = KINDS[k]
            if kind.cost_whisky > self.whisky[s]:
                continue
            if kind.has_res_cost and not self._can_pay(kind.cost_need, kind.cost_any):
                continue
            cls = kind.edge_class
            if kind.cost_clan:
                if not self._clan_payable(kind.cost_clan, cls):
                    continue
            else:
                ok = placeable.get(cls)
                if ok is None:
                    if near is None:
                        near = G.candidates(grid, self.clan[s])
                    ok = placeable[cls] = any(G.edges_fit(grid, c, cls) for c in near)
                if not ok:
                    continue
            out.append(slot)
        return out

    def _clan_payable(self, m: int, cls: int) -> bool:
        """Whether ``m`` clan members can go back to the supply keeping at least one on the
        territory and leaving a legal cell for a tile of class ``cls`` (GM §4.1, D15)."""
        s = self.cur
        if self.clan_total[s] - m < 1:
            return False
        clan = self.clan[s]
        if m == 0:
            return G.can_place(self.grid[s], clan, cls)
        for c in sorted(clan):
            clan[c] -= 1
            if not clan[c]:
                del clan[c]
            try:
                self.clan_total[s] -= 1
                ok = self._clan_payable(m - 1, cls)
            finally:
                self.clan_total[s] += 1
                clan[c] = clan.get(c, 0) + 1
            if ok:
                return True
        return False

    def _take_actions(self) -> list[Action]:
        slots = self.takeable()
        if slots:
            return [("take", slot) for slot in slots]
        # GM §4.1 D10: no takeable tile -> move to any tile and discard it
        return [("discard", slot) for slot, k in enumerate(self.slots) if k >= 0]

    def _pay_actions(self) -> list[Action]:
        """One step of the payment in progress (GM §4.1, §6), each leaving the rest payable."""
        s = self.cur
        out: list[Action] = []
        if self.need_clan:
            cls = KINDS[self.taken].edge_class if self.pay_for == FOR_TILE else -1
            clan = self.clan[s]
            for c in sorted(clan):
                if self._clan_step_ok(c, cls):
                    out.append(("pay_clan", *G.rc(c)))
        need, any_n = self.need, self.need_any
        if any_n or sum(need):
            have, fill, coins = self.have[s], self.market, self.coins[s]
            cubes = self.cubes[s]
            for k in range(NRES):
                if not (need[k] or any_n):
                    continue
                if have[k] and can_pay_after_own(k, need, any_n, have, fill, coins):
                    res = RESOURCES[k]
                    for c in sorted(cubes):
                        if CUBE_COUNTS[cubes[c]][k]:
                            r, q = G.row_col(c)
                            out.append(("pay", r, q, res))
            for k in range(NRES):
                if (need[k] or any_n) and can_pay_after_buy(k, need, any_n, have, fill, coins):
                    out.append(BUY_ACTIONS[k])
        return out

    def _clan_step_ok(self, c: int, cls: int) -> bool:
        """Whether returning a clan member from ``c`` keeps the payment completable."""
        s = self.cur
        clan = self.clan[s]
        if not clan.get(c) or self.clan_total[s] < 2:
            return False
        if cls < 0:
            return self.clan_total[s] - self.need_clan >= 1
        clan[c] -= 1
        if not clan[c]:
            del clan[c]
        self.clan_total[s] -= 1
        try:
            return self._clan_payable(self.need_clan - 1, cls)
        finally:
            self.clan_total[s] += 1
            clan[c] = clan.get(c, 0) + 1

    def can_activate(self, c: int) -> bool:
        """Whether activating the current seat's tile at ``c`` can do something (GM §4.3): a
        production tile with room, a grey tile, a paying tile whose payment (or one of its
        options) can be made.  An activation that could do nothing is not offered."""
        s = self.cur
        k = self.grid[s][c]
        ops = ACTIVATE_OPS[self.clan_on_place][k]
        for op in ops:
            name = op["op"]
            if name == "produce" or name == "produce_choice":
                if CUBE_TOTAL[self.cubes[s].get(c, 0)] < CUBE_CAP:
                    return True
            elif name in ("gain", "clan_move"):
                return True
            elif name == "convert" or name == "score":
                need, any_n = pay_of(op)
                if not any_n and not sum(need):
                    return True
                return self._can_pay(need, any_n)
            elif name == "score_choice":
                return any(self._can_pay(need, a) for need, a, _ in TILE_OPTIONS[k])
            elif name == "score_distinct":
                # a set of kinds can be paid only if each of its single kinds can
                return any(self._can_pay(need, a) for need, a, _ in TILE_OPTIONS[k][:NRES])
        return False

    def _activate_actions(self) -> list[Action]:
        out: list[Action] = []
        for c in self.todo:
            if self.can_activate(c):
                out.append(("activate", *G.rc(c)))
        s = self.cur
        if not self.ness and self.has_extra_activation(s):
            for c in sorted(self.grid[s]):
                if self.can_activate(c):
                    out.append(("loch_ness", *G.rc(c)))
        out.append(DONE)
        return out

    def _move_actions(self) -> list[Action]:
        """GM §4.4: with movement points left, move a clan member one step (diagonals count)
        to another own tile, or make one a chieftain (one must stay on the territory)."""
        out: list[Action] = []
        if self.points > 0:
            s = self.cur
            grid = self.grid[s]
            clan = self.clan[s]
            cells = sorted(clan)
            for c in cells:
                r, q = G.row_col(c)
                for d in G.AROUND:
                    x = c + d
                    if x in grid:
                        out.append(("move", r, q, *G.rc(x)))
            if self.clan_total[s] >= 2:
                for c in cells:
                    out.append(("chieftain", *G.rc(c)))
        out.append(END)
        return out
