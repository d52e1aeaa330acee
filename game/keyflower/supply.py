"""Keyples, skill tiles and resources changing hands (KF §6.3, §6.4, §6.6; D10, D11).

Between a seat's screen, the bag, the green supply, the skill-tile supply and the resource
supply.  Keyples and skill tiles gained go behind the screen; resources produced in the seat's
own village lie on the tile used, elsewhere on its home tile (KF §6.3).  A ``?`` icon draws at
random from the state's RNG: a keyple from the bag (never green, KF §6.6) or a face-down skill
tile (KF §6.4).  Paid keyples go back to the bag, green ones to the green supply; paid skill
tiles back to the skill supply (D10).  A gain gives only what the supply still holds (D11).
What the other seats know of a screen is kept beside it (``st.kknown`` / ``st.sknown``).  Used
by the turns (:mod:`~game.keyflower.play` and the modules beside it) and by the season's
bookkeeping (:mod:`~game.keyflower.seasons`).  Functions take the state as ``st`` and change it
in place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.core.types import Event
from game.keyflower.tiles import COLOURS, GREEN, RESOURCES, SKILLS, TILES

if TYPE_CHECKING:
    from game.core.rng import Rng
    from game.keyflower.state import KeyflowerState


def spend_keyples(st: KeyflowerState, s: int, colour: int, n: int) -> None:
    """``n`` keyples of ``colour`` leave ``s``'s screen (publicly seen)."""
    st.keys[s][colour] -= n
    kn = st.kknown[s]
    kn[colour] = max(0, kn[colour] - n)


def gain_keyples(st: KeyflowerState, s: int, colour: int, n: int) -> None:
    """``n`` keyples of ``colour`` go behind ``s``'s screen, seen by everybody."""
    st.keys[s][colour] += n
    st.kknown[s][colour] += n


def spend_skill(st: KeyflowerState, s: int, kind: int, n: int) -> None:
    st.skills[s][kind] -= n
    kn = st.sknown[s]
    kn[kind] = max(0, kn[kind] - n)
    st.sksup[kind] += n


def to_supply(st: KeyflowerState, colour: int, n: int) -> None:
    """D10: returned keyples go to the bag, green ones to the green supply."""
    if colour == GREEN:
        st.green += n
    else:
        st.bag[colour] += n


def _draw(pool: list[int], count: int, rng: Rng) -> list[int]:
    """Draw up to ``count`` items of kinds 0-2 at random from ``pool`` (how many of each kind
    are left; taken out as drawn), stopping when it is empty (D11 shortage)."""
    out = []
    for _ in range(count):
        total = pool[0] + pool[1] + pool[2]
        if total == 0:
            break
        x = rng.randbelow(total)
        k = 0 if x < pool[0] else (1 if x < pool[0] + pool[1] else 2)
        pool[k] -= 1
        out.append(k)
    return out


def draw_bag(st: KeyflowerState, count: int) -> list[int]:
    """Draw up to ``count`` keyples at random from the bag (KF §6.4 '?'; D11 shortage)."""
    return _draw(st.bag, count, st.rng)


def draw_skills(st: KeyflowerState, count: int) -> list[int]:
    """Draw up to ``count`` face-down skill tiles at random (KF §6.4; D11 shortage)."""
    return _draw(st.sksup, count, st.rng)


def random_keyples_to(
    st: KeyflowerState, s: int, count: int, why: str, events: list[Event]
) -> None:
    """``s`` draws keyples from the bag behind its screen: others see only how many."""
    got = draw_bag(st, count)
    for c in got:
        st.keys[s][c] += 1
    events.append(
        {"type": "draw_keyples", "seat": s, "count": len(got), "why": why, "reveal": True}
    )
    events.append(
        {"type": "drew_keyples", "seat": s, "keyples": [COLOURS[c] for c in got], "only": [s]}
    )


def random_skills_to(st: KeyflowerState, s: int, count: int, why: str, events: list[Event]) -> None:
    got = draw_skills(st, count)
    for k in got:
        st.skills[s][k] += 1
    events.append({"type": "draw_skills", "seat": s, "count": len(got), "why": why, "reveal": True})
    events.append(
        {"type": "drew_skills", "seat": s, "skills": [SKILLS[k] for k in got], "only": [s]}
    )


def green_to(st: KeyflowerState, s: int, count: int, events: list[Event]) -> None:
    got = min(count, st.green)
    st.green -= got
    gain_keyples(st, s, GREEN, got)
    events.append({"type": "gain_green", "seat": s, "count": got})


def produce_to(
    st: KeyflowerState, s: int, t: int, amounts: tuple[int, ...], events: list[Event]
) -> None:
    """KF §6.3: resources produced in your own village lie on the tile used, elsewhere on your
    home tile; D11: only what is left in the supply."""
    dest = t if st.where[t] == s else st.home[s]
    got = [0, 0, 0, 0]
    for k in range(4):
        a = min(amounts[k], st.ressup[k])
        if a:
            st.ressup[k] -= a
            st.res[dest * 4 + k] += a
            got[k] = a
    events.append(
        {
            "type": "produce",
            "seat": s,
            "tile": TILES[dest].id,
            "resources": {RESOURCES[k]: got[k] for k in range(4) if got[k]},
        }
    )
