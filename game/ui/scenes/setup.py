"""New game: choose the game, 2..max players, who sits where, names, colours and options.

Seats are human (on this computer), a bot of some difficulty, or — when hosting a LAN game —
open for a player on the network.  The game's options come from its ``OptionSpec`` list
(``Game.options``): on/off switches, choices, and lists such as Kingdom Builder's four sections
or three cards, each of which may be left to chance ("random").  Whether a combination is
allowed is the engine's decision: the host refuses bad options with a reason, shown here.
"""

from __future__ import annotations

import contextlib
from functools import partial
from typing import TYPE_CHECKING, Any

import pygame

from game.ui import palette as pal
from game.ui.i18n import game_title, has, lazy, t
from game.ui.scenes.common import PageScene, panel
from game.ui.widgets import Button, Choice, Label, TextField, Toggle, Widget

if TYPE_CHECKING:
    from game.core.api import Game, OptionSpec
    from game.ui.app import App

#: Seat kinds offered: human, the bot difficulties, and (when hosting) open for the LAN.
BOT_LEVELS = ("easy", "normal", "hard")
MAX_NAME = 20
#: Options a game's ``first_game`` option fixes (Kingdom Builder's): greyed while it is on.
FIRST_GAME_FIXES = ("sections", "rotations", "cards", "exclude_cards")
#: Where the setup of a LAN table remembers whether to serve the install page.
INSTALL_PAGE_KEY = "host.install_page"


def option_label(game_id: str, spec: OptionSpec) -> str:
    key = f"option.{game_id}.{spec.name}"
    return t(key) if has(key) else spec.label


def option_help(game_id: str, spec: OptionSpec) -> str:
    key = f"option.{game_id}.{spec.name}.help"
    return t(key) if has(key) else spec.help


def value_label(game_id: str, spec: OptionSpec, value: Any) -> str:
    """How an option value is shown: "random", seat numbers, and the game's own names."""
    if value == "random":
        return t("setup.random")
    if spec.name == "start_seat" and isinstance(value, str) and value.isdigit():
        return t("setup.seat_n", n=int(value) + 1)
    from game.ui.games import value_label as game_value_label

    return game_value_label(game_id, spec.name, value)


