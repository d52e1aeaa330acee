"""How good a Keyflower position is for each seat: the bots' judgement (issue 16).

Found by :mod:`game.bots.knowledge` by its name; the engine does not import it.  Rule references
``KF §n`` point to ``shared/rules/keyflower.md``.

**What a seat's value reads.**  A seat's value is built from what *that seat* may see: the
public table (auction and turn-order tiles, bids, uses, boat loads, villages and the resources on
them, the supplies' sizes) plus its own screen (keyples, skill tiles) and its own winter hand.
It never reads another seat's screen or hand: so what a seat's value says cannot depend on a
secret it does not know, and the value of a rival is the value that rival sees.  (The bots hand
the evaluation determinized copies anyway.)

A seat's **value** is its expected final score in VP (KF §13), made of:

* **its village** — every tile's printed VP (current side), the resources on its storage tiles
  at their rate, and for each tile what it will still bring: its action for each season its owner
  can still use it (keyples used on one's own tiles come back, KF §6.5, so a tile in one's own
  village is a free action each season), and an unflipped tile's upgrade (KF §7.2) — the VP and
  the better action it would give, counted in part, more the nearer its cost is to being paid
  (resources lying on the tile, skill tiles behind the screen).  Summer boats (KF §11.2), boats
  and turn-order tiles kept in winter (KF §11.1, §12) count what they will score;
* **the tiles it is winning** — each auction or turn-order tile where its bid leads, as above,
  times the chance that the lead holds (it grows as the players pass, KF §4.2), with the keyples
  used on the tile (they go to the winner, KF §6.5); a turn-order tile also brings an earlier
  choice of boat and the purple keyple;
* **its items** — keyples, skill tiles and resources as working capital for the seasons left
  (less every season), and in any case what they will score at the end: gold 1 VP, and the
  winter tiles it holds, has in hand or is winning (KF §13 step 6), each counted with the sets
  and groups its items complete and, while the game runs, part of the next set in progress;
* **the boat it can expect** — in spring to autumn, the load of the boat it will choose in the
  expected boat order (KF §8 step 5).

``SCALE`` turns a margin in VP into a win chance for the search bot; ``rollout_action`` is its
cheap playout policy.  This module sums the value (:class:`Evaluator`) and holds the hooks the
bots look for; the parts live beside it, and it exports their hooks:

* :mod:`game.keyflower.weights` — :class:`Weights`, every tuning constant, and one seat's unit
  values of items and tile uses;
* :mod:`game.keyflower.tile_values` — what a village tile is worth (its action, storage and
  upgrade, boats, summer boats and turn-order tiles, the village's roads);
* :mod:`game.keyflower.winter_bonus` — what a winter tile's bonus makes of a seat's items;
* :mod:`game.keyflower.pruning` — ``candidate_actions`` keeps, of the bids and uses with one tile
  and one colour, the smallest (and for bids the next larger), so a turn stays searchable (the
  hard level's ``hard_candidate_actions`` also only the best few placements of each tile);
  ``position_key`` merges the same turn played in another order (transport steps, upgrades,
  placements);
* :mod:`game.keyflower.reasons` — the value's named :data:`TERMS` and ``explain_gain``'s
  reasons.
"""

from __future__ import annotations

from collections.abc import Hashable
from operator import mul
from typing import TYPE_CHECKING, Any

from game.core.rng import Rng
from game.core.types import Action, Seat
from game.keyflower.const import BOATS, F_3B, PLACE, PLAY, WINTER_PICK
from game.keyflower.fitted import TERM_WEIGHTS
from game.keyflower.pruning import (
    PLACES_PER_TILE,
    candidate_actions,
    hard_candidate_actions,
    position_key,
    smallest,
)
from game.keyflower.reasons import FINAL_TERMS, TERMS, explain_gain_with
from game.keyflower.tile_values import TileValues
from game.keyflower.tiles import GOLD, STORAGE, TILES, TURN_ORDER, WINTER, WINTER_TILE
from game.keyflower.weights import SeatRates, Weights
from game.keyflower.winter_bonus import BONUS, FAMILY, bonus_value

