"""Saving and loading a Glen More state as a plain dict (format 1).

``to_dict`` writes the facts; ``from_dict`` rebuilds the derived totals from them and checks
that they agree with the rules: every tile exactly once (stacks, track, taken, territories,
removed), each stack holding only its own tiles, the track's figures and its empty space,
territories whose shared edges match and hang together, at most 3 cubes per tile, and the
conservation of coins, cubes, whisky and clan members with the stock.  Anything malformed
raises :class:`~game.core.types.BadState` naming the field; corrupt input never escapes as
another exception.

Format 1 (fields in ``docs/glen-more.md``, "Saves")::

    {"format": 1, "game": "glen-more", "players": n,
     "options": {"start_seat": s, "grey_clan_members": "every_activation"|"on_placement"},
     "track": [null | {"tile": id} | {"seat": s} | {"die": true}, ... 14],
     "empty": slot, "stacks": [[id, ...] x 4] (last = top), "removed": [id, ...],
     "market": {"wood": 0..3, ...}, "bank": n, "stock": {"wood": n, ...},
     "whisky_stock": n, "clan_stock": n,
     "seats": [{"tiles": [[id, row, col, {"wood": n, ...}, clan], ...], "coins": n,
                "whisky": n, "chieftains": n, "tile_points": n, "cards": [id, ...]}],
     "rounds": [record, ...], "final": record | null, "over": bool, "turn": n,
     "current": seat | null,
     "pending": {"phase": ..., "taken": id|null, "placed": [r, c]|null, "todo": [[r, c]],
                 "first": [r, c]|null, "loch_ness_used": bool, "points": n,
                 "need": {"wood": n, ...}, "need_any": n, "need_clan": n,
                 "pay_for": "tile"|"effect", "reward_vp": n, "reward_whisky": n,
                 "effect_tile": [r, c]|null, "resource_queue": [[r, c, n]],
                 "place_op": n, "all_tiles": bool},
     "rng": int}
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from game.core.rng import Rng
from game.core.types import BadState
from game.core.wire import to_plain
from game.glen_more import grid as G
from game.glen_more.codes import (
    CUBE_CAP,
    CUBE_ONE,
    EMPTY,
    FOR_EFFECT,
    FOR_TILE,
    GAME_ID,
    MOVE,
    OPTION,
    OVER,
    PAY,
    PHASES,
    PLACE,
    RESOURCE,
    TAKE,
    TILE_OPTIONS,
    figure_code,
    figure_of,
)
from game.glen_more.market import ROW_COINS
from game.glen_more.options import CLAN_MODES, ON_PLACEMENT
from game.glen_more.scoring import ROUND_CATEGORIES
from game.glen_more.state import GlenMoreState
from game.glen_more.tiles import (
    BOX_CLAN,
    BOX_COINS,
    BOX_RESOURCES,
    BOX_WHISKY,
    KIND_BY_ID,
    KINDS,
    NRES,
    PLACE_OPS,
    RES_INDEX,
    RESOURCES,
    ROUNDS,
    ROW_SPACES,
    STACKS,
    START_VILLAGE,
    TRACK_SLOTS,
)

FORMAT = 1
MAX_PLAYERS = 5
_BIG = 1_000_000


def _res(counts: list[int]) -> dict[str, int]:
    return {RESOURCES[k]: counts[k] for k in range(NRES) if counts[k]}


def to_dict(st: GlenMoreState) -> dict[str, Any]:
    """The whole state as plain values; equal states give equal dicts."""
    track: list[Any] = []
    for v in st.slots:
        if v == EMPTY:
            track.append(None)
        elif v >= 0:
            track.append({"tile": KINDS[v].id})
        else:
            f = figure_of(v)
            track.append({"die": True} if f == st.n else {"seat": f})
    seats = []
    for s in range(st.n):
        tiles = []
        for c in sorted(st.grid[s]):
            r, q = G.row_col(c)
            v = st.cubes[s].get(c, 0)
            counts = [(v >> (2 * k)) & 3 for k in range(NRES)]
            tiles.append([KINDS[st.grid[s][c]].id, r, q, _res(counts), st.clan[s].get(c, 0)])
        seats.append(
            {
                "tiles": tiles,
                "coins": st.coins[s],
                "whisky": st.whisky[s],
                "chieftains": st.chieftains[s],
                "tile_points": st.tile_vp[s],
                "cards": [KINDS[k].id for k in st.cards[s]],
            }
        )
    pending = {
        "phase": PHASES[st.phase],
        "taken": KINDS[st.taken].id if st.taken >= 0 else None,
        "placed": G.rc(st.at) if st.at >= 0 else None,
        "todo": [G.rc(c) for c in st.todo],
        "first": G.rc(st.first) if st.first >= 0 else None,
        "loch_ness_used": st.ness,
        "points": st.points,
        "need": _res(st.need),
        "need_any": st.need_any,
        "need_clan": st.need_clan,
        "pay_for": "tile" if st.pay_for == FOR_TILE else "effect",
        "reward_vp": st.reward_vp,
        "reward_whisky": st.reward_whisky,
        "effect_tile": G.rc(st.opt_cell) if st.opt_cell >= 0 else None,
        "resource_queue": [[*G.rc(c), n] for c, n in st.res_queue],
        "place_op": st.place_op,
        "all_tiles": st.all_tiles,
    }
    return {
        "format": FORMAT,
        "game": GAME_ID,
        "players": st.n,
        "options": {
            "start_seat": st.start,
            "grey_clan_members": CLAN_MODES[1] if st.clan_on_place else CLAN_MODES[0],
        },
        "track": track,
        "empty": st.empty,
        "stacks": [[KINDS[k].id for k in p] for p in st.stacks],
        "removed": [KINDS[k].id for k in st.removed],
        "market": {RESOURCES[k]: st.market[k] for k in range(NRES)},
        "bank": st.bank,
        "stock": {RESOURCES[k]: st.stock[k] for k in range(NRES)},
        "whisky_stock": st.whisky_stock,
        "clan_stock": st.clan_stock,
        "seats": seats,
        "rounds": to_plain(st.rounds),
        "final": to_plain(st.final),
        "over": st.over,
        "turn": st.turn,
        "current": None if st.over else st.cur,
        "pending": pending,
        "rng": st.rng.state,
    }


# ---- reading -------------------------------------------------------------------------------
def _get(data: dict[str, Any], key: str, where: str = "Glen More state") -> Any:
    if not isinstance(data, dict):
        raise BadState(f"{where} should be a dict")
    if key not in data:
        raise BadState(f"{where} is missing the field {key!r}")
    return data[key]


def _int(v: Any, what: str, lo: int, hi: int) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise BadState(f"{what} should be an integer in {lo}..{hi}, got {v!r}")
    return v


def _bool(v: Any, what: str) -> bool:
    if not isinstance(v, bool):
        raise BadState(f"{what} should be true or false, got {v!r}")
    return v


def _list(v: Any, what: str, length: int | None = None) -> list[Any]:
    if not isinstance(v, list):
        raise BadState(f"{what} should be a list, got {type(v).__name__}")
    if length is not None and len(v) != length:
        raise BadState(f"{what} should have {length} items, has {len(v)}")
    return v


def _kind(v: Any, what: str) -> int:
    if not isinstance(v, str) or v not in KIND_BY_ID:
        raise BadState(f"{what} should be a tile id, got {v!r}")
    return KIND_BY_ID[v]


def _cell(v: Any, what: str) -> int:
    if not isinstance(v, list) or len(v) != 2 or not G.in_range(v[0], v[1]):
        raise BadState(f"{what} should be a cell [row, col], got {v!r}")
    return G.cell(v[0], v[1])


def _resources(v: Any, what: str, lo: int = 0, hi: int = _BIG) -> list[int]:
    if not isinstance(v, dict):
        raise BadState(f"{what} should be a dict of resource to count")
    out = [0] * NRES
    for key, n in v.items():
        if key not in RES_INDEX:
            raise BadState(f"{what}: unknown resource {key!r}")
        out[RES_INDEX[key]] = _int(n, f"{what}[{key}]", lo, hi)
    return out


def _full_resources(v: Any, what: str, lo: int, hi: int) -> list[int]:
    out = _resources(v, what, lo, hi)
    if not isinstance(v, dict) or set(v) != set(RESOURCES):
        raise BadState(f"{what} should name every resource")
    return out


def from_dict(data: Any) -> GlenMoreState:
    """Rebuild a state from :func:`to_dict`'s output, checking it thoroughly (BadState)."""
    try:
        return _from_dict(data)
    except BadState:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, RecursionError) as exc:
        raise BadState(f"Glen More state is malformed: {exc!r}") from None


