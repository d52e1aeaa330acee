"""Would more features help the hard level's Kingdom Builder evaluation? (issue 23)

The fitted evaluation (``game/kingdom_builder/hard_level.py``) weighs its features (``FEATURES``) of
each seat per game stage.  This probe adds candidate features that those do not say directly
and measures how much better the fit then predicts the final score differences of the
committed self-play games, by the same ridge regression as ``bench/fit_kingdom_builder.py``
(four stages, penalty 0.05 towards the plain sum, a new feature's prior weight 0), fitted on
one half of the games (split by seed) and scored on the other, both ways round:

* ``tiles_next``: location hexes with a tile left that the seat has not taken from, beside an
  empty buildable hex touching its settlements (a tile it can take next turn, KB §6);
* ``tiles_soon``: the same one hex further out (two turns away);
* ``castles_next``: castles its settlements do not touch yet, beside such a hex (KB §9);
* ``areas``: how many separate groups its settlements form (more places to grow from);
* ``free_pot``, ``free_best``, ``free_odds``: for each terrain the seat has no empty hex of
  beside its settlements — where its card lets it build anywhere on that terrain (KB §5) and
  the evaluation's ``potential`` sees nothing — the gains (``hex_gains``) of that terrain's
  best three empty hexes on the whole board, of its best one, and the chance of such a card,
  each weighted by the next card's odds and summed over those terrains (0 with an empty supply).
* ``score*potential``, ``potential*potential``, ``score*score``: products of two of the fitted
  evaluation's own features, divided by 10 (a curved value from the same features; the three
  together are printed as "the products").

With ``--tile-kinds`` it probes instead the held tiles split by kind: ``loc:KIND``, the worth
the evaluation gives the location tiles of that kind a seat holds (KB §6–§7; the twelve kinds of
``Weights.tile_per_turn``), and ``nom:KIND``, the worth of its nomad tiles of that kind still to
be used (the five of ``Weights.nomad_tile``) — the parts of the ``tiles`` and ``nomad_tiles``
features, so the fit can weigh each kind on its own; it also prints, per stage, the
multipliers of the features and all the kinds fitted on every game of the set.

Counts only: the same output on any machine::

    python -m bench.kb_feature_probe
    python -m bench.kb_feature_probe --tile-kinds
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from bench.fit_kingdom_builder import PRIOR, replay_of
from bench.fitting import Sample, design, mse, read_games, ridge
from game.kingdom_builder import nomads as nm
from game.kingdom_builder.board import BUILDABLE, NBRS, WATER
from game.kingdom_builder.codes import USED
from game.kingdom_builder.evaluation import DEFAULT_WEIGHTS, FEATURES, Evaluator, stage_of
from game.kingdom_builder.hex_value import hex_gains
from game.kingdom_builder.odds import terrain_odds, turns_left
from game.kingdom_builder.state import KingdomBuilderState
from game.kingdom_builder.weights import nomad_value

DATA = (
    Path("bench/data/kb-selfplay.jsonl.gz"),
    Path("bench/data/kb-selfplay-fitted.jsonl.gz"),
)
#: The feature pairs whose products (the last columns of :data:`EXTRA`) the probe tries.
PRODUCTS = (("score", "potential"), ("potential", "potential"), ("score", "score"))
EXTRA: tuple[str, ...] = (
    "tiles_next",
    "tiles_soon",
    "castles_next",
    "areas",
    "free_pot",
    "free_best",
    "free_odds",
    *(f"{a}*{b}" for a, b in PRODUCTS),
)
#: The ``--tile-kinds`` columns: the held location tiles' worth per kind, then the nomad tiles'.
TILE_KINDS: tuple[str, ...] = (
    *(f"loc:{kind}" for kind in DEFAULT_WEIGHTS.tile_per_turn),
    *(f"nom:{kind}" for kind in DEFAULT_WEIGHTS.nomad_tile),
)
STAGES = 4
PENALTY = 0.05

#: ``(seed, stage, full Nomads, features per seat, final totals)``.
Row = tuple[int, int, bool, list[tuple[float, ...]], list[float]]


def extra_features(st: KingdomBuilderState, s: int) -> tuple[float, ...]:
    """Seat ``s``'s :data:`EXTRA` features in ``st``."""
    board = st.board
    front = [h for h in st.front[s] if board.buildable[h] and st.owner[h] < 0]

    def open_tiles(hexes: Sequence[int]) -> set[int]:
        return {
            loc
            for h in hexes
            for loc in board.loc_adj[h]
            if st.left.get(loc, 0) > 0 and loc not in st.taken[s]
        }

    near = open_tiles(front)
    ring = [n for h in front for n in NBRS[h] if board.buildable[n] and st.owner[n] < 0]
    soon = open_tiles(ring) - near
    homes = st.homes[s]
    touched = {n for h in homes for n in NBRS[h] if n in board.castle_set}
    castles = {n for h in front for n in NBRS[h] if n in board.castle_set} - touched
    seen: set[int] = set()
    areas = 0
    for h in homes:
        if h in seen:
            continue
        areas += 1
        stack = [h]
        seen.add(h)
        while stack:
            for n in NBRS[stack.pop()]:
                if n in homes and n not in seen:
                    seen.add(n)
                    stack.append(n)
    return (
        float(len(near)),
        float(len(soon)),
        float(len(castles)),
        float(areas),
        *free_build(st, s),
    )


