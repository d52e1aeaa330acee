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
"""

from __future__ import annotations

from typing import Any

from game.core.api import GameState
from game.core.rng import Rng, derive_seed
from game.core.types import Action, Event, IllegalAction, Score, Seat
from game.kingdom_builder import nomads as nm
from game.kingdom_builder.board import (
    DESERT,
    FLOWER,
    GRASS,
    HEXES,
    SIZE,
    TERRAIN_CODES,
    WATER,
    Board,
)
from game.kingdom_builder.scoring import TREASURE, score_table

GAME_ID = "kingdom-builder"
SETTLEMENTS = 40
CARDS_PER_TERRAIN = 5

EMPTY = -1
WALL = -2

#: Tile states: usable now, used this turn, gained this turn (usable from the next turn).
READY, USED, NEW = 0, 1, 2
TILE_STATES = ("ready", "used", "pending")

#: Steps of a tile action in progress (``victim``: Sword, choosing a settlement to remove).
TARGET, SOURCE, WALL1, WALL2, VICTIM = "target", "source", "wall", "second_wall", "victim"
STEPS = (TARGET, SOURCE, WALL1, WALL2, VICTIM)

BUILD_TILES = frozenset({"Oracle", "Farm", "Oasis", "Tower", "Tavern", "Garden", "Village"})
MOVE_TILES = frozenset({"Barn", "Harbor", "Paddock", "Caravan"})
WALL_TILES = frozenset({"Quarry"})
#: Every location tile type (the section names).
TILE_TYPES = BUILD_TILES | MOVE_TILES | WALL_TILES
#: Nomad tile types that build settlements (KB §7 nomad tiles).
NOMAD_BUILDS = frozenset({"Donation"})
#: Where in-play gold goes: index of each source in ``gold[seat]``.
GOLD_INDEX = {source: i for i, source in enumerate(nm.GOLD_SOURCES)}
#: Score categories banked as they are earned (KB §9.3): the Nomads cards and Treasure.
BANKED = frozenset(nm.CARDS) | {TREASURE}

#: Interned action tuples per hex id.
PLACE: tuple[Action, ...] = tuple(("place", h // SIZE, h % SIZE) for h in range(HEXES))
USE: tuple[Action, ...] = tuple(("use", h // SIZE, h % SIZE) for h in range(HEXES))
MOVE_FROM: tuple[Action, ...] = tuple(("move_from", h // SIZE, h % SIZE) for h in range(HEXES))
WALL_AT: tuple[Action, ...] = tuple(("wall", h // SIZE, h % SIZE) for h in range(HEXES))
REMOVE: tuple[Action, ...] = tuple(("remove", h // SIZE, h % SIZE) for h in range(HEXES))
STOP: Action = ("stop",)
END: Action = ("end",)
ACTION_KINDS = ("place", "use", "move_from", "wall", "remove", "stop", "end")

_NO_HEXES: frozenset[int] = frozenset()

#: Salts of :meth:`KingdomBuilderState.determinize` (ints: cheaper to mix than strings).
_DETERMINIZE_SALT = 0x4B42_0001
_RESEED_SALT = 0x4B42_0002


def hex_of(action: Action) -> int:
    """The hex id named by ``(kind, r, c)``, or -1 if the action does not name a map hex."""
    if len(action) != 3:
        return -1
    r, c = action[1], action[2]
    if type(r) is not int or type(c) is not int or not (0 <= r < SIZE and 0 <= c < SIZE):
        return -1
    return r * SIZE + c


def pos(h: int) -> list[int]:
    """A hex id as the ``[r, c]`` list used in views, events and saves."""
    return [h // SIZE, h % SIZE]


def _terrain_code(tile_id: str) -> str | None:
    """The terrain letter of a Donation tile, ``None`` for the other nomad tiles."""
    t = nm.TILE_TERRAIN[tile_id]
    return TERRAIN_CODES[t] if t >= 0 else None


class Decision:
    """What the player to move may do now (cached until the next action)."""

    __slots__ = ("actions", "end", "place", "removes", "sources", "stop", "uses", "walls")

    def __init__(self) -> None:
        self.place: set[int] | frozenset[int] = _NO_HEXES
        self.uses: list[int] = []
        self.sources: list[int] = []
        self.walls: set[int] | frozenset[int] = _NO_HEXES
        self.removes: list[int] = []
        self.stop = False
        self.end = False
        self.actions: list[Action] | None = None

    def action_list(self) -> list[Action]:
        """The legal actions in their documented order (built once, then cached)."""
        acts = self.actions
        if acts is None:
            acts = [PLACE[h] for h in sorted(self.place)] if self.place else []
            if self.uses:
                acts += [USE[h] for h in self.uses]
            if self.sources:
                acts += [MOVE_FROM[h] for h in self.sources]
            if self.walls:
                acts += [WALL_AT[h] for h in sorted(self.walls)]
            if self.removes:
                acts += [REMOVE[h] for h in self.removes]
            if self.stop:
                acts.append(STOP)
            if self.end:
                acts.append(END)
            self.actions = acts
        return acts


class KingdomBuilderState(GameState):
    """One position of a Kingdom Builder game (mutable; see the module docstring)."""

    game_id = GAME_ID

    board: Board
    n: int
    cards: tuple[str, ...]
    #: The Nomads expansion setting: "off", "boards" or "full" (:mod:`nomads`).
    nomads: str
    start: int
    cur: int
    round: int
    terrain: int
    placed: int
    mand_done: bool
    #: The tile action in progress: (tile hex, step, settlement being moved or -1, count) —
    #: count is the settlements a Donation still builds, the steps Resettlement has left, or
    #: the bit mask of the seats a Sword already hit; 0 for the other tiles.
    pending: tuple[int, str, int, int] | None
    #: This turn's mandatory settlements while the action runs (Families, KB §9.3).
    mand_hexes: list[int]
    #: Builds this turn that still ignore the adjacency rule (Outpost, KB §7).
    outpost: int
    end_triggered: bool
    over: bool
    owner: list[int]
    homes: list[set[int]]
    adj: list[bytearray]
    front: list[set[int]]
    free: list[set[int]]
    supply: list[int]
    tiles: list[dict[int, int]]
    taken: list[set[int]]
    left: dict[int, int]
    walls: set[int]
    walls_left: int
    deck: list[int]
    discard: list[int]
    hands: list[int]
    #: Nomad hexes whose tile still lies there (face up, public).
    nomad_left: set[int]
    #: Nomad hex -> the id of its tile, for every tile still on the map or held.
    nkind: dict[int, str]
    #: Per seat: nomad hex -> state (READY/USED/NEW) of the nomad tile taken from there.
    nheld: list[dict[int, int]]
    #: Per seat: in-play gold per source (:data:`~game.kingdom_builder.nomads.GOLD_SOURCES`).
    gold: list[list[int]]
    rng: Rng
    _dec: Decision | None
    _scores: list[Score] | None
    #: The seat-independent part of :meth:`view` for this position (``views.view`` fills it;
    #: every change of the position clears it), so a host builds it once per action.
    _view: dict[str, Any] | None
    #: What each legal placement of the seat to move would gain (``gains.placement_gains``),
    #: built for the view of the seat to move once per position.
    _gains: list[dict[str, Any]] | None
    #: Per seat: ``homes[s]`` and ``front[s]`` as frozensets once asked for
    #: (:meth:`frozen_home`, :meth:`frozen_front`), ``None`` once the set has changed.
    _fz_home: list[frozenset[int] | None]
    _fz_front: list[frozenset[int] | None]

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
        st.homes = [h.copy() for h in self.homes]
        st.adj = [a[:] for a in self.adj]  # bytearrays: a fast copy
        st.front = [f.copy() for f in self.front]
        st.free = [f.copy() for f in self.free]
        st.supply = self.supply[:]
        st.tiles = [t.copy() for t in self.tiles]
        st.taken = [t.copy() for t in self.taken]
        st.left = self.left.copy()
        st.walls = self.walls.copy()
        st.walls_left = self.walls_left
        st.deck = self.deck[:]
        st.discard = self.discard[:]
        st.hands = self.hands[:]
        st.nomad_left = self.nomad_left.copy()
        st.nkind = self.nkind.copy()
        st.nheld = [h.copy() for h in self.nheld]
        st.gold = [g[:] for g in self.gold]
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

    # ---- the current decision -----------------------------------------------------------
    def _decide(self) -> Decision:
        d = self._dec
        if d is not None:
            return d
        d = Decision()
        s = self.cur
        p = self.pending
        if self.over:
            pass
        elif p is not None:
            loc, step, frm, count = p
            kind = self.tile_kind(loc)
            if step == TARGET:
                if frm >= 0:
                    d.place = self._move_targets(kind, s, frm)
                elif kind == "Donation":
                    d.place = self._donation_targets(loc, s)
                else:
                    d.place = self._build_targets(kind, s)
            elif step == SOURCE:
                d.sources = self._move_sources(kind, s)
                d.stop = kind == "Resettlement" and count < nm.RESETTLEMENT_STEPS
            elif step == VICTIM:
                d.removes = self._victims(s, count)
            else:
                d.walls = self._wall_targets(s)
                d.stop = step == WALL2
        elif self.placed and not self.mand_done:
            d.place = self._mandatory_targets(s)
            if self.nheld[s]:  # Outpost changes a build: it may come between the placements
                d.uses = self._nomad_uses(s, outposts_only=True)
        else:
            if self.mand_done:
                d.end = True
            else:
                d.place = self._mandatory_targets(s)
                d.end = not d.place
            tiles = self.tiles[s]
            if tiles:
                d.uses = [
                    loc for loc in sorted(tiles) if tiles[loc] == READY and self._usable(loc, s)
                ]
            if self.nheld[s]:
                nomad_uses = self._nomad_uses(s)
                if nomad_uses:
                    d.uses = sorted(d.uses + nomad_uses)
        self._dec = d
        return d

    def tile_kind(self, h: int) -> str:
        """The type of the tile taken from hex ``h``: a location type (its section's name) for a
        location hex, a nomad tile type (Donation, Treasure, Sword, Outpost, Resettlement) for
        a nomad hex."""
        kind = self.board.location_type.get(h)
        return kind if kind is not None else nm.TILE_TYPE[self.nkind[h]]

    def _nomad_uses(self, s: int, outposts_only: bool = False) -> list[int]:
        """The nomad tiles ``s`` may use now: ready (taken before this turn, KB §7 nomad tiles)
        and with something to do."""
        held = self.nheld[s]
        out = []
        for h in sorted(held):
            if held[h] != READY:
                continue
            kind = nm.TILE_TYPE[self.nkind[h]]
            if outposts_only and kind != "Outpost":
                continue
            if self._nomad_usable(h, kind, s):
                out.append(h)
        return out

    def _nomad_usable(self, h: int, kind: str, s: int) -> bool:
        """KB §7 nomad tiles: a tile is usable when its action can be completed — Donation
        while a hex of its terrain is free and the supply holds a settlement; Sword while
        another seat has a settlement on the map; Resettlement while one of your settlements
        can step; Outpost while a build of yours may still come this turn; Treasure always."""
        if kind == "Donation":
            return self.supply[s] > 0 and bool(self.free[nm.TILE_TERRAIN[self.nkind[h]]])
        if kind == "Treasure":
            return True
        if kind == "Sword":
            return any(self.homes[q] for q in range(self.n) if q != s)
        if kind == "Resettlement":
            return any(self._can_step(x, self.board.step) for x in self.homes[s])
        return self._build_ahead(s, h)

    def _build_ahead(self, s: int, outpost: int) -> bool:
        """Whether ``s`` may still build a settlement this turn (what makes Outpost usable):
        the mandatory action is not over and has a hex, or another ready tile builds."""
        if self.supply[s] <= 0:
            return False
        if not self.mand_done and self.free[self.terrain]:
            return True
        tiles = self.tiles[s]
        kinds = self.board.location_type
        for loc, state in tiles.items():
            if state == READY and kinds[loc] in BUILD_TILES and self._usable(loc, s):
                return True
        held = self.nheld[s]
        for h, state in held.items():
            if h != outpost and state == READY:
                tid = self.nkind[h]
                if nm.TILE_TYPE[tid] in NOMAD_BUILDS and self.free[nm.TILE_TERRAIN[tid]]:
                    return True
        return False

    def _placement(self, cand: set[int], s: int) -> set[int]:
        """KB §5: of the candidate hexes, those touching your settlements if there are any,
        else all of them.  An armed Outpost (KB §7) lifts the adjacency rule: all of them."""
        if not cand or self.outpost:
            return cand
        near = cand & self.front[s]
        return near if near else cand

    def _donation_targets(self, loc: int, s: int) -> set[int]:
        """KB §7 Donation: an empty hex of the tile's terrain (water and mountain included),
        adjacent if possible; nothing once the supply is empty."""
        if self.supply[s] <= 0:
            return set()
        return self._placement(self.free[nm.TILE_TERRAIN[self.nkind[loc]]], s)

    def _victims(self, s: int, hit: int) -> list[int]:
        """KB §7 Sword: the settlements of every other seat that has not lost one to this Sword
        yet (``hit`` is the bit mask of those that have)."""
        out: list[int] = []
        for q in range(self.n):
            if q != s and not hit >> q & 1:
                out += self.homes[q]
        out.sort()
        return out

    def _mandatory_targets(self, s: int) -> set[int]:
        """KB §4.2 + §5: an empty hex of the card's terrain, adjacent if possible."""
        if self.supply[s] <= 0:
            return set()
        return self._placement(self.free[self.terrain], s)

    def _build_targets(self, kind: str, s: int) -> set[int]:
        """Targets of a build tile (KB §7); empty if the supply is empty."""
        if self.supply[s] <= 0:
            return set()
        if kind == "Oracle":
            return self._placement(self.free[self.terrain], s)
        if kind == "Farm":
            return self._placement(self.free[GRASS], s)
        if kind == "Oasis":
            return self._placement(self.free[DESERT], s)
        if kind == "Garden":
            return self._placement(self.free[FLOWER], s)
        if kind == "Tower":
            return self._placement(self._free_edge(), s)
        if kind == "Tavern":
            return self._tavern_targets(s)
        if kind == "Village":
            return self._village_targets(s)
        raise AssertionError(f"{kind} is not a build tile")

    def _free_edge(self) -> set[int]:
        """KB §7 Tower: available hexes on the edge of the assembled map (KB §2)."""
        owner, buildable = self.owner, self.board.buildable
        return {h for h in self.board.edge_list if owner[h] == EMPTY and buildable[h]}

    def _tavern_targets(self, s: int, first: bool = False) -> set[int]:
        """KB §7 Tavern: an available hex at either end of a straight line of at least 3 of
        your own settlements (any of the 3 axes).  Every run of 3 in a row along E, SE or SW
        is checked at both ends, which finds both ends of every line of 3 or more.  With
        ``first`` it stops at the first target (a usability test)."""
        owner, buildable = self.owner, self.board.buildable
        home = self.homes[s]
        out: set[int] = set()
        if len(home) < 3:
            return out
        for fwd, back in self.board.axes:
            for h in home:
                h1 = fwd[h]
                if h1 < 0 or h1 not in home:
                    continue
                h2 = fwd[h1]
                if h2 < 0 or h2 not in home:
                    continue
                for end in (fwd[h2], back[h]):
                    if end >= 0 and owner[end] == EMPTY and buildable[end]:
                        out.add(end)
                        if first:
                            return out
        return out

    def _village_targets(self, s: int) -> set[int]:
        """KB §7 Village: an available hex touching at least 3 of your own settlements."""
        a, buildable = self.adj[s], self.board.buildable
        return {h for h in self.front[s] if a[h] >= 3 and buildable[h]}

    def _move_sources(self, kind: str, s: int) -> list[int]:
        """Your settlements that the move tile can move somewhere (KB §7)."""
        home = self.homes[s]
        if kind == "Barn":
            return sorted(home) if self.free[self.terrain] else []
        if kind == "Harbor":
            return sorted(home) if self.free[WATER] else []
        if kind == "Paddock":
            return [h for h in sorted(home) if self._can_step(h, self.board.jump)]
        if kind in ("Caravan", "Resettlement"):
            return [h for h in sorted(home) if self._can_step(h, self.board.step)]
        raise AssertionError(f"{kind} is not a move tile")

    def _can_step(self, frm: int, tables: tuple[tuple[int, ...], ...]) -> bool:
        """Whether one of the hexes ``table[frm]`` (over the 6 directions) is empty and
        buildable: Paddock with the jump tables, Caravan (its first step) with the step
        tables."""
        owner, buildable = self.owner, self.board.buildable
        for table in tables:
            h = table[frm]
            if h >= 0 and owner[h] == EMPTY and buildable[h]:
                return True
        return False

    def _move_targets(self, kind: str, s: int, frm: int) -> set[int]:
        """Destinations for moving the settlement on ``frm`` (KB §7)."""
        if kind == "Barn":
            return self._lifted_placement(self.free[self.terrain], s, frm)
        if kind == "Harbor":
            return self._lifted_placement(self.free[WATER], s, frm)
        if kind == "Paddock":
            return self._paddock_targets(frm)
        if kind == "Caravan":
            return self._caravan_targets(frm)
        if kind == "Resettlement":
            return self._step_targets(frm)
        raise AssertionError(f"{kind} is not a move tile")

    def _step_targets(self, frm: int) -> set[int]:
        """KB §7 Resettlement: one single step to a neighbouring hex that is a legal place to
        stop — empty and buildable (no wall, no water, mountain or special hex)."""
        owner, buildable = self.owner, self.board.buildable
        return {h for h in self.board.nbrs[frm] if owner[h] == EMPTY and buildable[h]}

    def _lifted_placement(self, cand: set[int], s: int, frm: int) -> set[int]:
        """KB §5 "Moves": lift the settlement first, then apply the placement rule against
        your *remaining* settlements.  The vacated hex is never a candidate (reading B)."""
        if not cand:
            return set()
        a = self.adj[s]
        around = self.board.nbr_set[frm]
        near = {h for h in cand & self.front[s] if a[h] > 1 or h not in around}
        return near if near else set(cand)

    def _paddock_targets(self, frm: int) -> set[int]:
        """KB §7 Paddock: exactly 2 hexes in a straight line, jumping over anything; the
        target must be empty and buildable; no adjacency requirement."""
        owner, buildable = self.owner, self.board.buildable
        out = set()
        for jump in self.board.jump:
            h = jump[frm]
            if h >= 0 and owner[h] == EMPTY and buildable[h]:
                out.add(h)
        return out

    def _caravan_targets(self, frm: int) -> set[int]:
        """KB §7 Caravan: slide in one of 6 directions as far as possible; stop on the last
        free buildable hex before an obstacle (non-buildable hex, settlement, wall, edge)."""
        owner, buildable = self.owner, self.board.buildable
        out = set()
        for step in self.board.step:
            h = frm
            nxt = step[h]
            while nxt >= 0 and owner[nxt] == EMPTY and buildable[nxt]:
                h = nxt
                nxt = step[h]
            if h != frm:
                out.add(h)
        return out

    def _wall_targets(self, s: int) -> set[int]:
        """KB §7 Quarry: an empty hex of the card's terrain touching one of your settlements,
        while stone walls are left."""
        if self.walls_left <= 0:
            return set()
        return self.free[self.terrain] & self.front[s]

    def _usable(self, loc: int, s: int) -> bool:
        """KB §7: a tile can be used only if its action can be completed (early-exit tests
        equivalent to "the first step has a legal choice")."""
        kind = self.board.location_type[loc]
        if kind in BUILD_TILES:
            if self.supply[s] <= 0:
                return False
            if kind == "Oracle":
                return bool(self.free[self.terrain])
            if kind == "Farm":
                return bool(self.free[GRASS])
            if kind == "Oasis":
                return bool(self.free[DESERT])
            if kind == "Garden":
                return bool(self.free[FLOWER])
            if kind == "Tower":
                owner, buildable = self.owner, self.board.buildable
                return any(owner[h] == EMPTY and buildable[h] for h in self.board.edge_list)
            if kind == "Tavern":
                return bool(self._tavern_targets(s, first=True))
            a, buildable = self.adj[s], self.board.buildable
            return any(a[h] >= 3 and buildable[h] for h in self.front[s])  # Village
        home = self.homes[s]
        if not home:
            return False
        if kind == "Barn":
            return bool(self.free[self.terrain])
        if kind == "Harbor":
            return bool(self.free[WATER])
        if kind == "Paddock":
            return any(self._can_step(h, self.board.jump) for h in home)
        if kind == "Caravan":
            return any(self._can_step(h, self.board.step) for h in home)
        return self.walls_left > 0 and not self.free[self.terrain].isdisjoint(self.front[s])

    def frozen_home(self, s: int) -> frozenset[int]:
        """``homes[s]`` as a frozenset (made once, shared by copies until it changes)."""
        fz = self._fz_home[s]
        if fz is None:
            fz = self._fz_home[s] = frozenset(self.homes[s])
        return fz

    def frozen_front(self, s: int) -> frozenset[int]:
        """``front[s]`` as a frozenset (made once, shared by copies until it changes)."""
        fz = self._fz_front[s]
        if fz is None:
            fz = self._fz_front[s] = frozenset(self.front[s])
        return fz

    # ---- changes to the map (incremental bookkeeping) -----------------------------------
    def _put(self, s: int, h: int) -> None:
        """A settlement of ``s`` arrives on empty hex ``h``."""
        owner = self.owner
        owner[h] = s
        self.homes[s].add(h)
        self._fz_home[s] = None
        self.free[self.board.terrain[h]].discard(h)
        self._close(h)
        a = self.adj[s]
        f = self.front[s]
        self._fz_front[s] = None
        openable = self.board.openable
        for nb in self.board.nbrs[h]:
            a[nb] += 1
            if owner[nb] == EMPTY and openable[nb]:
                f.add(nb)

    def _close(self, h: int) -> None:
        """Hex ``h`` is no longer empty: it leaves every seat's front."""
        fz = self._fz_front
        for q, f in enumerate(self.front):
            if h in f:
                f.discard(h)
                fz[q] = None

    def _lift(self, s: int, h: int) -> None:
        """The settlement of ``s`` leaves hex ``h``, which becomes empty."""
        self.owner[h] = EMPTY
        self.homes[s].discard(h)
        self._fz_home[s] = None
        self.free[self.board.terrain[h]].add(h)
        a = self.adj[s]
        f = self.front[s]
        self._fz_front[s] = None
        for nb in self.board.nbrs[h]:
            a[nb] -= 1
            if a[nb] == 0:
                f.discard(nb)
        for q in range(self.n):
            if self.adj[q][h]:
                self.front[q].add(h)
                self._fz_front[q] = None

    def _put_wall(self, h: int) -> None:
        self.owner[h] = WALL
        self.walls.add(h)
        self.free[self.board.terrain[h]].discard(h)
        self._close(h)

    # ---- applying actions ---------------------------------------------------------------
    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        self._dec = None
        self._scores = None
        self._view = None
        self._gains = None
        kind = action[0]
        if kind == "place":
            return self._do_place(action[1] * SIZE + action[2])
        if kind == "use":
            return self._do_use(action[1] * SIZE + action[2])
        if kind == "move_from":
            p = self.pending
            assert p is not None
            self.pending = (p[0], TARGET, action[1] * SIZE + action[2], p[3])
            return []
        if kind == "wall":
            return self._do_wall(action[1] * SIZE + action[2])
        if kind == "remove":
            return self._do_remove(action[1] * SIZE + action[2])
        if kind == "stop":
            self.pending = None
            return []
        return self._do_end()

    def _do_place(self, h: int) -> list[Event]:
        s = self.cur
        p = self.pending
        if p is None:
            events = self._build(s, h, None)
            self.placed += 1
            self.mand_hexes.append(h)
            if self.placed >= 3 or self.supply[s] <= 0 or not self.free[self.terrain]:
                self.mand_done = True
                if self.placed == 3 and "Families" in self.cards and self._in_line():
                    self._earn(s, "Families", events)
                self.mand_hexes = []
            return events
        loc, _, frm, count = p
        kind = self.tile_kind(loc)
        if kind == "Donation":
            events = self._build(s, h, kind)
            count -= 1
            free = self.free[nm.TILE_TERRAIN[self.nkind[loc]]]
            more = count > 0 and self.supply[s] > 0 and bool(free)
            self.pending = (loc, TARGET, -1, count) if more else None
            return events
        if kind == "Resettlement":
            events = self._move(s, frm, h, kind)
            count -= 1
            steps = count > 0 and any(self._can_step(x, self.board.step) for x in self.homes[s])
            self.pending = (loc, SOURCE, -1, count) if steps else None
            return events
        self.pending = None
        if frm < 0:
            return self._build(s, h, kind)
        return self._move(s, frm, h, kind)

    def _in_line(self) -> bool:
        """KB §9.3 Families: the 3 mandatory settlements of this turn are 3 neighbouring hexes
        in one straight line, along any of the 3 axes, in any build order."""
        hexes = self.mand_hexes
        if len(hexes) != 3:
            return False
        want = set(hexes)
        for fwd, _ in self.board.axes:
            for h in hexes:
                h1 = fwd[h]
                if h1 >= 0 and fwd[h1] >= 0 and {h, h1, fwd[h1]} == want:
                    return True
        return False

    def _earn(self, s: int, source: str, events: list[Event], amount: int = 0) -> None:
        """Bank in-play gold (KB §9.3): the card's value (or ``amount``) from ``source``."""
        gold = amount or nm.CARD_GOLD[source]
        self.gold[s][GOLD_INDEX[source]] += gold
        events.append({"type": "gold", "seat": s, "source": source, "gold": gold})

    def _build(self, s: int, h: int, tile: str | None) -> list[Event]:
        """Build a settlement from supply (mandatory action or a build tile)."""
        self._put(s, h)
        self.supply[s] -= 1
        events: list[Event] = [{"type": "place", "seat": s, "hex": pos(h), "tile": tile}]
        if self.outpost:
            self.outpost -= 1  # KB §7 Outpost: it lifted the adjacency rule for this build
        if self.nomads == nm.FULL:
            self._after_build(s, h, events)
        if self.board.loc_adj[h]:
            self._gain(s, h, events)
        if self.nomad_left and self.board.nomad_adj[h]:
            self._gain_nomad(s, h, events)
        if self.supply[s] == 0 and not self.end_triggered:
            self.end_triggered = True
            events.append({"type": "end_triggered", "seat": s})
        return events

    def _after_build(self, s: int, h: int, events: list[Event]) -> None:
        """KB §9.3: the Nomads cards that pay for a *build* (never for a move), checked when the
        settlement is placed — Ambassadors when it touches another seat's settlement, Shepherds
        when it touches no empty hex of its own terrain."""
        cards = self.cards
        if "Ambassadors" in cards and any(self.adj[q][h] for q in range(self.n) if q != s):
            self._earn(s, "Ambassadors", events)
        if "Shepherds" in cards:
            same = self.free[self.board.terrain[h]]
            if not any(n in same for n in self.board.nbrs[h]):
                self._earn(s, "Shepherds", events)

    def _move(self, s: int, frm: int, to: int, tile: str) -> list[Event]:
        """Move a settlement (KB §7): lift it, put it down, gain the tiles of the new hex
        (KB §6.1), *then* lose the tiles of location hexes no longer touched (KB §6.2).

        The loss is judged once the move is complete, so a tile gained by the move can be the
        one kept when a tile of the same type must be given up (docs decision 5)."""
        self._lift(s, frm)
        self._put(s, to)
        events: list[Event] = [
            {"type": "move", "seat": s, "from": pos(frm), "to": pos(to), "tile": tile}
        ]
        if self.board.loc_adj[to]:
            self._gain(s, to, events)
        if self.nomad_left and self.board.nomad_adj[to]:
            self._gain_nomad(s, to, events)
        self._lose_untouched(s, frm, events)
        return events

    def _lose_untouched(self, s: int, frm: int, events: list[Event]) -> None:
        """KB §6.2: after seat ``s``'s settlement left ``frm``, the tiles of location hexes next
        to ``frm`` that no settlement of ``s`` touches any more leave the game."""
        a = self.adj[s]
        held = self.tiles[s]
        for loc in self.board.loc_adj[frm]:
            if loc in held and a[loc] == 0:
                self._lose(s, loc, events)

    def _gain_nomad(self, s: int, h: int, events: list[Event]) -> None:
        """KB §7 nomad tiles: the first seat to build or move next to a nomad hex takes its
        tile; it is usable in that seat's next turn only.  (With ``treasure_paid = "taken"``
        a Treasure tile pays at once instead.)"""
        for nh in self.board.nomad_adj[h]:
            if nh not in self.nomad_left:
                continue
            self.nomad_left.discard(nh)
            tid = self.nkind[nh]
            kind = nm.TILE_TYPE[tid]
            events.append(
                {
                    "type": "gain_nomad",
                    "seat": s,
                    "hex": pos(nh),
                    "tile": kind,
                    "terrain": _terrain_code(tid),
                }
            )
            if kind == "Treasure" and nm.TREASURE_PAID == "taken":
                del self.nkind[nh]
                self._earn(s, "Treasure", events, nm.TREASURE_GOLD)
            else:
                self.nheld[s][nh] = NEW

    def _gain(self, s: int, h: int, events: list[Event]) -> None:
        """KB §6.1: one tile from each location hex next to ``h`` that still has tiles and that
        this seat never took from; it is usable from the seat's next turn."""
        taken = self.taken[s]
        for loc in self.board.loc_adj[h]:
            if self.left[loc] > 0 and loc not in taken:
                self.left[loc] -= 1
                taken.add(loc)
                self.tiles[s][loc] = NEW
                events.append(
                    {
                        "type": "gain_tile",
                        "seat": s,
                        "tile_type": self.board.location_type[loc],
                        "hex": pos(loc),
                    }
                )

    def _lose(self, s: int, loc: int, events: list[Event]) -> None:
        """KB §6.2: the tile from ``loc`` leaves the game.  If the seat holds another tile of
        the same type, it gives up whichever of the two it likes; keeping the usable one is
        never worse, so a lost *ready* tile leaves the other one ready."""
        held = self.tiles[s]
        state = held.pop(loc)
        kind = self.board.location_type[loc]
        if state == READY:
            for other, other_state in held.items():
                if self.board.location_type[other] == kind and other_state != READY:
                    held[other] = READY
                    break
        events.append({"type": "lose_tile", "seat": s, "tile_type": kind, "hex": pos(loc)})

    def _do_use(self, loc: int) -> list[Event]:
        s = self.cur
        kind = self.board.location_type.get(loc)
        if kind is None:
            return self._use_nomad(loc)
        self.tiles[s][loc] = USED
        if kind in MOVE_TILES:
            step = SOURCE
        elif kind in WALL_TILES:
            step = WALL1
        else:
            step = TARGET
        self.pending = (loc, step, -1, 0)
        return [{"type": "use", "seat": s, "tile_type": kind, "hex": pos(loc)}]

    def _use_nomad(self, h: int) -> list[Event]:
        """KB §7 nomad tiles: Donation builds 3 on its terrain, Treasure pays its gold, Sword
        takes one settlement from each other seat, Outpost lifts the adjacency rule for the next
        build, Resettlement makes 4 single steps.  The tile is gone at the end of the turn."""
        s = self.cur
        self.nheld[s][h] = USED
        tid = self.nkind[h]
        kind = nm.TILE_TYPE[tid]
        events: list[Event] = [
            {
                "type": "use_nomad",
                "seat": s,
                "hex": pos(h),
                "tile": kind,
                "terrain": _terrain_code(tid),
            }
        ]
        if kind == "Donation":
            self.pending = (h, TARGET, -1, nm.DONATION_SETTLEMENTS)
        elif kind == "Treasure":
            self._earn(s, "Treasure", events, nm.TREASURE_GOLD)
        elif kind == "Sword":
            self.pending = (h, VICTIM, -1, 0)
        elif kind == "Outpost":
            self.outpost += nm.OUTPOST_BUILDS
        else:
            self.pending = (h, SOURCE, -1, nm.RESETTLEMENT_STEPS)
        return events

    def _do_remove(self, h: int) -> list[Event]:
        """KB §7 Sword: the chosen settlement of another seat goes back to its owner's supply;
        that seat may lose location tiles (KB §6.2), never a nomad tile, and a game end already
        triggered stays triggered (KB §8)."""
        s = self.cur
        p = self.pending
        assert p is not None
        loc, _, _, hit = p
        victim = self.owner[h]
        self._lift(victim, h)
        self.supply[victim] += 1
        events: list[Event] = [{"type": "remove", "seat": s, "victim": victim, "hex": pos(h)}]
        self._lose_untouched(victim, h, events)
        hit |= 1 << victim
        more = any(self.homes[q] for q in range(self.n) if q != s and not hit >> q & 1)
        self.pending = (loc, VICTIM, -1, hit) if more else None
        return events

    def _do_wall(self, h: int) -> list[Event]:
        """KB §7 Quarry: a wall on ``h``; after the first, a second one may follow."""
        s = self.cur
        assert self.pending is not None
        loc, step, _, _ = self.pending
        self._put_wall(h)
        self.walls_left -= 1
        if step == WALL1 and self._wall_targets(s):
            self.pending = (loc, WALL2, -1, 0)
        else:
            self.pending = None
        return [{"type": "wall", "seat": s, "hex": pos(h)}]

    def _do_end(self) -> list[Event]:
        """KB §4.4 end of turn, §8 end of game: discard, draw (reshuffling an empty pile),
        pass to the next seat; the game ends when play would return to the start seat after
        the end was triggered."""
        s = self.cur
        events: list[Event] = [{"type": "end_turn", "seat": s}]
        held = self.tiles[s]
        for loc in held:
            held[loc] = READY
        if self.nheld[s]:
            self._expire_nomads(s, events)
        self.outpost = 0
        self.discard.append(self.hands[s])
        self.hands[s] = -1
        nxt = (s + 1) % self.n
        if nxt == self.start:
            if self.end_triggered:
                self.over = True
                self.terrain = -1
                self.placed = 0
                self.mand_done = False
                scores = self.scores()
                events.append({"type": "game_over", "scores": scores, "winners": self.winners()})
                return events
            self.round += 1
        if not self.deck:
            self.deck = self.discard
            self.discard = []
            self.rng.shuffle(self.deck)
            events.append({"type": "reshuffle", "reveal": True})
        card = self.deck.pop()
        self.hands[s] = card
        events.append({"type": "draw", "seat": s, "reveal": True})
        events.append(
            {
                "type": "card",
                "seat": s,
                "terrain": TERRAIN_CODES[card],
                "only": [s],
                "reveal": True,
            }
        )
        self.cur = nxt
        self.terrain = self.hands[nxt]
        self.placed = 0
        self.mand_done = False
        events.append({"type": "turn", "seat": nxt, "terrain": TERRAIN_CODES[self.terrain]})
        return events

    def _expire_nomads(self, s: int, events: list[Event]) -> None:
        """KB §7 nomad tiles: at the end of ``s``'s turn the tiles it could use this turn leave
        the game, used or not; those it took this turn become usable in its next turn."""
        held = self.nheld[s]
        for h in sorted(held):
            if held[h] == NEW:
                held[h] = READY
                continue
            tid = self.nkind.pop(h)
            events.append(
                {
                    "type": "discard_nomad",
                    "seat": s,
                    "hex": pos(h),
                    "tile": nm.TILE_TYPE[tid],
                    "terrain": _terrain_code(tid),
                    "used": held.pop(h) == USED,
                }
            )

    def gold_total(self, s: int) -> int:
        """The in-play gold seat ``s`` has banked (KB §9.3: Nomads cards and Treasure)."""
        return sum(self.gold[s])

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
