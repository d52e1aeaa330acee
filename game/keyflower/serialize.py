"""Saving and loading a Keyflower state as a plain dict (format 1).

``to_dict`` writes the facts only; ``from_dict`` rebuilds the derived tables (villages by hex,
summer-boat flags) and checks that the facts agree with the rules: every keyple, skill tile and
resource accounted for (KF §2), villages connected with the home tile at the centre, bids only on
auction and turn-order tiles, uses on the ladder (KF §6.2), a decision to make.  Anything
malformed raises :class:`~game.core.types.BadState` naming the field; corrupt input never escapes
as another exception.

Format 1 (``docs/keyflower.md``, "Saved state")::

    {"format": 1, "game": "keyflower", "players": n,
     "season": "spring"|"summer"|"autumn"|"winter", "phase": "play"|"boats"|"place"|
     "winter_pick"|"over", "start": s, "purple": s, "current": s | null, "passes": k, "turn": t,
     "bag": {"red", "blue", "yellow"}, "green": n, "skill_supply": {"saw", "pickaxe", "anvil"},
     "resource_supply": {"wood", "stone", "iron", "gold"},
     "tiles": [[id, where, holder, side, rot, q, r, [wood, stone, iron, gold]], ...]  (all 64;
              where: a seat number (in its village) or "out"|"deck"|"auction"|"display"|"hand"|
              "won"; holder: the seat of a hand/won tile or null; q, r: null off-village)
     "seats": [{"home": id, "keyples": {colour: n}, "known_keyples": {colour: n},
                "skills": {kind: n}, "known_skills": {kind: n}, "village": [ids in join order],
                "winter_hand": [ids], "won": [ids], "place_selected": id | null,
                "placed": [[id, q, r, rot], ...], "winter_pick": [ids] | null}, ...],
     "auction": [ids], "turn_order": [ids], "turn_order_winners": [seat | null],
     "boats": [ids], "boats_taken": [bool], "boat_loads": [{"keyples": {...}, "skills": {...}}],
     "bids": [[id, seat, colour, n], ...], "uses": [[id, [[seat, colour, n], ...]], ...],
     "locks": [[id, colour], ...], "winter_out": [ids], "boat_order": [seats],
     "pending": {"stage", "reclaimed", "colour", "keyples", "tile", "transport", "upgrades",
                 "upgraded", "move_from", "move_kind", "left", "left_skills"},
     "rng": int}
"""

from __future__ import annotations

from typing import Any

from game.core.rng import Rng
from game.core.types import BadState
from game.keyflower.const import (
    AUCTION,
    BOATS,
    DECK,
    GAME_ID,
    HAND,
    LOCATIONS,
    MAX_SEATS,
    NONE,
    OUT,
    OVER,
    PHASES,
    PLACE,
    PLAY,
    STAGES,
    WINTER_PICK,
    WON,
)
from game.keyflower.tiles import (
    BAG_START,
    BOAT,
    COLOURS,
    GREEN_START,
    HOME,
    INDEX,
    NTILES,
    RESOURCES,
    RESOURCES_START,
    SEASON_TILES,
    SEASONS,
    SETUPS,
    SKILLS,
    SKILLS_START,
    TILES,
    TURN_ORDER,
    WINTER,
    WINTER_TILE,
)
from game.keyflower.village import HOME_HEX, axial, connected_groups, hex_id, in_range

FORMAT = 1
_WHERE_NAMES = {v: k for k, v in LOCATIONS.items()}


def _colour(c: int) -> str | None:
    return COLOURS[c] if c >= 0 else None


def _tid(t: int) -> str | None:
    return TILES[t].id if t >= 0 else None


