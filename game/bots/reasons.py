"""Why one position is better than another, in the evaluation's own terms (hints, game review).

A bot judges a position by its game's evaluation (:mod:`game.bots.knowledge`); this module
splits that judgement into *reasons* a player can read.  A reason is ``{key, params, gain}``:
``gain`` is in the game's points (signed: what the better position has more of), ``key`` names
a catalogue text the client shows as ``reason.<game id>.<key>`` (or the shared ``reason.<key>``)
with ``params`` and the signed ``gain`` filled in.

Where the reasons come from, best first:

``explain_gain(before, after, seat) -> list[dict]``
    a game's evaluation module may say itself what ``after`` gains over ``before`` for ``seat``
    (richer reasons: "+2 chieftains before scoring 2", "this bid leaves the Key Guild to Bram").
``explain_terms(state, seat) -> dict[str, float]``
    else the seat's value split into the evaluation's named terms (summing to its value): a
    reason per term that differs, key ``term.<name>``;
the seat's score categories (``preview_scores()``)
    else, for a game without either hook: a reason per category that differs, key ``score``
    with the ``category`` as a parameter.

Unless the game's ``explain_gain`` speaks for itself, a generic ``rival`` reason (``{seat}``) is
added when the better position leaves a rival's value lower (a blocked hex, a tile outbid):
bots play for the margin over the strongest rival, so what a move takes from a rival is part of
why it is good.  A key given as ``reason.<game id>.<key>`` is shortened to ``<key>``; the
parameters ``gain``, ``loss`` and ``points`` (the gain again, as text) are dropped, since the
client fills them in from the gain averaged over the sampled worlds.

Chance and hidden information: positions are compared in *pairs of sampled worlds*
(``state.determinize(seat, seed)``: what the seat cannot see resampled), and each reason's gain
is its mean over the pairs, so a reason never rests on a card the seat could not know.

API:

* :func:`compare(base, other, seat)` — the reasons ``other`` is better than ``base`` (two lists
  of positions, one pair per sampled world), best first.
* :func:`play_turn(world, seat, actions, knowledge, rng)` — play a planned turn in a sampled
  world as far as it applies there, and finish the turn with the planner.
* :func:`hint_reasons(state, seat, action, seed)` — why the hinted ``action`` is good: the turn
  it begins, compared with the position before it.
* :func:`hint_reasons_async(...)` — the same in a daemon thread (a :class:`Future`).
"""

from __future__ import annotations

import concurrent.futures
import math
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from game.bots.base import BotCancelled, CancelToken, apply_trusted, check_cancel, turn_continues
from game.bots.greedy import TurnPlanner
from game.bots.knowledge import Knowledge, _evaluation_module, knowledge_for
from game.core import registry
from game.core.api import GameState
from game.core.rng import Rng, derive_seed
from game.core.types import Action, Seat

#: Most reasons given for one move.
LIMIT = 3
#: A reason worth less than this share of the game's ``SCALE`` (a typical decisive margin) is
#: not worth a line; at least :data:`MIN_GAIN` points.
MIN_SHARE = 0.08
MIN_GAIN = 0.3
#: The planner's evaluations when a turn is finished in a sampled world.
PLAN_EVALS = 300
#: Sampled worlds a hint's reasons are averaged over.
HINT_WORLDS = 3
#: Parameters that only restate a reason's gain (a game's ``explain_gain`` may give them as
#: text); they are dropped, and the client fills them in from the gain averaged over worlds.
GAIN_FIELDS = frozenset({"gain", "loss", "points"})

ExplainTerms = Callable[[GameState, Seat], dict[str, float]]
ExplainGain = Callable[[GameState, GameState, Seat], list[dict[str, Any]]]


@dataclass(frozen=True)
class Reason:
    """One reason: a catalogue key, its parameters (plain values) and its gain in points."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)
    gain: float = 0.0

    def to_plain(self) -> dict[str, Any]:
        """``{key, params, gain}`` with the gain rounded to a hundredth (files, messages)."""
        return {"key": self.key, "params": dict(self.params), "gain": round(self.gain, 2)}


@dataclass(frozen=True)
class Explainers:
    """A game's hooks for reasons (``None`` where its evaluation module has none)."""

    terms: ExplainTerms | None
    gain: ExplainGain | None


_hooks: dict[tuple[str, str | None], Explainers] = {}


