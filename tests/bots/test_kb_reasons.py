"""Why a Kingdom Builder position is good: the evaluation's terms and the reasons of a gain
(``explain_terms`` and ``explain_gain`` of ``game/kingdom_builder/evaluation.py``; the reasons
live in ``game/kingdom_builder/reasons.py``; contract 2 of issue 23), and their words in every
language."""

from __future__ import annotations

import string

import pytest

from game.bots import make_bot
from game.core.reasons import signed
from game.core.registry import get_game
from game.core.rng import Rng, derive_seed
from game.kingdom_builder import evaluation as ev
from game.kingdom_builder.board import SIZE
from game.kingdom_builder.scoring import ALL_CARDS
from game.kingdom_builder.state import KingdomBuilderState
from game.ui import i18n
from tests.kingdom_builder.helpers import position

KB = "kingdom-builder"
#: Every term name the evaluation may use (stable identifiers: hints and reviews name them).
TERMS = {"castles", "treasure", "tiles", "nomad_tiles", "potential"} | {
    c.lower() for c in ALL_CARDS
}


def _games(options: dict[str, object], players: int, seeds: range) -> list[KingdomBuilderState]:
    """Every position (after each action) of random games."""
    out = []
    for seed in seeds:
        state = get_game(KB).new(players, dict(options), seed)
        rng = Rng(derive_seed(seed, "terms"))
        out.append(state.clone())
        while not state.is_over():
            seat = state.to_move()[0]
            actions = state.legal_actions(seat)
            state.apply(seat, actions[rng.randbelow(len(actions))])
            out.append(state.clone())
    return out  # type: ignore[return-value]


@pytest.mark.parametrize(
    ("options", "players"),
    [
        ({}, 4),
        ({"nomads": "full"}, 4),
        ({"nomads": "full"}, 5),
        ({"cards": ["Lords", "Farmers", "Knights"]}, 3),
    ],
)
def test_the_terms_sum_to_the_value_along_random_games(
    options: dict[str, object], players: int
) -> None:
    states = _games(options, players, range(2))
    assert states[-1].is_over()
    for st in [*states[::3], states[-1]]:
        values = ev.evaluate_all(st)
        for seat in range(players):
            terms = ev.explain_terms(st, seat)
            assert set(terms) <= TERMS
            assert sum(terms.values()) == pytest.approx(values[seat], abs=1e-9)


def test_a_finished_game_has_only_its_scoring_categories() -> None:
    st = _games({"nomads": "full"}, 4, range(1))[-1]
    for seat, row in enumerate(st.preview_scores()):
        terms = ev.explain_terms(st, seat)
        assert terms == {k.lower(): float(v) for k, v in row.items() if k != "total"}


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("code", ["en", "ja", "nl"])
def test_every_term_and_reason_has_words_in_every_language(code: str) -> None:
    catalogue = i18n.catalogue(code)
    for name in TERMS:
        text = catalogue[f"reason.kingdom-builder.term.{name}"]
        assert _fields(text) == {"gain"}, name
    fields = {
        "gain.tile": {"gain", "tile"},
        "gain.nomad_tile": {"gain", "tile"},
        "gain.rival": {"seat", "loss"},
        **{f"gain.lords_lead.{q}": {"gain"} for q in ev.SECTOR_NAMES},
    }
    for key, names in fields.items():
        assert _fields(catalogue[f"reason.kingdom-builder.{key}"]) == names, key


def test_the_reasons_of_whole_turns_are_filled_in_every_language() -> None:
    """Greedy turns along a Nomads game: every reason's key has a text in en/ja/nl whose fields
    its params fill, ``gain`` is the signed figure, and the largest gain comes first."""
    for options in ({"nomads": "full"}, {"cards": ["Lords", "Farmers", "Hermits"]}):
        state = get_game(KB).new(4, dict(options), 3)
        bots = [make_bot("greedy", s) for s in range(4)]
        seen = 0
        while not state.is_over():
            seat = state.to_move()[0]
            before = state.clone()
            turn = state.turn_id()
            while not state.is_over() and state.turn_id() == turn:
                state.apply(seat, bots[seat].choose(state.determinize(seat, 1), seat))
            reasons = ev.explain_gain(before, state, seat)
            gains = [float(r["gain"]) for r in reasons]  # type: ignore[arg-type]
            assert gains == sorted(gains, reverse=True)
            for r in reasons:
                params = r["params"]
                assert isinstance(params, dict)
                assert params["gain"] == signed(float(r["gain"]))  # type: ignore[arg-type]
                for code in ("en", "ja", "nl"):
                    text = i18n.catalogue(code)[f"reason.kingdom-builder.{r['key']}"]
                    assert _fields(text) <= set(params), (r, code)
                seen += 1
        assert seen > 20


def test_taking_a_tile_and_a_castle_are_named() -> None:
    """KB §6.1: a settlement next to a location hex takes its tile; KB §9.1: next to a castle
    scores 3 — the reasons say so, with the tile's type."""
    st = position(players=2, terrain="G", settlements={1: [(19, 19)]})
    board = st.board
    seat = 0
    by_kind = {}
    for action in st.legal_actions(seat):
        h = action[1] * SIZE + action[2]
        if board.loc_adj[h] and "tile" not in by_kind:
            by_kind["tile"] = (action, board.location_type[board.loc_adj[h][0]])
        if any(n in board.castles for n in board.nbrs[h]) and "castle" not in by_kind:
            by_kind["castle"] = (action, None)
    assert by_kind
    for what, (action, tile) in by_kind.items():
        after = st.clone()
        after.apply(seat, action)
        reasons = ev.explain_gain(st, after, seat)
        keys = {r["key"]: r for r in reasons}
        if what == "tile":
            assert keys["gain.tile"]["params"]["tile"] == tile  # type: ignore[index]
        else:
            assert keys["term.castles"]["params"]["gain"] == "+3"  # type: ignore[index]


def test_signed_gains() -> None:
    assert signed(2.0) == "+2"
    assert signed(-1.04) == "-1"
    assert signed(0.46) == "+0.5"
    assert signed(-3.25) == "-3.2"
