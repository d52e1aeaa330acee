"""Using tiles: the ladder and the 6-keyple rule, where gains go, exchange costs, every icon,
green keyples, summer boat 4b (KF §6, §6.2–§6.6, §11.2, D3, D9, D10, D11)."""

from __future__ import annotations

import pytest

from game.keyflower.const import PAY_KEYPLE, PAY_SKILL, PLAY
from game.keyflower.play import use_options
from game.keyflower.state import KeyflowerState
from tests.keyflower.helpers import (
    acts,
    check_invariants,
    empty_screens,
    new,
    on_tile,
    put,
    set_auction,
    set_screen,
    tid,
    to_move_seat,
)


def table(players: int = 3) -> KeyflowerState:
    st = new(players, 5)
    empty_screens(st)
    set_auction(st, ["keywood", "alehouse", "workshop", "peddler", "apprentice_hall", "stable"])
    to_move_seat(st, 0)
    return st


def counts(st: KeyflowerState, s: int, tile: str) -> list[tuple[str, int]]:
    """(colour, keyples placed in all) of every use of ``tile`` open to ``s``."""
    return [(a[2], a[3] + st.pk) for a in use_options(st, s, tid(tile))]


@pytest.mark.parametrize(
    ("before", "allowed"),
    [
        ([], [1, 2, 3]),
        ([1], [2, 3]),
        ([1, 2], [3]),
        ([2], [3]),
        ([1, 2, 3], []),
        ([1, 3], []),
        ([2, 3], []),
        ([3], []),
    ],
)
def test_ladder_table_of_the_seed(before: list[int], allowed: list[int]) -> None:
    """KF §6.2 (the seed's table): each use places more keyples than the previous one, at most
    3; at most 6 keyples on a tile, so at most three uses."""
    st = table()
    t = tid("keywood")
    st.uses[t] = tuple((1, 0, m) for m in before)
    if before:
        st.lock[t] = 0
    set_screen(st, 0, red=5)
    assert [m for _, m in counts(st, 0, "keywood")] == allowed


def test_use_colour_rule_and_more_keyples_do_not_multiply() -> None:
    """KF §6.1/§6.2: match the colour already there; placing more keyples gives the same effect."""
    st = table()
    set_screen(st, 0, blue=3)
    st.apply(0, ("use", "keywood", "blue", 3))
    assert st.res[st.home[0] * 4 : st.home[0] * 4 + 4] == [1, 0, 0, 0]
    set_screen(st, 1, red=3, blue=1)
    assert counts(st, 1, "keywood") == [], "3 blue used it: exhausted"
    assert counts(st, 1, "alehouse") == [
        ("red", 1), ("red", 2), ("red", 3), ("blue", 1),
    ]  # fmt: skip


def test_resources_go_to_the_tile_in_your_village_else_home() -> None:
    """KF §6.3: produced at a tile of your own village: on that tile; at an auction tile or in
    another village: on your home tile."""
    st = table(2)
    put(st, 0, "woodcutter", 0, -1)
    set_screen(st, 0, red=2)
    set_screen(st, 1, red=2)
    st.apply(0, ("use", "woodcutter", "red", 1))
    assert on_tile(st, "woodcutter") == {"wood": 2}
    home1 = st.home[1]
    st.apply(1, ("use", "woodcutter", "red", 2))
    assert st.res[home1 * 4] == 2, "seat 1 used seat 0's tile: wood on seat 1's home"
    st.apply(0, ("use", "keywood", "red", 1))
    assert st.res[st.home[0] * 4] == 1
    check_invariants(st)


def test_exchange_pays_from_the_screen_besides_the_keyples_placed() -> None:
    """KF §6.3, D3, D10: Peddler returns 1 yellow from behind the screen (besides the keyples
    used) to the bag and gives 1 green."""
    st = table(2)
    set_screen(st, 0, yellow=1)
    assert counts(st, 0, "peddler") == [], "the only yellow cannot both be placed and paid"
    set_screen(st, 0, yellow=2)
    bag = st.bag[2]
    st.apply(0, ("use", "peddler", "yellow", 1))
    assert st.keys[0] == [0, 0, 0, 1]
    assert st.bag[2] == bag + 1 and st.kknown[0][3] == 1, "green gains are public"
    check_invariants(st)


def test_tavern_any_keyple_choice_and_forced_payment() -> None:
    """KF §6.3/§6.4: Tavern returns 1 keyple of any colour (asked when there is a choice)."""
    st = table(2)
    set_auction(st, ["tavern"])
    set_screen(st, 0, red=2, green=1)
    st.apply(0, ("use", "tavern", "red", 1))
    assert st.stage == PAY_KEYPLE
    assert acts(st, 0) == [("pay_keyple", "red"), ("pay_keyple", "green")]
    green = st.green
    st.apply(0, ("pay_keyple", "green"))
    assert st.green == green + 1, "D10: green goes back to the green supply"
    assert sum(st.keys[0]) == 1 + 2, "1 red left + 2 drawn"
    st2 = table(2)
    set_auction(st2, ["tavern"])
    set_screen(st2, 0, red=2)
    st2.apply(0, ("use", "tavern", "red", 1))
    assert st2.stage != PAY_KEYPLE and st2.cur == 1, "only red left: paid without asking"


