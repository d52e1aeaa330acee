"""What each game hides, described for the kit: one entry per registered game.

Every game the program ships (and the test game) describes its secrets here, in two ways:

* ``secrets(state, seat)`` — the :class:`~tests.conformance.leaks.Secret` needles that ``seat``
  (``None``: a spectator) may not find in anything it receives at this position: other seats'
  hands and screens, choices committed but not revealed, the order of decks and stacks.  Each
  needle has the shape the secret has where it *is* visible (another seat's view, the full
  report), and names that place as its ``source``; the kit checks the needle against it and
  against the seat's own view (which must not hold it).
* ``hidden(state, seat)`` — the same secrets as plain values keyed by a name (``"seat 2
  screen"``), which the sample statistics compare between the truth and determinized copies.

The kit adds what every game shares (tokens, the RNG state, the seed, save paths, other
seats' private events and private actions): see ``tests/conformance/capture.py``.  A new game
registers its own entry in :data:`HOOKS`; the kit fails for a registered game without one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from game.core.api import GameState
from game.core.types import Seat
from tests.conformance.leaks import Secret, item, run, word


@dataclass(frozen=True)
class Hooks:
    secrets: Callable[[Any, Seat | None], list[Secret]]
    hidden: Callable[[Any, Seat | None], dict[str, Any]]


def _others(state: GameState, seat: Seat | None) -> list[int]:
    return [s for s in range(state.players) if s != seat]


# ---- Keyflower ---------------------------------------------------------------------------------
def _kf_busy(st: Any) -> Seat | None:
    from game.keyflower.const import NONE, PLAY

    return st.cur if st.phase == PLAY and st.stage != NONE else None


def _kf_secrets(st: Any, seat: Seat | None) -> list[Secret]:
    from game.keyflower.const import HAND, OUT
    from game.keyflower.tiles import TILES, WINTER
    from game.keyflower.village import axial

    if st.is_over():
        return []
    out: list[Secret] = []
    for s in _others(st, seat):
        mid = " (in the middle of its turn)" if _kf_busy(st) == s else ""
        if st.keys[s][:3] != st.kknown[s][:3]:
            out.append(
                item(
                    f"seat {s}'s keyples behind its screen{mid}",
                    {"seat": s, "keyples": list(st.keys[s])},
                    sampled=True,
                    source=("view", s),
                )
            )
        if st.skills[s] != st.sknown[s]:
            out.append(
                item(
                    f"seat {s}'s skill tiles behind its screen{mid}",
                    {"seat": s, "skills": list(st.skills[s])},
                    sampled=True,
                    source=("view", s),
                )
            )
        if st.hands[s]:
            hand = [TILES[t].id for t in st.hands[s]]
            out.append(
                item(
                    f"seat {s}'s winter hand",
                    {"seat": s, "winter_hand": hand},
                    sampled=True,
                    source=("view", s),
                )
            )
            for t in st.hands[s]:
                tid, name = TILES[t].id, TILES[t].name
                out.append(
                    word(f"seat {s}'s winter tile {tid}", tid, sampled=True, source=("view", s))
                )
                out.append(word(f"seat {s}'s winter tile {name!r}", name, sampled=True))
        for t, h, r in st.pplaced[s]:
            q, rr = axial(h)
            out.append(
                run(
                    f"seat {s}'s unrevealed placement of {TILES[t].id}",
                    [TILES[t].id, q, rr, r],
                    sampled=True,
                    source=("view", s),
                )
            )
        if st.psel[s] >= 0:
            out.append(
                item(
                    f"seat {s}'s tile chosen to place",
                    {"seat": s, "place_selected": TILES[st.psel[s]].id},
                    sampled=True,
                    source=("view", s),
                )
            )
    mine = set(st.hands[seat]) if seat is not None else set()
    for t, tile in enumerate(TILES):
        if tile.season == WINTER and st.where[t] in (OUT, HAND) and t not in mine:
            holder = st.holder[t] if st.where[t] == HAND else None
            if holder is None:  # undealt, or not chosen: nobody ever sees it
                out.append(word(f"the unseen winter tile {tile.id}", tile.id, sampled=True))
                out.append(word(f"the unseen winter tile {tile.name!r}", tile.name, sampled=True))
    return out


def _kf_hidden(st: Any, seat: Seat | None) -> dict[str, Any]:
    if st.is_over():
        return {}
    out: dict[str, Any] = {}
    for s in _others(st, seat):
        if st.keys[s][:3] != st.kknown[s][:3] or st.skills[s] != st.sknown[s]:
            out[f"seat {s} screen"] = (tuple(st.keys[s]), tuple(st.skills[s]))
        if st.hands[s]:
            out[f"seat {s} winter hand"] = tuple(sorted(st.hands[s]))
        if st.wpick[s] is not None:
            out[f"seat {s} winter choice"] = tuple(st.wpick[s])
        if st.pplaced[s]:
            out[f"seat {s} placements"] = tuple(st.pplaced[s])
    if sum(st.bag) > 0:
        out["bag"] = tuple(st.bag)
    if sum(st.sksup) > 0:
        out["skill supply"] = tuple(st.sksup)
    return out


# ---- Glen More -----------------------------------------------------------------------------------
def _gm_secrets(st: Any, seat: Seat | None) -> list[Secret]:
    from game.glen_more.tiles import KINDS

    if st.is_over():
        return []
    out: list[Secret] = []
    for i, pile in enumerate(st.stacks):
        if len(set(pile)) >= 3:  # the order of a stack of one kind says nothing
            order = [KINDS[k].id for k in reversed(pile)][:6]
            out.append(run(f"the order of stack {i}", order, sampled=True, source=("report",)))
    return out


def _gm_hidden(st: Any, seat: Seat | None) -> dict[str, Any]:
    if st.is_over():
        return {}
    return {f"stack {i}": tuple(pile) for i, pile in enumerate(st.stacks) if len(set(pile)) > 1}


# ---- Kingdom Builder ------------------------------------------------------------------------------
def _kb_shown(st: Any, s: int) -> bool:
    return s == st.cur and not st.over


def _kb_secrets(st: Any, seat: Seat | None) -> list[Secret]:
    from game.kingdom_builder.board import TERRAIN_CODES

    if st.is_over():
        return []
    out: list[Secret] = []
    for s in _others(st, seat):
        if st.hands[s] >= 0 and not _kb_shown(st, s):
            out.append(
                item(
                    f"seat {s}'s terrain card",
                    {"seat": s, "hand": TERRAIN_CODES[st.hands[s]]},
                    sampled=True,
                    source=("view", s),
                )
            )
    if len(st.deck) >= 8:
        order = [TERRAIN_CODES[t] for t in reversed(st.deck)][:8]
        out.append(run("the order of the draw pile", order, sampled=True, source=("report",)))
    return out


def _kb_hidden(st: Any, seat: Seat | None) -> dict[str, Any]:
    if st.is_over():
        return {}
    out: dict[str, Any] = {
        f"seat {s} card": st.hands[s]
        for s in _others(st, seat)
        if st.hands[s] >= 0 and not _kb_shown(st, s)
    }
    if len(set(st.deck)) > 1:
        out["draw pile"] = tuple(st.deck)
    return out


# ---- the test game ("Bid and Race") -------------------------------------------------------------
def _tg_secrets(st: Any, seat: Seat | None) -> list[Secret]:
    if st.is_over():
        return []
    out: list[Secret] = []
    for s in _others(st, seat):
        out.append(
            item(
                f"seat {s}'s card",
                {"you": s, "hand": st.hands[s]},
                sampled=True,
                source=("view", s),
            )
        )
        if st.bids[s] is not None and st.phase == "bid":
            out.append(
                item(
                    f"seat {s}'s bid",
                    {"you": s, "bid": st.bids[s]},
                    sampled=True,
                    source=("view", s),
                )
            )
    if len(st.deck) >= 10:
        out.append(
            run("the order of the deck", list(st.deck[-10:]), sampled=True, source=("dict",))
        )
    return out


def _tg_hidden(st: Any, seat: Seat | None) -> dict[str, Any]:
    if st.is_over():
        return {}
    out: dict[str, Any] = {f"seat {s} card": st.hands[s] for s in _others(st, seat)}
    for s in _others(st, seat):
        if st.bids[s] is not None and st.sealed[s] and st.phase == "bid":
            out[f"seat {s} bid"] = st.bids[s]
    if len(set(st.deck)) > 1:
        out["deck"] = tuple(st.deck)
    return out


HOOKS: dict[str, Hooks] = {
    "keyflower": Hooks(_kf_secrets, _kf_hidden),
    "glen-more": Hooks(_gm_secrets, _gm_hidden),
    "kingdom-builder": Hooks(_kb_secrets, _kb_hidden),
    "testgame": Hooks(_tg_secrets, _tg_hidden),
}


def hooks_of(game_id: str) -> Hooks:
    hooks = HOOKS.get(game_id)
    assert hooks is not None, (
        f"{game_id} describes no secrets for the conformance kit: add its entry to "
        "tests/conformance/game_secrets.py (HOOKS)"
    )
    return hooks
