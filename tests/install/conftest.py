from __future__ import annotations

import asyncio
import hashlib
import io
import socket
import threading
import zipfile
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from net.install.server import InstallConfig, InstallServer
from net.install.wheelhouse import scan


@pytest.fixture(autouse=True)
def user_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Data and cache folders of every install test live under tmp_path."""
    monkeypatch.setenv("LANTERN_DATA_DIR", str(tmp_path / "lantern-data"))
    monkeypatch.setenv("LANTERN_CACHE_DIR", str(tmp_path / "lantern-cache"))


def make_wheel(folder: Path, name: str, version: str, tag: str = "py3-none-any") -> Path:
    """A small real wheel: a module and a dist-info with METADATA (Requires-Python >=3.11)."""
    dist = f"{name.replace('-', '_')}-{version}"
    path = folder / f"{dist}-{tag}.whl"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(f"{name.replace('-', '_')}.py", f"VERSION = {version!r}\n")
        z.writestr(
            f"{dist}.dist-info/METADATA",
            f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\nRequires-Python: >=3.11\n",
        )
        z.writestr(f"{dist}.dist-info/WHEEL", f"Wheel-Version: 1.0\nTag: {tag}\n")
    return path


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class Running:
    """An install server on its own event loop thread, on 127.0.0.1 and a free port."""

    def __init__(self, server: InstallServer) -> None:
        self.server = server
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.call(server.start())

    def call(self, coro: Any) -> Any:
        future: Future[Any] = asyncio.run_coroutine_threadsafe(coro, self.loop)
        return future.result(10)

    @property
    def port(self) -> int:
        return self.server.port

    def stop(self) -> None:
        self.call(self.server.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


@pytest.fixture
def wheelhouse(tmp_path: Path) -> Path:
    """A wheelhouse folder with two projects, next to a secret file that must never be read
    (and a symbolic link and a subfolder inside that must not be served)."""
    house = tmp_path / "house"
    house.mkdir()
    make_wheel(house, "lantern-table", "0.2.0")
    make_wheel(house, "tiny-dep", "1.0", "cp311-cp311-win_amd64")
    (tmp_path / "secret.txt").write_text("TOP SECRET\n")
    (house / "evil-1.0-py3-none-any.whl").symlink_to(tmp_path / "secret.txt")
    (house / "sub").mkdir()
    make_wheel(house / "sub", "hidden", "1.0")
    (house / "notes.txt").write_text("not a wheel\n")
    return house


@pytest.fixture
def served(wheelhouse: Path) -> Iterator[Running]:
    config = InstallConfig(
        bind="127.0.0.1",
        port=0,
        max_connections=6,
        max_per_address=3,
        header_timeout=0.6,
        send_timeout=5.0,
    )
    running = Running(InstallServer(scan([wheelhouse]), config, game_port=7777, version="0.2.0"))
    yield running
    running.stop()


def exchange(port: int, raw: bytes, timeout: float = 5.0) -> tuple[int, dict[str, str], bytes]:
    """Send ``raw`` on a new connection and read the answer until the server closes it (or
    the Content-Length is complete on a kept-alive connection)."""
    with socket.create_connection(("127.0.0.1", port), timeout) as sock:
        sock.sendall(raw)
        return read_response(sock)


def read_response(sock: socket.socket, no_body: bool = False) -> tuple[int, dict[str, str], bytes]:
    """One response (``no_body``: the answer to a HEAD request)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    if not head:
        return 0, {}, b""
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    length = 0 if no_body else int(headers.get("content-length", "0"))
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return status, headers, body


def get(
    port: int, path: str, headers: str = "", method: str = "GET"
) -> tuple[int, dict[str, str], bytes]:
    raw = (
        f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{headers}Connection: close\r\n\r\n"
    )
    return exchange(port, raw.encode("latin-1"))


def zip_bytes(files: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        for name, text in files.items():
            z.writestr(name, text)
    return buffer.getvalue()
