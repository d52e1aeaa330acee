"""Why an action is illegal, in words a player can read, naming the rule (``GM §n``), and
short descriptions of actions.

:func:`explain` is only called after :meth:`GlenMoreState.is_legal` said no, so it may be slow;
it walks the rules in the order a player would ask about them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.core.types import Action, IllegalAction, Seat
from game.glen_more import grid as G
from game.glen_more.codes import (
    ACTION_KINDS,
    ACTIVATE,
    CUBE_COUNTS,
    MOVE,
    OPTION,
    PAY,
    PHASES,
    PLACE,
    RESOURCE,
    TAKE,
    TILE_OPTIONS,
)
from game.glen_more.market import buy_price, can_pay_after_buy, can_pay_after_own
from game.glen_more.tiles import KINDS, RES_INDEX, ROW_SPACES, TRACK_SLOTS, describe_cost

if TYPE_CHECKING:
    from game.glen_more.state import GlenMoreState

#: Which action kinds belong to which phase.
PHASE_ACTIONS: dict[int, tuple[str, ...]] = {
    TAKE: ("take", "discard"),
    PAY: ("pay", "buy", "pay_clan"),
    PLACE: ("place",),
    RESOURCE: ("resource",),
    OPTION: ("option",),
    ACTIVATE: ("activate", "loch_ness", "done"),
    MOVE: ("move", "chieftain", "end"),
}
_ARGS: dict[str, tuple[str, ...]] = {
    "take": ("slot",),
    "discard": ("slot",),
    "sell": ("row", "col", "resource"),
    "pay": ("row", "col", "resource"),
    "buy": ("resource",),
    "pay_clan": ("row", "col"),
    "place": ("row", "col"),
    "resource": ("resource",),
    "activate": ("row", "col"),
    "loch_ness": ("row", "col"),
    "option": ("index",),
    "done": (),
    "move": ("row", "col", "row", "col"),
    "chieftain": ("row", "col"),
    "end": (),
}
_WHAT = {
    TAKE: "move your figure to a tile and take it",
    PAY: "pay the cost step by step",
    PLACE: "place the tile in your territory",
    RESOURCE: "choose a resource",
    OPTION: "choose what to pay for this tile",
    ACTIVATE: "activate tiles or finish with done",
    MOVE: "move clan members, make chieftains or end the turn",
}


def _at(r: object, c: object) -> str:
    return f"({r}, {c})"


def _shape_ok(action: Action) -> bool:
    kind = action[0]
    spec = _ARGS.get(kind)
    if spec is None or len(action) != len(spec) + 1:
        return False
    for name, v in zip(spec, action[1:], strict=True):
        if name == "resource":
            if v not in RES_INDEX:
                return False
        elif type(v) is not int:
            return False
    return True


def describe(st: GlenMoreState, action: Action) -> str:
    """A short English description of an action (for logs and error messages)."""
    if not action or not isinstance(action[0], str) or not _shape_ok(action):
        return f"the action {action!r}"
    kind = action[0]
    a = action[1:]
    if kind in ("take", "discard"):
        slot = a[0]
        tile = (
            KINDS[st.slots[slot]].name
            if 0 <= slot < TRACK_SLOTS and st.slots[slot] >= 0
            else "a tile"
        )
        verb = "take" if kind == "take" else "move to and discard"
        return f"{verb} the {tile} on track space {slot}"
    if kind == "sell":
        return f"sell 1 {a[2]} from {_at(a[0], a[1])}"
    if kind == "pay":
        return f"pay 1 {a[2]} from {_at(a[0], a[1])}"
    if kind == "buy":
        return f"buy 1 {a[0]} at the market"
    if kind == "pay_clan":
        return f"return a clan member from {_at(a[0], a[1])} to the supply"
    if kind == "place":
        return f"place the tile at {_at(a[0], a[1])}"
    if kind == "resource":
        return f"take 1 {a[0]}"
    if kind in ("activate", "loch_ness"):
        tile = "the tile"
        if 0 <= st.cur < st.n and G.in_range(a[0], a[1]):
            k = st.grid[st.cur].get(G.cell(a[0], a[1]))
            if k is not None:
                tile = f"the {KINDS[k].name}"
        extra = " with Loch Ness" if kind == "loch_ness" else ""
        return f"activate {tile} at {_at(a[0], a[1])}{extra}"
    if kind == "option":
        return f"choose option {a[0]}"
    if kind == "done":
        return "finish the activations"
    if kind == "move":
        return f"move a clan member from {_at(a[0], a[1])} to {_at(a[2], a[3])}"
    if kind == "chieftain":
        return f"make the clan member at {_at(a[0], a[1])} a chieftain"
    return "end the turn"


def explain(st: GlenMoreState, seat: Seat, action: Action) -> IllegalAction:
    """The :class:`IllegalAction` for an action ``seat`` may not take now."""
    if st.over:
        return IllegalAction("the game is over", "GM §10 end of game", key="game_over")
    if seat != st.cur:
        return IllegalAction(
            f"it is seat {st.cur}'s turn, not seat {seat}'s: the hindmost figure moves",
            "GM §3 turn order",
            key="not_your_turn",
            params={"current": st.cur, "seat": seat},
        )
    if not action or not isinstance(action[0], str) or action[0] not in ACTION_KINDS:
        return IllegalAction(
            f"unknown action {action!r}; actions are " + ", ".join(ACTION_KINDS),
            "GM actions",
            key="unknown_action",
            params={"kinds": ", ".join(ACTION_KINDS)},
        )
    kind = action[0]
    if not _shape_ok(action):
        spec = ", ".join(_ARGS[kind]) or "nothing"
        return IllegalAction(
            f"({kind!r}, ...) takes {spec}; got {action!r}",
            "GM actions",
            key="bad_shape",
            params={"kind": kind, "args": spec},
        )
    if kind != "sell" and kind not in PHASE_ACTIONS[st.phase]:
        return IllegalAction(
            f"{describe(st, action)} is not possible now: {_WHAT[st.phase]} "
            f"(the turn is in its {PHASES[st.phase]} step)",
            "GM §4 turn sequence",
            key=f"step_{PHASES[st.phase]}",
            params={"kind": kind},
        )
    handler = _HANDLERS.get(kind)
    msg = handler(st, action) if handler else None
    if msg is not None:
        return msg
    return IllegalAction(
        f"{describe(st, action)} is not legal now", "GM rules", key="not_legal_now"
    )


def _cell_of(st: GlenMoreState, action: Action, i: int = 1) -> int:
    return G.cell(action[i], action[i + 1]) if G.in_range(action[i], action[i + 1]) else -1


def _sell(st: GlenMoreState, action: Action) -> IllegalAction | None:
    c = _cell_of(st, action)
    k = RES_INDEX[action[3]]
    if c < 0 or c not in st.grid[st.cur]:
        return IllegalAction(
            "you can only sell cubes from your own tiles", "GM §6 selling", key="sell_not_own"
        )
    res: dict[str, str | int] = {"res": action[3]}
    if not CUBE_COUNTS[st.cubes[st.cur].get(c, 0)][k]:
        return IllegalAction(
            f"there is no {action[3]} on that tile", "GM §6 selling", key="no_cube", params=res
        )
    if st.market[k] == 0:
        return IllegalAction(
            f"the {action[3]} row of the market holds no coins, so nobody buys it",
            "GM §6 selling",
            key="sell_no_coins",
            params=res,
        )
    return None


def _take(st: GlenMoreState, action: Action) -> IllegalAction | None:
    slot = action[1]
    if not 0 <= slot < TRACK_SLOTS or st.slots[slot] < 0:
        return IllegalAction(
            f"track space {slot} holds no tile; move onto a tile",
            "GM §4.1 moving",
            key="slot_empty",
            params={"slot": slot},
        )
    if action[0] == "discard":
        return IllegalAction(
            "a tile can be discarded only when no tile on the track can be paid and placed",
            "GM §4.1 D10",
            key="discard_only_stuck",
        )
    kind = KINDS[st.slots[slot]]
    s = st.cur
    if kind.cost_whisky > st.whisky[s]:
        return IllegalAction(
            f"the {kind.name} costs a whisky barrel you do not have",
            "GM §4.1",
            key="take_whisky",
            params={"tile": kind.id},
        )
    return IllegalAction(
        f"you cannot both pay for the {kind.name} ({describe_cost(kind)}) and place it legally "
        "in your territory, even with sales and purchases",
        "GM §4.1 D9",
        key="take_cannot",
        params={"tile": kind.id},
    )


def _pay(st: GlenMoreState, action: Action) -> IllegalAction | None:
    s = st.cur
    if action[0] == "pay_clan":
        if not st.need_clan:
            return IllegalAction(
                "this payment needs no clan member", "GM §4.1", key="clan_not_needed"
            )
        c = _cell_of(st, action)
        if c < 0 or not st.clan[s].get(c):
            return IllegalAction(
                "no clan member of yours stands there", "GM §4.1", key="no_clan_there"
            )
        return IllegalAction(
            "at least one clan member stays on your territory, and after paying the tile must "
            "still have a legal place (a clan member next to it)",
            "GM §4.1, §8 Loch Ness",
            key="clan_must_stay",
        )
    k = RES_INDEX[action[-1]]
    res: dict[str, str | int] = {"res": action[-1]}
    if not (st.need[k] or st.need_any):
        return IllegalAction(
            f"this payment needs no {action[-1]}", "GM §4.1", key="pay_not_needed", params=res
        )
    have, fill, coins = st.have[s], st.market, st.coins[s]
    if action[0] == "pay":
        c = _cell_of(st, action)
        if c < 0 or c not in st.grid[s] or not CUBE_COUNTS[st.cubes[s].get(c, 0)][k]:
            return IllegalAction(
                f"there is no {action[-1]} on that tile of yours",
                "GM §4.1",
                key="no_cube",
                params=res,
            )
        if not can_pay_after_own(k, st.need, st.need_any, have, fill, coins):
            return IllegalAction(
                "paying this cube would leave the rest of the payment impossible "
                "(sell it and buy cheaper cubes instead)",
                "GM §4.1, §6",
                key="pay_blocks",
                params=res,
            )
        return None
    if fill[k] >= ROW_SPACES:
        return IllegalAction(
            f"the {action[-1]} row is full: it cannot be bought",
            "GM §6 buying",
            key="buy_row_full",
            params=res,
        )
    if coins < buy_price(fill[k]):
        return IllegalAction(
            f"a {action[-1]} costs {buy_price(fill[k])} coins and you have {coins}; sell first",
            "GM §6 buying",
            key="buy_no_coins",
            params={**res, "price": buy_price(fill[k]), "coins": coins},
        )
    if not can_pay_after_buy(k, st.need, st.need_any, have, fill, coins):
        return IllegalAction(
            "buying this cube would leave the rest of the payment impossible",
            "GM §6 buying",
            key="buy_blocks",
            params=res,
        )
    return None


def _place(st: GlenMoreState, action: Action) -> IllegalAction | None:
    c = _cell_of(st, action)
    if c < 0:
        return IllegalAction("that cell is out of range", "GM §4.2", key="out_of_range")
    s = st.cur
    key, msg = G.placement_problem(st.grid[s], st.clan[s], c, KINDS[st.taken].edge_class)
    if msg:
        return IllegalAction(msg, "GM §4.2 placement", key=key, params={"tile": KINDS[st.taken].id})
    return None


def _activate(st: GlenMoreState, action: Action) -> IllegalAction | None:
    c = _cell_of(st, action)
    s = st.cur
    if action[0] == "done":
        return None
    if c < 0 or c not in st.grid[s]:
        return IllegalAction("that is not a tile of your territory", "GM §4.3", key="not_your_tile")
    tile: dict[str, str | int] = {"tile": KINDS[st.grid[s][c]].id}
    if action[0] == "loch_ness":
        if not st.has_extra_activation(s):
            return IllegalAction(
                "you do not hold the Loch Ness card", "GM §8 Loch Ness", key="no_loch_ness"
            )
        if st.ness:
            return IllegalAction(
                "Loch Ness activates one extra tile per turn",
                "GM §8 Loch Ness",
                key="loch_ness_used",
            )
    elif c not in st.todo:
        return IllegalAction(
            "only the placed tile and its 8 neighbours are activated, each once "
            "(the placed tile first)",
            "GM §4.3 activation",
            key="not_activatable",
            params=tile,
        )
    if not st.can_activate(c):
        return IllegalAction(
            "activating that tile would do nothing now (a full tile, or a payment you cannot make)",
            "GM §4.3 activation",
            key="activate_nothing",
            params=tile,
        )
    return None


def _option(st: GlenMoreState, action: Action) -> IllegalAction | None:
    options = TILE_OPTIONS[st.grid[st.cur][st.opt_cell]]
    i = action[1]
    if not 0 <= i < len(options):
        return IllegalAction(
            f"this tile has options 0..{len(options) - 1}",
            "GM §4.3",
            key="no_such_option",
            params={"last": len(options) - 1},
        )
    return IllegalAction(
        "you cannot pay for that option, even with the market",
        "GM §4.3, §6",
        key="option_unpayable",
    )


def _move(st: GlenMoreState, action: Action) -> IllegalAction | None:
    s = st.cur
    if action[0] == "end":
        return None
    if st.points <= 0:
        return IllegalAction("you have no movement points left", "GM §4.4", key="no_movement")
    a = _cell_of(st, action)
    if a < 0 or not st.clan[s].get(a):
        return IllegalAction("no clan member of yours stands there", "GM §4.4", key="no_clan_there")
    if action[0] == "chieftain":
        return IllegalAction(
            "at least one clan member must stay on your territory",
            "GM §4.4 chieftains",
            key="chieftain_last",
        )
    b = _cell_of(st, action, 3)
    if b < 0 or b not in st.grid[s]:
        return IllegalAction(
            "clan members move only onto your own tiles", "GM §4.4", key="move_own_tiles"
        )
    return IllegalAction(
        "a clan member moves one step to a neighbouring tile (diagonals count)",
        "GM §4.4",
        key="move_one_step",
    )


_HANDLERS = {
    "sell": _sell,
    "take": _take,
    "discard": _take,
    "pay": _pay,
    "buy": _pay,
    "pay_clan": _pay,
    "place": _place,
    "activate": _activate,
    "loch_ness": _activate,
    "done": _activate,
    "option": _option,
    "move": _move,
    "chieftain": _move,
    "end": _move,
}

__all__ = ["describe", "explain"]
