"""Keyflower's components, read from ``data/tiles.json`` (KF §2, §3, §11, §12, §13).

Every number of the game — tile effects, upgrade costs, printed VP, edges, boat loads and sides,
turn-order faces, per-player-count setup, supply sizes, scoring rates — comes from the data file,
so a correction of a tile touches the data only.  This module turns the file into small,
immutable Python objects the rules read quickly:

* every one of the 64 hex tiles (home tiles, 48 season tiles incl. the 4 summer boats, the 6
  boats, the 4 turn-order tiles) is a :class:`TileDef` with an int index ``TILES[i].idx == i``;
* each side (front/upgraded, summer-boat face a/b, boat side A/B, turn-order face a/b) is a
  :class:`Side` whose action is parsed into plain tuples.

Colours, resources and skills are ints: ``RED BLUE YELLOW GREEN`` = 0..3, ``WOOD STONE IRON
GOLD`` = 0..3, ``SAW PICKAXE ANVIL`` = 0..2.  Rule references ``KF §n`` point to
``shared/rules/keyflower.md``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

# ---- vocabulary -------------------------------------------------------------------------------
COLOURS = ("red", "blue", "yellow", "green")
RED, BLUE, YELLOW, GREEN = 0, 1, 2, 3
BAG_COLOURS = (RED, BLUE, YELLOW)
RESOURCES = ("wood", "stone", "iron", "gold")
WOOD, STONE, IRON, GOLD = 0, 1, 2, 3
BASIC = (WOOD, STONE, IRON)
SKILLS = ("saw", "pickaxe", "anvil")
SAW, PICKAXE, ANVIL = 0, 1, 2
SEASONS = ("spring", "summer", "autumn", "winter")
SPRING, SUMMER, AUTUMN, WINTER = 0, 1, 2, 3
EDGE_TYPES = ("road", "river", "field")
ROAD, RIVER, FIELD = 0, 1, 2

COLOUR_OF = {name: i for i, name in enumerate(COLOURS)}
RESOURCE_OF = {name: i for i, name in enumerate(RESOURCES)}
SKILL_OF = {name: i for i, name in enumerate(SKILLS)}

#: Tile kinds.
HOME, VILLAGE, SUMMER_BOAT, WINTER_TILE, BOAT, TURN_ORDER = (
    "home",
    "village",
    "summer_boat",
    "winter",
    "boat",
    "turn_order",
)

#: Action kinds of a side (``Side.action``); ``None``: the side has no action (KF §6.1, D4).
PRODUCE, CHOICE, KEYPLES, SKILLTILES, EXCHANGE, TRANSPORT = (
    "produce",
    "produce_choice",
    "gain_keyples",
    "gain_skills",
    "exchange",
    "transport",
)


@dataclass(frozen=True)
class Cost:
    """An upgrade cost (KF §7.2): resources that must lie on the tile, skills from the screen.

    ``res`` counts wood, stone, iron, gold; ``any_res`` any resources (gold included);
    ``skills`` counts saw, pickaxe, anvil; ``any_skill`` skills of any kinds.
    """

    res: tuple[int, int, int, int] = (0, 0, 0, 0)
    any_res: int = 0
    skills: tuple[int, int, int] = (0, 0, 0)
    any_skill: int = 0

    def as_dict(self) -> dict[str, int]:
        out = {RESOURCES[k]: v for k, v in enumerate(self.res) if v}
        if self.any_res:
            out["any_resource"] = self.any_res
        out.update({SKILLS[k]: v for k, v in enumerate(self.skills) if v})
        if self.any_skill:
            out["any_skill"] = self.any_skill
        return out


@dataclass(frozen=True)
class Side:
    """One side of a tile, parsed from its ``effect``.

    * ``action`` — the kind of use (``None``: no action; storage, VP-only, winter, boats);
    * ``produce`` — resources produced (PRODUCE, and EXCHANGE's resource gain);
    * ``choice`` — (count, kinds) of the white resource icon (CHOICE);
    * ``random_keyples`` / ``green`` / ``choice_keyples`` — keyples gained ('?', green, white);
    * ``random_skills`` — skill tiles drawn ('?');
    * ``pay_colours`` / ``pay_any_keyple`` / ``pay_skills`` / ``pay_any_skill`` — the extra
      cost of an exchange tile, paid from the screen (KF §6.3);
    * ``transport`` / ``upgrade`` — the wagon and house numbers (TRANSPORT);
    * ``store`` — (accepted resource kinds, VP each) of a storage tile (KF §13 step 4);
    * ``score`` — a winter tile's scoring rule (the data's ``score_per`` or ``{"vp": n}``);
    * ``special`` — a summer boat face's effect name.
    """

    face: str
    vp: int
    text: str
    action: str | None = None
    produce: tuple[int, int, int, int] = (0, 0, 0, 0)
    choice: tuple[int, tuple[int, ...]] = (0, ())
    random_keyples: int = 0
    green: int = 0
    choice_keyples: int = 0
    random_skills: int = 0
    pay_colours: tuple[int, int, int, int] = (0, 0, 0, 0)
    pay_any_keyple: int = 0
    pay_skills: tuple[int, int, int] = (0, 0, 0)
    pay_any_skill: int = 0
    transport: int = 0
    upgrade: int = 0
    store: tuple[tuple[int, ...], int] | None = None
    score: dict[str, Any] | None = None
    special: str | None = None
    amount: int = 0

    @property
    def pays(self) -> bool:
        """Whether using this side costs items from the screen besides the keyples placed."""
        return bool(
            self.pay_any_keyple
            or self.pay_any_skill
            or any(self.pay_colours)
            or any(self.pay_skills)
        )


@dataclass(frozen=True)
class TileDef:
    """One hex tile of the box (static data).  ``sides[0]`` is the front (or face a / side A)."""

    idx: int
    id: str
    name: str
    kind: str
    season: int  # SPRING..WINTER, -1 for home tiles, boats and turn-order tiles
    edges: tuple[int, ...]
    sides: tuple[Side, ...]
    cost: Cost | None = None
    number: int = 0  # home tile number / turn-order tile number
    #: boats: side index per season (0 = A, 1 = B), loads (keyples, skills) per side
    boat_sides: tuple[int, ...] = ()
    loads: tuple[tuple[int, int], ...] = ()
    boat_scoring: dict[str, Any] = field(default_factory=dict)
    min_players: int = 0
    #: turn-order tiles: per face, (boat choice number, shows the purple keyple)
    faces_purple: tuple[bool, ...] = ()

    @property
    def upgradable(self) -> bool:
        """KF §7.2 (D7): home and village tiles with an upgrade cost can be flipped."""
        return self.cost is not None and self.kind in (HOME, VILLAGE)


def _ints(d: dict[str, Any], names: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(int(d.get(n, 0)) for n in names)


def _side(raw: dict[str, Any]) -> Side:
    eff: dict[str, Any] = raw["effect"]
    kw: dict[str, Any] = {"face": raw["face"], "vp": int(raw["vp"] or 0), "text": raw["text"]}
    if "produce" in eff:
        kw["action"] = PRODUCE
        kw["produce"] = _ints(eff["produce"], RESOURCES)
    elif "produce_choice" in eff:
        kw["action"] = CHOICE
        pc = eff["produce_choice"]
        kw["choice"] = (int(pc["count"]), tuple(RESOURCE_OF[k] for k in pc["from"]))
    elif "gain_keyples" in eff:
        kw["action"] = KEYPLES
        g = eff["gain_keyples"]
        kw["random_keyples"] = int(g.get("random", 0))
        kw["green"] = int(g.get("green", 0))
        kw["choice_keyples"] = int(g.get("choice", 0))
    elif "gain_skills" in eff:
        kw["action"] = SKILLTILES
        kw["random_skills"] = int(eff["gain_skills"].get("random", 0))
    elif "exchange" in eff:
        kw["action"] = EXCHANGE
        pay, gain = eff["exchange"]["pay"], eff["exchange"]["gain"]
        kw["pay_colours"] = _ints(pay, COLOURS)
        kw["pay_any_keyple"] = int(pay.get("any_keyple", 0))
        kw["pay_skills"] = _ints(pay, SKILLS)
        kw["pay_any_skill"] = int(pay.get("any_skill", 0))
        kw["produce"] = _ints(gain, RESOURCES)
        kw["green"] = int(gain.get("green", 0))
        kw["random_keyples"] = int(gain.get("random_keyples", 0))
        kw["random_skills"] = int(gain.get("random_skills", 0))
    elif "transport" in eff:
        kw["action"] = TRANSPORT
        kw["transport"] = int(eff["transport"])
        kw["upgrade"] = int(eff.get("upgrade", 0))
    elif "store_score" in eff:
        ss = eff["store_score"]
        kw["store"] = (tuple(RESOURCE_OF[k] for k in ss["accepts"]), int(ss["vp_each"]))
    elif "score_per" in eff:
        kw["score"] = dict(eff["score_per"])
    elif "vp" in eff:
        kw["score"] = {"vp": int(eff["vp"])}
    elif "special" in eff:
        kw["special"] = eff["special"]
        kw["amount"] = int(eff.get("amount", 0))
    return Side(**kw)


def _cost(raw: dict[str, Any] | None) -> Cost | None:
    if not raw:
        return None
    return Cost(
        res=_ints(raw, RESOURCES),  # type: ignore[arg-type]
        any_res=int(raw.get("any_resource", 0)),
        skills=_ints(raw, SKILLS),  # type: ignore[arg-type]
        any_skill=int(raw.get("any_skill", 0)),
    )


def _edges(raw: list[str]) -> tuple[int, ...]:
    edges = tuple(EDGE_TYPES.index(e) for e in raw)
    if len(edges) != 6:
        raise ValueError("a hex tile has six sides")
    return edges


def _load() -> dict[str, Any]:
    text = resources.files("game.keyflower").joinpath("data/tiles.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


DATA: dict[str, Any] = _load()


def _build() -> tuple[TileDef, ...]:
    out: list[TileDef] = []
    season_of = {name: i for i, name in enumerate(SEASONS)}
    for raw in DATA["tiles"]:
        out.append(
            TileDef(
                idx=len(out),
                id=raw["id"],
                name=raw["name"],
                kind=raw["kind"],
                season=season_of.get(raw["season"], -1),
                edges=_edges(raw["edges"]),
                sides=tuple(_side(s) for s in raw["sides"]),
                cost=_cost(raw.get("upgrade_cost")),
                number=int(raw.get("number", 0)),
            )
        )
    for raw in DATA["boats"]:
        loads = []
        for name in ("A", "B"):
            ld = raw["loads"][name]
            loads.append((int(ld["keyples"]), int(ld["skills"])) if ld else (0, 0))
        sides = tuple(
            Side(face=f, vp=int(raw["printed_vp"]) if f == "B" else 0, text=raw["text"])
            for f in ("A", "B")
        )
        out.append(
            TileDef(
                idx=len(out),
                id=raw["id"],
                name=raw["name"],
                kind=BOAT,
                season=-1,
                edges=_edges(raw["edges"]),
                sides=sides,
                boat_sides=tuple(0 if raw["side_by_season"][s] == "A" else 1 for s in SEASONS),
                loads=tuple(loads),
                boat_scoring=dict(raw["winter_scoring"]),
                min_players=int(raw["min_players"]),
            )
        )
    for raw in DATA["turn_order_tiles"]:
        out.append(
            TileDef(
                idx=len(out),
                id=raw["id"],
                name=raw["name"],
                kind=TURN_ORDER,
                season=-1,
                edges=_edges(raw["edges"]),
                sides=tuple(
                    Side(face=f["face"], vp=int(raw["printed_vp"]), text=raw["name"])
                    for f in raw["faces"]
                ),
                number=int(raw["number"]),
                faces_purple=tuple(bool(f["purple_keyple"]) for f in raw["faces"]),
            )
        )
    return tuple(out)


#: Every tile of the box, by index.
TILES: tuple[TileDef, ...] = _build()
NTILES = len(TILES)
#: Tile index by id.
INDEX: dict[str, int] = {t.id: t.idx for t in TILES}
if len(INDEX) != NTILES:  # pragma: no cover - a data error
    raise ValueError("tile ids in data/tiles.json are not unique")

HOMES: tuple[int, ...] = tuple(t.idx for t in TILES if t.kind == HOME)
#: Village tiles (summer boats included) of each season, in data order.
SEASON_TILES: tuple[tuple[int, ...], ...] = tuple(
    tuple(t.idx for t in TILES if t.kind in (VILLAGE, SUMMER_BOAT, WINTER_TILE) and t.season == s)
    for s in range(4)
)
WINTER_TILES: tuple[int, ...] = SEASON_TILES[WINTER]
BOATS: tuple[int, ...] = tuple(INDEX[b] for b in DATA["boat_order"])
TURN_TILES: tuple[int, ...] = tuple(t.idx for t in TILES if t.kind == TURN_ORDER)
STORAGE: frozenset[int] = frozenset(INDEX[i] for i in DATA["storage_tiles"])

SUMMER_BOAT_IDX: dict[int, int] = {
    int(TILES[i].id.rsplit("_", 1)[1]): i
    for i in SEASON_TILES[SUMMER]
    if TILES[i].kind == SUMMER_BOAT
}

COMPONENTS: dict[str, Any] = DATA["components"]
BAG_START: tuple[int, int, int] = tuple(int(COMPONENTS["bag"][COLOURS[c]]) for c in BAG_COLOURS)  # type: ignore[assignment]
GREEN_START: int = int(COMPONENTS["green"])
SKILLS_START: tuple[int, int, int] = tuple(int(COMPONENTS["skills"][k]) for k in SKILLS)  # type: ignore[assignment]
RESOURCES_START: tuple[int, int, int, int] = tuple(  # type: ignore[assignment]
    int(COMPONENTS["resources"][k]) for k in RESOURCES
)
SCORING: dict[str, Any] = DATA["scoring"]


@dataclass(frozen=True)
class Setup:
    """KF §3: what a player count uses."""

    auction: int
    winter_dealt: int
    boats: tuple[int, ...]
    turn_order: tuple[tuple[int, int], ...]  # (tile index, face index)
    keyples: int


def setup_for(players: int) -> Setup:
    raw = DATA["player_counts"][str(players)]
    turn: list[tuple[int, int]] = []
    for number, face in raw["turn_order"]:
        tile = TILES[INDEX[f"turn_order_{number}"]]
        turn.append((tile.idx, [s.face for s in tile.sides].index(face)))
    return Setup(
        auction=int(raw["auction_tiles"]),
        winter_dealt=int(raw["winter_tiles_dealt"]),
        boats=tuple(INDEX[b] for b in raw["boats"]),
        turn_order=tuple(turn),
        keyples=int(raw["keyples_per_player"]),
    )


SETUPS: dict[int, Setup] = {n: setup_for(n) for n in range(2, 7)}


def special_of(tile: int, side: int) -> str | None:
    """The summer-boat effect shown by ``tile`` on ``side`` (``None`` for other tiles)."""
    t = TILES[tile]
    return t.sides[side].special if t.kind == SUMMER_BOAT else None


#: Summer boat effects (KF §11.2) by the data's ``special`` names.
SB_RANDOM_KEYPLES = "end_of_season_random_keyples"  # 1a
SB_GREEN = "end_of_season_green_keyples"  # 1b
SB_ADJACENT = "adjacent_tiles_count_as_road_connected"  # 2a
SB_DOUBLE = "double_transport_and_upgrade"  # 2b
SB_WILD_UPGRADE = "resources_wild_for_upgrades"  # 3a
SB_WILD_SCORING = "resources_wild_for_scoring"  # 3b
SB_BID_COLOUR = "bid_ignoring_colour"  # 4a
SB_USE_COLOUR = "produce_ignoring_colour"  # 4b
SPECIALS = (
    SB_RANDOM_KEYPLES,
    SB_GREEN,
    SB_ADJACENT,
    SB_DOUBLE,
    SB_WILD_UPGRADE,
    SB_WILD_SCORING,
    SB_BID_COLOUR,
    SB_USE_COLOUR,
)
