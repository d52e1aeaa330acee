"""The Kingdom Builder probes of issue 23 (``bench/kb_feature_probe.py``,
``bench/kb_tile_use.py``): their features count what the board shows, their regression scores a
useless feature as no help, and the tile probe's positions and greedy turns are what it says."""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from bench import kb_feature_probe as probe
from bench import kb_tile_use as tile_use
from game.kingdom_builder.board import BUILDABLE, HEXES, NBRS
from game.kingdom_builder.codes import EMPTY
from game.kingdom_builder.evaluation import FEATURES
from game.kingdom_builder.odds import terrain_odds
from game.kingdom_builder.state import KingdomBuilderState
from tests.bots.test_kingdom_builder_fitted import _positions  # random games, every k-th position

DATA = Path(__file__).resolve().parents[2] / "bench" / "data" / "kb-selfplay.jsonl.gz"


def _slow(st: KingdomBuilderState, s: int) -> tuple[float, ...]:
    """The probe's four features from the owner of every hex, by breadth-first distances."""
    board = st.board
    mine = {h for h in range(len(st.owner)) if st.owner[h] == s}
    reach = {
        h
        for h in range(len(st.owner))
        if st.owner[h] == EMPTY and board.buildable[h] and any(n in mine for n in NBRS[h])
    }

    def distance(a: int, b: int) -> int:
        frontier, seen, d = {a}, {a}, 0
        while b not in frontier:
            frontier = {n for h in frontier for n in NBRS[h]} - seen
            seen |= frontier
            d += 1
        return d

    near = soon = 0
    for loc in board.locations:
        # KB §6: two tiles a location; §6.1: a seat takes one tile of a location
        if st.left[loc] == 0 or loc in st.taken[s] or not reach:
            continue
        d = min(distance(loc, h) for h in reach)
        near += d == 1
        # two steps away through an empty buildable hex
        soon += d > 1 and any(
            st.owner[n] == EMPTY and board.buildable[n] and any(m in reach for m in NBRS[n])
            for n in NBRS[loc]
        )
    castles = sum(
        1
        for c in board.castles
        if not any(n in mine for n in NBRS[c]) and any(n in reach for n in NBRS[c])
    )
    groups: list[set[int]] = []
    for h in sorted(mine):
        joined = [g for g in groups if any(n in g for n in NBRS[h])]
        groups = [g for g in groups if g not in joined] + [{h}.union(*joined)]
    return (float(near), float(soon), float(castles), float(len(groups)))


@pytest.mark.parametrize("options", [{}, {"nomads": "full"}])
def test_the_probed_features_count_what_the_board_shows(options: dict[str, Any]) -> None:
    checked = 0
    for state in _positions(11, options, every=9):
        st: KingdomBuilderState = state  # type: ignore[assignment]
        for s in range(st.n):
            assert probe.extra_features(st, s)[:4] == _slow(st, s)
            checked += 1
    assert checked > 20


@pytest.mark.parametrize("options", [{}, {"nomads": "full"}])
def test_the_free_build_features_count_the_terrains_a_card_frees(options: dict[str, Any]) -> None:
    """KB §5: a seat with no empty hex of its card's terrain beside its settlements builds on any
    hex of that terrain.  ``closed_terrains`` are exactly those terrains, read from the owner of
    every hex; ``free_odds`` is the chance that the next card shows one that still has an empty
    hex; the gains are the best hexes' (one, then three), never negative."""
    seen_closed = seen_open = 0
    for state in _positions(13, options, every=7):
        st: KingdomBuilderState = state  # type: ignore[assignment]
        board = st.board
        odds = terrain_odds(st)
        for s in range(st.n):
            near = {
                board.terrain[n]
                for h in range(len(st.owner))
                if st.owner[h] == s
                for n in NBRS[h]
                if st.owner[n] == EMPTY and board.buildable[n]
            }
            closed = [t for t in BUILDABLE if t not in near]
            assert probe.closed_terrains(st, s) == closed
            pot, best, chance = probe.extra_features(st, s)[4:]
            if st.supply[s] == 0:
                assert (pot, best, chance) == (0.0, 0.0, 0.0)
                continue
            empty = {board.terrain[h] for h in range(len(st.owner)) if st.owner[h] == EMPTY}
            assert chance == pytest.approx(sum(odds[t] for t in closed if t in empty))
            assert 0.0 <= best <= pot
            seen_closed += bool(closed)
            seen_open += len(closed) < len(BUILDABLE)
    assert seen_closed > 5 and seen_open > 5


