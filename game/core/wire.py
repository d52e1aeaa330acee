"""Plain values on the wire: actions, canonical msgpack, stable hashes.

Everything that leaves a game state — views, saves, replays, actions — is built only from
``None``, ``bool``, ``int``, ``str``, lists and ``str``-keyed dicts, so msgpack encodes it without
hooks and JSON could too.  Tuples travel as lists; :func:`as_action` turns a received list back
into the tuple form the engines compare against.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgpack

from game.core.types import Action, Scalar

#: Upper bound on the nesting of an action; actions are small, flat values.
MAX_ACTION_DEPTH = 3
#: Upper bound on the number of scalars in one action.
MAX_ACTION_ITEMS = 64


class WireError(ValueError):
    """A value that is not a well-formed plain value (bad action, bad saved state)."""


def as_action(value: Any) -> Action:
    """Normalise an action received from the wire or a file into its tuple form.

    An action is a non-empty tuple whose first element is a ``str`` naming its kind, followed by
    ``str``/``int`` arguments or nested tuples of those.  Lists become tuples; anything else
    (floats, bools, dicts, bytes, deep nesting, huge sizes) is rejected with :class:`WireError`.
    """
    count = [0]

    def convert(v: Any, depth: int) -> Any:
        if isinstance(v, bool):
            raise WireError("an action holds no booleans")
        if isinstance(v, int | str):
            count[0] += 1
            if count[0] > MAX_ACTION_ITEMS:
                raise WireError("action too large")
            if isinstance(v, str) and len(v) > 64:
                raise WireError("action string too long")
            return v
        if isinstance(v, list | tuple):
            if depth >= MAX_ACTION_DEPTH:
                raise WireError("action nested too deeply")
            return tuple(convert(x, depth + 1) for x in v)
        raise WireError(f"an action holds only str, int and lists, not {type(v).__name__}")

    if not isinstance(value, list | tuple) or not value:
        raise WireError("an action is a non-empty list whose first item is its kind")
    action = convert(value, 0)
    if not isinstance(action[0], str):
        raise WireError("an action's first item is its kind, a string")
    return action


def to_plain(value: Any) -> Any:
    """Deep-convert tuples to lists so a value compares equal to its msgpack round trip."""
    if isinstance(value, tuple | list):
        return [to_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: to_plain(v) for k, v in value.items()}
    return value


def plain_copy(value: Any) -> Any:
    """A deep copy of plain data — maps, lists and tuples are rebuilt, leaves shared (they are
    immutable) — much cheaper than :func:`copy.deepcopy`.  Views and reports hand one out, so
    that they never share a list or map with the state (``docs/architecture.md``, rule 10)."""
    kind = type(value)
    if kind is dict:
        return {k: plain_copy(v) for k, v in value.items()}
    if kind is list:
        return [plain_copy(v) for v in value]
    if kind is tuple:
        return tuple(plain_copy(v) for v in value)
    return value


def _canonical(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _canonical(value[k]) for k in sorted(value)}
    if isinstance(value, list | tuple):
        return [_canonical(v) for v in value]
    return value


def _reject_ext(code: int, data: bytes) -> Any:
    raise WireError("msgpack extension types are not accepted")


def packb(value: Any) -> bytes:
    """Encode a plain value as msgpack (dict keys in insertion order)."""
    return msgpack.packb(value, use_bin_type=True)


def packb_canonical(value: Any) -> bytes:
    """Encode with every dict's keys sorted, so equal values give equal bytes."""
    return msgpack.packb(_canonical(value), use_bin_type=True)


def unpackb(data: bytes) -> Any:
    """Decode msgpack from an untrusted source: str keys only, no ext types.

    ``unpackb`` sizes its limits from ``len(data)``, so a header claiming a huge array fails at
    once instead of allocating.  Raises :class:`WireError` for anything malformed.
    """
    try:
        return msgpack.unpackb(data, raw=False, strict_map_key=True, ext_hook=_reject_ext)
    except WireError:
        raise
    except Exception as exc:  # msgpack raises several unrelated types for bad input
        raise WireError(f"not valid msgpack: {exc}") from None


def digest(value: Any) -> str:
    """A stable hex digest of a plain value (BLAKE2b-128 of its canonical msgpack)."""
    return hashlib.blake2b(packb_canonical(value), digest_size=16).hexdigest()


def is_plain(value: Any) -> bool:
    """True when ``value`` is built only from the plain wire types (tuples allowed)."""
    if value is None or isinstance(value, bool | int | str):
        return True
    if isinstance(value, float):
        return True
    if isinstance(value, list | tuple):
        return all(is_plain(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and is_plain(v) for k, v in value.items())
    return False


__all__ = [
    "MAX_ACTION_DEPTH",
    "MAX_ACTION_ITEMS",
    "Scalar",
    "WireError",
    "as_action",
    "digest",
    "is_plain",
    "packb",
    "packb_canonical",
    "to_plain",
    "unpackb",
]
