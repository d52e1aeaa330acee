"""The search bot: information-set Monte Carlo tree search (single observer, determinized).

**Hidden information.**  The bot never reads a secret.  Every iteration starts from
``state.determinize(seat, seed)`` with a fresh seed from the bot's RNG: other seats' hidden cards
and the order of hidden decks are resampled from what ``seat`` can see, and the world's RNG is
reseeded.  One tree is shared by all these worlds (Cowling, Powley and Whitehouse's
single-observer IS-MCTS): a node is the sequence of actions from the root, and an action that is
legal only in some worlds is judged by how often it was *available* (UCB with availability
counts) rather than how often its parent was visited.

**Chance.**  Card draws, bag draws and tile flips happen inside ``apply`` from the world's RNG,
which each determinization reseeds, so every iteration meets a fresh outcome; nodes below a
chance event average over outcomes (an open-loop tree), and actions that exist only after some
outcomes are again handled by availability.

**Turns as moves at the root.**  With ``macro=True`` (the default) the root's children are whole
turns of the bot's seat (:mod:`game.bots.root_turns`: the greedy
:class:`~game.bots.greedy.TurnPlanner`'s best, ``max_plans`` of them, at most ``plan_per_first``
starting with the same action, ``plan_evals`` bounding the planner's evaluations; with
``last_turn_plans``, in the seat's last turn, that many more scored by the points counted now,
found by a planner of ``last_turn_beam`` and ``last_turn_evals`` — 0: the root planner's —
looking through what ``last_turn_look`` says, and as many from a wide planner that looks through
nothing with ``last_turn_wide_beam``),
each primed with ``prior_visits`` virtual visits at its prior reward, so the search spends its
time comparing the turns that matter instead of re-deriving three placements one by one.  Below
the root the tree is over single actions of every seat (``tree_depth`` nodes deep at most); a new
node is tried in the order the playout policy prefers, and a node visited ``n`` times has about
``widening * sqrt(n)`` children (progressive widening).

**Root policies.**  ``root_policy="ucb"`` is plain UCB1 over the root's children.
``root_policy="race"`` (the *hard* level) compares the candidate turns on *common* sampled worlds:
each round draws one world — rivals' hidden cards, the deck order (so the bot's next card) and the
playout randomness — and plays every surviving turn in it, so two turns are compared on the same
luck; every ``reject_every`` rounds the worst turn is dropped (successive rejects).  The tree is
then one level deep (a turn, then its playout).

**Playouts.**  A playout continues until ``horizon`` turns have ended since the root — by default
one full round plus ``horizon_extra`` turns (``players + horizon_extra``), so the rivals answer
the bot's turn.  Rivals play the game's ``rollout_action``
policy (random if the game has none), or with ``rival_plan_evals`` set a small turn planner of
their own (beam 2, that many evaluations: rivals modelled as the greedy planners they often
are).  With ``playout_plan_evals`` set, the searching seat plays
its own later turns with a small turn planner (beam 2, that many evaluations): with ``horizon =
players + 1`` the bot sees what its *next* turn can make of each candidate, for each card it may
draw.  The end position is scored with the game's evaluation turned into a win chance
(:meth:`Knowledge.rewards`); a finished game scores its real result.  With ``finish_round`` a
playout that reaches its horizon in a round its game ends with (the game's ``round_ending``
hook) plays that round out, so the last turns of a game are judged by its result (with
``finish_plan_evals`` every seat plans those turns); with ``end_margin`` a playout that reaches
the game's end is scored by the win chance of its final scores' margin, as an unfinished one
is, rather than by who won (an experiment's switch, off in every level), and with
``last_turn_end_margin`` only in a turn the game's ``last_turn`` hook calls the seat's last
(Kingdom Builder's hard level).  With
``round_horizon`` (and the game's ``round_turns_left`` hook) the horizon is the end of the round
after the current one instead, where every seat has played as many turns of the game.  Playing
every game to the end would be far slower and, with a cheap policy, noisier; the depth limit is
deliberate.

**Game tuning.**  With ``game_tuning=True`` (the hard level) the game's ``SEARCH`` parameters
(:mod:`game.bots.knowledge`) replace the constructor's at the bot's first search in that game,
and the game's ``HARD_EVALUATE_ALL`` (if any) is its evaluation.

**Budget.**  ``iterations`` (playouts), ``work`` (the playouts' evaluations and actions, a count
whose CPU cost varies less from position to position than a playout's) and/or ``budget`` (a
CPU-time ceiling in seconds of the thinking thread) per decision, with a wall-clock safety net
of 3x the ceiling unless ``safety_net=False`` (:mod:`game.bots.budget`); the search stops at
whichever comes first.  An
iteration budget always finishes its racing round; a round cut short by the ceiling does not
count.  With an iteration budget and no ceiling reached, the same seed gives the same decision
on any machine, busy or not (``last_cut`` says whether a ceiling ended the last search).  The
root's turn planner is bounded by its evaluations (``plan_evals``, default the game's
``PLAN_EVALS``, else :data:`game.bots.budget.PLAN_EVALS`) and by ``plan_share`` of the CPU
ceiling.  In the seat's last turn (with ``last_turn_plans``) the race stops at
``last_turn_work`` of its work and iterations, leaving the time to a wider last-turn planner.
The search also stops (raising :class:`~game.bots.base.BotCancelled`) when the ``cancel`` token
is set.  Only the first decision of a turn searches; the rest of the chosen turn is cached and
played instantly.
"""

