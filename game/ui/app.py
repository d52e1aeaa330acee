"""The application: the window, the scene stack and the main loop.

pygame owns the main thread.  Every frame the app reads the pending events, gives them to the
top scene (after the global keys: F11 fullscreen, F1 help), lets every scene advance its
animations and poll its network connection (which never blocks), and draws the stack from the
lowest opaque scene up, then toasts and the tooltip.  Tests drive the same loop one frame at a
time with :meth:`App.step` after posting events.

**Frames only when something moves.**  :meth:`App.run` draws 60 frames a second only while
something moves: input in the last half second, a toast, a tooltip about to show, or a scene
whose :meth:`~game.ui.scene.Scene.frame_rate` asks for it (an animation; a scene that does not
say runs at 60).  Otherwise it asks for fewer (a pulsing highlight, a blinking caret) or none:
the loop then sleeps (looking for events every :data:`POLL_STEP`) until an event arrives, the
scene's next frame is due, or a second has passed.  Such a slow frame with no event sends to the
screen only the parts the scenes say change (:meth:`~game.ui.scene.Scene.ambient_rects`: the
pulsing targets), each pulse step's picture drawn once and then copied back
(``game/ui/ambient.py``), the whole window for safety every :data:`FULL_FLIP_EVERY` seconds
(every :data:`~game.ui.ambient.CHECK_EVERY` once every step is kept).  Network connections wake
it at once (:meth:`App.wakeup` posts an event from their threads), so a move from another
player is drawn without delay.  A window left on the menu or waiting at the table uses about
one percent of a core (``bench/ui.py``, ``ui.idle_cpu_percent.*``).

**A failing scene does not end the program.**  An exception in a scene (a bug, data nobody
foresaw) is written to standard error; that scene and the ones above it are closed and the
player is told — a LAN table this window hosts keeps running for the other players
(:meth:`App.keep_server`), and the host's player takes their seat back from the join screen.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
import traceback
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from game.ui import palette as pal
from game.ui.ambient import CHECK_EVERY, IdlePainter
from game.ui.attention import Attention
from game.ui.i18n import set_language, t
from game.ui.settings import MIN_SIZE, Settings, clamp_size
from game.ui.sound import Sounds
from game.ui.text import Fonts
from game.ui.widgets import Tooltip, Widget, draw_box
from game.ui.widgets.tooltip import DELAY as TOOLTIP_DELAY

if TYPE_CHECKING:
    from game.ui.scene import Scene

FPS = 60
#: Seconds the main loop sleeps after every frame, whatever the frame cost (see ``App.run``).
IDLE_PER_FRAME = 0.001
#: Seconds between frames when nothing at all moves (a clock or a list read from elsewhere
#: still shows within this time).
IDLE_HEARTBEAT = 1.0
#: Seconds of full frame rate after any input (hover effects, a click's answer).
ACTIVE_AFTER_INPUT = 0.5
#: Frames a second while a text field has the focus (its caret blinks).
CARET_FPS = 4.0
#: Seconds after which a slow frame sends the whole window again, whatever the scenes say
#: changed (a safety net for anything that changes by itself and is not said).
FULL_FLIP_EVERY = 0.5
#: Seconds between looks for events while the idle loop waits (see ``App._wait``): fifty
#: times a second, still within a frame of any input or message.
POLL_STEP = 0.02
#: Seconds within which a window made smaller than :data:`MIN_SIZE` again is left so.
MIN_SIZE_GRACE = 2.0
#: At most this many parts are sent to the screen one by one (more: the rectangle around them).
MAX_RECTS = 8
#: Scene failures within :data:`FAILURE_WINDOW` seconds after which the window shows only a
#: plain page (and after twice as many, gives up).
MAX_FAILURES = 5
FAILURE_WINDOW = 10.0

_INPUT_EVENTS = frozenset(
    {
        pygame.MOUSEMOTION,
        pygame.MOUSEBUTTONDOWN,
        pygame.MOUSEBUTTONUP,
        pygame.MOUSEWHEEL,
        pygame.KEYDOWN,
        pygame.KEYUP,
        pygame.TEXTINPUT,
        pygame.TEXTEDITING,
        pygame.VIDEORESIZE,
        pygame.WINDOWSIZECHANGED,
        pygame.WINDOWEXPOSED,
        pygame.WINDOWFOCUSGAINED,
        pygame.WINDOWENTER,
        pygame.WINDOWLEAVE,
    }
)
#: The design size: UI sizes given in code are pixels at 1280x800 and scale with the window.
DESIGN = (1280, 800)


@dataclass
class Toast:
    text: str
    kind: str
    age: float = 0.0
    life: float = 4.0


class App:
    """The window and its scenes."""

    def __init__(
        self, settings: Settings | None = None, size: tuple[int, int] | None = None
    ) -> None:
        if not getattr(pygame, "IS_CE", False):
            raise RuntimeError(
                "Lantern Table needs pygame-ce; the classic 'pygame' package is installed instead "
                "(pip uninstall pygame && pip install pygame-ce)"
            )
        self.settings = settings if settings is not None else Settings.load()
        set_language(self.settings.language)
        pygame.display.init()
        if pygame.display.get_driver() == "x11":
            # The window is drawn in software (a pygame surface); X11's own framebuffer (shared
            # memory) shows it, not SDL's OpenGL path, which without a GPU driver (Mesa's
            # software GL, a virtual machine, Xvfb) redraws the whole window on the CPU for
            # every update, however small: 4 ms a frame at 1280x800, most of an idle table's
            # cost.  (Only X11: on some other systems SDL has no framebuffer but OpenGL's.)
            os.environ.setdefault("SDL_FRAMEBUFFER_ACCELERATION", "0")
        pygame.font.init()
        pygame.display.set_caption(t("app.title"))
        pygame.key.set_repeat(400, 35)
        self.fullscreen = False
        #: When the window was last made :data:`MIN_SIZE` again, and how many times.
        self._min_forced = -1e9
        self.min_size_kept = 0
        self.screen = self._open_window(size or self.settings.window_size, False)
        if self.settings.fullscreen and size is None:
            self.set_fullscreen(True)
        pygame.key.stop_text_input()
        self.fonts = Fonts()
        self.stack: list[Scene] = []
        self.clock = pygame.time.Clock()
        self.running = True
        self.tooltip = Tooltip()
        self.toasts: list[Toast] = []
        self.focus: Widget | None = None
        self.mouse = (0, 0)
        self.frames = 0
        self.time = 0.0
        self.scale = 1.0
        self._px: dict[float, int] = {}
        self._update_scale()
        #: Called once after each frame is drawn (tests, benchmarks, screenshots).
        self.after_frame: list[Callable[[App], None]] = []
        #: LAN servers this window still runs for other players after the scene that opened
        #: them closed (its own connection failed, or it failed); closed when the app ends.
        self.kept_servers: list[Any] = []
        #: Times of recent scene failures (see :meth:`recover`).
        self.failures: list[float] = []
        self._last_input = time.monotonic()
        self._full_flip = 0.0
        #: Draws the idle window's slow frames (``game/ui/ambient.py``).
        self.painter = IdlePainter()
        #: The table's sounds (``game/ui/sound.py``): ``app.sounds.play("turn")``.
        self.sounds = Sounds(self.settings)
        #: "Your turn" in the title and a flash while the window is not in front.
        self.attention = Attention()
        self._wake_type = pygame.event.custom_type()
        self._wake_posted = False

    # ---- window ----------------------------------------------------------------------------
    def _open_window(self, size: tuple[int, int], fullscreen: bool) -> pygame.Surface:
        if fullscreen:
            screen = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        else:
            screen = pygame.display.set_mode(size, pygame.RESIZABLE)
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", DeprecationWarning)
                    window = pygame.Window.from_display_module()
                window.minimum_size = MIN_SIZE
            except (AttributeError, pygame.error):
                pass
        return screen

    def set_fullscreen(self, on: bool) -> None:
        """Switch between a window of the chosen size and the full screen."""
        if on == self.fullscreen:
            return
        self.fullscreen = on
        self.screen = self._open_window(self.settings.window_size, on)
        self._resized()

    def set_window_size(self, size: tuple[int, int]) -> None:
        self.settings.window_size = size
        if not self.fullscreen:
            self.screen = self._open_window(size, False)
            self._resized()

    def _resized(self) -> None:
        surface = pygame.display.get_surface()
        if surface is not None:
            self.screen = surface
        if not self.fullscreen:
            size = self.screen.get_size()
            if size[0] < MIN_SIZE[0] or size[1] < MIN_SIZE[1]:
                self._keep_min_size()
            # A window the player resized by hand opens at that size next time.
            self.settings.window_size = clamp_size(self.screen.get_size())
        self._update_scale()
        self.relayout()

    def _keep_min_size(self) -> None:
        """The window became smaller than every screen's layout fits (:data:`MIN_SIZE`): a
        window manager that ignores the minimum size, or none at all.  It is made that large
        again — unless it was a moment ago (:data:`MIN_SIZE_GRACE`): a window manager that
        insists (a tiling one) gets its way, and the layouts shrink as far as they can."""
        now = time.monotonic()
        if now - self._min_forced < MIN_SIZE_GRACE:
            return
        self._min_forced = now
        w, h = self.screen.get_size()
        try:
            self.screen = pygame.display.set_mode(
                (max(w, MIN_SIZE[0]), max(h, MIN_SIZE[1])), pygame.RESIZABLE
            )
        except pygame.error:
            return
        self.min_size_kept += 1

    def _update_scale(self) -> None:
        w, h = self.screen.get_size()
        self.scale = max(0.8, min(1.45, min(w / DESIGN[0], h / DESIGN[1])))
        self._px.clear()

    def px(self, n: float) -> int:
        """``n`` design pixels at the current window size (asked thousands of times a frame:
        remembered per scale)."""
        got = self._px.get(n)
        if got is None:
            got = self._px[n] = max(1, round(n * self.scale))
            if len(self._px) > 4096:
                self._px.clear()
        return got

    @property
    def size(self) -> tuple[int, int]:
        return self.screen.get_size()

    def relayout(self) -> None:
        w, h = self.size
        for scene in self.stack:
            scene.layout(w, h)

    def apply_language(self, code: str) -> None:
        self.settings.language = code
        set_language(code)
        self.fonts.clear()
        self.attention.show_title()
        self.relayout()

    # ---- scenes ----------------------------------------------------------------------------
    @property
    def top(self) -> Scene | None:
        return self.stack[-1] if self.stack else None

    def push(self, scene: Scene) -> Scene:
        if self.stack:
            self.stack[-1].pause()
        self.set_focus(None)
        self.stack.append(scene)
        scene.layout(*self.size)
        scene.enter()
        return scene

    def pop(self) -> Scene | None:
        if not self.stack:
            return None
        scene = self.stack.pop()
        self.set_focus(None)
        scene.leave()
        if self.stack:
            self.stack[-1].layout(*self.size)
            self.stack[-1].resume()
        else:
            self.running = False
        return scene

    def remove(self, scene: Scene) -> None:
        """Take ``scene`` out of the stack wherever it is (an overlay that closes by itself)."""
        if scene not in self.stack:
            return
        if scene is self.top:
            self.pop()
            return
        self.stack.remove(scene)
        scene.leave()

    def replace(self, scene: Scene) -> Scene:
        """Pop the top scene and push ``scene`` in its place."""
        if self.stack:
            old = self.stack.pop()
            self.set_focus(None)
            old.leave()
        self.stack.append(scene)
        scene.layout(*self.size)
        scene.enter()
        return scene

    def reset(self, scene: Scene) -> Scene:
        """Pop everything and start again from ``scene`` (e.g. back to the main menu)."""
        while self.stack:
            old = self.stack.pop()
            old.leave()
        self.running = True
        return self.push(scene)

    def pop_to(self, name: str) -> Scene | None:
        """Pop scenes until the top one is called ``name``."""
        while self.stack and self.stack[-1].name != name:
            self.pop()
        self.running = bool(self.stack)
        return self.top

    def scene_named(self, name: str) -> Scene | None:
        for scene in reversed(self.stack):
            if scene.name == name:
                return scene
        return None

    def set_focus(self, widget: Widget | None) -> None:
        if self.focus is widget:
            return
        if self.focus is not None:
            self.focus.focused = False
        self.focus = widget
        if widget is not None:
            widget.focused = True
            pygame.key.start_text_input()
            pygame.key.set_text_input_rect(widget.rect)
        else:
            pygame.key.stop_text_input()

    def toast(self, text: str, kind: str = "info") -> None:
        """Show a short message at the top of the window for a few seconds."""
        self.toasts = [x for x in self.toasts if x.text != text][-3:]
        self.toasts.append(Toast(text, kind))

    def show_help(self, topic: str | None = None) -> None:
        from game.ui.scenes.overlays import HelpOverlay

        top = self.top
        if isinstance(top, HelpOverlay):
            self.pop()
            return
        self.push(HelpOverlay(self, topic or (top.help_topic if top else "general")))

    def quit(self) -> None:
        self.running = False

    # ---- waking and keeping ----------------------------------------------------------------
    def wakeup(self) -> None:
        """Wake the main loop from its idle wait (safe from any thread: network connections
        call it when a message arrives).  At most one wake-up event waits in the queue."""
        if self._wake_posted:
            return
        self._wake_posted = True
        try:
            pygame.event.post(pygame.event.Event(self._wake_type))
        except pygame.error:  # the display is gone: nothing to wake
            self._wake_posted = False

    def keep_server(self, server: Any) -> None:
        """Keep ``server`` (a :class:`~game.ui.lan.LanServer`) running after the scene that
        opened it is gone; it closes when the app ends (or :meth:`close_server`)."""
        if server is not None and server not in self.kept_servers:
            self.kept_servers.append(server)

    def close_server(self, server: Any) -> None:
        if server in self.kept_servers:
            self.kept_servers.remove(server)
        with contextlib.suppress(Exception):
            server.close()

    # ---- the loop --------------------------------------------------------------------------
    def dispatch(self, event: pygame.event.Event) -> None:
        """Route one event: global keys first, then the top scene."""
        if event.type == self._wake_type:
            self._wake_posted = False
            return
        if event.type in _INPUT_EVENTS:
            self._last_input = time.monotonic()
        if event.type == pygame.QUIT:
            self.quit()
            return
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            surface = pygame.display.get_surface()
            if event.type == pygame.VIDEORESIZE or (
                surface is not None and self.screen.get_size() != surface.get_size()
            ):
                self._resized()
            return
        if event.type == pygame.WINDOWFOCUSGAINED:
            self.attention.focus_gained()
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        top = self.top
        if top is None:
            return
        if event.type == pygame.KEYDOWN and self.focus is None:
            if event.key == pygame.K_F11:
                self.set_fullscreen(not self.fullscreen)
                self.settings.fullscreen = self.fullscreen
                return
            if event.key == pygame.K_F1:
                self.show_help()
                return
        if (
            event.type == pygame.MOUSEBUTTONDOWN
            and self.focus is not None
            and not self.focus.rect.collidepoint(event.pos)
        ):
            self.set_focus(None)
        used = top.handle(event)
        if not used and event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            top.on_escape()

    def step(
        self,
        dt: float | None = None,
        events: list[pygame.event.Event] | None = None,
        slow: bool = False,
    ) -> None:
        """One frame: events (``events`` first: one the idle wait already took), update, draw,
        flip.  ``slow``: a frame of the idle loop below the full rate; when no event came and
        nothing else asks for the whole window, only the parts the scenes say change are sent
        to the screen (see the module docstring)."""
        if dt is None:
            dt = 1 / FPS
        stack = list(self.stack)
        toasts = len(self.toasts)
        tooltip = self.tooltip.text
        happened = False
        for event in [*(events or []), *pygame.event.get()]:
            happened = True
            self.dispatch(event)
            if not self.running:
                return
        self.update(dt)
        rects = None
        cycle = None
        if (
            slow
            and not happened
            and stack == self.stack
            and toasts == len(self.toasts) == 0
            and tooltip == self.tooltip.text
        ):
            rects, cycle = self._ambient()
        if rects is None:
            self.painter.forget()
        now = time.monotonic()
        every = CHECK_EVERY if self.painter.complete else FULL_FLIP_EVERY
        key = tuple(id(scene) for scene in self.stack)
        if rects is None or now - self._full_flip >= every:
            self.draw()
            pygame.display.flip()
            self._full_flip = now
            self.painter.whole_frame(self.screen, rects, cycle, key)
        elif rects:
            # Only these parts change: they are drawn (or copied from the step's kept
            # picture) and sent alone; the rest of the window is the last frame's, unchanged.
            self.painter.paint(self.screen, rects, cycle, self.draw, key)
            pygame.display.update(
                rects if len(rects) <= MAX_RECTS else [rects[0].unionall(rects[1:])]
            )
        self.frames += 1
        for hook in list(self.after_frame):
            hook(self)

    def ambient_rects(self) -> list[pygame.Rect] | None:
        """The parts of the window that change in a slow frame (every drawn scene's
        :meth:`~game.ui.scene.Scene.ambient_rects`), or ``None`` for the whole window."""
        return self._ambient()[0]

    def ambient_cycle(self) -> tuple[int, int] | None:
        """How the slow frames' picture repeats: step ``i`` of ``n`` of the one drawn scene
        that changes (:meth:`~game.ui.scene.Scene.ambient_cycle`); ``None`` when it does not
        repeat or several scenes change."""
        return self._ambient()[1]

    def _ambient(self) -> tuple[list[pygame.Rect] | None, tuple[int, int] | None]:
        """The slow frame's parts and cycle (see :meth:`ambient_rects`), asking each scene
        once."""
        rects: list[pygame.Rect] = []
        moving = []
        for scene in self._drawn_scenes():
            part = scene.ambient_rects()
            if part is None:
                return None, None
            if part:
                moving.append(scene)
            rects.extend(part)
        bounds = self.screen.get_rect()
        rects = [r.clip(bounds) for r in rects if r.colliderect(bounds)]
        cycle = moving[0].ambient_cycle() if len(moving) == 1 and rects else None
        return rects, cycle

    def _drawn_scenes(self) -> list[Scene]:
        """The scenes a frame draws: the top opaque one and those above it."""
        first = 0
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i].opaque:
                first = i
                break
        return self.stack[first:]

    def update(self, dt: float) -> None:
        self.time += dt
        self.sounds.update()
        for scene in list(self.stack):
            scene.update(dt)
        for toast in self.toasts:
            toast.age += dt
        self.toasts = [x for x in self.toasts if x.age < x.life]
        top = self.top
        text = top.tooltip_at(self.mouse) if top is not None else ""
        if text:
            avoid = top.tooltip_avoid(self.mouse) if top is not None else []
            self.tooltip.request(text, self.mouse, avoid=avoid)
        else:
            self.tooltip.clear()
        self.tooltip.update(dt)

    def draw(self) -> None:
        surface = self.screen
        first = 0
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i].opaque:
                first = i
                break
        if not self.stack or not self.stack[first].opaque:
            surface.fill(pal.BG)
        for scene in self.stack[first:]:
            scene.draw(surface)
        self._draw_toasts(surface)
        self.tooltip.draw(surface, self)

    def _draw_toasts(self, surface: pygame.Surface) -> None:
        y = self.px(56)
        for toast in self.toasts:
            colour = {"error": (120, 40, 40), "good": (36, 96, 52)}.get(toast.kind, (44, 56, 80))
            border = {"error": pal.BAD, "good": pal.GOOD}.get(toast.kind, pal.BORDER)
            img = self.fonts.render(toast.text, self.px(16), pal.TEXT, wrap=self.px(640))
            box = img.get_rect().inflate(self.px(28), self.px(16))
            box.midtop = (surface.get_width() // 2, y)
            alpha_left = toast.life - toast.age
            if alpha_left < 0.4:
                box.y -= int((0.4 - alpha_left) * 60)
            draw_box(surface, box, colour, border, radius=self.px(8), width=2)
            surface.blit(img, img.get_rect(center=box.center))
            y = box.bottom + self.px(6)

    def frame_rate(self) -> float:
        """Frames a second the window needs now (see the module docstring): :data:`FPS`
        while something moves, fewer for a slow pulse or a caret, 0 when all is still."""
        if time.monotonic() - self._last_input < ACTIVE_AFTER_INPUT or self.toasts:
            return FPS
        if self.tooltip.text and self.tooltip.age < TOOLTIP_DELAY:
            return FPS  # about to show
        rate = CARET_FPS if self.focus is not None else 0.0
        for scene in self.stack:
            rate = max(rate, scene.frame_rate())
        return min(float(FPS), rate)

    def _wait(self, rate: float) -> list[pygame.event.Event]:
        """Sleep until an event arrives or the next frame at ``rate`` is due (a second when 0);
        the event, if any."""
        timeout = 1.0 / rate if rate > 0 else IDLE_HEARTBEAT
        deadline = time.perf_counter() + timeout
        # pygame's own event wait looks for events every millisecond (1.5-2 % of a core by
        # itself); looking every POLL_STEP is fifty times a second, still well within a
        # frame of any input, and a message from the network (App.wakeup) is seen as soon.
        while True:
            events = pygame.event.get()
            if events:
                return events
            left = deadline - time.perf_counter()
            if left <= 0:
                return []
            time.sleep(min(POLL_STEP, left))

    def run(self) -> int:
        """Run until the window closes or the last scene pops."""
        last = time.perf_counter()
        while self.running and self.stack:
            rate = self.frame_rate()
            events: list[pygame.event.Event] = []
            if rate >= FPS:
                self.clock.tick(FPS)
            else:
                events = self._wait(rate)
            now = time.perf_counter()
            # After a wait, animations start from their first frame, not a second late.
            dt = min(now - last, 0.1, 1.0 / rate if rate > 0 else 1.0 / FPS)
            last = now
            try:
                self.step(dt, events, slow=rate < FPS)
            except Exception as exc:
                self.recover(exc)
            # The in-process host and the bot reader are threads of this process.  pygame
            # releases and retakes the GIL inside its calls, which keeps a waiting thread from
            # ever forcing a switch while frames run back to back (a slow machine: ``tick``
            # then has no time left to sleep).  A short sleep each frame always lets them run.
            time.sleep(IDLE_PER_FRAME)
        self.shutdown()
        return 0

    def recover(self, exc: BaseException) -> None:
        """A scene failed: say so on standard error, close that scene and those above it
        (keeping a LAN server they ran going for the other players), and tell the player.

        Too many failures in a short time leave a plain page (:class:`~game.ui.scene.SafeScene`); more still,
        and the error is raised (the window cannot be drawn at all)."""
        now = time.monotonic()
        self.failures = [t0 for t0 in self.failures if now - t0 < FAILURE_WINDOW] + [now]
        print("lantern: a screen failed and was closed:", file=sys.stderr)
        traceback.print_exception(exc, file=sys.stderr)
        if len(self.failures) > 2 * MAX_FAILURES:
            raise exc
        failed = _failed_scene(exc, self.stack)
        index = self.stack.index(failed) if failed is not None else len(self.stack) - 1
        closing = self.stack[max(0, index) :]
        del self.stack[max(0, index) :]
        kept = False
        for scene in reversed(closing):
            client = getattr(scene, "client", None)
            server = getattr(client, "server", None)
            if server is not None:
                client.server = None  # type: ignore[union-attr]
                self.keep_server(server)
                kept = True
            with contextlib.suppress(Exception):
                scene.leave()
        self.set_focus(None)
        self.tooltip.clear()
        if len(self.failures) > MAX_FAILURES:
            from game.ui.scene import SafeScene

            self.stack.clear()
            self.push(SafeScene(self))
            return
        if not self.stack:
            from game.ui.scenes.menu import MenuScene

            self.push(MenuScene(self))
        else:
            self.stack[-1].layout(*self.size)
            self.stack[-1].resume()
        from game.ui.scenes.overlays import MessageOverlay

        detail = f"{type(exc).__name__}: {exc}"[:200]
        serving = kept or bool(self.kept_servers)

        def text() -> str:
            said = t("app.scene_failed", error=detail)
            return f"{said} {t('app.table_goes_on')}" if serving else said

        self.push(MessageOverlay(self, text))

    def shutdown(self) -> None:
        while self.stack:
            self.stack.pop().leave()
        self.sounds.close()
        for server in list(self.kept_servers):
            self.close_server(server)
        try:
            self.settings.save()
        except OSError as exc:
            print(f"lantern: could not save settings: {exc}")
        pygame.display.quit()


def _failed_scene(exc: BaseException, stack: list[Scene]) -> Scene | None:
    """The innermost scene of the stack whose method was running when ``exc`` was raised."""
    found = None
    tb = exc.__traceback__
    while tb is not None:
        owner = tb.tb_frame.f_locals.get("self")
        if any(owner is scene for scene in stack):
            found = owner
        tb = tb.tb_next
    return found


def caption() -> str:
    return t("app.title")


def now() -> float:
    return time.perf_counter()
