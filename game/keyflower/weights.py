"""The Keyflower evaluation's constants, and what one item or one use is worth to a seat.

:class:`Weights` holds every tuning constant of the evaluation (:mod:`game.keyflower.evaluation`);
:class:`SeatRates` turns them into one seat's unit values at the current point of the game — a
keyple, a skill tile, a resource, a gold, and one use of a tile's action (KF §6.3, §6.4, §7) —
which the evaluation and :mod:`game.keyflower.tile_values` multiply.  The engine does not import
this module.  Rule references ``KF §n`` point to ``shared/rules/keyflower.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from game.keyflower.const import F_2B, PLAY, WINTER_PICK
from game.keyflower.tiles import CHOICE, EXCHANGE, KEYPLES, PRODUCE, SKILLTILES, Side
from game.keyflower.tiles import TRANSPORT as TRANSPORT_ACTION

if TYPE_CHECKING:
    from game.keyflower.state import KeyflowerState


@dataclass(frozen=True)
class Weights:
    """Every constant of the evaluation (VP unless stated; per-season tuples run spring, summer,
    autumn, winter, and what is left after winter's turns)."""

    #: A keyple behind the screen as a worker for the rest of the game.
    keyple: tuple[float, ...] = (1.5, 1.2, 0.9, 0.5, 0.0)
    #: A skill tile (upgrades, KF §7.2).
    skill: tuple[float, ...] = (1.2, 1.0, 0.8, 0.4, 0.0)
    #: A wood, stone or iron lying in the village (upgrades).
    resource: tuple[float, ...] = (0.9, 0.8, 0.7, 0.3, 0.0)
    #: What a gold is worth beyond its 1 VP at the end (wild for upgrades, KF §7.3).
    gold_work: float = 0.3
    #: Share of a tile's action counted for each season its owner can still use it.
    use_share: float = 0.5
    #: Share of an upgrade's net gain counted while nothing of its cost is at hand ...
    upgrade_far: float = 0.3
    #: ... and when all of it is (resources on the tile, skill tiles behind the screen).
    upgrade_near: float = 0.8
    #: What an upgrade point of a transport use is worth.
    upgrade_point: float = 1.5
    #: What a transport point is worth.
    transport_point: float = 0.2
    #: The chance a leading bid holds, before anyone has passed (it grows to 1 as all pass).
    win_base: float = 0.6
    #: Each keyple a lead has over the next bid adds this to its chance.
    win_margin: float = 0.08
    #: Chance that a winter tile in hand (before the winter choice) ends in the village.
    hand_share: float = 0.4
    #: Chance that a winter tile picked for the auction ends in its owner's village.
    picked_share: float = 0.4
    #: Share of the winter tiles on offer that nobody has bid on yet which a seat expects to win
    #: (all seats together).
    open_share: float = 0.8
    #: Share of a winter set or group in progress counted while the game runs.
    progress: float = 0.5
    #: A winter tile beyond the first of one family (keyples, resources, skills) shares items.
    family_damping: float = 0.7
    #: Starting the next season (the purple keyple, KF §8 step 8).
    start_player: float = 1.0
    #: Each road contact in the village (transport reaches the tiles to upgrade, KF §7.1).
    road: float = 0.3
    #: A margin of ``scale`` VP makes a win e times likelier than a loss (search rewards).
    scale: float = 8.0


def _seasons_after(st: KeyflowerState) -> int:
    """Seasons whose turns are still to come after the current one (KF §4)."""
    return 3 - st.season


def _work_index(st: KeyflowerState) -> int:
    """The season whose turns are the next a keyple can work in: this one while its turns (or
    the winter choice before them) are still on, else the next (4: none left)."""
    if st.phase in (PLAY, WINTER_PICK):
        return st.season
    return st.season + 1


class SeatRates:
    """One seat's unit values of items and actions (see the module docstring)."""

    __slots__ = ("flags", "gold", "key", "res", "skill", "uses_after", "uses_now")

    def __init__(self, st: KeyflowerState, s: int, w: Weights) -> None:
        wi = _work_index(st)
        self.key = w.keyple[wi]
        self.skill = w.skill[wi]
        self.res = w.resource[wi]
        self.gold = 1.0 + w.gold_work * (1.0 if wi < 4 else 0.0)
        self.flags = st.flags[s]
        after = _seasons_after(st)
        #: Uses of an own village tile still to come: each later season, and half a use if this
        #: season's turns are on.
        self.uses_after = float(after)
        self.uses_now = after + (0.5 if st.phase == PLAY else 0.0)

    def use_value(self, side: Side, w: Weights) -> float:
        """What one use of ``side`` brings its user (KF §6.3, §6.4, §7), keyples aside."""
        action = side.action
        if action is None:
            return 0.0
        if action == PRODUCE:
            p = side.produce
            return (p[0] + p[1] + p[2]) * self.res + p[3] * self.gold
        if action == CHOICE:
            return side.choice[0] * self.res
        if action == KEYPLES:
            return (side.random_keyples + side.green + side.choice_keyples) * self.key
        if action == SKILLTILES:
            return side.random_skills * self.skill
        if action == EXCHANGE:
            p = side.produce
            gain = (p[0] + p[1] + p[2]) * self.res + p[3] * self.gold
            gain += (side.green + side.random_keyples) * self.key + side.random_skills * self.skill
            pay = (sum(side.pay_colours) + side.pay_any_keyple) * self.key
            pay += (sum(side.pay_skills) + side.pay_any_skill) * self.skill
            return gain - pay
        if action == TRANSPORT_ACTION:
            double = 2 if self.flags & F_2B else 1
            return double * (side.upgrade * w.upgrade_point + side.transport * w.transport_point)
        return 0.0


__all__ = ["SeatRates", "Weights"]
