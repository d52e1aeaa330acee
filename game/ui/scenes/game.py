"""The game scene: one table, whatever the game, drawn by that game's view.

Common to every game: the top bar (what to do now, Hint, Undo, Help, Menu), the log and chat
line, the hot-seat curtain, errors from the host, the end-of-game sequence and the switch to the
results.  The game's :class:`~game.ui.games.base.GameView` owns the rest: the table's layout
(where its boards and panel go, and where the log fits), the active-seat marks in the top bar,
and its own buttons there ("End turn", "Stop", a composer's "Confirm"), which the scene places
and whose actions it sends.

Which seat's view is shown: the one local seat; with several local (hot-seat) seats, the local
seat whose turn it is — switching seats in a game with secrets puts up the curtain first
("Pass to Anna").  With no local seat (a game of bots) the spectator view.
"""

from __future__ import annotations

import sys
import traceback
from typing import TYPE_CHECKING, Any

import pygame

from game.ui import palette as pal
from game.ui.client import CHAT_MAX, TableClient
from game.ui.games import view_class
from game.ui.games.base import GameView, LogLine, ViewButton, shown_seats
from game.ui.i18n import t
from game.ui.scene import Scene
from game.ui.scenes.handoff import HandoffMixin
from game.ui.scenes.table_bar import TableBarMixin
from game.ui.scenes.table_cues import CueMixin
from game.ui.scenes.table_refusals import REFUSAL_RADIUS, REFUSAL_TIME, RefusalMixin  # noqa: F401
from game.ui.widgets import Button, TextField
from game.ui.widgets.log import LogBox

if TYPE_CHECKING:
    from game.ui.app import App

#: How long the finished board stays before the results scene (seconds at speed 1).
RESULTS_PAUSE = 1.6
MAX_LOG = 400
#: Frames a second for a slow pulse (highlighted targets, a hint) when nothing else moves:
#: smooth enough for a glow of 1.6 s, a quarter less work than 20 for an idle table (the
#: tables of games that redraw everything for it stay under 5 % of a core, bench/ui.py).
AMBIENT_FPS = 15.0


