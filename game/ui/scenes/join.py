"""Join a LAN game: your name, the seats you can take back, tables found on the network, and a
field for an address.

Hosts announce themselves over UDP (``net.discovery``); the list refreshes twice a second from
a background listener that never blocks the window.  Typing an address (``host`` or
``host:port``) and pressing Connect asks that host for its tables over TCP and adds them to the
list.  A table that has started can be watched; one with open seats can be joined.

Seats this computer holds at a running game (``net/seats.py``: kept when the game started,
after this program was closed or lost its connection) come first, as "take your seat back":
joining one sends the seat's token, and the host — also one restarted from its save, whose
tables have new numbers — gives the seat back.  A kept seat the host no longer knows is
forgotten when it refuses the token.

The player's name (kept in the settings) is the name a joined seat gets.  Table titles are
made here, in this window's language, from what the host sends as data: a table's own name if
its host gave one, else whose table it is.
"""

from __future__ import annotations

import contextlib
import time
from typing import TYPE_CHECKING, Any

import pygame

from game.ui import palette as pal
from game.ui.client import _hello
from game.ui.i18n import game_title, t
from game.ui.scenes.common import PageScene
from game.ui.widgets import Button, Label, ListBox, ListItem, TextField
from net.versions import MISMATCH_CODES

if TYPE_CHECKING:
    from game.ui.app import App

REFRESH = 0.5
#: The longest player name (the protocol's limit).
NAME_MAX = 32


def _address_char(ch: str) -> bool:
    return ch.isalnum() or ch in ".:-_[]"


def _name_char(ch: str) -> bool:
    return ch.isprintable()


def _english_titles(table: dict[str, Any]) -> set[str]:
    """What a host sends as a table's name when it has none: its game's English title (the
    beacon does not say which it is, so the registered game's title counts too)."""
    from game.core.registry import UnknownGame, get_game

    titles = {str(table.get("title") or "")}
    with contextlib.suppress(UnknownGame):
        titles.add(get_game(str(table.get("game", ""))).title)
    return titles - {""}


def _version_note(welcome: dict[str, Any], game: str) -> str:
    """What the list says of a table this program cannot play with the host's (``""``: none)."""
    from net.versions import check_host

    mismatch = check_host(welcome, game)
    if mismatch is None:
        return ""
    if mismatch.why == "rules":
        return t(
            "join.other_rules",
            game=game_title(game),
            host=mismatch.host_rules if mismatch.host_rules is not None else "—",
            mine=mismatch.guest_rules if mismatch.guest_rules is not None else "—",
        )
    return t(
        "join.other_version",
        host=mismatch.host_program or t("version.unknown"),
        mine=mismatch.guest_program,
    )


