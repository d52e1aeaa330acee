"""The interface between the game scene and one game's table drawing.

The game scene owns everything common to all games — the connection, the top bar with the common
buttons (hint, undo, help, menu), the log and chat line, the hot-seat curtain, the results — and
hands a :class:`GameView` the rest.  The view

* lays the table out (:meth:`GameView.layout`): where its board(s) and side panel go and where
  the scene's log fits, from the area under the top bar — Kingdom Builder's one 20x20 map,
  Keyflower's wide auction board over several villages, Glen More's track over the players'
  grids all decide that themselves;
* draws what the latest ``view`` dict shows (it never looks at a game state);
* highlights exactly the actions in ``legal`` (the seat's legal actions as sent by the host) and
  turns a click into one of them — or into nothing;
* shows whose turn it is (:meth:`GameView.draw_status`): the seats of the state message's
  ``to_move``, several at once in a simultaneous phase;
* names its own buttons (:meth:`GameView.buttons`: "End turn", "Stop", a composer's "Confirm");
  the scene places them in the top bar and sends their actions;
* turns events into animations and log lines;
* runs the end-of-game scoring sequence before the results.

A new game's view copies the package of Kingdom Builder's (``games/kingdom_builder/``), or
starts from the game-neutral :class:`~game.ui.games.generic.GenericView`.
"""

from __future__ import annotations

import math
import re
import string
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

import pygame

from game.ui import palette as pal
from game.ui.i18n import has, t
from game.ui.widgets import TextLike

if TYPE_CHECKING:
    from game.ui.app import App

Action = tuple[Any, ...]

#: Radians a second of the pulse of legal targets (and of a hint's bounce) on every table.
PULSE_SPEED = 4.0
#: The steps of one pulse: a table draws its pulse from its clock rounded to a step, so while
#: nothing else changes its picture at a step is always the same and the idle window keeps one
#: picture per step instead of drawing the table again (``game/ui/ambient.py``).
PULSE_STEPS = 24


def _fields(template: str) -> set[str]:
    """The ``{field}`` names of a catalogue text."""
    try:
        return {name for _, name, _, _ in string.Formatter().parse(template) if name}
    except ValueError:
        return {"?"}


@dataclass
class SeatInfo:
    """How the client shows a seat: its name, the host's colour name, who sits there (``kind``:
    human, bot or open, as in the lobby) and whether it is played on this computer."""

    seat: int
    name: str
    colour: str
    kind: str = "human"
    local: bool = False
    #: False while a human seat's player is away (disconnected); bots are always there.
    connected: bool = True

    def rgb(self, colour_blind: bool) -> pal.RGB:
        return pal.seat_colour(self.colour, colour_blind)

    def swatch(self, size: int, colour_blind: bool) -> pygame.Surface:
        return pal.seat_swatch(self.colour, self.seat, size, colour_blind)


_HOST_BOT_NAME = re.compile(r"Bot \(([a-z]+)\)")


def shown_name(name: str, kind: str) -> str:
    """A seat's name as this client shows it: the name the host gives a bot seat ("Bot
    (normal)", data in English) in the player's language; every other name as it is."""
    match = _HOST_BOT_NAME.fullmatch(name) if kind == "bot" else None
    if match is not None and has(f"setup.level.{match.group(1)}"):
        return t("game.bot_name", level=t(f"setup.level.{match.group(1)}"))
    return name


def shown_seats(seats: list[SeatInfo]) -> list[SeatInfo]:
    """``seats`` with :func:`shown_name` names."""
    return [replace(s, name=shown_name(s.name, s.kind)) for s in seats]


@dataclass
class LogLine:
    """One line of the game log: who (for the colour) and what."""

    seat: int | None
    text: str
    #: A chat line (drawn in another colour), not something that happened in the game.
    chat: bool = False


@dataclass
class Regions:
    """Where things go on the table, as the view lays it out (window pixels).

    ``board`` is the view's main area (the scene centres its away banner and Results button on
    it); ``panel`` the view's side panel (may be empty); ``log`` where the scene draws the game
    log and, at LAN tables, the chat line under it.
    """

    board: pygame.Rect
    panel: pygame.Rect
    log: pygame.Rect


