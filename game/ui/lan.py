"""Hosting and finding LAN tables from the window.

:class:`LanServer` runs the network package's own host — a :class:`net.hub.Hub` behind a
:class:`net.host.TcpHost`, announced by a :class:`net.discovery.Announcer` — on an asyncio loop
in a background daemon thread, so the window keeps drawing while players connect.  The player
at this computer joins through an ordinary TCP connection to it, like everyone else.

Where to listen and where to announce come from the environment so tests and development
machines stay on loopback (``docs/protocol.md``, LAN discovery):

* ``LANTERN_LAN_BIND`` — the address the host listens on (default ``0.0.0.0``: the LAN);
* ``LANTERN_LAN_PORT`` — its TCP port (default 7777; 0 picks a free one; a taken port falls
  back to a free one);
* ``LANTERN_DISCOVERY_LISTEN`` / ``LANTERN_DISCOVERY_PROBE`` — the join screen's UDP listen
  address (default ``:7778``, every interface) and comma-separated probe addresses.

With ``install_page`` (the *Serve the install page* option, on by default) it also serves the
install page (``net/install``, ``docs/install-page.md``) beside the game — on port 7780, or
``LANTERN_INSTALL_PORT`` (a taken port falls back to a free one) — once this platform's wheels
are made (seconds the first time, in the background; :attr:`LanServer.install_state`).

A LAN table's autosave goes to ``<user data dir>/saves/lan/``: that is how *Continue a saved
game* knows to continue it as a LAN table its players rejoin with their seats (their tokens are
in the save), not as a game on this computer.  The lobby shows the host's address as the IP
addresses others can type (:func:`lan_addresses`), never the computer's name.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import socket
import threading
from pathlib import Path
from typing import Any

DEFAULT_PORT = 7777


def lan_bind() -> str:
    return os.environ.get("LANTERN_LAN_BIND", "0.0.0.0")


def lan_port() -> int:
    try:
        return int(os.environ.get("LANTERN_LAN_PORT", str(DEFAULT_PORT)))
    except ValueError:
        return DEFAULT_PORT


class LanServer:
    """A LAN host in a background thread (see the module docstring)."""

    def __init__(
        self,
        name: str,
        bind: str | None = None,
        port: int | None = None,
        bots: bool = False,
        save_dir: Path | None = None,
        install_page: bool = False,
    ) -> None:
        from game.ui.settings import lan_saves_dir
        from net.hub import Hub

        self.bind = bind if bind is not None else lan_bind()
        # With bots at the table they think in a worker process (the window keeps its frames).
        self.hub = Hub(
            host_name=name[:32] or "Lantern Table",
            allow_hints=False,
            hints_ceiling=True,  # the person hosting in the window may allow hints in the lobby
            bot_process=bots,
            save_dir=save_dir if save_dir is not None else lan_saves_dir(),
        )
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="lantern-lan-host", daemon=True
        )
        self._thread.start()
        self._server: Any = None
        self._announcer: Any = None
        self._page: Any = None
        #: The install page: ``off``, ``preparing``, ``ready`` (:attr:`install_port`) or
        #: ``failed`` (:attr:`install_error` says why).
        self.install_state = "off"
        self.install_error = ""
        wanted = lan_port() if port is None else port
        try:
            self._run(self._start(wanted), 10)
        except OSError:
            if wanted == 0:
                self.close()
                raise
            self._run(self._start(0), 10)
        self._preparing: concurrent.futures.Future[None] | None = None
        if install_page:
            self.install_state = "preparing"
            self._preparing = asyncio.run_coroutine_threadsafe(self._start_install(), self._loop)

    async def _start_install(self) -> None:
        from net.install import service

        try:
            self._page = await service.start(
                self.hub, self.bind, service.install_port(), self.port, fallback_port=True
            )
        except Exception as exc:  # cannot listen, cannot read the cache: the game goes on
            self.install_error = str(getattr(exc, "strerror", None) or exc)[:200]
            self.install_state = "failed"
            return
        self.install_state = "ready"

    @property
    def install_port(self) -> int | None:
        return self._page.port if self._page is not None and self.install_state == "ready" else None

    def _run(self, coro: Any, timeout: float) -> Any:
        future: concurrent.futures.Future[Any] = asyncio.run_coroutine_threadsafe(coro, self._loop)
        return future.result(timeout)

    async def _start(self, port: int) -> None:
        from net.discovery import Announcer, default_announce_targets
        from net.host import HostConfig, TcpHost

        server = TcpHost(self.hub, HostConfig(bind=self.bind, port=port))
        await server.start()
        self._server = server
        announcer = Announcer(
            self.hub.host_name,
            server.port,
            self.hub.summaries,
            default_announce_targets(self.bind),
        )
        with contextlib.suppress(OSError):
            await announcer.start(self.bind, server.port)
            self._announcer = announcer

    def call(self, fn: Any, *args: Any, timeout: float = 10.0) -> Any:
        """Run ``fn(*args)`` on the host's thread (the hub is not thread-safe) and return it."""

        async def run() -> Any:
            return fn(*args)

        return self._run(run(), timeout)

    @property
    def port(self) -> int:
        return int(self._server.port) if self._server is not None else 0

    @property
    def udp_port(self) -> int | None:
        return int(self._announcer.udp_port) if self._announcer is not None else None

    def connect_address(self) -> str:
        """Where the player at this computer connects (loopback when listening everywhere)."""
        host = "127.0.0.1" if self.bind in ("0.0.0.0", "", "::") else self.bind
        return host

    def resume(self, path: Path) -> str:
        """Continue a LAN table from its save, in the same file: every seat stays reserved for
        its player's token (they reconnect as if the host had never stopped).  Returns the
        table id; raises ``BadState`` for a file that cannot be continued."""
        from game.core.match import Replay

        replay = Replay.load(path)
        return str(
            self.call(
                lambda: (
                    self.hub.resume_table(
                        replay, path=Path(path), keep_tokens=True, bot_delay_ms=_bot_delay()
                    ).table_id
                )
            )
        )

    def close(self) -> None:
        """Stop announcing, close every table (its players are told the table closed, so
        they do not wait for it to come back), stop the hub and the thread."""
        if not self._thread.is_alive():
            return

        async def stop() -> None:
            if self._preparing is not None:
                self._preparing.cancel()
            if self._page is not None:
                await self._page.stop()
            if self._announcer is not None:
                self._announcer.close()
            for table in list(self.hub.tables.values()):
                self.hub.close_table(table, "the host closed the table")
            if self._server is not None:
                await self._server.stop("the host closed the table")

        with contextlib.suppress(Exception):
            self._run(stop(), 15)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)


