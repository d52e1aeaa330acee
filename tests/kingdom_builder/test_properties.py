"""Property tests: random playouts checked after every action.

Two independent checks run after each action:

* :func:`check_invariants` — the facts of the state agree with each other and with the rules
  (one piece per hex, 40 settlements per seat, tile ownership consistent with adjacency, nomad
  tiles taken by the first seat next to their hex and never more than the box holds, in-play
  gold only from sources in play and banked in the scores, 5 terrain cards of each kind, the
  incremental tables equal to a recomputation, a legal action exists until the end, saves
  round-trip);
* :func:`reference_legal` — a slow, direct reading of the rules (KB §4–§7) computed from the
  map alone, compared with the engine's incremental ``legal_actions``.

The default run plays a few dozen games (plain seed loops and hypothesis); thousands of games
run with ``pytest -m slow``.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from game.core.rng import Rng
from game.core.types import IllegalAction
from game.core.wire import packb, unpackb
from game.kingdom_builder import GAME
from game.kingdom_builder import nomads as nm
from game.kingdom_builder.board import (
    DESERT,
    EDGE,
    FLOWER,
    GRASS,
    JUMP,
    MOUNTAIN,
    NBRS,
    STEP,
    WATER,
)
from game.kingdom_builder.codes import NEW, READY, USED
from game.kingdom_builder.state import KingdomBuilderState


def check_invariants(st: KingdomBuilderState, roundtrip: bool = False) -> None:
    b = st.board
    n = st.players
    # pieces: one per hex, owner table matches the settlement sets and walls
    seen: dict[int, int] = {}
    for s in range(n):
        for h in st.homes[s]:
            assert h not in seen, f"two pieces on {divmod(h, 20)}"
            seen[h] = s
            on_mountain = b.terrain[h] == MOUNTAIN and st.nomads == nm.FULL
            assert b.buildable[h] or b.terrain[h] == WATER or on_mountain, "settlement off-map"
    for h in st.walls:
        assert h not in seen and b.buildable[h]
        seen[h] = -2
    for h in range(400):
        assert st.owner[h] == seen.get(h, -1)
    # settlement counts (KB §1.1: 40 each)
    for s in range(n):
        assert 0 <= st.supply[s] == 40 - len(st.homes[s])
    if any(v == 0 for v in st.supply):
        assert st.end_triggered
    # incremental tables equal a recomputation
    for t in range(7):
        assert st.free[t] == {h for h in range(400) if b.terrain[h] == t and h not in seen}
    for s in range(n):
        adj = [sum(1 for x in NBRS[h] if x in st.homes[s]) for h in range(400)]
        assert list(st.adj[s]) == adj
        assert st.front[s] == {h for h in range(400) if adj[h] and h not in seen and b.openable[h]}
        # the frozen copies the bots' memos read are made again whenever a set changes
        assert st.frozen_home(s) == st.homes[s] and st.frozen_front(s) == st.front[s]
    # location tiles (KB §6): held only while touched; gaining is automatic
    for loc in b.locations:
        takers = sum(1 for s in range(n) if loc in st.taken[s])
        assert st.left[loc] + takers == 2
        for s in range(n):
            if st.adj[s][loc] and loc not in st.taken[s]:
                assert st.left[loc] == 0, "a seat touches a location with tiles but took none"
    for s in range(n):
        for loc, state in st.tiles[s].items():
            assert loc in st.taken[s] and st.adj[s][loc] > 0
            if s != st.cur or st.over:
                assert state == READY
            else:
                assert state in (READY, USED, NEW)
    # nomad tiles (KB §7): on their hex until the first seat comes next to it, then held until
    # the end of that seat's next turn; no more of a kind than the box holds
    assert set(st.nkind) == st.nomad_left | {h for held in st.nheld for h in held}
    assert sum(len(held) for held in st.nheld) + len(st.nomad_left) == len(st.nkind)
    if not st.nomad_tiles:
        assert not st.nkind
    for h in st.nomad_left:
        assert h in b.nomads and all(st.adj[s][h] == 0 for s in range(n))
    kinds = Counter(st.nkind.values())
    assert all(kinds[t] <= nm.MIX[t] for t in kinds)
    for s in range(n):
        for state in st.nheld[s].values():
            if s != st.cur or st.over:
                assert state == READY
    # in-play gold (KB §9.3): only from sources in play, banked in the scores as earned
    banked = st.scores()
    for s in range(n):
        for i, source in enumerate(nm.GOLD_SOURCES):
            g = st.gold[s][i]
            playing = source in st.cards if source != "Treasure" else st.nomad_tiles
            assert g >= 0 and (playing or g == 0)
            if source in st.cards:
                assert banked[s][source] == g
        assert st.gold[s][1] % 2 == 0 and st.gold[s][2] % 2 == 0  # Families, Shepherds pay 2
    assert st.outpost == 0 or (not st.over and USED in st.nheld[st.cur].values())
    # terrain cards (KB §3.4): 5 of each, conserved
    cards = Counter(st.deck + st.discard + [t for t in st.hands if t >= 0])
    assert cards == {t: 5 for t in range(5)}
    assert sum(1 for t in st.hands if t < 0) == (1 if st.over else 0)
    # a decision exists until the end, none after
    if st.over:
        assert st.to_move() == () and all(not st.legal_actions(s) for s in range(n))
    else:
        assert st.to_move() == (st.cur,)
        assert st.legal_actions(st.cur)
        assert st.terrain == st.hands[st.cur]
        assert all(not st.legal_actions(s) for s in range(n) if s != st.cur)
    for row in st.scores():
        assert all(isinstance(v, int) and v >= 0 for v in row.values())
        assert row["total"] == sum(v for k, v in row.items() if k != "total")
    if roundtrip:
        back = GAME.from_dict(unpackb(packb(st.to_dict())))
        assert back == st and back.state_hash() == st.state_hash()


# ---- a slow, direct reading of the rules ------------------------------------------------------
def reference_legal(st: KingdomBuilderState) -> set[tuple]:
    """The legal actions of the seat to move, recomputed from the map alone (KB §4–§7)."""
    if st.over:
        return set()
    b = st.board
    s = st.cur
    owner = st.owner
    mine = {h for h in range(400) if owner[h] == s}

    def empty(h: int) -> bool:
        return owner[h] == -1

    def rule(cands: list[int], lifted: int = -1, build: bool = True) -> set[int]:
        """KB §5, with the moving settlement lifted first; an armed Outpost (KB §7) lifts the
        rule for a build."""
        if build and st.outpost:
            return set(cands)
        rest = mine - {lifted}
        near = [h for h in cands if any(x in rest for x in NBRS[h])]
        return set(near or cands)

    def of_terrain(t: int) -> list[int]:
        return [h for h in range(400) if b.terrain[h] == t and empty(h)]

    def buildable_empty(h: int) -> bool:
        return h >= 0 and empty(h) and b.buildable[h]

    def tavern() -> set[int]:
        out = set()
        for h in mine:
            for d in range(6):
                h1 = STEP[d][h]
                h2 = STEP[d][h1] if h1 >= 0 else -1
                h3 = STEP[d][h2] if h2 >= 0 else -1
                if h1 in mine and h2 in mine and buildable_empty(h3):
                    out.add(h3)
        return out

    def build_targets(kind: str) -> set[int]:
        if st.supply[s] == 0:
            return set()
        if kind in ("Oracle", "Farm", "Oasis", "Garden"):
            t = {"Oracle": st.terrain, "Farm": GRASS, "Oasis": DESERT, "Garden": FLOWER}[kind]
            return rule(of_terrain(t))
        if kind == "Tower":
            return rule([h for h in EDGE if buildable_empty(h)])
        if kind == "Tavern":
            return tavern()
        return {
            h
            for h in range(400)
            if buildable_empty(h) and sum(1 for x in NBRS[h] if x in mine) >= 3
        }

    def move_targets(kind: str, frm: int) -> set[int]:
        if kind == "Barn":
            return rule(of_terrain(st.terrain), frm, False) if of_terrain(st.terrain) else set()
        if kind == "Harbor":
            return rule(of_terrain(WATER), frm, False) if of_terrain(WATER) else set()
        if kind == "Paddock":
            return {JUMP[d][frm] for d in range(6) if buildable_empty(JUMP[d][frm])}
        if kind == "Resettlement":
            return {x for x in NBRS[frm] if buildable_empty(x)}
        out = set()
        for d in range(6):
            h = frm
            while buildable_empty(STEP[d][h]):
                h = STEP[d][h]
            if h != frm:
                out.add(h)
        return out

    def wall_targets() -> set[int]:
        if st.walls_left == 0:
            return set()
        return {h for h in of_terrain(st.terrain) if any(x in mine for x in NBRS[h])}

    def donation_targets(nh: int) -> set[int]:
        if st.supply[s] == 0:
            return set()
        return rule(of_terrain(nm.TILE_TERRAIN[st.nkind[nh]]))

    def usable(loc: int) -> bool:
        kind = b.location_type[loc]
        if kind in ("Barn", "Harbor", "Paddock", "Caravan"):
            return any(move_targets(kind, h) for h in mine)
        if kind == "Quarry":
            return bool(wall_targets())
        return bool(build_targets(kind))

    def nomad_usable(nh: int) -> bool:
        """KB §7 nomad tiles, read directly: each tile with something to do."""
        kind = nm.TILE_TYPE[st.nkind[nh]]
        if kind == "Donation":
            return bool(donation_targets(nh))
        if kind == "Sword":
            return any(owner[h] not in (-1, -2, s) for h in range(400))
        if kind == "Resettlement":
            return any(move_targets(kind, h) for h in mine)
        if kind == "Outpost":  # a build of this turn may still come
            if st.supply[s] == 0:
                return False
            if not st.mand_done and of_terrain(st.terrain):
                return True
            builds = [
                loc
                for loc, state in st.tiles[s].items()
                if state == READY and b.location_type[loc] in BUILDS and usable(loc)
            ]
            donations = [
                x
                for x, state in st.nheld[s].items()
                if x != nh and state == READY and nm.TILE_TYPE[st.nkind[x]] == "Donation"
            ]
            return bool(builds or any(donation_targets(x) for x in donations))
        return True  # Treasure

    def rc(kind: str, h: int) -> tuple:
        return (kind, h // 20, h % 20)

    if st.pending is not None:
        loc, step, frm, count = st.pending
        kind = st.tile_kind(loc)
        if step == "source":
            out = {rc("move_from", h) for h in mine if move_targets(kind, h)}
            if kind == "Resettlement" and count < 4:
                out.add(("stop",))
            return out
        if step == "target":
            if frm >= 0:
                targets = move_targets(kind, frm)
            elif kind == "Donation":
                targets = donation_targets(loc)
            else:
                targets = build_targets(kind)
            return {rc("place", h) for h in targets}
        if step == "victim":
            return {
                rc("remove", h)
                for h in range(400)
                if owner[h] >= 0 and owner[h] != s and not count >> owner[h] & 1
            }
        out = {rc("wall", h) for h in wall_targets()}
        return out | {("stop",)} if step == "second_wall" else out
    mandatory = rule(of_terrain(st.terrain)) if st.supply[s] else set()
    ready_nomads = [nh for nh, state in st.nheld[s].items() if state == READY]
    if st.placed and not st.mand_done:
        out = {rc("place", h) for h in mandatory}
        outposts = [nh for nh in ready_nomads if nm.TILE_TYPE[st.nkind[nh]] == "Outpost"]
        return out | {rc("use", nh) for nh in outposts if nomad_usable(nh)}
    out = set()
    if not st.mand_done:
        out |= {rc("place", h) for h in mandatory}
    if st.mand_done or not mandatory:
        out.add(("end",))
    for loc, state in st.tiles[s].items():
        if state == READY and usable(loc):
            out.add(rc("use", loc))
    for nh in ready_nomads:
        if nomad_usable(nh):
            out.add(rc("use", nh))
    return out


BUILDS = ("Oracle", "Farm", "Oasis", "Tower", "Tavern", "Garden", "Village")


def _play(seed: int, players: int, options: dict, every_roundtrip: int = 25) -> int:
    st = GAME.new(players, options, seed)
    rng = Rng(seed * 7 + players)
    steps = 0
    check_invariants(st, roundtrip=True)
    while not st.is_over():
        acts = st.legal_actions(st.cur)
        assert set(acts) == reference_legal(st), f"seed {seed} step {steps}"
        assert len(set(acts)) == len(acts)
        assert all(st.is_legal(st.cur, a) for a in acts)
        kind = ("place", "use", "remove", "move_from")[rng.randbelow(4)]
        probe = (kind, rng.randbelow(20), rng.randbelow(20))
        if probe not in acts:
            assert not st.is_legal(st.cur, probe)
            err = st.explain_illegal(st.cur, probe)
            assert isinstance(err, IllegalAction) and err.rule.startswith("KB")
        before = st.clone() if steps % 7 == 0 else None
        st.apply(st.cur, acts[rng.randbelow(len(acts))])
        steps += 1
        check_invariants(st, roundtrip=steps % every_roundtrip == 0)
        if before is not None:  # a copy keeps its own pieces, frozen copies included
            check_invariants(before)
        assert steps < 2000
    check_invariants(st, roundtrip=True)
    return steps


NOMADS_BOARDS = ["Quarry", "Caravan", "Village", "Garden"]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_random_games_keep_every_invariant(seed, players):
    _play(seed, players, {"nomads": seed % 2 == 1})


def test_random_games_on_the_nomads_sections():
    for seed in range(3):
        _play(100 + seed, 3, {"nomads": True, "sections": NOMADS_BOARDS})


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", range(3))
def test_random_games_with_the_full_nomads_expansion(seed, players):
    """Full Nomads on the 4 Nomads sections (6 nomad hexes, so 6 nomad tiles), 2–5 players,
    with the Nomads cards: the same invariants and the same direct reading of the rules."""
    cards = [["Ambassadors", "Families", "Shepherds"], ["Shepherds", "Lords", "Merchants"]]
    _play(
        200 + seed,
        players,
        {"nomads": "full", "sections": NOMADS_BOARDS, "cards": cards[seed % 2]},
    )


@settings(max_examples=25)
@given(
    seed=hs.integers(0, 2**32),
    players=hs.integers(2, 5),
    nomads=hs.sampled_from([False, True, "off", "boards", "full"]),
)
def test_hypothesis_random_games(seed, players, nomads):
    if players == 5 and nomads in (False, "off"):
        nomads = "full"
    _play(seed, players, {"nomads": nomads}, every_roundtrip=60)


@pytest.mark.slow
def test_thousands_of_random_games():
    """Long fuzzing: 2,000 games over many seeds, all player counts, each expansion setting."""
    for seed in range(2000):
        mode = ("off", "boards", "full", "off")[seed % 4]
        players = 2 + seed % (4 if mode != "off" else 3)
        _play(10_000 + seed, players, {"nomads": mode}, every_roundtrip=40)
