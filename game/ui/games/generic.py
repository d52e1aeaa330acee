"""The game-neutral view: plays any registered game from its legal actions.

For a game the client has no view of its own for (and for the framework's test game), this view
shows

* on the left, the view dict's fields, compactly: one line per field; a list with one value per
  seat as each seat's swatch and value; other lists and maps folded onto a few lines (the wheel
  scrolls when they do not fit);
* on the right, the seats (who is choosing now, the banked total when the view has ``scores``)
  and the action composer (:mod:`game.ui.composer`): the seat's legal actions field by field —
  a field with a single possible value is taken at once — with Back and Confirm in the top bar;
* the log: one line per event, its type and fields.

It knows no rule and no field name: everything it draws comes from the view dict, the legal
list and the events; private fields are whatever the host put in this seat's view (a hot-seat
table shows the spectator's view while no curtain is lifted, see ``docs/ui.md``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from game.ui import palette as pal
from game.ui.composer import Composer, ComposerPanel
from game.ui.games.base import (
    Action,
    GameView,
    LogLine,
    Regions,
    SeatInfo,
    ViewButton,
    side_panel_layout,
)
from game.ui.i18n import game_title, t

if TYPE_CHECKING:
    from game.ui.app import App

#: Keys of the view dict not listed as fields: shown elsewhere (who you are, the seats, who is
#: to move: the seats' rows mark them) or of no use to a player.
HIDDEN_FIELDS = ("you", "game", "players", "to_move")
#: At most this many lines per field (the rest is summed up as "... n more").
MAX_FIELD_LINES = 5
#: Keys of an event not repeated in its log line.
EVENT_SKIP = ("type", "seat", "only", "reveal")


def compact(value: Any, limit: int = 160, depth: int = 0) -> str:
    """A value on one short line: scalars as themselves, lists and maps folded.  Stops as soon
    as ``limit`` characters are reached and below 6 levels of nesting (views come from the
    host: any size, any shape)."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return t("generic.yes") if value else t("generic.no")
    if isinstance(value, dict | list | tuple):
        if depth >= 6:
            return "..."
        items = value.items() if isinstance(value, dict) else enumerate(value)
        parts: list[str] = []
        used = 0
        for k, v in items:
            part = compact(v, 40, depth + 1)
            if isinstance(value, dict):
                part = f"{k}: {part}"
            parts.append(part)
            used += len(part) + 2
            if used > limit:
                break
        text = ", ".join(parts)
        if not isinstance(value, dict):
            text = f"[{text}]"
    else:
        text = str(value)[: limit * 2]
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def humane(kind: Any) -> str:
    """An action kind as a word: ``move_from`` -> ``move from``."""
    return str(kind).replace("_", " ")