def _bot_delay() -> int:
    from game.ui.client import bot_delay_ms

    return bot_delay_ms()


def lan_addresses(bind: str) -> list[str]:
    """The IP addresses a person on the network types to reach a host listening on ``bind``:
    ``bind`` itself when it is one address, else this computer's IPv4 addresses other than
    loopback — the one its default route leaves from first (found by "connecting" a UDP socket,
    which sends nothing) — and 127.0.0.1 when it has no other."""
    if bind not in ("0.0.0.0", "", "::"):
        return [bind]
    found: list[str] = []

    def add(ip: str) -> None:
        if ip and ip not in found and not ip.startswith(("127.", "0.")):
            found.append(ip)

    for target in ("10.255.255.255", "192.168.255.255", "172.31.255.255"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
                probe.connect((target, 9))  # no datagram is sent: this only picks a route
                add(probe.getsockname()[0])
        except OSError:
            continue
    with contextlib.suppress(OSError, UnicodeError):
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            add(str(info[4][0]))
    return found or ["127.0.0.1"]


def _address(text: str, default_port: int) -> tuple[str, int]:
    """``"host:port"``, ``":port"`` or ``"host"`` -> (host, port); port 0 means any free port."""
    host, sep, port_text = text.strip().rpartition(":")
    if not sep:
        host, port_text = text.strip(), str(default_port)
    port = int(port_text)
    if not 0 <= port < 65536:
        raise ValueError(f"{text!r}: the port must be from 0 to 65535")
    return host, port


def discovery_addresses() -> tuple[tuple[str, int], list[tuple[str, int]]]:
    """The join screen's (listen address, probe addresses), from the environment."""
    from net.discovery import DISCOVERY_PORT

    listen = _address(
        os.environ.get("LANTERN_DISCOVERY_LISTEN", f":{DISCOVERY_PORT}"), DISCOVERY_PORT
    )
    probe_text = os.environ.get("LANTERN_DISCOVERY_PROBE", "")
    probe = [_address(part, DISCOVERY_PORT) for part in probe_text.split(",") if part.strip()]
    return listen, probe
