"""Why an action is illegal, in words a player can read, naming the rule (``KB §n``).

:func:`explain` is only called after :meth:`KingdomBuilderState.is_legal` said no, so it may be
slow; it walks the same rules in the order a player would ask about them.

Every refusal also carries a ``key`` and plain ``params`` (``IllegalAction.reason()``), so a
client can say it in the player's language (``reason.kingdom-builder.<key>`` in its
catalogue).  The params follow one convention: ``hex``/``from`` are ``"(r, c)"``,
``terrain``/``allowed`` terrain letters (``G C D F T W M K L N``), ``tile`` a location tile or
nomad tile type (``tile_terrain`` a Donation's terrain letter, else ""), ``seat``/``current``
seat numbers, ``placed``/``n`` counts, ``kind`` an action kind.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.core.types import Action, IllegalAction, Seat
from game.kingdom_builder import nomads as nm
from game.kingdom_builder.board import (
    DESERT,
    FLOWER,
    GRASS,
    SIZE,
    TERRAIN_CODES,
    TERRAIN_NAMES,
    WATER,
)
from game.kingdom_builder.codes import (
    ACTION_KINDS,
    BUILD_TILES,
    EMPTY,
    MOVE_TILES,
    NEW,
    SOURCE,
    TARGET,
    USED,
    VICTIM,
    WALL,
    WALL1,
    WALL2,
    hex_of,
)

if TYPE_CHECKING:
    from game.kingdom_builder.state import KingdomBuilderState

_TILE_TERRAIN = {"Farm": GRASS, "Oasis": DESERT, "Garden": FLOWER, "Harbor": WATER}

#: A tile action's step -> the name its "finish it first" refusal key ends with.
STEP_NAMES = {
    TARGET: "target",
    SOURCE: "source",
    VICTIM: "victim",
    WALL1: "wall",
    WALL2: "second_wall",
}


def _at(h: int) -> str:
    return f"({h // SIZE}, {h % SIZE})"


def describe(st: KingdomBuilderState, action: Action) -> str:
    """A short English description of an action (for logs and error messages)."""
    if not action or not isinstance(action[0], str):
        return f"the malformed action {action!r}"
    kind = action[0]
    if kind == "stop":
        if st.pending is not None and st.tile_kind(st.pending[0]) == "Resettlement":
            return "stop the Resettlement steps"
        return "stop the Quarry action after one wall"
    if kind == "end":
        return "end the turn"
    h = hex_of(action)
    if h < 0 or kind not in ACTION_KINDS:
        return f"the action {action!r}"
    where = f"{_at(h)} ({TERRAIN_NAMES[st.board.terrain[h]]})"
    if kind == "place":
        return f"place a settlement on {where}"
    if kind == "use":
        tile = st.board.location_type.get(h)
        if tile is None and h in st.nkind:
            return f"use the {_nomad_name(st, h)} nomad tile from {_at(h)}"
        return f"use the {tile} tile from {_at(h)}" if tile else f"use a tile from {_at(h)}"
    if kind == "move_from":
        return f"move the settlement on {where}"
    if kind == "remove":
        occ = st.owner[h]
        whose = f"seat {occ}'s settlement" if occ >= 0 else "the settlement"
        return f"remove {whose} on {_at(h)}"
    return f"build a stone wall on {where}"


def _nomad_params(st: KingdomBuilderState, h: int) -> dict[str, str | int]:
    """A nomad tile as params: its type and a Donation's terrain letter."""
    tid = st.nkind[h]
    t = nm.TILE_TERRAIN[tid]
    return {"tile": nm.TILE_TYPE[tid], "tile_terrain": TERRAIN_CODES[t] if t >= 0 else ""}


def _nomad_name(st: KingdomBuilderState, h: int) -> str:
    """A nomad tile's name: its type, and the terrain of a Donation tile."""
    tid = st.nkind[h]
    t = nm.TILE_TERRAIN[tid]
    kind = nm.TILE_TYPE[tid]
    return f"{kind} ({TERRAIN_NAMES[t]})" if t >= 0 else kind


