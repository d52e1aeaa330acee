"""A review as a plain value, checked field by field when it comes back from a file.

A cached review is read from disk, so it is hostile like any file: :func:`check_review` accepts
it only if every field has the type and range ``docs/review.md`` gives it *and* it belongs to
the replay it is read for (the same game, players and seat, and each turn's ``move`` the very
actions the replay holds at its ``steps``).  Anything else raises :class:`BadState`, and the
cache treats the review as missing.
"""

from __future__ import annotations

import math
import re
from typing import Any

from game.core.match import MAX_REPLAY_ACTIONS, Replay, clean_text
from game.core.types import Action, BadState
from game.core.wire import WireError, as_action

#: Most reasons a turn may carry, and most parameters of a reason.
MAX_REASONS = 8
MAX_PARAMS = 8
#: Longest text (a move's description, a parameter) in a review.
MAX_TEXT = 200
#: Most turning points.
MAX_TURNING_POINTS = 10
_KEY = re.compile(r"[A-Za-z0-9_.:\-]{1,80}")


def _fail(what: str) -> BadState:
    return BadState(f"review field {what} is malformed")


def _int(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(what)
    return value


def _num(value: Any, what: str, optional: bool = False) -> float | None:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise _fail(what)
    if abs(value) > 1e9:
        raise _fail(what)
    return float(value)


def _bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(what)
    return value


def _list(value: Any, what: str, most: int) -> list[Any]:
    if not isinstance(value, list) or len(value) > most:
        raise _fail(what)
    return value


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str) or len(value) > 4 * MAX_TEXT:
        raise _fail(what)
    return clean_text(value)[:MAX_TEXT]


def _actions(value: Any, what: str) -> list[Action]:
    items = _list(value, what, MAX_REPLAY_ACTIONS)
    try:
        return [as_action(a) for a in items]
    except WireError:
        raise _fail(what) from None


def check_reason(value: Any, what: str = "reason") -> dict[str, Any]:
    """A reason ``{key, params, gain}`` with plain parameters (:class:`BadState` otherwise)."""
    if not isinstance(value, dict) or set(value) != {"key", "params", "gain"}:
        raise _fail(what)
    key = value["key"]
    if not isinstance(key, str) or not _KEY.fullmatch(key):
        raise _fail(f"{what}.key")
    params = value["params"]
    if not isinstance(params, dict) or len(params) > MAX_PARAMS:
        raise _fail(f"{what}.params")
    clean: dict[str, Any] = {}
    for name, item in params.items():
        if not isinstance(name, str) or not _KEY.fullmatch(name):
            raise _fail(f"{what}.params")
        if isinstance(item, str):
            clean[name] = _text(item, f"{what}.params")
        elif isinstance(item, bool) or item is None:
            clean[name] = item
        elif isinstance(item, int):
            clean[name] = _int(item, f"{what}.params", -(2**31), 2**31)
        else:
            clean[name] = _num(item, f"{what}.params")
    gain = _num(value["gain"], f"{what}.gain")
    return {"key": key, "params": clean, "gain": gain}


_TURN_FIELDS = {
    "number",
    "turn",
    "step",
    "steps",
    "seat",
    "forced",
    "move",
    "move_text",
    "best",
    "best_text",
    "same",
    "value_before",
    "value_move",
    "value_best",
    "outlook_move",
    "outlook_best",
    "loss",
    "reasons",
}

_FIELDS = {
    "game",
    "seat",
    "players",
    "settings",
    "scale",
    "min_loss",
    "turns",
    "turning_points",
    "graph",
    "over",
    "scores",
    "winners",
}


