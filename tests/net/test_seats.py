"""The seat store (``net/seats.py``): tokens kept per host and table in the user data folder,
read as hostile input, written atomically, shared safely between processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from net import seats
from net.seats import MAX_AGE, MAX_KEPT, SeatStore, StoredSeat, check_entry, parse

ROOT = Path(__file__).resolve().parents[2]


def seat(n: int = 0, **changes: Any) -> StoredSeat:
    base = StoredSeat(
        "127.0.0.1", 7777, f"t{n + 1}", f"tok{n:04d}abcdefgh", n % 4, "kingdom-builder", f"P{n}"
    )
    return StoredSeat(**{**base.to_dict(), **changes})


def test_a_seat_is_kept_found_and_forgotten(tmp_path: Path) -> None:
    store = SeatStore(tmp_path / "seats.json")
    assert store.seats() == []  # no file yet
    store.remember(seat(0))
    store.remember(seat(1, host="192.168.1.20", port=7000))
    [kept] = store.at("127.0.0.1", 7777)
    assert (kept.table, kept.token, kept.seat, kept.name) == ("t1", "tok0000abcdefgh", 0, "P0")
    assert kept.holder == os.getpid() and time.time() - kept.saved < 60
    assert [s.port for s in store.at("192.168.1.20", 7000)] == [7000]
    assert store.find("tok0000abcdefgh") == kept
    store.forget("tok0000abcdefgh")
    assert store.at("127.0.0.1", 7777) == []
    assert len(store.seats()) == 1


def test_a_token_at_a_new_table_id_replaces_its_entry(tmp_path: Path) -> None:
    """A host restarted from its save numbers its tables anew: the token moves with it."""
    store = SeatStore(tmp_path / "seats.json")
    store.remember(seat(0, table="t1"))
    store.remember(seat(0, table="t3"))
    assert [s.table for s in store.seats()] == ["t3"]
    # Another token for the same seat replaces the old one (the seat was lost and taken anew);
    # another seat at the same table is kept beside it (two players of one data folder).
    store.remember(seat(0, table="t3", token="another-token-123"))
    assert [s.token for s in store.seats()] == ["another-token-123"]
    store.remember(seat(0, table="t3", token="second-seat-456", seat=1))
    assert sorted(s.seat for s in store.at("127.0.0.1", 7777)) == [0, 1]


def test_the_file_is_written_atomically_as_json(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "seats.json"
    SeatStore(path).remember(seat(2))
    raw = json.loads(path.read_text("utf-8"))
    assert raw["version"] == 1 and raw["seats"][0]["token"] == "tok0002abcdefgh"
    assert [p.name for p in path.parent.iterdir() if not p.name.startswith("seats.json")] == []


def test_at_most_max_kept_seats_the_newest(tmp_path: Path) -> None:
    store = SeatStore(tmp_path / "seats.json")
    for n in range(MAX_KEPT + 5):
        store.remember(seat(n))
    kept = store.seats()
    assert len(kept) == MAX_KEPT
    assert kept[0].token == f"tok{MAX_KEPT + 4:04d}abcdefgh"


def test_old_seats_are_dropped() -> None:
    now = time.time()
    fresh = {**seat(0).to_dict(), "saved": now - 60}
    stale = {**seat(1).to_dict(), "saved": now - MAX_AGE - 60}
    data = json.dumps({"version": 1, "seats": [fresh, stale]}).encode()
    assert [s.token for s in parse(data, now)] == [fresh["token"]]


def test_a_seat_held_by_a_running_process_is_not_taken(tmp_path: Path) -> None:
    """Two headless players sharing a data folder never take each other's seats; a seat whose
    process ended (killed) is free to take back."""
    store = SeatStore(tmp_path / "seats.json")
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True, check=True)  # fmt: skip
    dead = int(finished.stdout)
    try:
        store.remember(seat(0))
        store.remember(seat(1))
        store.remember(seat(2))
        body = json.loads(store.path.read_text("utf-8"))
        holders = {0: sleeper.pid, 1: dead, 2: 0}
        for entry in body["seats"]:
            entry["holder"] = holders[int(entry["table"][1:]) - 1]
        store.path.write_text(json.dumps(body), "utf-8")
        free = store.free("127.0.0.1", 7777)
        assert sorted(s.table for s in free) == ["t2", "t3"]
        assert [s.table for s in store.free("127.0.0.1", 7777, "t3")] == ["t3"]
        # Taking one back makes this process its holder; releasing keeps it remembered.
        store.remember(free[0])
        assert store.find(free[0].token).holder == os.getpid()  # type: ignore[union-attr]
        store.release(free[0].token)
        assert store.find(free[0].token).holder == 0  # type: ignore[union-attr]
    finally:
        sleeper.kill()
        sleeper.wait()


WRITER = """
import sys
from net.seats import SeatStore, StoredSeat
store = SeatStore(sys.argv[1])
for n in range(12):
    store.remember(StoredSeat("10.0.0.1", 7777, f"{sys.argv[2]}{n}", f"{sys.argv[2]}-token-{n}", 0))
