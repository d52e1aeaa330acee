"""The lobby of a LAN table: seats fill as players join, ready flags, the host starts.

The host (the table's creator) sees every seat with a menu to leave it open or give it to a bot,
and a Start button that the host enables once every seat is taken and every player is ready.
A player who joined sets their own colour and marks themselves ready.  Everything shown comes
from the host's ``lobby`` messages; every change is a message to the host, which may refuse it
with a reason.
"""

from __future__ import annotations

import contextlib
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from game.ui import palette as pal
from game.ui.client import CHAT_MAX, SeatSpec, TableClient, _hello, bot_delay_ms, colour_plan
from game.ui.i18n import game_title, lazy, t
from game.ui.scenes.common import PageScene, panel
from game.ui.widgets import Button, Choice, Label, TextField, Toggle
from net.versions import MISMATCH_CODES

if TYPE_CHECKING:
    from game.core.api import Game
    from game.ui.app import App

KINDS = ("open", "bot:easy", "bot:normal", "bot:hard")


#: Seconds a join may wait for the host's answer before the lobby gives up.
JOIN_TIMEOUT = 15.0


def _lan_client(
    app: App, host: str, port: int, game_id: str, key: int | None, **fields: Any
) -> tuple[TableClient, Any]:
    """A LAN table client on one TCP connection that reconnects by itself, keeps its seat's
    token in the user data folder and wakes the window when a message arrives."""
    from game.ui.scenes.reconnect import watch_link
    from net.client import Reconnect, TcpConnection
    from net.seats import SeatStore

    conn = TcpConnection.open(host, port, wakeup=app.wakeup, reconnect=Reconnect())
    client = TableClient(game_id, {key: conn}, address=(host, port), store=SeatStore(), **fields)
    watch_link(app, client)
    return client, conn


def host_lan_game(
    app: App,
    game: Game,
    specs: list[SeatSpec],
    options: dict[str, Any],
    install_page: bool = False,
) -> None:
    """Open a LAN table: start the host (with the install page, if asked), sit down at it, set
    up the seats, show the lobby.

    The table gets no name of the host's language: every player's window calls it after the
    player who opened it, in its own language (``lobby.table_name``)."""
    from game.ui.lan import LanServer

    you = next((i for i, s in enumerate(specs) if s.kind == "human"), None)
    # The host is named after the player who opens the table (their seat's name), as every
    # lobby calls the table: the join list says "Hana's table" too.
    name = (specs[you].name if you is not None else "") or app.settings.player_name
    name = name or t("lobby.default_host")
    try:
        server = LanServer(
            name, bots=any(s.kind == "bot" for s in specs), install_page=install_page
        )
    except OSError as exc:
        app.toast(t("lobby.host_failed", error=exc.strerror or str(exc)), "error")
        return
    client, conn = _lan_client(
        app,
        server.connect_address(),
        server.port,
        game.id,
        you,
        server=server,
        keep_server=app.keep_server,
    )
    conn.send(_hello(specs[you].name if you is not None else name))
    create: dict[str, Any] = {
        "t": "create_table",
        "game": game.id,
        "players": len(specs),
        "options": options,
        "bot_delay_ms": bot_delay_ms(),
    }
    if you is None:
        create["spectate"] = True
    else:
        create["seat"] = you
    conn.send(create)

    def joined(client: TableClient, key: int | None, msg: dict[str, Any]) -> None:
        client.on_joined = None
        from net.seat_rules import COLOURS

        for i, spec in enumerate(specs):
            if spec.kind == "bot":
                conn.send({"t": "set_seat", "seat": i, "kind": "bot", "bot": spec.bot})
            if spec.kind == "bot" or i == you:
                conn.send({"t": "set_seat", "seat": i, "name": spec.name})
        # The creator sets every colour now (the open seats' too: a player who joins keeps it
        # or changes their own), in an order in which no two seats hold one colour.
        for i, colour in colour_plan([s.colour for s in specs], COLOURS):
            conn.send({"t": "set_seat", "seat": i, "colour": colour})
        if you is not None:
            # The host's own seat is ready at once: the lobby's can_start then waits only for
            # the players who join.
            conn.send({"t": "ready"})

    client.on_joined = joined
    app.push(LobbyScene(app, client, len(specs), hosting=True))


