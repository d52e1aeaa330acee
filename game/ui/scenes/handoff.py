"""Hot-seat hand-off: which local seat the table shows, the curtain between seats in a game with
secrets, and which state message (a seat's own, or the public one) is drawn."""

from __future__ import annotations

from typing import Any

from game.ui.scenes.table_base import TableBase


class HandoffMixin(TableBase):
    """Seat choice and curtains of :class:`~game.ui.scenes.game.GameScene`."""

    def _secrets(self) -> bool:
        """Whether seats hold secrets (the game's trait; the view's guess for a game this
        client does not have)."""
        if self._secret_trait is None:
            from game.core.registry import get_game

            try:
                self._secret_trait = bool(get_game(self.client.game_id).secrets)
            except Exception:
                self._secret_trait = self.view.has_secrets
        return self._secret_trait

    def _hot_seat(self) -> bool:
        """Several seats share this screen and the game has secrets: curtains between them."""
        return len(self.client.local_seats) > 1 and self._secrets()

    def _choose_seat(self) -> None:
        """Which local seat to show; the curtain when it changes in a game with secrets.

        The first local seat in ``to_move`` is shown.  In a simultaneous phase several local
        seats choose: each in turn, behind its own curtain — the next one's curtain comes up
        when the shown seat has committed (left ``to_move``)."""
        local = self.client.local_seats
        if not local:
            self.shown = None
            return
        if len(local) == 1:
            self.shown = local[0]
            return
        candidate = next((s for s in self.client.to_move() if s in local), None)
        if candidate is None:
            if self.shown is None:
                self.shown = local[0]
            return
        if candidate != self.shown or self.revealed is None:
            self.shown = candidate
            if self._secrets() and self.revealed != candidate and not self.client.game_over:
                self._curtain(candidate)

    def _curtain(self, seat: int) -> None:
        from game.ui.scenes.overlays import CurtainOverlay

        info = self.view.seats[seat]
        top = self.app.top
        if isinstance(top, CurtainOverlay):
            self.app.pop()
        if self.app.top is not self:
            # Something else (help, menu) is open: put the curtain under it is not possible, so
            # close those first; the curtain must hide the table now.
            while self.app.top is not self and self.app.top is not None:
                self.app.pop()
        # Behind the curtain the table shows only what everyone may see, until it lifts.
        self._refresh_view(force=True)
        self.app.push(
            CurtainOverlay(
                self.app,
                info.name,
                info.rgb(self.app.settings.colour_blind),
                on_ready=lambda: self._revealed(seat),
            )
        )

    def _revealed(self, seat: int) -> None:
        self.revealed = seat
        self._refresh_view(force=True)

    def _message(self) -> tuple[dict[str, Any] | None, bool]:
        """The state message to draw, and whether it is the shown seat's own.

        A seat's own view (with its secrets and its legal actions) is drawn when it is the only
        seat played here, or — hot-seat — while its curtain is lifted and it is choosing.
        Otherwise a hot-seat table draws what every player at the screen may see: the
        spectator connection's view (or, without one, the seat's view with its secrets off)."""
        shown = self.shown
        own = self.client.state_of(shown) if shown is not None else None
        if self._hot_seat():
            mine = (
                shown is not None
                and self.revealed == shown
                and shown in self.client.to_move()
                and self.client.game_over is None
            )
            if not mine:
                public = self.client.state_of(None)
                return (public or own or self.client.latest(), False)
        if own is None:
            return (self.client.latest(), False)
        return (own, True)

    def _may_show(self, seat: int) -> bool:
        """Hot-seat: only act for the seat the curtain was lifted for."""
        if not self._hot_seat():
            return True
        return self.revealed == seat
