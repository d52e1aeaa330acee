"""A tiny game for the net tests only: secrets, reveals, multi-step turns, any seat count.

"Secret Steps": each seat holds a hidden card (1..9) dealt from a shuffled deck.  On your turn
you may take up to two ``("step", k)`` actions (``k`` = 1 or 2 points each, no secret involved),
then ``("end",)``: your hidden card is revealed and scored, and you draw a new one (a reveal).
After ``rounds`` rounds the game ends; the most points win.  With the option ``quiet_end`` the
end of a turn is not marked as a reveal (to test the undo rule "the turn has passed" alone).  Hands and the deck order are
secrets, so views, determinize, undo windows and the host's filtering have something to hide.
"""

from __future__ import annotations

from typing import Any

from game.core.api import Game, GameState, OptionSpec
from game.core.rng import Rng
from game.core.types import Action, BadOptions, BadState, Event, Options, Score, Seat

GAME_ID = "tiny"


class TinyState(GameState):
    game_id = GAME_ID

    def __init__(self, n: int, rounds: int, rng: Rng, quiet_end: bool = False) -> None:
        self.n = n
        self.rounds = rounds
        self.quiet_end = quiet_end
        self.rng = rng
        self.deck = list(range(1, 10)) * 2
        rng.shuffle(self.deck)
        self.discard: list[int] = []
        self.hands = [self.deck.pop() for _ in range(n)]
        self.points = [0] * n
        self.current = 0
        self.round = 1
        self.steps = 0
        self.over = False

    @property
    def players(self) -> int:
        return self.n

    def to_move(self) -> tuple[Seat, ...]:
        return () if self.over else (self.current,)

    def turn_id(self) -> int:
        return self.round * self.n + self.current + self.over

    def legal_actions(self, seat: Seat) -> list[Action]:
        if self.over or seat != self.current:
            return []
        steps: list[Action] = [("step", 1), ("step", 2)] if self.steps < 2 else []
        return [*steps, ("end",)]

    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        if action[0] == "step":
            self.points[seat] += action[1]
            self.steps += 1
            return [{"type": "step", "seat": seat, "k": action[1]}]
        card = self.hands[seat]
        self.points[seat] += card
        self.discard.append(card)
        if not self.deck:
            self.deck, self.discard = self.discard, []
            self.rng.shuffle(self.deck)
        self.hands[seat] = self.deck.pop()
        reveal = not self.quiet_end
        events: list[Event] = [
            {"type": "end_turn", "seat": seat, "scored": card, "reveal": reveal},
            {
                "type": "card",
                "seat": seat,
                "value": self.hands[seat],
                "only": [seat],
                "reveal": reveal,
            },
        ]
        self.steps = 0
        self.current = (seat + 1) % self.n
        if self.current == 0:
            self.round += 1
            if self.round > self.rounds:
                self.over = True
                events.append({"type": "game_over", "winners": self.winners()})
                return events
        events.append({"type": "turn", "seat": self.current})
        return events

    def is_over(self) -> bool:
        return self.over

    def scores(self) -> list[Score]:
        return [{"points": p, "total": p} for p in self.points]

    def view(self, seat: Seat | None) -> dict[str, Any]:
        return {
            "game": GAME_ID,
            "players": self.n,
            "you": seat,
            "current": None if self.over else self.current,
            "round": self.round,
            "steps": self.steps,
            "points": list(self.points),
            "hands": [h if s == seat else None for s, h in enumerate(self.hands)],
            "deck": len(self.deck),
            "discard": list(self.discard),
            "over": self.over,
        }

    def clone(self) -> TinyState:
        other = TinyState.__new__(TinyState)
        other.__dict__.update(self.__dict__)
        other.rng = self.rng.clone()
        other.deck = list(self.deck)
        other.discard = list(self.discard)
        other.hands = list(self.hands)
        other.points = list(self.points)
        return other

    def determinize(self, seat: Seat | None, seed: int) -> TinyState:
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
            "game": GAME_ID,
            "n": self.n,
            "rounds": self.rounds,
            "quiet_end": self.quiet_end,
            "rng": self.rng.state,
            "deck": list(self.deck),
            "discard": list(self.discard),
            "hands": list(self.hands),
            "points": list(self.points),
            "current": self.current,
            "round": self.round,
            "steps": self.steps,
            "over": self.over,
        }


class TinyGame(Game):
    def new(self, players: int, options: Options | None, seed: int) -> TinyState:
        if not self.min_players <= players <= self.max_players:
            raise BadOptions(f"tiny takes 2-6 players, not {players}")
        opts = dict(options or {})
        rounds = opts.pop("rounds", 2)
        quiet_end = opts.pop("quiet_end", False)
        if opts:
            raise BadOptions(f"unknown options: {', '.join(sorted(opts))}")
        if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= 10:
            raise BadOptions("rounds must be an integer from 1 to 10")
        return TinyState(players, rounds, Rng(seed), bool(quiet_end))

    def from_dict(self, data: dict[str, Any]) -> TinyState:
        try:
            state = TinyState.__new__(TinyState)
            state.n = data["n"]
            state.rounds = data["rounds"]
            state.quiet_end = data["quiet_end"]
            state.rng = Rng(data["rng"])
            state.deck = list(data["deck"])
            state.discard = list(data["discard"])
            state.hands = list(data["hands"])
            state.points = list(data["points"])
            state.current = data["current"]
            state.round = data["round"]
            state.steps = data["steps"]
            state.over = data["over"]
        except (KeyError, TypeError) as exc:
            raise BadState(f"bad tiny state: {exc}") from None
        return state


GAME = TinyGame(
    id=GAME_ID,
    title="Secret Steps",
    min_players=2,
    max_players=6,
    rules_version=1,
    options=(
        OptionSpec("rounds", "int", 2, "Rounds", minimum=1, maximum=10),
        OptionSpec("quiet_end", "bool", False, "Quiet end of turn"),
    ),
)


def register() -> None:
    """Add the tiny game to the registry of this process (tests and their subprocesses)."""
    from game.core import registry

    registry._MODULES[GAME_ID] = __name__
    registry._cache.pop(GAME_ID, None)
