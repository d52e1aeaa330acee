"""The placement rule and the mandatory action (KB §4, §5), on the first-game map.

Map rows used here (first-game layout, columns 0-19; odd rows are shifted right)::

     3  w w f K g g t t m m m c m m w m d f f f
     4 f f w w g g g t t c c c t t w m m c f f
     6 d f L c w t t L c g c L t t w f f f f f
     7  d d c w t t g g g g g g t w g K g f g t
     8 d d d w t t t g g g g g t t w g g g g t
"""

from __future__ import annotations

import pytest

from game.core.types import IllegalAction
from game.kingdom_builder.board import DESERT, GRASS
from tests.kingdom_builder.helpers import filler, legal, play, position


def test_first_settlement_may_go_on_any_free_hex_of_the_card():
    """KB §5 rule 3: with no settlement of yours on the map, any empty hex of the terrain."""
    st = position(terrain="G")
    grass = {divmod(h, 20) for h in st.board.initial_free[GRASS]}
    assert legal(st) == grass
    assert len(grass) == 61


def test_must_build_next_to_own_settlements_if_possible():
    """KB §5 rule 4: grass hexes touching (7,7) or (7,8) only."""
    st = position(settlements={0: [(7, 7), (7, 8)], 1: [(8, 8)]}, terrain="G")
    assert legal(st) == {(7, 6), (8, 7), (7, 9), (6, 9), (8, 9)}


def test_anywhere_of_the_terrain_when_no_adjacent_hex_has_it():
    """KB §5 rule 5: (0,8) touches only canyon, so any free grass hex is allowed."""
    st = position(settlements={0: [(0, 8)]}, terrain="G")
    assert len(legal(st)) == 61


def test_other_players_settlements_do_not_count_for_adjacency():
    """KB §5: adjacency counts your own settlements only."""
    st = position(settlements={1: [(7, 7)]}, terrain="G")
    assert len(legal(st)) == 60  # every free grass hex; (7,7) itself is taken


def test_the_rule_is_tested_again_before_each_placement():
    """KB §5: the first settlement forces where the next ones can go."""
    st = position(terrain="T")
    play(st, ("place", 3, 6))
    assert legal(st) == {(3, 7), (4, 7)}
    play(st, ("place", 4, 7))
    assert legal(st) == {(3, 7), (4, 8), (5, 6)}
    play(st, ("place", 5, 6))
    assert st.mand_done
    assert st.legal_actions(0) == [("end",)]


@pytest.mark.parametrize(
    ("hexrc", "words"),
    [
        ((3, 0), "Water"),
        ((0, 3), "Mountain"),
        ((3, 3), "Castle"),
        ((6, 2), "Location"),
    ],
)
def test_never_on_water_mountain_castle_or_location(hexrc, words):
    """KB §1.3/§5: those hexes are never buildable; the error says so and names the rule."""
    st = position(terrain="G")
    with pytest.raises(IllegalAction) as err:
        st.apply(0, ("place", *hexrc))
    assert words in str(err.value)
    assert err.value.rule.startswith("KB §1.3/§5 placement")


def test_one_settlement_per_hex():
    st = position(settlements={1: [(7, 7)]}, terrain="G")
    with pytest.raises(IllegalAction) as err:
        st.apply(0, ("place", 7, 7))
    assert err.value.rule == "KB §5 placement: one settlement per hex"
    assert "a settlement of seat 1" in str(err.value)


def test_wrong_terrain_names_the_card():
    st = position(terrain="G")
    with pytest.raises(IllegalAction) as err:
        st.apply(0, ("place", 3, 6))
    assert "Forest" in str(err.value) and "Grass" in str(err.value)
    assert err.value.rule.startswith("KB §4.2 mandatory action")


def test_not_adjacent_when_adjacent_is_possible_names_the_rule():
    st = position(settlements={0: [(7, 7)]}, terrain="G")
    with pytest.raises(IllegalAction) as err:
        st.apply(0, ("place", 9, 9))
    assert err.value.rule == "KB §5 placement: must be adjacent to your settlements if possible"
    # the state is untouched by the refused action
    assert st.owner[9 * 20 + 9] == -1 and st.supply[0] == 39


