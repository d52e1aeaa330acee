"""The evaluation's named terms (issue 23, contract 2): ``explain_terms`` splits a seat's value
into the terms of ``evaluation.TERMS``, which sum to ``evaluate_all``; each term and each
``explain_gain`` reason has its words in every language."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.core.rng import Rng
from game.keyflower import GAME
from game.keyflower import evaluation as ev

LOCALES = Path(__file__).resolve().parents[2] / "game" / "ui" / "locales" / "keyflower"


def _random_states(seed: int, players: int):
    st = GAME.new(players, None, seed)
    rng = Rng(seed)
    while True:
        yield st
        if st.is_over():
            return
        seat = st.to_move()[0]
        acts = st.legal_actions(seat)
        st.apply(seat, acts[rng.randbelow(len(acts))])


@pytest.mark.parametrize(("seed", "players"), [(1, 4), (2, 3), (3, 2), (4, 5)])
def test_terms_sum_to_the_value_along_random_games(seed: int, players: int) -> None:
    """At every position of a random game (every phase, the end included) each seat's terms
    sum to its value, with the caches of ``evaluate_all`` warm (a stale cached part would
    show here), and only named terms appear."""
    seen_nonzero: set[str] = set()
    for st in _random_states(seed, players):
        values = ev.evaluate_all(st)
        for s in range(players):
            terms = ev.explain_terms(st, s)
            assert tuple(terms) == ev.TERMS
            assert sum(terms.values()) == pytest.approx(values[s], abs=1e-9)
            seen_nonzero |= {k for k, v in terms.items() if v}
    # a whole game touches most parts of the value
    assert {"tiles", "actions", "keyples", "bids", "boat_load", "winter"} <= seen_nonzero


def test_at_the_end_the_terms_are_the_score_categories() -> None:
    """KF §13: once the game is over the value is the final score, its categories the terms."""
    *_, st = _random_states(5, 4)
    assert st.is_over()
    for s in range(4):
        terms = ev.explain_terms(st, s)
        row = st.scores()[s]
        for name in ev.FINAL_TERMS:
            assert terms[name] == row[name]
        assert sum(terms.values()) == row["total"]


@pytest.mark.parametrize("lang", ["en", "ja", "nl"])
def test_every_term_and_reason_has_words(lang: str) -> None:
    strings = json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))
    for name in ev.TERMS:
        text = strings[f"reason.keyflower.term.{name}"]
        assert "{gain}" in text
    assert "{tile}" in strings["reason.keyflower.gain.leads"]
    assert "{player}" in strings["reason.keyflower.gain.leaves"]


def test_a_bid_that_takes_the_lead_says_so() -> None:
    """KF §5: a bid that beats every other bid on a tile leads there: the reason names it."""
    st = GAME.new(4, None, 11)
    seat = st.to_move()[0]
    bid = next(a for a in st.legal_actions(seat) if a[0] == "bid")
    after = st.clone()
    after.apply(seat, bid)
    reasons = ev.explain_gain(st, after, seat)
    leads = [r for r in reasons if r["key"] == "reason.keyflower.gain.leads"]
    assert leads and leads[0]["params"]["tile"] == bid[1]
    # the gains of the lead and of the other terms add up to the value's change
    total = sum(r["gain"] for r in reasons)
    change = ev.evaluate_all(after)[seat] - ev.evaluate_all(st)[seat]
    listed = {r["key"].rsplit(".", 1)[1] for r in reasons}
    small = sum(
        ev.explain_terms(after, seat)[n] - ev.explain_terms(st, seat)[n]
        for n in ev.TERMS
        if n not in listed and n not in ("bids", "winter")
    )
    assert total + small == pytest.approx(change, abs=1e-9)


def test_a_rival_taking_over_a_lead_is_the_leaving_reason() -> None:
    """KF §5: when a seat's lead is beaten and it brings its bid back, the lead passes on;
    ``explain_gain`` names the new leader."""
    for st in _random_states(21, 4):
        if st.is_over():
            pytest.skip("no reclaim in this game")
        seat = st.to_move()[0]
        reclaim = next((a for a in st.legal_actions(seat) if a[0] == "reclaim"), None)
        if reclaim is None:
            continue
        # before the rival's raise the seat led; compare the seat's view of a position where
        # it led with the current one
        tile = st.tile_of(reclaim[1])
        before = st.clone()
        before.bidn[tile * 6 + seat] = 99  # the seat leading there, as before the raise
        reasons = ev.explain_gain(before, st, seat)
        leaves = [r for r in reasons if r["key"] == "reason.keyflower.gain.leaves"]
        assert leaves and leaves[0]["params"]["tile"] == reclaim[1]
        assert leaves[0]["params"]["player"] != seat
        return