def explainers(game_id: str) -> Explainers:
    """The ``explain_terms`` / ``explain_gain`` hooks of ``game_id``'s evaluation module."""
    key = (game_id, registry.module_of(game_id))
    known = _hooks.get(key)
    if known is None:
        module = _evaluation_module(game_id)
        hooks: dict[str, Any] = vars(module) if module is not None else {}
        terms = hooks.get("explain_terms")
        gain = hooks.get("explain_gain")
        known = Explainers(
            terms if callable(terms) else None,
            gain if callable(gain) else None,
        )
        _hooks[key] = known
    return known


def terms(state: GameState, seat: Seat) -> dict[str, float]:
    """``seat``'s value in ``state`` split into named parts, keyed by reason key: the game's
    ``explain_terms`` (``term.<name>``), else its score categories (``score:<category>``)."""
    hooks = explainers(state.game_id)
    if hooks.terms is not None:
        return {f"term.{name}": float(v) for name, v in hooks.terms(state, seat).items()}
    row = state.preview_scores()[seat]
    return {f"score:{name}": float(v) for name, v in row.items() if name != "total"}


def _reason_of(key: str, gain: float) -> Reason:
    if key.startswith("score:"):
        return Reason("score", {"category": key[len("score:") :]}, gain)
    return Reason(key, {}, gain)


def _pair_reasons(
    base: GameState, other: GameState, seat: Seat, knowledge: Knowledge
) -> list[Reason]:
    """What ``other`` gains over ``base`` for ``seat`` in one pair of worlds (unsorted)."""
    hooks = explainers(base.game_id)
    found: list[Reason] = []
    if hooks.gain is not None:
        prefix = f"reason.{base.game_id}."
        for item in hooks.gain(base, other, seat):
            key = str(item["key"])
            if key.startswith(prefix):
                key = key[len(prefix) :]
            # the texts of the gain itself are filled in from the mean gain when shown
            params = {
                k: v for k, v in dict(item.get("params") or {}).items() if k not in GAIN_FIELDS
            }
            found.append(Reason(key, params, float(item["gain"])))
        return found
    before, after = terms(base, seat), terms(other, seat)
    for key in sorted(set(before) | set(after)):
        gain = after.get(key, 0.0) - before.get(key, 0.0)
        if gain:
            found.append(_reason_of(key, gain))
    if base.players > 1:
        old, new = knowledge.evaluate_all(base), knowledge.evaluate_all(other)
        rivals = [s for s in range(base.players) if s != seat]
        # the rival this position holds back most
        rival = max(rivals, key=lambda s: (old[s] - new[s], -s))
        if old[rival] - new[rival] > 0:
            found.append(Reason("rival", {"seat": rival}, old[rival] - new[rival]))
    return found


def threshold(knowledge: Knowledge) -> float:
    """The least gain a reason needs to be shown (points)."""
    return max(MIN_GAIN, MIN_SHARE * knowledge.scale)


def compare(
    base: Sequence[GameState],
    other: Sequence[GameState],
    seat: Seat,
    limit: int = LIMIT,
    min_gain: float | None = None,
) -> list[Reason]:
    """The reasons why ``other`` is better than ``base`` for ``seat``, best first.

    ``base[i]`` and ``other[i]`` are the same sampled world (pairs); each reason's gain is its
    mean over the pairs (a reason missing in a pair counts 0 there).  Only gains of at least
    ``min_gain`` points (default :func:`threshold`) are kept, at most ``limit`` of them.
    """
    if len(base) != len(other):
        raise ValueError("compare needs one position of each kind per sampled world")
    if not base:
        return []
    knowledge = knowledge_for(base[0].game_id)
    least = threshold(knowledge) if min_gain is None else min_gain
    sums: dict[tuple[str, str], float] = {}
    found: dict[tuple[str, str], Reason] = {}
    for a, b in zip(base, other, strict=True):
        for reason in _pair_reasons(a, b, seat, knowledge):
            key = (reason.key, repr(sorted(reason.params.items())))
            sums[key] = sums.get(key, 0.0) + reason.gain
            found.setdefault(key, reason)
    n = len(base)
    merged = [
        Reason(found[k].key, found[k].params, total / n)
        for k, total in sums.items()
        if math.isfinite(total) and total / n >= least
    ]
    merged.sort(key=lambda r: (-r.gain, r.key, repr(sorted(r.params.items()))))
    return merged[:limit]


