"""The view dict as the table may draw it: every field the Glen More table reads, checked and
bounded (``docs/glen-more.md``, "View").

A host's ``view`` is data from outside (``game/ui/client.py``: the client layer checks only that
it is a map).  :func:`clean_view` keeps what has the shape the engine gives it and replaces
anything else by what an empty table would show: a track space that is not a tile, a figure or
the die is an empty space; a tile whose id the data does not know is dropped; numbers are
bounded (a count of a billion must not make a frame draw a billion units).  Nothing here is a
rule: a value in range is drawn as the engine sent it.
"""

from __future__ import annotations

from typing import Any

from game.ui.games.glen_more.common import RESOURCE_NAMES, TILES

SLOTS = 14
#: The largest count drawn (coins, whisky, cubes, points ...): far above any real game.
BIG = 999
#: The most seats, tiles per territory, records and options kept.
MAX_SEATS = 6
MAX_TILES = 80
MAX_LIST = 64


def _int(value: Any, low: int = -BIG, high: int = BIG, default: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        return default
    return max(low, min(high, value))


def _opt_int(value: Any, low: int, high: int) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        return None
    return value


def _cell(value: Any) -> list[int] | None:
    if isinstance(value, list | tuple) and len(value) == 2:
        r, c = value
        if all(isinstance(v, int) and not isinstance(v, bool) and -60 <= v <= 60 for v in (r, c)):
            return [int(r), int(c)]
    return None


def _res(value: Any) -> dict[str, int]:
    if not isinstance(value, dict):
        return {}
    return {r: _int(value.get(r), 0, BIG) for r in RESOURCE_NAMES if _int(value.get(r), 0, BIG)}


def _tile_id(value: Any) -> str | None:
    return value if isinstance(value, str) and value in TILES else None


def _ints(value: Any, n: int, low: int = -BIG, high: int = BIG) -> list[int]:
    items = value if isinstance(value, list) else []
    return [_int(items[i] if i < len(items) else 0, low, high) for i in range(n)]


def _track(value: Any, n: int) -> list[dict[str, Any] | None]:
    items = value if isinstance(value, list) else []
    out: list[dict[str, Any] | None] = []
    for i in range(SLOTS):
        entry = items[i] if i < len(items) else None
        if isinstance(entry, dict):
            tile = _tile_id(entry.get("tile"))
            seat = _opt_int(entry.get("seat"), 0, n - 1)
            if tile is not None:
                out.append({"tile": tile})
                continue
            if seat is not None:
                out.append({"seat": seat})
                continue
            if entry.get("die") is True:
                out.append({"die": True})
                continue
        out.append(None)
    return out


def _territory(value: Any) -> list[dict[str, Any]]:
    items = value if isinstance(value, list) else []
    out = []
    seen = set()
    for entry in items[:MAX_TILES]:
        if not isinstance(entry, dict):
            continue
        tile = _tile_id(entry.get("tile"))
        cell = _cell([entry.get("row"), entry.get("col")])
        if tile is None or cell is None or tuple(cell) in seen:
            continue
        seen.add(tuple(cell))
        out.append(
            {
                "tile": tile,
                "row": cell[0],
                "col": cell[1],
                "resources": _res(entry.get("resources")),
                "clan": _int(entry.get("clan"), 0, BIG),
            }
        )
    return out


def _seat(value: Any, s: int) -> dict[str, Any]:
    sv = value if isinstance(value, dict) else {}
    cards = sv.get("cards")
    return {
        "seat": s,
        "coins": _int(sv.get("coins"), 0, BIG),
        "whisky": _int(sv.get("whisky"), 0, BIG),
        "chieftains": _int(sv.get("chieftains"), 0, BIG),
        "bonnets": _int(sv.get("bonnets"), 0, BIG),
        "chieftain_multiplier": _int(sv.get("chieftain_multiplier"), 1, 9, 1),
        "clan_on_board": _int(sv.get("clan_on_board"), 0, BIG),
        "resources": _res(sv.get("resources")),
        "cards": [c for c in cards[:MAX_LIST] if _tile_id(c)] if isinstance(cards, list) else [],
        "tile_points": _int(sv.get("tile_points")),
        "track_slot": _opt_int(sv.get("track_slot"), 0, SLOTS - 1),
        "tiles": _territory(sv.get("tiles")),
    }


def _pending(value: Any) -> dict[str, Any] | None:
    if not isinstance(value, dict):
        return None
    out: dict[str, Any] = {
        "phase": value.get("phase") if isinstance(value.get("phase"), str) else "",
        "tile": _tile_id(value.get("tile")),
        "placed": _cell(value.get("placed")),
        "to_activate": [c for c in map(_cell, _list(value.get("to_activate"))) if c],
        "placed_first": _cell(value.get("placed_first")),
        "loch_ness": value.get("loch_ness") is True,
        "movement_points": _int(value.get("movement_points"), 0, BIG),
    }
    payment = value.get("payment")
    if isinstance(payment, dict):
        out["payment"] = {
            "for": "effect" if payment.get("for") == "effect" else "tile",
            "resources": _res(payment.get("resources")),
            "any": _int(payment.get("any"), 0, 9),
            "clan_members": _int(payment.get("clan_members"), 0, 9),
        }
    if _cell(value.get("effect_tile")) is not None:
        out["effect_tile"] = _cell(value.get("effect_tile"))
    reward = value.get("reward")
    if isinstance(reward, dict):
        out["reward"] = {
            "vp": _int(reward.get("vp"), 0, BIG),
            "whisky": _int(reward.get("whisky"), 0, BIG),
        }
    options = []
    for option in _list(value.get("options")):
        if isinstance(option, dict) and _opt_int(option.get("option"), 0, BIG) is not None:
            options.append(
                {
                    "option": option["option"],
                    "pay": _res(option.get("pay")),
                    "any": _int(option.get("any"), 0, 9),
                    "vp": _int(option.get("vp"), 0, BIG),
                }
            )
    if options:
        out["options"] = options
    queue = []
    for item in _list(value.get("resource_for")):
        if isinstance(item, list) and len(item) == 3 and _cell(item[:2]) is not None:
            queue.append([item[0], item[1], _int(item[2], 0, 9)])
    if queue:
        out["resource_for"] = queue
    return out


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any, limit: int = MAX_LIST) -> list[Any]:
    return value[:limit] if isinstance(value, list) else []


