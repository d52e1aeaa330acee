"""Saving and loading a Kingdom Builder state as a plain dict (format 2; format 1 still loads).

``to_dict`` writes only the facts; ``from_dict`` rebuilds every derived table (free hexes,
adjacency counts, frontiers) from them and checks that the facts are consistent with the rules
(piece counts, card conservation, tiles only held next to their hex, a decision to make).
Anything malformed raises :class:`~game.core.types.BadState` with a message naming the field;
corrupt input never escapes as another exception.

Format 2::

    {"format": 2, "game": "kingdom-builder", "players": n,
     "sections": [4 names TL, TR, BL, BR], "rotations": [4 bools],
     "nomads": "off" | "boards" | "full",
     "cards": [3 names], "start_seat": s, "current": s, "round": k,
     "terrain": "G" | null (current card; null once over), "placed": 0..3,
     "mandatory_done": bool, "mandatory_hexes": [[r, c], ...] (this turn's, while it runs),
     "outpost": n (builds left this turn that ignore adjacency),
     "pending": null | {"hex": [r, c] (location or nomad hex),
                        "step": "target"|"source"|"wall"|"second_wall"|"victim",
                        "from": [r, c] | null,
                        "left": n (Donation settlements / Resettlement steps left, else 0),
                        "hit": [seats a Sword already took a settlement from]},
     "end_triggered": bool, "over": bool,
     "settlements": [[[r, c], ...] per seat], "supply": [n per seat],
     "walls": [[r, c], ...], "walls_left": n,
     "location_tiles": [[lr, lc, tiles left], ...],
     "tiles": [[[lr, lc, "ready"|"used"|"pending"], ...] per seat],
     "taken_from": [[[lr, lc], ...] per seat],
     "nomad_tiles": [[nr, nc, tile id], ...] (still on their nomad hexes, face up),
     "nomad_held": [[[nr, nc, tile id, "ready"|"used"|"pending"], ...] per seat],
     "deck": ["G", ...] (the last item is the top card), "discard": [...],
     "hands": ["G" | null per seat],
     "gold": [{"Ambassadors": n, "Families": n, "Shepherds": n, "Treasure": n} per seat],
     "rng": int}

Format 1 (rules version 1) had ``nomads`` as a bool (``true`` = the Nomads boards), a pending
action without ``left``/``hit``, no nomad tiles, outpost or mandatory hexes, and ``gold`` as one
number per seat (always 0); it is read as the same position.
"""

from __future__ import annotations

from typing import Any

from game.core.rng import Rng
from game.core.types import BadState
from game.kingdom_builder import nomads as nm
from game.kingdom_builder.board import (
    ALL_SECTIONS,
    FOREST,
    MOUNTAIN,
    NOMADS_SECTIONS,
    SIZE,
    STONE_WALLS,
    TERRAIN_CODES,
    TILES_PER_LOCATION_HEX,
    WATER,
    board_for,
)
from game.kingdom_builder.codes import (
    BUILD_TILES,
    CARDS_PER_TERRAIN,
    EMPTY,
    GAME_ID,
    MOVE_TILES,
    NEW,
    SETTLEMENTS,
    SOURCE,
    STEPS,
    TARGET,
    TILE_STATES,
    USED,
    VICTIM,
    WALL1,
    WALL2,
    WALL_TILES,
    pos,
)
from game.kingdom_builder.scoring import ALL_CARDS, CARDS
from game.kingdom_builder.state import KingdomBuilderState

FORMAT = 2
MAX_PLAYERS = 5


