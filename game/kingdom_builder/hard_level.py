"""The Kingdom Builder hard level's evaluation and win-chance scale.

The greedy levels and the hints judge a position by the plain sum of the evaluation
(:mod:`game.kingdom_builder.evaluation`).  The hard level multiplies each seat's
:data:`FEATURES` by weights fitted per game stage from self-play games
(:class:`FittedEvaluator`; the weights are ``game/kingdom_builder/fitted.py``, written by
``bench/fit_kingdom_builder.py``), and turns a margin into a win chance more sharply near the
end (:func:`hard_reward_scale`, KB §8: the game ends in the round one seat builds its last
settlement).  The evaluation builds its ``FITTED`` and the hooks ``HARD_EVALUATE_ALL`` and
``HARD_REWARD_SCALE`` from these.  The engine does not import this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import mul
from typing import TYPE_CHECKING, Protocol

from game.kingdom_builder import nomads as nm
from game.kingdom_builder.codes import SETTLEMENTS
from game.kingdom_builder.odds import stage_of
from game.kingdom_builder.weights import DEFAULT_WEIGHTS

if TYPE_CHECKING:
    from game.core.api import GameState
    from game.kingdom_builder.state import KingdomBuilderState

#: The fitted evaluation's inputs per seat
#: (:meth:`game.kingdom_builder.evaluation.Evaluator.features`), in order.
FEATURES: tuple[str, ...] = (
    "score",
    "tiles",
    "nomad_tiles",
    "potential",
    "potential_more",
    "frontier",
    "open_terrains",
    "supply",
    "moved",
)


#: The hard level's win-chance scale (``HARD_REWARD_SCALE``): ``SCALE`` (the default weights'
#: ``scale``) until the fastest builder has placed 70% of its settlements, then down in a
#: straight line to 3 points at 95% and after.  Near the end a margin decides the game more
#: surely: fitted by maximum likelihood to who won the committed self-play games
#: (``python -m bench.calibrate_scale``, 16 stages, base game and full Nomads alike: about 5-6
#: points before 75%, 4-5 to 87%, 3-3.5 after).
SCALE_LATE = (0.70, 0.95, 3.0)


def hard_reward_scale(st: KingdomBuilderState) -> float:
    """The hard level's win-chance scale in ``st`` (see :data:`SCALE_LATE`)."""
    start, end, last = SCALE_LATE
    scale = DEFAULT_WEIGHTS.scale
    built = 1.0 - min(st.supply) / SETTLEMENTS
    if built <= start:
        return scale
    if built >= end:
        return last
    return scale + (last - scale) * (built - start) / (end - start)


class Featured(Protocol):
    """What :class:`FittedEvaluator` reads of the plain evaluation
    (:class:`game.kingdom_builder.evaluation.Evaluator`): every seat's value and features."""

    def evaluate_all(self, state: GameState) -> list[float]: ...

    def features(self, state: GameState) -> list[tuple[float, ...]]: ...


class FittedEvaluator:
    """The hard level's evaluation: each seat's features (``base.features``, the plain
    evaluation's :meth:`~game.kingdom_builder.evaluation.Evaluator.features`) times the
    multipliers fitted for the game's stage (:func:`stage_of`) from self-play games
    (``game/kingdom_builder/fitted.py``, written by ``bench/fit_kingdom_builder.py``):
    ``fitted`` for the base game (and the Nomads boards alone), ``fitted_nomads`` (if given)
    for the full Nomads expansion, whose tiles and cards change what a position is worth.  A
    finished game is worth its real score."""

    def __init__(
        self,
        base: Featured,
        fitted: Sequence[Sequence[float]],
        fitted_nomads: Sequence[Sequence[float]] | None = None,
    ) -> None:
        self.base = base
        self.fitted = tuple(tuple(row) for row in fitted)
        self.fitted_nomads = (
            tuple(tuple(row) for row in fitted_nomads) if fitted_nomads else self.fitted
        )
        if any(len(row) != len(FEATURES) for row in self.fitted + self.fitted_nomads):
            raise ValueError(f"every row of multipliers needs {len(FEATURES)} (FEATURES)")

    def rows_for(self, st: KingdomBuilderState) -> tuple[tuple[float, ...], ...]:
        """The multipliers of ``st``'s game (base or full Nomads), one row per stage."""
        return self.fitted_nomads if st.nomads == nm.FULL else self.fitted

    def evaluate_all(self, state: GameState) -> list[float]:
        st: KingdomBuilderState = state  # type: ignore[assignment]
        if st.over:
            return self.base.evaluate_all(st)
        rows = self.rows_for(st)
        row = rows[stage_of(st, len(rows))]
        # map(mul) adds the same products in the same order as a generator would, faster
        return [sum(map(mul, row, feats)) for feats in self.base.features(st)]


def fitted_evaluator(base: Featured) -> FittedEvaluator:
    """The hard level's evaluation over ``base``'s features, checked against the features it was
    fitted for."""
    from game.kingdom_builder import fitted

    if tuple(fitted.FEATURES) != FEATURES:
        raise ValueError("game/kingdom_builder/fitted.py was fitted for other features: refit it")
    return FittedEvaluator(base, fitted.FITTED, fitted.FITTED_NOMADS)
