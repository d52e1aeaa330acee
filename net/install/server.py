"""The install page's HTTP server (asyncio, standard library only).

It serves, read-only, from a :class:`~net.install.wheelhouse.Wheelhouse` fixed at start:

* ``/`` — the guest's page (:func:`net.install.pages.guest_page`);
* ``/simple/`` and ``/simple/<project>/`` — the package index (a name that is not normalised
  is redirected to its normal form, as PEP 503 asks; ``/simple/<project>`` gets its slash);
* ``/files/<name>`` — a file of the catalogue, looked up by its exact name.

Everything else is 404; methods other than GET and HEAD are 405; malformed requests are 400
(:mod:`net.install.http`).  Limits (:class:`InstallConfig`): connections in all and per
address (more are answered 503 and closed at once), the request head's size and the time it
may take to arrive (slow headers get 408), requests per connection, and the time a client may
take to read what it asked for (a client that stops reading is cut off).  The server lives on
the game host's event loop and is stopped with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from net.install import http, pages
from net.install.http import HttpError, Request
from net.install.wheelhouse import OPEN_FLAGS, Wheelhouse, identity, normalise

log = logging.getLogger("lantern.install")

#: The install page's TCP port unless told otherwise (the game's is 7777, discovery 7778).
DEFAULT_PORT = 7780
#: Bytes read from a file and handed to the socket at a time.
CHUNK = 256 * 1024


@dataclass
class InstallConfig:
    """Where the install page listens, and its limits (see the module docstring)."""

    bind: str = "0.0.0.0"
    port: int = DEFAULT_PORT
    max_connections: int = 64
    max_per_address: int = 8
    #: Seconds for a request head to arrive whole (also the wait for the next request).
    header_timeout: float = 10.0
    #: Seconds a client may leave a response unread before it is cut off.
    send_timeout: float = 30.0
    max_requests: int = 200


@dataclass
class Stats:
    """What the server has done (the bench and the host's log read it)."""

    connections: int = 0
    refused_connections: int = 0
    requests: int = 0
    bytes_sent: int = 0
    files_sent: int = 0
    statuses: dict[int, int] = field(default_factory=dict)


class InstallServer:
    """The install page (see the module docstring).  ``game_port`` is the game's TCP port the
    page tells guests to join (``None``: it names none); ``version`` the program version it
    names; ``notes`` sentences for the page about what is missing (English)."""

    def __init__(
        self,
        wheelhouse: Wheelhouse,
        config: InstallConfig,
        *,
        game_port: int | None = None,
        version: str = "",
        notes: list[str] | None = None,
    ) -> None:
        self.wheelhouse = wheelhouse
        self.config = config
        self.game_port = game_port
        self.version = version
        self.notes = list(notes or [])
        self.stats = Stats()
        self._server: asyncio.Server | None = None
        self._per_address: dict[str, int] = {}
        self._open = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._writers: set[asyncio.StreamWriter] = set()
        #: Called with each file name served (tests check what was read).
        self.on_file: list[Callable[[str], None]] = []

    @property
    def port(self) -> int:
        if self._server is None or not self._server.sockets:
            return 0
        return int(self._server.sockets[0].getsockname()[1])

    async def start(self) -> None:
        self._server = await asyncio.start_server(
            self._accept, self.config.bind, self.config.port, limit=http.MAX_HEAD
        )

    async def stop(self) -> None:
        """Stop listening and end every connection now (the host is stopping)."""
        server, self._server = self._server, None
        if server is not None:
            server.close()
        for writer in list(self._writers):
            writer.transport.abort()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=2.0)
        if server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(server.wait_closed(), 2.0)

    # ---- connections --------------------------------------------------------------------------
    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        peer = writer.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) else ""
        cfg = self.config
        if self._open >= cfg.max_connections or self._per_address.get(address, 0) >= (
            cfg.max_per_address
        ):
            self.stats.refused_connections += 1
            self._count(503)
            body = http.error_body(503, "too many connections; try again in a moment")
            with contextlib.suppress(Exception):
                writer.write(self._head(503, "text/plain", len(body), False, {"Retry-After": "2"}))
                writer.write(body)
                writer.transport.close()
            return
        assert task is not None
        self._tasks.add(task)
        self._writers.add(writer)
        self._open += 1
        self._per_address[address] = self._per_address.get(address, 0) + 1
        self.stats.connections += 1
        clean = False
        try:
            await self._serve(reader, writer)
            clean = True
        except (ConnectionError, TimeoutError, asyncio.IncompleteReadError):
            pass
        except asyncio.CancelledError:
            pass
        finally:
            self._open -= 1
            left = self._per_address.get(address, 1) - 1
            if left:
                self._per_address[address] = left
            else:
                self._per_address.pop(address, None)
            self._tasks.discard(task)
            self._writers.discard(writer)
            if clean:
                writer.close()  # what is queued still goes out; a stalled reader is aborted below
                self._closing(writer)
            else:
                writer.transport.abort()

    def _closing(self, writer: asyncio.StreamWriter) -> None:
        """Abort a closing connection whose client has not taken the rest within the send
        timeout."""
        transport = writer.transport
        if transport.get_write_buffer_size():
            asyncio.get_running_loop().call_later(self.config.send_timeout, transport.abort)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        for _ in range(self.config.max_requests):
            try:
                request = await http.read_request(reader, self.config.header_timeout)
            except HttpError as exc:
                await self._error(writer, exc, False)
                return
            if request is None:
                return
            self.stats.requests += 1
            keep = request.keep_alive
            try:
                await self._answer(request, writer, keep)
            except HttpError as exc:
                await self._error(writer, exc, False)
                return
            if not keep:
                return

    async def _send(self, writer: asyncio.StreamWriter, data: bytes) -> None:
        writer.write(data)
        self.stats.bytes_sent += len(data)
        # (asyncio.timeout, not wait_for: wait_for of Python 3.11 may swallow a cancellation
        # that arrives as the drain completes, and stop() would wait for the next request.)
        async with asyncio.timeout(self.config.send_timeout):
            await writer.drain()

    def _count(self, status: int) -> None:
        self.stats.statuses[status] = self.stats.statuses.get(status, 0) + 1

    def _head(
        self,
        status: int,
        content_type: str,
        length: int,
        keep: bool,
        extra: dict[str, str] | None = None,
    ) -> bytes:
        headers = {"Content-Type": content_type, "Content-Length": str(length), **(extra or {})}
        if content_type.startswith("text/html"):
            headers["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
            headers["Referrer-Policy"] = "no-referrer"
        return http.response_head(status, headers, keep)

    async def _error(self, writer: asyncio.StreamWriter, exc: HttpError, keep: bool) -> None:
        self._count(exc.status)
        body = http.error_body(exc.status, exc.text)
        head = self._head(exc.status, "text/plain; charset=utf-8", len(body), keep, exc.headers)
        with contextlib.suppress(Exception):
            await self._send(writer, head + body)

    async def _page(
        self, request: Request, writer: asyncio.StreamWriter, keep: bool, text: str
    ) -> None:
        body = text.encode("utf-8")
        head = self._head(200, "text/html; charset=utf-8", len(body), keep)
        self._count(200)
        await self._send(writer, head if request.method == "HEAD" else head + body)

    async def _redirect(self, writer: asyncio.StreamWriter, keep: bool, location: str) -> None:
        body = f"moved to {location}\n".encode()
        self._count(301)
        head = self._head(301, "text/plain", len(body), keep, {"Location": location})
        await self._send(writer, head + body)

    # ---- routes -------------------------------------------------------------------------------
    async def _answer(self, request: Request, writer: asyncio.StreamWriter, keep: bool) -> None:
        parts = request.path.split("/")[1:]
        house = self.wheelhouse
        if parts == [""]:
            host = pages.host_of(request.headers.get("host", ""), self._fallback_host())
            code = pages.language(request.headers.get("accept-language", ""))
            page = pages.guest_page(house, host, self.game_port, code, self.version, self.notes)
            await self._page(request, writer, keep, page)
            return
        if parts == ["simple", ""]:
            await self._page(request, writer, keep, pages.root_index(house))
            return
        if len(parts) in (2, 3) and parts[0] == "simple" and parts[1]:
            project = normalise(parts[1])
            files = house.projects().get(project)
            if files is not None:
                if parts[1] != project or len(parts) == 2:
                    await self._redirect(writer, keep, f"/simple/{project}/")
                elif parts[2] == "":
                    await self._page(request, writer, keep, pages.project_index(project, files))
                else:
                    raise HttpError(404, "no such page")
                return
        if len(parts) == 2 and parts[0] == "files" and parts[1] in house.entries:
            await self._file(request, writer, keep, parts[1])
            return
        raise HttpError(404, "no such page")

    def _fallback_host(self) -> str:
        bind = self.config.bind
        host = "127.0.0.1" if bind in ("", "0.0.0.0", "::") else bind
        return f"[{host}]:{self.port}" if ":" in host else f"{host}:{self.port}"

    async def _file(
        self, request: Request, writer: asyncio.StreamWriter, keep: bool, name: str
    ) -> None:
        entry = self.wheelhouse.entries[name]
        try:
            fd = os.open(entry.path, OPEN_FLAGS)
        except OSError:
            log.warning("install page: %s is gone", entry.path)
            raise HttpError(404, "that file is gone from the wheelhouse") from None
        with os.fdopen(fd, "rb") as f:
            if identity(os.fstat(f.fileno())) != entry.identity:
                log.warning("install page: %s changed since it was listed; not served", entry.path)
                raise HttpError(404, "that file changed since the host listed it")
            for callback in self.on_file:
                callback(name)
            head = self._head(200, "application/octet-stream", entry.size, keep)
            self._count(200)
            await self._send(writer, head)
            if request.method == "HEAD":
                return
            started = time.monotonic()
            sent = 0
            while sent < entry.size:
                block = f.read(min(CHUNK, entry.size - sent))
                if not block:  # the file shrank under us: the length promised cannot be kept
                    raise ConnectionError("file shorter than listed")
                await self._send(writer, block)
                sent += len(block)
            self.stats.files_sent += 1
            log.info(
                "install page: sent %s (%.1f MB, %.2f s)",
                name,
                entry.size / 1e6,
                time.monotonic() - started,
            )


__all__ = ["DEFAULT_PORT", "InstallConfig", "InstallServer", "Stats"]
