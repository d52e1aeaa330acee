"""What each seat may see (``view``), the full report for ``show --json`` and its text form.

Secrets (GM §2): only the order of the face-down stacks.  Their sizes (and so which tiles are
left in each, since the contents of the stacks are known) are public, as is everything else:
the track, the market, every territory, coins, whisky, chieftains, cards and scores.  The RNG
never appears in a view.  Fields are documented in ``docs/glen-more.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.core.types import Seat
from game.core.wire import plain_copy
from game.glen_more import grid as G
from game.glen_more.codes import (
    CUBE_COUNTS,
    EMPTY,
    FOR_TILE,
    OPTION,
    PAY,
    PHASES,
    RESOURCE,
    TILE_OPTIONS,
    figure_of,
)
from game.glen_more.market import buy_price, sell_price
from game.glen_more.options import EVERY_ACTIVATION, ON_PLACEMENT
from game.glen_more.scoring import END_CATEGORIES, ROUND_CATEGORIES, end_effect_cells, round_counts
from game.glen_more.tiles import KINDS, NRES, RESOURCES, ROW_SPACES

if TYPE_CHECKING:
    from game.glen_more.state import GlenMoreState


def _res(counts: tuple[int, ...] | list[int]) -> dict[str, int]:
    return {RESOURCES[k]: counts[k] for k in range(NRES) if counts[k]}


def track_entry(st: GlenMoreState, v: int) -> dict[str, Any] | None:
    """One track space: ``null`` (empty), ``{"tile": id}``, ``{"seat": s}`` or
    ``{"die": true}``."""
    if v == EMPTY:
        return None
    if v >= 0:
        return {"tile": KINDS[v].id}
    f = figure_of(v)
    return {"die": True} if f == st.n else {"seat": f}


def _pending(st: GlenMoreState) -> dict[str, Any] | None:
    if st.over:
        return None
    out: dict[str, Any] = {
        "phase": PHASES[st.phase],
        "tile": KINDS[st.taken].id if st.taken >= 0 else None,
        "placed": G.rc(st.at) if st.at >= 0 else None,
        "to_activate": [G.rc(c) for c in st.todo],
        "placed_first": G.rc(st.first) if st.first >= 0 else None,
        "loch_ness": st.has_extra_activation(st.cur) and not st.ness,
        "movement_points": st.points,
    }
    if st.phase == PAY:
        out["payment"] = {
            "for": "tile" if st.pay_for == FOR_TILE else "effect",
            "resources": _res(st.need),
            "any": st.need_any,
            "clan_members": st.need_clan,
        }
    if st.phase in (PAY, OPTION) and st.opt_cell >= 0:
        out["effect_tile"] = G.rc(st.opt_cell)
        out["reward"] = {"vp": st.reward_vp, "whisky": st.reward_whisky}
    if st.phase == OPTION:
        k = st.grid[st.cur][st.opt_cell]
        out["options"] = [
            {"option": i, "pay": _res(need), "any": any_n, "vp": vp}
            for i, (need, any_n, vp) in enumerate(TILE_OPTIONS[k])
        ]
    if st.phase == RESOURCE:
        out["resource_for"] = [[*G.rc(c), n] for c, n in st.res_queue]
    return out


def seat_tiles(st: GlenMoreState, s: int, names: bool) -> list[dict[str, Any]]:
    """A seat's territory: each tile with its cell, cubes and clan members, by row then column."""
    grid, cubes, clan = st.grid[s], st.cubes[s], st.clan[s]
    out = []
    for c in sorted(grid):
        r, q = G.row_col(c)
        kind = KINDS[grid[c]]
        entry: dict[str, Any] = {"tile": kind.id}
        if names:
            entry["name"] = kind.name
        entry.update(
            {
                "row": r,
                "col": q,
                "resources": _res(CUBE_COUNTS[cubes.get(c, 0)]),
                "clan": clan.get(c, 0),
            }
        )
        out.append(entry)
    return out


def _seat(st: GlenMoreState, s: int, names: bool) -> dict[str, Any]:
    return {
        "seat": s,
        "coins": st.coins[s],
        "whisky": st.whisky[s],
        "chieftains": st.chieftains[s],
        "bonnets": st.bonnets(s),
        "chieftain_multiplier": st.chieftain_multiplier(s),
        "clan_on_board": st.clan_total[s],
        "resources": _res(st.have[s]),
        "cards": [KINDS[k].id for k in st.cards[s]],
        "tile_points": st.tile_vp[s],
        "track_slot": st.figs[s],
        "tiles": seat_tiles(st, s, names),
    }


def _public(st: GlenMoreState, names: bool) -> dict[str, Any]:
    return {
        "game": st.game_id,
        "players": st.n,
        "options": {
            "start_seat": st.start,
            "grey_clan_members": ON_PLACEMENT if st.clan_on_place else EVERY_ACTIVATION,
        },
        "track": [track_entry(st, v) for v in st.slots],
        "empty": st.empty,
        "die": st.figs[st.n] if st.die else None,
        "stacks": [len(p) for p in st.stacks],
        "removed": [KINDS[k].id for k in st.removed],
        "market": [
            {
                "resource": RESOURCES[k],
                "filled": st.market[k],
                "buy": buy_price(st.market[k]) or None,
                "sell": sell_price(st.market[k]) or None,
            }
            for k in range(NRES)
        ],
        "stock": {
            "coins": st.bank,
            "whisky": st.whisky_stock,
            "resources": {RESOURCES[k]: st.stock[k] for k in range(NRES)},
        },
        "current": None if st.over else st.cur,
        "turn": st.turn,
        "over": st.over,
        "pending": _pending(st),
        "seats": [_seat(st, s, names) for s in range(st.n)],
        "rounds": st.rounds,
        "next_round": _next_round(st),
        "final": st.final,
        "end_cells": _end_cells(st) if st.over else None,
        "winners": st.winners() if st.over else [],
        "scores": st.scores(),
        "preview": st.preview_scores(),
    }


