"""The help overlay's Glen More pages: the rules in short (with the engine's decisions where the
rules leave a choice), every tile (cost, river or road, effects, points — from the tile data),
and how the table works (its keys)."""

from __future__ import annotations

from typing import Any

from game.ui.games.glen_more.common import TILES, slug
from game.ui.games.glen_more.text import (
    cost_text,
    edges_text,
    effect_lines,
    stack_name,
    tile_name,
)
from game.ui.i18n import t

#: The rules summary's sections, in order (``gm.help.<part>.title`` and ``gm.help.<part>``).
RULE_PARTS = (
    "goal",
    "setup",
    "track",
    "take",
    "pay",
    "place",
    "activate",
    "grey",
    "move",
    "market",
    "refill",
    "die",
    "rounds",
    "final",
    "decisions",
)
#: The table's help: how each part works (``gm.help.table.<part>``) and its keys.
TABLE_PARTS = ("track", "market", "territory", "step", "scoring")
KEYS = (
    ("1-9", "gm.help.key.numbers"),
    ("Enter", "gm.help.key.enter"),
    ("L", "gm.help.key.loch_ness"),
    ("C", "gm.help.key.chieftain"),
    ("Tab", "gm.help.key.tab"),
    ("Backspace", "gm.help.key.backspace"),
    ("Ctrl+Z / U", "gm.help.key.undo"),
    ("H", "gm.help.key.hint"),
    ("T", "gm.help.key.chat"),
    ("F1", "gm.help.key.help"),
)


def _rules_blocks() -> list[tuple[str, ...]]:
    blocks: list[tuple[str, ...]] = []
    for part in RULE_PARTS:
        blocks.append(("h", t(f"gm.help.{part}.title")))
        blocks.append(("p", t(f"gm.help.{part}")))
    return blocks


def tile_groups() -> list[list[dict[str, Any]]]:
    """The land tiles grouped by name, in the order of the data file (the start village
    first)."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for entry in TILES.values():
        groups.setdefault(slug(entry["name"]), []).append(entry)
    return list(groups.values())


def _tile_blocks() -> list[tuple[str, ...]]:
    blocks: list[tuple[str, ...]] = [("p", t("gm.help.tiles_intro"))]
    for group in tile_groups():
        first = group[0]
        count = sum(int(e.get("count", 1) or 1) for e in group if e.get("stack") is not None)
        title = tile_name(first["id"])
        if count:
            title = t("gm.help.tile_count", name=title, n=count)
        effects = ["\n".join(effect_lines(e["id"])) for e in group]
        same = len(set(effects)) == 1
        lines = [t(f"gm.category.{first['category']}")]
        if same:
            lines.append(effects[0])
        for entry, effect in zip(group, effects, strict=True):
            stack = entry.get("stack")
            where = stack_name(stack) if stack is not None else t("gm.help.start")
            n = int(entry.get("count", 1) or 1)
            variant = t(
                "gm.help.variant",
                id=entry["id"],
                where=where,
                n=n,
                cost=cost_text(entry["id"]),
                edges=edges_text(entry["id"]),
            )
            lines.append(variant if same else variant + "\n" + effect)
        blocks.append(("item", title, "\n".join(lines)))
    return blocks


def _table_blocks() -> list[tuple[str, ...]]:
    blocks: list[tuple[str, ...]] = []
    for part in TABLE_PARTS:
        blocks.append(("h", t(f"gm.help.table.{part}.title")))
        blocks.append(("p", t(f"gm.help.table.{part}")))
    blocks.append(("h", t("gm.help.keys")))
    blocks += [("item", k, t(v)) for k, v in KEYS]
    return blocks


def help_pages() -> list[tuple[Any, Any]]:
    """Pages of the help overlay: rules summary, the tiles, the table and its keys."""
    return [
        (lambda: t("gm.help.page.rules"), _rules_blocks),
        (lambda: t("gm.help.page.tiles"), _tile_blocks),
        (lambda: t("gm.help.page.table"), _table_blocks),
    ]
