"""The engine contract shared by every game: see :mod:`game.core.api`."""

from game.core.api import Game, GameState, OptionSpec
from game.core.match import Agent, Bot, MatchResult, Replay, play_match
from game.core.registry import all_games, game_ids, get_game
from game.core.rng import Rng, derive_seed
from game.core.types import (
    Action,
    BadOptions,
    BadState,
    Event,
    GameError,
    IllegalAction,
    Options,
    Score,
    Seat,
)

__all__ = [
    "Action",
    "Agent",
    "BadOptions",
    "BadState",
    "Bot",
    "Event",
    "Game",
    "GameError",
    "GameState",
    "IllegalAction",
    "MatchResult",
    "OptionSpec",
    "Options",
    "Replay",
    "Rng",
    "Score",
    "Seat",
    "all_games",
    "derive_seed",
    "game_ids",
    "get_game",
    "play_match",
]
