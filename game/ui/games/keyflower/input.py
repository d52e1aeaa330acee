"""Input on the Keyflower table: every click, key and option button chooses exactly one action
of the seat's ``legal`` list, or a field of one (the composer), or nothing.

* Turns of a season: a click on a tile *uses* it (produce), a click on the space beside it
  *bids* there (falling back to the other when only one is possible there); the keyples'
  colour and count are then offered in the action box (the composer over the legal list, so
  the same-colour rule, the raise, the production ladder and the 6-keyple rule are the
  engine's).  A losing bid of yours is brought back with a click on it.  A second click on the
  chosen target, Enter or Confirm sends a complete choice; P passes.
* Transport: a highlighted tile of your village shows its moves and upgrades (a click on one of
  its resources moves that one); then the highlighted neighbours take it; D finishes.
* Boats: a click picks a boat, Confirm (or a second click) takes it.
* Placement: pick a tile to place, point at a highlighted hex (a ghost shows the tile there),
  click to pin it, turn it with Q / E or the wheel (the sides that would touch the village are
  marked), Confirm places it if that rotation is legal.
* Winter: tick the winter tiles to put up, Confirm.
"""

from __future__ import annotations

from typing import Any

import pygame

from game.ui.games.base import Action
from game.ui.games.keyflower.common import Cell, Hit
from game.ui.games.keyflower.text import TextMixin, shown_name, tile_name
from game.ui.i18n import t


