"""The bots in Keyflower: the evaluation (``game/keyflower/evaluation.py``), its pruning and
transposition hooks, every level playing legal, secret-blind, reproducible games, and several
bots thinking at once in the simultaneous phases — with cancellation and deadlines (issue 16).

Rule references ``KF §n`` point to ``shared/rules/keyflower.md``.  Strength and speed are
measured in ``bench/bots.py``, not here; search bots run with iteration budgets so that the same
seed gives the same game.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from game.bots import (
    BotCancelled,
    BotPool,
    BotTimeout,
    GreedyBot,
    MctsBot,
    hint,
    make_bot,
    think,
)
from game.bots.base import view_key
from game.bots.knowledge import knowledge_for
from game.core.match import Bot, play_match
from game.core.registry import get_game
from game.core.rng import Rng, derive_seed
from game.core.types import Action, Seat
from game.keyflower import evaluation as ev
from game.keyflower import winter_bonus
from game.keyflower.const import NONE, PLACE, PLAY, WINTER_PICK
from game.keyflower.state import KeyflowerState
from game.keyflower.tiles import TILES
from tests.keyflower import helpers as H
from tests.keyflower.helpers import keyflower_twin

KF = "keyflower"


def walk(seed: int, steps: int, players: int = 4, randomness: int = 3) -> KeyflowerState:
    """A position after ``steps`` actions from a new game: mostly the playout policy, one
    action in ``randomness`` at random (any seat to move)."""
    state: KeyflowerState = get_game(KF).new(players, {}, seed)  # type: ignore[assignment]
    rng = Rng(derive_seed(seed, "kf-bot-walk"))
    for _ in range(steps):
        if state.is_over():
            break
        movers = state.to_move()
        seat = movers[rng.randbelow(len(movers))]
        actions = state.legal_actions(seat)
        if rng.randbelow(randomness) == 0:
            action = actions[rng.randbelow(len(actions))]
        else:
            action = ev.rollout_action(state, seat, actions, rng)
        state.apply(seat, action)
    return state


def simultaneous(seed: int, phase: int, players: int = 4) -> KeyflowerState:
    """A position of a simultaneous phase (placement or the winter choice) where at least two
    seats are to move."""
    for attempt in range(40):
        state: KeyflowerState = get_game(KF).new(players, {}, seed + 1000 * attempt)  # type: ignore[assignment]
        rng = Rng(derive_seed(seed, "kf-simultaneous", attempt))
        while not state.is_over():
            if state.phase == phase and len(state.to_move()) >= 2:
                return state
            movers = state.to_move()
            seat = movers[rng.randbelow(len(movers))]
            actions = state.legal_actions(seat)
            state.apply(seat, ev.rollout_action(state, seat, actions, rng))
    raise AssertionError("no simultaneous position found")


# ---- the hooks ----------------------------------------------------------------------------


def test_the_bots_find_this_module() -> None:
    known = knowledge_for(KF)
    assert known.evaluate_all == ev.evaluate_all
    assert known.rollout_action == ev.rollout_action
    assert known.position_key is ev.position_key
    assert known.candidate_actions is ev.candidate_actions
    assert known.scale == ev.SCALE


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_finished_game_is_worth_its_final_score(players: int) -> None:
    state = walk(players, 10_000, players)
    assert state.is_over()
    assert ev.evaluate_all(state) == [float(s["total"]) for s in state.scores()]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 250))
def test_a_seats_value_reads_only_what_it_may_see(seed: int, steps: int) -> None:
    """Each seat's value is the same on a twin position in which what that seat cannot see —
    other screens' unknown keyples and skill tiles, other winter hands — differs."""
    state = walk(seed, steps, 2 + seed % 5)
    values = ev.evaluate_all(state)
    assert all(v == v and abs(v) < 1e4 for v in values)  # finite numbers
    for seat in range(state.players):
        twin = keyflower_twin(state, seat)
        assert ev.evaluate_all(twin)[seat] == values[seat]


# ---- what the evaluation counts -------------------------------------------------------------


def _auction_start(seed: int = 2) -> KeyflowerState:
    """Spring, seat 0 to move at the start of its turn, every screen emptied."""
    state = H.new(4, seed)
    H.empty_screens(state)
    H.to_move_seat(state, 0)
    return state


