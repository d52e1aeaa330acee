"""The action composer: build one legal action field by field.

Actions are small tuples, kind first (``docs/architecture.md``, "Large choices step by step").
A view that cannot answer every choice with one click — Keyflower's bid (tile, then colour,
then count), Glen More's purchase, or any game the client has no view for — composes the action:

* :class:`Composer` keeps the fields chosen so far (the *prefix*) over the seat's ``legal``
  list.  It lists the values the next field may take (:meth:`Composer.options`; for a board,
  :meth:`Composer.targets` gives the next two fields together as the cells to highlight),
  extends the prefix with a choice (a value no legal action continues with is refused: the UI
  decides no rule), steps back, and says when the prefix is a whole legal action
  (:meth:`Composer.complete`).  A choice that finishes an action nothing else continues is
  returned at once to be sent; a prefix that is complete but could also go on waits for
  Confirm (Enter).
* The engine also builds large choices as *separate* actions (a pending decision whose legal
  list holds only the next step, e.g. ``("bid_tile", 3)`` then ``("bid_colour", "red")``).
  Each step is then a whole action: it is sent, the host answers with the next step's list and
  the composer starts afresh from it.  The composer's Back works inside one action; a step back
  over an action already sent is the host's Undo (which stays inside the turn).
* :class:`ComposerPanel` draws a composer in a rectangle of a view's panel: what is being
  chosen, the fields chosen so far, and a button per value of the next field (scrolling when
  there are many).  Its Back and Confirm are buttons of the view (:meth:`ComposerPanel.buttons`)
  in the top bar; Backspace steps back, Enter confirms, 1-9 pick the first nine values.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pygame

from game.ui import palette as pal
from game.ui.i18n import lazy, t

if TYPE_CHECKING:
    from game.ui.app import App
    from game.ui.games.base import ViewButton

Action = tuple[Any, ...]


class Composer:
    """One action of ``legal`` chosen field by field (see the module docstring).

    ``fields`` names the fields after the kind, per kind (``{"bid": ("tile", "colour",
    "count")}``) for prompts; unnamed fields are numbered.
    """

    def __init__(
        self,
        legal: Iterable[Sequence[Any]] = (),
        fields: dict[str, Sequence[str]] | None = None,
    ) -> None:
        self.fields = dict(fields or {})
        self.legal: list[Action] = []
        self.question: Any = None
        self._legal_set: set[Action] = set()
        self.prefix: Action = ()
        #: Fields :meth:`skip_forced` chose (Back does not go before them).
        self.floor = 0
        self.set_legal(legal)

    # ---- the legal list ----------------------------------------------------------------------
    def set_legal(self, legal: Iterable[Sequence[Any]], question: Any = None) -> bool:
        """A new legal list: the prefix starts afresh unless the list is the same as before and
        so is ``question`` (what identifies the seat's decision: the state message's
        ``decision`` and ``turn`` — the same list may be asked again as a new question, e.g. a
        seat moving twice in a row).  True when it started afresh."""
        new = [tuple(a) for a in legal]
        if new == self.legal and question == self.question:
            return False
        self.legal = new
        self.question = question
        self._legal_set = set(new)
        self.prefix = ()
        self.floor = 0
        return True

    def candidates(self) -> list[Action]:
        """The legal actions that begin with the prefix (the prefix itself included)."""
        n = len(self.prefix)
        return [a for a in self.legal if a[:n] == self.prefix]

    # ---- the next field ----------------------------------------------------------------------
    @property
    def depth(self) -> int:
        """The index of the field asked for next (0: the action's kind)."""
        return len(self.prefix)

    def options(self) -> list[Any]:
        """The values the next field may take, in the order of the legal list."""
        return [t[0] for t in self.targets(1)]

    def targets(self, width: int = 1) -> list[tuple[Any, ...]]:
        """The distinct next ``width`` fields of the legal actions that continue the prefix,
        in order: with ``width=2`` after ``("place",)`` the cells a board should highlight."""
        n = len(self.prefix)
        seen: dict[tuple[Any, ...], None] = {}
        for a in self.candidates():
            if len(a) >= n + width:
                seen.setdefault(a[n : n + width], None)
        return list(seen)

    def field_name(self) -> str:
        """The name of the field asked for next: "kind", a name from ``fields``, or its
        number."""
        if not self.prefix:
            return "kind"
        names = self.fields.get(str(self.prefix[0]), ())
        i = len(self.prefix) - 1
        return names[i] if i < len(names) else str(len(self.prefix))

    # ---- choosing ----------------------------------------------------------------------------
    def choose(self, *values: Any) -> Action | None:
        """Extend the prefix by ``values`` if a legal action continues that way (else nothing
        changes).  Returns the action when the prefix is now a legal action that nothing
        continues — the view sends it — and None otherwise."""
        new = (*self.prefix, *values)
        n = len(new)
        if not values or not any(a[:n] == new for a in self.legal):
            return None
        self.prefix = new
        return new if self.finished() else None

    def skip_forced(self) -> None:
        """Choose every field that has a single possible value and does not finish an action
        by itself (``[("bid", 0), ("bid", 1)]`` asks for the amount at once; a lone
        ``("seal",)`` still waits for its click).  Back stops after these fields."""
        while True:
            values = self.options()
            if len(values) != 1 or (*self.prefix, values[0]) in self._legal_set:
                break
            self.prefix = (*self.prefix, values[0])
        self.floor = len(self.prefix)

    def back(self) -> bool:
        """Drop the last chosen field; False when nothing was chosen (or only forced fields)."""
        if len(self.prefix) <= self.floor:
            return False
        self.prefix = self.prefix[:-1]
        return True

    def can_go_back(self) -> bool:
        return len(self.prefix) > self.floor

    def reset(self) -> None:
        self.prefix = ()
        self.floor = 0

    def complete(self) -> Action | None:
        """The prefix, when it is a whole legal action (Confirm sends it)."""
        return self.prefix if self.prefix and self.prefix in self._legal_set else None

    def finished(self) -> bool:
        """The prefix is a legal action and no legal action is longer with the same start."""
        n = len(self.prefix)
        return self.complete() is not None and not any(
            len(a) > n and a[:n] == self.prefix for a in self.legal
        )

    def hinted(self, hint: Action | None, width: int = 1) -> tuple[Any, ...] | None:
        """The next ``width`` fields of ``hint`` when it continues the prefix (to mark them)."""
        n = len(self.prefix)
        if hint is None or tuple(hint[:n]) != self.prefix or len(hint) < n + width:
            return None
        return tuple(hint[n : n + width])


#: How a value is shown: (field index, value, the prefix before it) -> text.
Labeller = Callable[[int, Any, Action], str]


def plain_label(index: int, value: Any, prefix: Action) -> str:
    """A value as text: the kind and strings as they are, numbers as numbers."""
    return str(value)


@dataclass
class _Option:
    rect: pygame.Rect
    value: Any
    label: str


class ComposerPanel:
    """Draws a :class:`Composer` in a rectangle and answers clicks and keys there."""

    def __init__(
        self,
        app: App,
        composer: Composer,
        label: Labeller = plain_label,
        field_label: Callable[[Composer], str] | None = None,
        id_prefix: str = "composer",
    ) -> None:
        self.app = app
        self.composer = composer
        self.label = label
        self.field_label = field_label or (lambda c: c.field_name())
        self.id_prefix = id_prefix
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.options: list[_Option] = []
        self.scroll = 0
        self.content_h = 0
        self.hover = -1
        #: A hinted action (its next field is ringed).
        self.hint: Action | None = None

    # ---- buttons and keys --------------------------------------------------------------------
    def option_rects(self) -> list[pygame.Rect]:
        """Where the option buttons were drawn last."""
        return [pygame.Rect(o.rect) for o in self.options]

    def buttons(self, enabled: bool = True) -> list[ViewButton]:
        """Back (one field back) and Confirm (send the complete prefix), for the top bar."""
        from game.ui.games.base import ViewButton

        c = self.composer
        return [
            ViewButton(
                f"{self.id_prefix}_back",
                lazy("composer.back"),
                on_click=self.back,
                hint="Bksp",
                enabled=enabled and c.can_go_back(),
                tooltip=lazy("composer.back.tip"),
            ),
            ViewButton(
                f"{self.id_prefix}_confirm",
                lazy("composer.confirm"),
                c.complete(),
                hint="Enter",
                primary=True,
                enabled=enabled and c.complete() is not None,
                width=130,
            ),
        ]

    def back(self) -> Action | None:
        self.composer.back()
        self.scroll = 0
        return None

    def key(self, event: pygame.event.Event) -> Action | None:
        """Backspace steps back; 1-9 choose the first nine values shown."""
        if event.key == pygame.K_BACKSPACE:
            self.back()
            return None
        if pygame.K_1 <= event.key <= pygame.K_9:
            i = event.key - pygame.K_1
            values = self.composer.options()
            if i < len(values):
                return self.pick(values[i])
        return None

    def pick(self, value: Any) -> Action | None:
        self.scroll = 0
        return self.composer.choose(value)

    def click(self, pos: tuple[int, int]) -> tuple[bool, Action | None]:
        """(whether the click was on the panel, the action it finishes if any)."""
        if not self.rect.collidepoint(pos):
            return (False, None)
        for option in self.options:
            if option.rect.collidepoint(pos):
                return (True, self.pick(option.value))
        return (True, None)

    def wheel(self, pos: tuple[int, int], dy: int) -> bool:
        if not self.rect.collidepoint(pos):
            return False
        self.scroll = max(0, min(self.scroll - dy * self.app.px(40), self._max_scroll()))
        return True

    def mouse_moved(self, pos: tuple[int, int]) -> None:
        self.hover = next((i for i, o in enumerate(self.options) if o.rect.collidepoint(pos)), -1)

    def _max_scroll(self) -> int:
        return max(0, self.content_h - self._list_rect().height)

    # ---- drawing -----------------------------------------------------------------------------
    def _list_rect(self) -> pygame.Rect:
        px = self.app.px
        top = self.rect.y + px(58)
        return pygame.Rect(self.rect.x, top, self.rect.width, max(0, self.rect.bottom - top))

    def draw(self, surface: pygame.Surface, active: bool = True) -> None:
        """The prompt, the fields chosen so far and the values of the next field (only when
        ``active``: the shown seat may act)."""
        px = self.app.px
        fonts = self.app.fonts
        rect = self.rect
        self.options = []
        if rect.width <= px(40) or rect.height <= px(40):
            return
        c = self.composer
        pygame.draw.rect(surface, pal.BG_PANEL, rect, border_radius=px(10))
        pygame.draw.rect(surface, pal.BORDER, rect, 1, border_radius=px(10))
        x, w = rect.x + px(10), rect.width - px(20)
        if not active or not c.legal:
            img = fonts.render(fonts.ellipsize(t("composer.idle"), px(15), w), px(15), pal.TEXT_DIM)
            surface.blit(img, (x, rect.y + px(10)))
            return
        if c.finished() or (c.complete() is not None and not c.targets(1)):
            prompt = t("composer.ready")
        else:
            prompt = t("composer.choose", field=self.field_label(c))
        size = fonts.fit(prompt, px(16), w, True, minimum=px(11))
        img = fonts.render(fonts.ellipsize(prompt, size, w, True), size, pal.ACCENT, True)
        surface.blit(img, (x, rect.y + px(8)))
        chosen = " › ".join(self.label(i, v, c.prefix[:i]) for i, v in enumerate(c.prefix))
        if c.complete() is not None and c.targets(1):
            chosen += "  " + t("composer.or_confirm")
        crumb = fonts.render(
            fonts.ellipsize(chosen or t("composer.nothing_yet"), px(13), w), px(13), pal.TEXT_DIM
        )
        surface.blit(crumb, (x, rect.y + px(32)))
        self._draw_options(surface)

    def _draw_options(self, surface: pygame.Surface) -> None:
        px = self.app.px
        fonts = self.app.fonts
        c = self.composer
        area = self._list_rect().inflate(-px(16), -px(8))
        if area.width <= 0 or area.height <= 0:
            return
        values = c.options()
        labels = [self.label(c.depth, v, c.prefix) for v in values]
        hinted = c.hinted(self.hint)
        size = px(14)
        bh, gap = px(32), px(6)
        # Buttons as wide as their labels (at most the whole row), flowing into rows.
        x, y = 0, 0
        placed: list[tuple[int, int, int]] = []
        for i, label in enumerate(labels):
            key = f"{i + 1} " if i < 9 else ""
            bw = min(area.width, fonts.size(key + label, size)[0] + px(20))
            bw = max(bw, px(44))
            if x and x + bw > area.width:
                x, y = 0, y + bh + gap
            placed.append((x, y, bw))
            x += bw + gap
        self.content_h = (y + bh + px(8)) if labels else 0
        self.scroll = min(self.scroll, self._max_scroll())
        clip = surface.get_clip()
        surface.set_clip(area.clip(clip))
        for i, ((ox, oy, bw), label, value) in enumerate(zip(placed, labels, values, strict=True)):
            r = pygame.Rect(area.x + ox, area.y + oy - self.scroll, bw, bh)
            if r.bottom < area.y or r.y > area.bottom:
                continue
            self.options.append(_Option(r.clip(area), value, label))
            hovered = i == self.hover
            fill = pal.BG_HOVER if hovered else pal.BG_PANEL_2
            pygame.draw.rect(surface, fill, r, border_radius=px(6))
            pygame.draw.rect(surface, pal.HIGHLIGHT, r, 1, border_radius=px(6))
            if hinted is not None and hinted == (value,):
                pygame.draw.rect(surface, pal.HINT, r.inflate(4, 4), 3, border_radius=px(8))
            tx = r.x + px(8)
            if i < 9:
                num = fonts.render(str(i + 1), px(11), pal.TEXT_DIM)
                surface.blit(num, num.get_rect(midleft=(tx, r.centery)))
                tx += num.get_width() + px(5)
            avail = r.right - px(8) - tx
            text = fonts.ellipsize(label, size, avail)
            img = fonts.render(text, size, pal.TEXT)
            surface.blit(img, img.get_rect(midleft=(tx, r.centery)))
        surface.set_clip(clip)
        if self.content_h > area.height:
            frac = area.height / self.content_h
            bar_h = max(px(20), int(area.height * frac))
            limit = max(1, self._max_scroll())
            top = area.y + int((area.height - bar_h) * self.scroll / limit)
            pygame.draw.rect(
                surface, pal.BORDER, (area.right + px(3), top, px(4), bar_h), border_radius=2
            )
