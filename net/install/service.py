"""Starting the install page beside a game host (``lantern host``, the window's LAN host).

:func:`start` makes this platform's wheels (:mod:`net.install.collect`, in a worker thread:
building and rebuilding takes seconds the first time, then comes from the cache), lists them
with the prepared wheelhouse folder (:func:`default_wheelhouse`; files there win over made
ones of the same name), starts the :class:`~net.install.server.InstallServer` on the game's
event loop and tells the hub its port (the ``welcome`` then names it, so a guest of another
version learns where to get the host's).  :meth:`InstallPage.stop` stops it and takes the port
back — the host stops it first thing when it stops.
"""

from __future__ import annotations

import asyncio
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from net.install.collect import PROJECT, Collected, collect
from net.install.server import DEFAULT_PORT, InstallConfig, InstallServer
from net.install.wheelhouse import Entry, Wheelhouse, scan

log = logging.getLogger("lantern.install")


def default_wheelhouse() -> Path:
    """Where ``lantern wheelhouse`` puts its files unless told otherwise, and where a host
    looks for them: ``<user data dir>/wheelhouse`` (``$LANTERN_DATA_DIR`` moves it)."""
    from net.autosave import data_dir

    return data_dir() / "wheelhouse"


def install_port() -> int:
    """The window's install page port: ``$LANTERN_INSTALL_PORT`` or 7780 (0: any free one)."""
    try:
        port = int(os.environ.get("LANTERN_INSTALL_PORT", str(DEFAULT_PORT)))
    except ValueError:
        return DEFAULT_PORT
    return port if 0 <= port < 65536 else DEFAULT_PORT


def gather(prepared: list[Path]) -> tuple[Wheelhouse, list[str]]:
    """The catalogue to serve: the prepared folders first, then this platform's made wheels
    (blocking: run it in a thread)."""
    from net.versions import PROGRAM_VERSION

    folders = [p for p in prepared if p.is_dir()]
    made: Collected = collect(folders)
    house = scan(folders, made.files)
    kept: dict[str, Entry] = {}
    seen: set[tuple[object, ...]] = set()
    for entry in house.entries.values():  # the prepared folders' files come first
        if entry.project == PROJECT and entry.version != PROGRAM_VERSION:
            continue  # only this version of Lantern Table: a guest must get the host's own
        key = _same(entry)
        if key in seen:
            continue  # a made wheel that a prepared one (from PyPI) already is
        seen.add(key)
        kept[entry.name] = entry
    return Wheelhouse(kept), made.notes


def _same(entry: Entry) -> tuple[object, ...]:
    """What makes two files interchangeable: project, version and the set of each tag part
    (``a.b`` and ``b.a`` platform lists are the same wheel)."""
    return (
        entry.project,
        entry.version,
        entry.is_wheel,
        *(frozenset(part.split(".")) for part in entry.tags),
    )


@dataclass
class InstallPage:
    """A running install page."""

    server: InstallServer
    hub: Any

    @property
    def port(self) -> int:
        return self.server.port

    async def stop(self) -> None:
        if self.hub is not None and self.hub.install_port == self.server.port:
            self.hub.install_port = None
        await self.server.stop()


async def start(
    hub: Any,
    bind: str,
    port: int,
    game_port: int,
    prepared: list[Path] | None = None,
    *,
    fallback_port: bool = False,
    config: InstallConfig | None = None,
) -> InstallPage:
    """Make the wheels, start the page on ``bind:port`` (with ``fallback_port``, a free port
    when that one is taken) and tell ``hub`` its port.  Raises ``OSError`` when it cannot
    listen."""
    from net.versions import PROGRAM_VERSION

    folders = list(prepared if prepared is not None else [default_wheelhouse()])
    wheelhouse, notes = await asyncio.to_thread(gather, folders)
    cfg = config or InstallConfig()
    cfg.bind, cfg.port = bind, port
    server = InstallServer(
        wheelhouse, cfg, game_port=game_port, version=PROGRAM_VERSION, notes=notes
    )
    try:
        await server.start()
    except OSError:
        if not fallback_port or port == 0:
            raise
        cfg.port = 0
        await server.start()
    if hub is not None:
        hub.install_port = server.port
    log.info(
        "install page on port %d: %d files, %.1f MB",
        server.port,
        len(wheelhouse.entries),
        wheelhouse.total_bytes() / 1e6,
    )
    return InstallPage(server, hub)


__all__ = ["InstallPage", "default_wheelhouse", "gather", "install_port", "start"]