def host_lan_save(app: App, path: str, replay: Any) -> None:
    """Continue a LAN table from its save (``saves/lan/``) as a LAN table again: this window
    hosts it in the same file, every seat stays reserved for its player's token, and this
    player sits down in the seat of the table's creator (its token is in the save, on this
    computer only) — or watches, when the creator did not play."""
    from game.ui.client import history_events
    from game.ui.lan import LanServer
    from net import protocol
    from net.protocol import ProtocolError

    creator_name = next(
        (
            str(info.get("name") or "")
            for info in replay.seats
            if isinstance(info, dict) and info.get("creator")
        ),
        "",
    )
    name = creator_name or app.settings.player_name or t("lobby.default_host")
    try:
        server = LanServer(name, bots=any((s or {}).get("kind") == "bot" for s in replay.seats))
    except OSError as exc:
        app.toast(t("lobby.host_failed", error=exc.strerror or str(exc)), "error")
        return
    try:
        table = server.resume(Path(path))
    except Exception as exc:  # BadState: damaged, foreign, finished
        server.close()
        app.toast(t("files.load_failed", error=str(exc)[:300]), "error")
        return
    creator: tuple[int, str] | None = None
    for i, info in enumerate(replay.seats):
        if isinstance(info, dict) and info.get("creator"):
            try:
                creator = (i, protocol.TOKEN("token", info.get("token")))
            except ProtocolError:
                continue
            break
    client, conn = _lan_client(
        app,
        server.connect_address(),
        server.port,
        replay.game,
        None,
        rekey=creator is not None,
        server=server,
        keep_server=app.keep_server,
    )
    conn.send(_hello(name[:32]))
    if creator is not None:
        conn.send({"t": "join", "table": table, "token": creator[1]})
    else:
        conn.send({"t": "join", "table": table, "spectate": True})
    client.history = history_events(replay, creator[0] if creator is not None else None)
    app.push(LobbyScene(app, client, replay.players, hosting=True))


def join_lan_table(
    app: App,
    host: str,
    port: int,
    table: str,
    spectate: bool = False,
    token: str | None = None,
) -> None:
    """Connect to a LAN host and join one of its tables (or watch it); with ``token``, take
    back the seat it holds (a seat this computer kept, ``net/seats.py``)."""
    client, conn = _lan_client(app, host, port, "", None, rekey=not spectate)
    name = app.settings.player_name.strip() or t("setup.player_n", n=1)
    conn.send(_hello(name[:32]))
    msg: dict[str, Any] = {"t": "join", "table": table, "name": name[:32]}
    if spectate:
        msg = {"t": "join", "table": table, "spectate": True}
    elif token is not None:
        msg = {"t": "join", "table": table, "token": token}
        # The log so far comes back with the seat (``game/ui/seatlog.py``).
        from game.ui.seatlog import SeatLog

        client.history = SeatLog(table, token).load()
        client.history_gap = bool(client.history)
    conn.send(msg)
    # The name the player plays under is kept now, not only when the window closes normally.
    with contextlib.suppress(OSError):
        app.settings.save()
    scene = LobbyScene(app, client, 0, hosting=False, address=f"{host}:{port}")
    scene.taking_back = token
    app.push(scene)


def _install_note(server: Any, address: str) -> str:
    """The install page's state for the host's lobby line (``""`` when it is off)."""
    from net.versions import install_url

    state = getattr(server, "install_state", "off")
    if state == "ready" and server.install_port:
        return t("lobby.install_page", url=install_url(address, server.install_port))
    if state == "preparing":
        return t("lobby.install_preparing")
    if state == "failed":
        return t("lobby.install_failed", error=server.install_error)
    return ""


def table_title(lobby: dict[str, Any]) -> str:
    """A table's title in this window's language: its game, and the name its host gave it —
    or, for a table opened in a window (which sends no name), whose table it is."""
    title = game_title(str(lobby.get("game", "")), str(lobby.get("title", "")))
    name = str((lobby.get("settings") or {}).get("name") or "")
    owner = lobby.get("owner_seat")
    seats = lobby.get("seats") or []
    if not name and isinstance(owner, int) and 0 <= owner < len(seats):
        creator = str(seats[owner].get("name") or "")
        name = t("lobby.table_name", name=creator) if creator else ""
    return t("lobby.heading", title=title, name=name) if name else title


