"""The Glen More game state and its turn (GM §2–§10 of ``shared/rules/glen-more.md``).

**The track (GM §3, §4.5, §9).**  ``slots`` holds the 14 spaces: a tile kind (>= 0),
:data:`EMPTY`, or a figure (:func:`figure_code`: the seats, then the neutral die figure with
2–3 players).  At the start of every turn exactly one space is empty (``empty``) and the
figure on the next space clockwise is the hindmost one: it moves next.  A turn ends with the
refill: tiles left behind the new hindmost figure leave the game (D2), then tiles from the
lowest non-empty stack fill the track up to the space behind it (D3).  The die figure's turns
are automatic steps inside the ``apply`` that ended the turn before (rules of the contract).

**A player's turn** is a run of small actions (``docs/glen-more.md``, "Actions")::

    take -> [pay ...] -> place -> [resource ...] -> activate/loch_ness ... -> done -> [move ...] -> end

with ``sell`` allowed at every step.  ``phase`` says which step is pending; payment, option
and resource choices keep their half-built state in the fields below, and ``legal_actions``
lists only steps that can be completed (GM §4.1 D9: a tile is offered only if it can be paid
and placed; a payment step only if the rest stays payable; an activation only if it can do
something).

**Speed.**  Territories are dicts ``cell -> kind`` (``grid``), ``cell -> packed cubes``
(``cubes``: 2 bits per resource) and ``cell -> clan members`` (``clan``); per-seat totals
(``have``, ``clan_total``) are kept up to date; the legal list is built once per position.
"""

from __future__ import annotations

from typing import Any

from game.core.api import GameState
from game.core.rng import Rng, derive_seed
from game.core.types import Action, Event, IllegalAction, Score, Seat
from game.glen_more import grid as G
from game.glen_more.market import (
    KIND_SETS,
    can_pay,
    can_pay_after_buy,
    can_pay_after_own,
)
from game.glen_more.tiles import (
    ACTIVATE_OPS,
    BOX_CLAN,
    BOX_COINS,
    BOX_RESOURCES,
    BOX_WHISKY,
    DIE_FACES,
    DIE_PLAYERS,
    KINDS,
    NRES,
    PLACE_OPS,
    PREFILL_PLAYERS,
    PREFILL_SPACES,
    PRICES,
    RES_INDEX,
    RESOURCES,
    STACKS,
    START_CLAN,
    START_COINS,
    START_VILLAGE,
    TRACK_SLOTS,
    Kind,
)

GAME_ID = "glen-more"

EMPTY = -1
_FIG = -2  # figure f is stored as _FIG - f


def figure_code(f: int) -> int:
    """The track value of figure ``f`` (a seat, or ``players`` for the die figure)."""
    return _FIG - f


def figure_of(v: int) -> int:
    """The figure on a track value ``v <= -2``."""
    return _FIG - v


#: Phases of a player's turn.
TAKE, PAY, PLACE, RESOURCE, OPTION, ACTIVATE, MOVE, OVER = range(8)
PHASES = ("take", "pay", "place", "resource", "option", "activate", "move", "over")
#: What a payment in progress is for.
FOR_TILE, FOR_EFFECT = 0, 1

#: Resource cubes on one tile, packed 2 bits per resource (a tile holds at most 3 cubes).
CUBE_BITS = 2
CUBE_ONE: tuple[int, ...] = tuple(1 << (CUBE_BITS * k) for k in range(NRES))
CUBE_CAP = 3


def _unpack(v: int) -> tuple[int, ...]:
    return tuple((v >> (CUBE_BITS * k)) & 3 for k in range(NRES))


CUBE_COUNTS: tuple[tuple[int, ...], ...] = tuple(_unpack(v) for v in range(1 << (CUBE_BITS * NRES)))
CUBE_TOTAL: tuple[int, ...] = tuple(sum(c) for c in CUBE_COUNTS)
CUBE_KINDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(k for k in range(NRES) if c[k]) for c in CUBE_COUNTS
)

DONE: Action = ("done",)
END: Action = ("end",)
ACTION_KINDS = (
    "take",
    "discard",
    "sell",
    "pay",
    "buy",
    "pay_clan",
    "place",
    "resource",
    "activate",
    "loch_ness",
    "option",
    "done",
    "move",
    "chieftain",
    "end",
)
RESOURCE_ACTIONS: tuple[Action, ...] = tuple(("resource", r) for r in RESOURCES)
BUY_ACTIONS: tuple[Action, ...] = tuple(("buy", r) for r in RESOURCES)

