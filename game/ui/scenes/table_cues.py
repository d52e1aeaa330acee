"""The table's sounds and its call for attention: which moment of a game makes which cue
(``game/ui/sound.py`` plays them).

* **your turn** (``turn``) — the shown seat may act and could not a moment ago (its curtain,
  in hot-seat, says the same when it comes up); the window also asks for attention when it is
  not in front (``game/ui/attention.py``);
* **a move lands** (``move``), **a bid is outbid** (``outbid``), **a season or scoring round
  ends** (``round``) — what the game's view hears in the events of a new state
  (:meth:`GameView.cues`); nothing for the first state a table shows (what happened before);
* **the final scoring** — a pluck (``score``) at each step of the sequence that gives a seat
  points, a chord (``final``) when it is over;
* **a chat line** (``chat``) from another computer.
"""

from __future__ import annotations

from typing import Any

from game.ui.scenes.table_base import TableBase


class CueMixin(TableBase):
    """Cues of :class:`~game.ui.scenes.game.GameScene`."""

    _cue_my_turn: bool = False
    _cue_beat: int | None = None
    _cue_final: bool = False

    def _cue_events(self, events: list[dict[str, Any]], first: bool) -> None:
        """The cues of a new state's events (before the view takes them)."""
        if first or not events:
            return
        for cue in self.view.cues(events):
            self.app.sounds.play(cue)

    def _cue_turn(self) -> None:
        """After a new state: "your turn" when the shown seat may act now and could not."""
        mine = (
            self.shown is not None
            and self._may_show(self.shown)
            and self.shown in self.client.to_move()
            and bool(self.view.legal)
            and self.client.game_over is None
        )
        if mine and not self._cue_my_turn and not self._hot_seat():
            # (hot-seat: the curtain coming up says it, ``handoff.py``)
            self.app.sounds.play("turn")
            self.app.attention.your_turn()
        self._cue_my_turn = mine

    def _cue_chat(self, lines: list[tuple[int | None, str]]) -> None:
        """New chat lines: a blip for a line from another computer."""
        local = set(self.client.local_seats)
        if any(seat not in local for seat, _text in lines):
            self.app.sounds.play("chat")

    def _cue_scoring(self) -> None:
        """During the final scoring: a pluck per step that gives points, a chord at the end."""
        beat = self.view.scoring_beat()
        step = beat[0] if beat is not None else None
        if beat is not None and step != self._cue_beat and beat[1]:
            self.app.sounds.play("score")
        self._cue_beat = step
        if (
            not self._cue_final
            and self.client.game_over is not None
            and self.scoring_started
            and self.view.scoring_done()
        ):
            self._cue_final = True
            self.app.sounds.play("final")
