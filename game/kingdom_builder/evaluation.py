"""How good a Kingdom Builder position is for each seat: the bots' judgement (issue 5).

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
the turn planner merge the same placements made in another order.  This module sums the value
(:class:`Evaluator`, with a given set of :class:`Weights`) and holds the hooks the bots look for;
the parts live beside it, and it exports their hooks:

* :mod:`game.kingdom_builder.weights` — :class:`Weights`, every tuning constant (so benchmarks
  can compare variants side by side), and what a nomad tile still to be used is worth;
* :mod:`game.kingdom_builder.odds` — the turns left, the game's stage, the odds of the next
  terrain card, and ``stratify_world`` (the race deals each sampled world's next card by them);
* :mod:`game.kingdom_builder.hex_value` — :func:`hex_gains`, what building on a hex would add
  at once (the potential's and the playout policy's measure), with the per-layout tables and
  the sector counts it reads;
* :mod:`game.kingdom_builder.reasons` — ``explain_gain``'s reasons (the tiles a move takes, the
  Lords sectors it leads, the terms that moved, the rival it hurts), for any evaluation;
* :mod:`game.kingdom_builder.hard_level` — the hard level's parts: the :data:`FEATURES` its
  fitted evaluation (:class:`FittedEvaluator`) weighs per stage, and its win-chance scale
  (:func:`hard_reward_scale`, sharper near the end).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

from game.core.rng import Rng
from game.core.types import Action, Seat
from game.kingdom_builder import nomads as nm
from game.kingdom_builder import scoring
from game.kingdom_builder.board import BUILDABLE, SIZE, WATER
from game.kingdom_builder.codes import BUILD_TILES, GOLD_INDEX, USED
from game.kingdom_builder.hard_level import (
    FEATURES,
    SCALE_LATE,
    FittedEvaluator,
    fitted_evaluator,
    hard_reward_scale,
)
from game.kingdom_builder.hex_value import hex_gains, lords_scores
from game.kingdom_builder.odds import (
    moved_this_round,
    stage_of,
    stratify_world,
    terrain_odds,
    turns_left,
)
from game.kingdom_builder.reasons import SECTOR_NAMES as SECTOR_NAMES  # tests read it here
from game.kingdom_builder.reasons import explain_gain_with
from game.kingdom_builder.weights import DEFAULT_WEIGHTS, Weights, nomad_value

if TYPE_CHECKING:
    from game.core.api import GameState
    from game.kingdom_builder.state import KingdomBuilderState

#: Tiles the playout policy always uses when offered: the build tiles, and the nomad tiles that
#: only gain (Donation builds 3, Treasure pays, Sword takes from every rival).
ROLLOUT_USES = BUILD_TILES | {"Donation", "Treasure", "Sword"}


def _game_key(st: KingdomBuilderState) -> Hashable:
    """What a game's memos are kept by: its cards and its map (boards and their rotations)."""
    return (st.cards, st.board.names, st.board.rotations)


class _Common:
    """What every seat's value in one position depends on besides its own pieces: turns left,
    the next card's odds, the sector counts (Lords, Farmers) and Lords scores, and ``key``,
    what a seat's potential depends on beyond its own settlements (tiles left at each location,
    the odds, turns left, the Lords counts if Lords scores, the cards, the board, and the
    face-up nomad tiles, worth less once the end nears)."""

    __slots__ = ("counts", "key", "left", "lords", "odds", "own", "potential")

    def __init__(self, st: KingdomBuilderState, memo: _Memo) -> None:
        self.left = turns_left(st)
        self.odds = terrain_odds(st)
        game = _game_key(st)
        self.counts = memo.scored_counts(st, game)
        column_key = None
        self.lords: tuple[int, ...] | None = None
        if self.counts is not None and "Lords" in st.cards:
            column_key = tuple(self.counts)
            self.lords = memo.lords(column_key, self.counts)
        key: tuple[Hashable, ...] = (
            tuple(st.left.values()),
            tuple(self.odds),
            self.left,
            column_key,
            game,
        )
        if st.nomad_left:
            key += (frozenset(st.nomad_left), st.end_triggered)
        self.key = key
        #: The memo of the seats' own scores in this game, by their settlements.
        self.own = memo.own_for(game)
        #: The memo of the seats' potential parts in positions with this ``key``.
        self.potential = memo.potential_for(key)


