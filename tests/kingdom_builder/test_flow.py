"""Turns, the terrain deck, the end of the game and the options (KB §3, §4, §8)."""

from __future__ import annotations

from collections import Counter

import pytest

from game.core.types import BadOptions
from game.kingdom_builder import GAME
from game.kingdom_builder.board import BASE_SECTIONS, NOMADS_SECTIONS
from game.kingdom_builder.scoring import CARDS
from tests.kingdom_builder.helpers import filler, legal, play, position


def _all_cards(st):
    return Counter(st.deck + st.discard + [t for t in st.hands if t >= 0])


def test_new_game_setup():
    """KB §3: 4 sections, 3 cards, 25 terrain cards (one per seat dealt), 40 settlements each,
    2 tiles on every location hex; the start seat's card is revealed."""
    st = GAME.new(3, {}, 11)
    assert len(set(st.board.names)) == 4 and all(n in BASE_SECTIONS for n in st.board.names)
    assert len(set(st.cards)) == 3 and all(c in CARDS for c in st.cards)
    assert _all_cards(st) == {t: 5 for t in range(5)}
    assert len(st.deck) == 22 and st.discard == []
    assert st.supply == [40, 40, 40] and all(v == 2 for v in st.left.values())
    assert st.to_move() == (st.start,) and st.terrain == st.hands[st.start]
    assert st.round == 1 and not st.is_over()


def test_first_game_option():
    """KB §3.1 first game: Tavern TL, Paddock TR, Oasis BL, Farm BR, none turned;
    Fishermen, Merchants, Knights."""
    st = GAME.new(2, {"first_game": True}, 5)
    assert st.board.names == ("Tavern", "Paddock", "Oasis", "Farm")
    assert st.board.rotations == (False,) * 4
    assert st.cards == ("Fishermen", "Merchants", "Knights")
    view = st.view(None)
    assert [s["quadrant"] for s in view["sections"]] == [
        "top-left",
        "top-right",
        "bottom-left",
        "bottom-right",
    ]


def test_chosen_sections_rotations_cards_and_start_seat():
    opts = {
        "sections": ["Barn", "Harbor", "Oracle", "Tower"],
        "rotations": [True, False, True, False],
        "cards": ["Lords", "Farmers", "Citizens"],
        "start_seat": 2,
    }
    st = GAME.new(4, opts, 1)
    assert st.board.names == ("Barn", "Harbor", "Oracle", "Tower")
    assert st.board.rotations == (True, False, True, False)
    assert st.cards == ("Lords", "Farmers", "Citizens")
    assert st.start == 2 and st.cur == 2
    # a turned section: its (0,0) hex lands on (9,9) of its quadrant (KB §2 rotation)
    assert st.board.code(9 * 20 + 9) == "C"  # Barn grid row 0 col 0
    assert st.board.rows()[0][10:] == "GGTTTWGTTF"


def test_random_setup_uses_nomads_sections_only_with_nomads():
    seen = set()
    for seed in range(60):
        st = GAME.new(2, {"nomads": True}, seed)
        seen |= set(st.board.names)
        assert st.nomads
    assert seen == set(BASE_SECTIONS) | set(NOMADS_SECTIONS)
    for seed in range(30):
        assert not set(GAME.new(2, {}, seed).board.names) & set(NOMADS_SECTIONS)


def test_same_seed_same_setup_and_rotations_vary():
    a, b = GAME.new(4, {}, 99), GAME.new(4, {}, 99)
    assert a == b and a.state_hash() == b.state_hash()
    rotations = {GAME.new(2, {}, s).board.rotations for s in range(40)}
    assert len(rotations) > 4
    # KB §3.1: the 4 sections also go to random places, not only random choices
    for q in range(4):
        assert len({GAME.new(2, {}, s).board.names[q] for s in range(40)}) >= 5


