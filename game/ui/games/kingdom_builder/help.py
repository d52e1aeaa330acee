"""The help overlay's Kingdom Builder pages: rules summary (with the rules notes: how this table
decides the cases the rules leave open), location and nomad tiles, the cards."""

from __future__ import annotations

from typing import Any

from game.kingdom_builder import nomads as nm
from game.ui.games.kingdom_builder.common import (
    CARD_NAMES,
    LOCATION_TYPES,
    NOMAD_CARD_NAMES,
    NOMAD_TILE_TYPES,
    TERRAINS,
)
from game.ui.games.kingdom_builder.text import (
    card_name,
    nomad_text,
    terrain_name,
    tile_name,
)
from game.ui.i18n import has, t


def open_detail_keys() -> list[tuple[str, dict[str, str]]]:
    """The Nomads details the rules still mark as open, from the engine's data
    (``nomads.OPEN_DETAILS``), each with the catalogue key of its note: ``kb.help.open.<the
    tile it is about>`` (the detail's first word)."""
    out = []
    for detail in nm.OPEN_DETAILS:
        topic = str(detail.get("detail", "")).split(":", 1)[0].strip()
        out.append((f"kb.help.open.{topic}", detail))
    return out


def rules_notes() -> list[tuple[str, ...]]:
    """The rules notes shown to players: every open Nomads detail with the decision taken (in
    the player's language; the data's English words for a detail without a translation), then
    the other decisions worth knowing."""
    blocks: list[tuple[str, ...]] = [("p", t("kb.help.notes_intro"))]
    for key, detail in open_detail_keys():
        if has(key) and has(key + ".title"):
            blocks.append(("item", t(key + ".title"), t(key)))
        else:
            title = str(detail.get("detail", "")).split(":", 1)[0]
            blocks.append(("item", title, str(detail.get("decision", ""))))
    for note in ("lords", "move", "resettlement", "outpost"):
        blocks.append(("item", t(f"kb.help.note.{note}.title"), t(f"kb.help.note.{note}")))
    return blocks


def _rules_blocks() -> list[tuple[str, ...]]:
    blocks: list[tuple[str, ...]] = []
    for part in ("goal", "setup", "turn", "placement", "tiles", "nomads", "end", "scoring"):
        blocks.append(("h", t(f"kb.help.{part}.title")))
        blocks.append(("p", t(f"kb.help.{part}")))
    blocks.append(("h", t("kb.help.decisions.title")))
    blocks.append(("p", t("kb.help.decisions")))
    blocks.append(("h", t("kb.help.notes.title")))
    blocks.extend(rules_notes())
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
    blocks.append(("h", t("kb.help.nomad_tiles.title")))
    blocks.append(("p", t("kb.help.nomad_tiles")))
    for tile in NOMAD_TILE_TYPES:
        blocks.append(("item", tile_name(tile), nomad_text(tile)))
    return blocks


def _card_blocks() -> list[tuple[str, ...]]:
    blocks: list[tuple[str, ...]] = [("p", t("kb.help.cards_intro"))]
    blocks.append(("item", t("kb.card.castles"), t("kb.card.castles.text")))
    for card in CARD_NAMES:
        blocks.append(("item", card_name(card), t(f"kb.card.{card}.text")))
    blocks.append(("h", t("kb.help.nomad_cards.title")))
    blocks.append(("p", t("kb.help.nomad_cards")))
    for card in NOMAD_CARD_NAMES:
        blocks.append(("item", card_name(card), t(f"kb.card.{card}.text")))
    blocks.append(("item", t("kb.category.treasure"), t("kb.category.treasure.text")))
    return blocks


def help_pages() -> list[tuple[Any, Any]]:
    """Pages of the help overlay: rules summary, location and nomad tiles, the cards."""
    return [
        (lambda: t("kb.help.page.rules"), _rules_blocks),
        (lambda: t("kb.help.page.tiles"), _tile_blocks),
        (lambda: t("kb.help.page.cards"), _card_blocks),
    ]
