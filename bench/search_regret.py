"""How well the hard level's race picks among its candidate turns, by its own playout model.

Strength runs (:mod:`bench.bots`) need hundreds of games to tell two search settings apart; this
measures one part of the search far more cheaply: *allocation* — how the race spends its
playouts among the candidate turns.  It

1. collects positions: turn starts of seeded 4-player games of greedy bots (what a seat sees:
   the determinized state its bot was given), every ``--every``-th turn start;
2. finds each position's *oracle* value of every candidate turn the hard level proposes (its
   planner's turns, ``max_plans`` 12): the mean reward of ``--oracle-rounds`` playouts of the
   hard level's own model (the same worlds for every turn: common random numbers);
3. runs the hard level's search (``--search`` JSON replaces the game's ``SEARCH``, as in
   :mod:`bench.bots`) from each position with ``--repeats`` seeds and reports the mean *regret*
   — the oracle value of the best turn minus the oracle value of the turn chosen — and how
   often the oracle's best turn was chosen.  A chosen turn the oracle set lacks is judged with
   the same oracle worlds.

Regret is in win-chance units of the hard level's reward (0..1).  It says nothing of the model
itself (the evaluation, the playout policy): settings that change the model (playout planners,
horizon) are not comparable here, only those that change how playouts are spent (``max_plans``,
``reject_every``, ``prior_visits``, ``plan_per_first``, ``work``)::

    python -m bench.search_regret --game kingdom-builder --positions 40 --out /tmp/kb_pos.json
    python -m bench.search_regret --positions-file /tmp/kb_pos.json --search '{"max_plans": 5}'

``--coverage`` asks the other question — whether the candidates are the right ones: at each
position it judges the level's candidate turns and those of a wider planner (``--wide`` JSON,
default ``{"max_plans": 30, "plan_beam": 16, "plan_evals": 6000}``) with the same model, picks
each set's best by one set of oracle worlds and scores the pick on a second, independent set
(so the larger set is not favoured by its luck), and reports the mean gain of the wider set::

    python -m bench.search_regret --coverage --positions 30 --oracle-rounds 60

Counts, not clocks: the figures are the same at any load (CPU time is reported beside them).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from bench.bots import bench_bot
from game.bots import MctsBot, make_bot
from game.bots.knowledge import knowledge_for
from game.core.match import play_match
from game.core.registry import get_game
from game.core.rng import Rng, derive_seed
from game.core.types import Action

PLAYERS = 4
ORACLE_PLANS = 12


def collect(game_id: str, count: int, every: int, options: dict[str, Any] | None) -> list[Any]:
    """``count`` turn-start positions (seat, state dict) from greedy games, seeds 1000, 1001..."""
    positions: list[Any] = []
    seed = 1000
    while len(positions) < count:
        _collect_game(game_id, seed, count, every, options, positions)
        seed += 1
    return positions


def _collect_game(
    game_id: str,
    seed: int,
    count: int,
    every: int,
    options: dict[str, Any] | None,
    positions: list[Any],
) -> None:
    """Play one greedy game, adding every ``every``-th turn start to ``positions``."""
    bots = [
        make_bot("greedy", derive_seed(seed, "regret", s), safety_net=False) for s in range(PLAYERS)
    ]
    turns: list[int] = []

    def agent(state: Any, seat: int) -> Any:
        turn = state.turn_id()
        if not turns or turns[-1] != turn:
            turns.append(turn)
            if len(turns) % every == 0 and len(positions) < count:
                positions.append({"seat": seat, "state": state.to_dict()})
        return bots[seat].choose(state, seat)

    play_match(game_id, PLAYERS, seed, [agent] * PLAYERS, options)


def hard_searcher(seed: int, search: dict[str, Any] | None) -> MctsBot:
    bot = bench_bot("hard", seed, None, None, search)
    assert isinstance(bot, MctsBot)
    return bot


def candidates(state: Any, seat: int) -> list[tuple[Action, ...]]:
    """The hard level's planner's turns for ``state`` (up to :data:`ORACLE_PLANS`)."""
    bot = hard_searcher(derive_seed(0, "oracle"), {"max_plans": ORACLE_PLANS})
    return bot.candidate_turns(state, seat)


class Oracle:
    """Mean playout reward of a turn over fixed worlds (the same worlds for every turn)."""

    def __init__(self, game_id: str, state: Any, seat: int, rounds: int) -> None:
        self.state = state
        self.seat = seat
        self.bot = hard_searcher(derive_seed(1, "oracle"), None)
        knowledge = knowledge_for(game_id)
        self.bot._tune(knowledge, state)
        self.knowledge = knowledge.for_hard()
        self.horizon = state.players + self.bot.horizon_extra
        seeds = Rng(derive_seed(2, "oracle-worlds"))
        self.seeds = [seeds.next64() for _ in range(rounds)]
        self.values: dict[tuple[Action, ...], float] = {}

    def value(self, plan: tuple[Action, ...]) -> float:
        if plan not in self.values:
            total = 0.0
            for seed in self.seeds:
                reward, _ = self.bot.race_playout(
                    self.state, self.seat, plan, seed, self.knowledge, self.horizon
                )
                total += reward
            self.values[plan] = total / len(self.seeds)
        return self.values[plan]


def build_oracles(
    game_id: str, positions: list[Any], rounds: int, done: Any = None
) -> list[dict[str, Any]]:
    """The oracle of each position (``done(oracles)`` is called after each, to save them)."""
    game = get_game(game_id)
    out: list[dict[str, Any]] = []
    for i, pos in enumerate(positions):
        state = game.from_dict(pos["state"])
        oracle = Oracle(game_id, state, pos["seat"], rounds)
        plans = candidates(state, pos["seat"])
        values = [oracle.value(p) for p in plans]
        out.append({"plans": [[list(a) for a in p] for p in plans], "values": values})
        print(
            f"oracle {i + 1}/{len(positions)}: {len(plans)} turns, "
            f"best {max(values):.3f} spread {max(values) - min(values):.3f}",
            file=sys.stderr,
        )
        if done is not None:
            done(out)
    return out


def _plan_key(plan: Any) -> tuple[Any, ...]:
    return tuple(tuple(_freeze(x) for x in a) if isinstance(a, list) else a for a in plan)


def _freeze(x: Any) -> Any:
    if isinstance(x, list):
        return tuple(_freeze(y) for y in x)
    return x


def regret(
    game_id: str,
    positions: list[Any],
    oracles: list[dict[str, Any]],
    search: dict[str, Any] | None,
    repeats: int,
    rounds: int,
) -> dict[str, float]:
    game = get_game(game_id)
    regrets: list[float] = []
    hits = 0
    cpu: list[float] = []
    for i, (pos, orc) in enumerate(zip(positions, oracles, strict=True)):
        state = game.from_dict(pos["state"])
        seat = pos["seat"]
        known = {_plan_key(p): v for p, v in zip(orc["plans"], orc["values"], strict=True)}
        best = max(known.values())
        oracle: Oracle | None = None
        for r in range(repeats):
            bot = hard_searcher(derive_seed(100 + r, "regret", i), search)
            c0 = time.thread_time()
            plan = bot.search(state.clone(), seat)
            cpu.append(time.thread_time() - c0)
            key = _plan_key([list(a) for a in plan])
            if key in known:
                value = known[key]
            else:
                if oracle is None:
                    oracle = Oracle(game_id, state, seat, rounds)
                value = oracle.value(plan)
            regrets.append(max(0.0, best - value))
            hits += value >= best
    return {
        "regret_mean": statistics.fmean(regrets),
        "regret_se": statistics.stdev(regrets) / len(regrets) ** 0.5 if len(regrets) > 1 else 0.0,
        "best_chosen": hits / len(regrets),
        "decisions": float(len(regrets)),
        "cpu_s_mean": statistics.fmean(cpu),
    }


def coverage(
    game_id: str, positions: list[Any], rounds: int, wide: dict[str, Any]
) -> dict[str, float]:
    """Whether a wider planner (``wide`` search parameters) proposes turns the hard level's
    model prefers to the level's own candidates: the mean oracle gain of the wider set's best
    over the level's best, each chosen on one set of ``rounds`` worlds and scored on another."""
    game = get_game(game_id)
    gains: list[float] = []
    found = 0
    for i, pos in enumerate(positions):
        state = game.from_dict(pos["state"])
        seat = pos["seat"]
        level = hard_searcher(derive_seed(0, "oracle"), None).candidate_turns(state, seat)
        wider = hard_searcher(derive_seed(0, "oracle"), wide).candidate_turns(state, seat)
        choose = Oracle(game_id, state, seat, rounds)
        score = Oracle(game_id, state, seat, rounds)
        score.seeds = [s ^ 0x5DEECE66D for s in score.seeds]  # independent worlds

        def best(plans: list[tuple[Action, ...]], judge: Oracle = choose) -> tuple[Action, ...]:
            return max(plans, key=judge.value)

        pick = best(wider)
        found += pick not in set(level)
        gains.append(score.value(pick) - score.value(best(level)))
        print(
            f"coverage {i + 1}/{len(positions)}: {len(level)} turns of the level, "
            f"{len(wider)} wider ({len(set(wider) - set(level))} new), gain {gains[-1]:+.4f}",
            file=sys.stderr,
        )
    return {
        "wide_gain_mean": statistics.fmean(gains),
        "wide_gain_se": statistics.stdev(gains) / len(gains) ** 0.5 if len(gains) > 1 else 0.0,
        "wide_best_new": found / len(gains),
        "positions": float(len(gains)),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="kingdom-builder")
    parser.add_argument("--options", default=None, help="game options (JSON)")
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--every", type=int, default=7)
    parser.add_argument("--oracle-rounds", type=int, default=150)
    parser.add_argument("--out", help="write positions and oracle values to this file")
    parser.add_argument("--positions-file", help="read positions and oracle values from here")
    parser.add_argument("--search", default=None, help="search parameters (JSON)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--coverage",
        action="store_true",
        help="judge a wider planner's candidates against the level's instead of the search",
    )
    parser.add_argument(
        "--wide",
        default='{"max_plans": 30, "plan_beam": 16, "plan_evals": 6000}',
        help="--coverage: the wider planner's search parameters (JSON)",
    )
    args = parser.parse_args(argv)
    if args.coverage:
        options = json.loads(args.options) if args.options else None
        positions = collect(args.game, args.positions, args.every, options)
        wide = json.loads(args.wide)
        figures = coverage(args.game, positions, args.oracle_rounds, wide)
        print(json.dumps({"wide": wide, "options": options, **figures}, indent=1))
        return 0
    if args.positions_file:
        with open(args.positions_file) as f:
            data = json.load(f)
    else:
        options = json.loads(args.options) if args.options else None
        positions = collect(args.game, args.positions, args.every, options)
        data = {"game": args.game, "options": options, "rounds": args.oracle_rounds}

        def save(oracles: list[dict[str, Any]]) -> None:
            # the positions judged so far, so a long build can be stopped and still used
            data["positions"] = positions[: len(oracles)]
            data["oracles"] = oracles
            if args.out:
                with open(args.out, "w") as f:
                    json.dump(data, f)

        save(build_oracles(args.game, positions, args.oracle_rounds, save))
    search = json.loads(args.search) if args.search else None
    figures = regret(
        data["game"], data["positions"], data["oracles"], search, args.repeats, data["rounds"]
    )
    print(json.dumps({"search": search, **figures}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
