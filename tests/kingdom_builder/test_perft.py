"""Regression: the legal-action counts along fixed random lines (see ``perft.py``)."""

from __future__ import annotations

import json

import pytest

from tests.kingdom_builder.perft import LINES, PATH, play_line

RECORDED = json.loads(PATH.read_text(encoding="utf-8"))["lines"]


def test_the_file_covers_every_line():
    assert [(r["seed"], r["players"], r["options"]) for r in RECORDED] == [
        (s, p, o) for s, p, o in LINES
    ]


@pytest.mark.parametrize(
    "index", range(len(LINES)), ids=lambda i: f"seed{LINES[i][0]}-p{LINES[i][1]}"
)
def test_legal_action_counts_unchanged(index):
    got = play_line(*LINES[index])
    want = RECORDED[index]
    for step, (a, b) in enumerate(zip(got["counts"], want["counts"], strict=False)):
        assert a == b, f"step {step}: {a} legal actions, recorded {b}"
    assert len(got["counts"]) == len(want["counts"])
    assert got["totals"] == want["totals"]
