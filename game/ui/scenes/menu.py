"""The main menu."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game import __version__
from game.ui import palette as pal
from game.ui.i18n import lazy, t
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
        self.help_button = Button("help", lambda: t("common.help"), app.show_help, hint="F1")
        self.add(self.help_button)
        # A LAN table this window still serves after its scene closed (see App.keep_server).
        self.close_lan_button = Button(
            "close_lan", lambda: t("menu.close_lan"), self.close_lan, style="danger"
        )
        self.add(self.close_lan_button)

    def layout(self, w: int, h: int) -> None:
        super().layout(w, h)
        px = self.app.px
        bw, bh, gap = px(380), px(50), px(12)
        total = len(self.buttons) * bh + (len(self.buttons) - 1) * gap
        top = max(px(200), (h - total) // 2 + px(60))
        top = min(top, h - total - px(40))
        for i, b in enumerate(self.buttons):
            b.rect = pygame.Rect((w - bw) // 2, top + i * (bh + gap), bw, bh)
        self.help_button.rect = pygame.Rect(w - px(150), h - px(64), px(120), px(40))
        self.close_lan_button.rect = pygame.Rect(0, 0, min(w - px(40), px(380)), px(40))
        self.close_lan_button.rect.midbottom = (w // 2, h - px(20))

    def update(self, dt: float) -> None:
        self.close_lan_button.visible = bool(self.app.kept_servers)
        super().update(dt)

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
        return 0.0  # nothing moves by itself

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
        top = self.buttons[0].rect.y
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