@dataclass
class ViewButton:
    """A button the view wants in the top bar ("End turn", "Stop", a composer's "Confirm").

    A click sends ``action`` (the scene checks it is in the seat's ``legal`` list), or calls
    ``on_click`` — a step of the view's own (a composer's back step) that may return an action
    to send.  ``id`` is the widget id tests click; ``hint`` the key shown on the button.
    """

    id: str
    label: TextLike
    action: Action | None = None
    on_click: Callable[[], Action | None] | None = None
    hint: str = ""
    primary: bool = False
    enabled: bool = True
    tooltip: TextLike | None = None
    #: The narrowest the button gets, in design pixels (the label decides above that).
    width: int = 96


def side_panel_layout(
    app: App,
    area: pygame.Rect,
    extent: tuple[float, float],
    log_height: int,
    panel_min: int = 330,
    panel_max: int = 560,
) -> Regions:
    """The usual table: a board of aspect ``extent`` (width, height in any unit) on the left, as
    large as the area allows while the panel keeps ``panel_min`` design pixels; the side panel on
    the right (at most ``panel_max``: a wide window gives the board's margins the extra width),
    with the log (``log_height`` pixels) under it."""
    px = app.px
    margin = px(8)
    ew, eh = extent
    size = min((area.width - px(panel_min) - margin) / ew, area.height / eh)
    board_w = int(size * ew) + 6
    panel_w = min(px(panel_max), area.width - margin - board_w)
    board = pygame.Rect(area.x, area.y, area.width - margin - panel_w, area.height)
    panel = pygame.Rect(board.right + margin, area.y, panel_w, area.height - log_height - margin)
    log = pygame.Rect(panel.x, panel.bottom + margin, panel_w, log_height)
    return Regions(board, panel, log)


