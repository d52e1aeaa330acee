"""The market (warehouse) and what a player can pay (GM §4.1, §6).

Each resource has a row of spaces priced 1, 2, 3 (``tiles.PRICES``); a row is stored as the
number of filled spaces.  *Buying* pays the price of the lowest empty space and fills it (the
cube goes straight into a payment); *selling* returns a cube to the stock and takes the coins
of the highest filled space.  Whisky and clan members are never traded.

**What can be paid (D8, D9).**  A payment is a number of cubes of given kinds (``need``) plus
``any`` cubes of any kinds (Loch Oich, the grocer).  It can be paid when some choice of
delivered cubes, taken from the player's tiles or bought, costs no more coins than the player
has plus what selling the cubes left over would bring.  Buying and selling in one row cancel
out (the price of the space is the same both ways), so per row only the net change matters
and the order of the trades does not: sell first, then buy.
"""

from __future__ import annotations

from itertools import combinations

from game.glen_more.tiles import NRES, PRICES, ROW_SPACES

#: ``SELL[f][m]``: coins for selling ``m`` cubes into a row with ``f`` filled spaces (at most
#: ``f`` can be sold).
SELL: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(PRICES[f - 1 - i] for i in range(min(m, f))) for m in range(ROW_SPACES + 1))
    for f in range(ROW_SPACES + 1)
)
#: ``BUY[f][b]``: coins for buying ``b`` cubes from a row with ``f`` filled spaces (-1: the
#: row has no room for them).
BUY: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(PRICES[f + i] for i in range(b)) if f + b <= ROW_SPACES else -1 for b in range(4))
    for f in range(ROW_SPACES + 1)
)
#: Coins in a row with ``f`` filled spaces.
ROW_COINS: tuple[int, ...] = tuple(sum(PRICES[:f]) for f in range(ROW_SPACES + 1))


def buy_price(fill: int) -> int:
    """The price of the next cube of a row with ``fill`` filled spaces (0: the row is full)."""
    return PRICES[fill] if fill < ROW_SPACES else 0


def sell_price(fill: int) -> int:
    """The coins for selling one cube into a row with ``fill`` filled spaces (0: empty row)."""
    return PRICES[fill - 1] if fill > 0 else 0


def _spreads(n: int) -> tuple[tuple[int, ...], ...]:
    """Every way to spread ``n`` cubes over the five kinds."""
    if n == 0:
        return ((0,) * NRES,)
    out = []
    for rest in _spreads(n - 1):
        for k in range(NRES):
            v = list(rest)
            v[k] += 1
            out.append(tuple(v))
    return tuple(sorted(set(out)))


#: ``SPREADS[n]``: the distributions of ``n`` any-kind cubes (n <= 3 in the data).
SPREADS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(_spreads(n) for n in range(4))

#: Every non-empty set of kinds as a tuple of indices, by size then in order (fairs, GM §4.3).
KIND_SETS: tuple[tuple[int, ...], ...] = tuple(
    s for size in range(1, NRES + 1) for s in combinations(range(NRES), size)
)


def _balance(deliver: tuple[int, ...] | list[int], have: list[int], fill: list[int]) -> int | None:
    """Net coins from delivering ``deliver`` (per kind) while selling every cube left over:
    positive = coins gained; ``None`` if some row cannot supply the cubes to buy."""
    total = 0
    for k in range(NRES):
        d = deliver[k]
        h = have[k]
        f = fill[k]
        if d <= h:
            m = h - d
            total += SELL[f][m if m < f else f]
        else:
            b = d - h
            if b > 3:
                return None
            cost = BUY[f][b]
            if cost < 0:
                return None
            total -= cost
    return total


def can_pay(need: list[int], any_n: int, have: list[int], fill: list[int], coins: int) -> bool:
    """Whether ``need`` (cubes per kind) plus ``any_n`` cubes of any kinds can be paid from
    ``have`` (the player's cubes per kind) and the market (rows ``fill``) with ``coins``,
    selling whatever is not delivered (GM §4.1 D9)."""
    if any_n == 0:
        bal = _balance(need, have, fill)
        return bal is not None and bal + coins >= 0
    if any_n >= len(SPREADS):
        return False
    for spread in SPREADS[any_n]:
        deliver = [need[k] + spread[k] for k in range(NRES)]
        bal = _balance(deliver, have, fill)
        if bal is not None and bal + coins >= 0:
            return True
    return False


def can_pay_after_own(
    k: int, need: list[int], any_n: int, have: list[int], fill: list[int], coins: int
) -> bool:
    """Whether the rest of the payment can still be paid after handing in one own cube of
    kind ``k`` (counted against ``need[k]`` if it asks for ``k``, else against ``any_n``)."""
    if have[k] <= 0:
        return False
    need2 = list(need)
    any2 = any_n
    if need2[k] > 0:
        need2[k] -= 1
    elif any2 > 0:
        any2 -= 1
    else:
        return False
    have2 = list(have)
    have2[k] -= 1
    return can_pay(need2, any2, have2, fill, coins)


def can_pay_after_buy(
    k: int, need: list[int], any_n: int, have: list[int], fill: list[int], coins: int
) -> bool:
    """Whether buying one cube of kind ``k`` now (with the coins in hand) for this payment
    leaves the rest payable."""
    f = fill[k]
    if f >= ROW_SPACES or coins < PRICES[f]:
        return False
    need2 = list(need)
    any2 = any_n
    if need2[k] > 0:
        need2[k] -= 1
    elif any2 > 0:
        any2 -= 1
    else:
        return False
    fill2 = list(fill)
    fill2[k] += 1
    return can_pay(need2, any2, have, fill2, coins - PRICES[f])
