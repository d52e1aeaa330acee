"""What a client checks in a host's messages (docs/protocol.md, "What a client checks").

* Every message a real host sends in a whole game — all fourteen types — passes
  :func:`net.host_messages.validate_host` unchanged, so the schema and the host agree.
* A structure-aware fuzz: valid messages of every type with one part replaced, removed or
  added (hypothesis) either validate to a clean copy that validates to itself, holding only
  defined fields, or are refused with ``bad_message`` — never another exception.
* Frame bounds shared by both sides: maps and arrays per frame, nesting depth; text cleaning.
"""

from __future__ import annotations

import asyncio
import copy
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core.match import clean_text
from net import protocol
from net.host import HostConfig, TcpHost
from net.host_messages import HOST_MESSAGES, validate_host
from net.hub import Hub
from net.protocol import (
    MAX_CLIENT_CONTAINERS,
    MAX_CLIENT_FRAME,
    MAX_CONTAINERS,
    MAX_DEPTH,
    PROTOCOL_VERSION,
    ErrorCode,
    ProtocolError,
    decode,
)
from tests.net.fakehost import good_messages
from tests.net.helpers import LOOPBACK, run


class Raw:
    """A client connection that records every message exactly as decoded (not validated)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.seen: list[dict[str, Any]] = []
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.task = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, port: int, name: str) -> Raw:
        raw = cls(*await asyncio.open_connection(LOOPBACK, port))
        await raw.send({"t": "hello", "version": PROTOCOL_VERSION, "name": name})
        await raw.expect("welcome")
        return raw

    async def _read(self) -> None:
        try:
            while True:
                header = await self.reader.readexactly(4)
                body = await self.reader.readexactly(int.from_bytes(header, "big"))
                msg = decode(body)
                self.seen.append(msg)
                await self.queue.put(msg)
        except (asyncio.IncompleteReadError, ConnectionError):
            return

    async def send(self, msg: dict[str, Any]) -> None:
        self.writer.write(protocol.encode(msg))
        await self.writer.drain()

    async def expect(self, kind: str) -> dict[str, Any]:
        async with asyncio.timeout(10):
            while True:
                msg = await self.queue.get()
                if msg["t"] == kind:
                    return msg

    def close(self) -> None:
        self.writer.close()
        self.task.cancel()


async def whole_game(game_id: str) -> list[dict[str, Any]]:
    """Two raw clients play a short game of the shared test game (``tests/testgame``: one round,
    a race to 3) with every message type on the way."""
    host = TcpHost(Hub(autosave=False, allow_hints=True), HostConfig(bind=LOOPBACK, port=0))
    await host.start()
    conns: list[Raw] = []
    try:
        a = await Raw.open(host.port, "Alice")
        conns.append(a)
        await a.send({"t": "list_tables"})
        await a.expect("tables")
        await a.send(
            {
                "t": "create_table",
                "game": game_id,
                "players": 2,
                "options": {"rounds": 1, "goal": 3},
                "allow_hints": True,
                "name": "T",
            }
        )
        table = (await a.expect("joined"))["table"]
        b = await Raw.open(host.port, "Bob")
        conns.append(b)
        await b.send({"t": "join", "table": table})
        token = (await b.expect("joined"))["token"]
        await b.send({"t": "ready"})
        await a.send({"t": "chat", "text": "hello"})
        await b.expect("chat")
        await a.send({"t": "ping", "n": 3})
        await a.expect("pong")
        await a.send({"t": "action", "seq": 0, "action": ["bid", 1]})
        await a.expect("error")  # not started yet
        await a.send({"t": "start"})
        players = {0: a, 1: b}
        hints = {0: 0, 1: 0}
        dropped = False
        while True:
            state = await a.expect("state")
            if state["over"]:
                break
            seat = state["to_move"][0]
            mover = players[seat]
            if seat == 1 and not dropped:
                # Bob drops on his turn (Alice is told she waits for him), then comes back.
                dropped = True
                mover.close()
                await a.expect("waiting")
                mover = await Raw.open(host.port, "Bob")
                conns.append(mover)
                players[1] = mover
                await mover.send({"t": "join", "table": table, "token": token})
                await mover.expect("joined")
            own = await mover.expect("state") if mover is not a else state
            while own["seq"] != state["seq"]:
                own = await mover.expect("state")
            await mover.send({"t": "sample", "seq": own["seq"]})
            await mover.expect("sample")
            await mover.send({"t": "explain", "seq": own["seq"], "action": own["legal"][0]})
            assert (await mover.expect("explanation"))["legal"] is True
            if hints[seat] < 2:  # within the host's hint rate (3 at once, then one per 10 s)
                hints[seat] += 1
                await mover.send({"t": "hint", "seq": own["seq"]})
                await mover.expect("hint")
            await mover.send({"t": "action", "seq": own["seq"], "action": own["legal"][0]})
        await a.expect("game_over")
        await players[1].send({"t": "leave"})
        await players[1].expect("left")
        await a.send({"t": "close_table"})
        await a.expect("table_closed")
        return [m for c in conns for m in c.seen]
    finally:
        for c in conns:
            c.close()
        await host.stop()


def test_every_message_of_a_real_host_passes_the_client_check_unchanged(bid_race: str) -> None:
    messages = run(lambda: whole_game(bid_race))
    kinds = {m["t"] for m in messages}
    assert kinds == set(HOST_MESSAGES), set(HOST_MESSAGES) - kinds
    for msg in messages:
        assert validate_host(msg) == msg, msg["t"]


# ---- structure-aware fuzz of host messages ----------------------------------------------------

plain = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from(["", "\x1b[31m", "t1", "kingdom-builder", "open", "\u202e", "x" * 2000]),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=25,
)


def examples() -> dict[str, dict[str, Any]]:
    """One valid message of each host type."""
    good = good_messages()
    table = good["welcome"]["tables"][0]
    return {
        **good,
        "tables": {"t": "tables", "tables": [table, {**table, "table": "t2"}]},
        "hint": {"t": "hint", "table": "t1", "seq": 3, "action": ["bid", 1]},
        "waiting": {
            "t": "waiting",
            "table": "t1",
            "seats": [{"seat": 1, "name": "Bob"}],
            "seat": 1,
            "name": "Bob",
        },
        "chat": {"t": "chat", "table": "t1", "seat": None, "name": "Eve", "text": "hi"},
        "pong": {"t": "pong", "n": 4},
        "left": {"t": "left", "table": "t1", "reason": "you left the table"},
        "table_closed": {"t": "table_closed", "table": "t1", "reason": "everyone left"},
        "error": {"t": "error", "code": "stale", "text": "seq 3 is not current"},
        "explanation": {
            "t": "explanation",
            "table": "t1",
            "seq": 3,
            "action": ["bid", 3],
            "legal": False,
            "reason": {
                "text": "a bid is 0 to 2 (at most 3, at most your coins)",
                "rule": "testgame bids: amount",
                "key": "",
                "params": {},
            },
        },
    }


def test_the_examples_cover_every_type_and_are_valid() -> None:
    ex = examples()
    assert set(ex) == set(HOST_MESSAGES)
    for msg in ex.values():
        assert validate_host(msg) == msg


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a part of ``value`` (map keys and list indexes)."""
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:6]):
            out += paths(v, (*prefix, i))
    return out


