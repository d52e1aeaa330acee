"""Village geometry: hexes, edges, placement, roads and the layout scorings (KF §9, §11.1, §12).

A village is a map ``hex id -> tile index``; each placed tile has a rotation ``rot[tile]`` in
0..5.  Hexes are flat-topped, in axial coordinates ``(q, r)`` with the home tile at ``(0, 0)``;
the hex id is ``(q + 16) * 32 + (r + 16)``.  Sides are numbered as in the data file: 0 bottom,
1 lower-left, 2 upper-left, 3 top, 4 upper-right, 5 lower-right; side ``p`` of one hex touches
side ``(p + 3) % 6`` of its neighbour in direction ``p``.  A tile placed with rotation ``rot``
shows on side ``p`` the edge its data lists at index ``(p - rot) % 6`` (turned clockwise by
``rot`` sixths).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from game.keyflower.tiles import BOAT, NTILES, RIVER, ROAD, SUMMER_BOAT, TILES

WIDTH = 32
OFFSET = 16
#: The home tile's hex.
HOME_HEX = OFFSET * WIDTH + OFFSET
#: Axial (dq, dr) of the six directions, by side number.
AXIAL = ((0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1), (1, 0))
#: Hex-id offset of the neighbour across each side.
DIRS: tuple[int, ...] = tuple(dq * WIDTH + dr for dq, dr in AXIAL)

#: ``ROT_EDGES[tile][rot][p]``: the edge type a tile shows on side p when turned by rot.
ROT_EDGES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(t.edges[(p - rot) % 6] for p in range(6)) for rot in range(6)) for t in TILES
)
assert len(ROT_EDGES) == NTILES

Village = Mapping[int, int]


def hex_id(q: int, r: int) -> int:
    """The hex id of axial ``(q, r)`` (the caller keeps ``|q|, |r| < 16``)."""
    return (q + OFFSET) * WIDTH + (r + OFFSET)


def axial(h: int) -> tuple[int, int]:
    """The axial ``(q, r)`` of a hex id."""
    return h // WIDTH - OFFSET, h % WIDTH - OFFSET


def in_range(q: int, r: int) -> bool:
    """Whether ``(q, r)`` is a hex this engine can address (a village never reaches the edge)."""
    return -OFFSET + 1 <= q <= OFFSET - 2 and -OFFSET + 1 <= r <= OFFSET - 2


def frontier(village: Village) -> list[int]:
    """KF §9: the empty hexes next to at least one tile of the village, sorted."""
    out: set[int] = set()
    for h in village:
        for d in DIRS:
            x = h + d
            if x not in village:
                out.add(x)
    return sorted(out)


def fits(village: Village, rot: Sequence[int], tile: int, h: int, r: int) -> bool:
    """KF §9: every side the tile (turned by ``r``) shares with a village tile is of the same
    type as that tile's side: road to road, river to river, field to field."""
    mine = ROT_EDGES[tile][r]
    for p in range(6):
        other = village.get(h + DIRS[p])
        if other is not None and ROT_EDGES[other][rot[other]][(p + 3) % 6] != mine[p]:
            return False
    return True


def placements(
    village: Village, rot: Sequence[int], tile: int, free_edges: bool
) -> list[tuple[int, int]]:
    """KF §9 and D16: the legal ``(hex, rotation)`` for ``tile``, in hex then rotation order.

    With ``free_edges`` (summer boat 2a) any empty hex next to the village in any rotation.
    Otherwise the matching positions; if there is none, any empty adjacent hex in any rotation
    (D16: every won tile must be placed).
    """
    hexes = frontier(village)
    everywhere = [(h, r) for h in hexes for r in range(6)]
    if free_edges:
        return everywhere
    mine = ROT_EDGES[tile]
    ok = []
    for h in hexes:
        # the edge each neighbour shows towards h, by our side
        need = []
        for p in range(6):
            other = village.get(h + DIRS[p])
            if other is not None:
                need.append((p, ROT_EDGES[other][rot[other]][(p + 3) % 6]))
        for r in range(6):
            edges = mine[r]
            for p, e in need:
                if edges[p] != e:
                    break
            else:
                ok.append((h, r))
    return ok if ok else everywhere


#: ``PACKED[tile][rot]``: the edges a tile shows turned by ``rot``, two bits per side (side
#: ``p`` at bits ``2p``), so that a whole fit test is one mask and one comparison.
PACKED: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(e << (2 * p) for p, e in enumerate(ROT_EDGES[t][r])) for r in range(6))
    for t in range(NTILES)
)


