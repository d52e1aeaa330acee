"""The engine contract, rule by rule, on every registered game (``docs/architecture.md``).

A *walk* is a random game from a seed: at each step a random seat of ``to_move()`` plays a
random legal action.  Checks run after every action of a few walks per game and player count;
the expensive ones (bots, round trips of determinized copies) on a sample of positions.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from game.bots import GreedyBot, MctsBot, RandomBot
from game.core import registry
from game.core.api import Game, GameState
from game.core.rng import Rng
from game.core.types import Action, IllegalAction, Seat
from game.core.wire import as_action, is_plain, packb, unpackb
from net.protocol import MAX_ARRAY_LEN
from tests import testgame

#: The most actions a legal list may hold (architecture rule 4: "a few hundred").
MAX_LEGAL = 500
#: Walks per game and player count, and the most actions a walk may take before it is a bug.
WALKS = 4
MAX_ACTIONS = 20_000

testgame.register()


def game_ids() -> list[str]:
    return registry.registered_ids()


def player_counts(game: Game) -> list[int]:
    """The smallest and the largest table, and one in between when there is one."""
    counts = {game.min_players, game.max_players, (game.min_players + game.max_players) // 2}
    return sorted(counts)


@dataclass
class Step:
    """One position of a walk and what happened next."""

    before: GameState
    seat: Seat
    action: Action
    after: GameState
    events: list[dict]


def walk(game: Game, players: int, seed: int) -> Iterator[Step]:
    """Random play to the end, yielding every step (with copies of the positions)."""
    state = game.new(players, {}, seed)
    rng = Rng(seed ^ 0x5EED)
    for _ in range(MAX_ACTIONS):
        if state.is_over():
            return
        movers = state.to_move()
        assert movers, "rule 1: to_move() is empty only when the game is over"
        seat = movers[rng.randbelow(len(movers))]
        legal = state.legal_actions(seat)
        assert legal, f"rule 1: seat {seat} is in to_move() with no legal action (a dead end)"
        action = legal[rng.randbelow(len(legal))]
        before = state.clone()
        events = state.apply(seat, action)
        yield Step(before, seat, action, state, events)
    pytest.fail(f"{game.id}: a random game did not end within {MAX_ACTIONS} actions")


def cases() -> list[tuple[str, int, int]]:
    out = []
    for gid in game_ids():
        game = registry.get_game(gid)
        for players in player_counts(game):
            for w in range(WALKS):
                out.append((gid, players, 1000 * players + w))
    return out


@pytest.mark.parametrize(("game_id", "players", "seed"), cases())
def test_random_play_keeps_every_rule(game_id: str, players: int, seed: int) -> None:
    """Rules 1, 2, 4, 6, 7 and the plain-data rules after every action of a random game."""
    game = registry.get_game(game_id)
    categories: list[str] | None = None
    last_turn: int | None = None
    steps = 0
    for step in walk(game, players, seed):
        steps += 1
        before, after = step.before, step.after
        # Rule 2: turn ids never go back, and are plain ints.
        turn = after.turn_id()
        assert isinstance(turn, int) and not isinstance(turn, bool)
        assert turn >= before.turn_id()
        last_turn = turn
        # Events are plain dicts with a type; private ones name real seats.
        for ev in step.events:
            assert isinstance(ev.get("type"), str) and is_plain(ev)
            if "only" in ev:
                assert all(0 <= s < players for s in ev["only"])
        # Rule 4: every legal list is short, plain and survives the wire.
        for seat in after.to_move():
            legal = after.legal_actions(seat)
            assert 0 < len(legal) <= MAX_LEGAL <= MAX_ARRAY_LEN
            for action in legal:
                assert isinstance(action, tuple) and isinstance(action[0], str)
                assert as_action(unpackb(packb(list(action)))) == action
        # Rule 6: the same categories before and after the end; a total in each row.
        for rows in (after.scores(), after.preview_scores()):
            assert len(rows) == players
            for row in rows:
                assert "total" in row and all(isinstance(v, int) for v in row.values())
            names = sorted(rows[0])
            categories = categories or names
            assert names == categories, "rule 6: categories change during the game"
        # Views are plain and small enough for a frame.
        for seat in [*range(players), None]:
            assert is_plain(after.view(seat))
    assert steps > 0 and last_turn is not None


@pytest.mark.parametrize("game_id", game_ids())
def test_the_end_is_an_end(game_id: str) -> None:
    """Rule 1: a finished game has nobody to move and nothing legal; winners are named."""
    game = registry.get_game(game_id)
    steps = list(walk(game, game.min_players, 7))
    end = steps[-1].after
    assert end.is_over() and end.to_move() == ()
    assert all(end.legal_actions(s) == [] for s in range(end.players))
    assert end.winners() and set(end.winners()) <= set(range(end.players))
    totals = [row["total"] for row in end.scores()]
    assert {totals[s] for s in end.winners()} == {max(totals)}


def _illegal_tries(state: GameState, seat: Seat) -> list[object]:
    legal = state.legal_actions(seat)
    tries: list[object] = [(), ("no-such-action",), [1, 2], "text", ("x",) * 40, None]
    for action in legal[:5]:
        tries.append((*action, 999))  # one argument too many
        if len(action) > 1:
            tries.append((action[0], *(["?"] * (len(action) - 1))))
    return tries


@pytest.mark.parametrize("game_id", game_ids())
def test_a_refused_action_leaves_the_state_untouched(game_id: str) -> None:
    """Rule 7: IllegalAction, and the same state_hash(), for anything not legal."""
    game = registry.get_game(game_id)
    for i, step in enumerate(walk(game, game.max_players, 11)):
        if i % 7:
            continue
        state = step.after
        if state.is_over():
            break
        digest = state.state_hash()
        movers = state.to_move()
        others = [s for s in range(state.players) if s not in movers]
        for seat in movers:
            for action in _illegal_tries(state, seat):
                if isinstance(action, tuple) and action in state.legal_actions(seat):
                    continue
                with pytest.raises(IllegalAction):
                    state.apply(seat, action)  # type: ignore[arg-type]
                assert state.state_hash() == digest
        for seat in others:  # a seat that is not to move cannot act
            for action in state.legal_actions(movers[0])[:3]:
                with pytest.raises(IllegalAction):
                    state.apply(seat, action)
                assert state.state_hash() == digest


@pytest.mark.parametrize("game_id", game_ids())
def test_every_listed_action_applies(game_id: str) -> None:
    """Rule 4: every action in a legal list is accepted by the checked ``apply``."""
    game = registry.get_game(game_id)
    for i, step in enumerate(walk(game, game.min_players, 21)):
        if i % 5:
            continue
        state = step.after
        for seat in state.to_move():
            for action in state.legal_actions(seat)[:60]:
                state.clone().apply(seat, action)


@pytest.mark.parametrize("game_id", game_ids())
def test_saves_and_copies_round_trip(game_id: str) -> None:
    """Rule 8: clone and to_dict/from_dict are exact, for determinized copies too."""
    game = registry.get_game(game_id)
    for i, step in enumerate(walk(game, game.max_players, 31)):
        if i % 9:
            continue
        state = step.after
        for copy in (state, state.determinize(i % state.players, i), state.determinize(None, i)):
            data = copy.to_dict()
            assert "format" in data and is_plain(data)
            back = game.from_dict(unpackb(packb(data)))
            assert back == copy and back.state_hash() == copy.state_hash()
            assert back.turn_id() == copy.turn_id()
            twin = copy.clone()
            assert twin == copy and twin is not copy


@pytest.mark.parametrize("game_id", game_ids())
def test_determinize_keeps_what_the_seat_sees_and_nothing_more(game_id: str) -> None:
    """Rule 5: a determinized copy shows its seat the same view, leaves the original alone,
    depends only on what the seat sees, and for a game with secrets really resamples."""
    game = registry.get_game(game_id)
    resampled = False
    for i, step in enumerate(walk(game, game.max_players, 41)):
        if i % 4:
            continue
        state = step.after
        digest = state.state_hash()
        for seat in [*range(state.players), None]:
            copy = state.determinize(seat, 1234 + i)
            assert state.state_hash() == digest, "determinize changed the original"
            assert copy.view(seat) == state.view(seat)
            assert copy.to_move() == state.to_move() and copy.turn_id() == state.turn_id()
            if seat is not None:
                assert copy.legal_actions(seat) == state.legal_actions(seat)
            # A twin the seat cannot tell apart determinizes to the same copy.
            twin = copy.determinize(seat, 99 + i)
            assert twin.determinize(seat, 1234 + i) == copy
            resampled = resampled or copy.to_dict() != state.to_dict()
    if game.secrets:
        assert resampled, "a game with secrets whose determinize never changed anything"


@pytest.mark.parametrize("game_id", game_ids())
def test_simultaneous_choices_do_not_depend_on_each_other(game_id: str) -> None:
    """Rule 3: while several seats choose at once, one seat's action changes neither another
    deciding seat's legal actions nor its view (until the phase resolves)."""
    game = registry.get_game(game_id)
    seen = 0
    for step in walk(game, game.max_players, 51):
        before, after = step.before, step.after
        if len(before.to_move()) < 2 or after.turn_id() != before.turn_id():
            continue
        for other in before.to_move():
            if other == step.seat or other not in after.to_move():
                continue
            seen += 1
            assert after.legal_actions(other) == before.legal_actions(other)
            hidden = [e for e in step.events if "only" in e and other not in e["only"]]
            assert not [e for e in after.visible_events(hidden, other)]
    if game.simultaneous:
        assert seen, "a simultaneous game whose random play never had two seats choosing"


def _bots() -> list[tuple[str, object]]:
    return [
        ("random", RandomBot(5)),
        ("greedy", GreedyBot(5, cpu_budget=None, max_evals=300)),
        ("mcts", MctsBot(5, budget=None, iterations=40)),
    ]


@pytest.mark.parametrize("game_id", game_ids())
def test_bot_decisions_ignore_other_seats_secrets(game_id: str) -> None:
    """Every bot decides the same on twin positions that differ only in what the deciding seat
    cannot see (its determinized copy stands for the twin)."""
    game = registry.get_game(game_id)
    checked = 0
    for i, step in enumerate(walk(game, game.min_players, 61)):
        if i % 25:
            continue
        state = step.after
        if state.is_over():
            break
        seat = state.to_move()[0]
        twin = state.determinize(seat, 777 + i)
        for name, _bot in _bots():
            first = dict(_bots())[name].choose(state.clone(), seat)  # type: ignore[attr-defined]
            second = dict(_bots())[name].choose(twin.clone(), seat)  # type: ignore[attr-defined]
            assert first == second, f"{name} decided differently on a twin of seat {seat}"
        checked += 1
        if checked >= 3:
            break
    assert checked
