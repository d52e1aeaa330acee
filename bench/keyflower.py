"""Keyflower engine speed (``python -m game bench --only keyflower``).

* ``random_games_per_s`` — complete random 4-player games per second on one core: the plain
  loop ``legal_actions`` + a uniform choice from a seeded ``Rng`` + ``apply`` (with its
  validation), from ``GAME.new`` to the final scores (best assignment included), random setup
  per seed; the first seat of ``to_move()`` acts in simultaneous phases.
* ``actions_per_game`` — mean number of actions in those games.
* ``legal_actions_us`` — mean µs per ``legal_actions`` call on *fresh* states (nothing cached),
  sampled along random 4-player games.
* ``clone_us`` / ``determinize_us`` — mean µs per ``clone()`` / ``determinize(seat, seed)`` of
  those states.
* ``final_scoring_ms`` — the final scoring (Flipper's best free flip among every candidate
  tile, with the best assignment) of the richest end position built here: one seat owning all
  12 winter tiles, the Keyflower, Sea Bastion, Sea Breeze, Flipper and White Wind boats, the
  four summer boats, the storage tiles, every other season tile of the box, unflipped (37 flip
  candidates), the turn-order tiles, in the densest road network it can be turned into, the
  purple keyple, and a screen and village holding most of the box's keyples, skill tiles and
  resources.
* ``assignment_ms`` — the same position's best assignment alone (one ``seat_score``, no flip).

Both solve afresh each time (``scoring.forget_assignments``: the assignment search's memo would
otherwise answer the repeats).

Times are CPU time (``bench/engine.py``).
"""

from __future__ import annotations

from bench.engine import CLOCK, core_figures, core_meanings
from game.keyflower import GAME
from game.keyflower.const import OVER
from game.keyflower.scoring import final_scoring, forget_assignments, seat_score
from game.keyflower.state import KeyflowerState
from game.keyflower.tiles import BOAT, HOME, ROAD, TILES, TURN_ORDER
from game.keyflower.village import DIRS, HOME_HEX, ROT_EDGES

FIGURES: dict[str, str] = {
    **core_meanings("keyflower", "target >= 50, aim 250"),
    "keyflower.final_scoring_ms": "ms: final scoring of the richest end position "
    "(every Flipper flip tried, best assignment each)",
    "keyflower.assignment_ms": "ms: best assignment of that position (one seat_score)",
}


def spiral(count: int) -> list[int]:
    """``count`` hexes around the home hex, ring by ring."""
    out: list[int] = []
    ring = [HOME_HEX]
    seen = {HOME_HEX}
    while len(out) < count:
        nxt = []
        for h in ring:
            for d in DIRS:
                x = h + d
                if x not in seen:
                    seen.add(x)
                    nxt.append(x)
                    out.append(x)
        ring = nxt
    return out[:count]


def richest_end_position() -> KeyflowerState:
    """See the module docstring: the largest scoring problem one seat can present."""
    st = GAME.new(2, None, 1)
    # every tile of the box except the home tiles, two boats and the turn-order tiles goes to
    # seat 0 (an end position built for the measurement, not one reached by play)
    st.auction = []
    for hand in st.hands:
        hand.clear()
    st.wout = []
    wanted = [
        t.idx
        for t in TILES
        if t.kind not in (HOME, TURN_ORDER)
        and (
            t.kind != BOAT
            or t.id in {"keyflower", "sea_bastion", "sea_breeze", "flipper", "white_wind"}
        )
    ]
    # tiles with most roads in the middle, each turned to join as many roads as it can: the
    # densest road network (the most closed loops for Sea Bastion's search)
    wanted += list(st.tord)
    wanted.sort(key=lambda t: -TILES[t].edges.count(ROAD))
    hexes = spiral(len(wanted))
    placed: dict[int, int] = {HOME_HEX: st.home[0]}
    for i, t in enumerate(wanted):
        st.where[t] = -1
        st.holder[t] = -1
        st.hexof[t] = -1
        tile = TILES[t]
        if tile.kind == BOAT:
            st.side[t] = 1
        elif tile.kind != TURN_ORDER:
            st.side[t] = 0  # every tile unflipped: Flipper has the most candidates
        h = hexes[i]
        best, rot = -1, 0
        for r in range(6):
            joined = sum(
                1
                for p in range(6)
                if (o := placed.get(h + DIRS[p])) is not None
                and ROT_EDGES[t][r][p] == ROAD
                and ROT_EDGES[o][st.rot[o]][(p + 3) % 6] == ROAD
            )
            if joined > best:
                best, rot = joined, r
        placed[h] = t
        st.put_tile(0, t, h, rot)
    from game.keyflower.state import village_flags

    st.flags[0] = village_flags(st, 0)
    # most of the box's keyples, skills and resources to seat 0
    for c in range(3):
        st.keys[0][c] += st.bag[c]
        st.bag[c] = 0
    st.keys[0][3] += st.green
    st.kknown[0][3] = st.keys[0][3]
    st.green = 0
    for k in range(3):
        st.skills[0][k] += st.sksup[k]
        st.sksup[k] = 0
    order = st.vorder[0]
    for k in range(4):
        for i in range(st.ressup[k]):
            t = order[(i * 7 + k) % len(order)]
            st.res[t * 4 + k] += 1
        st.ressup[k] = 0
    st.purple = 0
    st.season = 3
    st.phase = OVER
    st._final = None
    return st


def run(quick: bool) -> dict[str, float]:
    figures = core_figures("keyflower", GAME, quick, games=(20, 300), sample=(2, 10))
    rich = richest_end_position()
    best_final = best_assign = float("inf")
    for _ in range(1 if quick else 5):
        forget_assignments()  # each timing solves afresh (the solver's memo would answer)
        started = CLOCK()
        final_scoring(rich)
        best_final = min(best_final, CLOCK() - started)
        forget_assignments()
        started = CLOCK()
        seat_score(rich, 0)
        best_assign = min(best_assign, CLOCK() - started)
    figures["keyflower.final_scoring_ms"] = round(best_final * 1000, 3)
    figures["keyflower.assignment_ms"] = round(best_assign * 1000, 3)
    return figures
