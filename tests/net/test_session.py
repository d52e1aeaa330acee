"""The Session: one table's rules enforcement, undo window, lobby rules and resume.

Sections cited are those of docs/protocol.md ("Turns, undo and bots", "The lobby", "Saves").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from game.core.match import Replay
from game.core.types import BadState
from net.protocol import ErrorCode, ProtocolError
from net.session import BOT, HUMAN, OPEN, Session
from tests.net.tinygame import TinyState


def table(tiny: str, players: int = 3, **options: Any) -> Session:
    session = Session.create("t1", tiny, players, options, seed=11)
    for seat in range(players):
        session.seat_human(seat, f"P{seat}")
    session.start()
    return session


def code_of(fn: Any, *args: Any) -> str:
    with pytest.raises(ProtocolError) as err:
        fn(*args)
    return err.value.code


# ---- actions ------------------------------------------------------------------------------


def test_actions_are_checked_in_order_before_anything_changes(tiny: str) -> None:
    """Turns: game started, seat seated, seq current, seat to move, rules accept."""
    s = Session.create("t1", tiny, 2, seed=1)
    assert code_of(s.act, 0, 0, ("end",)) == ErrorCode.NOT_STARTED
    s = table(tiny)
    before = s.state.state_hash()
    assert code_of(s.act, None, 0, ("end",)) == ErrorCode.NOT_SEATED
    assert code_of(s.act, 0, 5, ("end",)) == ErrorCode.STALE
    assert code_of(s.act, 1, 0, ("end",)) == ErrorCode.NOT_YOUR_TURN
    assert code_of(s.act, 0, 0, ("fly",)) == ErrorCode.ILLEGAL
    assert s.state.state_hash() == before and s.seq == 0 and s.replay.actions == []


def test_not_your_turn_names_the_seat_being_waited_for(tiny: str) -> None:
    s = table(tiny)
    with pytest.raises(ProtocolError, match="waiting for P0"):
        s.act(2, 0, ("end",))


def test_applied_actions_bump_seq_and_are_recorded(tiny: str) -> None:
    s = table(tiny)
    s.act(0, 0, ("step", 2))
    events = s.act(0, 1, ("end",))
    assert s.seq == 2
    assert s.replay.actions == [(0, ("step", 2)), (0, ("end",))]
    assert s.last_action == {"seat": 0, "action": ["end"], "text": "end"}
    assert any(e["type"] == "card" for e in events)
    assert code_of(s.act, 1, 1, ("end",)) == ErrorCode.STALE


def test_game_over_refuses_further_actions_and_records_the_final_hash(tiny: str) -> None:
    s = table(tiny, 2, rounds=1)
    s.act(0, 0, ("end",))
    s.act(1, 1, ("end",))
    assert s.over and s.replay.final_hash == s.state.state_hash()
    assert code_of(s.act, 0, 2, ("end",)) == ErrorCode.GAME_OVER


def test_a_crashing_engine_leaves_the_table_unchanged(
    tiny: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = table(tiny)
    before = s.state.state_hash()

    def broken(self: TinyState, seat: int, action: Any) -> Any:
        self.points[seat] += 100
        raise KeyError("bug")

    monkeypatch.setattr(TinyState, "_apply", broken)
    assert code_of(s.act, 0, 0, ("end",)) == ErrorCode.INTERNAL
    assert s.state.state_hash() == before and s.seq == 0 and s.replay.actions == []


# ---- undo -----------------------------------------------------------------------------------


def test_undo_takes_back_own_steps_one_at_a_time(tiny: str) -> None:
    s = table(tiny)
    start = s.state.state_hash()
    views = [s.state.view(seat) for seat in range(3)]
    s.act(0, 0, ("step", 1))
    middle = s.state.state_hash()
    s.act(0, 1, ("step", 2))
    assert s.can_undo(0) and not s.can_undo(1)
    s.undo(0, 2)
    assert s.state.state_hash() == middle and s.seq == 3
    assert s.replay.actions == [(0, ("step", 1))]
    s.undo(0, 3)
    assert s.state.state_hash() == start and s.seq == 4 and s.replay.actions == []
    assert s.last_action is None
    # Nothing of the undone moves is left in any view.
    assert [s.state.view(seat) for seat in range(3)] == views
    with pytest.raises(ProtocolError, match="nothing left to undo"):
        s.undo(0, 4)


def test_undo_is_refused_after_a_reveal(tiny: str) -> None:
    """Undo stops where hidden information came out (the drawn card)."""
    s = table(tiny)
    s.act(0, 0, ("step", 1))
    s.act(0, 1, ("end",))
    with pytest.raises(ProtocolError) as err:
        s.undo(0, 2)
    assert err.value.code == ErrorCode.UNDO_REFUSED
    assert (
        "only the player who made the last move" in err.value.text or "revealed" in err.value.text
    )
    s2 = table(tiny, 2, rounds=3)
    s2.act(0, 0, ("end",))
    s2.act(1, 1, ("step", 1))
    s2.act(1, 2, ("end",))
    s2.act(0, 3, ("step", 2))
    s2.act(0, 4, ("end",))  # seat 0 acted last, but its card draw was a reveal
    with pytest.raises(ProtocolError, match="revealed"):
        s2.undo(0, 5)


def test_undo_is_refused_once_the_turn_has_passed(tiny: str) -> None:
    s = table(tiny, 2, quiet_end=True)
    s.act(0, 0, ("end",))
    with pytest.raises(ProtocolError, match="turn has passed"):
        s.undo(0, 1)


def test_only_the_seat_that_acted_may_undo(tiny: str) -> None:
    s = table(tiny)
    with pytest.raises(ProtocolError, match="nothing has been played"):
        s.undo(0, 0)
    s.act(0, 0, ("step", 1))
    with pytest.raises(ProtocolError, match="no move to take back"):
        s.undo(1, 1)
    assert code_of(s.undo, None, 1) == ErrorCode.NOT_SEATED
    assert code_of(s.undo, 0, 0) == ErrorCode.STALE


def test_undo_history_never_reaches_a_message(tiny: str) -> None:
    s = table(tiny)
    s.act(0, 0, ("step", 1))
    s.act(0, 1, ("step", 1))
    message = s.state_message(0, [])
    assert message["can_undo"] is True
    assert set(message) == {
        "t", "table", "seq", "turn", "decision", "view", "events", "to_move", "legal", "last_action",
        "can_undo", "over", "waiting",
    }  # fmt: skip
    assert message["view"] == s.state.view(0)
    assert s.state_message(1, [])["can_undo"] is False


# ---- lobby ----------------------------------------------------------------------------------


def lobby(tiny: str, players: int = 3) -> Session:
    s = Session.create("t1", tiny, players, seed=3)
    s.seat_human(0, "Owner")
    return s


def test_only_the_creator_changes_seat_kinds(tiny: str) -> None:
    s = lobby(tiny)
    with pytest.raises(ProtocolError) as err:
        s.set_seat(1, by_seat=0, by_owner=False, kind=BOT, bot="random")
    assert err.value.code == ErrorCode.NOT_OWNER
    s.set_seat(1, by_seat=0, by_owner=True, kind=BOT, bot="random")
    assert s.seats[1].kind == BOT and s.seats[1].name == "Bot (random)"
    with pytest.raises(ProtocolError) as err:
        s.set_seat(2, by_seat=0, by_owner=True, kind=HUMAN)
    assert err.value.code == ErrorCode.NOT_ALLOWED


def test_bot_names_are_checked_against_the_bots_package(tiny: str) -> None:
    s = lobby(tiny)
    with pytest.raises(ProtocolError) as err:
        s.set_seat(1, by_seat=0, by_owner=True, kind=BOT, bot="skynet")
    assert err.value.code == ErrorCode.UNKNOWN_BOT and "random" in err.value.text
    s.set_seat(1, by_seat=0, by_owner=True, kind=BOT, bot="random")
    s.set_seat(1, by_seat=0, by_owner=True, bot="greedy")
    assert s.seats[1].bot == "greedy" and s.seats[1].name == "Bot (greedy)"


def test_names_and_distinct_colours(tiny: str) -> None:
    s = lobby(tiny)
    s.seat_human(1, "Bea")
    s.set_seat(1, by_seat=1, by_owner=False, name="Beatrix", colour="teal")
    assert (s.seats[1].name, s.seats[1].colour) == ("Beatrix", "teal")
    with pytest.raises(ProtocolError) as err:
        s.set_seat(0, by_seat=0, by_owner=True, colour="teal")
    assert err.value.code == ErrorCode.COLOUR_TAKEN
    with pytest.raises(ProtocolError) as err:
        s.set_seat(1, by_seat=0, by_owner=True, name="Renamed")  # the creator, a human's seat
    assert err.value.code == ErrorCode.NOT_ALLOWED


def test_start_needs_every_seat_taken_connected_and_ready(tiny: str) -> None:
    s = lobby(tiny)
    assert "seats still open: 2, 3" in s.start_problem(by_seat=0)
    s.seat_human(1, "Bea")
    s.set_seat(2, by_seat=0, by_owner=True, kind=BOT, bot="random")
    assert s.start_problem(by_seat=0) == "not ready yet: Bea"
    s.set_ready(1, True)
    assert s.start_problem(by_seat=0) == ""
    s.release(1)  # Bea leaves the lobby: the seat opens again
    assert s.seats[1].kind == OPEN and s.seats[1].token is None


def test_after_the_start_a_dropped_seat_is_kept_and_may_go_to_a_bot(tiny: str) -> None:
    s = table(tiny)
    token = s.seats[1].token
    with pytest.raises(ProtocolError, match="is connected"):
        s.set_seat(1, by_seat=0, by_owner=True, kind=BOT, bot="random")
    s.release(1)
    assert s.seats[1].kind == HUMAN and not s.seats[1].connected
    assert s.waiting_seats() == []  # seat 0 is to move
    s.act(0, 0, ("end",))
    assert s.waiting_seats() == [1]
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


def test_options_are_checked_when_configured(tiny: str) -> None:
    s = lobby(tiny)
    with pytest.raises(ProtocolError) as err:
        s.configure(options={"rounds": 99})
    assert err.value.code == ErrorCode.BAD_OPTIONS and "rounds" in err.value.text
    s.configure(options={"rounds": 3}, allow_hints=True, bot_delay_ms=250, name="Friday")
    assert s.state.rounds == 3  # type: ignore[attr-defined]
    assert s.settings.allow_hints and s.lobby_message()["settings"]["name"] == "Friday"


def test_unknown_games_and_player_counts_are_refused(tiny: str) -> None:
    with pytest.raises(ProtocolError) as err:
        Session.create("t1", "chess", 2)
    assert err.value.code == ErrorCode.UNKNOWN_GAME
    with pytest.raises(ProtocolError) as err:
        Session.create("t1", tiny, 9)
    assert err.value.code == ErrorCode.BAD_OPTIONS and "2 to 6" in err.value.text


def test_tokens_and_seeds_never_appear_in_lobby_or_state_messages(tiny: str) -> None:
    s = table(tiny)
    s.owner_token = s.seats[0].token
    s.new_spectator()
    text = repr([s.lobby_message(), s.summary(), s.state_message(0, []), s.state_message(None, [])])
    for seat in s.seats:
        assert seat.token is not None and seat.token not in text
    for token in s.spectator_tokens:
        assert token not in text
    assert s.fixed_seed  # the test fixed it: everyone sees it in the lobby
    assert s.lobby_message()["seed"] == s.seed
    s.fixed_seed = False  # a seed the host chose never appears before the end
    text = repr([s.lobby_message(), s.summary(), s.state_message(0, []), s.state_message(None, [])])
    assert str(s.seed) not in text


# ---- saves and resume -----------------------------------------------------------------------


def test_resume_continues_a_saved_game(tiny: str, tmp_path: Path) -> None:
    s = table(tiny)
    s.act(0, 0, ("step", 1))
    s.act(0, 1, ("end",))
    path = tmp_path / "game.save"
    path.write_bytes(s.save_bytes())
    resumed = Session.resume("t9", Replay.load(path))
    assert resumed.started and resumed.seq == 2
    assert resumed.state.state_hash() == s.state.state_hash()
    assert [seat.kind for seat in resumed.seats] == [OPEN, OPEN, OPEN]
    assert [seat.name for seat in resumed.seats] == ["P0", "P1", "P2"]
    assert resumed.waiting_seats() == [1]


def test_resume_restores_bot_seats(tiny: str) -> None:
    s = Session.create("t1", tiny, 2, seed=4)
    s.seat_human(0, "Ann")
    s.set_seat(1, by_seat=0, by_owner=True, kind=BOT, bot="greedy")
    s.start()
    resumed = Session.resume("t2", Replay.from_bytes(s.save_bytes()))
    assert (resumed.seats[1].kind, resumed.seats[1].bot) == (BOT, "greedy")


def test_resume_refuses_damaged_finished_and_foreign_files(tiny: str, tmp_path: Path) -> None:
    s = table(tiny, 2, rounds=1)
    s.act(0, 0, ("end",))
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
    s.act(1, 1, ("end",))
    with pytest.raises(BadState, match="already ended"):
        Session.resume("t", Replay.from_bytes(s.save_bytes()))


def test_a_refused_action_does_not_touch_the_undo_window(tiny: str) -> None:
    s = table(tiny)
    s.act(0, 0, ("step", 1))
    assert code_of(s.act, 0, 1, ("step", 9)) == ErrorCode.ILLEGAL
    assert code_of(s.act, 2, 1, ("end",)) == ErrorCode.NOT_YOUR_TURN
    assert s.can_undo(0)
    s.undo(0, 1)
    assert s.replay.actions == []
