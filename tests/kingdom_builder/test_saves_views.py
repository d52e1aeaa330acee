"""Saves (to_dict/from_dict, msgpack round trips, corrupt input), views and determinize."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given
from hypothesis import strategies as hs

from game.core.rng import Rng
from game.core.types import BadState
from game.core.wire import is_plain, packb, unpackb
from game.kingdom_builder import GAME
from game.kingdom_builder.state import KingdomBuilderState
from tests.kingdom_builder.helpers import play, position


def _random_states(seed: int, players: int, every: int = 7) -> list[KingdomBuilderState]:
    """Snapshots along one random game (every few actions, and the end)."""
    st = GAME.new(players, {"nomads": seed % 2 == 1}, seed)
    rng = Rng(seed + 1000)
    out = [st.clone()]
    i = 0
    while not st.is_over():
        acts = st.legal_actions(st.cur)
        st.apply(st.cur, acts[rng.randbelow(len(acts))])
        i += 1
        if i % every == 0:
            out.append(st.clone())
    out.append(st.clone())
    return out


STATES = [s for seed, n in ((1, 2), (2, 3), (3, 4)) for s in _random_states(seed, n)]


@pytest.mark.parametrize("index", range(0, len(STATES), 5))
def test_round_trip_through_msgpack_gives_an_equal_state(index):
    st = STATES[index]
    data = st.to_dict()
    assert is_plain(data) and data["format"] == 2 and data["game"] == "kingdom-builder"
    back = GAME.from_dict(unpackb(packb(data)))
    assert back == st
    assert back.state_hash() == st.state_hash()
    assert back.to_dict() == data
    if not st.is_over():
        assert back.legal_actions(st.cur) == st.legal_actions(st.cur)
        assert back.view(st.cur) == st.view(st.cur)
    assert back.scores() == st.scores()
    json.dumps(data)  # plain JSON as well


def test_clone_is_equal_and_independent():
    st = STATES[3]
    twin = st.clone()
    assert twin == st and twin.state_hash() == st.state_hash()
    act = twin.legal_actions(twin.cur)[0]
    twin.apply(twin.cur, act)
    assert twin != st
    assert st == STATES[3]  # the original did not move


def test_hash_changes_with_the_rng_and_the_hidden_cards():
    st = STATES[2].clone()
    h = st.state_hash()
    st.rng = Rng(st.rng.state + 1)
    assert st.state_hash() != h


def _corruptions() -> list[tuple[str, object, str]]:
    base = position(settlements={0: [(7, 7)], 1: [(8, 8)]}, tiles={0: {(6, 7): "ready"}}).to_dict()
    cases = []

    def case(name, change, words):
        d = copy.deepcopy(base)
        change(d)
        cases.append((name, d, words))

    case("format", lambda d: d.update(format=3), "format")
    case("game", lambda d: d.update(game="chess"), "not a Kingdom Builder state")
    case("players", lambda d: d.update(players=9), "'players'")
    case("missing", lambda d: d.pop("supply"), "missing the field 'supply'")
    case("section", lambda d: d["sections"].__setitem__(0, "Moon"), "sections")
    case("nomads", lambda d: d["sections"].__setitem__(0, "Quarry"), "nomads is off")
    case("rotations", lambda d: d.update(rotations=[1, 0, 0, 0]), "rotations")
    case("cards", lambda d: d.update(cards=["Lords"] * 3), "cards")
    case("hex", lambda d: d["settlements"][0].append([20, 3]), "row and col in 0..19")
    case("water", lambda d: d["settlements"][0].append([3, 3]), "settlement on K")
    case("overlap", lambda d: d["settlements"][1].append([7, 7]), "two settlements")
    case("supply", lambda d: d["supply"].__setitem__(0, 40), "supply")
    case("tile far", lambda d: d["tiles"][1].append([6, 7, "ready"]), "without having taken")
    case("tile state", lambda d: d["tiles"][0].__setitem__(0, [6, 7, "shiny"]), "tile state")
    case("tiles left", lambda d: d["location_tiles"][2].__setitem__(2, 2), "is not 2")

    def untaken(d):
        d["settlements"][1].append([5, 7])  # touches the Tavern hex (6,7), which has a tile
        d["supply"][1] -= 1

    case("untaken", untaken, "never took one (KB §6.1")
    case("cards count", lambda d: d["deck"].append("G"), "5 of each")
    case("card code", lambda d: d["deck"].__setitem__(0, "X"), "terrain card")
    case("terrain", lambda d: d.update(terrain="T" if d["terrain"] != "T" else "G"), "terrain")
    case("walls", lambda d: d.update(walls=[[7, 8]]), "stone walls without the Quarry")
    case("pending", lambda d: d.update(pending={"hex": [6, 7], "step": "x", "from": None}), "")
    case("pending type", lambda d: d.update(pending=[1]), "pending")
    case("placed", lambda d: d.update(placed=3), "mandatory action is not done")
    case("rng", lambda d: d.update(rng=-1), "'rng'")
    case("bool int", lambda d: d.update(current=True), "'current'")
    case("over", lambda d: d.update(over=True), "")
    case("top", lambda d: d.clear(), "")
    return cases


@pytest.mark.parametrize(("name", "data", "words"), _corruptions(), ids=lambda v: str(v)[:12])
def test_corrupt_states_give_clear_bad_state(name, data, words):
    with pytest.raises(BadState) as err:
        GAME.from_dict(data)
    assert words in str(err.value)


@pytest.mark.parametrize(
    ("pending", "words"),
    [
        ({"hex": [6, 11], "step": "target", "from": None}, "does not fit Paddock"),
        ({"hex": [6, 11], "step": "target", "from": [8, 8]}, "does not fit Paddock"),
        ({"hex": [6, 11], "step": "wall", "from": None}, "does not fit Paddock"),
        ({"hex": [6, 7], "step": "target", "from": None}, "not using"),
        ({"hex": [6, 11], "step": "target", "from": [7, 11]}, "no legal action"),
    ],
)
def test_corrupt_pending_tile_actions(pending, words):
    """A move tile's target step needs the settlement being moved, which must have somewhere
    to go; the pending tile must be one the current seat is using."""
    data = position(
        settlements={0: [(7, 11)], 1: [(5, 10), (5, 12), (7, 9), (9, 10), (9, 12)]},
        tiles={0: {(6, 11): "used"}},
    ).to_dict()
    data["pending"] = {**pending, "left": 0, "hit": []}
    with pytest.raises(BadState) as err:
        GAME.from_dict(data)
    assert words in str(err.value)


@pytest.mark.parametrize("data", [None, 3, "x", [], {"game": "kingdom-builder", "format": 1}])
def test_not_a_state_at_all(data):
    with pytest.raises(BadState):
        GAME.from_dict(data)


_plain = hs.recursive(
    hs.none() | hs.booleans() | hs.integers(-3, 45) | hs.sampled_from(["G", "x", "ready", ""]),
    lambda inner: hs.lists(inner, max_size=4) | hs.dictionaries(hs.text(max_size=3), inner),
    max_leaves=8,
)


@given(key=hs.sampled_from(sorted(STATES[5].to_dict())), value=_plain)
def test_any_field_replaced_by_junk_gives_bad_state_or_a_valid_state(key, value):
    """Corrupt saves give BadState, never another exception (KB saves)."""
    data = copy.deepcopy(STATES[5].to_dict())
    data[key] = value
    try:
        st = GAME.from_dict(data)
    except BadState:
        return
    assert st.to_dict()[key] == value or key in ("pending",)


@given(index=hs.integers(0, 60), path=hs.lists(hs.integers(0, 40), min_size=1, max_size=3))
def test_nested_junk_gives_bad_state(index, path):
    data = copy.deepcopy(STATES[9].to_dict())
    keys = sorted(data)
    node = data
    key = keys[index % len(keys)]
    target = node[key]
    for step in path:
        if isinstance(target, list) and target:
            node, key = target, step % len(target)
            target = node[key]
        else:
            break
    node[key] = {"junk": [None]}
    with pytest.raises(BadState):
        GAME.from_dict(data)


# ---- views --------------------------------------------------------------------------------
def _hidden_seats(st, seat):
    return [s for s in range(st.players) if s != seat and not (s == st.cur and not st.over)]


@pytest.mark.parametrize("index", range(0, len(STATES), 3))
def test_views_hide_other_seats_cards_and_the_deck(index):
    st = STATES[index]
    for seat in [*range(st.players), None]:
        view = st.view(seat)
        assert view["you"] == seat
        assert is_plain(view)
        assert isinstance(view["deck"], int) and "rng" not in view
        for entry in view["seats"]:
            if entry["seat"] == seat:
                assert entry["hand"] == ("GCDFT"[st.hands[seat]] if st.hands[seat] >= 0 else None)
            else:
                assert entry["hand"] is None
        if not st.over:
            assert view["turn"]["terrain"] == "GCDFT"[st.terrain]


@pytest.mark.parametrize("index", range(1, len(STATES), 4))
def test_determinize_keeps_what_the_seat_sees_and_resamples_the_rest(index):
    st = STATES[index]
    for seat in [*range(st.players), None]:
        variants = set()
        for k in range(12):
            det = st.determinize(seat, k)
            assert det.view(seat) == st.view(seat)
            if not st.over:
                assert det.legal_actions(st.cur) == st.legal_actions(st.cur)
            assert det.rng.state != st.rng.state
            assert sorted(det.deck + [det.hands[s] for s in _hidden_seats(st, seat)]) == sorted(
                st.deck + [st.hands[s] for s in _hidden_seats(st, seat)]
            )
            variants.add(tuple(det.deck))
        if len(st.deck) > 3:
            assert len(variants) > 1  # the hidden order really is resampled


def test_view_does_not_depend_on_the_rng_or_hidden_information():
    st = STATES[4].clone()
    seat = (st.cur + 1) % st.players
    view = st.view(seat)
    st.rng = Rng(12345)
    st.deck.reverse()
    assert st.view(seat) == view


def test_report_has_the_documented_fields():
    st = STATES[-1]
    rep = st.report()
    for key in (
        "game", "players", "to_move", "over", "winners", "board", "settlements", "walls",
        "cards", "scores", "sections", "locations", "seats", "turn", "draw_pile",
    ):  # fmt: skip
        assert key in rep, key
    assert rep["over"] and rep["winners"] == st.winners()
    assert len(rep["board"]) == 20 and all(len(r) == 20 for r in rep["board"])
    assert [len(s) for s in rep["settlements"]] == [len(h) for h in st.homes]
    json.dumps(rep)
    text = st.report_text()
    assert "game over" in text and "total" in text
    assert len([line for line in text.splitlines() if line[:3].strip().isdigit()]) >= 20


def test_view_of_a_tile_action_in_progress():
    st = position(settlements={0: [(7, 11)]}, tiles={0: {(6, 11): "ready"}})
    play(st, ("use", 6, 11), ("move_from", 7, 11))
    pending = st.view(1)["turn"]["pending"]
    assert pending == {
        "tile": "Paddock",
        "nomad": False,
        "terrain": None,
        "hex": [6, 11],
        "step": "target",
        "from": [7, 11],
        "left": 1,
        "hit": [],
    }
    assert st.view(0)["seats"][0]["tiles"][0]["state"] == "used"


def test_a_format_1_save_still_loads_as_the_same_position():
    """Saves of rules version 1 (format 1: ``nomads`` a bool, no nomad fields, ``gold`` one
    number per seat) load as the same position."""
    st = position(
        sections=("Quarry", "Caravan", "Village", "Garden"),
        settlements={0: [(7, 11)]},
        tiles={0: {(6, 12): "used"}},
        pending={"hex": [6, 12], "step": "source", "from": None},
    )
    data = st.to_dict()
    old = {k: v for k, v in data.items() if k not in ("mandatory_hexes", "outpost")}
    old.pop("nomad_tiles"), old.pop("nomad_held")
    old.update(format=1, nomads=True, gold=[0, 0])
    old["pending"] = {k: v for k, v in data["pending"].items() if k in ("hex", "step", "from")}
    back = GAME.from_dict(old)
    assert back == st and back.legal_actions(0) == st.legal_actions(0)
    old["gold"] = [3, 0]
    with pytest.raises(BadState, match="format 1 has no in-play gold"):
        GAME.from_dict(old)
