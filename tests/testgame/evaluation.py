"""Bid and Race's evaluation for the bots (found by :mod:`game.bots.knowledge` by module name).

What a position is worth to each seat, in the game's points (rules: ``tests/testgame``):

* what the seat has banked (``bids``, ``race``) and its coins at 1 point per 2 — coins are
  banked at the end of the game, so one coin more is half a point more now;
* while the bids are open, the bid it is making: the chance that it is the highest (ties go to
  the lowest seat) times the 3 points, less the coins it would pay.  A bid the state holds is
  taken as it is (a bot's determinized copy has resampled the other seats' sealed bids); a bid
  not chosen yet is any amount the seat can afford, each as likely;
* the race points still to be won, shared by the seats still racing in proportion to how far
  each has come: its position plus one, plus what its hand card would add to a dash over a
  ``("run", 2)``.

A finished game is worth its final scores.  There is no ``position_key``: no two orders of a
seat's actions inside one turn reach the same position (a turn is ``bid`` then ``seal``, or an
optional ``rest`` before the one move).
"""

from __future__ import annotations

from game.core.api import GameState
from game.core.rng import Rng
from game.core.types import Action, Seat
from tests.testgame import BID, BID_POINTS, MAX_BID, RACE_POINTS, BidRaceState

#: One round's bid win: the gap between a clearly better and a clearly worse position.
SCALE = float(BID_POINTS)
#: Points per coin (1 point per 2 coins at the end).
COIN_VALUE = 0.5
#: How much of a hand card's extra steps (over a run of 2) counts as progress already made.
HAND_WEIGHT = 0.5


def evaluate_all(state: GameState) -> list[float]:
    """Each seat's value in points (see the module docstring)."""
    st = _bid_race(state)
    if st.is_over():
        return [float(row["total"]) for row in st.scores()]
    values = [b + r + COIN_VALUE * st.coins[s] for s, (b, r, _c) in enumerate(st.banked)]
    if st.phase == BID:
        for s, gain in enumerate(bid_gains(st)):
            values[s] += gain
    for s, share in race_shares(st).items():
        values[s] += share
    return values


def bid_gains(st: BidRaceState) -> list[float]:
    """Each seat's expected gain from the open bids: P(highest) x (3 - bid x coin value)."""
    choices = [_bid_chances(st, s) for s in range(st.n)]
    gains = []
    for s in range(st.n):
        gain = 0.0
        for bid, p in choices[s].items():
            if bid == 0:
                continue  # a bid of 0 never wins
            win = p
            for t in range(st.n):
                if t != s:
                    win *= sum(q for v, q in choices[t].items() if v < bid or (v == bid and t > s))
            gain += win * (BID_POINTS - COIN_VALUE * bid)
        gains.append(gain)
    return gains


def _bid_chances(st: BidRaceState, seat: Seat) -> dict[int, float]:
    bid = st.bids[seat]
    if bid is not None:
        return {bid: 1.0}
    top = min(MAX_BID, st.coins[seat])
    return {b: 1.0 / (top + 1) for b in range(top + 1)}


def race_shares(st: BidRaceState) -> dict[Seat, float]:
    """The race points still to be won this round, split among the seats still racing in
    proportion to their progress (position + 1 + the hand card's edge)."""
    left = float(sum(RACE_POINTS[len(st.finished) :]))
    racing = [s for s in range(st.n) if s not in st.finished]
    if not racing or left == 0.0:
        return {}
    progress = {s: st.pos[s] + 1 + HAND_WEIGHT * max(0, st.hands[s] - 2) for s in racing}
    total = sum(progress.values())
    return {s: left * p / total for s, p in progress.items()}


def rollout_action(state: GameState, seat: Seat, actions: list[Action], rng: Rng) -> Action:
    """A cheap, decent move for playouts: bid 1 or 2 (at random, as coins allow), then seal;
    in the race rest first, then dash with a 3 or 4 in hand, else run 2."""
    st = _bid_race(state)
    if ("rest",) in actions:
        return ("rest",)
    if st.phase == BID:
        bids = [a for a in actions if a[0] == "bid" and a[1] in (1, 2)]
        if bids:
            return bids[rng.randbelow(len(bids))]
        return actions[0]
    if ("dash",) in actions and st.hands[seat] >= 3:
        return ("dash",)
    return ("run", 2) if ("run", 2) in actions else actions[0]


def _bid_race(state: GameState) -> BidRaceState:
    if not isinstance(state, BidRaceState):
        raise TypeError(f"not a Bid and Race state: {type(state).__name__}")
    return state