class GameView:
    """Draws one game's table; subclasses implement every method that raises."""

    game_id: ClassVar[str] = ""
    #: The seat colour names (``palette.SEAT_COLOURS``) the game's pieces wear: seats are not
    #: offered them (a purple seat beside Keyflower's purple keyple would read as one).
    PIECE_COLOURS: ClassVar[tuple[str, ...]] = ()
    #: Whether seats hold secrets; only used when the game's own trait (``Game.secrets``) cannot
    #: be read (a game this client does not have): hot-seat then puts a curtain between seats.
    has_secrets: ClassVar[bool] = True

    def __init__(self, app: App, seats: list[SeatInfo]) -> None:
        self.app = app
        self.seats = seats
        self.view: dict[str, Any] = {}
        self.legal: list[Action] = []
        #: The seats that may act now (the state message's ``to_move``), the turn number (its
        #: ``turn``) and the shown seat's decision (its ``decision``: the ``seq`` at which the
        #: seat's current choice began); ``None`` when the host does not say.
        self.to_move: list[int] = []
        self.turn: int | None = None
        self.decision: int | None = None
        self.board_rect = pygame.Rect(0, 0, 0, 0)
        self.panel_rect = pygame.Rect(0, 0, 0, 0)
        #: Whether the shown seat's secrets may be drawn and logged.  The game scene turns it
        #: off in hot-seat games while the shown seat is not the one to move (someone else may
        #: be looking at the screen).
        self.show_private = True
        #: The action a hint suggests (the host's normal bot), shown until the position changes.
        self.hint: Action | None = None
        #: The table shows a recorded game (the replay viewer): nobody thinks or is waited for,
        #: the status names who is to move (:meth:`replay_status`).
        self.replaying = False
        #: Notes for the player about their input (:meth:`take_notes`).
        self.notes: list[str] = []
        #: Seconds of table time (animations and the pulse advance it in :meth:`update`).
        self.clock = 0.0
        #: Where the last frame drew something that pulses (:meth:`pulsing`).
        self._pulsing: list[pygame.Rect] = []

    # ---- layout and state ------------------------------------------------------------------
    def board_extent(self) -> tuple[float, float]:
        """The board's width and height (any unit) for the default :meth:`layout`."""
        return (4.0, 3.0)

    def layout(self, area: pygame.Rect, log_height: int) -> Regions:
        """Lay the table out in ``area`` (the window under the top bar, margins taken off) and
        say where the scene's log of ``log_height`` pixels goes.  The default is a board of
        :meth:`board_extent` left and the panel right, the log under the panel; views with other
        tables override it (and should keep calling it for ``board_rect`` / ``panel_rect``)."""
        regions = side_panel_layout(self.app, area, self.board_extent(), log_height)
        self.board_rect = pygame.Rect(regions.board)
        self.panel_rect = pygame.Rect(regions.panel)
        return regions

    def set_seats(self, seats: list[SeatInfo]) -> None:
        """The seats' names, colours, kinds or connections changed (from the lobby)."""
        self.seats = seats

    def set_turn(self, to_move: list[int], turn: int | None, decision: int | None = None) -> None:
        """Who may act now, the turn number and the shown seat's decision, from the state
        message (called before :meth:`set_view` with the same message).  A new ``decision``
        means a new question for the seat even when its legal list looks the same (Glen More's
        seat moving again): half-built choices start afresh."""
        self.to_move = [s for s in to_move if isinstance(s, int)]
        self.turn = turn if isinstance(turn, int) else None
        self.decision = decision if isinstance(decision, int) else None

    def set_view(
        self, view: dict[str, Any], legal: list[Action], events: list[dict[str, Any]]
    ) -> None:
        """A new authoritative view (and the legal actions of the seat shown) arrived.

        ``events`` are what happened since the previous view; they start animations.
        """
        raise NotImplementedError

    def update(self, dt: float) -> None:
        """Advance animations by ``dt`` seconds (already scaled by the animation speed)."""

    def animating(self) -> bool:
        return False

    def ambient_rects(self) -> list[pygame.Rect] | None:
        """Where the table's picture changes by itself while nothing animates and nobody
        touches anything (the slow pulse of legal targets), in window pixels; ``None``: it
        may change anywhere (the window then sends the whole picture every frame).

        A view that draws every pulse through :meth:`pulse` and marks where with
        :meth:`pulsing` says so with :attr:`MARKS_PULSE`: the parts the last frame marked."""
        if not self.MARKS_PULSE or self.animating() or self.hint is not None:
            return None
        return [pygame.Rect(r) for r in self._pulsing]

    #: The view draws every part that changes by itself through :meth:`pulse` and marks it
    #: with :meth:`pulsing` (its :meth:`ambient_rects` are those parts).
    MARKS_PULSE: ClassVar[bool] = False

    def begin_frame(self) -> None:
        """A frame is about to be drawn: the parts that pulse are marked anew."""
        self._pulsing = []

    def pulse_step(self) -> int:
        """The step of the pulse (:data:`PULSE_STEPS` a cycle) the table is at."""
        return int(self.clock * PULSE_SPEED * PULSE_STEPS / (2 * math.pi))

    def pulse_angle(self) -> float:
        """The pulse's angle (radians), rounded to its step: draw ``sin(pulse_angle())``, or
        :meth:`pulse`, never from the clock itself, so a step always looks the same."""
        return (self.pulse_step() % PULSE_STEPS) * 2 * math.pi / PULSE_STEPS

    def pulse(self) -> float:
        """The pulse between 0 and 1 (0.5 + 0.5 sin)."""
        return 0.5 + 0.5 * math.sin(self.pulse_angle())

    def pulses(self) -> bool:
        """Whether anything on the table pulses (a view that marks its pulse: the last frame
        marked something; any other view: it may)."""
        return not self.MARKS_PULSE or bool(self._pulsing)

    def pulsing(self, rect: pygame.Rect | tuple[int, int, int, int]) -> None:
        """This frame drew something that pulses in ``rect`` (window pixels)."""
        self._pulsing.append(pygame.Rect(rect))

    def ambient_cycle(self) -> tuple[int, int] | None:
        """Step ``i`` of the pulse's :data:`PULSE_STEPS` (see :meth:`Scene.ambient_cycle`)."""
        return (self.pulse_step() % PULSE_STEPS, PULSE_STEPS)

    def finish_animations(self) -> None:
        """Jump every running animation to its end."""

    def show_since(self, events: list[dict[str, Any]], seat: int) -> None:
        """Hot-seat: ``seat``'s player comes back to the screen; ``events`` (public) are what
        happened since their last turn — mark on the table what they changed (views ring the
        tiles and hexes other players took, used or bid on).  Called after :meth:`set_view`
        gave the seat's own view."""

    # ---- sounds ----------------------------------------------------------------------------
    def cues(self, events: list[dict[str, Any]]) -> list[str]:
        """The sounds ``events`` make at this table (``game/ui/scenes/table_cues.py``), asked
        before :meth:`set_view` takes them (:attr:`view` is still the table before them): a
        knock when someone moved.  Views add their game's moments (a round's end, an outbid)."""
        moved = any(isinstance(ev.get("seat"), int) for ev in events if isinstance(ev, dict))
        return ["move"] if moved else []

    def scoring_beat(self) -> tuple[int, bool] | None:
        """The end-of-game sequence's current step and whether it gives points (each such step
        plucks), ``None`` while no sequence runs.  Views whose sequence is a
        :class:`~game.ui.games.sequence.ScoreSequence` kept in ``self.scoring`` get it from
        there; others say."""
        from game.ui.games.sequence import ScoreSequence

        seq = getattr(self, "scoring", None)
        if not isinstance(seq, ScoreSequence) or seq.done:
            return None
        beat = seq.beat()
        if beat is None:
            return None
        points = False
        if beat.seat is not None and beat.seat < len(seq.scores):
            points = bool(seq.scores[beat.seat].get(seq.categories[beat.category], 0))
        return (seq.beats.index(beat), points)

    def draw(self, surface: pygame.Surface) -> None:
        raise NotImplementedError

    # ---- input -----------------------------------------------------------------------------
    def click(self, pos: tuple[int, int]) -> Action | None:
        """The legal action a click at ``pos`` chooses, or None."""
        raise NotImplementedError

    def set_hint(self, action: Action | None) -> None:
        """Show (or, with None, stop showing) the action a hint suggests; it is one of the
        ``legal`` actions (the game scene checks)."""
        self.hint = action

    def hover(self, pos: tuple[int, int]) -> str:
        """What a click at ``pos`` would do (a tooltip), or ""."""
        return ""

    def key_intent(self, event: pygame.event.Event) -> Action | None:
        """The action a key :meth:`key` did nothing with asks for, legal or not (Glen More's C:
        make a clan member a chieftain), so the scene can ask the host why it is refused and
        say so — as :meth:`intent` does for a click.  None: the key asks for nothing."""
        return None

    def replay_status(self, seats: list[int]) -> str:
        """Whose move it is in a recorded game ("Anna to move")."""
        names = ", ".join(self.seats[s].name for s in seats if 0 <= s < len(self.seats))
        return t("game.status.to_move", names=names) if names else ""

    def choice_rects(self) -> list[pygame.Rect]:
        """The buttons of the view's list of choices as last drawn (a composer's options), which
        a tooltip must not cover; none by default."""
        return []

    def take_notes(self) -> list[str]:
        """Things the table has to tell the player about their own input that no rule
        decides (e.g. "choose a clan member first"): the scene shows them as toasts."""
        notes, self.notes = self.notes, []
        return notes

    def intent(self, pos: tuple[int, int]) -> Action | None:
        """The action a click at ``pos`` asks for, legal or not — a hex, a tile, a card of the
        view — so the scene can ask the host why it is refused (``explain``) and say so at the
        pointer; None where a click means nothing.  For a legal target it is that action."""
        return None

    def reason_params(self, params: dict[str, Any]) -> dict[str, Any]:
        """A refusal's ``params`` in words of the player's language (a game names its own:
        terrains, tiles, seats); plain values by default."""
        return dict(params)

    def reason_text(self, reason: dict[str, Any]) -> str:
        """A refusal (``{text, rule, key, params}``, ``docs/protocol.md`` "Explanations") in the
        player's language: ``reason.<game>.<key>`` (or the shared ``reason.<key>``) filled with
        :meth:`reason_params`; the host's English ``text`` when there is no translation."""
        key = reason.get("key")
        params = reason.get("params") if isinstance(reason.get("params"), dict) else {}
        text = str(reason.get("text") or "")
        if isinstance(key, str) and key:
            words = self.reason_params(params or {})
            for name in (f"reason.{self.game_id}.{key}", f"reason.{key}"):
                # An entry whose fields the params do not all fill is not this reason's.
                if has(name) and _fields(t(name)) <= set(words):
                    return t(name, **words)
        return text[:1].upper() + text[1:] if text else ""

    def hint_reason(self, action: Action) -> str:
        """Why the hinted ``action`` is good, as far as the view says (Kingdom Builder: what the
        placement gains, from the view's ``gains``); "" when the view cannot say."""
        return ""

    def key(self, event: pygame.event.Event) -> Action | None:
        """A game-specific key that chooses an action (none by default)."""
        return None

    def wheel(self, pos: tuple[int, int], dy: int) -> bool:
        """The mouse wheel turned over ``pos`` (scroll a list, zoom a board); True if used."""
        return False

    # ---- whose turn, buttons ---------------------------------------------------------------
    def status(self) -> str:
        """One line for the top bar: whose turn and what to do."""
        raise NotImplementedError

    def active_seats(self) -> list[int]:
        """The seats the top bar marks as choosing now (several in a simultaneous phase)."""
        return [s for s in self.to_move if 0 <= s < len(self.seats)]

    def draw_status(self, surface: pygame.Surface, rect: pygame.Rect, text: str) -> None:
        """The top bar's left part: a swatch per seat choosing now, then ``text``."""
        px = self.app.px
        fonts = self.app.fonts
        x = rect.x
        active = self.active_seats()
        size = px(24) if len(active) <= 2 else px(18)
        step = size + (px(8) if len(active) <= 2 else px(4))
        for seat in active[:6]:
            sw = self.seats[seat].swatch(size, self.app.settings.colour_blind)
            surface.blit(sw, sw.get_rect(midleft=(x, rect.centery)))
            x += step
        if len(active) > 6:
            more = fonts.render(f"+{len(active) - 6}", px(14), pal.TEXT_DIM, True)
            surface.blit(more, more.get_rect(midleft=(x + px(6), rect.centery)))
            x += more.get_width() + px(10)
        if len(active) > 2:
            x += px(8)
        if not text:
            return
        width = rect.right - x
        size = fonts.fit(text, px(18), width, minimum=px(12))
        img = fonts.render(fonts.ellipsize(text, size, width), size, pal.TEXT)
        surface.blit(img, img.get_rect(midleft=(x, rect.centery)))

    def buttons(self) -> list[ViewButton]:
        """The view's buttons in the top bar, left to right (the scene keeps hint, undo, help
        and menu).  Called every frame: cheap, and the same ids while nothing changes."""
        return []

    def default_action(self) -> Action | None:
        """What Enter / Space chooses: the enabled primary button's action, if legal."""
        for b in self.buttons():
            if b.primary and b.enabled and b.action is not None and b.action in self.legal:
                return b.action
        return None

    # ---- words -----------------------------------------------------------------------------
    def describe_event(self, event: dict[str, Any]) -> LogLine | None:
        """A log line for ``event`` (None for events not worth a line)."""
        return None

    def describe_action(self, action: Action) -> str:
        return " ".join(str(a) for a in action)

    # ---- the end ---------------------------------------------------------------------------
    def score_categories(self) -> list[tuple[str, str]]:
        """(score key, shown name) for each scoring category, in scoring order."""
        raise NotImplementedError

    def start_scoring(self) -> None:
        """Begin the end-of-game scoring sequence (category by category)."""

    def scoring_done(self) -> bool:
        return True

    def skip_scoring(self, everything: bool) -> None:
        """Hurry the end-of-game sequence: to its next step, or (``everything``) to its end."""

    def mouse_moved(self, pos: tuple[int, int]) -> None:
        """The mouse moved to ``pos`` (hover effects)."""

    def names(self) -> list[str]:
        return [s.name for s in self.seats]
