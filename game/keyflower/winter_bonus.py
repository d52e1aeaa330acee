"""What a winter tile's bonus (KF §13 step 6) makes of a seat's items, for the bots' evaluation.

The evaluation (:mod:`game.keyflower.evaluation`) counts each winter tile a seat holds or may
win with the sets and groups its keyples, resources or skill tiles complete, and, while the game
runs, part of the next set in progress; the final score's exact best assignment of items to
bonuses is :mod:`game.keyflower.scoring`'s.  The engine does not import this module.  Rule
references ``KF §n`` point to ``shared/rules/keyflower.md``.
"""

from __future__ import annotations

from game.keyflower.scoring import FIXED, GROUP, SAME, Bonus, bonus_of
from game.keyflower.tiles import GOLD, TILES, WINTER_TILE

#: Each winter tile's bonus by tile index: (its family — keyples, resources, skills or fixed —,
#: the bonus).
BONUS: dict[int, tuple[str, Bonus] | None] = {
    t.idx: bonus_of(t.id, t.sides[0]) for t in TILES if t.kind == WINTER_TILE
}
#: The pool of items (keyples, resources, skill tiles) each family of bonuses counts.
FAMILY = {"keyples": 0, "resources": 1, "skills": 2}


def _sets(counts: list[int], kinds: tuple[int, ...], wild: int) -> tuple[int, float, int]:
    """(complete sets, progress to the next in [0, 1), wild items used) of ``kinds`` from
    ``counts``; the ``wild`` kind (gold) makes up shortfalls (-1: none)."""
    pool = list(counts)
    made = 0
    used = 0
    while True:
        nxt = pool[:]
        spent = 0
        ok = True
        for k in kinds:
            if nxt[k] > 0:
                nxt[k] -= 1
            elif wild >= 0 and k != wild and nxt[wild] > 0:
                nxt[wild] -= 1
                spent += 1
            else:
                ok = False
                break
        if not ok:
            break
        pool = nxt
        made += 1
        used += spent
        if made > 40:
            break
    have = sum(1 for k in set(kinds) if pool[k] > 0)
    return made, have / max(1, len(set(kinds))), used


def bonus_value(bonus: Bonus, counts: list[int], family: str, progress: float) -> float:
    """What a winter tile's bonus (KF §13) makes of ``counts`` (the items of its family) on its
    own, with ``progress`` of the next set or group in progress counted.  Gold (resources) is
    wild for sets and costs its own 1 VP when it is used."""
    wild = GOLD if family == "resources" else -1
    if bonus.shape == FIXED:
        return float(bonus.vp)
    if bonus.shape == GROUP:
        if wild >= 0:
            plain = counts[0] + counts[1] + counts[2]
            n = plain + counts[GOLD]
            groups = n // bonus.size
            gold_used = max(0, groups * bonus.size - plain)
            return (
                groups * bonus.vp
                - gold_used
                + progress * bonus.vp * (n % bonus.size) / (bonus.size)
            )
        n = sum(counts)
        return (n // bonus.size) * bonus.vp + progress * bonus.vp * (n % bonus.size) / bonus.size
    if bonus.shape == SAME:
        if wild >= 0:
            return float(max(counts[0], counts[1], counts[2]) * bonus.vp)
        return float(max(counts) * bonus.vp)
    # SET: one kind (Key Market, Jeweller) or several (Craftsmen's, Mercers', Scribes)
    if len(bonus.kinds) == 1:
        k = bonus.kinds[0]
        per = bonus.vp - (1 if k == GOLD else 0)  # Jeweller's gold scores 2 instead of 1
        return float(counts[k] * per)
    made, part, gold_used = _sets(counts, bonus.kinds, wild)
    return made * bonus.vp - gold_used + progress * bonus.vp * part


__all__ = ["BONUS", "FAMILY", "bonus_value"]