def test_a_leading_bid_counts_more_as_the_players_pass() -> None:
    """KF §4.2, §5: a season ends when all pass in succession, so a lead is surer the more
    players have passed since; the tile it leads on counts by that chance."""
    state = _auction_start()
    H.set_screen(state, 0, red=3)
    tile = state.auction[0]
    before = ev.evaluate_all(state)[0]
    state.apply(0, ("bid", TILES[tile].id, "red", 1))
    one = ev.evaluate_all(state)[0]
    state.passes = 2
    two = ev.evaluate_all(state)[0]
    state.passes = 3
    three = ev.evaluate_all(state)[0]
    assert one < two < three
    assert three > before - 1.0  # a sure win is worth more than the keyple it cost


def test_an_upgrade_counts_more_when_its_cost_lies_on_the_tile() -> None:
    """KF §7.2: resources paying an upgrade must lie on the tile; the nearer the cost, the more
    of the upgrade's gain counts (Sawmill: 3 wood for 3 -> 10 VP)."""
    state = _auction_start()
    H.put(state, 0, "sawmill", 1, 0, rot=0)
    home = TILES[state.home[0]].id
    H.give(state, home, wood=3)
    far = ev.evaluate_all(state)[0]
    H.give(state, home, wood=0)
    H.give(state, "sawmill", wood=3)
    near = ev.evaluate_all(state)[0]
    assert near > far + 1.0


def test_gold_is_worth_at_least_a_point() -> None:
    """KF §13 step 5: unassigned gold scores 1 VP."""
    state = _auction_start()
    before = ev.evaluate_all(state)
    H.give(state, TILES[state.home[1]].id, gold=2)
    after = ev.evaluate_all(state)
    assert after[1] - before[1] >= 2.0
    assert [after[s] for s in (0, 2, 3)] == [before[s] for s in (0, 2, 3)]


def test_winter_tiles_in_hand_count_with_their_chance() -> None:
    """KF §4.1, §13: a winter tile in hand may end in the village; Keythedral's 12 VP count
    with the hand's share, and fully once the tile is in the village."""
    w = ev.DEFAULT_WEIGHTS
    bonus = winter_bonus.BONUS[H.tid("keythedral")]
    assert bonus is not None and bonus[1].vp == 12
    assert ev.bonus_value(bonus[1], [0, 0, 0, 0], "fixed", 0.0) == 12.0
    fam, craft = winter_bonus.BONUS[H.tid("craftsmens_guild")]  # type: ignore[misc]
    # 5 VP per red+blue+yellow set (KF §13); half of the next set in progress
    assert ev.bonus_value(craft, [2, 2, 1, 0], fam, 0.0) == 5.0
    assert ev.bonus_value(craft, [2, 2, 1, 0], fam, 0.5) == pytest.approx(5.0 + 0.5 * 5 * 2 / 3)
    fam, mercers = winter_bonus.BONUS[H.tid("mercers_guild")]  # type: ignore[misc]
    # gold stands for a missing resource and then no longer scores its own point (D18)
    assert ev.bonus_value(mercers, [1, 1, 0, 1], fam, 0.0) == 5.0 - 1.0
    assert w.hand_share < 1.0


# ---- pruning and transpositions -------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 250))
def test_candidates_keep_every_kind_of_choice(seed: int, steps: int) -> None:
    """Candidates are legal and never empty; of the bids (uses) with one tile and colour the
    two smallest (the smallest) stay; every other action stays."""
    state = walk(seed, steps, 2 + seed % 5)
    for seat in state.to_move():
        legal = state.legal_actions(seat)
        chosen = ev.candidate_actions(state, seat, legal)
        assert chosen and set(chosen) <= set(legal)
        assert [a for a in legal if a[0] not in ("bid", "use")] == [
            a for a in chosen if a[0] not in ("bid", "use")
        ]
        for kind, keep in (("bid", 2), ("use", 1)):
            groups: dict[tuple[object, object], list[int]] = {}
            for a in legal:
                if a[0] == kind:
                    groups.setdefault((a[1], a[2]), []).append(a[3])
            for (tile, colour), counts in groups.items():
                kept = sorted(a[3] for a in chosen if a[0] == kind and a[1:3] == (tile, colour))
                assert kept == sorted(counts)[:keep]


