"""Words of the Kingdom Builder table: names of terrains, tiles and cards, the status line,
hover texts, log lines and action descriptions — all through :func:`~game.ui.i18n.t` with the
game's own catalogue (``locales/kingdom-builder/``)."""

from __future__ import annotations

from typing import Any

from game.kingdom_builder.state import MOVE_TILES
from game.ui.games.base import Action, LogLine
from game.ui.games.kingdom_builder.common import TERRAINS, Hex, KBBase, hex_of, neighbours
from game.ui.i18n import has, t


def terrain_name(code: str) -> str:
    return t(f"kb.terrain.{code}")


def tile_name(tile_type: str) -> str:
    key = f"kb.tile.{tile_type}"
    return t(key) if has(key) else tile_type


def card_name(card: str) -> str:
    key = f"kb.card.{card}"
    return t(key) if has(key) else card


def category_name(key: str) -> str:
    if key == "castles":
        return t("kb.card.castles")
    if key == "gold":
        return t("kb.gold")
    return card_name(key)


def _terrain_of(event: dict[str, Any]) -> str:
    """The name of an event's terrain card ("?" if the event has none: nothing is made up)."""
    code = event.get("terrain")
    return terrain_name(code) if isinstance(code, str) and code and code in TERRAINS else "?"


def card_text_key(key: str) -> str:
    if key == "castles":
        return "kb.card.castles.text"
    if key == "gold":
        return "kb.gold.text"
    return f"kb.card.{key}.text"


def card_short_key(key: str) -> str:
    if key == "castles":
        return "kb.card.castles.short"
    if key == "gold":
        return "kb.gold.short"
    return f"kb.card.{key}.short"


def option_value_label(option: str, value: object) -> str:
    """Names of option values in the setup screen: sections by their location, cards."""
    if option == "sections" and isinstance(value, str):
        return tile_name(value)
    if option == "cards" and isinstance(value, str):
        return card_name(value)
    return str(value)


