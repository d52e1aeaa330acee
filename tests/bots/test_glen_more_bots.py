"""The bots in Glen More: the evaluation (``game/glen_more/evaluation.py``), its pruning and
transposition hooks, and every level playing legal, secret-blind, reproducible games (issue 16).

Rule references ``GM §n`` point to ``shared/rules/glen-more.md``.  Strength and speed are
measured in ``bench/bots.py``, not here; search bots run with iteration budgets so that the same
seed gives the same game.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.bots import GreedyBot, MctsBot, hint, make_bot
from game.bots.base import view_key
from game.bots.knowledge import knowledge_for
from game.core.match import Bot, play_match
from game.core.registry import get_game
from game.core.rng import Rng, derive_seed
from game.core.types import Action, Seat
from game.glen_more import evaluation as ev
from game.glen_more import grid as G
from game.glen_more.codes import ACTIVATE, MOVE, PAY, TAKE
from game.glen_more.state import GlenMoreState
from game.glen_more.tiles import TRACK_SLOTS
from tests.glen_more import helpers as H

GM = "glen-more"


def walk(seed: int, steps: int, players: int = 4, randomness: int = 3) -> GlenMoreState:
    """A position after ``steps`` actions from a new game: mostly the playout policy (sensible
    positions: full territories, cubes, chieftains), one action in ``randomness`` at random."""
    state: GlenMoreState = get_game(GM).new(players, {}, seed)  # type: ignore[assignment]
    rng = Rng(derive_seed(seed, "gm-bot-walk"))
    for _ in range(steps):
        if state.is_over():
            break
        seat = state.to_move()[0]
        actions = state.legal_actions(seat)
        if rng.randbelow(randomness) == 0:
            action = actions[rng.randbelow(len(actions))]
        else:
            action = ev.rollout_action(state, seat, actions, rng)
        state.apply(seat, action)
    return state


def set_aside(state: GlenMoreState, tile_id: str) -> None:
    """Move a tile from its stack to the removed pile, so that ``H.put`` takes it from there
    and the stacks (and so everyone's turns left) stay as they are."""
    k = H.kind(tile_id)
    pile = next(p for p in state.stacks if k in p)
    pile.remove(k)
    state.removed.append(k)


def reshuffled(state: GlenMoreState, seed: int) -> GlenMoreState:
    """The same position with every tile stack in another order (GM §2: the order is secret)."""
    twin = state.clone()
    rng = Rng(seed)
    for pile in twin.stacks:
        rng.shuffle(pile)
    return twin


# ---- the hooks ----------------------------------------------------------------------------


def test_the_bots_find_this_module() -> None:
    known = knowledge_for(GM)
    assert known.evaluate_all == ev.evaluate_all
    assert known.rollout_action == ev.rollout_action
    assert known.position_key is ev.position_key
    assert known.candidate_actions is ev.candidate_actions
    assert known.scale == ev.SCALE


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_finished_game_is_worth_its_final_score(players: int) -> None:
    state = walk(players, 10_000, players)
    assert state.is_over()
    assert ev.evaluate_all(state) == [float(s["total"]) for s in state.scores()]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 300), other=st.integers(0, 99))
def test_the_evaluation_reads_no_secret(seed: int, steps: int, other: int) -> None:
    """Positions that differ only in the order of the stacks are worth the same, for every
    seat, and so is any determinization of them."""
    state = walk(seed, steps, 2 + seed % 4)
    values = ev.evaluate_all(state)
    assert ev.evaluate_all(reshuffled(state, other)) == values
    assert ev.evaluate_all(state.determinize(0, other)) == values
    assert all(v == v and abs(v) < 1e4 for v in values)  # finite numbers


# ---- what the evaluation counts -------------------------------------------------------------


