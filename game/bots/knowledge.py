"""What a bot knows about a game beyond the engine contract: its evaluation.

The bots speak only the contract (:mod:`game.core.api`).  For judgement they ask this module,
which looks for an optional ``evaluation`` module next to the game's engine (for Kingdom
Builder ``game/kingdom_builder/evaluation.py``) and falls back to :meth:`Game.evaluate`.  A new
game plugs in its own evaluation by adding that module; the bots do not change.

The evaluation module may define (every name is optional):

``evaluate_all(state) -> list[float]``
    How good the position is for each seat, in the game's points ("what each seat would
    score, all things considered").  Bots compare a seat's value with its rivals'.
``SCALE: float``
    A typical points difference between a clearly better and a clearly worse position.  The
    search bot turns value margins into win chances with a logistic of ``margin / SCALE``.
``rollout_action(state, seat, actions, rng) -> Action``
    A cheap, decent move for the search bot's playouts (the default is uniformly random); it
    also decides which new action the tree tries first.
``position_key(state, seat) -> Hashable``
    Equal for two positions reached by the same moves of ``seat`` in a different order, so
    the turn planner can merge them (transpositions).  The convention: a tuple of exactly what
    the rest of the game depends on — the board, every seat's holdings and public counters, the
    pending decision and the turn id — and nothing that only records *how* the position was
    reached.  Two positions with the same key must have the same legal actions and the same
    future.
``candidate_actions(state, seat, actions) -> list[Action]``
    The actions worth searching, best first (a subset of ``actions``, never empty when
    ``actions`` is not): the planner and the search tree try only these, so a game with wide
    choices (Keyflower's bids, Glen More's payments) stays searchable.  Default: all of them.

``EASY_TEMPERATURE: float``
    The easy level's randomness in this game's points (a turn ``EASY_TEMPERATURE`` points worse
    than the best is e times less likely), for a game whose values spread wider than Kingdom
    Builder's.  Default: :data:`game.bots.EASY_TEMPERATURE`.

``SEARCH: dict[str, object]``
    The hard level's search parameters for this game, overriding the defaults of
    :func:`game.bots.hard_bot` (names from :data:`SEARCH_PARAMETERS`, e.g. a game whose
    playouts are dear plans its own next turn with fewer evaluations).  Among them the hard
    level's budget (:mod:`game.bots.budget`): ``"work"``, the evaluations and actions of its
    playouts per decision (the bound that normally ends the search, calibrated so that a
    decision takes about 1-1.5 s of CPU on a quiet core, at most 2 s at the 95th percentile;
    default :data:`game.bots.budget.HARD_WORK`; ``None`` for none), ``"iterations"``, a cap on
    its playouts per decision (default none), and ``"cpu_budget"``, its CPU ceiling per
    decision in seconds (default :data:`game.bots.budget.HARD_CPU_BUDGET`).  The search's
    other parameters too (``"rival_plan_evals"``: rivals that plan their turns in the
    playouts, ``"win_chance"``: the form of a playout's reward, :func:`win_chances`,
    ``"scale_factor"``: a multiplier of its scale, ...).
    Default: none.

``SEARCH_VARIANT(state) -> str``, ``SEARCH_BY_VARIANT: dict[str, dict[str, object]]``
    A game whose variants (an expansion in play or not) want different search parameters
    names the variant of a position, and ``SEARCH_BY_VARIANT[variant]`` (validated like
    ``SEARCH``) replaces ``SEARCH`` in that variant; the hard level takes the parameters of
    the variant of the position it searches (:meth:`Knowledge.search_for`).  Default: none.

``PLAN_EVALS: int`` (or a function ``(state, seat) -> int``)
    The turn planner's evaluations per turn for the greedy, normal and easy levels in this game
    (calibrated so that a decision stays within 0.3 s of CPU on a quiet core).  A function is
    asked at the start of each turn's planning, for a game whose positions cost very different
    amounts to evaluate in different phases (a count, still: the same position gets the same
    budget on any machine).  Default: :data:`game.bots.budget.PLAN_EVALS`.

``HARD_REWARD_SCALE(state) -> float``
    The hard level's ``SCALE`` for ``state`` where it should depend on the position: a win
    chance is ``logistic(margin / scale)``, and a margin says more near the end of a game than
    early (Kingdom Builder fits it to self-play games' results, ``bench/calibrate_scale.py``).
    Used for the search's rewards and the planner's priors.  Default: ``SCALE`` everywhere.

``stratify_world(world, seat, u) -> None``
    Fixes, in a world the hard level's race has just sampled for ``seat`` (a determinized
    copy), the chance outcome that matters most to the searching seat by ``u`` in ``[0, 1)``:
    the outcome whose cumulative odds first pass ``u`` (Kingdom Builder: the seat's next
    card).  The race hands each round a low-discrepancy ``u`` (search parameter
    ``"stratify"``), so over a few rounds the outcomes come up in proportion to their odds
    (stratified sampling) while the rest of the world stays random.  Default: none.

``round_ending(state) -> bool``
    Whether ``state``'s game will end when the current round is over (Kingdom Builder: a seat
    has built its last settlement).  With the search parameter ``"finish_round"`` a playout
    that has reached its horizon in such a round plays on to the end, so the last turns are
    judged by the real result rather than the evaluation.  Default: none.

``last_turn(state, seat) -> bool``
    Whether ``seat``'s turn in ``state`` is surely its last of the game (Kingdom Builder: the
    game ends with this round, KB §8).  With the search parameter ``"last_turn_plans"`` the
    hard level then also races the best turns by the points the rules count now
    (:func:`live_totals`) — in a seat's last turn its position's future is worth nothing, so
    the turns the evaluation prefers for what they set up may miss the most points.  Default:
    none.

``midway(state, seat) -> bool``
    Whether ``seat`` is partway through one move that its next action completes (Kingdom
    Builder: a location or nomad tile chosen, a settlement lifted to move, an Outpost's build
    to come).  With the search parameter ``"last_turn_look": "midway"`` the last-turn planner
    looks through such positions alone (:class:`~game.bots.greedy.TurnPlanner`'s
    ``look_only``): a move is judged where its settlement ends up, and a build that scores
    nothing is not searched a level deeper.  Default: none (the planner looks through every
    action that leaves its judge's value unchanged).

``live_scores(state) -> list[float]``
    Every seat's points as the rules count them now — the totals of
    :meth:`GameState.preview_scores` (:func:`live_totals`), computed faster (Kingdom Builder:
    each seat's own points memoised by its settlements).  The last-turn planner judges by it.
    Default: :func:`live_totals`.

``round_turns_left(state) -> int``
    How many turns end before the current round is over, the seat to move's included (Kingdom
    Builder: that seat and those after it in the round, KB §4).  With the search parameter
    ``"round_horizon"`` a playout ends at the end of the round after this one, where every seat
    has played as many turns of the game.  Default: none.

``HARD_EVALUATE_ALL(state) -> list[float]``, ``HARD_CANDIDATE_ACTIONS(state, seat, actions)``
    A refined evaluation and candidate filter for the hard level only (e.g. weights fitted
    from self-play games, a narrower choice where the search would drown): the search bot with
    ``game_tuning`` (the hard level) uses them everywhere — its turn planner, its playouts, its
    leaf values — while greedy, easy and normal keep ``evaluate_all`` and
    ``candidate_actions``.  Default: those two (see :meth:`Knowledge.for_hard`).

Values handed to the bots are *absolute* per seat; :func:`relative_value` makes the margin a
bot maximises.  A state handed to an evaluation is always a determinized copy (no secrets).
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from types import ModuleType
from typing import Any

from game.core import registry
from game.core.api import Game, GameState
from game.core.rng import Rng
from game.core.types import Action, Seat

#: The search parameters a game's ``SEARCH`` may set (see :class:`game.bots.mcts.MctsBot`).
SEARCH_PARAMETERS = frozenset(
    {
        "cpu_budget",
        "end_margin",
        "exploration",
        "finish_plan_evals",
        "finish_round",
        "horizon_extra",
        "iterations",
        "last_turn_beam",
        "last_turn_end_margin",
        "last_turn_evals",
        "last_turn_look",
        "last_turn_plans",
        "last_turn_wide_beam",
        "last_turn_wide_evals",
        "last_turn_work",
        "max_plans",
        "plan_beam",
        "plan_evals",
        "plan_per_first",
        "plan_share",
        "playout_plan_evals",
        "prior_visits",
        "reject_every",
        "rival_plan_evals",
        "round_horizon",
        "scale_factor",
        "stratify",
        "widening",
        "win_chance",
        "work",
    }
)

#: What the last-turn planner looks through (search parameter ``"last_turn_look"``): ``"any"``
#: action that leaves its judge's value unchanged, or only one that leaves the seat ``"midway"``
#: through a move (the game's ``midway`` hook).
LAST_TURN_LOOKS = ("any", "midway")

EvaluateAll = Callable[[GameState], list[float]]
RolloutAction = Callable[[GameState, Seat, list[Action], Rng], Action]
PositionKey = Callable[[GameState, Seat], Hashable]
CandidateActions = Callable[[GameState, Seat, list[Action]], list[Action]]
PlanEvals = Callable[[GameState, Seat], int]
Stratify = Callable[[GameState, Seat, float], None]
RewardScale = Callable[[GameState], float]


@dataclass(frozen=True)
class Knowledge:
    """The evaluation hooks of one game, with defaults filled in."""

    game_id: str
    evaluate_all: EvaluateAll
    scale: float
    rollout_action: RolloutAction
    position_key: PositionKey | None
    candidate_actions: CandidateActions
    #: The hard level's search parameters for this game (the module's ``SEARCH``).
    search: tuple[tuple[str, Any], ...] = ()
    #: The easy level's temperature in this game (the module's ``EASY_TEMPERATURE``).
    easy_temperature: float | None = None
    #: The planner's evaluations per turn in this game (the module's ``PLAN_EVALS``: a number,
    #: or a function of the position).
    plan_evals: int | PlanEvals | None = None
    #: The hard level's evaluation and candidate filter, if the game has its own (the module's
    #: ``HARD_EVALUATE_ALL`` and ``HARD_CANDIDATE_ACTIONS``).
    hard_evaluate_all: EvaluateAll | None = None
    hard_candidate_actions: CandidateActions | None = None
    #: The race's stratification of a sampled world (the module's ``stratify_world``).
    stratify: Stratify | None = None
    #: The scale of a position's win chance, if it depends on the position (set by
    #: :meth:`for_hard` from the module's ``HARD_REWARD_SCALE``; else :attr:`scale`).
    reward_scale: RewardScale | None = None
    hard_reward_scale: RewardScale | None = None
    #: Which variant of the game a position is in, for its search parameters (the module's
    #: ``SEARCH_VARIANT``, a function of the state), and the parameters of each variant that
    #: has its own (the module's ``SEARCH_BY_VARIANT``, each replacing ``SEARCH``).
    search_variant: Callable[[GameState], str] | None = None
    search_variants: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = ()
    #: Whether a position's game ends with its current round (the module's ``round_ending``).
    round_ending: Callable[[GameState], bool] | None = None
    #: Turns left in a position's current round (the module's ``round_turns_left``).
    round_turns_left: Callable[[GameState], int] | None = None
    #: Whether a seat's turn is surely its last of the game (the module's ``last_turn``).
    last_turn: Callable[[GameState, Seat], bool] | None = None
    #: Whether a seat is partway through one move (the module's ``midway``).
    midway: Callable[[GameState, Seat], bool] | None = None
    #: Every seat's points counted now, faster (the module's ``live_scores``; ``None``:
    #: :func:`live_totals`).
    live_scores: EvaluateAll | None = None

    def search_for(self, state: GameState) -> tuple[tuple[str, Any], ...]:
        """The hard level's search parameters in ``state``'s variant of the game (``search``
        unless the game gives that variant its own)."""
        if self.search_variant is None:
            return self.search
        variant = self.search_variant(state)
        for name, params in self.search_variants:
            if name == variant:
                return params
        return self.search

    def for_hard(self) -> Knowledge:
        """These hooks with the hard level's own evaluation and candidate filter (itself if the
        game has neither)."""
        if (
            self.hard_evaluate_all is None
            and self.hard_candidate_actions is None
            and self.hard_reward_scale is None
        ):
            return self
        return replace(
            self,
            evaluate_all=self.hard_evaluate_all or self.evaluate_all,
            candidate_actions=self.hard_candidate_actions or self.candidate_actions,
            reward_scale=self.hard_reward_scale or self.reward_scale,
            hard_evaluate_all=None,
            hard_candidate_actions=None,
            hard_reward_scale=None,
        )

    def scaled(self, factor: float) -> Knowledge:
        """These hooks with every win-chance scale multiplied by ``factor`` (the search
        parameter ``"scale_factor"``: below 1 a margin decides more sharply, above 1 the reward
        is closer to the margin itself); itself for 1."""
        if factor == 1.0:
            return self
        reward_scale = self.reward_scale
        return replace(
            self,
            scale=self.scale * factor,
            reward_scale=None
            if reward_scale is None
            else (lambda state: factor * float(reward_scale(state))),
        )

    def scale_for(self, state: GameState) -> float:
        """The margin that makes a win e times likelier than a loss in ``state``
        (:attr:`reward_scale` of the position if set, else :attr:`scale`)."""
        if self.reward_scale is None:
            return self.scale
        scale = float(self.reward_scale(state))
        if not scale > 0.0 or math.isinf(scale):
            raise ValueError(f"{self.game_id}: HARD_REWARD_SCALE must be positive, not {scale!r}")
        return scale

    def candidates(self, state: GameState, seat: Seat) -> list[Action]:
        """``seat``'s legal actions worth searching (the game's ``candidate_actions`` hook)."""
        legal = state.legal_actions(seat)
        if len(legal) <= 1:
            return legal
        chosen = self.candidate_actions(state, seat, legal)
        return chosen or legal

    def evals_for(self, state: GameState, seat: Seat) -> int | None:
        """The planner's evaluation budget for ``seat``'s turn in ``state`` (``None``: the
        game sets none)."""
        evals = self.plan_evals
        if evals is None or isinstance(evals, int):
            return evals
        return _positive_int(self.game_id, "PLAN_EVALS(state, seat)", evals(state, seat))

    def value(self, state: GameState, seat: Seat) -> float:
        """``seat``'s margin over its rivals in ``state`` (see :func:`relative_value`)."""
        return relative_value(self.evaluate_all(state), seat)

    def rewards(
        self, state: GameState, form: str = "margin", end_margin: bool = False
    ) -> list[float]:
        """Each seat's reward in ``[0, 1]``: the result if the game is over, else a win chance.

        A finished game gives ``1/k`` to each of ``k`` winners and 0 to the others — or, with
        ``end_margin``, like an unfinished one the win chance of its final scores (one playout
        then says how far a seat led, not only whether it won).  An unfinished one gives
        :func:`win_chances` of the evaluation in ``form``, with the scale from
        :meth:`scale_for`.
        """
        if state.is_over() and not end_margin:
            winners = state.winners()
            share = 1.0 / len(winners)
            return [share if s in winners else 0.0 for s in range(state.players)]
        values = self.evaluate_all(state)
        scale = self.scale if self.reward_scale is None else self.scale_for(state)
        return win_chances(values, scale, form)


