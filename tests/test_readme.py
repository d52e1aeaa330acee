"""The README is the front door: its two commands exist and CI runs the test one verbatim."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```sh\n(.+?)\n```", text)


def test_readme_opens_with_two_single_line_commands() -> None:
    commands = _readme_commands()
    assert len(commands) >= 2
    install_run, install_test = commands[0], commands[1]
    assert "\n" not in install_run and "\n" not in install_test
    assert install_run.endswith("-m game")
    assert "pytest" in install_test


def test_players_install_no_test_tools() -> None:
    """Players get a plain install: the test tools come with the test command only."""
    install_run, install_test = _readme_commands()[:2]
    assert "[test]" not in install_run and "pip install -e . " in install_run
    assert '".[test]"' in install_test


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert _readme_commands()[1] in ci


def test_a_closed_pipe_ends_a_command_quietly() -> None:
    """``lantern simulate ... | head -1``: no traceback when the reader goes away."""
    import subprocess
    import sys

    proc = subprocess.Popen(
        [sys.executable, "-m", "game", "simulate", "--game", "kingdom-builder", "--players", "2",
         "--bots", "random", "--games", "40", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(60)
    assert "Traceback" not in err