class _Memo:
    """The evaluation's memos, two levels deep so that a position's common part (``_Common``:
    the game, the turns left, the odds, the Lords counts) is hashed once per evaluation, not
    once per seat: a seat's own score by game, then by its settlements; its potential parts by
    the common key, then by its own pieces.  Cleared whole past :data:`MEMO_ENTRIES` entries."""

    __slots__ = ("_entries", "_lords", "_own", "_potential", "_sectors")

    def __init__(self) -> None:
        self._own: dict[Hashable, dict[frozenset[int], int]] = {}
        self._sectors: dict[Hashable, dict[frozenset[int], tuple[int, ...]]] = {}
        self._potential: dict[Hashable, dict[Hashable, tuple[float, float, float, float]]] = {}
        self._lords: dict[Hashable, tuple[int, ...]] = {}
        self._entries = 0

    def own_for(self, game: Hashable) -> dict[frozenset[int], int]:
        table = self._own.get(game)
        if table is None:
            table = self._own[game] = {}
        return table

    def sector_counts(self, st: KingdomBuilderState, game: Hashable) -> list[tuple[int, ...]]:
        """:func:`sector_counts` (each seat's settlements per sector, KB §9.2), one seat's row
        memoised by its settlements (rivals' settlements stay put during a turn)."""
        table = self._sectors.get(game)
        if table is None:
            table = self._sectors[game] = {}
        out = []
        for s in range(st.n):
            home = st.frozen_home(s)
            row = table.get(home)
            if row is None:
                row = table[home] = scoring.sector_row(st.board, home)
                self.added()
            out.append(row)
        return out

    def scored_counts(
        self, st: KingdomBuilderState, game: Hashable
    ) -> list[tuple[int, ...]] | None:
        """:meth:`sector_counts` when a card of the game scores by sector (Lords or Farmers,
        KB §9.2), else ``None`` (nothing reads them)."""
        if "Lords" in st.cards or "Farmers" in st.cards:
            return self.sector_counts(st, game)
        return None

    def potential_for(self, key: Hashable) -> dict[Hashable, tuple[float, float, float, float]]:
        table = self._potential.get(key)
        if table is None:
            table = self._potential[key] = {}
        return table

    def lords(self, key: Hashable, counts: Sequence[Sequence[int]]) -> tuple[int, ...]:
        scores = self._lords.get(key)
        if scores is None:
            scores = self._lords[key] = tuple(lords_scores(counts))
            self.added()
        return scores

    def added(self) -> None:
        """Count one new entry; past :data:`MEMO_ENTRIES`, forget everything."""
        self._entries += 1
        if self._entries >= MEMO_ENTRIES:
            self._own.clear()
            self._sectors.clear()
            self._potential.clear()
            self._lords.clear()
            self._entries = 0


#: How many memo entries an :class:`Evaluator` keeps before it forgets them all.
MEMO_ENTRIES = 40_000