def to_dict(st: KingdomBuilderState) -> dict[str, Any]:
    """The whole state as plain values (lists, str keys), canonical: equal states give equal
    dicts."""
    b = st.board
    pending = None
    if st.pending is not None:
        loc, step, frm, count = st.pending
        pending = {
            "hex": pos(loc),
            "step": step,
            "from": pos(frm) if frm >= 0 else None,
            "left": 0 if step == VICTIM else count,
            "hit": [q for q in range(st.n) if count >> q & 1] if step == VICTIM else [],
        }
    return {
        "format": FORMAT,
        "game": GAME_ID,
        "players": st.n,
        "sections": list(b.names),
        "rotations": list(b.rotations),
        "nomads": st.nomads,
        "cards": list(st.cards),
        "start_seat": st.start,
        "current": st.cur,
        "round": st.round,
        "terrain": TERRAIN_CODES[st.terrain] if st.terrain >= 0 else None,
        "placed": st.placed,
        "mandatory_done": st.mand_done,
        "mandatory_hexes": [pos(h) for h in st.mand_hexes],
        "outpost": st.outpost,
        "pending": pending,
        "end_triggered": st.end_triggered,
        "over": st.over,
        "settlements": [[pos(h) for h in sorted(home)] for home in st.homes],
        "supply": list(st.supply),
        "walls": [pos(h) for h in sorted(st.walls)],
        "walls_left": st.walls_left,
        "location_tiles": [[*pos(loc), st.left[loc]] for loc in b.locations],
        "tiles": [
            [[*pos(loc), TILE_STATES[state]] for loc, state in sorted(held.items())]
            for held in st.tiles
        ],
        "taken_from": [[pos(loc) for loc in sorted(t)] for t in st.taken],
        "nomad_tiles": [[*pos(h), st.nkind[h]] for h in sorted(st.nomad_left)],
        "nomad_held": [
            [[*pos(h), st.nkind[h], TILE_STATES[state]] for h, state in sorted(held.items())]
            for held in st.nheld
        ],
        "deck": [TERRAIN_CODES[t] for t in st.deck],
        "discard": [TERRAIN_CODES[t] for t in st.discard],
        "hands": [TERRAIN_CODES[t] if t >= 0 else None for t in st.hands],
        "gold": [dict(zip(nm.GOLD_SOURCES, g, strict=True)) for g in st.gold],
        "rng": st.rng.state,
    }


# ---- reading -------------------------------------------------------------------------------
def _get(data: dict[str, Any], key: str) -> Any:
    if key not in data:
        raise BadState(f"Kingdom Builder state is missing the field {key!r}")
    return data[key]


def _int(data: dict[str, Any], key: str, lo: int, hi: int) -> int:
    v = _get(data, key)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise BadState(f"field {key!r} should be an integer in {lo}..{hi}, got {v!r}")
    return v


def _bool(data: dict[str, Any], key: str) -> bool:
    v = _get(data, key)
    if not isinstance(v, bool):
        raise BadState(f"field {key!r} should be true or false, got {v!r}")
    return v


def _list(v: Any, what: str, length: int | None = None) -> list[Any]:
    if not isinstance(v, list):
        raise BadState(f"{what} should be a list, got {type(v).__name__}")
    if length is not None and len(v) != length:
        raise BadState(f"{what} should have {length} items, has {len(v)}")
    return v


def _hex(v: Any, what: str) -> int:
    if (
        not isinstance(v, list)
        or len(v) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in v)
        or not all(0 <= x < SIZE for x in v)
    ):
        raise BadState(f"{what} should be a hex [row, col] with row and col in 0..19, got {v!r}")
    return int(v[0]) * SIZE + int(v[1])


def _terrain_card(v: Any, what: str) -> int:
    if not isinstance(v, str) or len(v) != 1 or v not in TERRAIN_CODES[:5]:
        raise BadState(f"{what} should be a terrain card G, C, D, F or T, got {v!r}")
    return TERRAIN_CODES.index(v)


def from_dict(data: Any) -> KingdomBuilderState:
    """Rebuild a state from :func:`to_dict`'s output, checking it thoroughly (BadState)."""
    try:
        return _from_dict(data)
    except BadState:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise BadState(f"Kingdom Builder state is malformed: {exc!r}") from None


def _mode(data: dict[str, Any], fmt: int) -> str:
    v = _get(data, "nomads")
    if fmt == 1:
        if not isinstance(v, bool):
            raise BadState(f"field 'nomads' should be true or false, got {v!r}")
        return nm.BOARDS if v else nm.OFF
    if v not in nm.MODES:
        raise BadState(f"field 'nomads' should be one of {', '.join(nm.MODES)}, got {v!r}")
    return str(v)


