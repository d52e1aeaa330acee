"""What a client accepts from a host: the shape of every host message, field by field.

A client checks every host message against :data:`HOST_MESSAGES` (:func:`validate_host`) before
anything uses it — the client does not trust the host either.  The field checkers are those of
:mod:`net.protocol` (which checks the client's messages the same way), applied to nested
records too.  Fields a message does not define are dropped, so whatever the UI reads has been
checked; strings for people are cleaned of control characters and escape sequences.
``docs/protocol.md`` lists the same shapes for people."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from net.protocol import (
    GAME_ID,
    MAX_ARRAY_LEN,
    MAX_CHAT,
    MAX_EVENTS,
    MAX_LABEL,
    MAX_MAP_LEN,
    MAX_NAME,
    MAX_SEATS,
    MAX_TABLES_LISTED,
    MAX_TEXT,
    SEAT,
    SEQ,
    TABLE_ID,
    TOKEN,
    ErrorCode,
    Field,
    ProtocolError,
    action,
    bad_field,
    boolean,
    choice,
    identifier,
    integer,
    label,
    program_version,
    rules_map,
    shown,
    text,
)


def optional(check: Callable[[str, Any], Any]) -> Callable[[str, Any], Any]:
    """``None`` or what ``check`` accepts."""

    def inner(name: str, v: Any) -> Any:
        return None if v is None else check(name, v)

    return inner


def record(fields: dict[str, Field]) -> Callable[[str, Any], dict[str, Any]]:
    """A map with these fields (unknown fields are dropped)."""

    def check(name: str, v: Any) -> dict[str, Any]:
        if not isinstance(v, dict):
            raise bad_field(name, "a map")
        return _check_fields(name, fields, v)

    return check


def list_of(
    item: Callable[[str, Any], Any], hi: int, what: str = "items"
) -> Callable[[str, Any], list[Any]]:
    """A list of at most ``hi`` items, each accepted by ``item``."""

    def check(name: str, v: Any) -> list[Any]:
        if not isinstance(v, list) or len(v) > hi:
            raise bad_field(name, f"a list of at most {hi} {what}")
        return [item(f"{name}[{i}]", x) for i, x in enumerate(v)]

    return check


def plain_map(hi: int) -> Callable[[str, Any], dict[str, Any]]:
    """A map of at most ``hi`` entries whose values are plain (already checked by decode)."""

    def check(name: str, v: Any) -> dict[str, Any]:
        if not isinstance(v, dict) or len(v) > hi:
            raise bad_field(name, f"a map of at most {hi} entries")
        return v

    return check


def _flat_action(x: Any) -> bool:
    """The common case of :func:`~game.core.wire.as_action`, quickly: a flat list of at most
    64 items, a string kind first, then strings and integers (no booleans), strings of at most
    64 characters."""
    if type(x) is not list or not 0 < len(x) <= 64 or type(x[0]) is not str:
        return False
    for item in x:
        kind = type(item)
        if kind is str:
            if len(item) > 64:
                return False
        elif kind is not int:
            return False
    return True


def action_list(name: str, v: Any) -> list[Any]:
    """A list of actions (each as :func:`action` checks it), kept as lists."""
    if not isinstance(v, list) or len(v) > MAX_ARRAY_LEN:
        raise bad_field(name, "a list of actions")
    for i, x in enumerate(v):
        if not _flat_action(x):
            action(f"{name}[{i}]", x)
    return v


def action_value(name: str, v: Any) -> list[Any]:
    """An action as :func:`action` checks it, kept as a list (what the wire carries)."""
    action(name, v)
    return list(v)


def seat_set(name: str, v: Any) -> list[int]:
    """Distinct seat numbers."""
    seats = list_of(SEAT, MAX_SEATS, "seats")(name, v)
    if len(set(seats)) != len(seats):
        raise bad_field(name, "distinct seats")
    return seats


def score(name: str, v: Any) -> dict[str, int]:
    """One seat's score: category -> integer points, with ``total``."""
    if not isinstance(v, dict) or len(v) > 64 or "total" not in v:
        raise bad_field(name, "a map of at most 64 categories with a 'total'")
    for key, points in v.items():
        if not isinstance(points, int) or isinstance(points, bool) or abs(points) > 2**31:
            raise bad_field(f"{name}.{shown(key)}", "an integer")
    return v


def event(name: str, v: Any) -> dict[str, Any]:
    """An event: a map with a string ``type``; a ``seat``, if any, is a seat number."""
    if not isinstance(v, dict) or not isinstance(v.get("type"), str):
        raise bad_field(name, "a map with a string 'type'")
    seat = v.get("seat")
    if seat is not None:
        SEAT(f"{name}.seat", seat)
    return v


COUNT = integer(0, 2**31)
SEED = integer(-(2**63), 2**64 - 1)
SEAT_NAME = text(0, MAX_NAME)