def play_turn(
    world: GameState,
    seat: Seat,
    actions: Sequence[Action],
    knowledge: Knowledge,
    rng: Rng,
    evals: int = PLAN_EVALS,
    cancel: CancelToken | None = None,
) -> tuple[Action, ...]:
    """Play ``seat``'s turn in ``world`` (changed in place): ``actions`` as long as the turn
    lasts and each is legal there (a sampled world may draw differently inside a turn), then
    the rest of the turn as the turn planner would play it.  Returns the actions played."""
    turn = world.turn_id()
    played: list[Action] = []
    for action in actions:
        if not turn_continues(world, seat, turn) or action not in world.legal_actions(seat):
            break
        apply_trusted(world, seat, action)
        played.append(action)
    while turn_continues(world, seat, turn):
        check_cancel(cancel)
        plans = TurnPlanner(knowledge, beam=2, max_evals=evals).plans(world, seat, rng, cancel)
        steps = plans[0].actions if plans else ()
        progressed = False
        for action in steps:
            if not turn_continues(world, seat, turn) or action not in world.legal_actions(seat):
                break
            apply_trusted(world, seat, action)
            played.append(action)
            progressed = True
        if not progressed:  # no plan (cannot happen with a legal list): any legal step
            legal = world.legal_actions(seat)
            action = legal[rng.randbelow(len(legal))]
            apply_trusted(world, seat, action)
            played.append(action)
    return tuple(played)


def turn_plan(
    world: GameState,
    seat: Seat,
    action: Action,
    knowledge: Knowledge,
    rng: Rng,
    cancel: CancelToken | None = None,
) -> tuple[Action, ...]:
    """The whole turn the planner would play in ``world`` beginning with ``action``."""
    copy = world.clone()
    return play_turn(copy, seat, (action,), knowledge, rng, cancel=cancel)


def hint_reasons(
    state: GameState,
    seat: Seat,
    action: Action,
    seed: int,
    worlds: int = HINT_WORLDS,
    limit: int = 2,
    cancel: CancelToken | None = None,
) -> list[Reason]:
    """Why ``action`` (a hint for ``seat``) is good: the turn it begins — finished by the turn
    planner — compared with the position before it, in ``worlds`` sampled worlds (only what
    ``seat`` may see).  Gains only (a term the turn uses up is not a reason)."""
    knowledge = knowledge_for(state.game_id)
    rng = Rng(derive_seed(seed, "why"))
    first = state.determinize(seat, derive_seed(seed, "why", 0))
    if action not in first.legal_actions(seat):
        return []
    plan = turn_plan(first, seat, action, knowledge, rng, cancel)
    befores: list[GameState] = []
    afters: list[GameState] = []
    for i in range(worlds):
        check_cancel(cancel)
        world = first.clone() if i == 0 else state.determinize(seat, derive_seed(seed, "why", i))
        befores.append(world.clone())
        play_turn(world, seat, plan, knowledge, rng, cancel=cancel)
        afters.append(world)
    return compare(befores, afters, seat, limit=limit)


def hint_reasons_async(
    state: GameState,
    seat: Seat,
    action: Action,
    seed: int,
    worlds: int = HINT_WORLDS,
) -> tuple[concurrent.futures.Future[list[Reason]], threading.Event]:
    """:func:`hint_reasons` in a daemon thread: ``(future, cancel)``; setting ``cancel`` makes
    the future raise :class:`~game.bots.base.BotCancelled`.  ``state`` is copied here (only what
    ``seat`` may see), on the caller's thread."""
    world = state.determinize(seat, derive_seed(seed, "why-copy"))
    future: concurrent.futures.Future[list[Reason]] = concurrent.futures.Future()
    future.set_running_or_notify_cancel()
    cancel = threading.Event()

    def run() -> None:
        try:
            reasons = hint_reasons(world, seat, action, seed, worlds, cancel=cancel)
        except BaseException as exc:  # handed to whoever waits for the future
            future.set_exception(exc)
        else:
            if cancel.is_set():
                future.set_exception(BotCancelled("cancelled"))
            else:
                future.set_result(reasons)

    threading.Thread(target=run, name=f"hint-why-seat{seat}", daemon=True).start()
    return future, cancel


__all__ = [
    "Explainers",
    "Reason",
    "compare",
    "explainers",
    "hint_reasons",
    "hint_reasons_async",
    "play_turn",
    "terms",
    "threshold",
    "turn_plan",
]
