"""The Glen More :class:`~game.core.api.Game`: its description, options and factory."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game.core.api import Game
from game.core.rng import Rng
from game.core.types import BadOptions, Options
from game.glen_more import serialize
from game.glen_more.codes import GAME_ID
from game.glen_more.options import OPTIONS, resolve
from game.glen_more.state import GlenMoreState


@dataclass(frozen=True)
class GlenMoreGame(Game):
    """Glen More (Matthias Cramer, alea 2010) for 2–5 players (GM §1); the neutral die figure
    joins games of 2 and 3 (GM §9)."""

    def new(self, players: int, options: Options | None, seed: int) -> GlenMoreState:
        """A new game at the start player's first decision (GM §2 setup).

        The setup draws from the state's RNG in this order: the start seat (if ``"random"``),
        then the shuffles of stacks 0, 1, 2 and 3.
        """
        if isinstance(players, bool) or not isinstance(players, int):
            raise BadOptions(f"the number of players must be an integer, not {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise BadOptions(
                f"Glen More takes {self.min_players} to {self.max_players} players, not {players}"
            )
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise BadOptions(f"the seed must be an integer, not {seed!r}")
        rng = Rng(seed)
        setup = resolve(players, options, rng)
        state = GlenMoreState.empty_state(players, setup.start_seat, setup.clan_on_place, rng)
        state.setup()
        return state

    def from_dict(self, data: dict[str, Any]) -> GlenMoreState:
        """Rebuild a saved state; raises BadState for anything malformed."""
        return serialize.from_dict(data)


GAME = GlenMoreGame(
    id=GAME_ID,
    title="Glen More",
    min_players=2,
    max_players=5,
    # 2: clan members are unlimited (issue 20); a version-1 replay may play out differently.
    rules_version=2,
    options=OPTIONS,
    simultaneous=False,
    secrets=True,
    chance=True,
)