def test_turns_left_follow_the_track() -> None:
    """GM §3, §4.5, §10: the game ends when the rear of the pack has passed the S tiles still
    in the stacks; a figure x spaces past the empty space has S + 1 - x spaces to go, at
    ``figures + step_extra`` spaces a turn; the seat to move counts its current turn."""
    state = H.new(4, seed=3)
    w = ev.DEFAULT_WEIGHTS
    stacks = sum(len(p) for p in state.stacks)
    step = 4 + w.step_extra
    dist = ev.figure_distances(state)
    assert dist == [1, 2, 3, 4]
    left = ev.turns_left(state)
    for seat in range(4):
        assert left[seat] == pytest.approx((stacks + 1 - dist[seat]) / step + 0.5)
    assert left == sorted(left, reverse=True)
    # taking a tile further ahead gives up more turns
    seat = state.cur
    takes = [a for a in state.legal_actions(seat) if a[0] == "take"]
    after = []
    for action in takes:
        copy = state.clone()
        copy.apply(seat, action)
        after.append(((action[1] - state.figs[seat]) % TRACK_SLOTS, ev.turns_left(copy)[seat]))
    after.sort()
    assert [t for _d, t in after] == sorted((t for _d, t in after), reverse=True)
    assert after[-1][1] < after[0][1] < left[seat]


def test_a_whisky_counts_once_in_every_scoring_round_to_come() -> None:
    """GM §7.1: a barrel is compared in each of the three rounds; one more than the fewest is
    worth 1 VP a round (D20)."""
    state = H.new(4, seed=5)
    before = ev.evaluate_all(state)
    H.set_whisky(state, 1, 1)
    after = ev.evaluate_all(state)
    assert after[1] - before[1] == pytest.approx(3.0)
    assert [after[s] for s in (0, 2, 3)] == [before[s] for s in (0, 2, 3)]


def test_a_tile_more_costs_the_tile_penalty() -> None:
    """GM §7.2: 3 VP per tile more than the fewest, charged on the tiles each seat will have
    (its territory plus the turns it still expects)."""
    state = H.new(4, seed=5)
    left = ev.turns_left(state)
    assert min(range(4), key=lambda s: 1 + left[s]) == 3  # the last figure expects fewest
    set_aside(state, H.PLAIN_GRAIN)
    before = ev.evaluate_all(state)
    # a tile far from every clan member: it opens no cell and holds nothing
    H.put(state, 1, 6, 6, H.PLAIN_GRAIN)
    after = ev.evaluate_all(state)
    assert after[1] - before[1] == pytest.approx(-3.0)
    assert [after[s] for s in (0, 2, 3)] == [before[s] for s in (0, 2, 3)]


#: The evaluation without the next-placement term, to isolate the others in hand counts.
NO_POTENTIAL = ev.Evaluator(ev.Weights(potential=0.0))


def test_a_seat_that_cannot_place_loses_a_turn() -> None:
    """GM §4.2, §4.4: a tile needs a clan member on one of the 8 cells around it; with the only
    clan member shut in by tiles all round, no cell is open and the next turn brings no tile:
    the evaluation charges ``no_reach`` (besides the tile penalty of the 8 tiles)."""
    ring = {
        (-1, 0): "S2-17",  # river pasture
        (1, 0): "S3-08",  # river village
        (0, -1): "S2-08",  # road cattle pasture
        (0, 1): "S2-09",  # road forest
        (-1, -1): "S2-01",  # quarry
        (-1, 1): "S2-13",  # village
        (1, -1): "S3-04",  # grain field
        (1, 1): "S3-03",  # forest
    }
    state = H.new(4, seed=5)
    for tile in ring.values():
        set_aside(state, tile)
    before = NO_POTENTIAL.evaluate_all(state)
    for (row, col), tile in ring.items():
        H.put(state, 2, row, col, tile)
    assert not G.candidates(state.grid[2], state.clan[2])
    after = NO_POTENTIAL.evaluate_all(state)
    assert after[2] - before[2] == pytest.approx(-3.0 * len(ring) - ev.DEFAULT_WEIGHTS.no_reach)