def _state_name(v: Any, what: str) -> int:
    if v not in TILE_STATES:
        raise BadState(f"{what} state should be one of {TILE_STATES}, got {v!r}")
    return TILE_STATES.index(v)


def _from_dict(data: Any) -> KingdomBuilderState:
    if not isinstance(data, dict):
        raise BadState("a Kingdom Builder state is a dict")
    if data.get("game") != GAME_ID:
        raise BadState(f"not a Kingdom Builder state (game {data.get('game')!r})")
    fmt = data.get("format")
    if fmt not in (1, FORMAT):
        raise BadState(f"unsupported Kingdom Builder state format {fmt!r}")
    n = _int(data, "players", 2, MAX_PLAYERS)
    nomads = _mode(data, fmt)
    if n > 4 and nomads == nm.OFF:
        raise BadState("a 5-player game needs the Nomads expansion")
    names = _list(_get(data, "sections"), "sections", 4)
    if not all(isinstance(x, str) and x in ALL_SECTIONS for x in names) or len(set(names)) != 4:
        raise BadState(f"sections should be 4 different section names, got {names!r}")
    if nomads == nm.OFF and any(x in NOMADS_SECTIONS for x in names):
        raise BadState("a Nomads section is in play but nomads is off")
    rotations = _list(_get(data, "rotations"), "rotations", 4)
    if not all(isinstance(x, bool) for x in rotations):
        raise BadState("rotations should be 4 true/false values")
    cards = _list(_get(data, "cards"), "cards", 3)
    pool = ALL_CARDS if nomads == nm.FULL else CARDS
    if not all(isinstance(x, str) and x in pool for x in cards) or len(set(cards)) != 3:
        raise BadState(
            f"cards should be 3 different Kingdom Builder cards of this game, got {cards!r}"
        )
    board = board_for(tuple(names), tuple(rotations))
    start = _int(data, "start_seat", 0, n - 1)
    rng_state = _int(data, "rng", 0, (1 << 64) - 1)
    st = KingdomBuilderState.empty(board, n, tuple(cards), nomads, start, Rng(rng_state))
    st.cur = _int(data, "current", 0, n - 1)
    st.round = _int(data, "round", 1, 10_000)
    st.placed = _int(data, "placed", 0, 3)
    st.mand_done = _bool(data, "mandatory_done")
    st.end_triggered = _bool(data, "end_triggered")
    st.over = _bool(data, "over")

    # settlements and walls
    homes = _list(_get(data, "settlements"), "settlements", n)
    supply = _list(_get(data, "supply"), "supply", n)
    terrain = board.terrain
    for s in range(n):
        for item in _list(homes[s], f"settlements of seat {s}"):
            h = _hex(item, f"a settlement of seat {s}")
            t = terrain[h]
            if not (t <= FOREST or t == WATER or (t == MOUNTAIN and nomads == nm.FULL)):
                raise BadState(f"seat {s} has a settlement on {TERRAIN_CODES[t]} hex {item}")
            if st.owner[h] != EMPTY:
                raise BadState(f"two settlements on hex {item}")
            st._put(s, h)
        v = supply[s]
        if (
            not isinstance(v, int)
            or isinstance(v, bool)
            or v < 0
            or v + len(st.homes[s]) != SETTLEMENTS
        ):
            raise BadState(
                f"seat {s}: supply {v!r} plus {len(st.homes[s])} on the map is not {SETTLEMENTS}"
            )
        st.supply[s] = v
    if any(v == 0 for v in st.supply) and not st.end_triggered:
        raise BadState("a seat has placed all its settlements but the end is not triggered")
    walls = _list(_get(data, "walls"), "walls")
    st.walls_left = _int(data, "walls_left", 0, STONE_WALLS)
    for item in walls:
        h = _hex(item, "a wall")
        if terrain[h] > FOREST or st.owner[h] != EMPTY:
            raise BadState(f"a stone wall on hex {item}, which is not an empty buildable hex")
        st._put_wall(h)
    if board.has_quarry:
        if st.walls_left + len(st.walls) != STONE_WALLS:
            raise BadState(f"{len(st.walls)} walls on the map and {st.walls_left} left is not 25")
    elif st.walls or st.walls_left:
        raise BadState("stone walls without the Quarry section")

    _location_tiles(data, st)
    if fmt == FORMAT:
        _nomad_tiles(data, st)
    for s in range(n):
        if (s != st.cur or st.over) and any(
            v in (USED, NEW) for held in (st.tiles[s], st.nheld[s]) for v in held.values()
        ):
            raise BadState(f"seat {s} has used or new tiles outside its turn")

    # terrain cards (KB §3.4: 5 of each of the 5 terrains)
    st.deck = [_terrain_card(v, "a deck card") for v in _list(_get(data, "deck"), "deck")]
    st.discard = [
        _terrain_card(v, "a discarded card") for v in _list(_get(data, "discard"), "discard")
    ]
    hands = _list(_get(data, "hands"), "hands", n)
    st.hands = [-1 if v is None else _terrain_card(v, "a hand card") for v in hands]
    every = st.deck + st.discard + [t for t in st.hands if t >= 0]
    if any(every.count(t) != CARDS_PER_TERRAIN for t in range(5)):
        raise BadState("the terrain cards (deck, discard, hands) are not 5 of each terrain")
    missing = [s for s in range(n) if st.hands[s] < 0]
    if st.over:
        if missing != [st.cur]:
            raise BadState("at the end exactly the last player has discarded without drawing")
    elif missing:
        raise BadState(f"seat {missing[0]} holds no terrain card")
    _gold(data, st, fmt)

    # the turn
    card = _get(data, "terrain")
    if st.over:
        if card is not None or _get(data, "pending") is not None:
            raise BadState("a finished game has no current terrain card")
        if not st.end_triggered:
            raise BadState("the game is over but its end was never triggered")
        if (st.cur + 1) % n != st.start:
            raise BadState("a game ends after the seat before the start seat")
        st.terrain = -1
    else:
        st.terrain = _terrain_card(card, "terrain")
        if st.terrain != st.hands[st.cur]:
            raise BadState("terrain is not the current seat's card")
    if st.placed == 3 and not st.mand_done:
        raise BadState("3 settlements placed but the mandatory action is not done")
    _turn_details(data, st, fmt)
    _pending(data, st, fmt)
    if st.placed and not st.mand_done and st.pending is not None:
        raise BadState("a tile action in the middle of the mandatory placements (KB §4.3)")
    if not st.over and not st.legal_actions(st.cur):
        raise BadState("the current seat has no legal action in this state")
    return st