class JoinScene(PageScene):
    """The list of LAN tables (see the module docstring)."""

    name = "join"
    help_topic = "join"

    def frame_rate(self) -> float:
        return 2.0  # the list refreshes twice a second from the background listener

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.title = lambda: t("join.title")
        self.list = ListBox(
            "tables",
            on_activate=lambda item: self.join(),
            empty_text=lambda: t("join.searching"),
            row_height=56,
        )
        self.name_label = Label(lambda: t("join.name"), size=16)
        self.name_field = TextField(
            "player_name",
            app.settings.player_name,
            placeholder=lambda: t("join.name_placeholder"),
            max_length=NAME_MAX,
            allowed=_name_char,
            on_submit=lambda text: self._save_name(),
        )
        self.address = TextField(
            "address",
            app.settings.last_address,
            placeholder=lambda: t("join.address_placeholder"),
            max_length=64,
            allowed=_address_char,
            on_submit=lambda text: self.connect(),
        )
        self.address_label = Label(lambda: t("join.address"), size=16)
        self.connect_button = Button("connect", lambda: t("join.connect"), self.connect)
        self.join_button = Button(
            "join_table",
            lambda: t("join.take_back") if self._selected_seat() else t("join.join"),
            self.join,
            style="primary",
            enabled=lambda: self._selected_table() is not None or self._selected_seat(),
        )
        self.watch_button = Button(
            "watch_table",
            lambda: t("join.watch"),
            lambda: self.join(spectate=True),
            enabled=lambda: self._selected_table() is not None,
        )
        for w in (
            self.list,
            self.name_label,
            self.name_field,
            self.address_label,
            self.address,
            self.connect_button,
            self.join_button,
            self.watch_button,
        ):
            self.add(w)
        self.browser: Any = None
        self.browser_error = ""
        self.refresh_in = 0.0
        #: Hosts asked directly by address: (host, port) -> [connection, tables or None, the
        #: host's name, its welcome (its versions)].
        self.direct: dict[tuple[str, int], list[Any]] = {}
        self._kept: list[Any] = []
        self._kept_read = -1e9

    def enter(self) -> None:
        from game.ui.lan import discovery_addresses
        from net.discovery import Browser

        try:
            listen, probe = discovery_addresses()
            self.browser = Browser(listen, probe)
        except (OSError, ValueError) as exc:
            self.browser_error = str(exc)
        self.refresh_in = 0.0

    def resume(self) -> None:
        self._kept_read = -1e9  # a join may have taken a seat back or forgotten one
        self.refresh_in = 0.0

    def leave(self) -> None:
        if self.browser is not None:
            self.browser.close()
            self.browser = None
        for entry in self.direct.values():
            entry[0].close()
        self.direct.clear()
        self.app.settings.last_address = self.address.text
        self._save_name()

    def _save_name(self) -> None:
        self.app.settings.player_name = " ".join(self.name_field.text.split())[:NAME_MAX]

    # ---- the list ------------------------------------------------------------------------------
    def _kept_seats(self) -> list[Any]:
        """Seats this computer holds that nobody else here plays now (read at most once a
        second: the file is shared with other programs)."""
        now = time.monotonic()
        if now - self._kept_read >= 1.0:
            from net.seats import SeatStore

            self._kept_read = now
            try:
                store = SeatStore()
                self._kept = [s for s in store.seats() if s in store.free(s.host, s.port)]
            except OSError:
                self._kept = []
        return self._kept

    def _items(self) -> list[ListItem]:
        items: list[ListItem] = []
        kept_places: set[tuple[str, int, str]] = set()
        for seat in self._kept_seats():
            kept_places.add((seat.host, seat.port, seat.table))
            game = game_title(seat.game) if seat.game else ""
            title = t("join.kept_title", game=game or seat.table, address=seat.address)
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(seat.saved))
            detail = t("join.kept_detail", name=seat.name or "?", seat=seat.seat + 1, when=when)
            items.append(ListItem(title, detail, ("seat", seat.token), True))
        seen: set[tuple[str, int, str]] = set()
        hosts: list[tuple[str, int, str, list[dict[str, Any]], bool, Any]] = []
        if self.browser is not None:
            for h in self.browser.hosts():
                hosts.append((h.address, h.port, h.name, h.tables, h.compatible, None))
        for (host, port), (_conn, tables, host_name, welcome) in self.direct.items():
            if tables is not None:
                hosts.append((host, port, host_name or f"{host}:{port}", tables, True, welcome))
        for address, port, host_name, tables, compatible, welcome in hosts:
            for table in tables:
                key = (address, port, str(table.get("table")))
                if key in seen or key in kept_places:
                    continue
                seen.add(key)
                if table.get("over"):
                    continue
                state = (
                    t("join.started")
                    if table.get("started")
                    else t(
                        "join.open_seats", n=table.get("open", 0), players=table.get("players", 0)
                    )
                )
                game = game_title(str(table.get("game", "")))
                name = str(table.get("name") or "")
                if not name or name in _english_titles(table):
                    name = t("lobby.table_name", name=host_name)
                title = f"{name} — {game}"
                detail = f"{state} · {address}:{port}"
                if not compatible:
                    detail = t("join.incompatible")
                elif welcome is not None:
                    # Joining says why and where to get the host's version (a dialog).
                    detail = _version_note(welcome, str(table.get("game", ""))) or detail
                items.append(ListItem(title, detail, ("table", *key), compatible))
        return items

    def _selected_table(self) -> tuple[str, int, str] | None:
        item = self.list.selected_item
        if item is None or not item.enabled or item.value[0] != "table":
            return None
        _kind, host, port, table = item.value
        return host, port, table

    def _selected_seat(self) -> bool:
        item = self.list.selected_item
        return item is not None and item.value[0] == "seat"

    def update(self, dt: float) -> None:
        super().update(dt)
        for key, entry in list(self.direct.items()):
            conn = entry[0]
            for msg in conn.poll():
                if msg.get("t") == "error" and msg.get("code") in MISMATCH_CODES:
                    # This program cannot play with that host's: say why and where to get
                    # the host's version (net.versions), in a dialog.
                    from game.ui.scenes.overlays import MessageOverlay
                    from net.versions import describe, from_refusal

                    conn.close()
                    del self.direct[key]
                    text = describe(from_refusal(msg), key[0])
                    self.app.push(MessageOverlay(self.app, text))
                    break
                if msg.get("t") in ("welcome", "tables"):
                    entry[1] = list(msg.get("tables", []))
                    if msg.get("t") == "welcome":
                        entry[2] = str(msg.get("host", ""))
                        entry[3] = msg
                elif msg.get("t") == "disconnected" and entry[1] is None:
                    self.app.toast(
                        t(
                            "join.connect_failed",
                            address=f"{key[0]}:{key[1]}",
                            reason=msg.get("reason", ""),
                        ),
                        "error",
                    )
                    del self.direct[key]
                    break
        self.refresh_in -= dt
        if self.refresh_in <= 0:
            self.refresh_in = REFRESH
            for entry in self.direct.values():
                entry[0].send({"t": "list_tables"})
            self.list.set_items(self._items())

    # ---- actions -------------------------------------------------------------------------------
    def connect(self) -> None:
        """Ask the typed host for its tables."""
        from game.ui.lan import DEFAULT_PORT
        from net.client import TcpConnection
        from net.discovery import parse_address

        text = self.address.text.strip()
        try:
            host, port = parse_address(text, DEFAULT_PORT)
        except ValueError as exc:
            self.app.toast(t("join.bad_address", error=str(exc)), "error")
            return
        self.app.settings.last_address = text
        if (host, port) in self.direct:
            return
        self._save_name()
        conn = TcpConnection.open(host, port, wakeup=self.app.wakeup)
        conn.send(_hello(self.app.settings.player_name or "Player"))
        self.direct[(host, port)] = [conn, None, "", None]
        self.refresh_in = 0.3

    def join(self, spectate: bool = False) -> None:
        from game.ui.scenes.lobby import join_lan_table

        self._save_name()
        item = self.list.selected_item
        if item is None or not item.enabled:
            return
        if item.value[0] == "seat" and not spectate:
            kept = next((s for s in self._kept_seats() if s.token == item.value[1]), None)
            if kept is not None:
                join_lan_table(self.app, kept.host, kept.port, kept.table, token=kept.token)
            return
        chosen = self._selected_table()
        if chosen is None:
            return
        host, port, table = chosen
        join_lan_table(self.app, host, port, table, spectate=spectate)

    # ---- layout --------------------------------------------------------------------------------
    def layout(self, w: int, h: int) -> None:
        super().layout(w, h)
        px = self.app.px
        area = self.content_rect()
        row = px(42)
        self.name_label.rect = pygame.Rect(area.x, area.y, px(120), row)
        self.name_field.rect = pygame.Rect(area.x + px(120), area.y, px(300), row)
        top = area.y + row + px(14)
        self.list.rect = pygame.Rect(
            area.x, top, area.width, max(px(60), area.bottom - px(70) - top)
        )
        y = self.list.rect.bottom + px(18)
        self.address_label.rect = pygame.Rect(area.x, y, px(120), row)
        self.address.rect = pygame.Rect(area.x + px(120), y, px(360), row)
        self.connect_button.rect = pygame.Rect(self.address.rect.right + px(10), y, px(150), row)
        self.join_button.rect = pygame.Rect(w - px(32) - px(240), h - px(72), px(240), px(48))
        self.watch_button.rect = pygame.Rect(
            self.join_button.rect.x - px(170), h - px(72), px(160), px(48)
        )

    def draw_widgets(self, surface: pygame.Surface) -> None:
        super().draw_widgets(surface)
        if self.browser_error:
            px = self.app.px
            img = self.app.fonts.render(
                t("join.no_discovery", error=self.browser_error), px(14), pal.BAD
            )
            surface.blit(img, (self.list.rect.x, self.list.rect.bottom + px(2)))