def test_position_key_merges_placements_in_another_order() -> None:
    """KF §9 (D16): a seat places its tiles one at a time in any order; the same village
    reached in another order has the same key and the same legal actions."""
    found = 0
    for seed in range(40):
        state = simultaneous(seed, PLACE)
        for seat in state.to_move():
            if len(state.won[seat]) < 2:
                continue
            a, b = state.won[seat][:2]
            one, two = state.clone(), state.clone()
            spot_a = next(x for x in one.legal_actions(seat) if x[1] == TILES[a].id)
            one.apply(seat, spot_a)
            spot_b = next((x for x in one.legal_actions(seat) if x[1] == TILES[b].id), None)
            if spot_b is None or spot_b not in two.legal_actions(seat):
                continue
            two.apply(seat, spot_b)
            if spot_a not in two.legal_actions(seat):
                continue
            two.apply(seat, spot_a)
            one.apply(seat, spot_b)
            if one.phase != PLACE or seat not in one.to_move():
                continue
            assert ev.position_key(one, seat) == ev.position_key(two, seat)
            assert sorted(one.legal_actions(seat)) == sorted(two.legal_actions(seat))
            assert ev.evaluate_all(one)[seat] == ev.evaluate_all(two)[seat]
            found += 1
        if found >= 3:
            break
    assert found >= 1


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 250))
# The last seat's winter choice resolves the phase: the key must hold the auction's tiles.
@example(seed=1976, steps=129)
def test_equal_keys_mean_equal_futures(seed: int, steps: int) -> None:
    """Two actions of a seat that reach the same key leave the same legal actions and the same
    value for it (the transposition convention)."""
    state = walk(seed, steps, 2 + seed % 5)
    for seat in state.to_move():
        children: dict[object, KeyflowerState] = {}
        for action in state.legal_actions(seat)[:60]:
            child = state.clone()
            child.apply(seat, action)
            if child.is_over() or seat not in child.to_move():
                continue
            key = ev.position_key(child, seat)
            if key in children:
                twin = children[key]
                assert sorted(twin.legal_actions(seat)) == sorted(child.legal_actions(seat))
                assert ev.evaluate_all(twin)[seat] == ev.evaluate_all(child)[seat]
            else:
                children[key] = child


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 250), r=st.integers(0, 999))
def test_the_playout_policy_picks_one_of_the_actions_it_is_given(
    seed: int, steps: int, r: int
) -> None:
    state = walk(seed, steps, 2 + seed % 5)
    rng = Rng(r)
    for seat in state.to_move():
        legal = state.legal_actions(seat)
        assert ev.rollout_action(state, seat, legal, rng) in legal
        some = legal[: 1 + r % len(legal)]
        assert ev.rollout_action(state, seat, some, rng) in some


# ---- every level plays ----------------------------------------------------------------------

#: Every level as the product makes it (time budgets; the hard level's cut short).
PRODUCT: dict[str, Callable[[int], Bot]] = {
    name: (lambda seed, name=name: make_bot(name, seed, budget=0.2))  # type: ignore[misc]
    for name in ("random", "greedy", "mcts", "easy", "normal", "hard")
}

#: Every level without time limits (iteration budgets: the same seed gives the same choice).
LEVELS: dict[str, Callable[[int], Bot]] = {
    "random": lambda seed: make_bot("random", seed),
    "easy": lambda seed: GreedyBot(seed, beam=3, temperature=2.0, cpu_budget=None, name="easy"),
    "normal": lambda seed: GreedyBot(seed, cpu_budget=None, name="normal"),
    "greedy": lambda seed: GreedyBot(seed, cpu_budget=None),
    "mcts": lambda seed: MctsBot(seed, budget=None, iterations=10, plan_evals=300),
    "hard": lambda seed: MctsBot(
        seed,
        budget=None,
        iterations=10,
        root_policy="race",
        horizon_extra=1,
        playout_plan_evals=25,
        plan_beam=10,
        plan_per_first=2,
        plan_evals=300,
        name="hard",
    ),
}


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 300), bot_seed=st.integers(0, 99))
def test_every_level_chooses_legal_actions_in_reachable_positions(
    seed: int, steps: int, bot_seed: int
) -> None:
    """In every reachable position — season turns, boat choices, placements and winter choices,
    for every seat to move in a simultaneous phase — every level's choice is legal."""
    state = walk(seed, steps, 2 + seed % 5)
    for seat in state.to_move():
        legal = state.legal_actions(seat)
        for name, maker in LEVELS.items():
            action = maker(bot_seed).choose(state.determinize(seat, bot_seed), seat)
            assert action in legal, f"{name} chose {action!r}"


