"""Hot-seat hand-off: which local seat the table shows, the curtain between seats in a game with
secrets, and which state message (a seat's own, or the public one) is drawn.

**When the curtain comes.**  The move that ends a seat's turn lands first: its animations play,
and so do the bots' moves after it and the end of a season or a scoring round, on the table as
everyone may see it (the spectator connection's view: no seat's secrets).  Only when nothing
moves any more and the table has stayed in view for :data:`HANDOFF_PAUSE` seconds does the next
local player's curtain come up — "Pass the computer to Ben", with its button.

**What happened since your last turn.**  For every local seat the table keeps the public log
lines and events of the other seats from the moment that seat's turn ended.  Its curtain lists
the lines ("Since your last turn"), and when it lifts the game's view rings what they changed
(:meth:`GameView.show_since`).  All of it comes from the spectator connection: public only.
"""

from __future__ import annotations

from typing import Any

from game.ui.games.base import LogLine
from game.ui.scenes.table_base import TableBase

#: Seconds the table stays in view, once the move that ended a turn (and whatever followed it)
#: has landed, before the next player's curtain comes up.
HANDOFF_PAUSE = 0.8
#: What a seat's "since your last turn" keeps at most (the newest log lines and events).
SINCE_LINES = 200
SINCE_EVENTS = 2000


class HandoffMixin(TableBase):
    """Seat choice and curtains of :class:`~game.ui.scenes.game.GameScene`."""

    def _init_handoff(self) -> None:
        #: The seat whose curtain is due once the table is calm, and for how long it has been.
        self.handoff: int | None = None
        self.handoff_calm = 0.0
        #: Per local seat whose turn has ended: the other seats' log lines and public events
        #: since then (``None``: the seat is the one choosing now).
        self.since_lines: dict[int, list[LogLine]] = {}
        self.since_events: dict[int, list[dict[str, Any]]] = {}

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
        """Which local seat to show; its curtain, when it changes in a game with secrets, once
        the table is calm (:meth:`_sync_handoff`).

        The first local seat in ``to_move`` is shown.  In a simultaneous phase several local
        seats choose: each in turn, behind its own curtain — the next one's comes once the
        shown seat has committed (left ``to_move``).  A seat moving again right after its own
        turn gets no curtain."""
        local = self.client.local_seats
        if not local:
            self.shown = None
            return
        if len(local) == 1:
            self.shown = local[0]
            return
        self._turn_over()
        candidate = next((s for s in self.client.to_move() if s in local), None)
        if candidate is None:
            if self.shown is None:
                self.shown = local[0]
            return
        if candidate != self.shown or self.revealed is None:
            self.shown = candidate
            due = self._secrets() and self.revealed != candidate and not self.client.game_over
            if due and self.handoff != candidate:
                self.handoff = candidate
                self.handoff_calm = 0.0

    def _turn_over(self) -> None:
        """The seat whose curtain was lifted no longer chooses: from now on, what the others do
        is what it is shown when its turn comes again."""
        seat = self.revealed
        if seat is None or seat in self.client.to_move() or seat in self.since_lines:
            return
        self.since_lines[seat] = []
        self.since_events[seat] = []

    def _note_since(self, lines: list[LogLine], events: list[dict[str, Any]]) -> None:
        """Public lines and events of a new state: each waiting local seat keeps the other
        seats' (its own moves are not news to it)."""
        if not self._hot_seat():
            return
        for seat, kept in self.since_lines.items():
            kept.extend(line for line in lines if line.seat != seat and not line.chat)
            del kept[:-SINCE_LINES]
        for seat, kept_events in self.since_events.items():
            kept_events.extend(ev for ev in events if ev.get("seat") != seat)
            del kept_events[:-SINCE_EVENTS]

    def _sync_handoff(self, dt: float) -> None:
        """Put the due curtain up once the table is calm: nothing animating, nothing on its
        way from the host, and :data:`HANDOFF_PAUSE` seconds in view."""
        seat = self.handoff
        if seat is None:
            return
        if self.client.game_over is not None or seat not in self.client.to_move():
            self.handoff = None
            return
        if self.view.animating() or self.client.events:
            self.handoff_calm = 0.0
            return
        self.handoff_calm += dt
        if self.handoff_calm >= HANDOFF_PAUSE:
            self.handoff = None
            self._curtain(seat)

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
                since=list(self.since_lines.get(seat, [])),
                seats=self.view.seats,
            )
        )
        self.app.sounds.play("turn")
        self.app.attention.your_turn()

    def _revealed(self, seat: int) -> None:
        self.revealed = seat
        self.handoff = None
        self._refresh_view(force=True)
        events = self.since_events.pop(seat, [])
        self.since_lines.pop(seat, None)
        self.view.show_since(events, seat)

    def _message(self) -> tuple[dict[str, Any] | None, bool]:
        """The state message to draw, and whether it is the shown seat's own.

        A seat's own view (with its secrets and its legal actions) is drawn when it is the only
        seat played here, or — hot-seat — while its curtain is lifted and it is choosing.
        Otherwise a hot-seat table draws what every player at the screen may see: the
        spectator connection's view (or, without one, the seat's view with its secrets off);
        ``None`` while the spectator connection has no state yet."""
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
                if public is None and None in self.client.conns:
                    # The spectator's first state is on its way: draw nothing new until it
                    # comes (a seat's own message would carry that seat's secrets).
                    return (None, False)
                return (public or own or self.client.latest(), False)
        if own is None:
            return (self.client.latest(), False)
        return (own, True)

    def _may_show(self, seat: int) -> bool:
        """Hot-seat: only act for the seat the curtain was lifted for."""
        if not self._hot_seat():
            return True
        return self.revealed == seat