@pytest.mark.parametrize("options", [{}, {"nomads": "full"}])
def test_the_tile_kinds_split_the_tiles_the_evaluation_counts(options: dict[str, Any]) -> None:
    """``--tile-kinds``: a seat's location tiles' worth by kind sums to the evaluation's
    ``tiles`` feature and its nomad tiles' to ``nomad_tiles`` (KB §6–§7: a tile counts for the
    seat holding it, a nomad tile until it is used); a kind the seat holds no tile of is 0."""
    from game.kingdom_builder.evaluation import Evaluator
    from game.kingdom_builder.weights import DEFAULT_WEIGHTS

    locations = len(DEFAULT_WEIGHTS.tile_per_turn)
    tiles, nomad_tiles = FEATURES.index("tiles"), FEATURES.index("nomad_tiles")
    held = 0
    for state in _positions(17, options, every=5):
        st: KingdomBuilderState = state  # type: ignore[assignment]
        for s, f in enumerate(Evaluator().features(st)):
            kinds = probe.tile_kind_features(st, s)
            assert len(kinds) == len(probe.TILE_KINDS)
            assert sum(kinds[:locations]) == pytest.approx(f[tiles])
            assert sum(kinds[locations:]) == pytest.approx(f[nomad_tiles])
            mine = {st.board.location_type[loc] for loc in st.tiles[s]}
            for name, value in zip(probe.TILE_KINDS[:locations], kinds, strict=False):
                assert (value > 0) == (name[4:] in mine)
            held += bool(mine)
    assert held > 5


