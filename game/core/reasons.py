"""A reason an evaluation gives for a move (``explain_gain`` of a game's evaluation module,
``docs/bots.md``, "Hints that say why"): a key, its parameters and the gain in points."""

from __future__ import annotations


def signed(points: float) -> str:
    """A gain as the reasons show it: ``+2``, ``-1``, ``+0.5`` (one decimal unless whole)."""
    rounded = round(points, 1)
    if rounded == int(rounded):
        return f"{int(rounded):+d}"
    return f"{rounded:+.1f}"


def reason(key: str, gain: float, **params: object) -> dict[str, object]:
    """The reason ``key`` for a gain of ``gain`` points, its text's ``params`` beside the gain."""
    return {"key": key, "params": {"gain": signed(gain), **params}, "gain": gain}