if TYPE_CHECKING:
    from game.core.api import GameState
    from game.keyflower.state import KeyflowerState


# ---- the evaluation -------------------------------------------------------------------------


class Evaluator:
    """The evaluation with a given set of :class:`Weights` (see the module docstring)."""

    def __init__(
        self,
        weights: Weights | None = None,
        term_weights: dict[int, dict[str, float]] | None = None,
    ) -> None:
        self.weights = weights or Weights()
        #: Per season (0-3), a multiplier of each term of :data:`TERMS` (``None``: all 1): the
        #: hard level's fitted evaluation (``game/keyflower/fitted.py``).
        self.term_weights = (
            None
            if term_weights is None
            else {season: tuple(row[t] for t in TERMS) for season, row in term_weights.items()}
        )
        self._tiles = TileValues(self.weights)
        self._villages: dict[Hashable, tuple[float, ...]] = {}
        self._items: dict[Hashable, tuple[float, float]] = {}
        self._infos: dict[tuple[int, int, int], SeatRates] = {}
        self._offered: dict[tuple[Any, ...], float] = {}

    def evaluate_all(self, state: GameState) -> list[float]:
        """Every seat's expected final score in VP."""
        st: KeyflowerState = state  # type: ignore[assignment]
        if st.is_over():
            return [float(row["total"]) for row in st.scores()]
        n = st.n
        leads = self._leads(st)
        boats = self._boat_expectations(st, leads)
        if self.term_weights is None:
            return [sum(self._seat_parts(st, s, leads, boats[s])) for s in range(n)]
        scale = self.term_weights[min(st.season, 3)]
        return [sum(map(mul, scale, self._seat_parts(st, s, leads, boats[s]))) for s in range(n)]

    def explain_terms(self, state: GameState, seat: Seat) -> dict[str, float]:
        """``seat``'s value split into :data:`TERMS` (VP; they sum to
        ``evaluate_all(state)[seat]`` — with term weights, each term multiplied by its weight).
        At the end of the game: the final score's categories (KF §13), which carry the same
        names as the terms they become."""
        st: KeyflowerState = state  # type: ignore[assignment]
        if st.is_over():
            acc = dict.fromkeys(TERMS, 0.0)
            row = st.scores()[seat]
            for name in FINAL_TERMS:
                acc[name] = float(row[name])
            return acc
        leads = self._leads(st)
        boats = self._boat_expectations(st, leads)
        parts = self._seat_parts(st, seat, leads, boats[seat])
        if self.term_weights is not None:
            parts = list(map(mul, self.term_weights[min(st.season, 3)], parts))
        return dict(zip(TERMS, parts, strict=True))

    # ---- bids ----------------------------------------------------------------------------
    def _leads(self, st: KeyflowerState) -> dict[int, tuple[int, float]]:
        """Each bid tile with a bid: (leading seat, chance that the lead holds)."""
        w = self.weights
        out: dict[int, tuple[int, float]] = {}
        if st.phase != PLAY:
            return out
        passes = st.passes / max(1, st.n - 1)
        bidn = st.bidn
        n = st.n
        for t in st.bid_tiles():
            base = t * 6
            best, most, second = -1, 0, 0
            for o in range(n):
                c = bidn[base + o]
                if c > most:
                    best, most, second = o, c, most
                elif c > second:
                    second = c
            if best < 0:
                continue
            p = w.win_base + w.win_margin * (most - second - 1)
            p = p + (1.0 - p) * min(1.0, passes)
            out[t] = (best, max(0.0, min(1.0, p)))
        return out

    def _boat_expectations(
        self, st: KeyflowerState, leads: dict[int, tuple[int, float]]
    ) -> list[float]:
        """KF §8 step 5: the load each seat can expect from its boat choice — turn-order
        winners (the current leaders) by tile number, then the others clockwise from the start
        player, each taking the best load left (keyples and skill tiles at next season's
        worth).  Winter boats carry nothing (their tiles are valued as tiles)."""
        n = st.n
        out = [0.0] * n
        if st.season == WINTER or st.phase not in (PLAY, BOATS):
            return out
        w = self.weights
        wi = min(st.season + 1, 4)
        loads = sorted(
            (
                sum(st.bkeys[i * 3 : i * 3 + 3]) * w.keyple[wi]
                + sum(st.bskills[i * 3 : i * 3 + 3]) * w.skill[wi]
                for i in range(len(st.boats))
                if not st.btaken[i]
            ),
            reverse=True,
        )
        if st.phase == BOATS:
            order = list(st.border)
        else:
            order = []
            for t in sorted(st.tord, key=lambda x: TILES[x].number):
                lead = leads.get(t)
                if lead is not None and lead[0] not in order:
                    order.append(lead[0])
            for k in range(n):
                s = (st.start + k) % n
                if s not in order:
                    order.append(s)
        for i, s in enumerate(order):
            if i < len(loads):
                out[s] = loads[i]
        return out

    # ---- one seat ------------------------------------------------------------------------
    def _seat_parts(
        self,
        st: KeyflowerState,
        s: int,
        leads: dict[int, tuple[int, float]],
        boat: float,
    ) -> list[float]:
        """The seat's value as its terms, in the order of :data:`TERMS` (they sum to it)."""
        w = self.weights
        info_key = (st.season, st.phase, st.flags[s])
        info = self._infos.get(info_key)
        if info is None:
            info = self._infos[info_key] = SeatRates(st, s, w)
        # keyples: behind the screen, and coming back at the end of the season (KF §8 steps
        # 1, 3, 4): losing bids, keyples used on the seat's own village tiles
        keys = [float(x) for x in st.keys[s]]
        bidn = st.bidn
        for t in st.auction + st.tord:
            c = bidn[t * 6 + s]
            if c:
                lead = leads.get(t)
                if lead is None or lead[0] != s:
                    keys[st.bidc[t * 6 + s]] += c
        winter: list[tuple[int, float]] = []
        village = st.vorder[s]
        tiles = list(village)
        for t, _h, _r in st.pplaced[s]:
            tiles.append(t)
        tiles.extend(st.won[s])
        uses = st.uses
        for t in tiles:
            us = uses.get(t)
            if us:
                for _o, c, m in us:
                    keys[c] += m
            if TILES[t].kind == WINTER_TILE:
                winter.append((t, 1.0))
        parts = list(self._village(st, s, info, tiles))
        # the tiles the seat's bids lead on
        lead_value = 0.0
        for t, (leader, p) in leads.items():
            if leader != s:
                continue
            us = uses.get(t)
            if us:
                for _o, c, m in us:
                    keys[c] += p * m
            kind = TILES[t].kind
            if kind == WINTER_TILE:
                winter.append((t, p))
            elif kind == TURN_ORDER:
                if TILES[t].faces_purple[st.side[t]]:
                    lead_value += p * w.start_player
                if st.season == WINTER:
                    lead_value += p * 3.0  # kept: about 3 village tiles will touch it (KF §12)
            else:
                # a tile on offer: its value to the seat depends on its face, the season and
                # the seat's summer boats (``info``) and skill tiles (its upgrade)
                sk = st.skills[s]
                lead_key = (t, st.side[t], info_key, sk[0], sk[1], sk[2])
                tv = self._offered.get(lead_key)
                if tv is None:
                    if len(self._offered) >= 50_000:
                        self._offered.clear()
                    tv = self._offered[lead_key] = self._tiles.value(
                        st, s, t, info, in_village=False
                    )
                lead_value += p * tv
        start = w.start_player if st.purple == s else 0.0
        # winter tiles on offer that nobody has bid on yet: anyone may still win them (KF §10)
        if st.season == WINTER and st.phase == PLAY:
            share = w.open_share / st.n
            for t in st.auction:
                if t not in leads:
                    winter.append((t, share))
        # the winter hand and the winter choice (KF §4.1)
        if st.hands[s]:
            pick = st.wpick[s]
            for t in st.hands[s]:
                if pick is None:
                    winter.append((t, w.hand_share))
                elif t in pick:
                    winter.append((t, w.picked_share))
        # items: working capital, and what they score at the end
        skills = st.skills[s]
        res = [0, 0, 0, 0]
        res_t = st.res
        for t in village:
            if t in STORAGE:
                continue
            b = t * 4
            res[0] += res_t[b]
            res[1] += res_t[b + 1]
            res[2] += res_t[b + 2]
            res[3] += res_t[b + 3]
        end, gold = self._end_items(st, s, keys, res, skills, winter)
        parts += (
            lead_value,
            start,
            boat,
            info.key * (keys[0] + keys[1] + keys[2] + keys[3]),
            info.skill * (skills[0] + skills[1] + skills[2]),
            info.res * (res[0] + res[1] + res[2]) + (info.gold - 1.0) * res[3],
            gold,
            end - gold,
        )
        return parts

    def _village(
        self, st: KeyflowerState, s: int, info: SeatRates, tiles: list[int]
    ) -> tuple[float, ...]:
        """The seat's village tiles (and those it is placing) with its roads, as the terms
        :data:`_VILLAGE_TERMS`; memoised: within a season only the seat's own moves change
        them."""
        res = st.res
        side = st.side
        rot = st.rot
        hexof = st.hexof
        sk = st.skills[s]
        key: tuple[Any, ...] = (
            s,
            st.season,
            st.phase,
            sum(st.keys[s]),  # White Wind's unassigned keyples
            st.flags[s],
            sk[0],
            sk[1],
            sk[2],
            *[h for _t, h, _r in st.pplaced[s]],
            -1,
            *[x for t in tiles for x in (t, side[t], rot[t], hexof[t], *res[t * 4 : t * 4 + 4])],
        )
        cache = self._villages
        got = cache.get(key)
        if got is None:
            part = dict.fromkeys(_VILLAGE_TERMS, 0.0)
            part["roads"] = (
                self.weights.road * self._tiles.roads(st, s) if info.uses_now > 0 else 0.0
            )
            where = st.where
            for t in tiles:
                if TILES[t].kind != WINTER_TILE:
                    self._tiles.value(st, s, t, info, where[t] == s, part)
            if len(cache) >= 50_000:
                cache.clear()
            got = cache[key] = tuple(part[name] for name in _VILLAGE_TERMS)
        return got

    def _end_items(
        self,
        st: KeyflowerState,
        s: int,
        keys: list[float],
        res: list[int],
        skills: list[int],
        winter: list[tuple[int, float]],
    ) -> tuple[float, float]:
        """What the items will score at the end (KF §13 steps 5–6): gold 1 VP, and each winter
        tile held or expected with its chance, tiles of one family sharing items: (that value,
        the gold's part of it)."""
        w = self.weights
        over = st.season == WINTER and st.phase not in (PLAY, WINTER_PICK)
        progress = 0.0 if over else w.progress
        wild_all = bool(st.flags[s] & F_3B)
        key = (tuple(keys), tuple(res), tuple(skills), tuple(winter), progress, wild_all)
        known = self._items.get(key)
        if known is not None:
            return known
        pools: list[list[Any]] = [
            [int(x) for x in keys],
            [0, 0, 0, sum(res)] if wild_all else list(res),
            skills,
        ]
        value = float(pools[1][GOLD])
        seen = [0, 0, 0]
        for t, p in sorted(winter, key=lambda x: -x[1]):
            got = BONUS.get(t)
            if got is None:
                continue
            family, bonus = got
            if family == "fixed":
                value += p * bonus.vp
                continue
            f = FAMILY[family]
            v = bonus_value(bonus, pools[f], family, progress)
            value += p * v * (w.family_damping ** seen[f])
            seen[f] += 1
        gold = float(pools[1][GOLD])
        if len(self._items) >= 50_000:
            self._items.clear()
        self._items[key] = (value, gold)
        return value, gold

    # ---- the search bot's playout policy -------------------------------------------------
    def rollout_action(
        self, state: GameState, seat: Seat, actions: list[Action], rng: Rng
    ) -> Action:
        """A cheap playout move (always one of ``actions``): at a turn's start pass now and then,
        else use a tile (own village tiles first) or make the smallest bid somewhere; upgrade
        when a transport use allows it, then stop; anything else at random."""
        st: KeyflowerState = state  # type: ignore[assignment]
        kinds: dict[str, list[Action]] = {}
        for a in actions:
            kinds.setdefault(a[0], []).append(a)
        upgrades = kinds.get("upgrade")
        if upgrades:
            return upgrades[rng.randbelow(len(upgrades))]
        if "done" in kinds:
            return kinds["done"][0]
        uses = kinds.get("use")
        bids = kinds.get("bid")
        if uses or bids:
            if "pass" in kinds and rng.randbelow(4) == 0:
                return kinds["pass"][0]
            own = [a for a in uses or () if st.where[st.tile_of(a[1])] == seat]
            if own and rng.randbelow(2):
                return min(own, key=lambda a: (a[3], rng.randbelow(8)))
            pool = smallest(uses or []) + smallest(bids or [])
            return pool[rng.randbelow(len(pool))]
        return actions[rng.randbelow(len(actions))]