def explain(st: KingdomBuilderState, seat: Seat, action: Action) -> IllegalAction:
    """The :class:`IllegalAction` for an action ``seat`` may not take now."""
    if st.over:
        return IllegalAction("the game is over", "KB §8 end of game", key="game_over")
    if seat != st.cur:
        return IllegalAction(
            f"it is seat {st.cur}'s turn, not seat {seat}'s",
            "KB §4 turn order",
            key="not_your_turn",
            params={"current": st.cur, "seat": seat},
        )
    if not action or not isinstance(action[0], str) or action[0] not in ACTION_KINDS:
        return IllegalAction(
            f"unknown action {action!r}; actions are " + ", ".join(ACTION_KINDS),
            "KB actions",
            key="unknown_action",
            params={"kinds": ", ".join(ACTION_KINDS)},
        )
    kind = action[0]
    if kind in ("stop", "end"):
        if len(action) != 1:
            return IllegalAction(
                f"({kind!r},) takes no arguments",
                "KB actions",
                key="no_arguments",
                params={"kind": kind},
            )
    else:
        h = hex_of(action)
        if h < 0:
            return IllegalAction(
                f"{kind} needs a hex (row, col) with row and col in 0..19, got {action!r}",
                "KB §2 coordinates",
                key="needs_hex",
                params={"kind": kind},
            )
    err = _pending_error(st, kind) if st.pending is not None else _free_error(st, kind)
    if err is not None:
        return err
    h = hex_of(action)
    if kind == "place":
        err = _place_error(st, h)
    elif kind == "use":
        err = _use_error(st, h)
    elif kind == "move_from":
        err = _source_error(st, h)
    elif kind == "wall":
        err = _wall_error(st, h)
    elif kind == "remove":
        err = _remove_error(st, h)
    return err or IllegalAction(
        f"{describe(st, action)} is not legal now", "KB rules", key="not_legal_now"
    )


def _pending_error(st: KingdomBuilderState, kind: str) -> IllegalAction | None:
    """While a tile action runs, only its next step is allowed (KB §4.3)."""
    assert st.pending is not None
    loc, step, _frm, count = st.pending
    tile = st.tile_kind(loc)
    if step == TARGET:
        expected = "place"
        what = "choose where the settlement goes"
    elif step == SOURCE:
        expected = "move_from"
        what = "choose which settlement to move"
        if tile == "Resettlement" and kind == "stop":
            if count < nm.RESETTLEMENT_STEPS:
                return None
            return IllegalAction(
                "Resettlement makes at least one step before you can stop",
                "KB §7 Resettlement: 4 single steps",
                key="resettlement_first_step",
            )
    elif step == VICTIM:
        expected = "remove"
        what = "choose a settlement of each other player to remove"
    else:
        expected = "wall"
        what = "place a stone wall" if step == WALL1 else "place a second wall or stop"
        if kind == "stop" and step == WALL1:
            return IllegalAction(
                "the Quarry action places at least one wall before you can stop",
                "KB §7 Quarry: 1 or 2 stone walls",
                key="quarry_first_wall",
            )
        if kind == "stop":
            return None
    if kind != expected:
        return IllegalAction(
            f"finish the {tile} action first: {what}",
            "KB §4.3: each extra action is finished before anything else starts",
            key=f"finish_{STEP_NAMES.get(step, 'step')}",
            params={"tile": tile},
        )
    return None


def _free_error(st: KingdomBuilderState, kind: str) -> IllegalAction | None:
    """No tile action running: check the turn's phase for this kind of action."""
    if kind in ("move_from", "wall", "stop", "remove"):
        need = {
            "move_from": "a move tile",
            "wall": "the Quarry tile",
            "stop": "the Quarry or Resettlement tile",
            "remove": "the Sword nomad tile",
        }
        return IllegalAction(
            f"'{kind}' is only part of using {need[kind]}; start with ('use', row, col)",
            "KB §7 location tiles",
            key=f"needs_tile_{kind}",
        )
    if kind == "end":
        if st.mand_done or not st._mandatory_targets(st.cur):
            return None
        return IllegalAction(
            f"build your 3 settlements first ({st.placed} placed so far) on "
            f"{TERRAIN_NAMES[st.terrain]}",
            "KB §4.2 mandatory action: 3 settlements",
            key="build_first",
            params={"placed": st.placed, "terrain": TERRAIN_CODES[st.terrain]},
        )
    return None


