"""Setup, the start and end of each season, boat choice, placement and the winter choice
(KF §3, §4.1, §8, §9, §10).

Random steps draw from the state's RNG in a fixed, documented order (``docs/keyflower.md``,
"Randomness").  The bookkeeping of the end of a season runs inside the ``apply`` of the action
that ends it (the last pass, the last boat choice, the last placement); only the boat choice
(sequential), the placement and the winter choice (simultaneous) wait for players.
"""

from __future__ import annotations

from itertools import combinations, compress
from typing import TYPE_CHECKING

from game.core.types import Action, Event
from game.keyflower.bids import top_bid
from game.keyflower.const import (
    AUCTION,
    BOAT_ACT,
    BOATS,
    DECK,
    DISPLAY,
    F_1A,
    F_1B,
    F_2A,
    FLAG_OF,
    FLAT_LIMIT,
    HAND,
    OUT,
    OVER,
    PLACE,
    PLACE_TILE_ACT,
    PLAY,
    WINTER_PICK,
    WON,
)
from game.keyflower.supply import (
    draw_bag,
    draw_skills,
    gain_keyples,
    green_to,
    random_keyples_to,
    to_supply,
)
from game.keyflower.tiles import (
    COLOURS,
    SEASON_TILES,
    SEASONS,
    SETUPS,
    SKILLS,
    SUMMER,
    SUMMER_BOAT,
    TILES,
    WINTER,
    WINTER_TILES,
)
from game.keyflower.village import HOME_HEX, PACKED, axial, hex_id, in_range, pending_needs

if TYPE_CHECKING:
    from game.keyflower.state import KeyflowerState


# ---- setup (KF §3) --------------------------------------------------------------------------
def setup(st: KeyflowerState, events: list[Event]) -> None:
    """KF §3 in order: 8 random keyples per seat (seat order), the home tiles dealt at random,
    the lowest home number starts and takes the purple keyple, winter tiles dealt face down
    (seat order), then the spring season begins (KF §4.1)."""
    n = st.n
    cfg = SETUPS[n]
    for s in range(n):
        for c in draw_bag(st, cfg.keyples):
            st.keys[s][c] += 1
    homes = sorted(t.idx for t in TILES if t.kind == "home")
    st.rng.shuffle(homes)
    for s in range(n):
        h = homes[s]
        st.home[s] = h
        st.where[h] = s
        st.side[h] = 0
        st.rot[h] = 0
        st.hexof[h] = HOME_HEX
        st.vil[s][HOME_HEX] = h
        st.vorder[s] = [h]
    first = min(range(n), key=lambda s: TILES[st.home[s]].number)
    st.purple = first
    st.start = first
    winter = sorted(WINTER_TILES)
    st.rng.shuffle(winter)
    for s in range(n):
        hand = sorted(winter[s * cfg.winter_dealt : (s + 1) * cfg.winter_dealt])
        st.hands[s] = hand
        for t in hand:
            st.where[t] = HAND
            st.holder[t] = s
    st.wout = sorted(winter[n * cfg.winter_dealt :])
    for t in st.wout:
        st.where[t] = OUT
    for season in range(3):
        for t in SEASON_TILES[season]:
            st.where[t] = DECK
    st.boats = list(cfg.boats)
    for b in st.boats:
        st.where[b] = DISPLAY
    st.tord = [t for t, _ in cfg.turn_order]
    for t, face in cfg.turn_order:
        st.where[t] = DISPLAY
        st.side[t] = face
    events.append(
        {
            "type": "setup",
            "players": n,
            "homes": [TILES[st.home[s]].id for s in range(n)],
            "start": first,
            "reveal": True,
        }
    )
    for s in range(n):
        events.append(
            {
                "type": "winter_hand",
                "seat": s,
                "tiles": [TILES[t].id for t in st.hands[s]],
                "only": [s],
            }
        )
        events.append(
            {
                "type": "drew_keyples",
                "seat": s,
                "keyples": [COLOURS[c] for c in range(3) for _ in range(st.keys[s][c])],
                "only": [s],
            }
        )
    start_season(st, 0, events)


