"""Crafted saves and replays: every tool and the saved-games list give a clear error, never a
traceback (issue 9, "Files"; ``game/core/match.py`` module docstring; docs/protocol.md,
"Limits").

The tools are ``show``, ``show --json``, ``replay --verify`` and ``host --resume`` (run in this
process through ``game.cli.main``, and a few as real processes); the list is
``game.ui.scenes.files.list_files``.  A structure-aware hypothesis fuzz mutates the body of
real Kingdom Builder records (a finished replay and an unfinished save), re-signs them with a
correct digest so the checks behind the digest are reached, and checks the same promises.
"""

from __future__ import annotations

import contextlib
import copy
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.bots import make_bot
from game.cli import main
from game.core.match import (
    MAX_FILE_CONTAINERS,
    MAX_NAME,
    MAX_REPLAY_ACTIONS,
    REPLAY_FORMAT,
    REPLAY_VERSION,
    Replay,
    clean_name,
    journal_entry,
    journal_path,
    play_match,
)
from game.core.registry import game_ids
from game.core.types import BadState
from game.core.wire import digest, packb
from net.protocol import ProtocolError
from net.session import Session

ROOT = Path(__file__).resolve().parents[2]
GAME = "kingdom-builder"


def finished_replay() -> Replay:
    bots = [make_bot("random", seed=s).choose for s in range(2)]
    seats = [
        {"name": "Ann", "kind": "human", "bot": None, "colour": "red"},
        {"name": "Bot", "kind": "bot", "bot": "random", "colour": "blue"},
    ]
    return play_match(GAME, 2, 5, bots, seats=seats).replay


_FINISHED = finished_replay()


def bodies() -> dict[str, dict[str, Any]]:
    """The body of a finished replay and of a save (the same game after 10 actions)."""
    save = copy.deepcopy(_FINISHED)
    save.actions = save.actions[:10]
    save.final_hash = None
    return {"replay": _FINISHED.body(), "save": save.body()}


def signed(body: Any, **top: Any) -> bytes:
    """A file holding ``body`` with a correct digest (when one can be computed)."""
    try:
        sig = digest(body)
    except RecursionError:
        sig = "0" * 32  # too deep to digest: the loader must refuse it before the digest
    return packb(
        {"format": REPLAY_FORMAT, "version": REPLAY_VERSION, "body": body, "digest": sig, **top}
    )


def nested(levels: int) -> Any:
    value: Any = "x"
    for _ in range(levels):
        value = [value]
    return value


def with_body(kind: str = "save", **changes: Any) -> bytes:
    body = bodies()[kind]
    for key, value in changes.items():
        if value is ...:
            del body[key]
        else:
            body[key] = value
    return signed(body)


def seats(*records: Any) -> list[Any]:
    return list(records)


HUGE = "N" * 600_000

