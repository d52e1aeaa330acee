"""Why a Kingdom Builder position is worth what it is to a seat, in words: the bots' reasons.

The evaluation (:mod:`game.kingdom_builder.evaluation`) splits a seat's value into named terms
(``Evaluator.explain_terms``); :func:`explain_gain_with` says why a move or a turn gains what it
gains — the location and nomad tiles it takes (KB §6.1, §7), the Lords sectors it takes the lead
in (KB §9.2), every other term that moved, and the rival it hurts most.  :mod:`game.bots.reasons`
turns them into hints (each key has a string in the locales).  The engine does not import this
module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from game.core.reasons import reason as _reason
from game.core.reasons import signed
from game.core.types import Seat
from game.kingdom_builder import nomads as nm
from game.kingdom_builder.board import TERRAIN_CODES
from game.kingdom_builder.hex_value import sector_counts
from game.kingdom_builder.odds import turns_left
from game.kingdom_builder.weights import Weights, nomad_value

if TYPE_CHECKING:
    from game.core.api import GameState
    from game.kingdom_builder.state import KingdomBuilderState


class Explained(Protocol):
    """What :func:`explain_gain_with` reads of an evaluation
    (:class:`game.kingdom_builder.evaluation.Evaluator`): its weights, its named terms and every
    seat's value."""

    weights: Weights

    def explain_terms(self, state: GameState, seat: Seat) -> dict[str, float]: ...

    def evaluate_all(self, state: GameState) -> list[float]: ...


#: Sector names in reason keys (quadrant order, KB §9.2 Lords and Farmers).
SECTOR_NAMES = ("top_left", "top_right", "bottom_left", "bottom_right")
#: A change smaller than this (points) is no reason.
_NOISE = 0.05


def _lords_leads(st: KingdomBuilderState, seat: Seat) -> set[int]:
    """The sectors where ``seat`` has the most settlements (shared or alone) and at least one."""
    counts = sector_counts(st)
    out = set()
    for q in range(4):
        column = [c[q] for c in counts]
        if column[seat] and column[seat] == max(column):
            out.add(q)
    return out


def explain_gain_with(
    evaluator: Explained, before: GameState, after: GameState, seat: Seat
) -> list[dict[str, object]]:
    """Why going from ``before`` to ``after`` (a move or a whole turn) is good for ``seat``, by
    ``evaluator``'s own terms, largest gain first.  Each reason is ``{"key", "params", "gain"}``:
    ``key`` is looked up as ``reason.kingdom-builder.<key>`` (en/ja/nl), ``params`` fill it
    (``gain`` a signed number of points; ``tile`` a tile type, ``tile_terrain`` a Donation
    tile's terrain letter, ``seat`` a rival's seat), ``gain`` is the points it stands for.

    * ``gain.tile`` — takes a location tile (KB §6.1), worth ``gain`` for the turns left;
    * ``gain.nomad_tile`` — takes a nomad tile (KB §7);
    * ``gain.lords_lead.<sector>`` — takes the lead (alone or shared) on Lords in a sector it did
      not lead (KB §9.2), ``gain`` the Lords points it changes;
    * ``gain.rival`` — costs the rival it hurts most ``gain`` points (``loss``, unsigned): a
      Sword, a blocked hex, a tile taken first, a sector lead shared;
    * ``term.<name>`` — any other change of one of ``evaluator.explain_terms``'s terms.
    """
    b: KingdomBuilderState = before  # type: ignore[assignment]
    a: KingdomBuilderState = after  # type: ignore[assignment]
    t0 = evaluator.explain_terms(b, seat)
    t1 = evaluator.explain_terms(a, seat)
    reasons: list[dict[str, object]] = []
    covered: set[str] = set()
    if not a.over:
        kinds = a.board.location_type
        left = turns_left(a)
        w = evaluator.weights
        for loc in sorted(a.taken[seat] - b.taken[seat]):
            if loc in a.tiles[seat]:
                value = max(w.tile_floor, w.tile_per_turn[kinds[loc]] * left)
                reasons.append(_reason("gain.tile", value, tile=kinds[loc]))
                covered.add("tiles")
        for nh in sorted(set(a.nheld[seat]) - set(b.nheld[seat])):
            tid = a.nkind[nh]
            code = TERRAIN_CODES[nm.TILE_TERRAIN[tid]] if nm.TILE_TERRAIN[tid] >= 0 else None
            extra = {"tile_terrain": code} if code else {}
            value = nomad_value(a, tid, w)
            reasons.append(_reason("gain.nomad_tile", value, tile=nm.TILE_TYPE[tid], **extra))
            covered.add("nomad_tiles")
        if "Lords" in a.cards:
            lords = t1.get("lords", 0.0) - t0.get("lords", 0.0)
            for q in sorted(_lords_leads(a, seat) - _lords_leads(b, seat)):
                reasons.append(_reason(f"gain.lords_lead.{SECTOR_NAMES[q]}", lords))
                covered.add("lords")
    for name in t1.keys() | t0.keys():
        delta = t1.get(name, 0.0) - t0.get(name, 0.0)
        if name not in covered and abs(delta) >= _NOISE:
            reasons.append(_reason(f"term.{name}", delta))
    v0 = evaluator.evaluate_all(b)
    v1 = evaluator.evaluate_all(a)
    hurt = [(v0[q] - v1[q], q) for q in range(b.n) if q != seat]
    if hurt:
        loss, rival = max(hurt)
        if loss >= 1.0:
            reasons.append(_reason("gain.rival", loss, seat=rival, loss=signed(loss)[1:]))
    reasons.sort(key=lambda r: -float(r["gain"]))  # type: ignore[arg-type]
    return reasons
