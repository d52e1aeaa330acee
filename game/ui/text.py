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

#: Japanese line breaking (kinsoku): characters no line may start with — closing brackets and
#: punctuation, small kana, the long-vowel mark, iteration marks — and ones no line may end with
#: (opening brackets).
NO_LINE_START = frozenset(
    "、。，．,.・：；:;？！?!ー－）」』】〕〉》］｝)]}"
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ々ゝゞヽヾ〜…‥"
)
NO_LINE_END = frozenset("（「『【〔〈《［｛([{")


def _is_cjk(ch: str) -> bool:
    """A character of text written without spaces (kana, kanji, full-width forms): a line may
    break before it."""
    return ord(ch) >= 0x2E80


def _bad_break(line: list[str], first: str) -> bool:
    """Whether a line may not end with the units ``line`` when the next one starts with
    ``first`` (kinsoku; a break at a space is always fine)."""
    if line[-1] == " ":
        return False
    return first[:1] in NO_LINE_START or line[-1] in NO_LINE_END


def _units(paragraph: str) -> list[str]:
    """A paragraph cut where lines may break: words of text with spaces, single characters of
    Japanese, and the spaces themselves (``" "``)."""
    units: list[str] = []
    word = ""
    for ch in paragraph:
        if ch == " " or _is_cjk(ch):
            if word:
                units.append(word)
                word = ""
            units.append(ch)
        else:
            word += ch
    if word:
        units.append(word)
    return units


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
        self._sizes: dict[tuple[str, int, bool], tuple[int, int]] = {}
        self._fits: dict[tuple[str, int, int, bool, int], int] = {}
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
            # Our own line breaking (Japanese rules too), each line from the cache.
            lines = self.wrap_lines(text, size, int(wrap), bold)
            step = font.get_linesize()
            images = [self.render(line, size, colour, bold) if line else None for line in lines]
            width = max((img.get_width() for img in images if img is not None), default=1)
            surf = pygame.Surface((max(1, width), max(1, step * len(lines))), pygame.SRCALPHA)
            for i, img in enumerate(images):
                if img is not None:
                    surf.blit(img, (0, i * step))
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
        """Width and height of ``text`` on one line (remembered: tables measure the same
        texts every frame)."""
        key = (text, int(size), bold)
        got = self._sizes.get(key)
        if got is None:
            got = self._sizes[key] = self.font(size, bold).size(text)
            if len(self._sizes) > self._cache_size * 4:
                self._sizes.clear()
        return got

    def line_height(self, size: int, bold: bool = False) -> int:
        return self.font(size, bold).get_linesize()

    def fit(self, text: str, size: int, width: int, bold: bool = False, minimum: int = 9) -> int:
        """The largest size from ``size`` down to ``minimum`` at which ``text`` fits ``width``."""
        key = (text, int(size), int(width), bold, int(minimum))
        got = self._fits.get(key)
        if got is not None:
            return got
        s = int(size)
        while s > minimum and self.font(s, bold).size(text)[0] > width:
            s -= 1
        self._fits[key] = s
        if len(self._fits) > self._cache_size * 4:
            self._fits.clear()
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
        """``text`` broken into lines that fit ``width`` pixels: at spaces, and between the
        characters of Japanese — never before a character that may not start a line (、。」
        small kana ...) nor after one that may not end it (「（): such a pair moves to the next
        line together.  Explicit newlines start new lines; a single word wider than ``width``
        gets a line of its own."""
        font = self.font(size, bold)
        lines: list[str] = []
        for paragraph in text.split("\n"):
            line: list[str] = []
            for unit in _units(paragraph):
                if unit == " " and not line:
                    continue  # no line starts with a space
                candidate = "".join(line) + unit
                if font.size(candidate.rstrip())[0] <= width or not line:
                    line.append(unit)
                    continue
                if unit == " ":
                    lines.append("".join(line).rstrip())
                    line = []
                    continue
                # What may not start a line takes the unit before it down with it (and that
                # one the one before, while it may not start a line either); what may not end
                # a line goes down too.  When nothing is left to break at, the line overflows
                # (the punctuation hangs).
                carry: list[str] = []
                first = unit
                while len(line) > 1 and _bad_break(line, first):
                    first = line.pop()
                    carry.insert(0, first)
                if _bad_break(line, first):
                    line.extend([*carry, unit])
                    continue
                lines.append("".join(line).rstrip())
                line = [*carry, unit]
            lines.append("".join(line).rstrip())
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
        self._sizes.clear()
        self._fits.clear()