#: The forms of :func:`win_chances`.
WIN_CHANCE_FORMS = ("margin", "softmax")


def win_chances(values: Sequence[float], scale: float, form: str = "margin") -> list[float]:
    """Every seat's chance to win from its value, in one of two forms.

    ``"margin"``: ``logistic(margin / scale)``, the margin over the strongest rival
    (:func:`relative_value`) — each seat judged against the leader alone, so the chances of a
    close field do not add up to one.  ``"softmax"``: ``exp(value / scale)`` over the sum of
    every seat's — the chance that this seat finishes first if each seat's final score is its
    value plus independent Gumbel noise of that scale (a Plackett-Luce model); the chances add
    up to one, and a seat gains from pulling down every rival in proportion to that rival's
    chance, not only the leader's.
    """
    if form == "margin":
        return [logistic(relative_value(values, s) / scale) for s in range(len(values))]
    if form == "softmax":
        top = max(values)
        weights = [math.exp(max(-60.0, (v - top) / scale)) for v in values]
        total = sum(weights)
        return [w / total for w in weights]
    raise ValueError(f"unknown win-chance form {form!r} (one of {', '.join(WIN_CHANCE_FORMS)})")


def relative_value(values: Sequence[float], seat: Seat) -> float:
    """``seat``'s value minus its strongest rival's (its own value in a one-seat game).

    Beating the leader is what wins a game with several rivals, so the margin is taken over the
    best other seat, not the average.
    """
    best_other = max((v for s, v in enumerate(values) if s != seat), default=0.0)
    return values[seat] - best_other


