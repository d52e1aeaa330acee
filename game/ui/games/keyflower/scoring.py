"""The end-of-game scoring sequence (KF §13): category by category — printed VP, turn-order
tiles, boats, storage, winter tiles, gold — and in each category seat by seat, the seat's
village is shown large, the tiles that scored are ringed in gold with their points, Sea
Bastion's road loop and Sea Breeze's river chain are outlined, and the panel counts the points
up; for the winter tiles it lists the engine's best assignment of keyples, resources and skill
tiles to each bonus tile (``view["final"]``, the engine's own scoring details).  Afterwards,
pointing at a cell of the panel's score table shows that category of that seat again."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game.ui.games.keyflower.common import CATEGORIES
from game.ui.games.keyflower.input import InputMixin
from game.ui.games.sequence import ScoreSequence

#: Seconds (at speed 1): a category's title, each seat's share (shorter when it scored
#: nothing; longer for the winter tiles, whose assignment is read), the pause at the end.
SCORE_INTRO = 0.6
SCORE_SEAT = 1.0
SCORE_SEAT_WINTER = 1.8
SCORE_SEAT_EMPTY = 0.4
SCORE_OUTRO = 0.4
#: The part of a seat's share during which its points count up.
SCORE_COUNT = 0.6


class Scoring(ScoreSequence):
    """The sequence over ``categories`` with the final ``scores`` (one row per seat); the
    winter tiles' shares are longer (their assignment is read)."""

    INTRO = SCORE_INTRO
    SEAT = SCORE_SEAT
    SEAT_EMPTY = SCORE_SEAT_EMPTY
    OUTRO = SCORE_OUTRO
    COUNT = SCORE_COUNT

    def share_length(self, category: str, points: int) -> float:
        if points and category == "winter":
            return SCORE_SEAT_WINTER
        return super().share_length(category, points)


@dataclass(frozen=True)
class Focus:
    """What the table shows of one category for one seat, and how far it has come (0..1)."""

    category: str
    seat: int
    detail: dict[str, Any]
    progress: float = 1.0

    def tiles(self) -> dict[str, int]:
        """The tiles that scored in this category, with their points."""
        d = self.detail
        key = {
            "tiles": "printed",
            "turn_order": "turn_order",
            "boats": "boats",
            "storage": "storage",
            "winter": "winter",
        }.get(self.category)
        if key is None:
            return {}
        got = d.get(key)
        if not isinstance(got, dict):
            return {}
        return {str(k): int(v) for k, v in got.items() if isinstance(v, int)}

    def outlines(self) -> list[list[str]]:
        """Chains of tiles to outline: Sea Bastion's loop, Sea Breeze's river."""
        if self.category != "boats":
            return []
        out = []
        for key in ("road_loop", "river_chain"):
            chain = self.detail.get(key)
            if isinstance(chain, list) and chain:
                out.append([str(x) for x in chain])
        return out


class ScoringMixin(InputMixin):
    """The sequence's state and what it focuses on."""

    def _final(self, seat: int) -> dict[str, Any]:
        final = self.view.get("final")
        if isinstance(final, list) and 0 <= seat < len(final) and isinstance(final[seat], dict):
            return final[seat]
        return {}

    def score_categories(self) -> list[tuple[str, str]]:
        from game.ui.games.keyflower.text import category_name

        return [(c, category_name(c)) for c in CATEGORIES]

    def start_scoring(self) -> None:
        if self.scoring is None or self.scoring.elapsed >= 1e8:
            scores = self.view.get("scores") or []
            self.scoring = Scoring(list(CATEGORIES), [dict(s) for s in scores])
            if self._speed() <= 0:
                self.scoring.elapsed = 1e9

    def scoring_done(self) -> bool:
        return self.scoring is None or self.scoring.done

    def skip_scoring(self, everything: bool) -> None:
        if self.scoring is not None and not self.scoring.done:
            if everything:
                self.scoring.finish()
            else:
                self.scoring.next_beat()

    def _focus(self) -> Focus | None:
        """The seat and category shown now: the sequence's, or after it the one pointed at."""
        sc = self.scoring
        if sc is not None and not sc.done:
            beat = sc.beat()
            if beat is None or beat.seat is None:
                return None
            return Focus(
                sc.categories[beat.category], beat.seat, self._final(beat.seat), sc.progress(beat)
            )
        if self.hover_focus is not None and self.view.get("over"):
            cat, seat = self.hover_focus
            return Focus(cat, seat, self._final(seat))
        return None
