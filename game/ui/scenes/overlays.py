"""Overlays drawn over another scene: help, the hot-seat curtain, confirmations, the game menu."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import pygame

from game.ui import palette as pal
from game.ui.i18n import t
from game.ui.scene import Scene
from game.ui.widgets import Button, TextLike, draw_box, resolve

if TYPE_CHECKING:
    from game.ui.app import App

#: A help block: ("h", heading) or ("p", paragraph) or ("item", title, text).
Block = tuple[str, ...]


def _dim(surface: pygame.Surface, alpha: int = 170) -> None:
    veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    veil.fill((8, 10, 16, alpha))
    surface.blit(veil, (0, 0))


def shortcut_blocks() -> list[Block]:
    """The keyboard shortcuts, as help blocks."""
    keys = [
        ("F1", "help.key.help"),
        ("Esc", "help.key.menu"),
        ("F11", "help.key.fullscreen"),
        ("Enter / Space", "help.key.end_turn"),
        ("Ctrl+Z / U", "help.key.undo"),
        ("H", "help.key.hint"),
        ("R", "help.key.curtain"),
        ("1-9", "help.key.choose"),
        ("Backspace", "help.key.composer"),
        ("T", "help.key.chat"),
        ("← / →", "help.key.replay_step"),
        ("Home / End", "help.key.replay_ends"),
    ]
    return [("h", t("help.shortcuts"))] + [("item", k, t(v)) for k, v in keys]


class HelpOverlay(Scene):
    """F1: help for the current screen, the shortcuts, and each game's rules, tiles and cards."""

    opaque = False
    name = "help"

    def __init__(self, app: App, topic: str = "general") -> None:
        super().__init__(app)
        from game.ui.games import help_pages

        self.pages: list[tuple[TextLike, Callable[[], list[Block]]]] = []
        if topic.startswith("game:"):
            game_id = topic.split(":", 1)[1]
            self.pages.extend(help_pages(game_id))
            self.pages.append((lambda: t("help.shortcuts"), shortcut_blocks))
        else:
            self.pages.append((lambda: t("help.this_screen"), lambda: self._screen_blocks(topic)))
            self.pages.append((lambda: t("help.shortcuts"), shortcut_blocks))
            self.pages.extend(help_pages("kingdom-builder"))
        self.page = 0
        self.scroll = 0
        self.content_height = 0
        self.tabs: list[Button] = []
        for i, (title, _) in enumerate(self.pages):
            b = Button(
                f"help_tab_{i}",
                title,
                partial(self.select, i),
                selected=partial(self.showing, i),
                font_size=15,
            )
            self.tabs.append(b)
            self.add(b)
        self.close = Button("help_close", lambda: t("common.close"), app.pop, hint="F1")
        self.add(self.close)

    def showing(self, page: int) -> bool:
        """Whether ``page`` is the page shown (its tab is drawn selected)."""
        return self.page == page

    def _screen_blocks(self, topic: str) -> list[Block]:
        key = f"help.screen.{topic}"
        from game.ui.i18n import has

        if not has(key):
            key = "help.screen.general"
        return [("h", t(key + ".title")), ("p", t(key))]

    def select(self, index: int) -> None:
        self.page = index
        self.scroll = 0

    def layout(self, w: int, h: int) -> None:
        super().layout(w, h)
        px = self.app.px
        self.box = pygame.Rect(0, 0, min(w - px(60), px(1100)), h - px(60))
        self.box.center = (w // 2, h // 2)
        tab_w = px(250)
        y = self.box.y + px(64)
        for b in self.tabs:
            b.rect = pygame.Rect(self.box.x + px(16), y, tab_w, px(40))
            y += px(46)
        self.text_rect = pygame.Rect(
            self.box.x + tab_w + px(36),
            self.box.y + px(64),
            self.box.width - tab_w - px(56),
            self.box.height - px(84),
        )
        self.close.rect = pygame.Rect(
            self.box.right - px(140), self.box.y + px(12), px(124), px(38)
        )

    def on_escape(self) -> None:
        self.app.pop()

    def handle(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.MOUSEWHEEL:
            self._scroll(-event.y * self.app.px(48))
            return True
        if super().handle(event):
            return True
        if event.type == pygame.KEYDOWN:
            step = self.app.px(48)
            if event.key == pygame.K_ESCAPE:
                self.app.pop()
            elif event.key in (pygame.K_DOWN, pygame.K_j):
                self._scroll(step)
            elif event.key in (pygame.K_UP, pygame.K_k):
                self._scroll(-step)
            elif event.key == pygame.K_PAGEDOWN:
                self._scroll(self.text_rect.height - step)
            elif event.key == pygame.K_PAGEUP:
                self._scroll(-(self.text_rect.height - step))
            elif event.key == pygame.K_TAB:
                self.select((self.page + 1) % len(self.pages))
            return True
        # Clicks outside the box close it; inside, nothing below reacts.
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if not self.box.collidepoint(event.pos):
                self.app.pop()
            return True
        return event.type in (pygame.MOUSEBUTTONUP, pygame.KEYUP, pygame.TEXTINPUT)

    def _scroll(self, dy: int) -> None:
        limit = max(0, self.content_height - self.text_rect.height)
        self.scroll = max(0, min(limit, self.scroll + dy))

    def draw(self, surface: pygame.Surface) -> None:
        _dim(surface)
        px = self.app.px
        draw_box(surface, self.box, pal.BG_PANEL, pal.ACCENT_DARK, radius=px(12), width=2)
        title = self.app.fonts.render(t("help.title"), px(26), pal.ACCENT, bold=True)
        surface.blit(title, (self.box.x + px(20), self.box.y + px(14)))
        from game import __version__

        version = self.app.fonts.render(
            t("help.version", version=__version__), px(13), pal.TEXT_DIM
        )
        surface.blit(
            version, (self.box.x + px(20), self.box.bottom - px(14) - version.get_height())
        )
        self.draw_widgets(surface)
        blocks = self.pages[self.page][1]()
        clip = surface.get_clip()
        surface.set_clip(self.text_rect)
        y = self.text_rect.y - self.scroll
        width = self.text_rect.width - px(14)
        fonts = self.app.fonts
        for block in blocks:
            kind = block[0]
            if kind == "h":
                img = fonts.render(block[1], px(21), pal.ACCENT, bold=True, wrap=width)
                y += px(6)
                surface.blit(img, (self.text_rect.x, y))
                y += img.get_height() + px(6)
            elif kind == "p":
                img = fonts.render(block[1], px(16), pal.TEXT, wrap=width)
                surface.blit(img, (self.text_rect.x, y))
                y += img.get_height() + px(10)
            elif kind == "item":
                head = fonts.render(block[1], px(16), pal.HIGHLIGHT, bold=True)
                head_w = min(max(px(150), head.get_width() + px(14)), width // 3)
                if head.get_width() > head_w - px(10):
                    head = fonts.render(
                        block[1], px(16), pal.HIGHLIGHT, bold=True, wrap=head_w - px(10)
                    )
                body = fonts.render(block[2], px(16), pal.TEXT, wrap=width - head_w)
                surface.blit(head, (self.text_rect.x, y))
                surface.blit(body, (self.text_rect.x + head_w, y))
                y += max(head.get_height(), body.get_height()) + px(10)
        self.content_height = y + self.scroll - self.text_rect.y
        surface.set_clip(clip)
        if self.content_height > self.text_rect.height:
            frac = self.text_rect.height / self.content_height
            bar_h = max(px(24), int(self.text_rect.height * frac))
            limit = self.content_height - self.text_rect.height
            top = self.text_rect.y + int((self.text_rect.height - bar_h) * self.scroll / limit)
            pygame.draw.rect(
                surface,
                pal.BORDER,
                (self.text_rect.right - px(5), top, px(4), bar_h),
                border_radius=2,
            )


class CurtainOverlay(Scene):
    """Hot-seat privacy: hides the table until the named player lifts it.

    It says "Pass the computer to Ben" and, under its button, what the other players did since
    Ben's last turn (``since``: public log lines, newest last; the wheel scrolls them).  The
    curtain has its own key (:data:`KEY`, shown on its button) and its button; Enter and
    Space — which end a turn — never lift it, so pressing Enter twice or holding it down cannot
    show the next player's screen to the player who just ended.  A key lifts it only when it is
    pressed *and* released while the curtain is up, a click only when the button is pressed and
    released on it while the curtain is up (a key held or a button pressed before it came up
    does nothing).  Esc does not lift it either (the game menu is behind it); F1 opens help.
    """

    opaque = True
    name = "curtain"
    #: The curtain's own key.
    KEY = pygame.K_r

    def __init__(
        self,
        app: App,
        player: str,
        colour: pal.RGB,
        on_ready: Callable[[], None] | None = None,
        since: list[Any] | None = None,
        seats: list[Any] | None = None,
    ) -> None:
        super().__init__(app)
        from game.ui.widgets.log import LogBox

        self.player = player
        self.colour = colour
        self.on_ready = on_ready
        self.since = list(since or [])
        self.seats = list(seats or [])
        self.since_box = LogBox()
        self.armed = False  # the curtain's key went down while the curtain was up
        self.button = Button(
            "curtain_ready",
            lambda: t("curtain.ready", name=self.player),
            self.ready,
            style="primary",
            font_size=20,
            hint=pygame.key.name(self.KEY).upper(),
        )
        self.add(self.button)

    def frame_rate(self) -> float:
        return 0.0  # nothing moves by itself

    def layout(self, w: int, h: int) -> None:
        super().layout(w, h)
        px = self.app.px
        fonts = self.app.fonts
        text_w = min(w - px(80), px(900))
        title = fonts.render(
            t("curtain.pass_to", name=self.player), px(40), pal.TEXT, bold=True, wrap=w - px(80)
        )
        hint = fonts.render(
            t("curtain.hint", letter=pygame.key.name(self.KEY).upper()),
            px(17),
            pal.TEXT_DIM,
            wrap=text_w,
        )
        # The list of what happened: as many rows as it has (at most what fits).
        line_h = fonts.line_height(px(13))
        wanted = len(self.since) * line_h + px(16) if self.since else 0
        block = title.get_height() + hint.get_height() + px(130)
        top = max(px(40), (h - block - (wanted + px(40) if wanted else 0)) // 2)
        self.band = pygame.Rect(0, top, w, px(8))
        self.title_y = top + px(28)
        y = self.title_y + title.get_height() + px(14)
        self.hint_y = y
        self.button.rect = pygame.Rect(0, 0, min(w - px(40), px(420)), px(56))
        self.button.rect.midtop = (w // 2, y + hint.get_height() + px(28))
        self.since_rect = pygame.Rect(0, 0, min(w - px(80), px(760)), 0)
        self.since_rect.top = self.button.rect.bottom + px(48)
        self.since_rect.height = max(0, min(wanted, h - px(20) - self.since_rect.top))
        self.since_rect.centerx = w // 2

    def ready(self) -> None:
        if self.app.top is not self:
            return
        self.app.pop()
        if self.on_ready is not None:
            self.on_ready()

    def on_escape(self) -> None:
        """Esc does not lift the curtain (the game menu is behind it)."""

    def handle(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN:
            if event.key == self.KEY and not event.mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT):
                self.armed = True
            return True
        if event.type == pygame.KEYUP:
            if event.key == self.KEY and self.armed:
                self.ready()
            return True
        if event.type == pygame.MOUSEWHEEL and self.since:
            self.since_box.wheel(event.y)
            return True
        if super().handle(event):
            return True
        # Nothing reaches the table under the curtain.
        return event.type != pygame.QUIT

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(pal.CURTAIN)
        w, _h = surface.get_size()
        px = self.app.px
        pygame.draw.rect(surface, self.colour, self.band)
        text = t("curtain.pass_to", name=self.player)
        img = self.app.fonts.render(text, px(40), pal.TEXT, bold=True, wrap=w - px(80))
        surface.blit(img, img.get_rect(midtop=(w // 2, self.title_y)))
        sub = self.app.fonts.render(
            t("curtain.hint", letter=pygame.key.name(self.KEY).upper()),
            px(17),
            pal.TEXT_DIM,
            wrap=min(w - px(80), px(900)),
        )
        surface.blit(sub, sub.get_rect(midtop=(w // 2, self.hint_y)))
        self.draw_widgets(surface)
        if self.since and self.since_rect.height >= self.app.fonts.line_height(px(13)):
            head = self.app.fonts.render(
                t("curtain.since", name=self.player, n=len(self.since)),
                px(17),
                pal.ACCENT,
                bold=True,
            )
            surface.blit(head, (self.since_rect.x, self.since_rect.y - head.get_height() - px(6)))
            self.since_box.draw(surface, self.app, self.since_rect, self.since, self.seats, "")


class ConfirmOverlay(Scene):
    """A question with Yes / No; ``on_yes`` runs after the overlay closes."""

    opaque = False
    name = "confirm"

    def __init__(
        self,
        app: App,
        question: TextLike,
        on_yes: Callable[[], None],
        yes: TextLike | None = None,
        no: TextLike | None = None,
    ) -> None:
        super().__init__(app)
        self.question = question
        self.on_yes = on_yes
        self.yes = Button(
            "confirm_yes", yes or (lambda: t("common.yes")), self._yes, style="primary"
        )
        self.no = Button("confirm_no", no or (lambda: t("common.no")), app.pop, hint="Esc")
        self.add(self.yes)
        self.add(self.no)

    def _yes(self) -> None:
        self.app.pop()
        self.on_yes()

    def layout(self, w: int, h: int) -> None:
        super().layout(w, h)
        px = self.app.px
        self.box = pygame.Rect(0, 0, min(w - px(80), px(560)), px(230))
        self.box.center = (w // 2, h // 2)
        bw = (self.box.width - px(60)) // 2
        self.yes.rect = pygame.Rect(self.box.x + px(20), self.box.bottom - px(66), bw, px(46))
        self.no.rect = pygame.Rect(
            self.box.right - px(20) - bw, self.box.bottom - px(66), bw, px(46)
        )

    def on_key(self, event: pygame.event.Event) -> bool:
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_y):
            self._yes()
            return True
        return event.key != pygame.K_ESCAPE

    def handle(self, event: pygame.event.Event) -> bool:
        used = super().handle(event)
        return used or event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)

    def draw(self, surface: pygame.Surface) -> None:
        _dim(surface)
        px = self.app.px
        draw_box(surface, self.box, pal.BG_PANEL, pal.ACCENT_DARK, radius=px(12), width=2)
        img = self.app.fonts.render(
            resolve(self.question), px(19), pal.TEXT, wrap=self.box.width - px(48)
        )
        surface.blit(img, img.get_rect(midtop=(self.box.centerx, self.box.y + px(28))))
        self.draw_widgets(surface)


class MessageOverlay(ConfirmOverlay):
    """A message with one OK button."""

    name = "message"

    def __init__(
        self, app: App, message: TextLike, on_ok: Callable[[], None] | None = None
    ) -> None:
        super().__init__(app, message, on_ok or (lambda: None), yes=lambda: t("common.ok"))
        self.widgets.remove(self.no)

    def layout(self, w: int, h: int) -> None:
        """As tall as the message needs (a long one, such as a version mismatch naming both
        versions and a command, gets a wider box too)."""
        super().layout(w, h)
        px = self.app.px
        text = resolve(self.question)
        if len(text) > 160:
            self.box.width = min(w - px(80), px(760))
        img = self.app.fonts.render(text, px(19), pal.TEXT, wrap=self.box.width - px(48))
        self.box.height = min(h - px(40), max(px(230), img.get_height() + px(28 + 20 + 46 + 24)))
        self.box.center = (w // 2, h // 2)
        self.yes.rect = pygame.Rect(0, 0, px(200), px(46))
        self.yes.rect.midbottom = (self.box.centerx, self.box.bottom - px(20))

    def on_escape(self) -> None:
        self._yes()


class GameMenuOverlay(Scene):
    """Esc during a game: resume, help, settings, leave."""

    opaque = False
    name = "game_menu"

    def __init__(self, app: App, on_leave: Callable[[], None], leave_text: TextLike) -> None:
        super().__init__(app)
        self.on_leave = on_leave
        self.buttons = [
            Button(
                "menu_resume", lambda: t("game.menu.resume"), app.pop, hint="Esc", style="primary"
            ),
            Button("menu_help", lambda: t("common.help"), self._help, hint="F1"),
            Button("menu_settings", lambda: t("menu.settings"), self._settings),
            Button("menu_leave", leave_text, self._leave, style="danger"),
        ]
        for b in self.buttons:
            self.add(b)

    def _help(self) -> None:
        below = self.app.stack[-2] if len(self.app.stack) > 1 else None
        self.app.pop()
        self.app.show_help(below.help_topic if below is not None else None)

    def _settings(self) -> None:
        from game.ui.scenes.settings import SettingsScene

        self.app.pop()
        self.app.push(SettingsScene(self.app))

    def _leave(self) -> None:
        self.app.pop()
        self.on_leave()

    def layout(self, w: int, h: int) -> None:
        super().layout(w, h)
        px = self.app.px
        bw, bh, gap = px(340), px(50), px(12)
        total = len(self.buttons) * (bh + gap) - gap
        self.box = pygame.Rect(0, 0, bw + px(60), total + px(110))
        self.box.center = (w // 2, h // 2)
        y = self.box.y + px(76)
        for b in self.buttons:
            b.rect = pygame.Rect(self.box.x + px(30), y, bw, bh)
            y += bh + gap

    def handle(self, event: pygame.event.Event) -> bool:
        used = super().handle(event)
        return used or event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)

    def on_key(self, event: pygame.event.Event) -> bool:
        return event.key != pygame.K_ESCAPE

    def draw(self, surface: pygame.Surface) -> None:
        _dim(surface)
        px = self.app.px
        draw_box(surface, self.box, pal.BG_PANEL, pal.ACCENT_DARK, radius=px(12), width=2)
        img = self.app.fonts.render(t("game.menu.title"), px(24), pal.ACCENT, bold=True)
        surface.blit(img, img.get_rect(midtop=(self.box.centerx, self.box.y + px(20))))
        self.draw_widgets(surface)
