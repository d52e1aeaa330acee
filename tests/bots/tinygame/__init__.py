"""A tiny card game for the bot tests only (never in the product registry).

"Market race": a shuffled deck of cards 1..6 (four of each; its order is secret), a market of
two face-up cards, and one hidden card in each seat's hand.  A turn has one or two steps:
optionally ``("swap", i)`` — trade the hand card for market card ``i`` (the old hand card goes
face up into the market) — then ``("play",)``: score the hand card and draw a new one (a private
draw from the secret deck).  When the deck cannot give a card, the game ends; the highest score
wins.  It has what the bots must cope with: multi-step turns, secrets (hands, deck order),
chance (draws) and interaction (what you leave in the market helps the next seat).
"""

from __future__ import annotations

from typing import Any

from game.core.api import Game, GameState
from game.core.rng import Rng
from game.core.types import Action, BadOptions, BadState, Event, Options, Score, Seat

DECK = [v for v in range(1, 7) for _ in range(4)]


class TinyState(GameState):
    game_id = "tiny"

    def __init__(self, n: int, rng: Rng) -> None:
        self.n = n
        self.rng = rng
        self.deck = list(DECK)
        rng.shuffle(self.deck)
        self.hands: list[int | None] = [self.deck.pop() for _ in range(n)]
        self.market = [self.deck.pop(), self.deck.pop()]
        self.score = [0] * n
        self.current = 0
        self.swapped = False
        self.over = False

    @property
    def players(self) -> int:
        return self.n

    def to_move(self) -> tuple[Seat, ...]:
        return () if self.over else (self.current,)

    def turn_id(self) -> int:
        return -len(self.deck) + self.over  # every play ends a turn and draws a card

    def legal_actions(self, seat: Seat) -> list[Action]:
        if self.over or seat != self.current:
            return []
        if self.swapped:
            return [("play",)]
        return [("play",)] + [("swap", i) for i in range(len(self.market))]

    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        if action[0] == "swap":
            i = action[1]
            hand = self.hands[seat]
            assert hand is not None
            self.hands[seat], self.market[i] = self.market[i], hand
            self.swapped = True
            return [{"type": "swap", "seat": seat, "index": i, "card": hand}]
        card = self.hands[seat]
        assert card is not None
        self.score[seat] += card
        events: list[Event] = [{"type": "play", "seat": seat, "card": card}]
        self.swapped = False
        if not self.deck:
            self.hands[seat] = None
            self.over = True
            events.append({"type": "game_over"})
            return events
        self.hands[seat] = self.deck.pop()
        events.append(
            {"type": "card", "seat": seat, "card": self.hands[seat], "only": [seat], "reveal": True}
        )
        self.current = (seat + 1) % self.n
        return events

    def is_over(self) -> bool:
        return self.over

    def scores(self) -> list[Score]:
        return [{"cards": s, "total": s} for s in self.score]

    def view(self, seat: Seat | None) -> dict[str, Any]:
        return {
            "game": "tiny",
            "market": list(self.market),
            "score": list(self.score),
            "current": self.current,
            "swapped": self.swapped,
            "over": self.over,
            "deck": len(self.deck),
            "hand": self.hands[seat] if seat is not None else None,
        }

    def clone(self) -> TinyState:
        other = TinyState.__new__(TinyState)
        other.__dict__.update(self.__dict__)
        other.rng = self.rng.clone()
        other.deck = list(self.deck)
        other.hands = list(self.hands)
        other.market = list(self.market)
        other.score = list(self.score)
        return other

    def determinize(self, seat: Seat | None, seed: int) -> TinyState:
        """Resample other hands and the deck order from the cards ``seat`` has not seen.

        The unseen cards are sorted before the shuffle, so the result depends only on what
        ``seat`` sees and ``seed`` — never on where the secret cards really are.
        """
        other = self.clone()
        other.rng = Rng(seed)
        hidden = [s for s in range(self.n) if s != seat and self.hands[s] is not None]
        unseen = sorted([self.hands[s] for s in hidden] + self.deck)  # type: ignore[type-var]
        other.rng.shuffle(unseen)
        for s in hidden:
            other.hands[s] = unseen.pop()
        other.deck = unseen
        other.rng = Rng(seed ^ 0x5EED)
        return other

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": 1,
            "n": self.n,
            "rng": self.rng.state,
            "deck": list(self.deck),
            "hands": list(self.hands),
            "market": list(self.market),
            "score": list(self.score),
            "current": self.current,
            "swapped": self.swapped,
            "over": self.over,
        }


class TinyGame(Game):
    def new(self, players: int, options: Options | None, seed: int) -> TinyState:
        if not self.min_players <= players <= self.max_players:
            raise BadOptions("tiny takes 2-4 players")
        return TinyState(players, Rng(seed))

    def from_dict(self, data: dict[str, Any]) -> TinyState:
        try:
            state = TinyState.__new__(TinyState)
            state.n = data["n"]
            state.rng = Rng(data["rng"])
            state.deck = list(data["deck"])
            state.hands = list(data["hands"])
            state.market = list(data["market"])
            state.score = list(data["score"])
            state.current = data["current"]
            state.swapped = data["swapped"]
            state.over = data["over"]
        except (KeyError, TypeError) as exc:
            raise BadState(f"bad tiny state: {exc}") from None
        return state


GAME = TinyGame(id="tiny", title="Market race", min_players=2, max_players=4, rules_version=1)
