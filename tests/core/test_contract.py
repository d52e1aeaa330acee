"""The engine contract's shared behaviour: validation in apply, events, match runner, replays."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.bots import make_bot
from game.core.match import Replay, play_match
from game.core.registry import UnknownGame, get_game
from game.core.types import BadState, IllegalAction
from game.core.wire import packb


def test_registry_refuses_unknown_and_planned_games() -> None:
    with pytest.raises(UnknownGame, match="unknown game"):
        get_game("chess")
    with pytest.raises(UnknownGame, match="not playable in this version"):
        get_game("glen-more")


def test_apply_refuses_wrong_seat_illegal_and_malformed(toy_registered: str) -> None:
    state = get_game(toy_registered).new(2, {"pile": 10}, seed=1)
    before = state.to_dict()
    with pytest.raises(IllegalAction, match="not seat 1's turn"):
        state.apply(1, ("take", 1))
    with pytest.raises(IllegalAction, match="not a legal action"):
        state.apply(0, ("take", 7))
    with pytest.raises(IllegalAction, match="malformed"):
        state.apply(0, ["take", 1.0])
    assert state.to_dict() == before, "a refused action must leave the state untouched"
    state.apply(0, ["take", 1])  # a list from the wire is accepted
    assert state.to_dict()["pile"] == 9


def test_private_events_reach_only_their_seat(toy_registered: str) -> None:
    state = get_game(toy_registered).new(3, {}, seed=2)
    events = state.apply(0, ("take", 1))
    mine = state.visible_events(events, 0)
    theirs = state.visible_events(events, 1)
    spectator = state.visible_events(events, None)
    assert [e["type"] for e in mine] == ["take", "card"] and "only" not in mine[1]
    assert [e["type"] for e in theirs] == ["take"]
    assert [e["type"] for e in spectator] == ["take"]


def test_match_is_deterministic_and_replay_verifies(toy_registered: str, tmp_path: Path) -> None:
    def run() -> Replay:
        bots = [make_bot("random", seed=s).choose for s in range(3)]
        return play_match(toy_registered, 3, 99, bots, options={"pile": 30}).replay

    first, second = run(), run()
    assert first.actions == second.actions and first.final_hash == second.final_hash
    path = tmp_path / "g.replay"
    first.save(path)
    loaded = Replay.load(path)
    assert loaded.actions == first.actions
    assert loaded.verify().state_hash() == first.final_hash


def test_agents_only_see_determinized_states(toy_registered: str) -> None:
    """The runner hands each agent a copy whose other hands are resampled, never the real one."""
    seen: list[int] = []
    real_hands: list[int] = []

    def spy(state, seat):  # type: ignore[no-untyped-def]
        seen.append(state.hands[1 - seat])
        return state.legal_actions(seat)[0]

    def record(state, seat, action, events):  # type: ignore[no-untyped-def]
        real_hands.append(state.hands[seat])

    play_match(toy_registered, 2, 5, [spy, spy], options={"pile": 40}, on_action=record)
    assert len(seen) > 10
    assert seen != real_hands[: len(seen)]  # resampled, so they cannot all match by chance


def test_tampered_truncated_and_foreign_replays_are_refused(
    toy_registered: str, tmp_path: Path
) -> None:
    bots = [make_bot("random", seed=s).choose for s in range(2)]
    replay = play_match(toy_registered, 2, 1, bots).replay
    data = replay.to_bytes()
    with pytest.raises(BadState, match="damaged or truncated"):
        Replay.from_bytes(data[: len(data) // 2])
    tampered = bytearray(data)
    idx = tampered.index(b"take") + 4
    tampered[idx + 1] ^= 0x01  # flip a bit inside the action list
    with pytest.raises(BadState):
        Replay.from_bytes(bytes(tampered))
    with pytest.raises(BadState, match="not a Lantern Table"):
        Replay.from_bytes(packb({"hello": "world"}))
    # A consistent file whose final hash does not match the actions is caught by verify().
    replay.final_hash = "0" * 32
    with pytest.raises(BadState, match="differs from the recorded"):
        Replay.from_bytes(replay.to_bytes()).verify()
    with pytest.raises(BadState, match="cannot read"):
        Replay.load(tmp_path / "missing.replay")
