"""Rule 5 in numbers: a determinized copy (what ``sample`` sends) guesses another seat's hidden
items no better than chance — also while that seat is in the middle of its turn.

Over many positions of random games, for each seat and each hidden item of another seat (its
hand, screen, committed choice, a deck's order: ``tests/conformance/game_secrets.py``), two
copies ``determinize(seat, a)`` and ``determinize(seat, b)`` are made.  *Chance* is how often
the two copies agree with each other: for a copy drawn from what the seat may believe, that is
how often a copy agrees with the truth.  A copy that keeps a secret (issue 19: the screen of a
seat part-way through its turn) agrees with the truth every time, and with its twin every
time, so the checks are:

* the copies agree with the truth no more often than with each other (within the statistical
  margin and a small allowance for what random play itself says about hidden items);
* an item of a seat in the middle of its turn is guessed about as often as the same kind of
  item of a seat that is not (the twin copies cannot be the measure here: a copy that keeps
  the item agrees with its twin every time too).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pytest

from game.core import registry
from game.core.rng import Rng
from tests import testgame
from tests.conformance.game_secrets import hooks_of

testgame.register()

#: Random games per game, and the most positions looked at in each.
GAMES = 6
#: Items of one kind needed for the checks to say anything.
MIN_ITEMS = 40
#: How much more often than chance a copy may agree with the truth: random play's choices
#: depend a little on hidden items (a seat with more red keyples bids red more often), which
#: the copies, knowing only the public history, cannot follow.
ALLOWANCE = 0.08
#: How much better a copy may guess an item of a seat in the middle of its turn than the same
#: kind of item otherwise: the turn so far narrows it a little (a seat asked which keyple to
#: pay holds two colours at least).
MID_ALLOWANCE = 0.15


@dataclass
class Tally:
    items: int = 0
    truth: int = 0  # copies that agree with the truth
    twins: int = 0  # pairs of copies that agree with each other

    def add(self, truth: bool, twins: bool) -> None:
        self.items += 1
        self.truth += truth
        self.twins += twins

    def rates(self) -> tuple[float, float]:
        return self.truth / self.items, self.twins / self.items

    def margin(self) -> float:
        """Four standard errors of the difference of the two rates."""
        p = max(self.twins, self.truth, 1) / self.items
        return 4 * math.sqrt(2 * p * (1 - p) / self.items) + 1 / self.items

    def __str__(self) -> str:
        t, w = self.rates()
        return f"{self.items} items: the truth guessed {t:.1%}, twin copies agree {w:.1%}"


def game_ids() -> list[str]:
    return registry.registered_ids()


def _kind(label: str) -> str:
    """``"seat 2 screen"`` -> ``"screen"``: items are judged per kind."""
    parts = label.split(" ", 2)
    return parts[2] if parts[0] == "seat" and len(parts) == 3 else label


def tallies(game_id: str) -> dict[tuple[bool, str], Tally]:
    """Per (mid-turn?, kind of item): how copies guessed, over random games.  An item is
    *mid-turn* when it belongs to the seat that acted last, whose turn goes on."""
    game = registry.get_game(game_id)
    hooks = hooks_of(game_id)
    out: dict[tuple[bool, str], Tally] = {}
    players = max(game.min_players, min(4, game.max_players))
    for g in range(GAMES):
        seed = 9000 + g
        state = game.new(players, {}, seed)
        rng = Rng(seed ^ 0xA5A5)
        step = 0
        while not state.is_over():
            movers = state.to_move()
            actor = movers[rng.randbelow(len(movers))]
            legal = state.legal_actions(actor)
            turn = state.turn_id()
            state.apply(actor, legal[rng.randbelow(len(legal))])
            step += 1
            busy = actor if state.turn_id() == turn and actor in state.to_move() else None
            if state.is_over() or (step % 2 and busy is None):
                continue
            for seat in [*range(state.players), None]:
                truth = hooks.hidden(state, seat)
                if not truth:
                    continue
                a = hooks.hidden(state.determinize(seat, rng.next64()), seat)
                b = hooks.hidden(state.determinize(seat, rng.next64()), seat)
                for label, real in truth.items():
                    key = (busy is not None and label.startswith(f"seat {busy} "), _kind(label))
                    tally = out.setdefault(key, Tally())
                    tally.add(a.get(label) == real, a.get(label) == b.get(label))
    return out


def _name(key: tuple[bool, str]) -> str:
    return ("mid-turn " if key[0] else "") + key[1]


@pytest.mark.parametrize("game_id", game_ids())
def test_a_sample_guesses_hidden_items_no_better_than_chance(game_id: str) -> None:
    found = tallies(game_id)
    game = registry.get_game(game_id)
    if game.secrets:
        assert sum(t.items for t in found.values()) > 100, f"{game_id}: too few hidden items"
    for key, tally in sorted(found.items()):
        if tally.items < MIN_ITEMS:
            continue
        truth, twins = tally.rates()
        assert truth <= twins + ALLOWANCE + tally.margin(), (
            f"{game_id}, {_name(key)}: copies guess the truth more often than chance ({tally})"
        )
    if game_id == "keyflower":
        assert found.get((True, "screen"), Tally()).items >= MIN_ITEMS, (
            f"too few screens of seats in the middle of their turn: {found}"
        )
    for (mid, kind), tally in found.items():
        other = found.get((False, kind))
        if not mid or tally.items < MIN_ITEMS or other is None or other.items < MIN_ITEMS:
            continue
        truth, _twins = tally.rates()
        usual, _ = other.rates()
        assert truth <= usual + MID_ALLOWANCE + tally.margin() + other.margin(), (
            f"{game_id}: copies guess the {kind} of a seat in the middle of its turn far more "
            f"often than when it is not ({tally}; otherwise {other})"
        )
