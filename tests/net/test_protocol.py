"""Frames and message shapes (docs/protocol.md "Frames", "Errors")."""

from __future__ import annotations

import struct

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from net import host_messages
from net.protocol import (
    CLIENT_MESSAGES,
    ERROR_CODES,
    MAX_CLIENT_FRAME,
    MAX_FRAME,
    PROTOCOL_VERSION,
    ErrorCode,
    ProtocolError,
    decode,
    encode,
    frame_length,
    validate_client,
)


def body(frame: bytes) -> bytes:
    assert int.from_bytes(frame[:4], "big") == len(frame) - 4
    return frame[4:]


def test_frame_is_big_endian_length_then_one_msgpack_map() -> None:
    frame = encode({"t": "ping", "n": 3})
    assert frame[:4] == struct.pack(">I", len(frame) - 4)
    assert msgpack.unpackb(frame[4:]) == {"t": "ping", "n": 3}
    assert decode(body(frame)) == {"t": "ping", "n": 3}


def test_tuples_travel_as_lists() -> None:
    assert decode(body(encode({"t": "x", "a": ("place", 1, (2, 3))}))) == {
        "t": "x",
        "a": ["place", 1, [2, 3]],
    }


def test_oversized_messages_are_not_encoded() -> None:
    with pytest.raises(ValueError, match="frame limit"):
        encode({"t": "x", "blob": "a" * (MAX_FRAME + 1)})


@pytest.mark.parametrize("length", [0, MAX_CLIENT_FRAME + 1, 2**32 - 1])
def test_bad_length_prefix_is_refused_before_the_body(length: int) -> None:
    with pytest.raises(ProtocolError) as err:
        frame_length(struct.pack(">I", length), MAX_CLIENT_FRAME)
    assert err.value.code == ErrorCode.BAD_FRAME and err.value.fatal


def test_length_at_the_limit_is_accepted() -> None:
    assert frame_length(struct.pack(">I", MAX_CLIENT_FRAME), MAX_CLIENT_FRAME) == MAX_CLIENT_FRAME


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        (b"\xc1", "invalid msgpack"),  # never-used byte
        (b"\x92\x01", "truncated"),  # array of 2 with one item
        (msgpack.packb({"t": "ping"}) + b"\x00", "stray bytes"),
        (msgpack.packb(msgpack.ExtType(5, b"x")), "extension type"),
        (msgpack.packb({1: 2}), "not allowed for map key"),
        (msgpack.packb({"t": "ping", "b": b"bytes"}), "binary"),
        (msgpack.packb({b"t": "ping"}), "keys must be strings"),
        (msgpack.packb({"t": msgpack.Timestamp(1)}), "Timestamp"),
        (b"\xdd\xff\xff\xff\xff", "exceeds"),  # array header claiming 4 billion items
        (b"\xa2\xff\xfe", "invalid msgpack"),  # bad UTF-8
        (b"\x91" * 3000 + b"\x01", "invalid msgpack"),  # nesting deeper than the unpacker's stack
        (msgpack.packb({"t": "x", "f": float("nan")}), "non-finite"),
    ],
)
def test_malformed_bodies_are_bad_frames(data: bytes, fragment: str) -> None:
    with pytest.raises(ProtocolError) as err:
        decode(data)
    assert err.value.code == ErrorCode.BAD_FRAME
    assert fragment in err.value.text
    assert not err.value.fatal  # the framing is intact: the connection may go on


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ([1, 2], ErrorCode.BAD_MESSAGE),
        ({"type": "ping"}, ErrorCode.BAD_MESSAGE),
        ({"t": 5}, ErrorCode.BAD_MESSAGE),
    ],
)
def test_values_that_are_not_typed_maps_are_bad_messages(value: object, code: str) -> None:
    with pytest.raises(ProtocolError) as err:
        decode(msgpack.packb(value))
    assert err.value.code == code


def test_unknown_types_and_fields_are_refused_with_their_names() -> None:
    with pytest.raises(ProtocolError) as err:
        validate_client({"t": "teleport"})
    assert err.value.code == ErrorCode.UNKNOWN_TYPE and "teleport" in err.value.text
    with pytest.raises(ProtocolError) as err:
        validate_client({"t": "ping", "color": 1})
    assert err.value.code == ErrorCode.BAD_MESSAGE and "'color'" in err.value.text
    with pytest.raises(ProtocolError) as err:
        validate_client({"t": "action", "seq": 1})
    assert "needs field 'action'" in err.value.text


@pytest.mark.parametrize(
    "msg",
    [
        {"t": "action", "seq": -1, "action": ["end"]},
        {"t": "action", "seq": True, "action": ["end"]},
        {"t": "action", "seq": 0, "action": []},
        {"t": "action", "seq": 0, "action": [1, 2]},
        {"t": "action", "seq": 0, "action": ["x", 1.5]},
        {"t": "action", "seq": 0, "action": ["x", [[["deep"]]]]},
        {"t": "hello", "version": "1"},
        {"t": "join", "table": "t 1"},
        {"t": "join", "table": "t1", "token": "x" * 65},
        {"t": "chat", "text": ""},
        {"t": "chat", "text": "x" * 501},
        {"t": "create_table", "game": "kingdom-builder", "players": 0},
        {"t": "create_table", "game": "kingdom-builder", "players": 4, "options": [1]},
        {"t": "set_seat", "seat": 99},
        {"t": "set_seat", "seat": 0, "kind": "alien"},
        {"t": "ready", "ready": 1},
    ],
)
def test_wrong_field_values_are_bad_messages(msg: dict[str, object]) -> None:
    with pytest.raises(ProtocolError) as err:
        validate_client(msg)
    assert err.value.code == ErrorCode.BAD_MESSAGE


def test_valid_messages_come_back_cleaned() -> None:
    assert validate_client({"t": "action", "seq": 4, "action": ["place", 3, 5]}) == {
        "t": "action",
        "seq": 4,
        "action": ("place", 3, 5),
    }
    assert validate_client({"t": "chat", "text": " hi\x00\x1b there "})["text"] == "hi there"
    assert validate_client({"t": "hello", "version": PROTOCOL_VERSION}) == {
        "t": "hello",
        "version": PROTOCOL_VERSION,
    }


def test_every_client_message_and_error_code_is_documented() -> None:
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
    for kind in CLIENT_MESSAGES:
        assert f"`{kind}`" in doc, kind
    for kind in host_messages.HOST_MESSAGES:
        assert f"`{kind}" in doc, kind
    for code in ERROR_CODES:
        assert f"`{code}`" in doc, code


@given(st.binary(max_size=300))
def test_decoding_random_bytes_fails_only_with_protocol_errors(data: bytes) -> None:
    try:
        msg = decode(data)
    except ProtocolError as exc:
        assert exc.code in ERROR_CODES
        return
    assert isinstance(msg, dict) and isinstance(msg["t"], str)


plain = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)


@given(
    st.sampled_from(sorted(CLIENT_MESSAGES)),
    st.dictionaries(st.text(max_size=8), plain, max_size=4),
)
def test_validating_arbitrary_shapes_fails_only_with_protocol_errors(
    kind: str, fields: dict[str, object]
) -> None:
    msg = {**fields, "t": kind}
    try:
        clean = validate_client(decode(body(encode(msg))))
    except ProtocolError as exc:
        assert exc.code in (ErrorCode.BAD_MESSAGE, ErrorCode.UNKNOWN_TYPE)
        return
    assert clean["t"] == kind and set(clean) <= {"t", *CLIENT_MESSAGES[kind]}