class GenericView(GameView):
    """Any game, from its view dict and legal actions (see the module docstring)."""

    game_id = ""
    has_secrets = True
    #: Nothing on this table moves by itself (no pulse): a waiting table draws nothing.
    MARKS_PULSE = True

    def choice_rects(self) -> list[pygame.Rect]:
        return self.panel.option_rects()

    def __init__(self, app: App, seats: list[SeatInfo]) -> None:
        super().__init__(app, seats)
        self.composer = Composer()
        self.panel = ComposerPanel(app, self.composer, self._value_label, self._field_label)
        self.seat_rows: list[pygame.Rect] = []
        self.fields_rect = pygame.Rect(0, 0, 0, 0)
        self.fields_scroll = 0
        self.fields_height = 0
        #: Where the last frame drew each field line, and its whole text (for the tooltip).
        self.lines: list[tuple[pygame.Rect, str]] = []

    # ---- layout and state ------------------------------------------------------------------
    def layout(self, area: pygame.Rect, log_height: int) -> Regions:
        """The fields left, the seats and the composer right, the log under them."""
        regions = side_panel_layout(
            self.app, area, (4.0, 3.0), log_height, panel_min=360, panel_max=520
        )
        self.board_rect = pygame.Rect(regions.board)
        self.panel_rect = pygame.Rect(regions.panel)
        self._place()
        return regions

    def _place(self) -> None:
        px = self.app.px
        rows = max(1, len(self.seats))
        row_h = px(34)
        seats_h = min(rows * row_h + px(12), self.panel_rect.height // 2)
        self.seat_rows = [
            pygame.Rect(
                self.panel_rect.x,
                self.panel_rect.y + px(6) + i * row_h,
                self.panel_rect.width,
                row_h - px(4),
            )
            for i in range(rows)
        ]
        self.panel.rect = pygame.Rect(
            self.panel_rect.x,
            self.panel_rect.y + seats_h,
            self.panel_rect.width,
            max(0, self.panel_rect.height - seats_h),
        )
        self.fields_rect = self.board_rect.inflate(-px(8), -px(8))

    def set_seats(self, seats: list[SeatInfo]) -> None:
        super().set_seats(seats)
        self._place()

    def set_view(
        self, view: dict[str, Any], legal: list[Action], events: list[dict[str, Any]]
    ) -> None:
        self.view = view if isinstance(view, dict) else {}
        self.legal = [tuple(a) for a in legal]
        if self.composer.set_legal(self.legal, (self.decision, self.turn)):
            self.composer.skip_forced()

    def set_hint(self, action: Action | None) -> None:
        super().set_hint(action)
        self.panel.hint = action

    # ---- input -----------------------------------------------------------------------------
    def click(self, pos: tuple[int, int]) -> Action | None:
        _used, action = self.panel.click(pos)
        return action

    def key(self, event: pygame.event.Event) -> Action | None:
        return self.panel.key(event) if self.legal else None

    def wheel(self, pos: tuple[int, int], dy: int) -> bool:
        if self.panel.wheel(pos, dy):
            return True
        if self.fields_rect.collidepoint(pos):
            limit = max(0, self.fields_height - self.fields_rect.height)
            self.fields_scroll = max(0, min(limit, self.fields_scroll - dy * self.app.px(40)))
            return True
        return False

    def mouse_moved(self, pos: tuple[int, int]) -> None:
        self.panel.mouse_moved(pos)

    def hover(self, pos: tuple[int, int]) -> str:
        for rect, text in self.lines:
            if rect.collidepoint(pos):
                return text
        for option in self.panel.options:
            if option.rect.collidepoint(pos):
                return option.label
        return ""

    # ---- buttons and words -----------------------------------------------------------------
    def buttons(self) -> list[ViewButton]:
        return self.panel.buttons(enabled=bool(self.legal))

    def default_action(self) -> Action | None:
        action = self.composer.complete()
        return action if action is not None and action in self.legal else None

    def _name(self, seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.seats):
            return self.seats[seat].name
        return str(seat)

    def status(self) -> str:
        if not self.view:
            return ""
        # ``to_move`` is empty only when the game is over (docs/architecture.md, rule 1).
        if self.view.get("over") or (not self.to_move and self.turn is not None):
            return t("generic.status.over")
        if self.legal:
            return t("generic.status.yours")
        waiting = [s for s in self.to_move if 0 <= s < len(self.seats)]
        if not waiting:
            return ""
        if self.replaying:
            return self.replay_status(waiting)
        if all(self.seats[s].kind == "bot" for s in waiting):
            return t("generic.status.thinking", names=", ".join(self._name(s) for s in waiting))
        return t("generic.status.waiting", names=", ".join(self._name(s) for s in waiting))

    def _value_label(self, index: int, value: Any, prefix: Action) -> str:
        return humane(value) if index == 0 else compact(value, 60)

    def _field_label(self, composer: Composer) -> str:
        if composer.depth == 0:
            return t("generic.field.kind")
        return t("generic.field.n", kind=humane(composer.prefix[0]), n=composer.depth)

    def describe_action(self, action: Action) -> str:
        return " ".join([humane(action[0]), *(compact(v, 40) for v in action[1:])])

    def describe_event(self, event: dict[str, Any]) -> LogLine | None:
        kind = event.get("type")
        if not isinstance(kind, str):
            return None
        seat = event.get("seat")
        fields = ", ".join(
            f"{k}: {compact(v, 50)}" for k, v in event.items() if k not in EVENT_SKIP
        )
        text = humane(kind) + (f" — {fields}" if fields else "")
        if isinstance(seat, int):
            return LogLine(seat, f"{self._name(seat)}: {text}")
        return LogLine(None, text)

    # ---- the end ---------------------------------------------------------------------------
    def score_categories(self) -> list[tuple[str, str]]:
        """The categories of the view's ``scores`` (``total`` last, as the results add it)."""
        scores = self.view.get("scores")
        if isinstance(scores, list) and scores and isinstance(scores[0], dict):
            return [(str(k), humane(k)) for k in scores[0] if k != "total"]
        return []

    # ---- drawing ---------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        px = self.app.px
        pygame.draw.rect(surface, pal.BG_PANEL, self.board_rect, border_radius=px(10))
        pygame.draw.rect(surface, pal.BORDER, self.board_rect, 1, border_radius=px(10))
        self._draw_fields(surface)
        self._draw_seats(surface)
        self.panel.hint = self.hint
        self.panel.draw(surface, active=bool(self.legal))

    def _seat_values(self, value: Any) -> bool:
        """A list with one plain value per seat (coins, positions, who sealed)."""
        return (
            isinstance(value, list)
            and len(value) == len(self.seats)
            and len(self.seats) > 1
            and all(v is None or isinstance(v, bool | int | float | str) for v in value)
        )

    def _seat_rows(self, value: Any) -> bool:
        """A list with one map or list per seat (each seat's score by category)."""
        return (
            isinstance(value, list)
            and len(value) == len(self.seats)
            and len(self.seats) > 1
            and all(isinstance(v, dict | list) for v in value)
        )

    def _draw_seat_rows(
        self, surface: pygame.Surface, value: list[Any], x: int, y: int, avail: int, size: int
    ) -> int:
        """One line per seat: its swatch, then its value folded."""
        px = self.app.px
        fonts = self.app.fonts
        line_h = fonts.line_height(size)
        for seat, v in enumerate(value):
            sw = self.seats[seat].swatch(px(14), self.app.settings.colour_blind)
            surface.blit(sw, sw.get_rect(midleft=(x, y + line_h // 2)))
            text = compact(v, 400)
            shown = fonts.ellipsize(text, size, avail - px(18))
            surface.blit(fonts.render(shown, size, pal.TEXT), (x + px(18), y))
            self.lines.append(
                (
                    pygame.Rect(x, y, avail, line_h).clip(self.fields_rect),
                    f"{self._name(seat)}: {text}",
                )
            )
            y += line_h
        return y + px(3)

    def _field_lines(self, value: Any) -> list[str]:
        """A field's value as up to :data:`MAX_FIELD_LINES` lines."""
        if isinstance(value, list) and value and all(isinstance(v, dict | list) for v in value):
            lines = [compact(v) for v in value]
        elif isinstance(value, dict) and len(compact(value)) > 60:
            lines = [f"{k}: {compact(v)}" for k, v in value.items()]
        else:
            lines = [compact(value, 400)]
        if len(lines) > MAX_FIELD_LINES:
            more = len(lines) - MAX_FIELD_LINES + 1
            lines = [*lines[: MAX_FIELD_LINES - 1], t("generic.more", n=more)]
        return lines

    def _draw_fields(self, surface: pygame.Surface) -> None:
        px = self.app.px
        fonts = self.app.fonts
        area = self.fields_rect
        self.lines = []
        if area.width <= px(40) or area.height <= px(30):
            return
        clip = surface.get_clip()
        surface.set_clip(area.clip(clip))
        size = px(14)
        line_h = fonts.line_height(size)
        title = self._title()
        y = area.y + px(4) - self.fields_scroll
        if title:
            img = fonts.render(
                fonts.ellipsize(title, px(20), area.width, True), px(20), pal.ACCENT, True
            )
            surface.blit(img, (area.x + px(6), y))
            y += img.get_height() + px(6)
        key_w = min(px(170), area.width // 3)
        for key, value in self.view.items():
            if key in HIDDEN_FIELDS:
                continue
            label = humane(key)
            img = fonts.render(
                fonts.ellipsize(label, size, key_w - px(10), True), size, pal.TEXT_DIM, True
            )
            x = area.x + px(6)
            surface.blit(img, (x, y))
            vx = x + key_w
            avail = area.right - px(6) - vx
            if self._seat_values(value):
                y = self._draw_seat_values(surface, value, vx, y, avail, size)
                continue
            if self._seat_rows(value):
                y = self._draw_seat_rows(surface, value, vx, y, avail, size)
                continue
            for line in self._field_lines(value):
                text = fonts.ellipsize(line, size, avail)
                img = fonts.render(text, size, pal.TEXT)
                surface.blit(img, (vx, y))
                self.lines.append(
                    (pygame.Rect(vx, y, avail, line_h).clip(area), f"{label}: {line}")
                )
                y += line_h
            y += px(3)
        self.fields_height = y + self.fields_scroll - area.y
        surface.set_clip(clip)

    def _title(self) -> str:
        """The game's name: the client's translation, else the game's own title, else its id."""
        game_id = str(self.view.get("game") or "")
        if not game_id:
            return ""
        fallback = game_id
        try:
            from game.core.registry import get_game

            fallback = get_game(game_id).title
        except Exception:
            pass
        return game_title(game_id, fallback)

    def _draw_seat_values(
        self, surface: pygame.Surface, value: list[Any], x: int, y: int, avail: int, size: int
    ) -> int:
        """Each seat's swatch and its value, flowing onto more lines when needed."""
        px = self.app.px
        fonts = self.app.fonts
        line_h = fonts.line_height(size)
        left = x
        for seat, v in enumerate(value):
            text = compact(v, 30)
            img = fonts.render(text, size, pal.TEXT)
            need = px(20) + img.get_width() + px(14)
            if x > left and x + need > left + avail:
                x, y = left, y + line_h
            sw = self.seats[seat].swatch(px(14), self.app.settings.colour_blind)
            surface.blit(sw, sw.get_rect(midleft=(x, y + line_h // 2)))
            surface.blit(img, (x + px(18), y))
            self.lines.append((pygame.Rect(x, y, need, line_h), f"{self._name(seat)}: {text}"))
            x += need
        return y + line_h + px(3)

    def _draw_seats(self, surface: pygame.Surface) -> None:
        px = self.app.px
        fonts = self.app.fonts
        scores = self.view.get("scores")
        you = self.view.get("you")
        for seat, rect in enumerate(self.seat_rows):
            if seat >= len(self.seats) or rect.bottom > self.panel.rect.y:
                break
            info = self.seats[seat]
            active = seat in self.to_move
            pygame.draw.rect(
                surface, pal.BG_PANEL_2 if active else pal.BG_PANEL, rect, border_radius=px(8)
            )
            if active:
                pygame.draw.rect(
                    surface, info.rgb(self.app.settings.colour_blind), rect, 2, border_radius=px(8)
                )
            sw = info.swatch(px(20), self.app.settings.colour_blind)
            surface.blit(sw, sw.get_rect(midleft=(rect.x + px(8), rect.centery)))
            right = rect.right - px(10)
            if isinstance(scores, list) and seat < len(scores) and isinstance(scores[seat], dict):
                total = fonts.render(str(scores[seat].get("total", "")), px(17), pal.ACCENT, True)
                surface.blit(total, total.get_rect(midright=(right, rect.centery)))
                right -= total.get_width() + px(10)
            if active:
                mark = fonts.render(t("generic.choosing"), px(12), pal.HIGHLIGHT)
                surface.blit(mark, mark.get_rect(midright=(right, rect.centery)))
                right -= mark.get_width() + px(8)
            tag = ""
            if seat == you:
                tag = t("generic.you")
            elif not info.connected:
                tag = t("generic.away")
            elif info.kind == "bot":
                tag = t("generic.bot")
            label = info.name + (f" ({tag})" if tag else "")
            x = rect.x + px(36)
            size = fonts.fit(label, px(15), right - x, active, minimum=px(11))
            img = fonts.render(
                fonts.ellipsize(label, size, right - x, active), size, pal.TEXT, active
            )
            surface.blit(img, img.get_rect(midleft=(x, rect.centery)))


VIEW = GenericView


def help_pages() -> list[tuple[Any, Any]]:
    """One page about this table (the game itself has no help pages in this client)."""
    return [
        (
            lambda: t("generic.help.title"),
            lambda: [("h", t("generic.help.title")), ("p", t("generic.help.text"))],
        )
    ]
