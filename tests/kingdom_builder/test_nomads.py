"""Kingdom Builder: Nomads — setup, nomad tiles, the Nomads cards and 5 players (KB §1.2, §3,
§7 "Nomad tiles", §8, §9.3), on hand-built positions with hand-counted gold.

Map ``NB`` (none turned): Quarry TL, Caravan TR, Village BL, Garden BR.  Rows used::

        0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9
     0  g g g w w w m c c c w w g g w w w f f f
     1   g g w t d w w w c c w g g t w w w f f f
     2  g m w t L d d d w m w w w g t w w d d f
     3   f w t t c c d f f f t t w N t w d m f f
     4  f w g g c c d d m f t t t w w w d d g g
     5   f w N g c c d N f f t t t t c d g g g g
     6  f f w g c c c f f f t t L c c c g g m g
     7   d w g g c N t t f f t c c c c g L d d g
     8  d d w w g t t m t t c m c c c f f f d d
     9   d d d w w t m t t t c c c f f f f d d d

Nomad hexes: (3,13) (5,2) (5,7) (7,5) (13,4) (17,16); location hexes: Quarry (2,4), Caravan
(6,12) (7,16), Garden (11,14) (15,13), Village (14,7) (16,3).

Odd-r neighbours (KB §2): even row r: (r, c±1), (r-1, c-1), (r-1, c), (r+1, c-1), (r+1, c);
odd row r: (r, c±1), (r-1, c), (r-1, c+1), (r+1, c), (r+1, c+1).
"""

from __future__ import annotations

from collections import Counter

import pytest

from game.core.rng import Rng
from game.core.types import BadState, IllegalAction
from game.kingdom_builder import GAME, scoring
from game.kingdom_builder import nomads as nm
from game.kingdom_builder.codes import NEW, READY, USED
from tests.kingdom_builder.helpers import filler, legal, play, position

NB = ("Quarry", "Caravan", "Village", "Garden")
HB = ("Harbor", "Barn", "Oracle", "Tower")
CARDS3 = ("Ambassadors", "Families", "Shepherds")


def h(r: int, c: int) -> int:
    return r * 20 + c


def nb(**kw):
    """A full-Nomads position on NB (see the module docstring)."""
    kw.setdefault("sections", NB)
    kw.setdefault("nomads", "full")
    return position(**kw)


def types(events) -> list[str]:
    return [e["type"] for e in events]


# ---- setup and options (KB §1.2, §3) -------------------------------------------------------------
def test_full_setup_lays_one_random_face_up_tile_on_each_nomad_hex():
    """KB §3.3: one random tile of the 15 on each of the 6 nomad hexes, face up; the draw comes
    from the state's RNG (same seed, same tiles) and never takes more of a kind than the box
    holds (KB §1.2 mix)."""
    seen: Counter[str] = Counter()
    for seed in range(40):
        st = GAME.new(3, {"nomads": "full", "sections": list(NB)}, seed)
        assert st.nomad_left == set(st.board.nomads) and len(st.nkind) == 6
        counts = Counter(st.nkind.values())
        assert all(counts[t] <= nm.MIX[t] for t in counts)
        seen.update(st.nkind.values())
        again = GAME.new(3, {"nomads": "full", "sections": list(NB)}, seed)
        assert again.nkind == st.nkind
        view = st.view(None)
        assert [n["tile"] for n in view["nomads"]] == [
            nm.TILE_TYPE[st.nkind[x]] for x in st.board.nomads
        ]
    assert set(seen) == set(nm.TILE_IDS)  # all 11 faces turn up over 40 games


def test_nomads_setting_off_boards_full():
    """KB §3.1, §3.5: "boards" puts the Nomads sections in the random pool with the 10 base
    cards and no nomad tiles; "full" adds the nomad tiles and the 13-card pool; ``true`` means
    "boards" (its meaning before the nomad tiles), so it sets up the very same game."""
    base_cards, full_cards = set(), set()
    for seed in range(60):
        boards = GAME.new(2, {"nomads": "boards"}, seed)
        assert boards.to_dict() == GAME.new(2, {"nomads": True}, seed).to_dict()
        assert not boards.nkind and boards.nomads == nm.BOARDS
        base_cards.update(boards.cards)
        full = GAME.new(2, {"nomads": "full"}, seed)
        full_cards.update(full.cards)
        assert bool(full.nkind) == bool(full.board.nomads)
        off = GAME.new(2, {}, seed)
        assert off.nomads == nm.OFF and not set(off.board.names) & set(NB)
    assert base_cards == set(scoring.CARDS)
    assert full_cards == set(scoring.ALL_CARDS)


def test_five_players_with_the_expansion():
    """KB §1.2: a 5th colour comes with Nomads: 2–5 players whenever the expansion is in play
    (a 5-player game without the option is a full Nomads game); 40 settlements each, the same
    25 terrain cards, one dealt to each seat."""
    for mode in ("boards", "full"):
        st = GAME.new(5, {"nomads": mode}, 3)
        assert st.players == 5 and st.supply == [40] * 5
        assert len(st.deck) == 25 - 5 and all(c >= 0 for c in st.hands)
    assert GAME.new(5, {}, 3).nomads == nm.FULL