def logistic(x: float) -> float:
    """The logistic function 1 / (1 + e^-x), exactly 0 or 1 far out (no overflow)."""
    if x < -30.0:
        return 0.0
    if x > 30.0:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


def random_rollout_action(state: GameState, seat: Seat, actions: list[Action], rng: Rng) -> Action:
    """The default playout policy: a uniformly random legal action."""
    return actions[rng.randbelow(len(actions))]


def all_actions(state: GameState, seat: Seat, actions: list[Action]) -> list[Action]:
    """The default candidate hook: every legal action."""
    return actions


def live_totals(state: GameState) -> list[float]:
    """Every seat's total of :meth:`GameState.preview_scores`: the points the rules count now
    (the final scores of a finished game)."""
    return [float(s["total"]) for s in state.preview_scores()]


def _score_values(game: Game) -> EvaluateAll:
    """Per-seat values when the game has no ``evaluation`` module.

    A game that overrides :meth:`Game.evaluate` is asked once per seat; otherwise the totals of
    :meth:`GameState.preview_scores` (the banked scores unless the game projects) are the
    values.
    """
    if type(game).evaluate is Game.evaluate:
        return live_totals

    def own_evaluate(state: GameState) -> list[float]:
        return [game.evaluate(state, s) for s in range(state.players)]

    return own_evaluate


