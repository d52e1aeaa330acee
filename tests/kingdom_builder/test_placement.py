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
from tests.kingdom_builder.helpers import legal, play, position


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