#: A table as listed by ``welcome``, ``tables`` and LAN beacons.
TABLE_SUMMARY: Final = {
    "table": Field(TABLE_ID),
    "game": Field(GAME_ID),
    "name": Field(text(0, MAX_NAME)),
    "players": Field(integer(1, MAX_SEATS)),
    "open": Field(integer(0, MAX_SEATS)),
    "started": Field(boolean),
    "over": Field(boolean),
    "title": Field(label(MAX_LABEL), False),
    "humans": Field(integer(0, MAX_SEATS), False),
    "bots": Field(integer(0, MAX_SEATS), False),
    "spectators": Field(COUNT, False),
}
TABLE_LIST = list_of(record(TABLE_SUMMARY), MAX_TABLES_LISTED, "tables")

#: One seat as the lobby and the result show it.
SEAT_RECORD: Final = {
    "seat": Field(SEAT),
    "kind": Field(choice("open", "human", "bot")),
    "name": Field(SEAT_NAME),
    "colour": Field(identifier(16)),
    "ready": Field(boolean),
    "bot": Field(optional(identifier(32))),
    "connected": Field(boolean),
}

SETTINGS: Final = {
    "name": Field(text(0, MAX_NAME)),
    "allow_hints": Field(boolean),
    "bot_delay_ms": Field(integer(0, 10_000)),
    "autostart": Field(boolean),
}

#: Why an action is illegal, as data a client can translate (``IllegalAction.reason()``).
REASON = record(
    {
        "text": Field(label(MAX_TEXT)),
        "rule": Field(label(MAX_TEXT)),
        "key": Field(label(64)),
        "params": Field(plain_map(16)),
    }
)


def finite(name: str, v: Any) -> float:
    """A finite number (an int or a float) within +-1e9."""
    if isinstance(v, bool) or not isinstance(v, int | float) or not -1e9 <= v <= 1e9:
        raise bad_field(name, "a finite number")
    return float(v)


#: Why a hinted move is good, as data a client translates (``game.bots.reasons.Reason``):
#: ``reason.<game>.<key>`` (or ``reason.<key>``) with ``params`` and the signed ``gain``.
HINT_REASON = record(
    {
        "key": Field(label(80)),
        "params": Field(plain_map(8)),
        "gain": Field(finite),
    }
)

#: The host's versions in a ``version_mismatch`` / ``rules_mismatch`` error.
VERSIONS = record(
    {
        "protocol": Field(integer(0, 2**31)),
        "program": Field(label(32)),
        "install": Field(optional(integer(1, 65535)), False),
        "game": Field(GAME_ID, False),
        "rules": Field(integer(0, 2**31), False),
    }
)

