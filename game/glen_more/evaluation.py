"""How good a Glen More position is for each seat: the bots' judgement (issue 16).

Found by :mod:`game.bots.knowledge` by its name; the engine does not import it.  Everything here
reads only what every seat may see — the track, the market, the territories, cubes, coins,
whisky, chieftains and cards, and the *sizes* of the four tile stacks — never the order of a
stack, so what it says about a determinized state cannot depend on a secret.

A seat's **value** is its expected final score in VP (GM §7), made of:

* **banked points** — brown-tile VP and the scoring rounds already held;
* **the scoring rounds still to come** — whisky, chieftains plus bonnets (Castle of Mey doubles
  the chieftains) and special-location cards, compared with the other seats as the round would
  compare them now (difference to the fewest, 0/1/2/3/5/8, GM §7.1), once per round left;
* **coins** (1 VP each at the end, GM §7.2) and **cubes** (what they will be worth: a use value
  while the seat has turns left, at least nearly their price at the market, GM §6);
* the **end effects** held (Iona Abbey, Loch Morar, Duart Castle) with the matching tiles owned
  and some expected later;
* **the track** (GM §3): the game ends when the stacks run out, so the figures still have
  ``S + 1 - x`` spaces to go (``S`` tiles left in the stacks, ``x`` a figure's distance from
  the empty space); a seat expects ``(S + 1 - x) / step`` more turns (:func:`turns_left`), each
  worth ``turn_value`` VP, and every turn brings a tile, so the **tile penalty** (−3 VP per tile
  more than the fewest, GM §7.2) is charged on the *projected* tile counts.  A figure that jumps
  far ahead therefore gives up turns, and one that takes many tiles pays for them;
* the **next placement** (GM §4.2–§4.3): the best empty cell the seat could fill next turn — it
  must touch the territory and have a clan member around — scored by what activating its up to 8
  neighbours would give (:func:`activation_value`); a seat that cannot place at all loses a turn;
* the **turn in progress** (the seat to move only): a taken tile not yet placed counts as placed
  (its card, its on-place gains, its own activation and the best cell's neighbours), a payment
  still owed is subtracted, the activations still open and the movement points not yet spent
  are added at what they can give.  So every step of a turn is judged on the same footing and
  the turn planner can compare half-played turns.

``SCALE`` turns a margin in VP into a win chance for the search bot; ``rollout_action`` is its
cheap playout policy; ``position_key`` merges the same turn played in another order (payments
from other tiles aside, activations in another order); ``candidate_actions`` keeps one sale and
one payment per resource kind and drops sales where they cannot help (before taking a tile,
before placing it), so whole turns stay searchable.  :class:`Weights` holds every tuning
constant (:class:`Evaluator` compares variants in benchmarks).

Its parts beside it: :mod:`game.glen_more.weights` (the constants), :mod:`game.glen_more.seat_model`
(the activation tables, the track model, one seat's assets, the named :data:`TERMS`),
:mod:`game.glen_more.pruning` (``candidate_actions``, ``position_key``) and
:mod:`game.glen_more.reasons` (``explain_gain``'s reasons); here the sum, the playout policy and
the hooks :mod:`game.bots.knowledge` looks for.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from game.core.rng import Rng
from game.core.types import Action, Seat
from game.glen_more import grid as G
from game.glen_more.codes import (
    CUBE_CAP,
    CUBE_TOTAL,
    FOR_TILE,
    MOVE,
    OPTION,
    PAY,
    PLACE,
    RESOURCE,
    TAKE,
)
from game.glen_more.pruning import candidate_actions, position_key
from game.glen_more.reasons import explain_gain_with
from game.glen_more.seat_model import (
    A_GREY,
    END_EFFECTS,
    NEAR8,
    PROFILES,
    TERMS,
    TOP_STEP,
    SeatAssets,
    activation_value,
    category_counts,
    figure_distances,
    final_terms,
    stage_of,
    turns_left,
)
from game.glen_more.tiles import (
    DIFFERENCE_VP,
    KINDS,
    NRES,
    PLACE_OPS,
    ROUNDS,
    TILE_PENALTY,
    TRACK_SLOTS,
    matches,
)
from game.glen_more.weights import DEFAULT_WEIGHTS, Weights

if TYPE_CHECKING:
    from game.core.api import GameState
    from game.glen_more.state import GlenMoreState


class Evaluator:
    """The evaluation with a given set of :class:`Weights` (see the module docstring)."""

    def __init__(
        self,
        weights: Weights | None = None,
        multipliers: Sequence[Sequence[float]] | None = None,
    ) -> None:
        self.weights = weights or Weights()
        #: Per game stage (:func:`stage_of`), a multiplier for each of :data:`TERMS` (the hard
        #: level's fitted evaluation); ``None``: the plain sum.
        self.multipliers: tuple[tuple[float, ...], ...] | None = None
        if multipliers is not None:
            rows = tuple(tuple(float(c) for c in row) for row in multipliers)
            if not rows or any(len(row) != len(TERMS) for row in rows):
                raise ValueError(f"multipliers need one row of {len(TERMS)} per stage")
            self.multipliers = rows
        self._cache: dict[Hashable, tuple[float, float, float]] = {}

    # ---- the hook ------------------------------------------------------------------------
    def evaluate_all(self, state: GameState) -> list[float]:
        """Every seat's expected final score in VP: the sum of its :data:`TERMS` (each times
        its multiplier at this stage of the game, if the evaluator has multipliers)."""
        rows = self.terms(state)
        mult = self.multipliers
        st: GlenMoreState = state  # type: ignore[assignment]
        if mult is None or st.over:
            return [sum(row) for row in rows]
        m = mult[stage_of(st, len(mult))]
        return [sum([c * v for c, v in zip(m, row, strict=True)]) for row in rows]

    def terms(self, state: GameState) -> list[tuple[float, ...]]:
        """Every seat's value split into :data:`TERMS` (in that order, VP), summing to its
        value (see the module docstring).  A finished game gives the final score's parts."""
        st: GlenMoreState = state  # type: ignore[assignment]
        n = st.n
        if st.over:
            return [final_terms(row) for row in st.scores()]
        w = self.weights
        rl = ROUNDS - len(st.rounds)
        counts = category_counts(st)
        left = turns_left(st, w)
        stacks_left = sum(len(p) for p in st.stacks)
        pending_tile = st.phase in (PAY, PLACE) and st.taken >= 0 and st.pay_for == FOR_TILE
        tiles = [len(st.grid[s]) + (1 if pending_tile and s == st.cur else 0) for s in range(n)]
        projected = [tiles[s] + left[s] for s in range(n)]
        fewest = min(projected)
        lows = [min(column) for column in counts.values()]
        diffs = [
            [column[s] - low for s in range(n)]
            for column, low in zip(counts.values(), lows, strict=True)
        ]
        rounds = st.rounds
        out: list[tuple[float, ...]] = []
        cur = st.cur
        member = w.member
        turn_value = w.turn_value
        top = TOP_STEP
        dvp = DIFFERENCE_VP
        extra = st.taken if pending_tile else -1
        for s in range(n):
            cubes, ends, place = self._holdings_cached(
                st, s, left[s], rl, counts, stacks_left, diffs, extra if s == cur else -1
            )
            progress = 0.0
            if s == cur and (st.phase not in (TAKE, MOVE) or st.points):
                progress = self._turn_in_progress(st, s, SeatAssets(st, s, left[s], rl, counts, w))
            out.append(
                (
                    float(st.tile_vp[s]),
                    float(sum(r["total"][s] for r in rounds)) if rounds else 0.0,
                    float(rl * dvp[min(diffs[0][s], top)]),
                    float(rl * dvp[min(diffs[1][s], top)]),
                    float(rl * dvp[min(diffs[2][s], top)]),
                    float(st.coins[s]),
                    member * max(0, st.clan_total[s] - 1),
                    turn_value * left[s],
                    -TILE_PENALTY * (projected[s] - fewest),
                    cubes,
                    ends,
                    place,
                    progress,
                )
            )
        return out

    def _holdings_cached(
        self,
        st: GlenMoreState,
        s: int,
        left: float,
        rl: int,
        counts: dict[str, list[int]],
        stacks_left: int,
        diffs: list[list[int]],
        extra: int,
    ) -> tuple[float, float, float]:
        """:meth:`_holdings`, memoised by everything it depends on: the seat's territory,
        cubes, clan members, coins and cards, its differences in the round counts, the market,
        the turns and rounds left, and (the seat to move) the tile it has taken."""
        key = (
            s,
            left,
            rl,
            stacks_left,
            st.clan_on_place,
            tuple(st.market),
            diffs[0][s],
            diffs[1][s],
            diffs[2][s],
            extra,
            st.coins[s],
            st.clan_total[s],
            tuple(st.grid[s].items()),
            tuple(st.cubes[s].items()),
            tuple(st.clan[s].items()),
            tuple(st.cards[s]),
        )
        cache = self._cache
        value = cache.get(key)
        if value is None:
            info = SeatAssets(st, s, left, rl, counts, self.weights)
            value = self._holdings(st, s, info, left, stacks_left)
            if len(cache) >= 50_000:
                cache.clear()
            cache[key] = value
        return value

    def _holdings(
        self, st: GlenMoreState, s: int, info: SeatAssets, left: float, stacks_left: int
    ) -> tuple[float, float, float]:
        """The seat's cubes, its end effects and its best next placement (three terms)."""
        w = self.weights
        cubes = 0.0
        have = st.have[s]
        cube = info.cube
        for r in range(NRES):
            if have[r]:
                cubes += have[r] * cube[r]
        ends = self._end_effects(st, s, left, stacks_left)
        best = self._next_placement(st, s, info, -1)
        place = -w.no_reach if best is None else w.potential * best
        return cubes, ends, place

    # ---- parts ---------------------------------------------------------------------------
    def _end_effects(self, st: GlenMoreState, s: int, left: float, stacks_left: int) -> float:
        """GM §7.2: Iona Abbey, Loch Morar, Duart Castle — matching tiles owned now (the taken
        tile counted as placed), plus a share of the seat's later tiles."""
        owned = list(st.cards[s])
        extra = -1
        if s == st.cur and st.phase in (PAY, PLACE) and st.taken >= 0 and st.pay_for == FOR_TILE:
            extra = st.taken
            if KINDS[extra].special:
                owned.append(extra)
        total = 0.0
        for k in owned:
            for flt, vp, share in END_EFFECTS[k]:
                n = sum(1 for kk in st.grid[s].values() if matches(KINDS[kk], flt))
                if extra >= 0 and matches(KINDS[extra], flt):
                    n += 1
                total += vp * (n + self.weights.end_effect_share * share * left)
        return total

    def _set_value(
        self, st: GlenMoreState, s: int, info: SeatAssets, cells: Any, points: int
    ) -> float:
        """What activating the seat's tiles at ``cells`` (each once) gives, with ``points``
        movement points already in hand: the tiles' own gains plus the clan members and points
        of the grey ones, valued together (:meth:`SeatAssets.clan_value`)."""
        profiles = PROFILES[st.clan_on_place]
        grid = st.grid[s]
        cubes = st.cubes[s]
        total = 0.0
        members = 0
        moves = 0
        for c in cells:
            k = grid.get(c)
            if k is None:
                continue
            profile = profiles[k]
            if profile[0] == A_GREY:
                members += profile[1]
                moves += profile[2]
            else:
                total += info.activation(profile, CUBE_CAP - CUBE_TOTAL[cubes.get(c, 0)])
        if members or moves or points:
            total += info.clan_value(points, members, moves)
        return total

    def _next_placement(
        self, st: GlenMoreState, s: int, info: SeatAssets, edge_class: int, own: int = -1
    ) -> float | None:
        """The best next placement (GM §4.2–§4.3): the most an empty cell open to the seat (a
        full edge with the territory, a clan member around; for a tile of ``edge_class`` if
        that is not -1) would get from activating its neighbours — and the tile of kind
        ``own`` placed there, if given; ``None`` when no cell is open."""
        grid = st.grid[s]
        clan = st.clan[s]
        cells = G.candidates(grid, clan)
        if edge_class >= 0:
            cells = {c for c in cells if G.edges_fit(grid, c, edge_class)}
        if not cells:
            return None
        profiles = PROFILES[st.clan_on_place]
        cubes = st.cubes[s]
        single: dict[int, float] = {}
        grey: dict[int, tuple[int, int]] = {}
        for c, k in grid.items():
            profile = profiles[k]
            if profile[0] == A_GREY:
                grey[c] = (profile[1], profile[2])
            else:
                a = info.activation(profile, CUBE_CAP - CUBE_TOTAL[cubes.get(c, 0)])
                if a > 0.0:
                    single[c] = a
        own_members = own_moves = 0
        own_value = 0.0
        if own >= 0:
            profile = profiles[own]
            if profile[0] == A_GREY:
                own_members, own_moves = profile[1], profile[2]
            else:
                own_value = info.activation(profile, CUBE_CAP)
        best = -1e9
        for c in cells:
            v = own_value
            members, moves = own_members, own_moves
            for d in NEAR8:
                x = c + d
                v += single.get(x, 0.0)
                g = grey.get(x)
                if g:
                    members += g[0]
                    moves += g[1]
            if members or moves:
                v += info.clan_value(0, members, moves)
            if v > best:
                best = v
        return best

    def _turn_in_progress(self, st: GlenMoreState, s: int, info: SeatAssets) -> float:
        """What the rest of the current turn should still bring (see the module docstring)."""
        ph = st.phase
        if ph in (TAKE, MOVE):
            return info.clan_value(st.points, 0, 0) if st.points else 0.0
        value = 0.0
        if ph in (PAY, PLACE) and st.pay_for == FOR_TILE:
            value += self._taken_tile(st, s, info)
            if ph == PLACE:
                return value
        if ph == PAY:
            value -= info.cost(st.need, st.need_any)
            value -= self.weights.member * st.need_clan
            if st.pay_for == FOR_TILE:
                return value
            value += st.reward_vp + st.reward_whisky * info.whisky
        elif ph == RESOURCE:
            value += sum(n for _c, n in st.res_queue) * max(info.cube)
            if st.place_op >= 0:
                # the placed tile's activations are still to be opened (GM §4.3 D14)
                at = st.at
                cells = st.grid[s] if st.all_tiles else (at, *(at + d for d in NEAR8))
                return value + self._set_value(st, s, info, cells, st.points)
        elif ph == OPTION:
            k = st.grid[s][st.opt_cell]
            value += info.activation(PROFILES[st.clan_on_place][k], 0)
        return value + self._open_activations(st, s, info)

    def _open_activations(self, st: GlenMoreState, s: int, info: SeatAssets) -> float:
        """The activations still open this turn, with the movement points in hand, and Loch
        Ness's extra activation if unused (GM §4.3 D15)."""
        value = self._set_value(st, s, info, st.todo, st.points)
        if not st.ness and st.has_extra_activation(s):
            todo = set(st.todo)
            best = 0.0
            for c in st.grid[s]:
                if c not in todo:
                    best = max(best, self._set_value(st, s, info, (*st.todo, c), st.points))
            value = max(value, best)
        return value

    def _taken_tile(self, st: GlenMoreState, s: int, info: SeatAssets) -> float:
        """A tile taken but not yet placed, valued as placed at its best cell: its on-place
        gains (coins, clan members, cubes) and the activations its placement opens (its card
        and whisky are already in the round counts)."""
        w = self.weights
        k = st.taken
        kind = KINDS[k]
        mode = st.clan_on_place
        value = 0.0
        for op in PLACE_OPS[mode][k]:
            name = op["op"]
            if name == "gain":
                if op["what"] == "coins":
                    value += int(op["n"])
                elif op["what"] == "clan_member":
                    value += w.member * int(op["n"])
            elif name == "gain_resources_choice":
                value += int(op["n"]) * max(info.cube)
            elif name == "fill_empty_production_tiles":
                cubes = st.cubes[s]
                for c, kk in st.grid[s].items():
                    made = KINDS[kk].produces
                    if made != -1 and not cubes.get(c, 0):
                        value += max(info.cube) if made < 0 else info.cube[made]
            elif name == "activate_all_own_tiles":
                return value + self._set_value(st, s, info, st.grid[s], 0)
        best = self._next_placement(st, s, info, kind.edge_class, k)
        return value + (best if best is not None else 0.0)

    # ---- the search bot's playout policy -------------------------------------------------
    def greedy_rollout_action(
        self, state: GameState, seat: Seat, actions: list[Action], rng: Rng
    ) -> Action:
        """A playout move that models a greedy player (the search bot's playout policy): the
        tile to take is the one this evaluation likes best one action ahead (the seat's margin
        over its strongest rival once the tile is taken: what it brings, placed at its best
        cell, less what it costs, and how far the figure moves, GM §3-§4); every other step as
        :meth:`rollout_action`.  Which tiles the rivals take decides what is left for the
        searching seat's next turn, so they should take what a real player would."""
        if actions[0][0] == "take" and len(actions) > 1:
            st: GlenMoreState = state  # type: ignore[assignment]
            best: Action | None = None
            best_value = -1e18
            for a in actions:
                if a[0] != "take":
                    continue
                child = st.clone()
                child.apply_unchecked(seat, a)
                values = self.evaluate_all(child)
                v = values[seat] - max(x for s, x in enumerate(values) if s != seat)
                if v > best_value:
                    best, best_value = a, v
            if best is not None:
                return best
        return self.rollout_action(state, seat, actions, rng)

    def rollout_action(
        self, state: GameState, seat: Seat, actions: list[Action], rng: Rng
    ) -> Action:
        """A cheap, sensible move for search playouts (always one of ``actions``, which may be
        only some of the legal ones): take one of the nearest tiles, pay with own cubes before
        buying, place where the most tiles would be activated, activate the placed tile first
        and then every other one, take the dearest option, turn movement points into
        chieftains; sell only when nothing else is offered."""
        st: GlenMoreState = state  # type: ignore[assignment]
        by_kind: dict[str, list[Action]] = {}
        for a in actions:
            by_kind.setdefault(a[0], []).append(a)
        takes = by_kind.get("take")
        if takes:
            here = st.figs[seat]
            takes.sort(key=lambda a: (a[1] - here) % TRACK_SLOTS)
            top = min(len(takes), 3)
            return takes[rng.randbelow(top) if rng.randbelow(2) else 0]
        places = by_kind.get("place")
        if places:
            grid = st.grid[seat]
            best, best_n = places[0], -1
            for a in places:
                c = G.cell(a[1], a[2])
                n = sum(1 for d in NEAR8 if (c + d) in grid) * 4 + rng.randbelow(4)
                if n > best_n:
                    best, best_n = a, n
            return best
        activations = by_kind.get("activate")
        if activations:
            f = st.first
            if f >= 0:
                placed = ("activate", *G.rc(f))
                if placed in activations:
                    return placed
            return activations[0]
        for kind in ("done", "pay", "pay_clan", "buy", "chieftain", "end"):
            chosen = by_kind.get(kind)
            if chosen:
                return chosen[0]
        for kind in ("option", "resource", "discard", "loch_ness", "move"):
            chosen = by_kind.get(kind)
            if chosen:
                if kind == "option":
                    return chosen[-1]  # the largest set, the most VP
                return chosen[rng.randbelow(len(chosen))]
        return actions[rng.randbelow(len(actions))]


