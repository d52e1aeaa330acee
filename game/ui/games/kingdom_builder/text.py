"""Words of the Kingdom Builder table: names of terrains, tiles and cards, the status line,
hover texts, log lines and action descriptions — all through :func:`~game.ui.i18n.t` with the
game's own catalogue (``locales/kingdom-builder/``).

What a placement would gain is never worked out here: the hover text and the hint's reasons
read the view's ``gains`` (the engine's preview change by category, the tiles taken and lost)
and only name each category's reason ("next to a castle: +3")."""

from __future__ import annotations

from typing import Any

from game.kingdom_builder.codes import MOVE_TILES
from game.ui.games.base import Action, LogLine
from game.ui.games.kingdom_builder.common import TERRAINS, TREASURE, Hex, KBBase, hex_of
from game.ui.i18n import has, plural, t


def terrain_name(code: str) -> str:
    key = f"kb.terrain.{code}"
    return t(key) if has(key) else "?"


def tile_name(tile_type: str) -> str:
    """A location tile's name, or a nomad tile type's (``Donation``, ``Sword``, ...)."""
    for key in (f"kb.tile.{tile_type}", f"kb.nomad.{tile_type}"):
        if has(key):
            return t(key)
    return tile_type


def nomad_name(tile: str, terrain: str | None = None) -> str:
    """A nomad tile's name: its type, with the terrain of a Donation tile."""
    if tile == "Donation" and isinstance(terrain, str) and terrain in TERRAINS:
        return t("kb.nomad.Donation.of", terrain=terrain_name(terrain))
    return tile_name(tile)


def nomad_text(tile: str) -> str:
    """What a nomad tile does (KB §7 "Nomad tiles")."""
    key = f"kb.nomad.{tile}.text"
    return t(key) if has(key) else ""


def nomad_abbr(tile: str) -> str:
    key = f"kb.nomad.{tile}.abbr"
    return t(key) if has(key) else tile[:2]


def card_name(card: str) -> str:
    key = f"kb.card.{card}"
    return t(key) if has(key) else card


def category_name(key: str) -> str:
    if key == "castles":
        return t("kb.card.castles")
    if key == TREASURE:
        return t("kb.category.treasure")
    return card_name(key)


def _terrain_of(event: dict[str, Any]) -> str:
    """The name of an event's terrain card ("?" if the event has none: nothing is made up)."""
    code = event.get("terrain")
    return terrain_name(code) if isinstance(code, str) and code and code in TERRAINS else "?"


def card_text_key(key: str) -> str:
    if key == "castles":
        return "kb.card.castles.text"
    if key == TREASURE:
        return "kb.category.treasure.text"
    return f"kb.card.{key}.text"


def card_short_key(key: str) -> str:
    if key == "castles":
        return "kb.card.castles.short"
    if key == TREASURE:
        return "kb.category.treasure.short"
    return f"kb.card.{key}.short"


def signed(points: int) -> str:
    """Points with their sign: "+3", "-1", "+0"."""
    return f"{int(points):+d}"


def why(category: str, points: int) -> str:
    """Why a placement changes ``category`` by ``points`` — the reason the category scores for
    (its rule, not a computation): "next to a castle: +3", "extends your largest area: +1"."""
    key = f"kb.why.{category}" if points > 0 else f"kb.why.{category}.less"
    if has(key):
        return t(key, points=signed(points))
    return t("kb.why.other", category=category_name(category), points=signed(points))


def fit_options(players: int, options: dict[str, object]) -> dict[str, object]:
    """Options for ``players`` seats: five players need the Nomads expansion (its fifth colour,
    KB §1.2), so the base game's setting becomes the full expansion — the engine's own reading
    of a 5-player game without the option (``docs/kingdom-builder.md``, Options)."""
    out = dict(options)
    if players >= 5 and out.get("nomads") in ("off", False):
        out["nomads"] = "full"
    return out


def option_value_label(option: str, value: object) -> str:
    """Names of option values in the setup screen: sections by their location, cards, how much
    of the Nomads expansion is in play."""
    if option == "sections" and isinstance(value, str):
        return tile_name(value)
    if option in ("cards", "exclude_cards") and isinstance(value, str):
        return card_name(value)
    if option == "nomads" and isinstance(value, str) and has(f"kb.option.nomads.{value}"):
        return t(f"kb.option.nomads.{value}")
    return str(value)