def start_season(st: KeyflowerState, season: int, events: list[Event]) -> None:
    """KF §4.1: the purple holder starts; boats turn to the season's side and are loaded
    (not in winter; round-robin under shortage, D11); players+4 season tiles are drawn (a
    drawn summer boat shows a random face); in winter every seat picks its winter tiles."""
    st.season = season
    st.start = st.purple
    st.cur = st.start
    st.passes = 0
    st.towin = [-1] * len(st.tord)
    for t in st.tord:
        st.where[t] = DISPLAY
    st.btaken = [False] * len(st.boats)
    for i, b in enumerate(st.boats):
        st.side[b] = TILES[b].boat_sides[season]
        st.bkeys[i * 3 : i * 3 + 3] = [0, 0, 0]
        st.bskills[i * 3 : i * 3 + 3] = [0, 0, 0]
    if season != WINTER:
        _load_boats(st)
        deck = [t for t in SEASON_TILES[season] if st.where[t] == DECK]
        drawn = st.rng.sample(deck, min(SETUPS[st.n].auction, len(deck)))
        for t in deck:
            st.where[t] = OUT
        st.auction = drawn
        for t in drawn:
            st.where[t] = AUCTION
            st.side[t] = st.rng.randbelow(2) if TILES[t].kind == SUMMER_BOAT else 0
        st.phase = PLAY
    else:
        st.auction = []
        st.phase = WINTER_PICK
        st.wpick = [None] * st.n
    events.append(
        {
            "type": "season",
            "season": SEASONS[season],
            "start": st.start,
            "auction": [[TILES[t].id, TILES[t].sides[st.side[t]].face] for t in st.auction],
            "boats": [
                {
                    "boat": TILES[b].id,
                    "keyples": [COLOURS[c] for c in range(3) for _ in range(st.bkeys[i * 3 + c])],
                    "skills": [SKILLS[k] for k in range(3) for _ in range(st.bskills[i * 3 + k])],
                }
                for i, b in enumerate(st.boats)
            ],
            "reveal": True,
        }
    )


def _load_boats(st: KeyflowerState) -> None:
    """KF §4.1 and D11: each boat gets the keyples and skill tiles printed on its side, drawn
    at random, one per boat per round in boat order (keyples first, then skills)."""
    sides = [TILES[b].loads[st.side[b]] for b in st.boats]
    for what in (0, 1):
        got = [0] * len(st.boats)
        while True:
            more = False
            for i in range(len(st.boats)):
                if got[i] < sides[i][what]:
                    drawn = draw_bag(st, 1) if what == 0 else draw_skills(st, 1)
                    if not drawn:
                        continue
                    got[i] += 1
                    more = True
                    if what == 0:
                        st.bkeys[i * 3 + drawn[0]] += 1
                    else:
                        st.bskills[i * 3 + drawn[0]] += 1
            if not more:
                break


# ---- end of season (KF §8) ------------------------------------------------------------------
def end_season(st: KeyflowerState, events: list[Event]) -> None:
    """KF §8 steps 1–4, then the boat choice (step 5/6) waits for the players."""
    n = st.n
    summary: dict[str, object] = {"type": "season_end", "season": SEASONS[st.season]}
    # 1. losing bids go back behind their owners' screens
    for t in st.bid_tiles():
        leader, _ = top_bid(st, t)
        for s in range(n):
            i = t * 6 + s
            if st.bidn[i] and s != leader:
                gain_keyples(st, s, st.bidc[i], st.bidn[i])
                st.bidn[i] = 0
                st.bidc[i] = -1
    # 2. + 3. auction tiles: unbid ones leave (D5: their keyples to the supply); won tiles go
    # to the winner with the keyples used on them; winning bids go back to the supply
    won: list[list[str]] = [[] for _ in range(n)]
    for t in st.auction:
        leader, most = top_bid(st, t)
        us = st.uses.pop(t, ())
        if leader < 0:
            for _, c, m in us:
                to_supply(st, c, m)
            st.where[t] = OUT
            continue
        for _, c, m in us:
            gain_keyples(st, leader, c, m)
        to_supply(st, st.bidc[t * 6 + leader], most)
        st.bidn[t * 6 + leader] = 0
        st.bidc[t * 6 + leader] = -1
        st.where[t] = WON
        st.holder[t] = leader
        st.won[leader].append(t)
        won[leader].append(TILES[t].id)
    for i, t in enumerate(st.tord):
        leader, most = top_bid(st, t)
        st.towin[i] = leader
        if leader >= 0:
            to_supply(st, st.bidc[t * 6 + leader], most)
            st.bidn[t * 6 + leader] = 0
            st.bidc[t * 6 + leader] = -1
            if st.season == WINTER:  # 6. winter: won turn-order tiles join the village
                st.where[t] = WON
                st.holder[t] = leader
                st.won[leader].append(t)
                won[leader].append(TILES[t].id)
    st.auction = []
    # 4. keyples on village tiles go to the village's owner
    for t, us in list(st.uses.items()):
        owner = st.where[t]
        for _, c, m in us:
            gain_keyples(st, owner, c, m)
    st.uses.clear()
    st.lock[:] = [-1] * len(st.lock)
    summary["won"] = won
    summary["turn_order"] = [[TILES[t].id, st.towin[i]] for i, t in enumerate(st.tord)]
    events.append(summary)
    # 5./6. boat choice order: turn-order winners by tile number (once each), then clockwise
    # from this season's start player (D12)
    order: list[int] = []
    for i in sorted(range(len(st.tord)), key=lambda i: TILES[st.tord[i]].number):
        w = st.towin[i]
        if w >= 0 and w not in order:
            order.append(w)
    for k in range(n):
        s = (st.start + k) % n
        if s not in order:
            order.append(s)
    st.border = order
    st.cur = order[0]
    st.phase = BOATS
    events.append({"type": "boat_order", "order": order})


