"""The one random number generator of a game state.

Every random draw of a game (shuffling the terrain deck, drawing keyples from the bag, flipping
tiles) comes from the :class:`Rng` stored *inside* the state.  Its whole state is one 64-bit
integer, so it serialises as a plain int, clones for free and replays identically on every
Python version.  (Python's own ``random`` only promises a stable ``random()`` across minor
versions, not ``shuffle`` or ``randrange``, so saves and replays must not depend on it.)

The generator is SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
generators", OOPSLA 2014): a 64-bit counter advanced by the golden-ratio constant and passed
through a mixing function.  It is fast in pure Python and passes BigCrush.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def mix64(z: int) -> int:
    """SplitMix64's finaliser: a bijective scramble of a 64-bit integer."""
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 & _MASK
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB & _MASK
    return z ^ (z >> 31)


def derive_seed(seed: int, *salt: int | str) -> int:
    """A new 64-bit seed from ``seed`` and a salt, e.g. one seed per bot seat.

    Deterministic across runs and platforms (no use of ``hash()``, which is randomised for str).
    """
    z = seed & _MASK
    for part in salt:
        if isinstance(part, str):
            for byte in part.encode("utf-8"):
                z = mix64((z + byte + _GOLDEN) & _MASK)
        else:
            z = mix64((z + (part & _MASK) + _GOLDEN) & _MASK)
    return mix64((z + _GOLDEN) & _MASK)


class Rng:
    """SplitMix64 with unbiased integer draws and a Fisher–Yates shuffle.

    The same seed gives the same sequence of draws on every platform and Python version.
    """

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        """The next raw 64-bit output."""
        self.state = (self.state + _GOLDEN) & _MASK
        return mix64(self.state)

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        if n == 1:
            return 0
        # Largest multiple of n that fits in 64 bits; reject draws above it.
        limit = ((1 << 64) // n) * n
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def randint(self, lo: int, hi: int) -> int:
        """A uniform integer in ``[lo, hi]`` (both ends included)."""
        return lo + self.randbelow(hi - lo + 1)

    def random(self) -> float:
        """A float in ``[0, 1)`` with 53 random bits."""
        return (self.next64() >> 11) / float(1 << 53)

    def choice(self, items: Sequence[T]) -> T:
        """One element of a non-empty sequence, uniformly."""
        return items[self.randbelow(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place (Fisher–Yates, from the end)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """``k`` distinct elements in random order."""
        pool = list(items)
        if not 0 <= k <= len(pool):
            raise ValueError("sample larger than population")
        for i in range(k):
            j = i + self.randbelow(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]

    def clone(self) -> Rng:
        return Rng(self.state)

    def __repr__(self) -> str:
        return f"Rng(state=0x{self.state:016x})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and other.state == self.state

    def __hash__(self) -> int:
        return hash(self.state)