#: ``_TOUCH[tile][rot][d]``: what a tile turned by ``rot`` asks of a tile placed across its
#: side ``d``: the neighbour's side ``(d + 3) % 6`` must show the same edge, as ``mask << 12 |
#: value`` in the two-bit layout of :data:`PACKED`.
_TOUCH: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(
            (3 << (2 * ((d + 3) % 6))) << 12 | ROT_EDGES[t][r][d] << (2 * ((d + 3) % 6))
            for d in range(6)
        )
        for r in range(6)
    )
    for t in range(NTILES)
)


def frontier_needs(village: Village, rot: Sequence[int]) -> list[tuple[int, int]]:
    """KF §9: for each empty hex next to the village (sorted, as :func:`frontier`), what a
    tile placed there must show: ``(hex, mask << 12 | value)`` — a tile turned by ``r`` fits
    exactly when ``PACKED[tile][r] & mask == value``."""
    acc: dict[int, int] = {}
    get = acc.get
    for h, t in village.items():
        touch = _TOUCH[t][rot[t]]
        for d in range(6):
            x = h + DIRS[d]
            if x not in village:
                acc[x] = get(x, 0) | touch[d]
    return sorted(acc.items())


def pending_needs(
    village: Village, rot: Sequence[int], pending: Sequence[tuple[int, int, int]]
) -> list[tuple[int, int]]:
    """:func:`frontier_needs` of ``village`` with the ``pending`` placements ``(tile, hex,
    rot)`` of this phase added: the village's own needs come from a memo (by its hexes, tiles
    and rotations), each pending tile then closes its hex and adds what it asks of its empty
    neighbours (the needs are an OR over the village's tiles, so the order does not matter)."""
    tiles = village.values()
    # the village's hexes, then its tiles, then their rotations (one flat tuple of ints)
    key = (*village, *tiles, *map(rot.__getitem__, tiles))
    got = _NEEDS.get(key)
    if got is None:
        if len(_NEEDS) >= 4_096:
            _NEEDS.clear()
        needs = frontier_needs(village, rot)
        got = _NEEDS[key] = (dict(needs), needs)
    if not pending:
        return got[1]
    acc = dict(got[0])
    get = acc.get
    placed: set[int] = set()  # the pending tiles' hexes so far
    for t, h, r in pending:
        acc.pop(h, None)
        placed.add(h)
        for step, touch in zip(DIRS, _TOUCH[t][r], strict=True):
            x = h + step
            if x not in village and x not in placed:
                acc[x] = get(x, 0) | touch
    return sorted(acc.items())


#: :func:`pending_needs`' memo: a village's needs as a dict and as the sorted list, by the
#: village's hexes, tiles and rotations.
_NEEDS: dict[tuple[int, ...], tuple[dict[int, int], list[tuple[int, int]]]] = {}


def road_joined(village: Village, rot: Sequence[int], a: int, p: int) -> bool:
    """Whether the tile on hex ``a`` and its neighbour across side ``p`` meet road to road."""
    b = village.get(a + DIRS[p])
    if b is None:
        return False
    ta = village[a]
    return ROT_EDGES[ta][rot[ta]][p] == ROAD and ROT_EDGES[b][rot[b]][(p + 3) % 6] == ROAD


def transport_neighbours(village: Village, rot: Sequence[int], h: int, any_side: bool) -> list[int]:
    """KF §7.1: the village hexes one transport step from ``h``: joined by road, or (summer
    boat 2a, ``any_side``) simply adjacent."""
    out = []
    for p in range(6):
        x = h + DIRS[p]
        if x in village and (any_side or road_joined(village, rot, h, p)):
            out.append(x)
    return out


def can_transport(village: Village, rot: Sequence[int], h: int, any_side: bool) -> bool:
    """Whether :func:`transport_neighbours` of ``h`` is not empty (the first one found ends the
    search)."""
    if any_side:
        return any(h + d in village for d in DIRS)
    ta = village.get(h)
    if ta is None:
        return bool(transport_neighbours(village, rot, h, any_side))
    edges = ROT_EDGES[ta][rot[ta]]
    for p in range(6):
        if edges[p] == ROAD:
            b = village.get(h + DIRS[p])
            if b is not None and ROT_EDGES[b][rot[b]][(p + 3) % 6] == ROAD:
                return True
    return False


def adjacent_tiles(village: Village, h: int) -> int:
    """D25: how many village tiles share an edge with hex ``h``."""
    return sum(1 for d in DIRS if h + d in village)


# ---- Sea Bastion (KF §11.1, D21) -----------------------------------------------------------
def road_graph(village: Village, rot: Sequence[int]) -> tuple[list[int], list[tuple[int, int]]]:
    """The village's hexes and its road contacts (as pairs of vertex numbers)."""
    verts = sorted(village)
    num = {h: i for i, h in enumerate(verts)}
    edges = []
    for h in verts:
        for p in (3, 4, 5):  # each contact once: towards top, upper-right, lower-right
            if road_joined(village, rot, h, p):
                edges.append((num[h], num[h + DIRS[p]]))
    return verts, edges