class OptionRow:
    """The widgets of one game option and how to read its value back."""

    def __init__(self, scene: SetupScene, game_id: str, spec: OptionSpec) -> None:
        self.spec = spec
        self.label = Label(lambda: option_label(game_id, spec), size=16)
        self.label.tooltip = lambda: option_help(game_id, spec)
        self.main: Widget
        self.parts: list[Widget] = []
        kind = spec.kind
        if kind == "bool":
            self.main = Toggle(
                f"opt_{spec.name}",
                lambda: t("setup.on"),
                bool(spec.default),
                tooltip=lambda: option_help(game_id, spec),
                on_change=lambda v: scene.options_changed(),
            )
        elif kind == "choice":
            self.main = Choice(
                f"opt_{spec.name}",
                [(c, partial(value_label, game_id, spec, c)) for c in spec.choices],
                spec.default,
                lambda v: scene.options_changed(),
                tooltip=lambda: option_help(game_id, spec),
            )
        elif kind == "int":
            self.main = Choice(
                f"opt_{spec.name}",
                [(v, str(v)) for v in range(spec.minimum, spec.maximum + 1)],
                spec.default,
                tooltip=lambda: option_help(game_id, spec),
            )
        elif kind in ("multi", "flags"):
            self.main = Choice(
                f"opt_{spec.name}",
                [("random", lambda: t("setup.random")), ("chosen", lambda: t("setup.choose"))],
                "random" if spec.default == "random" else "chosen",
                lambda v: scene.options_changed(),
                tooltip=lambda: option_help(game_id, spec),
            )
            for i in range(spec.count):
                if kind == "multi":
                    choices = list(spec.choices)
                    default = choices[i % len(choices)] if choices else None
                    self.parts.append(
                        Choice(
                            f"opt_{spec.name}_{i}",
                            [(c, partial(value_label, game_id, spec, c)) for c in choices],
                            default,
                            font_size=14,
                        )
                    )
                else:
                    self.parts.append(
                        Toggle(f"opt_{spec.name}_{i}", lazy("setup.flag_n", n=i + 1), False)
                    )
        elif kind == "subset":
            # Some of the choices (none by default): "None", or "Choose" and a box per choice
            # (Kingdom Builder's cards a random draw leaves out).
            self.main = Choice(
                f"opt_{spec.name}",
                [("none", lambda: t("setup.none")), ("chosen", lambda: t("setup.choose"))],
                "chosen" if spec.default else "none",
                lambda v: scene.options_changed(),
                tooltip=lambda: option_help(game_id, spec),
            )
            wanted = set(spec.default or [])
            for c in spec.choices:
                self.parts.append(
                    Toggle(
                        f"opt_{spec.name}_{c}",
                        partial(value_label, game_id, spec, c),
                        c in wanted,
                        lambda v: scene.options_changed(),
                        tooltip=lambda: option_help(game_id, spec),
                    )
                )
        else:
            raise ValueError(f"option kind {kind!r} is not supported by the setup screen")

    def widgets(self) -> list[Widget]:
        return [self.label, self.main, *self.parts]

    def state(self) -> dict[str, Any]:
        """What the player set, as plain values (kept in the settings between launches)."""
        return {"main": _widget_value(self.main), "parts": [_widget_value(p) for p in self.parts]}

    def restore(self, state: Any) -> None:
        """Set the widgets from a :meth:`state` read back from the settings file: values of
        the wrong type, or no longer offered, are left as they are."""
        if not isinstance(state, dict):
            return
        _set_widget(self.main, state.get("main"))
        parts = state.get("parts")
        if isinstance(parts, list) and len(parts) == len(self.parts):
            for widget, value in zip(self.parts, parts, strict=True):
                _set_widget(widget, value)

    def chosen(self) -> bool:
        return isinstance(self.main, Choice) and self.main.value == "chosen"

    def value(self) -> Any:
        kind = self.spec.kind
        if kind == "bool":
            assert isinstance(self.main, Toggle)
            return self.main.value
        if kind in ("choice", "int"):
            assert isinstance(self.main, Choice)
            return self.main.value
        if kind == "subset":
            if not self.chosen():
                return []
            return [
                c
                for c, p in zip(self.spec.choices, self.parts, strict=True)
                if isinstance(p, Toggle) and p.value
            ]
        if not self.chosen():
            return "random"
        if kind == "multi":
            return [p.value for p in self.parts if isinstance(p, Choice)]
        return [p.value for p in self.parts if isinstance(p, Toggle)]


def _widget_value(widget: Widget) -> Any:
    if isinstance(widget, Toggle):
        return widget.value
    if isinstance(widget, Choice):
        return widget.value
    return None


def _set_widget(widget: Widget, value: Any) -> None:
    if isinstance(widget, Toggle) and isinstance(value, bool):
        widget.value = value
    elif isinstance(widget, Choice) and isinstance(value, str | int | float | bool):
        widget.set_value(value)


