"""The idle window's slow frames: only the parts that change, and each picture drawn once.

While nobody touches anything and nothing but a slow pulse moves (the legal targets of a table
waiting for your move), the app asks the scenes where their picture changes
(:meth:`~game.ui.scene.Scene.ambient_rects`) and how the change repeats
(:meth:`~game.ui.scene.Scene.ambient_cycle`: "step ``i`` of ``n``" — a table's pulse is drawn
from a clock rounded to one of :data:`~game.ui.games.base.PULSE_STEPS` steps, so the picture at a
step is always the same).  :class:`IdlePainter` then

* draws the whole window clipped to those parts the first time it meets a step, and keeps a
  copy of each part;
* afterwards only copies the kept parts of the step back onto the window — no scene draws at
  all — and sends those parts to the screen;
* forgets everything when anything else happens (an event, a message from the host, a toast, a
  change of the parts or of the window), and checks itself: a whole frame drawn for safety every
  :data:`CHECK_EVERY` seconds must match the kept parts of its step, or they are forgotten.

So a table that waits costs the window a few copies of small pictures a second
(``bench/ui.py``: ``ui.idle_cpu_percent.<game>.<size>``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pygame

#: At most this many bytes of kept pictures (a pulse over most of a large window: drawn, not
#: kept).
BUDGET_BYTES = 64 * 1024 * 1024
#: Seconds between the whole frames drawn for safety once every step is kept (before that the
#: app's own :data:`~game.ui.app.FULL_FLIP_EVERY`).
CHECK_EVERY = 3.0


@dataclass
class _Kept:
    key: tuple[object, ...] = ()
    steps: int = 0
    #: Per step: one copy per part, in the order of the parts.
    pictures: dict[int, list[pygame.Surface]] = field(default_factory=dict)


class IdlePainter:
    """Draws the idle window's slow frames (see the module docstring)."""

    def __init__(self) -> None:
        self._kept = _Kept()
        #: Slow frames drawn by the scenes (clipped) and from kept pictures (tests, benchmarks).
        self.drawn = 0
        self.copied = 0
        #: Whole frames that did not match the kept pictures (something changed unsaid).
        self.mismatches = 0

    def forget(self) -> None:
        """Anything may have changed: no kept picture is used again."""
        if self._kept.pictures or self._kept.key:
            self._kept = _Kept()

    @property
    def complete(self) -> bool:
        """Every step of the current cycle is kept (the app may check less often)."""
        kept = self._kept
        return kept.steps > 0 and len(kept.pictures) == kept.steps

    def paint(
        self,
        screen: pygame.Surface,
        rects: list[pygame.Rect],
        cycle: tuple[int, int] | None,
        draw: Callable[[], None],
        key: tuple[object, ...],
    ) -> None:
        """Bring the window's ``rects`` up to date for step ``cycle`` (``None``: the picture
        does not repeat, draw it each time): a kept picture of the step, or ``draw()`` (the
        whole window's drawing) clipped to the parts, kept for next time when it fits the
        budget.  ``key`` names everything the pictures depend on besides the step."""
        kept = self._cycle(screen, rects, cycle, key)
        if kept is not None and cycle is not None:
            pictures = kept.pictures.get(cycle[0])
            if pictures is not None:
                for rect, picture in zip(rects, pictures, strict=True):
                    screen.blit(picture, rect)
                self.copied += 1
                return
        screen.set_clip(rects[0].unionall(rects[1:]))
        try:
            draw()
        finally:
            screen.set_clip(None)
        self.drawn += 1
        self._keep(screen, rects, cycle, kept)

    def whole_frame(
        self,
        screen: pygame.Surface,
        rects: list[pygame.Rect] | None,
        cycle: tuple[int, int] | None,
        key: tuple[object, ...],
    ) -> bool:
        """A whole frame was just drawn at step ``cycle`` of a slow frame with these parts:
        keep its parts when the step has none yet; when it has, they must match, or something
        changed that nobody said and every kept picture is forgotten.  False on a mismatch."""
        if not rects or cycle is None:
            return True
        kept = self._cycle(screen, rects, cycle, key)
        if kept is None:
            return True
        pictures = kept.pictures.get(cycle[0])
        if pictures is None:
            self._keep(screen, rects, cycle, kept)
            return True
        for rect, picture in zip(rects, pictures, strict=True):
            now = pygame.image.tobytes(screen.subsurface(rect), "RGB")
            if now != pygame.image.tobytes(picture, "RGB"):
                self.forget()
                self.mismatches += 1
                return False
        return True

    def _cycle(
        self,
        screen: pygame.Surface,
        rects: list[pygame.Rect],
        cycle: tuple[int, int] | None,
        key: tuple[object, ...],
    ) -> _Kept | None:
        """The kept pictures for these parts and this key (started afresh when they differ
        from the last ones); ``None`` when the picture does not repeat."""
        if cycle is None:
            self.forget()
            return None
        full_key = (key, tuple(tuple(r) for r in rects), cycle[1], screen.get_size())
        if full_key != self._kept.key:
            self._kept = _Kept(full_key, cycle[1])
        return self._kept

    def _keep(
        self,
        screen: pygame.Surface,
        rects: list[pygame.Rect],
        cycle: tuple[int, int] | None,
        kept: _Kept | None,
    ) -> None:
        if kept is None or cycle is None or not self._fits(rects, kept.steps):
            return
        bounds = screen.get_rect()
        if all(bounds.contains(r) for r in rects):
            kept.pictures[cycle[0]] = [screen.subsurface(r).copy() for r in rects]

    @staticmethod
    def _fits(rects: list[pygame.Rect], steps: int) -> bool:
        area = sum(r.width * r.height for r in rects)
        return area * 4 * max(1, steps) <= BUDGET_BYTES
