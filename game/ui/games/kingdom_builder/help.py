"""The help overlay's Kingdom Builder pages: rules summary, location tiles, cards."""

from __future__ import annotations

from typing import Any

from game.ui.games.kingdom_builder.common import CARD_NAMES, LOCATION_TYPES, TERRAINS
from game.ui.games.kingdom_builder.text import card_name, terrain_name, tile_name
from game.ui.i18n import t


def _rules_blocks() -> list[tuple[str, ...]]:
    blocks: list[tuple[str, ...]] = []
    for part in ("goal", "setup", "turn", "placement", "tiles", "end", "scoring", "decisions"):
        blocks.append(("h", t(f"kb.help.{part}.title")))
        blocks.append(("p", t(f"kb.help.{part}")))
    blocks.append(("h", t("kb.help.terrain.title")))
    for code in TERRAINS:
        blocks.append(("item", terrain_name(code), t(f"kb.terrain.{code}.text")))
    return blocks


def _tile_blocks() -> list[tuple[str, ...]]:
    blocks: list[tuple[str, ...]] = [("p", t("kb.help.tiles_intro"))]
    for i, tile in enumerate(LOCATION_TYPES):
        if i == 8:
            blocks.append(("h", t("kb.help.nomads_tiles")))
        blocks.append(("item", tile_name(tile), t(f"kb.tile.{tile}.text")))
    return blocks


def _card_blocks() -> list[tuple[str, ...]]:
    blocks: list[tuple[str, ...]] = [("p", t("kb.help.cards_intro"))]
    blocks.append(("item", t("kb.card.castles"), t("kb.card.castles.text")))
    for card in CARD_NAMES:
        blocks.append(("item", card_name(card), t(f"kb.card.{card}.text")))
    return blocks


def help_pages() -> list[tuple[Any, Any]]:
    """Pages of the help overlay: rules summary, location tiles, Kingdom Builder cards."""
    return [
        (lambda: t("kb.help.page.rules"), _rules_blocks),
        (lambda: t("kb.help.page.tiles"), _tile_blocks),
        (lambda: t("kb.help.page.cards"), _card_blocks),
    ]
