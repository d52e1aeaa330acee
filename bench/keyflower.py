"""Keyflower engine speed (``python -m game bench --only keyflower``).

* ``random_games_per_s`` — complete random 4-player games per second on one core: the plain
  loop ``legal_actions`` + a uniform choice from a seeded ``Rng`` + ``apply`` (with its
  validation), from ``GAME.new`` to the final scores (best assignment included), random setup
  per seed; the first seat of ``to_move()`` acts in simultaneous phases.
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
"""

from __future__ import annotations

import time

from game.core.rng import Rng
from game.keyflower import GAME
from game.keyflower.const import OVER
from game.keyflower.scoring import final_scoring, seat_score
from game.keyflower.state import KeyflowerState
from game.keyflower.tiles import BOAT, HOME, ROAD, TILES, TURN_ORDER
from game.keyflower.village import DIRS, HOME_HEX, ROT_EDGES

FIGURES: dict[str, str] = {
    "keyflower.random_games_per_s": "games/s: full random 4-player games, one core "
    "(target >= 50, aim 200)",
    "keyflower.legal_actions_us": "µs per legal_actions on a fresh state (random games)",
    "keyflower.clone_us": "µs per state clone()",
    "keyflower.determinize_us": "µs per determinize(seat, seed)",
    "keyflower.final_scoring_ms": "ms: final scoring of the richest end position "
    "(every Flipper flip tried, best assignment each)",
    "keyflower.assignment_ms": "ms: best assignment of that position (one seat_score)",
}


def random_game(seed: int, players: int = 4) -> int:
    """Play one random game to the end; return the number of actions."""
    state = GAME.new(players, None, seed)
    rng = Rng(seed)
    steps = 0
    while not state.is_over():
        seat = state.to_move()[0]
        actions = state.legal_actions(seat)
        state.apply(seat, actions[rng.randbelow(len(actions))])
        steps += 1
    state.scores()
    return steps


def sample_states(games: int, seed: int = 1) -> list[KeyflowerState]:
    """Fresh copies of every state along some random 4-player games."""
    out: list[KeyflowerState] = []
    for g in range(games):
        state = GAME.new(4, None, seed + g)
        rng = Rng(seed + g)
        while not state.is_over():
            out.append(state.clone())
            seat = state.to_move()[0]
            actions = state.legal_actions(seat)
            state.apply(seat, actions[rng.randbelow(len(actions))])
    return out


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


def _per_call_us(fn: object, items: list[KeyflowerState], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        fn(items)  # type: ignore[operator]
        best = min(best, time.perf_counter() - started)
    return best / len(items) * 1e6


def _legal_us(items: list[KeyflowerState], repeat: int) -> float:
    best = float("inf")
    clock = time.perf_counter
    for _ in range(repeat):
        total = 0.0
        for st in items:
            fresh = st.clone()
            seat = fresh.to_move()[0]
            started = clock()
            fresh.legal_actions(seat)
            total += clock() - started
        best = min(best, total)
    return best / len(items) * 1e6


def run(quick: bool) -> dict[str, float]:
    games = 20 if quick else 300
    random_game(0)  # warm the code paths
    started = time.perf_counter()
    for seed in range(1, games + 1):
        random_game(seed)
    per_s = games / (time.perf_counter() - started)

    states = [s for s in sample_states(2 if quick else 10) if not s.is_over()]

    def clones(items: list[KeyflowerState]) -> None:
        for st in items:
            st.clone()

    def dets(items: list[KeyflowerState]) -> None:
        for i, st in enumerate(items):
            st.determinize(st.to_move()[0], i)

    repeat = 1 if quick else 3
    rich = richest_end_position()
    best_final = best_assign = float("inf")
    for _ in range(1 if quick else 5):
        started = time.perf_counter()
        final_scoring(rich)
        best_final = min(best_final, time.perf_counter() - started)
        started = time.perf_counter()
        seat_score(rich, 0)
        best_assign = min(best_assign, time.perf_counter() - started)
    return {
        "keyflower.random_games_per_s": round(per_s, 1),
        "keyflower.legal_actions_us": round(_legal_us(states, repeat), 2),
        "keyflower.clone_us": round(_per_call_us(clones, states, repeat), 2),
        "keyflower.determinize_us": round(_per_call_us(dets, states, repeat), 2),
        "keyflower.final_scoring_ms": round(best_final * 1000, 3),
        "keyflower.assignment_ms": round(best_assign * 1000, 3),
    }