class Evaluator:
    """The evaluation with a given set of :class:`Weights` (see the module docstring)."""

    def __init__(self, weights: Weights | None = None) -> None:
        self.weights = weights or Weights()
        self._memo = _Memo()

    def evaluate_all(self, state: GameState) -> list[float]:
        """Every seat's value in points."""
        st: KingdomBuilderState = state  # type: ignore[assignment]
        if st.over:
            return [float(row["total"]) for row in st.preview_scores()]
        w = self.weights
        common = _Common(st, self._memo)
        values = []
        for s in range(st.n):
            value, tiles, nomads, home = self._held(st, s, common)
            for v in tiles:
                value += v
            for v in nomads:
                value += v
            if w.potential:
                value += w.potential * self._potential_parts(st, s, common, home)[0]
            values.append(value)
        return values

    def _own_points(
        self, st: KingdomBuilderState, own: dict[frozenset[int], int], home: frozenset[int]
    ) -> int:
        """A seat's castles and its points on every card but Lords (which compares seats), KB
        §9, from ``own`` (this game's memo) by its settlements, which stay put for the rivals
        during a turn."""
        points = own.get(home)
        if points is None:
            points = own[home] = scoring.own_points(st.board, st.cards, home)
            self._memo.added()
        return points

    def live_scores(self, state: GameState) -> list[float]:
        """Every seat's points as the rules count them now (KB §9: castles, the cards, Lords
        and banked gold, as if the game ended here; the final scores of a finished game): the
        totals of ``preview_scores``, with each seat's own points memoised by its settlements
        (a turn moves only the seat's own) — the last-turn planner's judge (the
        ``live_scores`` hook)."""
        st: KingdomBuilderState = state  # type: ignore[assignment]
        if st.over:
            return [float(row["total"]) for row in st.preview_scores()]
        memo = self._memo
        game = _game_key(st)
        lords: tuple[int, ...] | None = None
        if "Lords" in st.cards:
            counts = memo.sector_counts(st, game)
            lords = memo.lords(tuple(counts), counts)
        own = memo.own_for(game)
        out = []
        for s in range(st.n):
            total = self._own_points(st, own, st.frozen_home(s)) + st.gold_total(s)
            if lords is not None:
                total += lords[s]
            out.append(float(total))
        return out

    def features(self, state: GameState) -> list[tuple[float, ...]]:
        """Every seat's :data:`FEATURES` (the fitted evaluation's inputs; an unfinished game):
        ``score`` (castles, the cards, Lords and banked gold as if the game ended now),
        ``tiles`` and ``nomad_tiles`` (as in :meth:`evaluate_all`), ``potential`` (next turn's
        expected gain, not yet weighted), ``potential_more`` (the same over the next-best hexes:
        what is left for later turns), ``frontier`` (the empty buildable hexes touching the
        seat's settlements: its choice of hexes for the cards to come, KB §5),
        ``open_terrains`` (how many of the five terrains it can build next to its settlements),
        ``supply`` (settlements not yet built, KB §8) and ``moved`` (1 for a seat that has
        already taken its turn in this round, 0 for the seat to move and the seats after it:
        the game ends at the end of a round, KB §8, so every seat gets as many turns, and a
        seat that has moved is one turn's gain ahead of what it will finish with, relatively).
        With the weights ``1, 1, 1, potential, 0, 0, 0, 0, 0`` they sum to
        :meth:`evaluate_all`."""
        st: KingdomBuilderState = state  # type: ignore[assignment]
        common = _Common(st, self._memo)
        moved = moved_this_round(st)
        out: list[tuple[float, ...]] = []
        for s in range(st.n):
            score, tiles, nomads, home = self._held(st, s, common)
            potential, more, frontier, open_terrains = self._potential_parts(st, s, common, home)
            out.append(
                (
                    score,
                    sum(tiles, 0.0),
                    sum(nomads, 0.0),
                    potential,
                    more,
                    frontier,
                    open_terrains,
                    float(st.supply[s]),
                    1.0 if s in moved else 0.0,
                )
            )
        return out

    def _held(
        self, st: KingdomBuilderState, s: int, common: _Common
    ) -> tuple[float, list[float], list[float], frozenset[int]]:
        """Seat ``s``'s live score (castles, the cards, Lords, banked gold: KB §9), the value
        of each location tile it holds (KB §6–§7), of each nomad tile it has still to use, and
        its settlements — the terms :meth:`evaluate_all` and :meth:`features` share, kept apart
        so that each adds them in its own order."""
        w = self.weights
        kinds = st.board.location_type
        left = common.left
        home = st.frozen_home(s)
        score = float(self._own_points(st, common.own, home) + st.gold_total(s))
        if common.lords is not None:
            score += common.lords[s]
        held = st.tiles[s]
        tiles = (
            [max(w.tile_floor, w.tile_per_turn[kinds[loc]] * left) for loc in held] if held else []
        )
        nheld = st.nheld[s]
        nomads = (
            [nomad_value(st, st.nkind[nh], w) for nh, use in nheld.items() if use != USED]
            if nheld
            else []
        )
        return score, tiles, nomads, home

    def explain_terms(self, state: GameState, seat: Seat) -> dict[str, float]:
        """``seat``'s value split into this evaluation's named terms (in points), summing to
        ``evaluate_all(state)[seat]``: ``castles``, one term per card of the game (its name in
        lower case: ``fishermen``, ``lords``, ...; a Nomads card's term is the gold it paid),
        ``treasure`` (gold from Treasure tiles), ``tiles`` (location tiles held), ``nomad_tiles``
        (nomad tiles still to use) and ``potential`` (next turn's expected gain).  A finished game
        has only the scoring categories (its final score)."""
        st: KingdomBuilderState = state  # type: ignore[assignment]
        if st.over:
            row = st.preview_scores()[seat]
            return {name.lower(): float(v) for name, v in row.items() if name != "total"}
        board = st.board
        w = self.weights
        home = [st.homes[seat]]
        terms: dict[str, float] = {"castles": float(scoring.castles(board, home)[0])}
        common = _Common(st, self._memo)
        for card in st.cards:
            if card == "Lords":
                assert common.lords is not None
                terms["lords"] = float(common.lords[seat])
            elif card in scoring.SCORERS:
                terms[card.lower()] = float(scoring.SCORERS[card](board, home)[0])
            else:  # a Nomads card: the gold it paid during play (KB §9.3)
                terms[card.lower()] = float(st.gold[seat][GOLD_INDEX[card]])
        treasure = st.gold[seat][GOLD_INDEX["Treasure"]]
        if treasure or st.nomad_tiles:
            terms["treasure"] = float(treasure)
        _score, tiles, nomads, mine = self._held(st, seat, common)
        terms["tiles"] = sum(tiles, 0.0)
        if st.nomad_tiles or st.nheld[seat]:
            terms["nomad_tiles"] = sum(nomads, 0.0)
        potential = 0.0
        if w.potential:
            potential = w.potential * self._potential_parts(st, seat, common, mine)[0]
        terms["potential"] = potential
        return terms

    def _potential_parts(
        self, st: KingdomBuilderState, s: int, common: _Common, home: frozenset[int]
    ) -> tuple[float, float, float, float]:
        """The seat's potential (for each terrain, its ``potential_hexes`` best open
        neighbouring hexes' gains times the chance of that card), the same sum over the
        next ``potential_hexes`` best hexes (what is left for the turns after the next), and
        :meth:`features`' ``frontier`` and ``open_terrains`` (its empty buildable neighbouring
        hexes, and how many terrains they show), which depend on the neighbouring hexes alone.
        Memoised by what they depend on: the seat's settlements (``home``), neighbouring hexes
        and taken tiles, and what every seat's depends on (``common.key``)."""
        front = st.front[s]
        if not front:
            return 0.0, 0.0, 0.0, 0.0
        key = (s, st.frozen_front(s), home, frozenset(st.taken[s]))
        cached = common.potential.get(key)
        if cached is not None:
            return cached
        hexes = sorted(front)
        gains = hex_gains(st, s, hexes, common.left, self.weights, common.counts, build_gold=False)
        terrain = st.board.terrain
        per_terrain: list[list[float]] = [[] for _ in BUILDABLE]
        frontier = 0
        open_terrains = set()
        for h, g in zip(hexes, gains, strict=True):
            t = terrain[h]
            if t < WATER:
                frontier += 1
                open_terrains.add(t)
                if g > 0.0:
                    per_terrain[t].append(g)
        k = self.weights.potential_hexes
        odds = common.odds
        near = more = 0.0
        for t, gs in enumerate(per_terrain):
            if gs:
                gs.sort(reverse=True)
                near += odds[t] * sum(gs[:k])
                more += odds[t] * sum(gs[k : 2 * k])
        value = (near, more, float(frontier), float(len(open_terrains)))
        common.potential[key] = value
        self._memo.added()
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
            counts = self._memo.scored_counts(st, _game_key(st))
            gains = hex_gains(st, seat, hexes, turns_left(st), self.weights, counts)
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


