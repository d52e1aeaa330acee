"""Plain values on the wire: action normalisation, hostile msgpack, stable digests."""

from __future__ import annotations

import msgpack
import pytest

from game.core.wire import WireError, as_action, digest, is_plain, packb, to_plain, unpackb


def test_as_action_restores_tuples() -> None:
    assert as_action(["place", 3, 4]) == ("place", 3, 4)
    assert as_action(("end",)) == ("end",)
    assert as_action(["bid", ["red", 2]]) == ("bid", ("red", 2))


@pytest.mark.parametrize(
    "bad",
    [
        [],
        "place",
        [3, 4],
        ["place", 1.5],
        ["place", True],
        ["place", {"a": 1}],
        ["place", b"x"],
        ["x", [[[1]]]],
        ["x", *range(100)],
        ["x" * 100],
        None,
    ],
)
def test_as_action_rejects_malformed(bad: object) -> None:
    with pytest.raises(WireError):
        as_action(bad)


def test_unpackb_rejects_ext_int_keys_and_garbage() -> None:
    with pytest.raises(WireError):
        unpackb(msgpack.packb(msgpack.ExtType(5, b"xx")))
    with pytest.raises(WireError):
        unpackb(msgpack.packb({1: "a"}))
    with pytest.raises(WireError):
        unpackb(b"\xc1")
    with pytest.raises(WireError):
        unpackb(b"\xdd\xff\xff\xff\xff")  # array header claiming 4 billion items
    with pytest.raises(WireError):
        unpackb(packb({"a": 1}) + b"\x00")  # trailing bytes


def test_digest_ignores_key_order_and_tuple_vs_list() -> None:
    assert digest({"a": 1, "b": [1, 2]}) == digest({"b": (1, 2), "a": 1})
    assert digest({"a": 1}) != digest({"a": 2})


def test_round_trip_of_plain_values() -> None:
    value = {"x": [1, "a", None, True, {"y": [2, 3]}]}
    assert is_plain(value)
    assert unpackb(packb(value)) == to_plain(value)
    assert not is_plain({1: "int key"})
    assert not is_plain({"s": {1, 2}})
