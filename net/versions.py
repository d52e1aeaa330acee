"""Which programs may play together: the program, protocol and rules versions on the wire.

Three numbers meet when a guest connects (``docs/protocol.md``, "Versions"):

* the **protocol version** (:data:`net.protocol.PROTOCOL_VERSION`): the shapes of messages;
* the **program version** (``game.__version__``, ``MAJOR.MINOR.PATCH``): the release;
* the **rules version** of each game (``Game.rules_version``, set in each game's module and
  bumped whenever its rules change — what a move does, what a view holds, how it scores).

The policy: a guest may play with a host when both speak the same protocol version, run the
same release series (the same ``MAJOR.MINOR``; a patch release only fixes bugs and changes
nothing another computer sees) and — for the table it joins — have the same rules version of
that table's game.  Anything else is refused with one message naming both versions and where
to get the host's (its install page, when it serves one).

Both sides check.  The host checks the guest's ``hello`` (``program``, and ``rules`` of every
game the guest has) and refuses a join or a new table whose game's rules differ; the guest
checks the host's ``welcome`` the same way, so a host that does not check — or does not say
its versions — is never joined silently.  The host's refusals carry its versions as data
(``versions``), so the guest says it in the player's language (:func:`describe`).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace
from typing import Any, Final

from game import __version__

#: This program's version (one source: ``game/__init__.py``).
PROGRAM_VERSION: Final = __version__

_NUMBERS = re.compile(r"(\d+)\.(\d+)")

#: Error codes of the refusals this module explains (see :class:`net.protocol.ErrorCode`).
MISMATCH_CODES: Final = frozenset({"version_mismatch", "rules_mismatch"})


def series(version: str) -> tuple[int, int] | None:
    """``(MAJOR, MINOR)`` of a version string like ``"0.2.0"`` or ``"1.4.2.dev3"``."""
    found = _NUMBERS.match(version)
    return (int(found.group(1)), int(found.group(2))) if found else None


def programs_compatible(a: str, b: str) -> bool:
    """Whether two program versions may play together (the same ``MAJOR.MINOR``)."""
    sa, sb = series(a), series(b)
    return a == b if sa is None or sb is None else sa == sb


def rules_versions() -> dict[str, int]:
    """Game id -> rules version of every game this program has (each game's module is
    imported the first time: hosts and clients call this before they connect)."""
    from game.core.registry import game_ids

    return dict(_rules(tuple(game_ids())))


@functools.cache
def _rules(ids: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    from game.core.registry import get_game

    return tuple((gid, int(get_game(gid).rules_version)) for gid in ids)


def hello_fields() -> dict[str, Any]:
    """What a guest adds to its ``hello``: its program version and its games' rules versions."""
    return {"program": PROGRAM_VERSION, "rules": rules_versions()}


@dataclass(frozen=True)
class Versions:
    """One side's versions as the other side learns them (``None``: it did not say)."""

    protocol: int
    program: str | None
    rules: dict[str, int] | None
    #: The TCP port of the host's install page (``None``: it serves none).
    install: int | None = None

    @classmethod
    def mine(cls, install: int | None = None) -> Versions:
        from net.protocol import PROTOCOL_VERSION

        return cls(PROTOCOL_VERSION, PROGRAM_VERSION, rules_versions(), install)

    @classmethod
    def of_message(cls, msg: dict[str, Any]) -> Versions:
        """The versions a ``hello`` or ``welcome`` carries."""
        rules = msg.get("rules")
        return cls(
            int(msg.get("version", 0)),
            msg.get("program") if isinstance(msg.get("program"), str) else None,
            dict(rules) if isinstance(rules, dict) else None,
            msg.get("install") if isinstance(msg.get("install"), int) else None,
        )

    def wire(self, game: str | None = None) -> dict[str, Any]:
        """The ``versions`` record of a refusal: the host's versions (one game's rules)."""
        out: dict[str, Any] = {
            "protocol": self.protocol,
            "program": self.program or "",
            "install": self.install,
        }
        if game is not None and self.rules is not None and game in self.rules:
            out["game"] = game
            out["rules"] = self.rules[game]
        return out


@dataclass(frozen=True)
class Mismatch:
    """Why two programs cannot play together, with both sides' versions."""

    #: ``"protocol"``, ``"program"``, ``"rules"`` or ``"unknown"`` (the other side did not
    #: say its versions).
    why: str
    host_program: str
    guest_program: str
    host_protocol: int
    guest_protocol: int
    game: str = ""
    host_rules: int | None = None
    guest_rules: int | None = None
    #: The host's install page port (``None``: it serves none).
    install: int | None = None

    @property
    def code(self) -> str:
        return "rules_mismatch" if self.why == "rules" else "version_mismatch"

    def english(self) -> str:
        """The host's sentence (its error ``text``; a guest says it in its own language)."""
        host = self.host_program or "(an unknown version)"
        guest = self.guest_program or "(an unknown version)"
        if self.why == "protocol":
            why = (
                f"network protocol {self.host_protocol} against {self.guest_protocol}"
                if self.host_protocol != self.guest_protocol
                else "another network protocol"
            )
        elif self.why == "rules":
            why = (
                f"{self.game} rules version {self.host_rules} against "
                f"{self.guest_rules if self.guest_rules is not None else 'none'}"
            )
        elif self.why == "unknown":
            why = "the other program does not say its version"
        else:
            why = "another release"
        where = (
            f"; install the host's version from its install page (port {self.install})"
            if self.install
            else "; install the same version on both computers"
        )
        return f"this host runs Lantern Table {host} and you have {guest} ({why}){where}"


