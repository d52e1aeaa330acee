"""Game options of Kingdom Builder and how a new game's setup is chosen from them (KB §3).

Options (names fixed; UIs build on them):

* ``sections`` — ``"random"`` or 4 distinct section names in quadrant order TL, TR, BL, BR;
* ``rotations`` — ``"random"`` or 4 bools (section turned 180°);
* ``cards`` — ``"random"`` or 3 distinct Kingdom Builder card names;
* ``exclude_cards`` — a list (none by default) of Kingdom Builder cards a random draw of
  ``cards`` leaves out, e.g. ``["Lords"]``: a house variant, not in the rulebook (which draws
  from every card, KB §3.5); at least 3 cards must stay to draw from, and a card chosen by
  hand may not also be left out;
* ``first_game`` — the suggested first setup (KB §3.1): Tavern TL, Paddock TR, Oasis BL,
  Farm BR, none turned; cards Fishermen, Merchants, Knights;
* ``nomads`` — how much of the Nomads expansion is in play (:mod:`~game.kingdom_builder.nomads`):
  ``"off"`` (the base game, 2–4 players), ``"boards"`` (random sections are drawn from all 12
  instead of the 8 base ones and Nomads sections may be chosen, KB §3.1; the base cards) or
  ``"full"`` (as ``"boards"``, plus the nomad tiles, KB §3.3, and the 13-card pool with
  Ambassadors, Families and Shepherds, KB §3.5).  With the expansion 2–5 players may play;
  a 5-player game without the option is a full Nomads game (``"off"`` is refused for 5).
  ``false``/``true`` are read as ``"off"``/``"boards"`` (what they meant before the nomad tiles
  existed, so old replays set up the same game);
* ``start_seat`` — ``"random"`` or a seat number.

Everything random is drawn from the state's RNG in a fixed order (sections, rotations, cards,
start seat; then, with ``"full"``, the nomad tiles), so the same seed and options give the same
setup.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game.core.api import OptionSpec
from game.core.rng import Rng
from game.core.types import BadOptions
from game.kingdom_builder import nomads as nm
from game.kingdom_builder.board import ALL_SECTIONS, BASE_SECTIONS, NOMADS_SECTIONS
from game.kingdom_builder.scoring import ALL_CARDS, CARDS

FIRST_GAME_SECTIONS = ("Tavern", "Paddock", "Oasis", "Farm")
FIRST_GAME_CARDS = ("Fishermen", "Merchants", "Knights")

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        name="sections",
        kind="multi",
        default="random",
        label="Board sections",
        help="4 sections in quadrant order top-left, top-right, bottom-left, bottom-right, "
        'or "random" (from the 8 base sections, or all 12 with Nomads)',
        choices=ALL_SECTIONS,
        count=4,
    ),
    OptionSpec(
        name="rotations",
        kind="flags",
        default="random",
        label="Sections turned 180°",
        help='4 true/false values, one per section in quadrant order, or "random"',
        count=4,
    ),
    OptionSpec(
        name="cards",
        kind="multi",
        default="random",
        label="Kingdom Builder cards",
        help='the 3 scoring cards of this game, or "random" (Ambassadors, Families and '
        "Shepherds need the full Nomads expansion)",
        choices=ALL_CARDS,
        count=3,
    ),
    OptionSpec(
        name="exclude_cards",
        kind="subset",
        default=[],
        label="Cards left out",
        help="cards a random draw never picks (e.g. Lords); at least 3 must stay to draw from",
        choices=ALL_CARDS,
        count=len(ALL_CARDS) - 3,
    ),
    OptionSpec(
        name="first_game",
        kind="bool",
        default=False,
        label="First game setup",
        help="Tavern, Paddock, Oasis, Farm (none turned) with Fishermen, Merchants, Knights",
    ),
    OptionSpec(
        name="nomads",
        kind="choice",
        default=nm.OFF,
        label="Nomads expansion",
        help='"off": the base game; "boards": the 4 Nomads sections join the 8 base ones '
        '(nomad hexes count for Workers and Merchants); "full": also the nomad tiles and the '
        "Nomads cards Ambassadors, Families, Shepherds. Up to 5 players with the expansion",
        choices=nm.MODES,
    ),
    OptionSpec(
        name="start_seat",
        kind="choice",
        default="random",
        label="Start player",
        help='"random" or a seat number (0 is the first seat)',
        choices=("random", "0", "1", "2", "3", "4"),
    ),
)

_NAMES = tuple(o.name for o in OPTIONS)


@dataclass(frozen=True)
class Setup:
    """The resolved setup of one game."""

    sections: tuple[str, ...]
    rotations: tuple[bool, ...]
    cards: tuple[str, ...]
    nomads: str
    start_seat: int


def _names_list(value: Any, name: str, known: tuple[str, ...], count: int) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or len(value) != count:
        raise BadOptions(f'option {name!r} must be "random" or a list of {count} names')
    for item in value:
        if not isinstance(item, str) or item not in known:
            raise BadOptions(
                f"option {name!r}: unknown name {item!r}; choose from {', '.join(known)}"
            )
    if len(set(value)) != count:
        raise BadOptions(f"option {name!r}: the {count} names must be different")
    return tuple(value)


def _left_out(value: Any) -> frozenset[str]:
    """The ``exclude_cards`` option: distinct known card names (any number, none included)."""
    if not isinstance(value, list | tuple):
        raise BadOptions("option 'exclude_cards' must be a list of Kingdom Builder card names")
    for item in value:
        if not isinstance(item, str) or item not in ALL_CARDS:
            raise BadOptions(
                f"option 'exclude_cards': unknown card {item!r}; choose from {', '.join(ALL_CARDS)}"
            )
    if len(set(value)) != len(value):
        raise BadOptions("option 'exclude_cards': a card is named twice")
    return frozenset(value)


def _bool(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise BadOptions(f"option {name!r} must be true or false, not {value!r}")
    return value


def nomads_mode(value: Any) -> str:
    """The ``nomads`` option as one of ``"off"``, ``"boards"``, ``"full"`` (``false`` and
    ``true``, its values before the nomad tiles existed, mean ``"off"`` and ``"boards"``)."""
    if value is False:
        return nm.OFF
    if value is True:
        return nm.BOARDS
    if isinstance(value, str) and value in nm.MODES:
        return value
    raise BadOptions(
        f"option 'nomads' must be one of {', '.join(map(repr, nm.MODES))}, not {value!r}"
    )


def resolve(players: int, options: dict[str, Any] | None, rng: Rng) -> Setup:
    """Check ``options`` and choose everything left random (KB §3).  Raises BadOptions."""
    opts = dict(options or {})
    unknown = sorted(set(opts) - set(_NAMES))
    if unknown:
        raise BadOptions(
            f"unknown Kingdom Builder option(s) {', '.join(map(repr, unknown))}; "
            f"options are {', '.join(_NAMES)}"
        )
    first_game = _bool(opts.get("first_game", False), "first_game")
    # A 5th player comes with the Nomads box (its red settlements): a 5-player game set up
    # without the option plays the full expansion; "off" with 5 players is refused.
    nomads = nomads_mode(opts.get("nomads", nm.FULL if players > 4 else nm.OFF))
    if players > 4 and nomads == nm.OFF:
        raise BadOptions(
            "a 5th player needs the Nomads expansion (its red settlements): set nomads to "
            '"boards" or "full"'
        )
    sections_opt = opts.get("sections", "random")
    rotations_opt = opts.get("rotations", "random")
    cards_opt = opts.get("cards", "random")
    start_opt = opts.get("start_seat", "random")
    left_out = _left_out(opts.get("exclude_cards", []))

    if first_game:
        clash = [k for k in ("sections", "rotations", "cards") if opts.get(k, "random") != "random"]
        if left_out:
            clash.append("exclude_cards")
        if clash:
            raise BadOptions(
                f"first_game fixes the sections, rotations and cards; do not also set {clash[0]!r}"
            )
        if nomads != nm.OFF:
            raise BadOptions("first_game is the base-game setup; it cannot be combined with nomads")
        sections_opt = list(FIRST_GAME_SECTIONS)
        rotations_opt = [False] * 4
        cards_opt = list(FIRST_GAME_CARDS)

    if sections_opt == "random":
        pool = ALL_SECTIONS if nomads != nm.OFF else BASE_SECTIONS
        chosen = tuple(rng.sample(pool, 4))
    else:
        chosen = _names_list(sections_opt, "sections", ALL_SECTIONS, 4)
        extra = [s for s in chosen if s in NOMADS_SECTIONS]
        if extra and nomads == nm.OFF:
            raise BadOptions(
                f'{extra[0]} is a Nomads section; set the option nomads to "boards" or "full" '
                "to use it"
            )

    if rotations_opt == "random":
        rotations = tuple(rng.randbelow(2) == 1 for _ in range(4))
    else:
        if not isinstance(rotations_opt, list | tuple) or len(rotations_opt) != 4:
            raise BadOptions("option 'rotations' must be \"random\" or a list of 4 true/false")
        rotations = tuple(_bool(v, "rotations") for v in rotations_opt)

    card_pool = ALL_CARDS if nomads == nm.FULL else CARDS
    if cards_opt == "random":
        # Without cards left out the pool (and so the draw) is the rulebook's, KB §3.5.
        drawn_from = tuple(c for c in card_pool if c not in left_out)
        if len(drawn_from) < 3:
            raise BadOptions(
                f"exclude_cards leaves {len(drawn_from)} of the {len(card_pool)} cards in play; "
                "at least 3 must stay to draw from"
            )
        cards = tuple(rng.sample(drawn_from, 3))
    else:
        cards = _names_list(cards_opt, "cards", ALL_CARDS, 3)
        extra = [c for c in cards if c not in card_pool]
        if extra:
            raise BadOptions(
                f'{extra[0]} is a Nomads card; set the option nomads to "full" to use it'
            )
        both = [c for c in cards if c in left_out]
        if both:
            raise BadOptions(f"{both[0]} is both chosen and left out (exclude_cards)")

    if start_opt == "random":
        start = rng.randbelow(players)
    else:
        if isinstance(start_opt, str) and start_opt.isdigit():
            start_opt = int(start_opt)
        if not isinstance(start_opt, int) or isinstance(start_opt, bool):
            raise BadOptions(
                f"option 'start_seat' must be \"random\" or a seat number, not {start_opt!r}"
            )
        if not 0 <= start_opt < players:
            raise BadOptions(f"start_seat {start_opt} is not a seat of a {players}-player game")
        start = start_opt
    return Setup(chosen, rotations, cards, nomads, start)