def test_brewer_and_hiring_fair_any_skill() -> None:
    """KF §6.3: Brewer and Hiring Fair return a skill tile of any kind."""
    st = table(2)
    set_auction(st, ["brewer", "hiring_fair"])
    set_screen(st, 0, red=2, saw=1, anvil=1)
    st.apply(0, ("use", "hiring_fair", "red", 1))
    assert st.stage == PAY_SKILL
    assert acts(st, 0) == [("pay_skill", "saw"), ("pay_skill", "anvil")]
    st.apply(0, ("pay_skill", "anvil"))
    assert sum(st.skills[0]) == 1 + 2 and st.sknown[0] == [1, 0, 0]
    check_invariants(st)


def test_white_resource_icon_is_wood_stone_or_iron() -> None:
    """KF §6.4, D9: the white resource icon (Workshop) gives wood, stone or iron, not gold."""
    st = table(2)
    set_screen(st, 0, red=1)
    st.apply(0, ("use", "workshop", "red", 1))
    assert acts(st, 0) == [("resource", "wood"), ("resource", "stone"), ("resource", "iron")]
    st.apply(0, ("resource", "iron"))
    assert st.res[st.home[0] * 4 + 2] == 1


def test_random_icon_draws_from_the_bag_in_secret() -> None:
    """KF §6.4 '?': Alehouse draws from the bag; others learn only how many (events)."""
    st = table(2)
    set_screen(st, 0, red=1)
    bag = sum(st.bag)
    events = st.apply(0, ("use", "alehouse", "red", 1))
    assert sum(st.bag) == bag - 1 and sum(st.keys[0]) == 1
    assert st.kknown[0] == [0, 0, 0, 0], "others do not know its colour"
    public = st.visible_events(events, 1)
    assert any(e["type"] == "draw_keyples" and e["count"] == 1 for e in public)
    assert not any(e["type"] == "drew_keyples" for e in public)
    assert any(e["type"] == "drew_keyples" for e in st.visible_events(events, 0))
    assert any(e.get("reveal") for e in events)


def test_apprentice_hall_draws_skills() -> None:
    st = table(2)
    set_screen(st, 0, red=1)
    st.apply(0, ("use", "apprentice_hall", "red", 1))
    assert sum(st.skills[0]) == 1 and st.sknown[0] == [0, 0, 0]


def test_shortage_gives_what_is_left() -> None:
    """D11: a gain gives only what is left in the supply."""
    st = table(2)
    set_screen(st, 0, red=1)
    wood = st.ressup[0]
    st.ressup[0] = 0
    st.res[st.home[1] * 4] += wood
    st.apply(0, ("use", "keywood", "red", 1))
    assert st.res[st.home[0] * 4] == 0
    check_invariants(st)


def test_green_keyples_lock_like_any_colour() -> None:
    """KF §6.6: green keyples are an ordinary colour in play."""
    st = table(2)
    set_screen(st, 0, green=1)
    set_screen(st, 1, red=3, green=3)
    st.apply(0, ("use", "keywood", "green", 1))
    assert counts(st, 1, "keywood") == [("green", 2), ("green", 3)]


def test_summer_boat_4b_uses_any_colour_lock_stays() -> None:
    """KF §11.2 4b: use a tile locked to a colour with another single colour; the colour others
    must follow stays the original one; the ladder still applies."""
    st = table(3)
    put(st, 1, "summer_boat_4", 0, -1, 0, side=1)
    set_screen(st, 0, red=1)
    set_screen(st, 1, blue=3)
    set_screen(st, 2, red=3, blue=3)
    st.apply(0, ("use", "keywood", "red", 1))
    assert counts(st, 1, "keywood") == [("blue", 2), ("blue", 3)], "blue on a red tile"
    st.apply(1, ("use", "keywood", "blue", 2))
    assert st.lock[tid("keywood")] == 0
    assert counts(st, 2, "keywood") == [("red", 3)]


def test_no_action_tiles_cannot_be_used() -> None:
    """KF §6.1, D4: storage, VP-only, winter tiles, boats and turn-order tiles are never used."""
    st = table(2)
    for name in ("barn", "forge", "keythedral"):
        put(st, 0, name, 0, -1 if name == "barn" else (1 if name == "forge" else -2))
    set_screen(st, 0, red=3)
    targets = {a[1] for a in acts(st, 0, "use")}
    assert not targets & {"barn", "forge", "keythedral", "turn_order_1", "keyflower"}
    assert {"keywood", "alehouse"} <= targets


def test_keyples_on_tiles_in_play() -> None:
    st = table(2)
    set_screen(st, 0, red=2)
    st.apply(0, ("use", "keywood", "red", 2))
    assert st.phase == PLAY and st.uses[tid("keywood")] == ((0, 0, 2),)
    check_invariants(st)
