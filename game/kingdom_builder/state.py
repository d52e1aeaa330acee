"""The Kingdom Builder game state and its rules (KB §3–§8 of ``shared/rules/kingdom-builder.md``).

Actions (see ``docs/kingdom-builder.md``)::

    ("place", r, c)      build from supply (mandatory action or a build tile), or the
                         destination of a move tile
    ("use", lr, lc)      start using the tile taken from location hex (lr, lc)
    ("move_from", r, c)  the settlement a move tile (Barn, Harbor, Paddock, Caravan) moves
    ("wall", r, c)       Quarry: a stone wall
    ("remove", r, c)     Sword: the other player's settlement on (r, c) goes back to its supply
    ("stop",)            Quarry: stop after one wall; Resettlement: stop after a step
    ("end",)             end the turn

A nomad tile (Nomads) is named by its nomad hex, like a location tile by its location hex:
``("use", nr, nc)``; Donation then takes ``place`` actions, Resettlement ``move_from`` and
``place`` (one step each), Sword ``remove`` actions; Treasure and Outpost act at once.

**Speed.**  Bots clone and play out thousands of games, so the state is built for cheap
copy/apply: hexes are ints (``row * 20 + col``), geometry lives in a shared
:class:`~game.kingdom_builder.board.Board`, and these sets are kept up to date incrementally
on every change instead of being searched for:

* ``free[t]`` — the empty hexes of terrain ``t`` (no settlement, no wall);
* ``adj[s][h]`` — how many of seat ``s``'s settlements touch hex ``h``;
* ``front[s]`` — the empty open hexes (buildable, water, mountain) touching a settlement of
  ``s``.

The placement rule (KB §5) is then one set intersection: ``free[t] & front[s]`` if not empty,
else ``free[t]``.  The current decision (what is legal now) is computed once and cached until
the next action.  For readers that key memos by a seat's pieces (the bots' evaluation),
:meth:`KingdomBuilderState.frozen_home` and :meth:`~KingdomBuilderState.frozen_front` give
``homes[s]`` and ``front[s]`` as frozensets, made once and shared by the copies until the set
changes (the rules never read them).

**Nomads** (:mod:`~game.kingdom_builder.nomads`).  With ``nomads == "full"`` each nomad hex
starts with a face-up nomad tile (``nomad_left``, ``nkind``); the first seat to build or move
next to it takes it (``nheld[seat]``, new until its next turn, usable in that turn only, then
gone).  In-play gold (the Nomads cards, Treasure) is banked per seat and source in ``gold``.

**Where the code is.**  The encodings are :mod:`game.kingdom_builder.codes`; the class is built
in layers: :mod:`~game.kingdom_builder.position` (the fields, small queries),
:mod:`~game.kingdom_builder.moves` (legal actions), :mod:`~game.kingdom_builder.effects`
(applying an action) and this module (construction, copies, the contract, scores and views).
"""

from __future__ import annotations

from typing import Any

from game.core.rng import Rng, derive_seed
from game.core.types import Action, IllegalAction, Score, Seat
from game.kingdom_builder import nomads as nm
from game.kingdom_builder.board import HEXES, Board
from game.kingdom_builder.codes import BANKED, CARDS_PER_TERRAIN, EMPTY, SETTLEMENTS, hex_of
from game.kingdom_builder.effects import TurnEffects
from game.kingdom_builder.scoring import score_table

#: Salts of :meth:`KingdomBuilderState.determinize` (ints: cheaper to mix than strings).
_DETERMINIZE_SALT = 0x4B42_0001
_RESEED_SALT = 0x4B42_0002