class InputMixin(TextMixin):
    """Clicks, keys, the action box's options and the view's buttons."""

    # ---- the legal list, by what it is about ----------------------------------------------
    def _index_legal(self) -> None:
        """Group the legal actions by the thing a click would be on."""
        self.bid_at: dict[str, list[Action]] = {}
        self.use_at: dict[str, list[Action]] = {}
        self.reclaim_at: dict[str, Action] = {}
        self.move_at: dict[str, list[Action]] = {}
        self.move_to_at: dict[str, Action] = {}
        self.upgrade_at: dict[str, list[Action]] = {}
        self.boat_at: dict[str, Action] = {}
        self.place_at: dict[str, list[Action]] = {}
        self.place_tile_at: dict[str, Action] = {}
        self.winter_sets: set[Action] = set()
        for a in self.legal:
            if not a or not isinstance(a[0], str):
                continue
            kind = a[0]
            key = a[1] if len(a) > 1 and isinstance(a[1], str) else ""
            if kind in ("bid", "bid_tile"):
                self.bid_at.setdefault(key, []).append(a)
            elif kind in ("use", "use_tile"):
                self.use_at.setdefault(key, []).append(a)
            elif kind == "reclaim":
                self.reclaim_at[key] = a
            elif kind == "move":
                self.move_at.setdefault(key, []).append(a)
            elif kind == "move_to":
                self.move_to_at[key] = a
            elif kind == "upgrade":
                self.upgrade_at.setdefault(key, []).append(a)
            elif kind == "boat":
                self.boat_at[key] = a
            elif kind == "place":
                self.place_at.setdefault(key, []).append(a)
            elif kind == "place_tile":
                self.place_tile_at[key] = a
            elif kind == "winter_tiles":
                self.winter_sets.add(a)

    def _new_question(self) -> None:
        """A new decision: every half-made choice starts afresh, forced fields are taken."""
        self.picked = None
        self.ghost = None
        self.boat_pick = None
        self.winter_sel = set()
        self.options_scroll = 0
        self._forced()

    def _forced(self) -> None:
        """Take every field with a single possible value that does not finish the action by
        itself (a narrowed bid's tile, a payment's kind)."""
        c = self.composer
        while True:
            values = c.options()
            if len(values) != 1 or (*c.prefix, values[0]) in self.legal:
                break
            c.choose(values[0])
        c.floor = len(c.prefix)

    # ---- what a click means ----------------------------------------------------------------
    def hit_at(self, pos: tuple[int, int]) -> Hit | None:
        """The topmost thing drawn at ``pos`` in the last frame."""
        for hit in reversed(self.hits):
            if hit.contains(pos):
                return hit
        return None

    def click(self, pos: tuple[int, int]) -> Action | None:
        for rect, value, _label in self.options:
            if rect.collidepoint(pos):
                return self._option(value)
        if (
            self._phase() == "place"
            and self.legal
            and self.big_grid is not None
            and self.big_rect.collidepoint(pos)
        ):
            cell = self.big_grid.cell_at(*pos)
            if cell in self.place_targets():
                return self._cell_click(cell)
        hit = self.hit_at(pos)
        if hit is None:
            return None
        if hit.kind == "village":
            # a compact village's title: show it large
            self.focus_seat = int(hit.key)
            self.zoom = 1.0
            self.zoom_at = None
            self.layers.pop("big", None)
            return None
        if not self.legal:
            return None
        if hit.kind == "res":
            tile, kind = hit.key
            move = ("move", tile, kind)
            return move if move in self.legal else self._tile_click(tile, "tile")
        if hit.kind == "cell":
            return self._cell_click(hit.key)
        if hit.kind == "chip":
            tile, seat = hit.key
            if seat == self._you() and tile in self.reclaim_at:
                return self.reclaim_at[tile]
            return self._tile_click(tile, "bid")
        if hit.kind in ("tile", "bid"):
            return self._tile_click(str(hit.key), hit.kind)
        if hit.kind == "hand" or (hit.kind == "winter" and self._phase() == "winter_pick"):
            return self._hand_click(str(hit.key))
        if hit.kind == "boat":
            return self._boat_click(str(hit.key))
        return None

    def _tile_click(self, tile: str, zone: str) -> Action | None:
        """A tile (``zone`` "tile") or the space beside it ("bid")."""
        phase = self._phase()
        if phase == "boats":
            return self._boat_click(tile)
        if phase == "place":
            return None
        stage = self._stage()
        if stage == "move_to":
            return self.move_to_at.get(tile)
        if stage == "transport":
            if tile not in self.move_at and tile not in self.upgrade_at:
                return None
            if self.picked == tile:
                only = self.move_at.get(tile, []) + self.upgrade_at.get(tile, [])
                if len(only) == 1:
                    return only[0]
            self.picked = tile
            return None
        if tile in self.reclaim_at and zone == "bid" and tile not in self.bid_at:
            return self.reclaim_at[tile]
        order = ("bid", "use") if zone == "bid" else ("use", "bid")
        for kind in order:
            at = self.bid_at if kind == "bid" else self.use_at
            if tile in at:
                return self._start(kind, tile)
        return None

    def _start(self, kind: str, tile: str) -> Action | None:
        """Choose ``kind`` at ``tile``: a narrowing step is sent at once; else the colour and
        count are asked (a second click on the same target sends a complete choice)."""
        narrow = (f"{kind}_tile", tile)
        if narrow in self.legal:
            return narrow
        c = self.composer
        if c.prefix[:2] == (kind, tile):
            return self.chosen()  # a second click sends what is chosen (if nothing is left)
        c.reset()
        c.choose(kind, tile)
        self._forced()
        c.floor = 0
        return None

    def _boat_click(self, boat: str) -> Action | None:
        action = self.boat_at.get(boat)
        if action is None:
            return None
        if self.boat_pick == boat:
            return action
        self.boat_pick = boat
        return None

    def _hand_click(self, tile: str) -> Action | None:
        """A tile of your hand: to place next (placement) or to tick (winter)."""
        phase = self._phase()
        if phase == "winter_pick":
            if not self.winter_sets:
                return None
            if tile in self.winter_sel:
                self.winter_sel.discard(tile)
            else:
                self.winter_sel.add(tile)
            return None
        if phase == "place":
            if tile in self.place_tile_at:
                return self.place_tile_at[tile]
            if tile in self.place_at:
                c = self.composer
                if c.prefix[:2] != ("place", tile):
                    c.reset()
                    c.choose("place", tile)
                    c.floor = 0
                    self.ghost = None
                    self.layers.pop("big", None)
        return None

    def _place_tile(self) -> str | None:
        """The tile being placed (chosen, or the only one)."""
        c = self.composer
        if len(c.prefix) >= 2 and c.prefix[0] == "place":
            return str(c.prefix[1])
        return None

    def place_targets(self) -> dict[Cell, list[int]]:
        """The hexes where the chosen tile may go, with the rotations legal at each."""
        tile = self._place_tile()
        out: dict[Cell, list[int]] = {}
        if tile is None:
            return out
        for a in self.place_at.get(tile, []):
            out.setdefault((int(a[2]), int(a[3])), []).append(int(a[4]))
        return out

    def _cell_click(self, cell: Cell) -> Action | None:
        """A hex of the large village during placement: pin the ghost there (a second click on
        it places the tile when its rotation is legal)."""
        targets = self.place_targets()
        if cell not in targets:
            return None
        if self.ghost == cell:
            return self.ghost_action()
        self.ghost = cell
        if self.ghost_rot not in targets[cell]:
            self.ghost_rot = targets[cell][0]
        return None

    def ghost_action(self) -> Action | None:
        tile = self._place_tile()
        if tile is None or self.ghost is None:
            return None
        action = ("place", tile, self.ghost[0], self.ghost[1], self.ghost_rot)
        return action if action in self.legal else None

    def rotate(self, step: int) -> Action | None:
        """Turn the ghost by a sixth (step ±1); every rotation is shown, legal or not."""
        self.ghost_rot = (self.ghost_rot + step) % 6
        return None

    # ---- what a click asks for (legal or not) --------------------------------------------
    def intent(self, pos: tuple[int, int]) -> Action | None:
        """The action a click at ``pos`` asks for, legal or not, so the game scene can ask the
        host why a refused one is refused (``explain``) and say so at the pointer: a tile (use),
        the space beside it or a bid (bid), your bid (bring it back), a resource (move it), a
        tile in the transport (upgrade it, or move there), a boat, a hex for the tile being
        placed with the ghost's rotation.  A legal target gives one of its legal actions."""
        v = self.view
        if not v or v.get("over") or self._you() is None or not self.legal:
            return None
        for rect, _value, _label in self.options:
            if rect.collidepoint(pos):
                return None
        phase = self._phase()
        if phase == "place":
            return self._place_intent(pos)
        hit = self.hit_at(pos)
        if hit is None:
            return None
        key = hit.key[0] if isinstance(hit.key, tuple) else hit.key
        tile = str(key)
        if phase == "boats":
            if hit.kind in ("boat", "tile"):
                return self.boat_at.get(tile, ("boat", tile))
            return None
        if hit.kind == "boat":
            # a boat outside the boat choice: the engine says when boats are taken
            return ("boat", tile)
        if phase != "play":
            return None
        stage = self._stage()
        if stage == "move_to":
            return self.move_to_at.get(tile, ("move_to", tile)) if hit.kind == "tile" else None
        if stage == "transport":
            if hit.kind == "res":
                return ("move", tile, str(hit.key[1]))
            if hit.kind == "tile":
                mine = self.move_at.get(tile, []) + self.upgrade_at.get(tile, [])
                return mine[0] if mine else ("upgrade", tile, 0, 0, 0, 0, 0, 0, 0)
            return None
        if stage not in ("start", "reclaim") or hit.kind not in ("tile", "bid", "chip"):
            return None
        if hit.kind == "chip" and hit.key[1] == self._you() and tile not in self.bid_at:
            return self.reclaim_at.get(tile, ("reclaim", tile))
        kind = "bid" if hit.kind in ("bid", "chip") else "use"
        for k in (kind, "use" if kind == "bid" else "bid"):
            at = self.bid_at if k == "bid" else self.use_at
            if tile in at:
                return at[tile][0]
        if any(a[0] == f"{kind}_tile" for a in self.legal):
            return (f"{kind}_tile", tile)
        return (kind, tile, self._likely_colour(tile), 1)

    def _likely_colour(self, tile: str) -> str:
        """The colour a refused bid or use is asked about: the keyples brought back, else the
        tile's colour, else the colour you hold most of."""
        p = self._pending()
        if p.get("colour"):
            return str(p["colour"])
        for entry in self.view.get("activity") or []:
            if isinstance(entry, dict) and entry.get("tile") == tile and entry.get("lock"):
                return str(entry["lock"])
        keys = self._seat_view(self._you() or 0).get("keyples") or [0, 0, 0, 0]
        colours = ("red", "blue", "yellow", "green")
        return max(zip(keys, colours, strict=False), default=(0, "red"))[1]

    def _place_intent(self, pos: tuple[int, int]) -> Action | None:
        """A hex of your large village for the tile being placed, turned as its ghost."""
        tile = self._place_tile()
        if tile is None or self.big_grid is None or not self.big_rect.collidepoint(pos):
            return None
        if self.big_seat_shown != self._you():
            return None
        cell = self.big_grid.cell_at(*pos)
        targets = self.place_targets()
        rot = self.ghost_rot
        if self.ghost != cell and cell in targets and rot not in targets[cell]:
            rot = targets[cell][0]
        return ("place", tile, cell[0], cell[1], rot)

    # ---- the action box ------------------------------------------------------------------
    def action_options(self) -> list[tuple[Any, str]]:
        """The buttons of the action box: (what a click does, label)."""
        phase = self._phase()
        if not self.legal:
            return []
        out: list[tuple[Any, str]] = []
        if phase == "boats":
            for boat in self.boat_at:
                load = self._load_words(boat)
                out.append(
                    (("pick_boat", boat), f"{tile_name(boat)}: {load}" if load else tile_name(boat))
                )
            return out
        if phase == "place":
            tile = self._place_tile()
            if tile is not None:
                out.append((("rotate", -1), t("kf.action.rotate_left")))
                out.append((("rotate", 1), t("kf.action.rotate_right")))
            return out
        if phase == "winter_pick":
            return out
        stage = self._stage()
        if stage == "transport":
            tile = self.picked
            if tile is not None:
                for a in self.move_at.get(tile, []):
                    out.append((a, self.describe_action(a)))
                for a in self.upgrade_at.get(tile, []):
                    out.append((a, self.describe_action(a)))
            return out
        if stage == "move_to":
            for tile, a in self.move_to_at.items():
                out.append((a, shown_name(tile)))
            return out
        c = self.composer
        if not c.prefix and stage in ("start", "reclaim"):
            for tile, a in self.reclaim_at.items():
                out.append((a, t("kf.action.reclaim", tile=tile_name(tile))))
            return out
        depth = c.depth
        for value in c.options():
            out.append((("field", value), self._field_label(depth, value)))
        return out

    def _field_label(self, depth: int, value: Any) -> str:
        """How a value of the composer's next field is shown."""
        from game.ui.games.keyflower.text import colour_name, resource_name, skill_name

        prefix = self.composer.prefix
        kind = prefix[0] if prefix else value
        if depth == 0:
            return self.describe_action((value,)) if value in ("pass", "done") else str(value)
        if kind in ("bid", "use"):
            if depth == 1:
                return tile_name(value)
            if depth == 2:
                return colour_name(value)
            if depth == 3:
                return self._count_label(str(kind), str(prefix[1]), int(value))
        if kind == "pay_keyple" or kind == "keyple":
            return colour_name(value)
        if kind == "pay_skill":
            return skill_name(value)
        if kind == "resource":
            return resource_name(value)
        return str(value)

    def _load_words(self, boat: str) -> str:
        """A boat's load in words (its keyples and skill tiles, face up)."""
        from game.ui.games.keyflower.text import join, keyples_text, skills_text

        for entry in self.view.get("boats") or []:
            if isinstance(entry, dict) and entry.get("boat") == boat:
                keys = entry.get("keyples") or []
                skills = entry.get("skills") or []
                words = [
                    keyples_text(n, c)
                    for c, n in zip(("red", "blue", "yellow"), keys, strict=False)
                    if n
                ]
                words += [
                    skills_text(n, k)
                    for k, n in zip(("saw", "pickaxe", "anvil"), skills, strict=False)
                    if n
                ]
                return join(words)
        return ""

    def _count_label(self, kind: str, tile: str, n: int) -> str:
        """ "+2 → bid 3": the keyples added from the screen and what stands there then (the
        reclaimed keyples plus these, and your standing bid there unless it was brought back;
        ``docs/keyflower.md``, "Actions")."""
        p = self._pending()
        brought = int(p.get("keyples") or 0)
        total = brought + n
        if kind == "bid":
            reclaimed = p.get("reclaimed") or []
            if tile not in reclaimed:
                total += self._own_bid(tile)
            return t("kf.action.bid_count", n=n, total=total)
        return t("kf.action.use_count", n=n, total=total)

    def _own_bid(self, tile: str) -> int:
        you = self._you()
        for entry in self.view.get("activity") or []:
            if isinstance(entry, dict) and entry.get("tile") == tile:
                for bid in entry.get("bids") or []:
                    if isinstance(bid, list) and len(bid) == 3 and bid[0] == you:
                        return int(bid[2])
        return 0

    def _option(self, value: Any) -> Action | None:
        """A click on an option button of the action box."""
        if isinstance(value, tuple) and value and value[0] == "field":
            action = self.composer.choose(value[1])
            if action is not None:
                return action
            self._forced()
            return None
        if isinstance(value, tuple) and value and value[0] == "pick_boat":
            return self._boat_click(str(value[1]))
        if isinstance(value, tuple) and value and value[0] == "rotate":
            return self.rotate(int(value[1]))
        if isinstance(value, tuple) and value in self.legal:
            return value
        return None

    # ---- buttons and keys ----------------------------------------------------------------
    def confirm_action(self) -> Action | None:
        """What Confirm (Enter) sends now, if anything."""
        phase = self._phase()
        if phase == "place":
            return self.ghost_action()
        if phase == "winter_pick":
            # the legal action naming exactly the ticked tiles (in the engine's order)
            for action in self.winter_sets:
                if set(action[1:]) == self.winter_sel and len(action) - 1 == len(self.winter_sel):
                    return action
            return None
        if phase == "boats":
            return self.boat_at.get(self.boat_pick or "")
        return self.chosen()

    def chosen(self) -> Action | None:
        """The action the composer has chosen: its prefix when that is a legal action, or the
        single legal action that continues a target chosen (nothing is left to ask)."""
        c = self.composer
        done = c.complete()
        if done is not None and done in self.legal:
            return done
        if len(c.prefix) >= 2:
            rest = c.candidates()
            if len(rest) == 1:
                return rest[0]
        return None

    def can_go_back(self) -> bool:
        return bool(
            self.composer.can_go_back()
            or self.picked
            or self.ghost
            or self.boat_pick
            or self.winter_sel
        )

    def back(self) -> Action | None:
        """One step back in the half-made choice (an action already sent: the host's Undo)."""
        if self.ghost is not None:
            self.ghost = None
        elif self.composer.can_go_back():
            c = self.composer
            c.back()
            # skip back over fields that had a single value (they were taken for you)
            while c.depth >= 2 and len(c.options()) == 1 and c.can_go_back():
                c.back()
            if c.depth <= 1 and c.floor <= 1:
                c.reset()
                self._forced()
        elif self.picked is not None:
            self.picked = None
        elif self.boat_pick is not None:
            self.boat_pick = None
        elif self.winter_sel:
            self.winter_sel = set()
        self.layers.pop("big", None)
        return None

    def default_action(self) -> Action | None:
        return self.confirm_action()

    def key(self, event: pygame.event.Event) -> Action | None:
        k = event.key
        if k == pygame.K_p and ("pass",) in self.legal:
            return ("pass",)
        if k == pygame.K_d and ("done",) in self.legal:
            return ("done",)
        if k in (pygame.K_q, pygame.K_LEFTBRACKET):
            return self.rotate(-1)
        if k in (pygame.K_e, pygame.K_RIGHTBRACKET):
            return self.rotate(1)
        if k == pygame.K_BACKSPACE:
            return self.back()
        if k == pygame.K_TAB:
            n = len(self._seat_views())
            if n:
                cur = self._big_seat()
                self.focus_seat = (cur + 1) % n
                self.zoom = 1.0
                self.zoom_at = None
                self.layers.pop("big", None)
            return None
        if pygame.K_1 <= k <= pygame.K_9:
            i = k - pygame.K_1
            if i < len(self.options):
                return self._option(self.options[i][1])
        return None

    def wheel(self, pos: tuple[int, int], dy: int) -> bool:
        """Over the large village: zoom (while a ghost is pinned: turn it)."""
        if not self.big_rect.collidepoint(pos):
            return False
        if self.ghost is not None and self._phase() == "place":
            self.rotate(1 if dy < 0 else -1)
            return True
        self.zoom = max(0.5, min(2.5, self.zoom * (1.15 if dy > 0 else 1 / 1.15)))
        # zoom about the mouse: the part of the village under it stays under it
        self.zoom_at = (pos[0] - self.big_rect.x, pos[1] - self.big_rect.y)
        self.layers.pop("big", None)
        return True

    def _big_seat(self) -> int:
        """The seat whose village is shown large."""
        n = len(self._seat_views())
        if self.focus_seat is not None and 0 <= self.focus_seat < n:
            return self.focus_seat
        you = self._you()
        if you is not None:
            return you
        cur = self.view.get("current")
        if isinstance(cur, int) and 0 <= cur < n:
            return cur
        return 0