class TextMixin(KBBase):
    """Status line, hover texts, log lines."""

    def _name(self, seat: int | None) -> str:
        if seat is None or not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            return "?"
        return self.seats[seat].name

    def status(self) -> str:
        v = self.view
        if not v:
            return ""
        if v.get("over"):
            return t("kb.status.over")
        turn = v.get("turn") or {}
        current = v.get("current")
        you = v.get("you")
        if current is None:
            return ""
        if self.replaying:
            return self.replay_status([current])
        if current != you or not self.legal:
            who = self.seats[current] if 0 <= current < len(self.seats) else None
            if who is not None and who.kind == "bot":
                return t("kb.status.bot_thinking", name=who.name)
            return t("kb.status.waiting", name=self._name(current))
        pending = turn.get("pending")
        if pending:
            return self._pending_status(pending)
        terrain = terrain_name(turn.get("terrain", "G"))
        placed = int(turn.get("placed", 0))
        # How many the mandatory action can still build: the engine says so (``mandatory_left``:
        # 3 minus those placed, capped by the supply and the free hexes); an older host's view
        # lacks it, and then only "3 minus those placed" is known.
        left = turn.get("mandatory_left")
        if not isinstance(left, int) or isinstance(left, bool):
            left = 3 - placed
        if not turn.get("mandatory_done"):
            if placed == 0 and left == 3:
                if any(a[0] == "use" for a in self.legal):
                    return t("kb.status.build_three_or_tile", terrain=terrain)
                return t("kb.status.build_three", terrain=terrain)
            return t("kb.status.build_more", n=left, terrain=terrain)
        if any(a[0] == "use" for a in self.legal):
            return t("kb.status.tiles_or_end")
        return t("kb.status.end")

    def _pending_status(self, pending: dict[str, Any]) -> str:
        """What the tile action in progress asks for (``turn.pending``: its step and ``left``,
        what it can still do — the engine's count)."""
        kind = str(pending.get("tile", ""))
        tile = nomad_name(kind, pending.get("terrain")) if pending.get("nomad") else tile_name(kind)
        step = pending.get("step")
        left = pending.get("left")
        n = left if isinstance(left, int) and not isinstance(left, bool) else 1
        can_stop = ("stop",) in self.legal
        if kind == "Resettlement":
            if step == "source":
                key = "kb.status.resettle_source_stop" if can_stop else "kb.status.resettle_source"
                return t(key, tile=tile, n=n)
            return t("kb.status.resettle_target", tile=tile, n=n)
        if step == "victim":
            return t("kb.status.sword", tile=tile, n=n)
        if kind == "Donation":
            terrain = pending.get("terrain")
            return t(
                "kb.status.donation",
                tile=tile,
                n=n,
                terrain=terrain_name(terrain) if isinstance(terrain, str) else "?",
            )
        if step == "source":
            return t("kb.status.choose_source", tile=tile)
        if step == "wall":
            return t("kb.status.choose_wall", tile=tile)
        if step == "second_wall":
            return t("kb.status.second_wall", tile=tile)
        if kind in MOVE_TILES:
            return t("kb.status.choose_destination", tile=tile)
        return t("kb.status.choose_build", tile=tile)

    # ---- what a hex holds, by name -------------------------------------------------------------
    def _nomad_at(self, h: Hex) -> dict[str, Any] | None:
        """The view's ``nomads`` entry of the nomad hex ``h`` (its face-up tile, or none)."""
        return self.nomads.get(h)

    def _held_nomad(self, h: Hex) -> dict[str, Any] | None:
        """The nomad tile taken from the nomad hex ``h``, by whoever holds it."""
        for seat in self.view.get("seats", []):
            for tile in seat.get("nomad_tiles", []):
                if hex_of(tile.get("hex", (-1, -1))) == h:
                    return dict(tile)
        return None

    def _tile_at_name(self, h: Hex) -> str:
        """The name of the tile of the location or nomad hex ``h`` (for "takes a tile: ...")."""
        loc = self.locations.get(h)
        if loc is not None:
            return tile_name(str(loc["type"]))
        nomad = self._nomad_at(h)
        if nomad is not None and nomad.get("tile"):
            return nomad_name(str(nomad["tile"]), nomad.get("terrain"))
        held = self._held_nomad(h)
        if held is not None:
            return nomad_name(str(held.get("tile")), held.get("terrain"))
        return "?"

    def describe_action(self, action: Action) -> str:
        kind = action[0]
        if kind in ("place", "move_from", "wall", "remove") and len(action) == 3:
            return t(f"kb.describe.{kind}", hex=self._where((action[1], action[2])))
        if kind == "use" and len(action) == 3:
            return t("kb.describe.use", tile=self._tile_at_name((action[1], action[2])))
        return t(f"kb.describe.{kind}") if has(f"kb.describe.{kind}") else str(action)

    def _where(self, h: Hex) -> str:
        """The hex's terrain (from the board of the view being shown) and coordinates; only
        the coordinates when the board is not known."""
        board = self.view.get("board") or []
        place = f"({h[0]}, {h[1]})"
        if 0 <= h[0] < len(board) and 0 <= h[1] < len(board[h[0]]):
            return f"{terrain_name(board[h[0]][h[1]])} {place}"
        return place

    def describe_event(self, ev: dict[str, Any]) -> LogLine | None:
        kind = ev.get("type")
        seat = ev.get("seat")
        name = self._name(seat)
        try:
            return self._event_line(kind, seat, name, ev)
        except (KeyError, TypeError, ValueError, IndexError):
            return None  # an event without the fields its kind has: nothing to say

    def _event_line(self, kind: Any, seat: Any, name: str, ev: dict[str, Any]) -> LogLine | None:
        where = self._where
        if kind == "place":
            if ev.get("tile"):
                return LogLine(
                    seat,
                    t(
                        "kb.log.place_tile",
                        name=name,
                        where=where(hex_of(ev["hex"])),
                        tile=tile_name(str(ev["tile"])),
                    ),
                )
            return LogLine(seat, t("kb.log.place", name=name, where=where(hex_of(ev["hex"]))))
        if kind == "move":
            frm = hex_of(ev["from"])
            return LogLine(
                seat,
                t(
                    "kb.log.move",
                    name=name,
                    frm=f"({frm[0]}, {frm[1]})",
                    to=where(hex_of(ev["to"])),
                    tile=tile_name(str(ev.get("tile") or "")),
                ),
            )
        if kind == "gain_tile":
            return LogLine(seat, t("kb.log.gain_tile", name=name, tile=tile_name(ev["tile_type"])))
        if kind == "lose_tile":
            return LogLine(seat, t("kb.log.lose_tile", name=name, tile=tile_name(ev["tile_type"])))
        if kind == "use":
            return LogLine(seat, t("kb.log.use", name=name, tile=tile_name(ev["tile_type"])))
        if kind == "wall":
            return LogLine(seat, t("kb.log.wall", name=name, where=where(hex_of(ev["hex"]))))
        if kind in ("gain_nomad", "use_nomad"):
            tile = nomad_name(str(ev.get("tile")), ev.get("terrain"))
            return LogLine(seat, t(f"kb.log.{kind}", name=name, tile=tile))
        if kind == "discard_nomad":
            if ev.get("used"):
                return None  # its use was logged; the panel shows it gone
            tile = nomad_name(str(ev.get("tile")), ev.get("terrain"))
            return LogLine(seat, t("kb.log.discard_nomad", name=name, tile=tile))
        if kind == "remove":
            return LogLine(
                seat,
                t(
                    "kb.log.remove",
                    name=name,
                    victim=self._name(ev.get("victim")),
                    where=where(hex_of(ev["hex"])),
                ),
            )
        if kind == "gold":
            source = str(ev.get("source", ""))
            label = tile_name(source) if source == "Treasure" else card_name(source)
            return LogLine(
                seat, t("kb.log.gold", name=name, gold=int(ev.get("gold", 0)), source=label)
            )
        if kind == "turn":
            return LogLine(seat, t("kb.log.turn", name=name, terrain=_terrain_of(ev)))
        if kind == "card":
            if not self.show_private:
                return None
            return LogLine(seat, t("kb.log.card", terrain=_terrain_of(ev)))
        if kind == "reshuffle":
            return LogLine(None, t("kb.log.reshuffle"))
        if kind == "end_triggered":
            return LogLine(seat, t("kb.log.end_triggered", name=name))
        if kind == "game_over":
            return LogLine(None, t("kb.log.game_over"))
        if kind == "undo":
            key = "kb.log.restart" if ev.get("turn") else "kb.log.undo"
            return LogLine(seat, t(key, name=name))
        return None

    # ---- hover ---------------------------------------------------------------------------------
    def _hex_text(self, h: Hex) -> str:
        board = self.view.get("board") or []
        if not board:
            return ""
        code = board[h[0]][h[1]]
        lines: list[str] = []
        action = self.actions_at.get(h)
        if action is not None:
            lines.append(self._action_hint(action, h))
        owner = self.settlements.get(h)
        if owner is not None:
            lines.append(t("kb.hover.settlement", name=self._name(owner)))
        if h in self.walls:
            lines.append(t("kb.hover.wall"))
        if code == "L" and h in self.locations:
            loc = self.locations[h]
            lines.append(
                plural("kb.hover.location", int(loc.get("tiles", 0)), tile=tile_name(loc["type"]))
            )
            lines.append(t(f"kb.tile.{loc['type']}.text"))
            if ("use", h[0], h[1]) in self.legal:
                lines.insert(0, t("kb.hover.use_tile", tile=tile_name(loc["type"])))
        elif code == "K":
            lines.append(t("kb.hover.castle"))
        elif code == "N":
            lines.extend(self._nomad_hex_lines(h))
        else:
            lines.append(terrain_name(code) + f"  ({h[0]}, {h[1]})")
        return "\n".join(lines)

    def _nomad_hex_lines(self, h: Hex) -> list[str]:
        """A nomad hex: never buildable; its face-up tile and what it does, or who took it."""
        lines = [t("kb.hover.nomad")]
        nomad = self._nomad_at(h)
        if nomad is not None and nomad.get("tile"):
            tile = str(nomad["tile"])
            lines.append(
                t("kb.hover.nomad_tile", tile=nomad_name(tile, nomad.get("terrain")))
                + " "
                + nomad_text(tile)
            )
            lines.append(t("kb.hover.nomad_take"))
            return lines
        held = self._held_nomad(h)
        if held is not None:
            owner = next(
                (
                    s.get("seat")
                    for s in self.view.get("seats", [])
                    if any(hex_of(x["hex"]) == h for x in s.get("nomad_tiles", []))
                ),
                None,
            )
            tile = nomad_name(str(held.get("tile")), held.get("terrain"))
            if ("use", h[0], h[1]) in self.legal:
                lines.insert(0, t("kb.hover.use_tile", tile=tile))
            lines.append(t("kb.hover.nomad_held", tile=tile, name=self._name(owner)))
        elif self.view.get("expansion") == "full":
            lines.append(t("kb.hover.nomad_gone"))
        return lines

    def _gain_of(self, h: Hex) -> dict[str, Any] | None:
        """The view's ``gains`` entry of the placement on ``h`` (the seat to move only)."""
        for entry in self.view.get("gains") or []:
            if isinstance(entry, dict) and hex_of(entry.get("hex", (-1, -1))) == h:
                return entry
        return None

    def _reasons(self, entry: dict[str, Any]) -> list[str]:
        """A ``gains`` entry's score changes, category by category in scoring order, each with
        its reason ("next to a castle: +3")."""
        points = entry.get("points") or {}
        if not isinstance(points, dict):
            return []
        order = self._categories()
        cats = sorted(
            (c for c in points if isinstance(points[c], int) and points[c]),
            key=lambda c: (order.index(c) if c in order else len(order), c),
        )
        return [why(cat, int(points[cat])) for cat in cats]

    def gain_lines(self, h: Hex) -> list[str]:
        """What the placement on ``h`` would gain, from the view's ``gains``: the tiles it
        takes and (a move) loses, and — with the score preview on — how the score would change
        if the game ended now, each category with its reason."""
        entry = self._gain_of(h)
        if entry is None:
            return []
        lines: list[str] = []
        take = [self._tile_at_name(hex_of(x)) for x in entry.get("take") or []]
        if take:
            lines.append(t("kb.hover.gains", tiles=", ".join(take)))
        lose = [self._tile_at_name(hex_of(x)) for x in entry.get("lose") or []]
        if lose:
            lines.append(t("kb.hover.loses", tiles=", ".join(lose)))
        if self.app.settings.score_preview:
            reasons = self._reasons(entry)
            total = entry.get("total")
            if reasons and isinstance(total, int):
                lines.append(t("kb.hover.points", total=signed(total), parts=", ".join(reasons)))
            elif not take:
                lines.append(t("kb.hover.no_gain"))
        return lines

    def hint_reason(self, action: Action) -> str:
        """Why the hinted action is good, as far as the view says: a placement's gains."""
        if action[0] == "place" and len(action) == 3:
            entry = self._gain_of((action[1], action[2]))
            if entry is None:
                return ""
            take = [self._tile_at_name(hex_of(x)) for x in entry.get("take") or []]
            parts = self._reasons(entry)
            if take:
                parts.append(t("kb.hover.gains", tiles=", ".join(take)))
            return ", ".join(parts)
        return ""

    def _action_hint(self, action: Action, h: Hex) -> str:
        turn = self.view.get("turn") or {}
        pending = turn.get("pending")
        kind = action[0]
        if kind == "move_from":
            return t("kb.hover.move_from", tile=tile_name(pending["tile"]) if pending else "")
        if kind == "wall":
            return t("kb.hover.wall_here")
        if kind == "remove":
            return t("kb.hover.remove", name=self._name(self.settlements.get(h)))
        moving = isinstance(pending, dict) and pending.get("tile") in (*MOVE_TILES, "Resettlement")
        text = t("kb.hover.move_to") if moving else t("kb.hover.build")
        if not moving and int(turn.get("outpost") or 0) > 0:
            text += "\n" + t("kb.hover.outpost")
        gains = self.gain_lines(h)
        if gains:
            text += "\n" + "\n".join(gains)
        return text
