"""How much of a Kingdom Builder game is left, and what the next terrain card may show.

The evaluation (:mod:`game.kingdom_builder.evaluation`) weighs a held tile by the turns left
(:func:`turns_left`) and a seat's next turn by the odds of its next card (:func:`terrain_odds`);
the hard level picks its fitted multipliers by the game's stage (:func:`stage_of`); the race
deals each sampled world's next card by those odds (:func:`stratify_world`).  Everything here
reads only what every seat may see.  The engine does not import this module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.core.types import Seat
from game.kingdom_builder.board import BUILDABLE
from game.kingdom_builder.codes import BUILD_TILES, SETTLEMENTS

if TYPE_CHECKING:
    from game.kingdom_builder.state import KingdomBuilderState

CARDS_PER_TERRAIN = 5


def turns_left(st: KingdomBuilderState) -> float:
    """Turns each seat can still expect to play (KB §8): the game ends in the round in which
    some seat places its last settlement, so the fastest builder sets the pace."""
    if st.over:
        return 0.0
    if st.end_triggered:
        return 0.5
    kinds = st.board.location_type
    fastest = float("inf")
    for tiles, supply in zip(st.tiles, st.supply, strict=True):
        builds = 3
        for loc in tiles:
            if kinds[loc] in BUILD_TILES:
                builds += 1
        pace = supply / builds
        if pace < fastest:
            fastest = pace
    return max(0.5, fastest)


def moved_this_round(st: KingdomBuilderState) -> frozenset[Seat]:
    """The seats that have already taken their turn in this round: from the round's first
    player up to the seat to move, not including it (KB §4: turns go clockwise from the start
    player; KB §8: the round is always finished, so every seat plays as many turns).  In the
    middle of a round those seats are a turn ahead of the others for now, not at the end."""
    moved: set[Seat] = set()
    s = st.start
    while s != st.cur and len(moved) < st.n:
        moved.add(s)
        s = (s + 1) % st.n
    return frozenset(moved)


def stage_of(st: KingdomBuilderState, stages: int) -> int:
    """The game's stage in ``0..stages-1``: how far the fastest builder is through its 40
    settlements (KB §8: the game ends in the round one seat builds its last), in ``stages``
    equal bins."""
    built = 1.0 - min(st.supply) / SETTLEMENTS
    return max(0, min(stages - 1, int(built * stages)))


def terrain_odds(st: KingdomBuilderState) -> list[float]:
    """The chance that a seat's *next* card shows each buildable terrain (KB §3.4, §4.4).

    Unseen cards are the 25 minus the face-up discard pile and the revealed card of the player
    to move; all of that is public, so no secret goes in.
    """
    counts = [CARDS_PER_TERRAIN] * len(BUILDABLE)
    for t in st.discard:
        counts[t] -= 1
    if not st.over and st.terrain >= 0:
        counts[st.terrain] -= 1
    total = sum(counts)
    if total <= 0:  # a reshuffle is coming: the whole deck again
        return [1.0 / len(BUILDABLE)] * len(BUILDABLE)
    return [c / total for c in counts]


def stratify_world(st: KingdomBuilderState, seat: Seat, u: float) -> None:
    """Give ``seat``, about to play its turn in a sampled world, the next card that ``u``
    picks by the odds (the race's stratification, :mod:`game.bots.knowledge`).

    Its next card is the top of the draw pile (it draws at the end of its turn, KB §3.4).  The
    unseen cards of the world — the pile and the rivals' hands, dealt at random by
    ``determinize`` — are counted per terrain; the terrain whose cumulative share first passes
    ``u`` is brought to the top, swapped with a card of that terrain in the pile or, if the pile
    has none, in a rival's hand.  The rest of the world stays as dealt.  Nothing changes when
    ``seat`` is not the one to move or the pile is empty (a reshuffle decides the card).
    """
    if st.over or st.cur != seat or not st.deck:
        return
    rivals = [s for s in range(st.n) if s != seat and st.hands[s] >= 0]
    counts = [0] * len(BUILDABLE)
    for card in st.deck:
        counts[card] += 1
    for s in rivals:
        counts[st.hands[s]] += 1
    total = sum(counts)
    target = u * total
    terrain = len(counts) - 1
    running = 0
    for t, c in enumerate(counts):
        running += c
        if target < running:
            terrain = t
            break
    deck = st.deck
    if deck[-1] == terrain:
        return
    for i in range(len(deck) - 2, -1, -1):
        if deck[i] == terrain:
            deck[i], deck[-1] = deck[-1], deck[i]
            return
    for s in rivals:
        if st.hands[s] == terrain:
            st.hands[s], deck[-1] = deck[-1], st.hands[s]
            return