def _location_tiles(data: dict[str, Any], st: KingdomBuilderState) -> None:
    """KB §6: tiles left per location hex, the tiles each seat holds and the hexes it took
    from; a tile is held only next to its hex, and a seat next to a hex with tiles took one."""
    board, n = st.board, st.n
    left = _list(_get(data, "location_tiles"), "location_tiles", len(board.locations))
    for item, loc in zip(left, board.locations, strict=True):
        item = _list(item, "a location_tiles entry", 3)
        if _hex(item[:2], "a location hex") != loc:
            raise BadState(f"location_tiles entry {item} does not match the board's locations")
        count = item[2]
        if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= 2:
            raise BadState(f"location hex {item[:2]} should have 0..2 tiles, has {count!r}")
        st.left[loc] = count
    taken_all = _list(_get(data, "taken_from"), "taken_from", n)
    tiles_all = _list(_get(data, "tiles"), "tiles", n)
    for s in range(n):
        for item in _list(taken_all[s], f"taken_from of seat {s}"):
            loc = _hex(item, "a taken_from hex")
            if loc not in board.location_type or loc in st.taken[s]:
                raise BadState(f"seat {s} taken_from {item} is not a (new) location hex")
            st.taken[s].add(loc)
        for item in _list(tiles_all[s], f"tiles of seat {s}"):
            item = _list(item, "a tile", 3)
            loc = _hex(item[:2], "a tile's location hex")
            if loc not in board.location_type or loc in st.tiles[s]:
                raise BadState(f"seat {s} holds a tile from {item[:2]}, not a (new) location hex")
            state = _state_name(item[2], "tile")
            if loc not in st.taken[s]:
                raise BadState(f"seat {s} holds a tile from {item[:2]} without having taken it")
            if st.adj[s][loc] == 0:
                raise BadState(
                    f"seat {s} holds a tile from {item[:2]} but no settlement touches it (KB §6.2)"
                )
            st.tiles[s][loc] = state
    for loc in board.locations:
        takers = sum(1 for s in range(n) if loc in st.taken[s])
        if st.left[loc] + takers != TILES_PER_LOCATION_HEX:
            raise BadState(
                f"location hex {pos(loc)}: {st.left[loc]} tiles left and {takers} taken is not 2"
            )
        if st.left[loc]:
            for s in range(n):
                if st.adj[s][loc] and loc not in st.taken[s]:
                    raise BadState(
                        f"seat {s} has a settlement next to location hex {pos(loc)}, which "
                        f"still has {st.left[loc]} tile(s), but never took one (KB §6.1: "
                        "building or moving next to it takes a tile at once)"
                    )


