"""The Session: one table's rules enforcement, undo window, lobby rules and resume.

Sections cited are those of docs/protocol.md ("Turns, undo and bots", "The lobby", "Saves").
Played on the shared test game "Bid and Race" (``tests/testgame``): sealed bids that every seat
makes at once, then a race in which the hindmost seat moves (sometimes twice in a row).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from game.core.match import Replay
from game.core.types import BadState, Event
from net.protocol import ErrorCode, ProtocolError
from net.seat_rules import BOT, HUMAN, OPEN
from net.session import Session
from tests.testgame import BidRaceState


def table(game_id: str, players: int = 3, **options: Any) -> Session:
    session = Session.create("t1", game_id, players, options, seed=11)
    for seat in range(players):
        session.seat_human(seat, f"P{seat}")
    session.start()
    return session


def act(s: Session, seat: int, *action: Any) -> list[Event]:
    """``seat`` plays ``action`` at the current position."""
    return s.act(seat, s.seq, tuple(action))


def bids(s: Session, amounts: list[int]) -> list[Event]:
    """Every seat bids its amount and seals, in seat order; the events of the last seal."""
    events: list[Event] = []
    for seat, amount in enumerate(amounts):
        act(s, seat, "bid", amount)
        events = act(s, seat, "seal")
    return events


def play_to_end(s: Session) -> None:
    """The first seat to move plays its last legal action until the game is over."""
    while not s.over:
        seat = s.state.to_move()[0]
        act(s, seat, *s.legal(seat)[-1])


def code_of(fn: Any, *args: Any) -> str:
    with pytest.raises(ProtocolError) as err:
        fn(*args)
    return err.value.code


# ---- actions ------------------------------------------------------------------------------


def test_actions_are_checked_in_order_before_anything_changes(bid_race: str) -> None:
    """Turns: game started, seat seated, seat to move, seq at its decision, rules accept."""
    s = Session.create("t1", bid_race, 2, seed=1)
    assert code_of(s.act, 0, 0, ("bid", 1)) == ErrorCode.NOT_STARTED
    s = table(bid_race)
    act(s, 1, "bid", 0)
    act(s, 1, "seal")  # seat 1 has committed: it is no longer to move
    before = s.state.state_hash()
    assert code_of(s.act, None, 2, ("bid", 1)) == ErrorCode.NOT_SEATED
    assert code_of(s.act, 0, 5, ("bid", 1)) == ErrorCode.STALE
    assert code_of(s.act, 1, 2, ("bid", 1)) == ErrorCode.NOT_YOUR_TURN
    assert code_of(s.act, 0, 2, ("fly",)) == ErrorCode.ILLEGAL
    assert code_of(s.act, 0, 2, ("bid", 4)) == ErrorCode.ILLEGAL
    assert s.state.state_hash() == before and s.seq == 2 and len(s.replay.actions) == 2


def test_not_your_turn_names_the_seats_being_waited_for(bid_race: str) -> None:
    s = table(bid_race)
    act(s, 2, "bid", 1)
    act(s, 2, "seal")
    with pytest.raises(ProtocolError, match="waiting for P0 and P1"):
        act(s, 2, "bid", 1)


def test_applied_actions_bump_seq_and_are_recorded(bid_race: str) -> None:
    """Only a truly stale action is refused: a choice made at a position that other seats'
    commitments have since changed still counts; a second one from the same position does not."""
    s = table(bid_race)
    events = s.act(0, 0, ("bid", 2))
    assert events == [{"type": "bid", "seat": 0, "bid": 2, "only": [0]}]
    s.act(0, 1, ("seal",))
    assert s.seq == 2
    assert s.replay.actions == [(0, ("bid", 2)), (0, ("seal",))]
    assert s.last_action_for(0) == {"seat": 0, "action": ["seal"], "text": "seal"}
    s.act(1, 0, ("bid", 1))  # chosen at seq 0: seat 0's moves did not change seat 1's choice
    assert s.seq == 3 and s.last_action_for(1)["text"] == "bid 1"
    assert code_of(s.act, 1, 0, ("seal",)) == ErrorCode.STALE  # a double click
    s.act(1, 3, ("seal",))
    s.act(2, 1, ("bid", 0))
    events = s.act(2, 5, ("seal",))
    assert [e["type"] for e in events if e.get("reveal")] == ["bids"]
    assert s.replay.actions[-2:] == [(2, ("bid", 0)), (2, ("seal",))]


def test_game_over_refuses_further_actions_and_records_the_final_hash(bid_race: str) -> None:
    s = table(bid_race, 2, rounds=1)
    play_to_end(s)
    assert s.over and s.replay.final_hash == s.state.state_hash()
    assert code_of(s.act, 0, s.seq, ("rest",)) == ErrorCode.GAME_OVER


def test_a_crashing_engine_leaves_the_table_unchanged(
    bid_race: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The engine raises half-way through a seal: the table is rebuilt as it was (the bid
    before it stays) and the player gets ``internal``."""
    s = table(bid_race)
    act(s, 0, "bid", 1)
    before = s.state.state_hash()
    real = BidRaceState._apply

    def broken(self: BidRaceState, seat: int, action: Any) -> Any:
        if action == ("seal",):
            self.coins[seat] += 100
            raise KeyError("bug")
        return real(self, seat, action)

    monkeypatch.setattr(BidRaceState, "_apply", broken)
    with pytest.raises(ProtocolError) as err:
        s.act(0, 1, ("seal",))
    assert err.value.code == ErrorCode.INTERNAL
    assert "bug" not in err.value.text  # the engine's own words may quote hidden state: log only
    assert s.state.state_hash() == before and s.seq == 1
    assert s.replay.actions == [(0, ("bid", 1))]