def _from_dict(data: Any) -> GlenMoreState:
    if not isinstance(data, dict):
        raise BadState("a Glen More state is a dict")
    if data.get("game") != GAME_ID:
        raise BadState(f"not a Glen More state (game {data.get('game')!r})")
    if data.get("format") != FORMAT:
        raise BadState(f"unsupported Glen More state format {data.get('format')!r}")
    n = _int(_get(data, "players"), "players", 2, MAX_PLAYERS)
    opts = _get(data, "options")
    start = _int(_get(opts, "start_seat", "options"), "options.start_seat", 0, n - 1)
    mode = _get(opts, "grey_clan_members", "options")
    if mode not in CLAN_MODES:
        raise BadState(f"options.grey_clan_members should be one of {CLAN_MODES}, got {mode!r}")
    rng_state = _int(_get(data, "rng"), "rng", 0, (1 << 64) - 1)
    st = GlenMoreState.empty_state(n, start, mode == ON_PLACEMENT, Rng(rng_state))
    st.over = _bool(_get(data, "over"), "over")
    st.turn = _int(_get(data, "turn"), "turn", 0, _BIG)

    # the track
    track = _list(_get(data, "track"), "track", TRACK_SLOTS)
    figs = [-1] * len(st.figs)
    on_track: list[int] = []
    for i, entry in enumerate(track):
        if entry is None:
            st.slots[i] = EMPTY
        elif isinstance(entry, dict) and set(entry) == {"tile"}:
            k = _kind(entry["tile"], f"track[{i}]")
            if k == START_VILLAGE:
                raise BadState("a start village is never on the track")
            st.slots[i] = k
            on_track.append(k)
        elif isinstance(entry, dict) and set(entry) == {"seat"}:
            f = _int(entry["seat"], f"track[{i}].seat", 0, n - 1)
            if figs[f] >= 0:
                raise BadState(f"seat {f} has two figures on the track")
            figs[f] = i
            st.slots[i] = figure_code(f)
        elif isinstance(entry, dict) and entry == {"die": True}:
            if not st.die:
                raise BadState(f"a die figure on the track of a {n}-player game (GM §9: 2-3)")
            if figs[n] >= 0:
                raise BadState("two die figures on the track")
            figs[n] = i
            st.slots[i] = figure_code(n)
        else:
            raise BadState(f"track[{i}] should be null, a tile, a seat or the die, got {entry!r}")
    if any(f < 0 for f in figs):
        raise BadState("every figure (and the die figure with 2-3 players) must be on the track")
    st.figs = figs
    st.empty = _int(_get(data, "empty"), "empty", 0, TRACK_SLOTS - 1)

    # stacks and removed tiles
    stacks = _list(_get(data, "stacks"), "stacks", len(STACKS))
    for s_i, pile in enumerate(stacks):
        ks = [_kind(v, f"stacks[{s_i}]") for v in _list(pile, f"stacks[{s_i}]")]
        for k in ks:
            if KINDS[k].stack != s_i:
                raise BadState(f"{KINDS[k].id} is not a tile of stack {s_i}")
        st.stacks[s_i] = ks
    st.removed = [_kind(v, "removed") for v in _list(_get(data, "removed"), "removed")]

    # the market and the stock
    st.market = _full_resources(_get(data, "market"), "market", 0, ROW_SPACES)
    st.bank = _int(_get(data, "bank"), "bank", -_BIG, _BIG)
    st.stock = _full_resources(_get(data, "stock"), "stock", -_BIG, _BIG)
    st.whisky_stock = _int(_get(data, "whisky_stock"), "whisky_stock", -_BIG, _BIG)
    st.clan_stock = _int(_get(data, "clan_stock"), "clan_stock", -_BIG, _BIG)

    # the seats
    seats = _list(_get(data, "seats"), "seats", n)
    placed: list[int] = []
    for s, info in enumerate(seats):
        where = f"seats[{s}]"
        st.grid[s] = {}
        st.cubes[s] = {}
        st.clan[s] = {}
        st.have[s] = [0] * NRES
        st.clan_total[s] = 0
        for item in _list(_get(info, "tiles", where), f"{where}.tiles"):
            item = _list(item, f"a tile of {where}", 5)
            k = _kind(item[0], f"a tile of {where}")
            if not G.in_range(item[1], item[2]):
                raise BadState(f"{where}: tile cell {item[1:3]!r} is out of range")
            c = G.cell(item[1], item[2])
            if c in st.grid[s]:
                raise BadState(f"{where}: two tiles on cell {item[1:3]}")
            if (c == G.ORIGIN) != (k == START_VILLAGE):
                raise BadState(f"{where}: the start village lies at (0, 0), and only there")
            st.grid[s][c] = k
            if k != START_VILLAGE:
                placed.append(k)
            counts = _resources(item[3], f"{where} cubes on {item[1:3]}", 0, CUBE_CAP)
            if sum(counts) > CUBE_CAP:
                raise BadState(f"{where}: more than {CUBE_CAP} cubes on {item[1:3]} (GM §4.3)")
            if sum(counts):
                st.cubes[s][c] = sum(counts[r] * CUBE_ONE[r] for r in range(NRES))
            for r in range(NRES):
                st.have[s][r] += counts[r]
            m = _int(item[4], f"{where} clan members on {item[1:3]}", 0, _BIG)
            if m:
                st.clan[s][c] = m
                st.clan_total[s] += m
        if G.ORIGIN not in st.grid[s]:
            raise BadState(f"{where} has no start village")
        _check_territory(st.grid[s], where)
        st.coins[s] = _int(_get(info, "coins", where), f"{where}.coins", 0, _BIG)
        st.whisky[s] = _int(_get(info, "whisky", where), f"{where}.whisky", 0, _BIG)
        st.chieftains[s] = _int(_get(info, "chieftains", where), f"{where}.chieftains", 0, _BIG)
        st.tile_vp[s] = _int(_get(info, "tile_points", where), f"{where}.tile_points", 0, _BIG)
        cards = [_kind(v, f"{where}.cards") for v in _list(_get(info, "cards", where), "cards")]
        specials = sorted(k for k in st.grid[s].values() if KINDS[k].special)
        if sorted(cards) != specials:
            raise BadState(f"{where}: the cards must be exactly the special tiles of the territory")
        st.cards[s] = cards
        if st.clan_total[s] < 1:
            raise BadState(f"{where}: at least one clan member stays on the territory (GM §4.4)")

    # the turn
    pending = _get(data, "pending")
    phase_name = _get(pending, "phase", "pending")
    if phase_name not in PHASES:
        raise BadState(f"pending.phase should be one of {PHASES}, got {phase_name!r}")
    st.phase = PHASES.index(phase_name)
    taken = _get(pending, "taken", "pending")
    st.taken = -1 if taken is None else _kind(taken, "pending.taken")
    at = _get(pending, "placed", "pending")
    st.at = -1 if at is None else _cell(at, "pending.placed")
    st.todo = [_cell(v, "pending.todo") for v in _list(_get(pending, "todo", "pending"), "todo")]
    if st.todo != sorted(set(st.todo)):
        raise BadState("pending.todo should be distinct cells in order")
    first = _get(pending, "first", "pending")
    st.first = -1 if first is None else _cell(first, "pending.first")
    st.ness = _bool(_get(pending, "loch_ness_used", "pending"), "pending.loch_ness_used")
    st.points = _int(_get(pending, "points", "pending"), "pending.points", 0, _BIG)
    st.need = _resources(_get(pending, "need", "pending"), "pending.need", 0, 5)
    st.need_any = _int(_get(pending, "need_any", "pending"), "pending.need_any", 0, 3)
    st.need_clan = _int(_get(pending, "need_clan", "pending"), "pending.need_clan", 0, 3)
    pay_for = _get(pending, "pay_for", "pending")
    if pay_for not in ("tile", "effect"):
        raise BadState(f"pending.pay_for should be 'tile' or 'effect', got {pay_for!r}")
    st.pay_for = FOR_TILE if pay_for == "tile" else FOR_EFFECT
    st.reward_vp = _int(_get(pending, "reward_vp", "pending"), "pending.reward_vp", 0, 100)
    st.reward_whisky = _int(
        _get(pending, "reward_whisky", "pending"), "pending.reward_whisky", 0, 10
    )
    eff = _get(pending, "effect_tile", "pending")
    st.opt_cell = -1 if eff is None else _cell(eff, "pending.effect_tile")
    st.res_queue = []
    for item in _list(_get(pending, "resource_queue", "pending"), "pending.resource_queue"):
        item = _list(item, "a resource_queue entry", 3)
        st.res_queue.append(
            (_cell(item[:2], "a resource_queue cell"), _int(item[2], "a resource count", 1, 3))
        )
    st.place_op = _int(_get(pending, "place_op", "pending"), "pending.place_op", -1, 10)
    st.all_tiles = _bool(_get(pending, "all_tiles", "pending"), "pending.all_tiles")

    # scoring records
    st.rounds = [_round(r, n, i + 1) for i, r in enumerate(_list(_get(data, "rounds"), "rounds"))]
    emptied = sum(1 for p in st.stacks[1:] if not p)
    if len(st.rounds) != emptied:
        raise BadState(
            f"{len(st.rounds)} scoring rounds held but {emptied} of stacks 1-3 are used up (GM §7.1)"
        )
    final = _get(data, "final")
    if st.over:
        if len(st.rounds) != ROUNDS:
            raise BadState("a finished game has held all three scoring rounds")
        st.final = _final(final, n)
    elif final is not None:
        raise BadState("a final scoring record in a game that is not over")

    # conservation: every tile once, coins, cubes, whisky, clan members (GM §1)
    in_hand = [st.taken] if st.taken >= 0 and st.at < 0 else []
    every = Counter(k for p in st.stacks for k in p)
    every.update(on_track)
    every.update(placed)
    every.update(st.removed)
    every.update(in_hand)
    expected = Counter(k for p in STACKS for k in p)
    if every != expected:
        raise BadState(
            "the tiles in stacks, track, territories and out of the game are not the set"
        )
    coins = sum(st.coins) + sum(ROW_COINS[f] for f in st.market) + st.bank
    if coins != BOX_COINS:
        raise BadState(f"coins held, in the market and in the bank sum to {coins}, not {BOX_COINS}")
    for r in range(NRES):
        total = sum(h[r] for h in st.have) + st.stock[r]
        if total != BOX_RESOURCES[r]:
            raise BadState(f"{RESOURCES[r]} on tiles plus stock is {total}, not {BOX_RESOURCES[r]}")
    if sum(st.whisky) + st.whisky_stock != BOX_WHISKY:
        raise BadState("whisky held plus stock is not the box's barrels")
    if sum(st.clan_total) + sum(st.chieftains) + st.clan_stock != BOX_CLAN:
        raise BadState(
            "clan members on territories, chieftains and stock (below zero: substitutes) "
            f"are not the box's {BOX_CLAN}"
        )

    _check_turn(st, data)
    return st


