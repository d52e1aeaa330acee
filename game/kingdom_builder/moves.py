"""What the player to move in Kingdom Builder may do: the mandatory action's placement rule
(KB §5), the location and nomad tiles' targets (KB §7, §9) and when a turn may end; computed once
per position and cached (:class:`~game.kingdom_builder.codes.Decision`)."""

from __future__ import annotations

from game.kingdom_builder import nomads as nm
from game.kingdom_builder.board import DESERT, FLOWER, GRASS, WATER
from game.kingdom_builder.codes import (
    BUILD_TILES,
    EMPTY,
    NOMAD_BUILDS,
    READY,
    SOURCE,
    TARGET,
    VICTIM,
    WALL2,
    Decision,
)
from game.kingdom_builder.position import Position


class LegalMoves(Position):
    """The legal actions of the position (see the module docstring)."""

    # ---- the current decision -----------------------------------------------------------
    def _decide(self) -> Decision:
        d = self._dec
        if d is not None:
            return d
        d = Decision()
        s = self.cur
        p = self.pending
        if self.over:  # a finished game: nothing is legal
            self._dec = d
            return d
        if p is not None:
            loc, step, frm, count = p
            kind = self.tile_kind(loc)
            if step == TARGET:
                if frm >= 0:
                    d.place = self._move_targets(kind, s, frm)
                elif kind == "Donation":
                    d.place = self._donation_targets(loc, s)
                else:
                    d.place = self._build_targets(kind, s)
            elif step == SOURCE:
                d.sources = self._move_sources(kind, s)
                d.stop = kind == "Resettlement" and count < nm.RESETTLEMENT_STEPS
            elif step == VICTIM:
                d.removes = self._victims(s, count)
            else:
                d.walls = self._wall_targets(s)
                d.stop = step == WALL2
        elif self.placed and not self.mand_done:
            d.place = self._mandatory_targets(s)
            if self.nheld[s]:  # Outpost changes a build: it may come between the placements
                d.uses = self._nomad_uses(s, outposts_only=True)
        else:
            if self.mand_done:
                d.end = True
            else:
                d.place = self._mandatory_targets(s)
                d.end = not d.place
            tiles = self.tiles[s]
            if tiles:
                d.uses = [
                    loc for loc in sorted(tiles) if tiles[loc] == READY and self._usable(loc, s)
                ]
            if self.nheld[s]:
                nomad_uses = self._nomad_uses(s)
                if nomad_uses:
                    d.uses = sorted(d.uses + nomad_uses)
        self._dec = d
        return d

    def _nomad_uses(self, s: int, outposts_only: bool = False) -> list[int]:
        """The nomad tiles ``s`` may use now: ready (taken before this turn, KB §7 nomad tiles)
        and with something to do."""
        held = self.nheld[s]
        out = []
        for h in sorted(held):
            if held[h] != READY:
                continue
            kind = nm.TILE_TYPE[self.nkind[h]]
            if outposts_only and kind != "Outpost":
                continue
            if self._nomad_usable(h, kind, s):
                out.append(h)
        return out

    def _nomad_usable(self, h: int, kind: str, s: int) -> bool:
        """KB §7 nomad tiles: a tile is usable when its action can be completed — Donation
        while a hex of its terrain is free and the supply holds a settlement; Sword while
        another seat has a settlement on the map; Resettlement while one of your settlements
        can step; Outpost while a build of yours may still come this turn; Treasure always."""
        if kind == "Donation":
            return self.supply[s] > 0 and bool(self.free[nm.TILE_TERRAIN[self.nkind[h]]])
        if kind == "Treasure":
            return True
        if kind == "Sword":
            return any(self.homes[q] for q in range(self.n) if q != s)
        if kind == "Resettlement":
            return any(self._can_step(x, self.board.step) for x in self.homes[s])
        return self._build_ahead(s, h)

    def _build_ahead(self, s: int, outpost: int) -> bool:
        """Whether ``s`` may still build a settlement this turn (what makes Outpost usable):
        the mandatory action is not over and has a hex, or another ready tile builds."""
        if self.supply[s] <= 0:
            return False
        if not self.mand_done and self.free[self.terrain]:
            return True
        tiles = self.tiles[s]
        kinds = self.board.location_type
        for loc, state in tiles.items():
            if state == READY and kinds[loc] in BUILD_TILES and self._usable(loc, s):
                return True
        held = self.nheld[s]
        for h, state in held.items():
            if h != outpost and state == READY:
                tid = self.nkind[h]
                if nm.TILE_TYPE[tid] in NOMAD_BUILDS and self.free[nm.TILE_TERRAIN[tid]]:
                    return True
        return False

    def _placement(self, cand: set[int], s: int) -> set[int]:
        """KB §5: of the candidate hexes, those touching your settlements if there are any,
        else all of them.  An armed Outpost (KB §7) lifts the adjacency rule: all of them."""
        if not cand or self.outpost:
            return cand
        near = cand & self.front[s]
        return near if near else cand

    def _donation_targets(self, loc: int, s: int) -> set[int]:
        """KB §7 Donation: an empty hex of the tile's terrain (water and mountain included),
        adjacent if possible; nothing once the supply is empty."""
        if self.supply[s] <= 0:
            return set()
        return self._placement(self.free[nm.TILE_TERRAIN[self.nkind[loc]]], s)

    def _victims(self, s: int, hit: int) -> list[int]:
        """KB §7 Sword: the settlements of every other seat that has not lost one to this Sword
        yet (``hit`` is the bit mask of those that have)."""
        out: list[int] = []
        for q in range(self.n):
            if q != s and not hit >> q & 1:
                out += self.homes[q]
        out.sort()
        return out

    def _mandatory_targets(self, s: int) -> set[int]:
        """KB §4.2 + §5: an empty hex of the card's terrain, adjacent if possible."""
        if self.supply[s] <= 0:
            return set()
        return self._placement(self.free[self.terrain], s)

    def _build_targets(self, kind: str, s: int) -> set[int]:
        """Targets of a build tile (KB §7); empty if the supply is empty."""
        if self.supply[s] <= 0:
            return set()
        if kind == "Oracle":
            return self._placement(self.free[self.terrain], s)
        if kind == "Farm":
            return self._placement(self.free[GRASS], s)
        if kind == "Oasis":
            return self._placement(self.free[DESERT], s)
        if kind == "Garden":
            return self._placement(self.free[FLOWER], s)
        if kind == "Tower":
            return self._placement(self._free_edge(), s)
        if kind == "Tavern":
            return self._tavern_targets(s)
        if kind == "Village":
            return self._village_targets(s)
        raise AssertionError(f"{kind} is not a build tile")

    def _free_edge(self) -> set[int]:
        """KB §7 Tower: available hexes on the edge of the assembled map (KB §2)."""
        owner, buildable = self.owner, self.board.buildable
        return {h for h in self.board.edge_list if owner[h] == EMPTY and buildable[h]}

    def _tavern_targets(self, s: int, first: bool = False) -> set[int]:
        """KB §7 Tavern: an available hex at either end of a straight line of at least 3 of
        your own settlements (any of the 3 axes).  Every run of 3 in a row along E, SE or SW
        is checked at both ends, which finds both ends of every line of 3 or more.  With
        ``first`` it stops at the first target (a usability test)."""
        owner, buildable = self.owner, self.board.buildable
        home = self.homes[s]
        out: set[int] = set()
        if len(home) < 3:
            return out
        for fwd, back in self.board.axes:
            for h in home:
                h1 = fwd[h]
                if h1 < 0 or h1 not in home:
                    continue
                h2 = fwd[h1]
                if h2 < 0 or h2 not in home:
                    continue
                for end in (fwd[h2], back[h]):
                    if end >= 0 and owner[end] == EMPTY and buildable[end]:
                        out.add(end)
                        if first:
                            return out
        return out

    def _village_targets(self, s: int) -> set[int]:
        """KB §7 Village: an available hex touching at least 3 of your own settlements."""
        a, buildable = self.adj[s], self.board.buildable
        return {h for h in self.front[s] if a[h] >= 3 and buildable[h]}

    def _move_sources(self, kind: str, s: int) -> list[int]:
        """Your settlements that the move tile can move somewhere (KB §7)."""
        home = self.homes[s]
        if kind == "Barn":
            return sorted(home) if self.free[self.terrain] else []
        if kind == "Harbor":
            return sorted(home) if self.free[WATER] else []
        if kind == "Paddock":
            return [h for h in sorted(home) if self._can_step(h, self.board.jump)]
        if kind in ("Caravan", "Resettlement"):
            return [h for h in sorted(home) if self._can_step(h, self.board.step)]
        raise AssertionError(f"{kind} is not a move tile")

    def _can_step(self, frm: int, tables: tuple[tuple[int, ...], ...]) -> bool:
        """Whether one of the hexes ``table[frm]`` (over the 6 directions) is empty and
        buildable: Paddock with the jump tables, Caravan (its first step) with the step
        tables."""
        owner, buildable = self.owner, self.board.buildable
        for table in tables:
            h = table[frm]
            if h >= 0 and owner[h] == EMPTY and buildable[h]:
                return True
        return False

    def _move_targets(self, kind: str, s: int, frm: int) -> set[int]:
        """Destinations for moving the settlement on ``frm`` (KB §7)."""
        if kind == "Barn":
            return self._lifted_placement(self.free[self.terrain], s, frm)
        if kind == "Harbor":
            return self._lifted_placement(self.free[WATER], s, frm)
        if kind == "Paddock":
            return self._paddock_targets(frm)
        if kind == "Caravan":
            return self._caravan_targets(frm)
        if kind == "Resettlement":
            return self._step_targets(frm)
        raise AssertionError(f"{kind} is not a move tile")

    def _step_targets(self, frm: int) -> set[int]:
        """KB §7 Resettlement: one single step to a neighbouring hex that is a legal place to
        stop — empty and buildable (no wall, no water, mountain or special hex)."""
        owner, buildable = self.owner, self.board.buildable
        return {h for h in self.board.nbrs[frm] if owner[h] == EMPTY and buildable[h]}

    def _lifted_placement(self, cand: set[int], s: int, frm: int) -> set[int]:
        """KB §5 "Moves": lift the settlement first, then apply the placement rule against
        your *remaining* settlements.  The vacated hex is never a candidate (reading B)."""
        if not cand:
            return set()
        a = self.adj[s]
        around = self.board.nbr_set[frm]
        near = {h for h in cand & self.front[s] if a[h] > 1 or h not in around}
        return near if near else set(cand)

    def _paddock_targets(self, frm: int) -> set[int]:
        """KB §7 Paddock: exactly 2 hexes in a straight line, jumping over anything; the
        target must be empty and buildable; no adjacency requirement."""
        owner, buildable = self.owner, self.board.buildable
        out = set()
        for jump in self.board.jump:
            h = jump[frm]
            if h >= 0 and owner[h] == EMPTY and buildable[h]:
                out.add(h)
        return out

    def _caravan_targets(self, frm: int) -> set[int]:
        """KB §7 Caravan: slide in one of 6 directions as far as possible; stop on the last
        free buildable hex before an obstacle (non-buildable hex, settlement, wall, edge)."""
        owner, buildable = self.owner, self.board.buildable
        out = set()
        for step in self.board.step:
            h = frm
            nxt = step[h]
            while nxt >= 0 and owner[nxt] == EMPTY and buildable[nxt]:
                h = nxt
                nxt = step[h]
            if h != frm:
                out.add(h)
        return out

    def _wall_targets(self, s: int) -> set[int]:
        """KB §7 Quarry: an empty hex of the card's terrain touching one of your settlements,
        while stone walls are left."""
        if self.walls_left <= 0:
            return set()
        return self.free[self.terrain] & self.front[s]

    def _usable(self, loc: int, s: int) -> bool:
        """KB §7: a tile can be used only if its action can be completed (early-exit tests
        equivalent to "the first step has a legal choice")."""
        kind = self.board.location_type[loc]
        if kind in BUILD_TILES:
            if self.supply[s] <= 0:
                return False
            if kind == "Oracle":
                return bool(self.free[self.terrain])
            if kind == "Farm":
                return bool(self.free[GRASS])
            if kind == "Oasis":
                return bool(self.free[DESERT])
            if kind == "Garden":
                return bool(self.free[FLOWER])
            if kind == "Tower":
                owner, buildable = self.owner, self.board.buildable
                return any(owner[h] == EMPTY and buildable[h] for h in self.board.edge_list)
            if kind == "Tavern":
                return bool(self._tavern_targets(s, first=True))
            a, buildable = self.adj[s], self.board.buildable
            return any(a[h] >= 3 and buildable[h] for h in self.front[s])  # Village
        home = self.homes[s]
        if not home:
            return False
        if kind == "Barn":
            return bool(self.free[self.terrain])
        if kind == "Harbor":
            return bool(self.free[WATER])
        if kind == "Paddock":
            return any(self._can_step(h, self.board.jump) for h in home)
        if kind == "Caravan":
            return any(self._can_step(h, self.board.step) for h in home)
        return self.walls_left > 0 and not self.free[self.terrain].isdisjoint(self.front[s])
