"""The Glen More tiles and constants, read from ``data/tiles.json`` (GM §1, §8).

Every cost, effect and point value lives in the data file; this module only turns it into
fast tables.  A tile *kind* is an index into :data:`KINDS` (``0`` is the start village, then
the 63 land-tile entries of the data file in order); identical tiles (an entry with
``count`` 2) are the same kind, so stacks, the track and the territories hold kind indices.

Resources are indices into :data:`RESOURCES` (the market's row order: wood, stone, grain,
cattle, sheep).  Edges are :data:`NONE`, :data:`RIVER` or :data:`ROAD`; rivers only run
north-south and roads only east-west, so a tile's edges fall into one of four *classes*
(:data:`PLAIN`, :data:`RIVER_TILE`, :data:`ROAD_TILE`, and the start village's crossing).

Effects are the data file's operations (``op``), kept as plain dicts:

* activation (``on_activate``): ``produce``, ``produce_choice``, ``gain`` (clan member, whisky,
  coins), ``clan_move``, ``convert``, ``score``, ``score_choice``, ``score_distinct``;
* placement (``on_place``): ``gain``, ``gain_resources_choice``,
  ``fill_empty_production_tiles``, ``activate_all_own_tiles``;
* once per turn (``per_turn``): ``activate_any`` (Loch Ness);
* end of game (``end_game``): ``vp_per_tile`` with a tile filter and a score category.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA_FILE = Path(__file__).with_name("data") / "tiles.json"

with DATA_FILE.open(encoding="utf-8") as _fh:
    DATA: dict[str, Any] = json.load(_fh)

#: The five production resources, in market-row order.
RESOURCES: tuple[str, ...] = tuple(DATA["resources"])
NRES = len(RESOURCES)
RES_INDEX: dict[str, int] = {r: i for i, r in enumerate(RESOURCES)}

#: Edge types.
NONE, RIVER, ROAD = 0, 1, 2
EDGE_NAMES = ("none", "river", "road")
#: Edge classes of a tile (its N/S edges are river or none, its E/W edges road or none).
PLAIN, RIVER_TILE, ROAD_TILE, CROSSING = 0, 1, 2, 3
CLASS_NAMES = ("plain", "river", "road", "crossing")

#: Tile categories (border colours, GM §4.3).
YELLOW, GREEN, BROWN, GREY, LOCH = (
    "production_yellow",
    "production_green",
    "brown_scoring",
    "grey_clan",
    "loch",
)

SETUP: dict[str, int] = DATA["setup"]
TRACK_SLOTS: int = SETUP["track_slots"]
START_COINS: int = SETUP["coins"]
START_CLAN: int = SETUP["clan_members"]

SUPPLY: dict[str, Any] = DATA["supply"]
BOX_COINS: int = SUPPLY["coins"]
BOX_WHISKY: int = SUPPLY["whisky"]
BOX_CLAN: int = SUPPLY["clan_members"]
BOX_RESOURCES: tuple[int, ...] = tuple(SUPPLY["resources"][r] for r in RESOURCES)

MARKET: dict[str, Any] = DATA["market"]
#: The price of each market space: buying fills the lowest empty one, selling empties the
#: highest filled one (GM §6).
PRICES: tuple[int, ...] = tuple(MARKET["prices"])
ROW_SPACES = len(PRICES)
PREFILL_PLAYERS: frozenset[int] = frozenset(MARKET["prefill_players"])
PREFILL_SPACES: int = MARKET["prefill_spaces"]

DIE_FACES: tuple[int, ...] = tuple(DATA["die"]["faces"])
DIE_PLAYERS: frozenset[int] = frozenset(DATA["die"]["players"])

SCORING: dict[str, Any] = DATA["scoring"]
#: VP by difference to the fewest (index = difference, the last entry for anything larger).
DIFFERENCE_VP: tuple[int, ...] = tuple(SCORING["difference_vp"])
COIN_VP: int = SCORING["coin_vp"]
TILE_PENALTY: int = SCORING["tile_penalty"]
ROUNDS: int = SCORING["rounds"]


@dataclass(frozen=True)
class Kind:
    """One kind of tile, straight from the data file (plus derived fields)."""

    index: int
    id: str
    name: str
    stack: int  # -1: the start village
    count: int
    category: str
    edges: tuple[int, int, int, int]  # N, E, S, W
    edge_class: int
    cost_res: tuple[int, ...]  # per resource
    cost_any: int
    cost_whisky: int
    cost_clan: int
    on_place: tuple[dict[str, Any], ...]
    on_activate: tuple[dict[str, Any], ...]
    per_turn: tuple[dict[str, Any], ...]
    end_game: tuple[dict[str, Any], ...]
    special: bool
    bonnets: int
    chieftain_multiplier: int
    #: The resource a ``produce`` activation puts on the tile (-1: none; -2: of choice).
    produces: int
    #: Whether its activation gives a clan member and/or movement (grey tiles).
    grey: bool
    raw: dict[str, Any]

    @property
    def cost_need(self) -> list[int]:
        """The resource part of the cost per resource, as a fresh list."""
        return list(self.cost_res)

    @property
    def has_res_cost(self) -> bool:
        return bool(self.cost_any) or any(self.cost_res)

    @property
    def has_cost(self) -> bool:
        return bool(sum(self.cost_res) or self.cost_any or self.cost_whisky or self.cost_clan)

    @property
    def is_production(self) -> bool:
        """A production tile for Loch Shiel (GM §8): it produces a resource when activated."""
        return self.produces != -1


def _edge_class(edges: tuple[int, int, int, int]) -> int:
    n, e, s, w = edges
    river = n == RIVER or s == RIVER
    road = e == ROAD or w == ROAD
    if river and road:
        return CROSSING
    if river:
        if not (n == RIVER and s == RIVER and e == NONE and w == NONE):
            raise ValueError("a river tile has rivers N and S and nothing E and W")
        return RIVER_TILE
    if road:
        if not (e == ROAD and w == ROAD and n == NONE and s == NONE):
            raise ValueError("a road tile has roads E and W and nothing N and S")
        return ROAD_TILE
    return PLAIN


def _kind(index: int, raw: dict[str, Any]) -> Kind:
    edges = tuple(EDGE_NAMES.index(raw["edges"][d]) for d in "NESW")
    cost = raw["cost"]
    produces = -1
    for op in raw["on_activate"]:
        if op["op"] == "produce":
            produces = RES_INDEX[op["resource"]]
        elif op["op"] == "produce_choice":
            produces = -2
    return Kind(
        index=index,
        id=raw["id"],
        name=raw["name"],
        stack=-1 if raw["stack"] is None else int(raw["stack"]),
        count=int(raw.get("count", 1)),
        category=raw["category"],
        edges=edges,  # type: ignore[arg-type]
        edge_class=_edge_class(edges),  # type: ignore[arg-type]
        cost_res=tuple(int(cost["resources"].get(r, 0)) for r in RESOURCES),
        cost_any=int(cost["any"]),
        cost_whisky=int(cost["whisky"]),
        cost_clan=int(cost["clan_members"]),
        on_place=tuple(raw["on_place"]),
        on_activate=tuple(raw["on_activate"]),
        per_turn=tuple(raw["per_turn"]),
        end_game=tuple(raw["end_game"]),
        special=bool(raw["special"]),
        bonnets=int(raw["bonnets"]),
        chieftain_multiplier=int(raw["chieftain_multiplier"]),
        produces=produces,
        grey=any(op["op"] in ("clan_move",) for op in raw["on_activate"]),
        raw=raw,
    )


#: Every tile kind: index 0 is the start village, then the land tiles in data order.
KINDS: tuple[Kind, ...] = (
    _kind(0, DATA["start_village"]),
    *(_kind(i + 1, raw) for i, raw in enumerate(DATA["tiles"])),
)
START_VILLAGE = 0
KIND_BY_ID: dict[str, int] = {k.id: k.index for k in KINDS}
NKINDS = len(KINDS)

#: The tile stacks 0..3 by their backs: kind indices, each repeated ``count`` times (GM §2).
STACKS: tuple[tuple[int, ...], ...] = tuple(
    tuple(k.index for k in KINDS[1:] if k.stack == s for _ in range(k.count)) for s in range(4)
)
NSTACKS = len(STACKS)
#: How many tiles each stack holds.
STACK_SIZES: tuple[int, ...] = tuple(len(s) for s in STACKS)
LAND_TILES = sum(STACK_SIZES)

#: The end-game score categories of the special tiles, in data order (``iona_abbey``, ...).
END_CATEGORIES: tuple[str, ...] = tuple(
    op["category"] for k in KINDS for op in k.end_game if op["op"] == "vp_per_tile"
)

#: Kinds by property, for fast tests.
SPECIAL_KINDS: frozenset[int] = frozenset(k.index for k in KINDS if k.special)
EXTRA_ACTIVATION_KINDS: frozenset[int] = frozenset(
    k.index for k in KINDS if any(op["op"] == "activate_any" for op in k.per_turn)
)


def matches(kind: Kind, flt: dict[str, Any]) -> bool:
    """Whether a tile counts for an end-game ``vp_per_tile`` filter (GM §7.2): the filter's
    ``category`` and ``name`` (when given) must match; the start village counts as a
    ``"Village"`` only with ``include_start_village``."""
    if "category" in flt and kind.category != flt["category"]:
        return False
    if "name" in flt:
        if kind.index == START_VILLAGE:
            return bool(flt.get("include_start_village", False)) and flt["name"] == "Village"
        if kind.name != flt["name"]:
            return False
    return True


def describe_cost(kind: Kind) -> str:
    """The cost of a tile in words (``"1 wood, 1 stone"``, ``"free"``)."""
    parts = [f"{n} {RESOURCES[r]}" for r, n in enumerate(kind.cost_res) if n]
    if kind.cost_any:
        parts.append(f"{kind.cost_any} resources of any kinds")
    if kind.cost_whisky:
        parts.append(f"{kind.cost_whisky} whisky")
    if kind.cost_clan:
        parts.append(f"{kind.cost_clan} clan member")
    return ", ".join(parts) if parts else "free"


def catalogue() -> list[dict[str, Any]]:
    """Every tile kind as a plain dict (the data file's entry plus ``kind``, ``cost_text`` and
    ``edge_class``), for help pages and clients."""
    out = []
    for k in KINDS:
        entry = dict(k.raw)
        entry["kind"] = k.index
        entry["cost_text"] = describe_cost(k)
        entry["edge_class"] = CLASS_NAMES[k.edge_class]
        out.append(entry)
    return out


#: Operations that wait for a player's choice or payment; in ``on_activate`` they come last.
PAUSING_OPS = frozenset({"produce_choice", "convert", "score_choice", "score_distinct"})


def _pauses(op: dict[str, Any]) -> bool:
    if op["op"] in PAUSING_OPS:
        return True
    return op["op"] == "score" and (bool(op.get("pay")) or bool(op.get("pay_any")))


def _split_grey(kind: Kind, clan_on_place: bool) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The ``(on_place, on_activate)`` operations of ``kind`` under the clan-member option
    (GM §4.3): with ``clan_on_place`` a grey tile's clan member comes once, when it is placed,
    and its activations give only the movement point."""
    if not clan_on_place or kind.category != GREY:
        return kind.on_place, kind.on_activate
    gains = tuple(
        op for op in kind.on_activate if op["op"] == "gain" and op["what"] == "clan_member"
    )
    rest = tuple(op for op in kind.on_activate if op not in gains)
    return kind.on_place + gains, rest


#: ``PLACE_OPS[mode][kind]`` and ``ACTIVATE_OPS[mode][kind]``; mode 1 = clan members on placement.
PLACE_OPS: tuple[tuple[tuple[dict[str, Any], ...], ...], ...] = tuple(
    tuple(_split_grey(k, bool(mode))[0] for k in KINDS) for mode in (0, 1)
)
ACTIVATE_OPS: tuple[tuple[tuple[dict[str, Any], ...], ...], ...] = tuple(
    tuple(_split_grey(k, bool(mode))[1] for k in KINDS) for mode in (0, 1)
)


def _check_data() -> None:
    """The shape the engine relies on: a waiting operation is the last of an activation."""
    for k in KINDS:
        for i, op in enumerate(k.on_activate):
            if _pauses(op) and i != len(k.on_activate) - 1:
                raise ValueError(f"{k.id}: {op['op']} must be the last activation operation")
    if (
        sum(STACK_SIZES) != LAND_TILES
        or tuple(int(DATA["stack_sizes"][str(s)]) for s in range(NSTACKS)) != STACK_SIZES
    ):
        raise ValueError("the stacks do not hold the data file's stack_sizes")


_check_data()