# ---- taking, using and losing nomad tiles (KB §7 "Nomad tiles") ----------------------------------
def test_first_seat_next_to_a_nomad_hex_takes_its_tile_for_its_next_turn():
    """KB §7: (4,7) touches the nomad hex (5,7); building there takes its Treasure tile, which
    cannot be used this turn.  The hex stays a special hex, and the next seat to come next to
    it gets nothing."""
    st = nb(nomad_tiles={(5, 7): "Treasure", (7, 5): "Sword"}, terrain="D")
    events = play(st, ("place", 4, 7))
    assert {
        "type": "gain_nomad",
        "seat": 0,
        "hex": [5, 7],
        "tile": "Treasure",
        "terrain": None,
    } in events
    assert st.nheld[0] == {h(5, 7): NEW} and st.nomad_left == {h(7, 5)}
    assert ("use", 5, 7) not in st.legal_actions(0)
    with pytest.raises(IllegalAction, match="next turn"):
        st.apply(0, ("use", 5, 7))
    assert (5, 7) not in legal(st)  # the nomad hex is never buildable
    # seat 1 comes next to (5,7) later: the tile is gone from the hex
    st = nb(
        settlements={0: [(4, 7)], 1: [(6, 9)]},
        nomad_held={0: {(5, 7): ("Treasure", "ready")}},
        current=1,
        terrain="F",
    )
    events = play(st, ("place", 6, 8))  # touches (5,7)
    assert "gain_nomad" not in types(events)


def test_a_nomad_tile_is_used_in_the_next_turn_and_then_gone_used_or_not():
    """KB §7: after its owner's next turn the tile leaves the game, used or not; a tile taken
    in that turn waits for the turn after."""
    st = nb(
        settlements={0: [(4, 7), (6, 4)]},
        nomad_held={0: {(5, 7): ("Treasure", "ready")}},
        nomad_tiles={(7, 5): "Sword"},
        terrain="C",
    )
    assert ("use", 5, 7) in st.legal_actions(0)
    # the mandatory canyon action: (6,5) next to (6,4) also touches the Sword's hex (7,5)
    events = play(st, ("place", 6, 5), ("place", 5, 4), ("place", 5, 5))
    assert st.nheld[0] == {h(5, 7): READY, h(7, 5): NEW}
    events = play(st, ("end",))
    assert {
        "type": "discard_nomad",
        "seat": 0,
        "hex": [5, 7],
        "tile": "Treasure",
        "terrain": None,
        "used": False,
    } in events
    assert st.nheld[0] == {h(7, 5): READY} and h(5, 7) not in st.nkind
    assert st.gold[0] == [0, 0, 0, 0]


def test_moving_away_never_loses_a_nomad_tile():
    """KB §7 (FAQ): Resettlement steps the only settlement next to (5,7) away: the Treasure
    tile taken from there is kept (a location tile would be lost, KB §6.2)."""
    st = nb(
        settlements={0: [(4, 7)]},
        nomad_held={0: {(5, 7): ("Treasure", "pending"), (7, 5): ("Resettlement", "ready")}},
        terrain="C",
    )
    play(st, ("use", 7, 5), ("move_from", 4, 7), ("place", 3, 7))
    assert st.adj[0][h(5, 7)] == 0
    assert st.nheld[0][h(5, 7)] == NEW


# ---- Donation ------------------------------------------------------------------------------------
def test_donation_builds_three_settlements_on_its_terrain_adjacent_if_possible():
    """KB §7 Donation: 3 settlements from the supply on its terrain, the placement rule tested
    before each.  Donation - Grass with (0,0): the grass next to it is (0,1) and (1,0)."""
    st = nb(
        settlements={0: [(0, 0)]},
        nomad_held={0: {(5, 2): ("Donation - Grass", "ready")}},
        terrain="T",
    )
    events = play(st, ("use", 5, 2))
    assert events[0] == {
        "type": "use_nomad",
        "seat": 0,
        "hex": [5, 2],
        "tile": "Donation",
        "terrain": "G",
    }
    assert legal(st) == {(0, 1), (1, 0)}
    play(st, ("place", 0, 1))
    assert legal(st) == {(0, 2), (1, 0), (1, 1)}
    play(st, ("place", 1, 1), ("place", 1, 0))
    assert st.pending is None and st.supply[0] == 36
    assert st.nheld[0] == {h(5, 2): USED}
    # the mandatory forest action is still to do
    assert st.legal_actions(0)[0][0] == "place" and ("end",) not in st.legal_actions(0)


