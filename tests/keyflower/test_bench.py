"""The Keyflower bench suite is registered and reports its figures (speed is measured there,
never asserted here)."""

from __future__ import annotations

import math

from bench import SUITES
from bench import keyflower as bench_kf
from game.keyflower import GAME
from game.keyflower.scoring import final_scoring
from tests.keyflower.helpers import check_invariants


def test_suite_registered_and_reports_every_figure() -> None:
    assert SUITES["keyflower"] == "bench.keyflower"
    figures = bench_kf.run(quick=True)
    assert set(figures) == set(bench_kf.FIGURES)
    assert all(math.isfinite(v) and v > 0 for v in figures.values())


def test_richest_end_position_is_a_valid_state() -> None:
    st = bench_kf.richest_end_position()
    check_invariants(st)
    assert GAME.from_dict(st.to_dict()).to_dict() == st.to_dict()
    fin = final_scoring(st)
    detail = fin.details[0]
    assert len(detail["winter"]) == 12 and detail["purple"] is not None
    assert fin.scores[0]["total"] > fin.scores[1]["total"]
