"""The engine contract's shared behaviour: validation in apply, events, match runner, replays.

Played on the shared test game "Bid and Race" (``tests/testgame``); the rules cited are those
of ``docs/architecture.md`` ("Rules of the contract").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from game.bots import make_bot
from game.core import registry
from game.core.api import GameState
from game.core.match import Replay, play_match
from game.core.registry import UnknownGame, game_ids, get_game, registered_ids
from game.core.rng import Rng
from game.core.types import Action, BadState, IllegalAction, Seat
from game.core.wire import packb


def test_registry_refuses_unknown_and_planned_games(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(UnknownGame, match="unknown game"):
        get_game("chess")
    monkeypatch.setitem(registry.PLANNED, "chess", "Chess")  # every planned game is playable now
    with pytest.raises(UnknownGame, match="not playable in this version"):
        get_game("chess")


def test_a_test_game_is_registered_but_stays_out_of_menus(bid_race: str) -> None:
    """Rule 9: ``register(id, module, listed=False)`` — found by id, left out of game_ids()."""
    assert get_game(bid_race).id == bid_race
    assert bid_race in registered_ids() and bid_race not in game_ids()


def test_apply_refuses_wrong_seat_illegal_and_malformed(bid_race: str) -> None:
    """Rule 7: IllegalAction naming the rule, and the state untouched."""
    state = get_game(bid_race).new(2, {}, seed=1)
    before = state.to_dict()
    with pytest.raises(IllegalAction, match="a bid is 0 to 3"):
        state.apply(0, ("bid", 4))
    with pytest.raises(IllegalAction, match="choose a bid before sealing it"):
        state.apply(0, ("seal",))
    with pytest.raises(IllegalAction, match="malformed"):
        state.apply(0, ["bid", 1.0])
    with pytest.raises(IllegalAction, match="malformed"):
        state.apply(0, [])
    assert state.to_dict() == before, "a refused action must leave the state untouched"
    state.apply(0, ["bid", 1])  # a list from the wire is accepted
    assert state.view(0)["bid"] == 1
    state.apply(0, ("seal",))
    with pytest.raises(IllegalAction, match="not seat 0's turn"):  # sealed: out of to_move()
        state.apply(0, ("seal",))
    state.apply(1, ("bid", 0))
    state.apply(1, ("seal",))
    assert state.to_move() == (0,)  # the race: both at the start, the lower seat moves
    with pytest.raises(IllegalAction, match="not seat 1's turn"):
        state.apply(1, ("run", 1))
    with pytest.raises(IllegalAction, match="run 1 or 2, or dash"):
        state.apply(0, ("run", 3))
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, state.legal_actions(seat)[-1])
    with pytest.raises(IllegalAction, match="the game is over"):
        state.apply(0, ("rest",))


def test_private_events_reach_only_their_seat(bid_race: str) -> None:
    """Rule 3: a bid is seen by its seat only; a dash shows everyone the card played and only
    the dashing seat the card it draws."""
    state = get_game(bid_race).new(3, {}, seed=2)
    events = state.apply(0, ("bid", 2))
    assert state.visible_events(events, 0) == [{"type": "bid", "seat": 0, "bid": 2}]
    assert state.visible_events(events, 1) == [] and state.visible_events(events, None) == []
    state.apply(0, ("seal",))
    for seat in (1, 2):
        state.apply(seat, ("bid", 0))
        state.apply(seat, ("seal",))
    events = state.apply(0, ("dash",))
    mine = state.visible_events(events, 0)
    theirs = state.visible_events(events, 1)
    spectator = state.visible_events(events, None)
    draw = next(e for e in mine if e["type"] == "draw")
    assert "only" not in draw and draw["card"] == state.view(0)["hand"]
    assert [e["type"] for e in theirs] == [e["type"] for e in mine if e is not draw]
    assert "dash" in [e["type"] for e in theirs] and spectator == theirs


def test_match_is_deterministic_and_replay_verifies(bid_race: str, tmp_path: Path) -> None:
    def run() -> Replay:
        bots = [make_bot("random", seed=s).choose for s in range(3)]
        return play_match(bid_race, 3, 99, bots, options={"rounds": 3}).replay

    first, second = run(), run()
    assert first.actions == second.actions and first.final_hash == second.final_hash
    path = tmp_path / "g.replay"
    first.save(path)
    loaded = Replay.load(path)
    assert loaded.actions == first.actions
    assert loaded.verify().state_hash() == first.final_hash


def test_agents_only_see_determinized_states(bid_race: str) -> None:
    """The runner hands each agent a copy, never the real state: what its seat sees is exact,
    and what it cannot see — the other seats' hands, their sealed but unrevealed bids — is
    resampled."""
    real: list[Any] = []
    decisions = hands_resampled = bids_resampled = 0
    rng = Rng(17)

    def spy(state: Any, seat: Seat) -> Action:
        nonlocal decisions, hands_resampled, bids_resampled
        if real:
            truth = real[0]
            assert state is not truth and state.view(seat) == truth.view(seat)
            others = [s for s in range(state.players) if s != seat]
            decisions += 1
            hands_resampled += any(state.hands[s] != truth.hands[s] for s in others)
            bids_resampled += any(
                truth.sealed[s] and state.bids[s] != truth.bids[s] for s in others
            )
        legal = state.legal_actions(seat)
        return legal[rng.randbelow(len(legal))]

    def record(state: GameState, seat: Seat, action: Action, events: Any) -> None:
        real[:] = [state]

    play_match(bid_race, 2, 5, [spy, spy], options={"rounds": 3}, on_action=record)
    assert decisions > 10
    assert hands_resampled > 0 and bids_resampled > 0


def test_tampered_truncated_and_foreign_replays_are_refused(bid_race: str, tmp_path: Path) -> None:
    bots = [make_bot("random", seed=s).choose for s in range(2)]
    replay = play_match(bid_race, 2, 1, bots).replay
    data = replay.to_bytes()
    with pytest.raises(BadState, match="damaged or truncated"):
        Replay.from_bytes(data[: len(data) // 2])
    tampered = bytearray(data)
    idx = tampered.index(b"seal") + 4
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
