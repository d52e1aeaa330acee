"""What a Kingdom Builder position holds (KB §3–§9), and the small questions its readers ask.

:class:`Position` declares the fields (the encodings are :mod:`game.kingdom_builder.codes`; the
module docstring of :mod:`game.kingdom_builder.state` explains the incremental tables).  The
game state is built on it in layers, each with one job:
:class:`~game.kingdom_builder.moves.LegalMoves` (what the player to move may do: the placement
rule and every tile's targets), :class:`~game.kingdom_builder.effects.TurnEffects` (what doing it
changes, with the map's bookkeeping) and :class:`~game.kingdom_builder.state.KingdomBuilderState`
(construction, copies, the contract, scores and views)."""

from __future__ import annotations

from typing import Any

from game.core.api import GameState
from game.core.rng import Rng
from game.core.types import Score
from game.kingdom_builder import nomads as nm
from game.kingdom_builder.board import Board
from game.kingdom_builder.codes import GAME_ID, Decision


class Position(GameState):
    """The fields of one Kingdom Builder position and its small queries (see the module
    docstring)."""

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

    def tile_kind(self, h: int) -> str:
        """The type of the tile taken from hex ``h``: a location type (its section's name) for a
        location hex, a nomad tile type (Donation, Treasure, Sword, Outpost, Resettlement) for
        a nomad hex."""
        kind = self.board.location_type.get(h)
        return kind if kind is not None else nm.TILE_TYPE[self.nkind[h]]

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

    def gold_total(self, s: int) -> int:
        """The in-play gold seat ``s`` has banked (KB §9.3: Nomads cards and Treasure)."""
        return sum(self.gold[s])
