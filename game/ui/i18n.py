"""Every string the client shows, in English, Japanese and Dutch.

Strings live in flat JSON catalogues (key -> text): the client's own in
``game/ui/locales/<code>.json``, and each game's in ``game/ui/locales/<game id>/<code>.json``
(Kingdom Builder's ``kb.*`` and ``option.kingdom-builder.*`` keys; Keyflower and Glen More add a
folder of their own).  :func:`catalogue` merges them into one table per language; a key defined
in two files is an error.  Code asks for ``t("menu.play_local")`` or, with fields,
``t("log.place", name="Anna", hex="(3, 4)")`` — fields use :meth:`str.format` syntax.  English
is the reference: every key of every file exists in the same file of every language (a test
checks it), and a missing key would fall back to English and then to the key itself so a slip
never crashes a game in progress.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any

#: Language code -> its own name (shown in the settings as is, never translated).
LANGUAGES: dict[str, str] = {"en": "English", "ja": "日本語", "nl": "Nederlands"}
DEFAULT_LANGUAGE = "en"

_current = DEFAULT_LANGUAGE


def catalogue_files() -> list[str]:
    """The catalogue files of one language, relative to ``locales/`` with ``{code}`` for the
    language: the shared ``{code}.json`` first, then each game folder's, by folder name."""
    root = resources.files("game.ui") / "locales"
    games = sorted(
        entry.name for entry in root.iterdir() if entry.is_dir() and entry.name[0] not in "._"
    )
    return ["{code}.json", *[f"{game}/{{code}}.json" for game in games]]


def load_file(name: str, code: str) -> dict[str, str]:
    """One catalogue file (``name`` from :func:`catalogue_files`) of language ``code``; empty
    when a game folder has no file for that language (its keys then fall back to English)."""
    path = resources.files("game.ui") / "locales"
    for part in name.format(code=code).split("/"):
        path = path / part
    if not path.is_file():
        if name == "{code}.json":
            raise ValueError(f"locale {code}.json is missing")
        return {}
    data = json.loads(path.read_text("utf-8"))
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise ValueError(f"locale {name.format(code=code)} must be one object of string -> string")
    return data


@cache
def catalogue(code: str) -> dict[str, str]:
    """The catalogue of language ``code``: the shared file and every game's (loaded once)."""
    if code not in LANGUAGES:
        raise ValueError(f"unknown language {code!r}; known: {', '.join(LANGUAGES)}")
    data: dict[str, str] = {}
    for name in catalogue_files():
        part = load_file(name, code)
        twice = sorted(set(part) & set(data))
        if twice:
            raise ValueError(f"locale {name.format(code=code)} repeats keys: {', '.join(twice)}")
        data.update(part)
    return data


def set_language(code: str) -> None:
    """Switch every later :func:`t` call to ``code`` (unknown codes fall back to English)."""
    global _current
    _current = code if code in LANGUAGES else DEFAULT_LANGUAGE
    catalogue(_current)


def language() -> str:
    """The code of the current language."""
    return _current


def has(key: str) -> bool:
    """Whether the English catalogue defines ``key``."""
    return key in catalogue(DEFAULT_LANGUAGE)


def t(key: str, **fields: Any) -> str:
    """The text of ``key`` in the current language, with ``fields`` filled in."""
    text = catalogue(_current).get(key)
    if text is None:
        text = catalogue(DEFAULT_LANGUAGE).get(key, key)
    if fields:
        try:
            return text.format(**fields)
        except (KeyError, IndexError, ValueError):
            return text
    return text


def plural(key: str, n: int, **fields: Any) -> str:
    """``key.one`` when ``n`` is 1, else ``key.many``, with ``n`` and ``fields`` filled in —
    each language words both (Japanese the same; English and Dutch "1 coin", "2 coins").  A
    key without the two forms (a text whose count needs none) is ``key`` itself."""
    form = f"{key}.{'one' if n == 1 else 'many'}"
    return t(form if has(form) else key, n=n, **fields)


def has_text(key: str) -> bool:
    """Whether ``key`` is defined, as one text or as :func:`plural` forms."""
    return has(key) or has(f"{key}.one")


def lazy(key: str, **fields: Any) -> Callable[[], str]:
    """``t(key, **fields)`` looked up each time it is drawn (so a language change shows at once):
    the text of widgets and labels."""

    def text() -> str:
        return t(key, **fields)

    return text


def game_title(game_id: str, fallback: str = "") -> str:
    """A game's name in the current language (``gametitle.<id>``), else ``fallback``."""
    key = f"gametitle.{game_id}"
    return t(key) if has(key) else (fallback or game_id)


def guess_language(locales: list[str]) -> str:
    """The first supported language among preferred locale codes like ``"ja_JP"`` or ``"nl"``."""
    for loc in locales:
        code = loc.replace("-", "_").split("_")[0].lower()
        if code in LANGUAGES:
            return code
    return DEFAULT_LANGUAGE