DEFAULT = Evaluator(DEFAULT_WEIGHTS)


def explain_terms(state: GameState, seat: Seat) -> dict[str, float]:
    """``seat``'s value split into the evaluation's named :data:`TERMS` (VP), summing to
    ``evaluate_all(state)[seat]`` (bots' contract 2: hints say what a move gains by these)."""
    return dict(zip(TERMS, DEFAULT.terms(state)[seat], strict=True))


#: A change of a term smaller than this (VP) is no reason.
def explain_gain(before: GameState, after: GameState, seat: Seat) -> list[dict[str, object]]:
    """:func:`~game.glen_more.reasons.explain_gain_with` the default evaluation (the one hints
    use)."""
    return explain_gain_with(explain_terms, before, after, seat)


#: The hooks :mod:`game.bots.knowledge` looks for.
SCALE = DEFAULT_WEIGHTS.scale
evaluate_all = DEFAULT.evaluate_all
#: The search bots' playout policy: the tile a greedy player would take, the rest cheap.
rollout_action = DEFAULT.greedy_rollout_action
#: The easy level's randomness here: turns of one position spread over more VP than in Kingdom
#: Builder (a turn is worth ~5 VP on the track alone), so the default 2 left easy nearly as good
#: as normal (4-player, easy vs 3 normal: 21.7% of wins, above a given normal bot in 44% of the
#: pairs, 60 games).
EASY_TEMPERATURE = 5.0
#: The bots' budgets here (game/bots/budget.py; issue 23).  The greedy levels' evaluations per
#: turn (at most 0.15 s of CPU a decision: ``python -m bench.bot_budgets --game glen-more
#: --games 3 --hard-cpu 1.25``, 2026-12-02).  The hard level: 90 playouts a decision, each
#: planning the bot's own next turn with 50 evaluations, within the hard level's CPU ceiling
#: (:data:`game.bots.budget.HARD_CPU_BUDGET`; 2.5 s here until 2026-12-05) — in 209 decisions of
#: 95 playouts at load 14 (2026-12-02) 0.83 s of CPU at the median, 1.96 s at the 95th
#: percentile, 3.48 s at most (the ceiling cuts those few slow positions, late in the game,
#: where a playout costs 30-40 ms).
PLAN_EVALS = 1500
#: Since 2026-12-05 also at most 11,000 units of work (the playouts' evaluations and actions:
#: about what 90 playouts take at the median), so the slow late positions, where a playout
#: costs several times more, end by the count rather than at the CPU ceiling: on a core ~1.5x
#: slower than the calibration's, 14 of 1,358 decisions reached the 1.9 s ceiling (p95 1.58 s)
#: against ~5-8% with playouts alone (p95 1.92 s) — docs/bots.md, *Glen More evaluation*.
SEARCH = {"iterations": 90, "playout_plan_evals": 50, "work": 11_000}