# ---- undo -----------------------------------------------------------------------------------


def test_undo_takes_back_own_steps_one_at_a_time(bid_race: str) -> None:
    s = table(bid_race)
    start = s.state.state_hash()
    views = [s.state.view(seat) for seat in range(3)]
    act(s, 0, "bid", 1)
    middle = s.state.state_hash()
    act(s, 0, "seal")
    assert s.can_undo(0) and not s.can_undo(1)
    s.undo(0, 2)
    assert s.state.state_hash() == middle and s.seq == 3
    assert s.replay.actions == [(0, ("bid", 1))]
    s.undo(0, 3)
    assert s.state.state_hash() == start and s.seq == 4 and s.replay.actions == []
    assert s.last_move is None and s.last_action_for(0) is None
    # Nothing of the undone moves is left in any view.
    assert [s.state.view(seat) for seat in range(3)] == views
    with pytest.raises(ProtocolError, match="nothing left to undo"):
        s.undo(0, 4)


def test_undo_in_the_bids_keeps_the_other_seats_choices(bid_race: str) -> None:
    """Per-seat undo in a simultaneous phase: seat 0 restarts its turn (bid and seal gone);
    the bids other seats made meanwhile stay."""
    s = table(bid_race)
    act(s, 0, "bid", 2)
    act(s, 1, "bid", 1)
    act(s, 0, "seal")
    act(s, 2, "bid", 3)
    assert s.can_undo(0) and s.can_undo(1) and s.can_undo(2)
    s.undo(0, s.seq, whole_turn=True)
    assert s.replay.actions == [(1, ("bid", 1)), (2, ("bid", 3))]
    assert [s.state.view(seat)["bid"] for seat in range(3)] == [None, 1, 3]
    assert s.state.to_move() == (0, 1, 2) and not s.can_undo(0)


