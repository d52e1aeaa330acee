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

**Where the code is.**  The encodings are :mod:`game.glen_more.codes`; the class is built in
layers: :mod:`~game.glen_more.position` (the fields, small queries), :mod:`~game.glen_more.moves`
(legal steps), :mod:`~game.glen_more.effects` (applying a step, the end of a turn) and this
module (construction, copies, the contract, scores and views).
"""

from __future__ import annotations

from typing import Any

from game.core.rng import Rng, derive_seed
from game.core.types import Action, Event, IllegalAction, Score, Seat
from game.glen_more import grid as G
from game.glen_more.codes import EMPTY, TAKE, figure_code
from game.glen_more.effects import TurnEffects
from game.glen_more.tiles import (
    BOX_CLAN,
    BOX_COINS,
    BOX_RESOURCES,
    BOX_WHISKY,
    DIE_PLAYERS,
    KINDS,
    NRES,
    PREFILL_PLAYERS,
    PREFILL_SPACES,
    PRICES,
    STACKS,
    START_CLAN,
    START_COINS,
    START_VILLAGE,
    TRACK_SLOTS,
)

#: Salts of :meth:`GlenMoreState.determinize`.
_DETERMINIZE_SALT = 0x474D_0001
_RESEED_SALT = 0x474D_0002


class GlenMoreState(TurnEffects):
    """One position of a Glen More game (mutable; see the module docstring)."""

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

    def shared_view(self, seat: Seat | None) -> dict[str, Any]:
        from game.glen_more.views import shared_view

        return shared_view(self, seat)

    def report(self) -> dict[str, Any]:
        from game.glen_more.views import report

        return report(self)

    def report_text(self) -> str:
        from game.glen_more.views import report_text

        return report_text(self)

    def to_dict(self) -> dict[str, Any]:
        from game.glen_more.serialize import to_dict

        return to_dict(self)
