"""The player's settings, kept in the user config directory as ``settings.json``.

The directory is ``platformdirs.user_config_dir("lantern-table")``, or ``$LANTERN_CONFIG_DIR``
when set (tests point it at a temporary folder).  A missing or damaged file gives the defaults;
unknown or out-of-range values are replaced by their defaults one by one, so an old or hand-edited
file never stops the game from starting.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from game.ui.i18n import LANGUAGES

#: Window sizes offered in the settings (the window is also freely resizable).
WINDOW_SIZES: tuple[tuple[int, int], ...] = (
    (1024, 640),
    (1280, 720),
    (1280, 800),
    (1440, 900),
    (1600, 900),
    (1920, 1080),
)
MIN_SIZE = (1024, 640)
MAX_SIZE = (1920, 1080)

#: Animation speed factors offered (0 turns animations off).
ANIMATION_SPEEDS: tuple[float, ...] = (0.0, 0.5, 1.0, 1.5, 2.0)


def config_dir() -> Path:
    """Where settings live: ``$LANTERN_CONFIG_DIR`` or the platform's user config folder."""
    override = os.environ.get("LANTERN_CONFIG_DIR")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_config_dir("lantern-table"))


def data_dir() -> Path:
    """Where saved games live: ``$LANTERN_DATA_DIR`` or the platform's user data folder (the
    same place the host writes its autosaves, ``<data dir>/saves``)."""
    override = os.environ.get("LANTERN_DATA_DIR")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("lantern-table"))


def saves_dir() -> Path:
    """The host's autosave folder: unfinished games continue from here, finished ones replay."""
    return data_dir() / "saves"


def lan_saves_dir() -> Path:
    """Where LAN tables hosted in the window save themselves: such a save continues as a LAN
    table its players rejoin with their seats (``game/ui/lan.py``)."""
    return saves_dir() / "lan"


@dataclass
class Settings:
    """Everything the settings scene can change."""

    language: str = "en"
    window_size: tuple[int, int] = (1280, 800)
    fullscreen: bool = False
    #: 0 = no animations, 1 = normal, 2 = twice as fast.
    animation_speed: float = 1.0
    #: Okabe–Ito colours and a shape on every piece, so colour never carries meaning alone.
    colour_blind: bool = False
    #: Thicker outlines on legal targets (busy boards).
    strong_outlines: bool = False
    #: Show the live score per player per card during the game.
    score_preview: bool = True
    #: The loudness of the table's sounds (0..1), and whether they are off (``game/ui/sound.py``).
    sound_volume: float = 0.6
    sound_muted: bool = False
    #: The name offered for a new human seat and when joining a LAN table.
    player_name: str = ""
    #: The last address typed on the join screen.
    last_address: str = ""
    #: Remembered choices of other screens (last setup, seat colours), plain values only.
    extra: dict[str, Any] = field(default_factory=dict)

    # ---- files -----------------------------------------------------------------------------
    @classmethod
    def path(cls) -> Path:
        return config_dir() / "settings.json"

    @classmethod
    def load(cls) -> Settings:
        """The saved settings, or the defaults (with a guessed language) when there are none."""
        try:
            raw = json.loads(cls.path().read_text("utf-8"))
        except (OSError, ValueError):
            settings = cls()
            settings.language = _guess_language()
            return settings
        return cls.from_dict(raw if isinstance(raw, dict) else {})

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Settings:
        """Settings from a plain dict; each bad value falls back to its default."""
        s = cls()
        lang = raw.get("language")
        if lang in LANGUAGES:
            s.language = lang
        size = raw.get("window_size")
        if (
            isinstance(size, list | tuple)
            and len(size) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in size)
        ):
            s.window_size = clamp_size((size[0], size[1]))
        for name in (
            "fullscreen",
            "colour_blind",
            "strong_outlines",
            "score_preview",
            "sound_muted",
        ):
            value = raw.get(name)
            if isinstance(value, bool):
                setattr(s, name, value)
        volume = raw.get("sound_volume")
        if isinstance(volume, int | float) and not isinstance(volume, bool) and 0 <= volume <= 1:
            s.sound_volume = float(volume)
        speed = raw.get("animation_speed")
        if isinstance(speed, int | float) and not isinstance(speed, bool) and 0 <= speed <= 4:
            s.animation_speed = float(speed)
        for name in ("player_name", "last_address"):
            value = raw.get(name)
            if isinstance(value, str) and len(value) <= 64:
                setattr(s, name, value)
        extra = raw.get("extra")
        if isinstance(extra, dict):
            s.extra = {k: v for k, v in extra.items() if isinstance(k, str)}
        return s

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["window_size"] = list(self.window_size)
        return data

    def save(self) -> None:
        """Write the settings (atomically: a temporary file, then a rename)."""
        path = self.path()
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(self.to_dict(), indent=2, ensure_ascii=False), "utf-8")
        os.replace(tmp, path)

    def copy(self) -> Settings:
        return Settings.from_dict(self.to_dict())


def clamp_size(size: tuple[int, int]) -> tuple[int, int]:
    """``size`` limited to the supported range (the layout adapts from 1024x640 to full HD)."""
    return (
        max(MIN_SIZE[0], min(MAX_SIZE[0] * 2, size[0])),
        max(MIN_SIZE[1], min(MAX_SIZE[1] * 2, size[1])),
    )


def _guess_language() -> str:
    from game.ui.i18n import guess_language

    env = [os.environ.get(k, "") for k in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")]
    locales = [part for value in env for part in value.split(":") if part]
    return guess_language(locales)


__all__ = [
    "ANIMATION_SPEEDS",
    "MAX_SIZE",
    "MIN_SIZE",
    "WINDOW_SIZES",
    "Settings",
    "clamp_size",
    "config_dir",
    "data_dir",
    "lan_saves_dir",
    "saves_dir",
]