class SeatRow:
    """Kind, name and colour of one seat."""

    def __init__(self, scene: SetupScene, index: int, hosting: bool) -> None:
        self.index = index
        #: The name this seat got by itself (see SetupScene._default_name).
        self.auto_name = ""
        kinds: list[tuple[str, Any]] = [("human", lambda: t("setup.kind.human"))]
        if hosting:
            # The person at this computer sits in the first seat; the others are open for LAN
            # players or bots.
            kinds = [("human", lambda: t("setup.kind.you"))] if index == 0 else []
            kinds.append(("open", lambda: t("setup.kind.open")))
        kinds += [(f"bot:{lv}", (lambda lv=lv: t(f"setup.kind.bot_{lv}"))) for lv in BOT_LEVELS]
        self.kind = Choice(
            f"seat_kind_{index}",
            kinds,
            kinds[0][0],
            lambda v: scene.seat_kind_changed(index),
            tooltip=lambda: t("setup.kind.tip"),
        )
        self.name = TextField(
            f"seat_name_{index}",
            "",
            max_length=MAX_NAME,
            placeholder=lambda: t("setup.name_placeholder"),
        )
        colours = scene.seat_colours()
        self.colour = Choice(
            f"seat_colour_{index}",
            [(c, pal.colour_text(c, scene.app.settings)) for c in colours],
            colours[index % len(colours)],
            lambda v: scene.colour_changed(index, v),
            font_size=14,
            swatch=lambda value, size: pal.seat_swatch(
                value, index, size, scene.app.settings.colour_blind
            ),
        )
        self.label = Label(lambda: t("setup.seat_n", n=index + 1), size=16, bold=True)

    def widgets(self) -> list[Widget]:
        return [self.label, self.kind, self.name, self.colour]

    @property
    def is_bot(self) -> bool:
        return str(self.kind.value).startswith("bot:")


