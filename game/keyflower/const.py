"""Small shared constants of the Keyflower engine: phases, tile locations, turn stages, the
summer-boat flags and the interned action tuples."""

from __future__ import annotations

from game.core.types import Action
from game.keyflower.tiles import (
    COLOURS,
    NTILES,
    RESOURCES,
    SB_ADJACENT,
    SB_BID_COLOUR,
    SB_DOUBLE,
    SB_GREEN,
    SB_RANDOM_KEYPLES,
    SB_USE_COLOUR,
    SB_WILD_SCORING,
    SB_WILD_UPGRADE,
    SKILLS,
    TILES,
)

GAME_ID = "keyflower"
MAX_SEATS = 6

# ---- phases (``KeyflowerState.phase``) ----------------------------------------------------
#: Turns of the season (bid / use / pass), one seat at a time (KF §4.2).
PLAY = 0
#: End of season step 5/6: boat choice, one seat at a time (KF §8).
BOATS = 1
#: End of season step 9: every seat with won tiles places them, all at once (KF §9).
PLACE = 2
#: Start of winter: every seat picks its winter tiles for the auction, all at once (KF §4.1).
WINTER_PICK = 3
#: After final scoring.
OVER = 4
PHASES = ("play", "boats", "place", "winter_pick", "over")

# ---- where a tile is (``KeyflowerState.where``; 0..5 = in that seat's village) ------------
OUT = -1  # not in the game (box, discarded, unpicked winter tile)
DECK = -2  # a season tile not drawn yet
AUCTION = -3  # laid out for this season's auction
DISPLAY = -4  # a turn-order tile or boat on the table
HAND = -5  # a winter tile in a player's hand (``holder``)
WON = -6  # won this season, waiting to be placed (``holder``)
LOCATIONS = {
    OUT: "out",
    DECK: "deck",
    AUCTION: "auction",
    DISPLAY: "display",
    HAND: "hand",
    WON: "won",
}

# ---- stages of a turn in PLAY (``KeyflowerState.stage``) ----------------------------------
NONE = 0  # choose: pass, reclaim a losing bid, bid target, use target
RECLAIM = 1  # some losing bids brought back: more of them, or the target
BID = 2  # a long list narrowed to one tile by ("bid_tile", tile): ("bid", tile, colour, n)
USE = 3  # a long list narrowed to one tile by ("use_tile", tile): ("use", tile, colour, n)
PAY_KEYPLE = 4  # exchange: which keyple to return ("pay_keyple", colour)
PAY_SKILL = 5  # exchange: which skill tile to return ("pay_skill", kind)
CHOOSE_RESOURCE = 6  # white resource icon ("resource", kind)
CHOOSE_KEYPLE = 7  # white keyple icon ("keyple", colour)
TRANSPORT = 8  # ("move", tile, kind), ("upgrade", tile, payment...), ("done",)
MOVE_TO = 9  # ("move_to", tile)
STAGES = (
    "start",
    "reclaim",
    "bid",
    "use",
    "pay_keyple",
    "pay_skill",
    "choose_resource",
    "choose_keyple",
    "transport",
    "move_to",
)

# ---- summer boat faces held by a seat (bit flags, ``KeyflowerState.flags``) ---------------
F_1A, F_1B, F_2A, F_2B, F_3A, F_3B, F_4A, F_4B = (1 << i for i in range(8))
FLAG_OF = {
    SB_RANDOM_KEYPLES: F_1A,
    SB_GREEN: F_1B,
    SB_ADJACENT: F_2A,
    SB_DOUBLE: F_2B,
    SB_WILD_UPGRADE: F_3A,
    SB_WILD_SCORING: F_3B,
    SB_BID_COLOUR: F_4A,
    SB_USE_COLOUR: F_4B,
}

# ---- actions --------------------------------------------------------------------------------
PASS: Action = ("pass",)
DONE: Action = ("done",)
ACTION_KINDS = (
    "pass",
    "reclaim",
    "bid",
    "bid_tile",
    "use",
    "use_tile",
    "pay_keyple",
    "pay_skill",
    "resource",
    "keyple",
    "move",
    "move_to",
    "upgrade",
    "done",
    "boat",
    "place",
    "place_tile",
    "winter_tiles",
)
RECLAIM_ACT: tuple[Action, ...] = tuple(("reclaim", t.id) for t in TILES)
BID_TILE_ACT: tuple[Action, ...] = tuple(("bid_tile", t.id) for t in TILES)
USE_TILE_ACT: tuple[Action, ...] = tuple(("use_tile", t.id) for t in TILES)
#: ("use", tile, colour, n) by tile, colour and n (0..3).
USE_ACT: tuple[tuple[tuple[Action, ...], ...], ...] = tuple(
    tuple(tuple(("use", t.id, c, n) for n in range(4)) for c in COLOURS) for t in TILES
)
MOVE_TO_ACT: tuple[Action, ...] = tuple(("move_to", t.id) for t in TILES)
BOAT_ACT: tuple[Action, ...] = tuple(("boat", t.id) for t in TILES)
PLACE_TILE_ACT: tuple[Action, ...] = tuple(("place_tile", t.id) for t in TILES)
MOVE_ACT: tuple[tuple[Action, ...], ...] = tuple(
    tuple(("move", t.id, r) for r in RESOURCES) for t in TILES
)
PAY_KEYPLE_ACT: tuple[Action, ...] = tuple(("pay_keyple", c) for c in COLOURS)
KEYPLE_ACT: tuple[Action, ...] = tuple(("keyple", c) for c in COLOURS)
PAY_SKILL_ACT: tuple[Action, ...] = tuple(("pay_skill", k) for k in SKILLS)
RESOURCE_ACT: tuple[Action, ...] = tuple(("resource", r) for r in RESOURCES)
#: A list of final actions longer than this is narrowed by asking the tile first
#: (("bid_tile", tile), ("use_tile", tile), ("place_tile", tile)); see docs/keyflower.md,
#: "Actions".  200 keeps a 6-player frame (view + legal list) well under 16 KB.
FLAT_LIMIT = 200
assert len(TILES) == NTILES
