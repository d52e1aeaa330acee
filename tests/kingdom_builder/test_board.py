"""The board data and geometry (KB §1, §2, §3.1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.kingdom_builder.board import (
    ALL_SECTIONS,
    BASE_SECTIONS,
    EDGE,
    JUMP,
    NBRS,
    NOMADS_SECTIONS,
    STEP,
    board_for,
    section_data,
    sections,
)

#: The shared research data, next to the repository (``../shared`` from its root).
SHARED = Path(__file__).resolve().parents[3] / "shared" / "data" / "kingdom-builder-boards.json"


@pytest.mark.skipif(not SHARED.exists(), reason="shared board file not present")
def test_converted_data_matches_the_shared_file():
    shared = json.loads(SHARED.read_text(encoding="utf-8"))
    ours = section_data()
    assert [s["name"] for s in shared["sections"]] == [s["name"] for s in ours["sections"]]
    for theirs, mine in zip(shared["sections"], ours["sections"], strict=True):
        assert mine["grid"] == theirs["grid"], theirs["name"]
        assert mine["castles"] == theirs["castle_hexes"]
        assert mine["locations"] == theirs["location_hexes"]
        assert mine["nomads"] == theirs["nomad_hexes"]
        assert mine["expansion"] == theirs["expansion"]
        assert 2 * len(mine["locations"]) == theirs["location_tiles_supplied"]
        counts = {t: "".join(mine["grid"]).count(t) for t in "GCDFTWMKLN"}
        assert counts == theirs["counts"]
    assert ours["nomad_tiles"] == shared["nomad_tiles"]["mix"]


def test_section_facts():
    """KB §1: Oracle and Harbor have 1 location hex and 2 castles; the other base sections 2
    location hexes and 1 castle; Nomads sections have no castle, Quarry 1 location hex and
    3 nomad hexes, the others 2 and 1.  28 base tiles and 14 Nomads tiles."""
    secs = sections()
    assert tuple(secs) == ALL_SECTIONS
    for name in BASE_SECTIONS:
        single = name in ("Oracle", "Harbor")
        assert len(secs[name].locations) == (1 if single else 2)
        assert len(secs[name].castles) == (2 if single else 1)
        assert secs[name].nomads == ()
    for name in NOMADS_SECTIONS:
        assert secs[name].castles == ()
        assert len(secs[name].locations) == (1 if name == "Quarry" else 2)
        assert len(secs[name].nomads) == (3 if name == "Quarry" else 1)
    assert sum(2 * len(secs[n].locations) for n in BASE_SECTIONS) == 28
    assert sum(2 * len(secs[n].locations) for n in NOMADS_SECTIONS) == 14
    assert sum(section_data()["nomad_tiles"].values()) == 15


def test_special_hexes_never_on_the_outer_ring_nor_adjacent():
    """KB §2: so two special hexes can only be joined through settlements."""
    for sec in sections().values():
        special = [*sec.castles, *sec.locations, *sec.nomads]
        assert all(0 < r < 9 and 0 < c < 9 for r, c in special)
    for names in (ALL_SECTIONS[:4], ALL_SECTIONS[4:8], ALL_SECTIONS[8:]):
        b = board_for(names, (False,) * 4)
        for h in b.specials:
            assert not any(n in b.specials for n in NBRS[h])


@pytest.mark.parametrize(
    ("rc", "expected"),
    [
        ((4, 4), {(4, 3), (4, 5), (3, 3), (3, 4), (5, 3), (5, 4)}),  # even row
        ((5, 4), {(5, 3), (5, 5), (4, 4), (4, 5), (6, 4), (6, 5)}),  # odd row
        ((0, 0), {(0, 1), (1, 0)}),
        ((19, 19), {(19, 18), (18, 19)}),
        ((9, 9), {(9, 8), (9, 10), (8, 9), (8, 10), (10, 9), (10, 10)}),  # across seams
    ],
)
def test_odd_r_neighbours(rc, expected):
    """KB §2 neighbour lists."""
    h = rc[0] * 20 + rc[1]
    assert {divmod(n, 20) for n in NBRS[h]} == expected


def test_straight_lines_and_jumps():
    # NE from (5,4) (odd): (4,5), then (3,5); SW back
    assert divmod(STEP[2][5 * 20 + 4], 20) == (4, 5)
    assert divmod(JUMP[2][5 * 20 + 4], 20) == (3, 5)
    assert divmod(JUMP[5][3 * 20 + 5], 20) == (5, 4)
    assert JUMP[0][0 * 20 + 18] == -1  # off the map
    assert len(EDGE) == 76


def test_rotation_turns_a_section_180_degrees():
    """KB §2: a turned section maps (r, c) to (9 - r, 9 - c)."""
    flat = board_for(("Farm", "Oracle", "Barn", "Tower"), (False,) * 4)
    turned = board_for(("Farm", "Oracle", "Barn", "Tower"), (True, False, False, True))
    for r in range(10):
        for c in range(10):
            assert turned.terrain[(9 - r) * 20 + (9 - c)] == flat.terrain[r * 20 + c]
            br = (10 + r) * 20 + 10 + c
            assert turned.terrain[(19 - r) * 20 + (19 - c)] == flat.terrain[br]
            assert turned.terrain[r * 20 + 10 + c] == flat.terrain[r * 20 + 10 + c]
    assert turned.location_type == {
        h if h // 20 >= 10 or h % 20 >= 10 else (9 - h // 20) * 20 + (9 - h % 20): t
        for h, t in flat.location_type.items()
        if not (h // 20 >= 10 and h % 20 >= 10)
    } | {
        (29 - h // 20) * 20 + (29 - h % 20): t
        for h, t in flat.location_type.items()
        if h // 20 >= 10 and h % 20 >= 10
    }


def test_board_cache_shares_layouts():
    a = board_for(("Farm", "Oracle", "Barn", "Tower"), (False,) * 4)
    assert a is board_for(("Farm", "Oracle", "Barn", "Tower"), (False,) * 4)
    assert a.rows()[0][:10] == sections()["Farm"].grid[0]
    assert a.rows()[10][10:] == sections()["Tower"].grid[0]


def test_a_turned_section_keeps_its_neighbours():
    """KB §2: with 10 rows per section, turning one 180° ((r, c) -> (9 - r, 9 - c)) maps
    neighbours to neighbours in the odd-r layout, so no other change is needed."""
    for r in range(10):
        for c in range(10):
            turned = (9 - r) * 20 + (9 - c)
            for n in NBRS[r * 20 + c]:
                nr, nc = divmod(n, 20)
                if nr < 10 and nc < 10:
                    assert (9 - nr) * 20 + (9 - nc) in NBRS[turned]
