"""Kingdom Builder: Nomads — the nomad tiles and the Nomads cards as data (KB §1.2, §7, §9.3).

Everything here is read from ``data/nomads.json`` (effects, card values, the open details and
the decisions taken for them) and ``data/sections.json`` (the mix of 15 tiles), converted from
the shared board file's ``nomad_tiles`` block and the rules file.  The engine takes every number
of the expansion from the names below, so a ruling read later in the Nomads rulebook is a data
change:

* :data:`DONATION_SETTLEMENTS` — a Donation tile builds 3 settlements on its terrain;
* :data:`TREASURE_GOLD` and :data:`TREASURE_PAID` — 3 gold, paid when the tile is *used*
  (``"used"``, the interim decision of KB §7) or at once when it is *taken* (``"taken"``);
* :data:`RESETTLEMENT_STEPS` — 4 single steps;
* :data:`OUTPOST_BUILDS` — how many builds of the turn ignore the adjacency rule (1, the
  interim decision of KB §7);
* :data:`CARD_GOLD` — Ambassadors 1, Families 2, Shepherds 2 (KB §9.3).

The expansion settings (option ``nomads``): ``"off"`` the base game; ``"boards"`` the Nomads
boards join the 8 base sections (their location tiles, stone walls and nomad hexes, which stay
empty), with the base cards; ``"full"`` adds the nomad tiles on the nomad hexes and the three
Nomads cards to the card pool.  A fifth player may join whenever the expansion is in play.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from game.kingdom_builder.board import TERRAIN_CODES, section_data

#: The expansion settings, in the order the setup screen offers them.
OFF, BOARDS, FULL = "off", "boards", "full"
MODES = (OFF, BOARDS, FULL)


@cache
def nomads_data() -> dict[str, Any]:
    """The parsed ``data/nomads.json``."""
    text = resources.files("game.kingdom_builder").joinpath("data/nomads.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


_DATA = nomads_data()
_EFFECTS: dict[str, Any] = _DATA["effects"]

#: Tile id -> how many of it the box holds (15 in all; KB §1.2).
MIX: dict[str, int] = dict(section_data()["nomad_tiles"])
#: Every nomad tile id, in the data's order ("Donation - Water", ..., "Resettlement").
TILE_IDS: tuple[str, ...] = tuple(_DATA["tiles"])
#: The box's 15 tiles (each id as often as the mix says), the pool of the setup draw.
POOL: tuple[str, ...] = tuple(t for t in TILE_IDS for _ in range(MIX[t]))
#: Tile id -> its type: Donation, Treasure, Sword, Outpost, Resettlement.
TILE_TYPE: dict[str, str] = {t: v["type"] for t, v in _DATA["tiles"].items()}
#: Tile id -> the terrain index a Donation tile builds on (-1 for the other tiles).
TILE_TERRAIN: dict[str, int] = {
    t: TERRAIN_CODES.index(v["terrain"]) if v["terrain"] else -1 for t, v in _DATA["tiles"].items()
}
TILE_TYPES = ("Donation", "Treasure", "Sword", "Outpost", "Resettlement")

DONATION_SETTLEMENTS: int = _EFFECTS["donation_settlements"]
TREASURE_GOLD: int = _EFFECTS["treasure_gold"]
TREASURE_PAID: str = _EFFECTS["treasure_paid"]
RESETTLEMENT_STEPS: int = _EFFECTS["resettlement_steps"]
OUTPOST_BUILDS: int = _EFFECTS["outpost_builds"]

#: The Nomads Kingdom Builder cards, which pay gold during play (KB §9.3).
CARDS: tuple[str, ...] = tuple(_DATA["cards"])
#: Card -> gold per occasion.
CARD_GOLD: dict[str, int] = {c: v["gold"] for c, v in _DATA["cards"].items()}
#: Where in-play gold comes from, in score order: the three cards, then Treasure tiles.
GOLD_SOURCES: tuple[str, ...] = (*CARDS, "Treasure")

#: The open details of the Nomads rules and the decisions taken for them (shown in the help).
OPEN_DETAILS: tuple[dict[str, str], ...] = tuple(_DATA["open"])


def _check() -> None:
    if set(MIX) != set(TILE_IDS) or sum(MIX.values()) != 15:
        raise ValueError("nomad tile data: the mix and the tiles do not agree (15 tiles)")
    if set(TILE_TYPE.values()) != set(TILE_TYPES):
        raise ValueError("nomad tile data: unknown tile type")
    if TREASURE_PAID not in ("used", "taken"):
        raise ValueError("nomad tile data: treasure_paid is 'used' or 'taken'")
    if CARDS != ("Ambassadors", "Families", "Shepherds"):
        raise ValueError("nomad data: the Nomads cards are Ambassadors, Families, Shepherds")


_check()