def best_road_loop(
    village: Village, rot: Sequence[int], min_tiles: int = 3
) -> tuple[int, list[int]]:
    """D21: the most tiles on one closed road loop (a closed trail: no road contact used twice,
    tiles may be passed more than once but count once; at least ``min_tiles``), and its hexes.

    A closed trail is exactly a connected edge set in which every tile has an even number of
    its contacts: an element of the road graph's cycle space.  Every element is a sum (XOR) of
    fundamental cycles of a spanning forest, so the search tries all of them (the villages are
    small: a handful of independent cycles) and keeps the connected one touching most tiles.
    Summer boat 2a does not count here (only printed roads).
    """
    verts, edges = road_graph(village, rot)
    nv = len(verts)
    if not edges:
        return 0, []
    # spanning forest by BFS; each non-tree edge closes one fundamental cycle
    inc: list[list[tuple[int, int]]] = [[] for _ in range(nv)]
    for e, (a, b) in enumerate(edges):
        inc[a].append((b, e))
        inc[b].append((a, e))
    parent = [-1] * nv
    pedge = [-1] * nv
    depth = [-1] * nv
    tree: set[int] = set()
    for root in range(nv):
        if depth[root] >= 0:
            continue
        depth[root] = 0
        queue = [root]
        for v in queue:
            for w, e in inc[v]:
                if depth[w] < 0:
                    depth[w] = depth[v] + 1
                    parent[w] = v
                    pedge[w] = e
                    tree.add(e)
                    queue.append(w)
    cycles: list[int] = []
    for e, (a, b) in enumerate(edges):
        if e in tree:
            continue
        mask = 1 << e
        x, y = a, b
        while x != y:
            if depth[x] >= depth[y]:
                mask ^= 1 << pedge[x]
                x = parent[x]
            else:
                mask ^= 1 << pedge[y]
                y = parent[y]
        cycles.append(mask)
    if not cycles:
        return 0, []
    ends = [(1 << a) | (1 << b) for a, b in edges]
    best, best_mask = 0, 0
    # Gray code over all 2^d sums of fundamental cycles
    mask = 0
    for i in range(1, 1 << len(cycles)):
        bit = (i & -i).bit_length() - 1
        mask ^= cycles[bit]
        vmask = 0
        m = mask
        while m:
            low = m & -m
            vmask |= ends[low.bit_length() - 1]
            m ^= low
        count = vmask.bit_count()
        if count > best and count >= min_tiles and _connected(mask, ends):
            best, best_mask = count, vmask
    return best, [verts[v] for v in range(nv) if best_mask >> v & 1]


def _connected(mask: int, ends: list[int]) -> bool:
    """Whether the edges in ``mask`` form one connected group."""
    edges = []
    m = mask
    while m:
        low = m & -m
        edges.append(ends[low.bit_length() - 1])
        m ^= low
    reach = edges.pop()
    grew = True
    while grew and edges:
        grew = False
        rest = []
        for e in edges:
            if e & reach:
                reach |= e
                grew = True
            else:
                rest.append(e)
        edges = rest
    return not edges


# ---- Sea Breeze (KF §11.1) ------------------------------------------------------------------
def river_chain(village: Village, rot: Sequence[int]) -> list[int]:
    """KF §11.1 Sea Breeze: the boat tiles (boats and summer boats) joined to the home tile by
    river — follow the river from the home tile's river side through boat tiles whose river
    runs on through the opposite side.  Returns their hexes in order."""
    home_tile = village[HOME_HEX]
    sides = ROT_EDGES[home_tile][rot[home_tile]]
    out: list[int] = []
    for p in range(6):
        if sides[p] != RIVER:
            continue
        h = HOME_HEX
        while True:
            x = h + DIRS[p]
            t = village.get(x)
            if t is None or TILES[t].kind not in (BOAT, SUMMER_BOAT):
                break
            e = ROT_EDGES[t][rot[t]]
            if e[(p + 3) % 6] != RIVER:
                break
            out.append(x)
            if e[p] != RIVER:
                break
            h = x
        if out:
            break
    return out


def connected_groups(hexes: Iterable[int]) -> int:
    """How many groups of touching hexes ``hexes`` form (a village is always one)."""
    left = set(hexes)
    groups = 0
    while left:
        groups += 1
        stack = [left.pop()]
        while stack:
            h = stack.pop()
            for d in DIRS:
                if h + d in left:
                    left.remove(h + d)
                    stack.append(h + d)
    return groups