def tile_kind_features(st: KingdomBuilderState, s: int) -> tuple[float, ...]:
    """Seat ``s``'s :data:`TILE_KINDS` in ``st``: each held location tile's worth (as the
    evaluation's ``tiles`` counts it: its kind's points per turn left, at least the floor) summed
    by kind, then each nomad tile's still to be used (as ``nomad_tiles`` counts it) by kind."""
    w = DEFAULT_WEIGHTS
    kinds = st.board.location_type
    loc = dict.fromkeys(w.tile_per_turn, 0.0)
    nomad = dict.fromkeys(w.nomad_tile, 0.0)
    left = turns_left(st)
    for held in st.tiles[s]:
        kind = kinds[held]
        loc[kind] += max(w.tile_floor, w.tile_per_turn[kind] * left)
    for tile, use in st.nheld[s].items():
        if use != USED:
            nomad[nm.TILE_TYPE[st.nkind[tile]]] += nomad_value(st, st.nkind[tile], w)
    return (*loc.values(), *nomad.values())


_PAIRS = tuple((FEATURES.index(a), FEATURES.index(b)) for a, b in PRODUCTS)


def products(features: Sequence[float]) -> tuple[float, ...]:
    """The :data:`PRODUCTS` of one seat's fitted-evaluation features, each divided by 10."""
    return tuple(features[i] * features[j] / 10.0 for i, j in _PAIRS)


def closed_terrains(st: KingdomBuilderState, s: int) -> list[int]:
    """The buildable terrains with no empty hex beside seat ``s``'s settlements: a card of one
    of them lets the seat build on any hex of that terrain (KB §5)."""
    terrain = st.board.terrain
    near = {terrain[h] for h in st.front[s] if terrain[h] < WATER}
    return [t for t in BUILDABLE if t not in near]


def free_build(st: KingdomBuilderState, s: int) -> tuple[float, float, float]:
    """Seat ``s``'s ``free_pot``, ``free_best`` and ``free_odds`` (the module docstring)."""
    if st.supply[s] <= 0:
        return (0.0, 0.0, 0.0)
    board = st.board
    odds = terrain_odds(st)
    left = turns_left(st)
    pot = best = chance = 0.0
    for t in closed_terrains(st, s):
        hexes = [
            h
            for h in range(len(board.terrain))
            if board.terrain[h] == t and board.buildable[h] and st.owner[h] < 0
        ]
        if not hexes or odds[t] <= 0:
            continue
        gains = sorted(
            hex_gains(st, s, hexes, left, DEFAULT_WEIGHTS, build_gold=False), reverse=True
        )
        pot += odds[t] * sum(gains[:3])
        best += odds[t] * gains[0]
        chance += odds[t]
    return (pot, best, chance)


def rows(paths: Sequence[Path], every: int, tile_kinds: bool = False) -> list[Row]:
    """Every ``every``-th position where a seat is to act, of every game in ``paths``: each
    seat's features, then :data:`EXTRA` (or, with ``tile_kinds``, :data:`TILE_KINDS`)."""
    evaluator = Evaluator()
    out: list[Row] = []
    for path in paths:
        for game in read_games(path):
            nomads = game.get("options", {}).get("nomads") == "full"
            totals = [float(t) for t in game["totals"]]
            for i, state in enumerate(replay_of(game).states()):
                st: KingdomBuilderState = state  # type: ignore[assignment]
                if st.over:
                    break
                if i % every:
                    continue
                if tile_kinds:
                    feats = [
                        (*f, *tile_kind_features(st, s))
                        for s, f in enumerate(evaluator.features(st))
                    ]
                else:
                    feats = [
                        (*f, *extra_features(st, s), *products(f))
                        for s, f in enumerate(evaluator.features(st))
                    ]
                out.append((game["seed"], stage_of(st, STAGES), nomads, feats, totals))
    return out


def _prior(columns: Sequence[int]) -> list[float]:
    """The ridge's prior of ``columns``: the plain sum's weights, 0 for every column after them."""
    return [PRIOR[c] if c < len(PRIOR) else 0.0 for c in columns]