def _scores(value: Any, n: int) -> list[dict[str, int]]:
    items = value if isinstance(value, list) else []
    out = []
    for s in range(n):
        row = items[s] if s < len(items) and isinstance(items[s], dict) else {}
        out.append({str(k): _int(v) for k, v in list(row.items())[:20] if isinstance(k, str)})
    return out


def _round(value: Any, n: int) -> dict[str, Any] | None:
    if not isinstance(value, dict):
        return None
    counts = _dict(value.get("counts"))
    points = _dict(value.get("points"))
    detail = _dict(value.get("detail"))
    cats = ("whisky", "chieftains", "specials")
    return {
        "round": _int(value.get("round"), 0, 9),
        "stack": _int(value.get("stack"), -1, 9),
        "counts": {c: _ints(counts.get(c), n, 0) for c in cats},
        "points": {c: _ints(points.get(c), n, 0) for c in cats},
        "detail": {k: _ints(detail.get(k), n, 0) for k in ("chieftains", "multiplier", "bonnets")},
        "total": _ints(value.get("total"), n, 0),
    }


def _final(value: Any, n: int) -> dict[str, Any] | None:
    if not isinstance(value, dict):
        return None
    effects = _dict(value.get("end_effects"))
    clean_effects = {}
    for cat in ("iona_abbey", "loch_morar", "duart_castle"):
        e = _dict(effects.get(cat))
        owners = [o for o in _list(e.get("owner")) if _opt_int(o, 0, n - 1) is not None]
        clean_effects[cat] = {
            "tiles": _ints(e.get("tiles"), n, 0),
            "points": _ints(e.get("points"), n, 0),
            "owner": owners,
        }
    return {
        "coins": _ints(value.get("coins"), n, 0),
        "coin_points": _ints(value.get("coin_points"), n, 0),
        "tiles": _ints(value.get("tiles"), n, 0, MAX_TILES),
        "fewest_tiles": _int(value.get("fewest_tiles"), 0, MAX_TILES),
        "tile_penalty": _ints(value.get("tile_penalty"), n, -BIG, 0),
        "end_effects": clean_effects,
    }


def _stock(value: Any) -> dict[str, Any]:
    """The supplies (cubes and whisky may run below zero: substitutes, GM §1; clan members
    never run out and are not counted, issue 20)."""
    stock = _dict(value)
    return {
        "coins": _int(stock.get("coins"), -BIG, BIG),
        "whisky": _int(stock.get("whisky"), -BIG, BIG),
        "resources": {
            r: _int(_dict(stock.get("resources")).get(r), -BIG, BIG) for r in RESOURCE_NAMES
        },
    }


def clean_view(view: Any) -> dict[str, Any]:
    """The fields of ``view`` the table draws, checked and bounded (see the module docstring);
    ``{}`` when it is not a Glen More view at all (no seats)."""
    if not isinstance(view, dict):
        return {}
    raw_seats = view.get("seats")
    if not isinstance(raw_seats, list) or not raw_seats:
        return {}
    n = min(len(raw_seats), MAX_SEATS)
    market = []
    raw_market = _list(view.get("market"))
    for res in RESOURCE_NAMES:
        row = next((m for m in raw_market if isinstance(m, dict) and m.get("resource") == res), {})
        market.append(
            {
                "resource": res,
                "filled": _int(row.get("filled"), 0, 3),
                "buy": _opt_int(row.get("buy"), 1, 99),
                "sell": _opt_int(row.get("sell"), 1, 99),
            }
        )
    options = _dict(view.get("options"))
    rounds = [r for r in (_round(x, n) for x in _list(view.get("rounds"))) if r is not None]
    return {
        "game": "glen-more",
        "players": n,
        "you": _opt_int(view.get("you"), 0, n - 1),
        "options": {
            "grey_clan_members": "on_placement"
            if options.get("grey_clan_members") == "on_placement"
            else "every_activation"
        },
        "track": _track(view.get("track"), n),
        "empty": _opt_int(view.get("empty"), 0, SLOTS - 1),
        "die": _opt_int(view.get("die"), 0, SLOTS - 1),
        "stacks": _ints(view.get("stacks"), 4, 0, BIG),
        "removed": [x for x in _list(view.get("removed"), 100) if _tile_id(x)],
        "market": market,
        "stock": _stock(view.get("stock")),
        "current": _opt_int(view.get("current"), 0, n - 1),
        "turn": _int(view.get("turn"), 0, 10**9),
        "over": view.get("over") is True,
        "pending": _pending(view.get("pending")),
        "seats": [_seat(raw_seats[s], s) for s in range(n)],
        "rounds": rounds[:3],
        "final": _final(view.get("final"), n),
        "scores": _scores(view.get("scores"), n),
        "preview": _scores(view.get("preview"), n),
    }
