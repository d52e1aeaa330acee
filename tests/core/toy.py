"""A tiny game that exercises the whole engine contract, for the core tests only.

"Secret Nim": a pile of tokens; each seat holds a hidden card (1..3) dealt from a shuffled deck.
On your turn you take 1, 2 or your card's value of tokens (at most what is left); after taking
you draw a new card (a reveal).  Taking the last token ends the game; each seat scores the
tokens it took.  Hidden cards and the deck order are secrets, so views, determinize and the
match runner have something real to hide.
"""

from __future__ import annotations

from typing import Any

from game.core.api import Game, GameState
from game.core.rng import Rng
from game.core.types import Action, BadOptions, BadState, Event, Options, Score, Seat


class ToyState(GameState):
    game_id = "toy"

    def __init__(self, n: int, pile: int, rng: Rng) -> None:
        self.n = n
        self.pile = pile
        self.rng = rng
        self.deck = [1, 2, 3] * 4
        rng.shuffle(self.deck)
        self.hands = [self.deck.pop() for _ in range(n)]
        self.taken = [0] * n
        self.current = 0

    @property
    def players(self) -> int:
        return self.n

    def to_move(self) -> tuple[Seat, ...]:
        return () if self.pile == 0 else (self.current,)

    def turn_id(self) -> int:
        return -self.pile  # every action ends a turn and takes at least one token

    def legal_actions(self, seat: Seat) -> list[Action]:
        if seat not in self.to_move():
            return []
        amounts = sorted({1, 2, self.hands[seat]})
        return [("take", a) for a in amounts if a <= self.pile]

    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        amount = action[1]
        self.pile -= amount
        self.taken[seat] += amount
        if not self.deck:
            self.deck = [1, 2, 3] * 4
            self.rng.shuffle(self.deck)
        self.hands[seat] = self.deck.pop()
        self.current = (seat + 1) % self.n
        return [
            {"type": "take", "seat": seat, "amount": amount},
            {
                "type": "card",
                "seat": seat,
                "value": self.hands[seat],
                "only": [seat],
                "reveal": True,
            },
        ]

    def is_over(self) -> bool:
        return self.pile == 0

    def scores(self) -> list[Score]:
        return [{"tokens": t, "total": t} for t in self.taken]

    def view(self, seat: Seat | None) -> dict[str, Any]:
        return {
            "pile": self.pile,
            "taken": list(self.taken),
            "current": self.current,
            "hand": self.hands[seat] if seat is not None else None,
            "deck": len(self.deck),
        }

    def clone(self) -> ToyState:
        other = ToyState.__new__(ToyState)
        other.__dict__.update(self.__dict__)
        other.rng = self.rng.clone()
        other.deck = list(self.deck)
        other.hands = list(self.hands)
        other.taken = list(self.taken)
        return other

    def determinize(self, seat: Seat | None, seed: int) -> ToyState:
        other = self.clone()
        other.rng = Rng(seed)
        unseen = [h for s, h in enumerate(self.hands) if s != seat] + list(self.deck)
        other.rng.shuffle(unseen)
        for s in range(self.n):
            if s != seat:
                other.hands[s] = unseen.pop()
        other.deck = unseen
        return other

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": 1,
            "game": "toy",
            "n": self.n,
            "pile": self.pile,
            "rng": self.rng.state,
            "deck": list(self.deck),
            "hands": list(self.hands),
            "taken": list(self.taken),
            "current": self.current,
        }


class ToyGame(Game):
    def new(self, players: int, options: Options | None, seed: int) -> ToyState:
        if not self.min_players <= players <= self.max_players:
            raise BadOptions("toy takes 2-4 players")
        pile = int((options or {}).get("pile", 15))
        return ToyState(players, pile, Rng(seed))

    def from_dict(self, data: dict[str, Any]) -> ToyState:
        try:
            state = ToyState.__new__(ToyState)
            state.n = data["n"]
            state.pile = data["pile"]
            state.rng = Rng(data["rng"])
            state.deck = list(data["deck"])
            state.hands = list(data["hands"])
            state.taken = list(data["taken"])
            state.current = data["current"]
        except (KeyError, TypeError) as exc:
            raise BadState(f"bad toy state: {exc}") from None
        return state


GAME = ToyGame(id="toy", title="Secret Nim", min_players=2, max_players=4, rules_version=1)