_DETERMINIZE_SALT = 0x474D_0001
_RESEED_SALT = 0x474D_0002


def _op_options(op: dict[str, Any]) -> list[tuple[list[int], int, int]]:
    """The options of a choice operation as ``(need per kind, any, vp)``: a butcher's listed
    options, or a fair's sets of different kinds (GM §4.3)."""
    if op["op"] == "score_choice":
        out = []
        for o in op["options"]:
            need = [0] * NRES
            for r, n in o["pay"].items():
                need[RES_INDEX[r]] += n
            out.append((need, 0, int(o["vp"])))
        return out
    table = op["vp_by_kinds"]
    out = []
    for kinds in KIND_SETS:
        if len(kinds) > op["max_kinds"]:
            break
        need = [0] * NRES
        for k in kinds:
            need[k] = 1
        out.append((need, 0, int(table[len(kinds)])))
    return out


#: ``TILE_OPTIONS[kind]``: the options of the kind's choice operation (empty if it has none).
TILE_OPTIONS: tuple[tuple[tuple[list[int], int, int], ...], ...] = tuple(
    tuple(
        o
        for op in k.on_activate
        if op["op"] in ("score_choice", "score_distinct")
        for o in _op_options(op)
    )
    for k in KINDS
)


def _pay_of(op: dict[str, Any]) -> tuple[list[int], int]:
    need = [0] * NRES
    for r, n in (op.get("pay") or {}).items():
        need[RES_INDEX[r]] += n
    return need, int(op.get("pay_any", 0))


