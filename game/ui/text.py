"""Text: the bundled Noto Sans JP fonts and a cache of rendered strings.

The fonts ship inside the installed package (``game.assets/fonts``, SIL Open Font License) and
draw Latin and Japanese alike, so every language uses the same two files.  A :class:`Fonts`
object opens each (size, weight) once; :meth:`Fonts.render` caches each rendered
(text, size, weight, colour, wrap width) so a frame only blits surfaces it already has.
Font rendering is not thread safe in pygame: render on the main thread only.
"""

from __future__ import annotations

from collections import OrderedDict
from importlib import resources

import pygame

REGULAR = "NotoSansJP-Regular.otf"
BOLD = "NotoSansJP-Bold.otf"

Colour = tuple[int, int, int] | tuple[int, int, int, int]


def font_path(name: str) -> str:
    """The file system path of a bundled font (from the installed ``game.assets`` package)."""
    path = resources.files("game.assets") / "fonts" / name
    return str(path)


class Fonts:
    """Fonts by (pixel size, bold) and a bounded cache of rendered text surfaces."""

    def __init__(self, cache_size: int = 2048) -> None:
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}
        self._cache: OrderedDict[tuple[object, ...], pygame.Surface] = OrderedDict()
        self._cache_size = cache_size
        self._paths = {False: font_path(REGULAR), True: font_path(BOLD)}

    def font(self, size: int, bold: bool = False) -> pygame.font.Font:
        """The font of ``size`` pixels (at least 8), regular or bold."""
        size = max(8, int(size))
        key = (size, bold)
        f = self._fonts.get(key)
        if f is None:
            f = pygame.font.Font(self._paths[bold], size)
            self._fonts[key] = f
        return f

    def render(
        self,
        text: str,
        size: int,
        colour: Colour,
        bold: bool = False,
        wrap: int = 0,
    ) -> pygame.Surface:
        """``text`` rendered anti-aliased on a transparent surface (cached).

        ``wrap`` > 0 wraps lines at that width in pixels (also at explicit newlines).
        """
        key = (text, int(size), tuple(colour), bold, int(wrap))
        surf = self._cache.get(key)
        if surf is not None:
            self._cache.move_to_end(key)
            return surf
        font = self.font(size, bold)
        if wrap > 0:
            surf = font.render(text, True, colour, None, int(wrap))
        elif "\n" in text:
            surf = font.render(text, True, colour, None, 0)
        else:
            surf = font.render(text, True, colour)
        surf = surf.convert_alpha() if pygame.display.get_surface() is not None else surf
        self._cache[key] = surf
        if len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return surf

    def size(self, text: str, size: int, bold: bool = False) -> tuple[int, int]:
        """Width and height of ``text`` on one line."""
        return self.font(size, bold).size(text)

    def line_height(self, size: int, bold: bool = False) -> int:
        return self.font(size, bold).get_linesize()

    def fit(self, text: str, size: int, width: int, bold: bool = False, minimum: int = 9) -> int:
        """The largest size from ``size`` down to ``minimum`` at which ``text`` fits ``width``."""
        s = int(size)
        while s > minimum and self.font(s, bold).size(text)[0] > width:
            s -= 1
        return s

    def ellipsize(self, text: str, size: int, width: int, bold: bool = False) -> str:
        """``text`` cut with "..." so that it fits ``width`` pixels (ASCII dots: the Japanese
        font draws "…" centred, which looks wrong in Latin text)."""
        font = self.font(size, bold)
        if font.size(text)[0] <= width:
            return text
        lo, hi = 0, len(text)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if font.size(text[:mid] + "...")[0] <= width:
                lo = mid
            else:
                hi = mid - 1
        return text[:lo].rstrip() + "..."

    def wrap_lines(self, text: str, size: int, width: int, bold: bool = False) -> list[str]:
        """``text`` broken into lines that fit ``width`` pixels: at spaces where there are
        spaces, anywhere in text without them (Japanese)."""
        font = self.font(size, bold)
        lines: list[str] = []
        for paragraph in text.split("\n"):
            words = paragraph.split(" ") if " " in paragraph else list(paragraph)
            sep = " " if " " in paragraph else ""
            line = ""
            for word in words:
                candidate = f"{line}{sep}{word}" if line else word
                if font.size(candidate)[0] <= width or not line:
                    line = candidate
                else:
                    lines.append(line)
                    line = word
            lines.append(line)
        return lines

    def render_lines(
        self,
        text: str,
        size: int,
        colour: Colour,
        width: int,
        max_lines: int,
        bold: bool = False,
    ) -> list[pygame.Surface]:
        """At most ``max_lines`` rendered lines of wrapped ``text``; the last one ends in "..."
        when the text is longer."""
        if max_lines <= 0:
            return []
        lines = self.wrap_lines(text, size, width, bold)
        if len(lines) > max_lines:
            lines = lines[:max_lines]
            lines[-1] = self.ellipsize(lines[-1] + " ...", size, width, bold)
            if not lines[-1].endswith("..."):
                lines[-1] = lines[-1] + "..."
        return [self.render(line, size, colour, bold) for line in lines]

    def clear(self) -> None:
        """Forget rendered text (after a language change, to free memory)."""
        self._cache.clear()
