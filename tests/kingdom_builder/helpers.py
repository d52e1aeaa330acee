"""Building Kingdom Builder positions by hand for rules tests.

:func:`position` starts from a real game's saved form, replaces the facts a test cares about
(board, settlements, walls, tiles, the card in hand, the turn) and loads it back through
``GAME.from_dict`` — so every hand-built position also passes the loader's consistency checks,
and the incremental tables are rebuilt exactly as for a saved game.

Hexes are ``(row, col)`` on the assembled map.  The default board is the first-game layout
(Tavern TL, Paddock TR, Oasis BL, Farm BR, none turned);
print ``state.report_text()`` to see the map with coordinates.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from game.core.types import Action
from game.kingdom_builder import GAME
from game.kingdom_builder import nomads as nm
from game.kingdom_builder.board import board_for
from game.kingdom_builder.state import KingdomBuilderState

Hex = tuple[int, int]

FIRST_GAME = ("Tavern", "Paddock", "Oasis", "Farm")
FIRST_CARDS = ("Fishermen", "Merchants", "Knights")
TERRAINS = "GCDFT"


def position(
    *,
    players: int = 2,
    sections: Sequence[str] = FIRST_GAME,
    rotations: Sequence[bool] = (False, False, False, False),
    cards: Sequence[str] = FIRST_CARDS,
    settlements: Mapping[int, Iterable[Hex]] | None = None,
    walls: Iterable[Hex] = (),
    walls_left: int | None = None,
    current: int = 0,
    start: int = 0,
    terrain: str = "G",
    tiles: Mapping[int, Mapping[Hex, str]] | None = None,
    taken: Mapping[int, Iterable[Hex]] | None = None,
    placed: int = 0,
    mandatory_done: bool = False,
    pending: dict[str, Any] | None = None,
    end_triggered: bool | None = None,
    round: int = 1,
    nomads: bool | str | None = None,
    deck: Sequence[str] | None = None,
    discard: Sequence[str] = (),
    nomad_tiles: Mapping[Hex, str] | None = None,
    nomad_held: Mapping[int, Mapping[Hex, tuple[str, str]]] | None = None,
    gold: Mapping[int, Mapping[str, int]] | None = None,
    outpost: int = 0,
    mandatory_hexes: Sequence[Hex] = (),
) -> KingdomBuilderState:
    """A state with exactly these facts (see the module docstring).

    ``tiles[seat]`` maps a location hex to ``"ready"``/``"used"``/``"pending"``; ``taken``
    adds location hexes a seat took from (and maybe lost); hexes in ``tiles`` count as taken,
    and so do location hexes next to a seat's settlements (it took a tile on arrival, KB §6.1,
    and, if it holds none from there, lost it since).
    Other seats hold the first terrains of ``GCDFT`` left after ``terrain`` and ``discard``;
    the draw pile is the rest (``deck`` overrides it; its last card is the top).

    Nomads: ``nomads`` is the expansion setting (``"off"``/``"boards"``/``"full"``; a bool as
    the option reads it; by default ``"full"`` when nomad tiles, held nomad tiles or a Nomads
    card are given, else ``"boards"`` with a Nomads section, else ``"off"``).  ``nomad_tiles``
    maps nomad hexes to the tile id still lying there (none by default); ``nomad_held[seat]``
    maps a nomad hex to ``(tile id, state)``; ``gold[seat]`` maps sources to gold.
    """
    nomad_tiles = nomad_tiles or {}
    nomad_held = nomad_held or {}
    if nomads is None:
        full = bool(nomad_tiles or nomad_held or gold) or any(c in nm.CARDS for c in cards)
        on_boards = any(s in ("Quarry", "Caravan", "Village", "Garden") for s in sections)
        nomads = nm.FULL if full else nm.BOARDS if on_boards else nm.OFF
    elif isinstance(nomads, bool):
        nomads = nm.BOARDS if nomads else nm.OFF
    base = GAME.new(players, {"nomads": nomads} if nomads != nm.OFF else {}, 0).to_dict()
    homes = {s: sorted(settlements.get(s, ())) if settlements else [] for s in range(players)}
    d = dict(base)
    d["sections"] = list(sections)
    d["rotations"] = list(rotations)
    d["nomads"] = nomads
    d["cards"] = list(cards)
    d["start_seat"] = start
    d["current"] = current
    d["round"] = round
    d["terrain"] = terrain
    d["placed"] = placed
    d["mandatory_done"] = mandatory_done
    d["mandatory_hexes"] = [list(h) for h in mandatory_hexes]
    d["outpost"] = outpost
    if pending is not None:
        pending = {"left": 0, "hit": [], **pending}
    d["pending"] = pending
    d["settlements"] = [[list(h) for h in homes[s]] for s in range(players)]
    d["supply"] = [40 - len(homes[s]) for s in range(players)]
    d["end_triggered"] = (
        any(len(homes[s]) == 40 for s in range(players)) if end_triggered is None else end_triggered
    )
    d["walls"] = [list(h) for h in sorted(walls)]
    quarry = "Quarry" in sections
    d["walls_left"] = (25 - len(d["walls"]) if quarry else 0) if walls_left is None else walls_left
    tiles = tiles or {}
    taken = taken or {}
    d["tiles"] = [
        [[r, c, st] for (r, c), st in sorted(tiles.get(s, {}).items())] for s in range(players)
    ]
    board = board_for(tuple(sections), tuple(rotations))
    # KB §6.1: a settlement next to a location hex took one of its tiles when it arrived.  A
    # location hex a seat touches without holding its tile is therefore one it took from and
    # then lost (KB §6.2) — reachable, and it never gives that seat a tile again.
    touched = [
        {(n // 20, n % 20) for r, c in homes[s] for n in board.loc_adj[r * 20 + c]}
        for s in range(players)
    ]
    took = [
        sorted(set(tiles.get(s, {})) | set(taken.get(s, ())) | touched[s]) for s in range(players)
    ]
    d["taken_from"] = [[list(h) for h in took[s]] for s in range(players)]
    # Location tiles left on each hex: 2 minus the seats that took one.
    d["location_tiles"] = [
        [
            loc // 20,
            loc % 20,
            2 - sum(1 for s in range(players) if (loc // 20, loc % 20) in took[s]),
        ]
        for loc in board.locations
    ]
    # Cards: the current seat holds `terrain`; the others take the first free terrains.
    pool = [t for t in TERRAINS for _ in range(5)]
    for card in [terrain, *discard]:
        pool.remove(card)
    hands: list[str | None] = []
    for s in range(players):
        if s == current:
            hands.append(terrain)
        else:
            card = pool[0]
            pool.remove(card)
            hands.append(card)
    if deck is not None:
        for card in deck:
            pool.remove(card)
        if pool:
            raise ValueError(f"deck leaves cards unaccounted for: {pool}")
        pool = list(deck)
    d["hands"] = hands
    d["deck"] = pool
    d["discard"] = list(discard)
    d["nomad_tiles"] = [[r, c, tid] for (r, c), tid in sorted(nomad_tiles.items())]
    d["nomad_held"] = [
        [[r, c, tid, st] for (r, c), (tid, st) in sorted(nomad_held.get(s, {}).items())]
        for s in range(players)
    ]
    gold = gold or {}
    d["gold"] = [
        {source: gold.get(s, {}).get(source, 0) for source in nm.GOLD_SOURCES}
        for s in range(players)
    ]
    state = GAME.from_dict(d)
    assert isinstance(state, KingdomBuilderState)
    return state


def hexes_of(state: KingdomBuilderState, actions: Iterable[Action], kind: str) -> set[Hex]:
    """The (row, col) of every action of ``kind`` in ``actions``."""
    return {(a[1], a[2]) for a in actions if a[0] == kind}


def legal(state: KingdomBuilderState, kind: str = "place") -> set[Hex]:
    """The hexes of the current seat's legal actions of one kind."""
    return hexes_of(state, state.legal_actions(state.cur), kind)


def play(state: KingdomBuilderState, *actions: Action) -> list[dict[str, Any]]:
    """Apply actions for the seat to move; return all events."""
    events: list[dict[str, Any]] = []
    for action in actions:
        events += state.apply(state.cur, action)
    return events


def filler(
    state: KingdomBuilderState, count: int, avoid: Iterable[Hex] = (), rows: range = range(20)
) -> list[Hex]:
    """``count`` empty buildable hexes, none next to a location or castle nor in ``avoid``,
    scanning ``rows`` top to bottom: padding to bring a seat close to 40 settlements."""
    b = state.board
    banned = set(avoid)
    out: list[Hex] = []
    for r in rows:
        for c in range(20):
            h = r * 20 + c
            if (r, c) in banned or not b.buildable[h] or state.owner[h] != -1:
                continue
            if b.loc_adj[h] or any(n in b.specials for n in b.nbrs[h]):
                continue
            out.append((r, c))
            if len(out) == count:
                return out
    raise ValueError("not enough filler hexes")
