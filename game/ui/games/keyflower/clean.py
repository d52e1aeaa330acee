"""The host's view, checked and bounded before the table uses it.

A host can be hostile (anyone can run one on the LAN) and the protocol only checks a view's
size, so every field the Keyflower table reads (``docs/keyflower.md``, "View") is rebuilt here in
its documented shape: numbers bounded, seats inside the table, colours, resources, faces and
stages from their known names, tile ids from the box (an unknown tile is dropped), lists cut to
what a game can hold.  What is missing or malformed becomes its empty value, so the drawing code
never meets a surprise and a hostile view shows a strange table, never a traceback.
"""

from __future__ import annotations

from typing import Any

from game.ui.games.keyflower.common import (
    CATEGORIES,
    COLOURS,
    RESOURCES,
    SEASONS,
    tile_def,
)

PHASES = ("play", "boats", "place", "winter_pick", "over")
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
FACES = ("front", "upgraded", "a", "b", "A", "B")
MAX_SEATS = 6
#: Villages never reach this far from the home tile (the engine limits positions to 14).
MAX_COORD = 30
#: More than a game can hold of anything (64 tiles, 141 keyples, 120 resources).
MAX_ITEMS = 160
MAX_COUNT = 999


def num(value: Any, low: int = 0, high: int = MAX_COUNT) -> int:
    """An int within [low, high] (anything else: ``low``)."""
    if isinstance(value, bool) or not isinstance(value, int):
        return low
    return max(low, min(high, value))


def seat_or_none(value: Any, seats: int) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
        return None
    return value


def tile_id(value: Any) -> str | None:
    """A tile id of the box, or None."""
    return value if isinstance(value, str) and tile_def(value) is not None else None


def one_of(value: Any, names: tuple[str, ...], default: str | None = None) -> str | None:
    return value if isinstance(value, str) and value in names else default


def counts(value: Any, n: int) -> list[int]:
    """A list of ``n`` bounded counts."""
    items = value if isinstance(value, list) else []
    return [num(items[i]) if i < len(items) else 0 for i in range(n)]


def _list(value: Any) -> list[Any]:
    return value[:MAX_ITEMS] if isinstance(value, list) else []


def _tiles(value: Any) -> list[str]:
    return [t for t in (tile_id(v) for v in _list(value)) if t is not None]


def _placement(entry: Any, seats: int) -> list[Any] | None:
    """``[seat, colour, n]`` of a bid or use."""
    if not isinstance(entry, list) or len(entry) != 3:
        return None
    seat = seat_or_none(entry[0], seats)
    colour = one_of(entry[1], COLOURS)
    n = num(entry[2], 0)
    if seat is None or colour is None or n <= 0:
        return None
    return [seat, colour, n]


def _activity(value: Any, seats: int) -> list[dict[str, Any]]:
    out = []
    for entry in _list(value):
        if not isinstance(entry, dict):
            continue
        tile = tile_id(entry.get("tile"))
        if tile is None:
            continue
        bids = [b for b in (_placement(x, seats) for x in _list(entry.get("bids"))) if b]
        uses = [u for u in (_placement(x, seats) for x in _list(entry.get("uses"))) if u]
        out.append(
            {
                "tile": tile,
                "lock": one_of(entry.get("lock"), COLOURS),
                "bids": bids[:MAX_SEATS],
                "uses": uses[:3],
            }
        )
    return out


def _village(value: Any) -> list[list[Any]]:
    out = []
    seen: set[tuple[int, int]] = set()
    for entry in _list(value):
        if not isinstance(entry, list) or len(entry) < 6:
            continue
        tile = tile_id(entry[0])
        q, r = num(entry[1], -MAX_COORD, MAX_COORD), num(entry[2], -MAX_COORD, MAX_COORD)
        if tile is None or (q, r) in seen:
            continue
        seen.add((q, r))
        out.append(
            [tile, q, r, num(entry[3], 0, 5), one_of(entry[4], FACES, "front"), counts(entry[5], 4)]
        )
    return out


def _placed(value: Any) -> list[list[Any]]:
    out = []
    for entry in _list(value):
        if isinstance(entry, list) and len(entry) >= 4 and tile_id(entry[0]) is not None:
            out.append(
                [
                    entry[0],
                    num(entry[1], -MAX_COORD, MAX_COORD),
                    num(entry[2], -MAX_COORD, MAX_COORD),
                    num(entry[3], 0, 5),
                ]
            )
    return out


def _seat(value: Any, index: int) -> dict[str, Any]:
    sv = value if isinstance(value, dict) else {}
    hand = sv.get("winter_hand")
    out: dict[str, Any] = {
        "seat": index,
        "home": tile_id(sv.get("home")),
        "village": _village(sv.get("village")),
        "keyple_count": num(sv.get("keyple_count")),
        "known_keyples": counts(sv.get("known_keyples"), 4),
        "skill_count": num(sv.get("skill_count")),
        "known_skills": counts(sv.get("known_skills"), 3),
        "purple": sv.get("purple") is True,
        "winter_hand": _tiles(hand) if isinstance(hand, list) else num(hand, 0, 12),
        "won": _tiles(sv.get("won")),
        "done": sv.get("done") if isinstance(sv.get("done"), bool) else None,
    }
    if isinstance(sv.get("keyples"), list):
        out["keyples"] = counts(sv.get("keyples"), 4)
    if isinstance(sv.get("skills"), list):
        out["skills"] = counts(sv.get("skills"), 3)
    if "winter_pick" in sv:
        pick = sv.get("winter_pick")
        out["winter_pick"] = _tiles(pick) if isinstance(pick, list) else None
    if "placed" in sv:
        out["placed"] = _placed(sv.get("placed"))
    if "place_selected" in sv:
        out["place_selected"] = tile_id(sv.get("place_selected"))
    return out