#: name -> (file bytes, words the error must contain)
CASES: dict[str, tuple[bytes, tuple[str, ...]]] = {
    "players 0": (with_body(players=0), ("players",)),
    "players 1 (KB takes 2 to 5)": (
        with_body(players=1, seats=[{"name": "A"}], actions=[]),
        ("players",),
    ),
    "players 6 (out of range for KB)": (
        with_body(players=6, seats=[{}] * 6, actions=[]),
        ("players",),
    ),
    "players 17": (with_body(players=17, seats=[{}] * 17), ("players",)),
    "players -1": (with_body(players=-1), ("players",)),
    "players as text": (with_body(players="2"), ("players",)),
    "options nested 900 deep": (with_body(options={"x": nested(900)}), ("nested",)),
    "seats nested 900 deep": (with_body(seats=[nested(900), {}]), ("nested",)),
    "actions nested 900 deep": (with_body(actions=[[0, nested(900)]]), ("nested",)),
    "top level nested 900 deep": (signed(bodies()["save"], extra=nested(900)), ("nested",)),
    "nested 100,000 deep (raw bytes)": (b"\x91" * 100_000 + b"\xc0", ("damaged",)),
    "seats [1, 2, 3]": (with_body(seats=[1, 2, 3]), ("seats",)),
    "seats [1, 2]": (with_body(seats=[1, 2]), ("seat record 1",)),
    "seats missing": (with_body(seats=...), ("seats",)),
    "two names of 600,000 characters": (
        with_body(seats=[{"name": HUGE, "kind": "human"}, {"name": HUGE, "kind": "human"}]),
        ("name", str(MAX_NAME)),
    ),
    "a name of 33 characters": (
        with_body(seats=[{"name": "A" * 33}, {"name": "B"}]),
        ("name", str(MAX_NAME)),
    ),
    "a name as a number": (with_body(seats=[{"name": 5}, {}]), ("name",)),
    "a seat kind that does not exist": (with_body(seats=[{"kind": "god"}, {}]), ("kind",)),
    "a bot name with spaces": (with_body(seats=[{"bot": "rm -rf"}, {}]), ("bot",)),
    "game id unknown": (with_body(game="nope"), ("nope",)),
    "game id empty": (with_body(game=""), ("game",)),
    "game id a path": (with_body(game="../../etc/passwd"), ("game",)),
    "game id a number": (with_body(game=7), ("game",)),
    "options unknown": (with_body(options={"dragons": True}), ("dragons",)),
    "options not a map": (with_body(options=[1]), ("options",)),
    "an illegal action": (with_body(actions=[[0, ["place", 99, 99]]]), ("illegal",)),
    "an action by seat 7": (with_body(actions=[[7, ["end"]]]), ("seat",)),
    "an action that is a number": (with_body(actions=[[0, 5]]), ("action 1",)),
    "an action pair of three": (with_body(actions=[[0, ["end"], 1]]), ("action 1",)),
    "actions not a list": (with_body(actions={"a": 1}), ("actions",)),
    "too many actions": (
        with_body(actions=[[0, ["end"]]] * (MAX_REPLAY_ACTIONS + 1)),
        (str(MAX_REPLAY_ACTIONS),),
    ),
    "too many maps": (
        with_body(extra=[{}] * (MAX_FILE_CONTAINERS + 1)),
        (str(MAX_FILE_CONTAINERS),),
    ),
    "final hash wrong": (with_body("replay", final_hash="0" * 32), ("hash",)),
    "final hash a number": (with_body("replay", final_hash=5), ("final_hash",)),
    "seed as text": (with_body(seed="7"), ("seed",)),
    "rules version from the future": (with_body("replay", rules_version=999), ("rules version",)),
    "digest wrong": (
        packb(
            {
                "format": REPLAY_FORMAT,
                "version": REPLAY_VERSION,
                "body": bodies()["save"],
                "digest": "0" * 32,
            }
        ),
        ("digest",),
    ),
    "format version 2": (signed(bodies()["save"], version=2), ("version",)),
    "another format": (signed(bodies()["save"], format="zip"), ("not a Lantern Table",)),
    "truncated": (with_body()[:-40], ("truncated",)),
    "garbage bytes": (b"\xc1\xc1 definitely not msgpack \x00\xff", ("damaged",)),
    "empty file": (b"", ("truncated",)),
    "a msgpack number": (packb(5), ("not a Lantern Table",)),
    "an extension type": (b"\xd4\x05\x00", ("damaged",)),
}

#: What each tool is run as, and the exit code it gives a bad file.
TOOLS: dict[str, tuple[Callable[[Path], list[str]], int]] = {
    "show": (lambda f: ["show", str(f)], 2),
    "show --json": (lambda f: ["show", "--json", str(f)], 2),
    "replay --verify": (lambda f: ["replay", str(f), "--verify"], 1),
    "host --resume": (
        lambda f: [
            "host",
            "--bind",
            "127.0.0.1",
            "--port",
            "0",
            "--no-announce",
            "--no-autosave",
            "--quiet",
            "--resume",
            str(f),
        ],
        2,
    ),
}


