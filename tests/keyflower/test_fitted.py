"""The hard level's fitted weights (``game/keyflower/fitted.py``) are what
``python -m bench.fit_keyflower fit`` makes of the committed self-play data: the data and the
weights stay in step (refit after changing either)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import fit_keyflower
from bench.fitting import solve
from game.keyflower.fitted import TERM_WEIGHTS


def test_the_weights_are_the_fit_of_the_committed_data() -> None:
    assert fit_keyflower.DATA.exists()
    fitted = fit_keyflower.fit(fit_keyflower.DATA, 0.5, None)
    assert set(fitted) == set(TERM_WEIGHTS)
    for season, row in fitted.items():
        for term, weight in row.items():
            assert TERM_WEIGHTS[season][term] == pytest.approx(weight, abs=1e-3), (season, term)


def test_the_solver_solves() -> None:
    """The fit's own small linear solver against a system with a known answer."""
    a = [[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]]
    x = [1.0, -2.0, 0.5]
    b = [sum(r[j] * x[j] for j in range(3)) for r in a]
    assert solve(a, b) == pytest.approx(x)


def test_gzipped_data_is_written_appended_and_read(tmp_path: Path) -> None:
    """The self-play data is kept gzipped (``.csv.gz``): ``generate --start N`` appends to it
    (a second gzip member) and the fit reads every row back."""
    path = tmp_path / "rows.csv.gz"
    with fit_keyflower._open(path, "w") as f:
        f.write("game,final\n0,33\n")
    with fit_keyflower._open(path, "a") as f:
        f.write("1,41\n")
    with fit_keyflower._open(path, "r") as f:
        assert f.read() == "game,final\n0,33\n1,41\n"
    plain = tmp_path / "rows.csv"
    with fit_keyflower._open(plain, "w") as f:
        f.write("x\n")
    assert plain.read_text() == "x\n"
