"""FROZEN for the reference bot (:mod:`bench.reference`): ``game/glen_more/evaluation.py`` as it was at commit 1841520.  Do not improve it: it is the yardstick (issue 23).  Edit only to keep it importing.

How good a Glen More position is for each seat: the bots' judgement (issue 16).

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
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from game.core.rng import Rng
from game.core.types import Action, Seat
from game.glen_more import grid as G
from game.glen_more.codes import (
    ACTIVATE,
    CUBE_CAP,
    CUBE_TOTAL,
    FOR_TILE,
    MOVE,
    OPTION,
    PAY,
    PLACE,
    RESOURCE,
    TAKE,
    TILE_OPTIONS,
)
from game.glen_more.tiles import (
    ACTIVATE_OPS,
    DIFFERENCE_VP,
    KINDS,
    LAND_TILES,
    NRES,
    PLACE_OPS,
    PRICES,
    RES_INDEX,
    ROUNDS,
    ROW_SPACES,
    TILE_PENALTY,
    TRACK_SLOTS,
    matches,
)

if TYPE_CHECKING:
    from game.core.api import GameState
    from game.glen_more.state import GlenMoreState


@dataclass(frozen=True)
class Weights:
    """Every constant of the evaluation (VP unless stated)."""

    #: What one more turn is worth before its tile's penalty (GM §3: turns are the tempo).
    turn_value: float = 5.0
    #: Spaces a figure advances per turn, on top of the number of figures (track model).
    step_extra: float = 1.5
    #: A cube's use value while the seat still has turns (GM §4.1, §4.3).
    cube_use: float = 0.6
    #: Extra use value of a cube for each owned tile that consumes its kind.
    consumer_bonus: float = 0.4
    #: Cap of the consumer bonus.
    consumer_cap: float = 1.2
    #: Share of the market price a cube is at least worth (it can be sold, GM §6).
    sell_share: float = 0.95
    #: A clan member on the territory beyond the first (reach, Loch Ness, later chieftains).
    member: float = 0.6
    #: A movement point that cannot make a chieftain (it can only move a clan member).
    move_point: float = 0.2
    #: The least a category step is worth per round (rivals' counts move too).
    category_floor: float = 0.3
    #: Weight of the best next placement's activations.
    potential: float = 0.3
    #: What a seat loses when no cell is open for its next tile (a turn without a tile).
    no_reach: float = 6.0
    #: Of the tiles an end-effect tile's owner will still take, the share expected to match,
    #: relative to the share of such tiles in the box.
    end_effect_share: float = 0.7
    #: A margin of ``scale`` VP makes a win e times likelier than a loss (search rewards).
    scale: float = 6.0


# ---- static tables --------------------------------------------------------------------------

#: Activation profiles (:func:`_profile`): what activating a tile of a kind can do.
A_NONE, A_PROD, A_CHOICE_PROD, A_GREY, A_CONVERT, A_SCORE, A_OPTIONS, A_FAIR = range(8)


def _profile(ops: tuple[dict[str, Any], ...], kind_index: int) -> tuple[Any, ...]:
    """``(code, ...)`` of an activation: production of a resource, production of a choice,
    grey (clan member, movement point), a conversion to whisky, a paid score, a butcher's
    options or a fair (its VP by number of kinds)."""
    clan = any(op["op"] == "gain" and op["what"] == "clan_member" for op in ops)
    move = sum(int(op["n"]) for op in ops if op["op"] == "clan_move")
    if clan or move:
        return (A_GREY, clan, move)
    for op in ops:
        name = op["op"]
        if name == "produce":
            return (A_PROD, RES_INDEX[op["resource"]])
        if name == "produce_choice":
            return (A_CHOICE_PROD,)
        if name == "convert":
            need = tuple(int((op.get("pay") or {}).get(r, 0)) for r in _RES)
            return (A_CONVERT, need, int(op["gain"].get("whisky", 0)))
        if name == "score":
            need = tuple(int((op.get("pay") or {}).get(r, 0)) for r in _RES)
            return (A_SCORE, need, int(op.get("pay_any", 0)), int(op["vp"]))
        if name == "score_choice":
            return (A_OPTIONS, tuple((tuple(n), a, vp) for n, a, vp in TILE_OPTIONS[kind_index]))
        if name == "score_distinct":
            table = tuple(int(v) for v in op["vp_by_kinds"])
            return (A_FAIR, table)
    return (A_NONE,)


_RES = tuple(sorted(RES_INDEX, key=RES_INDEX.__getitem__))

#: ``PROFILES[mode][kind]`` with mode 1 = grey clan members on placement (the option).
PROFILES: tuple[tuple[tuple[Any, ...], ...], ...] = tuple(
    tuple(_profile(ACTIVATE_OPS[mode][k.index], k.index) for k in KINDS) for mode in (0, 1)
)


def _consumes(kind_index: int) -> tuple[int, ...]:
    """Per resource: 1 if activating the kind can use up a cube of it (fairs: every kind)."""
    out = [0] * NRES
    for op in KINDS[kind_index].on_activate:
        name = op["op"]
        if name in ("convert", "score"):
            for r in op.get("pay") or {}:
                out[RES_INDEX[r]] = 1
            if op.get("pay_any"):
                out = [1] * NRES
        elif name == "score_choice":
            for o in op["options"]:
                for r in o["pay"]:
                    out[RES_INDEX[r]] = 1
        elif name == "score_distinct":
            out = [1] * NRES
    return tuple(out)


CONSUMES: tuple[tuple[int, ...], ...] = tuple(_consumes(k.index) for k in KINDS)
#: Kinds whose activation consumes something.
CONSUMERS: frozenset[int] = frozenset(k.index for k in KINDS if any(CONSUMES[k.index]))

#: End-game effects per kind: ``(filter, vp, share of land tiles matching)``.
END_EFFECTS: tuple[tuple[tuple[dict[str, Any], int, float], ...], ...] = tuple(
    tuple(
        (
            op["filter"],
            int(op["vp"]),
            sum(kk.count for kk in KINDS[1:] if matches(kk, op["filter"])) / LAND_TILES,
        )
        for op in k.end_game
        if op["op"] == "vp_per_tile"
    )
    for k in KINDS
)
_TOP = len(DIFFERENCE_VP) - 1
_NEAR8 = G.AROUND


def _diff_points(counts: Sequence[float], s: int) -> int:
    low = min(counts)
    return DIFFERENCE_VP[min(int(counts[s] - low), _TOP)]


def _step_gain(counts: Sequence[int], s: int, by: int, floor: float, already: int = 0) -> float:
    """What the seat gains in one scoring round when its count grows by ``by`` after growing
    by ``by * already`` (GM §7.1): the step up the 0/1/2/3/5/8 table, or — for the seat with
    the fewest — one point a rival loses; at least ``floor`` (the others' counts move too)."""
    d = counts[s] + by * already - min(counts)
    if d <= 0:
        return max(floor, float(by))
    lo = DIFFERENCE_VP[min(d, _TOP)]
    hi = DIFFERENCE_VP[min(d + by, _TOP)]
    return max(floor, float(hi - lo))


@functools.lru_cache(maxsize=4096)
def _steps(d: int, by: int, rounds_left: int, floor: float) -> tuple[float, ...]:
    """The 1st, 2nd, ... 8th step of ``by`` up a category from difference ``d``, in every
    round still to come (:func:`_step_gain`)."""
    column = (0, d) if d >= 0 else (0, 0)
    return tuple(rounds_left * _step_gain(column, 1, by, floor, j) for j in range(8))


# ---- the track ------------------------------------------------------------------------------


def figure_distances(st: GlenMoreState) -> list[int]:
    """Each figure's distance clockwise from the empty space (GM §3): 1 for the hindmost at the
    start of a turn; seats first, then the die figure."""
    e = st.empty
    return [(slot - e) % TRACK_SLOTS for slot in st.figs]


def turns_left(st: GlenMoreState, weights: Weights | None = None) -> list[float]:
    """How many more turns each seat expects (GM §3, §4.5, §10), the current one included for
    a seat that has not yet moved its figure.

    The refills will still draw every tile of the stacks, ``S`` of them; a refill draws as many
    tiles as the rear of the pack advances, so the game ends when the hindmost figure would
    stand ``S + 1`` spaces past today's empty space.  A figure ``x`` spaces past it has
    ``S + 1 - x`` spaces to go, at about ``figures + step_extra`` spaces a turn.
    """
    w = weights or DEFAULT_WEIGHTS
    end = sum(len(p) for p in st.stacks) + 1
    step = len(st.figs) + w.step_extra
    dist = figure_distances(st)
    out = []
    for s in range(st.n):
        x = dist[s]
        if st.cur == s and st.phase == TAKE:
            x = 1  # its figure moves now: this turn counts
        out.append(max(0.0, (end - x) / step + (0.5 if end > x else 0.0)))
    return out


# ---- one seat's assets ----------------------------------------------------------------------


class _Seat:
    """What one seat's cubes, activations and movement points are worth now (VP)."""

    __slots__ = (
        "buy",
        "chief_steps",
        "cube",
        "member",
        "members",
        "move_point",
        "supply",
        "whisky",
    )

    def __init__(
        self,
        st: GlenMoreState,
        s: int,
        left: float,
        rounds_left: int,
        counts: dict[str, list[int]],
        w: Weights,
    ) -> None:
        market = st.market
        bonus = [0.0] * NRES
        for k in st.grid[s].values():
            if k in CONSUMERS:
                for r, used in enumerate(CONSUMES[k]):
                    if used:
                        bonus[r] += w.consumer_bonus
        use = w.cube_use * min(1.0, left)
        #: What a cube of each kind is worth: its use while turns are left, at least nearly
        #: what the market pays for it now (GM §6).
        self.cube = [
            max(
                (use + min(bonus[r], w.consumer_cap)) if left > 0 else 0.0,
                w.sell_share * (PRICES[market[r] - 1] if market[r] else 0),
            )
            for r in range(NRES)
        ]
        coins = st.coins[s]
        have = st.have[s]
        #: The cost of one more cube of each kind: an own cube, else the market's price.
        self.buy = [
            self.cube[r]
            if have[r]
            else (
                float(PRICES[market[r]])
                if market[r] < ROW_SPACES and coins >= PRICES[market[r]]
                else _UNPAYABLE
            )
            for r in range(NRES)
        ]
        #: One more whisky barrel, in every round still to come (GM §7.1).
        self.whisky = rounds_left * _step_gain(counts["whisky"], s, 1, w.category_floor)
        mult = st.chieftain_multiplier(s)
        column = counts["chieftains"]
        #: The 1st, 2nd, ... chieftain more, in every round still to come (Castle of Mey: each
        #: counts twice, GM §7.1 D19).
        self.chief_steps = _steps(column[s] - min(column), mult, rounds_left, w.category_floor)
        self.members = st.clan_total[s]
        self.supply = st.clan_stock
        self.member = w.member
        self.move_point = w.move_point

    def cost(self, need: Sequence[int], any_n: int = 0) -> float:
        """What handing in ``need`` (per kind) plus ``any_n`` cubes of any kinds costs."""
        buy = self.buy
        total = 0.0
        for r in range(NRES):
            n = need[r]
            if n:
                total += n * buy[r]
        if any_n:
            total += any_n * min(buy)
        return total

    def activation(self, profile: tuple[Any, ...], room: int) -> float:
        """What activating a tile with this profile gives, grey tiles aside (their clan
        members and movement points are valued together by :meth:`clan_value`)."""
        code = profile[0]
        if code == A_PROD:
            return self.cube[profile[1]] if room > 0 else 0.0
        if code == A_CHOICE_PROD:
            return max(self.cube) if room > 0 else 0.0
        if code == A_CONVERT:
            return max(0.0, self.whisky * profile[2] - self.cost(profile[1]))
        if code == A_SCORE:
            return max(0.0, profile[3] - self.cost(profile[1], profile[2]))
        if code == A_OPTIONS:
            best = 0.0
            for need, any_n, vp in profile[1]:
                best = max(best, vp - self.cost(need, any_n))
            return best
        if code == A_FAIR:
            table = profile[1]
            costs = sorted(self.buy)
            best = 0.0
            paid = 0.0
            for n in range(1, len(table)):
                paid += costs[n - 1]
                best = max(best, table[n] - paid)
            return best
        return 0.0

    def clan_value(self, points: int, new_members: int, new_points: int) -> float:
        """What ``points`` movement points in hand plus ``new_members`` clan members and
        ``new_points`` points still to come this turn are worth (GM §4.4): each point can turn
        a clan member into a chieftain (one member must stay); the best number of chieftains
        is made, the rest of the members and points keep a small value."""
        gained = min(new_members, self.supply)
        p = points + new_points
        most = min(p, self.members + gained - 1)
        best = 0.0
        total = 0.0
        for j in range(max(0, min(most, len(self.chief_steps)))):
            total += self.chief_steps[j] - self.member - self.move_point
            best = max(best, total)
        return best + self.member * gained + self.move_point * p


_UNPAYABLE = 99.0


def activation_value(st: GlenMoreState, seat: Seat, cell: int) -> float:
    """What activating the seat's tile at ``cell`` would give now, in VP (0 if nothing; a grey
    tile's clan member and movement point as if it were the only one this turn)."""
    counts = _counts(st)
    rl = ROUNDS - len(st.rounds)
    info = _Seat(st, seat, turns_left(st)[seat], rl, counts, DEFAULT_WEIGHTS)
    profile = PROFILES[st.clan_on_place][st.grid[seat][cell]]
    if profile[0] == A_GREY:
        return info.clan_value(0, 1 if profile[1] else 0, profile[2])
    room = CUBE_CAP - CUBE_TOTAL[st.cubes[seat].get(cell, 0)]
    return info.activation(profile, room)


def _counts(st: GlenMoreState) -> dict[str, list[int]]:
    """The three counts of a scoring round (GM §7.1), with the taken tile of the seat to move
    counted as placed (its card and its on-place whisky)."""
    seats = range(st.n)
    cards = [list(st.cards[s]) for s in seats]
    whisky = list(st.whisky)
    if st.phase in (PAY, PLACE) and st.taken >= 0 and st.pay_for == FOR_TILE:
        kind = KINDS[st.taken]
        if kind.special:
            cards[st.cur].append(st.taken)
        for op in PLACE_OPS[st.clan_on_place][st.taken]:
            if op["op"] == "gain" and op["what"] == "whisky":
                whisky[st.cur] += int(op["n"])
    chiefs = []
    for s in seats:
        mult = 1
        bonnets = 0
        for k in cards[s]:
            mult = max(mult, KINDS[k].chieftain_multiplier)
            bonnets += KINDS[k].bonnets
        chiefs.append(st.chieftains[s] * mult + bonnets)
    return {"whisky": whisky, "chieftains": chiefs, "specials": [len(c) for c in cards]}


class Evaluator:
    """The evaluation with a given set of :class:`Weights` (see the module docstring)."""

    def __init__(self, weights: Weights | None = None) -> None:
        self.weights = weights or Weights()
        self._cache: dict[Hashable, float] = {}

    # ---- the hook ------------------------------------------------------------------------
    def evaluate_all(self, state: GameState) -> list[float]:
        """Every seat's expected final score in VP."""
        st: GlenMoreState = state  # type: ignore[assignment]
        if st.over:
            return [float(row["total"]) for row in st.scores()]
        w = self.weights
        n = st.n
        rl = ROUNDS - len(st.rounds)
        counts = _counts(st)
        left = turns_left(st, w)
        stacks_left = sum(len(p) for p in st.stacks)
        pending_tile = st.phase in (PAY, PLACE) and st.taken >= 0 and st.pay_for == FOR_TILE
        tiles = [len(st.grid[s]) + (1 if pending_tile and s == st.cur else 0) for s in range(n)]
        projected = [tiles[s] + left[s] for s in range(n)]
        fewest = min(projected)
        category_points = [0.0] * n
        for cat in ("whisky", "chieftains", "specials"):
            column = counts[cat]
            for s in range(n):
                category_points[s] += _diff_points(column, s)
        values = []
        cur = st.cur
        for s in range(n):
            value = float(st.tile_vp[s]) + sum(r["total"][s] for r in st.rounds)
            value += rl * category_points[s]
            value += st.coins[s]
            value += w.member * max(0, st.clan_total[s] - 1)
            value += w.turn_value * left[s]
            value -= TILE_PENALTY * (projected[s] - fewest)
            if s == cur:
                info = _Seat(st, s, left[s], rl, counts, w)
                value += self._holdings(st, s, info, left[s], stacks_left)
                value += self._turn_in_progress(st, s, info)
            else:
                value += self._holdings_cached(st, s, left[s], rl, counts, stacks_left)
            values.append(value)
        return values

    def _holdings_cached(
        self,
        st: GlenMoreState,
        s: int,
        left: float,
        rl: int,
        counts: dict[str, list[int]],
        stacks_left: int,
    ) -> float:
        """:meth:`_holdings` of a seat that is not moving, memoised: while another seat plays
        its turn, only the market and the round counts can change what it holds is worth."""
        key = (
            s,
            left,
            rl,
            stacks_left,
            st.clan_on_place,
            tuple(st.market),
            tuple(c[s] - min(c) for c in counts.values()),
            st.chieftain_multiplier(s),
            st.clan_stock,
            st.coins[s],
            st.clan_total[s],
            frozenset(st.grid[s].items()),
            frozenset(st.cubes[s].items()),
            frozenset(st.clan[s].items()),
            tuple(st.cards[s]),
        )
        cache = self._cache
        value = cache.get(key)
        if value is None:
            info = _Seat(st, s, left, rl, counts, self.weights)
            value = self._holdings(st, s, info, left, stacks_left)
            if len(cache) >= 50_000:
                cache.clear()
            cache[key] = value
        return value

    def _holdings(
        self, st: GlenMoreState, s: int, info: _Seat, left: float, stacks_left: int
    ) -> float:
        """The seat's cubes, its end effects and its best next placement."""
        w = self.weights
        value = 0.0
        have = st.have[s]
        cube = info.cube
        for r in range(NRES):
            if have[r]:
                value += have[r] * cube[r]
        value += self._end_effects(st, s, left, stacks_left)
        best = self._next_placement(st, s, info, -1)
        value += -w.no_reach if best is None else w.potential * best
        return value

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

    def _set_value(self, st: GlenMoreState, s: int, info: _Seat, cells: Any, points: int) -> float:
        """What activating the seat's tiles at ``cells`` (each once) gives, with ``points``
        movement points already in hand: the tiles' own gains plus the clan members and points
        of the grey ones, valued together (:meth:`_Seat.clan_value`)."""
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
        self, st: GlenMoreState, s: int, info: _Seat, edge_class: int, own: int = -1
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
            for d in _NEAR8:
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

    def _turn_in_progress(self, st: GlenMoreState, s: int, info: _Seat) -> float:
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
                cells = st.grid[s] if st.all_tiles else (at, *(at + d for d in _NEAR8))
                return value + self._set_value(st, s, info, cells, st.points)
        elif ph == OPTION:
            k = st.grid[s][st.opt_cell]
            value += info.activation(PROFILES[st.clan_on_place][k], 0)
        return value + self._open_activations(st, s, info)

    def _open_activations(self, st: GlenMoreState, s: int, info: _Seat) -> float:
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

    def _taken_tile(self, st: GlenMoreState, s: int, info: _Seat) -> float:
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
                elif op["what"] == "clan_member" and st.clan_stock > 0:
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
                n = sum(1 for d in _NEAR8 if (c + d) in grid) * 4 + rng.randbelow(4)
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


# ---- pruning and transpositions -------------------------------------------------------------


def candidate_actions(state: GameState, seat: Seat, actions: list[Action]) -> list[Action]:
    """The actions worth searching (GM §4, §6), in the engine's order.

    * A sale is kept only where it can matter: while paying (to raise coins), during the
      activations (to make room on a full tile, or to cash cubes in) and before ending the turn;
      before taking or placing a tile a sale gains nothing that selling later would not.  Of
      the sales of one resource kind only one is kept: from the tile holding the most cubes
      (ties: the first cell), as which tile a cube leaves matters only for room.
    * Of the payments with one resource kind only one is kept, from the fullest tile likewise.
    """
    st: GlenMoreState = state  # type: ignore[assignment]
    ph = st.phase
    keep_sales = ph in (PAY, ACTIVATE, MOVE)
    cubes = st.cubes[seat]
    out: list[Action] = []
    best_sale: dict[str, tuple[int, Action]] = {}
    best_pay: dict[str, tuple[int, Action]] = {}
    for a in actions:
        kind = a[0]
        if kind == "sell" or kind == "pay":
            if kind == "sell" and not keep_sales:
                continue
            held = CUBE_TOTAL[cubes.get(G.cell(a[1], a[2]), 0)]
            table = best_sale if kind == "sell" else best_pay
            known = table.get(a[3])
            if known is None or held > known[0]:
                table[a[3]] = (held, a)
            continue
        out.append(a)
    chosen = {a for _n, a in best_pay.values()} | {a for _n, a in best_sale.values()}
    if chosen:
        out = [a for a in actions if a in chosen or (a[0] not in ("sell", "pay") and a in out)]
    return out or actions


def position_key(state: GameState, seat: Seat) -> Hashable:
    """Everything the rest of the game depends on while ``seat`` plays its turn: its territory
    (tiles, cubes, clan members), its coins, whisky, chieftains, VP and cards, the market, the
    track and the pending step of the turn — not the order in which it got there."""
    st: GlenMoreState = state  # type: ignore[assignment]
    return (
        st.turn,
        st.phase,
        tuple(st.slots),
        frozenset(st.grid[seat].items()),
        frozenset(st.cubes[seat].items()),
        frozenset(st.clan[seat].items()),
        st.coins[seat],
        st.whisky[seat],
        st.chieftains[seat],
        st.tile_vp[seat],
        len(st.cards[seat]),
        tuple(st.market),
        st.clan_stock,
        st.taken,
        st.at,
        frozenset(st.todo),
        st.first,
        st.ness,
        st.points,
        tuple(st.need),
        st.need_any,
        st.need_clan,
        st.pay_for,
        st.reward_vp,
        st.reward_whisky,
        st.opt_cell,
        tuple(st.res_queue),
        st.place_op,
        st.all_tiles,
    )


DEFAULT_WEIGHTS = Weights()
DEFAULT = Evaluator(DEFAULT_WEIGHTS)

#: The hooks :mod:`game.bots.knowledge` looks for.
SCALE = DEFAULT_WEIGHTS.scale
evaluate_all = DEFAULT.evaluate_all
rollout_action = DEFAULT.rollout_action
#: The easy level's randomness here: turns of one position spread over more VP than in Kingdom
#: Builder (a turn is worth ~5 VP on the track alone), so the default 2 left easy nearly as good
#: as normal (4-player, easy vs 3 normal: 21.7% of wins, above a given normal bot in 44% of the
#: pairs, 60 games).
EASY_TEMPERATURE = 5.0

__all__ = [
    "DEFAULT",
    "EASY_TEMPERATURE",
    "SCALE",
    "Evaluator",
    "Weights",
    "activation_value",
    "candidate_actions",
    "evaluate_all",
    "figure_distances",
    "position_key",
    "rollout_action",
    "turns_left",
]
