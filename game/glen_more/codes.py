"""How a Glen More position is encoded (the module docstring of :mod:`game.glen_more.state` has
the whole picture): the track's values (a tile kind, :data:`EMPTY` or a figure), the phases of a
turn, the resource cubes packed 2 bits per kind on a tile, the fixed actions, and the options of
the tiles' choice operations (GM §4.3)."""

from __future__ import annotations

from typing import Any

from game.core.types import Action
from game.glen_more.market import KIND_SETS
from game.glen_more.tiles import KINDS, NRES, RES_INDEX, RESOURCES

GAME_ID = "glen-more"

EMPTY = -1
FIGURE_BASE = -2  # figure f is stored as FIGURE_BASE - f


def figure_code(f: int) -> int:
    """The track value of figure ``f`` (a seat, or ``players`` for the die figure)."""
    return FIGURE_BASE - f


def figure_of(v: int) -> int:
    """The figure on a track value ``v <= -2``."""
    return FIGURE_BASE - v


#: Phases of a player's turn.
TAKE, PAY, PLACE, RESOURCE, OPTION, ACTIVATE, MOVE, OVER = range(8)
PHASES = ("take", "pay", "place", "resource", "option", "activate", "move", "over")
#: What a payment in progress is for.
FOR_TILE, FOR_EFFECT = 0, 1

#: Resource cubes on one tile, packed 2 bits per resource (a tile holds at most 3 cubes).
CUBE_BITS = 2
CUBE_ONE: tuple[int, ...] = tuple(1 << (CUBE_BITS * k) for k in range(NRES))
CUBE_CAP = 3


def _unpack(v: int) -> tuple[int, ...]:
    return tuple((v >> (CUBE_BITS * k)) & 3 for k in range(NRES))


CUBE_COUNTS: tuple[tuple[int, ...], ...] = tuple(_unpack(v) for v in range(1 << (CUBE_BITS * NRES)))
CUBE_TOTAL: tuple[int, ...] = tuple(sum(c) for c in CUBE_COUNTS)
CUBE_KINDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(k for k in range(NRES) if c[k]) for c in CUBE_COUNTS
)

DONE: Action = ("done",)
END: Action = ("end",)
ACTION_KINDS = (
    "take",
    "discard",
    "sell",
    "pay",
    "buy",
    "pay_clan",
    "place",
    "resource",
    "activate",
    "loch_ness",
    "option",
    "done",
    "move",
    "chieftain",
    "end",
)
RESOURCE_ACTIONS: tuple[Action, ...] = tuple(("resource", r) for r in RESOURCES)
BUY_ACTIONS: tuple[Action, ...] = tuple(("buy", r) for r in RESOURCES)


def _op_options(op: dict[str, Any]) -> list[tuple[list[int], int, int]]:
    """The options of a choice operation as ``(need per kind, any, vp)``: a butcher's listed
    options, or a fair's sets of different kinds (GM §4.3)."""
    if op["op"] == "score_choice":
        out = []
        for o in op["options"]:
            need = [0] * NRES
            for r, n in o["pay"].items():
                need[RES_INDEX[r]] += n
            out.append((need, 0, int(o["vp"])))
        return out
    table = op["vp_by_kinds"]
    out = []
    for kinds in KIND_SETS:
        if len(kinds) > op["max_kinds"]:
            break
        need = [0] * NRES
        for k in kinds:
            need[k] = 1
        out.append((need, 0, int(table[len(kinds)])))
    return out


#: ``TILE_OPTIONS[kind]``: the options of the kind's choice operation (empty if it has none).
TILE_OPTIONS: tuple[tuple[tuple[list[int], int, int], ...], ...] = tuple(
    tuple(
        o
        for op in k.on_activate
        if op["op"] in ("score_choice", "score_distinct")
        for o in _op_options(op)
    )
    for k in KINDS
)


def pay_of(op: dict[str, Any]) -> tuple[list[int], int]:
    """What an operation with a payment costs: the resources per kind and how many of any kind."""
    need = [0] * NRES
    for r, n in (op.get("pay") or {}).items():
        need[RES_INDEX[r]] += n
    return need, int(op.get("pay_any", 0))
