"""Small shared types of the engine contract."""

from __future__ import annotations

from typing import Any, TypeAlias

#: A seat at the table: 0 .. players-1, in turn order from the first seat.
Seat: TypeAlias = int

#: A scalar inside an action.
Scalar: TypeAlias = int | str

#: An action: a tuple whose first item is a ``str`` kind, then ``str``/``int`` arguments (or
#: nested tuples of those).  Examples: ``("build", 4, 7)``, ``("use", "Oracle", 0)``,
#: ``("end",)``.  msgpack sends it as a list; :func:`game.core.wire.as_action` restores it.
Action: TypeAlias = tuple[Any, ...]

#: An event: a plain dict describing one thing that happened, for logs and animation.
#: Keys: ``"type"`` (str) always; ``"seat"`` when a seat did it; any plain fields.
#: ``"only": [seats]`` marks a private event that only those seats (not spectators) may see;
#: ``"reveal": True`` marks an event that revealed hidden information or consumed randomness
#: (it closes the undo window: see ``docs/architecture.md``).
Event: TypeAlias = dict[str, Any]

#: A seat's score: category name -> points, always including ``"total"``.
Score: TypeAlias = dict[str, int]

#: Options of a new game: plain values keyed by option name.
Options: TypeAlias = dict[str, Any]


class GameError(Exception):
    """Base class of every error the engines raise on purpose."""


class IllegalAction(GameError):
    """An action that the rules do not allow now.

    ``rule`` names the rule that forbids it (e.g. ``"KB §5 placement: adjacent if possible"``)
    and ``str(error)`` is a sentence a player can read (English).  ``key`` and ``params``, when a
    game gives them, let a client say the same in the player's language: the client looks up
    ``reason.<game id>.<key>`` in its catalogue and fills in ``params`` (plain str/int values);
    without a translation it shows the English sentence.
    """

    def __init__(
        self,
        message: str,
        rule: str = "",
        *,
        key: str = "",
        params: dict[str, str | int] | None = None,
    ) -> None:
        super().__init__(message)
        self.rule = rule
        self.key = key
        self.params = dict(params or {})

    @property
    def sentence(self) -> str:
        """The English sentence alone (``str(error)`` adds the rule in brackets)."""
        return super().__str__()

    def reason(self) -> dict[str, object]:
        """The reason as plain data for a client: ``{text, rule, key, params}``."""
        return {"text": self.sentence, "rule": self.rule, "key": self.key, "params": self.params}

    def __str__(self) -> str:
        base = super().__str__()
        return f"{base} [{self.rule}]" if self.rule else base


class BadOptions(GameError):
    """Options of a new game that the game does not accept (unknown name, bad value)."""


class BadState(GameError):
    """A saved state or replay that cannot be loaded (corrupt, wrong game, wrong version)."""