def _check_territory(grid: dict[int, int], where: str) -> None:
    """GM §4.2: shared edges match, river and road tiles continue, the territory hangs
    together by full edges."""
    for c, k in grid.items():
        kind = KINDS[k]
        for i, d in enumerate(G.ORTHO):
            nb = grid.get(c + d)
            if nb is not None and KINDS[nb].edges[(i + 2) % 4] != kind.edges[i]:
                r, q = G.row_col(c)
                raise BadState(f"{where}: the tile at ({r}, {q}) does not match its neighbour")
        if k != START_VILLAGE and not G.edges_fit(
            {x: v for x, v in grid.items() if x != c}, c, kind.edge_class
        ):
            r, q = G.row_col(c)
            raise BadState(f"{where}: the tile at ({r}, {q}) breaks the river or road rule")
    seen = {G.ORIGIN}
    todo = [G.ORIGIN]
    while todo:
        c = todo.pop()
        for d in G.ORTHO:
            x = c + d
            if x in grid and x not in seen:
                seen.add(x)
                todo.append(x)
    if len(seen) != len(grid):
        raise BadState(f"{where}: the territory does not hang together by full edges")


def _ints(v: Any, what: str, n: int, lo: int = -_BIG, hi: int = _BIG) -> list[int]:
    return [_int(x, what, lo, hi) for x in _list(v, what, n)]