@pytest.mark.parametrize("name", sorted(PRODUCT))
def test_the_product_levels_choose_legal_actions(name: str) -> None:
    """Every level as the lobby and the CLI make it (time budgets)."""
    for seed in range(3):
        state = walk(seed, 30 + 70 * seed, 3 + seed)
        for seat in state.to_move():
            bot = PRODUCT[name](seed)
            action = bot.choose(state.determinize(seat, seed), seat)
            assert action in state.legal_actions(seat)


@pytest.mark.parametrize("name", ["easy", "normal", "mcts", "hard"])
def test_decisions_ignore_other_screens_and_winter_hands(name: str) -> None:
    """Twin positions that differ only in what the seat cannot see (unknown keyples and skill
    tiles behind other screens, other winter hands) get the same choice."""
    checked = 0
    for seed in range(8):
        state = walk(seed, 20 + 37 * seed, 4)
        if state.is_over():
            continue
        seat = state.to_move()[0]
        twin = keyflower_twin(state, seat)
        if twin.to_dict() == state.to_dict():
            continue
        assert view_key(twin, seat) == view_key(state, seat)
        first = LEVELS[name](seed).choose(state, seat)
        second = LEVELS[name](seed).choose(twin, seat)
        assert first == second, f"{name}, seed {seed}"
        checked += 1
    assert checked >= 3


def test_winter_choices_ignore_other_hands() -> None:
    """In the winter choice (KF §4.1) a seat's pick does not depend on the other hands."""
    state = simultaneous(3, WINTER_PICK)
    for seat in state.to_move():
        twin = keyflower_twin(state, seat)
        assert twin.to_dict() != state.to_dict()
        for name in ("normal", "hard"):
            assert LEVELS[name](seat).choose(state, seat) == LEVELS[name](seat).choose(twin, seat)


def test_hints_work_and_ignore_secrets() -> None:
    for seed in range(3):
        state = walk(seed, 30 + 60 * seed, 4)
        seat = state.to_move()[0]
        action = hint(state, seat, seed)
        assert action in state.legal_actions(seat)
        assert hint(keyflower_twin(state, seat), seat, seed) == action


def test_same_seed_same_keyflower_game() -> None:
    """A whole 3-player game between easy (its random picks included), hard and random (small
    budgets counted in evaluations and playouts, no time limits), played twice from the same
    seeds, is the same game."""
    names = ("easy", "hard", "random")
    small: dict[str, Callable[[int], Bot]] = {
        "easy": lambda seed: GreedyBot(
            seed, beam=3, temperature=2.0, cpu_budget=None, max_evals=150, name="easy"
        ),
        "hard": lambda seed: MctsBot(
            seed,
            budget=None,
            iterations=4,
            root_policy="race",
            horizon_extra=1,
            playout_plan_evals=10,
            plan_beam=2,
            plan_evals=60,
            name="hard",
        ),
        "random": LEVELS["random"],
    }

    def play() -> tuple[list[tuple[Seat, Action]], str]:
        bots = [small[n](derive_seed(13, s)) for s, n in enumerate(names)]
        result = play_match(KF, len(names), 13, [b.choose for b in bots])
        return result.replay.actions, result.state.state_hash()

    assert play() == play()


def test_a_transport_turn_is_planned_to_its_end() -> None:
    """A use of a transport tile (KF §7) is one turn of several steps; greedy plans it whole
    and the later steps come from its plan (legal at every step)."""
    for seed in range(30):
        state = walk(seed, 40 + seed * 5, 3)
        if state.phase != PLAY or state.stage != NONE:
            continue
        seat = state.cur
        bot = GreedyBot(seed, cpu_budget=None)
        action = bot.choose(state.determinize(seat, seed), seat)
        if action[0] != "use" or TILES[state.tile_of(action[1])].sides[0].action != "transport":
            continue
        turn = state.turn_id()
        state.apply(seat, action)
        while state.turn_id() == turn and seat in state.to_move():
            step = bot.choose(state.determinize(seat, seed), seat)
            assert step in state.legal_actions(seat)
            state.apply(seat, step)
        return
    pytest.skip("no transport turn chosen in these positions")


# ---- simultaneous phases --------------------------------------------------------------------


@pytest.mark.parametrize("phase", [PLACE, WINTER_PICK])
def test_several_bots_choose_at_once_in_a_simultaneous_phase(phase: int) -> None:
    """Every seat of a simultaneous phase (KF §9 placement, KF §4.1 winter choice) thinks at the
    same time, each in its own thread on its own determinized copy; every answer is legal for
    its seat, and none waits for another (they all start before any is done)."""
    state = simultaneous(5, phase)
    seats = state.to_move()
    decisions = {seat: think(make_bot("normal", seat), state, seat, seed=seat) for seat in seats}
    for seat, decision in decisions.items():
        assert decision.result(timeout=120) in state.legal_actions(seat)


