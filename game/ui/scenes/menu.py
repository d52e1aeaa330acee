"""The main menu.

When this computer holds a seat at a running LAN game that no window plays now (the window was
closed or crashed: ``net/seats.py`` keeps the seat's token), the menu says so first — "Back to
your seat: Keyflower (Anna)" — and one click takes the seat back, its log restored
(``game/ui/seatlog.py``) and the player's name kept."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import pygame

from game import __version__
from game.ui import palette as pal
from game.ui.i18n import game_title, lazy, t
from game.ui.scene import Scene
from game.ui.scenes.common import backdrop
from game.ui.widgets import Button

if TYPE_CHECKING:
    from game.ui.app import App


class MenuScene(Scene):
    """Play on this computer, host or join a LAN game, continue, replays, settings, quit."""

    name = "menu"

    def __init__(self, app: App) -> None:
        super().__init__(app)
        entries = [
            ("play_local", "menu.play_local", self.play_local, "primary"),
            ("host", "menu.host", self.host, "normal"),
            ("join", "menu.join", self.join, "normal"),
            ("continue", "menu.continue", self.continue_game, "normal"),
            ("replay", "menu.replay", self.replay, "normal"),
            ("settings", "menu.settings", self.open_settings, "normal"),
            ("quit", "menu.quit", app.quit, "normal"),
        ]
        #: The kept seat offered first (see the module docstring), read after the first frame.
        self.kept: Any = None
        self._kept_due = False
        self.back_button = Button(
            "take_back",
            self._back_text,
            self.take_back,
            style="primary",
            tooltip=self._back_tip,
            font_size=19,
        )
        self.back_button.visible = False
        self.buttons = []
        for id, key, action, style in entries:
            b = Button(
                id,
                lazy(key),
                action,
                style=style,
                tooltip=lazy(key + ".tip"),
                font_size=19,
            )
            self.buttons.append(b)
            self.add(b)
        self.add(self.back_button)
        self.help_button = Button("help", lambda: t("common.help"), app.show_help, hint="F1")
        self.add(self.help_button)
        # A LAN table this window still serves after its scene closed (see App.keep_server).
        self.close_lan_button = Button(
            "close_lan", lambda: t("menu.close_lan"), self.close_lan, style="danger"
        )
        self.add(self.close_lan_button)

    def enter(self) -> None:
        # Read after the first frame: the seat store's code is not needed to show the menu
        # (it would cost the window's start a tenth of a second).
        self._kept_due = True

    def resume(self) -> None:
        self._read_kept()

    def update(self, dt: float) -> None:
        if self._kept_due and self.app.frames > 0:
            self._kept_due = False
            self._read_kept()
        self.close_lan_button.visible = bool(self.app.kept_servers)
        super().update(dt)

    def _read_kept(self) -> None:
        """The newest seat this computer holds at a running game that no window plays now."""
        from net.seats import SeatStore

        try:
            store = SeatStore()
            free = [s for s in store.seats() if s in store.free(s.host, s.port)]
        except OSError:
            free = []
        self.kept = free[0] if free else None
        self.back_button.visible = self.kept is not None
        self.buttons[0].style = "normal" if self.kept is not None else "primary"
        if self.size != (0, 0):
            self.layout(*self.size)

    def _back_text(self) -> str:
        kept = self.kept
        if kept is None:
            return ""
        game = game_title(kept.game) if kept.game else kept.table
        return t("menu.take_back", game=game, name=kept.name or "?")

    def _back_tip(self) -> str:
        kept = self.kept
        if kept is None:
            return ""
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(kept.saved))
        return t("menu.take_back.tip", address=kept.address, seat=kept.seat + 1, when=when)

    def take_back(self) -> None:
        """Take the kept seat back (its log and the player's name come with it)."""
        from game.ui.scenes.lobby import join_lan_table

        kept = self.kept
        if kept is None:
            return
        if kept.name and not self.app.settings.player_name:
            self.app.settings.player_name = kept.name
        join_lan_table(self.app, kept.host, kept.port, kept.table, token=kept.token)

    def layout(self, w: int, h: int) -> None:
        super().layout(w, h)
        px = self.app.px
        column = [self.back_button, *self.buttons] if self.back_button.visible else self.buttons
        bw, bh, gap = px(380), px(50), px(12)
        if self.back_button.visible:
            bh, gap = px(46), px(10)
        total = len(column) * bh + (len(column) - 1) * gap
        top = max(px(200), (h - total) // 2 + px(60))
        top = min(top, h - total - px(40))
        for i, b in enumerate(column):
            b.rect = pygame.Rect((w - bw) // 2, top + i * (bh + gap), bw, bh)
        if self.back_button.visible:
            self.back_button.rect = self.back_button.rect.inflate(px(120), 0)
        self.help_button.rect = pygame.Rect(w - px(150), h - px(64), px(120), px(40))
        self.close_lan_button.rect = pygame.Rect(0, 0, min(w - px(40), px(380)), px(40))
        self.close_lan_button.rect.midbottom = (w // 2, h - px(20))

    def close_lan(self) -> None:
        """Close the LAN tables this window still serves (after asking)."""
        from game.ui.scenes.overlays import ConfirmOverlay

        def close() -> None:
            for server in list(self.app.kept_servers):
                self.app.close_server(server)

        self.app.push(ConfirmOverlay(self.app, lambda: t("menu.close_lan.confirm"), close))

    def on_escape(self) -> None:
        """Esc on the main menu does nothing (Quit is a button)."""

    def frame_rate(self) -> float:
        return 60.0 if self._kept_due else 0.0  # nothing moves by itself

    def play_local(self) -> None:
        from game.ui.scenes.setup import SetupScene

        self.app.push(SetupScene(self.app, mode="local"))

    def host(self) -> None:
        from game.ui.scenes.setup import SetupScene

        self.app.push(SetupScene(self.app, mode="host"))

    def join(self) -> None:
        from game.ui.scenes.join import JoinScene

        self.app.push(JoinScene(self.app))

    def continue_game(self) -> None:
        from game.ui.scenes.files import FilesScene

        self.app.push(FilesScene(self.app, kind="saves"))

    def replay(self) -> None:
        from game.ui.scenes.files import FilesScene

        self.app.push(FilesScene(self.app, kind="replays"))

    def open_settings(self) -> None:
        from game.ui.scenes.settings import SettingsScene

        self.app.push(SettingsScene(self.app))

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        surface.blit(backdrop((w, h)), (0, 0))
        px = self.app.px
        title = self.app.fonts.render(t("app.title"), px(64), pal.ACCENT, bold=True)
        top = (self.back_button if self.back_button.visible else self.buttons[0]).rect.y
        sub = self.app.fonts.render(t("app.subtitle"), px(19), pal.TEXT_DIM)
        title_y = max(px(24), top - px(40) - sub.get_height() - title.get_height())
        surface.blit(title, title.get_rect(midtop=(w // 2, title_y)))
        surface.blit(sub, sub.get_rect(midtop=(w // 2, title_y + title.get_height() + px(2))))
        foot = self.app.fonts.render(
            t("menu.footer", version=__version__), px(13), pal.TEXT_DISABLED
        )
        surface.blit(foot, (px(24), h - px(24) - foot.get_height()))
        self.close_lan_button.visible = bool(self.app.kept_servers)
        if self.close_lan_button.visible:
            note = self.app.fonts.render(t("menu.lan_open"), px(15), pal.ACCENT)
            surface.blit(
                note, note.get_rect(midbottom=(w // 2, self.close_lan_button.rect.y - px(6)))
            )
        self.draw_widgets(surface)
