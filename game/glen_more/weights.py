"""The constants of the Glen More evaluation (:mod:`game.glen_more.evaluation`), in VP unless
stated: one frozen :class:`Weights`, so benchmarks can compare variants (``Evaluator(Weights(...))``).
"""

from __future__ import annotations

from dataclasses import dataclass


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


#: The weights every level plays with (the hard level multiplies its terms, ``fitted.py``).
DEFAULT_WEIGHTS = Weights()