class TextMixin(KBBase):
    """Status line, hover texts, log lines."""

    def _name(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.seats):
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
        if current != you or not self.legal:
            who = self.seats[current] if 0 <= current < len(self.seats) else None
            if who is not None and who.kind == "bot":
                return t("kb.status.bot_thinking", name=who.name)
            return t("kb.status.waiting", name=self._name(current))
        pending = turn.get("pending")
        if pending:
            tile = tile_name(pending["tile"])
            step = pending.get("step")
            if step == "source":
                return t("kb.status.choose_source", tile=tile)
            if step == "wall":
                return t("kb.status.choose_wall", tile=tile)
            if step == "second_wall":
                return t("kb.status.second_wall", tile=tile)
            if pending["tile"] in MOVE_TILES:
                return t("kb.status.choose_destination", tile=tile)
            return t("kb.status.choose_build", tile=tile)
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

    def describe_action(self, action: Action) -> str:
        kind = action[0]
        if kind in ("place", "move_from", "wall") and len(action) == 3:
            return t(f"kb.describe.{kind}", hex=f"({action[1]}, {action[2]})")
        if kind == "use" and len(action) == 3:
            loc = self.locations.get((action[1], action[2]))
            return t("kb.describe.use", tile=tile_name(loc["type"]) if loc else "?")
        return t(f"kb.describe.{kind}") if has(f"kb.describe.{kind}") else str(action)

    def describe_event(self, ev: dict[str, Any]) -> LogLine | None:
        kind = ev.get("type")
        seat = ev.get("seat")
        name = self._name(seat)
        board = self.view.get("board") or []

        def where(value: Any) -> str:
            """The hex's terrain (from the board of the view being shown) and coordinates;
            only the coordinates when the board is not known."""
            h = hex_of(value)
            place = f"({h[0]}, {h[1]})"
            if 0 <= h[0] < len(board) and 0 <= h[1] < len(board[h[0]]):
                return f"{terrain_name(board[h[0]][h[1]])} {place}"
            return place

        if kind == "place":
            if ev.get("tile"):
                return LogLine(
                    seat,
                    t(
                        "kb.log.place_tile",
                        name=name,
                        where=where(ev["hex"]),
                        tile=tile_name(ev["tile"]),
                    ),
                )
            return LogLine(seat, t("kb.log.place", name=name, where=where(ev["hex"])))
        if kind == "move":
            return LogLine(
                seat,
                t(
                    "kb.log.move",
                    name=name,
                    frm=f"({ev['from'][0]}, {ev['from'][1]})",
                    to=where(ev["to"]),
                    tile=tile_name(ev.get("tile") or ""),
                ),
            )
        if kind == "gain_tile":
            return LogLine(seat, t("kb.log.gain_tile", name=name, tile=tile_name(ev["tile_type"])))
        if kind == "lose_tile":
            return LogLine(seat, t("kb.log.lose_tile", name=name, tile=tile_name(ev["tile_type"])))
        if kind == "use":
            return LogLine(seat, t("kb.log.use", name=name, tile=tile_name(ev["tile_type"])))
        if kind == "wall":
            return LogLine(seat, t("kb.log.wall", name=name, where=where(ev["hex"])))
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
            return LogLine(seat, t("kb.log.undo", name=name))
        return None

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
            lines.append(t("kb.hover.location", tile=tile_name(loc["type"]), n=loc.get("tiles", 0)))
            lines.append(t(f"kb.tile.{loc['type']}.text"))
            if ("use", h[0], h[1]) in self.legal:
                lines.insert(0, t("kb.hover.use_tile", tile=tile_name(loc["type"])))
        elif code == "K":
            lines.append(t("kb.hover.castle"))
        elif code == "N":
            lines.append(t("kb.hover.nomad"))
        else:
            lines.append(terrain_name(code) + f"  ({h[0]}, {h[1]})")
        return "\n".join(lines)

    def _gain_at(self, h: Hex) -> dict[str, Any] | None:
        """The view's ``gains`` entry of a placement on ``h`` (the engine's hover preview)."""
        for entry in self.view.get("gains") or []:
            if isinstance(entry, dict) and hex_of(entry.get("hex", (-1, -1))) == h:
                return entry
        return None

    def _tile_at(self, h: Hex) -> str:
        """The name of the tile a location or nomad hex gives."""
        if h in self.locations:
            return tile_name(str(self.locations[h]["type"]))
        for nomad in self.view.get("nomads") or []:
            if isinstance(nomad, dict) and hex_of(nomad.get("hex", (-1, -1))) == h:
                return tile_name(str(nomad.get("tile") or "?"))
        return "?"

    def _gain_text(self, entry: dict[str, Any]) -> str:
        """What a placement would gain, as the engine computed it (``view["gains"]``): the
        tiles it takes and loses, and — with the score preview on — how the score would
        change if the game ended now, by category."""
        text = ""
        take = [self._tile_at(hex_of(x)) for x in entry.get("take") or []]
        lose = [self._tile_at(hex_of(x)) for x in entry.get("lose") or []]
        if take:
            text += "\n" + t("kb.hover.gains", tiles=", ".join(take))
        if lose:
            text += "\n" + t("kb.hover.loses", tiles=", ".join(lose))
        points = entry.get("points") or {}
        total = entry.get("total", 0)
        if self.app.settings.score_preview and isinstance(points, dict) and points:
            parts = ", ".join(f"{category_name(str(k))} {int(v):+d}" for k, v in points.items())
            text += "\n" + t("kb.hover.points", total=f"{int(total):+d}", parts=parts)
        return text

    def _action_hint(self, action: Action, h: Hex) -> str:
        turn = self.view.get("turn") or {}
        pending = turn.get("pending")
        kind = action[0]
        if kind == "move_from":
            return t("kb.hover.move_from", tile=tile_name(pending["tile"]) if pending else "")
        if kind == "wall":
            return t("kb.hover.wall_here")
        if pending and pending.get("tile") in MOVE_TILES:
            text = t("kb.hover.move_to")
        else:
            text = t("kb.hover.build")
        entry = self._gain_at(h)
        if entry is not None:
            return text + self._gain_text(entry)
        # An older host's view without ``gains``: the location hexes next to the target that
        # still have tiles for this seat (KB §6.1).
        you = self.view.get("you")
        taken: set[Hex] = set()
        if you is not None:
            seat = self.view["seats"][you]
            taken = {hex_of(x) for x in seat.get("taken_from", [])}
        gains = [
            tile_name(self.locations[n]["type"])
            for n in neighbours(*h)
            if n in self.locations and self.locations[n].get("tiles", 0) > 0 and n not in taken
        ]
        if gains:
            text += "\n" + t("kb.hover.gains", tiles=", ".join(gains))
        return text
