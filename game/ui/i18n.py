"""Every string the client shows, in English, Japanese and Dutch.

Strings live in flat JSON catalogues ``game/ui/locales/<code>.json`` (key -> text).  Code asks for
``t("menu.play_local")`` or, with fields, ``t("log.place", name="Anna", hex="(3, 4)")`` — fields
use :meth:`str.format` syntax.  English is the reference: every key exists in every catalogue
(a test checks it), and a missing key would fall back to English and then to the key itself so a
slip never crashes a game in progress.
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


@cache
def catalogue(code: str) -> dict[str, str]:
    """The catalogue of language ``code`` (loaded once)."""
    if code not in LANGUAGES:
        raise ValueError(f"unknown language {code!r}; known: {', '.join(LANGUAGES)}")
    text = (resources.files("game.ui") / "locales" / f"{code}.json").read_text("utf-8")
    data = json.loads(text)
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise ValueError(f"locale {code}.json must be one object of string -> string")
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
