"""Actions in words, and why an action is illegal, naming the rule (``KF §n`` / ``Dn``).

:func:`explain` is only called after :meth:`KeyflowerState.is_legal` said no, so it may be slow;
it walks the rules in the order a player would ask about them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.core.types import Action, IllegalAction, Seat
from game.keyflower import bids, play
from game.keyflower.const import (
    ACTION_KINDS,
    BID,
    BOATS,
    CHOOSE_KEYPLE,
    CHOOSE_RESOURCE,
    MOVE_TO,
    NONE,
    OVER,
    PAY_KEYPLE,
    PAY_SKILL,
    PLACE,
    PLAY,
    RECLAIM,
    STAGES,
    TRANSPORT,
    USE,
    WINTER_PICK,
)
from game.keyflower.tiles import COLOURS, INDEX, TILES

if TYPE_CHECKING:
    from game.keyflower.state import KeyflowerState


def _name(x: object) -> str:
    if isinstance(x, str) and x in INDEX:
        return TILES[INDEX[x]].name
    return repr(x)


def _tile(x: object) -> str:
    """A tile id as a refusal's param (the client names it; anything else, shown as is)."""
    return x if isinstance(x, str) else repr(x)


def describe(st: KeyflowerState, action: Action) -> str:
    """A short English description of an action (for logs and error messages)."""
    if not action or not isinstance(action[0], str):
        return f"the malformed action {action!r}"
    kind, args = action[0], action[1:]
    a = args[0] if args else None
    if kind == "pass":
        return "pass"
    if kind == "reclaim":
        return f"bring back your losing bid from {_name(a)}"
    if kind == "bid" and len(args) == 3:
        return f"bid on {_name(a)} with {args[2]} more {args[1]} keyple(s)"
    if kind == "bid_tile":
        return f"bid on {_name(a)}"
    if kind == "use_tile":
        return f"use {_name(a)}"
    if kind == "use" and len(args) == 3:
        return f"use {_name(a)} with {args[2]} more {args[1]} keyple(s)"
    if kind == "pay_keyple":
        return f"return a {a} keyple"
    if kind == "pay_skill":
        return f"return a {a} skill tile"
    if kind == "resource":
        return f"take a {a}"
    if kind == "keyple":
        return f"take a {a} keyple"
    if kind == "move" and len(args) == 2:
        return f"move a {args[1]} from {_name(args[0])}"
    if kind == "move_to":
        return f"move it to {_name(a)}"
    if kind == "upgrade":
        return f"upgrade {_name(a)}"
    if kind == "done":
        return "finish the transport and upgrades"
    if kind == "boat":
        return f"take the boat {_name(a)}"
    if kind == "place_tile":
        return f"place {_name(a)} next"
    if kind == "place" and len(args) == 4:
        return f"place {_name(a)} at ({args[1]}, {args[2]}) turned {args[3]}"
    if kind == "winter_tiles":
        return "put up " + ", ".join(_name(x) for x in args)
    return f"the action {action!r}"


_STAGE_WANTS = {
    NONE: ("pass", "reclaim", "bid", "bid_tile", "use", "use_tile"),
    RECLAIM: ("reclaim", "bid", "bid_tile", "use", "use_tile"),
    BID: ("bid",),
    USE: ("use",),
    PAY_KEYPLE: ("pay_keyple",),
    PAY_SKILL: ("pay_skill",),
    CHOOSE_RESOURCE: ("resource",),
    CHOOSE_KEYPLE: ("keyple",),
    TRANSPORT: ("move", "upgrade", "done"),
    MOVE_TO: ("move_to",),
}


def _expected(kinds: tuple[str, ...]) -> str:
    return " or ".join(f"'{k}'" for k in kinds)


def explain(st: KeyflowerState, seat: Seat, action: Action) -> IllegalAction:
    """The :class:`IllegalAction` for an action ``seat`` may not take now."""
    if st.phase == OVER:
        return IllegalAction("the game is over", "KF §13", key="game_over")
    if not action or not isinstance(action[0], str) or action[0] not in ACTION_KINDS:
        return IllegalAction(
            f"unknown action {action!r}; actions are " + ", ".join(ACTION_KINDS),
            "KF actions",
            key="unknown_action",
            params={"kinds": ", ".join(ACTION_KINDS)},
        )
    kind = action[0]
    what = describe(st, action)
    if st.phase == BOATS:
        if kind != "boat":
            return IllegalAction(f"{what}: now choose a boat", "KF §8 step 5", key="now_boat")
        return IllegalAction(
            f"{what}: that boat is not on the table",
            "KF §8 step 5",
            key="boat_not_here",
            params={"tile": _tile(action[1] if len(action) > 1 else None)},
        )
    if kind == "boat":
        return IllegalAction(
            f"{what}: the boats are taken at the end of the season, once everybody has passed, "
            "in the order of the turn-order tiles (in winter into the villages)",
            "KF §8 step 5",
            key="boat_not_now",
        )
    if st.phase == PLACE:
        if kind not in ("place_tile", "place"):
            return IllegalAction(f"{what}: now place your new tiles", "KF §9", key="now_place")
        tile: dict[str, str | int] = {"tile": _tile(action[1] if len(action) > 1 else None)}
        if kind == "place_tile":
            return IllegalAction(
                f"{what}: that is not one of your tiles to place",
                "KF §9",
                key="not_yours_to_place",
                params=tile,
            )
        return IllegalAction(
            f"{what}: a new tile goes next to your village, every shared side matching "
            "(road to road, river to river, field to field)",
            "KF §9",
            key="place_fit",
            params=tile,
        )
    if st.phase == WINTER_PICK:
        if kind != "winter_tiles":
            return IllegalAction(
                f"{what}: now choose your winter tiles", "KF §4.1", key="now_winter"
            )
        return IllegalAction(
            f"{what}: choose at least one of your own winter tiles, each once",
            "KF §4.1",
            key="winter_choice",
        )
    assert st.phase == PLAY
    stage = st.stage
    wants = _STAGE_WANTS[stage]
    if kind not in wants:
        return IllegalAction(
            f"{what}: now {_expected(wants)}",
            "KF §4.2 turn steps",
            key=f"step_{STAGES[stage]}",
            params={"kind": kind},
        )
    if kind in ("reclaim", "bid_tile", "use_tile") and len(action) == 2:
        return _explain_target(st, seat, action)
    if kind in ("use", "bid") and len(action) == 4:
        keyples = _explain_keyples(st, seat, action)
        target = _explain_target(st, seat, action)
        return keyples if keyples.rule == "KF §1" or "do not have" in str(keyples) else target
    if kind == "upgrade":
        return IllegalAction(
            f"{what}: flip a tile of your own village once, paying its cost with resources "
            "on it and skill tiles from your screen",
            "KF §7.2, D7, D8",
            key="upgrade_rule",
            params={"tile": _tile(action[1] if len(action) > 1 else None)},
        )
    if kind in ("move", "move_to"):
        return IllegalAction(
            f"{what}: a resource moves one step at a time along a road between two of your "
            "tiles, while transport points are left and before any upgrade",
            "KF §7.1, D6",
            key="move_rule",
            params={"tile": _tile(action[1] if len(action) > 1 else None)},
        )
    return IllegalAction(f"{what} is not possible now", "KF §6.4", key="not_possible")


