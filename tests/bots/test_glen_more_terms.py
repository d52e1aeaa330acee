"""Glen More's evaluation split into named terms (issue 23, contract 2): ``explain_terms``
sums to the value along whole games, names only known terms, and every term has its hint
wording in every language."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import pytest

from game.core.registry import get_game
from game.core.rng import Rng, derive_seed
from game.glen_more import evaluation as ev
from game.glen_more.state import GlenMoreState

LOCALES = Path(__file__).resolve().parents[2] / "game" / "ui" / "locales" / "glen-more"


def _positions(seed: int, players: int, every: int = 3) -> list[GlenMoreState]:
    """Every ``every``-th position of a game played by the playout policy with some random
    actions (mid-turn positions included: payments, activations, movement), and its end."""
    state: GlenMoreState = get_game("glen-more").new(players, {}, seed)  # type: ignore[assignment]
    rng = Rng(derive_seed(seed, "gm-terms"))
    out = []
    step = 0
    while not state.is_over():
        seat = state.to_move()[0]
        actions = state.legal_actions(seat)
        if rng.randbelow(4) == 0:
            action = actions[rng.randbelow(len(actions))]
        else:
            action = ev.rollout_action(state, seat, actions, rng)
        state.apply(seat, action)
        step += 1
        if step % every == 0:
            out.append(state.clone())
    out.append(state)
    return out


@pytest.mark.parametrize(("seed", "players"), [(1, 4), (2, 2), (3, 5)])
def test_the_terms_sum_to_the_value_along_random_games(seed: int, players: int) -> None:
    for state in _positions(seed, players):
        values = ev.evaluate_all(state)
        for seat in range(players):
            terms = ev.explain_terms(state, seat)
            assert tuple(terms) == ev.TERMS
            assert all(math.isfinite(v) for v in terms.values())
            assert sum(terms.values()) == pytest.approx(values[seat], abs=1e-9)


def test_a_finished_game_splits_into_the_final_score() -> None:
    """GM §7.2: at the end the terms are the score row's parts (brown tiles, the three rounds,
    coins, the tile penalty, the end effects) and nothing is expected any more."""
    state = _positions(4, 4)[-1]
    assert state.is_over()
    for seat, row in enumerate(state.scores()):
        terms = ev.explain_terms(state, seat)
        assert terms["tile_points"] == row["tile_points"]
        assert terms["rounds_held"] == row["scoring_1"] + row["scoring_2"] + row["scoring_3"]
        assert terms["coins"] == row["coins"] and terms["tile_penalty"] == row["tile_penalty"]
        assert terms["turns"] == terms["placement"] == terms["turn_in_progress"] == 0.0
        assert sum(terms.values()) == row["total"]


def test_a_whisky_shows_in_the_whisky_term() -> None:
    """GM §7.1: one more whisky barrel than every rival is a difference of 1 in each of the
    three rounds to come: +3 VP in ``whisky_rounds``, no other round term changes."""
    state: GlenMoreState = get_game("glen-more").new(4, {}, 7)  # type: ignore[assignment]
    before = ev.explain_terms(state, 1)
    state.whisky[1] += 1
    state.whisky_stock -= 1
    after = ev.explain_terms(state, 1)
    assert after["whisky_rounds"] - before["whisky_rounds"] == 3.0
    assert after["chieftain_rounds"] == before["chieftain_rounds"]


@pytest.mark.parametrize("language", ["en", "ja", "nl"])
def test_every_term_has_its_hint_wording(language: str) -> None:
    strings = json.loads((LOCALES / f"{language}.json").read_text(encoding="utf-8"))
    for name in ev.TERMS:
        text = strings[f"reason.glen-more.term.{name}"]
        assert "{gain}" in text and text.strip() == text


# ---- explain_gain: the reasons a hint gives ------------------------------------------------


def _strings(language: str) -> dict[str, str]:
    return json.loads((LOCALES / f"{language}.json").read_text(encoding="utf-8"))


def test_a_chieftain_is_a_reason_named_with_the_next_scoring() -> None:
    """GM §4.4 and §7.1: making a chieftain before the first scoring is explained as
    "chieftains +1 before scoring 1", worth the change of the ``chieftain_rounds`` term."""
    from tests.glen_more.test_movement import moving

    st = moving()
    after = st.clone()
    after.apply(0, ("chieftain", 0, 0))
    reasons = ev.explain_gain(st, after, 0)
    chief = next(r for r in reasons if r["key"] == "gain.chieftains")
    terms0, terms1 = ev.explain_terms(st, 0), ev.explain_terms(after, 0)
    assert chief["params"]["n"] == 1 and chief["params"]["round"] == 1
    assert chief["gain"] == terms1["chieftain_rounds"] - terms0["chieftain_rounds"] > 0
    assert not any(r["key"] == "term.chieftain_rounds" for r in reasons)


@pytest.mark.parametrize("seed", [5, 6])
def test_reasons_account_for_the_change_of_value_and_have_words(seed: int) -> None:
    """Along a game, each turn's reasons add up to the change of the seat's value (up to the
    changes too small to name), come best first, and every key has its words, with every
    parameter it uses, in en/ja/nl."""
    states = _positions(seed, 4, every=1)
    words = {language: _strings(language) for language in ("en", "ja", "nl")}
    checked = 0
    for before, after in itertools.pairwise(states):
        seat = before.cur
        if seat is None or before.over:
            continue
        reasons = ev.explain_gain(before, after, seat)
        change = ev.evaluate_all(after)[seat] - ev.evaluate_all(before)[seat]
        named = sum(float(r["gain"]) for r in reasons)  # type: ignore[arg-type]
        assert abs(named - change) <= 0.05 * len(ev.TERMS) + 1e-9
        gains = [float(r["gain"]) for r in reasons]  # type: ignore[arg-type]
        assert gains == sorted(gains, reverse=True)
        for r in reasons:
            for language, strings in words.items():
                text = strings[f"reason.glen-more.{r['key']}"]
                text.format(**r["params"])  # every placeholder has its parameter
                assert language and "{gain}" in text
            checked += 1
    assert checked > 50