DEFAULT = Evaluator(DEFAULT_WEIGHTS)

#: The hooks :mod:`game.bots.knowledge` looks for.
SCALE = DEFAULT_WEIGHTS.scale
evaluate_all = DEFAULT.evaluate_all
rollout_action = DEFAULT.rollout_action
explain_terms = DEFAULT.explain_terms
live_scores = DEFAULT.live_scores


def explain_gain(before: GameState, after: GameState, seat: Seat) -> list[dict[str, object]]:
    """:func:`explain_gain_with` the default evaluation (the one hints use)."""
    return explain_gain_with(DEFAULT, before, after, seat)


#: The bots' budgets here (game/bots/budget.py; issue 23): the greedy levels' evaluations per
#: turn (at most 0.3 s of CPU a decision, ``python -m bench.bot_budgets``), and the hard
#: level's search (docs/bots.md, "Measured for issue 23"): 9,000 units of work a decision;
#: each playout plays the candidate turn, the rivals' turns by the cheap playout policy, then
#: the bot's own next turn with the card it draws in that world, planned with 30 evaluations
#: (what the candidate sets up for the next card), then the rivals' next turns by the cheap
#: policy again (``horizon_extra`` 4: at four seats every seat has played two turns, so the bot
#: is not judged a turn ahead of its rivals; a horizon of two turns each at three seats played
#: no better, docs/bots.md "Two and three players"), and judges the position with the fitted
#: evaluation — or, when a seat has built its last settlement by then (``finish_round``,
#: :func:`round_ending`), plays the last round out and takes the real result; a turn keeps 4
#: virtual rounds at the planner's value, so a few lucky worlds do not overturn it (about 1 s of
#: CPU a decision at the median).  In a seat's last turn (:func:`last_turn`) the race also takes
#: the 4 best turns by the points the rules count now (``last_turn_plans``): the fitted
#: evaluation still values what a turn sets up for turns that will not come (docs/bots.md,
#: "The last turn, by the points it scores": 5 games won only with it, 2 only without, of 425),
#: found by a planner of 6,000 evaluations judging by the rules' points (``live_scores``), whose
#: time the race gives up: it stops at 70% of its work in such a turn (``last_turn_evals``,
#: ``last_turn_work``; docs/bots.md "A wider last turn, paid for by the race").  In such a turn a
#: playout that reaches the game's end is scored by the win chance of its final margin, at the
#: end's scale of 3 points, rather than by who won (``last_turn_end_margin``): a point more or
#: less of the seat's own last turn moves the race, where one won-or-lost playout said little
#: (docs/bots.md "The end scored by its margin, in the last turn": +0.31 and +0.25 points a last
#: turn, base game and full Nomads, no fewer games won; from the second-last turn on it lost
#: games).  In the base game the race also takes the 4 best turns of a wide planner (beam 60,
#: at most 40,000 evaluations) that looks through nothing (``last_turn_wide_beam``,
#: ``last_turn_wide_evals``): it finishes every last turn cheaply, where the planner above is
#: often cut short (docs/bots.md "A wide last-turn planner beside it": +0.10 points a last
#: turn, 10 base endgames won only with it and 6 only without, of 960).
#: The same with the full Nomads expansion, except that there the last round is not played
#: out and there is no wide last-turn planner (:data:`SEARCH_BY_VARIANT`).
PLAN_EVALS = 1500
SEARCH = {
    "work": 9000,
    "horizon_extra": 4,
    "playout_plan_evals": 30,
    "rival_plan_evals": 0,
    "prior_visits": 4,
    "finish_round": True,
    "last_turn_plans": 4,
    "last_turn_evals": 6000,
    "last_turn_work": 0.7,
    "last_turn_end_margin": True,
    "last_turn_wide_beam": 60,
    "last_turn_wide_evals": 40000,
}