def test_undo_is_refused_after_a_reveal(bid_race: str) -> None:
    """Undo stops where hidden information came out: the bids revealed by the last seal, the
    card a dash draws."""
    s = table(bid_race)
    bids(s, [1, 0, 0])
    for seat in range(3):
        with pytest.raises(ProtocolError, match="revealed") as err:
            s.undo(seat, s.seq)
        assert err.value.code == ErrorCode.UNDO_REFUSED
    s2 = table(bid_race, 2)
    bids(s2, [0, 0])
    act(s2, 0, "rest")
    act(s2, 0, "dash")  # seat 0 acted last, but the card it drew was a reveal
    with pytest.raises(ProtocolError, match="revealed"):
        s2.undo(0, s2.seq)


def test_undo_is_refused_once_the_turn_has_passed(bid_race: str) -> None:
    """A run reveals nothing, but it ends the turn — also when the same seat, still hindmost,
    moves again next: that is a new turn, and undo does not reach back into the last one."""
    s = table(bid_race, 2, neutral=False)
    bids(s, [0, 0])
    act(s, 0, "run", 1)
    assert s.state.to_move() == (1,)
    with pytest.raises(ProtocolError, match="turn has passed"):
        s.undo(0, s.seq)
    act(s, 1, "run", 2)
    turn = s.state.turn_id()
    act(s, 0, "run", 1)  # 2 against 2: seat 0 moves again (ties go to the lower seat)
    assert s.state.to_move() == (0,) and s.state.turn_id() != turn
    assert not s.can_undo(0)
    act(s, 0, "rest")
    s.undo(0, s.seq)  # its rest of this turn it may take back, nothing before
    with pytest.raises(ProtocolError, match="turn has passed"):
        s.undo(0, s.seq)


def test_only_the_seat_that_acted_may_undo(bid_race: str) -> None:
    s = table(bid_race)
    with pytest.raises(ProtocolError, match="nothing has been played"):
        s.undo(0, 0)
    s.act(0, 0, ("bid", 1))
    with pytest.raises(ProtocolError, match="no move to take back"):
        s.undo(1, 1)
    assert code_of(s.undo, None, 1) == ErrorCode.NOT_SEATED
    assert code_of(s.undo, 0, 0) == ErrorCode.STALE  # chosen before its own bid


def test_undo_history_never_reaches_a_message(bid_race: str) -> None:
    s = table(bid_race)
    act(s, 0, "bid", 1)
    act(s, 0, "seal")
    message = s.state_message(0, [])
    assert message["can_undo"] is True
    assert set(message) == {
        "t", "table", "seq", "turn", "decision", "view", "events", "to_move", "legal", "last_action",
        "can_undo", "over", "waiting",
    }  # fmt: skip
    assert message["view"] == s.state.view(0)
    assert s.state_message(1, [])["can_undo"] is False


# ---- lobby ----------------------------------------------------------------------------------


def lobby(game_id: str, players: int = 3) -> Session:
    s = Session.create("t1", game_id, players, seed=3)
    s.seat_human(0, "Owner")
    return s


def test_only_the_creator_changes_seat_kinds(bid_race: str) -> None:
    s = lobby(bid_race)
    with pytest.raises(ProtocolError) as err:
        s.set_seat(1, by_seat=0, by_owner=False, kind=BOT, bot="random")
    assert err.value.code == ErrorCode.NOT_OWNER
    s.set_seat(1, by_seat=0, by_owner=True, kind=BOT, bot="random")
    assert s.seats[1].kind == BOT and s.seats[1].name == "Bot (random)"
    with pytest.raises(ProtocolError) as err:
        s.set_seat(2, by_seat=0, by_owner=True, kind=HUMAN)
    assert err.value.code == ErrorCode.NOT_ALLOWED


