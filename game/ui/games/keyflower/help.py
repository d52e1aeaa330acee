"""The help overlay's Keyflower pages: the rules in short, every tile of the box (both sides,
cost and VP, written out from the data), boats, summer boats, turn-order and winter tiles, and
how the table is played."""

from __future__ import annotations

from typing import Any

from game.keyflower.tiles import TILES
from game.ui.games.keyflower.text import (
    boat_text,
    cost_text,
    face_name,
    season_name,
    side_text,
    tile_name,
)
from game.ui.i18n import t

RULE_PARTS = (
    "goal",
    "setup",
    "season",
    "turn",
    "bid",
    "use",
    "transport",
    "end",
    "place",
    "winter",
    "scoring",
    "decisions",
)


def _rules_blocks() -> list[tuple[str, ...]]:
    blocks: list[tuple[str, ...]] = []
    for part in RULE_PARTS:
        blocks.append(("h", t(f"kf.help.{part}.title")))
        blocks.append(("p", t(f"kf.help.{part}")))
    return blocks


def _tile_item(tile: Any) -> tuple[str, ...]:
    lines = []
    for i, side in enumerate(tile.sides):
        text = side_text(tile, i)
        if side.vp:
            text += " " + t("kf.vp", vp=side.vp)
        lines.append(f"{face_name(tile, side.face)}: {text}")
    if tile.cost is not None and tile.kind in ("home", "village"):
        lines.append(cost_text(tile))
    return ("item", tile_name(tile.id), "\n".join(lines))


def _tile_blocks() -> list[tuple[str, ...]]:
    blocks: list[tuple[str, ...]] = [("p", t("kf.help.tiles_intro"))]
    blocks.append(("h", t("kf.help.home_tiles")))
    blocks.append(_tile_item(next(x for x in TILES if x.kind == "home")))
    for season in range(3):
        blocks.append(("h", season_name(("spring", "summer", "autumn")[season])))
        for tile in TILES:
            if tile.season == season and tile.kind == "village":
                blocks.append(_tile_item(tile))
    return blocks


def _special_blocks() -> list[tuple[str, ...]]:
    blocks: list[tuple[str, ...]] = [("h", season_name("winter"))]
    blocks.append(("p", t("kf.help.winter_intro")))
    for tile in TILES:
        if tile.kind == "winter":
            blocks.append(("item", tile_name(tile.id), side_text(tile, 0)))
    blocks.append(("h", t("kf.help.summer_boats")))
    for tile in TILES:
        if tile.kind == "summer_boat":
            blocks.append(_tile_item(tile))
    blocks.append(("h", t("kf.help.boats")))
    for tile in TILES:
        if tile.kind == "boat":
            text = boat_text(tile, 0) + "\n" + t("kf.help.boat_players", n=tile.min_players)
            blocks.append(("item", tile_name(tile.id), text))
    blocks.append(("h", t("kf.help.turn_order")))
    blocks.append(("p", t("kf.help.turn_order_purple")))
    for tile in TILES:
        if tile.kind == "turn_order":
            blocks.append(("item", tile_name(tile.id), t("kf.effect.turn_order", n=tile.number)))
    return blocks


def _table_blocks() -> list[tuple[str, ...]]:
    blocks: list[tuple[str, ...]] = []
    for part in ("board", "village", "screen", "actions", "placement", "scoring", "keys"):
        blocks.append(("h", t(f"kf.help.table.{part}.title")))
        blocks.append(("p", t(f"kf.help.table.{part}")))
    return blocks


def help_pages() -> list[tuple[Any, Any]]:
    """Pages of the help overlay: rules, tiles, winter tiles and boats, this table."""
    return [
        (lambda: t("kf.help.page.rules"), _rules_blocks),
        (lambda: t("kf.help.page.tiles"), _tile_blocks),
        (lambda: t("kf.help.page.special"), _special_blocks),
        (lambda: t("kf.help.page.table"), _table_blocks),
    ]