def _samples(data: Sequence[Row], columns: Sequence[int]) -> list[Sample]:
    return [
        (seed, stage, [tuple(f[c] for c in columns) for f in feats], totals)
        for seed, stage, _nomads, feats, totals in data
    ]


def fit_every_game(data: Sequence[Row], columns: Sequence[int]) -> list[list[float]]:
    """The multipliers of ``columns`` fitted per stage on every game of ``data`` (as
    ``bench/fit_kingdom_builder.py`` fits the committed table)."""
    samples = _samples(data, columns)
    prior = _prior(columns)
    return [ridge(*design(samples, stage), PENALTY, prior) for stage in range(STAGES)]


def held_out_error(data: Sequence[Row], columns: Sequence[int]) -> tuple[float, list[list[float]]]:
    """The mean squared error of the predicted score differences with the features
    ``columns``, fitted per stage on one half of the games and scored on the other (both ways
    round); and the multipliers fitted on the first half, per stage."""
    prior = _prior(columns)
    samples = _samples(data, columns)
    seeds = sorted({r[0] for r in samples})
    half = set(seeds[::2])
    error = 0.0
    count = 0
    first: list[list[float]] = []
    for train_first in (True, False):
        train = [r for r in samples if (r[0] in half) == train_first]
        test = [r for r in samples if (r[0] in half) != train_first]
        for stage in range(STAGES):
            xs, ys = design(train, stage)
            coef = ridge(xs, ys, PENALTY, prior)
            if train_first:
                first.append(coef)
            tx, ty = design(test, stage)
            error += mse(tx, ty, coef) * len(tx)
            count += len(tx)
    return error / count, first


def _each_added(part: Sequence[Row], names: Sequence[str], width: int) -> None:
    """Print the held-out error with each column after :data:`FEATURES` added alone, and its
    multiplier per stage (fitted on the first half)."""
    base = list(range(len(FEATURES)))
    for k in range(len(FEATURES), len(names)):
        err, coef = held_out_error(part, [*base, k])
        weights = " ".join(f"{c[-1]:+.2f}" for c in coef)
        print(f"  + {names[k]:<{width}} {err:.3f}  (its weight per stage: {weights})")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--every", type=int, default=2)
    parser.add_argument(
        "--tile-kinds", action="store_true", help="probe the held tiles split by kind"
    )
    args = parser.parse_args(argv)
    if args.tile_kinds:
        return _tile_kinds(rows(DATA, args.every, tile_kinds=True))
    data = rows(DATA, args.every)
    names = (*FEATURES, *EXTRA)
    base = list(range(len(FEATURES)))
    print(f"{len({r[0] for r in data})} games, {len(data)} positions")
    for label, part in (("every game", data), ("full Nomads", [r for r in data if r[2]])):
        plain, _ = held_out_error(part, base)
        print(f"== {label}: the {len(FEATURES)} features, held-out error {plain:.3f} points²")
        _each_added(part, names, 13)
        growth = [*base, *range(len(FEATURES), len(FEATURES) + 4)]
        err, _ = held_out_error(part, growth)
        print(f"  + the first four {err:.3f}")
        last = len(names) - len(PRODUCTS)
        err, _ = held_out_error(part, [*base, *range(last, len(names))])
        print(f"  + the products {err:.3f}")
        err, _ = held_out_error(part, list(range(len(names))))
        print(f"  + all {len(EXTRA)}       {err:.3f}")
    return 0


def _tile_kinds(data: Sequence[Row]) -> int:
    """The ``--tile-kinds`` report."""
    base = list(range(len(FEATURES)))
    names = (*FEATURES, *TILE_KINDS)
    locations = [*base, *range(len(FEATURES), len(FEATURES) + len(DEFAULT_WEIGHTS.tile_per_turn))]
    everything = list(range(len(names)))
    print(f"{len({r[0] for r in data})} games, {len(data)} positions")
    subsets = (
        ("every game", data),
        ("full Nomads", [r for r in data if r[2]]),
        ("base", [r for r in data if not r[2]]),
    )
    for label, part in subsets:
        plain, _ = held_out_error(part, base)
        print(f"== {label}: the {len(FEATURES)} features, held-out error {plain:.3f} points²")
        _each_added(part, names, 18)
        err, _ = held_out_error(part, locations)
        print(f"  + the location kinds {err:.3f}")
        err, _ = held_out_error(part, everything)
        print(f"  + every kind         {err:.3f}")
        print("  fitted on every game of the set, per stage (features, then the kinds):")
        for row in fit_every_game(part, everything):
            print("   ", ", ".join(f"{c:.3f}" for c in row))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
