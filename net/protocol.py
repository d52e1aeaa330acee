"""The Lantern Table wire protocol: frames, message shapes, limits and errors.

Every message is one **frame**: a 4-byte big-endian length, then that many bytes holding one
msgpack map.  The length is checked against a maximum *before* the body is read, the body is
decoded by a fresh streaming :class:`msgpack.Unpacker` with explicit limits (``strict_map_key``,
an ``ext_hook`` that refuses every extension type, bounded buffer, array and map sizes), and the
decoded value must be built only from ``None``, ``bool``, ``int``, ``float``, ``str``, lists and
``str``-keyed maps.  Nothing is ever unpickled.

Every message is a map with a ``"t"`` key naming its type.  Messages a client may send are
described field by field in :data:`CLIENT_MESSAGES` and checked by :func:`validate_client`
before the host acts on them; the host's messages are built by the small constructor functions
at the end of this module, so their shape lives in one place.  ``docs/protocol.md`` is the
readable version of this module.

Errors travel as ``{"t": "error", "code": <one of ErrorCode>, "text": <a sentence>}``; the
codes are stable identifiers a client may switch on, the text is for people.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

import msgpack

from game.core import match
from game.core.match import clean_text
from game.core.wire import WireError, as_action, to_plain

#: Bumped whenever a message changes shape; a host refuses clients of another version.
PROTOCOL_VERSION: Final = 3
#: Size of the length prefix of a frame.
HEADER_BYTES: Final = 4
#: Largest frame either side sends (a full Kingdom Builder view is a few KB).
MAX_FRAME: Final = 1 << 20
#: Largest frame a host accepts from a client: client messages are small (an action, a chat line).
MAX_CLIENT_FRAME: Final = 64 * 1024
#: Largest msgpack array / map inside a frame.
MAX_ARRAY_LEN: Final = 65536
MAX_MAP_LEN: Final = 4096
#: Most maps and arrays (together) one frame may hold: a host frame, and a frame of at most
#: :data:`MAX_CLIENT_FRAME` bytes (every client frame, every discovery datagram).  Counted while
#: decoding, so a frame of 65,000 empty maps is refused after the first 1,024.
MAX_CONTAINERS: Final = 65536
MAX_CLIENT_CONTAINERS: Final = 1024
#: Deepest nesting of maps and arrays in a message (a Kingdom Builder view is 6 deep).
MAX_DEPTH: Final = 32
#: Longest chat line, player name and table name (in characters).  Names follow the rule of
#: ``game.core.match`` (:func:`~game.core.match.clean_name`), so saves obey the same limit.
MAX_CHAT: Final = 500
MAX_NAME: Final = match.MAX_NAME
#: Largest number of seats any table may have.
MAX_SEATS: Final = match.MAX_SEATS
#: Longest host name, game title and other label a client shows (longer ones are cut).
MAX_LABEL: Final = 64
#: Longest error text, reason or action description a client shows (longer ones are cut).
MAX_TEXT: Final = 1000
#: Most tables a ``welcome`` or ``tables`` message may list.
MAX_TABLES_LISTED: Final = 256
#: Most events in one ``state`` message.
MAX_EVENTS: Final = 4096


class ErrorCode:
    """The ``code`` of an ``error`` message (stable identifiers; the text explains)."""

    VERSION_MISMATCH = "version_mismatch"  # hello of another protocol or release (fatal)
    RULES_MISMATCH = "rules_mismatch"  # a table whose game has other rules than the guest's
    HELLO_FIRST = "hello_first"  # anything but hello/ping before the handshake
    BAD_FRAME = "bad_frame"  # zero or oversized length prefix, invalid msgpack (may be fatal)
    BAD_MESSAGE = "bad_message"  # valid msgpack of the wrong shape
    UNKNOWN_TYPE = "unknown_type"  # a "t" this host does not know
    UNKNOWN_GAME = "unknown_game"
    BAD_OPTIONS = "bad_options"  # player count or game options the game refuses
    UNKNOWN_BOT = "unknown_bot"
    NO_TABLE = "no_table"
    TOO_MANY_TABLES = "too_many_tables"
    TABLE_FULL = "table_full"  # no open seat left
    SEAT_TAKEN = "seat_taken"
    BAD_SEAT = "bad_seat"  # a seat number outside the table
    BAD_TOKEN = "bad_token"  # a reconnect token this table does not know
    ALREADY_SEATED = "already_seated"  # joining a second table from one connection
    NOT_AT_TABLE = "not_at_table"
    NOT_SEATED = "not_seated"  # a spectator trying to act
    NOT_OWNER = "not_owner"  # only the table's creator may do this
    NOT_ALLOWED = "not_allowed"  # a lobby change the rules of the lobby forbid
    COLOUR_TAKEN = "colour_taken"
    NOT_READY = "not_ready"  # start with open seats or seats not ready
    ALREADY_STARTED = "already_started"
    NOT_STARTED = "not_started"
    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    STALE = "stale"  # an action or undo based on an old sequence number
    ILLEGAL = "illegal"  # the rules refuse the action (the text names the rule)
    UNDO_REFUSED = "undo_refused"
    HINTS_OFF = "hints_off"  # a hint at a table that does not allow them
    HINT_LIMIT = "hint_limit"  # too many hints too fast for one seat
    FLOOD = "flood"  # too many messages too fast (fatal)
    IDLE = "idle"  # silent for too long (fatal)
    BUSY = "busy"  # the host has too many connections (fatal)
    REPLACED = "replaced"  # the same seat token connected again elsewhere
    SHUTTING_DOWN = "shutting_down"
    INTERNAL = "internal"  # a bug in the host; the table is kept as it was


#: Every error code, for documentation and tests.
ERROR_CODES: Final = frozenset(
    v for k, v in vars(ErrorCode).items() if not k.startswith("_") and isinstance(v, str)
)


class ProtocolError(Exception):
    """A message (or frame) the other side must be told about.

    ``fatal`` errors end the connection after the error message is sent.
    """

    def __init__(
        self,
        code: str,
        text: str,
        fatal: bool = False,
        reason: dict[str, Any] | None = None,
        versions: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(text)
        self.code = code
        self.text = text
        self.fatal = fatal
        #: For ``illegal``: the rule's reason as data (``IllegalAction.reason()``), so a client
        #: can say it in the player's language.
        self.reason = reason
        #: For ``version_mismatch`` / ``rules_mismatch``: the host's versions as data
        #: (``net.versions.Versions.wire``), so a client names them in the player's language.
        self.versions = versions

    def message(self) -> dict[str, Any]:
        extra: dict[str, Any] = {}
        if self.reason is not None:
            extra["reason"] = self.reason
        if self.versions is not None:
            extra["versions"] = self.versions
        return error(self.code, self.text, **extra)


# ---- frames ---------------------------------------------------------------------------------


def encode(msg: Mapping[str, Any]) -> bytes:
    """One frame: the 4-byte big-endian length of the msgpack body, then the body.

    Tuples become lists.  Raises :class:`ValueError` if the body exceeds :data:`MAX_FRAME`
    (a view that large is a bug in a game, not something to send).
    """
    body = msgpack.packb(msg, use_bin_type=True)
    if len(body) > MAX_FRAME:
        raise ValueError(f"message of {len(body)} bytes exceeds the {MAX_FRAME}-byte frame limit")
    return len(body).to_bytes(HEADER_BYTES, "big") + body


def frame_length(header: bytes, limit: int = MAX_FRAME) -> int:
    """The body length announced by a 4-byte header, refused before any body is read."""
    n = int.from_bytes(header, "big")
    if n == 0:
        raise ProtocolError(ErrorCode.BAD_FRAME, "empty frame (length 0)", fatal=True)
    if n > limit:
        raise ProtocolError(
            ErrorCode.BAD_FRAME,
            f"frame of {n} bytes exceeds the limit of {limit} bytes",
            fatal=True,
        )
    return n


def _reject_ext(code: int, data: bytes) -> Any:
    raise ValueError(f"msgpack extension type {code} is not accepted")


class _TooManyContainers(Exception):
    pass


def container_limit(limit: int) -> int:
    """How many maps and arrays a frame of at most ``limit`` bytes may hold."""
    return MAX_CLIENT_CONTAINERS if limit <= MAX_CLIENT_FRAME else MAX_CONTAINERS


def decode(body: bytes, limit: int = MAX_FRAME) -> dict[str, Any]:
    """Decode one frame body into a message map (with a string ``"t"``).

    Uses a fresh streaming :class:`msgpack.Unpacker` per frame, so damage never carries over to
    the next frame.  A frame may hold at most :func:`container_limit` (``limit``) maps and
    arrays, nested at most :data:`MAX_DEPTH` deep.  In a frame of at most
    :data:`MAX_CLIENT_FRAME` bytes (what a host reads) they are counted while they are built, so
    the decode stops at the first one too many; in a larger frame (what a client reads) they are
    counted in the check that follows the decode, which keeps views fast to read.  Raises
    :class:`ProtocolError` (``bad_frame`` for bytes that are not exactly one msgpack value of
    plain types within these bounds, ``bad_message`` for a value that is not a typed map).
    """
    budget = container_limit(limit)
    hooks: dict[str, Any] = {}
    if limit <= MAX_CLIENT_FRAME:
        count = 0

        def counted(value: Any) -> Any:
            nonlocal count
            count += 1
            if count > budget:
                raise _TooManyContainers
            return value

        hooks = {"object_hook": counted, "list_hook": counted}
    unpacker = msgpack.Unpacker(
        raw=False,
        strict_map_key=True,
        ext_hook=_reject_ext,
        max_buffer_size=max(limit, 1),
        max_array_len=MAX_ARRAY_LEN,
        max_map_len=MAX_MAP_LEN,
        **hooks,
    )
    try:
        unpacker.feed(body)
        value = unpacker.unpack()
    except msgpack.OutOfData:
        raise ProtocolError(ErrorCode.BAD_FRAME, "truncated msgpack in frame") from None
    except _TooManyContainers:
        raise ProtocolError(
            ErrorCode.BAD_FRAME, f"a frame holds at most {budget} maps and arrays"
        ) from None
    except Exception as exc:  # FormatError, StackError, ValueError, UnicodeDecodeError, ...
        detail = str(exc) or type(exc).__name__
        raise ProtocolError(ErrorCode.BAD_FRAME, f"invalid msgpack: {detail}") from None
    if unpacker.tell() != len(body):
        raise ProtocolError(
            ErrorCode.BAD_FRAME, f"{len(body) - unpacker.tell()} stray bytes after the message"
        )
    problem = _plain_problem(value, budget)
    if problem:
        raise ProtocolError(ErrorCode.BAD_FRAME, problem)
    if not isinstance(value, dict):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f"a message is a map, not {_kind(value)}")
    kind = value.get("t")
    if not isinstance(kind, str):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, 'a message needs a string type field "t"')
    return value


_SCALARS: Final = frozenset({type(None), bool, int, str})


def _plain_problem(value: Any, containers: int = MAX_CONTAINERS) -> str:
    """Why ``value`` is not a plain wire value of at most ``containers`` maps and arrays nested
    at most :data:`MAX_DEPTH` deep ("" if it is).

    Level by level, without recursion, and quick on the common case, lists and maps of
    scalars, because clients run it on every view they receive.
    """
    scalars = _SCALARS
    level = [value]
    depth = seen = 0
    while level:
        below: list[Any] = []
        push = below.append
        for item in level:
            kind = type(item)
            if kind in scalars:
                continue
            if kind is list:
                for x in item:
                    if type(x) not in scalars:
                        push(x)
            elif kind is dict:
                for key, x in item.items():
                    if type(key) is not str:
                        return "map keys must be strings"
                    if type(x) not in scalars:
                        push(x)
            elif kind is float:
                if not math.isfinite(item):
                    return "non-finite number"
                continue
            else:
                return f"{_kind(item)} values are not accepted"
            seen += 1
        if seen > containers:
            return f"a frame holds at most {containers} maps and arrays"
        depth += 1
        if below and depth >= MAX_DEPTH and any(type(x) in (list, dict) for x in below):
            return f"values nested more than {MAX_DEPTH} deep are not accepted"
        level = below
    return ""


def _kind(value: Any) -> str:
    if isinstance(value, bytes):
        return "binary data"
    if isinstance(value, dict):
        return "a map"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


# ---- client message shapes ------------------------------------------------------------------


@dataclass(frozen=True)
class Field:
    """One field of a client message: a checker that returns the cleaned value or raises."""

    check: Callable[[str, Any], Any]
    required: bool = True
    doc: str = ""


def bad_field(name: str, what: str) -> ProtocolError:
    return ProtocolError(ErrorCode.BAD_MESSAGE, f"field {name!r} must be {what}")


def integer(lo: int, hi: int) -> Callable[[str, Any], int]:
    def check(name: str, v: Any) -> int:
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            raise bad_field(name, f"an integer from {lo} to {hi}")
        return v

    return check


def optional_integer(lo: int, hi: int) -> Callable[[str, Any], int | None]:
    inner = integer(lo, hi)

    def check(name: str, v: Any) -> int | None:
        return None if v is None else inner(name, v)

    return check


def boolean(name: str, v: Any) -> bool:
    if not isinstance(v, bool):
        raise bad_field(name, "true or false")
    return v


def text(lo: int, hi: int) -> Callable[[str, Any], str]:
    """A string of ``lo``..``hi`` characters once cleaned (:func:`~game.core.match.clean_text`:
    terminal escape sequences and control characters removed)."""

    def check(name: str, v: Any) -> str:
        if not isinstance(v, str):
            raise bad_field(name, "a string")
        if len(v) > 8 * hi + 64:  # far too long whatever cleaning removes: do not scan it
            raise bad_field(name, f"a string of {lo} to {hi} printable characters")
        cleaned = clean_text(v)
        if not lo <= len(cleaned) <= hi:
            raise bad_field(name, f"a string of {lo} to {hi} printable characters")
        return cleaned

    return check


def label(hi: int) -> Callable[[str, Any], str]:
    """Text only shown to people (a host name, an error text): a string, cleaned like
    :func:`text` and cut to ``hi`` characters rather than refused."""

    def check(name: str, v: Any) -> str:
        if not isinstance(v, str):
            raise bad_field(name, "a string")
        return clean_text(v[: 4 * hi])[:hi]

    return check


def identifier(hi: int) -> Callable[[str, Any], str]:
    """A short ASCII identifier (letters, digits, ``-``, ``_``, ``#``)."""

    def check(name: str, v: Any) -> str:
        if (
            not isinstance(v, str)
            or not 1 <= len(v) <= hi
            or not all(ch.isascii() and (ch.isalnum() or ch in "-_#") for ch in v)
        ):
            raise bad_field(name, f"an identifier of 1 to {hi} letters, digits, '-', '_' or '#'")
        return v

    return check


def choice(*allowed: str) -> Callable[[str, Any], str]:
    def check(name: str, v: Any) -> str:
        if v not in allowed:
            raise bad_field(name, "one of " + ", ".join(repr(a) for a in allowed))
        return str(v)

    return check


def action(name: str, v: Any) -> tuple[Any, ...]:
    try:
        return as_action(v)
    except WireError as exc:
        raise bad_field(name, f"an action ({exc})") from None


def options_map(name: str, v: Any) -> dict[str, Any]:
    """Game options: at most 64, each a scalar or a list of at most 64 scalars (no deeper)."""
    if not isinstance(v, dict) or len(v) > 64:
        raise bad_field(name, "a map of at most 64 game options")
    for key, value in v.items():
        if isinstance(value, list):
            if len(value) > 64 or any(isinstance(x, (list, dict)) for x in value):
                raise bad_field(f"{name}.{key}", "a value or a list of at most 64 plain values")
        elif isinstance(value, dict):
            raise bad_field(f"{name}.{key}", "a value or a list of at most 64 plain values")
    return dict(v)


SEQ = integer(0, 2**62)
SEAT = integer(0, MAX_SEATS - 1)
TABLE_ID = identifier(32)
GAME_ID = identifier(32)
TOKEN = identifier(64)
NAME = text(1, MAX_NAME)


def program_version(name: str, v: Any) -> str:
    """A program version like ``0.2.0`` or ``1.0.0rc1``: 1 to 32 ASCII letters, digits and
    ``.+-_!``."""
    if (
        not isinstance(v, str)
        or not 1 <= len(v) <= 32
        or not all(ch.isascii() and (ch.isalnum() or ch in ".+-_!") for ch in v)
    ):
        raise bad_field(name, "a version of 1 to 32 letters, digits or '.+-_!'")
    return v


def rules_map(name: str, v: Any) -> dict[str, int]:
    """Game id -> rules version, for at most 64 games."""
    if not isinstance(v, dict) or len(v) > 64:
        raise bad_field(name, "a map of at most 64 game ids to rules versions")
    game, number = identifier(32), integer(0, 2**31)
    return {game(f"{name} key", k): number(f"{name}.{k}", x) for k, x in v.items()}


#: Client message type -> field name -> :class:`Field`.  Unknown fields are refused.
CLIENT_MESSAGES: Final[dict[str, dict[str, Field]]] = {
    "hello": {
        "version": Field(integer(0, 2**31), doc="the client's PROTOCOL_VERSION"),
        "name": Field(NAME, False, "the player's name, used as the default seat name"),
        "client": Field(text(0, 64), False, "free text naming the program, for logs"),
        "program": Field(program_version, False, "the client's program version (0.2.0)"),
        "rules": Field(rules_map, False, "game id -> rules version, of every game it has"),
    },
    "list_tables": {},
    "create_table": {
        "game": Field(identifier(32), doc="a registered game id"),
        "players": Field(integer(1, MAX_SEATS), doc="number of seats"),
        "options": Field(options_map, False, "game options (see the game's OptionSpec)"),
        "name": Field(text(1, MAX_NAME), False, "a table name shown in lists"),
        "seed": Field(integer(0, 2**63 - 1), False, "fixed seed (tests, replays of setups)"),
        "allow_hints": Field(boolean, False, "whether seats may ask for hints (default off)"),
        "bot_delay_ms": Field(integer(0, 10_000), False, "pause before a bot acts"),
        "seat": Field(SEAT, False, "the seat the creator takes (default 0)"),
        "spectate": Field(boolean, False, "the creator watches instead of taking a seat"),
    },
    "join": {
        "table": Field(TABLE_ID),
        "seat": Field(SEAT, False, "a particular open seat (default: the first open seat)"),
        "spectate": Field(boolean, False, "watch instead of sitting"),
        "token": Field(TOKEN, False, "a token from an earlier 'joined': reconnect"),
        "name": Field(NAME, False, "the seat's name (default: the hello name)"),
    },
    "set_seat": {
        "seat": Field(SEAT),
        "kind": Field(choice("open", "human", "bot"), False),
        "bot": Field(identifier(32), False, "bot name or difficulty, with kind 'bot'"),
        "name": Field(NAME, False),
        "colour": Field(identifier(16), False),
    },
    "configure": {
        "options": Field(options_map, False),
        "name": Field(text(1, MAX_NAME), False),
        "allow_hints": Field(boolean, False),
        "bot_delay_ms": Field(integer(0, 10_000), False),
    },
    "ready": {"ready": Field(boolean, False, "default true")},
    "start": {},
    "action": {
        "seq": Field(SEQ, doc="the seq of the state the action was chosen in"),
        "action": Field(action),
    },
    "undo": {
        "seq": Field(SEQ, doc="the seq of the state the undo was asked in"),
        "turn": Field(boolean, False, "take back all of the seat's moves this turn"),
    },
    "sample": {"seq": Field(SEQ)},
    "explain": {
        "seq": Field(SEQ, doc="the seq of the state the action was looked at in"),
        "action": Field(action, doc="an action the seat might take (legal or not)"),
    },
    "hint": {"seq": Field(SEQ, doc="the seq of the state the hint is for (the seat's decision)")},
    "chat": {"text": Field(text(1, MAX_CHAT))},
    "ping": {"n": Field(integer(-(2**62), 2**62), False, "echoed in the pong")},
    "leave": {},
    "close_table": {},
}


def validate_client(msg: dict[str, Any]) -> dict[str, Any]:
    """Check a decoded client message against :data:`CLIENT_MESSAGES`; return a clean copy.

    Raises :class:`ProtocolError` (``unknown_type`` or ``bad_message``) with a sentence naming
    the offending field.
    """
    kind = msg.get("t")
    fields = CLIENT_MESSAGES.get(kind) if isinstance(kind, str) else None
    if fields is None:
        raise ProtocolError(ErrorCode.UNKNOWN_TYPE, f"unknown message type {shown(kind)}")
    clean: dict[str, Any] = {"t": kind}
    for name, value in msg.items():
        if name == "t":
            continue
        spec = fields.get(name)
        if spec is None:
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE, f"message {kind!r} has no field {shown(name)}"
            )
        clean[name] = spec.check(name, value)
    for name, spec in fields.items():
        if spec.required and name not in clean:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f"message {kind!r} needs field {name!r}")
    return clean


