"""The Kingdom Builder :class:`~game.core.api.Game`: its description, options and factory."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game.core.api import Game
from game.core.rng import Rng
from game.core.types import BadOptions, Options
from game.kingdom_builder import serialize
from game.kingdom_builder.board import board_for
from game.kingdom_builder.codes import GAME_ID
from game.kingdom_builder.nomads import FULL
from game.kingdom_builder.options import OPTIONS, resolve
from game.kingdom_builder.state import KingdomBuilderState


@dataclass(frozen=True)
class KingdomBuilderGame(Game):
    """Kingdom Builder (Donald X. Vaccarino, Queen Games 2012) for 2–4 players, 2–5 with the
    Nomads expansion (KB §1)."""

    def new(self, players: int, options: Options | None, seed: int) -> KingdomBuilderState:
        """A new game at the start player's first decision (KB §3 setup).

        The setup draws from the state's RNG in this order: sections, rotations, cards, start
        seat (those left ``"random"``), the nomad tiles (full Nomads, KB §3.3), then the terrain
        deck shuffle and one card per seat.
        """
        if isinstance(players, bool) or not isinstance(players, int):
            raise BadOptions(f"the number of players must be an integer, not {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise BadOptions(
                f"Kingdom Builder takes {self.min_players} to 4 players, {self.max_players} with "
                f"the Nomads expansion, not {players}"
            )
        if options is not None and not isinstance(options, dict):
            raise BadOptions("options must be a dict of option name to value")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise BadOptions(f"the seed must be an integer, not {seed!r}")
        rng = Rng(seed)
        setup = resolve(players, options, rng)
        board = board_for(setup.sections, setup.rotations)
        state = KingdomBuilderState.empty(
            board, players, setup.cards, setup.nomads, setup.start_seat, rng
        )
        if setup.nomads == FULL:
            state.lay_nomad_tiles()
        state.deal()
        return state

    def from_dict(self, data: dict[str, Any]) -> KingdomBuilderState:
        """Rebuild a saved state; raises BadState for anything malformed."""
        return serialize.from_dict(data)


GAME = KingdomBuilderGame(
    id=GAME_ID,
    title="Kingdom Builder",
    min_players=2,
    max_players=5,
    rules_version=2,
    options=OPTIONS,
)