def test_cubes_are_worth_nearly_their_price_at_the_market() -> None:
    """GM §6: a cube can be sold for the coins of the highest filled space, so it is worth at
    least ``sell_share`` of them; with an empty row it has its use value."""
    w = ev.DEFAULT_WEIGHTS
    state = H.new(4, seed=5)
    H.put(state, 1, 0, -1, H.ROAD_FOREST, cubes={"wood": 1})  # the same stacks before and after
    low = NO_POTENTIAL.evaluate_all(state)
    H.set_market(state, {"wood": 3})
    high = NO_POTENTIAL.evaluate_all(state)
    assert high[1] - low[1] == pytest.approx(w.sell_share * 3 - w.cube_use)
    assert [high[s] for s in (0, 2, 3)] == [low[s] for s in (0, 2, 3)]


def test_the_taken_tile_counts_as_placed() -> None:
    """GM §4.1–§4.3: between taking and placing, the tile's card already counts among the
    special locations (GM §7.1) and its tile in the projected tile penalty."""
    state = H.new(4, seed=7)
    H.offer(state, (state.empty - 1) % TRACK_SLOTS, "S1-01")  # Loch Lochy: free, a card
    seat = state.cur
    slot = H.slot_of(state, "S1-01")
    state.apply(seat, ("take", slot))
    counts = ev.category_counts(state)
    assert counts["specials"][seat] == 1
    assert all(counts["specials"][s] == 0 for s in range(4) if s != seat)


# ---- pruning and transpositions -------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 300))
def test_candidates_keep_every_kind_of_choice(seed: int, steps: int) -> None:
    """The candidates are legal and never empty; every action other than a sale or a payment
    from a tile is kept; each resource kind that can be paid from a tile keeps one payment;
    sales are kept (one per kind) only while paying, activating or moving (GM §6)."""
    state = walk(seed, steps, 2 + seed % 4)
    if state.is_over():
        return
    seat = state.cur
    legal = state.legal_actions(seat)
    chosen = ev.candidate_actions(state, seat, legal)
    assert chosen and set(chosen) <= set(legal)
    assert [a for a in legal if a[0] not in ("sell", "pay")] == [
        a for a in chosen if a[0] not in ("sell", "pay")
    ]
    pays = [a for a in chosen if a[0] == "pay"]
    assert sorted(a[3] for a in pays) == sorted({a[3] for a in legal if a[0] == "pay"})
    sales = [a for a in chosen if a[0] == "sell"]
    if state.phase in (PAY, ACTIVATE, MOVE):
        assert sorted(a[3] for a in sales) == sorted({a[3] for a in legal if a[0] == "sell"})
    else:
        assert not sales or all(a[0] == "sell" for a in legal)


def _activation_pair(state: GlenMoreState) -> tuple[Action, Action] | None:
    seat = state.cur
    acts = [a for a in state.legal_actions(seat) if a[0] == "activate"]
    placed = ("activate", *G.rc(state.first)) if state.first >= 0 else None
    others = [a for a in acts if a != placed]
    return (others[0], others[1]) if len(others) >= 2 else None