def _scores(value: Any) -> list[dict[str, int]]:
    out = []
    for row in _list(value)[:MAX_SEATS]:
        row = row if isinstance(row, dict) else {}
        clean = {c: num(row.get(c), -MAX_COUNT, MAX_COUNT) for c in (*CATEGORIES, "total")}
        out.append(clean)
    return out


def _pending(value: Any, seats: int) -> dict[str, Any] | None:
    if not isinstance(value, dict):
        return None
    return {
        "seat": seat_or_none(value.get("seat"), seats),
        "stage": one_of(value.get("stage"), STAGES, "start"),
        "reclaimed": _tiles(value.get("reclaimed")),
        "colour": one_of(value.get("colour"), COLOURS),
        "keyples": num(value.get("keyples")),
        "tile": tile_id(value.get("tile")),
        "transport": num(value.get("transport")),
        "upgrades": num(value.get("upgrades")),
        "upgraded": value.get("upgraded") is True,
        "move_from": tile_id(value.get("move_from")),
        "move_kind": one_of(value.get("move_kind"), RESOURCES),
    }


def _is_int(value: Any, low: int = -MAX_COORD, high: int = 2**31) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def well_formed(action: tuple[Any, ...]) -> bool:
    """Whether ``action`` has the documented shape of its kind (``docs/keyflower.md``,
    "Actions") — the table offers only such actions; the host decides which are legal."""
    if not action or not isinstance(action[0], str):
        return False
    kind, args = action[0], action[1:]
    if kind in ("pass", "done"):
        return not args
    if kind in ("reclaim", "bid_tile", "use_tile", "place_tile", "move_to", "boat"):
        return len(args) == 1 and tile_id(args[0]) is not None
    if kind in ("bid", "use"):
        return (
            len(args) == 3
            and tile_id(args[0]) is not None
            and args[1] in COLOURS
            and _is_int(args[2], 0, MAX_COUNT)
        )
    if kind in ("pay_keyple", "keyple"):
        return len(args) == 1 and args[0] in COLOURS
    if kind == "pay_skill":
        return len(args) == 1 and args[0] in ("saw", "pickaxe", "anvil")
    if kind == "resource":
        return len(args) == 1 and args[0] in RESOURCES
    if kind == "move":
        return len(args) == 2 and tile_id(args[0]) is not None and args[1] in RESOURCES
    if kind == "upgrade":
        return (
            len(args) == 8
            and tile_id(args[0]) is not None
            and all(_is_int(x, 0, MAX_COUNT) for x in args[1:])
        )
    if kind == "place":
        return (
            len(args) == 4
            and tile_id(args[0]) is not None
            and _is_int(args[1])
            and _is_int(args[2], -MAX_COORD, MAX_COORD)
            and _is_int(args[3], 0, 5)
        )
    if kind == "winter_tiles":
        return bool(args) and all(tile_id(x) is not None for x in args)
    return False


def clean_view(raw: Any, max_seats: int = MAX_SEATS) -> dict[str, Any]:
    """The view in its documented shape (see the module docstring)."""
    if not isinstance(raw, dict) or not raw:
        return {}
    seats_raw = _list(raw.get("seats"))[: min(max_seats, MAX_SEATS)]
    n = len(seats_raw)
    supply: dict[str, Any] = raw["supply"] if isinstance(raw.get("supply"), dict) else {}
    view: dict[str, Any] = {
        "game": raw.get("game") if isinstance(raw.get("game"), str) else "keyflower",
        "players": n,
        "you": seat_or_none(raw.get("you"), n),
        "season": one_of(raw.get("season"), SEASONS, ""),
        "phase": one_of(raw.get("phase"), PHASES, ""),
        "turn": num(raw.get("turn"), 0, 2**31),
        "start": seat_or_none(raw.get("start"), n),
        "purple": seat_or_none(raw.get("purple"), n),
        "current": seat_or_none(raw.get("current"), n),
        "passes": num(raw.get("passes"), 0, MAX_SEATS),
        "over": raw.get("over") is True,
        "supply": {
            "bag": num(supply.get("bag")),
            "green": num(supply.get("green")),
            "skills": num(supply.get("skills")),
            "resources": counts(supply.get("resources"), 4),
        },
        "auction": [
            [a[0], one_of(a[1], FACES, "front")]
            for a in _list(raw.get("auction"))
            if isinstance(a, list) and len(a) >= 2 and tile_id(a[0]) is not None
        ][:16],
        "turn_order": [
            [a[0], one_of(a[1], FACES, "a"), a[2] is True if len(a) > 2 else False]
            for a in _list(raw.get("turn_order"))
            if isinstance(a, list) and len(a) >= 2 and tile_id(a[0]) is not None
        ][:4],
        "activity": _activity(raw.get("activity"), n),
        "boats": [
            {
                "boat": b["boat"],
                "side": one_of(b.get("side"), FACES, "A"),
                "keyples": counts(b.get("keyples"), 3),
                "skills": counts(b.get("skills"), 3),
                "taken": b.get("taken") is True,
            }
            for b in _list(raw.get("boats"))
            if isinstance(b, dict) and tile_id(b.get("boat")) is not None
        ][:6],
        "boat_order": [s for s in _list(raw.get("boat_order")) if seat_or_none(s, n) is not None],
        "pending": _pending(raw.get("pending"), n),
        "seats": [_seat(sv, i) for i, sv in enumerate(seats_raw)],
        "scores": _scores(raw.get("scores")),
        "preview": _scores(raw.get("preview")),
    }
    if isinstance(raw.get("final"), list):
        view["final"] = [d if isinstance(d, dict) else {} for d in raw["final"][:MAX_SEATS]]
    return view