def test_no_tile_between_the_mandatory_placements():
    """KB §4.3: tiles before or after the mandatory action, never in between."""
    st = position(
        settlements={0: [(7, 7)]}, terrain="G", tiles={0: {(6, 7): "ready"}}, taken={0: [(6, 7)]}
    )
    assert ("use", 6, 7) not in st.legal_actions(0)  # Tavern: no line of 3 yet, no target
    st = position(
        settlements={0: [(7, 6), (7, 7), (7, 8)]}, terrain="G", tiles={0: {(6, 7): "ready"}}
    )
    assert ("use", 6, 7) in st.legal_actions(0)
    play(st, ("place", 7, 9))
    assert all(a[0] == "place" for a in st.legal_actions(0))
    with pytest.raises(IllegalAction) as err:
        st.apply(0, ("use", 6, 7))
    assert "between" in err.value.rule
    play(st, ("place", 7, 10), ("place", 7, 11))
    assert ("use", 6, 7) in st.legal_actions(0)


def test_end_is_illegal_until_the_mandatory_action_is_done():
    st = position(terrain="G")
    assert ("end",) not in st.legal_actions(0)
    with pytest.raises(IllegalAction) as err:
        st.apply(0, ("end",))
    assert err.value.rule == "KB §4.2 mandatory action: 3 settlements"
    play(st, ("place", 7, 7))
    assert ("end",) not in st.legal_actions(0)


def _desert_hexes(st):
    return sorted(divmod(h, 20) for h in st.board.initial_free[DESERT])


def test_mandatory_action_skipped_when_no_hex_of_the_terrain_is_left():
    """KB §4 edge case: no empty hex of the card's terrain: the placements are skipped."""
    probe = position(players=4)
    desert = _desert_hexes(probe)
    assert len(desert) == 53
    st = position(players=4, settlements={1: desert[:39], 2: desert[39:]}, terrain="D")
    assert st.legal_actions(0) == [("end",)]


def test_mandatory_action_ends_early_when_the_last_hex_is_used():
    """KB §4 edge case: one desert hex left: one placement, then the action is over."""
    probe = position(players=4)
    desert = _desert_hexes(probe)
    last = desert[-1]
    st = position(players=4, settlements={1: desert[:39], 2: desert[39:-1]}, terrain="D")
    assert legal(st) == {last}
    play(st, ("place", *last))
    assert st.mand_done and st.placed == 1
    assert st.legal_actions(0) == [("end",)]


def test_supply_running_out_stops_the_mandatory_action_and_triggers_the_end():
    """KB §4 edge case + §8 trigger: 2 settlements left: 2 placements, end triggered."""
    probe = position()
    grass = sorted(divmod(h, 20) for h in probe.board.initial_free[GRASS])
    mine = grass[:38]
    st = position(settlements={0: mine}, terrain="G")
    assert st.supply[0] == 2
    events = play(st, ("place", *sorted(legal(st))[0]))
    assert not st.end_triggered
    events = play(st, ("place", *sorted(legal(st))[0]))
    assert st.supply[0] == 0 and st.end_triggered and st.mand_done
    assert {"type": "end_triggered", "seat": 0} in events
    assert st.legal_actions(0) == [("end",)]


def test_split_placements_when_the_adjacent_area_fills():
    """KB §5: the rule is applied again before each placement, so when the hexes next to your
    settlements run out mid-action the next settlement may go anywhere.  First-game map,
    canyon: (10,1) touches the closed 2-hex canyon area (10,2) (11,1); the third settlement
    may go on any of the other 53 free canyon hexes."""
    st = position(settlements={0: [(10, 1)]}, terrain="C")
    assert legal(st) == {(10, 2), (11, 1)}
    play(st, ("place", 10, 2))
    assert legal(st) == {(11, 1)}
    play(st, ("place", 11, 1))
    third = legal(st)
    assert len(third) == 53 and (0, 7) in third and (19, 19) not in third
    assert not any(st.adj[0][r * 20 + c] for r, c in third)


def test_a_settlement_on_water_counts_for_adjacency():
    """KB §5: adjacency counts all your settlements, whatever terrain they stand on — also one
    moved onto water by Harbor.  (3,1) is water; its flower neighbours are (2,1) (2,2) (3,2)
    (4,1)."""
    st = position(settlements={0: [(3, 1)]}, terrain="F")
    assert legal(st) == {(2, 1), (2, 2), (3, 2), (4, 1)}


def _deserts_taken_by_others(keep_free: list[tuple[int, int]], mine: list[tuple[int, int]]):
    """Seats 1 and 2 (of 4) cover every desert hex of the first-game map except ``keep_free``
    and seat 0's ``mine``."""
    probe = position(players=4)
    rest = [h for h in _desert_hexes(probe) if h not in keep_free and h not in mine]
    return {0: mine, 1: rest[:39], 2: rest[39:]}


