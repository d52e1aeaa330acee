"""Saves (``to_dict`` / ``from_dict``), views, determinize, the report, words (GM §2 secrets)."""

from __future__ import annotations

import contextlib
import copy

import pytest

from game.core.match import Replay
from game.core.registry import get_game
from game.core.rng import Rng
from game.core.types import BadState, IllegalAction
from game.core.wire import packb, to_plain, unpackb
from game.glen_more import GAME
from game.glen_more import grid as G
from game.glen_more.codes import PHASES
from tests.glen_more.helpers import (
    ROAD_VILLAGE,
    check_invariants,
    legal,
    new,
    play,
    put,
    set_clan,
    take_and_place,
)
from tests.glen_more.test_properties import playout


def walk(players: int, seed: int, steps: int):
    st = new(players, seed=seed)
    rng = Rng(seed)
    for _ in range(steps):
        if st.is_over():
            break
        acts = legal(st)
        play(st, acts[rng.randbelow(len(acts))])
    return st


def test_registered_with_its_traits() -> None:
    """The game is registered as ``glen-more`` with the traits of the contract: sequential,
    secrets (the stacks' order), chance (draws and die rolls)."""
    game = get_game("glen-more")
    assert game is GAME and (game.min_players, game.max_players) == (2, 5)
    assert not game.simultaneous and game.secrets and game.chance
    names = [o["name"] for o in game.describe()["options"]]
    assert names == ["start_seat", "grey_clan_members"]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_round_trip_mid_game(players: int) -> None:
    st = walk(players, 7 + players, 60)
    data = st.to_dict()
    back = GAME.from_dict(unpackb(packb(data)))
    assert back.to_dict() == data and back.state_hash() == st.state_hash()
    assert back.legal_actions(back.cur) == st.legal_actions(st.cur)
    assert back == st


def _mutated(data: dict, path: list, value) -> dict:
    out = copy.deepcopy(data)
    target = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return out


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (["game"], "kingdom-builder", "not a Glen More state"),
        (["format"], 9, "format"),
        (["players"], 7, "players"),
        (["track", 0], {"seat": 1}, "two figures"),
        (["track", 5], {"tile": "S9-99"}, "tile id"),
        (["track", 5], None, "not the set"),
        (["empty"], 3, "one space is empty"),
        (["stacks", 2, 0], "S1-01", "not a tile of stack 2"),
        (["market", "wood"], 4, "market"),
        (["bank"], 0, "coins held"),
        (["stock", "wood"], 3, "wood on tiles plus stock"),
        (["whisky_stock"], 3, "whisky"),
        (["clan_stock"], 1, "clan members"),
        (["seats", 0, "tiles", 0, 3], {"wood": 4}, "3"),
        (["seats", 0, "tiles", 0, 4], 0, "at least one clan member"),
        (["seats", 0, "cards"], ["S2-06"], "cards"),
        (["seats", 0, "coins"], -1, "coins"),
        (["pending", "phase"], "dance", "phase"),
        (["pending", "phase"], "place", "figure has left"),
        (["pending", "points"], 2, "movement before the tile is placed"),
        (["rounds"], [{"round": 1}], "round"),
        (["current"], 3, "one space is empty"),
        (["rng"], "x", "rng"),
    ],
)
def test_from_dict_refuses_inconsistent_saves(path: list, value, message: str) -> None:
    """Saves are hostile input: anything malformed or inconsistent raises BadState naming it."""
    data = new(4, seed=3).to_dict()
    with pytest.raises(BadState, match=message):
        GAME.from_dict(_mutated(data, path, value))


def test_from_dict_refuses_broken_territories() -> None:
    st = new(3, seed=2)
    put(st, 0, -1, 0, "S0-02")
    data = st.to_dict()
    bad = _mutated(data, ["seats", 0, "tiles", 0, 0], "S1-14")  # plain tile on a river side
    with pytest.raises(BadState, match=r"does not match|river or road"):
        GAME.from_dict(bad)
    far = copy.deepcopy(data)
    far["seats"][0]["tiles"][0][1] = -3  # no longer joined to the village
    with pytest.raises(BadState):
        GAME.from_dict(far)


