"""The end-of-game scoring sequence's clock, shared by the game views: category by category,
and in each category seat by seat, each share a :class:`Beat` during whose first part the seat's
points count up.  A view subclasses :class:`ScoreSequence` for its timings (and the length of a
seat's share) and draws what the current beat shows; a click jumps to the next beat."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar


@dataclass(frozen=True)
class Beat:
    """One step of the sequence: a category's title (``seat`` None) or one seat's share of the
    category, from ``start`` for ``duration`` seconds."""

    start: float
    duration: float
    category: int
    seat: int | None

    @property
    def end(self) -> float:
        return self.start + self.duration


@dataclass
class ScoreSequence:
    """The sequence over ``categories`` with the final ``scores`` (one row per seat), at
    ``elapsed`` seconds (at speed 1)."""

    categories: list[str]
    scores: list[dict[str, int]]
    elapsed: float = 0.0
    beats: list[Beat] = field(default_factory=list)

    #: Seconds: a category's title, a seat's share (shorter when it scored nothing), the pause
    #: at the end; the part of a share during which its points count up.
    INTRO: ClassVar[float] = 0.6
    SEAT: ClassVar[float] = 1.0
    SEAT_EMPTY: ClassVar[float] = 0.4
    OUTRO: ClassVar[float] = 0.4
    COUNT: ClassVar[float] = 0.6

    def __post_init__(self) -> None:
        if self.beats:
            return
        at = 0.0
        for i, cat in enumerate(self.categories):
            self.beats.append(Beat(at, self.INTRO, i, None))
            at += self.INTRO
            for seat, row in enumerate(self.scores):
                length = self.share_length(cat, row.get(cat, 0))
                self.beats.append(Beat(at, length, i, seat))
                at += length

    def share_length(self, category: str, points: int) -> float:
        """Seconds of one seat's share of ``category`` that scored ``points``."""
        return self.SEAT if points else self.SEAT_EMPTY

    @property
    def length(self) -> float:
        return self.beats[-1].end if self.beats else 0.0

    def beat(self) -> Beat | None:
        """The beat being shown (None once every beat is over)."""
        for beat in self.beats:
            if self.elapsed < beat.end:
                return beat
        return None

    @property
    def step(self) -> int:
        """The index of the category being counted (``len(categories)`` when all are)."""
        beat = self.beat()
        return beat.category if beat is not None else len(self.categories)

    @property
    def done(self) -> bool:
        return self.elapsed >= self.length + self.OUTRO

    def progress(self, beat: Beat) -> float:
        """How far ``beat``'s count has got (0..1)."""
        return max(0.0, min(1.0, (self.elapsed - beat.start) / (beat.duration * self.COUNT)))

    def value(self, category: int, seat: int) -> int | None:
        """The seat's points of the category as shown now (None before its turn comes)."""
        points = (
            self.scores[seat].get(self.categories[category], 0) if seat < len(self.scores) else 0
        )
        for beat in self.beats:
            if beat.category == category and beat.seat == seat:
                if self.elapsed < beat.start:
                    return None
                return round(points * self.progress(beat))
        return points

    def running_total(self, seat: int) -> int:
        """The seat's points for everything counted so far (the current share partly)."""
        return sum(self.value(i, seat) or 0 for i in range(len(self.categories)))

    def next_beat(self) -> None:
        """Jump to the start of the next beat (a click during the sequence)."""
        beat = self.beat()
        self.elapsed = beat.end if beat is not None else self.length + self.OUTRO

    def finish(self) -> None:
        self.elapsed = self.length + self.OUTRO