def test_skipped_mandatory_action_becomes_mandatory_when_a_tile_frees_a_hex():
    """KB §4 edge case (decision 7 of docs/kingdom-builder.md): no free desert, so the
    mandatory action cannot start and ``end`` is legal.  Paddock moves seat 0's settlement off
    the desert hex (2,17) (east over the Paddock hex (2,18) to (2,19), which still touches
    it): a desert hex is free again, so the placement is mandatory again and ``end`` is not
    legal until it is made."""
    homes = _deserts_taken_by_others([], [(2, 17)])
    st = position(players=4, settlements=homes, terrain="D", tiles={0: {(2, 18): "ready"}})
    assert st.legal_actions(0) == [("use", 2, 18), ("end",)]
    play(st, ("use", 2, 18), ("move_from", 2, 17))
    assert (2, 19) in legal(st)
    play(st, ("place", 2, 19))
    assert st.legal_actions(0) == [("place", 2, 17)]
    with pytest.raises(IllegalAction) as err:
        st.apply(0, ("end",))
    assert err.value.rule == "KB §4.2 mandatory action: 3 settlements"
    play(st, ("place", 2, 17))
    assert st.mand_done and st.placed == 1 and st.legal_actions(0) == [("end",)]


def test_mandatory_action_cut_short_stays_over_when_a_tile_frees_a_hex():
    """KB §4 edge case (decision 7): one free desert hex, (0,1), far from seat 0.  The first
    placement takes it and ends the mandatory action; a Paddock move that frees the desert
    hex (2,17) afterwards does not reopen it (tiles are never used between placements, so
    the action is over)."""
    homes = _deserts_taken_by_others([(0, 1)], [(2, 17)])
    st = position(players=4, settlements=homes, terrain="D", tiles={0: {(2, 18): "ready"}})
    assert legal(st) == {(0, 1)}
    play(st, ("place", 0, 1))
    assert st.mand_done and st.placed == 1
    play(st, ("use", 2, 18), ("move_from", 2, 17), ("place", 2, 19))
    assert 2 * 20 + 17 in st.free[DESERT]
    assert st.legal_actions(0) == [("end",)]


def test_out_of_settlements_the_trigger_player_may_still_use_move_tiles():
    """KB §4 "only 40 settlements" + §8: seat 0 (start seat, 2 players) places its 40th
    settlement: the end is triggered, the build step is over, but moves use no settlement from
    the supply, so its Paddock tile is still usable; after its turn seat 1 plays the last turn
    of the round and the game ends."""
    probe = position()
    mine = filler(probe, 38, avoid=[(7, 11), (7, 9), (5, 10), (5, 12), (9, 10), (9, 12)])
    st = position(settlements={0: [*mine, (7, 11)]}, tiles={0: {(6, 11): "ready"}}, terrain="G")
    assert st.supply[0] == 1
    play(st, ("place", *sorted(legal(st))[0]))
    assert st.supply[0] == 0 and st.end_triggered and st.mand_done
    assert st.legal_actions(0) == [("use", 6, 11), ("end",)]
    events = play(st, ("use", 6, 11), ("move_from", 7, 11), ("place", 9, 10))
    assert events[-2]["type"] == "move" and st.supply[0] == 0
    assert events[-1] == {"type": "lose_tile", "seat": 0, "tile_type": "Paddock", "hex": [6, 11]}
    play(st, ("end",))
    assert st.cur == 1 and not st.is_over()
    for _ in range(3):
        play(st, ("place", *sorted(legal(st))[0]))
    play(st, ("end",))
    assert st.is_over()


def test_tiles_some_before_and_some_after_the_mandatory_action():
    """KB §4.3: Farm before the mandatory action, Oasis after it; neither in between."""
    st = position(
        settlements={0: [(16, 12), (17, 6)]},
        tiles={0: {(15, 12): "ready", (17, 5): "ready"}},
        terrain="T",
    )
    play(st, ("use", 15, 12), ("place", 16, 11))  # Farm: grass next to (16,12)
    assert st.placed == 0 and ("use", 17, 5) in st.legal_actions(0)
    # forest next to (16,12): (16,13), (17,12); (17,6) touches none
    assert legal(st) == {(16, 13), (17, 12)}
    play(st, ("place", 16, 13))
    assert all(a[0] == "place" for a in st.legal_actions(0))
    play(st, ("place", 17, 12))
    assert legal(st) == {(17, 13), (18, 12), (18, 13)}
    play(st, ("place", 18, 12))
    assert st.mand_done and st.legal_actions(0)[0] == ("use", 17, 5)
    play(st, ("use", 17, 5))
    assert legal(st) == {(17, 7), (18, 7)}  # desert next to (17,6), as in test_tiles
    play(st, ("place", 17, 7))
    assert st.legal_actions(0) == [("end",)] and st.supply[0] == 38 - 1 - 3 - 1
