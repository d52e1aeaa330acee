"""The hard level's fitted Kingdom Builder evaluation (issue 23): the features
``bench/fit_kingdom_builder.py`` fits, the module it writes, and that only the hard level uses
the fit."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench import fit_kingdom_builder as fit
from game.bots.knowledge import knowledge_for
from game.core.api import GameState
from game.core.rng import Rng
from game.kingdom_builder import GAME, fitted
from game.kingdom_builder import evaluation as ev
from game.kingdom_builder.codes import SETTLEMENTS


def _positions(seed: int, options: dict[str, Any], every: int) -> Iterator[GameState]:
    """Every ``every``-th position of a random 4-player game, the finished one last."""
    state = GAME.new(4, options, seed)
    rng = Rng(seed)
    i = 0
    while not state.is_over():
        if i % every == 0:
            yield state.clone()
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randbelow(len(legal))])
        i += 1
    yield state


def test_the_hard_level_judges_with_the_fit_and_greedy_with_the_plain_sum() -> None:
    known = knowledge_for("kingdom-builder")
    assert known.evaluate_all == ev.evaluate_all
    assert known.for_hard().evaluate_all == ev.HARD_EVALUATE_ALL == ev.hard_evaluate_all
    assert fitted.FEATURES == ev.FEATURES and all(len(r) == len(ev.FEATURES) for r in fitted.FITTED)
    # the base game's table in the base game and with the Nomads boards alone, the Nomads
    # table with the full expansion
    nomads = ev.FittedEvaluator(ev.DEFAULT, fitted.FITTED_NOMADS)
    for options, judge in (
        ({}, ev.FITTED.evaluate_all),
        ({"nomads": "boards"}, ev.FITTED.evaluate_all),
        ({"nomads": "full"}, nomads.evaluate_all),
    ):
        for state in _positions(5, options, every=15):
            assert ev.hard_evaluate_all(state) == judge(state)


@pytest.mark.parametrize("options", [{}, {"nomads": "full"}])
def test_the_features_with_the_plain_weights_are_the_evaluation(options: dict[str, Any]) -> None:
    """``Evaluator.features`` weighted 1, 1, 1, ``potential``, 0, 0 is ``evaluate_all`` — the
    fit starts from the greedy levels' judgement and explains every change from it."""
    for state in _positions(7, options, every=9):
        if state.is_over():
            continue
        want = ev.DEFAULT.evaluate_all(state)
        for seat, feats in enumerate(ev.DEFAULT.features(state)):
            got = sum(w * f for w, f in zip(fit.PRIOR, feats, strict=True))
            assert got == pytest.approx(want[seat], abs=1e-9)


@pytest.mark.parametrize(
    ("seed", "options", "table"),
    [
        (11, {}, fitted.FITTED),
        (12, {"nomads": "boards"}, fitted.FITTED),
        (13, {"nomads": "full"}, fitted.FITTED_NOMADS),
    ],
)
def test_the_fitted_value_is_each_feature_times_its_stages_multiplier(
    seed: int, options: dict[str, Any], table: tuple[tuple[float, ...], ...]
) -> None:
    """The base game's table for the base game and the Nomads boards alone; the Nomads
    table with the full expansion."""
    stages = len(table)
    seen = set()
    for state in _positions(seed, options, every=7):
        values = ev.FITTED.evaluate_all(state)
        if state.is_over():  # a finished game is worth its score, fitted or not
            assert values == ev.evaluate_all(state)
            continue
        stage = ev.stage_of(state, stages)  # type: ignore[arg-type]
        seen.add(stage)
        for seat, row in enumerate(ev.DEFAULT.features(state)):
            expected = sum(m * f for m, f in zip(table[stage], row, strict=True))
            assert values[seat] == pytest.approx(expected, abs=1e-9)
    assert seen == set(range(stages))


