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

import re
from dataclasses import dataclass
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
    """Game id -> rules version of every game this program has."""
    from game.core.registry import game_ids, get_game

    return {gid: int(get_game(gid).rules_version) for gid in game_ids()}


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


def check_guest(host: Versions, hello: dict[str, Any], game: str | None = None) -> Mismatch | None:
    """The host's check of a guest's ``hello`` (and, with ``game``, of a table of that game).

    A ``hello`` without ``program`` (a script speaking the protocol) is not refused for it; one
    that lists its ``rules`` must have the table's game at the host's rules version."""
    guest = Versions.of_message(hello)
    base = {
        "host_program": host.program or "",
        "guest_program": guest.program or "",
        "host_protocol": host.protocol,
        "guest_protocol": guest.protocol,
        "install": host.install,
    }
    if guest.protocol != host.protocol:
        return Mismatch("protocol", **base)
    if guest.program is not None and not programs_compatible(host.program or "", guest.program):
        return Mismatch("program", **base)
    if game is not None and guest.rules is not None and host.rules is not None:
        theirs = guest.rules.get(game)
        if theirs != host.rules.get(game):
            return Mismatch("rules", **base, game=game, host_rules=host.rules.get(game),
                            guest_rules=theirs)  # fmt: skip
    return None


def check_host(
    welcome: dict[str, Any], game: str | None = None, mine: Versions | None = None
) -> Mismatch | None:
    """The guest's check of a host's ``welcome`` (and, with ``game``, of a table of it).

    A host that does not say its program version or its rules (one older than this check) is
    refused: the guest cannot know that the table plays its rules."""
    me = mine or Versions.mine()
    host = Versions.of_message(welcome)
    base = {
        "host_program": host.program or "",
        "guest_program": me.program or "",
        "host_protocol": host.protocol,
        "guest_protocol": me.protocol,
        "install": host.install,
    }
    if host.protocol != me.protocol:
        return Mismatch("protocol", **base)
    if host.program is None or host.rules is None:
        return Mismatch("unknown", **base)
    if not programs_compatible(host.program, me.program or ""):
        return Mismatch("program", **base)
    if game is not None and me.rules is not None and host.rules.get(game) != me.rules.get(game):
        return Mismatch("rules", **base, game=game, host_rules=host.rules.get(game),
                        guest_rules=me.rules.get(game))  # fmt: skip
    return None


def from_refusal(error: dict[str, Any], mine: Versions | None = None) -> Mismatch:
    """The mismatch a host's ``version_mismatch`` / ``rules_mismatch`` error describes (its
    ``versions`` record holds the host's side; a host that sent none is ``unknown``)."""
    me = mine or Versions.mine()
    data = error.get("versions") if isinstance(error.get("versions"), dict) else {}
    assert isinstance(data, dict)
    host_protocol = data.get("protocol") if isinstance(data.get("protocol"), int) else 0
    host_program = data.get("program") if isinstance(data.get("program"), str) else ""
    install = data.get("install") if isinstance(data.get("install"), int) else None
    game = data.get("game") if isinstance(data.get("game"), str) else ""
    base = {
        "host_program": host_program,
        "guest_program": me.program or "",
        "host_protocol": host_protocol,
        "guest_protocol": me.protocol,
        "install": install,
    }
    if error.get("code") == "rules_mismatch" and game:
        host_rules = data.get("rules") if isinstance(data.get("rules"), int) else None
        guest_rules = (me.rules or {}).get(game)
        return Mismatch("rules", **base, game=game, host_rules=host_rules,
                        guest_rules=guest_rules)  # fmt: skip
    if host_protocol and host_protocol != me.protocol:
        return Mismatch("protocol", **base)
    if host_program:
        return Mismatch("program", **base)
    return Mismatch("unknown", **base)


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