def _evaluation_module(game_id: str) -> ModuleType | None:
    """The game's ``evaluation`` module, or ``None`` if the game has none."""
    package = registry.module_of(game_id)
    if package is None:
        return None
    name = f"{package}.evaluation"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name:
            return None
        raise


def search_parameters(game_id: str, search: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    """A game's ``SEARCH`` as sorted pairs, refusing names the search bot does not have and a
    budget that is not a positive number (``iterations``: a positive integer)."""
    unknown = set(search) - SEARCH_PARAMETERS
    if unknown:
        raise ValueError(f"{game_id}: unknown search parameters {sorted(unknown)}")
    for name in ("iterations", "work"):
        if search.get(name) is not None:
            _positive_int(game_id, f'SEARCH["{name}"]', search[name])
    cpu = search.get("cpu_budget")
    if "cpu_budget" in search and (
        isinstance(cpu, bool) or not isinstance(cpu, int | float) or not cpu > 0
    ):
        raise ValueError(f'{game_id}: SEARCH["cpu_budget"] must be positive seconds, not {cpu!r}')
    factor = search.get("scale_factor", 1.0)
    if isinstance(factor, bool) or not isinstance(factor, int | float) or not 0 < factor < 1e6:
        raise ValueError(f'{game_id}: SEARCH["scale_factor"] must be a positive number')
    for flag in ("finish_round", "round_horizon", "end_margin", "last_turn_end_margin"):
        if not isinstance(search.get(flag, False), bool):
            raise ValueError(f'{game_id}: SEARCH["{flag}"] must be true or false')
    for count in (
        "finish_plan_evals",
        "last_turn_plans",
        "last_turn_beam",
        "last_turn_evals",
        "last_turn_wide_beam",
        "last_turn_wide_evals",
    ):
        if search.get(count, 0) != 0:
            _positive_int(game_id, f'SEARCH["{count}"]', search[count])
    if search.get("last_turn_look", "any") not in LAST_TURN_LOOKS:
        raise ValueError(f'{game_id}: SEARCH["last_turn_look"] must be one of {LAST_TURN_LOOKS}')
    share = search.get("last_turn_work", 1.0)
    if isinstance(share, bool) or not isinstance(share, int | float) or not 0 < share <= 1:
        raise ValueError(f'{game_id}: SEARCH["last_turn_work"] must be a number in (0, 1]')
    if search.get("win_chance", "margin") not in WIN_CHANCE_FORMS:
        raise ValueError(f'{game_id}: SEARCH["win_chance"] must be one of {WIN_CHANCE_FORMS}')
    return tuple(sorted(search.items()))


def _plan_evals(game_id: str, value: Any) -> int | PlanEvals | None:
    """A game's ``PLAN_EVALS``: ``None``, a positive integer or a function of the position."""
    if value is None or (callable(value) and not isinstance(value, type)):
        return value
    return _positive_int(game_id, "PLAN_EVALS", value)


def _positive_int(game_id: str, name: str, value: Any) -> int:
    """``value`` if it is an integer of at least 1, else a clear error naming the hook."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{game_id}: {name} must be a positive integer, not {value!r}")
    return value


def _easy_temperature(game_id: str, value: Any) -> float | None:
    """A game's ``EASY_TEMPERATURE`` (``None`` if it has none), refusing a non-positive one."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise ValueError(f"{game_id}: EASY_TEMPERATURE must be a positive number, not {value!r}")
    return float(value)


_cache: dict[tuple[str, str | None], Knowledge] = {}


def knowledge_for(game_id: str) -> Knowledge:
    """The evaluation hooks of the game ``game_id`` (cached)."""
    key = (game_id, registry.module_of(game_id))
    known = _cache.get(key)
    if known is not None:
        return known
    game = registry.get_game(game_id)
    module = _evaluation_module(game_id)
    hooks: dict[str, Any] = vars(module) if module is not None else {}
    known = Knowledge(
        game_id=game_id,
        evaluate_all=hooks.get("evaluate_all") or _score_values(game),
        scale=float(hooks.get("SCALE", 5.0)),
        rollout_action=hooks.get("rollout_action") or random_rollout_action,
        position_key=hooks.get("position_key"),
        candidate_actions=hooks.get("candidate_actions") or all_actions,
        search=search_parameters(game_id, hooks.get("SEARCH") or {}),
        easy_temperature=_easy_temperature(game_id, hooks.get("EASY_TEMPERATURE")),
        hard_evaluate_all=hooks.get("HARD_EVALUATE_ALL"),
        hard_candidate_actions=hooks.get("HARD_CANDIDATE_ACTIONS"),
        hard_reward_scale=hooks.get("HARD_REWARD_SCALE"),
        plan_evals=_plan_evals(game_id, hooks.get("PLAN_EVALS")),
        stratify=hooks.get("stratify_world"),
        round_ending=hooks.get("round_ending"),
        round_turns_left=hooks.get("round_turns_left"),
        last_turn=hooks.get("last_turn"),
        live_scores=hooks.get("live_scores"),
        midway=hooks.get("midway"),
        search_variant=hooks.get("SEARCH_VARIANT"),
        search_variants=tuple(
            (str(name), search_parameters(game_id, params or {}))
            for name, params in sorted((hooks.get("SEARCH_BY_VARIANT") or {}).items())
        ),
    )
    _cache[key] = known
    return known