def _next_round(st: GlenMoreState) -> dict[str, list[int]]:
    """The three counts the next scoring round would compare, per seat (GM §7.1)."""
    return round_counts(st)


def _end_cells(st: GlenMoreState) -> dict[str, list[list[list[int]]]]:
    """Per end-game category, per seat: the cells its special tile counted (GM §7.2)."""
    cells = [end_effect_cells(st, s) for s in range(st.n)]
    return {
        cat: [[list(G.rc(c)) for c in cells[s].get(cat, [])] for s in range(st.n)]
        for cat in END_CATEGORIES
    }


def view(st: GlenMoreState, seat: Seat | None) -> dict[str, Any]:
    """The plain-dict view of ``seat`` (``None``: a spectator); the caller's own: nothing in it
    is shared with the state (its scoring rounds, its final scoring)."""
    return plain_copy(shared_view(st, seat))


def shared_view(st: GlenMoreState, seat: Seat | None) -> dict[str, Any]:
    """:func:`view`, built once per position and shared by the seats' views of it and with the
    state (for the host, which encodes it at once)."""
    shared = st._view
    if shared is None:
        shared = st._view = _public(st, False)
    out = dict(shared)
    out["you"] = seat
    return out


def report(st: GlenMoreState) -> dict[str, Any]:
    """The ``python -m game show --json`` object: everything public plus tile names, the
    winners and the stacks' order (a saved file has no secrets from its reader); the caller's
    own, like a view."""
    return plain_copy(_report(st))


def _report(st: GlenMoreState) -> dict[str, Any]:
    out: dict[str, Any] = {
        "game": st.game_id,
        "players": st.n,
        "to_move": list(st.to_move()),
        "winners": st.winners() if st.over else [],
    }
    out.update(_public(st, True))
    out["round_categories"] = list(ROUND_CATEGORIES)
    out["stack_order"] = [[KINDS[k].id for k in reversed(p)] for p in st.stacks]
    return out


def grid_lines(st: GlenMoreState, s: int) -> list[str]:
    """A seat's territory as text, one cell per tile: name, cubes (initials) and clan members
    (``2c``); rows from north to south, columns from west to east."""
    grid = st.grid[s]
    rows = [G.row_col(c)[0] for c in grid]
    cols = [G.row_col(c)[1] for c in grid]
    lines = ["      " + "".join(f"{q:<19}" for q in range(min(cols), max(cols) + 1))]
    for r in range(min(rows), max(rows) + 1):
        cells = []
        for q in range(min(cols), max(cols) + 1):
            c = G.cell(r, q)
            if c in grid:
                name = KINDS[grid[c]].name[:11]
                counts = CUBE_COUNTS[st.cubes[s].get(c, 0)]
                cubes = "".join(RESOURCES[k][0] * n for k, n in enumerate(counts))
                clan = st.clan[s].get(c, 0)
                cells.append(f"{name:<11} {cubes:<3}{f'{clan}c' if clan else '':<3}")
            else:
                cells.append(" " * 18)
        lines.append(f"{r:>4}  " + "|".join(cells))
    return lines


def report_text(st: GlenMoreState) -> str:
    """A readable summary: track, market, each territory and the score table."""
    lines = [f"Glen More, {st.n} players; turn {st.turn}"]
    track = []
    for i, v in enumerate(st.slots):
        e = track_entry(st, v)
        if e is None:
            track.append(f"{i}:--")
        elif "tile" in e:
            track.append(f"{i}:{KINDS[v].name}")
        elif "die" in e:
            track.append(f"{i}:[die]")
        else:
            track.append(f"{i}:[seat {e['seat']}]")
    lines.append("track: " + ", ".join(track))
    lines.append("stacks left: " + " ".join(f"{s}:{len(p)}" for s, p in enumerate(st.stacks)))
    lines.append(
        "market: " + ", ".join(f"{RESOURCES[k]} {st.market[k]}/{ROW_SPACES}" for k in range(NRES))
    )
    if st.over:
        lines.append("game over; winners: " + ", ".join(f"seat {s}" for s in st.winners()))
    else:
        lines.append(f"seat {st.cur} to move ({PHASES[st.phase]})")
    for s in range(st.n):
        lines.append(
            f"seat {s}: {st.coins[s]} coins, {st.whisky[s]} whisky, {st.chieftains[s]} chieftains, "
            f"{st.bonnets(s)} bonnets, cards {[KINDS[k].name for k in st.cards[s]]}"
        )
        lines += grid_lines(st, s)
    scores = st.scores() if st.over else st.preview_scores()
    cats = [k for k in scores[0] if k != "total"]
    lines.append(("final scores" if st.over else "preview (if the game ended now)") + ":")
    width = max(len(c) for c in [*cats, "total"]) + 1
    lines.append("seat  " + "".join(f"{c:>{width}}" for c in [*cats, "total"]))
    for s, row in enumerate(scores):
        lines.append(f"{s:>4}  " + "".join(f"{row[c]:>{width}}" for c in [*cats, "total"]))
    return "\n".join(lines)
