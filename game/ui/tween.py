"""Small tweens: a value that moves from ``start`` to ``end`` over a duration.

Animations only ever show how the view got where it is; the view itself is always the
authoritative one the host sent.  A tween that is still running when a new view arrives is
simply finished early by whoever owns it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

Ease = Callable[[float], float]


def linear(t: float) -> float:
    return t


def ease_out_cubic(t: float) -> float:
    return 1 - (1 - t) ** 3


def ease_in_out(t: float) -> float:
    return 4 * t**3 if t < 0.5 else 1 - (-2 * t + 2) ** 3 / 2


def ease_out_back(t: float) -> float:
    """Overshoots a little and settles: a piece "dropping" into place."""
    c1 = 1.70158
    c3 = c1 + 1
    return 1 + c3 * (t - 1) ** 3 + c1 * (t - 1) ** 2


def ease_out_bounce(t: float) -> float:
    n1, d1 = 7.5625, 2.75
    if t < 1 / d1:
        return n1 * t * t
    if t < 2 / d1:
        t -= 1.5 / d1
        return n1 * t * t + 0.75
    if t < 2.5 / d1:
        t -= 2.25 / d1
        return n1 * t * t + 0.9375
    t -= 2.625 / d1
    return n1 * t * t + 0.984375


@dataclass
class Tween:
    """A number or point moving from ``start`` to ``end`` in ``duration`` seconds after
    ``delay`` seconds."""

    start: tuple[float, ...]
    end: tuple[float, ...]
    duration: float
    ease: Ease = ease_out_cubic
    delay: float = 0.0
    elapsed: float = 0.0
    payload: dict[str, object] = field(default_factory=dict)

    def update(self, dt: float) -> None:
        self.elapsed += dt

    @property
    def started(self) -> bool:
        return self.elapsed >= self.delay

    @property
    def done(self) -> bool:
        return self.elapsed >= self.delay + self.duration

    @property
    def progress(self) -> float:
        """0..1, eased."""
        if self.duration <= 0:
            return 1.0
        t = (self.elapsed - self.delay) / self.duration
        return self.ease(min(1.0, max(0.0, t)))

    @property
    def raw_progress(self) -> float:
        if self.duration <= 0:
            return 1.0
        return min(1.0, max(0.0, (self.elapsed - self.delay) / self.duration))

    def value(self) -> tuple[float, ...]:
        p = self.progress
        return tuple(a + (b - a) * p for a, b in zip(self.start, self.end, strict=True))

    def finish(self) -> None:
        self.elapsed = self.delay + self.duration


def arc(
    start: tuple[float, float], end: tuple[float, float], t: float, height: float
) -> tuple[float, float]:
    """A point along a parabolic arc from ``start`` to ``end`` rising ``height`` pixels."""
    x = start[0] + (end[0] - start[0]) * t
    y = start[1] + (end[1] - start[1]) * t - height * math.sin(math.pi * t)
    return x, y