def test_bot_names_are_checked_against_the_bots_package(bid_race: str) -> None:
    s = lobby(bid_race)
    with pytest.raises(ProtocolError) as err:
        s.set_seat(1, by_seat=0, by_owner=True, kind=BOT, bot="skynet")
    assert err.value.code == ErrorCode.UNKNOWN_BOT and "random" in err.value.text
    s.set_seat(1, by_seat=0, by_owner=True, kind=BOT, bot="random")
    s.set_seat(1, by_seat=0, by_owner=True, bot="greedy")
    assert s.seats[1].bot == "greedy" and s.seats[1].name == "Bot (greedy)"


def test_names_and_distinct_colours(bid_race: str) -> None:
    s = lobby(bid_race)
    s.seat_human(1, "Bea")
    s.set_seat(1, by_seat=1, by_owner=False, name="Beatrix", colour="teal")
    assert (s.seats[1].name, s.seats[1].colour) == ("Beatrix", "teal")
    with pytest.raises(ProtocolError) as err:
        s.set_seat(0, by_seat=0, by_owner=True, colour="teal")
    assert err.value.code == ErrorCode.COLOUR_TAKEN
    with pytest.raises(ProtocolError) as err:
        s.set_seat(1, by_seat=0, by_owner=True, name="Renamed")  # the creator, a human's seat
    assert err.value.code == ErrorCode.NOT_ALLOWED


def test_start_needs_every_seat_taken_connected_and_ready(bid_race: str) -> None:
    s = lobby(bid_race)
    assert "seats still open: 2, 3" in s.start_problem(by_seat=0)
    s.seat_human(1, "Bea")
    s.set_seat(2, by_seat=0, by_owner=True, kind=BOT, bot="random")
    assert s.start_problem(by_seat=0) == "not ready yet: Bea"
    s.set_ready(1, True)
    assert s.start_problem(by_seat=0) == ""
    s.release(1)  # Bea leaves the lobby: the seat opens again
    assert s.seats[1].kind == OPEN and s.seats[1].token is None


def test_after_the_start_a_dropped_seat_is_kept_and_may_go_to_a_bot(bid_race: str) -> None:
    s = table(bid_race)
    token = s.seats[1].token
    with pytest.raises(ProtocolError, match="is connected"):
        s.set_seat(1, by_seat=0, by_owner=True, kind=BOT, bot="random")
    act(s, 2, "bid", 0)
    act(s, 2, "seal")
    s.release(2)
    assert s.seats[2].kind == HUMAN and not s.seats[2].connected
    assert s.waiting_seats() == []  # seat 2 has sealed its bid: nothing to wait for
    s.release(1)
    assert s.waiting_seats() == [1]  # seat 1 still has to bid
    assert s.waiting_message()["seats"] == [{"seat": 1, "name": "P1"}]
    s.set_seat(1, by_seat=0, by_owner=True, kind=BOT, bot="random")
    assert (
        s.seats[1].kind == BOT and s.seats[1].token == token and list(s.bot_seats_to_move()) == [1]
    )
    with pytest.raises(ProtocolError, match="cannot be opened"):
        s.set_seat(1, by_seat=0, by_owner=True, kind=OPEN)
    assert token is not None
    assert s.find_token(token) == (True, 1)
    s.reclaim(1)  # the player is back
    assert s.seats[1].kind == HUMAN and s.seats[1].bot is None and s.seats[1].connected


def test_options_are_checked_when_configured(bid_race: str) -> None:
    s = lobby(bid_race)
    with pytest.raises(ProtocolError) as err:
        s.configure(options={"rounds": 99})
    assert err.value.code == ErrorCode.BAD_OPTIONS and "rounds" in err.value.text
    s.configure(options={"rounds": 3}, allow_hints=True, bot_delay_ms=250, name="Friday")
    assert s.state.rounds == 3  # type: ignore[attr-defined]
    assert s.settings.allow_hints and s.lobby_message()["settings"]["name"] == "Friday"


