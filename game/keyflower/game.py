"""The Keyflower :class:`~game.core.api.Game`: its description and factory."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game.core.api import Game
from game.core.rng import Rng
from game.core.types import BadOptions, Event, Options
from game.keyflower import seasons, serialize
from game.keyflower.const import GAME_ID
from game.keyflower.state import KeyflowerState


@dataclass(frozen=True)
class KeyflowerGame(Game):
    """Keyflower (Sebastian Bleasdale and Richard Breese, R&D Games / Huch! 2012), base game,
    for 2–6 players (KF §0)."""

    def new(self, players: int, options: Options | None, seed: int) -> KeyflowerState:
        """A new game at the spring start player's first decision (KF §3 setup, KF §4.1).

        Keyflower has no options; ``options`` must be empty (or ``None``)."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise BadOptions(f"the number of players must be an integer, not {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise BadOptions(
                f"Keyflower takes {self.min_players} to {self.max_players} players, not {players}"
            )
        if options is not None and not isinstance(options, dict):
            raise BadOptions("options must be a dict of option name to value")
        if options:
            raise BadOptions(f"Keyflower has no options (got {', '.join(map(str, options))})")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise BadOptions(f"the seed must be an integer, not {seed!r}")
        state = KeyflowerState.empty(players, Rng(seed))
        events: list[Event] = []
        seasons.setup(state, events)
        return state

    def from_dict(self, data: dict[str, Any]) -> KeyflowerState:
        """Rebuild a saved state; raises BadState for anything malformed."""
        return serialize.from_dict(data)


GAME = KeyflowerGame(
    id=GAME_ID,
    title="Keyflower",
    min_players=2,
    max_players=6,
    rules_version=1,
    options=(),
    simultaneous=True,
    secrets=True,
    chance=True,
)