#: The hard level's search with the full Nomads expansion (:func:`search_variant`): the same,
#: but a playout stops at its horizon even in the game's last round.  Played out there, the last
#: round lost 0.7 and 1.2 points a game against the search that stops (paired, full Nomads seeds
#: 0-99 and 100-151, docs/bots.md "The last round played out"), where in the base game it won
#: 10 games more to 3 (seeds 0-99, 300-399 and 400-499).  Nor does the wide last-turn planner
#: run there: on 619 full-Nomads endgames it gained +0.08 points a last turn but won 1 game only
#: with it and 4 only without (docs/bots.md "A wide last-turn planner beside it").
SEARCH_BY_VARIANT = {"full-nomads": {**SEARCH, "finish_round": False, "last_turn_wide_beam": 0}}


def search_variant(state: GameState) -> str:
    """The variant whose search parameters the hard level takes in ``state``: ``"full-nomads"``
    with the full Nomads expansion, ``"base"`` otherwise (the Nomads boards alone play the base
    game's rules)."""
    st: KingdomBuilderState = state  # type: ignore[assignment]
    return "full-nomads" if st.nomads == nm.FULL else "base"


SEARCH_VARIANT = search_variant


def round_ending(state: GameState) -> bool:
    """Whether the game ends when this round is over (KB §8: a seat has built its last
    settlement; the round is finished so every seat plays as many turns)."""
    st: KingdomBuilderState = state  # type: ignore[assignment]
    return bool(st.end_triggered)