def test_from_dict_never_raises_anything_else() -> None:
    """Random corruption of a save gives BadState (or a valid state), never a traceback."""
    data = walk(3, 4, 40).to_dict()
    rng = Rng(11)
    junk = [None, -1, 0, 99, "x", [], {}, [1, 2], {"a": 1}, True, 2**70]

    def paths(value, prefix):
        if isinstance(value, dict):
            for k, v in value.items():
                yield from paths(v, [*prefix, k])
        elif isinstance(value, list):
            for i, v in enumerate(value[:4]):
                yield from paths(v, [*prefix, i])
        yield prefix

    every = [p for p in paths(data, []) if p]
    for _ in range(400):
        path = every[rng.randbelow(len(every))]
        bad = _mutated(data, path, junk[rng.randbelow(len(junk))])
        with contextlib.suppress(BadState):
            GAME.from_dict(bad)
    for bad in (None, [], "glen", {"game": "glen-more"}):
        with pytest.raises(BadState):
            GAME.from_dict(bad)  # type: ignore[arg-type]


# ---- the clan-member supply became unlimited (rules version 2, issue 20) -------------------


def test_a_save_with_the_clan_supply_used_up_still_loads_and_plays_on() -> None:
    """A state saved while clan members were limited to the box's 25 (format 1, ``clan_stock``
    at 0) loads as the same position; from there the supply is unlimited (GM §1, GM §4.3's
    revised decision): the next village still brings its clan member and the stock goes below
    zero (substitutes), which saves and loads too."""
    st = new(4, seed=9)
    set_clan(st, 1, 0, 0, 1 + st.clan_stock)
    data = st.to_dict()
    assert data["format"] == 1 and data["clan_stock"] == 0
    back = GAME.from_dict(unpackb(packb(data)))
    assert back.to_dict() == data and back.state_hash() == st.state_hash()
    take_and_place(back, ROAD_VILLAGE, 0, 1)
    play(back, ("activate", 0, 1))
    assert back.clan_stock == -1 and back.clan[0][G.cell(0, 1)] == 1
    check_invariants(back)
    again = GAME.from_dict(unpackb(packb(back.to_dict())))
    assert again == back and again.clan_stock == -1


def test_a_replay_recorded_with_the_limited_supply_is_refused_clearly() -> None:
    """Replays and saved games are action lists from the seed: one recorded under rules
    version 1 (the supply limited to 25) could play out differently now, so it is refused with
    a message naming the rules version rather than replayed into another game."""
    assert GAME.rules_version == 2
    replay = Replay(game="glen-more", players=4, seed=5, rules_version=1)
    with pytest.raises(BadState, match="rules version 1"):
        replay.new_state()
    assert Replay(game="glen-more", players=4, seed=5, rules_version=2).new_state().n == 4


def test_the_view_has_no_clan_supply_count() -> None:
    """With an unlimited supply there is nothing to count: the view's (and ``show --json``'s)
    ``stock`` lists the bank's coins, whisky and cubes only."""
    st = walk(4, 3, 40)
    assert set(st.view(0)["stock"]) == {"coins", "whisky", "resources"}
    assert set(st.report()["stock"]) == {"coins", "whisky", "resources"}


# ---- views and secrets ---------------------------------------------------------------------


def test_view_fields() -> None:
    st = walk(3, 5, 30)
    v = st.view(1)
    assert v["you"] == 1 and v["game"] == "glen-more" and v["players"] == 3
    for key in (
        "options",
        "track",
        "empty",
        "die",
        "stacks",
        "removed",
        "market",
        "stock",
        "current",
        "turn",
        "over",
        "pending",
        "seats",
        "rounds",
        "final",
        "scores",
        "preview",
    ):
        assert key in v, key
    assert len(v["track"]) == 14 and isinstance(v["die"], int)
    assert [m["resource"] for m in v["market"]] == ["wood", "stone", "grain", "cattle", "sheep"]
    seat = v["seats"][0]
    for key in ("coins", "whisky", "chieftains", "bonnets", "clan_on_board", "cards", "tiles"):
        assert key in seat
    tile = seat["tiles"][0]
    assert set(tile) == {"tile", "row", "col", "resources", "clan"}
    assert v["pending"]["phase"] == PHASES[st.phase]
    assert "stack_order" not in v and "rng" not in v
    assert to_plain(v) == unpackb(packb(v))


