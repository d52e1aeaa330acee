"""Saves (format 1): exact round trips, and hostile or inconsistent input refused with
BadState naming the problem (never another exception)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from game.core.match import Replay
from game.core.rng import Rng
from game.core.types import BadState
from game.keyflower import GAME
from tests.keyflower.helpers import random_walk


def position(steps: int = 60, players: int = 4) -> dict[str, Any]:
    st = GAME.new(players, None, 17)
    random_walk(st, Rng(3), steps)
    return st.to_dict()


def test_round_trip_every_phase() -> None:
    st = GAME.new(3, None, 2)
    rng = Rng(2)
    phases = set()
    while not st.is_over():
        random_walk(st, rng, 1)
        phases.add(st.to_dict()["phase"])
        back = GAME.from_dict(copy.deepcopy(st.to_dict()))
        assert back == st
    assert phases == {"play", "boats", "place", "winter_pick", "over"}


def broken(path: list[Any], value: Any, data: dict[str, Any]) -> dict[str, Any]:
    bad = copy.deepcopy(data)
    node: Any = bad
    for key in path[:-1]:
        node = node[key]
    if value is KeyError:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return bad


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (["game"], "chess", "not a Keyflower state"),
        (["format"], 99, "format"),
        (["players"], 7, "players"),
        (["season"], "monsoon", "season"),
        (["rng"], -1, "rng"),
        (["bag", "red"], "many", "bag.red"),
        (["bag", "purple"], 1, "bag"),
        (["green"], 21, "green"),
        (["turn"], KeyError, "missing the field 'turn'"),
        (["tiles", 0, 0], "home_9", "tiles\\[0\\]"),
        (["tiles"], [], "tiles"),
        (["seats", 0, "keyples", "red"], 200, "keyples do not add up"),
        (["seats", 0, "known_keyples", "green"], 5, "green|known"),
        (["resource_supply", "gold"], 0, "resources do not add up"),
        (["seats", 1, "village"], [], "village"),
        (["auction"], ["keythedral"], "auction"),
        (["pending", "stage"], "dance", "pending.stage"),
        (["seats"], "all", "seats"),
    ],
)
def test_bad_saves_are_refused(path: list[Any], value: Any, message: str) -> None:
    data = position()
    with pytest.raises(BadState, match=message):
        GAME.from_dict(broken(path, value, data))


def test_garbage_is_refused() -> None:
    for junk in (None, [], "x", 3, {"game": "keyflower"}, {"game": "keyflower", "format": 1}):
        with pytest.raises(BadState):
            GAME.from_dict(junk)  # type: ignore[arg-type]


def test_two_bids_tying_are_refused() -> None:
    data = position(0)
    t = "keywood" if any(x == "keywood" for x in data["auction"]) else data["auction"][0]
    bad = copy.deepcopy(data)
    bad["bids"] = [[t, 0, "red", 1], [t, 1, "red", 1]]
    bad["locks"] = [[t, "red"]]
    bad["bag"]["red"] -= 2
    with pytest.raises(BadState, match="tie"):
        GAME.from_dict(bad)


def test_replay_of_a_whole_game_verifies(tmp_path: Any) -> None:
    from game.bots import make_bot
    from game.core.match import play_match

    result = play_match("keyflower", 3, 8, [make_bot("random", seed=i).choose for i in range(3)])
    path = tmp_path / "kf.replay"
    result.replay.save(path)
    again = Replay.load(path).verify()
    assert again.state_hash() == result.state.state_hash()
    assert again.scores() == result.scores


def test_junk_actions_are_refused_cleanly() -> None:
    """Everything from outside is hostile: any malformed or illegal action raises IllegalAction
    with a readable reason (never another exception) and leaves the state untouched."""
    from hypothesis import given, settings
    from hypothesis import strategies as hs

    from game.core.types import IllegalAction
    from game.keyflower.const import ACTION_KINDS

    scalar = hs.one_of(
        hs.integers(-3, 130),
        hs.sampled_from(["red", "green", "purple", "keywood", "home_1", "wood", "saw", "x", ""]),
    )
    action = hs.tuples(hs.sampled_from([*ACTION_KINDS, "nope"])).flatmap(
        lambda k: hs.lists(scalar, max_size=8).map(lambda rest: (*k, *rest))
    )
    positions = []
    for steps in (0, 25, 60, 140, 400):
        st = GAME.new(4, None, 23)
        random_walk(st, Rng(steps), steps)
        positions.append(st)

    @settings(max_examples=150, deadline=None)
    @given(i=hs.integers(0, len(positions) - 1), act=action, seat=hs.integers(-1, 4))
    def check(i: int, act: tuple[Any, ...], seat: int) -> None:
        st = positions[i]
        before = st.state_hash()
        if st.is_over() or seat not in st.to_move() or act not in st.legal_actions(seat):
            with pytest.raises(IllegalAction) as err:
                st.apply(seat, act)
            assert str(err.value)
            assert st.state_hash() == before

    check()
