"""Helpers shared by the subcommands: parsing game, player and bot arguments."""

from __future__ import annotations

import argparse
import json
from typing import Any

from game.bots import bot_names
from game.cli import UsageError
from game.core.api import Game
from game.core.registry import UnknownGame, game_ids, get_game


def resolve_game(game_id: str, players: int | None = None) -> Game:
    """The game called ``game_id``, checking the player count if given."""
    try:
        game = get_game(game_id)
    except UnknownGame as exc:
        raise UsageError(str(exc)) from None
    if players is not None and not game.min_players <= players <= game.max_players:
        raise UsageError(
            f"{game.title} takes {game.min_players} to {game.max_players} players, not {players}"
        )
    return game


def parse_bots(spec: str, players: int) -> list[str]:
    """``--bots``: one name for every seat, or a comma list with one name per seat."""
    names = [s.strip() for s in spec.split(",") if s.strip()]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise UsageError(f"--bots needs one name or {players} comma-separated names, got {spec!r}")
    known = bot_names()
    for name in names:
        if name not in known:
            raise UsageError(f"unknown bot {name!r}; known bots: {', '.join(known)}")
    return names


def parse_options(text: str | None) -> dict[str, Any]:
    """``--options``: a JSON object of game options, with the shape a table accepts from a
    player (``net.protocol.options_map``: at most 64 options, each a value or a flat list)."""
    from net.protocol import ProtocolError, options_map

    if not text:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"--options is not valid JSON: {exc}") from None
    except RecursionError:
        raise UsageError("--options is nested too deeply") from None
    if not isinstance(value, dict):
        raise UsageError("--options must be a JSON object")
    try:
        return options_map("--options", value)
    except ProtocolError as exc:
        raise UsageError(exc.text) from None


def options_argument(text: str) -> dict[str, Any]:
    """:func:`parse_options` as an ``argparse`` ``type=`` (the benchmarks' ``--options``): a
    bad value is the parser's usage error."""
    try:
        return parse_options(text)
    except UsageError as exc:
        # argparse names the argument itself ("argument --options: ...")
        raise argparse.ArgumentTypeError(str(exc).removeprefix("--options").lstrip(": ")) from None


def game_choices() -> list[str]:
    return game_ids()