def test_donation_water_and_mountain_and_what_they_score():
    """KB §7 Donation: Donation - Mountain is the only way onto a mountain, Donation - Water a
    second way onto water; no settlement to be adjacent to, so any free mountain.  A settlement
    on a mountain scores Fishermen but never Miners; one on water Miners but never Fishermen
    (KB §9.2): (2,1) mountain touches the water (2,2), (2,2) water touches the mountain (2,1)."""
    st = nb(nomad_held={0: {(5, 2): ("Donation - Mountain", "ready")}}, terrain="G")
    play(st, ("use", 5, 2))
    mountains = {(r, c) for r in range(20) for c in range(20) if st.board.code(h(r, c)) == "M"}
    assert legal(st) == mountains
    play(st, ("place", 2, 1))
    assert st.homes[0] == {h(2, 1)}
    st = nb(settlements={0: [(2, 1), (2, 2)]})
    assert scoring.fishermen(st.board, st.homes) == [1, 0]  # (2,1) only
    assert scoring.miners(st.board, st.homes) == [1, 0]  # (2,2) only


def test_donation_ends_early_when_the_supply_runs_out():
    """KB §4 "running out": the last settlement from the supply ends the Donation and triggers
    the end of the game (KB §8)."""
    start = nb()
    homes = [(0, 0), *filler(start, 38, avoid=[(0, 0), (0, 1), (1, 0)])]
    st = nb(
        settlements={0: homes},
        nomad_held={0: {(5, 2): ("Donation - Grass", "ready")}},
        terrain="T",
        placed=3,
        mandatory_done=True,
    )
    events = play(st, ("use", 5, 2), ("place", 0, 1))
    assert "end_triggered" in types(events)
    assert st.supply[0] == 0 and st.pending is None and st.end_triggered


# ---- Treasure ------------------------------------------------------------------------------------
def test_treasure_pays_3_gold_when_used_and_it_is_banked_at_once():
    """KB §7 Treasure (decision: paid when used): 3 gold, banked (scores() counts it before
    the end, in the ``treasure`` category)."""
    st = nb(settlements={0: [(4, 7)]}, nomad_held={0: {(5, 7): ("Treasure", "ready")}})
    events = play(st, ("use", 5, 7))
    assert {"type": "gold", "seat": 0, "source": "Treasure", "gold": 3} in events
    assert st.gold[0] == [0, 0, 0, 3] and st.gold_total(0) == 3
    assert st.scores()[0]["treasure"] == 3 and st.scores()[0]["total"] == 3
    assert st.preview_scores()[0]["treasure"] == 3
    assert st.view(1)["seats"][0]["gold"] == 3


def test_treasure_taken_in_the_last_round_is_lost_with_the_game_end():
    """KB §7 Treasure: used on the next turn; if the game ends first, it is lost.  Seat 0 (the
    start seat) placed its 40th settlement; seat 1, last in the round, takes the Treasure of
    (5,7) with (4,7) (next to its (3,7)) and places its last settlement: the game ends."""
    start = nb()
    seat0 = filler(start, 40, rows=range(10, 20))
    seat1 = [(3, 7), *filler(start, 37, avoid=[(3, 7), (4, 6), (4, 7)], rows=range(0, 10))]
    st = nb(
        settlements={0: seat0, 1: seat1},
        nomad_tiles={(5, 7): "Treasure"},
        terrain="D",
        start=0,
        current=1,
    )
    assert st.end_triggered and (4, 7) in legal(st)
    play(st, ("place", 4, 7))
    assert st.nheld[1] == {h(5, 7): NEW}
    play(st, ("place", *sorted(legal(st))[0]), ("end",))
    assert st.is_over() and st.gold[1][3] == 0
    assert st.scores()[1]["treasure"] == 0


def test_treasure_paid_when_taken_is_one_data_switch(monkeypatch):
    """The open detail of KB §7 Treasure lives in data (``treasure_paid``): with "taken" the
    3 gold are paid at once and no tile is held."""
    monkeypatch.setattr(nm, "TREASURE_PAID", "taken")
    st = nb(nomad_tiles={(5, 7): "Treasure"}, terrain="D")
    events = play(st, ("place", 4, 7))
    assert {"type": "gold", "seat": 0, "source": "Treasure", "gold": 3} in events
    assert st.nheld[0] == {} and st.gold[0][3] == 3 and not st.nkind


# ---- Sword ---------------------------------------------------------------------------------------
def test_sword_takes_one_settlement_from_each_other_player_back_to_its_supply():
    """KB §7 Sword: the user picks one settlement of each other player who has one on the
    map; each goes back to its owner's supply.  Seat 3 has none and is skipped."""
    st = nb(
        players=4,
        settlements={0: [(4, 7)], 1: [(0, 0), (0, 1)], 2: [(19, 0)]},
        nomad_held={0: {(5, 7): ("Sword", "ready")}},
    )
    play(st, ("use", 5, 7))
    assert legal(st, "remove") == {(0, 0), (0, 1), (19, 0)}
    assert all(a[0] == "remove" for a in st.legal_actions(0))
    events = play(st, ("remove", 0, 1))
    assert events == [{"type": "remove", "seat": 0, "victim": 1, "hex": [0, 1]}]
    assert legal(st, "remove") == {(19, 0)}
    with pytest.raises(IllegalAction, match="already lost"):
        st.apply(0, ("remove", 0, 0))
    play(st, ("remove", 19, 0))
    assert st.pending is None
    assert st.supply[1:] == [39, 40, 40] and st.homes[1] == {h(0, 0)} and not st.homes[2]