def test_cards_left_out_are_never_drawn():
    """A house variant (not KB §3.5, which draws the 3 cards from every card): the cards of
    ``exclude_cards`` are left out of the random draw — every other card can still come; without
    any left out the draw is the rulebook's (the same seed, the same cards)."""
    seen = set()
    for seed in range(80):
        st = GAME.new(2, {"exclude_cards": ["Lords"]}, seed)
        assert "Lords" not in st.cards and len(set(st.cards)) == 3
        seen |= set(st.cards)
        assert GAME.new(2, {"exclude_cards": []}, seed).cards == GAME.new(2, {}, seed).cards
    assert seen == set(CARDS) - {"Lords"}
    # Seven left out: exactly the three others, in some order; hand-chosen cards still work.
    keep = {"Fishermen", "Knights", "Hermits"}
    left_out = [c for c in CARDS if c not in keep]
    assert set(GAME.new(3, {"exclude_cards": left_out}, 4).cards) == keep
    chosen = GAME.new(2, {"cards": ["Lords", "Miners", "Farmers"], "exclude_cards": ["Hermits"]}, 1)
    assert chosen.cards == ("Lords", "Miners", "Farmers")
    # With the full Nomads expansion the pool is 13 cards: leaving the base ones out draws
    # the three Nomads cards.
    full = GAME.new(2, {"nomads": "full", "exclude_cards": list(CARDS)}, 9)
    assert set(full.cards) == {"Ambassadors", "Families", "Shepherds"}


@pytest.mark.parametrize(
    ("players", "options", "words"),
    [
        (1, {}, "2 to 4 players, 5 with the Nomads expansion"),
        (6, {"nomads": "full"}, "2 to 4 players, 5 with the Nomads expansion"),
        (5, {"nomads": False}, "a 5th player needs the Nomads expansion"),
        (5, {"nomads": "off"}, "a 5th player needs the Nomads expansion"),
        (2, {"nomads": "yes"}, "must be one of 'off', 'boards', 'full'"),
        (2, {"nomads": 1}, "must be one of"),
        (2, {"cards": ["Ambassadors", "Lords", "Miners"]}, "is a Nomads card"),
        (2, {"nomads": "boards", "cards": ["Families", "Lords", "Miners"]}, "is a Nomads card"),
        (2, {"colour": "red"}, "unknown Kingdom Builder option"),
        (2, {"sections": ["Barn", "Barn", "Oracle", "Tower"]}, "must be different"),
        (2, {"sections": ["Barn", "Oracle", "Tower"]}, "list of 4"),
        (2, {"sections": ["Barn", "Moon", "Oracle", "Tower"]}, "unknown name 'Moon'"),
        (2, {"sections": ["Quarry", "Barn", "Oracle", "Tower"]}, "Nomads section"),
        (2, {"rotations": [True, False]}, "4 true/false"),
        (2, {"rotations": [1, 0, 0, 0]}, "true or false"),
        (2, {"cards": ["Lords", "Lords", "Miners"]}, "must be different"),
        (2, {"cards": "Lords"}, "list of 3"),
        (2, {"first_game": "yes"}, "true or false"),
        (2, {"first_game": True, "cards": ["Lords", "Miners", "Hermits"]}, "first_game fixes"),
        (2, {"first_game": True, "nomads": True}, "cannot be combined"),
        (2, {"exclude_cards": "Lords"}, "must be a list"),
        (2, {"exclude_cards": ["Lords", "Lords"]}, "named twice"),
        (2, {"exclude_cards": ["Kings"]}, "unknown card 'Kings'"),
        (2, {"exclude_cards": list(CARDS[:8])}, "leaves 2 of the 10 cards"),
        (2, {"cards": ["Lords", "Miners", "Hermits"], "exclude_cards": ["Lords"]}, "both chosen"),
        (2, {"first_game": True, "exclude_cards": ["Lords"]}, "first_game fixes"),
        (2, {"start_seat": 2}, "not a seat"),
        (2, {"start_seat": "first"}, "seat number"),
        (2, {"start_seat": True}, "seat number"),
    ],
)
def test_bad_options_are_refused_clearly(players, options, words):
    with pytest.raises(BadOptions) as err:
        GAME.new(players, options, 1)
    assert words in str(err.value)


def test_option_specs_describe_the_options():
    names = [o.name for o in GAME.options]
    assert names == [
        "sections",
        "rotations",
        "cards",
        "exclude_cards",
        "first_game",
        "nomads",
        "start_seat",
    ]
    desc = GAME.describe()
    assert desc["id"] == "kingdom-builder" and desc["min_players"] == 2 and desc["max_players"] == 5
    assert desc["rules_version"] == 2
    assert GAME.new(2, {"start_seat": "1"}, 0).start == 1


