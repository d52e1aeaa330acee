"""Rule 5 over the wire: nothing any seat receives holds what its view hides.

For every registered game (the test game too) a whole game is played through a real host on
127.0.0.1 (``tests/conformance/capture.py``): every seat and a spectator connected over TCP,
every frame decoded, the truth recorded at every position.  Then every secret of the full
state at the position a frame was sent — other seats' hands and screens, choices committed but
not revealed, deck and stack order (``tests/conformance/game_secrets.py``), and what every
game shares: other members' tokens, every state of the random generator, the seed before the
end, the autosave's path, other seats' private events and private actions — is searched for in
every field of every frame that member received (``tests/conformance/leaks.py``).

The kit checks itself too: each game's needles must match where the secret is visible (another
seat's view, the full report) and must not match the receiving seat's own view; and a host
made to leak on purpose (another seat's view, a private action in ``last_action``) must be
caught.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from game.core import registry
from game.core.api import GameState
from game.core.types import Seat
from net.session import Session
from tests import testgame
from tests.conformance.capture import Capture, capture
from tests.conformance.game_secrets import hooks_of
from tests.conformance.leaks import Index, Secret, where

testgame.register()

#: Players per captured game (4 for Keyflower, as the attack run of issue 19 used).
PLAYERS = {"keyflower": 4}
#: A large seed: a small number would be found as a digit in every frame.
SEED = 0x2B7E_1516_28AE_D2A6


def game_ids() -> list[str]:
    return registry.registered_ids()


def _players(game_id: str) -> int:
    game = registry.get_game(game_id)
    return max(game.min_players, min(PLAYERS.get(game_id, 3), game.max_players))


def _source(state: GameState, source: tuple[Any, ...]) -> Any:
    if source[0] == "view":
        return state.view(source[1])
    if source[0] == "report":
        return state.report()
    assert source[0] == "dict", source
    return state.to_dict()


class Checker:
    """The secrets of each (position, member), checked once, and the search of every frame."""

    def __init__(self, cap: Capture) -> None:
        self.cap = cap
        self.game = registry.get_game(cap.game_id)
        self.hooks = hooks_of(cap.game_id)
        self._cache: dict[tuple[int, Seat | None], tuple[list[Secret], list[Secret]]] = {}
        self.problems: list[str] = []
        self.game_secrets_checked = 0
        self.mid_turn_samples = 0

    def secrets(self, seq: int, who: Seat | None) -> tuple[list[Secret], list[Secret]]:
        """(every secret, the game's own) of member ``who`` at position ``seq``."""
        key = (max(seq, 0), who)
        got = self._cache.get(key)
        if got is None:
            state = self.cap.position(seq).state
            own = self.hooks.secrets(state, who)
            self._validate(state, who, own, key[0])
            got = self._cache[key] = (self.cap.shared_secrets(key[0], who) + own, own)
        return got

    def _validate(self, state: GameState, who: Seat | None, own: list[Secret], seq: int) -> None:
        """The game's needles are real: visible at their source, invisible in ``who``'s view."""
        mine = Index.of(state.view(who))
        sources: dict[tuple[Any, ...], Index] = {}
        for secret in own:
            if mine.has(secret):
                self.problems.append(
                    f"seq {seq}: the view of {_who(who)} itself holds {secret.what} "
                    f"(at {where(state.view(who), secret)})"
                )
            if secret.source is not None:
                index = sources.get(secret.source)
                if index is None:
                    index = sources[secret.source] = Index.of(_source(state, secret.source))
                assert index.has(secret), (
                    f"{self.cap.game_id}: the needle for {secret.what} does not match its source "
                    f"{secret.source}: fix tests/conformance/game_secrets.py"
                )

    def check(self) -> list[str]:
        for frame in self.cap.frames:
            every, own = self.secrets(frame.seq, frame.who)
            msg = frame.msg
            kind = msg.get("t")
            if kind == "sample":
                outer = {k: v for k, v in msg.items() if k != "state"}
                found = Index.of(outer)
                inner = Index.of(msg.get("state"))
                hits = [s for s in every if found.has(s) or (not s.sampled and inner.has(s))]
                self._check_sample(frame.who, msg)
            else:
                index = Index.of(msg)
                hits = [s for s in every if index.has(s)]
            self.game_secrets_checked += len(own)
            for secret in hits:
                self.problems.append(
                    f"seq {frame.seq}: {_who(frame.who)} received {secret.what} in a {kind!r} "
                    f"frame (at {where(msg, secret)})"
                )
        return self.problems

    def _check_sample(self, who: Seat | None, msg: dict[str, Any]) -> None:
        """A sample is a state the seat cannot tell from the truth (rule 5)."""
        truth = self.cap.positions[msg["seq"]].state
        sample = self.game.from_dict(msg["state"])
        if sample.view(who) != truth.view(who):
            self.problems.append(f"seq {msg['seq']}: {_who(who)}'s sample shows another view")
        busy = self.cap.mid_turn(msg["seq"])
        if busy is not None and busy != who:
            self.mid_turn_samples += 1


def _who(who: Seat | None) -> str:
    return "the spectator" if who is None else f"seat {who}"


def _summary(problems: list[str], limit: int = 12) -> str:
    kinds = Counter(p.split(" received ")[-1].split(" in a ")[0] for p in problems)
    top = ", ".join(f"{what} ×{n}" for what, n in kinds.most_common(8))
    return f"{len(problems)} leaks ({top}):\n" + "\n".join(problems[:limit])


@pytest.mark.parametrize("game_id", game_ids())
def test_no_frame_holds_a_secret_of_its_seat(game_id: str, tmp_path: Path) -> None:
    """A whole game through a TCP host: no field of any frame any member received holds a
    secret of that member at that position."""
    cap = capture(game_id, _players(game_id), SEED, tmp_path)
    assert cap.over, "the captured game did not end"
    checker = Checker(cap)
    problems = checker.check()
    assert not problems, _summary(problems)
    # The capture did what it says (otherwise it would pass for nothing).
    assert cap.did.get("sample", 0) >= 3 and cap.did.get("sample while another seat decides")
    assert cap.did.get("explain") and len(cap.frames) > 50 * cap.players
    game = registry.get_game(game_id)
    if game.secrets:
        assert checker.game_secrets_checked > 100, "a game with secrets showed none to check"
    if game.simultaneous:
        assert cap.did.get("undo of a commitment while others decide"), "no undo was tried"
    if game_id == "keyflower":
        assert checker.mid_turn_samples, "no sample was taken while another seat was mid-turn"


# ---- the kit catches a leaking host --------------------------------------------------------------
def _leaky(monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    original = Session.state_message

    def state_message(self: Session, seat: Seat | None, events: list[Any]) -> dict[str, Any]:
        msg = original(self, seat, events)
        if how == "view" and seat is not None:
            msg["view"] = self.state.view((seat + 1) % self.players)
        if how == "seed":
            msg["debug"] = {"seed": self.seed}
        return msg

    monkeypatch.setattr(Session, "state_message", state_message)


@pytest.mark.parametrize(
    ("how", "expect"),
    [("view", "seat 1's card"), ("seed", "the table's seed")],
)
def test_the_kit_catches_a_leaking_host(
    how: str, expect: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A host that sends another seat's view, or the seed, is caught (the test game)."""
    _leaky(monkeypatch, how)
    cap = capture(testgame.GAME_ID, 3, SEED, tmp_path, max_actions=12)
    problems = Checker(cap).check()
    assert any(expect in p for p in problems), _summary(problems)