def shown(value: Any) -> str:
    """A value named in an error text: cleaned and short (it may come from an attacker)."""
    shown = clean_text(repr(value)[:80])
    return shown if len(shown) <= 40 else shown[:37] + "..."


# ---- host messages --------------------------------------------------------------------------


def error(code: str, text: str, **extra: Any) -> dict[str, Any]:
    """``error {code, text}`` — ``code`` from :class:`ErrorCode`, ``text`` for people."""
    return {"t": "error", "code": code, "text": text, **extra}


def welcome(
    host_name: str, tables: list[dict[str, Any]], versions: dict[str, Any] | None = None
) -> dict[str, Any]:
    """``welcome {version, host, tables}`` and the host's ``program``, ``rules``, ``install``
    (``versions``; ``net.versions``)."""
    msg = {"t": "welcome", "version": PROTOCOL_VERSION, "host": host_name, "tables": tables}
    msg.update(versions or {})
    return msg


def tables(entries: list[dict[str, Any]]) -> dict[str, Any]:
    return {"t": "tables", "tables": entries}


def pong(n: int | None) -> dict[str, Any]:
    return {"t": "pong", "n": n}


def plain(value: Any) -> Any:
    """Tuples to lists (what the receiving side sees after the msgpack round trip)."""
    return to_plain(value)


__all__ = [
    "CLIENT_MESSAGES",
    "ERROR_CODES",
    "HEADER_BYTES",
    "MAX_CLIENT_FRAME",
    "MAX_FRAME",
    "PROTOCOL_VERSION",
    "ErrorCode",
    "Field",
    "ProtocolError",
    "decode",
    "encode",
    "error",
    "frame_length",
    "validate_client",
]