def run_tool(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    switch = sys.getswitchinterval()
    # A host that accepted the file would serve until stopped: stop it (SIGINT) after 30 s,
    # so such a failure ends with its exit code 0 instead of a hanging test.
    watchdog = threading.Timer(30, lambda: os.kill(os.getpid(), signal.SIGINT))
    if argv[0] == "host":
        watchdog.start()
    try:
        code = main(argv)
    finally:
        watchdog.cancel()
        sys.setswitchinterval(switch)  # ``host`` sets it for its process
    out, err = capsys.readouterr()
    return code, out, err


def assert_clear_error(code: int, expected: int, err: str, words: tuple[str, ...]) -> None:
    assert code == expected, (code, err)
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("lantern "), err
    assert len(lines[0]) < 1000
    for word in words:
        assert word in lines[0], (word, lines[0])


@pytest.mark.parametrize("tool", sorted(TOOLS))
@pytest.mark.parametrize("case", sorted(CASES))
def test_every_tool_refuses_a_crafted_file_with_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str, tool: str
) -> None:
    data, words = CASES[case]
    path = tmp_path / "crafted.save"
    path.write_bytes(data)
    argv, expected = TOOLS[tool]
    if tool == "host --resume" and case in ("final hash wrong", "rules version from the future"):
        words = ()  # the host refuses a finished game before it looks at the hash
    code, out, err = run_tool(argv(path), capsys)
    assert_clear_error(code, expected, err, words)
    assert out == "" or tool == "host --resume"