class LobbyScene(PageScene):
    """The lobby (see the module docstring)."""

    name = "lobby"
    help_topic = "lobby"

    def frame_rate(self) -> float:
        """The dots while connecting (and while the install page is being prepared); then
        still (messages wake the window)."""
        server = self.client.server if self.hosting else None
        if getattr(server, "install_state", "") == "preparing":
            return 2.0
        return 4.0 if self.client.lobby is None else 0.0

    def __init__(
        self, app: App, client: TableClient, players: int, hosting: bool, address: str = ""
    ) -> None:
        super().__init__(app)
        self.client = client
        self.players = players
        self.hosting = hosting
        self.address = address
        self.title = lambda: t("lobby.title")
        self.back_button.text = lambda: t("lobby.leave")
        self.start_button = Button(
            "lobby_start",
            lambda: t("lobby.start"),
            self.start,
            style="primary",
            enabled=lambda: bool(self.client.lobby and self.client.lobby.get("can_start")),
            tooltip=lambda: t("lobby.start.tip"),
        )
        self.ready_toggle = Toggle("lobby_ready", lambda: t("lobby.ready"), False, self.set_ready)
        self.hints_toggle = Toggle(
            "lobby_hints",
            lambda: t("lobby.allow_hints"),
            False,
            self.set_hints,
            tooltip=lambda: t("lobby.allow_hints.tip"),
        )
        self.colour_choice = Choice(
            "lobby_colour",
            [(c, pal.colour_text(c, app.settings)) for c in pal.COLOUR_NAMES],
            None,
            self.set_colour,
            swatch=lambda value, size: pal.seat_swatch(
                value, self._my_seat() or 0, size, app.settings.colour_blind
            ),
        )
        self._colours_for = ""
        self.colour_label = Label(lambda: t("lobby.your_colour"), size=16)
        self.add(self.colour_label)
        self.add(self.start_button)
        self.add(self.ready_toggle)
        self.add(self.hints_toggle)
        self.chat_field = TextField(
            "lobby_chat",
            placeholder=lambda: t("chat.placeholder_lobby"),
            max_length=CHAT_MAX,
            on_submit=self.send_chat,
        )
        self.add(self.chat_field)
        self.chat_rect = pygame.Rect(0, 0, 0, 0)
        self.add(self.colour_choice)
        self.seat_choices: list[Choice] = []
        self.handed_over = False
        self.elapsed = 0.0
        #: The token of a kept seat this lobby is taking back (``join_lan_table``).
        self.taking_back: str | None = None
        self._layout_key: tuple[Any, ...] = ()
        self.box = pygame.Rect(0, 0, 0, 0)
        self.row_h = 1
        self.settings_y = 0

    # ---- seats -------------------------------------------------------------------------------
    def _my_seat(self) -> int | None:
        seats = self.client.local_seats
        return seats[0] if seats else None

    def _lobby_seats(self) -> list[dict[str, Any]]:
        return list((self.client.lobby or {}).get("seats", []))

    def _sync_widgets(self) -> None:
        seats = self._lobby_seats()
        if not self.players and self.client.lobby:
            self.players = int(self.client.lobby.get("players", len(seats)))
        owner = self.client.owner is not None or self.hosting
        if owner and len(self.seat_choices) != len(seats):
            for c in self.seat_choices:
                self.widgets.remove(c)
            self.seat_choices = []
            for i in range(len(seats)):
                c = Choice(
                    f"lobby_seat_{i}",
                    [(k, lazy(f"lobby.kind.{k.replace(':', '_')}")) for k in KINDS],
                    None,
                    partial(self.set_kind, i),
                    font_size=14,
                )
                self.seat_choices.append(c)
                self.add(c)
            self.layout(*self.size)
        for i, c in enumerate(self.seat_choices):
            if i >= len(seats):
                c.visible = False
                continue
            seat = seats[i]
            current = (
                "open"
                if seat.get("kind") == "open"
                else (f"bot:{seat.get('bot')}" if seat.get("kind") == "bot" else None)
            )
            c.visible = current is not None and not (self.client.lobby or {}).get("started")
            if current in KINDS:
                c.set_value(current)
        game_id = self.client.game_id or str((self.client.lobby or {}).get("game", ""))
        if game_id and game_id != self._colours_for:
            # this game's seats are offered the colours none of its pieces wear
            from game.ui.games import seat_colours

            self._colours_for = game_id
            self.colour_choice.set_options(
                [(c, pal.colour_text(c, self.app.settings)) for c in seat_colours(game_id)]
            )
        me = self._my_seat()
        if me is not None and me < len(seats):
            self.colour_choice.visible = True
            self.colour_label.visible = True
            self.colour_choice.set_value(seats[me].get("colour"))
            self.ready_toggle.visible = not owner
            self.ready_toggle.value = bool(seats[me].get("ready"))
        else:
            self.colour_choice.visible = False
            self.colour_label.visible = False
            self.ready_toggle.visible = False
        self.start_button.visible = owner
        settings = (self.client.lobby or {}).get("settings") or {}
        self.hints_toggle.visible = owner and not (self.client.lobby or {}).get("started")
        self.hints_toggle.value = bool(settings.get("allow_hints"))
        # The table changed shape (seats, who owns it, what shows): lay the page out again.
        key = (
            len(seats),
            self.players,
            owner,
            me,
            tuple(w.visible for w in self.widgets),
        )
        if key != self._layout_key:
            self._layout_key = key
            self.layout(*self.size)

    def set_kind(self, seat: int, value: str) -> None:
        if value == "open":
            self.client.send(self._my_key(), {"t": "set_seat", "seat": seat, "kind": "open"})
        else:
            level = value.split(":", 1)[1]
            self.client.send(
                self._my_key(), {"t": "set_seat", "seat": seat, "kind": "bot", "bot": level}
            )

    def _my_key(self) -> int | None:
        return self._my_seat()

    def set_colour(self, colour: str) -> None:
        me = self._my_seat()
        if me is not None:
            self.client.send(me, {"t": "set_seat", "seat": me, "colour": colour})

    def set_ready(self, ready: bool) -> None:
        self.client.send(self._my_key(), {"t": "ready", "ready": ready})

    def set_hints(self, allowed: bool) -> None:
        """The creator allows or forbids hints at this table (shown to everyone)."""
        self.client.send(self._my_key(), {"t": "configure", "allow_hints": allowed})

    def send_chat(self, text: str) -> None:
        if self.client.say(text):
            self.chat_field.set_text("")

    def start(self) -> None:
        self.client.send(self._my_key(), {"t": "start"})

    # ---- lifecycle -----------------------------------------------------------------------------
    def on_escape(self) -> None:
        self.client.send(self._my_key(), {"t": "close_table"} if self.hosting else {"t": "leave"})
        self.app.pop()

    def leave(self) -> None:
        if not self.handed_over:
            self.client.close()

    def update(self, dt: float) -> None:
        super().update(dt)
        self.elapsed += dt
        self.client.poll()
        for notice in self.client.take_notices():
            if notice.code in MISMATCH_CODES:
                self._mismatch(notice.text)
                return
            if notice.kind == "error" and self.client.table_id is None:
                # The host refused the join (the table is full or gone, the token unknown).
                self._refused(notice.text, notice.code)
                return
            if notice.kind == "error":
                self.app.toast(notice.text, "error")
            elif notice.code in ("left", "table_closed"):
                self.app.toast(t("lobby.closed", reason=notice.text), "error")
                self.app.remove(self)
                return
            elif notice.kind == "disconnected":
                self.app.toast(notice.text, "error")
                self.app.remove(self)
                return
            elif notice.text:
                self.app.toast(notice.text, "info")
        if self.client.table_id is None and self.elapsed > JOIN_TIMEOUT:
            self._refused(t("lobby.no_answer", seconds=int(JOIN_TIMEOUT)), "")
            return
        if self.client.lobby is not None and not self.client.game_id:
            self.client.game_id = str(self.client.lobby.get("game", ""))
        self._sync_widgets()
        if self.client.states and self.client.lobby is not None:
            from game.ui.games import NoView
            from game.ui.scenes.game import GameScene

            try:
                scene = GameScene(self.app, self.client, int(self.client.lobby["players"]))
            except NoView as exc:
                self.app.toast(str(exc), "error")
                self.app.pop()
                return
            from game.ui.client import restore_log

            self.handed_over = True
            self.app.replace(scene)
            restore_log(scene)

    def _mismatch(self, text: str) -> None:
        """This program and the host's cannot play together: say so in a dialog (both versions
        and where to get the host's, ``net.versions``) and leave the table."""
        from game.ui.scenes.overlays import MessageOverlay

        self.app.remove(self)
        self.app.push(MessageOverlay(self.app, text))

    def _refused(self, reason: str, code: str) -> None:
        """The join failed: say why and go back to where the player chose the table."""
        from net.protocol import ErrorCode

        if self.taking_back is not None and code in (
            ErrorCode.BAD_TOKEN,
            ErrorCode.NO_TABLE,
            ErrorCode.GAME_OVER,
        ):
            from net.seats import SeatStore

            SeatStore().forget(self.taking_back)  # that seat is gone for good
        self.app.toast(t("lobby.join_refused", reason=reason), "error")
        self.app.remove(self)

    def on_key(self, event: pygame.event.Event) -> bool:
        if event.key == pygame.K_t and self.chat_field.visible:
            self.app.set_focus(self.chat_field)
            return True
        return False

    # ---- layout and drawing --------------------------------------------------------------------
    def layout(self, w: int, h: int) -> None:
        """Heading, the seats' box (a row per seat, as tall as there is room for), the
        player's own controls under it, the table's settings line, the chat, the buttons.
        Redone whenever the table changes (:meth:`_sync_widgets`)."""
        super().layout(w, h)
        px = self.app.px
        area = self.content_rect()
        self.box = pygame.Rect(area.x, area.y + px(62), min(area.width, px(900)), 0)
        self.box.centerx = area.centerx
        n = max(1, len(self._lobby_seats()) or self.players)
        controls_h = px(42)
        # What must fit under the seats: the controls row, the settings line, the gap above
        # the bottom buttons.
        below = px(16) + controls_h + px(46) + px(8)
        room = (h - px(112)) - self.box.y - px(24) - below
        self.row_h = max(px(30), min(px(52), room // n))
        self.box.height = self.row_h * n + px(24)
        choice_h = max(px(22), self.row_h - px(14))
        choice_w = min(px(230), max(px(120), self.box.width // 3))
        for i, c in enumerate(self.seat_choices):
            c.rect = pygame.Rect(
                self.box.right - choice_w - px(20),
                self.box.y + px(12) + i * self.row_h + (self.row_h - choice_h) // 2 - px(3),
                choice_w,
                choice_h,
            )
        y = self.box.bottom + px(16)
        label_w = min(px(130), self.box.width // 5)
        self.colour_label.rect = pygame.Rect(self.box.x, y, label_w, controls_h)
        self.colour_choice.rect = pygame.Rect(self.box.x + label_w, y, px(240), controls_h)
        toggle_x = self.colour_choice.rect.right + px(24)
        toggle_w = max(px(120), min(px(300), self.box.right - toggle_x))
        self.ready_toggle.rect = pygame.Rect(toggle_x, y, toggle_w, controls_h)
        self.hints_toggle.rect = pygame.Rect(toggle_x, y, toggle_w, controls_h)
        self.settings_y = y + controls_h + px(4)
        # The chat: lines above a text field, between the settings and the bottom buttons.
        top = self.settings_y + px(30)
        self.chat_rect = pygame.Rect(self.box.x, top, self.box.width, h - px(112) - top)
        field_h = px(34)
        self.chat_field.rect = pygame.Rect(
            self.chat_rect.x + px(8),
            self.chat_rect.bottom - px(8) - field_h,
            self.chat_rect.width - px(16),
            field_h,
        )
        self.chat_field.visible = self.chat_rect.height >= px(70)
        self.start_button.rect = pygame.Rect(w - px(32) - px(260), h - px(76), px(260), px(52))

    def draw_widgets(self, surface: pygame.Surface) -> None:
        px = self.app.px
        fonts = self.app.fonts
        area = self.content_rect()
        lobby = self.client.lobby
        if lobby is None:
            dots = "." * (1 + int(self.elapsed * 3) % 3)
            img = fonts.render(t("lobby.connecting", address=self.address) + dots, px(20), pal.TEXT)
            surface.blit(img, img.get_rect(center=area.center))
            super().draw_widgets(surface)
            return
        head = table_title(lobby)
        note = ""
        if self.hosting and self.client.server is not None:
            from game.ui.lan import lan_addresses

            server = self.client.server
            addresses = lan_addresses(server.bind)
            info = t("lobby.host_info", host=", ".join(addresses[:2]), port=server.port)
            note = _install_note(server, addresses[0])
        else:
            info = t("lobby.guest_info", address=self.address)
        room = area.width
        if note:  # the install page's address, on the right of the heading
            note_img = fonts.render(note, px(16), pal.HIGHLIGHT)
            surface.blit(note_img, note_img.get_rect(topright=(self.box.right, area.y + px(4))))
            room = max(px(200), self.box.width - note_img.get_width() - px(24))
        img = fonts.render(fonts.ellipsize(head, px(22), room, True), px(22), pal.ACCENT, True)
        surface.blit(img, (self.box.x, area.y))
        sub = fonts.render(fonts.ellipsize(info, px(15), area.width), px(15), pal.TEXT_DIM)
        surface.blit(sub, (self.box.x, area.y + img.get_height() + px(4)))
        panel(surface, self.box, self.app)
        me = self._my_seat()
        for i, seat in enumerate(self._lobby_seats()):
            row = pygame.Rect(
                self.box.x + px(12),
                self.box.y + px(12) + i * self.row_h,
                self.box.width - px(24),
                self.row_h - px(6),
            )
            if i == me:
                pygame.draw.rect(surface, pal.BG_PANEL_2, row, border_radius=px(8))
            sw = pal.seat_swatch(str(seat.get("colour")), i, px(26), self.app.settings.colour_blind)
            surface.blit(sw, sw.get_rect(midleft=(row.x + px(8), row.centery)))
            kind = seat.get("kind")
            if kind == "open":
                name = t("lobby.open_seat")
                colour = pal.TEXT_DIM
            else:
                name = str(seat.get("name") or "?")
                colour = pal.TEXT
            if i == me:
                name += "  " + t("lobby.you")
            # Name, then the status column; a seat's menu (the creator's) on the right.
            status_x = row.x + min(px(400), int(row.width * 0.45))
            choice = self.seat_choices[i] if i < len(self.seat_choices) else None
            right = choice.rect.x - px(8) if choice is not None and choice.visible else row.right
            size = min(px(18), max(px(10), self.row_h // 2))
            img = fonts.render(
                fonts.ellipsize(name, size, status_x - row.x - px(56), kind != "open"),
                size,
                colour,
                kind != "open",
            )
            surface.blit(img, img.get_rect(midleft=(row.x + px(46), row.centery)))
            status = ""
            scol = pal.TEXT_DIM
            if kind == "human":
                status = t("lobby.ready_mark") if seat.get("ready") else t("lobby.not_ready")
                if not seat.get("connected", True):
                    status = t("lobby.disconnected")
                if seat.get("ready") and seat.get("connected", True):
                    scol = pal.GOOD
            elif kind == "bot" and not self.seat_choices:
                status = (
                    t(f"lobby.kind.bot_{seat.get('bot')}")
                    if seat.get("bot") in ("easy", "normal", "hard")
                    else str(seat.get("bot"))
                )
            if status and right - status_x > px(20):
                small = min(px(15), size)
                img = fonts.render(fonts.ellipsize(status, small, right - status_x), small, scol)
                surface.blit(img, img.get_rect(midleft=(status_x, row.centery)))
        if not self.hints_toggle.visible:
            allowed = bool((lobby.get("settings") or {}).get("allow_hints"))
            note = t("lobby.hints_allowed" if allowed else "lobby.hints_off")
            img = fonts.render(fonts.ellipsize(note, px(15), self.box.width), px(15), pal.TEXT_DIM)
            surface.blit(img, (self.box.x, self.settings_y))
        if self.chat_field.visible:
            self._draw_chat(surface)
        if self.hosting and not lobby.get("can_start"):
            hint = fonts.render(t("lobby.waiting_players"), px(15), pal.TEXT_DIM)
            surface.blit(
                hint,
                hint.get_rect(
                    bottomright=(self.start_button.rect.right, self.start_button.rect.y - px(8))
                ),
            )
        super().draw_widgets(surface)

    def _draw_chat(self, surface: pygame.Surface) -> None:
        """The table's chat lines, newest at the bottom, each with the speaker's colour."""
        px = self.app.px
        fonts = self.app.fonts
        box = self.chat_rect
        pygame.draw.rect(surface, pal.BG_PANEL, box, border_radius=px(8))
        pygame.draw.rect(surface, pal.BORDER, box, 1, border_radius=px(8))
        size = px(15)
        line_h = fonts.line_height(size)
        inner = pygame.Rect(
            box.x + px(12),
            box.y + px(8),
            box.width - px(24),
            self.chat_field.rect.y - box.y - px(12),
        )
        rows = max(0, inner.height // line_h)
        lines = self.client.chat[-rows:] if rows else []
        if not lines:
            img = fonts.render(t("chat.empty"), size, pal.TEXT_DISABLED)
            surface.blit(img, inner.topleft)
            return
        seats = self._lobby_seats()
        y = inner.bottom - len(lines) * line_h
        for seat, text in lines:
            x = inner.x
            if seat is not None and 0 <= seat < len(seats):
                sw = pal.seat_swatch(
                    str(seats[seat].get("colour")), seat, px(14), self.app.settings.colour_blind
                )
                surface.blit(sw, sw.get_rect(midleft=(x, y + line_h // 2)))
            x += px(22)
            img = fonts.render(fonts.ellipsize(text, size, inner.right - x), size, pal.TEXT)
            surface.blit(img, (x, y))
            y += line_h