def _occupied(st: KingdomBuilderState, h: int) -> IllegalAction | None:
    occ = st.owner[h]
    if occ == WALL:
        return IllegalAction(
            f"{_at(h)} holds a stone wall",
            "KB §1.3: a stone wall blocks its hex for good",
            key="wall_there",
            params={"hex": _at(h)},
        )
    if occ != EMPTY:
        whose = "one of your settlements" if occ == st.cur else f"a settlement of seat {occ}"
        return IllegalAction(
            f"{_at(h)} already holds {whose}",
            "KB §5 placement: one settlement per hex",
            key="occupied_own" if occ == st.cur else "occupied",
            params={"hex": _at(h), "seat": occ},
        )
    return None


def _terrain_error(
    st: KingdomBuilderState,
    h: int,
    allowed: int,
    what: str,
    rule: str,
    key: str = "terrain_card",
    tile: str = "",
) -> IllegalAction | None:
    """``what`` says what needs the terrain, e.g. "your terrain card shows" or "Farm builds on";
    ``key`` says the same for a translation (``terrain_card``, ``terrain_tile``, ...)."""
    t = st.board.terrain[h]
    if t != allowed:
        params: dict[str, str | int] = {
            "hex": _at(h),
            "terrain": TERRAIN_CODES[t],
            "allowed": TERRAIN_CODES[allowed],
        }
        if tile:
            params["tile"] = tile
        return IllegalAction(
            f"{_at(h)} is {TERRAIN_NAMES[t]}; {what} {TERRAIN_NAMES[allowed]}",
            rule,
            key=key,
            params=params,
        )
    return None


def _unbuildable(st: KingdomBuilderState, h: int) -> IllegalAction | None:
    if not st.board.buildable[h]:
        return IllegalAction(
            f"{_at(h)} is {TERRAIN_NAMES[st.board.terrain[h]]}, where nobody can build",
            "KB §1.3/§5 placement: only Grass, Canyon, Desert, Flower field and Forest",
            key="unbuildable",
            params={"hex": _at(h), "terrain": TERRAIN_CODES[st.board.terrain[h]]},
        )
    return None


def _adjacency_error(
    st: KingdomBuilderState, h: int, targets: set[int], rule: str
) -> IllegalAction | None:
    if h not in targets:
        return IllegalAction(
            f"{_at(h)} does not touch your settlements, and another hex of the same kind does: "
            "you must build next to your settlements if you can",
            rule,
            key="not_adjacent",
            params={"hex": _at(h)},
        )
    return None


