"""Reasons (``{key, params, gain}``, :mod:`game.bots.reasons`) in the player's language.

Used by the hint (why the hinted move is good) and the game review (why the suggested turn was
better), in the window and on the command line; no pygame here.  A reason's text is the
catalogue's ``reason.<game id>.<key>`` — a game's own words, e.g. a term of its evaluation,
``reason.kingdom-builder.term.castles`` — or the shared ``reason.<key>`` (``rival``, ``score``),
with ``params`` and these fields filled in:

* ``gain`` — the signed gain in points (``+2``, ``+0.5``);
* ``points`` and ``loss`` — the same without its sign;
* ``name`` — for a ``seat`` parameter, that seat's name (and ``seat`` and ``player``, given as
  seat numbers, become names too);
* ``category`` — a score category, by the name the results table gives it.

A term a game names but has no text for is shown with the shared ``reason.term`` and the
term's name, so a reason is never lost for want of a translation.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Sequence
from typing import Any

from game.ui.i18n import has, t


def gain_text(gain: float, signed: bool = True) -> str:
    """A gain in points as a player reads it: ``+2``, ``+0.5``, ``-1.3`` (whole from 10 up)."""
    value = abs(gain) if not signed else gain
    if abs(value) >= 9.95:
        text = f"{value:+.0f}" if signed else f"{value:.0f}"
    else:
        text = f"{value:+.1f}" if signed else f"{value:.1f}"
        if text.endswith(".0"):
            text = text[:-2]
    return text


def _fields(template: str) -> set[str]:
    try:
        return {name for _, name, _, _ in string.Formatter().parse(template) if name}
    except ValueError:
        return {"?"}


def reason_text(
    reason: dict[str, Any],
    game_id: str,
    names: Sequence[str] = (),
    categories: dict[str, str] | None = None,
    words_of: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
) -> str:
    """One reason as a phrase of the current language (see the module docstring).  ``names``
    are the seats' names, ``categories`` score keys -> shown names, ``words_of`` a game view's
    translation of its own parameters (:meth:`GameView.reason_params`)."""
    key = str(reason.get("key") or "")
    params = reason.get("params")
    words: dict[str, Any] = dict(params) if isinstance(params, dict) else {}
    for field in ("seat", "player"):
        seat = words.get(field)
        if isinstance(seat, int) and not isinstance(seat, bool):
            name = names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"
            words[field] = name
            if field == "seat":
                words["name"] = name
    category = words.get("category")
    if isinstance(category, str):
        words["category"] = (categories or {}).get(category) or category.replace("_", " ")
    if words_of is not None:
        words = words_of(words)
    gain = reason.get("gain")
    number = float(gain) if isinstance(gain, int | float) and not isinstance(gain, bool) else 0.0
    words["gain"] = gain_text(number)
    words["points"] = words["loss"] = gain_text(number, signed=False)
    for name in (f"reason.{game_id}.{key}", f"reason.{key}"):
        if key and has(name) and _fields(t(name)) <= set(words):
            return t(name, **words)
    term = key.split(".", 1)[1] if key.startswith("term.") else key
    return t("reason.term", gain=words["gain"], term=term.replace("_", " "))


def reasons_text(
    reasons: Sequence[dict[str, Any]],
    game_id: str,
    names: Sequence[str] = (),
    categories: dict[str, str] | None = None,
    words_of: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
) -> str:
    """Several reasons as one phrase (joined with the language's list separator)."""
    parts = [reason_text(r, game_id, names, categories, words_of) for r in reasons]
    return t("reason.join").join(p for p in parts if p)