def test_the_tile_kinds_report_fits_every_kind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--tile-kinds`` reports a line per kind and, per stage, one multiplier for each of the
    features and the kinds."""
    small = tmp_path / "few.jsonl.gz"
    with gzip.open(small, "wt", encoding="utf-8") as f:
        for game in itertools.islice(probe.read_games(DATA), 6):
            f.write(json.dumps(game) + "\n")
    assert probe._tile_kinds(probe.rows([small], every=10, tile_kinds=True)) == 0
    out = capsys.readouterr().out
    for name in probe.TILE_KINDS:
        assert f"+ {name} " in out
    widths = {
        len(line.split(",")) for line in out.splitlines() if line.startswith("    ") and "," in line
    }
    assert widths == {len(FEATURES) + len(probe.TILE_KINDS)}


def test_a_feature_of_zeros_is_no_help(tmp_path: Path) -> None:
    small = tmp_path / "few.jsonl.gz"
    with gzip.open(small, "wt", encoding="utf-8") as f:
        for game in itertools.islice(probe.read_games(DATA), 8):
            f.write(json.dumps(game) + "\n")
    rows = probe.rows([small], every=6)
    assert len({r[0] for r in rows}) == 8
    base = list(range(len(FEATURES)))
    plain, _ = probe.held_out_error(rows, base)
    zeros = [
        (seed, st, nom, [(*f[: len(FEATURES)], 0.0) for f in feats], t)
        for seed, st, nom, feats, t in rows
    ]
    with_zeros, coef = probe.held_out_error(zeros, [*base, len(FEATURES)])
    assert plain > 0 and with_zeros == pytest.approx(plain)
    assert all(c[-1] == 0.0 for c in coef)


def test_the_products_are_of_the_seats_own_features(tmp_path: Path) -> None:
    """The probe's last columns are products of two of the fitted evaluation's features (a
    curved value from the same inputs), one tenth of each."""
    small = tmp_path / "one.jsonl.gz"
    with gzip.open(small, "wt", encoding="utf-8") as f:
        f.write(json.dumps(next(probe.read_games(DATA))) + "\n")
    rows = probe.rows([small], every=20)
    score, potential = FEATURES.index("score"), FEATURES.index("potential")
    assert probe.EXTRA[-3:] == ("score*potential", "potential*potential", "score*score")
    seen = False
    for _seed, _st, _nom, feats, _t in rows:
        for f in feats:
            assert len(f) == len(FEATURES) + len(probe.EXTRA)
            want = (f[score] * f[potential], f[potential] ** 2, f[score] ** 2)
            assert f[-3:] == pytest.approx(tuple(v / 10 for v in want))
            seen = seen or f[score] * f[potential] > 0
    assert seen


def test_the_tile_probe_starts_where_a_build_tile_can_be_used() -> None:
    st, seat, usable = tile_use.positions(1)[0]
    assert usable >= 1 and st.to_move()[0] == seat
    turn = tile_use.greedy_turn(st, seat, 5)
    after = st.clone()
    for action in turn:
        after.apply(seat, action)
    assert after.is_over() or after.turn_id() != st.turn_id()


def test_the_tempo_probe_sorts_every_seat_at_every_turn_start(tmp_path: Path) -> None:
    """bench.kb_tempo_bias: at each turn start, each of the 4 seats' errors goes to "moved"
    if it has ended its turn in this round (KB §4, §8), else to "not moved"."""
    from bench import kb_tempo_bias
    from bench.fit_kingdom_builder import replay_of
    from bench.fitting import read_games
    from game.kingdom_builder import evaluation as ev

    game = next(read_games(kb_tempo_bias.DATA[0]))
    path = tmp_path / "one.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.write(json.dumps(game) + "\n")
    errors = kb_tempo_bias.biases({"fit": ev.FITTED}, [path], every=1)
    ahead: dict[int, int] = {}  # turn -> seats that have moved this round at its start
    for st in replay_of(game).states():
        if not st.is_over():
            ahead.setdefault(st.turn_id(), (st.cur - st.start) % 4)  # type: ignore[attr-defined]
    moved = sum(len(v) for (_, _, m), v in errors.items() if m)
    total = sum(len(v) for v in errors.values())
    assert total == 4 * len(ahead) > 0
    assert moved == sum(ahead.values())


def test_the_clairvoyant_worlds_keep_every_hidden_card_where_it_is() -> None:
    """``bench/kb_clairvoyant.py``'s diagnostic: the hard level there samples the real game
    (rivals' hands and the draw pile in order, KB §3.6, §4), where a fair world deals the
    hidden cards again; only the RNG is reseeded."""
    from bench import kb_clairvoyant

    state: Any = _positions(8, {}, every=40).__next__()
    seer = kb_clairvoyant.clairvoyant(state)
    dealt_again = False
    for seed in range(6):
        world = seer.determinize(1, seed)
        assert isinstance(world, kb_clairvoyant.ClairvoyantState)
        assert world.hands == state.hands and world.deck == state.deck
        assert world.homes == state.homes and world.rng.state != state.rng.state
        fair = state.determinize(1, seed)
        dealt_again = dealt_again or (fair.hands, fair.deck) != (state.hands, state.deck)
    assert dealt_again


def test_the_counterfactual_branches_replay_the_same_game_from_each_candidate() -> None:
    """``bench/kb_counterfactual.py``: at a late turn start of a self-play game every candidate
    turn is played in the real state and the game finished by the same greedy bots — the same
    position gives the same branches twice (common seeds), each branch a distinct whole turn with
    every seat's features after it and the final totals; the within-position rows are centred
    over the candidates (only what differs between the turns is left)."""
    from bench import kb_counterfactual as cf
    from bench.fit_kingdom_builder import positions
    from bench.fitting import read_games
    from bench.search_regret import hard_searcher
    from game.core.rng import derive_seed
    from game.kingdom_builder.evaluation import Evaluator

    game = next(g for g in read_games(DATA) if not g.get("options"))
    state = next(st for st in positions(game, 1, turn_starts=True) if min(st.supply) <= 5)
    seat = state.to_move()[0]

    def branch(worlds: int = 1) -> dict[str, Any]:
        searcher = hard_searcher(derive_seed(1, "test-cf"), None)
        return cf.branch_position(state.clone(), seat, 7, 3, 2, Evaluator(), searcher, worlds)

    pos = branch()
    assert pos == branch()
    assert pos["seat"] == seat and len(pos["branches"]) == 2
    assert [b["plan"] for b in pos["branches"]] == [0, 1]
    assert pos["branches"][0]["actions"] != pos["branches"][1]["actions"]
    for b in pos["branches"]:
        assert len(b["totals"]) == 4
        feats = b["marks"]["1"]["feats"]
        assert len(feats) == 4 and all(len(f) == len(FEATURES) for f in feats)
    # the positions at the marks rebuild from the recorded actions, without the bots
    for b in pos["branches"]:
        rebuilt = {m: Evaluator().features(st) for m, st in cf.mark_states(state, seat, b)}
        assert rebuilt == {int(m): v["feats"] for m, v in b["marks"].items()}
    # a second world the seat cannot tell from the real one: the real world's branches unchanged
    two = branch(worlds=2)
    assert [{k: v for k, v in b.items() if k != "more"} for b in two["branches"]] == pos["branches"]
    assert all(len(b["more"]) == 1 and len(b["more"][0]["totals"]) == 4 for b in two["branches"])
    worth = cf.choice_worth([two])
    assert list(worth) == [pos["stage"]] and worth[pos["stage"]]["positions"] == 1
    assert worth[pos["stage"]]["total"] >= 0
    rows = cf.within_rows([pos, {**pos, "seed": 8}], "1")
    flat = [r for stage in rows.values() for r in stage]
    assert len(flat) == 2 * 2 * 4
    for seed in (7, 8):
        mine = [r for r in flat if r[0] == seed]
        assert abs(sum(y for _, _, y in mine)) < 1e-9
        for i in range(len(FEATURES)):
            assert abs(sum(x[i] for _, x, _ in mine)) < 1e-9


def test_the_reach_descriptors_count_what_a_seat_can_still_grow_into() -> None:
    """``fit --extra``'s descriptors (:func:`bench.kb_counterfactual.reach`): for a seat with two
    touching settlements and one apart, two areas, the largest of two; the locations and castles
    within two hexes (by a search of its own here) it has not yet used, and the empty hexes
    there in tens."""
    from bench import kb_counterfactual as cf
    from game.kingdom_builder import GAME

    st: KingdomBuilderState = GAME.new(4, {}, 5)
    board = st.board
    free = [h for h in range(HEXES) if board.buildable[h] and st.owner[h] == EMPTY]
    a = free[0]
    b = next(n for n in board.nbrs[a] if n in free)
    c = next(
        h
        for h in free
        if all(
            x not in board.nbrs[h] and not set(board.nbrs[x]) & set(board.nbrs[h]) for x in (a, b)
        )
    )
    st.homes[0] = {a, b, c}
    for h in (a, b, c):
        st.owner[h] = 0
    dist = {h: 0 for h in (a, b, c)}
    frontier = [a, b, c]
    for step in (1, 2):
        frontier = [n for h in frontier for n in board.nbrs[h] if n not in dist]
        for n in frontier:
            dist.setdefault(n, step)
    near = set(dist)
    touched = {n for h in (a, b, c) for n in board.nbrs[h] if n in board.castles}
    locations, castles, areas, largest, room = cf.reach(st, 0)
    assert (areas, largest) == (2.0, 2.0)
    assert locations == sum(1 for loc in board.locations if loc in near)  # no tile taken yet
    assert castles == sum(1 for x in board.castles if x in near and x not in touched)
    assert room == sum(1 for h in near if st.owner[h] == EMPTY) / 10


def test_the_counterfactual_opening_stops_after_the_turns_asked() -> None:
    """``generate --turns N``: only the first N turn starts of a game are branched (the
    opening), and the game is not played past them."""
    from bench import kb_counterfactual as cf

    seen = []
    for turn, _state, _seat in cf.game_positions(3, {}):
        seen.append(turn)
        if turn == 6:
            break
    assert seen == [1, 2, 3, 4, 5, 6]
    assert cf.branch_game(3, 5, 2, {}, turns=4) == []  # no 5th turn start within the first 4


@pytest.mark.slow  # plays whole games per candidate: ~15 s each (a finished study's tool)
def test_the_counterfactual_choice_races_the_recorded_turns_and_is_scored_by_them(
    tmp_path: Path,
) -> None:
    """``bench/kb_counterfactual.py choose``: the game of a position file is replayed as it was
    generated, the hard level's search races the very candidates recorded (the same planner
    draws) and its choice is scored by their real final margins; a file whose recorded turns
    are not the replayed game's is refused."""
    from bench import kb_counterfactual as cf

    seed, every = 3, 27  # one position of the game's 40 turn starts, in its third quarter
    path = tmp_path / "cf.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as f:
        for pos in cf.branch_game(seed, every, 2, {}):
            f.write(json.dumps(pos) + "\n")
    (pos,) = cf.read([path])
    assert pos["turn"] == every and [b["plan"] for b in pos["branches"]] == [0, 1]
    rows = cf.choose([path], {"work": 300}, {})
    assert len(rows) == 1
    row = rows[0]
    assert row["chosen"] in (0, 1) and row["plans"] == [0, 1]
    seat = pos["seat"]
    assert row["margins"] == [cf.seat_margin(b["totals"], seat) for b in pos["branches"]]
    assert rows == cf.choose([path], {"work": 300}, {})  # counts, not clocks
    # --stages: the position's own stage is kept, the others' positions are left out
    assert cf.choose([path], {"work": 300}, {}, [pos["stage"]]) == rows
    assert cf.choose([path], {"work": 300}, {}, [s for s in range(4) if s != pos["stage"]]) == []
    report = cf.choice_gain(rows, rows)
    assert "1 of 1 positions" in report and "the same turn at 1" in report
    assert f"  stage {pos['stage']}: n 1" in report
    # recorded turns that the replayed game's planner does not propose
    pos["branches"][0]["actions"], pos["branches"][1]["actions"] = (
        pos["branches"][1]["actions"],
        pos["branches"][0]["actions"],
    )
    bad = tmp_path / "bad.jsonl.gz"
    with gzip.open(bad, "wt", encoding="utf-8") as f:
        f.write(json.dumps(pos) + "\n")
    with pytest.raises(ValueError, match="not the recorded candidates"):
        cf.choose([bad], {"work": 300}, {})