def _nomad_tile_id(v: Any, what: str) -> str:
    if not isinstance(v, str) or v not in nm.TILE_IDS:
        raise BadState(f"{what} should be a nomad tile ({', '.join(nm.TILE_IDS)}), got {v!r}")
    return v


def _nomad_tiles(data: dict[str, Any], st: KingdomBuilderState) -> None:
    """KB §3.3, §7: the nomad tiles still on their hexes and those the seats hold.  Only with
    full Nomads; each nomad hex had one tile, so its tile is on the hex or held by one seat (or
    gone); the tiles are drawn from the box's 15 (no id more often than the mix); a seat next
    to a nomad hex took its tile (the first to come takes it), so a tile still on its hex
    touches no settlement."""
    board, n = st.board, st.n
    on_map = _list(_get(data, "nomad_tiles"), "nomad_tiles")
    held_all = _list(_get(data, "nomad_held"), "nomad_held", n)
    if (on_map or any(held_all)) and not st.nomad_tiles:
        raise BadState("nomad tiles need the full Nomads expansion and a map with nomad hexes")
    seen: list[str] = []

    def claim(item: list[Any], what: str) -> tuple[int, str]:
        h = _hex(item[:2], f"{what}'s nomad hex")
        if h not in board.nomads:
            raise BadState(f"{what} at {item[:2]} is not on a nomad hex")
        if h in st.nkind:
            raise BadState(f"two nomad tiles from the nomad hex {item[:2]}")
        tid = _nomad_tile_id(item[2], what)
        st.nkind[h] = tid
        seen.append(tid)
        return h, tid

    for item in on_map:
        h, _ = claim(_list(item, "a nomad_tiles entry", 3), "a nomad tile")
        st.nomad_left.add(h)
        for s in range(n):
            if st.adj[s][h]:
                raise BadState(
                    f"seat {s} has a settlement next to the nomad hex {pos(h)}, whose tile is "
                    "still there (KB §7: the first settlement next to it takes it)"
                )
    for s in range(n):
        for item in _list(held_all[s], f"nomad_held of seat {s}"):
            item = _list(item, "a held nomad tile", 4)
            h, _ = claim(item, f"seat {s}'s nomad tile")
            st.nheld[s][h] = _state_name(item[3], "nomad tile")
    for tid in set(seen):
        if seen.count(tid) > nm.MIX[tid]:
            raise BadState(f"{seen.count(tid)} {tid} tiles; the box holds {nm.MIX[tid]}")


def _gold(data: dict[str, Any], st: KingdomBuilderState, fmt: int) -> None:
    """In-play gold per seat and source (KB §9.3): only from sources of this game."""
    gold = _list(_get(data, "gold"), "gold", st.n)
    if fmt == 1:
        if any(g != 0 for g in gold):
            raise BadState("format 1 has no in-play gold (gold should be 0 for every seat)")
        return
    for s, row in enumerate(gold):
        if not isinstance(row, dict) or set(row) != set(nm.GOLD_SOURCES):
            raise BadState(f"gold of seat {s} should map {', '.join(nm.GOLD_SOURCES)} to gold")
        for i, source in enumerate(nm.GOLD_SOURCES):
            g = row[source]
            if not isinstance(g, int) or isinstance(g, bool) or not 0 <= g <= 10_000:
                raise BadState(f"gold of seat {s} from {source} should be 0..10000, got {g!r}")
            playing = source in st.cards if source != "Treasure" else st.nomad_tiles
            if g and not playing:
                raise BadState(f"seat {s} has gold from {source}, which is not in this game")
            st.gold[s][i] = g