def _place_error(st: KingdomBuilderState, h: int) -> IllegalAction | None:
    s = st.cur
    p = st.pending
    if p is None:
        if st.mand_done:
            return IllegalAction(
                "your mandatory action is complete: use a tile or end your turn",
                "KB §4.2 mandatory action: 3 settlements",
                key="mandatory_done",
            )
        if st.supply[s] <= 0:
            return IllegalAction(
                "you have no settlements left in your supply",
                "KB §4: out of settlements",
                key="no_supply",
            )
        return (
            _occupied(st, h)
            or _unbuildable(st, h)
            or _terrain_error(
                st,
                h,
                st.terrain,
                "your terrain card shows",
                "KB §4.2 mandatory action: the terrain of your card",
            )
            or _adjacency_error(
                st,
                h,
                st._mandatory_targets(s),
                "KB §5 placement: must be adjacent to your settlements if possible",
            )
        )
    loc, _, frm, _ = p
    tile = st.tile_kind(loc)
    rule = f"KB §7 {tile}"
    if tile == "Donation":
        terrain = nm.TILE_TERRAIN[st.nkind[loc]]
        return (
            _occupied(st, h)
            or _terrain_error(
                st, h, terrain, "this Donation tile builds on", rule, "terrain_donation"
            )
            or _adjacency_error(
                st, h, st._donation_targets(loc, s), f"{rule}: adjacent if possible"
            )
        )
    if tile == "Resettlement":
        if h == frm:
            return IllegalAction(
                "the settlement must end on a different hex", f"{rule}: a step", key="same_hex"
            )
        err = _occupied(st, h) or _unbuildable(st, h)
        if err:
            return err
        return IllegalAction(
            f"{_at(h)} is not next to {_at(frm)}: Resettlement moves one hex per step",
            rule,
            key="resettlement_not_next",
            params={"hex": _at(h), "from": _at(frm)},
        )
    if frm < 0 and tile in BUILD_TILES:
        err = _occupied(st, h) or _unbuildable(st, h)
        if err:
            return err
        if tile in ("Oracle", "Farm", "Oasis", "Garden"):
            terrain = st.terrain if tile == "Oracle" else _TILE_TERRAIN[tile]
            err = _terrain_error(st, h, terrain, f"{tile} builds on", rule, "terrain_tile", tile)
        elif tile == "Tower" and h not in st.board.edge:
            err = IllegalAction(
                f"{_at(h)} is not on the edge of the map",
                rule,
                key="tower_not_edge",
                params={"hex": _at(h)},
            )
        elif tile == "Tavern":
            err = IllegalAction(
                f"{_at(h)} is not at the end of a straight line of 3 or more of your settlements",
                rule,
                key="tavern_no_line",
                params={"hex": _at(h)},
            )
        elif tile == "Village":
            err = IllegalAction(
                f"{_at(h)} touches {st.adj[s][h]} of your settlements; Village needs 3 or more",
                rule,
                key="village_few",
                params={"hex": _at(h), "n": st.adj[s][h]},
            )
        return err or _adjacency_error(
            st, h, st._build_targets(tile, s), f"{rule}: adjacent to your settlements if possible"
        )
    if h == frm:
        return IllegalAction(
            "the settlement must end on a different hex", f"{rule}: a move", key="same_hex"
        )
    err = _occupied(st, h)
    if err:
        return err
    if tile in ("Barn", "Harbor"):
        terrain = st.terrain if tile == "Barn" else WATER
        err = _terrain_error(st, h, terrain, f"{tile} moves onto", rule, "terrain_move", tile)
        return err or _adjacency_error(
            st,
            h,
            st._move_targets(tile, s, frm),
            f"KB §5 moves: {tile} goes next to your other settlements if possible",
        )
    err = _unbuildable(st, h)
    if err:
        return err
    if tile == "Paddock":
        return IllegalAction(
            f"{_at(h)} is not exactly 2 hexes from {_at(frm)} in a straight line",
            rule,
            key="paddock_not_two",
            params={"hex": _at(h), "from": _at(frm)},
        )
    return IllegalAction(
        f"Caravan moves in a straight line as far as it can go; {_at(h)} is not such an end "
        f"point from {_at(frm)}",
        rule,
        key="caravan_not_end",
        params={"hex": _at(h), "from": _at(frm)},
    )


def _use_error(st: KingdomBuilderState, loc: int) -> IllegalAction | None:
    s = st.cur
    if loc in st.board.nomads:
        return _use_nomad_error(st, loc)
    state = st.tiles[s].get(loc)
    if state is None:
        tile = st.board.location_type.get(loc)
        if tile is None:
            return IllegalAction(
                f"{_at(loc)} is not a location hex",
                "KB §6 location tiles",
                key="not_location",
                params={"hex": _at(loc)},
            )
        return IllegalAction(
            f"you hold no {tile} tile from the location hex {_at(loc)}",
            "KB §6.1 gaining a tile",
            key="no_tile_from",
            params={"tile": tile, "hex": _at(loc)},
        )
    tile = st.board.location_type[loc]
    if state == NEW:
        return IllegalAction(
            f"you gained this {tile} tile this turn; you can use it from your next turn",
            "KB §4.3: a tile gained this turn cannot be used until your next turn",
            key="tile_new",
            params={"tile": tile},
        )
    if state == USED:
        return IllegalAction(
            f"you already used this {tile} tile this turn",
            "KB §4.3: each tile at most once per turn",
            key="tile_used",
            params={"tile": tile},
        )
    if st.placed and not st.mand_done:
        return IllegalAction(
            "tiles cannot be used between the 3 mandatory placements; finish them first",
            "KB §4.3: extra actions before or after the mandatory action, never in between",
            key="between_placements",
        )
    return IllegalAction(
        f"the {tile} tile has no legal target now",
        "KB §7: a tile with no legal target cannot be used",
        key="tile_no_target",
        params={"tile": tile},
    )