def test_sword_needs_another_player_on_the_map_and_takes_only_theirs():
    st = nb(settlements={0: [(4, 7)]}, nomad_held={0: {(5, 7): ("Sword", "ready")}})
    assert ("use", 5, 7) not in st.legal_actions(0)
    st = nb(settlements={0: [(4, 7)], 1: [(9, 9)]}, nomad_held={0: {(5, 7): ("Sword", "ready")}})
    play(st, ("use", 5, 7))
    with pytest.raises(IllegalAction, match="other players only"):
        st.apply(0, ("remove", 4, 7))


def test_sword_can_cost_a_location_tile_but_never_a_nomad_tile():
    """KB §6.2 via KB §7 Sword: seat 1's only settlement next to the Quarry hex (2,4) goes:
    its Quarry tile leaves the game.  Its nomad tile from (5,7) stays (moving away — or being
    removed — never loses one)."""
    st = nb(
        settlements={0: [(0, 0)], 1: [(3, 4), (4, 7)]},
        tiles={1: {(2, 4): "ready"}},
        nomad_held={0: {(7, 5): ("Sword", "ready")}, 1: {(5, 7): ("Outpost", "ready")}},
    )
    events = play(st, ("use", 7, 5), ("remove", 3, 4))
    assert {"type": "lose_tile", "seat": 1, "tile_type": "Quarry", "hex": [2, 4]} in events
    assert st.tiles[1] == {} and h(2, 4) in st.taken[1]
    st = nb(
        settlements={0: [(0, 0)], 1: [(3, 4), (4, 7)]},
        tiles={1: {(2, 4): "ready"}},
        nomad_held={0: {(7, 5): ("Sword", "ready")}, 1: {(5, 7): ("Outpost", "ready")}},
    )
    play(st, ("use", 7, 5), ("remove", 4, 7))
    assert st.nheld[1] == {h(5, 7): READY}


def test_sword_cannot_undo_a_game_end_already_triggered():
    """KB §8 (Nomads): seat 0 placed its 40th settlement; seat 1, last in the round, takes one
    back into seat 0's supply with a Sword — the end stays triggered and the game ends when
    the round is complete."""
    start = nb()
    homes = filler(start, 40, avoid=[(4, 7), (0, 0), (0, 1)])
    st = nb(
        settlements={0: homes, 1: [(4, 7)]},
        nomad_held={1: {(5, 7): ("Sword", "ready")}},
        start=0,
        current=1,
        terrain="G",
    )
    assert st.end_triggered and st.supply[0] == 0
    play(st, ("use", 5, 7), ("remove", *homes[0]))
    assert st.supply[0] == 1 and st.end_triggered
    assert st.view(None)["end_triggered"]
    while not st.mand_done:
        play(st, ("place", *sorted(legal(st))[0]))
    events = play(st, ("end",))
    assert st.is_over() and events[-1]["type"] == "game_over"