def test_unknown_games_and_player_counts_are_refused(bid_race: str) -> None:
    with pytest.raises(ProtocolError) as err:
        Session.create("t1", "chess", 2)
    assert err.value.code == ErrorCode.UNKNOWN_GAME
    with pytest.raises(ProtocolError) as err:
        Session.create("t1", bid_race, 9)
    assert err.value.code == ErrorCode.BAD_OPTIONS and "2 to 6" in err.value.text


def test_tokens_and_seeds_never_appear_in_lobby_or_state_messages(bid_race: str) -> None:
    s = table(bid_race)
    s.owner_token = s.seats[0].token
    s.new_spectator()
    text = repr([s.lobby_message(), s.summary(), s.state_message(0, []), s.state_message(None, [])])
    for seat in s.seats:
        assert seat.token is not None and seat.token not in text
    for token in s.spectator_tokens:
        assert token not in text
    assert s.fixed_seed  # the test fixed it: members on this computer see it in the lobby
    assert s.lobby_message(local=True)["seed"] == s.seed
    assert s.lobby_message()["seed"] is None  # a remote member does not (it decides every card)
    s.fixed_seed = False  # a seed the host chose never appears before the end
    text = repr([s.lobby_message(), s.summary(), s.state_message(0, []), s.state_message(None, [])])
    assert str(s.seed) not in text


# ---- saves and resume -----------------------------------------------------------------------


def test_resume_continues_a_saved_game(bid_race: str, tmp_path: Path) -> None:
    s = table(bid_race)
    act(s, 0, "bid", 1)
    act(s, 0, "seal")
    path = tmp_path / "game.save"
    path.write_bytes(s.save_bytes())
    resumed = Session.resume("t9", Replay.load(path))
    assert resumed.started and resumed.seq == 2
    assert resumed.state.state_hash() == s.state.state_hash()
    assert [seat.kind for seat in resumed.seats] == [OPEN, OPEN, OPEN]
    assert [seat.name for seat in resumed.seats] == ["P0", "P1", "P2"]
    assert resumed.waiting_seats() == [1, 2]  # seat 0 has sealed its bid


def test_resume_restores_bot_seats(bid_race: str) -> None:
    s = Session.create("t1", bid_race, 2, seed=4)
    s.seat_human(0, "Ann")
    s.set_seat(1, by_seat=0, by_owner=True, kind=BOT, bot="greedy")
    s.start()
    resumed = Session.resume("t2", Replay.from_bytes(s.save_bytes()))
    assert (resumed.seats[1].kind, resumed.seats[1].bot) == (BOT, "greedy")


def test_resume_refuses_damaged_finished_and_foreign_files(bid_race: str, tmp_path: Path) -> None:
    s = table(bid_race, 2, rounds=1)
    act(s, 0, "bid", 1)
    data = s.save_bytes()
    damaged = bytearray(data)
    damaged[len(damaged) // 2] ^= 0xFF
    with pytest.raises(BadState):
        Session.resume("t", Replay.from_bytes(bytes(damaged)))
    replay = Replay.from_bytes(data)
    replay.rules_version = 99
    with pytest.raises(BadState, match="rules version"):
        Session.resume("t", replay)
    replay = Replay.from_bytes(data)
    replay.actions.append((0, ("fly",)))
    with pytest.raises(BadState, match="cannot be replayed"):
        Session.resume("t", replay)
    play_to_end(s)
    with pytest.raises(BadState, match="already ended"):
        Session.resume("t", Replay.from_bytes(s.save_bytes()))


def test_a_refused_action_does_not_touch_the_undo_window(bid_race: str) -> None:
    s = table(bid_race)
    bids(s, [0, 0, 0])
    sealed = list(s.replay.actions)
    act(s, 0, "rest")
    assert code_of(s.act, 0, s.seq, ("rest",)) == ErrorCode.ILLEGAL  # once per turn
    assert code_of(s.act, 1, s.seq, ("rest",)) == ErrorCode.NOT_YOUR_TURN
    assert s.can_undo(0)
    s.undo(0, s.seq)
    assert s.replay.actions == sealed