@pytest.mark.parametrize("phase", [PLACE, WINTER_PICK])
def test_a_bot_pool_decides_for_several_seats_of_a_simultaneous_phase(phase: int) -> None:
    """As the host does it: one decision per seat in a pool of worker processes."""
    state = simultaneous(6, phase)
    seats = state.to_move()
    with BotPool(2) as pool:
        decisions = {
            seat: pool.decide("easy", seat, None, state, seat, 9, key=("table", seat))
            for seat in seats
        }
        for seat, decision in decisions.items():
            assert decision.result(timeout=120) in state.legal_actions(seat)


def test_cancelling_one_seat_leaves_the_others_thinking() -> None:
    """A seat taken back by a human (or a game abandoned) cancels only its own decision: it ends
    at once with BotCancelled, the other seats' decisions go on and answer."""
    state = simultaneous(7, PLACE)
    seats = state.to_move()
    slow = think(MctsBot(1, budget=60.0), state, seats[0], seed=1)
    others = {seat: think(make_bot("normal", seat), state, seat, seed=seat) for seat in seats[1:]}
    time.sleep(0.2)
    started = time.perf_counter()
    slow.cancel()
    with pytest.raises(BotCancelled):
        slow.result(timeout=20)
    assert time.perf_counter() - started < 3.0
    for seat, decision in others.items():
        assert decision.result(timeout=120) in state.legal_actions(seat)


def test_deadlines_end_every_slow_decision_of_a_simultaneous_phase() -> None:
    """Decisions past their deadline are cancelled (BotTimeout) — all of them, at about the
    deadline, not one after the other."""
    state = simultaneous(8, WINTER_PICK)
    seats = state.to_move()
    started = time.perf_counter()
    decisions = [
        think(MctsBot(seat, budget=60.0), state, seat, seed=seat, deadline=0.4) for seat in seats
    ]
    for decision in decisions:
        with pytest.raises(BotTimeout):
            decision.result(timeout=20)
    assert time.perf_counter() - started < 5.0


def test_a_bot_pool_cancels_and_times_out_in_a_simultaneous_phase() -> None:
    state = simultaneous(9, PLACE)
    seats = state.to_move()
    with BotPool(2) as pool:
        slow = [
            pool.decide("mcts", seat, 60.0, state, seat, 3, key=("t", seat), deadline=0.5)
            for seat in seats
        ]
        started = time.perf_counter()
        for decision in slow:
            with pytest.raises(BotTimeout):
                decision.result(timeout=30)
        assert time.perf_counter() - started < 10.0
        cancelled = pool.decide("mcts", 1, 60.0, state, seats[0], 3, key=("t", seats[0]))
        time.sleep(0.3)
        cancelled.cancel()
        with pytest.raises(BotCancelled):
            cancelled.result(timeout=20)
        # the pool goes on deciding after cancellations and timeouts
        again = pool.decide("random", 2, None, state, seats[-1], 3)
        assert again.result(timeout=30) in state.legal_actions(seats[-1])


# ---- the command line -----------------------------------------------------------------------


def test_the_real_cli_simulates_a_game_of_every_level() -> None:
    """``python -m game simulate --game keyflower --players 4 --bots easy,normal,hard,random``
    in a process of its own, with a short budget for the hard level."""
    command = [sys.executable, "-m", "game", "simulate", "--game", KF, "--players", "4",
               "--bots", "easy,normal,hard,random", "--games", "1", "--budget", "0.05",
               "--json"]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout.strip().splitlines()[-1])
    assert record["bots"] == ["easy", "normal", "hard", "random"]
    assert len(record["scores"]) == 4 and record["winners"]


@pytest.mark.parametrize(
    ("players", "bots"), [(2, "greedy,mcts"), (6, "easy,random,random,random,random,random")]
)
def test_simulate_seats_every_level(
    players: int, bots: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from game.cli import main

    code = main(
        ["simulate", "--game", KF, "--players", str(players), "--bots", bots, "--games", "1",
         "--budget", "0.02", "--json"]
    )  # fmt: skip
    assert code == 0
    record = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert len(record["scores"]) == players
