"""The settings: language, window, animations, colour-blind palette, outlines, sound, name.

Every change applies at once and is saved when the scene closes (and when the app quits).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import pygame

from game.ui import palette as pal
from game.ui.i18n import LANGUAGES, lazy, t
from game.ui.scenes.common import PageScene, panel
from game.ui.settings import ANIMATION_SPEEDS, WINDOW_SIZES
from game.ui.widgets import Choice, Label, Slider, TextField, TextLike, Toggle, Widget

if TYPE_CHECKING:
    from game.ui.app import App


def _speed_label(speed: float) -> str:
    if speed == 0:
        return t("settings.anim_off")
    return t("settings.anim_factor", factor=f"{speed:g}")


class SettingsScene(PageScene):
    name = "settings"
    help_topic = "settings"

    def frame_rate(self) -> float:
        return 0.0  # nothing moves by itself

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.title = lambda: t("settings.title")
        s = app.settings
        self.rows: list[tuple[Label, Widget]] = []
        self.language = Choice(
            "language",
            [(code, name) for code, name in LANGUAGES.items()],
            s.language,
            app.apply_language,
        )
        current = self._window_now()
        self.window = Choice("window_size", self._window_options(current), current, self._set_size)
        self.fullscreen = Toggle(
            "fullscreen", lambda: t("settings.fullscreen_on"), app.fullscreen, self._set_fullscreen
        )
        self.speed = Choice(
            "animation_speed",
            [(v, partial(_speed_label, v)) for v in ANIMATION_SPEEDS],
            s.animation_speed,
            self._set_speed,
        )
        self.colour_blind = Toggle(
            "colour_blind",
            lambda: t("settings.colour_blind_on"),
            s.colour_blind,
            self._set_colour_blind,
            tooltip=lambda: t("settings.colour_blind.tip"),
        )
        self.outlines = Toggle(
            "strong_outlines",
            lambda: t("settings.outlines_on"),
            s.strong_outlines,
            lambda v: setattr(self.app.settings, "strong_outlines", v),
        )
        self.preview = Toggle(
            "score_preview",
            lambda: t("settings.preview_on"),
            s.score_preview,
            lambda v: setattr(self.app.settings, "score_preview", v),
        )
        self.sound = Toggle(
            "sound_on",
            lambda: t("settings.sound_on"),
            not s.sound_muted,
            self._set_sound_on,
        )
        self.volume = Slider(
            "sound_volume",
            s.sound_volume,
            self._set_volume,
            tooltip=lambda: t("settings.volume.tip"),
            enabled=lambda: not self.app.settings.sound_muted,
        )
        self.name_field = TextField(
            "player_name",
            s.player_name,
            placeholder=lambda: t("settings.name_placeholder"),
            max_length=20,
            on_change=lambda v: setattr(self.app.settings, "player_name", v.strip()),
        )
        for key, widget in (
            ("settings.language", self.language),
            ("settings.window_size", self.window),
            ("settings.fullscreen", self.fullscreen),
            ("settings.animation_speed", self.speed),
            ("settings.colour_blind", self.colour_blind),
            ("settings.outlines", self.outlines),
            ("settings.preview", self.preview),
            ("settings.sound", self.sound),
            ("settings.volume", self.volume),
            ("settings.player_name", self.name_field),
        ):
            label = Label(lazy(key), size=17)
            self.rows.append((label, widget))
            self.add(label)
            self.add(widget)
        self.note = Label(lambda: t("settings.note"), size=14, colour=pal.TEXT_DIM, wrap=True)
        self.add(self.note)

    def _window_now(self) -> tuple[int, int]:
        """The window's real size (the chosen one while in full screen)."""
        if self.app.fullscreen:
            width, height = self.app.settings.window_size
            return (int(width), int(height))
        return self.app.size

    @staticmethod
    def _window_options(current: tuple[int, int]) -> list[tuple[tuple[int, int], TextLike]]:
        """The offered sizes, and the window's own when it was resized freely ("custom")."""
        options: list[tuple[tuple[int, int], TextLike]] = [
            (size, f"{size[0]} × {size[1]}") for size in WINDOW_SIZES
        ]
        if current not in WINDOW_SIZES:
            w, h = current
            options.append((current, lambda: t("settings.window_custom", w=w, h=h)))
        return options

    def _set_size(self, size: tuple[int, int]) -> None:
        self.app.set_window_size(size)

    def _set_fullscreen(self, on: bool) -> None:
        self.app.settings.fullscreen = on
        self.app.set_fullscreen(on)

    def _set_sound_on(self, on: bool) -> None:
        self.app.settings.sound_muted = not on
        self.app.sounds.settings_changed()
        if on:
            self.app.sounds.play("turn")

    def _set_volume(self, volume: float) -> None:
        self.app.settings.sound_volume = volume
        self.app.sounds.settings_changed()
        self.app.sounds.play("move")  # hear the new loudness

    def _set_speed(self, speed: float) -> None:
        self.app.settings.animation_speed = speed

    def _set_colour_blind(self, on: bool) -> None:
        self.app.settings.colour_blind = on

    def layout(self, w: int, h: int) -> None:
        super().layout(w, h)
        px = self.app.px
        area = self.content_rect()
        self.panel = pygame.Rect(0, 0, min(px(860), area.width), 0)
        row_h = px(52)
        self.panel.height = row_h * len(self.rows) + px(100)
        self.panel.midtop = (w // 2, area.y)
        label_w = int(self.panel.width * 0.42)
        y = self.panel.y + px(18)
        for label, widget in self.rows:
            label.rect = pygame.Rect(self.panel.x + px(24), y, label_w - px(24), row_h - px(10))
            widget.rect = pygame.Rect(
                self.panel.x + label_w, y, self.panel.width - label_w - px(24), row_h - px(10)
            )
            y += row_h
        self.note.rect = pygame.Rect(
            self.panel.x + px(24), y + px(6), self.panel.width - px(48), px(60)
        )
        self.fullscreen.value = self.app.fullscreen
        # The window may have been resized by hand since: show its real size.
        current = self._window_now()
        if self.window.value != current:
            self.window.set_options(self._window_options(current), current)

    def leave(self) -> None:
        try:
            self.app.settings.save()
        except OSError as exc:
            self.app.toast(t("settings.save_failed", error=str(exc)), "error")

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)

    def draw_widgets(self, surface: pygame.Surface) -> None:
        panel(surface, self.panel, self.app)
        super().draw_widgets(surface)
