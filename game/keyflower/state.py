"""The Keyflower game state (KF = ``shared/rules/keyflower.md``; ``docs/keyflower.md``).

One mutable object holds the whole position; the rules live in :mod:`~game.keyflower.play`
(season turns and tile effects, with :mod:`~game.keyflower.bids`,
:mod:`~game.keyflower.transport`, :mod:`~game.keyflower.upgrades` and
:mod:`~game.keyflower.supply`), :mod:`~game.keyflower.seasons` (setup, season start and end,
boats, placement, winter choice) and :mod:`~game.keyflower.scoring` (final scoring).

**Speed.**  Bots clone and play out many games, so the position is kept in flat lists of ints
(per tile: where it is, its side, rotation, hex, resources, bids and lock colour; per seat:
keyples, skills and what the others know of them) that copy with one slice each.  The legal
actions of the current decision are computed once and cached until the next action.

**Secrets.**  Behind a seat's screen: its keyples and skill tiles.  For every seat the state
also keeps what the *other* seats know of its screen — ``kknown`` / ``sknown``, the fewest
keyples of each colour and skill tiles of each kind it must hold given everything done in the
open (boat loads, returned bids, tiles won, payments; random draws add only to the count).
A seat's winter hand is secret until the winter auction; choices made in a simultaneous phase
are secret until everybody has chosen.  ``determinize`` resamples exactly these.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from game.core.api import GameState
from game.core.rng import Rng
from game.core.types import Action, Event, IllegalAction, Score, Seat
from game.keyflower import play, seasons
from game.keyflower.const import (
    BOATS,
    GAME_ID,
    NONE,
    OUT,
    OVER,
    PLACE,
    PLAY,
    WINTER_PICK,
)
from game.keyflower.tiles import (
    BAG_START,
    GREEN_START,
    INDEX,
    NTILES,
    RESOURCES_START,
    SKILLS_START,
    SUMMER_BOAT,
    TILES,
)

#: Categories of the score table (KF §13), in order; ``total`` is added.
CATEGORIES = ("tiles", "turn_order", "boats", "storage", "winter", "gold")


class Decision:
    """The legal actions of one seat at one position (cached until the next action); the set
    for membership tests is built on first use."""

    __slots__ = ("_index", "_scans", "actions")

    def __init__(self, actions: list[Action]) -> None:
        self.actions = actions
        self._index: frozenset[Action] | None = None
        self._scans = 0

    @property
    def index(self) -> frozenset[Action]:
        if self._index is None:
            self._index = frozenset(self.actions)
        return self._index


class KeyflowerState(GameState):
    """One position of a Keyflower game (mutable; see the module docstring)."""

    game_id = GAME_ID

    n: int
    season: int
    phase: int
    start: int
    purple: int
    cur: int
    passes: int
    turn: int
    bag: list[int]
    green: int
    sksup: list[int]
    ressup: list[int]
    keys: list[list[int]]
    kknown: list[list[int]]
    skills: list[list[int]]
    sknown: list[list[int]]
    where: list[int]
    holder: list[int]
    side: list[int]
    rot: list[int]
    hexof: list[int]
    res: list[int]
    vil: list[dict[int, int]]
    vorder: list[list[int]]
    flags: list[int]
    home: list[int]
    auction: list[int]
    tord: list[int]
    towin: list[int]
    boats: list[int]
    btaken: list[bool]
    bkeys: list[int]
    bskills: list[int]
    bidn: list[int]
    bidc: list[int]
    uses: dict[int, tuple[tuple[int, int, int], ...]]
    lock: list[int]
    hands: list[list[int]]
    wout: list[int]
    won: list[list[int]]
    border: list[int]
    psel: list[int]
    pplaced: list[list[tuple[int, int, int]]]
    wpick: list[tuple[int, ...] | None]
    # the turn being built (PLAY)
    stage: int
    precl: tuple[int, ...]
    pcol: int
    pk: int
    ptile: int
    ppts: int
    pupg: int
    pupgraded: bool
    pfrom: int
    pkind: int
    pleft: int
    pleft_s: int
    rng: Rng
    _dec: dict[int, Decision]
    _final: Any
    _view: dict[str, Any] | None

    # ---- construction --------------------------------------------------------------------
    @classmethod
    def empty(cls, players: int, rng: Rng) -> KeyflowerState:
        """A table before setup: full supplies, every tile in the box."""
        st = cls.__new__(cls)
        n = players
        st.n = n
        st.season = 0
        st.phase = PLAY
        st.start = 0
        st.purple = 0
        st.cur = 0
        st.passes = 0
        st.turn = 0
        st.bag = list(BAG_START)
        st.green = GREEN_START
        st.sksup = list(SKILLS_START)
        st.ressup = list(RESOURCES_START)
        st.keys = [[0, 0, 0, 0] for _ in range(n)]
        st.kknown = [[0, 0, 0, 0] for _ in range(n)]
        st.skills = [[0, 0, 0] for _ in range(n)]
        st.sknown = [[0, 0, 0] for _ in range(n)]
        st.where = [OUT] * NTILES
        st.holder = [-1] * NTILES
        st.side = [0] * NTILES
        st.rot = [0] * NTILES
        st.hexof = [-1] * NTILES
        st.res = [0] * (NTILES * 4)
        st.vil = [{} for _ in range(n)]
        st.vorder = [[] for _ in range(n)]
        st.flags = [0] * n
        st.home = [-1] * n
        st.auction = []
        st.tord = []
        st.towin = []
        st.boats = []
        st.btaken = []
        st.bkeys = [0] * 18
        st.bskills = [0] * 18
        st.bidn = [0] * (NTILES * 6)
        st.bidc = [-1] * (NTILES * 6)
        st.uses = {}
        st.lock = [-1] * NTILES
        st.hands = [[] for _ in range(n)]
        st.wout = []
        st.won = [[] for _ in range(n)]
        st.border = []
        st.psel = [-1] * n
        st.pplaced = [[] for _ in range(n)]
        st.wpick = [None] * n
        st.rng = rng
        st._reset_turn()
        st._dec = {}
        st._final = None
        st._view = None
        return st

    def _reset_turn(self) -> None:
        self.stage = NONE
        self.precl = ()
        self.pcol = -1
        self.pk = 0
        self.ptile = -1
        self.ppts = 0
        self.pupg = 0
        self.pupgraded = False
        self.pfrom = -1
        self.pkind = -1
        self.pleft = 0
        self.pleft_s = 0

    def clone(self) -> KeyflowerState:
        """A cheap independent copy (flat lists copied by slices, tuples shared)."""
        st = KeyflowerState.__new__(KeyflowerState)
        st.n = self.n
        st.season = self.season
        st.phase = self.phase
        st.start = self.start
        st.purple = self.purple
        st.cur = self.cur
        st.passes = self.passes
        st.turn = self.turn
        st.bag = self.bag[:]
        st.green = self.green
        st.sksup = self.sksup[:]
        st.ressup = self.ressup[:]
        st.keys = [k[:] for k in self.keys]
        st.kknown = [k[:] for k in self.kknown]
        st.skills = [k[:] for k in self.skills]
        st.sknown = [k[:] for k in self.sknown]
        st.where = self.where[:]
        st.holder = self.holder[:]
        st.side = self.side[:]
        st.rot = self.rot[:]
        st.hexof = self.hexof[:]
        st.res = self.res[:]
        st.vil = [v.copy() for v in self.vil]
        st.vorder = [v[:] for v in self.vorder]
        st.flags = self.flags[:]
        st.home = self.home[:]
        st.auction = self.auction[:]
        st.tord = self.tord[:]
        st.towin = self.towin[:]
        st.boats = self.boats[:]
        st.btaken = self.btaken[:]
        st.bkeys = self.bkeys[:]
        st.bskills = self.bskills[:]
        st.bidn = self.bidn[:]
        st.bidc = self.bidc[:]
        st.uses = self.uses.copy()
        st.lock = self.lock[:]
        st.hands = [h[:] for h in self.hands]
        st.wout = self.wout[:]
        st.won = [w[:] for w in self.won]
        st.border = self.border[:]
        st.psel = self.psel[:]
        st.pplaced = [p[:] for p in self.pplaced]
        st.wpick = self.wpick[:]
        st.stage = self.stage
        st.precl = self.precl
        st.pcol = self.pcol
        st.pk = self.pk
        st.ptile = self.ptile
        st.ppts = self.ppts
        st.pupg = self.pupg
        st.pupgraded = self.pupgraded
        st.pfrom = self.pfrom
        st.pkind = self.pkind
        st.pleft = self.pleft
        st.pleft_s = self.pleft_s
        st.rng = Rng(self.rng.state)
        st._dec = {}
        st._final = self._final
        st._view = None
        return st

    # ---- small helpers the rules use -----------------------------------------------------
    def tile_of(self, tile_id: str) -> int:
        """The index of a tile named in a (validated) action."""
        return INDEX[tile_id]

    def bid_tiles(self) -> list[int]:
        """KF §5: the tiles that can be bid on — this season's auction tiles, then the
        turn-order tiles."""
        return self.auction + self.tord

    def vil_order(self, s: int) -> list[int]:
        """The tiles of ``s``'s village, in the order they joined it."""
        return self.vorder[s]

    def put_tile(self, s: int, t: int, h: int, r: int) -> None:
        """Place ``t`` on hex ``h`` of ``s``'s village, turned by ``r`` (KF §9)."""
        self.where[t] = s
        self.holder[t] = -1
        self.hexof[t] = h
        self.rot[t] = r
        self.vil[s][h] = t
        self.vorder[s].append(t)
        if TILES[t].kind == SUMMER_BOAT:
            self.flags[s] = village_flags(self, s)

    def end_turn(self, events: list[Event], passed: bool = False) -> None:
        """A seat's turn is over (D1: a bid or use resets the pass count; the season ends
        when every player has passed in succession)."""
        self._reset_turn()
        if not passed:
            self.passes = 0
        self.turn += 1
        if self.passes >= self.n:
            seasons.end_season(self, events)
        else:
            self.cur = (self.cur + 1) % self.n

    # ---- who and what -------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.n

    def to_move(self) -> tuple[Seat, ...]:
        phase = self.phase
        if phase in (PLAY, BOATS):
            return (self.cur,)
        if phase == PLACE:
            return seasons.placing(self)
        if phase == WINTER_PICK:
            return tuple(s for s in range(self.n) if self.wpick[s] is None)
        return ()

    def turn_id(self) -> int:
        """A seat's whole bid/use/pass (however many steps), each boat choice, and each
        simultaneous phase (winter choice, placement) is one turn."""
        return self.turn

    def is_over(self) -> bool:
        return self.phase == OVER

    def _decide(self, seat: Seat) -> Decision:
        d = self._dec.get(seat)
        if d is not None:
            return d
        phase = self.phase
        if phase == PLAY:
            acts = play.turn_actions(self, seat) if seat == self.cur else []
        elif phase == BOATS:
            acts = seasons.boat_actions(self) if seat == self.cur else []
        elif phase == PLACE:
            acts = seasons.place_actions(self, seat)
        elif phase == WINTER_PICK:
            acts = seasons.winter_actions(self, seat)
        else:
            acts = []
        d = self._dec[seat] = Decision(acts)
        return d

    def keep_decision(self, seat: Seat, actions: list[Action]) -> None:
        """Keep ``actions`` as ``seat``'s decision: the list of the current stage, just computed
        by the rules on this very position (a step that asked for it to see whether the choice
        is forced, and found it is not); nothing may change the state before the next action."""
        self._dec[seat] = Decision(actions)

    def legal_actions(self, seat: Seat) -> list[Action]:
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            return []
        return list(self._decide(seat).actions)

    def is_legal(self, seat: Seat, action: Action) -> bool:
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            return False
        d = self._decide(seat)
        if d._index is None and d._scans < 2:
            # the first tests of a decision scan the list (faster than building the set; the
            # same equality); a decision asked more often (a hovering client) gets its set
            d._scans += 1
            return action in d.actions
        try:
            return action in d.index
        except TypeError:  # an unhashable part: not one of ours
            return False

    # ---- change -------------------------------------------------------------------------
    def apply(self, seat: Seat, action: Action | Sequence[Any]) -> list[Event]:
        """:meth:`GameState.apply`, with a shortcut for the usual case: an action found in the
        seat's cached, non-empty decision is legal (a seat has actions only while the game goes
        on and it is to move), so the general checks would all pass; anything else takes them
        (the same errors, in the same order)."""
        d = self._dec.get(seat)
        if d is not None and action.__class__ is tuple and action in d.actions:
            return self._apply(seat, action)
        return super().apply(seat, action)

    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        self._view = None
        phase = self.phase
        if phase in (PLACE, WINTER_PICK):
            # a seat's choice in a simultaneous phase changes only its own options, until the
            # phase resolves (then everything changes)
            self._dec.pop(seat, None)
            turn = self.turn
            done = (
                seasons.apply_place(self, seat, action)
                if phase == PLACE
                else seasons.apply_winter(self, seat, action)
            )
            if self.turn != turn or self.phase != phase:
                self._dec = {}
            return done
        self._dec = {}
        if phase == PLAY:
            return play.apply_turn(self, seat, action)
        if phase == BOATS:
            events: list[Event] = []
            seasons.choose_boat(self, seat, self.tile_of(action[1]), events)
            return events
        raise IllegalAction("the game is over", "KF §13", key="game_over")

    # ---- the end ------------------------------------------------------------------------
    def final(self) -> Any:
        """The final scoring (KF §13) with its details; computed once, when the game is over."""
        from game.keyflower.scoring import final_scoring

        if self._final is None:
            self._final = final_scoring(self)
        return self._final

    def scores(self) -> list[Score]:
        """Banked points: Keyflower banks nothing before the final scoring (KF §13), so every
        category is 0 until the game is over."""
        if self.phase == OVER:
            return [dict(sc) for sc in self.final().scores]
        return [{**{c: 0 for c in CATEGORIES}, "total": 0} for _ in range(self.n)]

    def preview_scores(self) -> list[Score]:
        """A cheap public estimate (``docs/keyflower.md``, "Preview"): printed VP of the tiles'
        current sides, what the storage tiles hold, the gold lying in the village."""
        if self.phase == OVER:
            return self.scores()
        from game.keyflower.scoring import preview

        return preview(self)

    # ---- secrets ------------------------------------------------------------------------
    def determinize(self, seat: Seat | None, seed: int) -> KeyflowerState:
        """A copy in which everything ``seat`` cannot see is resampled — other screens (also
        the screen of a seat in the middle of its turn, given what its turn so far shows),
        winter hands and choices, placements of this phase — and the RNG reseeded
        (:mod:`game.keyflower.hidden`; ``docs/keyflower.md``, "Hidden information")."""
        from game.keyflower.hidden import determinize

        return determinize(self, seat, seed)

    # ---- words and views ----------------------------------------------------------------
    def explain_illegal(self, seat: Seat, action: Action) -> IllegalAction:
        from game.keyflower.explain import explain

        return explain(self, seat, action)

    def describe(self, action: Action) -> str:
        from game.keyflower.explain import describe

        return describe(self, action)

    def view(self, seat: Seat | None) -> dict[str, Any]:
        from game.keyflower.views import view

        return view(self, seat)

    def shared_view(self, seat: Seat | None) -> dict[str, Any]:
        from game.keyflower.views import shared_view

        return shared_view(self, seat)

    def report(self) -> dict[str, Any]:
        from game.keyflower.views import report

        return report(self)

    def report_text(self) -> str:
        from game.keyflower.views import report_text

        return report_text(self)

    def to_dict(self) -> dict[str, Any]:
        from game.keyflower.serialize import to_dict

        return to_dict(self)


def village_flags(st: KeyflowerState, s: int) -> int:
    """The summer-boat faces in ``s``'s village, as ``const.F_*`` bits (KF §11.2)."""
    from game.keyflower.const import FLAG_OF

    flags = 0
    for t in st.vorder[s]:
        if TILES[t].kind == SUMMER_BOAT:
            flags |= FLAG_OF.get(TILES[t].sides[st.side[t]].special or "", 0)
    return flags