def test_turn_passes_with_discard_draw_and_reveal():
    """KB §4.4: discard, draw a new hidden card; the next seat's card is revealed."""
    st = position(settlements={0: [(7, 7)]}, terrain="G")
    play(st, ("place", 7, 8), ("place", 7, 9), ("place", 7, 10))
    before = len(st.deck)
    events = play(st, ("end",))
    types = [e["type"] for e in events]
    assert types == ["end_turn", "draw", "card", "turn"]
    assert events[2]["only"] == [0] and events[2]["reveal"]
    assert st.discard == [0] and len(st.deck) == before - 1
    assert st.cur == 1 and events[3] == {"type": "turn", "seat": 1, "terrain": "GCDFT"[st.terrain]}
    assert _all_cards(st) == {t: 5 for t in range(5)}
    # seat 1 sees that seat 0 drew, but not what
    assert [e["type"] for e in st.visible_events(events, 1)] == ["end_turn", "draw", "turn"]
    assert st.visible_events(events, 0)[2]["terrain"] in "GCDFT"


def test_empty_draw_pile_is_reshuffled_from_the_discards():
    """KB §4.4: the pile is empty; the discards (with the card just played) are reshuffled."""
    discard = ["C"] * 5 + ["D"] * 5 + ["F"] * 5 + ["T"] * 5 + ["G"] * 3
    st = position(terrain="G", discard=discard, deck=[], mandatory_done=True, placed=3)
    assert st.deck == [] and st.hands[1] == 0  # seat 1 holds the last grass card
    events = play(st, ("end",))
    assert "reshuffle" in [e["type"] for e in events]
    assert len(st.deck) == 23 and st.discard == []
    assert _all_cards(st) == {t: 5 for t in range(5)}


def _near_the_end(players, start, current):
    probe = position(players=players)
    mine = filler(probe, 39)
    return position(
        players=players,
        start=start,
        current=current,
        settlements={current: mine},
        terrain="G",
    )


def test_end_triggered_by_the_40th_settlement_and_the_round_is_finished():
    """KB §8: seat 2 of 3 (start seat 1) places its 40th settlement; seat 0 still plays (the
    seat before the start seat has the last turn); then the game ends."""
    st = _near_the_end(3, start=1, current=2)
    assert st.supply[2] == 1
    events = play(st, ("place", *sorted(legal(st))[0]))
    assert st.end_triggered and {"type": "end_triggered", "seat": 2} in events
    assert st.legal_actions(2) == [("end",)]
    play(st, ("end",))
    assert st.cur == 0 and not st.is_over()
    for _ in range(3):
        play(st, ("place", *sorted(legal(st))[0]))
    events = play(st, ("end",))
    assert st.is_over() and st.to_move() == () and st.legal_actions(0) == []
    over = events[-1]
    assert over["type"] == "game_over" and over["scores"] == st.scores()
    assert over["winners"] == st.winners()


def test_end_triggered_by_the_seat_before_the_start_seat_ends_at_once():
    st = _near_the_end(2, start=0, current=1)
    play(st, ("place", *sorted(legal(st))[0]), ("end",))
    assert st.is_over()
    assert st.hands[1] == -1  # the last card is discarded, none drawn


def test_end_triggered_by_a_tile_build():
    """KB §8: the last settlement from supply may come from a tile build (Farm here)."""
    probe = position()
    mine = filler(probe, 38, avoid=[(16, 12), (16, 11), (15, 11), (17, 11)])
    st = position(settlements={0: [*mine, (16, 12)]}, tiles={0: {(15, 12): "ready"}}, terrain="T")
    assert st.supply[0] == 1
    play(st, ("use", 15, 12), ("place", 16, 11))
    assert st.supply[0] == 0 and st.end_triggered
    # the mandatory action is impossible with an empty supply: end is legal
    assert ("end",) in st.legal_actions(0)


def test_rounds_count_and_turn_order_is_clockwise():
    st = GAME.new(3, {"start_seat": 2}, 4)
    seen = []
    while len(seen) < 7:
        seat = st.cur
        seen.append((st.round, seat))
        while st.cur == seat:
            acts = st.legal_actions(seat)
            st.apply(seat, acts[0] if acts[0][0] == "place" else acts[-1])
    assert seen == [(1, 2), (1, 0), (1, 1), (2, 2), (2, 0), (2, 1), (3, 2)]