def boat_actions(st: KeyflowerState) -> list[Action]:
    """KF §8 step 5/6: the boats still on the table."""
    return [BOAT_ACT[b] for i, b in enumerate(st.boats) if not st.btaken[i]]


def choose_boat(st: KeyflowerState, s: int, b: int, events: list[Event]) -> None:
    """Step 5: the boat's load goes behind the chooser's screen (it was face up, D22).
    Step 6 (winter): the boat tile itself joins the chooser's village."""
    i = st.boats.index(b)
    st.btaken[i] = True
    if st.season == WINTER:
        st.where[b] = WON
        st.holder[b] = s
        st.won[s].append(b)
        events.append({"type": "boat", "seat": s, "boat": TILES[b].id, "tile": True})
    else:
        keys = st.bkeys[i * 3 : i * 3 + 3]
        sk = st.bskills[i * 3 : i * 3 + 3]
        for c in range(3):
            if keys[c]:
                gain_keyples(st, s, c, keys[c])
        for k in range(3):
            if sk[k]:
                st.skills[s][k] += sk[k]
                st.sknown[s][k] += sk[k]
        st.bkeys[i * 3 : i * 3 + 3] = [0, 0, 0]
        st.bskills[i * 3 : i * 3 + 3] = [0, 0, 0]
        events.append(
            {
                "type": "boat",
                "seat": s,
                "boat": TILES[b].id,
                "keyples": [COLOURS[c] for c in range(3) for _ in range(keys[c])],
                "skills": [SKILLS[k] for k in range(3) for _ in range(sk[k])],
            }
        )
    st.border.pop(0)
    st.turn += 1
    if st.border:
        st.cur = st.border[0]
    else:
        _after_boats(st, events)


def _after_boats(st: KeyflowerState, events: list[Event]) -> None:
    """KF §8 steps 7–9: turn-order tiles back on display, the purple keyple, placement."""
    purple_i = next(i for i, t in enumerate(st.tord) if TILES[t].faces_purple[st.side[t]])
    winner = st.towin[purple_i]
    old = st.purple
    # D13: nobody bid on the purple tile: it passes clockwise from its holder
    st.purple = winner if winner >= 0 else (old + 1) % st.n
    events.append({"type": "purple", "seat": st.purple, "from": old, "won": winner >= 0})
    st.cur = -1
    if any(st.won):
        st.phase = PLACE
        st.psel = [-1] * st.n
        st.pplaced = [[] for _ in range(st.n)]
    else:
        finish_season(st, events)


# ---- placement (KF §9) ----------------------------------------------------------------------
def placing(st: KeyflowerState) -> tuple[int, ...]:
    """Seats with tiles still to place (all of them decide at once)."""
    return tuple(s for s in range(st.n) if st.won[s])


def pending_village(st: KeyflowerState, s: int) -> tuple[dict[int, int], list[int], bool]:
    """``s``'s village with its placements of this phase, the rotations to read it with, and
    whether summer boat 2a is in it (it works from the moment it is placed, D14)."""
    vil = st.vil[s]  # read only: a copy only when placements of this phase join it
    rot = st.rot
    free = bool(st.flags[s] & F_2A)
    if st.pplaced[s]:
        vil = dict(vil)
        rot = list(rot)
        for t, h, r in st.pplaced[s]:
            vil[h] = t
            rot[t] = r
            if FLAG_OF.get(TILES[t].sides[st.side[t]].special or "", 0) == F_2A:
                free = True
    return vil, rot, free


def tile_placements(st: KeyflowerState, s: int, t: int) -> list[Action]:
    """Every ``("place", tile, q, r, rot)`` for ``t`` in ``s``'s village (KF §9, D16)."""
    return _placement_actions(st, s, [t])[t]