def to_dict(st: Any) -> dict[str, Any]:
    """The whole state as plain values; equal states give equal dicts."""
    tiles = []
    for t in range(NTILES):
        w = st.where[t]
        h = st.hexof[t]
        q, r = axial(h) if h >= 0 else (None, None)
        tiles.append(
            [
                TILES[t].id,
                w if w >= 0 else LOCATIONS[w],
                st.holder[t] if st.holder[t] >= 0 else None,
                st.side[t],
                st.rot[t],
                q,
                r,
                st.res[t * 4 : t * 4 + 4],
            ]
        )
    seats = []
    for s in range(st.n):
        pick = st.wpick[s]
        seats.append(
            {
                "home": TILES[st.home[s]].id,
                "keyples": dict(zip(COLOURS, st.keys[s], strict=True)),
                "known_keyples": dict(zip(COLOURS, st.kknown[s], strict=True)),
                "skills": dict(zip(SKILLS, st.skills[s], strict=True)),
                "known_skills": dict(zip(SKILLS, st.sknown[s], strict=True)),
                "village": [TILES[t].id for t in st.vorder[s]],
                "winter_hand": [TILES[t].id for t in st.hands[s]],
                "won": [TILES[t].id for t in st.won[s]],
                "place_selected": _tid(st.psel[s]),
                "placed": [[TILES[t].id, *axial(h), r] for t, h, r in st.pplaced[s]],
                "winter_pick": None if pick is None else [TILES[t].id for t in pick],
            }
        )
    bids = []
    locks = []
    for t in range(NTILES):
        for s in range(st.n):
            if st.bidn[t * 6 + s]:
                bids.append([TILES[t].id, s, COLOURS[st.bidc[t * 6 + s]], st.bidn[t * 6 + s]])
        if st.lock[t] >= 0:
            locks.append([TILES[t].id, COLOURS[st.lock[t]]])
    return {
        "format": FORMAT,
        "game": GAME_ID,
        "players": st.n,
        "season": SEASONS[st.season],
        "phase": PHASES[st.phase],
        "start": st.start,
        "purple": st.purple,
        "current": st.cur if st.cur >= 0 else None,
        "passes": st.passes,
        "turn": st.turn,
        "bag": dict(zip(COLOURS[:3], st.bag, strict=True)),
        "green": st.green,
        "skill_supply": dict(zip(SKILLS, st.sksup, strict=True)),
        "resource_supply": dict(zip(RESOURCES, st.ressup, strict=True)),
        "tiles": tiles,
        "seats": seats,
        "auction": [TILES[t].id for t in st.auction],
        "turn_order": [TILES[t].id for t in st.tord],
        "turn_order_winners": [w if w >= 0 else None for w in st.towin],
        "boats": [TILES[b].id for b in st.boats],
        "boats_taken": list(st.btaken),
        "boat_loads": [
            {
                "keyples": dict(zip(COLOURS[:3], st.bkeys[i * 3 : i * 3 + 3], strict=True)),
                "skills": dict(zip(SKILLS, st.bskills[i * 3 : i * 3 + 3], strict=True)),
            }
            for i in range(len(st.boats))
        ],
        "bids": bids,
        "uses": [
            [TILES[t].id, [[s, COLOURS[c], m] for s, c, m in st.uses[t]]] for t in sorted(st.uses)
        ],
        "locks": locks,
        "winter_out": [TILES[t].id for t in st.wout],
        "boat_order": list(st.border),
        "pending": {
            "stage": STAGES[st.stage],
            "reclaimed": [TILES[t].id for t in st.precl],
            "colour": _colour(st.pcol),
            "keyples": st.pk,
            "tile": _tid(st.ptile),
            "transport": st.ppts,
            "upgrades": st.pupg,
            "upgraded": st.pupgraded,
            "move_from": _tid(st.pfrom),
            "move_kind": RESOURCES[st.pkind] if st.pkind >= 0 else None,
            "left": st.pleft,
            "left_skills": st.pleft_s,
        },
        "rng": st.rng.state,
    }


# ---- reading -------------------------------------------------------------------------------
def _get(data: dict[str, Any], key: str, where: str = "Keyflower state") -> Any:
    if not isinstance(data, dict):
        raise BadState(f"{where} is not a dict")
    if key not in data:
        raise BadState(f"{where} is missing the field {key!r}")
    return data[key]


