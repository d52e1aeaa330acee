"""The hard level's fitted Glen More evaluation (issue 23): what ``bench/fit_glen_more.py``
fits, what it writes, and that only the hard level uses it."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from bench import fit_glen_more as fit
from bench.fitting import ridge_towards_one
from game.bots.knowledge import knowledge_for
from game.core.rng import Rng
from game.glen_more import evaluation as ev
from game.glen_more import fitted
from tests.bots.test_glen_more_terms import _positions


def test_the_hard_level_judges_with_the_fitted_terms_and_greedy_with_their_sum() -> None:
    known = knowledge_for("glen-more")
    assert known.evaluate_all == ev.evaluate_all
    assert known.for_hard().evaluate_all == ev.HARD_EVALUATE_ALL == ev.FITTED.evaluate_all
    assert fitted.TERMS == ev.TERMS and all(len(row) == len(ev.TERMS) for row in fitted.FITTED)


@pytest.mark.parametrize("seed", [11, 12])
def test_the_fitted_value_is_each_term_times_its_stages_multiplier(seed: int) -> None:
    stages = len(fitted.FITTED)
    seen = set()
    for state in _positions(seed, 4, every=7):
        values = ev.FITTED.evaluate_all(state)
        if state.is_over():  # a finished game is worth its score, fitted or not
            assert values == ev.evaluate_all(state)
            continue
        stage = ev.stage_of(state, stages)
        seen.add(stage)
        for seat, row in enumerate(ev.DEFAULT.terms(state)):
            expected = sum(m * t for m, t in zip(fitted.FITTED[stage], row, strict=True))
            assert values[seat] == pytest.approx(expected, abs=1e-9)
    assert seen == set(range(stages))


def test_ridge_regression_finds_known_multipliers_and_leans_on_one_without_data() -> None:
    rng = Rng(5)
    true = [0.5, 1.5, -0.25]
    xs = [[rng.random() * 10 - 5 for _ in true] for _ in range(400)]
    ys = [sum(c * x for c, x in zip(true, row, strict=True)) for row in xs]
    got = ridge_towards_one(xs, ys, penalty=1e-6)
    assert got == pytest.approx(true, abs=1e-3)
    # a term that never varies keeps the plain sum's multiplier
    flat = [[*row, 0.0] for row in xs]
    assert ridge_towards_one(flat, ys, penalty=0.01)[-1] == pytest.approx(1.0)


def test_the_written_module_holds_the_fit(tmp_path: Path) -> None:
    rows = [[1.0 + 0.01 * i + stage for i in range(len(ev.TERMS))] for stage in range(3)]
    out = tmp_path / "fitted_test.py"
    fit.write_module(out, rows, 7, 70, 3, 0.05, Path("bench/data/x.jsonl.gz"))
    spec = importlib.util.spec_from_file_location("fitted_test", out)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.TERMS == ev.TERMS
    assert len(module.FITTED) == len(rows)
    for got, want in zip(module.FITTED, rows, strict=True):
        assert list(got) == pytest.approx(want, abs=1e-3)


def test_the_fit_reads_its_committed_games() -> None:
    """The committed self-play games replay under today's rules (a rules change that breaks
    them must regenerate them: ``generate``)."""
    path = Path(__file__).resolve().parents[2] / "bench" / "data" / "gm-selfplay.jsonl.gz"
    game = next(fit.read_games(path))
    got = list(fit.samples(game, 25, 4, ev.Evaluator()))
    assert got and all(len(terms) == 4 for _seed, _stage, terms, _totals in got)
    assert got[0][3] == [float(t) for t in game["totals"]]
