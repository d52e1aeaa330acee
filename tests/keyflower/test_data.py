"""The project's tile data (``game/keyflower/data/tiles.json``) against the rules file and the
shared source file (KF §2, §3, §9, §11, §12)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.keyflower.tiles import (
    BOAT,
    BOATS,
    DATA,
    HOME,
    NTILES,
    RIVER,
    ROAD,
    SEASON_TILES,
    SETUPS,
    SUMMER_BOAT,
    TILES,
    TURN_ORDER,
    WINTER_TILES,
)

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data" / "keyflower-tiles.json"


def test_component_counts() -> None:
    """KF §2: 64 hex tiles: 6 home, 6 boats, 4 turn-order, 12 village tiles per season (the 12
    summer tiles include the 4 summer boats)."""
    assert NTILES == 64
    assert sum(t.kind == HOME for t in TILES) == 6
    assert sum(t.kind == BOAT for t in TILES) == 6
    assert sum(t.kind == TURN_ORDER for t in TILES) == 4
    assert [len(s) for s in SEASON_TILES] == [12, 12, 12, 12]
    assert sum(TILES[t].kind == SUMMER_BOAT for t in SEASON_TILES[1]) == 4
    comp = DATA["components"]
    assert comp["bag"] == {"red": 40, "blue": 40, "yellow": 40} and comp["green"] == 20
    assert comp["skills"] == {"saw": 16, "pickaxe": 16, "anvil": 16}
    assert comp["resources"] == {"wood": 24, "stone": 24, "iron": 24, "gold": 48}


def test_edge_counts_per_kind() -> None:
    """KF §9: home 5 roads + 1 river; spring 4 roads; summer village tiles 3; autumn 2;
    winter 1; boats and summer boats two opposite rivers, no road; turn-order tile n: n roads."""
    roads = {0: 4, 1: 3, 2: 2, 3: 1}
    for t in TILES:
        e = t.edges
        if t.kind == HOME:
            assert e.count(ROAD) == 5 and e.count(RIVER) == 1
        elif t.kind in (BOAT, SUMMER_BOAT):
            assert e.count(ROAD) == 0 and e.count(RIVER) == 2
            i = e.index(RIVER)
            assert e[(i + 3) % 6] == RIVER
        elif t.kind == TURN_ORDER:
            assert e.count(ROAD) == t.number and RIVER not in e
        else:
            assert e.count(ROAD) == roads[t.season] and RIVER not in e, t.id


def test_only_29_tiles_have_an_action() -> None:
    """KF §6.1 / D4: storage, VP-only, winter tiles, boats and turn-order tiles have no action;
    this bounds the flat list of uses (docs/keyflower.md, "Actions")."""
    with_action = {t.id for t in TILES if any(s.action for s in t.sides)}
    assert len(with_action) == 29
    assert "barn" not in with_action and "forge" not in with_action
    assert "wainwright" in with_action and "home_3" in with_action


def test_setup_table_per_player_count() -> None:
    """KF §3: auction players+4; winter tiles 3 (2-4p) / 2 (5-6p); boats in order of minimum
    player count; the highest turn-order tile in use shows the purple keyple."""
    for n in range(2, 7):
        cfg = SETUPS[n]
        assert cfg.auction == n + 4
        assert cfg.winter_dealt == (3 if n <= 4 else 2)
        assert cfg.boats == BOATS[:n]
        assert all(TILES[b].min_players <= n for b in cfg.boats)
        faces = [TILES[t].faces_purple[f] for t, f in cfg.turn_order]
        assert faces[-1] and not any(faces[:-1])
        assert len(cfg.turn_order) == {2: 1, 3: 2, 4: 3, 5: 4, 6: 4}[n]
        assert cfg.keyples == 8
    assert len(WINTER_TILES) == 12


def test_decisions_kept_in_data() -> None:
    """KF §15: the least certain values live in the data file (Craftsmen's Guild 5 VP per set
    (seed), Ianvincible side A 5 keyples + 1 skill, Sea Breeze 2/4/8/16/32)."""
    guild = next(t for t in TILES if t.id == "craftsmens_guild")
    assert guild.sides[0].score == {
        "items": "keyples",
        "set": {"red": 1, "blue": 1, "yellow": 1},
        "vp": 5,
    }
    ianv = next(t for t in TILES if t.id == "ianvincible")
    assert ianv.loads[0] == (5, 1) and ianv.sides[1].vp == 5
    breeze = next(t for t in TILES if t.id == "sea_breeze")
    assert breeze.boat_scoring["boats_on_river_connected_to_home"] == {
        "1": 2,
        "2": 4,
        "3": 8,
        "4": 16,
        "5": 32,
    }


@pytest.mark.skipif(not SHARED.exists(), reason="shared tile file not present")
def test_converted_from_the_shared_file() -> None:
    """Every value taken over from shared/data/keyflower-tiles.json is unchanged."""
    src = json.loads(SHARED.read_text("utf-8"))
    mine = {t["id"]: t for t in DATA["tiles"]}
    for group in ("home_tiles", "spring_tiles", "summer_tiles", "autumn_tiles", "winter_tiles"):
        for raw in src[group]:
            t = mine[raw["id"]]
            assert t["edges"] == raw["edges"]
            assert t["upgrade_cost"] == raw["upgrade_cost"]
            assert t["sides"][0]["effect"] == raw["front"]["effect"]
            assert t["sides"][0]["vp"] == (raw["front"]["vp"] or 0)
            if raw.get("back"):
                assert t["sides"][1]["effect"] == raw["back"]["effect"]
                assert t["sides"][1]["vp"] == raw["back"]["vp"]
    for raw in src["summer_boats"]:
        t = mine[raw["id"]]
        assert [s["effect"] for s in t["sides"]] == [raw["a"]["effect"], raw["b"]["effect"]]
    boats = {b["id"]: b for b in DATA["boats"]}
    for raw in src["boat_tiles"]:
        b = boats[raw["id"]]
        assert b["edges"] == raw["edges"]
        assert b["loads"] == {"A": raw["load_side_a"], "B": raw["load_side_b"]}
        assert b["printed_vp"] == raw["printed_vp_winter_side"]
        assert b["winter_scoring"] == raw["winter_scoring"]
    turn = {t["number"]: t for t in DATA["turn_order_tiles"]}
    for raw in src["turn_order_tiles"]["tiles"]:
        assert turn[raw["number"]]["edges"] == raw["edges"]