@pytest.mark.slow  # plays whole games per candidate: ~15 s each (a finished study's tool)
def test_the_counterfactual_choice_of_some_stages_takes_the_planner_draws_of_all(
    tmp_path: Path,
) -> None:
    """``choose --stages``: the positions of the other stages are not searched, but their
    candidates are still proposed, so the planner's random draws reach the later positions as
    they did when the file was generated (else those would be refused as not recorded)."""
    from bench import kb_counterfactual as cf

    path = tmp_path / "cf.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as f:
        for pos in cf.branch_game(3, 14, 2, {}):
            f.write(json.dumps(pos) + "\n")
    positions = cf.read([path])
    assert [p["stage"] for p in positions] == [1, 2]  # turns 14 and 28
    everything = cf.choose([path], {"work": 300}, {})
    later = cf.choose([path], {"work": 300}, {}, [2])
    assert later and later == [r for r in everything if r["stage"] == 2]


def test_the_decision_benchmark_replays_the_same_choices(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``bench.decision_cpu`` decides at the turn starts of a stored game with no ceiling, so
    two runs choose the same actions (the fingerprint two checkouts are compared by)."""
    from bench import decision_cpu

    games = list(decision_cpu.read_games(decision_cpu.DEFAULT_REPLAYS, 1))
    positions = list(decision_cpu.turn_starts(games[0], 12))
    assert positions and all(not p.is_over() for p in positions)
    assert (
        decision_cpu.main(["--level", "greedy", "--games", "1", "--every", "12", "--repeat", "2"])
        == 0
    )
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    assert f"greedy: {len(positions)} decisions" in lines[0]
    assert lines[0].split("choices ")[1] == lines[1].split("choices ")[1]


def test_the_decision_benchmark_takes_the_games_of_given_options() -> None:
    """``--options`` keeps only the games played with exactly those options (full Nomads from
    a file that holds both), and refuses what is not a JSON object."""
    from bench import decision_cpu

    path = decision_cpu.DEFAULT_REPLAYS.parent / "kb-level-games.jsonl.gz"
    full = {"nomads": "full"}
    games = list(decision_cpu.read_games(path, 3, full))
    assert len(games) == 3 and all(g["options"] == full for g in games)
    assert all(g.get("options", {}) == {} for g in decision_cpu.read_games(path, 3, {}))
    with pytest.raises(SystemExit):
        decision_cpu.main(["--options", "[1]"])
    with pytest.raises(SystemExit):
        decision_cpu.main(["--options", "{nomads"])


def test_the_race_pairing_benchmark_repeats_itself() -> None:
    """``bench.race_pairing``: one turn played out twice in the same world gives the same reward
    (the race's worlds are common to its turns: a pair's difference is the turns' alone), and the
    figures repeat exactly (counts, no clock)."""
    from bench import decision_cpu, race_pairing
    from bench.bots import bench_bot
    from game.bots.mcts import MctsBot

    game = next(iter(decision_cpu.read_games(decision_cpu.DEFAULT_REPLAYS, 1)))
    state = next(iter(decision_cpu.turn_starts(game, 12)))
    seat = state.to_move()[0]
    bot = bench_bot("hard", 5, None, None, {"work": 600})
    assert isinstance(bot, MctsBot)
    knowledge = bot._knowledge(state)
    horizon = bot._horizon(state, knowledge)
    plan = bot.candidate_turns(state, seat)[0]
    reward = bot.race_playout(state, seat, plan, 7, knowledge, horizon)[0]
    bot.race_playout(state, seat, plan, 8, knowledge, horizon)  # another world between
    assert bot.race_playout(state, seat, plan, 7, knowledge, horizon)[0] == reward
    first = race_pairing.pairing(decision_cpu.DEFAULT_REPLAYS, 1, 12, 4, 3, {"work": 600})
    assert first["pairs"] >= 1 and first["ratio"] >= 0.0
    assert race_pairing.pairing(decision_cpu.DEFAULT_REPLAYS, 1, 12, 4, 3, {"work": 600}) == first


def test_the_last_turn_probe_finds_the_points_a_turn_can_score() -> None:
    """``bench/kb_last_turn.py``: the hard seat's turn starts of a level game, each with the
    rules' points after the turn played (the last one's are the final scores when the game ends
    with it, KB §8); the beam search's best is at least what the seat scored in its last turn
    when the beam can hold every position of a step, and the live planner's figures come per
    count of evaluations."""
    from bench import kb_last_turn
    from bench.decision_cpu import read_games

    game = next(read_games(kb_last_turn.DEFAULT_REPLAYS, 1, {}))
    seat = game["seat"]
    starts = list(kb_last_turn.hard_turn_starts(game))
    assert starts and all(seat in start.to_move() for start, _ in starts)
    last, after = starts[-1]
    assert after is not None and after[seat] == game["totals"][seat]
    assert kb_last_turn.last_turn(last, seat)
    best = kb_last_turn.best_points(last.clone(), seat, beam=60)
    assert best >= after[seat]
    figures = kb_last_turn.planner([game], [200, 400])
    assert figures["positions"] >= 1
    assert figures["200.points"] == 0.0 and figures["400.cpu_s"] > 0.0
    widths = kb_last_turn.beams([game], [1, 60])
    assert widths["positions"] == 1 and widths["played.points"] == after[seat]
    assert widths["60.points"] == best and widths["1.points"] > 0 and widths["60.cpu_s"] > 0.0
    # the planner's shapes at the same turn: 30 evaluations cannot finish that last turn (its
    # plan is finished by a small beam of points), 40,000 can; each scores what it reaches
    forms = kb_last_turn.shapes([game], [(2, 30, 2), (60, 40000, 0)])
    assert forms["positions"] == 1 and forms["played.points"] == after[seat]
    assert forms["2:30:2.cut_short"] == 1 and forms["60:40000:0.cut_short"] == 0
    assert forms["2:30:2.points"] > 0 and forms["60:40000:0.points"] > 0
    assert forms["2:30:2.cpu_s"] > 0.0 and forms["60:40000:0.cpu_s"] > 0.0
    with pytest.raises(argparse.ArgumentTypeError):
        kb_last_turn._shape("10:6000")


def test_the_building_probe_counts_every_settlement_of_the_supply() -> None:
    """``bench/kb_building.py``: in a base game (no Sword returns a settlement) every seat's
    settlements are either built or left in the supply (KB §3: 40 each); every seat plays as
    many turns (KB §8: the game ends with the round); a move tile's placement is a move, not a
    build; the report has a line a count."""
    from bench import kb_building
    from bench.decision_cpu import read_games
    from game.kingdom_builder.codes import SETTLEMENTS

    games = list(read_games(kb_building.DEFAULT_REPLAYS, 2, {}))
    for game in games:
        own, others = kb_building.game_counts(game)
        assert own["built"] + own["left"] == SETTLEMENTS
        assert abs(others["built"] + others["left"] - SETTLEMENTS) < 1e-9
        assert own["turns"] > 0 and abs(own["turns"] - others["turns"]) < 1e-9
        moves = sum(own[f"tile:{kind}"] for kind in ("Barn", "Harbor", "Paddock"))
        assert own["moved"] == moves
    count, own, others = kb_building.tally(games)
    lines = kb_building.report(count, own, others)
    assert count == 2 and lines[1].split()[0] == "left"
    assert kb_building.main([str(kb_building.DEFAULT_REPLAYS), "--games", "1"]) == 0


def test_the_endgame_duel_plays_both_arms_from_the_same_position(tmp_path: Path) -> None:
    """``bench/kb_endgame.py``: the branch point is the hard seat's last turn start of the
    replayed game (its seat to move, KB §4); two arms with the same search parameters play the
    same rest of the game to the same final scores (the same bots, seeds and deck: common
    random numbers), so the paired report shows no difference; ``--out`` rows report again."""
    from bench import kb_endgame, kb_last_turn
    from bench.decision_cpu import read_games

    game = next(read_games(kb_endgame.DEFAULT_REPLAYS, 1, {"nomads": "full"}))
    seat = game["seat"]
    branch = kb_last_turn.hard_turn_from_end(game, 1)
    assert branch is not None and list(branch[0].to_move()) == [seat]
    assert kb_last_turn.hard_turn_from_end(game, 10_000) is None
    cheap = {"work": 60, "last_turn_plans": 1}
    row = kb_endgame.duel(game, 1, cheap, cheap)
    assert row is not None and row["level"]["totals"] == row["variant"]["totals"]
    assert len(row["level"]["totals"]) == game["players"]
    report = kb_endgame.summary([row])
    assert report["positions"] == 1 and report["margin_diff"] == 0.0 and report["changed"] == 0
    assert report["only_won"] == {"level": 0, "variant": 0}
    out = tmp_path / "duel.jsonl"
    code = kb_endgame.main(
        [
            "--games",
            "1",
            "--options",
            '{"nomads": "full"}',
            "--search",
            json.dumps(cheap),
            "--level-search",
            json.dumps({"work": 60}),
            "--out",
            str(out),
        ]
    )
    assert code == 0
    rows = kb_endgame.read_rows([out])
    assert len(rows) == 1 and rows[0]["seed"] == game["seed"]
    assert kb_endgame.summary(rows)["positions"] == 1
