"""Why a Keyflower position is worth what it is to a seat, in words: the bots' reasons.

The evaluation (:mod:`game.keyflower.evaluation`) splits a seat's value into the named
:data:`TERMS`; :func:`explain_gain_with` says why a turn gains what it gains — the bids that now
lead or gave up the lead (KF §5), then every term that moved.  :mod:`game.bots.reasons` turns
them into hints (each key has a string in the locales).  The engine does not import this module.
Rule references ``KF §n`` point to ``shared/rules/keyflower.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from game.core.types import Seat
from game.keyflower.const import PLAY
from game.keyflower.tiles import TILES

if TYPE_CHECKING:
    from game.core.api import GameState
    from game.keyflower.state import KeyflowerState


#: The named terms of a seat's value
#: (:meth:`game.keyflower.evaluation.Evaluator.explain_terms`), stable identifiers; each has a
#: ``reason.keyflower.term.<name>`` string in the locales.
TERMS = (
    "tiles",  # printed VP of the village tiles (current sides), the won tiles to place
    "actions",  # the village tiles' actions for the seasons left
    "upgrades",  # unflipped tiles' upgrades, as their cost comes to hand
    "storage",  # resources on storage tiles at their rate
    "roads",  # road contacts while transport matters
    "summer_boats",  # what the summer boats' faces still bring
    "boats",  # boats kept in winter (Keyflower, Sea Bastion, Sea Breeze, ...)
    "turn_order",  # turn-order tiles kept in winter: village tiles next to them
    "bids",  # the tiles the seat's bids lead on, times the chance the lead holds
    "start_player",  # the purple keyple
    "boat_load",  # the load of the boat the seat can expect at the season's end
    "keyples",  # keyples as workers for the seasons left
    "skills",  # skill tiles for upgrades
    "resources",  # resources in the village for upgrades
    "gold",  # gold: 1 VP each at the end
    "winter",  # winter tiles held, being won, in hand or picked, with the items they score
)
#: The final score's categories (KF §13): at the end they are the terms (the rest are 0).
FINAL_TERMS = ("tiles", "turn_order", "boats", "storage", "winter", "gold")


def leaders(st: KeyflowerState) -> dict[int, int]:
    """Each bid tile with a bid: its leading seat."""
    out: dict[int, int] = {}
    if st.phase != PLAY:
        return out
    for t in st.bid_tiles():
        base = t * 6
        best, most = -1, 0
        for o in range(st.n):
            if st.bidn[base + o] > most:
                best, most = o, st.bidn[base + o]
        if best >= 0:
            out[t] = best
    return out


def explain_gain_with(
    explain_terms: Callable[[GameState, Seat], dict[str, float]],
    before: GameState,
    after: GameState,
    seat: Seat,
) -> list[dict[str, Any]]:
    """Why going from ``before`` to ``after`` (the seat's turn played) is worth what it is to
    ``seat`` by an evaluation's ``explain_terms`` (its :data:`TERMS`), best reasons first:
    ``{"key", "params", "gain"}`` with ``gain`` in VP.

    * ``reason.keyflower.gain.leads`` (``tile``: a tile id, shown by its ``kf.tile.<id>`` name):
      the seat's bid now leads on a tile it did not lead on (KF §5) — "secures the Key Guild";
    * ``reason.keyflower.gain.leaves`` (``tile``, ``player``: the seat now leading there, shown
      by its player's name): the seat gave up the lead (a bid brought back) — "leaves the Key
      Guild to Bram";
    * ``reason.keyflower.term.<name>`` for every term of :data:`TERMS` that changed by at
      least 0.05 VP.

    The leads' gain is the change of the ``bids`` and ``winter`` terms together (the tiles
    being won), shared out over the lead reasons; those two terms are then not listed again."""
    b: KeyflowerState = before  # type: ignore[assignment]
    a: KeyflowerState = after  # type: ignore[assignment]
    tb = explain_terms(b, seat)
    ta = explain_terms(a, seat)
    delta = {name: ta[name] - tb[name] for name in TERMS}
    lead_b, lead_a = leaders(b), leaders(a)
    leads: list[dict[str, Any]] = []
    for t in sorted(set(lead_b) | set(lead_a)):
        was, now = lead_b.get(t), lead_a.get(t)
        if now == seat and was != seat:
            leads.append({"key": "reason.keyflower.gain.leads", "params": {"tile": TILES[t].id}})
        elif was == seat and now is not None and now != seat:
            leads.append(
                {
                    "key": "reason.keyflower.gain.leaves",
                    "params": {"tile": TILES[t].id, "player": now},
                }
            )
    out: list[dict[str, Any]] = []
    shown = set(TERMS)
    if leads:
        share = (delta["bids"] + delta["winter"]) / len(leads)
        for r in leads:
            r["gain"] = share
        out.extend(leads)
        shown -= {"bids", "winter"}
    for name in TERMS:
        if name in shown and abs(delta[name]) >= 0.05:
            out.append({"key": f"reason.keyflower.term.{name}", "params": {}, "gain": delta[name]})
    out.sort(key=lambda r: -abs(r["gain"]))
    return out


__all__ = ["FINAL_TERMS", "TERMS", "explain_gain_with", "leaders"]