def _turn_details(data: dict[str, Any], st: KingdomBuilderState, fmt: int) -> None:
    """This turn's mandatory settlements (while the action runs; Families) and Outpost."""
    if fmt == 1:
        return
    items = _list(_get(data, "mandatory_hexes"), "mandatory_hexes")
    hexes = [_hex(v, "a mandatory hex") for v in items]
    running = st.placed > 0 and not st.mand_done and not st.over
    if len(hexes) != (st.placed if running else 0) or len(set(hexes)) != len(hexes):
        raise BadState(
            "mandatory_hexes should list this turn's mandatory settlements while the action runs"
        )
    if any(st.owner[h] != st.cur for h in hexes):
        raise BadState("a mandatory hex does not hold a settlement of the current seat")
    st.mand_hexes = hexes
    st.outpost = _int(data, "outpost", 0, 2 * nm.OUTPOST_BUILDS)
    if st.outpost and (st.over or USED not in st.nheld[st.cur].values()):
        raise BadState("an Outpost is armed but the current seat used no nomad tile")


def _pending(data: dict[str, Any], st: KingdomBuilderState, fmt: int) -> None:
    """The tile action in progress: it must be one the current seat is using, at a step
    that fits the tile."""
    pending = _get(data, "pending")
    if pending is None:
        return
    if st.over or not isinstance(pending, dict):
        raise BadState("pending should be null or a dict while the game runs")
    loc = _hex(_get(pending, "hex"), "pending hex")
    step = _get(pending, "step")
    if step not in STEPS:
        raise BadState(f"pending step should be one of {', '.join(STEPS)}, got {step!r}")
    frm_raw = _get(pending, "from")
    frm = -1 if frm_raw is None else _hex(frm_raw, "pending from")
    left = 0 if fmt == 1 else _int(pending, "left", 0, 10)
    hit_raw = [] if fmt == 1 else _list(_get(pending, "hit"), "pending hit")
    hit = 0
    for q in hit_raw:
        if not isinstance(q, int) or isinstance(q, bool) or not 0 <= q < st.n or q == st.cur:
            raise BadState(f"pending hit should list other seats, got {hit_raw!r}")
        hit |= 1 << q
    s = st.cur
    kind = st.board.location_type.get(loc)
    if kind is not None:
        using = st.tiles[s].get(loc) == USED
    elif loc in st.nheld[s]:
        kind = nm.TILE_TYPE[st.nkind[loc]]
        using = st.nheld[s][loc] == USED
    else:
        using = False
    if kind is None or not using:
        raise BadState("pending names a tile the current seat is not using")
    moving = step == TARGET and frm >= 0 and st.owner[frm] == s
    if kind in MOVE_TILES:
        ok = (step == SOURCE and frm < 0) or moving
        ok = ok and left == 0 and not hit
    elif kind in WALL_TILES:
        ok = step in (WALL1, WALL2) and frm < 0 and left == 0 and not hit
    elif kind in BUILD_TILES:
        ok = step == TARGET and frm < 0 and left == 0 and not hit
    elif kind == "Donation":
        ok = step == TARGET and frm < 0 and 1 <= left <= nm.DONATION_SETTLEMENTS and not hit
    elif kind == "Resettlement":
        ok = (step == SOURCE and frm < 0) or moving
        ok = ok and 1 <= left <= nm.RESETTLEMENT_STEPS and not hit
    elif kind == "Sword":
        ok = step == VICTIM and frm < 0 and left == 0
    else:  # Treasure and Outpost act at once
        ok = False
    if not ok:
        raise BadState(f"pending step {step!r} (from {frm_raw!r}) does not fit {kind}")
    st.pending = (loc, step, frm, hit if kind == "Sword" else left)
