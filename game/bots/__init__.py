"""Bots that speak only the engine contract, so one bot plays every game.

:func:`make_bot` builds a bot by name with its own seed.  Names: ``random``.
"""

from __future__ import annotations

from collections.abc import Callable

from game.bots.random_bot import RandomBot
from game.core.match import Bot

#: name -> factory(seed, budget); ``budget`` (seconds per decision) matters to search bots only.
_FACTORIES: dict[str, Callable[[int, float | None], Bot]] = {
    "random": lambda seed, budget: RandomBot(seed),
}


def bot_names() -> list[str]:
    """Every name :func:`make_bot` accepts."""
    return list(_FACTORIES)


def make_bot(name: str, seed: int = 0, budget: float | None = None) -> Bot:
    """A new bot called ``name`` with its own RNG seeded from ``seed``.

    ``budget`` is the thinking time per decision in seconds for search bots (ignored by others).
    """
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known bots: {', '.join(bot_names())}") from None
    return factory(seed, budget)


__all__ = ["RandomBot", "bot_names", "make_bot"]
