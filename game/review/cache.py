"""A finished review saved beside its replay, so opening it again is instant.

The file is ``<replay file>.review`` (JSON)::

    {"format": "lantern-table/review", "version": 1,
     "replay": <digest of the replay's body>, "game": <id>, "rules_version": <int>,
     "reviews": {"<seat>/<settings key>": <review>, ...}}

A review is used only when everything matches: the replay's content (its digest, so a changed
or continued game is reviewed again), the game's rules version, the seat and the review's
settings and version (:meth:`ReviewSettings.key`), and the review itself passes
:func:`~game.review.record.check_review`.  A file that does not match, is damaged or too large
is ignored (and replaced at the next save).  Saving keeps the other seats' reviews of the same
replay.  A folder that cannot be written to just means no cache (:func:`save` returns False).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from game.core.match import Replay, write_atomic
from game.core.registry import UnknownGame, get_game
from game.core.types import BadState
from game.core.wire import digest
from game.review.record import check_review
from game.review.settings import ReviewSettings

CACHE_FORMAT = "lantern-table/review"
CACHE_VERSION = 1
#: Review files larger than this are ignored (a long game's review is well under 1 MB).
MAX_CACHE_BYTES = 16 * 1024 * 1024


def cache_path(replay_path: str | os.PathLike[str]) -> Path:
    """Where the review of ``replay_path`` is kept: ``<replay>.review`` beside it."""
    path = Path(replay_path)
    return path.with_name(path.name + ".review")


def replay_key(replay: Replay) -> str:
    """The digest of the replay's content (every input of the game, in order)."""
    return digest(replay.body())


def entry_key(seat: int, settings: ReviewSettings) -> str:
    return f"{seat}/{settings.key()}"


def _rules_version(replay: Replay) -> int:
    try:
        return get_game(replay.game).rules_version
    except UnknownGame:
        return -1


def _read(path: Path, replay: Replay) -> dict[str, Any] | None:
    """The file's reviews if it is a review file of this replay and these rules, else None."""
    try:
        if path.stat().st_size > MAX_CACHE_BYTES:
            return None
        with open(path, "rb") as fh:
            data = json.loads(fh.read(MAX_CACHE_BYTES + 1).decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    if (
        not isinstance(data, dict)
        or data.get("format") != CACHE_FORMAT
        or data.get("version") != CACHE_VERSION
        or data.get("replay") != replay_key(replay)
        or data.get("game") != replay.game
        or data.get("rules_version") != _rules_version(replay)
        or not isinstance(data.get("reviews"), dict)
    ):
        return None
    return data["reviews"]


def load(
    replay_path: str | os.PathLike[str], replay: Replay, seat: int, settings: ReviewSettings
) -> dict[str, Any] | None:
    """The saved review of ``seat`` with ``settings``, or None (missing or not matching)."""
    reviews = _read(cache_path(replay_path), replay)
    if reviews is None:
        return None
    entry = reviews.get(entry_key(seat, settings))
    if entry is None:
        return None
    try:
        return check_review(entry, replay, seat)
    except BadState:
        return None


def save(
    replay_path: str | os.PathLike[str],
    replay: Replay,
    seat: int,
    settings: ReviewSettings,
    review: dict[str, Any],
) -> bool:
    """Save ``review`` beside the replay (keeping the file's other matching reviews); False if
    the folder cannot be written to."""
    path = cache_path(replay_path)
    reviews = _read(path, replay) or {}
    kept = {k: v for k, v in reviews.items() if isinstance(k, str) and not k.startswith(f"{seat}/")}
    kept[entry_key(seat, settings)] = review
    data = {
        "format": CACHE_FORMAT,
        "version": CACHE_VERSION,
        "replay": replay_key(replay),
        "game": replay.game,
        "rules_version": _rules_version(replay),
        "reviews": kept,
    }
    try:
        write_atomic(path, json.dumps(data, separators=(",", ":")).encode("utf-8"))
    except OSError:
        return False
    return True
