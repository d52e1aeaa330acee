"""The review's benchmark runs and reports every figure (``bench/review.py``)."""

from __future__ import annotations

from bench import SUITES
from bench import review as bench_review


def test_review_bench_reports_its_figures() -> None:
    assert SUITES["review"] == "bench.review"
    figures = bench_review.run(quick=True)
    assert set(figures) == set(bench_review.FIGURES)
    for name in bench_review.GAMES:
        assert figures[f"review.{name}.cpu_s"] > 0
        assert figures[f"review.{name}.turns"] >= 1
        assert figures[f"review.{name}.iterations"] == 8