#: Settlements a seat's turn must build (KB §4: three, or as many as its supply and the free
#: hexes of its card's terrain allow).
MANDATORY_BUILDS = 3


def last_turn(state: GameState, seat: Seat) -> bool:
    """Whether ``seat``'s turn now is surely its last (:mod:`game.bots.knowledge`'s
    ``last_turn``): the game ends with this round (KB §8) if a seat has built its last
    settlement, or if the seat to move or one after it in the round has no more than the three
    its turn must build (KB §4: building runs its supply out, which triggers the end)."""
    st: KingdomBuilderState = state  # type: ignore[assignment]
    if st.end_triggered:
        return True
    moved = moved_this_round(st)
    return any(st.supply[s] <= MANDATORY_BUILDS for s in range(st.n) if s not in moved)


def midway(state: GameState, seat: Seat) -> bool:
    """Whether ``seat`` is partway through one move that its next action completes
    (:mod:`game.bots.knowledge`'s ``midway``): a location or nomad tile chosen and its first
    step to come, a settlement lifted by a move tile and its new hex to choose (the tile's
    ``pending`` step, KB §6.1 and §7), or an Outpost's build to come (KB §7)."""
    st: KingdomBuilderState = state  # type: ignore[assignment]
    return st.cur == seat and (st.pending is not None or st.outpost > 0)


def round_turns_left(state: GameState) -> int:
    """How many turns end before this round is over: the seat to move's and those of the seats
    after it (KB §4: turns go clockwise from the start player; :func:`moved_this_round`)."""
    st: KingdomBuilderState = state  # type: ignore[assignment]
    return st.n - len(moved_this_round(st))


#: The hard level's win-chance scale: ``SCALE``, sharper near the end (:data:`SCALE_LATE`).
HARD_REWARD_SCALE = hard_reward_scale

#: The fitted evaluation (multipliers of the features per stage, a table for the base game and
#: one for the full Nomads expansion; the greedy levels and hints keep the plain sum).
FITTED = fitted_evaluator(DEFAULT)


def hard_evaluate_all(state: GameState) -> list[float]:
    """The hard level's evaluation (:mod:`game.bots.knowledge`'s ``HARD_EVALUATE_ALL``): the
    fitted one — its base-game table in the base game and with the Nomads boards alone, its
    full-Nomads table with the full expansion."""
    return FITTED.evaluate_all(state)


HARD_EVALUATE_ALL = hard_evaluate_all


def position_key(state: GameState, seat: Seat) -> Hashable:
    """Equal for the same placements and tile uses made in another order (turn planner)."""
    st: KingdomBuilderState = state  # type: ignore[assignment]
    key: tuple[Hashable, ...] = (
        st.frozen_home(seat),
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
            tuple(st.frozen_home(q) for q in range(st.n) if q != seat),
        )
    return key


__all__ = [
    "DEFAULT",
    "FEATURES",
    "FITTED",
    "HARD_EVALUATE_ALL",
    "HARD_REWARD_SCALE",
    "PLAN_EVALS",
    "SCALE",
    "SCALE_LATE",
    "SEARCH",
    "Evaluator",
    "FittedEvaluator",
    "Weights",
    "evaluate_all",
    "explain_gain",
    "explain_gain_with",
    "explain_terms",
    "hard_reward_scale",
    "hex_gains",
    "live_scores",
    "midway",
    "position_key",
    "rollout_action",
    "stage_of",
    "stratify_world",
    "terrain_odds",
    "turns_left",
]