def test_position_key_merges_activations_in_another_order() -> None:
    """Two activations played in either order reach the same key, with the same legal actions
    and the same value (GM §4.3: the order of the neighbours is free)."""
    found = 0
    for seed in range(60):
        state = walk(seed, 400, 4)
        # play on until an activation step offers two neighbours (the placed tile done)
        rng = Rng(seed)
        for _ in range(200):
            if state.is_over():
                break
            seat = state.cur
            if state.phase == ACTIVATE and state.first < 0 and _activation_pair(state):
                break
            actions = state.legal_actions(seat)
            state.apply(seat, ev.rollout_action(state, seat, actions, rng))
        if state.is_over() or state.phase != ACTIVATE:
            continue
        pair = _activation_pair(state)
        if pair is None:
            continue
        a, b = pair
        seat = state.cur
        one, two = state.clone(), state.clone()
        if one.phase != ACTIVATE:
            continue
        one.apply(seat, a)
        if one.phase != ACTIVATE or b not in one.legal_actions(seat):
            continue
        one.apply(seat, b)
        two.apply(seat, b)
        if two.phase != ACTIVATE or a not in two.legal_actions(seat):
            continue
        two.apply(seat, a)
        if one.phase != ACTIVATE or two.phase != ACTIVATE:
            continue
        assert ev.position_key(one, seat) == ev.position_key(two, seat)
        assert sorted(one.legal_actions(seat)) == sorted(two.legal_actions(seat))
        assert ev.evaluate_all(one) == ev.evaluate_all(two)
        only_a = state.clone()
        only_a.apply(seat, a)
        assert ev.position_key(only_a, seat) != ev.position_key(one, seat)
        found += 1
        if found >= 5:
            break
    assert found >= 3


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 300), pick=st.integers(0, 999))
def test_equal_keys_mean_equal_futures(seed: int, steps: int, pick: int) -> None:
    """Two different actions of the seat to move that reach the same key leave the same legal
    actions and the same value (the contract's transposition convention)."""
    state = walk(seed, steps, 2 + seed % 4)
    if state.is_over():
        return
    seat = state.cur
    children: dict[object, GlenMoreState] = {}
    for action in state.legal_actions(seat):
        child = state.clone()
        child.apply(seat, action)
        if child.is_over() or child.cur != seat:
            continue
        key = ev.position_key(child, seat)
        if key in children:
            twin = children[key]
            assert sorted(twin.legal_actions(seat)) == sorted(child.legal_actions(seat))
            assert ev.evaluate_all(twin) == ev.evaluate_all(child)
        else:
            children[key] = child


# ---- the playout policy ---------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 300), r=st.integers(0, 999))
def test_the_playout_policy_is_legal_and_sells_only_when_it_must(
    seed: int, steps: int, r: int
) -> None:
    state = walk(seed, steps, 2 + seed % 4)
    if state.is_over():
        return
    seat = state.cur
    legal = state.legal_actions(seat)
    action = ev.rollout_action(state, seat, legal, Rng(r))
    assert action in legal
    if action[0] == "sell":
        assert all(a[0] == "sell" for a in legal)


def _margin_after(state: GlenMoreState, seat: Seat, action: Action) -> float:
    """``seat``'s margin over its strongest rival after ``action``, by the plain evaluation."""
    child = state.clone()
    child.apply(seat, action)
    values = ev.evaluate_all(child)
    return values[seat] - max(v for s, v in enumerate(values) if s != seat)


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_in_playouts_a_seat_takes_the_tile_a_greedy_player_would(seed: int) -> None:
    """The playout policy's tile (GM §4.1) is the one with the best margin over the strongest
    rival one action ahead by the plain evaluation (how the greedy bots choose), not one of the
    nearest at random; the rest of the turn is the cheap policy's."""
    checked = 0
    for steps in range(0, 240, 7):
        state = walk(seed, steps)
        if state.is_over() or state.phase != TAKE:
            continue
        seat = state.cur
        legal = state.legal_actions(seat)
        takes = [a for a in legal if a[0] == "take"]
        if len(takes) < 2:
            continue

        chosen = ev.rollout_action(state, seat, legal, Rng(1))
        best = max(_margin_after(state, seat, a) for a in takes)
        assert chosen in takes and _margin_after(state, seat, chosen) == best
        checked += 1
    assert checked >= 3


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
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 400), bot_seed=st.integers(0, 99))
def test_every_level_chooses_legal_actions_in_reachable_positions(
    seed: int, steps: int, bot_seed: int
) -> None:
    state = walk(seed, steps, 2 + seed % 4)
    if state.is_over():
        return
    seat = state.cur
    legal = state.legal_actions(seat)
    for name, maker in LEVELS.items():
        action = maker(bot_seed).choose(state.determinize(seat, bot_seed), seat)
        assert action in legal, f"{name} chose {action!r}"


