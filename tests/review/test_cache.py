"""The review saved beside its replay (``game/review/cache.py``, ``record.py``): read back only
when it matches the replay, the rules, the seat and the settings, and only if every field
passes; anything else is ignored (and recomputed by whoever asked)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from game.core.types import BadState
from game.review import cache
from game.review.analysis import review_replay
from game.review.record import check_review
from game.review.settings import ReviewSettings
from tests.review.helpers import FAST, bad_move_game


@pytest.fixture(scope="module")
def reviewed(bid_race: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any, Path]:
    replay, _bad = bad_move_game(bid_race, 3, 4, options={"rounds": 3}, gap=2.0)
    review = review_replay(replay, 0, FAST)
    path = tmp_path_factory.mktemp("cache") / "game.replay"
    replay.save(path)
    return replay, review, path


def test_a_saved_review_reads_back(reviewed: tuple[Any, Any, Path]) -> None:
    replay, review, path = reviewed
    assert cache.load(path, replay, 0, FAST) is None
    assert cache.save(path, replay, 0, FAST, review)
    assert cache.cache_path(path).is_file()
    assert cache.load(path, replay, 0, FAST) == review
    # another seat's review joins the file, the first one stays
    other = review_replay(replay, 1, FAST)
    assert cache.save(path, replay, 1, FAST, other)
    assert cache.load(path, replay, 0, FAST) == review
    assert cache.load(path, replay, 1, FAST) == other
    # other settings: not this review
    assert (
        cache.load(path, replay, 0, ReviewSettings(iterations=9, worlds=4, graph_worlds=1)) is None
    )


def test_a_review_of_another_replay_is_ignored(reviewed: tuple[Any, Any, Path]) -> None:
    replay, review, path = reviewed
    cache.save(path, replay, 0, FAST, review)
    longer = copy.deepcopy(replay)
    longer.actions = replay.actions[:-1]  # the game file changed (a save went on, a copy...)
    assert cache.load(path, longer, 0, FAST) is None


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.update(version=99),
        lambda d: d.update(rules_version=d["rules_version"] + 1),
        lambda d: d.update(replay="0" * 32),
        lambda d: d["reviews"][next(iter(d["reviews"]))]["turns"][0].update(move=[["bid", 3]]),
        lambda d: d["reviews"][next(iter(d["reviews"]))]["turns"][0].update(loss="lots"),
        lambda d: d["reviews"][next(iter(d["reviews"]))]["turns"][0]["reasons"].append(
            {"key": "\x1b[31mred", "params": {}, "gain": 1}
        ),
        lambda d: d["reviews"][next(iter(d["reviews"]))].update(turning_points=[999]),
        lambda d: d["reviews"][next(iter(d["reviews"]))]["graph"]["margins"].append([1.0]),
        lambda d: d["reviews"][next(iter(d["reviews"]))].update(seat=2),
        lambda d: d["reviews"][next(iter(d["reviews"]))].pop("graph"),
    ],
)
def test_a_damaged_or_foreign_file_is_ignored(reviewed: tuple[Any, Any, Path], damage: Any) -> None:
    replay, review, path = reviewed
    cache.cache_path(path).unlink(missing_ok=True)
    cache.save(path, replay, 0, FAST, review)
    data = json.loads(cache.cache_path(path).read_text("utf-8"))
    damage(data)
    cache.cache_path(path).write_text(json.dumps(data), "utf-8")
    assert cache.load(path, replay, 0, FAST) is None


@pytest.mark.parametrize(
    "content", [b"", b"not json", b"[1, 2", json.dumps([1] * 10).encode(), b"\xff\xfe" * 100]
)
def test_garbage_is_ignored_and_replaced(reviewed: tuple[Any, Any, Path], content: bytes) -> None:
    replay, review, path = reviewed
    cache.cache_path(path).write_bytes(content)
    assert cache.load(path, replay, 0, FAST) is None
    assert cache.save(path, replay, 0, FAST, review)
    assert cache.load(path, replay, 0, FAST) == review


def test_a_folder_that_cannot_be_written_means_no_cache(
    reviewed: tuple[Any, Any, Path], tmp_path: Path
) -> None:
    """Where the review cannot be written (here the replay's "folder" is a file, which even
    root cannot write into), saving says so and nothing breaks."""
    replay, review, _path = reviewed
    (tmp_path / "not-a-folder").write_bytes(b"")
    path = tmp_path / "not-a-folder" / "game.replay"
    assert cache.save(path, replay, 0, FAST, review) is False
    assert cache.load(path, replay, 0, FAST) is None


def test_check_review_keeps_a_clean_copy(reviewed: tuple[Any, Any, Path]) -> None:
    replay, review, _path = reviewed
    assert check_review(json.loads(json.dumps(review)), replay, 0) == review
    with pytest.raises(BadState):
        check_review(review, replay, 1)
    with pytest.raises(BadState):
        check_review([], replay, 0)