def _int(v: Any, name: str, lo: int, hi: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise BadState(f"{name} must be an integer in {lo}..{hi}, not {v!r}")
    return v


def _bool(v: Any, name: str) -> bool:
    if not isinstance(v, bool):
        raise BadState(f"{name} must be true or false, not {v!r}")
    return v


def _list(v: Any, name: str, size: int | None = None) -> list[Any]:
    if not isinstance(v, list):
        raise BadState(f"{name} must be a list")
    if size is not None and len(v) != size:
        raise BadState(f"{name} must have {size} items, not {len(v)}")
    return v


def _name(v: Any, names: tuple[str, ...], name: str) -> int:
    if not isinstance(v, str) or v not in names:
        raise BadState(f"{name} must be one of {', '.join(names)}, not {v!r}")
    return names.index(v)


def _tile(v: Any, name: str) -> int:
    if not isinstance(v, str) or v not in INDEX:
        raise BadState(f"{name}: unknown tile {v!r}")
    return INDEX[v]


def _opt_tile(v: Any, name: str) -> int:
    return -1 if v is None else _tile(v, name)


def _counts(v: Any, names: tuple[str, ...], name: str, hi: int = 200) -> list[int]:
    if not isinstance(v, dict) or set(v) != set(names):
        raise BadState(f"{name} must be a dict with exactly the keys {', '.join(names)}")
    return [_int(v[k], f"{name}.{k}", 0, hi) for k in names]


def _tiles(v: Any, name: str) -> list[int]:
    out = [_tile(x, name) for x in _list(v, name)]
    if len(set(out)) != len(out):
        raise BadState(f"{name} names a tile twice")
    return out


def _seat(v: Any, name: str, n: int, optional: bool = False) -> int:
    if optional and v is None:
        return -1
    return _int(v, name, 0, n - 1)


def from_dict(data: Any) -> Any:
    """Rebuild a state from :func:`to_dict`'s output; raises BadState for anything wrong."""
    try:
        return _from_dict(data)
    except BadState:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise BadState(f"malformed Keyflower state: {type(exc).__name__}: {exc}") from None


def _from_dict(data: Any) -> Any:
    from game.keyflower.state import KeyflowerState, village_flags

    if not isinstance(data, dict):
        raise BadState("a Keyflower state is a dict")
    if _get(data, "game") != GAME_ID:
        raise BadState(f"not a Keyflower state (game {data.get('game')!r})")
    if _get(data, "format") != FORMAT:
        raise BadState(f"unknown Keyflower state format {data.get('format')!r} (this is {FORMAT})")
    n = _int(_get(data, "players"), "players", 2, MAX_SEATS)
    rng_state = _int(_get(data, "rng"), "rng", 0, (1 << 64) - 1)
    st = KeyflowerState.empty(n, Rng(rng_state))
    st.season = _name(_get(data, "season"), SEASONS, "season")
    st.phase = _name(_get(data, "phase"), PHASES, "phase")
    st.start = _seat(_get(data, "start"), "start", n)
    st.purple = _seat(_get(data, "purple"), "purple", n)
    st.cur = _seat(_get(data, "current"), "current", n, optional=True)
    st.passes = _int(_get(data, "passes"), "passes", 0, n)
    st.turn = _int(_get(data, "turn"), "turn", 0, 1 << 40)
    st.bag = _counts(_get(data, "bag"), COLOURS[:3], "bag")
    st.green = _int(_get(data, "green"), "green", 0, GREEN_START)
    st.sksup = _counts(_get(data, "skill_supply"), SKILLS, "skill_supply")
    st.ressup = _counts(_get(data, "resource_supply"), RESOURCES, "resource_supply")
    # tiles
    raw_tiles = _list(_get(data, "tiles"), "tiles", NTILES)
    for t, row in enumerate(raw_tiles):
        row = _list(row, f"tiles[{t}]", 8)
        if row[0] != TILES[t].id:
            raise BadState(f"tiles[{t}] must be {TILES[t].id!r}, not {row[0]!r}")
        w = row[1]
        if isinstance(w, str):
            if w not in _WHERE_NAMES:
                raise BadState(f"tiles[{t}] is in an unknown place {w!r}")
            st.where[t] = _WHERE_NAMES[w]
        else:
            st.where[t] = _int(w, f"tiles[{t}].where", 0, n - 1)
        st.holder[t] = _seat(row[2], f"tiles[{t}].holder", n, optional=True)
        st.side[t] = _int(row[3], f"tiles[{t}].side", 0, len(TILES[t].sides) - 1)
        st.rot[t] = _int(row[4], f"tiles[{t}].rot", 0, 5)
        if (row[5] is None) != (row[6] is None):
            raise BadState(f"tiles[{t}]: q and r are both null or both set")
        if row[5] is not None:
            q = _int(row[5], f"tiles[{t}].q", -15, 14)
            r = _int(row[6], f"tiles[{t}].r", -15, 14)
            st.hexof[t] = hex_id(q, r)
        res = _list(row[7], f"tiles[{t}].resources", 4)
        for k in range(4):
            st.res[t * 4 + k] = _int(res[k], f"tiles[{t}].resources", 0, RESOURCES_START[k])
    # seats
    raw_seats = _list(_get(data, "seats"), "seats", n)
    for s, raw in enumerate(raw_seats):
        where = f"seats[{s}]"
        st.home[s] = _tile(_get(raw, "home", where), f"{where}.home")
        st.keys[s] = _counts(_get(raw, "keyples", where), COLOURS, f"{where}.keyples")
        st.kknown[s] = _counts(_get(raw, "known_keyples", where), COLOURS, f"{where}.known_keyples")
        st.skills[s] = _counts(_get(raw, "skills", where), SKILLS, f"{where}.skills")
        st.sknown[s] = _counts(_get(raw, "known_skills", where), SKILLS, f"{where}.known_skills")
        st.vorder[s] = _tiles(_get(raw, "village", where), f"{where}.village")
        st.hands[s] = _tiles(_get(raw, "winter_hand", where), f"{where}.winter_hand")
        st.won[s] = _tiles(_get(raw, "won", where), f"{where}.won")
        st.psel[s] = _opt_tile(_get(raw, "place_selected", where), f"{where}.place_selected")
        placed = []
        for i, p in enumerate(_list(_get(raw, "placed", where), f"{where}.placed")):
            p = _list(p, f"{where}.placed[{i}]", 4)
            q = _int(p[1], f"{where}.placed[{i}].q", -15, 14)
            r = _int(p[2], f"{where}.placed[{i}].r", -15, 14)
            placed.append((_tile(p[0], f"{where}.placed"), hex_id(q, r), _int(p[3], "rot", 0, 5)))
        st.pplaced[s] = placed
        pick = _get(raw, "winter_pick", where)
        st.wpick[s] = None if pick is None else tuple(_tiles(pick, f"{where}.winter_pick"))
    st.auction = _tiles(_get(data, "auction"), "auction")
    st.tord = _tiles(_get(data, "turn_order"), "turn_order")
    st.towin = [
        _seat(w, "turn_order_winners", n, optional=True)
        for w in _list(_get(data, "turn_order_winners"), "turn_order_winners", len(st.tord))
    ]
    st.boats = _tiles(_get(data, "boats"), "boats")
    st.btaken = [
        _bool(b, "boats_taken")
        for b in _list(_get(data, "boats_taken"), "boats_taken", len(st.boats))
    ]
    loads = _list(_get(data, "boat_loads"), "boat_loads", len(st.boats))
    for i, ld in enumerate(loads):
        st.bkeys[i * 3 : i * 3 + 3] = _counts(_get(ld, "keyples"), COLOURS[:3], "boat_loads")
        st.bskills[i * 3 : i * 3 + 3] = _counts(_get(ld, "skills"), SKILLS, "boat_loads")
    for i, b in enumerate(_list(_get(data, "bids"), "bids")):
        b = _list(b, f"bids[{i}]", 4)
        t = _tile(b[0], "bids")
        s = _seat(b[1], "bids.seat", n)
        if st.bidn[t * 6 + s]:
            raise BadState(f"two bids of seat {s} at {b[0]}")
        st.bidc[t * 6 + s] = _name(b[2], COLOURS, "bids.colour")
        st.bidn[t * 6 + s] = _int(b[3], "bids.keyples", 1, 200)
    for i, u in enumerate(_list(_get(data, "uses"), "uses")):
        u = _list(u, f"uses[{i}]", 2)
        t = _tile(u[0], "uses")
        if t in st.uses:
            raise BadState(f"uses lists {u[0]} twice")
        entries = []
        for e in _list(u[1], f"uses[{i}]"):
            e = _list(e, f"uses[{i}] entry", 3)
            entries.append(
                (
                    _seat(e[0], "uses.seat", n),
                    _name(e[1], COLOURS, "uses.colour"),
                    _int(e[2], "uses.keyples", 1, 3),
                )
            )
        if not entries:
            raise BadState(f"uses of {u[0]} is empty")
        st.uses[t] = tuple(entries)
    for i, lk in enumerate(_list(_get(data, "locks"), "locks")):
        lk = _list(lk, f"locks[{i}]", 2)
        st.lock[_tile(lk[0], "locks")] = _name(lk[1], COLOURS, "locks.colour")
    st.wout = _tiles(_get(data, "winter_out"), "winter_out")
    st.border = [_seat(s, "boat_order", n) for s in _list(_get(data, "boat_order"), "boat_order")]
    p = _get(data, "pending")
    st.stage = _name(_get(p, "stage", "pending"), STAGES, "pending.stage")
    st.precl = tuple(_tiles(_get(p, "reclaimed", "pending"), "pending.reclaimed"))
    col = _get(p, "colour", "pending")
    st.pcol = -1 if col is None else _name(col, COLOURS, "pending.colour")
    st.pk = _int(_get(p, "keyples", "pending"), "pending.keyples", 0, 200)
    st.ptile = _opt_tile(_get(p, "tile", "pending"), "pending.tile")
    st.ppts = _int(_get(p, "transport", "pending"), "pending.transport", 0, 100)
    st.pupg = _int(_get(p, "upgrades", "pending"), "pending.upgrades", 0, 100)
    st.pupgraded = _bool(_get(p, "upgraded", "pending"), "pending.upgraded")
    st.pfrom = _opt_tile(_get(p, "move_from", "pending"), "pending.move_from")
    kind = _get(p, "move_kind", "pending")
    st.pkind = -1 if kind is None else _name(kind, RESOURCES, "pending.move_kind")
    st.pleft = _int(_get(p, "left", "pending"), "pending.left", 0, 10)
    st.pleft_s = _int(_get(p, "left_skills", "pending"), "pending.left_skills", 0, 10)
    # derived tables
    for s in range(n):
        for t in st.vorder[s]:
            h = st.hexof[t]
            if h < 0:
                raise BadState(f"seat {s}'s village tile {TILES[t].id} has no position")
            if h in st.vil[s]:
                raise BadState(f"two tiles on one hex of seat {s}'s village")
            st.vil[s][h] = t
        st.flags[s] = village_flags(st, s)
    _check(st)
    return st


def _check(st: Any) -> None:
    """The facts agree with each other and with the rules (see the module docstring)."""
    n = st.n
    cfg = SETUPS[n]
    # components are all accounted for (KF §2)
    keyples = [*list(st.bag), st.green]
    skills = list(st.sksup)
    res = list(st.ressup)
    for s in range(n):
        for c in range(4):
            keyples[c] += st.keys[s][c]
            if st.kknown[s][c] > st.keys[s][c]:
                raise BadState(f"seat {s} is known to hold more {COLOURS[c]} keyples than it has")
        if st.kknown[s][3] != st.keys[s][3]:
            raise BadState(f"seat {s}'s green keyples are always known")
        for k in range(3):
            skills[k] += st.skills[s][k]
            if st.sknown[s][k] > st.skills[s][k]:
                raise BadState(f"seat {s} is known to hold more {SKILLS[k]} than it has")
    for t in range(NTILES):
        for s in range(n):
            if st.bidn[t * 6 + s]:
                keyples[st.bidc[t * 6 + s]] += st.bidn[t * 6 + s]
        for k in range(4):
            res[k] += st.res[t * 4 + k]
    for us in st.uses.values():
        for _, c, m in us:
            keyples[c] += m
    for i in range(len(st.boats)):
        for c in range(3):
            keyples[c] += st.bkeys[i * 3 + c]
        for k in range(3):
            skills[k] += st.bskills[i * 3 + k]
    if keyples != [*BAG_START, GREEN_START]:
        raise BadState(f"keyples do not add up to the box's (red, blue, yellow, green: {keyples})")
    if skills != list(SKILLS_START):
        raise BadState(f"skill tiles do not add up to the box's ({skills})")
    if res != list(RESOURCES_START):
        raise BadState(f"resources do not add up to the box's ({res})")
    # setup pieces of this player count
    if st.boats != list(cfg.boats) or st.tord != [t for t, _ in cfg.turn_order]:
        raise BadState("boats or turn-order tiles do not match the player count (KF §3)")
    for t, face in cfg.turn_order:
        if st.side[t] != face:
            raise BadState(f"{TILES[t].id} shows the wrong face for {n} players")
    # villages
    homes = set()
    for s in range(n):
        h = st.home[s]
        if TILES[h].kind != HOME or h in homes:
            raise BadState(f"seat {s}'s home tile is not a home tile of its own")
        homes.add(h)
        vil = st.vil[s]
        if vil.get(HOME_HEX) != h or (st.vorder[s] and st.vorder[s][0] != h):
            raise BadState(f"seat {s}'s home tile is not at the centre of its village")
        if connected_groups(vil) != 1:
            raise BadState(f"seat {s}'s village is not one group of tiles")
        for t in st.vorder[s]:
            if st.where[t] != s:
                raise BadState(f"{TILES[t].id} is listed in seat {s}'s village but lies elsewhere")
            if TILES[t].kind in (BOAT, TURN_ORDER) and st.season != WINTER:
                raise BadState(f"{TILES[t].id} can join a village only in winter")
            q, r = axial(st.hexof[t])
            if not in_range(q, r):
                raise BadState(f"{TILES[t].id} lies outside the village area")
    for t in range(NTILES):
        w = st.where[t]
        if w >= 0 and t not in st.vorder[w]:
            raise BadState(f"{TILES[t].id} lies in seat {w}'s village but is not listed there")
        if w < 0 and st.hexof[t] >= 0:
            raise BadState(f"{TILES[t].id} has a village position but is not in a village")
        if (w in (HAND, WON)) != (st.holder[t] >= 0):
            raise BadState(f"{TILES[t].id}: only a winter-hand or won tile has a holder")
        if any(st.res[t * 4 : t * 4 + 4]) and w < 0:
            raise BadState(f"{TILES[t].id} holds resources but is not in a village")
        kind = TILES[t].kind
        if w == DECK and TILES[t].season <= st.season:
            raise BadState(f"{TILES[t].id} is still in the deck of a season already drawn")
        if w == AUCTION and t not in st.auction:
            raise BadState(f"{TILES[t].id} is in the auction but not listed there")
        if w == HAND and t not in st.hands[st.holder[t]]:
            raise BadState(f"{TILES[t].id} is in a hand but not listed there")
        if (
            w == WON
            and t not in st.won[st.holder[t]]
            and not any(t == x for x, _, _ in st.pplaced[st.holder[t]])
        ):
            raise BadState(f"{TILES[t].id} is won but not listed as won")
        if kind == WINTER_TILE and w == DECK:
            raise BadState(f"{TILES[t].id}: winter tiles are dealt, not drawn")
    for t in st.auction:
        if st.where[t] != AUCTION:
            raise BadState(f"auction tile {TILES[t].id} is not in the auction")
        if st.season != TILES[t].season:
            raise BadState(f"{TILES[t].id} is not a tile of this season")
    for s in range(n):
        for t in st.hands[s]:
            if st.where[t] != HAND or st.holder[t] != s or TILES[t].kind != WINTER_TILE:
                raise BadState(f"seat {s}'s winter hand is inconsistent")
        for t in st.won[s]:
            if st.where[t] != WON or st.holder[t] != s:
                raise BadState(f"seat {s}'s won tiles are inconsistent")
    for t in st.wout:
        if st.where[t] != OUT or TILES[t].kind != WINTER_TILE:
            raise BadState("winter_out lists a tile that is not an unused winter tile")
    if st.season < WINTER and any(st.where[t] not in (HAND, OUT) for t in SEASON_TILES[WINTER]):
        raise BadState("winter tiles are in play before winter")
    # bids, uses, locks
    bid_ok = set(st.auction) | set(st.tord)
    for t in range(NTILES):
        has = any(st.bidn[t * 6 + s] for s in range(n))
        if has and t not in bid_ok:
            raise BadState(f"{TILES[t].id} cannot be bid on")
        if has:
            tops = sorted((st.bidn[t * 6 + s] for s in range(n)), reverse=True)
            if tops[0] == tops[1]:
                raise BadState(f"two bids tie at {TILES[t].id} (KF §5: a bid must beat all others)")
        us = st.uses.get(t, ())
        if (has or bool(us)) != (st.lock[t] >= 0):
            raise BadState(
                f"{TILES[t].id}: a tile has a lock colour exactly when keyples are there"
            )
    for t, us in st.uses.items():
        if st.where[t] != AUCTION and st.where[t] < 0:
            raise BadState(f"{TILES[t].id} cannot have been used")
        if len(us) > 3 or any(us[i][2] <= us[i - 1][2] for i in range(1, len(us))):
            raise BadState(f"{TILES[t].id}: uses must grow 1..3 keyples (KF §6.2)")
    # the phase has a decision to make
    if st.phase == OVER:
        return
    if st.phase in (PLAY, BOATS) and st.cur < 0:
        raise BadState("the phase needs a current seat")
    if st.phase == BOATS and (not st.border or st.border[0] != st.cur):
        raise BadState("boat choice order does not start with the current seat")
    if st.phase != PLAY and st.stage != NONE:
        raise BadState("a turn is pending outside the season's turns")
    if st.phase == PLACE and not any(st.won):
        raise BadState("placement with no tile to place")
    if st.phase == WINTER_PICK and (st.season != WINTER or all(p is not None for p in st.wpick)):
        raise BadState("winter choice with nobody left to choose")
    for s in st.to_move():
        if not st.legal_actions(s):
            raise BadState(f"seat {s} is to move but has no legal action")


__all__ = ["FORMAT", "from_dict", "to_dict"]