def _fitted() -> Evaluator:
    """The hard level's evaluation: the terms times the multipliers fitted from self-play
    (``game/glen_more/fitted.py``, written by ``bench/fit_glen_more.py``)."""
    from game.glen_more import fitted

    if tuple(fitted.TERMS) != TERMS:
        raise ValueError("game/glen_more/fitted.py was fitted for other terms: refit it")
    return Evaluator(DEFAULT_WEIGHTS, fitted.FITTED)


#: The hard level's evaluation (fitted multipliers of the terms; the greedy levels and hints
#: keep the plain sum): :mod:`game.bots.knowledge`'s ``HARD_EVALUATE_ALL``.
FITTED = _fitted()
HARD_EVALUATE_ALL = FITTED.evaluate_all

__all__ = [
    "DEFAULT",
    "DEFAULT_WEIGHTS",
    "EASY_TEMPERATURE",
    "FITTED",
    "HARD_EVALUATE_ALL",
    "PLAN_EVALS",
    "SCALE",
    "SEARCH",
    "TERMS",
    "Evaluator",
    "Weights",
    "activation_value",
    "candidate_actions",
    "category_counts",
    "evaluate_all",
    "explain_gain",
    "explain_terms",
    "figure_distances",
    "position_key",
    "rollout_action",
    "stage_of",
    "turns_left",
]