class GlenMoreState(GameState):
    """One position of a Glen More game (mutable; see the module docstring)."""

    game_id = GAME_ID

    n: int
    start: int
    clan_on_place: bool
    die: bool
    slots: list[int]
    figs: list[int]
    empty: int
    stacks: list[list[int]]
    removed: list[int]
    market: list[int]
    bank: int
    stock: list[int]
    whisky_stock: int
    clan_stock: int
    grid: list[dict[int, int]]
    cubes: list[dict[int, int]]
    clan: list[dict[int, int]]
    have: list[list[int]]
    clan_total: list[int]
    coins: list[int]
    whisky: list[int]
    chieftains: list[int]
    tile_vp: list[int]
    cards: list[list[int]]
    rounds: list[dict[str, Any]]
    final: dict[str, Any] | None
    over: bool
    turn: int
    cur: int
    # the turn in progress
    phase: int
    taken: int
    at: int
    todo: list[int]
    first: int
    ness: bool
    points: int
    need: list[int]
    need_any: int
    need_clan: int
    pay_for: int
    reward_vp: int
    reward_whisky: int
    opt_cell: int
    res_queue: list[tuple[int, int]]
    place_op: int
    all_tiles: bool
    rng: Rng
    _acts: list[Action] | None
    _aset: set[Action] | None
    _scores: list[Score] | None
    _view: dict[str, Any] | None

    # ---- construction --------------------------------------------------------------------
    @classmethod
    def empty_state(cls, players: int, start: int, clan_on_place: bool, rng: Rng) -> GlenMoreState:
        """A state with every seat's start village and nothing else (callers set up the track)."""
        st = cls.__new__(cls)
        st.n = players
        st.start = start
        st.clan_on_place = clan_on_place
        st.die = players in DIE_PLAYERS
        st.slots = [EMPTY] * TRACK_SLOTS
        st.figs = [-1] * (players + (1 if st.die else 0))
        st.empty = TRACK_SLOTS - 1
        st.stacks = [[] for _ in STACKS]
        st.removed = []
        st.market = [0] * NRES
        st.bank = BOX_COINS - START_COINS * players
        st.stock = list(BOX_RESOURCES)
        st.whisky_stock = BOX_WHISKY
        st.clan_stock = BOX_CLAN - START_CLAN * players
        st.grid = [{G.ORIGIN: START_VILLAGE} for _ in range(players)]
        st.cubes = [{} for _ in range(players)]
        st.clan = [{G.ORIGIN: START_CLAN} for _ in range(players)]
        st.have = [[0] * NRES for _ in range(players)]
        st.clan_total = [START_CLAN] * players
        st.coins = [START_COINS] * players
        st.whisky = [0] * players
        st.chieftains = [0] * players
        st.tile_vp = [0] * players
        st.cards = [[] for _ in range(players)]
        st.rounds = []
        st.final = None
        st.over = False
        st.turn = 0
        st.cur = start
        st.rng = rng
        st._reset_turn()
        st.phase = TAKE
        st._acts = None
        st._aset = None
        st._scores = None
        st._view = None
        return st

    def setup(self) -> list[Event]:
        """GM §2: shuffle the four stacks; figures on consecutive spaces from the start seat
        (the die figure after the last one, D5 / §2.5); the market pre-filled with 2–3
        players (D7); tiles from stack 0 (then 1) on the following spaces, leaving the space
        behind the first figure empty."""
        for s, tiles in enumerate(STACKS):
            pile = list(tiles)
            self.rng.shuffle(pile)
            self.stacks[s] = pile
        order = [(self.start + i) % self.n for i in range(self.n)]
        if self.die:
            order.append(self.n)
        for slot, f in enumerate(order):
            self.slots[slot] = figure_code(f)
            self.figs[f] = slot
        if self.n in PREFILL_PLAYERS:
            for k in range(NRES):
                self.market[k] = PREFILL_SPACES
                self.bank -= sum(PRICES[:PREFILL_SPACES])
        self.empty = TRACK_SLOTS - 1
        placed = []
        for slot in range(len(order), TRACK_SLOTS - 1):
            tile = self._draw()
            assert tile >= 0, "the stacks always fill the first display"
            self.slots[slot] = tile
            placed.append([slot, KINDS[tile].id])
        self.cur = self.start
        self.phase = TAKE
        return [{"type": "setup", "tiles": placed, "reveal": True}]

    def _draw(self) -> int:
        """The top tile of the lowest non-empty stack (-1 when every stack is empty)."""
        for pile in self.stacks:
            if pile:
                return pile.pop()
        return -1

    def _reset_turn(self) -> None:
        self.phase = TAKE
        self.taken = -1
        self.at = -1
        self.todo = []
        self.first = -1
        self.ness = False
        self.points = 0
        self.need = [0] * NRES
        self.need_any = 0
        self.need_clan = 0
        self.pay_for = FOR_TILE
        self.reward_vp = 0
        self.reward_whisky = 0
        self.opt_cell = -1
        self.res_queue = []
        self.place_op = -1
        self.all_tiles = False

    def clone(self) -> GlenMoreState:
        """A cheap independent copy (every mutable container copied; records shared)."""
        st = GlenMoreState.__new__(GlenMoreState)
        st.n = self.n
        st.start = self.start
        st.clan_on_place = self.clan_on_place
        st.die = self.die
        st.slots = self.slots[:]
        st.figs = self.figs[:]
        st.empty = self.empty
        st.stacks = [p[:] for p in self.stacks]
        st.removed = self.removed[:]
        st.market = self.market[:]
        st.bank = self.bank
        st.stock = self.stock[:]
        st.whisky_stock = self.whisky_stock
        st.clan_stock = self.clan_stock
        st.grid = [g.copy() for g in self.grid]
        st.cubes = [c.copy() for c in self.cubes]
        st.clan = [c.copy() for c in self.clan]
        st.have = [h[:] for h in self.have]
        st.clan_total = self.clan_total[:]
        st.coins = self.coins[:]
        st.whisky = self.whisky[:]
        st.chieftains = self.chieftains[:]
        st.tile_vp = self.tile_vp[:]
        st.cards = [c[:] for c in self.cards]
        st.rounds = self.rounds[:]
        st.final = self.final
        st.over = self.over
        st.turn = self.turn
        st.cur = self.cur
        st.phase = self.phase
        st.taken = self.taken
        st.at = self.at
        st.todo = self.todo[:]
        st.first = self.first
        st.ness = self.ness
        st.points = self.points
        st.need = self.need[:]
        st.need_any = self.need_any
        st.need_clan = self.need_clan
        st.pay_for = self.pay_for
        st.reward_vp = self.reward_vp
        st.reward_whisky = self.reward_whisky
        st.opt_cell = self.opt_cell
        st.res_queue = self.res_queue[:]
        st.place_op = self.place_op
        st.all_tiles = self.all_tiles
        st.rng = Rng(self.rng.state)
        st._acts = self._acts
        st._aset = self._aset
        st._scores = self._scores
        st._view = None
        return st

    def determinize(self, seat: Seat | None, seed: int) -> GlenMoreState:
        """A copy with each stack's order resampled (GM §2: the stacks lie face down; their
        sizes and contents are public, their order is not) and the RNG reseeded.  Every stack
        is sorted before its shuffle, so the copy depends only on what a seat sees and
        ``seed``.  Everything else in Glen More is public."""
        st = self.clone()
        rng = Rng(derive_seed(seed, _DETERMINIZE_SALT))
        for pile in st.stacks:
            pile.sort()
            rng.shuffle(pile)
        st.rng = Rng(derive_seed(seed, _RESEED_SALT))
        return st

    # ---- who and what -------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.n

    def to_move(self) -> tuple[Seat, ...]:
        return () if self.over else (self.cur,)

    def turn_id(self) -> int:
        """GM §3: the number of turns ended so far (players' and the die figure's), so it
        changes at every end of a turn, also when the same figure is hindmost again."""
        return self.turn

    def is_over(self) -> bool:
        return self.over

    def legal_actions(self, seat: Seat) -> list[Action]:
        if self.over or seat != self.cur:
            return []
        acts = self._acts
        if acts is None:
            acts = self._acts = self._decide()
        return list(acts)

    def is_legal(self, seat: Seat, action: Action) -> bool:
        if self.over or seat != self.cur:
            return False
        aset = self._aset
        if aset is None:
            acts = self._acts
            if acts is None:
                acts = self._acts = self._decide()
            aset = self._aset = set(acts)
        try:
            listed = action in aset
        except TypeError:  # an unhashable part
            return False
        # True == 1 for sets: a bool is never a slot, coordinate or index
        return listed and not any(x is True or x is False for x in action)

    # ---- small queries ------------------------------------------------------------------
    def kind_at(self, seat: int, c: int) -> Kind:
        return KINDS[self.grid[seat][c]]

    def room(self, seat: int, c: int) -> int:
        """Free cube spaces on the tile at ``c`` (GM §4.3: at most 3 cubes on a tile)."""
        return CUBE_CAP - CUBE_TOTAL[self.cubes[seat].get(c, 0)]

    def _can_pay(self, need: list[int], any_n: int) -> bool:
        s = self.cur
        return can_pay(need, any_n, self.have[s], self.market, self.coins[s])

    def bonnets(self, seat: int) -> int:
        """Bonnets printed on the seat's special-location cards (GM §7.1)."""
        return sum(KINDS[k].bonnets for k in self.cards[seat])

    def chieftain_multiplier(self, seat: int) -> int:
        """Castle of Mey doubles the chieftains (GM §7.1 D19)."""
        m = 1
        for k in self.cards[seat]:
            m = max(m, KINDS[k].chieftain_multiplier)
        return m

    def has_extra_activation(self, seat: int) -> bool:
        """Loch Ness's card: one extra activation per turn (GM §4.3 D15)."""
        return any(KINDS[k].per_turn for k in self.cards[seat])

    # ---- the current decision -----------------------------------------------------------
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
                need, any_n = _pay_of(op)
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

    # ---- applying actions ---------------------------------------------------------------
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
                need, any_n = _pay_of(op)
                self.opt_cell = c
                self.reward_whisky = int(op["gain"].get("whisky", 0))
                self.reward_vp = 0
                self._start_payment(need, any_n, 0, FOR_EFFECT)
            elif name == "score":
                need, any_n = _pay_of(op)
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
        while slots[i] > _FIG:  # a tile or the empty space, not a figure
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

    # ---- scores -------------------------------------------------------------------------
    def scores(self) -> list[Score]:
        """GM §7: the banked points: brown-tile VP, the scoring rounds held so far and, once
        the game is over, coins, tile penalty and the special tiles' end effects."""
        if self._scores is None:
            from game.glen_more.scoring import banked

            self._scores = banked(self)
        return [dict(row) for row in self._scores]

    def preview_scores(self) -> list[Score]:
        """The banked points plus what the next scoring round would give now and the final
        extras as if the game ended now (``docs/glen-more.md``, "Scores")."""
        from game.glen_more.scoring import preview

        return preview(self)

    # ---- errors and words ---------------------------------------------------------------
    def explain_illegal(self, seat: Seat, action: Action) -> IllegalAction:
        from game.glen_more.explain import explain

        return explain(self, seat, action)

    def describe(self, action: Action) -> str:
        from game.glen_more.explain import describe

        return describe(self, action)

    # ---- views and saves ----------------------------------------------------------------
    def view(self, seat: Seat | None) -> dict[str, Any]:
        from game.glen_more.views import view

        return view(self, seat)

    def report(self) -> dict[str, Any]:
        from game.glen_more.views import report

        return report(self)

    def report_text(self) -> str:
        from game.glen_more.views import report_text

        return report_text(self)

    def to_dict(self) -> dict[str, Any]:
        from game.glen_more.serialize import to_dict

        return to_dict(self)