#: Host message type -> field name -> :class:`Field` (``docs/protocol.md``, "Host → client").
HOST_MESSAGES: Final[dict[str, dict[str, Field]]] = {
    "welcome": {
        "version": Field(integer(0, 2**31)),
        "host": Field(label(MAX_LABEL)),
        "tables": Field(TABLE_LIST),
        "program": Field(program_version, False, "the host's program version"),
        "rules": Field(rules_map, False, "game id -> rules version of the host's games"),
        "install": Field(optional(integer(1, 65535)), False, "the install page's TCP port"),
    },
    "tables": {"tables": Field(TABLE_LIST)},
    "joined": {
        "table": Field(TABLE_ID),
        "seat": Field(optional(SEAT)),
        "token": Field(TOKEN),
        "owner": Field(boolean),
    },
    "lobby": {
        "table": Field(TABLE_ID),
        "game": Field(GAME_ID),
        "title": Field(label(MAX_LABEL)),
        "players": Field(integer(1, MAX_SEATS)),
        "options": Field(plain_map(64)),
        "settings": Field(record(SETTINGS)),
        "seats": Field(list_of(record(SEAT_RECORD), MAX_SEATS, "seats")),
        "spectators": Field(COUNT),
        "started": Field(boolean),
        "over": Field(boolean),
        "seq": Field(SEQ),
        "seed": Field(optional(SEED), False, "the seed, when the creator fixed it (else null)"),
        "bots": Field(list_of(identifier(32), 64, "bot names")),
        "colours": Field(list_of(identifier(16), 64, "colours")),
        "can_start": Field(boolean),
        "owner_seat": Field(optional(SEAT)),
    },
    "state": {
        "table": Field(TABLE_ID),
        "seq": Field(SEQ),
        "turn": Field(integer(-(2**63), 2**64 - 1), doc="state.turn_id()"),
        "decision": Field(optional(SEQ), doc="the seq at which this seat's decision began"),
        "view": Field(plain_map(MAX_MAP_LEN)),
        "events": Field(list_of(event, MAX_EVENTS, "events")),
        "to_move": Field(seat_set),
        "legal": Field(action_list),
        "last_action": Field(
            optional(
                record(
                    {
                        "seat": Field(SEAT),
                        "action": Field(
                            optional(action_value), doc="null: a move this seat may not see"
                        ),
                        "text": Field(label(MAX_TEXT)),
                    }
                )
            )
        ),
        "can_undo": Field(boolean),
        "over": Field(boolean),
        "waiting": Field(seat_set),
    },
    "sample": {
        "table": Field(TABLE_ID),
        "seq": Field(SEQ),
        "seat": Field(SEAT),
        "state": Field(plain_map(MAX_MAP_LEN)),
    },
    "hint": {
        "table": Field(TABLE_ID),
        "seq": Field(SEQ),
        "action": Field(action_value),
        "why": Field(
            list_of(HINT_REASON, 4, "reasons"),
            False,
            "why the move is good, in the evaluation's terms (best first)",
        ),
    },
    "waiting": {
        "table": Field(TABLE_ID),
        "seats": Field(
            list_of(
                record({"seat": Field(SEAT), "name": Field(optional(SEAT_NAME))}),
                MAX_SEATS,
                "seats",
            )
        ),
        "seat": Field(optional(SEAT)),
        "name": Field(optional(SEAT_NAME)),
    },
    "game_over": {
        "table": Field(TABLE_ID),
        "game": Field(GAME_ID),
        "seed": Field(SEED),
        "players": Field(integer(1, MAX_SEATS)),
        "scores": Field(list_of(score, MAX_SEATS, "scores")),
        "winners": Field(seat_set),
        "actions": Field(COUNT),
        "seats": Field(list_of(record(SEAT_RECORD), MAX_SEATS, "seats")),
    },
    "chat": {
        "table": Field(TABLE_ID),
        "seat": Field(optional(SEAT)),
        "name": Field(SEAT_NAME),
        "spectator": Field(boolean, False, "the speaker watches (has no seat)"),
        "text": Field(text(0, MAX_CHAT)),
    },
    "pong": {"n": Field(optional(integer(-(2**62), 2**62)))},
    "left": {"table": Field(TABLE_ID), "reason": Field(label(MAX_TEXT))},
    "table_closed": {"table": Field(TABLE_ID), "reason": Field(label(MAX_TEXT))},
    "error": {
        "code": Field(identifier(32)),
        "text": Field(label(MAX_TEXT)),
        "reason": Field(REASON, False, "for 'illegal': the rule's reason as data"),
        "versions": Field(VERSIONS, False, "for a version or rules mismatch: the host's"),
    },
    "explanation": {
        "table": Field(TABLE_ID),
        "seq": Field(SEQ),
        "action": Field(action_value),
        "legal": Field(boolean),
        "reason": Field(optional(REASON), doc="why not (null when legal)"),
    },
}


def _check_fields(
    where: str, fields: dict[str, Field], msg: dict[str, Any], kind: str = ""
) -> dict[str, Any]:
    """The defined fields of ``msg``, each checked; missing required ones are refused."""
    clean: dict[str, Any] = {}
    prefix = f"{where}." if where else ""
    for name, spec in fields.items():
        if name in msg:
            clean[name] = spec.check(prefix + name, msg[name])
        elif spec.required:
            owner = f"field {where!r}" if where else f"message {kind!r}"
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f"{owner} needs field {name!r}")
    return clean


def _seats_consistent(kind: str, msg: dict[str, Any]) -> None:
    """Seat numbers of a lobby or result agree with its player count."""
    players = msg["players"]
    seats = msg["seats"]
    if len(seats) != players or any(s["seat"] != i for i, s in enumerate(seats)):
        raise bad_field("seats", f"the seats 0 to {players - 1} in order")
    if kind == "lobby":
        owner = msg.get("owner_seat")
        if owner is not None and owner >= players:
            raise bad_field("owner_seat", f"a seat below {players}")
    else:
        if len(msg["scores"]) != players:
            raise bad_field("scores", f"one score per seat ({players})")
        if any(w >= players for w in msg["winners"]):
            raise bad_field("winners", f"seats below {players}")


def validate_host(msg: dict[str, Any]) -> dict[str, Any]:
    """A client's check of a host message against :data:`HOST_MESSAGES`; return a clean copy.

    Every defined field is checked (nested records too), required ones must be there, fields
    the message does not define are dropped, and text for people is cleaned.  A lobby or
    result must list its seats in order, one per player.  Raises :class:`ProtocolError`
    (``unknown_type`` or ``bad_message``) with a sentence naming the field.
    """
    kind = msg.get("t")
    fields = HOST_MESSAGES.get(kind) if isinstance(kind, str) else None
    if fields is None or not isinstance(kind, str):
        raise ProtocolError(ErrorCode.UNKNOWN_TYPE, f"unknown message type {shown(kind)}")
    clean = {"t": kind, **_check_fields("", fields, msg, kind)}
    if kind in ("lobby", "game_over"):
        _seats_consistent(kind, clean)
    return clean
