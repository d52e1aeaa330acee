"""FROZEN for the reference bot (:mod:`bench.reference`): ``game/kingdom_builder/evaluation.py`` as it was at commit 1841520.  Do not improve it: it is the yardstick (issue 23).  Edit only to keep it importing.

How good a Kingdom Builder position is for each seat: the bots' judgement (issue 5).

Found by :mod:`game.bots.knowledge` by its name; the engine does not import it.  Everything here
reads only what every seat may see (the map, settlements, tiles, supplies, the three cards, the
discard pile) — never a hidden hand or the order of the draw pile — so what it says about a
determinized state cannot depend on a secret.

A seat's **value** is, in points:

* its **live score** — castles plus the three Kingdom Builder cards of this game, as they would
  score if the game ended now (KB §9);
* its **location tiles**: each is worth some points per turn left in the game (KB §6–§7: a build
  tile is an extra settlement every turn, a move tile lets a settlement go where it scores more),
  so a tile taken early is worth more than one taken late;
* its **potential**: for each terrain its next card may show, what the best hexes it could build
  on next turn would add — castles to touch, tiles to take and the three cards' gains
  (:func:`hex_gains`) — weighted by the chance of that card.  The terrain deck's make-up is
  public (25 cards minus the face-up discards and the revealed card);
* with **Nomads**: its banked gold (the Nomads cards and Treasure pay during play, KB §9.3) and
  the nomad tiles it holds, each worth a fixed number of points while it can still be used
  (KB §7: Donation three extra settlements, Treasure its gold, Sword a settlement off every
  rival, Outpost and Resettlement a better placement).  A face-up nomad tile next to a hex is
  part of that hex's gain, as are Ambassadors and Shepherds gold (and Families, for the
  mandatory settlement that would complete a line).

``SCALE`` turns a margin in points into a win chance for the search bot
(:meth:`game.bots.knowledge.Knowledge.rewards`); ``rollout_action`` is the search bot's cheap
playout policy (the best hex by :func:`hex_gains`, with a little noise); ``position_key`` lets
the turn planner merge the same placements made in another order.  :class:`Weights` holds every
tuning constant, so benchmarks can compare variants side by side (:class:`Evaluator`).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from game.core.rng import Rng
from game.core.types import Action, Seat
from game.kingdom_builder import nomads as nm
from game.kingdom_builder import scoring
from game.kingdom_builder.board import BUILDABLE, MOUNTAIN, SIZE, WATER, Board
from game.kingdom_builder.codes import USED

if TYPE_CHECKING:
    from game.core.api import GameState
    from game.kingdom_builder.state import KingdomBuilderState

CARDS_PER_TERRAIN = 5
BUILD_TILES = frozenset({"Oracle", "Farm", "Oasis", "Tower", "Tavern", "Garden", "Village"})
#: Tiles the playout policy always uses when offered: the build tiles, and the nomad tiles that
#: only gain (Donation builds 3, Treasure pays, Sword takes from every rival).
ROLLOUT_USES = BUILD_TILES | {"Donation", "Treasure", "Sword"}


@dataclass(frozen=True)
class Weights:
    """Every constant of the evaluation (points unless stated)."""

    #: Points per remaining turn that a held tile is worth (KB §7).
    tile_per_turn: dict[str, float] = field(
        default_factory=lambda: {
            "Oracle": 1.2,
            "Farm": 1.0,
            "Oasis": 1.0,
            "Tower": 1.0,
            "Tavern": 1.0,
            "Garden": 1.0,
            "Village": 0.9,
            "Barn": 0.8,
            "Harbor": 0.6,
            "Paddock": 0.7,
            "Caravan": 0.6,
            "Quarry": 0.3,
        }
    )
    #: A held tile is worth at least this much however late in the game.
    tile_floor: float = 1.0
    #: Points a nomad tile is worth to the seat holding it while it can still be used, and to
    #: a seat that would take it by building next to its hex (KB §7 nomad tiles).
    nomad_tile: dict[str, float] = field(
        default_factory=lambda: {
            "Donation": 4.5,
            "Treasure": 3.0,
            "Sword": 2.5,
            "Outpost": 1.5,
            "Resettlement": 2.0,
        }
    )
    #: Share of a nomad tile's worth counted when the game may end before it can be used.
    nomad_late: float = 0.3
    #: Value of a mandatory settlement that starts a Families line (2 in a row).
    families_start: float = 0.7
    #: Weight of next turn's expected gain (potential) against points already scored.
    potential: float = 0.5
    #: How many of the best hexes of a terrain count towards potential (a turn builds 3).
    potential_hexes: int = 3
    #: A margin of ``scale`` points makes a win e times likelier than a loss (search rewards).
    scale: float = 6.0
    #: Noise of the playout policy (points): 0 plays the best-looking hex every time.
    rollout_noise: float = 1.5


def turns_left(st: KingdomBuilderState) -> float:
    """Turns each seat can still expect to play (KB §8): the game ends in the round in which
    some seat places its last settlement, so the fastest builder sets the pace."""
    if st.over:
        return 0.0
    if st.end_triggered:
        return 0.5
    kinds = st.board.location_type
    pace = []
    for s in range(st.n):
        builds = 3 + sum(1 for loc in st.tiles[s] if kinds[loc] in BUILD_TILES)
        pace.append(st.supply[s] / builds)
    return max(0.5, min(pace))


def terrain_odds(st: KingdomBuilderState) -> list[float]:
    """The chance that a seat's *next* card shows each buildable terrain (KB §3.4, §4.4).

    Unseen cards are the 25 minus the face-up discard pile and the revealed card of the player
    to move; all of that is public, so no secret goes in.
    """
    counts = [CARDS_PER_TERRAIN] * len(BUILDABLE)
    for t in st.discard:
        counts[t] -= 1
    if not st.over and st.terrain >= 0:
        counts[st.terrain] -= 1
    total = sum(counts)
    if total <= 0:  # a reshuffle is coming: the whole deck again
        return [1.0 / len(BUILDABLE)] * len(BUILDABLE)
    return [c / total for c in counts]


def nomad_value(st: KingdomBuilderState, tile_id: str, weights: Weights) -> float:
    """What a nomad tile that is still to be used is worth (KB §7): its weight, or a share of
    it once the end is triggered (the game may end before the holder's next turn)."""
    value = weights.nomad_tile[nm.TILE_TYPE[tile_id]]
    return value * weights.nomad_late if st.end_triggered else value


class _Static:
    """Per-board, per-card-set tables (built once, shared by every state of that layout)."""

    def __init__(self, board: Board, cards: tuple[str, ...]) -> None:
        terrain = board.terrain
        castles = set(board.castles)
        self.castle_adj: tuple[tuple[int, ...], ...] = tuple(
            tuple(n for n in board.nbrs[h] if n in castles) for h in range(SIZE * SIZE)
        )
        # Card gains that depend only on the hex: Fishermen, Miners, Workers (KB §9.2).
        flat = [0.0] * (SIZE * SIZE)
        for h in range(SIZE * SIZE):
            if "Fishermen" in cards and board.touches_water[h] and terrain[h] != WATER:
                flat[h] += 1.0
            if "Miners" in cards and board.touches_mountain[h] and terrain[h] != MOUNTAIN:
                flat[h] += 1.0
            if "Workers" in cards and board.touches_special[h]:
                flat[h] += 1.0
            # Merchants pays 4 per linked special hex; touching one is the first step.
            if "Merchants" in cards and board.touches_special[h]:
                flat[h] += 1.5
        self.flat = tuple(flat)
        self.knights = "Knights" in cards
        self.discoverers = "Discoverers" in cards
        self.hermits = "Hermits" in cards
        self.citizens = "Citizens" in cards
        self.lords = "Lords" in cards
        self.farmers = "Farmers" in cards
        self.ambassadors = "Ambassadors" in cards
        self.shepherds = "Shepherds" in cards
        self.families = "Families" in cards


_static_cache: dict[tuple[Hashable, ...], _Static] = {}


def _static(board: Board, cards: tuple[str, ...]) -> _Static:
    key = (board.names, board.rotations, cards)
    table = _static_cache.get(key)
    if table is None:
        if len(_static_cache) > 64:
            _static_cache.clear()
        table = _static_cache[key] = _Static(board, cards)
    return table


def _sector_counts(st: KingdomBuilderState) -> list[list[int]]:
    sector = st.board.sector
    out = []
    for home in st.homes:
        counts = [0, 0, 0, 0]
        for h in home:
            counts[sector[h]] += 1
        out.append(counts)
    return out


def _lords_delta(counts: list[list[int]], s: int) -> list[float]:
    """Per sector: what one more settlement there adds to seat ``s``'s Lords score (KB §9.2)."""
    out = []
    for q in range(4):
        column = [c[q] for c in counts]
        before = _lords_share(column, s)
        column[s] += 1
        out.append(float(_lords_share(column, s) - before))
    return out


def _lords_scores(counts: list[list[int]]) -> list[int]:
    """Lords for every seat from the sector counts (KB §9.2 "Lords, in full")."""
    out = [0] * len(counts)
    for q in range(4):
        column = [c[q] for c in counts]
        for s in range(len(counts)):
            out[s] += _lords_share(column, s)
    return out


def _lords_share(column: list[int], s: int) -> int:
    first = max(column)
    if column[s] == first:  # an empty sector: everyone is tied for the most (KB §9.2)
        return 12
    second = max((c for c in column if c < first), default=None)
    return 6 if column[s] == second else 0


def hex_gains(
    st: KingdomBuilderState,
    s: int,
    hexes: Sequence[int],
    left: float,
    weights: Weights | None = None,
    counts: list[list[int]] | None = None,
    build_gold: bool = True,
) -> list[float]:
    """About what building on each of ``hexes`` would add to seat ``s``'s value right away:
    castles it would touch first (KB §9.1), location and nomad tiles it would take (KB §6.1,
    §7), and the three cards' gains (KB §9.2, §9.3).  Fast and approximate: for search
    playouts and potential.  ``build_gold=False`` leaves out the Nomads cards' gold
    (Ambassadors, Shepherds, Families), which depends on the rivals' settlements and the free
    hexes around ``hexes`` — the potential leaves it out so that it stays cacheable by the
    seat's own settlements."""
    board = st.board
    table = _static(board, st.cards)
    weights = weights or DEFAULT_WEIGHTS
    flat, castle_adj, loc_adj = table.flat, table.castle_adj, board.loc_adj
    home = st.homes[s]
    taken = st.taken[s]
    tiles_left = st.left
    kinds = board.location_type
    per_turn = weights.tile_per_turn
    floor = weights.tile_floor
    adj = st.adj[s]
    rows: list[int] | None = None
    best_row = 0
    if table.knights or table.discoverers:
        rows = [0] * SIZE
        for h in home:
            rows[h // SIZE] += 1
        best_row = max(rows)
    sector_gain: list[float] | None = None
    if table.lords or table.farmers:
        if counts is None:
            counts = _sector_counts(st)
        sector_gain = [0.0, 0.0, 0.0, 0.0]
        if table.lords:
            sector_gain = _lords_delta(counts, s)
        if table.farmers:
            mine = counts[s]
            low = min(mine)
            if mine.count(low) == 1:
                sector_gain[mine.index(low)] += 3.0
    sector = board.sector
    nomad_left = st.nomad_left
    nomad_adj = board.nomad_adj
    ambassadors = build_gold and table.ambassadors
    shepherds = build_gold and table.shepherds
    others = [st.adj[q] for q in range(st.n) if q != s] if ambassadors else []
    free = st.free
    terrain = board.terrain
    nbrs = board.nbrs
    line: list[int] = []
    if build_gold and table.families and st.cur == s and st.pending is None and not st.mand_done:
        line = st.mand_hexes
    out = []
    for h in hexes:
        g = flat[h]
        for k in castle_adj[h]:
            if not any(n in home for n in board.nbrs[k]):
                g += 3.0
        for loc in loc_adj[h]:
            if tiles_left[loc] > 0 and loc not in taken:
                g += max(floor, per_turn[kinds[loc]] * (left - 1.0))
        if rows is not None:
            r = rows[h // SIZE]
            if table.discoverers and r == 0:
                g += 1.0
            if table.knights and r + 1 > best_row:
                g += 2.0
        if sector_gain is not None:
            g += sector_gain[sector[h]]
        if table.hermits and adj[h] == 0:
            g += 1.0
        if table.citizens and adj[h] > 0:
            g += 0.5
        if nomad_left:
            for nh in nomad_adj[h]:
                if nh in nomad_left:
                    g += nomad_value(st, st.nkind[nh], weights)
        if others and any(a[h] for a in others):
            g += 1.0  # Ambassadors
        if shepherds:
            same = free[terrain[h]]
            if not any(n in same and n != h for n in nbrs[h]):
                g += 2.0
        if line:
            g += _families_gain(board, line, h, weights)
        out.append(g)
    return out


def _families_gain(board: Board, line: list[int], h: int, weights: Weights) -> float:
    """KB §9.3 Families: 2 for the mandatory settlement completing a straight line of 3
    neighbours; a little for the second one next to the first."""
    if len(line) == 1:
        return weights.families_start if h in board.nbr_set[line[0]] else 0.0
    a, b = line
    for fwd, back in board.axes:
        for x, y in ((a, b), (b, a)):
            if fwd[x] == y and (fwd[y] == h or back[x] == h):
                return 2.0
    return 0.0


class Evaluator:
    """The evaluation with a given set of :class:`Weights` (see the module docstring)."""

    def __init__(self, weights: Weights | None = None) -> None:
        self.weights = weights or Weights()
        self._own: dict[tuple[Hashable, ...], int] = {}
        self._potential: dict[tuple[Hashable, ...], float] = {}

    def evaluate_all(self, state: GameState) -> list[float]:
        """Every seat's value in points."""
        st: KingdomBuilderState = state  # type: ignore[assignment]
        if st.over:
            return [float(row["total"]) for row in st.preview_scores()]
        board = st.board
        w = self.weights
        left = turns_left(st)
        odds = terrain_odds(st)
        counts = _sector_counts(st) if "Lords" in st.cards or "Farmers" in st.cards else None
        lords = _lords_scores(counts) if counts is not None and "Lords" in st.cards else None
        kinds = board.location_type
        values = []
        for s in range(st.n):
            value = float(self._own_score(board, st.cards, st.homes[s]) + st.gold_total(s))
            if lords is not None:
                value += lords[s]
            for loc in st.tiles[s]:
                value += max(w.tile_floor, w.tile_per_turn[kinds[loc]] * left)
            for nh, held in st.nheld[s].items():
                if held != USED:
                    value += nomad_value(st, st.nkind[nh], w)
            if w.potential:
                value += w.potential * self._potential_of(st, s, left, odds, counts)
            values.append(value)
        return values

    def _own_score(self, board: Board, cards: tuple[str, ...], home: set[int]) -> int:
        """Castles plus every card of the game except Lords (which compares seats), for one
        seat's settlements (KB §9).  Memoised: during a turn, rivals' settlements stay put."""
        key = (board.names, board.rotations, cards, frozenset(home))
        score = self._own.get(key)
        if score is None:
            one = [home]
            score = scoring.castles(board, one)[0]
            for card in cards:
                if card != "Lords" and card in scoring.SCORERS:  # Nomads cards: gold, banked
                    score += scoring.SCORERS[card](board, one)[0]
            if len(self._own) >= 20_000:
                self._own.clear()
            self._own[key] = score
        return score

    def _potential_of(
        self,
        st: KingdomBuilderState,
        s: int,
        left: float,
        odds: list[float],
        counts: list[list[int]] | None,
    ) -> float:
        """Expected gain of the seat's best open neighbouring hexes next turn."""
        front = st.front[s]
        if not front:
            return 0.0
        key: tuple[Hashable, ...] = (
            s,
            frozenset(front),
            frozenset(st.homes[s]),
            frozenset(st.taken[s]),
            tuple(st.left.values()),
            tuple(odds),
            left,
            tuple(map(tuple, counts)) if counts is not None and "Lords" in st.cards else None,
            st.cards,
            st.board.names,
            st.board.rotations,
        )
        if st.nomad_left:  # a face-up nomad tile next to a hex (worth less once the end nears)
            key += (frozenset(st.nomad_left), st.end_triggered)
        cached = self._potential.get(key)
        if cached is not None:
            return cached
        hexes = sorted(front)
        gains = hex_gains(st, s, hexes, left, self.weights, counts, build_gold=False)
        terrain = st.board.terrain
        per_terrain: list[list[float]] = [[] for _ in BUILDABLE]
        for h, g in zip(hexes, gains, strict=True):
            t = terrain[h]
            if t < WATER and g > 0.0:
                per_terrain[t].append(g)
        k = self.weights.potential_hexes
        value = 0.0
        for t, gs in enumerate(per_terrain):
            if gs:
                gs.sort(reverse=True)
                value += odds[t] * sum(gs[:k])
        if len(self._potential) >= 20_000:
            self._potential.clear()
        self._potential[key] = value
        return value

    def rollout_action(
        self, state: GameState, seat: Seat, actions: list[Action], rng: Rng
    ) -> Action:
        """A cheap, decent move for search playouts.

        Use a ready build tile when one is offered (an extra settlement); place on the hex with
        the best :func:`hex_gains` plus noise; pick a move tile's settlement and a Quarry wall at
        random; end the turn once nothing better is offered.
        """
        st: KingdomBuilderState = state  # type: ignore[assignment]
        if actions[0][0] == "place":
            places = [a for a in actions if a[0] == "place"]
            hexes = [a[1] * SIZE + a[2] for a in places]
            gains = hex_gains(st, seat, hexes, turns_left(st), self.weights)
            noise = self.weights.rollout_noise
            best, best_score = places[0], -1e9
            for a, g in zip(places, gains, strict=True):
                score = g + noise * rng.random()
                if score > best_score:
                    best, best_score = a, score
            return best
        builds = [
            a for a in actions if a[0] == "use" and st.tile_kind(a[1] * SIZE + a[2]) in ROLLOUT_USES
        ]
        if builds:
            return builds[rng.randbelow(len(builds))]
        if actions[-1][0] == "end":
            return actions[-1]
        return actions[rng.randbelow(len(actions))]


DEFAULT_WEIGHTS = Weights()
DEFAULT = Evaluator(DEFAULT_WEIGHTS)

#: The hooks :mod:`game.bots.knowledge` looks for.
SCALE = DEFAULT_WEIGHTS.scale
evaluate_all = DEFAULT.evaluate_all
rollout_action = DEFAULT.rollout_action


def position_key(state: GameState, seat: Seat) -> Hashable:
    """Equal for the same placements and tile uses made in another order (turn planner)."""
    st: KingdomBuilderState = state  # type: ignore[assignment]
    key: tuple[Hashable, ...] = (
        frozenset(st.homes[seat]),
        frozenset(st.tiles[seat].items()),
        frozenset(st.walls),
        st.pending,
        st.placed,
        st.mand_done,
    )
    if st.nomads == nm.FULL:
        # Nomads: gold, nomad tiles, Outpost, Families' line and what a Sword took.
        key += (
            tuple(st.gold[seat]),
            frozenset(st.nheld[seat].items()),
            frozenset(st.nomad_left),
            st.outpost,
            tuple(st.mand_hexes),
            tuple(frozenset(h) for q, h in enumerate(st.homes) if q != seat),
        )
    return key


__all__ = [
    "DEFAULT",
    "SCALE",
    "Evaluator",
    "Weights",
    "evaluate_all",
    "hex_gains",
    "position_key",
    "rollout_action",
    "terrain_odds",
    "turns_left",
]
