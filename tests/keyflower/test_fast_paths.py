"""The engine's fast paths give exactly what the plain rules functions give (issue 23's speed
work): the first list of a turn (KF §5, §6.1–§6.3) against each tile's own ``bid_options`` /
``use_options``, the losing bids (KF §5), and the placements (KF §9, D16) against
``village.placements``, at every position of random games of 2–6 players."""

from __future__ import annotations

import pytest

from game.core.rng import Rng
from game.keyflower import GAME, play, scan, seasons
from game.keyflower.bids import bid_options, can_bid, losing_bids
from game.keyflower.const import NONE, PLACE, PLAY, RECLAIM
from game.keyflower.tiles import TILES
from game.keyflower.village import axial, in_range, placements


def _positions(seed: int, players: int):
    st = GAME.new(players, None, seed)
    rng = Rng(seed)
    while not st.is_over():
        yield st
        seat = st.to_move()[rng.randbelow(len(st.to_move()))]
        acts = st.legal_actions(seat)
        st.apply(seat, acts[rng.randbelow(len(acts))])


@pytest.mark.parametrize(("seed", "players"), [(31, 2), (32, 3), (33, 4), (34, 5), (35, 6)])
def test_fast_lists_match_the_plain_rules(seed: int, players: int) -> None:
    checked = 0
    for st in _positions(seed, players):
        if st.phase == PLAY and st.stage in (NONE, RECLAIM):
            s = st.cur
            # bids: one loop over the bid tiles against each tile's own options
            bids: list = []
            targets, losing = scan.scan_bids(st, s, bids, 10_000)
            plain = [a for t in st.bid_tiles() for a in bid_options(st, s, t)]
            assert bids == plain
            assert targets == [t for t in st.bid_tiles() if can_bid(st, s, t)]
            assert losing == losing_bids(st, s)
            # uses: the memoised loop against each tile's own options
            uses: list = []
            scan.add_all_use_options(st, s, uses)
            assert uses == [a for t in play.use_tiles(st) for a in play.use_options(st, s, t)]
            checked += 1
        elif st.phase == PLACE:
            for s in seasons.placing(st):
                vil, rot, free = seasons.pending_village(st, s)
                for t in st.won[s]:
                    want = [
                        ("place", TILES[t].id, *axial(h), r)
                        for h, r in placements(vil, rot, t, free)
                        if in_range(*axial(h))
                    ]
                    assert seasons.tile_placements(st, s, t) == want
    assert checked > 50