def _explain_target(st: KeyflowerState, seat: Seat, action: Action) -> IllegalAction:
    kind, tid = action[0], action[1]
    what = describe(st, action)
    if not isinstance(tid, str) or tid not in INDEX:
        return IllegalAction(f"{what}: there is no such tile", "KF §2", key="no_such_tile")
    t = INDEX[tid]
    tile: dict[str, str | int] = {"tile": tid}
    if kind == "reclaim":
        if t not in bids.losing_bids(st, seat):
            return IllegalAction(
                f"{what}: only a bid of yours that is not leading may be brought back",
                "KF §5",
                key="reclaim_not_losing",
                params=tile,
            )
        if st.pcol >= 0 and st.bidc[t * 6 + seat] != st.pcol:
            return IllegalAction(
                f"{what}: bids brought back together must be of one colour",
                "KF §5",
                key="reclaim_one_colour",
                params={**tile, "colour": COLOURS[st.pcol]},
            )
        return IllegalAction(
            f"{what}: its keyples could not all be placed anywhere this turn",
            "KF §5, D3",
            key="reclaim_nowhere",
            params=tile,
        )
    if kind in ("bid", "bid_tile"):
        if t not in st.bid_tiles():
            return IllegalAction(
                f"{what}: only this season's auction tiles and the turn-order tiles take bids",
                "KF §5, D4",
                key="bid_not_here",
                params=tile,
            )
        return IllegalAction(
            f"{what}: your bid there must be of the tile's colour and beat every other bid",
            "KF §5 colour rule and raise",
            key="bid_colour_raise",
            params=tile,
        )
    if t not in play.use_tiles(st) or play.SIDE_ACTION[t * 2 + st.side[t]] is None:
        return IllegalAction(
            f"{what}: it cannot be used (not in the auction or a village, or no action)",
            "KF §6.1, D4",
            key="use_not_here",
            params=tile,
        )
    if play.last_use(st, t) >= 3:
        return IllegalAction(
            f"{what}: it has been used to the full this season",
            "KF §6.2",
            key="use_full",
            params=tile,
        )
    return IllegalAction(
        f"{what}: the keyples must match the tile's colour, be more than the last use (at most "
        "3), and you must be able to pay its extra cost",
        "KF §6.2 ladder, §6.3",
        key="use_ladder",
        params=tile,
    )


def _explain_keyples(st: KeyflowerState, seat: Seat, action: Action) -> IllegalAction:
    colour, n = action[2], action[3]
    what = describe(st, action)
    if colour not in COLOURS or isinstance(n, bool) or not isinstance(n, int):
        return IllegalAction(
            f"{what}: keyples are red, blue, yellow or green", "KF §1", key="bad_colour"
        )
    c = COLOURS.index(colour)
    if st.pcol >= 0 and c != st.pcol:
        return IllegalAction(
            f"{what}: the keyples you brought back are {COLOURS[st.pcol]}; one colour per "
            "placement",
            "KF §5",
            key="reclaimed_colour",
            params={"colour": COLOURS[st.pcol]},
        )
    if n > st.keys[seat][c]:
        return IllegalAction(
            f"{what}: you do not have that many behind your screen",
            "KF §5",
            key="not_enough_keyples",
            params={"colour": colour, "n": n, "have": st.keys[seat][c]},
        )
    if action[0] == "bid":
        return IllegalAction(
            f"{what}: a bid follows the tile's colour and must beat every other bid",
            "KF §5 colour rule and raise",
            key="bid_colour_raise",
            params={"tile": _tile(action[1])},
        )
    return IllegalAction(
        f"{what}: a use follows the tile's colour and places more keyples than the last "
        "use, at most 3",
        "KF §6.2",
        key="use_colour_more",
        params={"tile": _tile(action[1])},
    )


__all__ = ["describe", "explain"]
