"""Why a Glen More position is worth what it is to a seat, in words: the bots' reasons.

The evaluation (:mod:`game.glen_more.evaluation`) splits a seat's value into named terms
(``explain_terms``); :func:`explain_gain_with` says why a move or a turn gains what it gains — the
chieftains and whisky it brings before the next scoring (GM §4.4, §7.1), the special location cards
it takes (GM §8), the scoring it brings about (GM §4.5) and every other term that moved.
:mod:`game.bots.reasons` turns them into hints (each key has a string in the locales).  The engine
does not import this module.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from game.core.reasons import reason as _reason
from game.core.types import Seat
from game.glen_more.seat_model import TERMS
from game.glen_more.tiles import KINDS

if TYPE_CHECKING:
    from game.core.api import GameState
    from game.glen_more.state import GlenMoreState

#: A seat's value split into the evaluation's named terms (``explain_terms``).
TermsOf = Callable[["GameState", Seat], dict[str, float]]

_NOISE = 0.05


def explain_gain_with(
    explain_terms: TermsOf, before: GameState, after: GameState, seat: Seat
) -> list[dict[str, object]]:
    """Why going from ``before`` to ``after`` (a move or the seat's whole turn) is worth what
    it is to ``seat`` by the evaluation whose named terms ``explain_terms`` gives (the
    evaluation module's ``explain_gain`` passes the default one), largest gain first.  Each
    reason is ``{"key", "params", "gain"}``: ``key`` is looked up as
    ``reason.glen-more.<key>`` (en, ja, nl), ``params`` fill it (``gain`` a signed number of
    VP), ``gain`` is the VP it stands for.

    * ``gain.chieftains`` (``n``, ``round``) — ``n`` more chieftains before scoring ``round``
      (GM §4.4, §7.1); its gain is the change of the ``chieftain_rounds`` term;
    * ``gain.whisky`` (``n``, ``round``) — ``n`` more whisky barrels before scoring ``round``
      (the ``whisky_rounds`` term);
    * ``gain.card`` (``tile``: a tile id, shown by its name) — takes a special location's
      card (GM §8), worth
      the change of ``special_rounds`` and ``end_effects`` (shared if several);
    * ``gain.scoring`` (``round``) — the move brings scoring ``round`` about now (GM §4.5),
      worth the change of ``rounds_held`` and of the three round terms together;
    * ``term.<name>`` — any other change of one of :data:`TERMS` by at least 0.05 VP.
    """
    b: GlenMoreState = before  # type: ignore[assignment]
    a: GlenMoreState = after  # type: ignore[assignment]
    t0 = explain_terms(b, seat)
    t1 = explain_terms(a, seat)
    delta = {name: t1[name] - t0[name] for name in TERMS}
    reasons: list[dict[str, object]] = []
    covered: set[str] = set()
    held_before = len(b.rounds)
    held_after = len(a.rounds)
    if held_after > held_before:
        gain = sum(
            delta[n] for n in ("rounds_held", "whisky_rounds", "chieftain_rounds", "special_rounds")
        )
        reasons.append(_reason("gain.scoring", gain, round=held_after))
        covered.update(("rounds_held", "whisky_rounds", "chieftain_rounds", "special_rounds"))
    elif not a.over:
        upcoming = held_before + 1
        more = a.chieftains[seat] - b.chieftains[seat]
        if more > 0:
            reasons.append(
                _reason("gain.chieftains", delta["chieftain_rounds"], n=more, round=upcoming)
            )
            covered.add("chieftain_rounds")
        more = a.whisky[seat] - b.whisky[seat]
        if more > 0:
            reasons.append(_reason("gain.whisky", delta["whisky_rounds"], n=more, round=upcoming))
            covered.add("whisky_rounds")
        cards = [k for k in a.cards[seat] if k not in b.cards[seat]]
        if cards:
            share = (delta["special_rounds"] + delta["end_effects"]) / len(cards)
            for k in cards:
                reasons.append(_reason("gain.card", share, tile=KINDS[k].id))
            covered.update(("special_rounds", "end_effects"))
    for name in TERMS:
        if name not in covered and abs(delta[name]) >= _NOISE:
            reasons.append(_reason(f"term.{name}", delta[name]))
    reasons.sort(key=lambda r: -float(r["gain"]))  # type: ignore[arg-type]
    return reasons