def _placement_actions(st: KeyflowerState, s: int, tiles: list[int]) -> dict[int, list[Action]]:
    """The ``("place", ...)`` actions of each of ``tiles`` (KF §9, D16; the positions of
    :func:`village.placements`, in hex then rotation order, within the engine's range)."""
    free = bool(st.flags[s] & F_2A)
    pending = st.pplaced[s]
    for t, _h, _r in pending:
        if FLAG_OF.get(TILES[t].sides[st.side[t]].special or "", 0) == F_2A:
            free = True  # (as pending_village)
    needs = pending_needs(st.vil[s], st.rot, pending)
    out: dict[int, list[Action]] = {}
    for t in tiles:
        acts: list[Action] = []
        fits = False
        rows = _PLACE_ROWS[t]
        if not free:
            cache = _FITS[t]
            fitting = _FITTING[t]
            for h, need in needs:
                m = cache.get(need)
                if m is None:
                    m = _fit_mask(t, need)
                if m:
                    fits = True
                    got = fitting.get(h << 6 | m)
                    if got is None:
                        got = _fitting_row(t, h, m)
                    acts += got
        if not fits:
            # summer boat 2a, or no matching position (D16): any adjacent hex, any rotation
            for h, _need in needs:
                row = rows.get(h)
                acts += row if row is not None else _place_row(t, h)
        out[t] = acts
    return out


def _fit_mask(t: int, need: int) -> int:
    """The rotations of ``t`` that show what a hex needs (``mask << 12 | value``, see
    :func:`village.frontier_needs`: rotation ``r`` fits exactly when ``PACKED[t][r] & mask ==
    value``), as bit ``r`` of the result; stored in :data:`_FITS`."""
    p0, p1, p2, p3, p4, p5 = PACKED[t]
    mask, value = need >> 12, need & 0xFFF
    got = _FITS[t][need] = (
        (p0 & mask == value)
        | (p1 & mask == value) << 1
        | (p2 & mask == value) << 2
        | (p3 & mask == value) << 3
        | (p4 & mask == value) << 4
        | (p5 & mask == value) << 5
    )
    return got


#: Per tile: :func:`_fit_mask` by the hex's need (a pure function of the key, filled as met).
_FITS: list[dict[int, int]] = [{} for _ in TILES]


def _fitting_row(t: int, h: int, m: int) -> tuple[Action, ...]:
    """The ``("place", ...)`` actions of ``t`` at hex ``h`` in the rotations of ``m`` (bit
    ``r``: rotation ``r``), in rotation order (none out of range); stored in
    :data:`_FITTING`."""
    row = _PLACE_ROWS[t].get(h)
    if row is None:
        row = _place_row(t, h)
    got = _FITTING[t][h << 6 | m] = tuple(compress(row, _ROTATIONS_IN[m]))
    return got


#: Per tile: :func:`_fitting_row` by ``hex << 6 | rotations`` (a pure function of the key).
_FITTING: list[dict[int, tuple[Action, ...]]] = [{} for _ in TILES]
#: ``_ROTATIONS_IN[m]``: for each rotation 0..5, whether bit ``r`` of ``m`` is set (the
#: selectors of ``itertools.compress``).
_ROTATIONS_IN: tuple[tuple[bool, ...], ...] = tuple(
    tuple(bool(m >> r & 1) for r in range(6)) for m in range(64)
)
#: Per tile and hex: the six ``("place", tile, q, r, rot)`` by rotation (none out of range).
_PLACE_ROWS: list[dict[int, tuple[Action, ...]]] = [{} for _ in TILES]


def _place_row(t: int, h: int) -> tuple[Action, ...]:
    """The interned ``("place", tile, q, r, rot)`` for every rotation at hex ``h`` (none out of
    the engine's range, E10)."""
    q, r = axial(h)
    tid = TILES[t].id
    row = (
        (
            ("place", tid, q, r, 0),
            ("place", tid, q, r, 1),
            ("place", tid, q, r, 2),
            ("place", tid, q, r, 3),
            ("place", tid, q, r, 4),
            ("place", tid, q, r, 5),
        )
        if in_range(q, r)
        else ()
    )
    _PLACE_ROWS[t][h] = row
    return row


