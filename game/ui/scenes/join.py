"""Join a LAN game: tables found on the network, listed live, and a field for an address.

Hosts announce themselves over UDP (``net.discovery``); the list refreshes twice a second from
a background listener that never blocks the window.  Typing an address (``host`` or
``host:port``) and pressing Connect asks that host for its tables over TCP and adds them to the
list.  A table that has started can be watched; one with open seats can be joined.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from game.ui import palette as pal
from game.ui.client import _hello
from game.ui.i18n import game_title, t
from game.ui.scenes.common import PageScene
from game.ui.widgets import Button, Label, ListBox, ListItem, TextField

if TYPE_CHECKING:
    from game.ui.app import App

REFRESH = 0.5


def _address_char(ch: str) -> bool:
    return ch.isalnum() or ch in ".:-_[]"


class JoinScene(PageScene):
    """The list of LAN tables (see the module docstring)."""

    name = "join"
    help_topic = "join"

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.title = lambda: t("join.title")
        self.list = ListBox(
            "tables",
            on_activate=lambda item: self.join(),
            empty_text=lambda: t("join.searching"),
            row_height=56,
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
            lambda: t("join.join"),
            self.join,
            style="primary",
            enabled=lambda: self._selected_table() is not None,
        )
        self.watch_button = Button(
            "watch_table",
            lambda: t("join.watch"),
            lambda: self.join(spectate=True),
            enabled=lambda: self._selected_table() is not None,
        )
        for w in (
            self.list,
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
        #: Hosts asked directly by address: (host, port) -> (connection, tables or None).
        self.direct: dict[tuple[str, int], list[Any]] = {}

    def enter(self) -> None:
        from game.ui.lan import discovery_addresses
        from net.discovery import Browser

        try:
            listen, probe = discovery_addresses()
            self.browser = Browser(listen, probe)
        except (OSError, ValueError) as exc:
            self.browser_error = str(exc)

    def leave(self) -> None:
        if self.browser is not None:
            self.browser.close()
            self.browser = None
        for conn, _tables in self.direct.values():
            conn.close()
        self.direct.clear()
        self.app.settings.last_address = self.address.text

    # ---- the list ------------------------------------------------------------------------------
    def _items(self) -> list[ListItem]:
        items: list[ListItem] = []
        seen: set[tuple[str, int, str]] = set()
        hosts: list[tuple[str, int, str, list[dict[str, Any]], bool]] = []
        if self.browser is not None:
            for h in self.browser.hosts():
                hosts.append((h.address, h.port, h.name, h.tables, h.compatible))
        for (host, port), (_conn, tables) in self.direct.items():
            if tables is not None:
                hosts.append((host, port, f"{host}:{port}", tables, True))
        for address, port, host_name, tables, compatible in hosts:
            for table in tables:
                key = (address, port, str(table.get("table")))
                if key in seen:
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
                title = f"{table.get('name') or game} — {host_name}"
                detail = f"{game} · {state} · {address}:{port}"
                if not compatible:
                    detail = t("join.incompatible")
                items.append(ListItem(title, detail, key, compatible))
        return items

    def _selected_table(self) -> tuple[str, int, str] | None:
        item = self.list.selected_item
        return item.value if item is not None and item.enabled else None

    def update(self, dt: float) -> None:
        super().update(dt)
        for key, entry in list(self.direct.items()):
            conn = entry[0]
            for msg in conn.poll():
                if msg.get("t") in ("welcome", "tables"):
                    entry[1] = list(msg.get("tables", []))
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
            for conn, _tables in self.direct.values():
                conn.send({"t": "list_tables"})
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
        conn = TcpConnection.open(host, port)
        conn.send(_hello(self.app.settings.player_name or "Player"))
        self.direct[(host, port)] = [conn, None]
        self.refresh_in = 0.3

    def join(self, spectate: bool = False) -> None:
        chosen = self._selected_table()
        if chosen is None:
            return
        from game.ui.scenes.lobby import join_lan_table

        host, port, table = chosen
        join_lan_table(self.app, host, port, table, spectate=spectate)

    # ---- layout --------------------------------------------------------------------------------
    def layout(self, w: int, h: int) -> None:
        super().layout(w, h)
        px = self.app.px
        area = self.content_rect()
        self.list.rect = pygame.Rect(area.x, area.y, area.width, area.height - px(70))
        y = self.list.rect.bottom + px(18)
        self.address_label.rect = pygame.Rect(area.x, y, px(120), px(42))
        self.address.rect = pygame.Rect(area.x + px(120), y, px(360), px(42))
        self.connect_button.rect = pygame.Rect(self.address.rect.right + px(10), y, px(150), px(42))
        self.join_button.rect = pygame.Rect(w - px(32) - px(200), h - px(72), px(200), px(48))
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
