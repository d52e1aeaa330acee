"""Hostile command-line input to the tools: one clear line and exit code 2, never a traceback
(``--options`` has the shape a table accepts from a player; files that cannot be written)."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.cli import main

DEEP = "[" * 20_000 + "]" * 20_000


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["simulate", "--options", DEEP], "nested too deeply"),
        (["simulate", "--options", '{"sections": ' + DEEP + "}"], "nested too deeply"),
        (["simulate", "--options", '{"sections": [[1]]}'], "--options.sections"),
        (["simulate", "--options", '{"x": {"y": 1}}'], "--options.x"),
        (["simulate", "--options", "[1]"], "JSON object"),
        (["simulate", "--options", "{"], "not valid JSON"),
        (["simulate", "--options", '{"dragons": true}'], "dragons"),
        (["simulate", "--save-replays", "/proc/no/such/dir"], "cannot write"),
        (["show", "/proc/no/such/file"], "cannot read"),
        (["show", "/"], "cannot read"),
        (["replay", "/", "--verify"], "cannot read"),
    ],
)
def test_bad_command_input_gets_one_clear_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    if argv[0] == "simulate":
        argv = [*argv[:1], "--game", "kingdom-builder", "--players", "2", *argv[1:]]
    code = main(argv)
    _out, err = capsys.readouterr()
    assert code in (1, 2), err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("lantern ") and words in lines[0], err


def test_host_options_have_the_same_shape(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "host", "--bind", "127.0.0.1", "--port", "0", "--no-announce", "--no-autosave",
            "--table", "kingdom-builder", "--players", "2", "--options", '{"sections": ' + DEEP + "}",
        ]
    )  # fmt: skip
    _out, err = capsys.readouterr()
    assert code == 2 and "nested too deeply" in err and "Traceback" not in err