def test_the_good_files_work_with_every_tool(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    replay = tmp_path / "good.replay"
    replay.write_bytes(signed(bodies()["replay"]))
    for argv in (
        ["show", str(replay)],
        ["show", "--json", str(replay)],
        ["replay", str(replay), "--verify"],
    ):
        code, out, err = run_tool(argv, capsys)
        assert code == 0 and out and not err, (argv, err)
    loaded = Replay.load(replay)
    assert loaded.verify().state_hash() == _FINISHED.final_hash
    save = Replay.from_bytes(signed(bodies()["save"]))
    assert Session.resume("t1", save).seq == 10


def test_a_resumed_save_has_the_limits_of_live_input() -> None:
    """Names are cleaned like typed names; a seat record keeps the fields it had."""
    body = bodies()["save"]
    body["seats"][0]["name"] = "  \x1b[31mAnn\x1b[0m\n"
    replay = Replay.from_bytes(signed(body))
    assert replay.seats[0]["name"] == "Ann" == clean_name("\x1b[31mAnn\x1b[0m\n")
    assert replay.seats[0]["colour"] == "red"
    session = Session.resume("t1", replay)
    assert session.seats[0].name == "Ann"
    assert all(len(s.name) <= MAX_NAME for s in session.seats)


@pytest.mark.parametrize(
    "case", ["seats [1, 2, 3]", "options nested 900 deep", "players 6 (out of range for KB)"]
)
def test_the_real_commands_refuse_crafted_files_without_a_traceback(
    tmp_path: Path, case: str
) -> None:
    data, words = CASES[case]
    path = tmp_path / "crafted.save"
    path.write_bytes(data)
    for name, (argv, expected) in TOOLS.items():
        proc = subprocess.run(
            [sys.executable, "-m", "game", *argv(path)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert_clear_error(
            proc.returncode, expected, proc.stderr, words if name != "host --resume" else ()
        )


# ---- the saved-games list ----------------------------------------------------------------------


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "data"
    monkeypatch.setenv("LANTERN_DATA_DIR", str(path))
    monkeypatch.setenv("LANTERN_CONFIG_DIR", str(tmp_path / "config"))
    return path


def test_the_saved_games_list_shows_every_crafted_file_as_a_row_that_says_why(
    data_dir: Path,
) -> None:
    from game.ui.scenes.files import list_files

    saves = data_dir / "saves"
    saves.mkdir(parents=True)
    for i, (data, _words) in enumerate(CASES.values()):
        (saves / f"crafted-{i:02d}.save").write_bytes(data)
    (saves / "good.save").write_bytes(signed(bodies()["save"]))
    (data_dir / "replays").mkdir()
    (data_dir / "replays" / "good.replay").write_bytes(signed(bodies()["replay"]))
    (data_dir / "replays" / "bad.replay").write_bytes(CASES["seats [1, 2, 3]"][0])
    items = list_files("saves")
    rows = {Path(i.value).name: i for i in items}
    assert rows["good.save"].enabled and "Ann, Bot" in rows["good.save"].title
    for i, (data, _words) in enumerate(CASES.values()):
        row = rows.get(f"crafted-{i:02d}.save")
        if _finished(data):
            assert row is None  # a finished game is a replay: not under saved games
        elif _refused(data):
            # a file the loader refuses is a row saying why, which cannot be chosen
            assert not row.enabled and row.detail.startswith("Cannot open this game:"), row
        else:
            # it loads (its problem shows when it is continued): listed as a saved game
            assert row.enabled and "moves" in row.detail, row
    assert sum(1 for i in items if not i.enabled) > 30
    replays = {Path(i.value).name: i.enabled for i in list_files("replays")}
    finished = {f"crafted-{i:02d}.save" for i, (d, _w) in enumerate(CASES.values()) if _finished(d)}
    assert replays == {"good.replay": True, "bad.replay": False} | dict.fromkeys(finished, True)


def _finished(data: bytes) -> bool:
    try:
        return Replay.from_bytes(data).final_hash is not None
    except BadState:
        return False


def _refused(data: bytes) -> bool:
    try:
        Replay.from_bytes(data)
    except BadState:
        return True
    return False


def test_continue_a_saved_game_with_crafted_files_in_the_folder(data_dir: Path) -> None:
    """The window's *Continue a saved game*: the list opens, a damaged row cannot be opened,
    a crafted file that loads but cannot be continued is refused with a message."""
    from game.ui.scenes.files import FilesScene
    from game.ui.scenes.menu import MenuScene
    from tests.ui.conftest import click, make_app

    saves = data_dir / "saves"
    saves.mkdir(parents=True)
    for i, (data, _words) in enumerate(CASES.values()):
        (saves / f"crafted-{i:02d}.save").write_bytes(data)
    app = make_app()
    try:
        app.push(MenuScene(app))
        files = app.push(FilesScene(app, "saves"))
        app.step()
        listbox = files.widget("files")
        rows = listbox.items  # type: ignore[attr-defined]
        assert rows
        for index, row in enumerate(rows):
            listbox.select(index)  # type: ignore[attr-defined]
            app.step()
            if row.enabled:
                click(app, "open_file")
                # refused with a toast (the file loads but the game cannot continue)
                assert app.top is files, (row.title, app.top)
            else:
                assert listbox.selected != index  # type: ignore[attr-defined]
                files.open_path(row.value)  # type: ignore[attr-defined]
                assert app.top is files
            app.step()
        for data, _words in CASES.values():
            path = saves / "typed.save"
            path.write_bytes(data)
            files.open_path(str(path))  # type: ignore[attr-defined]
            app.step()
            if app.top is not files:  # a finished game may open in the replay viewer
                assert _finished(data) and app.top is not None and app.top.name == "replay"
                app.pop()
            assert app.top is files
    finally:
        app.shutdown()


# ---- structure-aware fuzz ----------------------------------------------------------------------

special = st.sampled_from(
    [
        None,
        True,
        -1,
        0,
        1,
        2,
        5,
        17,
        2**63,
        -(2**63),
        "",
        "kingdom-builder",
        "end",
        "place",
        "\x1b[2J",
        "x" * 200,
        HUGE,
        [],
        {},
        [1, 2, 3],
        ["end"],
        [0, ["end"]],
        {"name": HUGE},
        {"kind": "bot", "bot": "random"},
    ]
)
leaf = (
    special
    | st.integers(-(2**63), 2**64 - 1)
    | st.text(max_size=10)
    | st.floats(allow_nan=False)
    | st.integers(20, 1000).map(nested)  # msgpack packs up to ~1,020
)
value = st.recursive(
    leaf,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)


def paths(item: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths to the parts of ``item`` (at most 8 deep; a few items of long lists)."""
    out = [prefix]
    if len(prefix) >= 8:
        return out
    if isinstance(item, dict):
        for k, v in item.items():
            out += paths(v, (*prefix, k))
    elif isinstance(item, list):
        picks = range(len(item)) if len(item) <= 6 else (0, 1, len(item) // 2, len(item) - 1)
        for i in picks:
            out += paths(item[i], (*prefix, i))
    return out


def mutate(body: Any, path: tuple[Any, ...], how: str, new: Any, key: str) -> Any:
    """``body`` with the part at ``path`` replaced, removed or given something more; only the
    containers along the path are copied (the rest may be nested too deep to copy)."""
    if not path:
        if how == "replace" or not isinstance(body, dict):
            return new
        return {**body, key: new}
    node: Any = dict(body) if isinstance(body, dict) else list(body)
    step, rest = path[0], path[1:]
    if rest:
        node[step] = mutate(node[step], rest, how, new, key)
    elif how == "replace":
        node[step] = new
    elif how == "remove":
        del node[step]
    elif isinstance(node[step], dict):
        node[step] = {**node[step], key: new}
    elif isinstance(node[step], list):
        node[step] = [*node[step], new]
    else:
        node[step] = [node[step], new]
    return node


def check_file(data: bytes, tools: bool, tmp: Path | None = None, capsys: Any = None) -> None:
    """The promises for one file: the loader, replaying, resuming and (``tools``) every tool."""
    try:
        replay = Replay.from_bytes(data)
    except BadState as exc:
        assert str(exc) and len(str(exc)) < 2000
        return
    try:
        state = replay.state_at(None)
        if replay.final_hash is not None:
            replay.verify()
    except BadState:
        state = None
    if state is not None and replay.final_hash is None:
        with contextlib.suppress(BadState, ProtocolError):
            Session.resume("t1", replay)
    if tools and tmp is not None:
        path = tmp / "fuzz.save"
        path.write_bytes(data)
        for argv in (
            ["show", str(path)],
            ["show", "--json", str(path)],
            ["replay", str(path), "--verify"],
        ):
            code, _out, err = run_tool(argv, capsys)
            assert code in (0, 1, 2) and "Traceback" not in err
            if code:
                assert len(err.strip().splitlines()) == 1, err


mutation = st.tuples(st.sampled_from(["replace", "remove", "add"]), value, st.text(max_size=6))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["replay", "save"]), st.data(), mutation)
def test_fuzz_mutated_records_are_refused_or_replayed(
    kind: str, data: st.DataObject, change: tuple[str, Any, str]
) -> None:
    body = bodies()[kind]
    path = data.draw(st.sampled_from(paths(body)))
    how, new, key = change
    check_file(
        signed(mutate(body, path, "replace" if how == "remove" and not path else how, new, key)),
        tools=False,
    )


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.sampled_from(["replay", "save"]), st.data(), mutation)
def test_fuzz_mutated_records_through_the_tools(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    kind: str,
    data: st.DataObject,
    change: tuple[str, Any, str],
) -> None:
    body = bodies()[kind]
    path = data.draw(st.sampled_from(paths(body)))
    how, new, key = change
    check_file(
        signed(mutate(body, path, "replace" if how == "remove" and not path else how, new, key)),
        True,
        tmp_path,
        capsys,
    )


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400), st.integers(0, 3000))
def test_fuzz_damaged_bytes_are_refused(noise: bytes, cut: int) -> None:
    good = signed(bodies()["save"])
    for data in (
        noise,
        good[:cut] + noise,
        good[:cut],
        bytes(b ^ 0x20 for b in good[:cut]) + good[cut:],
    ):
        check_file(data, tools=False)


@pytest.mark.slow
@settings(max_examples=10_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["replay", "save"]), st.data(), st.lists(mutation, min_size=1, max_size=4))
def test_fuzz_long_run(kind: str, data: st.DataObject, changes: list[tuple[str, Any, str]]) -> None:
    body: Any = bodies()[kind]
    for how, new, key in changes:
        if not isinstance(body, dict):
            break
        path = data.draw(st.sampled_from(paths(body)))
        body = mutate(body, path, "replace" if how == "remove" and not path else how, new, key)
    check_file(signed(body), tools=False)


# ---- the journal next to a save ---------------------------------------------------------------

#: name -> (journal bytes, whether every tool refuses the save with it, words of the error)
JOURNALS: dict[str, tuple[bytes, bool, tuple[str, ...]]] = {
    "garbage": (b"\xc1\xc1 not msgpack", False, ()),
    "an entry past the end": (journal_entry(500, [(0, ("end",))]), False, ()),
    "nested 100,000 deep": (b"\x91" * 100_000 + b"\xc0", False, ()),
    "260,000 empty maps": (packb([10, [[{}] * 65_000] * 4]), False, ()),
    "a seat that is not at the table": (journal_entry(10, [(9, ("end",))]), True, ("seat 9",)),
    "too many actions": (
        # two entries (an array holds at most 65,536 items), 101,010 actions in all
        journal_entry(10, [(0, ("end",))] * 60_000)
        + journal_entry(60_010, [(0, ("end",))] * 41_000),
        True,
        (str(MAX_REPLAY_ACTIONS),),
    ),
    "an illegal action": (journal_entry(10, [(0, ("place", 99, 99))]), True, ("illegal",)),
}


@pytest.mark.parametrize("tool", sorted(TOOLS))
@pytest.mark.parametrize("case", sorted(JOURNALS))
def test_a_crafted_journal_never_breaks_a_tool(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str, tool: str
) -> None:
    """The host appends every change to ``<save>.journal`` (``Replay.load`` reads it): a
    damaged entry ends the journal there; one that breaks the limits is refused."""
    data, refused, words = JOURNALS[case]
    path = tmp_path / "game.save"
    path.write_bytes(signed(bodies()["save"]))
    journal_path(path).write_bytes(data)
    argv, expected = TOOLS[tool]
    if tool == "host --resume" and not refused:
        return  # a good save: the host would serve it (the other tools show it)
    code, out, err = run_tool(argv(path), capsys)
    if refused:
        assert_clear_error(code, expected, err, words)
    elif tool == "replay --verify":
        assert_clear_error(code, 1, err, ("has not ended",))
    else:
        assert code == 0 and out and not err, err


# ---- every registered game -------------------------------------------------------------------

_RECORDS: dict[str, dict[str, dict[str, Any]]] = {}


def records_of(game_id: str) -> dict[str, dict[str, Any]]:
    """A finished random game of ``game_id`` (2 players) and the save after 10 actions."""
    if game_id not in _RECORDS:
        bots = [make_bot("random", seed=s).choose for s in range(2)]
        finished = play_match(game_id, 2, 9, bots).replay
        save = copy.deepcopy(finished)
        save.actions, save.final_hash = save.actions[:10], None
        _RECORDS[game_id] = {"replay": finished.body(), "save": save.body()}
    return copy.deepcopy(_RECORDS[game_id])


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_s_records_work_with_the_tools(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game_id: str
) -> None:
    records = records_of(game_id)
    replay = tmp_path / "good.replay"
    replay.write_bytes(signed(records["replay"]))
    for argv in (
        ["show", str(replay)],
        ["show", "--json", str(replay)],
        ["replay", str(replay), "--verify"],
    ):
        code, out, err = run_tool(argv, capsys)
        assert code == 0 and out and not err, (argv, err)
    assert Session.resume("t1", Replay.from_bytes(signed(records["save"]))).seq == 10


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(game_ids()), st.sampled_from(["replay", "save"]), st.data(), mutation)
def test_fuzz_every_game_s_records(
    game_id: str, kind: str, data: st.DataObject, change: tuple[str, Any, str]
) -> None:
    body = records_of(game_id)[kind]
    path = data.draw(st.sampled_from(paths(body)))
    how, new, key = change
    check_file(
        signed(mutate(body, path, "replace" if how == "remove" and not path else how, new, key)),
        tools=False,
    )


@pytest.mark.slow
@settings(max_examples=10_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(game_ids()),
    st.sampled_from(["replay", "save"]),
    st.data(),
    st.lists(mutation, min_size=1, max_size=3),
)
def test_fuzz_every_game_long_run(
    game_id: str, kind: str, data: st.DataObject, changes: list[tuple[str, Any, str]]
) -> None:
    body: Any = records_of(game_id)[kind]
    for how, new, key in changes:
        if not isinstance(body, dict):
            break
        path = data.draw(st.sampled_from(paths(body)))
        body = mutate(body, path, "replace" if how == "remove" and not path else how, new, key)
    check_file(signed(body), tools=False)