#: The terms a village's tiles and roads make (memoised together, :meth:`Evaluator._village`).
_VILLAGE_TERMS = TERMS[:8]

DEFAULT_WEIGHTS = Weights()
DEFAULT = Evaluator(DEFAULT_WEIGHTS)
#: The hard level's evaluation: the same terms, each multiplied by the weight fitted for the
#: season from self-play games (``game/keyflower/fitted.py``, ``bench/fit_keyflower.py``).
HARD = Evaluator(DEFAULT_WEIGHTS, TERM_WEIGHTS)


def explain_gain(before: GameState, after: GameState, seat: Seat) -> list[dict[str, Any]]:
    """:func:`~game.keyflower.reasons.explain_gain_with` the default evaluation (the one hints
    use): the bids that now lead or gave up the lead, then every term that moved."""
    return explain_gain_with(DEFAULT.explain_terms, before, after, seat)


#: The hooks :mod:`game.bots.knowledge` looks for.
SCALE = DEFAULT_WEIGHTS.scale
#: The hard level's search here: a playout crossing a season's end resolves it (boats,
#: placements), so playouts are dear; the bot plans its own next turn with fewer evaluations
#: and races fewer turns, to finish more rounds in its time (4-player duels against 3 greedy:
#: 27% with the defaults, 50% with these, 16–24 games).
#: The hard level's budget (game/bots/budget.py; issue 23, measured 2026-12-02 with
#: ``python -m bench.bot_budgets``): work per decision (its playouts' evaluations and actions,
#: ~110 us of CPU each: about 1.2 s of CPU a decision at the median, 1.6 s at the 95th
#: percentile; the CPU ceiling cuts the few whose playouts run the final scoring).
SEARCH = {"playout_plan_evals": 20, "max_plans": 6, "work": 10_000}
evaluate_all = DEFAULT.evaluate_all
HARD_EVALUATE_ALL = HARD.evaluate_all
HARD_CANDIDATE_ACTIONS = hard_candidate_actions
explain_terms = DEFAULT.explain_terms
rollout_action = DEFAULT.rollout_action


def plan_evals(state: GameState, seat: Seat) -> int:
    """The greedy levels' evaluations per turn (``PLAN_EVALS``; game/bots/budget.py): 1,500
    (at most 0.19 s of CPU a decision), but 300 in winter's placement, where every placement
    that completes the village runs the final scoring (~1,400 evaluations a CPU second there
    with 4 players; 1,500 took 0.41-0.51 s, 450 up to 0.41 s)."""
    st: KeyflowerState = state  # type: ignore[assignment]
    return 300 if st.phase == PLACE and st.season == WINTER else 1500


PLAN_EVALS = plan_evals

__all__ = [
    "DEFAULT",
    "HARD",
    "HARD_CANDIDATE_ACTIONS",
    "HARD_EVALUATE_ALL",
    "PLACES_PER_TILE",
    "PLAN_EVALS",
    "SCALE",
    "SEARCH",
    "TERMS",
    "Evaluator",
    "Weights",
    "bonus_value",
    "candidate_actions",
    "evaluate_all",
    "explain_gain",
    "explain_terms",
    "hard_candidate_actions",
    "plan_evals",
    "position_key",
    "rollout_action",
]