def _check_turn(value: Any, i: int, replay: Replay, seat: int) -> dict[str, Any]:
    what = f"turns[{i}]"
    if not isinstance(value, dict) or set(value) != _TURN_FIELDS:
        raise _fail(what)
    n = len(replay.actions)
    steps = [_int(s, f"{what}.steps", 0, n - 1) for s in _list(value["steps"], what, n)]
    move = _actions(value["move"], f"{what}.move")
    if not steps or len(steps) != len(move) or steps != sorted(set(steps)):
        raise _fail(f"{what}.steps")
    if any(replay.actions[s] != (seat, a) for s, a in zip(steps, move, strict=True)):
        raise _fail(f"{what}.move")  # not this replay's moves
    step = _int(value["step"], f"{what}.step", 0, n)
    if step != steps[0] or _int(value["seat"], f"{what}.seat", 0, replay.players - 1) != seat:
        raise _fail(f"{what}.step")
    return {
        "number": _int(value["number"], f"{what}.number", 1, n),
        "turn": _int(value["turn"], f"{what}.turn", -(2**63), 2**64),
        "step": step,
        "steps": steps,
        "seat": seat,
        "forced": _bool(value["forced"], f"{what}.forced"),
        "move": [list(a) for a in move],
        "move_text": [_text(x, f"{what}.move_text") for x in _list(value["move_text"], what, n)],
        "best": [list(a) for a in _actions(value["best"], f"{what}.best")],
        "best_text": [_text(x, f"{what}.best_text") for x in _list(value["best_text"], what, n)],
        "same": _bool(value["same"], f"{what}.same"),
        "value_before": _num(value["value_before"], f"{what}.value_before"),
        "value_move": _num(value["value_move"], f"{what}.value_move"),
        "value_best": _num(value["value_best"], f"{what}.value_best"),
        "outlook_move": _num(value["outlook_move"], f"{what}.outlook_move", True),
        "outlook_best": _num(value["outlook_best"], f"{what}.outlook_best", True),
        "loss": max(0.0, _num(value["loss"], f"{what}.loss") or 0.0),
        "reasons": [
            check_reason(r, f"{what}.reasons")
            for r in _list(value["reasons"], f"{what}.reasons", MAX_REASONS)
        ],
    }


def _check_graph(value: Any, players: int, steps_max: int) -> dict[str, Any]:
    if not isinstance(value, dict) or set(value) != {"steps", "margins", "win"}:
        raise _fail("graph")
    most = steps_max + 2
    steps = [_int(s, "graph.steps", 0, steps_max) for s in _list(value["steps"], "graph", most)]
    rows = []
    for name in ("margins", "win"):
        table = _list(value[name], f"graph.{name}", most)
        if len(table) != len(steps):
            raise _fail(f"graph.{name}")
        checked = []
        for row in table:
            items = _list(row, f"graph.{name}", players)
            if len(items) != players:
                raise _fail(f"graph.{name}")
            checked.append([_num(x, f"graph.{name}") for x in items])
        rows.append(checked)
    if steps != sorted(steps):
        raise _fail("graph.steps")
    return {"steps": steps, "margins": rows[0], "win": rows[1]}


def check_review(value: Any, replay: Replay, seat: int) -> dict[str, Any]:
    """``value`` as a review of ``seat`` in ``replay`` (a clean copy), or :class:`BadState`."""
    if not isinstance(value, dict) or set(value) != _FIELDS:
        raise _fail("(top level)")
    if value["game"] != replay.game or value["players"] != replay.players:
        raise BadState("the review is of another game")
    if value["seat"] != seat:
        raise BadState("the review is of another seat")
    settings = value["settings"]
    if not isinstance(settings, dict) or len(settings) > 16:
        raise _fail("settings")
    turns = [
        _check_turn(t, i, replay, seat)
        for i, t in enumerate(_list(value["turns"], "turns", MAX_REPLAY_ACTIONS))
    ]
    numbers = {t["number"] for t in turns}
    points = [
        _int(p, "turning_points", 1, MAX_REPLAY_ACTIONS)
        for p in _list(value["turning_points"], "turning_points", MAX_TURNING_POINTS)
    ]
    if any(p not in numbers for p in points):
        raise _fail("turning_points")
    scores = value["scores"]
    if scores is not None:
        scores = [
            _int(s, "scores", -(2**31), 2**31) for s in _list(scores, "scores", replay.players)
        ]
    return {
        "game": replay.game,
        "seat": seat,
        "players": replay.players,
        "settings": {
            str(k)[:40]: v for k, v in settings.items() if isinstance(v, int | float | str)
        },
        "scale": _num(value["scale"], "scale"),
        "min_loss": _num(value["min_loss"], "min_loss"),
        "turns": turns,
        "turning_points": points,
        "graph": _check_graph(value["graph"], replay.players, len(replay.actions)),
        "over": _bool(value["over"], "over"),
        "scores": scores,
        "winners": [
            _int(w, "winners", 0, replay.players - 1)
            for w in _list(value["winners"], "winners", replay.players)
        ],
    }