from __future__ import annotations

import math
import time
from typing import Any

from game.bots.base import (
    CancelToken,
    PlanCache,
    apply_trusted,
    check_cancel,
    gc_paused,
    turn_continues,
)
from game.bots.budget import Budget, Meter
from game.bots.greedy import TurnPlanner
from game.bots.knowledge import (
    LAST_TURN_LOOKS,
    SEARCH_PARAMETERS,
    WIN_CHANCE_FORMS,
    Knowledge,
    knowledge_for,
)
from game.bots.parallel import RacePool
from game.bots.root_turns import RootTurns
from game.core import registry
from game.core.api import GameState
from game.core.rng import Rng
from game.core.types import Action, Seat


class _Node:
    """Statistics of one action sequence from the root, from the mover's point of view."""

    __slots__ = ("avail", "children", "mover", "total", "visits")

    def __init__(self, mover: Seat, visits: float = 0.0, total: float = 0.0) -> None:
        self.mover = mover
        self.children: dict[Action, _Node] = {}
        self.visits = visits
        self.avail = visits
        self.total = total


class MctsBot:
    """IS-MCTS with whole-turn moves at the root (see the module docstring)."""

    def __init__(
        self,
        seed: int = 0,
        *,
        budget: float | None = 1.0,
        iterations: int | None = None,
        exploration: float = 0.7,
        horizon: int | None = None,
        horizon_extra: int = 0,
        macro: bool = True,
        max_plans: int = 8,
        plan_beam: int = 6,
        prior_visits: float = 2.0,
        widening: float = 2.0,
        plan_share: float = 0.4,
        tree_depth: int = 64,
        playout_plan_evals: int = 0,
        rival_plan_evals: int = 0,
        work: int | None = None,
        cores: int = 1,
        count_scale: int = 1,
        root_policy: str = "ucb",
        reject_every: int = 3,
        plan_per_first: int | None = None,
        plan_evals: int | None = None,
        stratify: bool = False,
        win_chance: str = "margin",
        scale_factor: float = 1.0,
        finish_round: bool = False,
        finish_plan_evals: int = 0,
        round_horizon: bool = False,
        end_margin: bool = False,
        last_turn_end_margin: bool = False,
        last_turn_plans: int = 0,
        last_turn_beam: int = 0,
        last_turn_evals: int = 0,
        last_turn_look: str = "any",
        last_turn_wide_beam: int = 0,
        last_turn_wide_evals: int = 0,
        last_turn_work: float = 1.0,
        game_tuning: bool = False,
        fixed: frozenset[str] = frozenset(),
        safety_net: bool = True,
        knowledge: Knowledge | None = None,
        name: str = "mcts",
    ) -> None:
        if budget is None and iterations is None and work is None:
            raise ValueError("an MCTS bot needs a CPU budget, an iteration or a work budget")
        if budget is not None and not budget > 0:
            raise ValueError("the CPU budget must be positive")
        if iterations is not None and iterations < 1:
            raise ValueError("the iteration budget must be at least 1")
        self.name = name
        #: The evaluation hooks; ``None`` means the game's own (:func:`knowledge_for`).
        self.knowledge = knowledge
        self.rng = Rng(seed)
        #: The CPU ceiling per decision (seconds of the thinking thread), or ``None``.
        self.cpu_budget = budget
        self.iterations = iterations
        #: Whether the wall-clock safety net (3x the CPU ceiling) applies.
        self.safety_net = safety_net
        self.exploration = exploration
        self.horizon = horizon
        self.horizon_extra = horizon_extra
        self.macro = macro
        self.max_plans = max_plans
        self.plan_beam = plan_beam
        self.prior_visits = prior_visits
        self.widening = widening
        self.plan_share = plan_share
        self.tree_depth = tree_depth
        self.playout_plan_evals = playout_plan_evals
        self.rival_plan_evals = rival_plan_evals
        if work is not None and work < 1:
            raise ValueError("the work budget must be at least 1")
        self.work = work
        if cores < 1 or count_scale < 1:
            raise ValueError("cores and count_scale must be at least 1")
        #: Processes the race's playouts run on (:mod:`game.bots.parallel`); the decision is
        #: the same as on one core.
        self.cores = cores
        #: The iteration and work budgets are multiplied by this (more search on more cores).
        self.count_scale = count_scale
        self._pool: RacePool | None = None
        if root_policy not in ("ucb", "race"):
            raise ValueError(f"unknown root policy {root_policy!r}")
        self.root_policy = root_policy
        self.reject_every = reject_every
        self.plan_per_first = plan_per_first
        self.plan_evals = plan_evals
        #: Whether the race's worlds are stratified by the game's ``stratify_world`` hook (see
        #: :meth:`_race`).
        self.stratify = stratify
        if win_chance not in WIN_CHANCE_FORMS:
            raise ValueError(f"unknown win-chance form {win_chance!r}")
        #: How a playout's end position becomes a reward (:func:`~game.bots.knowledge.win_chances`).
        self.win_chance = win_chance
        if not 0 < scale_factor < 1e6:
            raise ValueError("the scale factor must be a positive number")
        #: Multiplies the win chance's scale (:meth:`~game.bots.knowledge.Knowledge.scaled`).
        self.scale_factor = scale_factor
        #: Whether a playout plays out the game's last round (see the module docstring).
        self.finish_round = finish_round
        if finish_plan_evals < 0:
            raise ValueError("finish_plan_evals must not be negative")
        #: With ``finish_round``: every seat plans its turns played past the horizon with a turn
        #: planner of that many evaluations (0: they play like the turns before the horizon).
        self.finish_plan_evals = finish_plan_evals
        #: Whether a playout ends at the end of the round after the current one (the game's
        #: ``round_turns_left`` hook) rather than ``horizon`` turns after the root.
        self.round_horizon = round_horizon
        #: Whether a playout that reaches the game's end is scored by the win chance of its
        #: final scores (their margin at the position's scale) rather than by who won.
        self.end_margin = end_margin
        if not isinstance(last_turn_end_margin, bool):
            raise ValueError("last_turn_end_margin must be true or false")
        #: The same, but only in a turn the game's ``last_turn`` hook calls the seat's last.
        self.last_turn_end_margin = last_turn_end_margin
        #: Whether this search scores a finished playout by its margin (one of the two above).
        self._end_margin_now = end_margin
        if last_turn_plans < 0:
            raise ValueError("last_turn_plans must not be negative")
        #: In a turn the game's ``last_turn`` hook calls the seat's last, the root also races
        #: up to this many of the planner's best turns by the points counted now.
        self.last_turn_plans = last_turn_plans
        if last_turn_beam < 0 or last_turn_evals < 0 or not 0 < last_turn_work <= 1:
            raise ValueError(
                "last_turn_beam and last_turn_evals must not be negative, "
                "last_turn_work must be in (0, 1]"
            )
        #: The beam and evaluations of that last-turn planner (0: the root planner's).
        self.last_turn_beam = last_turn_beam
        self.last_turn_evals = last_turn_evals
        if last_turn_look not in LAST_TURN_LOOKS:
            raise ValueError(f"last_turn_look must be one of {LAST_TURN_LOOKS}")
        #: What that planner looks through: ``"any"`` action leaving its judge's value
        #: unchanged, or only one leaving the seat partway through a move (``"midway"``).
        self.last_turn_look = last_turn_look
        if last_turn_wide_beam < 0 or last_turn_wide_evals < 0:
            raise ValueError("last_turn_wide_beam and last_turn_wide_evals must not be negative")
        #: A second last-turn planner, wide and looking through nothing (0: none), and its
        #: evaluations (0: ``last_turn_evals``'s).
        self.last_turn_wide_beam = last_turn_wide_beam
        self.last_turn_wide_evals = last_turn_wide_evals
        #: In such a turn, the share of ``work`` (and ``iterations``) the race may use: the
        #: wider last-turn planner's time is taken from the race's.
        self.last_turn_work = last_turn_work
        self._work_scale = 1.0
        #: Whether the game's ``SEARCH`` parameters replace these (the hard level), except the
        #: names in ``fixed`` (a budget the caller chose).
        self.game_tuning = game_tuning
        self.fixed = fixed
        self._tuned_for: tuple[str, tuple[tuple[str, Any], ...]] | None = None
        self._defaults: dict[str, Any] | None = None
        self._cache = PlanCache()
        #: Iterations run by the last search (for benchmarks and tests).
        self.last_iterations = 0
        #: Which limit ended the last search early: ``None`` (the iteration count or nothing),
        #: ``"cpu"`` (the CPU ceiling) or ``"wall"`` (the safety net).
        self.last_cut: str | None = None
        #: Whether the last decision searched (not a cached step or a forced move).
        self.last_thought = False
        #: CPU seconds the last search spent before its playouts (the root's turn planning).
        self.last_plan_cpu = 0.0
        #: Work done by the last search's playouts (see :meth:`_out_of_work`).
        self.last_work = 0
        self._work = 0

    # ---- the decision -------------------------------------------------------------------
    def choose(self, state: GameState, seat: Seat, cancel: CancelToken | None = None) -> Action:
        self.last_cut = None
        self.last_thought = False
        legal = state.legal_actions(seat)
        if not legal:
            raise ValueError(f"seat {seat} has no legal action")
        cached = self._cache.next_action(state, seat, legal)
        if cached is not None:
            return cached
        if len(legal) == 1:
            return legal[0]
        self.last_thought = True
        with gc_paused():
            plan = self.search(state, seat, cancel)
        if plan[0] not in legal:
            return legal[self.rng.randbelow(len(legal))]
        return plan[0]

    def search(
        self, state: GameState, seat: Seat, cancel: CancelToken | None = None
    ) -> tuple[Action, ...]:
        """Search from ``state`` and return the chosen turn (or single action) for ``seat``.

        The rest of a chosen turn is cached for the seat's next decisions.
        """
        knowledge = self._knowledge(state)
        horizon = self._horizon(state, knowledge)
        meter = self._meter()
        self._work = 0
        started = time.thread_time()
        first_world = state.determinize(seat, self.rng.next64())
        self._work_scale = 1.0
        self._end_margin_now = self.end_margin
        root = _Node(mover=-1)
        if self.macro and self._add_plans(root, first_world, seat, knowledge, cancel, meter):
            # The seat's last turn: its wider planner has run, the race takes a share of the work
            # (and a finished playout may be scored by its margin).
            self._work_scale = self.last_turn_work
            self._end_margin_now = self.end_margin or self.last_turn_end_margin
        self.last_plan_cpu = time.thread_time() - started
        if self.root_policy == "race" and len(root.children) > 1:
            plan = self._race(root, state, seat, knowledge, horizon, meter, cancel)
        else:
            count = 0
            # Whole turns at the root only if the planner found some (it always should).
            macro = bool(root.children)
            while self._more_iterations(count):
                check_cancel(cancel)
                if count and (meter.spent() or self._out_of_work()):
                    break
                world = first_world if count == 0 else state.determinize(seat, self.rng.next64())
                self._iterate(root, world, seat, knowledge, horizon, macro, meter)
                count += 1
            self.last_iterations = count
            plan = self._principal_turn(root, seat, macro)
        self.last_cut = meter.cut
        self.last_work = self._work
        self._cache.store(state.determinize(seat, self.rng.next64()), seat, plan)
        return plan

    def _horizon(self, state: GameState, knowledge: Knowledge) -> int:
        """How many turns a playout plays from ``state`` (see the module docstring): ``horizon``
        if set; with ``round_horizon`` and the game's ``round_turns_left`` hook, the turns to the
        end of the round after this one (every seat has then played as many turns of the game,
        so no seat is judged a turn ahead); else one round plus ``horizon_extra``."""
        if self.horizon is not None:
            return self.horizon
        if self.round_horizon and knowledge.round_turns_left is not None:
            return knowledge.round_turns_left(state) + state.players
        return state.players + self.horizon_extra

    def candidate_turns(self, state: GameState, seat: Seat) -> list[tuple[Action, ...]]:
        """The whole turns this bot's search would race from ``state`` (its planner's best, at
        most ``max_plans``), without searching; for benchmarks that judge the choice
        (``bench/search_regret.py``).  Draws from the bot's RNG, as a search does."""
        knowledge = self._knowledge(state)
        root = _Node(mover=-1)
        world = state.determinize(seat, self.rng.next64())
        self._add_plans(root, world, seat, knowledge, None, Meter.unlimited())
        return list(root.children)

    def _knowledge(self, state: GameState) -> Knowledge:
        """The hooks a search from ``state`` judges with: the bot's own or the game's; for the
        hard level (``game_tuning``) its search parameters taken first and its own evaluation;
        the win chance's scale times ``scale_factor``."""
        knowledge = self.knowledge or knowledge_for(state.game_id)
        if self.game_tuning:
            self._tune(knowledge, state)
            knowledge = knowledge.for_hard()
        return knowledge.scaled(self.scale_factor)

    def _tune(self, knowledge: Knowledge, state: GameState) -> None:
        """Take the game's search parameters for ``state``'s variant
        (:meth:`Knowledge.search_for`) in place of the constructor's, except the ``fixed``
        ones; a bot that meets another variant first gets its constructor's values back."""
        params = knowledge.search_for(state)
        key = (state.game_id, params)
        if self._tuned_for == key:
            return
        if self._defaults is None:
            self._defaults = {name: getattr(self, name) for name in SEARCH_PARAMETERS}
        for name, value in self._defaults.items():
            if name not in self.fixed:
                setattr(self, name, value)
        for name, value in params:
            if name not in self.fixed:
                setattr(self, name, value)
        self._tuned_for = key

    def _meter(self) -> Meter:
        """The meter of one search, started now (on the thinking thread)."""
        if self.cpu_budget is None:
            return Meter.unlimited()
        return Budget(cpu=self.cpu_budget, safety_net=self.safety_net).meter()

    def _race(
        self,
        root: _Node,
        state: GameState,
        seat: Seat,
        knowledge: Knowledge,
        horizon: int,
        meter: Meter,
        cancel: CancelToken | None,
    ) -> tuple[Action, ...]:
        """Compare the root's whole turns on common sampled worlds; drop the worst as we go.

        Each round samples one world (hidden cards, deck order and playout randomness) and
        plays every surviving turn in it, so the turns are compared on the same luck — the
        next card above all — and their differences show after few rounds (common random
        numbers).  Every ``reject_every`` rounds the turn with the lowest mean reward is
        dropped (successive rejects) while more than two remain.  The race ends after the
        round in which the iteration budget is reached, or when the CPU ceiling (or the safety
        net) passes — a round cut short that way does not count.  Returns the surviving turn
        with the best mean: the planner's best if not even one round was finished (its mean
        then is the planner's prior).
        """
        alive = list(root.children)
        # Each turn starts with its planner prior (``prior_visits`` virtual rounds at the
        # planner's value): with few rounds (a slow machine, a game with dear playouts) a
        # single lucky world does not overturn the planner's judgement.
        totals = {plan: root.children[plan].total for plan in alive}
        rounds = {plan: root.children[plan].visits for plan in alive}
        played = dict.fromkeys(alive, 0)
        count = 0
        done_rounds = 0
        # One seed per round from the race's own generator: the same worlds whether the rounds
        # are played here one by one or by several processes in batches.
        seeds = Rng(self.rng.next64())
        # Stratified worlds: round k's stratum is a low-discrepancy point (the golden-ratio
        # sequence from a random start), so the chance outcomes the game's hook fixes by it
        # (Kingdom Builder: the searching seat's next card) come up in proportion to their odds
        # over few rounds, rather than as luck has it.
        stratified = self.stratify and knowledge.stratify is not None
        start = seeds.random() if stratified else 0.0
        pool = self._race_pool(state, seat, horizon, list(root.children))
        order = {plan: i for i, plan in enumerate(root.children)}

        def local(tasks: list[tuple[int, int, float | None]]) -> list[tuple[float, int]]:
            plans = list(root.children)
            out = []
            for seed, index, stratum in tasks:
                check_cancel(cancel)
                out.append(
                    self.race_playout(
                        state, seat, plans[index], seed, knowledge, horizon, meter, stratum
                    )
                )
            return out

        def stratum(k: int) -> float | None:
            return (start + k * _GOLDEN) % 1.0 if stratified else None

        while self._more_iterations(count) and not self._out_of_work():
            if meter.spent():
                break
            if pool is None:
                batch = [seeds.next64()]
            else:
                batch = [
                    seeds.next64() for _ in range(self._batch_rounds(count, done_rounds, alive))
                ]
            tasks = [
                (seed, order[plan], stratum(done_rounds + r))
                for r, seed in enumerate(batch)
                for plan in alive
            ]
            if pool is None:
                outcomes: list[tuple[float, int]] = []
                for task in tasks:
                    check_cancel(cancel)
                    if meter.spent():
                        break  # out of time: this round is incomplete, so it does not count
                    outcomes.extend(local([task]))
            else:
                outcomes = pool.run(tasks, local)
                check_cancel(cancel)
            stop = False
            for r in range(len(batch)):
                # what one core would have done before this round
                if r and (not self._more_iterations(count) or self._out_of_work()):
                    stop = True
                    break
                results = outcomes[r * len(alive) : (r + 1) * len(alive)]
                if len(results) < len(alive):
                    stop = True
                    break
                for plan, (reward, work) in zip(alive, results, strict=True):
                    totals[plan] += reward
                    rounds[plan] += 1
                    played[plan] += 1
                    self._work += work
                    count += 1
                done_rounds += 1
            if stop:
                break
            if done_rounds % self.reject_every == 0 and len(alive) > 2:
                worst = min(alive, key=lambda p: totals[p] / rounds[p])
                alive.remove(worst)
        self.last_iterations = count
        for plan in root.children:
            node = root.children[plan]
            node.visits = rounds[plan]
            node.total = totals[plan]
        return max(alive, key=lambda p: (totals[p] / max(1e-9, rounds[p]), played[p]))

    def race_playout(
        self,
        state: GameState,
        seat: Seat,
        plan: tuple[Action, ...],
        seed: int,
        knowledge: Knowledge,
        horizon: int,
        meter: Meter | None = None,
        stratum: float | None = None,
    ) -> tuple[float, int]:
        """One playout of the race: ``plan`` in the world of ``seed``; returns the searching
        seat's reward and the playout's work (its evaluations and actions).  ``meter`` (the
        search's CPU ceiling) also stops the planners inside a playout that runs past it.
        ``stratum`` (in ``[0, 1)``) is handed to the game's ``stratify_world`` hook with the
        world, before the plan is played."""
        before = self._work
        world = state.determinize(seat, seed)
        if stratum is not None and knowledge.stratify is not None:
            knowledge.stratify(world, seat, stratum)
        turn = world.turn_id()
        for action in plan:
            apply_trusted(world, seat, action)
        ends = 0 if turn_continues(world, seat, turn) else 1
        playout_rng = Rng(seed ^ 0x9E3779B97F4A7C15)
        self._playout(world, seat, knowledge, horizon, ends, playout_rng, True, meter)
        reward = knowledge.rewards(world, self.win_chance, self._end_margin_now)[seat]
        work = self._work - before + 1
        self._work = before
        return reward, work

    def _more_iterations(self, count: int) -> bool:
        """Whether the iteration budget (if any) leaves room for another round."""
        return (
            self.iterations is None or count < self.iterations * self.count_scale * self._work_scale
        )

    def _batch_rounds(self, count: int, done_rounds: int, alive: list[tuple[Action, ...]]) -> int:
        """How many rounds to hand out at once on several cores: up to the next rejection, and
        no more than the budgets look likely to allow (rounds past them are played but
        dropped, as one core would not have played them)."""
        rounds = self.reject_every - done_rounds % self.reject_every
        if self.iterations is not None:
            left = math.ceil(self.iterations * self.count_scale * self._work_scale) - count
            rounds = min(rounds, max(1, -(-left // len(alive))))
        if self.work is not None and done_rounds:
            work_left = self.work * self.count_scale * self._work_scale - self._work
            per_round = self._work / done_rounds
            rounds = min(rounds, max(1, math.ceil(work_left / max(per_round, 1.0))))
        elif self.work is not None:
            rounds = 1
        return max(1, rounds)

    def _race_pool(
        self,
        state: GameState,
        seat: Seat,
        horizon: int,
        plans: list[tuple[Action, ...]],
    ) -> RacePool | None:
        """The helper processes of a search on several cores, told about this search (``None``
        on one core, or with a knowledge of the caller's own that a helper cannot load)."""
        if self.cores < 2 or self.knowledge is not None:
            return None
        if self._pool is None or self._pool.closed or self._pool.cores != self.cores:
            if self._pool is not None:
                self._pool.close()
            self._pool = RacePool(self.cores)
        params = {
            "playout_plan_evals": self.playout_plan_evals,
            "rival_plan_evals": self.rival_plan_evals,
            "win_chance": self.win_chance,
            "scale_factor": self.scale_factor,
            "finish_round": self.finish_round,
            "finish_plan_evals": self.finish_plan_evals,
            "end_margin": self._end_margin_now,
            # the helpers judge with the same evaluation as this process (the hard level's own)
            "game_tuning": self.game_tuning,
        }
        game = (state.game_id, registry.module_of(state.game_id))
        self._pool.setup(("setup", *game, state.to_dict(), seat, horizon, params, plans))
        return self._pool

    def close(self) -> None:
        """End the helper processes of a bot searching on several cores (they also end with
        the bot)."""
        if self._pool is not None:
            self._pool.close()
            self._pool = None

    # ---- the tree -----------------------------------------------------------------------
    def _add_plans(
        self,
        root: _Node,
        world: GameState,
        seat: Seat,
        knowledge: Knowledge,
        cancel: CancelToken | None,
        meter: Meter,
    ) -> bool:
        """Root children: the whole turns of :mod:`game.bots.root_turns`, each primed with
        ``prior_visits`` virtual visits at its prior reward.  Whether they include the seat's
        last-turn plans (``last_turn_plans``: the game's ``last_turn`` hook called it so)."""
        listed = self._root_turns().turns(world, seat, knowledge, self.rng, cancel, meter)
        for actions, prior in listed.turns.items():
            root.children[actions] = _Node(
                seat, visits=self.prior_visits, total=self.prior_visits * prior
            )
        return listed.last_turn

    def _root_turns(self) -> RootTurns:
        """This bot's settings for its root's turns (they change when the game tunes it)."""
        return RootTurns(
            max_plans=self.max_plans,
            beam=self.plan_beam,
            evals=self.plan_evals,
            per_first=self.plan_per_first,
            share=self.plan_share,
            win_chance=self.win_chance,
            end_margin=self.end_margin,
            last_turn_end_margin=self.last_turn_end_margin,
            last_turn_plans=self.last_turn_plans,
            last_turn_beam=self.last_turn_beam,
            last_turn_evals=self.last_turn_evals,
            last_turn_look=self.last_turn_look,
            last_turn_wide_beam=self.last_turn_wide_beam,
            last_turn_wide_evals=self.last_turn_wide_evals,
        )

    def _iterate(
        self,
        root: _Node,
        world: GameState,
        seat: Seat,
        knowledge: Knowledge,
        horizon: int,
        macro: bool,
        meter: Meter | None = None,
    ) -> None:
        """One iteration in one world: select, expand one node, play out, back up."""
        path: list[_Node] = []
        root.visits += 1
        rng = self.rng
        turn = world.turn_id()
        if macro:
            node, plan = self._select(root, list(root.children))
            for action in plan:
                apply_trusted(world, seat, action)
            path.append(node)
            ends = 1
            expanded = False
        else:
            node, expanded = self._step(root, world, seat, path, knowledge)
            ends = 0 if turn_continues(world, seat, turn) else 1
        # Tree policy: walk down existing nodes until one is added.
        while (
            not expanded and len(path) < self.tree_depth and ends < horizon and not world.is_over()
        ):
            mover = world.to_move()[0]
            turn = world.turn_id()
            node, expanded = self._step(node, world, mover, path, knowledge)
            if world.turn_id() != turn:
                ends += 1
        self._playout(world, seat, knowledge, horizon, ends, rng, bool(path), meter)
        self._work += 1
        rewards = knowledge.rewards(world, self.win_chance, self._end_margin_now)
        for n in path:
            n.visits += 1
            n.total += rewards[n.mover]

    def _playout(
        self,
        world: GameState,
        seat: Seat,
        knowledge: Knowledge,
        horizon: int,
        ends: int,
        rng: Rng,
        plan_own_turns: bool,
        meter: Meter | None = None,
    ) -> None:
        """Play ``world`` on until ``horizon`` turns have ended (``ends`` already have).

        Every seat plays the game's cheap ``rollout_action`` policy, except that with
        ``playout_plan_evals`` set the searching seat plans its own later turns with a small
        turn planner (what it would really do with the card it draws), and with
        ``rival_plan_evals`` set the other seats plan theirs the same way (rivals that are
        greedy planners, as the greedy levels are, rather than the cheap policy).  With
        ``finish_round`` and the game's ``round_ending`` hook, a playout at its horizon in the
        game's last round plays on to the end; with ``finish_plan_evals`` every seat plans those
        turns with a turn planner of that many evaluations.
        """
        rollout_action = knowledge.rollout_action
        ending = knowledge.round_ending if self.finish_round else None
        while not world.is_over() and (ends < horizon or (ending is not None and ending(world))):
            mover = world.to_move()[0]
            turn = world.turn_id()
            if ends >= horizon and self.finish_plan_evals:
                # past the horizon, in the game's last round: every seat plans its turn
                evals = self.finish_plan_evals
            else:
                evals = (
                    (self.playout_plan_evals if plan_own_turns else 0)
                    if mover == seat
                    else self.rival_plan_evals
                )
            if evals:
                planner = TurnPlanner(knowledge, beam=2, max_evals=evals)
                plans = planner.plans(world, mover, rng, None, meter)
                self._work += planner.evals
                if plans:
                    for action in plans[0].actions:
                        apply_trusted(world, mover, action)
                    if world.turn_id() != turn:
                        ends += 1
                    continue
            actions = world.legal_actions(mover)
            apply_trusted(world, mover, rollout_action(world, mover, actions, rng))
            self._work += 1
            if world.turn_id() != turn:
                ends += 1

    def _out_of_work(self) -> bool:
        """Whether the playouts have done ``work`` units of work: one per evaluation of their
        turn planners, per action of the cheap policy and per playout's final evaluation — a
        count (the same on every machine) that follows the CPU time of a search more closely
        than the number of playouts, whose cost varies with the position."""
        return (
            self.work is not None and self._work >= self.work * self.count_scale * self._work_scale
        )

    def _step(
        self,
        node: _Node,
        world: GameState,
        mover: Seat,
        path: list[_Node],
        knowledge: Knowledge,
    ) -> tuple[_Node, bool]:
        """Choose ``mover``'s action at ``node`` in ``world`` and apply it.

        Returns the child and whether it was just added.  Progressive widening: a node visited
        ``n`` times may have about ``widening * sqrt(n)`` children, so a wide node (dozens of
        placements) is not spread over every action before any of them is tried twice.
        """
        legal = knowledge.candidates(world, mover)
        children = node.children
        available = [a for a in legal if a in children]
        expand = len(available) < len(legal) and (
            not available or len(children) < self.widening * math.sqrt(node.visits + 1)
        )
        if expand:
            untried = [a for a in legal if a not in children]
            # The playout policy picks which new action to try first (a policy prior).
            action = knowledge.rollout_action(world, mover, untried, self.rng)
            child = _Node(mover)
            children[action] = child
        else:
            child, action = self._select(node, available)
        apply_trusted(world, mover, action)
        path.append(child)
        return child, expand

    def _select(self, node: _Node, available: list[Action]) -> tuple[_Node, Action]:
        """UCB1 with availability counts among the children that exist in this world."""
        c = self.exploration
        best: tuple[_Node, Action] | None = None
        best_score = -math.inf
        children = node.children
        for action in available:
            child = children[action]
            child.avail += 1
            if child.visits <= 0:
                score = math.inf
            else:
                score = child.total / child.visits + c * math.sqrt(
                    math.log(child.avail) / child.visits
                )
            if score > best_score:
                best_score = score
                best = (child, action)
        assert best is not None
        return best

    def _principal_turn(self, root: _Node, seat: Seat, macro: bool) -> tuple[Action, ...]:
        """The most visited root move, extended by the most visited own follow-ups."""
        if not root.children:
            raise ValueError("the search found no move")
        action, node = max(root.children.items(), key=lambda item: item[1].visits)
        if macro:
            return action
        plan: list[Action] = [action]
        while node.children:
            own = [(a, c) for a, c in node.children.items() if c.mover == seat]
            if not own:
                break
            action, node = max(own, key=lambda item: item[1].visits)
            if node.visits < 4:
                break
            plan.append(action)
        return tuple(plan)


#: The golden ratio's fractional part: k * _GOLDEN mod 1 spreads evenly over [0, 1) for any k.
_GOLDEN = (math.sqrt(5.0) - 1.0) / 2.0
