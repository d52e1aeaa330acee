"""Game options of Glen More and how a new game's setup is chosen from them (GM §2, §4.3).

* ``start_seat`` — who places the first figure and moves first: a seat number, or
  ``"random"``.  The default is seat 0: seats are given youngest first, and the youngest
  player starts (the seed; GM §2 D22).
* ``grey_clan_members`` — when a grey tile (village, castle, start village) gives its clan
  member: ``"every_activation"`` (default, the seed: one clan member *and* one movement point
  on every activation) or ``"on_placement"`` (the printed-tile reading: one clan member when
  the tile is placed, each activation gives only the movement point).  GM §4.3.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game.core.api import OptionSpec
from game.core.rng import Rng
from game.core.types import BadOptions

EVERY_ACTIVATION = "every_activation"
ON_PLACEMENT = "on_placement"
CLAN_MODES = (EVERY_ACTIVATION, ON_PLACEMENT)

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        name="start_seat",
        kind="choice",
        default="0",
        label="Start player",
        help="the seat that places the first figure and moves first; seat 0 is the youngest "
        'player (the seed\'s rule), or "random"',
        choices=("0", "1", "2", "3", "4", "random"),
    ),
    OptionSpec(
        name="grey_clan_members",
        kind="choice",
        default=EVERY_ACTIVATION,
        label="Clan members from grey tiles",
        help="every_activation: each activation of a village or castle gives 1 clan member and "
        "1 move (the seed); on_placement: the clan member comes once, when the tile is placed, "
        "and each activation gives only the move (the printed tiles)",
        choices=CLAN_MODES,
    ),
)

_NAMES = tuple(o.name for o in OPTIONS)


@dataclass(frozen=True)
class Setup:
    """The resolved setup of one game."""

    start_seat: int
    clan_on_place: bool

    def options(self) -> dict[str, Any]:
        """The options as saved with the state (``start_seat`` resolved)."""
        return {
            "start_seat": self.start_seat,
            "grey_clan_members": ON_PLACEMENT if self.clan_on_place else EVERY_ACTIVATION,
        }


def resolve(players: int, options: dict[str, Any] | None, rng: Rng) -> Setup:
    """Check ``options`` and choose what is left random.  Raises :class:`BadOptions`."""
    if options is not None and not isinstance(options, dict):
        raise BadOptions("options must be a dict of option name to value")
    opts = dict(options or {})
    unknown = sorted(str(k) for k in set(opts) - set(_NAMES))
    if unknown:
        raise BadOptions(
            f"unknown Glen More option(s) {', '.join(map(repr, unknown))}; "
            f"options are {', '.join(_NAMES)}"
        )
    mode = opts.get("grey_clan_members", EVERY_ACTIVATION)
    if mode not in CLAN_MODES:
        raise BadOptions(
            f"option 'grey_clan_members' must be one of {', '.join(CLAN_MODES)}, not {mode!r}"
        )
    start_opt = opts.get("start_seat", "0")
    if start_opt == "random":
        start = rng.randbelow(players)
    else:
        if isinstance(start_opt, str) and start_opt.isdigit() and len(start_opt) < 3:
            start_opt = int(start_opt)
        if not isinstance(start_opt, int) or isinstance(start_opt, bool):
            raise BadOptions(
                f"option 'start_seat' must be \"random\" or a seat number, not {start_opt!r}"
            )
        if not 0 <= start_opt < players:
            raise BadOptions(f"start_seat {start_opt} is not a seat of a {players}-player game")
        start = start_opt
    return Setup(start, mode == ON_PLACEMENT)
