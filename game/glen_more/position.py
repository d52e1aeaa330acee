"""What a Glen More position holds (GM §2–§10), and the small questions every part of a turn
asks of it.

:class:`Position` declares the fields (the encodings are :mod:`game.glen_more.codes`; the
module docstring of :mod:`game.glen_more.state` explains the track, the turn and the speed
tricks).  The game state is built on it in layers, each with one job:
:class:`~game.glen_more.moves.LegalMoves` (what the player to move may do),
:class:`~game.glen_more.effects.TurnEffects` (what doing it changes) and
:class:`~game.glen_more.state.GlenMoreState` (construction, copies, the contract, scores and
views)."""

from __future__ import annotations

from typing import Any

from game.core.api import GameState
from game.core.rng import Rng
from game.core.types import Action, Score
from game.glen_more.codes import CUBE_CAP, CUBE_TOTAL, FOR_TILE, GAME_ID, TAKE
from game.glen_more.market import can_pay
from game.glen_more.tiles import KINDS, NRES, Kind


class Position(GameState):
    """The fields of one Glen More position and its small queries (see the module docstring)."""

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
