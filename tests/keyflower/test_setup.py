"""Setup per player count and the start of spring (KF §3, §4.1)."""

from __future__ import annotations

import pytest

from game.core.types import BadOptions
from game.keyflower import GAME
from game.keyflower.const import AUCTION, DISPLAY, HAND, OUT, PLAY
from game.keyflower.tiles import SETUPS, SPRING, SUMMER_BOAT, TILES, WINTER_TILES
from game.keyflower.village import HOME_HEX
from tests.keyflower.helpers import check_invariants, keyple_totals


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_setup(players: int) -> None:
    """KF §3: 8 random keyples each, a home tile each at the centre, the lowest home number
    starts with the purple keyple, winter tiles dealt (3 / 2 with 5-6), boats per player count
    loaded from the bag (KF §4.1), players+4 spring tiles drawn, turn-order tiles laid out."""
    st = GAME.new(players, None, 11)
    cfg = SETUPS[players]
    check_invariants(st)
    assert st.phase == PLAY and st.season == SPRING
    homes = [TILES[st.home[s]].number for s in range(players)]
    assert len(set(homes)) == players
    assert st.purple == st.start == st.cur == homes.index(min(homes))
    for s in range(players):
        assert sum(st.keys[s]) == 8 and st.keys[s][3] == 0
        assert st.kknown[s] == [0, 0, 0, 0], "the 8 starting keyples are secret"
        assert st.vil[s] == {HOME_HEX: st.home[s]}
        assert len(st.hands[s]) == cfg.winter_dealt
        assert all(st.where[t] == HAND and st.holder[t] == s for t in st.hands[s])
    dealt = {t for h in st.hands for t in h}
    assert len(dealt) == players * cfg.winter_dealt
    assert set(st.wout) == set(WINTER_TILES) - dealt
    assert all(st.where[t] == OUT for t in st.wout)
    assert len(st.auction) == players + 4
    assert all(TILES[t].season == SPRING and st.where[t] == AUCTION for t in st.auction)
    assert st.boats == list(cfg.boats)
    for i, b in enumerate(st.boats):
        assert st.where[b] == DISPLAY
        keyples, skills = TILES[b].loads[TILES[b].boat_sides[SPRING]]
        assert sum(st.bkeys[i * 3 : i * 3 + 3]) == keyples
        assert sum(st.bskills[i * 3 : i * 3 + 3]) == skills
    assert [(t, st.side[t]) for t in st.tord] == list(cfg.turn_order)
    assert keyple_totals(st)[3] == 20


def test_same_seed_same_game_and_seeds_differ() -> None:
    a, b, c = GAME.new(4, None, 5), GAME.new(4, None, 5), GAME.new(4, None, 6)
    assert a.to_dict() == b.to_dict()
    assert a.to_dict() != c.to_dict()


def test_summer_boats_show_a_random_face() -> None:
    """KF §3: each summer boat drawn for the summer auction shows a random face."""
    faces = set()
    for seed in range(40):
        st = GAME.new(6, None, seed)
        from game.core.rng import Rng
        from tests.keyflower.helpers import random_walk

        rng = Rng(seed)
        while st.season == SPRING and not st.is_over():
            random_walk(st, rng, 1)
        for t in st.auction:
            if TILES[t].kind == SUMMER_BOAT:
                faces.add(st.side[t])
        if faces == {0, 1}:
            break
    assert faces == {0, 1}


@pytest.mark.parametrize(
    ("players", "options", "seed", "message"),
    [
        (1, None, 1, "2 to 6 players"),
        (7, None, 1, "2 to 6 players"),
        ("4", None, 1, "integer"),
        (4, {"x": 1}, 1, "no options"),
        (4, [], 1, "dict"),
        (4, None, "1", "seed"),
    ],
)
def test_bad_options(players: object, options: object, seed: object, message: str) -> None:
    with pytest.raises(BadOptions, match=message):
        GAME.new(players, options, seed)  # type: ignore[arg-type]


def test_traits() -> None:
    """The framework's traits: simultaneous choices, secrets, chance."""
    assert GAME.simultaneous and GAME.secrets and GAME.chance
    assert (GAME.min_players, GAME.max_players) == (2, 6)