class GameScene(HandoffMixin, RefusalMixin, TableBarMixin, CueMixin, Scene):
    """A table in play (see the module docstring)."""

    name = "game"

    def __init__(self, app: App, client: TableClient, players: int) -> None:
        super().__init__(app)
        self.client = client
        self.players = players
        self.help_topic = f"game:{client.game_id}"
        cls = view_class(client.game_id)
        self.view: GameView = cls(app, shown_seats(client.seat_infos(players)))
        self.shown: int | None = None
        self.revealed: int | None = None  # the seat the curtain was last lifted for
        self._init_handoff()
        self._secret_trait: bool | None = None
        #: The view failed on the host's data: the table is no longer drawn (see _view_failed).
        self.broken = False
        self._shown_key: tuple[Any, ...] = ()
        self.log: list[LogLine] = []
        #: Log lines that wait for the end of the final scoring on the table (the winner).
        self.held_lines: list[LogLine] = []
        self.logbox = LogBox()
        self.results_shown = False
        self.results_timer = 0.0
        self.scoring_started = False
        self.last_seq = -1
        self.undo_button = Button(
            "undo",
            lambda: t("game.undo"),
            self.undo,
            hint="Ctrl+Z",
            tooltip=lambda: t("game.undo.tip"),
            enabled=self._can_undo,
        )
        self.hint_button = Button(
            "hint",
            lambda: t("game.hint"),
            self.ask_hint,
            hint="H",
            tooltip=lambda: t("game.hint.tip"),
            enabled=self._can_hint,
        )
        self.hint_button.visible = False
        self.restart_button = Button(
            "restart",
            lambda: t("game.restart"),
            self.restart_turn,
            tooltip=lambda: t("game.restart.tip"),
            enabled=self._can_undo,
        )
        self.help_button = Button("game_help", lambda: t("common.help"), self._help, hint="F1")
        self.menu_button = Button("game_menu", lambda: t("game.menu"), self.open_menu, hint="Esc")
        self.results_button = Button(
            "results", lambda: t("game.results"), self.show_results, style="primary"
        )
        self.results_button.visible = False
        # LAN tables: a chat line under the log, and the creator's way to let a bot play for
        # a player who lost the connection.
        self.chat_field = TextField(
            "chat_input",
            placeholder=lambda: t("chat.placeholder"),
            max_length=CHAT_MAX,
            on_submit=self.send_chat,
        )
        self.chat_field.visible = client.local_host is None
        self.chat_seen = 0
        self.bot_button = Button(
            "seat_to_bot",
            lambda: t("game.seat_to_bot"),
            self.offer_bot,
            tooltip=lambda: t("game.seat_to_bot.tip"),
        )
        self.bot_button.visible = False
        #: The table's connection ended for good (the host closed the table, or went away).
        self.gone = False
        self.add(self.chat_field)
        self.add(self.bot_button)
        #: The view's own buttons (``GameView.buttons``), by id, and their widgets.
        self.view_specs: dict[str, ViewButton] = {}
        self.view_buttons: list[Button] = []
        self._view_key: tuple[tuple[str, str, str], ...] = ()
        #: Why the shown seat may not take an action (the host's ``explanation``), per decision:
        #: asked actions with the ``seq`` they were asked at, and the answers (None: legal).
        self._why_key: tuple[Any, ...] = ()
        self._why_asked: dict[tuple[Any, ...], int] = {}
        self._why: dict[tuple[Any, ...], dict[str, Any] | None] = {}
        #: A refused click: where, which action, when (its reason shows at the pointer).
        self.refusal: tuple[tuple[int, int], tuple[Any, ...], float] | None = None
        for b in (
            self.hint_button,
            self.undo_button,
            self.restart_button,
            self.help_button,
            self.menu_button,
            self.results_button,
        ):
            self.add(b)

    # ---- layout ----------------------------------------------------------------------------
    def layout(self, w: int, h: int) -> None:
        super().layout(w, h)
        if self.client.lobby is not None:
            # Names the client words itself (a host-made bot name) follow the language.
            infos = shown_seats(self.client.seat_infos(self.players))
            if [s.name for s in infos] != [s.name for s in self.view.seats]:
                self.view.set_seats(infos)
        px = self.app.px
        bar_h = px(52)
        self.bar = pygame.Rect(0, 0, w, bar_h)
        margin = px(8)
        area = pygame.Rect(margin, bar_h + margin, w - 2 * margin, h - bar_h - 2 * margin)
        log_h = max(px(90), min(px(200), int(area.height * 0.16)))
        if self.chat_field.visible:
            log_h += px(36)  # room for the chat line
        # The view lays out the table (its boards, its panel) and says where the log goes.
        regions = self.view.layout(area, log_h)
        board = regions.board
        self.log_rect = pygame.Rect(regions.log)
        field_h = px(30)
        self.chat_field.rect = pygame.Rect(
            self.log_rect.x + px(6),
            self.log_rect.bottom - px(6) - field_h,
            self.log_rect.width - px(12),
            field_h,
        )
        # Who lost the connection: over the top of the log (never over the board, whose top
        # holds what the game counts: supplies, the track), the creator's button under the text.
        self.away_rect = pygame.Rect(self.log_rect.x, self.log_rect.y, self.log_rect.width, 0)
        self.away_rect.height = min(px(96), max(px(50), self.log_rect.height // 2))
        self.bot_button.rect = pygame.Rect(
            0, 0, min(px(200), self.away_rect.width - px(16)), px(32)
        )
        self.bot_button.rect.bottomright = (
            self.away_rect.right - px(8),
            self.away_rect.bottom - px(8),
        )
        self._layout_bar(w, bar_h)
        self.results_button.rect = pygame.Rect(0, 0, px(220), px(48))
        self.results_button.rect.midbottom = (board.centerx, board.bottom - px(16))

    # ---- lifecycle ---------------------------------------------------------------------------
    def enter(self) -> None:
        try:
            self._poll(force=True)
        except Exception as exc:  # the view choked on the host's data
            self._view_failed(exc)
        self._take_chat(cue=False)

    def leave(self) -> None:
        self.client.close()

    def resume(self) -> None:
        # An overlay (menu, help, a question) had the mouse: hover effects start afresh.
        if not self.broken:
            try:
                self.view.mouse_moved(self.app.mouse)
            except Exception as exc:  # the view choked on the host's data
                self._view_failed(exc)

    # ---- network -----------------------------------------------------------------------------
    def _poll(self, force: bool = False) -> None:
        changed = self.client.poll()
        if self.client.notices:
            self._notices()
        if not changed and not force:
            return
        if self.client.lobby is not None:
            infos = shown_seats(self.client.seat_infos(self.players))
            if [(s.name, s.colour, s.kind, s.connected) for s in infos] != [
                (s.name, s.colour, s.kind, s.connected) for s in self.view.seats
            ]:
                self.view.set_seats(infos)
        self._choose_seat()
        self._refresh_view()

    def _notices(self) -> None:
        """Errors and news from the host as toasts; a lost connection as a message."""
        for notice in self.client.take_notices():
            if notice.kind == "error":
                text = notice.text
                if notice.reason is not None:
                    text = self.view.reason_text(notice.reason) or text
                self.app.toast(text, "error")
            elif notice.code == "table_closed" and not self.client.closed:
                # The host closed the table: said once, in the player's language (the host's
                # own words are English data), and nothing more is waited for.
                self.gone = True
                self._connection_lost(t("game.host_closed"), whole=True)
            elif notice.kind == "disconnected" and not self.client.closed:
                self._connection_lost(notice.text)
            elif notice.text:
                self.app.toast(notice.text, "info")

    def _view_failed(self, exc: Exception) -> None:
        """The game's view could not use what the host sent (a ``view`` the game never makes):
        the table stops drawing it and ends the connections as a bad message would — the
        player gets one message saying why, never a traceback (printed to stderr for a
        developer's log)."""
        if self.broken:
            return
        self.broken = True
        traceback.print_exception(exc, file=sys.stderr)
        self.client.refuse(f"{type(exc).__name__}: {exc}"[:200])
        self._notices()

    def _take_chat(self, cue: bool = True) -> None:
        """New chat lines join the log where they arrived (the lobby's included, silently)."""
        new = min(self.client.chat_total - self.chat_seen, len(self.client.chat))
        if new > 0:
            if cue:
                self._cue_chat(self.client.chat[-new:])
            for seat, text in self.client.chat[-new:]:
                self.log.append(LogLine(seat, text, chat=True))
            del self.log[:-MAX_LOG]
        self.chat_seen = self.client.chat_total

    def send_chat(self, text: str) -> None:
        if self.client.say(text):
            self.chat_field.set_text("")
            self.logbox.to_newest()

    def _away(self) -> list[int]:
        """Players of other computers who lost the connection — none once the game is over or
        this table's own connection has ended (the host closed the table: one message says it,
        no banner waits for a host that is gone)."""
        if self.client.game_over is not None or self.gone or self.client.lost:
            return []
        return self.client.away_seats()

    def _sync_away(self) -> None:
        """The banner about players who lost the connection; its button for the creator."""
        self.bot_button.visible = bool(self._away()) and self.client.owner is not None

    def offer_bot(self) -> None:
        """The creator lets a bot (Normal) play for the first away player, after asking."""
        from game.ui.scenes.overlays import ConfirmOverlay

        away = self.client.away_seats()
        if not away or self.client.owner is None:
            return
        seat = away[0]
        name = self.view.seats[seat].name if seat < len(self.view.seats) else f"#{seat + 1}"

        def hand_over() -> None:
            self.client.send(
                self.client.owner, {"t": "set_seat", "seat": seat, "kind": "bot", "bot": "normal"}
            )

        self.app.push(
            ConfirmOverlay(self.app, lambda: t("game.seat_to_bot.confirm", name=name), hand_over)
        )

    def _sync_hint(self) -> None:
        """Show the host's hint for the shown seat's current position (none once it moves on);
        the Hint button is there only at tables that allow hints."""
        wanted = self.client.hints_allowed and self.shown is not None and not self.client.game_over
        if wanted != self.hint_button.visible:
            self.hint_button.visible = wanted
            self.layout(*self.size)
        hint = None
        if self.shown is not None and self._may_show(self.shown):
            hint = self.client.hint_for(self.shown)
        if hint is not None and hint not in self.view.legal:
            hint = None
        if hint != self.view.hint:
            self.view.set_hint(hint)
            if hint is not None:
                action = self.view.describe_action(hint)
                why = self._hint_why(hint)
                if why:
                    action = t("game.hint.why", action=action, why=why)
                self.app.toast(t("game.hint.toast", action=action))

    def _hint_why(self, hint: tuple[Any, ...]) -> str:
        """Why the hinted move is good: the host's reasons in the evaluation's own terms
        (:mod:`game.ui.reasons`), else what the view can say itself."""
        from game.ui.reasons import reasons_text

        reasons = self.client.hint_why(self.shown)
        if reasons:
            return reasons_text(
                reasons,
                self.client.game_id,
                [s.name for s in self.view.seats],
                dict(self.view.score_categories()),
                self.view.reason_params,
            )
        return self.view.hint_reason(hint)

    def _connection_lost(self, reason: str, whole: bool = False) -> None:
        """The host went away (or closed the table: ``whole``, the message is ``reason``
        itself): say so once, then back to the main menu."""
        from game.ui.scenes.overlays import MessageOverlay

        self.gone = True
        self._sync_away()
        if self.client.game_over is not None or self.app.scene_named("message") is not None:
            return
        self.app.push(
            MessageOverlay(
                self.app,
                (lambda: reason) if whole else (lambda: t("game.disconnected", reason=reason)),
                self.leave_table,
            )
        )

    def _refresh_view(self, force: bool = False) -> None:
        msg, own = self._message()
        if msg is None:
            return
        seq = msg.get("seq", 0)
        key = (seq, id(msg), own)
        if key == self._shown_key and not force and not self.client.events:
            return
        self._shown_key = key
        first = self.last_seq < 0
        self.last_seq = seq
        events = self.client.take_events()
        view = msg.get("view", {})
        self.view.set_turn(list(msg.get("to_move", [])), msg.get("turn"), msg.get("decision"))
        legal = msg.get("legal", []) if own and self.shown is not None else []
        if self.shown is not None and not self._may_show(self.shown):
            legal = []
        # Events come from one connection: the one seat played here, or at a hot-seat table
        # the spectator's (public events only).  Without a spectator connection the first
        # seat's private events are not for everyone in front of the screen.
        private = own and (not self._hot_seat() or self.shown in self.client.to_move())
        self.view.show_private = not self._hot_seat() or self.client.log_key is None
        self._cue_events(events, first)
        # The view first: the log lines name what is on the board of this very message (the
        # first state after joining has no earlier view to look at).
        self.view.set_view(view, [tuple(a) for a in legal], events)
        lines = []
        for ev in events:
            line = self.view.describe_event(ev)
            if line is None:
                continue
            if ev.get("type") == "game_over":
                # "Game over. Winner: ..." once the final scoring has been shown, not while
                # it is still counting on the table.
                self.held_lines.append(line)
            else:
                lines.append(line)
        self.log.extend(lines)
        if self.log:
            del self.log[:-MAX_LOG]
        self._note_since(lines, events)
        # Hot-seat: the screen is shared, so a seat's secrets show only during its own turn.
        self.view.show_private = bool(private)
        self._cue_turn()

    # ---- acting -------------------------------------------------------------------------------
    def act(self, action: tuple[Any, ...]) -> None:
        if self.shown is None or not self._may_show(self.shown):
            return
        if tuple(action) not in [tuple(a) for a in self.view.legal]:
            return
        self.client.send_action(self.shown, tuple(action))

    def _can_send(self) -> bool:
        """The shown seat may send an action now (its curtain is up, nothing in flight)."""
        return (
            self.shown is not None
            and self._may_show(self.shown)
            and self.shown not in self.client.busy
        )

    def _default_action(self) -> tuple[Any, ...] | None:
        if not self._can_send():
            return None
        return self.view.default_action()

    def end_turn(self) -> None:
        """Enter / Space: the view's default action (End turn, a composer's Confirm)."""
        action = self._default_action()
        if action is not None:
            self.act(action)

    def _can_undo(self) -> bool:
        return (
            self.shown is not None
            and self._may_show(self.shown)
            and self.client.can_undo(self.shown)
        )

    def undo(self) -> None:
        if self._can_undo() and self.shown is not None:
            self.client.undo(self.shown)
        elif self.shown is not None and self.client.state_of(self.shown) is not None:
            self.app.toast(t("game.undo.unavailable"), "info")

    def restart_turn(self) -> None:
        """Take back all of the shown seat's moves this turn (``undo {turn: true}``; the host
        refuses past a reveal, as for one undo)."""
        if self._can_undo() and self.shown is not None:
            self.client.undo(self.shown, turn=True)
        elif self.shown is not None and self.client.state_of(self.shown) is not None:
            self.app.toast(t("game.undo.unavailable"), "info")

    def _can_hint(self) -> bool:
        return (
            self.shown is not None
            and self._may_show(self.shown)
            and self.client.can_ask_hint(self.shown)
        )

    def ask_hint(self) -> None:
        """Ask the host what the normal bot would do now (the answer is shown on the board)."""
        if self._can_hint() and self.shown is not None:
            self.client.ask_hint(self.shown)
        elif not self.client.hints_allowed:
            self.app.toast(t("game.hint.off"), "info")

    def _help(self) -> None:
        self.app.show_help(self.help_topic)

    def open_menu(self) -> None:
        from game.ui.scenes.overlays import GameMenuOverlay

        self.app.push(GameMenuOverlay(self.app, self.confirm_leave, lambda: t("game.menu.leave")))

    def confirm_leave(self) -> None:
        """ "Leave the table" asks first while the game runs, saying what leaving does here: a
        local table is saved, a LAN host's table stops for everyone, a guest can rejoin."""
        from game.ui.scenes.overlays import ConfirmOverlay

        if self.client.game_over is not None or not self.client.started:
            self.leave_table()
            return
        if self.client.server is not None:
            key = "game.leave.confirm_host"
        elif self.client.local_host is not None:
            key = "game.leave.confirm_local"
        else:
            key = "game.leave.confirm_guest"
        self.app.push(
            ConfirmOverlay(
                self.app,
                lambda: t(key),
                self.leave_table,
                yes=lambda: t("game.leave.yes"),
                no=lambda: t("game.leave.no"),
            )
        )

    def leave_table(self) -> None:
        from game.ui.scenes.menu import MenuScene

        self.app.reset(MenuScene(self.app))

    def show_results(self) -> None:
        from game.ui.scenes.results import ResultsScene

        result = self.client.game_over
        if result is None:
            return
        self.results_shown = True
        again = self.play_again if self.client.local_host is not None else None
        self.app.push(
            ResultsScene(
                self.app,
                result,
                self.view.seats,
                self.view.score_categories(),
                self._save_path(),
                again,
            )
        )

    def play_again(self) -> None:
        """The results' "Play again": a new game on this computer with the same seats (the same
        people, bots of the same strength, the same colours) and the same options; a new seed."""
        from game.ui.client import SeatSpec
        from game.ui.local_game import start_local_game
        from game.ui.scenes.menu import MenuScene
        from game.ui.scenes.setup import StartingScene

        lobby = self.client.lobby or {}
        specs = []
        for seat in lobby.get("seats", []):
            kind = "bot" if seat.get("kind") == "bot" else "human"
            name, colour = str(seat.get("name") or ""), str(seat.get("colour") or "grey")
            specs.append(SeatSpec(kind, name, colour, str(seat.get("bot") or "normal")))
        options = lobby.get("options") if isinstance(lobby.get("options"), dict) else {}
        try:
            client = start_local_game(self.client.game_id, specs, dict(options or {}))
        except Exception as exc:  # the host could not start (e.g. cannot write saves)
            self.app.toast(t("setup.failed", error=str(exc)), "error")
            return
        self.app.reset(MenuScene(self.app))
        self.app.push(StartingScene(self.app, client, len(specs)))

    def _save_path(self) -> str | None:
        """The host's record of this table, when the host runs in this process."""
        hub = None
        if self.client.local_host is not None:
            hub = self.client.local_host.hub
        elif self.client.server is not None:
            hub = self.client.server.hub
        if hub is None or self.client.table_id is None:
            return None
        path = hub.save_path(self.client.table_id)
        return str(path) if path is not None else None

    # ---- events ---------------------------------------------------------------------------
    def on_escape(self) -> None:
        self.open_menu()

    def handle(self, event: pygame.event.Event) -> bool:
        if self.broken:
            return super().handle(event)
        try:
            return self._handle(event)
        except Exception as exc:  # the view choked on the host's data
            self._view_failed(exc)
            return True

    def _handle(self, event: pygame.event.Event) -> bool:
        if super().handle(event):
            return True
        if event.type == pygame.MOUSEMOTION:
            self.view.mouse_moved(event.pos)
            return False
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            if self._scoring_running():
                self.view.skip_scoring(everything=False)
                return True
            action = self.view.click(event.pos)
            self._view_notes()
            if action is not None:
                self.act(action)
                return True
            if self._refuse_click(event.pos):
                return True
        if event.type == pygame.MOUSEWHEEL:
            if self.log_rect.collidepoint(self.app.mouse):
                self.logbox.wheel(event.y)
                return True
            return self.view.wheel(self.app.mouse, event.y)
        return False

    def on_key(self, event: pygame.event.Event) -> bool:
        if self.broken:
            return False
        k = event.key
        if k in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            if self._scoring_running():
                self.view.skip_scoring(everything=True)
            elif self.results_button.visible:
                self.show_results()
            else:
                self.end_turn()
            return True
        if (k == pygame.K_z and event.mod & pygame.KMOD_CTRL) or k == pygame.K_u:
            self.undo()
            return True
        if k == pygame.K_h:
            self.ask_hint()
            return True
        if k == pygame.K_t and self.chat_field.visible:
            self.app.set_focus(self.chat_field)
            return True
        action = self.view.key(event)
        self._view_notes()
        if action is not None:
            self.act(action)
            return True
        refused = self.view.key_intent(event) if self._may_explain() else None
        if refused is not None and tuple(refused) not in self.view.legal:
            # A key that asks for something refused says why, like a refused click (at the
            # pointer, once the host answered).
            self._sync_explanations()
            self._ask_why(tuple(refused))
            self.refusal = (self.app.mouse, tuple(refused), self.app.time)
            return True
        return False

    def _view_notes(self) -> None:
        for note in self.view.take_notes():
            self.app.toast(note, "info")

    def _scoring_running(self) -> bool:
        """The end-of-game sequence is on (a click shows its next step, Enter ends it)."""
        return self.scoring_started and not self.view.scoring_done()

    def tooltip_at(self, pos: tuple[int, int]) -> str:
        text = super().tooltip_at(pos)
        if text or self.broken:
            return text
        try:
            if self._refusal_shown():
                return ""  # the refused click's reason is at the pointer already
            text = self.view.hover(pos)
            action = self._refused_action(pos)
        except Exception as exc:  # the view choked on the host's data
            self._view_failed(exc)
            return ""
        why = self.refusal_text(action) if action is not None else ""
        if why:
            return why + ("\n" + text if text else "")
        return text

    def tooltip_avoid(self, pos: tuple[int, int]) -> list[pygame.Rect]:
        """The view's choice buttons when the pointer is on one (the tooltip of option 3 must
        not hide option 4)."""
        if self.broken:
            return []
        rects = self.view.choice_rects()
        return rects if any(r.collidepoint(pos) for r in rects) else []

    # ---- time ---------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        if self.broken:
            super().update(dt)
            self._notices()
            return
        try:
            self._update(dt)
        except Exception as exc:  # the view choked on the host's data
            self._view_failed(exc)

    def _update(self, dt: float) -> None:
        super().update(dt)
        self._poll()
        self._take_chat()
        self._sync_hint()
        self._sync_explanations()
        self._explain_hover()
        self._sync_away()
        self._sync_view_buttons()
        self._sync_seat_buttons()
        self.view.update(dt)
        self._sync_handoff(dt)
        if self.client.game_over is not None and not self.view.animating():
            if not self.scoring_started:
                self.scoring_started = True
                self.view.start_scoring()
            elif self.view.scoring_done() and not self.results_shown:
                self.results_button.visible = True
                speed = self.app.settings.animation_speed
                self.results_timer += dt * speed if speed > 0 else RESULTS_PAUSE
                if self.results_timer >= RESULTS_PAUSE and self.app.top is self:
                    self.show_results()
        if self.held_lines and self.scoring_started and self.view.scoring_done():
            self.log.extend(self.held_lines)
            self.held_lines = []
        self._cue_scoring()

    def frame_rate(self) -> float:
        """Frames a second the table needs while nobody touches anything (the window idles
        below 60): all of them while pieces move or the scores are being shown, a few for the
        pulse of highlighted targets or a hint, none while the table waits."""
        if self.view.animating() or (self.client.game_over is not None and not self.results_shown):
            return 60.0
        if self.view.hint is not None:
            return AMBIENT_FPS
        if self.view.legal:
            # A view that marks what pulses and drew nothing pulsing has nothing to move.
            return AMBIENT_FPS if self.view.pulses() else 0.0
        return 0.0

    def ambient_rects(self) -> list[pygame.Rect] | None:
        """While the table only pulses (see :meth:`frame_rate`), what changes is the view's
        (its pulsing targets, :meth:`GameView.ambient_rects`); anything else the table shows
        by itself over time — a hint's ring, a refusal's bubble that fades — asks for the
        whole window."""
        if self.broken or self.view.hint is not None or self.refusal is not None:
            return None
        if self.view.animating() or self.client.game_over is not None:
            return None
        return self.view.ambient_rects()

    def ambient_cycle(self) -> tuple[int, int] | None:
        """The view's pulse steps (:meth:`GameView.ambient_cycle`)."""
        return None if self.broken else self.view.ambient_cycle()

    # ---- drawing ------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(pal.BG)
        shown = not self.broken
        if shown:
            try:
                self.view.begin_frame()
                self.view.draw(surface)
                self._draw_bar(surface)
            except Exception as exc:  # the view choked on the host's data
                self._view_failed(exc)
                surface.fill(pal.BG)
                shown = False
        self._draw_log(surface)
        if shown:
            self._draw_away(surface)
        self.draw_widgets(surface)
        if shown:
            self._draw_button_hint(surface)
            self._draw_refusal(surface)

    def _draw_away(self, surface: pygame.Surface) -> None:
        """Who lost the connection, over the top of the log: "the game waits for ..." when it
        is their turn, else that they are away (the creator's button lets a bot play for
        them)."""
        away = self._away()
        if not away:
            return
        px = self.app.px
        names = ", ".join(
            self.view.seats[s].name if s < len(self.view.seats) else f"#{s + 1}" for s in away
        )
        waiting = {int(w.get("seat", -1)) for w in self.client.waiting}
        key = "game.away_waiting" if waiting & set(away) else "game.away"
        box = self.away_rect
        pygame.draw.rect(surface, (28, 26, 20), box, border_radius=px(8))
        pygame.draw.rect(surface, pal.ACCENT, box, 2, border_radius=px(8))
        x = box.x + px(10)
        top = box.y + px(8)
        seat = away[0]
        if seat < len(self.view.seats):
            sw = self.view.seats[seat].swatch(px(18), self.app.settings.colour_blind)
            surface.blit(sw, (x, top + px(1)))
            x += px(26)
        bottom = self.bot_button.rect.y - px(4) if self.bot_button.visible else box.bottom - px(6)
        size = px(14)
        rows = max(1, (bottom - top) // self.app.fonts.line_height(size))
        for img in self.app.fonts.render_lines(
            t(key, names=names), size, pal.TEXT, box.right - px(10) - x, rows
        ):
            surface.blit(img, (x, top))
            top += self.app.fonts.line_height(size)

    def _draw_log(self, surface: pygame.Surface) -> None:
        """The log (wrapped, scrolling: ``widgets/log.py``), the chat line under it."""
        rect = pygame.Rect(self.log_rect)
        outer = pygame.Rect(self.log_rect)
        if not self.broken and self._away():
            # the away banner takes the top of the log
            gap = self.away_rect.height + self.app.px(6)
            rect.y += gap
            outer.y += gap
            outer.height -= gap
        if self.chat_field.visible:
            rect.height = self.chat_field.rect.y - self.app.px(4) - rect.y
        else:
            rect.height = outer.height
        self.logbox.draw(
            surface, self.app, rect, self.log, self.view.seats, t("game.log_empty"), outer
        )
