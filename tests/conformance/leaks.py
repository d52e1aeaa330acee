"""Secrets as needles, and the search for them in a decoded frame (the capture test's eyes).

A :class:`Secret` is one thing a seat may not learn at a position, in the shape it would have
if it reached the seat: a whole value (a token, an RNG state, a tile id), a map's entries (an
entry of another seat's view), a run of a list (the next cards of a deck), or an action
attributed to its seat (a record of another seat's private move).  :func:`find` looks for a
secret in every field of a decoded message; :class:`Index` walks a message once so that many
secrets can be looked for cheaply.

Equality is strict: ``True`` is not ``1`` and ``1`` is not ``1.0`` (a list of booleans never
"contains" a run of card values).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

#: The kinds of needle.
VALUE = "value"  # a string (found inside any string field or map key) or an int (any int field)
WORD = "word"  # a string found as a whole word of any string field or map key (ids, names)
ITEM = "item"  # a map holding all these entries
RUN = "run"  # a list holding these items one after the other (either direction)
ACTED = "acted"  # a map naming ``seat`` with some field equal to the action


@dataclass(frozen=True)
class Secret:
    """One thing a seat may not learn (see the module docstring).

    ``what`` names it for a failure message.  ``sampled``: a determinized copy (a ``sample``
    frame's ``state``) holds a value of this kind by construction — resampled, so equal to the
    truth only by chance; the capture test leaves the ``state`` of a ``sample`` frame out for
    such secrets (the sample statistics test judges them).  ``source`` says where the secret
    is plainly visible (``("view", seat)``, ``("report",)``, ``("dict",)`` for ``to_dict``):
    the kit checks that the needle really matches there, so a needle of the wrong shape cannot
    pass unnoticed.
    """

    what: str
    kind: str
    needle: Any
    sampled: bool = False
    source: tuple[Any, ...] | None = None

    def __post_init__(self) -> None:
        assert self.kind in (VALUE, WORD, ITEM, RUN, ACTED), self.kind
        if self.kind == RUN:
            assert isinstance(self.needle, tuple) and len(self.needle) >= 2, self.needle
        if self.kind == ITEM:
            assert isinstance(self.needle, tuple) and self.needle, self.needle


def value(what: str, needle: str | int, **kw: Any) -> Secret:
    return Secret(what, VALUE, needle, **kw)


def word(what: str, needle: str, **kw: Any) -> Secret:
    return Secret(what, WORD, needle, **kw)


def item(what: str, entries: dict[str, Any], **kw: Any) -> Secret:
    return Secret(what, ITEM, tuple(entries.items()), **kw)


def run(what: str, items: list[Any] | tuple[Any, ...], **kw: Any) -> Secret:
    return Secret(what, RUN, tuple(items), **kw)


def acted(what: str, seat: int, action: list[Any] | tuple[Any, ...], **kw: Any) -> Secret:
    return Secret(what, ACTED, (seat, _plain(action)), **kw)


def _plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def same(a: Any, b: Any) -> bool:
    """Strict equality of plain values (types must agree; tuples count as lists)."""
    if isinstance(a, tuple):
        a = list(a)
    if isinstance(b, tuple):
        b = list(b)
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return bool(a == b)


_WORD_SPLIT = re.compile(r"[^A-Za-z0-9_]+")
_DIGITS = re.compile(r"[0-9]+")


@dataclass
class Index:
    """Every string, int, map and list of one decoded message (walked once), with lookups
    prepared for many needles: the words and digit runs of every string, maps by key."""

    strings: list[str] = field(default_factory=list)
    ints: set[int] = field(default_factory=set)
    maps: list[dict[str, Any]] = field(default_factory=list)
    lists: list[list[Any]] = field(default_factory=list)
    text: str = ""
    words: set[str] = field(default_factory=set)
    numbers: set[str] = field(default_factory=set)
    by_key: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    @classmethod
    def of(cls, value: Any) -> Index:
        index = cls()
        index._walk(value)
        index.text = "\x00".join(index.strings)
        for s in index.strings:
            index.words.update(w.casefold() for w in _WORD_SPLIT.split(s) if w)
            index.numbers.update(_DIGITS.findall(s))
        for m in index.maps:
            for k in m:
                index.by_key.setdefault(k, []).append(m)
        return index

    def _walk(self, value: Any) -> None:
        if isinstance(value, dict):
            self.maps.append(value)
            for k, v in value.items():
                if isinstance(k, str):
                    self.strings.append(k)
                self._walk(v)
        elif isinstance(value, list | tuple):
            items = list(value)
            self.lists.append(items)
            for v in items:
                self._walk(v)
        elif isinstance(value, str):
            self.strings.append(value)
        elif isinstance(value, int) and not isinstance(value, bool):
            self.ints.add(value)

    def has(self, secret: Secret) -> bool:
        kind, needle = secret.kind, secret.needle
        if kind == VALUE:
            if isinstance(needle, str):
                return needle in self.text
            return needle in self.ints or str(needle) in self.numbers
        if kind == WORD:
            parts = [w.casefold() for w in _WORD_SPLIT.split(needle) if w]
            if len(parts) == 1:
                return parts[0] in self.words
            return (
                bool(parts)
                and all(p in self.words for p in parts)
                and any(_word_pattern(needle).search(s) for s in self.strings)
            )
        if kind == ITEM:
            candidates = min((self.by_key.get(k, []) for k, _v in needle), key=len)
            return any(all(k in m and same(m[k], v) for k, v in needle) for m in candidates)
        if kind == RUN:
            return any(_has_run(lst, needle) for lst in self.lists)
        seat, action = needle
        return any(
            same(m["seat"], seat) and any(same(v, action) for v in m.values())
            for m in self.by_key.get("seat", [])
        )


_WORDS: dict[str, re.Pattern[str]] = {}


def _word_pattern(text: str) -> re.Pattern[str]:
    pattern = _WORDS.get(text)
    if pattern is None:
        pattern = _WORDS[text] = re.compile(
            r"(?<![A-Za-z0-9_])" + re.escape(text) + r"(?![A-Za-z0-9_])", re.IGNORECASE
        )
    return pattern


def _has_run(items: list[Any], run_: tuple[Any, ...]) -> bool:
    n = len(run_)
    if len(items) < n:
        return False
    back = run_[::-1]
    for i in range(len(items) - n + 1):
        window = items[i : i + n]
        if all(same(a, b) for a, b in zip(window, run_, strict=True)) or all(
            same(a, b) for a, b in zip(window, back, strict=True)
        ):
            return True
    return False


def find(message: Any, secrets: list[Secret]) -> list[Secret]:
    """The secrets of ``secrets`` that ``message`` holds somewhere."""
    index = Index.of(message)
    return [s for s in secrets if index.has(s)]


def where(message: Any, secret: Secret, path: str = "") -> str:
    """The path of the deepest field of ``message`` holding ``secret`` (for failure messages)."""
    children: list[tuple[str, Any]] = []
    if isinstance(message, dict):
        children = [(f"{path}.{k}" if path else str(k), v) for k, v in message.items()]
    elif isinstance(message, list | tuple):
        children = [(f"{path}[{i}]", v) for i, v in enumerate(message)]
    for child_path, child in children:
        if Index.of(child if isinstance(child, dict | list) else [child]).has(secret):
            return where(child, secret, child_path)
    return path or "(the message)"
