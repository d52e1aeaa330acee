"""Why a click is refused: the game scene asks the host (``explain``, once per target and
decision) why the action a click or the hover asks for (the view's ``intent``) is not legal,
and shows the engine's reason at the pointer or in the tooltip.  The UI never decides a rule:
it only says what the host answered."""

from __future__ import annotations

from typing import Any

import pygame

from game.ui import palette as pal
from game.ui.i18n import t
from game.ui.scenes.table_base import TableBase
from game.ui.widgets import draw_box

#: How long a refused click's reason stays at the pointer (seconds), and how far the mouse may
#: wander from the click before it goes (design pixels).
REFUSAL_TIME = 4.0
REFUSAL_RADIUS = 60


class RefusalMixin(TableBase):
    """Refusals of :class:`~game.ui.scenes.game.GameScene`."""

    def _decision_key(self) -> tuple[Any, ...]:
        """The shown seat's current decision: explanations are cached per decision."""
        st = self.client.state_of(self.shown) if self.shown is not None else None
        if st is None:
            return ()
        decision = st.get("decision")
        return (self.shown, decision if isinstance(decision, int) else st.get("seq"))

    def _sync_explanations(self) -> None:
        """Forget the explanations of an earlier decision; file the host's new answers."""
        key = self._decision_key()
        if key != self._why_key:
            self._why_key = key
            self._why_asked = {}
            self._why = {}
            self.refusal = None
        if self.shown is None:
            return
        answers = self.client.explanations.pop(self.shown, [])
        for msg in answers:
            action = msg.get("action")
            if not isinstance(action, list):
                continue
            act = tuple(action)
            if self._why_asked.get(act) != msg.get("seq"):
                continue  # an answer about an earlier decision
            reason = msg.get("reason")
            self._why[act] = reason if isinstance(reason, dict) and not msg.get("legal") else None

    def _may_explain(self) -> bool:
        return (
            self.shown is not None
            and self._may_show(self.shown)
            and self.client.game_over is None
            and self.client.state_of(self.shown) is not None
            and not self.client.closed
        )

    def _ask_why(self, action: tuple[Any, ...]) -> None:
        """Ask the host once per decision why ``action`` is refused."""
        if action in self._why_asked or not self._may_explain() or self.shown is None:
            return
        st = self.client.state_of(self.shown)
        if st is not None and self.client.explain(self.shown, action):
            self._why_asked[action] = int(st.get("seq", 0))

    def _refused_action(self, pos: tuple[int, int]) -> tuple[Any, ...] | None:
        """The action a click at ``pos`` would ask for when it is not legal now."""
        if not self._may_explain():
            return None
        intent = self.view.intent(pos)
        if intent is None or tuple(intent) in self.view.legal:
            return None
        return tuple(intent)

    def _explain_hover(self) -> None:
        """Hover over a refused target during the seat's own decision: ask why (once)."""
        if self.app.top is not self or self.shown not in self.client.to_move():
            return
        action = self._refused_action(self.app.mouse)
        if action is not None:
            self._ask_why(action)

    def refusal_text(self, action: tuple[Any, ...]) -> str:
        """The reason the host gave for ``action``, in the player's language ("" until the
        answer is there, or when it was legal after all)."""
        reason = self._why.get(action)
        if not reason:
            return ""
        return t("game.refused", reason=self.view.reason_text(reason))

    def _refuse_click(self, pos: tuple[int, int]) -> bool:
        """A click that chooses nothing: if it asked for a refused action, say why at the
        pointer (asking the host first)."""
        action = self._refused_action(pos)
        if action is None:
            return False
        self._ask_why(action)
        self.refusal = (pos, action, self.app.time)
        return True

    def _refusal_shown(self) -> bool:
        """A refused click's reason is at the pointer (until it is old or the mouse left)."""
        if self.refusal is None:
            return False
        pos, action, when = self.refusal
        mx, my = self.app.mouse
        near = (mx - pos[0]) ** 2 + (my - pos[1]) ** 2 <= self.app.px(REFUSAL_RADIUS) ** 2
        if self.app.time - when > REFUSAL_TIME or not near:
            self.refusal = None
            return False
        return bool(self.refusal_text(action))

    def _draw_refusal(self, surface: pygame.Surface) -> None:
        """A refused click's reason, at once, in a red-edged bubble by the pointer."""
        if not self._refusal_shown() or self.refusal is None:
            return
        pos, action, _when = self.refusal
        px = self.app.px
        img = self.app.fonts.render(self.refusal_text(action), px(15), pal.TEXT, wrap=px(380))
        pad = px(9)
        box = pygame.Rect(0, 0, img.get_width() + 2 * pad, img.get_height() + 2 * pad)
        box.topleft = (pos[0] + px(14), pos[1] + px(16))
        w, h = surface.get_size()
        if box.right > w - 4:
            box.right = pos[0] - px(10)
        if box.bottom > h - 4:
            box.bottom = pos[1] - px(10)
        box.clamp_ip(surface.get_rect())
        pygame.draw.rect(surface, (0, 0, 0), box.move(3, 3), border_radius=px(7))
        draw_box(surface, box, (52, 26, 28), pal.BAD, radius=px(7), width=2)
        surface.blit(img, (box.x + pad, box.y + pad))
