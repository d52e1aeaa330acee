"""The optional ``SEARCH`` hook of a game's evaluation module (``game/bots/knowledge.py``): the
hard level takes the game's search parameters, its budget among them; and the racing root stops at
its CPU ceiling or at the wall-clock safety net (``game/bots/mcts.py``, ``game/bots/budget.py``)."""

from __future__ import annotations

import dataclasses
import math
import time
from typing import Any

import pytest

from game.bots import MctsBot, hard_bot
from game.bots import knowledge as kn
from game.core.registry import get_game
from tests import testgame

testgame.register()


def test_a_game_may_tune_the_hard_level(monkeypatch: pytest.MonkeyPatch) -> None:
    """The game's ``SEARCH`` replaces the hard bot's parameters at its first search in that
    game; a bot without ``game_tuning`` keeps its own."""
    known = dataclasses.replace(
        kn.knowledge_for(testgame.GAME_ID),
        search=(("max_plans", 2), ("playout_plan_evals", 7)),
    )
    monkeypatch.setattr(kn, "_cache", {})
    monkeypatch.setattr(
        "game.bots.mcts.knowledge_for",
        lambda game_id: known if game_id == testgame.GAME_ID else kn.knowledge_for(game_id),
    )
    state = get_game(testgame.GAME_ID).new(3, {}, 4)
    seat = state.to_move()[0]
    tuned = hard_bot(1, budget=0.05)
    tuned.choose(state.determinize(seat, 1), seat)
    assert (tuned.max_plans, tuned.playout_plan_evals) == (2, 7)
    plain = MctsBot(1, budget=0.05, root_policy="race", playout_plan_evals=100)
    plain.choose(state.determinize(seat, 1), seat)
    assert (plain.max_plans, plain.playout_plan_evals) == (8, 100)


def test_keyflower_tunes_its_hard_level() -> None:
    search = dict(kn.knowledge_for("keyflower").search)
    assert (search["max_plans"], search["playout_plan_evals"]) == (6, 20)
    # Kingdom Builder plans its own next turn inside playouts (30 evaluations, the card it draws
    # in that world), the rivals on the cheap policy, their next turns too (every seat two
    # turns: nobody a turn ahead), then judges with the fitted evaluation, or plays the game's
    # last round out when a seat has built its last settlement by then
    kb = dict(kn.knowledge_for("kingdom-builder").search)
    assert (kb["rival_plan_evals"], kb["playout_plan_evals"], kb["horizon_extra"]) == (0, 30, 4)
    assert kb["finish_round"] is True
    # in the seat's last turn a finished playout is scored by its final margin, so the last turn
    # is raced on points, not on one won-or-lost playout each (docs/bots.md "The end scored by
    # its margin, in the last turn"); every other turn by who won
    assert kb["last_turn_end_margin"] is True and not kb.get("end_margin", False)
    # ... except with the full Nomads expansion, where the last round is not played out and no
    # wide planner adds last turns
    known = kn.knowledge_for("kingdom-builder")
    game = get_game("kingdom-builder")
    full = dict(known.search_for(game.new(4, {"nomads": "full"}, 1)))
    assert full == {**kb, "finish_round": False, "last_turn_wide_beam": 0}
    assert dict(known.search_for(game.new(4, {"nomads": "boards"}, 1))) == kb