class SetupScene(PageScene):
    """New game (see the module docstring)."""

    name = "setup"
    help_topic = "setup"

    def frame_rate(self) -> float:
        return 0.0  # nothing moves by itself

    def __init__(self, app: App, mode: str = "local") -> None:
        super().__init__(app)
        from game.core.registry import PLANNED, game_ids, get_game

        self.mode = mode
        self.title = lambda: t("setup.title.host" if mode == "host" else "setup.title.local")
        self.games: list[Game] = [get_game(g) for g in game_ids()]
        options: list[tuple[Any, Any]] = [
            (g.id, (lambda g=g: game_title(g.id, g.title))) for g in self.games
        ]
        options += [
            (gid, (lambda gid=gid, title=title: t("setup.planned", title=game_title(gid, title))))
            for gid, title in PLANNED.items()
        ]
        self.game_choice = Choice("game", options, self.games[0].id, self.game_changed)
        self.game_label = Label(lambda: t("setup.game"), size=17, bold=True)
        self.players_choice = Choice("players", [], 0, self.players_changed)
        self.players_label = Label(lambda: t("setup.players"), size=17, bold=True)
        self.start_button = Button(
            "start",
            lambda: t("setup.open_table" if mode == "host" else "setup.start"),
            self.start,
            style="primary",
            hint="Enter",
            font_size=19,
        )
        self.seat_rows: list[SeatRow] = []
        self.option_rows: list[OptionRow] = []
        self.options_title = Label(
            lambda: t("setup.options"), size=18, bold=True, colour=pal.ACCENT
        )
        self.seats_title = Label(lambda: t("setup.seats"), size=18, bold=True, colour=pal.ACCENT)
        #: Said under "Game options" for a game that has none (Keyflower).
        self.no_options = Label(
            lambda: t("setup.no_options"),
            id="no_options",
            colour=pal.TEXT_DIM,
            wrap=True,
            valign="top",
        )
        #: Hosting: serve the install page beside the table (on unless the player turned it
        #: off; remembered).
        served = app.settings.extra.get(INSTALL_PAGE_KEY, True)
        self.install_toggle = Toggle(
            "install_page",
            lambda: t("setup.install_page"),
            served if isinstance(served, bool) else True,
            self.install_page_changed,
            tooltip=lambda: t("setup.install_page.tip"),
        )
        self.starting = False
        self._colours: list[str] = []
        self._shown_game = ""
        last = self._saved().get("game")
        if any(g.id == last for g in self.games):
            self.game_choice.set_value(last)
        self._build_for_game(self.game)
        self._restore()

    # ---- building --------------------------------------------------------------------------
    @property
    def game(self) -> Game:
        gid = self.game_choice.value
        for g in self.games:
            if g.id == gid:
                return g
        return self.games[0]

    def seat_colours(self) -> tuple[str, ...]:
        """The colours this game's seats are offered: none its pieces wear."""
        from game.ui.games import seat_colours

        return seat_colours(self.game.id)

    def _build_for_game(self, game: Game) -> None:
        counts = list(range(game.min_players, game.max_players + 1))
        keep = self.players_choice.value if self.players_choice.value in counts else None
        self.players_choice.set_options([(n, str(n)) for n in counts], keep or min(4, counts[-1]))
        self.option_rows = [OptionRow(self, game.id, spec) for spec in game.options]
        # Another game may dress its pieces in colours a seat had: those seats change colour.
        allowed = self.seat_colours()
        options = [(c, pal.colour_text(c, self.app.settings)) for c in allowed]
        taken: set[str] = set()
        for row in self.seat_rows:
            keep_colour = row.colour.value if row.colour.value in allowed else None
            if keep_colour in taken:
                keep_colour = None
            if keep_colour is None:
                keep_colour = next(c for c in allowed if c not in taken)
            row.colour.set_options(options, keep_colour)
            taken.add(keep_colour)
        self._rebuild_seats()

    def _rebuild_seats(self) -> None:
        n = int(self.players_choice.value)
        hosting = self.mode == "host"
        while len(self.seat_rows) < n:
            i = len(self.seat_rows)
            row = SeatRow(self, i, hosting)
            taken = {r.colour.value for r in self.seat_rows}
            if row.colour.value in taken:
                row.colour.set_value(next(c for c in self.seat_colours() if c not in taken))
            if i > 0:
                row.kind.set_value("open" if hosting else "bot:normal")
            self.seat_rows.append(row)
            self._default_name(row)
        del self.seat_rows[n:]
        self._colours = [r.colour.value for r in self.seat_rows]
        self._collect_widgets()

    def _collect_widgets(self) -> None:
        self.widgets = [
            self.back_button,
            self.help_button,
            self.game_label,
            self.game_choice,
            self.players_label,
            self.players_choice,
            self.seats_title,
            self.options_title,
            self.start_button,
        ]
        if self.mode == "host":
            self.widgets.append(self.install_toggle)
        if not self.option_rows:
            self.widgets.append(self.no_options)
        for row in self.seat_rows:
            self.widgets.extend(row.widgets())
        for orow in self.option_rows:
            self.widgets.extend(orow.widgets())
        if self.size != (0, 0):
            self.layout(*self.size)

    def _default_name(self, row: SeatRow) -> None:
        """The name a seat gets by itself (a bot's level and number, "Player n", the player's
        own name on seat 1); remembered, so a later change of kind replaces it but never a
        name the player typed."""
        if row.is_bot:
            level = str(row.kind.value).split(":", 1)[1]
            name = t("setup.bot_name", level=t(f"setup.level.{level}"), n=row.index + 1)
        elif row.kind.value == "open":
            name = ""
        else:
            own = self.app.settings.player_name
            name = own if own and row.index == 0 else t("setup.player_n", n=row.index + 1)
        row.name.set_text(name)
        row.auto_name = name

    # ---- reactions -------------------------------------------------------------------------
    def game_changed(self, game_id: str) -> None:
        if not any(g.id == game_id for g in self.games):
            self.app.toast(t("setup.not_playable"), "info")
            self.game_choice.set_value(self.games[0].id)
            return
        if self._shown_game and self._shown_game != game_id:
            self._remember(self._shown_game)  # what was set for the game left
        self._build_for_game(self.game)
        self._restore()

    def players_changed(self, n: int) -> None:
        self._rebuild_seats()
        from game.ui.games import fit_options

        fitted = fit_options(self.game.id, n, self.options())  # KB: 5 players bring Nomads
        for row in self.option_rows:
            if row.spec.kind == "choice" and fitted.get(row.spec.name) != row.value():
                assert isinstance(row.main, Choice)
                row.main.set_value(fitted[row.spec.name])

    def seat_kind_changed(self, index: int) -> None:
        row = self.seat_rows[index]
        name = row.name.text
        generated = not name or name == row.auto_name
        if generated or row.is_bot:
            self._default_name(row)
        self.layout(*self.size)

    def colour_changed(self, index: int, colour: str) -> None:
        """Colours stay distinct: a seat that had this colour takes this seat's old one."""
        before = self._colours[index] if index < len(self._colours) else colour
        for row in self.seat_rows:
            if row.index != index and row.colour.value == colour:
                row.colour.set_value(before)
        self._colours = [r.colour.value for r in self.seat_rows]

    def install_page_changed(self, on: bool) -> None:
        self.app.settings.extra[INSTALL_PAGE_KEY] = on

    def options_changed(self) -> None:
        self.layout(*self.size)

    # ---- persistence -----------------------------------------------------------------------
    # Kept in ``settings.extra["setup.<mode>"]``: the last game, and per game the number of
    # players, the seats (kind, name, colour) and the options as set — restored when the screen
    # opens (on the last game) and when the game is changed, written to the settings file when
    # a game starts or the screen closes.

    def _saved(self) -> dict[str, Any]:
        saved = self.app.settings.extra.get(f"setup.{self.mode}")
        if not isinstance(saved, dict):
            return {}
        if "games" not in saved and isinstance(saved.get("game"), str):
            # the older shape: one game's seats
            saved = {"game": saved["game"], "games": {saved["game"]: saved}}
        return saved

    def _restore(self) -> None:
        game_id = self.game.id
        self._shown_game = game_id
        games = self._saved().get("games")
        saved = games.get(game_id) if isinstance(games, dict) else None
        if not isinstance(saved, dict):
            return
        n = saved.get("players")
        if isinstance(n, int) and self.game.min_players <= n <= self.game.max_players:
            self.players_choice.set_value(n)
            self._rebuild_seats()
        seats = saved.get("seats")
        for row, seat in zip(
            self.seat_rows, seats if isinstance(seats, list) else [], strict=False
        ):
            if not isinstance(seat, dict):
                continue
            row.kind.set_value(seat.get("kind"))
            self._default_name(row)  # what the seat would be called by itself, remembered
            if isinstance(seat.get("name"), str):
                row.name.set_text(seat["name"][:MAX_NAME])
            if seat.get("colour") in self.seat_colours():
                row.colour.set_value(seat["colour"])
        colours = [r.colour.value for r in self.seat_rows]
        if len(set(colours)) != len(colours):
            for i, r in enumerate(self.seat_rows):
                r.colour.set_value(self.seat_colours()[i])
        self._colours = [r.colour.value for r in self.seat_rows]
        options = saved.get("options")
        if isinstance(options, dict):
            for orow in self.option_rows:
                orow.restore(options.get(orow.spec.name))
            self.options_changed()

    def _remember(self, game_id: str | None = None) -> None:
        saved = self._saved()
        games = saved.get("games") if isinstance(saved.get("games"), dict) else {}
        assert isinstance(games, dict)
        game_id = game_id or self.game.id
        games[game_id] = {
            "players": int(self.players_choice.value),
            "seats": [
                {"kind": r.kind.value, "name": r.name.text, "colour": r.colour.value}
                for r in self.seat_rows
            ],
            "options": {r.spec.name: r.state() for r in self.option_rows},
        }
        self.app.settings.extra[f"setup.{self.mode}"] = {"game": self.game.id, "games": games}

    def _keep(self) -> None:
        """Remember the setup and write the settings file now (not only when the window
        closes normally)."""
        self._remember()
        with contextlib.suppress(OSError):
            self.app.settings.save()

    # ---- results ---------------------------------------------------------------------------
    def options(self) -> dict[str, Any]:
        """The options as chosen (those a first-game setup fixes left at their defaults)."""
        first_game = any(
            r.spec.name == "first_game" and r.value() is True for r in self.option_rows
        )
        return {
            row.spec.name: (
                row.spec.default
                if first_game and row.spec.name in FIRST_GAME_FIXES
                else row.value()
            )
            for row in self.option_rows
        }

    def seat_specs(self) -> list[Any]:
        from game.ui.client import SeatSpec

        specs = []
        for row in self.seat_rows:
            kind = str(row.kind.value)
            name = row.name.text.strip()
            if kind.startswith("bot:"):
                level = kind.split(":", 1)[1]
                specs.append(
                    SeatSpec(
                        "bot",
                        name
                        or t("setup.bot_name", level=t(f"setup.level.{level}"), n=row.index + 1),
                        row.colour.value,
                        level,
                    )
                )
            elif kind == "open":
                specs.append(SeatSpec("open", "", row.colour.value))
            else:
                specs.append(
                    SeatSpec(
                        "human", name or t("setup.player_n", n=row.index + 1), row.colour.value
                    )
                )
        return specs

    def start(self) -> None:
        if self.starting:
            return
        self._keep()
        specs = self.seat_specs()
        if self.mode == "host":
            from game.ui.scenes.lobby import host_lan_game

            host_lan_game(
                self.app, self.game, specs, self.options(), install_page=self.install_toggle.value
            )
            return
        from game.ui.local_game import start_local_game

        try:
            client = start_local_game(self.game.id, specs, self.options(), wakeup=self.app.wakeup)
        except Exception as exc:  # the host could not start (e.g. cannot write saves)
            self.app.toast(t("setup.failed", error=str(exc)), "error")
            return
        self.starting = True
        self.app.push(StartingScene(self.app, client, len(specs)))

    def leave(self) -> None:
        self._keep()

    def on_key(self, event: pygame.event.Event) -> bool:
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.start()
            return True
        return False

    def resume(self) -> None:
        self.starting = False

    # ---- layout ----------------------------------------------------------------------------
    def layout(self, w: int, h: int) -> None:
        super().layout(w, h)
        px = self.app.px
        area = self.content_rect()
        gap = px(24)
        left_w = int((area.width - gap) * 0.56)
        self.left = pygame.Rect(area.x, area.y, left_w, area.height)
        self.right = pygame.Rect(
            area.x + left_w + gap, area.y, area.width - left_w - gap, area.height
        )
        pad = px(16)
        row_h = px(40)
        # Left: game, players, seats.
        x, y = self.left.x + pad, self.left.y + pad
        inner_w = self.left.width - 2 * pad
        label_w = px(150)
        self.game_label.rect = pygame.Rect(x, y, label_w, row_h)
        self.game_choice.rect = pygame.Rect(x + label_w, y, inner_w - label_w, row_h)
        y += row_h + px(10)
        self.players_label.rect = pygame.Rect(x, y, label_w, row_h)
        self.players_choice.rect = pygame.Rect(x + label_w, y, px(150), row_h)
        y += row_h + px(18)
        self.seats_title.rect = pygame.Rect(x, y, inner_w, px(28))
        y += px(34)
        seat_h = min(px(46), (self.left.bottom - pad - y) // max(1, len(self.seat_rows)))
        num_w = px(34)
        kind_w = int((inner_w - num_w) * 0.34)
        colour_w = int((inner_w - num_w) * 0.27)
        name_w = inner_w - num_w - kind_w - colour_w - px(16)
        for row in self.seat_rows:
            h_ = seat_h - px(6)
            row.label.text = str(row.index + 1)
            row.label.rect = pygame.Rect(x, y, num_w, h_)
            row.kind.rect = pygame.Rect(x + num_w, y, kind_w, h_)
            row.name.rect = pygame.Rect(x + num_w + kind_w + px(8), y, name_w, h_)
            row.name.visible = row.kind.value != "open"
            row.colour.rect = pygame.Rect(x + num_w + kind_w + name_w + px(16), y, colour_w, h_)
            y += seat_h
        # Right: options.
        x, y = self.right.x + pad, self.right.y + pad
        inner_w = self.right.width - 2 * pad
        self.options_title.rect = pygame.Rect(x, y, inner_w, px(28))
        y += px(36)
        self.no_options.rect = pygame.Rect(x, y, inner_w, px(60))
        label_w = int(inner_w * 0.46)
        first_game = next(
            (r for r in self.option_rows if r.spec.name == "first_game" and r.value() is True),
            None,
        )
        # Rows as tall as they are made; tighter (and a subset's boxes in more columns) when
        # every option is open at once in a small window.
        bottom = self.right.bottom - pad
        for opt_h, part_h, gap, subset_cols in (
            (px(36), px(34), px(6), 3),
            (px(32), px(30), px(4), 3),
            (px(30), px(26), px(3), 4),
            (px(26), px(22), px(2), 5),
        ):
            end = self._layout_options(
                x, y, inner_w, label_w, first_game, opt_h, part_h, gap, subset_cols
            )
            if end <= bottom:
                break
        self.start_button.rect = pygame.Rect(w - px(32) - px(280), h - px(76), px(280), px(52))
        left = px(334)  # right of the Back and Help buttons
        self.install_toggle.rect = pygame.Rect(
            left, h - px(72), max(px(160), min(px(340), self.start_button.rect.x - px(24) - left)),
            px(44),
        )  # fmt: skip

    def _layout_options(
        self,
        x: int,
        y: int,
        inner_w: int,
        label_w: int,
        first_game: OptionRow | None,
        opt_h: int,
        part_h: int,
        gap: int,
        subset_cols: int,
    ) -> int:
        """Place the option rows from ``y`` down; the bottom they reach."""
        px = self.app.px
        for orow in self.option_rows:
            disabled = first_game is not None and orow.spec.name in FIRST_GAME_FIXES
            orow.main.enabled = not disabled
            orow.label.rect = pygame.Rect(x, y, label_w - px(8), opt_h)
            orow.main.rect = pygame.Rect(x + label_w, y, inner_w - label_w, opt_h)
            y += opt_h + gap
            show_parts = orow.chosen() and not disabled
            cols = {"multi": 2, "subset": subset_cols}.get(orow.spec.kind, 4)
            part_w = (inner_w - px(8) * (cols - 1)) // cols
            tall = min(part_h, opt_h - px(6)) if orow.spec.kind == "subset" else part_h
            for i, part in enumerate(orow.parts):
                part.visible = show_parts
                if show_parts:
                    part.rect = pygame.Rect(
                        x + (i % cols) * (part_w + px(8)),
                        y + (i // cols) * (tall + gap),
                        part_w,
                        tall,
                    )
            if show_parts and orow.parts:
                y += ((len(orow.parts) + cols - 1) // cols) * (tall + gap) + gap
        return y

    def draw_widgets(self, surface: pygame.Surface) -> None:
        panel(surface, self.left, self.app)
        panel(surface, self.right, self.app)
        super().draw_widgets(surface)


class StartingScene(PageScene):
    """ "Setting up the table…" until the host's first state arrives, then the game scene."""

    name = "starting"

    def frame_rate(self) -> float:
        return 10.0  # the dots, and the host's answer (its connection also wakes the window)

    def __init__(self, app: App, client: Any, players: int) -> None:
        super().__init__(app)
        self.client = client
        self.players = players
        self.title = lambda: t("starting.title")
        self.elapsed = 0.0
        self.handed_over = False

    def update(self, dt: float) -> None:
        super().update(dt)
        self.elapsed += dt
        self.client.poll()
        for notice in self.client.take_notices():
            if notice.kind in ("error", "disconnected"):
                self.app.toast(notice.text, "error")
                self.client.close()
                self.app.pop()
                return
        if self.client.states and self.client.lobby is not None:
            from game.ui.client import restore_log
            from game.ui.scenes.game import GameScene

            self.handed_over = True
            scene = GameScene(self.app, self.client, self.players)
            self.app.replace(scene)
            restore_log(scene)
        elif self.elapsed > 20:
            self.app.toast(t("starting.timeout"), "error")
            self.client.close()
            self.app.pop()

    def on_escape(self) -> None:
        self.client.close()
        self.app.pop()

    def leave(self) -> None:
        if not self.handed_over:
            self.client.close()

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        px = self.app.px
        w, h = surface.get_size()
        dots = "." * (1 + int(self.elapsed * 3) % 3)
        img = self.app.fonts.render(t("starting.text") + dots, px(22), pal.TEXT)
        surface.blit(img, img.get_rect(center=(w // 2, h // 2)))