def mutate(msg: dict[str, Any], path: tuple[Any, ...], how: str, new: Any, key: str) -> Any:
    """``msg`` with the part at ``path`` replaced, removed, or given an extra key."""
    msg = copy.deepcopy(msg)
    if not path:
        return new if how == "replace" else {**msg, key: new}
    parent: Any = msg
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if how == "replace":
        parent[last] = new
    elif how == "remove":
        del parent[last]
    elif isinstance(parent[last], dict):
        parent[last][key] = new
    else:
        parent[last] = [parent[last], new]
    return msg


def check_one(msg: Any) -> None:
    """Through a real frame: refused with a protocol error, or a clean, stable copy."""
    try:
        frame = protocol.encode(msg) if isinstance(msg, dict) else None
    except (ValueError, TypeError, OverflowError):
        return  # not encodable at all: cannot reach a client as one message
    body = frame[4:] if frame is not None else msgpack.packb(msg)
    try:
        clean = validate_host(decode(body))
    except ProtocolError as exc:
        assert exc.code in (ErrorCode.BAD_FRAME, ErrorCode.BAD_MESSAGE, ErrorCode.UNKNOWN_TYPE)
        assert exc.text and clean_text(exc.text) == exc.text
        return
    kind = clean["t"]
    assert set(clean) <= {"t", *HOST_MESSAGES[kind]}
    assert validate_host(clean) == clean


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(sorted(HOST_MESSAGES)),
    st.data(),
    st.sampled_from(["replace", "remove", "add"]),
    plain,
    st.text(max_size=8),
)
def test_mutated_host_messages_are_refused_or_cleaned(
    kind: str, data: st.DataObject, how: str, new: Any, key: str
) -> None:
    msg = examples()[kind]
    path = data.draw(st.sampled_from(paths(msg)))
    if how == "remove" and not path:
        how = "replace"
    check_one(mutate(msg, path, how, new, key))


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["t", "table", "seq", "seats", "seat", "view"]), plain))
def test_arbitrary_maps_are_refused_or_cleaned(msg: dict[str, Any]) -> None:
    check_one(msg)