@pytest.mark.parametrize("seed", [3, 4])
def test_moved_counts_the_seats_that_played_this_round(seed: int) -> None:
    """KB §4: a round is one turn each, clockwise from the start player; KB §8: the round is
    always finished.  ``moved`` is 1 for the seats that have ended their turn in this round
    (by the turns ended so far), 0 for the seat to move and those after it."""
    state: Any = GAME.new(4, {}, seed)
    rng = Rng(seed)
    played: set[int] = set()
    rounds = state.round
    for _ in range(400):
        if state.is_over():
            break
        if state.round != rounds:
            rounds, played = state.round, set()
        moved = [f[-1] for f in ev.DEFAULT.features(state)]
        assert moved == [1.0 if s in played else 0.0 for s in range(4)]
        assert state.cur not in played and len(played) == (state.cur - state.start) % 4
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        turn = state.turn_id()
        state.apply(seat, legal[rng.randbelow(len(legal))])
        if state.turn_id() != turn:
            played.add(seat)
    assert ev.FEATURES[-1] == "moved"


def test_the_stage_follows_the_fastest_builder() -> None:
    """KB §8: the game ends in the round one seat builds its last settlement."""
    state: Any = GAME.new(4, {}, 1)
    assert ev.stage_of(state, 4) == 0
    state.supply = [SETTLEMENTS, SETTLEMENTS // 2, SETTLEMENTS, SETTLEMENTS]
    assert ev.stage_of(state, 4) == 2
    state.supply = [SETTLEMENTS, 0, SETTLEMENTS, SETTLEMENTS]
    assert ev.stage_of(state, 4) == 3


def test_the_written_module_holds_the_fit(tmp_path: Path) -> None:
    rows = [[1.0 + 0.01 * i + stage for i in range(len(ev.FEATURES))] for stage in range(3)]
    nomads = [[2.0 - 0.01 * i - stage for i in range(len(ev.FEATURES))] for stage in range(3)]
    out = tmp_path / "fitted_test.py"
    fit.write_module(out, rows, nomads, (7, 70, 3), 3, 0.05, [Path("bench/data/x.jsonl.gz")])
    spec = importlib.util.spec_from_file_location("fitted_test", out)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.FEATURES == ev.FEATURES
    for table, written in ((rows, module.FITTED), (nomads, module.FITTED_NOMADS)):
        assert len(written) == len(table)
        for got, want in zip(written, table, strict=True):
            assert list(got) == pytest.approx(want, abs=1e-3)


def test_the_fit_reads_its_committed_games() -> None:
    """The committed self-play games replay under today's rules, both the base game and full
    Nomads (a rules change that breaks them must regenerate them: ``generate``)."""
    path = Path(__file__).resolve().parents[2] / "bench" / "data" / "kb-selfplay.jsonl.gz"
    games = fit.read_games(path)
    for game in (next(games), next(games), next(games)):
        got = list(fit.samples(game, 25, 4, ev.Evaluator()))
        assert got and all(len(feats) == 4 for _seed, _stage, feats, _totals in got)
        assert got[0][3] == [float(t) for t in game["totals"]]
    assert game["options"] == {"nomads": "full"}  # game 2


@pytest.mark.parametrize("name", ["kb-hard-vs-greedy.jsonl.gz", "kb-level-games.jsonl.gz"])
def test_the_hard_against_greedy_games_replay_and_name_their_tested_seat(name: str) -> None:
    """``bench/data/kb-hard-vs-greedy.jsonl.gz`` (games of ``python -m bench.bots --replays``,
    fitted with ``--tested-seat``) and ``kb-level-games.jsonl.gz`` (the hard level's games of
    docs/bots.md's *Measured for issue 23*, read by ``bench.score_sources``) replay under today's
    rules and name the hard bot's seat, the seat game *i* rotates to (``i % 4``)."""
    path = Path(__file__).resolve().parents[2] / "bench" / "data" / name
    games = list(fit.read_games(path))
    for game in (games[0], games[1], games[-1]):
        assert game["matchup"] == "hard_vs_greedy" and game["seat"] == game["seed"] % 4
        got = list(fit.samples(game, 40, 4, ev.Evaluator()))
        assert got and got[0][3] == [float(t) for t in game["totals"]]
        final = fit.replay_of(game).state_at()
        assert final.is_over()
        assert [row["total"] for row in final.scores()] == game["totals"]


def test_turn_starts_samples_each_turns_first_position_only() -> None:
    """``fit --turn-starts``: one sample per turn (KB §4: a turn is the seat's three builds and
    its tile uses), where every seat has played whole turns, as at the end of a playout; and no
    more of them than of all positions."""
    path = Path(__file__).resolve().parents[2] / "bench" / "data" / "kb-selfplay.jsonl.gz"
    game = next(fit.read_games(path))
    evaluator = ev.Evaluator()
    starts = list(fit.samples(game, 1, 4, evaluator, turn_starts=True))
    every = list(fit.samples(game, 1, 4, evaluator))
    turns = set()
    for state in fit.replay_of(game).states():
        if state.is_over():
            break
        turns.add(state.turn_id())  # type: ignore[attr-defined]
    assert len(starts) == len(turns) < len(every)
    assert starts[0][2] == every[0][2]  # the first position starts the first turn
    assert len(list(fit.samples(game, 3, 4, evaluator, turn_starts=True))) == -(-len(turns) // 3)


def test_the_win_chance_forms_are_scored_by_who_won() -> None:
    """``bench.calibrate_scale --forms``: a form whose chances follow the winners scores a lower
    log loss; in a close field the margin gives every trailing seat nearly even chances (each
    judged against the leader alone), softmax shares one win among the four, so it scores
    lower."""
    from bench.calibrate_scale import form_loss

    sample = [(15, False, [30.0, 20.0, 19.0, 18.0], [1.0, 0.0, 0.0, 0.0])]
    flipped = [(15, False, [30.0, 20.0, 19.0, 18.0], [0.0, 1.0, 0.0, 0.0])]
    for form in ("margin", "softmax"):
        assert form_loss(sample, form, 3.0) < form_loss(flipped, form, 3.0)
    close = [(8, False, [20.0, 19.5, 19.0, 18.5], [1.0, 0.0, 0.0, 0.0])]
    assert form_loss(close, "softmax", 3.0) < form_loss(close, "margin", 3.0)


def test_a_dropped_feature_keeps_the_multiplier_0(tmp_path: Path) -> None:
    """``fit --drop supply``: a feature the search could buy its way into (settlements kept in
    supply by leaving a build tile unused) is left out of the fit, the others fitted as usual."""
    import gzip
    import itertools
    import json

    source = Path(__file__).resolve().parents[2] / "bench" / "data" / "kb-selfplay.jsonl.gz"
    small = tmp_path / "few.jsonl.gz"
    with gzip.open(small, "wt", encoding="utf-8") as f:
        for game in itertools.islice(fit.read_games(source), 8):
            f.write(json.dumps(game) + "\n")
    supply = ev.FEATURES.index("supply")
    kept, _ = fit.fit([small], None, 6, 2, 0.05)
    dropped, dropped_nomads = fit.fit([small], None, 6, 2, 0.05, drop=("supply",))
    assert all(row[supply] == 0.0 for row in dropped + dropped_nomads)
    assert any(row[supply] != 0.0 for row in kept)
    assert dropped[0][0] != kept[0][0]  # the rest refitted without it
    with pytest.raises(SystemExit):
        fit.fit([small], None, 6, 2, 0.05, drop=("score",))  # the plain sum's own term


def test_the_tested_seats_own_edge_is_not_credited_to_the_features(tmp_path: Path) -> None:
    """``fit --tested-seat`` on games of ``python -m bench.bots --replays`` (each line names its
    tested seat): a bot that scores more whatever the position — here every tested seat's total
    raised by 15 points — moves the multipliers of a plain fit, but not those fitted with the
    tested seat's column, which takes the edge up and is left out of what is written."""
    import gzip
    import itertools
    import json

    source = Path(__file__).resolve().parents[2] / "bench" / "data" / "kb-selfplay.jsonl.gz"
    games = list(itertools.islice(fit.read_games(source), 8))
    files = {}
    for edge in (0, 15):
        path = tmp_path / f"edge{edge}.jsonl.gz"
        with gzip.open(path, "wt", encoding="utf-8") as f:
            for n, game in enumerate(games):
                seat = n % 4
                totals = [t + (edge if s == seat else 0) for s, t in enumerate(game["totals"])]
                f.write(json.dumps({**game, "seat": seat, "totals": totals}) + "\n")
        files[edge] = path
    plain, _ = fit.fit([files[0]], None, 6, 2, 0.05, tested_seat=True)
    raised, raised_nomads = fit.fit([files[15]], None, 6, 2, 0.05, tested_seat=True)
    naive, _ = fit.fit([files[15]], None, 6, 2, 0.05)
    assert all(len(row) == len(ev.FEATURES) for row in raised + raised_nomads)

    def largest_change(table: list[list[float]]) -> float:
        flat = [v for row in table for v in row]
        return max(abs(a - b) for a, b in zip(flat, [v for row in plain for v in row], strict=True))

    assert largest_change(raised) < 0.05 < largest_change(naive)


def test_the_nomads_table_can_come_from_other_games(tmp_path: Path) -> None:
    """``fit --nomads-data``: ``FITTED_NOMADS`` from the full-Nomads games of other files (the
    hard level's own games are all base games), the same table as fitting those files alone
    gives; ``FITTED`` from ``--data`` as before."""
    import gzip
    import itertools
    import json

    source = Path(__file__).resolve().parents[2] / "bench" / "data" / "kb-selfplay.jsonl.gz"
    games = list(itertools.islice(fit.read_games(source), 8))
    mixed, base = tmp_path / "mixed.jsonl.gz", tmp_path / "base.jsonl.gz"
    for path, chosen in ((mixed, games), (base, [g for g in games if not g["options"]])):
        with gzip.open(path, "wt", encoding="utf-8") as f:
            f.writelines(json.dumps(g) + "\n" for g in chosen)
    alone_base, _ = fit.fit([base], None, 6, 2, 0.05)
    _, alone_nomads = fit.fit([mixed], None, 6, 2, 0.05)
    fitted, fitted_nomads = fit.fit([base], None, 6, 2, 0.05, nomads_paths=[mixed])
    assert fitted == alone_base and fitted_nomads == alone_nomads
    assert fitted_nomads != alone_base


def test_self_play_games_of_one_variant_only() -> None:
    """``generate --only``: game 0 (a base game by :func:`options_of`) is played with the full
    Nomads expansion with ``--only full-nomads``, game 2 (full Nomads by its index) as a base
    game with ``--only base``; each is recorded so and replays to its recorded totals."""
    assert fit.options_of(0) == {} and fit.options_of(2) == {"nomads": "full"}
    for index, only, options in ((0, "full-nomads", {"nomads": "full"}), (2, "base", {})):
        game = fit.play_game(index, "plain", only=only)
        assert game["options"] == options
        final = fit.replay_of(game).state_at()
        assert final.is_over() and [row["total"] for row in final.scores()] == game["totals"]


def test_the_fitted_evaluator_refuses_rows_of_the_wrong_length() -> None:
    """Each stage's row holds one multiplier per feature (``FEATURES``): a shorter row would
    silently drop features from the sum."""
    with pytest.raises(ValueError, match="FEATURES"):
        ev.FittedEvaluator(ev.DEFAULT, [[1.0] * (len(fitted.FEATURES) - 1)])


@pytest.mark.parametrize("options", [{}, {"nomads": "full"}])
def test_the_live_scores_are_the_rules_points_now(options: dict[str, Any]) -> None:
    """``live_scores`` (the last-turn planner's judge) is every seat's ``preview_scores``
    total (KB §9: castles, the three cards, Lords, banked gold and Treasure), position for
    position — memoised own points included, as settlements come and go (moves, Swords) —
    and the final scores of a finished game; the game's hook is it."""
    from game.bots.knowledge import live_totals

    assert knowledge_for("kingdom-builder").live_scores == ev.live_scores
    judge = ev.Evaluator(ev.DEFAULT_WEIGHTS)
    lords = 0
    for seed in range(12):
        for state in _positions(seed, options, 3):
            assert judge.live_scores(state) == live_totals(state)
            lords += "Lords" in state.cards
    assert lords, "some games score Lords"