def _between(host: Versions, guest: Versions) -> Mismatch:
    """A mismatch of ``host`` and ``guest`` (its ``why`` to be set)."""
    return Mismatch(
        why="program",
        host_program=host.program or "",
        guest_program=guest.program or "",
        host_protocol=host.protocol,
        guest_protocol=guest.protocol,
        install=host.install,
    )


def _compare(host: Versions, guest: Versions, game: str | None, strict: bool) -> Mismatch | None:
    """Whether ``guest`` may play with ``host`` (at a table of ``game``, when given).  A side
    that did not say its program version or rules passes only when not ``strict``."""
    base = _between(host, guest)
    if host.protocol != guest.protocol:
        return replace(base, why="protocol")
    said = host.program is not None and guest.program is not None
    if strict and not said:
        return replace(base, why="unknown")
    if said and not programs_compatible(host.program or "", guest.program or ""):
        return base
    if game is None or host.rules is None or guest.rules is None:
        return replace(base, why="unknown") if strict and game is not None else None
    ours, theirs = host.rules.get(game), guest.rules.get(game)
    if ours != theirs:
        return replace(base, why="rules", game=game, host_rules=ours, guest_rules=theirs)
    return None


def check_guest(host: Versions, hello: dict[str, Any], game: str | None = None) -> Mismatch | None:
    """The host's check of a guest's ``hello`` (and, with ``game``, of a table of that game).

    A ``hello`` without ``program`` or ``rules`` (a script speaking the protocol) is not
    refused for what it does not say."""
    return _compare(host, Versions.of_message(hello), game, strict=False)


def check_host(
    welcome: dict[str, Any], game: str | None = None, mine: Versions | None = None
) -> Mismatch | None:
    """The guest's check of a host's ``welcome`` (and, with ``game``, of a table of it).

    A host that does not say its program version or its rules (one older than this check) is
    refused: the guest cannot know that the table plays its rules."""
    return _compare(Versions.of_message(welcome), mine or Versions.mine(), game, strict=True)


def from_refusal(error: dict[str, Any], mine: Versions | None = None) -> Mismatch:
    """The mismatch a host's ``version_mismatch`` / ``rules_mismatch`` error describes (its
    ``versions`` record holds the host's side; a host that sent none is ``unknown``)."""
    me = mine or Versions.mine()
    raw = error.get("versions")
    data: dict[str, Any] = raw if isinstance(raw, dict) else {}
    program = data.get("program")
    protocol = data.get("protocol")
    install = data.get("install")
    host = Versions(
        protocol if isinstance(protocol, int) else 0,
        program if isinstance(program, str) and program else None,
        None,
        install if isinstance(install, int) else None,
    )
    base = _between(host, me)
    game = data.get("game")
    if error.get("code") == "rules_mismatch" and isinstance(game, str) and game:
        rules = data.get("rules")
        return replace(
            base,
            why="rules",
            game=game,
            host_rules=rules if isinstance(rules, int) else None,
            guest_rules=(me.rules or {}).get(game),
        )
    if host.protocol and host.protocol != me.protocol:
        return replace(base, why="protocol")
    return base if host.program else replace(base, why="unknown")


def install_url(host: str, port: int) -> str:
    """The address of a host's install page, as a guest types it."""
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"http://{shown}:{port}/"


def describe(mismatch: Mismatch, host_address: str) -> str:
    """The message a guest shows: both versions and where to get the host's — in the current
    language of :mod:`game.ui.i18n` (the window's, or the settings' for ``lantern join``)."""
    from game.ui.i18n import game_title
    from game.ui.i18n import t as translate

    unknown = translate("version.unknown")
    host = mismatch.host_program or unknown
    guest = mismatch.guest_program or unknown
    if mismatch.why == "rules":
        why = translate(
            "version.why.rules",
            game=game_title(mismatch.game, mismatch.game),
            host=mismatch.host_rules if mismatch.host_rules is not None else "—",
            mine=mismatch.guest_rules if mismatch.guest_rules is not None else "—",
        )
    elif mismatch.why == "protocol":
        why = translate(
            "version.why.protocol", host=mismatch.host_protocol, mine=mismatch.guest_protocol
        )
    else:
        why = translate(f"version.why.{mismatch.why}")
    if mismatch.install and host_address:
        url = install_url(host_address, mismatch.install)
        pin = f"=={mismatch.host_program}" if series(mismatch.host_program) else ""
        command = f"pip install --index-url {url}simple/ lantern-table{pin}"
        fix = translate("version.fix.page", url=url, command=command)
    else:
        fix = translate("version.fix.ask", version=host)
    return translate("version.mismatch", host=host, mine=guest, why=why, fix=fix)


__all__ = [
    "MISMATCH_CODES",
    "PROGRAM_VERSION",
    "Mismatch",
    "Versions",
    "check_guest",
    "check_host",
    "describe",
    "from_refusal",
    "hello_fields",
    "install_url",
    "programs_compatible",
    "rules_versions",
    "series",
]