"""


def test_processes_writing_at_once_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "seats.json"
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(path), name], cwd=ROOT)
        for name in ("a", "b", "c")
    ]
    for proc in procs:
        assert proc.wait(60) == 0
    assert len(SeatStore(path).seats()) == 36


HOSTILE: dict[str, bytes] = {
    "empty": b"",
    "not json": b"\x00\xff{{{",
    "not utf-8": b'{"version": 1, "seats": ["\xff"]}',
    "a list": b"[1, 2, 3]",
    "another version": json.dumps({"version": 2, "seats": [seat(0).to_dict()]}).encode(),
    "seats not a list": b'{"version": 1, "seats": {"a": 1}}',
    "nested 100,000 deep": b'{"version": 1, "seats": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    "too big": b'{"version": 1, "seats": [], "pad": "' + b"x" * (seats.MAX_FILE_BYTES + 10) + b'"}',
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_damaged_file_counts_as_empty_and_is_rewritten(tmp_path: Path, case: str) -> None:
    path = tmp_path / "seats.json"
    path.write_bytes(HOSTILE[case])
    store = SeatStore(path)
    assert store.seats() == []
    assert store.free("127.0.0.1", 7777) == []
    store.remember(seat(0))
    assert [s.token for s in store.seats()] == [seat(0).token]


BAD_ENTRIES: dict[str, dict[str, Any]] = {
    "host with a space": {"host": "evil host"},
    "host of escapes": {"host": "\x1b[2J"},
    "host too long": {"host": "a" * 300},
    "port 0": {"port": 0},
    "port 70000": {"port": 70000},
    "port true": {"port": True},
    "port as text": {"port": "7777"},
    "table with a slash": {"table": "t1/../x"},
    "token too long": {"token": "x" * 65},
    "token of unicode": {"token": "tökén"},
    "token missing": {"token": None},
    "seat 16": {"seat": 16},
    "seat -1": {"seat": -1},
    "seat null": {"seat": None},
    "game of spaces": {"game": "king dom"},
    "name a number": {"name": 5},
    "name of 5,000 characters": {"name": "n" * 5000},
    "saved nan": {"saved": float("nan")},
    "saved as text": {"saved": "yesterday"},
    "holder negative": {"holder": -5},
}


@pytest.mark.parametrize("case", sorted(BAD_ENTRIES))
def test_a_bad_entry_is_left_out_and_the_good_ones_kept(case: str) -> None:
    now = time.time()
    good = {**seat(0).to_dict(), "saved": now}
    bad = {**seat(1).to_dict(), "saved": now, **BAD_ENTRIES[case]}
    data = json.dumps({"version": 1, "seats": [bad, good]}).encode()
    assert [s.token for s in parse(data, now)] == [good["token"]]


def test_names_are_cleaned() -> None:
    entry = check_entry({**seat(0).to_dict(), "name": "\x1b[31mEve\x1b[0m\n", "host": "LocalHost"})
    assert entry.name == "Eve" and entry.host == "localhost"


def test_nothing_unsafe_is_ever_written(tmp_path: Path) -> None:
    store = SeatStore(tmp_path / "seats.json")
    with pytest.raises(ValueError):
        store.remember(seat(0, token="not a token!"))
    assert store.seats() == []


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=30,
)


@given(
    st.lists(
        st.fixed_dictionaries(
            {},
            optional={
                "host": st.sampled_from(["127.0.0.1", "h", "::1", ""]) | st.text(max_size=10),
                "port": st.integers(-5, 70000) | json_values,
                "table": st.sampled_from(["t1", "t#2"]) | json_values,
                "token": st.sampled_from(["abc", "a" * 64]) | json_values,
                "seat": st.integers(-2, 20) | json_values,
                "game": json_values,
                "name": json_values,
                "saved": st.floats() | json_values,
                "holder": st.integers(-2, 2**40) | json_values,
            },
        ),
        max_size=8,
    )
)
def test_any_entries_parse_without_error(entries: list[dict[str, Any]]) -> None:
    now = time.time()
    for entry in entries:
        entry.setdefault("saved", now)
    data = json.dumps({"version": 1, "seats": entries}).encode()
    for kept in parse(data, now):
        assert check_entry(kept.to_dict()) == kept  # what is kept would be kept again


@given(json_values)
def test_any_json_parses_without_error(value: Any) -> None:
    assert isinstance(parse(json.dumps(value).encode()), list)
