"""Input on the Kingdom Builder table: a click on a highlighted hex or a tile button chooses
exactly one action of the seat's ``legal`` list (or nothing); keys 1-9 use tiles; the mouse
over the map, a tile or a card explains what a click would do."""

from __future__ import annotations

from typing import Any

import pygame

from game.ui.games.base import Action
from game.ui.games.kingdom_builder.common import Hex, hex_of
from game.ui.games.kingdom_builder.text import (
    TextMixin,
    card_text_key,
    category_name,
    nomad_name,
    nomad_text,
    terrain_name,
    tile_name,
)
from game.ui.i18n import t


class InputMixin(TextMixin):
    """Clicks, keys and hover."""

    @staticmethod
    def tile_label(tile: dict[str, Any]) -> str:
        """The name on a tile button: a location tile's, or a nomad tile's (``nomad``)."""
        if tile.get("nomad"):
            return nomad_name(str(tile.get("type")), tile.get("terrain"))
        return tile_name(str(tile.get("type")))

    @staticmethod
    def tile_text(tile: dict[str, Any]) -> str:
        if tile.get("nomad"):
            return nomad_text(str(tile.get("type")))
        return t(f"kb.tile.{tile.get('type')}.text")

    def hex_at(self, pos: tuple[int, int]) -> Hex | None:
        return self.hexes.hex_at(*pos) if self.hexes is not None else None

    def click(self, pos: tuple[int, int]) -> Action | None:
        for rect, action, _tile in self.tile_buttons:
            if rect.collidepoint(pos):
                return action
        h = self.hex_at(pos)
        if h is None:
            return None
        action = self.actions_at.get(h)
        if action is not None:
            return action
        # A click on a location hex uses the tile taken from it, when that is legal.
        use = ("use", h[0], h[1])
        return use if use in self.legal else None

    def intent(self, pos: tuple[int, int]) -> Action | None:
        """What a click at ``pos`` asks for, legal or not: a tile button's ``use``; on the map
        the legal action there, else the kind the turn's step asks for (a tile action's next
        step; else a build, or ``use`` of a tile held from that location or nomad hex)."""
        v = self.view
        if not v or v.get("over") or v.get("you") is None:
            return None
        for rect, _action, tile in self.tile_buttons:
            if rect.collidepoint(pos):
                return ("use", int(tile["hex"][0]), int(tile["hex"][1]))
        h = self.hex_at(pos) if self.board_rect.collidepoint(pos) else None
        if h is None:
            return None
        action = self.actions_at.get(h)
        if action is not None:
            return action
        use = ("use", h[0], h[1])
        if use in self.legal:
            return use
        pending = (v.get("turn") or {}).get("pending")
        if isinstance(pending, dict) and v.get("current") == v.get("you"):
            step = pending.get("step")
            kind = {"source": "move_from", "victim": "remove", "wall": "wall"}.get(str(step))
            if step == "second_wall":
                kind = "wall"
            return (kind or "place", h[0], h[1])
        if any(hex_of(x.get("hex", (-1, -1))) == h for x in self._own_tiles()):
            return use
        return ("place", h[0], h[1])

    def reason_params(self, params: dict[str, Any]) -> dict[str, Any]:
        """Kingdom Builder's refusal params in words (``game/kingdom_builder/explain.py``):
        terrain letters, tile types and seat numbers become names."""
        out: dict[str, Any] = dict(params)
        for name in ("terrain", "allowed"):
            if isinstance(params.get(name), str):
                out[name] = terrain_name(params[name])
        tile = params.get("tile")
        if isinstance(tile, str):
            terrain = params.get("tile_terrain")
            out["tile"] = nomad_name(tile, terrain if isinstance(terrain, str) else None)
        for name in ("seat", "current"):
            if isinstance(params.get(name), int) and not isinstance(params.get(name), bool):
                out[name] = self._name(params[name])
        return out

    def key(self, event: pygame.event.Event) -> Action | None:
        """Keys 1-9 use the seat's tiles in the order shown."""
        if pygame.K_1 <= event.key <= pygame.K_9:
            index = event.key - pygame.K_1
            usable = [b for b in self.tile_buttons if b[1] is not None]
            if index < len(usable):
                return usable[index][1]
        return None

    def mouse_moved(self, pos: tuple[int, int]) -> None:
        self.mouse = pos
        self.hover_hex = self.hex_at(pos) if self.board_rect.collidepoint(pos) else None
        hovered = -1
        for i, (rect, _a, _t) in enumerate(self.tile_buttons):
            if rect.collidepoint(pos):
                hovered = i
        if hovered != self._hover_button:
            self._hover_button = hovered
            self.panel_surf = None
        self.hover_focus = self._hovered_category(pos)

    def _hovered_category(self, pos: tuple[int, int]) -> tuple[str, int] | None:
        """After the game: a seat's score chip, or a category row (for the seat shown, else the
        leader), points at what the map should show."""
        if not self.score_details or not self.scoring_done():
            return None
        for rect, key, seat in self.score_chips:
            if rect.collidepoint(pos):
                return (key, seat)
        for rect, key in self.card_rows:
            if rect.collidepoint(pos):
                you = self.view.get("you")
                if you is None:
                    scores = self.view.get("preview") or self.view.get("scores", [])
                    you = max(range(len(scores)), key=lambda s: scores[s].get("total", 0))
                return (key, int(you))
        return None

    def hover(self, pos: tuple[int, int]) -> str:
        for rect, action, tile in self.tile_buttons:
            if rect.collidepoint(pos):
                name = self.tile_label(tile)
                text = f"{name}: {self.tile_text(tile)}"
                if action is not None:
                    return t("kb.hover.use_tile", tile=name) + "\n" + text
                state = str(tile.get("state", "ready"))
                if state == "ready":
                    state = "ready_idle"
                prefix = "kb.nomad_state." if tile.get("nomad") else "kb.tile_state."
                return t(prefix + state) + "\n" + text
        for rect, key in self.card_rows:
            if rect.collidepoint(pos):
                return f"{category_name(key)}: {t(card_text_key(key))}"
        h = self.hex_at(pos) if self.board_rect.collidepoint(pos) else None
        if h is None:
            return ""
        return self._hex_text(h)