# ---- Outpost -------------------------------------------------------------------------------------
def test_outpost_lets_one_build_ignore_the_adjacency_rule():
    """KB §7 Outpost (decision: one build): the next settlement goes on any free hex of its
    terrain; the one after follows the placement rule again (next to any of your settlements,
    the outpost included)."""
    st = nb(settlements={0: [(0, 0)]}, nomad_held={0: {(5, 2): ("Outpost", "ready")}})
    assert legal(st) == {(0, 1), (1, 0)}
    events = play(st, ("use", 5, 2))
    assert events == [
        {"type": "use_nomad", "seat": 0, "hex": [5, 2], "tile": "Outpost", "terrain": None}
    ]
    assert st.outpost == 1 and st.view(0)["turn"]["outpost"] == 1
    grass = st.free[0]
    assert legal(st) == {(x // 20, x % 20) for x in grass}
    play(st, ("place", 19, 0))
    assert st.outpost == 0
    # next to (0,0) or (19,0): (0,1), (1,0); (18,0), (18,1), (19,1)
    assert legal(st) == {(0, 1), (1, 0), (18, 0), (18, 1), (19, 1)}


def test_outpost_may_come_between_the_mandatory_placements_and_before_a_tile_build():
    """KB §7 Outpost changes a build and is no extra action, so it may be used between two
    mandatory placements (other tiles may not, KB §4.3), and before a tile build: Garden
    (11,14) then builds on any free flower field."""
    st = nb(
        settlements={0: [(0, 0)]},
        nomad_held={0: {(5, 2): ("Outpost", "ready"), (5, 7): ("Treasure", "ready")}},
    )
    play(st, ("place", 0, 1))
    uses = {a for a in st.legal_actions(0) if a[0] == "use"}
    assert uses == {("use", 5, 2)}
    with pytest.raises(IllegalAction, match="between the 3 mandatory placements"):
        st.apply(0, ("use", 5, 7))
    play(st, ("use", 5, 2), ("place", 19, 0))
    st = nb(
        settlements={0: [(0, 0), (10, 14)]},
        tiles={0: {(11, 14): "ready"}},
        nomad_held={0: {(5, 2): ("Outpost", "ready")}},
        placed=3,
        mandatory_done=True,
    )
    play(st, ("use", 11, 14))
    near = legal(st)
    st = nb(
        settlements={0: [(0, 0), (10, 14)]},
        tiles={0: {(11, 14): "ready"}},
        nomad_held={0: {(5, 2): ("Outpost", "ready")}},
        placed=3,
        mandatory_done=True,
    )
    play(st, ("use", 5, 2), ("use", 11, 14))
    flowers = {(x // 20, x % 20) for x in st.free[3]}
    assert legal(st) == flowers and near < flowers


def test_outpost_leaves_the_village_rule_and_is_spent_by_the_next_build():
    """KB §7 Outpost lifts only the adjacency rule (docs decision 21): a Village build still
    needs a hex touching 3 of your settlements — NB (15,3) (17,3) (17,4) around (16,4), next
    to the Village hex (16,3) — and, being the next build of the turn, it spends the
    Outpost."""
    kw = {
        "settlements": {0: [(15, 3), (17, 3), (17, 4)]},
        "tiles": {0: {(16, 3): "ready"}},
        "placed": 3,
        "mandatory_done": True,
    }
    st = nb(**kw)
    play(st, ("use", 16, 3))
    plain = legal(st)
    st = nb(nomad_held={0: {(5, 2): ("Outpost", "ready")}}, **kw)
    play(st, ("use", 5, 2), ("use", 16, 3))
    assert st.outpost == 1
    assert legal(st) == plain == {(16, 4)}
    play(st, ("place", 16, 4))
    assert st.outpost == 0 and st.view(0)["turn"]["outpost"] == 0


def test_outpost_is_not_offered_when_no_build_can_follow():
    """KB §7: a tile with nothing to do cannot be used — after the mandatory action, with no
    build tile left, Outpost is not offered."""
    st = nb(
        settlements={0: [(0, 0)]},
        nomad_held={0: {(5, 2): ("Outpost", "ready")}},
        placed=3,
        mandatory_done=True,
    )
    assert st.legal_actions(0) == [("end",)]


# ---- Resettlement --------------------------------------------------------------------------------
def test_resettlement_four_single_steps_picking_up_and_losing_tiles_on_the_way():
    """KB §7 Resettlement: 4 single steps, each a move.  (4,5) -> (3,4) touches the Quarry hex
    (2,4): a Quarry tile (new).  (3,4) -> (4,4) leaves it: the tile is lost at once (KB §6.2).
    (4,4) -> (4,3) touches the nomad hex (5,2): its Sword tile.  (4,3) -> (4,2): the fourth
    step ends the action.  Every hex entered must be a legal stop: from (4,3) not the nomad
    hex (5,2)."""
    st = nb(
        settlements={0: [(4, 5)]},
        nomad_held={0: {(7, 5): ("Resettlement", "ready")}},
        nomad_tiles={(5, 2): "Sword"},
    )
    play(st, ("use", 7, 5))
    assert legal(st, "move_from") == {(4, 5)} and ("stop",) not in st.legal_actions(0)
    events = play(st, ("move_from", 4, 5), ("place", 3, 4))
    assert types(events) == ["move", "gain_tile"] and st.tiles[0] == {h(2, 4): NEW}
    assert ("stop",) in st.legal_actions(0)
    events = play(st, ("move_from", 3, 4), ("place", 4, 4))
    assert types(events) == ["move", "lose_tile"] and st.tiles[0] == {}
    play(st, ("move_from", 4, 4))
    assert legal(st) == {(4, 3), (4, 5), (3, 3), (3, 4), (5, 3), (5, 4)}
    events = play(st, ("place", 4, 3))
    assert "gain_nomad" in types(events) and st.nheld[0][h(5, 2)] == NEW
    play(st, ("move_from", 4, 3))
    assert legal(st) == {(4, 2), (4, 4), (3, 2), (3, 3), (5, 3)}  # (5,2) is the nomad hex
    play(st, ("place", 4, 2))
    assert st.pending is None and st.homes[0] == {h(4, 2)}
    assert st.view(0)["turn"]["pending"] is None


def test_resettlement_steps_are_shared_between_settlements_and_may_stop_early():
    """KB §7 Resettlement: 1 + 1 + 2 steps with three settlements; or stop after one step
    (decision: like Quarry's second wall, the rest may be left)."""
    held = {0: {(7, 5): ("Resettlement", "ready")}}
    st = nb(settlements={0: [(0, 0), (9, 0), (19, 19)]}, nomad_held=held)
    play(st, ("use", 7, 5), ("move_from", 0, 0), ("place", 0, 1))
    assert st.pending is not None and st.pending[3] == 3
    assert st.view(0)["turn"]["pending"]["left"] == 3
    play(st, ("move_from", 9, 0), ("place", 9, 1))
    play(st, ("move_from", 19, 19), ("place", 19, 18), ("move_from", 19, 18), ("place", 19, 17))
    assert st.pending is None
    assert st.homes[0] == {h(0, 1), h(9, 1), h(19, 17)}
    st = nb(settlements={0: [(0, 0)]}, nomad_held=held)
    with pytest.raises(IllegalAction, match="at least one step"):
        play(st, ("use", 7, 5), ("stop",))
    play(st, ("move_from", 0, 0), ("place", 0, 1), ("stop",))
    assert st.pending is None and st.homes[0] == {h(0, 1)}


def test_resettlement_never_enters_water_mountain_a_wall_a_special_hex_or_a_settlement():
    """KB §7 Resettlement: "every hex entered must be a legal place to stop: empty, buildable
    terrain, no stone wall, not a special hex".  NB forest (17,15) touches the mountains
    (16,15) and (17,14), the flower field (16,16) (here a stone wall), the nomad hex (17,16)
    (its tile already gone), the forest (18,15) and the water (18,16): its only step is
    (18,15).  With seat 1's settlement on (18,15) it cannot step at all, so only (0,0) is
    offered as a source."""
    held = {0: {(7, 5): ("Resettlement", "ready")}}
    st = nb(settlements={0: [(17, 15), (0, 0)]}, walls=[(16, 16)], nomad_held=held)
    play(st, ("use", 7, 5))
    assert legal(st, "move_from") == {(17, 15), (0, 0)}
    play(st, ("move_from", 17, 15))
    assert legal(st) == {(18, 15)}
    for r, c in ((16, 15), (17, 14), (16, 16), (17, 16), (18, 16)):
        with pytest.raises(IllegalAction):
            st.apply(0, ("place", r, c))
    st = nb(settlements={0: [(17, 15), (0, 0)], 1: [(18, 15)]}, walls=[(16, 16)], nomad_held=held)
    play(st, ("use", 7, 5))
    assert legal(st, "move_from") == {(0, 0)}
    with pytest.raises(IllegalAction):
        st.apply(0, ("move_from", 17, 15))


def test_moves_pay_no_ambassadors_or_shepherds_gold():
    """KB §9.3: only *built* settlements pay.  (0,1) steps next to seat 1's (1,1)... it would
    pay Ambassadors if built; moved, it pays nothing."""
    st = nb(
        settlements={0: [(0, 0)], 1: [(1, 2)]},
        nomad_held={0: {(7, 5): ("Resettlement", "ready")}},
        cards=("Ambassadors", "Shepherds", "Knights"),
    )
    events = play(st, ("use", 7, 5), ("move_from", 0, 0), ("place", 0, 1))
    assert "gold" not in types(events) and st.gold[0] == [0, 0, 0, 0]


# ---- the Nomads cards (KB §9.3) ------------------------------------------------------------------
def test_ambassadors_pay_1_gold_per_built_settlement_touching_another_player():
    """KB §9.3 Ambassadors, counted by hand: seat 1 stands on (0,2).  The grass action builds
    (0,1) (touches (0,2): 1), (1,1) (touches (0,2): 1), (1,0) (touches only seat 0: 0) —
    2 gold, banked at once."""
    st = nb(settlements={1: [(0, 2)]}, cards=("Ambassadors", "Knights", "Hermits"), terrain="G")
    events = play(st, ("place", 0, 1), ("place", 1, 1), ("place", 1, 0))
    assert [e for e in events if e["type"] == "gold"] == [
        {"type": "gold", "seat": 0, "source": "Ambassadors", "gold": 1}
    ] * 2
    assert st.scores()[0] == {
        "castles": 0,
        "Ambassadors": 2,
        "Knights": 0,
        "Hermits": 0,
        "treasure": 0,  # nomad tiles are in play (NB has nomad hexes)
        "total": 2,
    }
    assert st.preview_scores()[0]["Ambassadors"] == 2


def test_ambassadors_count_tile_builds_too():
    """KB §9.3: every build counts, a Donation's as well: (1,1) touches seat 1's (0,2)."""
    st = nb(
        settlements={0: [(1, 0)], 1: [(0, 2)]},
        nomad_held={0: {(5, 2): ("Donation - Grass", "ready")}},
        cards=("Ambassadors", "Knights", "Hermits"),
    )
    play(st, ("use", 5, 2), ("place", 1, 1))
    assert st.gold[0][0] == 1


def test_shepherds_pay_for_the_settlement_that_leaves_no_empty_hex_of_its_terrain():
    """KB §9.4: the mandatory action fills HB's closed grass area (7,2) (7,3) (8,3): the first
    two each still touch an empty grass hex when placed; the third touches none: 2 gold."""
    st = position(sections=HB, cards=("Shepherds", "Knights", "Hermits"), terrain="G")
    assert st.nomads == nm.FULL
    gold = [e for e in play(st, ("place", 7, 2)) if e["type"] == "gold"]
    gold += [e for e in play(st, ("place", 7, 3)) if e["type"] == "gold"]
    assert gold == []
    gold = [e for e in play(st, ("place", 8, 3)) if e["type"] == "gold"]
    assert gold == [{"type": "gold", "seat": 0, "source": "Shepherds", "gold": 2}]
    assert st.scores()[0]["Shepherds"] == 2


def test_families_pay_2_for_three_mandatory_settlements_in_a_line():
    """KB §9.3 Families: (6,4) (6,5) (6,6) are neighbours in one row: 2 gold, whatever the
    build order (here 5, 6, then 4).  (6,4) (6,5) (5,4) are neighbours but not in a line: 0.
    (5,5) -> SW (6,5) -> SW (7,4) is a line along the NE–SW axis: 2."""
    cards = ("Families", "Knights", "Hermits")
    st = nb(cards=cards, terrain="C")
    events = play(st, ("place", 6, 5), ("place", 6, 6), ("place", 6, 4))
    assert {"type": "gold", "seat": 0, "source": "Families", "gold": 2} in events
    assert st.gold[0][1] == 2 and st.mand_hexes == []
    st = nb(cards=cards, terrain="C")
    events = play(st, ("place", 6, 4), ("place", 6, 5), ("place", 5, 4))
    assert "gold" not in types(events)
    st = nb(cards=cards, terrain="C")
    events = play(st, ("place", 5, 5), ("place", 6, 5), ("place", 7, 4))
    assert st.gold[0][1] == 2


def test_families_need_all_three_mandatory_settlements():
    """KB §9.3: a mandatory action of fewer than 3 settlements pays nothing — here the supply
    holds only 2: two placements end the action (and trigger the end, KB §8)."""
    homes = filler(nb(), 38, rows=range(12, 20))
    st = nb(settlements={0: homes}, cards=("Families", "Knights", "Hermits"), terrain="C")
    for _ in range(2):
        play(st, ("place", *sorted(legal(st))[0]))
    assert st.mand_done and st.placed == 2 and st.end_triggered
    assert st.gold[0][1] == 0 and st.mand_hexes == []


def test_the_replacement_workers_and_merchants_count_nomad_hexes_after_their_tile_is_gone():
    """KB §9.3 replacement cards: nomad hexes count as special hexes whatever their tile.
    (4,7) touches the nomad hex (5,7), whose tile was taken: Workers 1.  Merchants: the area
    (3,3) (4,3) touches the Quarry hex (2,4) (from (3,3)) and the nomad hex (5,2) (from
    (4,3)): 2 special hexes joined, 4 each: 8."""
    st = nb(
        settlements={0: [(4, 7)]},
        nomad_held={0: {(5, 7): ("Sword", "ready")}},
        cards=("Workers", "Merchants", "Knights"),
    )
    assert scoring.workers(st.board, st.homes) == [1, 0]
    st = nb(settlements={0: [(3, 3), (4, 3)]}, cards=("Workers", "Merchants", "Knights"))
    assert scoring.merchants(st.board, st.homes) == [8, 0]


# ---- hidden information and saves ----------------------------------------------------------------
def _walk(seed: int, players: int, every: int = 9) -> list:
    st = GAME.new(players, {"nomads": "full", "sections": list(NB), "cards": list(CARDS3)}, seed)
    rng = Rng(seed + 77)
    out = [st.clone()]
    i = 0
    while not st.is_over():
        acts = st.legal_actions(st.cur)
        st.apply(st.cur, acts[rng.randbelow(len(acts))])
        i += 1
        if i % every == 0:
            out.append(st.clone())
    return out


@pytest.mark.parametrize("players", [2, 5])
def test_nomad_tiles_are_public_in_every_view_and_kept_by_determinize(players):
    """KB §3.3: the nomad tiles lie face up, and a taken tile is shown in front of its
    owner: every seat and spectators see the same tiles; ``determinize`` resamples only the
    hidden terrain cards, so it keeps every nomad tile and every view."""
    for st in _walk(11, players):
        views = [st.view(s) for s in [None, *range(players)]]
        for v in views[1:]:
            assert v["nomads"] == views[0]["nomads"]
            for a, b in zip(v["seats"], views[0]["seats"], strict=True):
                assert a["nomad_tiles"] == b["nomad_tiles"] and a["gold"] == b["gold"]
        for seat in range(players):
            d = st.determinize(seat, 5)
            assert d.nkind == st.nkind and d.nomad_left == st.nomad_left
            assert d.nheld == st.nheld and d.gold == st.gold
            assert d.view(seat) == st.view(seat)


def test_full_nomads_states_round_trip():
    for st in _walk(3, 4, every=5):
        back = GAME.from_dict(st.to_dict())
        assert back == st and back.state_hash() == st.state_hash()
        if not st.is_over():
            assert back.legal_actions(st.cur) == st.legal_actions(st.cur)


def _corrupt(change, words: str) -> None:
    data = nb(
        settlements={0: [(4, 7)], 1: [(9, 9)]},
        nomad_tiles={(7, 5): "Sword", (13, 4): "Sword"},
        nomad_held={1: {(5, 7): ("Treasure", "ready")}},
    ).to_dict()
    change(data)
    with pytest.raises(BadState) as err:
        GAME.from_dict(data)
    assert words in str(err.value)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d["nomad_tiles"].append([5, 2, "Sword"]), "the box holds 2"),
        (lambda d: d["nomad_held"][0].append([7, 5, "Sword", "ready"]), "two nomad tiles"),
        (lambda d: d["nomad_tiles"].append([4, 4, "Outpost"]), "not on a nomad hex"),
        (lambda d: d["nomad_tiles"].append([5, 2, "Joker"]), "should be a nomad tile"),
        (lambda d: d.update(nomads="boards"), "need the full Nomads"),
        (lambda d: d["nomad_held"][1][0].__setitem__(3, "used"), "outside its turn"),
        (lambda d: d["gold"][0].update(Ambassadors=2), "not in this game"),
        (lambda d: d["gold"][0].pop("Treasure"), "should map"),
        (lambda d: d.update(outpost=1), "Outpost is armed"),
        (lambda d: d.update(mandatory_hexes=[[4, 7]]), "mandatory_hexes"),
    ],
)
def test_corrupt_nomads_states_give_clear_bad_state(change, words):
    _corrupt(change, words)


def test_a_settlement_next_to_a_nomad_hex_whose_tile_is_still_there_is_refused():
    """KB §7: the first settlement next to a nomad hex takes its tile, so a saved tile on its
    hex touches no settlement."""

    def touch(d):
        d["settlements"][0].append([6, 5])  # touches (7,5), whose Sword is still there
        d["supply"][0] -= 1

    _corrupt(touch, "whose tile is still there")


#: The ``show --json`` (``report()``) fields, as docs/kingdom-builder.md lists them.
REPORT_FIELDS = {
    "game", "players", "to_move", "over", "winners", "board", "sections", "castles",
    "locations", "expansion", "nomads", "walls", "walls_left", "cards", "deck", "discard",
    "start_seat", "current", "round", "end_triggered", "turn", "seats", "scores", "preview",
    "gains", "settlements", "draw_pile",
}  # fmt: skip
SEAT_FIELDS = {
    "seat",
    "supply",
    "settlements",
    "tiles",
    "taken_from",
    "nomad_tiles",
    "hand",
    "gold",
}
TURN_FIELDS = {
    "seat",
    "terrain",
    "placed",
    "mandatory_done",
    "mandatory_left",
    "outpost",
    "pending",
}
PENDING_FIELDS = {"tile", "nomad", "terrain", "hex", "step", "from", "left", "hit"}
DETAIL_FIELDS = {"hexes", "rows", "sectors", "sector_points", "specials", "groups"}


def _check_report(rep: dict, st) -> None:
    assert set(rep) == REPORT_FIELDS | ({"scoring"} if st.is_over() else set())
    assert rep["expansion"] in nm.MODES and 2 <= rep["players"] <= 5
    for entry in rep["nomads"]:
        assert set(entry) == {"hex", "tile", "terrain"}
        assert entry["tile"] in (None, *nm.TILE_TYPES)
        assert (entry["terrain"] is not None) == (entry["tile"] == "Donation")
    for seat in rep["seats"]:
        assert set(seat) == SEAT_FIELDS and isinstance(seat["gold"], int)
        for held in seat["nomad_tiles"]:
            assert set(held) == {"hex", "tile", "terrain", "state"}
            assert held["state"] in ("pending", "ready", "used")
    turn = rep["turn"]
    if turn is not None:
        assert set(turn) == TURN_FIELDS and turn["outpost"] >= 0
        if turn["pending"] is not None:
            assert set(turn["pending"]) == PENDING_FIELDS
            assert turn["pending"]["step"] in ("source", "target", "wall", "second_wall", "victim")
            assert turn["pending"]["hit"] == [] or turn["pending"]["step"] == "victim"
    for row in [*rep["scores"], *rep["preview"]]:
        assert row["total"] == sum(v for k, v in row.items() if k != "total")
        assert ("treasure" in row) == bool(st.board.nomads and st.nomads == nm.FULL)
    for entry in rep.get("scoring", []):
        if entry["category"] in (*nm.CARDS, scoring.TREASURE):
            assert all(entry[k] == [] for k in DETAIL_FIELDS)


def test_show_json_fields_with_nomads():
    """docs/kingdom-builder.md "What Nomads adds to show --json": every field is in the report
    of every position of a 5-player full-Nomads game (and an "off" game), with the documented
    shapes; the Nomads cards' gold and Treasure are in ``scores`` before the end."""
    states = _walk(21, 5, every=1)
    for st in states:
        _check_report(st.report(), st)
    last = states[-1]
    assert last.is_over()
    assert any(not st.is_over() and any(r["total"] for r in st.scores()) for st in states)
    assert any(
        st.pending is not None and st.tile_kind(st.pending[0]) in nm.TILE_TYPES for st in states
    )
    off = GAME.new(3, {}, 4)
    rep = off.report()
    _check_report(rep, off)
    assert rep["expansion"] == "off" and rep["nomads"] == [] and rep["turn"]["outpost"] == 0