@pytest.mark.slow
@settings(max_examples=20_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(sorted(HOST_MESSAGES)),
    st.data(),
    st.lists(
        st.tuples(st.sampled_from(["replace", "remove", "add"]), plain, st.text(max_size=8)),
        min_size=1,
        max_size=4,
    ),
)
def test_mutated_host_messages_long_run(
    kind: str, data: st.DataObject, mutations: list[tuple[str, Any, str]]
) -> None:
    msg: Any = examples()[kind]
    for how, new, key in mutations:
        if not isinstance(msg, dict):
            break
        path = data.draw(st.sampled_from(paths(msg)))
        msg = mutate(msg, path, "replace" if how == "remove" and not path else how, new, key)
    check_one(msg)


# ---- frame bounds and text -------------------------------------------------------------------


def nested(lists: int) -> Any:
    """``lists`` lists inside each other around a number."""
    value: Any = 1
    for _ in range(lists):
        value = [value]
    return value


def test_nesting_is_bounded_on_both_sides() -> None:
    # The message map is one level: MAX_DEPTH levels of maps and lists in all are accepted.
    ok = msgpack.packb({"t": "pong", "n": nested(MAX_DEPTH - 1)})
    assert decode(ok)["t"] == "pong"
    too_deep = msgpack.packb({"t": "pong", "n": nested(MAX_DEPTH)})
    for limit in (MAX_CLIENT_FRAME, protocol.MAX_FRAME):
        with pytest.raises(ProtocolError, match="nested more than") as err:
            decode(too_deep, limit)
        assert err.value.code == ErrorCode.BAD_FRAME


@pytest.mark.parametrize(
    ("limit", "allowed"),
    [(MAX_CLIENT_FRAME, MAX_CLIENT_CONTAINERS), (protocol.MAX_FRAME, MAX_CONTAINERS)],
)
def test_maps_and_arrays_per_frame_are_counted_while_decoding(limit: int, allowed: int) -> None:
    assert protocol.container_limit(limit) == allowed
    # The message map itself and the list count too.
    fits = msgpack.packb({"t": "x", "n": [{}] * (allowed - 2)})
    assert len(decode(fits, max(limit, len(fits)))["n"]) == allowed - 2
    over = msgpack.packb({"t": "x", "n": [{}] * (allowed - 1)})
    with pytest.raises(ProtocolError, match=f"at most {allowed} maps and arrays") as err:
        decode(over, max(limit, len(over)) if limit > MAX_CLIENT_FRAME else limit)
    assert err.value.code == ErrorCode.BAD_FRAME


def test_a_client_frame_of_65000_empty_maps_is_refused_early() -> None:
    """The attack of issue 9: a 64 KB frame of 65,000 empty maps.  Refused after 1,024."""
    body = msgpack.packb({"t": "chat", "text": [{}] * 65_000})
    assert len(body) <= MAX_CLIENT_FRAME
    with pytest.raises(ProtocolError, match="at most 1024 maps"):
        decode(body, MAX_CLIENT_FRAME)


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("Alice", "Alice"),
        ("  Al ice ", "Al ice"),
        ("\x1b[31mred\x1b[0m", "red"),
        ("a\x1b]0;title\x07b", "ab"),
        ("a\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\b", "alinkb"),
        ("line\r\nnext", "line next"),
        ("tab\there", "tab here"),
        ("bell\x07\x00null", "bellnull"),
        ("\x9b2Jgone", "gone"),
        ("right\u202eleft", "rightleft"),
        ("zero\u200bwidth", "zerowidth"),
        ("日本語", "日本語"),
    ],
)
def test_text_from_outside_loses_escape_sequences_and_control_characters(
    raw: str, clean: str
) -> None:
    assert clean_text(raw) == clean
    assert validate_host({"t": "error", "code": "x", "text": raw})["text"] == clean
