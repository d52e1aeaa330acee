"""What each step of a Glen More turn changes: taking, paying, placing, resources, activations,
movement and chieftains, then the end of the turn — the refill of the track (GM §3, D2, D3),
the die figure's automatic turns, the scoring rounds (GM §6) and the final scoring (GM §7)."""

from __future__ import annotations

from game.core.types import Action, Event, Seat
from game.glen_more import grid as G
from game.glen_more.codes import (
    ACTIVATE,
    CUBE_CAP,
    CUBE_ONE,
    EMPTY,
    FIGURE_BASE,
    FOR_EFFECT,
    FOR_TILE,
    MOVE,
    OPTION,
    OVER,
    PAY,
    PLACE,
    RESOURCE,
    TILE_OPTIONS,
    figure_code,
    figure_of,
    pay_of,
)
from game.glen_more.moves import LegalMoves
from game.glen_more.tiles import (
    ACTIVATE_OPS,
    DIE_FACES,
    KINDS,
    NRES,
    PLACE_OPS,
    PRICES,
    RES_INDEX,
    RESOURCES,
    TRACK_SLOTS,
)


class TurnEffects(LegalMoves):
    """Applying one legal step, and the end of a turn (see the module docstring)."""

    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        self._acts = None
        self._aset = None
        self._scores = None
        self._view = None
        kind = action[0]
        if kind == "sell":
            return self._do_sell(G.cell(action[1], action[2]), RES_INDEX[action[3]])
        if kind == "take":
            return self._do_take(action[1])
        if kind == "discard":
            return self._do_discard(action[1])
        if kind == "pay":
            return self._do_pay(G.cell(action[1], action[2]), RES_INDEX[action[3]])
        if kind == "buy":
            return self._do_buy(RES_INDEX[action[1]])
        if kind == "pay_clan":
            return self._do_pay_clan(G.cell(action[1], action[2]))
        if kind == "place":
            return self._do_place(G.cell(action[1], action[2]))
        if kind == "resource":
            return self._do_resource(RES_INDEX[action[1]])
        if kind == "activate":
            return self._do_activate(G.cell(action[1], action[2]), False)
        if kind == "loch_ness":
            return self._do_activate(G.cell(action[1], action[2]), True)
        if kind == "option":
            return self._do_option(action[1])
        if kind == "done":
            return self._do_done()
        if kind == "move":
            return self._do_move(G.cell(action[1], action[2]), G.cell(action[3], action[4]))
        if kind == "chieftain":
            return self._do_chieftain(G.cell(action[1], action[2]))
        return self._end_turn([])

    # -- cubes and clan members
    def _add_cube(self, s: int, c: int, k: int) -> None:
        cubes = self.cubes[s]
        cubes[c] = cubes.get(c, 0) + CUBE_ONE[k]
        self.have[s][k] += 1
        self.stock[k] -= 1

    def _remove_cube(self, s: int, c: int, k: int) -> None:
        cubes = self.cubes[s]
        v = cubes[c] - CUBE_ONE[k]
        if v:
            cubes[c] = v
        else:
            del cubes[c]
        self.have[s][k] -= 1
        self.stock[k] += 1

    def _add_clan(self, s: int, c: int, n: int) -> None:
        """``n`` clan members from the supply onto ``c``.  The supply is unlimited, like every
        supply (GM §1, §4.3 as decided in issue 20): a stock below zero means substitutes for
        the box's 25 figures are in play."""
        clan = self.clan[s]
        clan[c] = clan.get(c, 0) + n
        self.clan_total[s] += n
        self.clan_stock -= n

    def _remove_clan(self, s: int, c: int) -> None:
        clan = self.clan[s]
        clan[c] -= 1
        if not clan[c]:
            del clan[c]
        self.clan_total[s] -= 1

    # -- market
    def _do_sell(self, c: int, k: int) -> list[Event]:
        """GM §6: the cube goes back to the stock; take the coins of the highest filled space."""
        s = self.cur
        self._remove_cube(s, c, k)
        price = PRICES[self.market[k] - 1]
        self.market[k] -= 1
        self.coins[s] += price
        return [
            {"type": "sell", "seat": s, "cell": G.rc(c), "resource": RESOURCES[k], "price": price}
        ]

    def _do_buy(self, k: int) -> list[Event]:
        """GM §6 D8: pay the lowest empty space; the cube goes straight into the payment."""
        s = self.cur
        price = PRICES[self.market[k]]
        self.market[k] += 1
        self.coins[s] -= price
        events: list[Event] = [{"type": "buy", "seat": s, "resource": RESOURCES[k], "price": price}]
        self._count_paid(k)
        return self._after_payment_step(events)

    def _count_paid(self, k: int) -> None:
        if self.need[k] > 0:
            self.need[k] -= 1
        else:
            self.need_any -= 1

    def _do_pay(self, c: int, k: int) -> list[Event]:
        s = self.cur
        self._remove_cube(s, c, k)
        self._count_paid(k)
        events: list[Event] = [
            {"type": "pay", "seat": s, "cell": G.rc(c), "resource": RESOURCES[k]}
        ]
        return self._after_payment_step(events)

    def _do_pay_clan(self, c: int) -> list[Event]:
        """Loch Ness's cost: a clan member from the territory back to the supply (GM §8)."""
        s = self.cur
        self._remove_clan(s, c)
        self.clan_stock += 1
        self.need_clan -= 1
        events: list[Event] = [{"type": "pay_clan", "seat": s, "cell": G.rc(c)}]
        return self._after_payment_step(events)

    def _after_payment_step(self, events: list[Event]) -> list[Event]:
        if self.need_clan or self.need_any or sum(self.need):
            return events
        s = self.cur
        if self.pay_for == FOR_TILE:
            events.append({"type": "paid", "seat": s, "tile": KINDS[self.taken].id})
            self.phase = PLACE
            return events
        self._grant_reward(events)
        self.phase = ACTIVATE
        return events

    def _grant_reward(self, events: list[Event]) -> None:
        s = self.cur
        c = self.opt_cell
        if self.reward_vp:
            self.tile_vp[s] += self.reward_vp
            events.append(
                {
                    "type": "score",
                    "seat": s,
                    "cell": G.rc(c),
                    "tile": KINDS[self.grid[s][c]].id,
                    "vp": self.reward_vp,
                }
            )
        if self.reward_whisky:
            self.whisky[s] += self.reward_whisky
            self.whisky_stock -= self.reward_whisky
            events.append(
                {
                    "type": "gain",
                    "seat": s,
                    "what": "whisky",
                    "n": self.reward_whisky,
                    "cell": G.rc(c),
                }
            )
        self.reward_vp = 0
        self.reward_whisky = 0
        self.opt_cell = -1

    def _start_payment(self, need: list[int], any_n: int, clan_n: int, pay_for: int) -> None:
        self.need = list(need)
        self.need_any = any_n
        self.need_clan = clan_n
        self.pay_for = pay_for
        self.phase = PAY

    # -- take, discard, place
    def _move_figure(self, f: int, slot: int) -> int:
        """Figure ``f`` moves onto ``slot``; returns the tile that lay there."""
        tile = self.slots[slot]
        self.slots[self.figs[f]] = EMPTY
        self.slots[slot] = figure_code(f)
        self.figs[f] = slot
        return tile

    def _do_take(self, slot: int) -> list[Event]:
        """GM §4.1: move onto the tile and take it; whisky (a tavern) is paid at once, the
        rest step by step."""
        s = self.cur
        frm = self.figs[s]
        tile = self._move_figure(s, slot)
        kind = KINDS[tile]
        self.taken = tile
        events: list[Event] = [
            {"type": "take", "seat": s, "from": frm, "slot": slot, "tile": kind.id}
        ]
        if kind.cost_whisky:
            self.whisky[s] -= kind.cost_whisky
            self.whisky_stock += kind.cost_whisky
            events.append({"type": "pay_whisky", "seat": s, "n": kind.cost_whisky})
        if sum(kind.cost_res) or kind.cost_any or kind.cost_clan:
            self._start_payment(list(kind.cost_res), kind.cost_any, kind.cost_clan, FOR_TILE)
        else:
            self.phase = PLACE
        return events

    def _do_discard(self, slot: int) -> list[Event]:
        """GM §4.1 D10: no tile can be taken: move to a tile, which leaves the game; no
        placement, activation or movement this turn."""
        s = self.cur
        frm = self.figs[s]
        tile = self._move_figure(s, slot)
        self.removed.append(tile)
        events: list[Event] = [
            {
                "type": "discard",
                "seat": s,
                "from": frm,
                "slot": slot,
                "tile": KINDS[tile].id,
                "reason": "no tile on the track can be paid and placed",
            }
        ]
        return self._end_turn(events)

    def _do_place(self, c: int) -> list[Event]:
        """GM §4.2: the tile joins the territory; a special location's card is taken, then the
        on-place effects resolve before any activation (D14)."""
        s = self.cur
        tile = self.taken
        self.grid[s][c] = tile
        self.at = c
        kind = KINDS[tile]
        events: list[Event] = [{"type": "place", "seat": s, "cell": G.rc(c), "tile": kind.id}]
        if kind.special:
            self.cards[s].append(tile)
            events.append({"type": "card", "seat": s, "tile": kind.id, "bonnets": kind.bonnets})
        self._run_place_ops(0, events)
        return events

    def _run_place_ops(self, i: int, events: list[Event]) -> None:
        """Resolve the placed tile's on-place operations from the ``i``-th; stop at one that
        waits for a choice (it resumes here), else open the activations."""
        s = self.cur
        c = self.at
        ops = PLACE_OPS[self.clan_on_place][self.taken]
        while i < len(ops):
            op = ops[i]
            i += 1
            name = op["op"]
            if name == "gain":
                self._gain(s, c, op["what"], int(op["n"]), events)
            elif name == "gain_resources_choice":
                n = min(int(op["n"]), self.room(s, c))
                if n > 0:
                    self.res_queue = [(c, n)]
                    self.place_op = i
                    self.phase = RESOURCE
                    return
            elif name == "fill_empty_production_tiles":
                self._fill_empty(s, int(op["n"]), events)
                if self.res_queue:
                    self.place_op = i
                    self.phase = RESOURCE
                    return
            elif name == "activate_all_own_tiles":
                self.all_tiles = True
            else:  # pragma: no cover - the data holds no other on-place operation
                raise AssertionError(f"unknown on-place operation {name}")
        if self.all_tiles:
            # Loch Oich (D16): every tile of the territory once, in any order
            self.todo = sorted(self.grid[s])
            self.first = -1
        else:
            grid = self.grid[s]
            self.todo = sorted([c] + [c + d for d in G.AROUND if (c + d) in grid])
            self.first = c
        self.place_op = -1
        self.phase = ACTIVATE

    def _fill_empty(self, s: int, n: int, events: list[Event]) -> None:
        """Loch Shiel (GM §8 D17): each own production tile holding no cube gets ``n`` of its
        resource (Iona Abbey: of the owner's choice, asked one by one)."""
        cubes = self.cubes[s]
        queue = []
        for c in sorted(self.grid[s]):
            kind = KINDS[self.grid[s][c]]
            if not kind.is_production or cubes.get(c, 0):
                continue
            m = min(n, CUBE_CAP)
            if kind.produces >= 0:
                for _ in range(m):
                    self._add_cube(s, c, kind.produces)
                events.append(
                    {
                        "type": "produce",
                        "seat": s,
                        "cell": G.rc(c),
                        "resource": RESOURCES[kind.produces],
                        "n": m,
                    }
                )
            else:
                queue.append((c, m))
        self.res_queue = queue

    def _gain(self, s: int, c: int, what: str, n: int, events: list[Event]) -> None:
        """A ``gain`` operation: clan members onto the tile, whisky, or coins."""
        if what == "clan_member":
            self._add_clan(s, c, n)
            events.append(
                {"type": "gain", "seat": s, "what": "clan_member", "n": n, "cell": G.rc(c)}
            )
        elif what == "whisky":
            self.whisky[s] += n
            self.whisky_stock -= n
            events.append({"type": "gain", "seat": s, "what": "whisky", "n": n, "cell": G.rc(c)})
        elif what == "coins":
            self.coins[s] += n
            self.bank -= n
            events.append({"type": "gain", "seat": s, "what": "coins", "n": n, "cell": G.rc(c)})
        else:  # pragma: no cover - the data holds no other gain
            raise AssertionError(f"unknown gain {what}")

    def _do_resource(self, k: int) -> list[Event]:
        """A cube of the chosen kind onto the tile waiting for it (Loch Lochy, Iona Abbey)."""
        s = self.cur
        c, left = self.res_queue[0]
        self._add_cube(s, c, k)
        events: list[Event] = [
            {"type": "produce", "seat": s, "cell": G.rc(c), "resource": RESOURCES[k], "n": 1}
        ]
        if left > 1 and self.room(s, c) > 0:
            self.res_queue[0] = (c, left - 1)
            return events
        self.res_queue.pop(0)
        if self.res_queue:
            return events
        if self.place_op >= 0:
            self._run_place_ops(self.place_op, events)
        else:
            self.phase = ACTIVATE
        return events

    # -- activation
    def _do_activate(self, c: int, extra: bool) -> list[Event]:
        """GM §4.3: activate one tile of the set (the placed tile first: activating another
        one first gives up the placed tile's activation), or Loch Ness's extra one."""
        s = self.cur
        kind = KINDS[self.grid[s][c]]
        event: Event = {"type": "activate", "seat": s, "cell": G.rc(c), "tile": kind.id}
        if extra:
            self.ness = True
            event["loch_ness"] = True
        else:
            todo = self.todo
            todo.remove(c)
            f = self.first
            if f >= 0 and f != c and f in todo:
                todo.remove(f)
                if ACTIVATE_OPS[self.clan_on_place][self.grid[s][f]]:
                    event["skipped"] = G.rc(f)
            self.first = -1
        events: list[Event] = [event]
        for op in ACTIVATE_OPS[self.clan_on_place][kind.index]:
            name = op["op"]
            if name == "produce":
                k = RES_INDEX[op["resource"]]
                m = min(int(op["n"]), self.room(s, c))
                for _ in range(m):
                    self._add_cube(s, c, k)
                events.append(
                    {
                        "type": "produce",
                        "seat": s,
                        "cell": G.rc(c),
                        "resource": op["resource"],
                        "n": m,
                    }
                )
            elif name == "produce_choice":
                self.res_queue = [(c, min(int(op["n"]), self.room(s, c)))]
                self.place_op = -1
                self.phase = RESOURCE
            elif name == "gain":
                self._gain(s, c, op["what"], int(op["n"]), events)
            elif name == "clan_move":
                self.points += int(op["n"])
                events.append(
                    {
                        "type": "gain",
                        "seat": s,
                        "what": "movement",
                        "n": int(op["n"]),
                        "cell": G.rc(c),
                    }
                )
            elif name == "convert":
                need, any_n = pay_of(op)
                self.opt_cell = c
                self.reward_whisky = int(op["gain"].get("whisky", 0))
                self.reward_vp = 0
                self._start_payment(need, any_n, 0, FOR_EFFECT)
            elif name == "score":
                need, any_n = pay_of(op)
                self.opt_cell = c
                self.reward_vp = int(op["vp"])
                self.reward_whisky = 0
                if sum(need) or any_n:
                    self._start_payment(need, any_n, 0, FOR_EFFECT)
                else:
                    self._grant_reward(events)
            elif name in ("score_choice", "score_distinct"):
                self.opt_cell = c
                self.phase = OPTION
        return events

    def _do_option(self, i: int) -> list[Event]:
        """The option of a butcher or fair (GM §4.3); its cubes are then paid step by step."""
        s = self.cur
        c = self.opt_cell
        need, any_n, vp = TILE_OPTIONS[self.grid[s][c]][i]
        self.reward_vp = vp
        self.reward_whisky = 0
        events: list[Event] = [
            {
                "type": "option",
                "seat": s,
                "cell": G.rc(c),
                "option": i,
                "pay": {RESOURCES[k]: need[k] for k in range(NRES) if need[k]},
                "vp": vp,
            }
        ]
        if sum(need) or any_n:
            self._start_payment(need, any_n, 0, FOR_EFFECT)
        else:  # pragma: no cover - every option in the data costs something
            self._grant_reward(events)
            self.phase = ACTIVATE
        return events

    def _do_done(self) -> list[Event]:
        """GM §4.3 → §4.4: stop activating; spend the movement points, or end the turn if
        there are none."""
        s = self.cur
        self.todo = []
        self.first = -1
        events: list[Event] = [{"type": "done", "seat": s, "points": self.points}]
        if self.points > 0:
            self.phase = MOVE
            return events
        return self._end_turn(events)

    # -- clan members
    def _do_move(self, a: int, b: int) -> list[Event]:
        s = self.cur
        clan = self.clan[s]
        clan[a] -= 1
        if not clan[a]:
            del clan[a]
        clan[b] = clan.get(b, 0) + 1
        self.points -= 1
        return [{"type": "move", "seat": s, "from": G.rc(a), "to": G.rc(b)}]

    def _do_chieftain(self, c: int) -> list[Event]:
        s = self.cur
        self._remove_clan(s, c)
        self.chieftains[s] += 1
        self.points -= 1
        return [{"type": "chieftain", "seat": s, "cell": G.rc(c)}]

    # -- end of a turn: refill, scorings, the die figure, the next player
    def _end_turn(self, events: list[Event]) -> list[Event]:
        s = self.cur
        events.append({"type": "end_turn", "seat": s, "turn": self.turn})
        self.turn += 1
        while True:
            if self._refill(events):
                self._finish(events)
                return events
            f = figure_of(self.slots[(self.empty + 1) % TRACK_SLOTS])
            if f == self.n:
                self._die_turn(events)
                continue
            self._reset_turn()
            self.cur = f
            events.append({"type": "turn", "seat": f, "turn": self.turn})
            return events

    def _refill(self, events: list[Event]) -> bool:
        """GM §4.5: tiles behind the new hindmost figure leave the game (D2); fill from the
        old empty space up to the space behind it from the lowest non-empty stack (D3); then
        the scorings of stacks emptied in this refill.  Returns True when the game ends
        (stack 3 ran out, D4)."""
        slots = self.slots
        e = self.empty
        i = (e + 1) % TRACK_SLOTS
        behind = []
        while slots[i] > FIGURE_BASE:  # a tile or the empty space, not a figure
            if slots[i] >= 0:
                behind.append([i, KINDS[slots[i]].id])
                self.removed.append(slots[i])
                slots[i] = EMPTY
            i = (i + 1) % TRACK_SLOTS
        if behind:
            events.append({"type": "left_behind", "tiles": behind})
        target = (i - 1) % TRACK_SLOTS
        sizes = [len(p) for p in self.stacks]
        placed = []
        j = e
        short = False
        while j != target:
            tile = self._draw()
            if tile < 0:
                short = True
                break
            slots[j] = tile
            placed.append([j, KINDS[tile].id])
            j = (j + 1) % TRACK_SLOTS
        self.empty = target
        events.append({"type": "refill", "tiles": placed, "reveal": True})
        ended = False
        for k in range(1, len(self.stacks)):
            if sizes[k] and not self.stacks[k]:
                self._scoring_round(events, k)
                if k == len(self.stacks) - 1:
                    ended = True
        return ended or short

    def _die_turn(self, events: list[Event]) -> None:
        """GM §9: the neutral die figure rolls 1-1-1-2-2-3 and moves onto that many-th tile
        ahead (counting tiles, not spaces, D5); the tile leaves the game."""
        f = self.n
        roll = DIE_FACES[self.rng.randbelow(len(DIE_FACES))]
        slots = self.slots
        frm = self.figs[f]
        i = frm
        target = -1
        seen = 0
        for _ in range(TRACK_SLOTS - 1):
            i = (i + 1) % TRACK_SLOTS
            if i == self.empty:
                break
            if slots[i] >= 0:
                target = i
                seen += 1
                if seen == roll:
                    break
        tile = self._move_figure(f, target)
        self.removed.append(tile)
        events.append(
            {
                "type": "die",
                "roll": roll,
                "from": frm,
                "slot": target,
                "tile": KINDS[tile].id,
                "turn": self.turn,
                "reveal": True,
            }
        )
        self.turn += 1

    def _scoring_round(self, events: list[Event], stack: int) -> None:
        from game.glen_more.scoring import scoring_round

        record = scoring_round(self, len(self.rounds) + 1, stack)
        self.rounds.append(record)
        events.append({"type": "scoring", **record})

    def _finish(self, events: list[Event]) -> None:
        """GM §10: the game ends; the final scoring (§7.2) follows the third round."""
        from game.glen_more.scoring import final_scoring

        self.final = final_scoring(self)
        self.over = True
        self._reset_turn()
        self.phase = OVER
        self.cur = -1
        self._scores = None
        events.append({"type": "final_scoring", **self.final})
        events.append({"type": "game_over", "scores": self.scores(), "winners": self.winners()})
