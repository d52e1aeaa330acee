"""The table's sounds, synthesised from their recipes here (nothing recorded, nothing copied).

Each cue is a few soft partials of a bell or a plucked string with a quick attack and an
exponential decay, quiet (peaks at :data:`PEAK` of full scale) and short (at most a second):

* ``turn`` — your turn: two rising notes of a small bell;
* ``move`` — a move lands: a soft wooden knock;
* ``outbid`` — your bid was outbid: two falling notes;
* ``round`` — a season or scoring round ends: three rising notes;
* ``score`` — a step of the final scoring: a short pluck;
* ``final`` — the final scoring is over: four rising notes and a held chord;
* ``chat`` — a chat line: a little upward blip.

``python -m game.ui.sound_synth`` writes them as 16-bit mono WAV files to
``game/assets/sounds/`` (the ``game.assets`` package); ``tests/ui/test_sound.py`` checks that the
files are exactly what these recipes make.  Only the standard library: the samples are plain
arithmetic, the noise of the knock a fixed linear congruential sequence.
"""

from __future__ import annotations

import io
import math
import sys
import wave
from array import array
from pathlib import Path

RATE = 22050
#: The loudest sample of any cue, as a share of full scale (the volume setting scales it).
PEAK = 0.32

#: A note: (start seconds, frequency Hz, length seconds, loudness 0..1).
Note = tuple[float, float, float, float]


def _bell(buf: list[float], start: float, freq: float, length: float, level: float) -> None:
    """Add a small bell: the fundamental and two soft inharmonic partials, each decaying."""
    partials = ((1.0, 1.0, 1.0), (2.76, 0.32, 1.8), (5.40, 0.12, 3.2))
    first = int(start * RATE)
    count = int(length * RATE)
    attack = int(0.004 * RATE)
    for i in range(count):
        n = first + i
        if n >= len(buf):
            break
        t = i / RATE
        env = min(1.0, i / attack) if attack else 1.0
        value = 0.0
        for ratio, amp, faster in partials:
            value += (
                amp
                * math.exp(-t * faster * 5.0 / length)
                * math.sin(2 * math.pi * freq * ratio * t)
            )
        buf[n] += level * env * value


def _pluck(buf: list[float], start: float, freq: float, length: float, level: float) -> None:
    """Add a plucked string: harmonics that die away faster the higher they are."""
    first = int(start * RATE)
    count = int(length * RATE)
    attack = int(0.002 * RATE)
    for i in range(count):
        n = first + i
        if n >= len(buf):
            break
        t = i / RATE
        env = min(1.0, i / attack) if attack else 1.0
        value = 0.0
        for k in (1, 2, 3):
            value += math.exp(-t * (6.0 + 9.0 * k)) * math.sin(2 * math.pi * freq * k * t) / k
        buf[n] += level * env * value


def _knock(buf: list[float], start: float, freq: float, length: float, level: float) -> None:
    """Add a wooden knock: a low tone falling in pitch under a very short breath of noise."""
    first = int(start * RATE)
    count = int(length * RATE)
    seed = 12345
    phase = 0.0
    for i in range(count):
        n = first + i
        if n >= len(buf):
            break
        t = i / RATE
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        noise = (seed / 0x3FFFFFFF - 1.0) * math.exp(-t * 260.0) * 0.35
        phase += 2 * math.pi * freq * (1.0 - 0.25 * min(1.0, t / length)) / RATE
        tone = math.sin(phase) * math.exp(-t * 38.0)
        attack = min(1.0, i / (0.0015 * RATE))
        buf[n] += level * attack * (tone + noise)


def _blip(buf: list[float], start: float, freq: float, length: float, level: float) -> None:
    """Add a blip: a soft sine gliding a fifth up."""
    first = int(start * RATE)
    count = int(length * RATE)
    phase = 0.0
    for i in range(count):
        n = first + i
        if n >= len(buf):
            break
        frac = i / count
        phase += 2 * math.pi * freq * (1.0 + 0.5 * frac) / RATE
        env = math.sin(math.pi * frac) ** 2
        buf[n] += level * env * math.sin(phase)


#: The recipes: cue name -> (length seconds, [(voice, note), ...]).
RECIPES = {
    "turn": (0.9, [(_bell, (0.0, 659.25, 0.6, 0.8)), (_bell, (0.14, 880.0, 0.75, 0.7))]),
    "move": (0.16, [(_knock, (0.0, 196.0, 0.16, 1.0))]),
    "outbid": (0.7, [(_bell, (0.0, 587.33, 0.45, 0.7)), (_bell, (0.16, 440.0, 0.55, 0.7))]),
    "round": (
        0.9,
        [
            (_pluck, (0.0, 523.25, 0.5, 0.8)),
            (_pluck, (0.11, 659.25, 0.5, 0.8)),
            (_pluck, (0.22, 783.99, 0.65, 0.8)),
        ],
    ),
    "score": (0.2, [(_pluck, (0.0, 783.99, 0.2, 0.8))]),
    "final": (
        1.0,
        [
            (_pluck, (0.0, 523.25, 0.45, 0.7)),
            (_pluck, (0.1, 659.25, 0.45, 0.7)),
            (_pluck, (0.2, 783.99, 0.45, 0.7)),
            (_bell, (0.3, 1046.5, 0.7, 0.6)),
            (_bell, (0.3, 523.25, 0.7, 0.4)),
        ],
    ),
    "chat": (0.12, [(_blip, (0.0, 740.0, 0.12, 0.8))]),
}

CUES = tuple(RECIPES)


def samples(cue: str) -> array:
    """The cue's 16-bit samples (``array('h')``), peaking at :data:`PEAK` of full scale, with
    a short fade at the end so it never clicks."""
    length, notes = RECIPES[cue]
    buf = [0.0] * int(length * RATE)
    for voice, (start, freq, dur, level) in notes:
        voice(buf, start, freq, dur, level)
    fade = int(0.02 * RATE)
    for i in range(min(fade, len(buf))):
        buf[len(buf) - 1 - i] *= i / fade
    top = max((abs(v) for v in buf), default=0.0) or 1.0
    scale = PEAK * 32767 / top
    return array("h", (round(v * scale) for v in buf))


def wav_bytes(cue: str) -> bytes:
    """The cue as a WAV file (16-bit mono at :data:`RATE`)."""
    data = samples(cue)
    if sys.byteorder != "little":
        data.byteswap()
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(data.tobytes())
    return out.getvalue()


def sounds_dir() -> Path:
    """Where the WAV files live (``game/assets/sounds``)."""
    return Path(__file__).resolve().parents[1] / "assets" / "sounds"


def main() -> int:
    folder = sounds_dir()
    folder.mkdir(parents=True, exist_ok=True)
    for cue in CUES:
        path = folder / f"{cue}.wav"
        path.write_bytes(wav_bytes(cue))
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