def place_actions(st: KeyflowerState, s: int) -> list[Action]:
    """KF §9 / D16: ``("place", tile, q, r, rot)`` for every tile still to place, in any order
    the seat likes; if that list would be longer than ``FLAT_LIMIT``, the tile is asked first
    (``("place_tile", tile)``), then its positions."""
    if not st.won[s]:
        return []
    if st.psel[s] >= 0:
        return tile_placements(st, s, st.psel[s])
    tiles = sorted(st.won[s])
    by_tile = _placement_actions(st, s, tiles)
    out: list[Action] = []
    for t in tiles:
        out.extend(by_tile[t])
    if len(out) > FLAT_LIMIT and len(tiles) > 1:
        return [PLACE_TILE_ACT[x] for x in tiles]
    return out


def apply_place(st: KeyflowerState, s: int, action: Action) -> list[Event]:
    """A seat's placement step (private until every seat is done)."""
    events: list[Event] = []
    if action[0] == "place_tile":
        st.psel[s] = st.tile_of(action[1])
        events.append({"type": "place_tile", "seat": s, "tile": action[1], "only": [s]})
        return events
    _, tid, q, r, rot = action
    t = st.tile_of(tid)
    st.pplaced[s].append((t, hex_id(q, r), rot))
    st.won[s].remove(t)
    st.psel[s] = -1
    events.append(
        {"type": "place", "seat": s, "tile": tid, "q": q, "r": r, "rot": rot, "only": [s]}
    )
    if not st.won[s]:
        events.append({"type": "placed_all", "seat": s})
    if not any(st.won):
        _resolve_placement(st, events)
    return events


def _resolve_placement(st: KeyflowerState, events: list[Event]) -> None:
    """Every seat has placed: the villages are shown, then step 10 and the next season."""
    shown = []
    for s in range(st.n):
        for t, h, r in st.pplaced[s]:
            st.put_tile(s, t, h, r)
            q, rr = axial(h)
            shown.append([s, TILES[t].id, q, rr, r])
    st.pplaced = [[] for _ in range(st.n)]
    st.psel = [-1] * st.n
    events.append({"type": "placed", "tiles": shown, "reveal": True})
    finish_season(st, events)


def finish_season(st: KeyflowerState, events: list[Event]) -> None:
    """KF §8 step 10 (summer boats 1a/1b from summer on, D14: clockwise from this season's
    start player), then the next season or, after winter, the final scoring."""
    if st.season >= SUMMER:
        for k in range(st.n):
            s = (st.start + k) % st.n
            for t in st.vorder[s]:
                if TILES[t].kind != SUMMER_BOAT:
                    continue
                special = TILES[t].sides[st.side[t]].special or ""
                flag = FLAG_OF.get(special, 0)
                amount = TILES[t].sides[st.side[t]].amount
                if flag == F_1A:
                    random_keyples_to(st, s, amount, TILES[t].id, events)
                elif flag == F_1B:
                    green_to(st, s, amount, events)
    st.turn += 1
    if st.season == WINTER:
        st.phase = OVER
        st.cur = -1
        events.append({"type": "game_over", "scores": st.scores(), "reveal": True})
    else:
        start_season(st, st.season + 1, events)


# ---- winter choice (KF §4.1) ----------------------------------------------------------------
def winter_actions(st: KeyflowerState, s: int) -> list[Action]:
    """Every non-empty set of the seat's winter tiles (3 tiles: 7 choices)."""
    if st.wpick[s] is not None:
        return []
    hand = [TILES[t].id for t in sorted(st.hands[s])]
    out: list[Action] = []
    for k in range(1, len(hand) + 1):
        for combo in combinations(hand, k):
            out.append(("winter_tiles", *combo))
    return out


def apply_winter(st: KeyflowerState, s: int, action: Action) -> list[Event]:
    """Commit ``s``'s winter tiles (hidden until all seats have chosen)."""
    picked = tuple(sorted(st.tile_of(x) for x in action[1:]))
    st.wpick[s] = picked
    events: list[Event] = [
        {"type": "winter_choice", "seat": s, "tiles": list(action[1:]), "only": [s]},
        {"type": "committed", "seat": s},
    ]
    if all(p is not None for p in st.wpick):
        auction: list[int] = []
        for o in range(st.n):
            pick = st.wpick[o]
            assert pick is not None
            for t in st.hands[o]:
                if t in pick:
                    st.where[t] = AUCTION
                    auction.append(t)
                else:
                    st.where[t] = OUT
                st.holder[t] = -1
            st.hands[o] = []
        st.auction = auction
        st.wpick = [None] * st.n
        st.phase = PLAY
        st.turn += 1
        events.append(
            {"type": "winter_auction", "tiles": [TILES[t].id for t in auction], "reveal": True}
        )
    return events
