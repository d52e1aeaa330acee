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
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import threading
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
        self, name: str, bind: str | None = None, port: int | None = None, bots: bool = False
    ) -> None:
        from net.hub import Hub

        self.bind = bind if bind is not None else lan_bind()
        # With bots at the table they think in a worker process (the window keeps its frames).
        self.hub = Hub(
            host_name=name[:32] or "Lantern Table",
            allow_hints=False,
            hints_ceiling=True,  # the person hosting in the window may allow hints in the lobby
            bot_process=bots,
        )
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="lantern-lan-host", daemon=True
        )
        self._thread.start()
        self._server: Any = None
        self._announcer: Any = None
        wanted = lan_port() if port is None else port
        try:
            self._run(self._start(wanted), 10)
        except OSError:
            if wanted == 0:
                self.close()
                raise
            self._run(self._start(0), 10)

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

    def close(self) -> None:
        """Stop announcing, tell every client, stop the hub and the thread."""
        if not self._thread.is_alive():
            return

        async def stop() -> None:
            if self._announcer is not None:
                self._announcer.close()
            if self._server is not None:
                await self._server.stop("the host closed the table")

        with contextlib.suppress(Exception):
            self._run(stop(), 15)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)


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
