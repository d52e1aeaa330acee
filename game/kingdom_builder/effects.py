"""What each Kingdom Builder action changes: building, moving and removing settlements with the
map's incremental tables kept up to date, taking and losing location and nomad tiles, walls, gold,
and the end of a turn — the next card, the next seat, the end of the game (KB §4–§9)."""

from __future__ import annotations

from game.core.types import Action, Event, Seat
from game.kingdom_builder import nomads as nm
from game.kingdom_builder.board import SIZE, TERRAIN_CODES
from game.kingdom_builder.codes import (
    EMPTY,
    GOLD_INDEX,
    MOVE_TILES,
    NEW,
    READY,
    SOURCE,
    TARGET,
    USED,
    VICTIM,
    WALL,
    WALL1,
    WALL2,
    WALL_TILES,
    pos,
    terrain_code,
)
from game.kingdom_builder.moves import LegalMoves


class TurnEffects(LegalMoves):
    """Applying one legal action (see the module docstring)."""

    # ---- changes to the map (incremental bookkeeping) -----------------------------------
    def _put(self, s: int, h: int) -> None:
        """A settlement of ``s`` arrives on empty hex ``h``."""
        owner = self.owner
        owner[h] = s
        self.homes[s].add(h)
        self._fz_home[s] = None
        self.free[self.board.terrain[h]].discard(h)
        self._close(h)
        a = self.adj[s]
        f = self.front[s]
        self._fz_front[s] = None
        openable = self.board.openable
        for nb in self.board.nbrs[h]:
            a[nb] += 1
            if owner[nb] == EMPTY and openable[nb]:
                f.add(nb)

    def _close(self, h: int) -> None:
        """Hex ``h`` is no longer empty: it leaves every seat's front."""
        fz = self._fz_front
        for q, f in enumerate(self.front):
            if h in f:
                f.discard(h)
                fz[q] = None

    def _lift(self, s: int, h: int) -> None:
        """The settlement of ``s`` leaves hex ``h``, which becomes empty."""
        self.owner[h] = EMPTY
        self.homes[s].discard(h)
        self._fz_home[s] = None
        self.free[self.board.terrain[h]].add(h)
        a = self.adj[s]
        f = self.front[s]
        self._fz_front[s] = None
        for nb in self.board.nbrs[h]:
            a[nb] -= 1
            if a[nb] == 0:
                f.discard(nb)
        for q in range(self.n):
            if self.adj[q][h]:
                self.front[q].add(h)
                self._fz_front[q] = None

    def _put_wall(self, h: int) -> None:
        self.owner[h] = WALL
        self.walls.add(h)
        self.free[self.board.terrain[h]].discard(h)
        self._close(h)

    # ---- applying actions ---------------------------------------------------------------
    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        self._dec = None
        self._scores = None
        self._view = None
        self._gains = None
        kind = action[0]
        if kind == "place":
            return self._do_place(action[1] * SIZE + action[2])
        if kind == "use":
            return self._do_use(action[1] * SIZE + action[2])
        if kind == "move_from":
            p = self.pending
            assert p is not None
            self.pending = (p[0], TARGET, action[1] * SIZE + action[2], p[3])
            return []
        if kind == "wall":
            return self._do_wall(action[1] * SIZE + action[2])
        if kind == "remove":
            return self._do_remove(action[1] * SIZE + action[2])
        if kind == "stop":
            self.pending = None
            return []
        return self._do_end()

    def _do_place(self, h: int) -> list[Event]:
        s = self.cur
        p = self.pending
        if p is None:
            events = self._build(s, h, None)
            self.placed += 1
            self.mand_hexes.append(h)
            if self.placed >= 3 or self.supply[s] <= 0 or not self.free[self.terrain]:
                self.mand_done = True
                if self.placed == 3 and "Families" in self.cards and self._in_line():
                    self._earn(s, "Families", events)
                self.mand_hexes = []
            return events
        loc, _, frm, count = p
        kind = self.tile_kind(loc)
        if kind == "Donation":
            events = self._build(s, h, kind)
            count -= 1
            free = self.free[nm.TILE_TERRAIN[self.nkind[loc]]]
            more = count > 0 and self.supply[s] > 0 and bool(free)
            self.pending = (loc, TARGET, -1, count) if more else None
            return events
        if kind == "Resettlement":
            events = self._move(s, frm, h, kind)
            count -= 1
            steps = count > 0 and any(self._can_step(x, self.board.step) for x in self.homes[s])
            self.pending = (loc, SOURCE, -1, count) if steps else None
            return events
        self.pending = None
        if frm < 0:
            return self._build(s, h, kind)
        return self._move(s, frm, h, kind)

    def _in_line(self) -> bool:
        """KB §9.3 Families: the 3 mandatory settlements of this turn are 3 neighbouring hexes
        in one straight line, along any of the 3 axes, in any build order."""
        hexes = self.mand_hexes
        if len(hexes) != 3:
            return False
        want = set(hexes)
        for fwd, _ in self.board.axes:
            for h in hexes:
                h1 = fwd[h]
                if h1 >= 0 and fwd[h1] >= 0 and {h, h1, fwd[h1]} == want:
                    return True
        return False

    def _earn(self, s: int, source: str, events: list[Event], amount: int = 0) -> None:
        """Bank in-play gold (KB §9.3): the card's value (or ``amount``) from ``source``."""
        gold = amount or nm.CARD_GOLD[source]
        self.gold[s][GOLD_INDEX[source]] += gold
        events.append({"type": "gold", "seat": s, "source": source, "gold": gold})

    def _build(self, s: int, h: int, tile: str | None) -> list[Event]:
        """Build a settlement from supply (mandatory action or a build tile)."""
        self._put(s, h)
        self.supply[s] -= 1
        events: list[Event] = [{"type": "place", "seat": s, "hex": pos(h), "tile": tile}]
        if self.outpost:
            self.outpost -= 1  # KB §7 Outpost: it lifted the adjacency rule for this build
        if self.nomads == nm.FULL:
            self._after_build(s, h, events)
        if self.board.loc_adj[h]:
            self._gain(s, h, events)
        if self.nomad_left and self.board.nomad_adj[h]:
            self._gain_nomad(s, h, events)
        if self.supply[s] == 0 and not self.end_triggered:
            self.end_triggered = True
            events.append({"type": "end_triggered", "seat": s})
        return events

    def _after_build(self, s: int, h: int, events: list[Event]) -> None:
        """KB §9.3: the Nomads cards that pay for a *build* (never for a move), checked when the
        settlement is placed — Ambassadors when it touches another seat's settlement, Shepherds
        when it touches no empty hex of its own terrain."""
        cards = self.cards
        if "Ambassadors" in cards and any(self.adj[q][h] for q in range(self.n) if q != s):
            self._earn(s, "Ambassadors", events)
        if "Shepherds" in cards:
            same = self.free[self.board.terrain[h]]
            if not any(n in same for n in self.board.nbrs[h]):
                self._earn(s, "Shepherds", events)

    def _move(self, s: int, frm: int, to: int, tile: str) -> list[Event]:
        """Move a settlement (KB §7): lift it, put it down, gain the tiles of the new hex
        (KB §6.1), *then* lose the tiles of location hexes no longer touched (KB §6.2).

        The loss is judged once the move is complete, so a tile gained by the move can be the
        one kept when a tile of the same type must be given up (docs decision 5)."""
        self._lift(s, frm)
        self._put(s, to)
        events: list[Event] = [
            {"type": "move", "seat": s, "from": pos(frm), "to": pos(to), "tile": tile}
        ]
        if self.board.loc_adj[to]:
            self._gain(s, to, events)
        if self.nomad_left and self.board.nomad_adj[to]:
            self._gain_nomad(s, to, events)
        self._lose_untouched(s, frm, events)
        return events

    def _lose_untouched(self, s: int, frm: int, events: list[Event]) -> None:
        """KB §6.2: after seat ``s``'s settlement left ``frm``, the tiles of location hexes next
        to ``frm`` that no settlement of ``s`` touches any more leave the game."""
        a = self.adj[s]
        held = self.tiles[s]
        for loc in self.board.loc_adj[frm]:
            if loc in held and a[loc] == 0:
                self._lose(s, loc, events)

    def _gain_nomad(self, s: int, h: int, events: list[Event]) -> None:
        """KB §7 nomad tiles: the first seat to build or move next to a nomad hex takes its
        tile; it is usable in that seat's next turn only.  (With ``treasure_paid = "taken"``
        a Treasure tile pays at once instead.)"""
        for nh in self.board.nomad_adj[h]:
            if nh not in self.nomad_left:
                continue
            self.nomad_left.discard(nh)
            tid = self.nkind[nh]
            kind = nm.TILE_TYPE[tid]
            events.append(
                {
                    "type": "gain_nomad",
                    "seat": s,
                    "hex": pos(nh),
                    "tile": kind,
                    "terrain": terrain_code(tid),
                }
            )
            if kind == "Treasure" and nm.TREASURE_PAID == "taken":
                del self.nkind[nh]
                self._earn(s, "Treasure", events, nm.TREASURE_GOLD)
            else:
                self.nheld[s][nh] = NEW

    def _gain(self, s: int, h: int, events: list[Event]) -> None:
        """KB §6.1: one tile from each location hex next to ``h`` that still has tiles and that
        this seat never took from; it is usable from the seat's next turn."""
        taken = self.taken[s]
        for loc in self.board.loc_adj[h]:
            if self.left[loc] > 0 and loc not in taken:
                self.left[loc] -= 1
                taken.add(loc)
                self.tiles[s][loc] = NEW
                events.append(
                    {
                        "type": "gain_tile",
                        "seat": s,
                        "tile_type": self.board.location_type[loc],
                        "hex": pos(loc),
                    }
                )

    def _lose(self, s: int, loc: int, events: list[Event]) -> None:
        """KB §6.2: the tile from ``loc`` leaves the game.  If the seat holds another tile of
        the same type, it gives up whichever of the two it likes; keeping the usable one is
        never worse, so a lost *ready* tile leaves the other one ready."""
        held = self.tiles[s]
        state = held.pop(loc)
        kind = self.board.location_type[loc]
        if state == READY:
            for other, other_state in held.items():
                if self.board.location_type[other] == kind and other_state != READY:
                    held[other] = READY
                    break
        events.append({"type": "lose_tile", "seat": s, "tile_type": kind, "hex": pos(loc)})

    def _do_use(self, loc: int) -> list[Event]:
        s = self.cur
        kind = self.board.location_type.get(loc)
        if kind is None:
            return self._use_nomad(loc)
        self.tiles[s][loc] = USED
        if kind in MOVE_TILES:
            step = SOURCE
        elif kind in WALL_TILES:
            step = WALL1
        else:
            step = TARGET
        self.pending = (loc, step, -1, 0)
        return [{"type": "use", "seat": s, "tile_type": kind, "hex": pos(loc)}]

    def _use_nomad(self, h: int) -> list[Event]:
        """KB §7 nomad tiles: Donation builds 3 on its terrain, Treasure pays its gold, Sword
        takes one settlement from each other seat, Outpost lifts the adjacency rule for the next
        build, Resettlement makes 4 single steps.  The tile is gone at the end of the turn."""
        s = self.cur
        self.nheld[s][h] = USED
        tid = self.nkind[h]
        kind = nm.TILE_TYPE[tid]
        events: list[Event] = [
            {
                "type": "use_nomad",
                "seat": s,
                "hex": pos(h),
                "tile": kind,
                "terrain": terrain_code(tid),
            }
        ]
        if kind == "Donation":
            self.pending = (h, TARGET, -1, nm.DONATION_SETTLEMENTS)
        elif kind == "Treasure":
            self._earn(s, "Treasure", events, nm.TREASURE_GOLD)
        elif kind == "Sword":
            self.pending = (h, VICTIM, -1, 0)
        elif kind == "Outpost":
            self.outpost += nm.OUTPOST_BUILDS
        else:
            self.pending = (h, SOURCE, -1, nm.RESETTLEMENT_STEPS)
        return events

    def _do_remove(self, h: int) -> list[Event]:
        """KB §7 Sword: the chosen settlement of another seat goes back to its owner's supply;
        that seat may lose location tiles (KB §6.2), never a nomad tile, and a game end already
        triggered stays triggered (KB §8)."""
        s = self.cur
        p = self.pending
        assert p is not None
        loc, _, _, hit = p
        victim = self.owner[h]
        self._lift(victim, h)
        self.supply[victim] += 1
        events: list[Event] = [{"type": "remove", "seat": s, "victim": victim, "hex": pos(h)}]
        self._lose_untouched(victim, h, events)
        hit |= 1 << victim
        more = any(self.homes[q] for q in range(self.n) if q != s and not hit >> q & 1)
        self.pending = (loc, VICTIM, -1, hit) if more else None
        return events

    def _do_wall(self, h: int) -> list[Event]:
        """KB §7 Quarry: a wall on ``h``; after the first, a second one may follow."""
        s = self.cur
        assert self.pending is not None
        loc, step, _, _ = self.pending
        self._put_wall(h)
        self.walls_left -= 1
        if step == WALL1 and self._wall_targets(s):
            self.pending = (loc, WALL2, -1, 0)
        else:
            self.pending = None
        return [{"type": "wall", "seat": s, "hex": pos(h)}]

    def _do_end(self) -> list[Event]:
        """KB §4.4 end of turn, §8 end of game: discard, draw (reshuffling an empty pile),
        pass to the next seat; the game ends when play would return to the start seat after
        the end was triggered."""
        s = self.cur
        events: list[Event] = [{"type": "end_turn", "seat": s}]
        held = self.tiles[s]
        for loc in held:
            held[loc] = READY
        if self.nheld[s]:
            self._expire_nomads(s, events)
        self.outpost = 0
        self.discard.append(self.hands[s])
        self.hands[s] = -1
        nxt = (s + 1) % self.n
        if nxt == self.start:
            if self.end_triggered:
                self.over = True
                self.terrain = -1
                self.placed = 0
                self.mand_done = False
                scores = self.scores()
                events.append({"type": "game_over", "scores": scores, "winners": self.winners()})
                return events
            self.round += 1
        if not self.deck:
            self.deck = self.discard
            self.discard = []
            self.rng.shuffle(self.deck)
            events.append({"type": "reshuffle", "reveal": True})
        card = self.deck.pop()
        self.hands[s] = card
        events.append({"type": "draw", "seat": s, "reveal": True})
        events.append(
            {
                "type": "card",
                "seat": s,
                "terrain": TERRAIN_CODES[card],
                "only": [s],
                "reveal": True,
            }
        )
        self.cur = nxt
        self.terrain = self.hands[nxt]
        self.placed = 0
        self.mand_done = False
        events.append({"type": "turn", "seat": nxt, "terrain": TERRAIN_CODES[self.terrain]})
        return events

    def _expire_nomads(self, s: int, events: list[Event]) -> None:
        """KB §7 nomad tiles: at the end of ``s``'s turn the tiles it could use this turn leave
        the game, used or not; those it took this turn become usable in its next turn."""
        held = self.nheld[s]
        for h in sorted(held):
            if held[h] == NEW:
                held[h] = READY
                continue
            tid = self.nkind.pop(h)
            events.append(
                {
                    "type": "discard_nomad",
                    "seat": s,
                    "hex": pos(h),
                    "tile": nm.TILE_TYPE[tid],
                    "terrain": terrain_code(tid),
                    "used": held.pop(h) == USED,
                }
            )
