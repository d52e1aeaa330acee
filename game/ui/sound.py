"""Sound: the table's cues (``game/ui/sound_synth.py`` made them, ``game/assets/sounds/``), played
at the player's volume — or not at all.

:class:`Sounds` is the one way the client makes a sound: ``app.sounds.play("turn")``.  It never
fails: no sound device (``SDL_AUDIODRIVER=dummy``, a machine without audio, a mixer that does
not open), a missing or damaged file, or the setting's mute all mean silence, never an error.
The mixer opens at the first cue and closes again after :data:`CLOSE_AFTER` seconds of silence,
so a window that waits keeps no audio thread running; a mixer that failed to open is not asked
again until the settings change.  Cues of one kind closer together than :data:`MIN_GAP` are
played once (bots moving fast make one knock, not a rattle).

The settings keep ``sound_volume`` (0..1) and ``sound_muted``.
"""

from __future__ import annotations

import contextlib
import io
import time
from collections.abc import Callable
from importlib import resources
from typing import Any

import pygame

#: The cues (``game/ui/sound_synth.py`` makes them; its recipes are not needed to play them).
CUES = ("turn", "move", "outbid", "round", "score", "final", "chat")

#: Seconds of silence after which the mixer closes (no audio thread while the window waits).
CLOSE_AFTER = 4.0
#: Seconds within which a second cue of the same kind is not played.
MIN_GAP = 0.12
#: Each cue's loudness relative to the others (the volume setting scales them all).
GAIN = {
    "turn": 1.0,
    "move": 0.7,
    "outbid": 0.9,
    "round": 0.9,
    "score": 0.6,
    "final": 0.9,
    "chat": 0.6,
}


def _wav(cue: str) -> bytes | None:
    """The cue's WAV file from the installed ``game.assets`` package (None if missing)."""
    try:
        return (resources.files("game.assets") / "sounds" / f"{cue}.wav").read_bytes()
    except (OSError, ModuleNotFoundError):
        return None


class Sounds:
    """The cues and the mixer (see the module docstring).

    ``settings`` is read at each cue (``sound_volume``, ``sound_muted``); ``clock`` gives
    seconds (tests pass their own).
    """

    def __init__(self, settings: Any, clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        self.clock = clock
        self._data: dict[str, bytes] = {}
        self._loaded: dict[str, Any] = {}
        self._open = False
        self._failed = False
        self._last_sound = 0.0
        self._last: dict[str, float] = {}
        #: The cues asked for and the cues really played, newest last (tests read them).
        self.asked: list[str] = []
        self.played: list[str] = []

    # ---- settings ----------------------------------------------------------------------------
    @property
    def volume(self) -> float:
        try:
            value = float(self.settings.sound_volume)
        except (AttributeError, TypeError, ValueError):
            return 0.0
        return max(0.0, min(1.0, value))

    @property
    def muted(self) -> bool:
        return bool(getattr(self.settings, "sound_muted", False)) or self.volume <= 0.0

    def settings_changed(self) -> None:
        """The volume or mute changed: a mixer that failed may be tried again."""
        self._failed = False

    # ---- playing -------------------------------------------------------------------------------
    def play(self, cue: str) -> bool:
        """Play ``cue`` (one of :data:`CUES`) at the player's volume; True
        when it was handed to a sound device.  Never raises."""
        if cue not in CUES:
            return False
        self.asked.append(cue)
        del self.asked[:-64]
        if self.muted:
            return False
        now = self.clock()
        if now - self._last.get(cue, -1e9) < MIN_GAP:
            return False
        sound = self._sound(cue)
        if sound is None:
            return False
        try:
            sound.set_volume(self.volume * GAIN.get(cue, 1.0))
            sound.play()
        except pygame.error:
            return False
        self._last_sound = self._last[cue] = now
        self.played.append(cue)
        del self.played[:-64]
        return True

    def update(self) -> None:
        """Close the mixer after :data:`CLOSE_AFTER` seconds of silence (called each frame)."""
        if self._open and self.clock() - self._last_sound > CLOSE_AFTER:
            with contextlib.suppress(pygame.error):
                if pygame.mixer.get_busy():
                    return
            self.close()

    def close(self) -> None:
        """Close the mixer (its sounds go with it; the next cue opens it again)."""
        if not self._open:
            return
        self._open = False
        self._loaded.clear()
        with contextlib.suppress(pygame.error):
            pygame.mixer.quit()

    @property
    def is_open(self) -> bool:
        return self._open

    # ---- the mixer -----------------------------------------------------------------------------
    def _sound(self, cue: str) -> Any:
        if not self._open and not self._start():
            return None
        sound = self._loaded.get(cue)
        if sound is not None:
            return sound
        data = self._data.get(cue)
        if data is None:
            data = _wav(cue)
            if data is None:
                return None
            self._data[cue] = data
        try:
            sound = pygame.mixer.Sound(file=io.BytesIO(data))
        except (pygame.error, ValueError, OSError):
            return None
        self._loaded[cue] = sound
        return sound

    def _start(self) -> bool:
        """Open the mixer (False, and no more tries until the settings change, if it will
        not)."""
        if self._failed:
            return False
        try:
            if not pygame.mixer.get_init():
                pygame.mixer.init(frequency=22050, size=-16, channels=2, buffer=1024)
        except (pygame.error, OSError, NotImplementedError):
            self._failed = True
            return False
        self._open = bool(pygame.mixer.get_init())
        self._failed = not self._open
        self._last_sound = self.clock()
        return self._open