def _round(rec: Any, n: int, number: int) -> dict[str, Any]:
    """A scoring-round record (GM §7.1), checked for shape and arithmetic."""
    from game.glen_more.scoring import difference_points

    if _get(rec, "round", "a scoring round") != number:
        raise BadState(f"scoring round {number} is numbered {rec.get('round')!r}")
    stack = _int(_get(rec, "stack", "a scoring round"), "round stack", -1, 3)
    counts = {
        cat: _ints(_get(_get(rec, "counts", "a round"), cat, "counts"), "a count", n, 0)
        for cat in ROUND_CATEGORIES
    }
    detail_raw = _get(rec, "detail", "a scoring round")
    detail = {
        key: _ints(_get(detail_raw, key, "detail"), f"detail {key}", n, 0)
        for key in ("chieftains", "multiplier", "bonnets")
    }
    points = {cat: difference_points(counts[cat]) for cat in ROUND_CATEGORIES}
    total = [sum(points[cat][s] for cat in ROUND_CATEGORIES) for s in range(n)]
    out = {
        "round": number,
        "stack": stack,
        "counts": counts,
        "detail": detail,
        "points": points,
        "total": total,
    }
    if rec != out:
        raise BadState(f"scoring round {number}: the points do not follow from the counts")
    return out


def _final(rec: Any, n: int) -> dict[str, Any]:
    """The final-scoring record (GM §7.2), checked for shape."""
    from game.glen_more.tiles import COIN_VP, END_CATEGORIES, TILE_PENALTY

    coins = _ints(_get(rec, "coins", "final"), "final coins", n, 0)
    tiles = _ints(_get(rec, "tiles", "final"), "final tiles", n, 1)
    effects_raw = _get(rec, "end_effects", "final")
    effects = {}
    for cat in END_CATEGORIES:
        e = _get(effects_raw, cat, "final end_effects")
        effects[cat] = {
            "tiles": _ints(_get(e, "tiles", cat), f"{cat} tiles", n, 0),
            "points": _ints(_get(e, "points", cat), f"{cat} points", n, 0),
            "owner": [_int(x, f"{cat} owner", 0, n - 1) for x in _list(_get(e, "owner", cat), cat)],
        }
    fewest = min(tiles)
    out = {
        "coins": coins,
        "coin_points": [c * COIN_VP for c in coins],
        "tiles": tiles,
        "fewest_tiles": fewest,
        "tile_penalty": [-(t - fewest) * TILE_PENALTY for t in tiles],
        "end_effects": effects,
    }
    if rec != out:
        raise BadState("the final scoring record does not add up")
    return out