def _use_nomad_error(st: KingdomBuilderState, h: int) -> IllegalAction:
    """Why a nomad tile cannot be used (KB §7 nomad tiles)."""
    s = st.cur
    rule = "KB §7 nomad tiles"
    state = st.nheld[s].get(h)
    if state is None:
        if h in st.nomad_left:
            return IllegalAction(
                f"the nomad tile on {_at(h)} is taken by building or moving next to its hex first",
                f"{rule}: the first player next to a nomad hex takes its tile",
                key="nomad_not_taken",
                params={"hex": _at(h), **_nomad_params(st, h)},
            )
        return IllegalAction(
            f"you hold no nomad tile from {_at(h)}",
            rule,
            key="no_nomad_from",
            params={"hex": _at(h)},
        )
    name = _nomad_name(st, h)
    params = _nomad_params(st, h)
    if state == NEW:
        return IllegalAction(
            f"you took this {name} tile this turn; it is used in your next turn",
            f"{rule}: a nomad tile is used on its owner's next turn",
            key="nomad_new",
            params=params,
        )
    if state == USED:
        return IllegalAction(
            f"you already used this {name} tile",
            f"{rule}: used once",
            key="nomad_used",
            params=params,
        )
    if st.placed and not st.mand_done and nm.TILE_TYPE[st.nkind[h]] != "Outpost":
        return IllegalAction(
            "tiles cannot be used between the 3 mandatory placements; finish them first",
            "KB §4.3: extra actions before or after the mandatory action, never in between",
            key="between_placements",
        )
    return IllegalAction(
        f"the {name} tile has nothing to do now",
        f"{rule}: {name}",
        key="nomad_no_target",
        params=params,
    )


def _remove_error(st: KingdomBuilderState, h: int) -> IllegalAction | None:
    """KB §7 Sword: one settlement from each other player, chosen by the Sword's user."""
    rule = "KB §7 Sword"
    occ = st.owner[h]
    if occ < 0:
        return IllegalAction(
            f"{_at(h)} holds no settlement", rule, key="no_settlement", params={"hex": _at(h)}
        )
    if occ == st.cur:
        return IllegalAction(
            "the Sword takes settlements of the other players only", rule, key="sword_own"
        )
    assert st.pending is not None
    if st.pending[3] >> occ & 1:
        return IllegalAction(
            f"seat {occ} has already lost a settlement to this Sword",
            f"{rule}: one settlement from each other player",
            key="sword_already",
            params={"seat": occ},
        )
    return None


def _source_error(st: KingdomBuilderState, h: int) -> IllegalAction | None:
    s = st.cur
    assert st.pending is not None
    tile = st.tile_kind(st.pending[0])
    if st.owner[h] != s:
        return IllegalAction(
            f"{_at(h)} does not hold one of your settlements",
            f"KB §7 {tile}: move one of your own settlements",
            key="source_not_yours",
            params={"hex": _at(h), "tile": tile},
        )
    if tile in MOVE_TILES or tile == "Resettlement":
        return IllegalAction(
            f"the settlement on {_at(h)} has nowhere to go with {tile}",
            f"KB §7 {tile}",
            key="source_stuck",
            params={"hex": _at(h), "tile": tile},
        )
    return None


def _wall_error(st: KingdomBuilderState, h: int) -> IllegalAction | None:
    rule = "KB §7 Quarry"
    if st.walls_left <= 0:
        return IllegalAction(
            "all 25 stone walls are on the map", f"{rule}: 25 walls", key="no_walls_left"
        )
    err = _occupied(st, h) or _terrain_error(
        st,
        h,
        st.terrain,
        "stone walls go on your card's terrain,",
        f"{rule}: walls go on the terrain of your card",
        "terrain_wall",
    )
    if err:
        return err
    if st.adj[st.cur][h] == 0:
        return IllegalAction(
            f"{_at(h)} does not touch one of your settlements",
            f"{rule}: each wall must touch one of your settlements",
            key="wall_not_touching",
            params={"hex": _at(h)},
        )
    return None