class KingdomBuilderState(TurnEffects):
    """One position of a Kingdom Builder game (mutable; see the module docstring)."""

    # ---- construction --------------------------------------------------------------------
    @classmethod
    def empty(
        cls,
        board: Board,
        players: int,
        cards: tuple[str, ...],
        nomads: str,
        start: int,
        rng: Rng,
    ) -> KingdomBuilderState:
        """A state with an empty map and full supplies; cards not yet dealt (callers deal)."""
        st = cls.__new__(cls)
        st.board = board
        st.n = players
        st.cards = cards
        st.nomads = nomads
        st.start = start
        st.cur = start
        st.round = 1
        st.terrain = -1
        st.placed = 0
        st.mand_done = False
        st.pending = None
        st.mand_hexes = []
        st.outpost = 0
        st.end_triggered = False
        st.over = False
        st.owner = [EMPTY] * HEXES
        st.homes = [set() for _ in range(players)]
        st.adj = [bytearray(HEXES) for _ in range(players)]
        st.front = [set() for _ in range(players)]
        st.free = [set(f) for f in board.initial_free]
        st.supply = [SETTLEMENTS] * players
        st.tiles = [{} for _ in range(players)]
        st.taken = [set() for _ in range(players)]
        st.left = {L: 2 for L in board.locations}
        st.walls = set()
        st.walls_left = 25 if board.has_quarry else 0
        st.deck = []
        st.discard = []
        st.hands = [-1] * players
        st.nomad_left = set()
        st.nkind = {}
        st.nheld = [{} for _ in range(players)]
        st.gold = [[0] * len(nm.GOLD_SOURCES) for _ in range(players)]
        st.rng = rng
        st._dec = None
        st._scores = None
        st._view = None
        st._gains = None
        st._fz_home = [None] * players
        st._fz_front = [None] * players
        return st

    def lay_nomad_tiles(self) -> None:
        """KB §3.3 (full Nomads): one random tile of the 15, face up, on each nomad hex (in hex
        order), drawn from the state's RNG."""
        drawn = self.rng.sample(nm.POOL, len(self.board.nomads))
        self.nkind = dict(zip(self.board.nomads, drawn, strict=True))
        self.nomad_left = set(self.board.nomads)

    @property
    def nomad_tiles(self) -> bool:
        """Whether nomad tiles are in play (full Nomads on a map with nomad hexes)."""
        return self.nomads == nm.FULL and bool(self.board.nomads)

    def deal(self) -> None:
        """KB §3.4 and §3.6: shuffle the 25 terrain cards, each seat draws one (seat order);
        the start seat's card is revealed as its turn begins (KB §4.1)."""
        self.deck = [t for t in range(5) for _ in range(CARDS_PER_TERRAIN)]
        self.rng.shuffle(self.deck)
        for seat in range(self.n):
            self.hands[seat] = self.deck.pop()
        self.terrain = self.hands[self.cur]
        self._view = None

    def clone(self) -> KingdomBuilderState:
        """A cheap independent copy: the board is shared, every mutable container copied."""
        st = KingdomBuilderState.__new__(KingdomBuilderState)
        st.board = self.board
        st.n = self.n
        st.cards = self.cards
        st.nomads = self.nomads
        st.start = self.start
        st.cur = self.cur
        st.round = self.round
        st.terrain = self.terrain
        st.placed = self.placed
        st.mand_done = self.mand_done
        st.pending = self.pending
        st.mand_hexes = self.mand_hexes[:]
        st.outpost = self.outpost
        st.end_triggered = self.end_triggered
        st.over = self.over
        st.owner = self.owner[:]
        st.homes = list(map(set.copy, self.homes))
        st.adj = list(map(bytearray, self.adj))  # copies of the bytearrays
        st.front = list(map(set.copy, self.front))
        st.free = list(map(set.copy, self.free))
        st.supply = self.supply[:]
        st.tiles = list(map(dict.copy, self.tiles))
        st.taken = list(map(set.copy, self.taken))
        st.left = self.left.copy()
        st.walls = self.walls.copy()
        st.walls_left = self.walls_left
        st.deck = self.deck[:]
        st.discard = self.discard[:]
        st.hands = self.hands[:]
        st.nomad_left = self.nomad_left.copy()
        st.nkind = self.nkind.copy()
        st.nheld = list(map(dict.copy, self.nheld))
        st.gold = list(map(list.copy, self.gold))
        st.rng = Rng(self.rng.state)
        st._dec = None
        st._scores = self._scores
        st._view = None
        st._gains = None
        st._fz_home = self._fz_home[:]
        st._fz_front = self._fz_front[:]
        return st

    def determinize(self, seat: Seat | None, seed: int) -> KingdomBuilderState:
        """A copy in which what ``seat`` cannot see is resampled (KB §3.6, §4).

        ``seat`` knows its own card, the current player's revealed card and the discard pile
        (face up); the other seats' cards and the draw pile's order are hidden.  Those cards
        are pooled and dealt again at random, which keeps every count ``seat`` could deduce.
        The pool is sorted before the shuffle, so the copy depends only on what ``seat`` sees
        and ``seed`` — not on where the hidden cards really are (bots rely on this).
        The copy's RNG is reseeded, so it cannot predict the real game's draws.
        """
        st = self.clone()
        rng = Rng(derive_seed(seed, _DETERMINIZE_SALT))
        hidden = [
            s
            for s in range(st.n)
            if s != seat and not (s == st.cur and not st.over) and st.hands[s] >= 0
        ]
        pool = sorted(st.deck + [st.hands[s] for s in hidden])
        rng.shuffle(pool)
        for s in hidden:
            st.hands[s] = pool.pop()
        st.deck = pool
        st.rng = Rng(derive_seed(seed, _RESEED_SALT))
        return st

    def placement_gains(self) -> list[dict[str, Any]]:
        """What each legal placement of the seat to move would change in its previewed score,
        and the tiles it would take or lose (:func:`~game.kingdom_builder.gains.placement_gains`;
        cached until the next action)."""
        if self._gains is None:
            from game.kingdom_builder.gains import placement_gains

            self._gains = placement_gains(self)
        return self._gains

    # ---- who and what -------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.n

    def to_move(self) -> tuple[Seat, ...]:
        return () if self.over else (self.cur,)

    def turn_id(self) -> int:
        """KB §4: one turn per seat per round, in seat order from the start seat; the last
        turn's end (the game's end) counts as well."""
        return self.round * self.n + (self.cur - self.start) % self.n + (1 if self.over else 0)

    def is_over(self) -> bool:
        return self.over

    def legal_actions(self, seat: Seat) -> list[Action]:
        if self.over or seat != self.cur:
            return []
        return list(self._decide().action_list())

    def is_legal(self, seat: Seat, action: Action) -> bool:
        if self.over or seat != self.cur or not action:
            return False
        d = self._decide()
        kind = action[0]
        if kind == "place":
            return hex_of(action) in d.place
        if kind == "use":
            return hex_of(action) in d.uses
        if kind == "move_from":
            return hex_of(action) in d.sources
        if kind == "wall":
            return hex_of(action) in d.walls
        if kind == "remove":
            return hex_of(action) in d.removes
        if kind == "stop":
            return d.stop and len(action) == 1
        if kind == "end":
            return d.end and len(action) == 1
        return False

    # ---- scores -------------------------------------------------------------------------
    def scores(self) -> list[Score]:
        """KB §9: the banked points — castles and the base cards count only at the end of the
        game (0 before); the gold the Nomads cards and Treasure pay during play counts at once
        (it is banked as it is earned)."""
        if self.over:
            return self.preview_scores()
        rows = []
        for row in self.preview_scores():
            banked = {k: (v if k in BANKED else 0) for k, v in row.items()}
            banked["total"] = sum(v for k, v in banked.items() if k != "total")
            rows.append(banked)
        return rows

    def preview_scores(self) -> list[Score]:
        """KB §9: castles + the 3 cards (+ Treasure gold), *if the game ended now* (the live
        preview); the final score once the game is over."""
        if self._scores is None:
            self._scores = score_table(
                self.board, self.homes, self.cards, self.gold, self.nomad_tiles
            )
        return [dict(row) for row in self._scores]

    # ---- errors -------------------------------------------------------------------------
    def explain_illegal(self, seat: Seat, action: Action) -> IllegalAction:
        from game.kingdom_builder.explain import explain

        return explain(self, seat, action)

    def describe(self, action: Action) -> str:
        from game.kingdom_builder.explain import describe

        return describe(self, action)

    # ---- views and saves ----------------------------------------------------------------
    def view(self, seat: Seat | None) -> dict[str, Any]:
        from game.kingdom_builder.views import view

        return view(self, seat)

    def shared_view(self, seat: Seat | None) -> dict[str, Any]:
        from game.kingdom_builder.views import shared_view

        return shared_view(self, seat)

    def report(self) -> dict[str, Any]:
        from game.kingdom_builder.views import report

        return report(self)

    def report_text(self) -> str:
        from game.kingdom_builder.views import report_text

        return report_text(self)

    def to_dict(self) -> dict[str, Any]:
        from game.kingdom_builder.serialize import to_dict

        return to_dict(self)