@pytest.mark.parametrize("name", sorted(PRODUCT))
def test_the_product_levels_choose_legal_actions(name: str) -> None:
    """Every level as the lobby and the CLI make it (time budgets)."""
    for seed in range(3):
        state = walk(seed, 40 + 60 * seed, 2 + seed)
        seat = state.cur
        bot = PRODUCT[name](seed)
        assert bot.choose(state.determinize(seat, seed), seat) in state.legal_actions(seat)


@pytest.mark.parametrize("name", ["easy", "normal", "greedy", "mcts", "hard"])
def test_decisions_ignore_the_order_of_the_stacks(name: str) -> None:
    """Twin positions differing only in the stacks' order get the same choice (GM §2)."""
    for seed in range(3):
        state = walk(seed, 30 + 45 * seed, 4)
        seat = state.cur
        twin = reshuffled(state, seed + 100)
        assert twin.to_dict() != state.to_dict()
        assert view_key(twin, seat) == view_key(state, seat)
        first = LEVELS[name](seed).choose(state, seat)
        second = LEVELS[name](seed).choose(twin, seat)
        assert first == second, f"{name}, seed {seed}"


def test_hints_work_and_ignore_the_stacks() -> None:
    for seed in range(3):
        state = walk(seed, 25 + 50 * seed, 3)
        seat = state.cur
        action = hint(state, seat, seed)
        assert action in state.legal_actions(seat)
        assert hint(reshuffled(state, 9), seat, seed) == action


def test_same_seed_same_glen_more_game() -> None:
    """A whole 4-player game between greedy, easy, mcts and hard (iteration budgets, no time
    limits), played twice from the same seeds, is the same game."""

    def play() -> tuple[list[tuple[Seat, Action]], str]:
        names = ["greedy", "easy", "mcts", "hard"]
        bots = [LEVELS[n](derive_seed(11, s)) for s, n in enumerate(names)]
        result = play_match(GM, 4, 11, [b.choose for b in bots])
        return result.replay.actions, result.state.state_hash()

    assert play() == play()


def test_greedy_outplays_random_bots() -> None:
    """A smoke test of the evaluation's sense (strength is measured in bench/bots.py): over
    four 4-player games with the greedy seat rotated, greedy scores more than every random
    bot in each."""
    for seed in range(4):
        bots: list[Bot] = [make_bot("random", derive_seed(seed, s)) for s in range(4)]
        bots[seed % 4] = GreedyBot(seed, cpu_budget=None)
        result = play_match(GM, 4, seed, [b.choose for b in bots])
        totals = [row["total"] for row in result.scores]
        assert totals[seed % 4] == max(totals) and totals.count(max(totals)) == 1


def test_the_real_cli_simulates_a_game_of_every_level() -> None:
    """``python -m game simulate --game glen-more --players 4 --bots easy,normal,hard,random``
    in a process of its own, with a short budget for the hard level."""
    command = [sys.executable, "-m", "game", "simulate", "--game", GM, "--players", "4",
               "--bots", "easy,normal,hard,random", "--games", "1", "--budget", "0.05",
               "--json"]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout.strip().splitlines()[-1])
    assert record["bots"] == ["easy", "normal", "hard", "random"]
    assert len(record["scores"]) == 4 and record["winners"]


@pytest.mark.parametrize(
    ("players", "bots"), [(2, "greedy,mcts"), (5, "normal"), (3, "easy,mcts,random")]
)
def test_simulate_seats_every_level(
    players: int, bots: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``python -m game simulate --game glen-more --bots ...`` plays whole games."""
    from game.cli import main

    code = main(
        [
            "simulate",
            "--game",
            GM,
            "--players",
            str(players),
            "--bots",
            bots,
            "--games",
            "1",
            "--budget",
            "0.02",
            "--json",
        ]
    )
    assert code == 0
    record = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    names = bots.split(",")
    assert record["bots"] == (names if len(names) == players else names * players)
    assert len(record["scores"]) == players
