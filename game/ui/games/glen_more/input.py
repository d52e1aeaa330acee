"""Input on the Glen More table: a click chooses exactly one action of the seat's ``legal`` list
(or a step towards one: a market trade waits for Confirm with its price shown, a clan member is
picked before where it steps), or nothing; keys 1-9, L, C, Tab and Backspace; the mouse over
any tile, cube, figure, market row or counter explains it in the chosen language; ``intent``
names what a click asks for, legal or not, so the table can say why a refused one is refused."""

from __future__ import annotations

from typing import Any

import pygame

from game.ui.games.base import Action
from game.ui.games.glen_more.common import RESOURCE_NAMES, SCORE_CATEGORIES, Cell
from game.ui.games.glen_more.text import (
    TextMixin,
    category_name,
    count,
    res_name,
    tile_info,
    tile_name,
    where,
)
from game.ui.i18n import t


class InputMixin(TextMixin):
    """Clicks, keys and hover."""

    # ---- what is under the mouse -------------------------------------------------------------
    def slot_at(self, pos: tuple[int, int]) -> int | None:
        for i, rect in self.slot_rects.items():
            if rect.collidepoint(pos):
                return i
        return None

    def cell_at(self, pos: tuple[int, int]) -> tuple[int, Cell] | None:
        """(seat, cell) of the territory under ``pos``: the big one or a compact one."""
        if self.big_grid is not None and self.rects.grid.collidepoint(pos):
            return (self.big_seat(), self.big_grid.cell_at(*pos))
        for seat, (grid, box) in self.small_grids.items():
            if box.collidepoint(pos):
                return (seat, grid.cell_at(*pos))
        return None

    def cube_at(self, pos: tuple[int, int]) -> tuple[int, Cell, str] | None:
        for rect, seat, cell, res in self.cube_rects:
            if rect.collidepoint(pos):
                return (seat, cell, res)
        return None

    def acting_on_own_grid(self) -> bool:
        """Clicks on the big territory act only when it is the acting seat's own."""
        return self.you is not None and self.big_seat() == self.you and bool(self.legal)

    # ---- clicks ------------------------------------------------------------------------------
    def click(self, pos: tuple[int, int]) -> Action | None:
        if self._round_click(pos):
            return None
        for seat, rect in self.other_boxes.items():
            if rect.collidepoint(pos):
                self.focus = None if seat == self.you else seat
                self._relayout_grids()
                return None
        if self.back_rect.collidepoint(pos) and self.focus is not None:
            self.focus = None
            self._relayout_grids()
            return None
        if self.acts.choices:
            inside, action = self.choice_panel.click(pos)
            if inside:
                return self._chosen(action)
        market = self._market_click(pos)
        if market is not None:
            return market[1]
        slot = self.slot_at(pos)
        if slot is not None:
            return self.acts.takes.get(slot) or self.acts.discards.get(slot)
        if self.acting_on_own_grid():
            return self._grid_click(pos)
        return None

    def _market_click(self, pos: tuple[int, int]) -> tuple[bool, Action | None] | None:
        """A click on a market row's Buy or Sell: arms the trade (its price is shown before
        Confirm); a second click on the same button confirms it."""
        for res, rect in self.buy_rects.items():
            if rect.collidepoint(pos):
                action = self.acts.buys.get(res)
                if action is None:
                    return (True, None)
                if self.trade == action:
                    return (True, action)
                self.trade = action
                self.sell_pick = None
                return (True, None)
        for res, rect in self.sell_rects.items():
            if rect.collidepoint(pos):
                return (True, self._sell_button(res))
        for rect in self.market_rows.values():
            if rect.collidepoint(pos):
                return (True, None)
        return None

    def _sell_button(self, res: str) -> Action | None:
        sells = self.acts.sells.get(res, [])
        if not sells:
            return None
        cells = {(a[1], a[2]) for a in sells}
        if self.trade is not None and self.trade in sells:
            return self.trade
        if len(cells) == 1:
            self.trade = sells[0]
            self.sell_pick = None
        else:
            # Which tile the cube leaves matters (3-cube cap): pick it on the territory.
            self.trade = None
            self.sell_pick = res
            self.focus = None
            self._relayout_grids()
        return None

    def _grid_click(self, pos: tuple[int, int]) -> Action | None:
        acts = self.acts
        cube = self.cube_at(pos)
        hit = self.cell_at(pos)
        if hit is None:
            return None
        _seat, cell = hit
        if self.sell_pick is not None:
            res = self.sell_pick
            if cube is not None:
                cell, res = cube[1], cube[2] if cube[2] == self.sell_pick else res
            action = next((a for a in acts.sells.get(res, []) if (a[1], a[2]) == cell), None)
            if action is not None:
                self.trade = action
                self.sell_pick = None
            return None
        if cube is not None and cube[1] in acts.pays:
            action = ("pay", cube[1][0], cube[1][1], cube[2])
            if action in acts.pays[cube[1]]:
                return action
        if cell in acts.places:
            return acts.places[cell]
        if cell in acts.pays:
            options = {a[3] for a in acts.pays[cell]}
            if len(options) == 1:
                return acts.pays[cell][0]
            return None  # several kinds here: the player clicks the cube itself
        if cell in acts.pay_clans:
            return acts.pay_clans[cell]
        if self.ness_mode and cell in acts.loch_ness:
            return acts.loch_ness[cell]
        if cell in acts.activates:
            return acts.activates[cell]
        if cell in acts.loch_ness:
            return acts.loch_ness[cell]
        if acts.moves or acts.chieftains:
            if self.move_from is not None and cell in acts.moves.get(self.move_from, {}):
                return acts.moves[self.move_from][cell]
            if cell in acts.moves or cell in acts.chieftains:
                self.move_from = cell
        return None

    def _chosen(self, action: Action | None) -> Action | None:
        """A choice made in the panel: it is sent, and the panel is ready to ask again (the
        same question comes back if the host refuses it)."""
        if action is not None:
            self.composer.reset()
            self.composer.skip_forced()
        return action

    # ---- what a click asks for (legal or not) --------------------------------------------------
    def intent(self, pos: tuple[int, int]) -> Action | None:
        """The action a click at ``pos`` asks for, legal or not, so the game scene can ask the
        host why a refused one is refused (``explain``) and say so at the pointer.  Only during
        the seat's own decision; None where a click means nothing (another seat's territory,
        an empty space of the territory outside placing and moving, the frame around things).

        A track space: take its tile (discard it, when the turn can only discard).  Buy on the
        market: buy that resource; Sell: sell it from a tile holding it (no intent without
        one).  An option of the choice box: that choice.  On the seat's own territory, by the
        step of the turn: place the taken tile on any cell; pay with the cube under the mouse
        (or the tile's clan member when the payment asks for one); activate a tile (with Loch
        Ness while that is chosen); move the chosen clan member there, or make the clan member
        under the mouse a chieftain; in the other steps a tile asks to be activated, which the
        engine refuses naming the step.  A legal target gives its legal action."""
        if not self.view or self.view.get("over") or not self.my_turn():
            return None
        if self.you is None or self.current not in (None, self.you):
            return None
        if self._round_covers(pos):
            return None
        if self.back_rect.collidepoint(pos) and self.focus is not None:
            return None
        if any(rect.collidepoint(pos) for rect in self.other_boxes.values()):
            return None
        if self.acts.choices and self.choice_panel.rect.collidepoint(pos):
            for option in self.choice_panel.options:
                if option.rect.collidepoint(pos):
                    return next((a for a in self.acts.choices if a[1] == option.value), None)
            return None
        for res, rect in self.buy_rects.items():
            if rect.collidepoint(pos):
                return self.acts.buys.get(res) or ("buy", res)
        for res, rect in self.sell_rects.items():
            if rect.collidepoint(pos):
                return self._sell_intent(res, None)
        if any(rect.collidepoint(pos) for rect in self.market_rows.values()):
            return None
        slot = self.slot_at(pos)
        if slot is not None:
            return self._track_intent(slot)
        if self.acting_on_own_grid():
            return self._grid_intent(pos)
        return None

    def _track_intent(self, slot: int) -> Action:
        """Take the tile on track space ``slot`` (GM §4.1), or discard it when no tile can be
        taken (D10)."""
        acts = self.acts
        action = acts.takes.get(slot) or acts.discards.get(slot)
        if action is not None:
            return action
        if acts.discards and not acts.takes:
            return ("discard", slot)
        return ("take", slot)

    def _sell_intent(self, res: str, cell: Cell | None) -> Action | None:
        """Sell one ``res`` (GM §6): from ``cell`` if given, else from a tile holding one
        (the legal sale first); None when no tile of the seat holds ``res``."""
        sells = self.acts.sells.get(res, [])
        if cell is not None:
            return next((a for a in sells if (a[1], a[2]) == cell), ("sell", cell[0], cell[1], res))
        if sells:
            return sells[0]
        for where_, entry in sorted(self._own_tiles().items()):
            if res in self.cubes(entry):
                return ("sell", where_[0], where_[1], res)
        return None

    def _own_tiles(self) -> dict[Cell, dict[str, Any]]:
        you = self.you
        return self.territories[you] if you is not None and you < len(self.territories) else {}

    def _grid_intent(self, pos: tuple[int, int]) -> Action | None:
        """What a click on the seat's own (large) territory asks for, by the step of the turn."""
        hit = self.cell_at(pos)
        if hit is None:
            return None
        cell = hit[1]
        cube = self.cube_at(pos)
        cube_res = cube[2] if cube is not None and cube[1] == cell else None
        entry = self._own_tiles().get(cell)
        if self.sell_pick is not None:
            if entry is None:
                return None
            return self._sell_intent(self.sell_pick, cell)
        phase = self.phase
        if phase == "place":
            return self.acts.places.get(cell) or ("place", cell[0], cell[1])
        if phase == "move":
            return self._move_intent(cell, entry)
        if entry is None:
            return None
        if phase == "pay":
            return self._pay_intent(cell, entry, cube_res)
        if phase == "activate":
            return self._activate_intent(cell)
        # Taking, or a choice in the box: a tile asks to be activated (refused by the step).
        return ("activate", cell[0], cell[1])

    def _pay_intent(self, cell: Cell, entry: dict[str, Any], cube_res: str | None) -> Action:
        """The legal payment there (the cube under the mouse first); else the cube under the
        mouse; else the tile's clan member if the payment asks for one; else a cube of the tile
        (one the payment needs first), or a needed resource (GM §4.1, §6)."""
        acts = self.acts
        if cube_res is not None and ("pay", *cell, cube_res) in acts.pays.get(cell, []):
            return ("pay", cell[0], cell[1], cube_res)
        if cell in acts.pays:
            return acts.pays[cell][0]
        if cell in acts.pay_clans:
            return acts.pay_clans[cell]
        if cube_res is not None:
            return ("pay", cell[0], cell[1], cube_res)
        payment = self.pending.get("payment") or {}
        clan_due = payment.get("clan_members") if isinstance(payment, dict) else 0
        if isinstance(clan_due, int) and clan_due > 0 and int(entry.get("clan", 0) or 0):
            return ("pay_clan", cell[0], cell[1])
        due = payment.get("resources") if isinstance(payment, dict) else None
        needed = [r for r in RESOURCE_NAMES if isinstance(due, dict) and due.get(r)]
        cubes = self.cubes(entry)
        res = next((r for r in cubes if r in needed), None) or (
            cubes[0] if cubes else (needed[0] if needed else RESOURCE_NAMES[0])
        )
        return ("pay", cell[0], cell[1], res)

    def _activate_intent(self, cell: Cell) -> Action:
        """Activate the tile (GM §4.3); with Loch Ness chosen, Loch Ness's extra activation
        (GM §8)."""
        acts = self.acts
        if self.ness_mode:
            return acts.loch_ness.get(cell) or ("loch_ness", cell[0], cell[1])
        return acts.activates.get(cell) or acts.loch_ness.get(cell) or ("activate", *cell)

    def _move_intent(self, cell: Cell, entry: dict[str, Any] | None) -> Action | None:
        """GM §4.4: the chosen clan member steps to ``cell``; a clan member clicked (none
        chosen, or the chosen one again) is chosen — a legal source — or asked to become a
        chieftain, which the engine refuses saying why (no movement points, the last one)."""
        acts = self.acts
        src = self.move_from
        if src is not None and cell != src:
            return acts.moves.get(src, {}).get(cell) or ("move", *src, *cell)
        if cell in acts.chieftains:
            return acts.chieftains[cell]
        if cell in acts.moves:
            return next(iter(acts.moves[cell].values()))
        if entry is not None and int(entry.get("clan", 0) or 0):
            return ("chieftain", cell[0], cell[1])
        if entry is not None and not self.move_sources():
            # No clan member can act (no movement points): a step there is refused.
            clans = sorted(c for c, e in self._own_tiles().items() if int(e.get("clan", 0) or 0))
            if clans:
                return ("move", *clans[0], *cell)
        return None

    def move_sources(self) -> list[Cell]:
        """Cells whose clan members may move or become a chieftain now."""
        return sorted(set(self.acts.moves) | set(self.acts.chieftains))

    def cancel(self) -> bool:
        """Backspace: drop the armed trade, the tile being picked for a sale, or the chosen
        clan member (in that order); True if something was dropped."""
        if self.trade is not None:
            self.trade = None
            return True
        if self.sell_pick is not None:
            self.sell_pick = None
            return True
        if self.move_from is not None and len(self.move_sources()) > 1:
            self.move_from = None
            return True
        if self.acts.choices:
            self.choice_panel.back()
        return False

    # ---- keys ----------------------------------------------------------------------------------
    def key(self, event: pygame.event.Event) -> Action | None:
        """1-9: the n-th value of a choice, or the n-th tile within reach on the track (from
        the head); L: Loch Ness first; C: make the chosen clan member a chieftain; Tab: look at
        the next player's territory; Backspace: cancel a trade or a selection."""
        k = event.key
        if k == pygame.K_BACKSPACE:
            self.cancel()
            return None
        if k == pygame.K_TAB:
            n = self.n_seats()
            if n:
                nxt = (self.big_seat() + 1) % n
                self.focus = None if nxt == self.you else nxt
                self._relayout_grids()
            return None
        if k == pygame.K_l and self.acts.loch_ness:
            self.ness_mode = not self.ness_mode
            return None
        if k == pygame.K_c and self.move_from is not None:
            return self.acts.chieftains.get(self.move_from)
        if self.acts.choices:
            return self._chosen(self.choice_panel.key(event))
        if pygame.K_1 <= k <= pygame.K_9:
            slots = self.reachable_slots()
            i = k - pygame.K_1
            if i < len(slots):
                s = slots[i]
                return self.acts.takes.get(s) or self.acts.discards.get(s)
        return None

    def reachable_slots(self) -> list[int]:
        """The track spaces a click takes (or discards) now, from the head of the track on."""
        slots = set(self.acts.takes) | set(self.acts.discards)
        track = self.view.get("track") or []
        n = len(track) or 14
        empty = self.view.get("empty")
        start = (int(empty) + 1) % n if isinstance(empty, int) else 0
        return [i % n for i in range(start, start + n) if i % n in slots]

    def mouse_moved(self, pos: tuple[int, int]) -> None:
        self.mouse = pos
        if self.acts.choices:
            self.choice_panel.mouse_moved(pos)

    # ---- hover ---------------------------------------------------------------------------------
    def hover(self, pos: tuple[int, int]) -> str:
        text = self._round_hover(pos)
        if text:
            return text
        for rect, tile in self.card_rects:
            if rect.collidepoint(pos):
                return tile_info(tile, self.on_placement(), with_cost=False)
        for res, rect in self.market_rows.items():
            if rect.collidepoint(pos):
                return self._market_text(res)
        if self.stack_rect.collidepoint(pos):
            return self._stacks_text()
        for rect, seat in self.score_chip_rects:
            if rect.collidepoint(pos):
                return self._score_text(seat)
        for rect, text in self.chip_texts:
            if rect.collidepoint(pos):
                return text
        slot = self.slot_at(pos)
        if slot is not None:
            return self._slot_text(slot)
        cube = self.cube_at(pos)
        hit = self.cell_at(pos)
        if hit is not None:
            return self._cell_text(hit[0], hit[1], cube)
        for seat, rect in self.other_boxes.items():
            if rect.collidepoint(pos):
                return t("gm.hover.other_box", name=self._name(seat))
        return ""

    def _slot_text(self, slot: int) -> str:
        track = self.view.get("track") or []
        entry = track[slot] if 0 <= slot < len(track) else None
        if entry is None:
            return t("gm.hover.empty_space")
        if entry.get("die"):
            return t("gm.hover.die")
        if "seat" in entry:
            seat = int(entry["seat"])
            line = t("gm.hover.figure", name=self._name(seat))
            if seat == self.current and not self.view.get("over"):
                line += "\n" + t("gm.hover.figure_moves")
            return line
        tile = entry.get("tile")
        lines = []
        if slot in self.acts.takes:
            lines.append(t("gm.hover.take", tile=tile_name(tile)))
        elif slot in self.acts.discards:
            lines.append(t("gm.hover.discard", tile=tile_name(tile)))
        elif self.phase == "take" and self.my_turn():
            lines.append(t("gm.hover.not_takeable"))
        lines.append(tile_info(tile, self.on_placement()))
        return "\n".join(lines)

    def _market_text(self, res: str) -> str:
        row = next((m for m in self.view.get("market") or [] if m.get("resource") == res), None)
        if row is None:
            return ""
        lines = [t("gm.hover.market", res=res_name(res), filled=row.get("filled", 0))]
        buy, sell = row.get("buy"), row.get("sell")
        lines.append(t("gm.hover.buy_price", price=buy) if buy else t("gm.hover.buy_full"))
        lines.append(t("gm.hover.sell_price", price=sell) if sell else t("gm.hover.sell_empty"))
        if res in self.acts.buys:
            lines.append(t("gm.hover.buy_now"))
        if res in self.acts.sells:
            lines.append(t("gm.hover.sell_now"))
        lines.append(t("gm.hover.market_rule"))
        return "\n".join(lines)

    def _stacks_text(self) -> str:
        stacks = self.view.get("stacks") or []
        lines = [t("gm.hover.stacks", counts=" · ".join(str(n) for n in stacks))]
        lines.append(t("gm.hover.stacks_rule"))
        for record in self.view.get("rounds") or []:
            totals = ", ".join(
                f"{self._name(s)} +{v}" for s, v in enumerate(record.get("total", []))
            )
            lines.append(t("gm.hover.round_done", round=record.get("round"), points=totals))
        stock = self.view.get("stock") or {}
        if stock:
            lines.append(
                t(
                    "gm.hover.supply",
                    whisky=stock.get("whisky", 0),
                    coins=stock.get("coins", 0),
                )
            )
        removed = self.view.get("removed") or []
        lines.append(t("gm.hover.removed", n=len(removed)))
        return "\n".join(lines)

    def _score_text(self, seat: int) -> str:
        """A seat's points by category: banked, or the live preview while the game runs."""
        over = bool(self.view.get("over"))
        rows = self.view.get("scores" if over else "preview") or []
        if not 0 <= seat < len(rows):
            return ""
        row = rows[seat]
        key = "gm.hover.score_final" if over else "gm.hover.score_preview"
        lines = [t(key, name=self._name(seat), total=row.get("total", 0))]
        for cat, _name in self.score_categories():
            value = row.get(cat, 0)
            if value:
                lines.append(f"{category_name(cat)}: {value:+d}")
        return "\n".join(lines)

    def _cell_text(self, seat: int, cell: Cell, cube: tuple[int, Cell, str] | None) -> str:
        entry = self.territories[seat].get(cell) if seat < len(self.territories) else None
        own = seat == self.you and self.acting_on_own_grid()
        lines: list[str] = []
        acts = self.acts
        if own:
            if cell in acts.places:
                lines.append(t("gm.hover.place", tile=tile_name(self.pending.get("tile"))))
                lines.append(t("gm.hover.place_rule"))
            if cube is not None and cube[1] == cell and cell in acts.pays:
                lines.append(t("gm.hover.pay_cube", res=res_name(cube[2])))
            elif cell in acts.pays:
                kinds = sorted({a[3] for a in acts.pays[cell]}, key=RESOURCE_NAMES.index)
                if len(kinds) > 1:
                    lines.append(t("gm.hover.pay_which"))
                else:
                    lines.append(t("gm.hover.pay_cube", res=res_name(kinds[0])))
            if cell in acts.pay_clans:
                lines.append(t("gm.hover.pay_clan"))
            if cell in acts.activates:
                first = self.pending.get("placed_first")
                key = (
                    "gm.hover.activate_first"
                    if first is not None and tuple(first) == cell
                    else "gm.hover.activate"
                )
                lines.append(t(key))
            if cell in acts.loch_ness:
                lines.append(t("gm.hover.loch_ness"))
            if self.move_from is not None and cell in acts.moves.get(self.move_from, {}):
                lines.append(t("gm.hover.move_here"))
            elif cell in acts.moves or cell in acts.chieftains:
                lines.append(t("gm.hover.move_from"))
            if self.sell_pick is not None and any(
                (a[1], a[2]) == cell for a in acts.sells.get(self.sell_pick, [])
            ):
                lines.append(t("gm.hover.sell_from", res=res_name(self.sell_pick)))
        if entry is None:
            if lines:
                lines.append(where(cell))
            return "\n".join(lines)
        tile = entry.get("tile")
        info = tile_info(tile, self.on_placement(), with_cost=False)
        lines.append(info)
        cubes = self.cubes(entry)
        if cubes:
            parts = ", ".join(count(cubes.count(r), r) for r in dict.fromkeys(cubes))
            key = "gm.hover.cubes_full" if len(cubes) >= 3 else "gm.hover.cubes"
            lines.append(t(key, cubes=parts, room=3 - len(cubes)))
        clan = int(entry.get("clan", 0) or 0)
        if clan:
            lines.append(t("gm.hover.clan", n=clan))
        owner = self._name(seat)
        lines.append(t("gm.hover.owner", name=owner, where=where(cell)))
        return "\n".join(lines)

    # ---- provided by later sections -------------------------------------------------------------
    def _round_click(self, pos: tuple[int, int]) -> bool:
        return False

    def _round_covers(self, pos: tuple[int, int]) -> bool:
        return False

    def _round_hover(self, pos: tuple[int, int]) -> str:
        return ""

    def _relayout_grids(self) -> None:
        """The big and compact territories are fitted again (a new focus, a new view)."""

    def score_categories(self) -> list[tuple[str, str]]:
        return [(c, category_name(c)) for c in SCORE_CATEGORIES]
