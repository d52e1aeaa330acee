"""What a Glen More seat holds and can still do, as the evaluation (:mod:`game.glen_more.evaluation`)
reads it: the static tables of what each tile kind's activation can give (GM §4.3), the track model
(how many turns each seat has left, GM §3), one seat's assets (:class:`SeatAssets`: cubes, their use,
the rounds' categories, GM §6-§7), what activating a cell's neighbours gives
(:func:`activation_value`) and the named :data:`TERMS` a seat's value is split into.

Everything here reads only what every seat may see, never the order of a stack.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from game.core.types import Seat
from game.glen_more import grid as G
from game.glen_more.codes import CUBE_CAP, CUBE_TOTAL, FOR_TILE, PAY, PLACE, TAKE, TILE_OPTIONS
from game.glen_more.scoring import ROUND_KEYS
from game.glen_more.tiles import (
    ACTIVATE_OPS,
    DIFFERENCE_VP,
    END_CATEGORIES,
    KINDS,
    LAND_TILES,
    NRES,
    PLACE_OPS,
    PRICES,
    RES_INDEX,
    ROUNDS,
    ROW_SPACES,
    STACKS,
    TRACK_SLOTS,
    matches,
)
from game.glen_more.weights import DEFAULT_WEIGHTS, Weights

if TYPE_CHECKING:
    from game.glen_more.state import GlenMoreState

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
TOP_STEP = len(DIFFERENCE_VP) - 1
NEAR8 = G.AROUND


def _diff_points(counts: Sequence[float], s: int) -> int:
    low = min(counts)
    return DIFFERENCE_VP[min(int(counts[s] - low), TOP_STEP)]


def _step_gain(counts: Sequence[int], s: int, by: int, floor: float, already: int = 0) -> float:
    """What the seat gains in one scoring round when its count grows by ``by`` after growing
    by ``by * already`` (GM §7.1): the step up the 0/1/2/3/5/8 table, or — for the seat with
    the fewest — one point a rival loses; at least ``floor`` (the others' counts move too)."""
    d = counts[s] + by * already - min(counts)
    if d <= 0:
        return max(floor, float(by))
    lo = DIFFERENCE_VP[min(d, TOP_STEP)]
    hi = DIFFERENCE_VP[min(d + by, TOP_STEP)]
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


#: Tiles in the four stacks at the start of a game.
STACK_TILES = sum(len(p) for p in STACKS)


def stage_of(st: GlenMoreState, stages: int) -> int:
    """The game's stage in ``0..stages-1``: the share of the stacks' tiles already drawn, in
    ``stages`` equal bins."""
    left = sum(len(p) for p in st.stacks)
    return min(stages - 1, int((1.0 - left / STACK_TILES) * stages))


# ---- one seat's assets ----------------------------------------------------------------------


class SeatAssets:
    """What one seat's cubes, activations and movement points are worth now (VP)."""

    __slots__ = (
        "buy",
        "chief_steps",
        "cube",
        "member",
        "members",
        "move_point",
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
        is made, the rest of the members and points keep a small value.  The supply of clan
        members is unlimited (GM §1, issue 20)."""
        gained = new_members
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
    counts = category_counts(st)
    rl = ROUNDS - len(st.rounds)
    info = SeatAssets(st, seat, turns_left(st)[seat], rl, counts, DEFAULT_WEIGHTS)
    profile = PROFILES[st.clan_on_place][st.grid[seat][cell]]
    if profile[0] == A_GREY:
        return info.clan_value(0, 1 if profile[1] else 0, profile[2])
    room = CUBE_CAP - CUBE_TOTAL[st.cubes[seat].get(cell, 0)]
    return info.activation(profile, room)


#: Per kind: its card's bonnets and chieftain multiplier (GM §7.1, §8).
_BONNETS: tuple[int, ...] = tuple(k.bonnets for k in KINDS)
_MULTIPLIER: tuple[int, ...] = tuple(k.chieftain_multiplier for k in KINDS)
#: Per kind and clan-member option: the whisky its placement gives (GM §8).
_PLACE_WHISKY: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sum(
            int(op["n"])
            for op in PLACE_OPS[mode][k.index]
            if op["op"] == "gain" and op["what"] == "whisky"
        )
        for k in KINDS
    )
    for mode in (0, 1)
)


def category_counts(st: GlenMoreState) -> dict[str, list[int]]:
    """The three counts of a scoring round (GM §7.1), with the taken tile of the seat to move
    counted as placed (its card and its on-place whisky)."""
    whisky = list(st.whisky)
    chiefs = []
    specials = []
    taken = st.taken if st.phase in (PAY, PLACE) and st.pay_for == FOR_TILE else -1
    bonnets_of = _BONNETS
    mult_of = _MULTIPLIER
    for s, cards in enumerate(st.cards):
        mult = 1
        bonnets = 0
        for k in cards:
            if mult_of[k] > mult:
                mult = mult_of[k]
            bonnets += bonnets_of[k]
        n = len(cards)
        if taken >= 0 and s == st.cur:
            if KINDS[taken].special:
                n += 1
                bonnets += bonnets_of[taken]
                mult = max(mult, mult_of[taken])
            whisky[s] += _PLACE_WHISKY[st.clan_on_place][taken]
        chiefs.append(st.chieftains[s] * mult + bonnets)
        specials.append(n)
    return {"whisky": whisky, "chieftains": chiefs, "specials": specials}


#: The evaluation's named terms (stable identifiers, in the order of :meth:`Evaluator.terms`;
#: hints name them: ``reason.glen-more.term.<name>`` in the locale files).
TERMS: tuple[str, ...] = (
    "tile_points",  # brown-tile VP banked (GM §5)
    "rounds_held",  # scoring rounds already held (GM §7.1)
    "whisky_rounds",  # the rounds to come, whisky compared as it stands now
    "chieftain_rounds",  # ... chieftains plus bonnets
    "special_rounds",  # ... special-location cards
    "coins",  # 1 VP each at the end (GM §7.2)
    "clan_members",  # clan members beyond the first (reach, later chieftains)
    "turns",  # the turns still to come (the track, GM §3)
    "tile_penalty",  # -3 per projected tile over the fewest (GM §7.2)
    "cubes",  # cubes on the tiles, at their use or market value
    "end_effects",  # Iona Abbey, Loch Morar, Duart Castle (GM §7.2)
    "placement",  # the best next placement's activations (GM §4.2-§4.3)
    "turn_in_progress",  # what the rest of the turn being played should still bring
)


def final_terms(row: dict[str, Any]) -> tuple[float, ...]:
    """A finished game's score row (GM §7.2) as :data:`TERMS`."""
    held = float(sum(row[k] for k in ROUND_KEYS))
    ends = float(sum(row[k] for k in END_CATEGORIES))
    terms = dict.fromkeys(TERMS, 0.0)
    terms.update(
        tile_points=float(row["tile_points"]),
        rounds_held=held,
        coins=float(row["coins"]),
        tile_penalty=float(row["tile_penalty"]),
        end_effects=ends,
    )
    return tuple(terms[name] for name in TERMS)