def _check_turn(st: GlenMoreState, data: dict[str, Any]) -> None:
    """The turn in progress fits the track and the rules of its phase."""
    current = _get(data, "current")
    slots = st.slots
    if st.over:
        if current is not None or st.phase != OVER:
            raise BadState("a finished game has no current seat and phase 'over'")
        st.cur = -1
        return
    st.cur = _int(current, "current", 0, st.n - 1)
    s = st.cur
    if st.phase == OVER:
        raise BadState("phase 'over' in a game that is not over")
    e = st.empty
    nxt = (e + 1) % TRACK_SLOTS
    empties = [i for i, v in enumerate(slots) if v == EMPTY]
    if st.phase == TAKE:
        if empties != [e] or slots[nxt] != figure_code(s):
            raise BadState(
                "at the start of a turn exactly one space is empty and the current seat's "
                "figure stands right after it (GM §3)"
            )
    else:
        if sorted(empties) != sorted({e, nxt}) or slots[nxt] != EMPTY:
            raise BadState(
                "after taking a tile the current figure has left the space after the empty one"
            )
    if st.phase == TAKE:
        ok = st.taken < 0 and st.at < 0
    elif st.phase == PAY:
        ok = st.taken >= 0 and (st.need_clan + st.need_any + sum(st.need)) > 0
        ok = ok and (
            (st.pay_for == FOR_TILE and st.at < 0) or (st.pay_for == FOR_EFFECT and st.at >= 0)
        )
    elif st.phase == PLACE:
        ok = st.taken >= 0 and st.at < 0
    else:
        ok = st.taken >= 0 and st.at >= 0 and st.grid[s].get(st.at) == st.taken
    if not ok:
        raise BadState(f"pending fields do not fit the phase {PHASES[st.phase]!r}")
    effect = (st.phase == PAY and st.pay_for == FOR_EFFECT) or st.phase == OPTION
    if effect and st.opt_cell not in st.grid[s]:
        raise BadState("the effect being paid belongs to no tile of the current seat")
    if st.phase == OPTION and not TILE_OPTIONS[st.grid[s][st.opt_cell]]:
        raise BadState("an option is pending on a tile without options")
    if st.phase == RESOURCE:
        if not st.res_queue or any(c not in st.grid[s] for c, _ in st.res_queue):
            raise BadState("a resource choice is pending for no tile of the current seat")
    elif st.res_queue:
        raise BadState("a resource queue outside the resource phase")
    if st.place_op >= 0 and st.place_op > len(PLACE_OPS[st.clan_on_place][st.taken]):
        raise BadState("pending.place_op is past the tile's on-place effects")
    if any(c not in st.grid[s] for c in st.todo) or (st.first >= 0 and st.first not in st.todo):
        raise BadState("tiles to activate must be tiles of the current seat")
    before = st.phase in (TAKE, PLACE) or (st.phase == PAY and st.pay_for == FOR_TILE)
    if before and (st.todo or st.points or st.ness):
        raise BadState("activations or movement before the tile is placed")
    if st.phase == MOVE and st.todo:
        raise BadState("activations left in the movement step")
    rewarding = (st.phase in (PAY, OPTION) and st.pay_for == FOR_EFFECT) or st.phase == OPTION
    if not rewarding and (st.reward_vp or st.reward_whisky):
        raise BadState("a reward pending outside an activation")
    if not st.legal_actions(s):
        raise BadState("the current seat has no legal action in this state")
