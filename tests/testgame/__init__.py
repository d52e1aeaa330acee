"""The framework's one test game: every shape of game the contract must carry, in a few rules.

"Bid and Race" (id ``testgame``, registered only by tests: ``registry.register(GAME_ID,
__name__, listed=False)``), 2–6 players, ``rounds`` rounds (option, default 2).  Each round has
two phases:

1. **Sealed bids** (a *simultaneous hidden choice*, built in two steps): every seat picks a bid
   ``("bid", k)`` with ``0 <= k <= min(3, coins)`` — private — and then ``("seal",)``.  Seats
   choose at once, in any order; nobody sees another's bid until the last seal, whose ``apply``
   reveals them all (``"reveal": True``).  The highest bid (ties: the lowest seat) pays its bid
   in coins and *banks* 3 points (category ``bids``); a round where everyone bids 0 has no
   winner.  The whole phase is one turn (``turn_id`` changes when it resolves).
2. **The race** (*consecutive turns of one seat* and an *automatic chance step*): every figure
   starts at 0; the figure furthest back moves next (ties: the lowest seat; the neutral figure
   counts as the last seat).  A seat's turn is an optional ``("rest",)`` (+1 coin, once per
   turn) and then ``("run", 1)``, ``("run", 2)`` or ``("dash",)``: move by the value of its
   hidden card, discard it and draw a new one (a reveal).  A seat that is still hindmost after
   its move takes the next turn too — a new turn.  The first seat to reach ``goal`` banks 2
   points (``race``), the second 1; a finished figure stops.  With the option ``neutral`` (on
   by default) a neutral figure races too: whenever it is hindmost it rolls a die (1–3) and
   moves, inside the ``apply`` of the action that ended the turn before, never waiting for a
   seat.  The race ends when every seat has finished.
3. After the last round the game ends; coins are worth 1 point per 2 (``coins``, banked at the
   end).  :meth:`BidRaceState.preview_scores` adds them in advance for a live preview.

Secrets: each seat's hand card, its bid until the reveal, and the order of the deck.  The rules
say who may see what, so the conformance kit's twin-state and determinize checks have real
secrets to find.  No rule here is a stub: the host, the bots, the client's generic view and the
conformance kit all play it to the end.  The bots judge positions with the hooks of
``tests/testgame/evaluation.py``; tests register the game with :func:`register` or, for the
length of a test, :func:`registered`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from game.core.api import Game, GameState, OptionSpec
from game.core.rng import Rng, derive_seed
from game.core.types import Action, BadOptions, BadState, Event, IllegalAction, Options, Score, Seat

GAME_ID = "testgame"
#: The deck: four cards of each value 1..4.
DECK = tuple(v for v in (1, 2, 3, 4) for _ in range(4))
#: Coins each seat starts with.
START_COINS = 3
#: Points banked by the winner of a round's bids, and by the first and second across the line.
BID_POINTS = 3
RACE_POINTS = (2, 1)
MAX_BID = 3
BID, RACE, OVER = "bid", "race", "over"
CATEGORIES = ("bids", "race", "coins")


class BidRaceState(GameState):
    """One position of "Bid and Race" (see the module docstring)."""

    game_id = GAME_ID

    n: int
    rounds: int
    goal: int
    neutral: bool
    rng: Rng
    deck: list[int]
    discard: list[int]
    hands: list[int]
    coins: list[int]
    banked: list[list[int]]  # per seat: [bids, race, coins]
    round: int
    phase: str
    bids: list[int | None]  # the chosen (private) bid of each seat, None = not chosen yet
    sealed: list[bool]
    last_bids: list[int] | None  # the bids revealed at the last resolution
    pos: list[int]  # per seat, then the neutral figure at index n
    finished: list[Seat]  # seats in the order they crossed the line
    rested: bool
    turn: int

    # ---- building ---------------------------------------------------------------------------
    @classmethod
    def new(cls, n: int, rounds: int, goal: int, neutral: bool, seed: int) -> BidRaceState:
        st = cls.__new__(cls)
        st.n, st.rounds, st.goal, st.neutral = n, rounds, goal, neutral
        st.rng = Rng(seed)
        st.deck = list(DECK)
        st.rng.shuffle(st.deck)
        st.discard = []
        st.hands = [st.deck.pop() for _ in range(n)]
        st.coins = [START_COINS] * n
        st.banked = [[0, 0, 0] for _ in range(n)]
        st.round = 1
        st.turn = 0
        st.last_bids = None
        st._start_bids()
        return st

    def _start_bids(self) -> None:
        self.phase = BID
        self.bids = [None] * self.n
        self.sealed = [False] * self.n
        self.pos = [0] * (self.n + 1)
        self.finished = []
        self.rested = False

    # ---- who, what --------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.n

    def to_move(self) -> tuple[Seat, ...]:
        if self.phase == BID:
            return tuple(s for s in range(self.n) if not self.sealed[s])
        if self.phase == RACE:
            return (self._hindmost(),)
        return ()

    def turn_id(self) -> int:
        return self.turn

    def is_over(self) -> bool:
        return self.phase == OVER

    def _hindmost(self) -> int:
        """The figure that moves next: furthest back among those still racing; ties go to the
        lowest index (the neutral figure is index ``n``, so it loses every tie)."""
        racing = [f for f in range(self.n + 1) if self._racing(f)]
        return min(racing, key=lambda f: (self.pos[f], f))

    def _racing(self, figure: int) -> bool:
        if figure == self.n:
            return self.neutral and self.pos[figure] < self.goal
        return figure not in self.finished

    def legal_actions(self, seat: Seat) -> list[Action]:
        if seat not in self.to_move():
            return []
        if self.phase == BID:
            if self.bids[seat] is None:
                return [("bid", k) for k in range(min(MAX_BID, self.coins[seat]) + 1)]
            return [("seal",)]
        actions: list[Action] = [] if self.rested else [("rest",)]
        return [*actions, ("run", 1), ("run", 2), ("dash",)]

    def explain_illegal(self, seat: Seat, action: Action) -> IllegalAction:
        kind = action[0] if action else ""
        if self.phase == BID:
            if kind == "bid" and self.bids[seat] is not None:
                return IllegalAction("you have chosen your bid; seal it", "testgame bids: seal")
            if kind == "bid":
                return IllegalAction(
                    f"a bid is 0 to {min(MAX_BID, self.coins[seat])} (at most 3, at most your "
                    "coins)",
                    "testgame bids: amount",
                )
            if kind == "seal":
                return IllegalAction("choose a bid before sealing it", "testgame bids: seal")
            return IllegalAction("during the bids you bid or seal", "testgame bids")
        if kind == "rest":
            return IllegalAction("you rest at most once per turn", "testgame race: rest")
        return IllegalAction("in the race you rest, run 1 or 2, or dash", "testgame race: moves")

    def describe(self, action: Action) -> str:
        kind = action[0] if action else "?"
        if kind == "bid":
            return f"bid {action[1]}"
        if kind == "run":
            return f"run {action[1]}"
        return str(kind)

    # ---- change -----------------------------------------------------------------------------
    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        kind = action[0]
        if kind == "bid":
            self.bids[seat] = action[1]
            return [{"type": "bid", "seat": seat, "bid": action[1], "only": [seat]}]
        if kind == "seal":
            self.sealed[seat] = True
            events: list[Event] = [{"type": "sealed", "seat": seat}]
            if all(self.sealed):
                events += self._resolve_bids()
            return events
        if kind == "rest":
            self.rested = True
            self.coins[seat] += 1
            return [{"type": "rest", "seat": seat}]
        if kind == "run":
            return self._move(seat, action[1], [])
        card = self.hands[seat]
        self.discard.append(card)
        if not self.deck:
            self.deck, self.discard = self.discard, []
            self.rng.shuffle(self.deck)
        self.hands[seat] = self.deck.pop()
        drawn: list[Event] = [
            {"type": "dash", "seat": seat, "card": card},
            {
                "type": "draw",
                "seat": seat,
                "card": self.hands[seat],
                "only": [seat],
                "reveal": True,
            },
        ]
        return self._move(seat, card, drawn)

    def _resolve_bids(self) -> list[Event]:
        bids = [b if b is not None else 0 for b in self.bids]
        best = max(bids)
        winner = bids.index(best) if best > 0 else None
        if winner is not None:
            self.coins[winner] -= best
            self.banked[winner][0] += BID_POINTS
        self.last_bids = bids
        self.phase = RACE
        self.turn += 1
        events: list[Event] = [
            {"type": "bids", "bids": list(bids), "winner": winner, "reveal": True}
        ]
        return events + self._run_neutral()

    def _move(self, seat: Seat, steps: int, events: list[Event]) -> list[Event]:
        self.pos[seat] = min(self.goal, self.pos[seat] + steps)
        events.append({"type": "move", "seat": seat, "to": self.pos[seat]})
        if self.pos[seat] >= self.goal:
            place = len(self.finished)
            self.finished.append(seat)
            if place < len(RACE_POINTS):
                self.banked[seat][1] += RACE_POINTS[place]
            events.append({"type": "finish", "seat": seat, "place": place + 1})
        self.rested = False
        self.turn += 1
        if len(self.finished) == self.n:
            return events + self._end_race()
        return events + self._run_neutral()

    def _run_neutral(self) -> list[Event]:
        """The automatic step: the neutral figure rolls and moves while it is hindmost."""
        events: list[Event] = []
        while self.phase == RACE and self._hindmost() == self.n:
            roll = 1 + self.rng.randbelow(3)
            self.pos[self.n] = min(self.goal, self.pos[self.n] + roll)
            events.append({"type": "neutral", "roll": roll, "to": self.pos[self.n], "reveal": True})
        return events

    def _end_race(self) -> list[Event]:
        events: list[Event] = [{"type": "race_over", "order": list(self.finished)}]
        if self.round >= self.rounds:
            for s in range(self.n):
                self.banked[s][2] = self.coins[s] // 2
            self.phase = OVER
            events.append({"type": "game_over", "scores": self.scores(), "winners": self.winners()})
            return events
        self.round += 1
        self._start_bids()
        events.append({"type": "round", "round": self.round})
        return events

    # ---- scores -----------------------------------------------------------------------------
    def scores(self) -> list[Score]:
        """Banked points: bids and race as they are won, coins only at the end."""
        return [_score_row(row) for row in self.banked]

    def preview_scores(self) -> list[Score]:
        """The banked points plus what the coins would be worth if the game ended now."""
        if self.is_over():
            return self.scores()
        return [_score_row([b, r, self.coins[s] // 2]) for s, (b, r, _c) in enumerate(self.banked)]

    # ---- what a seat sees -------------------------------------------------------------------
    def view(self, seat: Seat | None) -> dict[str, Any]:
        return {
            "game": GAME_ID,
            "players": self.n,
            "you": seat,
            "round": self.round,
            "rounds": self.rounds,
            "phase": self.phase,
            "goal": self.goal,
            "turn": self.turn,
            "to_move": list(self.to_move()),
            "coins": list(self.coins),
            "positions": self.pos[: self.n],
            "neutral": self.pos[self.n] if self.neutral else None,
            "finished": list(self.finished),
            "sealed": list(self.sealed),
            "bid": self.bids[seat] if seat is not None else None,
            "hand": self.hands[seat] if seat is not None else None,
            "last_bids": list(self.last_bids) if self.last_bids is not None else None,
            "deck": len(self.deck),
            "discard": list(self.discard),
            "scores": self.scores(),
            "preview": self.preview_scores(),
        }

    # ---- copies and saves -------------------------------------------------------------------
    def clone(self) -> BidRaceState:
        other = BidRaceState.__new__(BidRaceState)
        other.__dict__.update(self.__dict__)
        other.rng = self.rng.clone()
        for name in ("deck", "discard", "hands", "coins", "bids", "sealed", "pos", "finished"):
            setattr(other, name, list(getattr(self, name)))
        other.banked = [list(row) for row in self.banked]
        other.last_bids = list(self.last_bids) if self.last_bids is not None else None
        return other

    def determinize(self, seat: Seat | None, seed: int) -> BidRaceState:
        """Resample what ``seat`` cannot see: other seats' hands with the deck, and the bids
        other seats have chosen but nobody has revealed (their coins stay the bound)."""
        other = self.clone()
        rng = Rng(derive_seed(seed, "testgame-determinize"))
        others = [s for s in range(self.n) if s != seat]
        pool = sorted(other.deck + [other.hands[s] for s in others])  # what seat cannot tell apart
        rng.shuffle(pool)
        for s in others:
            other.hands[s] = pool.pop()
        other.deck = pool
        for s in others:
            # A sealed bid is resampled (that it is sealed is public); an unsealed seat has, for
            # all ``seat`` knows, not chosen yet.
            sealed = other.sealed[s]
            other.bids[s] = rng.randbelow(min(MAX_BID, other.coins[s]) + 1) if sealed else None
        other.rng = Rng(derive_seed(seed, "testgame-reseed"))
        return other

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": 1,
            "game": GAME_ID,
            "n": self.n,
            "rounds": self.rounds,
            "goal": self.goal,
            "neutral": self.neutral,
            "rng": self.rng.state,
            "deck": list(self.deck),
            "discard": list(self.discard),
            "hands": list(self.hands),
            "coins": list(self.coins),
            "banked": [list(row) for row in self.banked],
            "round": self.round,
            "phase": self.phase,
            "bids": list(self.bids),
            "sealed": list(self.sealed),
            "last_bids": list(self.last_bids) if self.last_bids is not None else None,
            "pos": list(self.pos),
            "finished": list(self.finished),
            "rested": self.rested,
            "turn": self.turn,
        }


def _score_row(values: list[int]) -> Score:
    row = dict(zip(CATEGORIES, values, strict=True))
    row["total"] = sum(values)
    return row


def _ints(value: Any, length: int, lo: int, hi: int, name: str) -> list[int]:
    if not isinstance(value, list) or len(value) != length:
        raise BadState(f"{name} must be a list of {length} integers")
    for v in value:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise BadState(f"{name} holds {v!r}, not an integer from {lo} to {hi}")
    return list(value)


class BidRaceGame(Game):
    """The factory of "Bid and Race" states."""

    def new(self, players: int, options: Options | None, seed: int) -> BidRaceState:
        if isinstance(players, bool) or not isinstance(players, int):
            raise BadOptions(f"the number of players must be an integer, not {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise BadOptions(f"Bid and Race takes 2 to 6 players, not {players}")
        if options is not None and not isinstance(options, dict):
            raise BadOptions("options must be a dict of option name to value")
        opts = dict(options or {})
        rounds = opts.pop("rounds", 2)
        goal = opts.pop("goal", 6)
        neutral = opts.pop("neutral", True)
        if opts:
            raise BadOptions(f"unknown options: {', '.join(sorted(map(str, opts)))}")
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= 5:
            raise BadOptions("rounds must be an integer from 1 to 5")
        if isinstance(goal, bool) or not isinstance(goal, int) or not 3 <= goal <= 12:
            raise BadOptions("goal must be an integer from 3 to 12")
        if not isinstance(neutral, bool):
            raise BadOptions("neutral must be true or false")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise BadOptions(f"the seed must be an integer, not {seed!r}")
        return BidRaceState.new(players, rounds, goal, neutral, seed)

    def from_dict(self, data: dict[str, Any]) -> BidRaceState:
        if not isinstance(data, dict) or data.get("game") != GAME_ID or data.get("format") != 1:
            raise BadState("not a Bid and Race state of format 1")
        try:
            st = BidRaceState.__new__(BidRaceState)
            n = data["n"]
            if isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= 6:
                raise BadState("n must be 2 to 6")
            st.n = n
            st.rounds = _ints([data["rounds"]], 1, 1, 5, "rounds")[0]
            st.goal = _ints([data["goal"]], 1, 3, 12, "goal")[0]
            if not isinstance(data["neutral"], bool) or not isinstance(data["rested"], bool):
                raise BadState("neutral and rested are booleans")
            st.neutral, st.rested = data["neutral"], data["rested"]
            st.rng = Rng(_ints([data["rng"]], 1, 0, (1 << 64) - 1, "rng")[0])
            st.deck = _ints(data["deck"], len(data["deck"]), 1, 4, "deck")
            st.discard = _ints(data["discard"], len(data["discard"]), 1, 4, "discard")
            st.hands = _ints(data["hands"], n, 1, 4, "hands")
            if sorted(st.deck + st.discard + st.hands) != sorted(DECK):
                raise BadState("deck, discard and hands are not the 16 cards")
            st.coins = _ints(data["coins"], n, 0, 1000, "coins")
            banked = data["banked"]
            if not isinstance(banked, list) or len(banked) != n:
                raise BadState("banked must hold one row per seat")
            st.banked = [_ints(row, 3, 0, 1000, "banked") for row in banked]
            st.round = _ints([data["round"]], 1, 1, st.rounds, "round")[0]
            if data["phase"] not in (BID, RACE, OVER):
                raise BadState(f"unknown phase {data['phase']!r}")
            st.phase = data["phase"]
            bids = data["bids"]
            if not isinstance(bids, list) or len(bids) != n:
                raise BadState("bids must hold one entry per seat")
            st.bids = [None if b is None else _ints([b], 1, 0, MAX_BID, "bids")[0] for b in bids]
            sealed = data["sealed"]
            if (
                not isinstance(sealed, list)
                or len(sealed) != n
                or not all(isinstance(x, bool) for x in sealed)
            ):
                raise BadState("sealed must hold one boolean per seat")
            st.sealed = list(sealed)
            if any(s and b is None for s, b in zip(st.sealed, st.bids, strict=True)):
                raise BadState("a sealed seat has no bid")
            last = data["last_bids"]
            st.last_bids = None if last is None else _ints(last, n, 0, MAX_BID, "last_bids")
            st.pos = _ints(data["pos"], n + 1, 0, st.goal, "pos")
            finished = data["finished"]
            st.finished = _ints(finished, len(finished), 0, n - 1, "finished")
            if len(set(st.finished)) != len(st.finished):
                raise BadState("a seat finished twice")
            st.turn = _ints([data["turn"]], 1, 0, 1 << 31, "turn")[0]
        except KeyError as exc:
            raise BadState(f"missing field {exc}") from None
        except (TypeError, ValueError) as exc:
            raise BadState(f"bad Bid and Race state: {exc}") from None
        return st


GAME = BidRaceGame(
    id=GAME_ID,
    title="Bid and Race (test game)",
    min_players=2,
    max_players=6,
    rules_version=1,
    options=(
        OptionSpec("rounds", "int", 2, "Rounds", minimum=1, maximum=5),
        OptionSpec("goal", "int", 6, "Finish line", minimum=3, maximum=12),
        OptionSpec("neutral", "bool", True, "Neutral figure"),
    ),
    simultaneous=True,
    secrets=True,
    chance=True,
)


def register() -> str:
    """Register the test game in this process's registry (kept out of menus); returns its id."""
    from game.core import registry

    registry.register(GAME_ID, __name__, listed=False)
    return GAME_ID


@contextlib.contextmanager
def registered() -> Iterator[str]:
    """The test game registered for the length of a ``with`` block; yields its id.

    Afterwards the registry is as it was: a game registered before (the conformance kit
    registers it for the whole session) stays registered, one registered here is removed.
    """
    from game.core import registry

    before = registry.module_of(GAME_ID)
    register()
    try:
        yield GAME_ID
    finally:
        if before is None:
            registry.unregister(GAME_ID)