def test_views_hide_only_the_stack_order() -> None:
    """GM §2: the stacks lie face down: a twin whose stacks are in another order shows every
    seat the same view; determinize resamples exactly that order and reseeds the RNG
    (contract rule 5)."""
    st = walk(4, 6, 25)
    twin = st.clone()
    for pile in twin.stacks:
        pile.reverse()
    assert twin.to_dict() != st.to_dict()
    for seat in (0, 1, 2, 3, None):
        assert to_plain(twin.view(seat)) == to_plain(st.view(seat))
        det = st.determinize(seat, 5)
        assert to_plain(det.view(seat)) == to_plain(st.view(seat))
        assert [sorted(p) for p in det.stacks] == [sorted(p) for p in st.stacks]
        assert det.rng.state != st.rng.state
        assert det.to_dict() == GAME.from_dict(det.to_dict()).to_dict()
    # the copy depends only on what is public and the seed
    assert twin.determinize(0, 5).to_dict() == st.determinize(0, 5).to_dict()
    assert st.determinize(0, 5).stacks != st.determinize(0, 6).stacks


def test_view_size_stays_small() -> None:
    """A full 5-player view (the largest) stays well inside a 16 KB frame."""
    st = playout(9, 5, deep=False)
    assert len(packb(to_plain(st.view(0)))) < 12 * 1024


def test_report_holds_what_a_hand_recount_needs() -> None:
    """``show --json``: the track with the die figure, the market, each seat's grid (tile name,
    row, column, resources, clan members), whisky, coins, chieftains, bonnets, cards, each
    scoring round's counts and points, the final per-category scores."""
    st = playout(4, 3, deep=False)
    r = st.report()
    assert r["game"] == "glen-more" and r["over"] and r["winners"]
    assert r["die"] is not None and any(e == {"die": True} for e in r["track"])
    tile = next(t for t in r["seats"][0]["tiles"] if (t["row"], t["col"]) == (0, 0))
    assert set(tile) == {"tile", "name", "row", "col", "resources", "clan"}
    assert tile["name"] == "Start village"
    for seat in r["seats"]:
        assert {"whisky", "coins", "chieftains", "bonnets", "cards"} <= set(seat)
    assert [x["round"] for x in r["rounds"]] == [1, 2, 3]
    assert set(r["rounds"][0]["counts"]) == set(r["round_categories"])
    assert r["final"]["tile_penalty"] and r["scores"] == st.scores()
    for s, row in enumerate(r["scores"]):
        recount = row["tile_points"] + sum(x["total"][s] for x in r["rounds"])
        recount += r["final"]["coin_points"][s] + r["final"]["tile_penalty"][s]
        recount += sum(e["points"][s] for e in r["final"]["end_effects"].values())
        assert recount == row["total"]
    assert "stack_order" in r
    assert "seat" in st.report_text() and "final scores" in st.report_text()


def test_describe_and_explain_name_the_rules() -> None:
    st = new(4, seed=3)
    assert st.describe(("take", 5)).startswith("take the ")
    assert st.describe(("sell", 0, 1, "wood")) == "sell 1 wood from (0, 1)"
    assert st.describe(("end",)) == "end the turn"
    with pytest.raises(IllegalAction, match="turn"):
        st.apply(1, ("take", 5))
    assert "GM §3" in str(st.explain_illegal(1, ("take", 5)))
    with pytest.raises(IllegalAction, match="GM actions"):
        st.apply(0, ("fly", 1))
    with pytest.raises(IllegalAction, match="takes slot"):
        st.apply(0, ("take", "five"))
    with pytest.raises(IllegalAction, match="turn sequence"):
        st.apply(0, ("place", 1, 0))
    with pytest.raises(IllegalAction, match="holds no tile"):
        st.apply(0, ("take", 0))
    with pytest.raises(IllegalAction):
        st.apply(0, ["take"])
    with pytest.raises(IllegalAction):
        st.apply(0, ("take", True))  # True == 1 in a set; never a slot
    assert st.state_hash() == new(4, seed=3).state_hash()