def test_a_variant_of_a_game_takes_its_own_search_parameters(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A game's ``SEARCH_VARIANT`` names a position's variant and ``SEARCH_BY_VARIANT`` gives a
    variant its own parameters; one bot meeting both variants takes each one's parameters, the
    constructor's restored in between."""
    base_known = kn.knowledge_for(testgame.GAME_ID)
    known = dataclasses.replace(
        base_known,
        search=(("work", 500),),
        search_variant=lambda state: "three" if state.players == 3 else "other",
        search_variants=(("three", (("playout_plan_evals", 7), ("work", 900))),),
    )
    monkeypatch.setattr(
        "game.bots.mcts.knowledge_for",
        lambda game_id: known if game_id == testgame.GAME_ID else kn.knowledge_for(game_id),
    )
    three = get_game(testgame.GAME_ID).new(3, {}, 2)
    two = get_game(testgame.GAME_ID).new(2, {}, 2)
    assert dict(known.search_for(three)) == {"playout_plan_evals": 7, "work": 900}
    assert known.search_for(two) == known.search
    bot = hard_bot(3)
    defaults = bot.playout_plan_evals
    for state, want in ((three, (900, 7)), (two, (500, defaults)), (three, (900, 7))):
        seat = state.to_move()[0]
        bot.choose(state.determinize(seat, 1), seat)
        assert (bot.work, bot.playout_plan_evals) == want


def test_kingdom_builders_wide_last_turn_planner_is_the_base_games_alone() -> None:
    """Kingdom Builder's hard level races a wide last-turn planner's turns in the base game
    (and with the Nomads boards alone, the base game's rules), not with the full Nomads
    expansion (docs/bots.md "A wide last-turn planner beside it")."""
    known = kn.knowledge_for("kingdom-builder")
    game = get_game("kingdom-builder")
    for options, wide in (({}, 60), ({"nomads": "boards"}, 60), ({"nomads": "full"}, 0)):
        params = dict(known.search_for(game.new(4, options, 1)))
        assert params.get("last_turn_wide_beam", 0) == wide
        assert params["last_turn_end_margin"] is True and params["last_turn_plans"] == 4


def test_unknown_search_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown search parameters"):
        kn.search_parameters("some-game", {"budget": 9})


def test_the_win_chance_forms() -> None:
    """``margin`` judges each seat against its strongest rival alone; ``softmax`` is a
    Plackett-Luce chance of finishing first: the chances add up to one, and lowering any
    rival's value raises a seat's chance, not only lowering the leader's."""
    values = [10.0, 8.0, 7.5, 2.0]
    margin = kn.win_chances(values, 3.0, "margin")
    assert margin[0] == pytest.approx(1 / (1 + math.exp(-2 / 3)))
    assert margin[1] == pytest.approx(1 / (1 + math.exp(2 / 3)))
    soft = kn.win_chances(values, 3.0, "softmax")
    assert sum(soft) == pytest.approx(1.0)
    assert soft == sorted(soft, reverse=True)
    assert soft[0] == pytest.approx(1 / sum(math.exp((v - 10.0) / 3.0) for v in values))
    # the third seat's value drops: margin does not see it, softmax does
    lower = [10.0, 8.0, 4.0, 2.0]
    assert kn.win_chances(lower, 3.0, "margin")[0] == margin[0]
    assert kn.win_chances(lower, 3.0, "softmax")[0] > soft[0]
    # far apart values do not overflow
    assert kn.win_chances([1e6, 0.0], 1.0, "softmax") == pytest.approx([1.0, 0.0])
    with pytest.raises(ValueError, match="win-chance form"):
        kn.win_chances(values, 3.0, "vote")
    with pytest.raises(ValueError, match="win_chance"):
        kn.search_parameters("some-game", {"win_chance": "vote"})
    with pytest.raises(ValueError, match="win-chance form"):
        MctsBot(1, budget=0.05, win_chance="vote")


def test_the_scale_factor_multiplies_every_win_chance_scale() -> None:
    """``scale_factor`` (a search parameter) multiplies the win chance's scale: the fixed one
    and a position's own (Kingdom Builder's sharpening one); 1 leaves the hooks as they are,
    and anything but a positive number is refused."""
    from game.kingdom_builder.hard_level import hard_reward_scale

    known = kn.knowledge_for("kingdom-builder").for_hard()
    assert known.scaled(1.0) is known
    state = get_game("kingdom-builder").new(4, {}, 3)
    half = known.scaled(0.5)
    assert half.scale == pytest.approx(known.scale / 2)
    assert half.scale_for(state) == pytest.approx(hard_reward_scale(state) / 2)
    seat = state.to_move()[0]
    margin = kn.relative_value(known.evaluate_all(state), seat)
    assert half.rewards(state)[seat] == pytest.approx(
        1 / (1 + math.exp(-margin / (hard_reward_scale(state) / 2)))
    )
    plain = kn.knowledge_for(testgame.GAME_ID)
    assert plain.reward_scale is None and plain.scaled(3.0).scale == pytest.approx(3 * plain.scale)
    for bad in (0, -1.0, True, "2", float("nan")):
        with pytest.raises(ValueError, match="scale_factor"):
            kn.search_parameters("some-game", {"scale_factor": bad})
    with pytest.raises(ValueError, match="scale factor"):
        MctsBot(1, budget=0.05, scale_factor=0.0)


@pytest.mark.parametrize("params", [{"win_chance": "softmax"}, {"scale_factor": 0.5}])
def test_a_race_with_another_reward_chooses_a_legal_turn(params: dict[str, Any]) -> None:
    """The race with the softmax reward (its priors then from the planned turns' end
    positions) or a scale factor (reaching the rewards and the priors) plays a whole legal
    turn, the same one for the same seed."""
    state = get_game(testgame.GAME_ID).new(3, {}, 4)
    seat = state.to_move()[0]
    turns = []
    for _ in range(2):
        bot = MctsBot(5, budget=None, iterations=6, root_policy="race", **params)
        turns.append(bot.search(state.determinize(seat, 1), seat))
    assert turns[0] == turns[1]
    world = state.determinize(seat, 1)
    for action in turns[0]:
        assert action in world.legal_actions(seat)
        world.apply(seat, action)


def _burn(seconds: float) -> None:
    """Use ``seconds`` of this thread's CPU time."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def _race_with_slow_playouts(
    monkeypatch: pytest.MonkeyPatch, bot: MctsBot, slow: Any
) -> tuple[tuple[Any, ...], list[tuple[Any, ...]]]:
    state = get_game(testgame.GAME_ID).new(3, {}, 4)
    seat = state.to_move()[0]
    real_playout = MctsBot._playout
    real_add_plans = MctsBot._add_plans
    proposed: list[tuple[Any, ...]] = []

    def slow_playout(self: MctsBot, *args: Any, **kwargs: Any) -> None:
        slow()
        real_playout(self, *args, **kwargs)

    def recorded_add_plans(self: MctsBot, root: Any, *args: Any) -> None:
        real_add_plans(self, root, *args)
        proposed.extend(root.children)

    monkeypatch.setattr(MctsBot, "_playout", slow_playout)
    monkeypatch.setattr(MctsBot, "_add_plans", recorded_add_plans)
    plan = bot.search(state.determinize(seat, 1), seat)
    return plan, proposed


def test_the_race_stops_at_its_cpu_ceiling(monkeypatch: pytest.MonkeyPatch) -> None:
    """Playouts too dear for the CPU ceiling: the race begins no playout once the ceiling has
    passed, the unfinished round does not count, and the planner's best turn (the first of the
    root's turns) is played.  CPU time, not the wall clock: the thread's own CPU time bounds the
    search however busy the machine is (the wall-clock safety net is off here, so that a busy
    test machine cannot end the search first)."""
    bot = MctsBot(
        2, budget=0.2, iterations=1000, root_policy="race", plan_share=0.1, safety_net=False
    )
    started = time.thread_time()
    plan, proposed = _race_with_slow_playouts(monkeypatch, bot, lambda: _burn(0.15))
    cpu = time.thread_time() - started
    assert len(proposed) > 3, "the race needs several turns at the root"
    assert bot.last_iterations < len(proposed), "the first round was given up"
    assert bot.last_cut == "cpu"
    assert plan == proposed[0]
    assert cpu < 0.2 + 0.15 + 0.3  # the ceiling, one playout in flight, the planning


def test_the_wall_clock_safety_net_stops_a_thread_that_gets_no_cpu(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A thinking thread that hardly gets the CPU (here: playouts that wait) is stopped by the
    safety net, 3x its CPU ceiling of wall-clock time; without the net only the count stops it."""
    bot = MctsBot(2, budget=0.1, iterations=1000, root_policy="race", plan_share=0.1)
    started = time.perf_counter()
    plan, proposed = _race_with_slow_playouts(monkeypatch, bot, lambda: time.sleep(0.05))
    elapsed = time.perf_counter() - started
    assert bot.last_cut == "wall"
    assert plan in proposed
    assert 0.3 <= elapsed < 0.3 + 0.05 + 0.5
    patient = MctsBot(
        2, budget=0.1, iterations=12, root_policy="race", plan_share=0.1, safety_net=False
    )
    _race_with_slow_playouts(monkeypatch, patient, lambda: time.sleep(0.05))
    assert patient.last_cut is None
    assert patient.last_iterations >= 12


# ---- the easy level's temperature (EASY_TEMPERATURE) -----------------------------------------


def test_glen_more_sets_its_easy_temperature_and_kingdom_builder_keeps_the_default() -> None:
    assert kn.knowledge_for("glen-more").easy_temperature == 5.0
    assert kn.knowledge_for("kingdom-builder").easy_temperature is None


@pytest.mark.parametrize("value", [0, -1.0, "hot", True])
def test_a_bad_easy_temperature_is_refused(value: Any) -> None:
    with pytest.raises(ValueError, match="EASY_TEMPERATURE"):
        kn._easy_temperature("some-game", value)


def test_the_easy_level_picks_with_the_games_temperature(monkeypatch: pytest.MonkeyPatch) -> None:
    """The easy bot draws its turn with the game's ``EASY_TEMPERATURE``; a plain greedy bot
    with a temperature keeps its own."""
    from game.bots import make_bot
    from game.bots.greedy import GreedyBot

    seen: list[float] = []
    real_pick = GreedyBot._pick

    def recorded(self: GreedyBot, plans: Any, temperature: float) -> Any:
        seen.append(temperature)
        return real_pick(self, plans, temperature)

    monkeypatch.setattr(GreedyBot, "_pick", recorded)
    known = dataclasses.replace(kn.knowledge_for(testgame.GAME_ID), easy_temperature=7.5)
    monkeypatch.setattr(
        "game.bots.greedy.knowledge_for",
        lambda game_id: known if game_id == testgame.GAME_ID else kn.knowledge_for(game_id),
    )
    state = get_game(testgame.GAME_ID).new(3, {}, 4)
    seat = state.to_move()[0]
    make_bot("easy", 1).choose(state.determinize(seat, 1), seat)
    GreedyBot(1, temperature=2.0).choose(state.determinize(seat, 1), seat)
    assert seen == [7.5, 2.0]


def _kb_last_round(seed: int) -> Any:
    """A Kingdom Builder game played at random until a seat has built its last settlement
    (KB §8: the round is then finished, so the game is not over yet)."""
    from game.core.rng import Rng
    from game.kingdom_builder.evaluation import round_ending

    rng = Rng(seed)
    state = get_game("kingdom-builder").new(4, {}, seed)
    while not state.is_over():
        if round_ending(state):
            return state
        seat = state.to_move()[0]
        actions = state.legal_actions(seat)
        state.apply(seat, actions[rng.randbelow(len(actions))])
    return None


def test_finish_round_plays_the_last_round_out() -> None:
    """``finish_round`` with the game's ``round_ending`` hook: a playout that has reached its
    horizon in the game's last round plays on to the end (the real result judges it); without
    it the playout stops at the horizon."""
    knowledge = kn.knowledge_for("kingdom-builder")
    state = _kb_last_round(3)
    assert state is not None
    assert knowledge.round_ending is not None and knowledge.round_ending(state)
    rng_seed = 5
    from game.core.rng import Rng

    stopped = state.clone()
    MctsBot(1, work=100)._playout(stopped, 0, knowledge, 0, 0, Rng(rng_seed), False)
    assert not stopped.is_over() and stopped.turn_id() == state.turn_id()
    finished = state.clone()
    MctsBot(1, work=100, finish_round=True)._playout(
        finished, 0, knowledge, 0, 0, Rng(rng_seed), False
    )
    assert finished.is_over()


def test_finish_round_must_be_a_bool() -> None:
    with pytest.raises(ValueError, match="finish_round"):
        kn.search_parameters("kingdom-builder", {"finish_round": "yes"})
    assert kn.search_parameters("kingdom-builder", {"finish_round": True}) == (
        ("finish_round", True),
    )


def test_finish_plan_evals_plans_every_seats_last_turns(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``finish_plan_evals`` every seat's turn played past the horizon in the game's last
    round is planned by a turn planner of that many evaluations (not the cheap policy)."""
    from game.bots import mcts
    from game.core.rng import Rng
    from game.kingdom_builder.odds import moved_this_round

    knowledge = kn.knowledge_for("kingdom-builder")
    state = _kb_last_round(3)
    assert state is not None
    budgets: list[tuple[int, int]] = []
    real = mcts.TurnPlanner.plans

    def recorded(self: Any, world: Any, mover: int, *args: Any) -> Any:
        budgets.append((mover, self.max_evals))
        return real(self, world, mover, *args)

    monkeypatch.setattr(mcts.TurnPlanner, "plans", recorded)
    finished = state.clone()
    MctsBot(1, work=100, finish_round=True, finish_plan_evals=7)._playout(
        finished, 0, knowledge, 0, 0, Rng(5), False
    )
    assert finished.is_over()
    assert budgets and all(evals == 7 for _, evals in budgets)
    # the seats still to play in this round: the one to move and those after it (KB §8)
    assert {mover for mover, _ in budgets} == set(range(state.n)) - moved_this_round(state)


def test_finish_plan_evals_must_be_a_count() -> None:
    with pytest.raises(ValueError, match="finish_plan_evals"):
        kn.search_parameters("kingdom-builder", {"finish_plan_evals": "30"})
    with pytest.raises(ValueError, match="finish_plan_evals"):
        MctsBot(1, work=100, finish_plan_evals=-1)
    assert kn.search_parameters("kingdom-builder", {"finish_plan_evals": 30}) == (
        ("finish_plan_evals", 30),
    )


def test_round_horizon_ends_playouts_at_a_round_end() -> None:
    """``round_horizon`` with Kingdom Builder's ``round_turns_left``: from the turn start of the
    seat in position ``p`` of the round (KB §4, clockwise from the start player) a playout
    plays ``n - p`` turns to the round's end and one more round, so it ends with the start
    player to move (or the game over): every seat has played as many turns of the game."""
    from game.core.rng import Rng
    from game.kingdom_builder.evaluation import round_turns_left

    knowledge = kn.knowledge_for("kingdom-builder")
    assert knowledge.round_turns_left is round_turns_left
    rng = Rng(11)
    state = get_game("kingdom-builder").new(4, {}, 11)
    seen = set()
    for _ in range(40):  # turn starts of a random game
        position = (state.cur - state.start) % state.n
        assert round_turns_left(state) == state.n - position
        bot = MctsBot(1, work=100, round_horizon=True)
        horizon = bot._horizon(state, knowledge)
        assert horizon == 2 * state.n - position
        assert MctsBot(1, work=100, horizon_extra=4)._horizon(state, knowledge) == 8
        world = state.clone()
        bot._playout(world, state.cur, knowledge, horizon, 0, Rng(position), False)
        assert world.is_over() or world.cur == world.start
        seen.add(position)
        turn = state.turn_id()
        while state.turn_id() == turn:
            seat = state.to_move()[0]
            actions = state.legal_actions(seat)
            state.apply(seat, actions[rng.randbelow(len(actions))])
    assert seen == set(range(4))


def test_round_horizon_must_be_a_bool() -> None:
    with pytest.raises(ValueError, match="round_horizon"):
        kn.search_parameters("kingdom-builder", {"round_horizon": 1})


def test_end_margin_scores_a_finished_playout_by_its_margin() -> None:
    """With ``end_margin`` a finished game's reward is the win chance of its final scores (the
    margin over the best rival at the game's scale there), not 1 for the winner and 0 for the
    others; without it, the real result."""
    knowledge = kn.knowledge_for("kingdom-builder")
    state = _kb_last_round(3)
    assert state is not None
    from game.core.rng import Rng

    MctsBot(1, work=100, finish_round=True)._playout(state, 0, knowledge, 0, 0, Rng(5), False)
    assert state.is_over()
    result = knowledge.rewards(state)
    winners = state.winners()
    assert result == [1.0 / len(winners) if s in winners else 0.0 for s in range(4)]
    margin = knowledge.rewards(state, end_margin=True)
    values = knowledge.evaluate_all(state)
    assert margin == kn.win_chances(values, knowledge.scale_for(state))
    assert all(0.0 < r < 1.0 for r in margin)
    best = max(range(4), key=lambda s: values[s])
    assert margin[best] == max(margin) and margin[best] > 0.5
    with pytest.raises(ValueError, match="end_margin"):
        kn.search_parameters("kingdom-builder", {"end_margin": 1})


def _kb_turn_starts(seed: int) -> Any:
    """Every turn start of a 4-seat Kingdom Builder game played at random (a copy each)."""
    from game.core.rng import Rng

    rng = Rng(seed)
    state = get_game("kingdom-builder").new(4, {}, seed)
    turn = None
    while not state.is_over():
        if state.turn_id() != turn:
            turn = state.turn_id()
            yield state.clone()
        seat = state.to_move()[0]
        actions = state.legal_actions(seat)
        state.apply(seat, actions[rng.randbelow(len(actions))])


def _kb_either_side_of_the_last_turn(seed: int, each: int) -> list[tuple[Any, int, bool]]:
    """The first ``each`` turn starts of a random game (:func:`_kb_turn_starts`) that Kingdom
    Builder's ``last_turn`` hook calls the seat's last and the first ``each`` it does not (a seat
    with a legal action in each), as ``(state, seat, last)``, in the game's order."""
    from game.kingdom_builder.evaluation import last_turn

    found = []
    count = {False: 0, True: 0}
    for state in _kb_turn_starts(seed):
        seat = state.cur
        if not state.legal_actions(seat):
            continue
        final = last_turn(state, seat)
        if count[final] >= each:
            continue
        count[final] += 1
        found.append((state, seat, final))
    assert count == {False: each, True: each}
    return found


def test_kingdom_builder_knows_a_seats_last_turn() -> None:
    """Kingdom Builder's ``last_turn`` hook: a turn is surely the seat's last when the end is
    triggered (KB §8: a seat has built its last settlement, the round is finished), or when the
    seat to move or one after it in the round has at most the three settlements a turn must
    build (KB §4: they run out this round and trigger the end); never before."""
    from game.kingdom_builder.evaluation import last_turn
    from game.kingdom_builder.odds import moved_this_round

    assert kn.knowledge_for("kingdom-builder").last_turn is last_turn
    seen = set()
    for seed in (3, 4):
        for state in _kb_turn_starts(seed):
            seat = state.cur
            to_move = set(range(state.n)) - moved_this_round(state)
            expected = state.end_triggered or min(state.supply[s] for s in to_move) <= 3
            assert last_turn(state, seat) == expected
            seen.add(expected)
    assert seen == {False, True}


def test_last_turn_plans_add_the_turns_that_score_most_now() -> None:
    """``last_turn_plans``: in a seat's last turn the root also races the best turns by the
    points the rules count now (``live_totals``), at most that many more, each primed like the
    planner's; in any other turn the root is the same as without it."""
    from game.bots.budget import Meter
    from game.bots.greedy import TurnPlanner
    from game.bots.mcts import _Node
    from game.core.rng import Rng

    knowledge = kn.knowledge_for("kingdom-builder").for_hard()
    for state, seat, final in _kb_either_side_of_the_last_turn(5, 2):
        roots = []
        for extra in (0, 3):
            root = _Node(mover=-1)
            bot = MctsBot(7, work=100, last_turn_plans=extra)
            bot._add_plans(root, state.clone(), seat, knowledge, None, Meter.unlimited())
            roots.append(root)
        plain, more = roots
        assert set(plain.children) <= set(more.children)
        added = set(more.children) - set(plain.children)
        if not final:
            assert not added
        else:
            assert 0 < len(added) <= 3
            scored = dataclasses.replace(knowledge, evaluate_all=kn.live_totals)
            best = TurnPlanner(scored, beam=6, max_evals=1500).plans(state.clone(), seat, Rng(1))
            top = max(plan.value for plan in best)

            def now(plan: tuple[Any, ...], seat: int = seat, state: Any = state) -> float:
                after = state.clone()
                for action in plan:
                    after.apply(seat, action)
                return kn.relative_value(kn.live_totals(after), seat)

            assert max(now(plan) for plan in more.children) >= top, "the best turn now is raced"
            for plan in added:
                node = more.children[plan]
                assert node.visits == bot.prior_visits and 0.0 <= node.total <= node.visits


def test_last_turn_end_margin_scores_the_last_turns_playouts_by_their_margin(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``last_turn_end_margin``: in a turn the game's ``last_turn`` hook calls the seat's last,
    a finished playout (and a prior) is scored by the win chance of its margin, as with
    ``end_margin``; in any other turn by who won (docs/bots.md "The end scored by its margin, in
    the last turn")."""

    asked: list[bool] = []
    plain = kn.Knowledge.rewards

    def spy(self: Any, state: Any, form: str = "margin", end_margin: bool = False) -> Any:
        asked.append(end_margin)
        return plain(self, state, form, end_margin)

    monkeypatch.setattr(kn.Knowledge, "rewards", spy)
    for state, seat, final in _kb_either_side_of_the_last_turn(5, 1):
        asked.clear()
        bot = MctsBot(7, work=150, root_policy="race", last_turn_plans=2, last_turn_end_margin=True)
        bot.search(state.clone(), seat)
        assert asked and set(asked) == {final}
        asked.clear()
        MctsBot(7, work=150, root_policy="race", last_turn_plans=2).search(state.clone(), seat)
        assert asked and set(asked) == {False}, "without it, the result everywhere"
    with pytest.raises(ValueError, match="last_turn_end_margin"):
        kn.search_parameters("kingdom-builder", {"last_turn_end_margin": 1})
    with pytest.raises(ValueError, match="last_turn_end_margin"):
        MctsBot(1, work=100, last_turn_end_margin="yes")  # type: ignore[arg-type]


def test_last_turn_plans_must_be_a_count() -> None:
    for bad in ("4", -1, 1.5, True):
        with pytest.raises(ValueError, match="last_turn_plans"):
            kn.search_parameters("kingdom-builder", {"last_turn_plans": bad})
    with pytest.raises(ValueError, match="last_turn_plans"):
        MctsBot(1, work=100, last_turn_plans=-1)
    assert kn.search_parameters("kingdom-builder", {"last_turn_plans": 4}) == (
        ("last_turn_plans", 4),
    )


def test_the_last_turn_planner_takes_its_own_beam_evaluations_and_look(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``last_turn_beam`` and ``last_turn_evals`` set the live-points planner of a seat's last
    turn (0: the root planner's beam and evaluations); ``last_turn_look`` ``"midway"`` makes it
    look through the positions the game's ``midway`` hook names alone (``"any"``, the default:
    every one its judge values the same); ``last_turn_wide_beam`` adds a second one of that
    beam that looks through nothing (``last_turn_wide_evals``, else ``last_turn_evals``, else
    the root planner's evaluations); the root planner keeps its own."""
    from game.bots import root_turns
    from game.bots.budget import Meter
    from game.bots.mcts import _Node
    from game.kingdom_builder.evaluation import last_turn, midway

    made: list[tuple[int, int, Any, int]] = []
    real = root_turns.TurnPlanner

    def recording(knowledge: Any, beam: int, max_evals: int, **rest: Any) -> Any:
        made.append((beam, max_evals, rest.get("look_only"), rest.get("look_through", 2)))
        return real(knowledge, beam=beam, max_evals=max_evals, **rest)

    monkeypatch.setattr(root_turns, "TurnPlanner", recording)
    knowledge = kn.knowledge_for("kingdom-builder").for_hard()
    state = next(s for s in _kb_turn_starts(5) if last_turn(s, s.cur) and s.legal_actions(s.cur))
    for settings, expected in (
        ({}, [(3, 200, None, 2), (3, 200, None, 2)]),
        ({"last_turn_beam": 7, "last_turn_evals": 300}, [(3, 200, None, 2), (7, 300, None, 2)]),
        ({"last_turn_look": "midway"}, [(3, 200, None, 2), (3, 200, midway, 2)]),
        (
            {"last_turn_evals": 300, "last_turn_wide_beam": 20},
            [(3, 200, None, 2), (3, 300, None, 2), (20, 300, None, 0)],
        ),
        (
            {"last_turn_wide_beam": 20, "last_turn_wide_evals": 900},
            [(3, 200, None, 2), (3, 200, None, 2), (20, 900, None, 0)],
        ),
    ):
        made.clear()
        bot = MctsBot(7, work=100, plan_beam=3, plan_evals=200, last_turn_plans=2, **settings)
        bot._add_plans(
            _Node(mover=-1), state.clone(), state.cur, knowledge, None, Meter.unlimited()
        )
        assert made == expected


def test_the_wide_last_turn_planner_adds_its_best_turns(monkeypatch: pytest.MonkeyPatch) -> None:
    """``last_turn_wide_beam``: in a seat's last turn the root also races the best
    ``last_turn_plans`` turns of a wide planner that looks through nothing (by the points
    counted now) that it did not have yet, on top of every turn it had without it; in any
    other turn the root is the same."""
    from game.bots.budget import Meter
    from game.bots.greedy import TurnPlanner
    from game.bots.mcts import _Node

    found: list[list[tuple[Any, ...]]] = []
    real = TurnPlanner.plans

    def spy(self: TurnPlanner, *args: Any, **kwargs: Any) -> Any:
        plans = real(self, *args, **kwargs)
        if self.look_through == 0:
            found.append([plan.actions for plan in plans])
        return plans

    monkeypatch.setattr(TurnPlanner, "plans", spy)
    knowledge = kn.knowledge_for("kingdom-builder").for_hard()
    for state, seat, final in _kb_either_side_of_the_last_turn(6, 2):
        roots = []
        found.clear()
        for wide in (0, 30):
            root = _Node(mover=-1)
            bot = MctsBot(7, work=100, last_turn_plans=2, last_turn_wide_beam=wide)
            bot._add_plans(root, state.clone(), seat, knowledge, None, Meter.unlimited())
            roots.append(list(root.children))
        plain, more = roots
        assert more[: len(plain)] == plain
        if not final:
            assert plain == more and not found
            continue
        (wide_plans,) = found
        expected = [plan for plan in dict.fromkeys(wide_plans) if plan not in plain][:2]
        assert expected and more[len(plain) :] == expected


def test_kingdom_builder_knows_a_seat_midway_through_a_move() -> None:
    """Kingdom Builder's ``midway`` hook: a seat that has chosen a location tile is partway
    through its move until the tile's settlement is placed (KB §6.1: a tile's action is one
    move); no other seat is, and a seat at its turn's start is not."""
    from game.kingdom_builder.evaluation import midway

    assert kn.knowledge_for("kingdom-builder").midway is midway
    seen = 0
    for seed in (3, 4, 5):
        for state in _kb_turn_starts(seed):
            seat = state.cur
            assert not midway(state, seat)
            uses = [a for a in state.legal_actions(seat) if a[0] == "use"]
            for use in uses[:2]:
                after = state.clone()
                after.apply(seat, use)
                if after.pending is None:
                    continue  # a tile whose effect is immediate (Treasure) leaves nothing to do
                seen += 1
                assert midway(after, seat)
                assert not any(midway(after, other) for other in range(after.n) if other != seat)
                while after.pending is not None and after.cur == seat:
                    step = after.legal_actions(seat)[0]
                    after.apply(seat, step)
                # the move made, the seat is midway again only with an Outpost's build to come
                assert midway(after, seat) == (after.cur == seat and after.outpost > 0)
    assert seen >= 5


def test_a_planner_looks_through_only_what_look_only_names() -> None:
    """The turn planner's ``look_only``: it looks through a position its judge values the same
    only when ``look_only`` names it — naming none is the planner without look-through, naming
    all the plain planner (the same plans, the same evaluations)."""
    from game.bots.greedy import TurnPlanner
    from game.core.rng import Rng

    knowledge = kn.knowledge_for("kingdom-builder").for_hard()
    scored = dataclasses.replace(knowledge, evaluate_all=kn.live_totals)
    starts = [s for s in _kb_turn_starts(4) if s.legal_actions(s.cur)][8:11]
    differ = 0
    for state in starts:
        seat = state.cur
        found = {}
        for name, look, only in (
            ("none", 0, None),
            ("never", 2, lambda s, q: False),
            ("all", 2, None),
            ("always", 2, lambda s, q: True),
        ):
            planner = TurnPlanner(scored, beam=4, max_evals=3000, look_through=look, look_only=only)
            plans = planner.plans(state.clone(), seat, Rng(2))
            found[name] = ([(p.value, p.actions) for p in plans], planner.evals)
        assert found["never"] == found["none"]
        assert found["always"] == found["all"]
        differ += found["never"][1] != found["all"][1]
    assert differ, "looking through changes the search somewhere"


def test_last_turn_work_shrinks_the_race_in_the_last_turn_only() -> None:
    """``last_turn_work``: in a turn the game's ``last_turn`` hook calls the seat's last, the
    race stops at that share of its work (the last-turn planner's time is taken from it); in
    any other turn it runs to the whole count."""
    from game.kingdom_builder.evaluation import last_turn

    knowledge = kn.knowledge_for("kingdom-builder")
    starts = [s for s in _kb_turn_starts(5) if s.legal_actions(s.cur)]
    final = next(s for s in starts if last_turn(s, s.cur))
    early = next(s for s in starts[4:] if not last_turn(s, s.cur))
    work = {}
    for name, state in (("final", final), ("early", early)):
        for share in (1.0, 0.4):
            bot = MctsBot(
                3,
                budget=None,
                work=2000,
                root_policy="race",
                last_turn_plans=2,
                last_turn_work=share,
                knowledge=knowledge,
            )
            bot.search(state.clone(), state.cur)
            work[name, share] = bot.last_work
    assert work["early", 0.4] == work["early", 1.0] >= 2000
    assert work["final", 1.0] >= 2000
    assert 800 <= work["final", 0.4] < 2000


def test_the_last_turn_settings_are_checked() -> None:
    for bad in ("all", 0, True, None):
        with pytest.raises(ValueError, match="last_turn_look"):
            kn.search_parameters("kingdom-builder", {"last_turn_look": bad})
    with pytest.raises(ValueError, match="last_turn_look"):
        MctsBot(1, work=100, last_turn_look="sideways")
    with pytest.raises(ValueError, match="last_turn_wide_beam"):
        MctsBot(1, work=100, last_turn_wide_beam=-1)
    assert kn.search_parameters("kingdom-builder", {"last_turn_look": "midway"}) == (
        ("last_turn_look", "midway"),
    )
    for name in ("last_turn_beam", "last_turn_evals"):
        for bad in ("4", -1, 1.5, True):
            with pytest.raises(ValueError, match=name):
                kn.search_parameters("kingdom-builder", {name: bad})
    for bad in (0, 1.5, -0.2, True, "half"):
        with pytest.raises(ValueError, match="last_turn_work"):
            kn.search_parameters("kingdom-builder", {"last_turn_work": bad})
    with pytest.raises(ValueError, match="last_turn_work"):
        MctsBot(1, work=100, last_turn_work=0.0)
    with pytest.raises(ValueError, match="last_turn_beam"):
        MctsBot(1, work=100, last_turn_beam=-1)
    assert kn.search_parameters("kingdom-builder", {"last_turn_work": 0.5}) == (
        ("last_turn_work", 0.5),
    )
