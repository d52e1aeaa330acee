"""The analysis of a game review (``game/review/analysis.py``, docs/review.md): a deliberately
bad turn is found as the worst turning point in every game, the review of a seat never depends
on what that seat could not see (twin positions, twin replays), and it is reproducible,
cancellable and honest about forced turns."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from game.bots import GreedyBot
from game.core.match import Replay
from game.core.registry import get_game
from game.core.rng import derive_seed
from game.core.types import BadState
from game.review.analysis import (
    ReviewCancelled,
    review_positions,
    review_replay,
    walk,
)
from game.review.settings import ReviewSettings, default_settings, iterations_for
from tests.bots.test_bots import TWINS
from tests.review.helpers import FAST, bad_move_game

#: Smaller still: the twin tests compare two reviews, whatever they find.
TINY = ReviewSettings(iterations=4, worlds=2, graph_worlds=1)

#: game id, players, options, how much worse than the best the bad turn must be (points).
GAMES: dict[str, tuple[str, int, dict[str, Any], float]] = {
    "kingdom-builder": ("kingdom-builder", 4, {}, 12.0),
    "kingdom-builder-nomads": ("kingdom-builder", 4, {"nomads": "full"}, 12.0),
    "keyflower": ("keyflower", 4, {}, 8.0),
    "glen-more": ("glen-more", 4, {}, 12.0),
    "testgame": ("testgame", 3, {"rounds": 3}, 2.0),
}


@pytest.mark.parametrize("name", list(GAMES))
def test_a_deliberately_bad_turn_is_the_top_turning_point(bid_race: str, name: str) -> None:
    game_id, players, options, gap = GAMES[name]
    replay, bad = bad_move_game(game_id, players, 1, options=options, gap=gap)
    review = review_replay(replay, 0, FAST)
    assert review["turning_points"][0] == bad
    turn = next(t for t in review["turns"] if t["number"] == bad)
    assert turn["loss"] >= review["min_loss"]
    assert turn["best"] != turn["move"] and not turn["same"]
    # the bad turn lost more than any other turn of the seat
    others = [t["loss"] for t in review["turns"] if t["number"] != bad]
    assert turn["loss"] > max(others, default=0.0)
    if game_id != bid_race:
        assert turn["reasons"], "a turning point of a game with an evaluation says why"
    for t in review["turns"]:
        assert t["loss"] >= 0.0
        if t["forced"] or t["same"]:
            assert t["loss"] == 0.0 and t["reasons"] == []


@pytest.mark.parametrize("name", ["glen-more", "testgame"])
def test_a_review_is_reproducible(bid_race: str, name: str) -> None:
    game_id, players, options, gap = GAMES[name]
    replay, _bad = bad_move_game(game_id, players, 2, options=options, gap=gap)
    assert review_replay(replay, 0, FAST) == review_replay(replay, 0, FAST)


def _twin_positions(game_id: str, seat: int, replay: Replay) -> tuple[Any, Any, bool]:
    """The walk of ``replay`` and the same walk with every position replaced by a twin that
    differs only in what ``seat`` could not see."""
    turns, points, end = walk(replay, seat)
    twin = TWINS[game_id]
    differs = False
    twin_turns = []
    for record in turns:
        other = twin(record.before, seat)
        differs |= other.to_dict() != record.before.to_dict()
        assert other.view(seat) == record.before.view(seat)
        twin_turns.append(dataclasses.replace(record, before=other))
    twin_points = []
    for point in points:
        other = twin(point.state, seat)
        assert other.view(seat) == point.state.view(seat)
        twin_points.append(dataclasses.replace(point, state=other))
    return (turns, points, end), (twin_turns, twin_points, twin(end, seat)), differs


@pytest.mark.parametrize("name", ["kingdom-builder", "keyflower", "glen-more", "testgame"])
def test_the_review_of_a_seat_ignores_what_it_could_not_see(bid_race: str, name: str) -> None:
    """Every position the review looks at replaced by a twin that differs only in other seats'
    hidden cards, unrevealed choices and the order of decks (``tests/bots/test_bots.py``'s twin
    makers): the review is the same, turn by turn and point by point."""
    game_id, players, options, gap = GAMES[name]
    replay, _bad = bad_move_game(game_id, players, 3, options=options, gap=gap)
    real, twin, differs = _twin_positions(game_id, 1, replay)
    assert differs, "the twins must differ somewhere"
    assert review_positions(game_id, 1, *real, TINY) == review_positions(game_id, 1, *twin, TINY)


def test_twin_replays_of_the_test_game_get_the_same_review(bid_race: str) -> None:
    """Two saved games that differ only in a rival's sealed bid, not revealed yet: the review of
    each seat that could not see it is the same."""
    game = get_game(bid_race)
    state = game.new(3, {"rounds": 2}, 5)
    actions: list[tuple[int, tuple[Any, ...]]] = []
    bots = [GreedyBot(derive_seed(5, s), cpu_budget=None) for s in range(3)]
    # play to the second round's bids
    while not (state.phase == "bid" and state.round == 2):  # type: ignore[attr-defined]
        seat = state.to_move()[0]
        action = bots[seat].choose(state.determinize(seat, len(actions)), seat)
        state.apply(seat, action)
        actions.append((seat, action))
    state.apply(0, ("bid", 1))
    state.apply(0, ("seal",))
    actions += [(0, ("bid", 1)), (0, ("seal",))]
    replays = []
    for bid in (0, 2):
        replay = Replay(bid_race, 3, 5, {"rounds": 2}, game.rules_version, [{}, {}, {}])
        replay.actions = [*actions, (1, ("bid", bid)), (1, ("seal",))]
        replays.append(replay)
    assert replays[0].state_at().to_dict() != replays[1].state_at().to_dict()
    for seat in (0, 2):
        assert replays[0].state_at().view(seat) == replays[1].state_at().view(seat)
        assert review_replay(replays[0], seat, FAST) == review_replay(replays[1], seat, FAST)
    # seat 1 itself saw its own bid: its review may differ (its last turn is another move)
    assert (
        review_replay(replays[0], 1, FAST)["turns"] != review_replay(replays[1], 1, FAST)["turns"]
    )


@pytest.mark.slow
def test_twin_replays_of_keyflower_get_the_same_review() -> None:
    """Keyflower saved during a winter choice (simultaneous and hidden, KF §10): two saves that
    differ only in the winter tiles one rival picked get the same review for the other seats.
    (Slow: the winter choice comes at the end of a whole game, some 50 turns to review twice;
    the twin positions of every turn are checked in the default run above.)"""
    game = get_game("keyflower")
    state = game.new(4, {}, 8)
    bots = [GreedyBot(derive_seed(8, s), max_evals=200, cpu_budget=None) for s in range(4)]
    actions: list[tuple[int, tuple[Any, ...]]] = []
    while state.to_move() != (0, 1, 2, 3) or not state.legal_actions(1)[0][0].startswith("winter"):
        seat = state.to_move()[0]
        action = bots[seat].choose(state.determinize(seat, len(actions)), seat)
        state.apply(seat, action)
        actions.append((seat, action))
        assert len(actions) < 2000
    choices = state.legal_actions(1)
    assert len(choices) >= 2
    first = GreedyBot(1, cpu_budget=None).choose(state.determinize(0, 1), 0)
    replays = []
    for pick in (choices[0], choices[-1]):
        replay = Replay("keyflower", 4, 8, {}, game.rules_version, [{}, {}, {}, {}])
        replay.actions = [*actions, (0, first), (1, pick)]
        replays.append(replay)
    ends = [r.state_at() for r in replays]
    assert ends[0].to_dict() != ends[1].to_dict()
    for seat in (0, 2):
        assert ends[0].view(seat) == ends[1].view(seat)
    assert review_replay(replays[0], 2, TINY) == review_replay(replays[1], 2, TINY)


def test_progress_and_cancel(bid_race: str) -> None:
    replay, _bad = bad_move_game(bid_race, 3, 1, options={"rounds": 3}, gap=2.0)
    seen: list[tuple[int, int]] = []
    review_replay(replay, 0, FAST, progress=lambda done, total: seen.append((done, total)))
    total = seen[-1][1]
    assert seen[-1] == (total, total) and [d for d, _t in seen] == sorted(d for d, _t in seen)

    class Stop:
        calls = 0

        def is_set(self) -> bool:
            Stop.calls += 1
            return Stop.calls > 3

    with pytest.raises(ReviewCancelled):
        review_replay(replay, 0, FAST, cancel=Stop())


def test_a_replay_that_does_not_replay_is_refused(bid_race: str) -> None:
    replay, _bad = bad_move_game(bid_race, 3, 1, options={"rounds": 2}, gap=1.0, after=99)
    assert replay.final_hash is not None
    wrong = dataclasses.replace(replay, final_hash="0" * len(replay.final_hash))
    with pytest.raises(BadState, match="final state hash"):
        review_replay(wrong, 0, FAST)
    with pytest.raises(BadState, match="seats 0 to 2"):
        review_replay(replay, 3, FAST)
    broken = dataclasses.replace(replay, actions=[*replay.actions[:5], (0, ("fly",))])
    with pytest.raises(BadState, match="illegal"):
        review_replay(broken, 0, FAST)


def test_the_budget_is_a_count() -> None:
    """The default budget is the hard level's playouts per turn, spread over a long game; a
    budget in seconds becomes a playout count at the hard level's rate (never a clock)."""
    from game.review.settings import TOTAL_DECISIONS, hard_iterations

    hard = hard_iterations("keyflower")
    assert default_settings("keyflower", 10).iterations == hard
    assert default_settings("keyflower", 60).iterations == hard * TOTAL_DECISIONS // 60
    assert iterations_for("glen-more", 1.0) * 2 == pytest.approx(
        iterations_for("glen-more", 2.0), abs=1
    )
    with pytest.raises(ValueError):
        ReviewSettings(iterations=0)
