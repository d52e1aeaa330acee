"""The install page's server: what it serves, and clean refusals of everything else.

Real sockets on 127.0.0.1; the server's wheelhouse sits next to a secret file that no request
may read (an audit hook records every file the process opens while hostile requests arrive).
"""

from __future__ import annotations

import contextlib
import html
import os
import re
import socket
import sys
import threading
import time
from pathlib import Path

import pytest

from net.install.server import InstallConfig, InstallServer
from net.install.wheelhouse import scan
from tests.install.conftest import Running, exchange, get, make_wheel, read_response, sha256

# ---- what it serves --------------------------------------------------------------------------


def test_the_simple_index_lists_projects_and_links_files_with_their_sha256(
    served: Running, wheelhouse: Path
) -> None:
    status, headers, body = get(served.port, "/simple/")
    assert status == 200 and headers["content-type"].startswith("text/html")
    links = re.findall(r'href="([^"]+)"', body.decode())
    assert links == ["lantern-table/", "tiny-dep/"]  # normalised names; no symlink, no sub/
    status, _, body = get(served.port, "/simple/lantern-table/")
    text = body.decode()
    wheel = wheelhouse / "lantern_table-0.2.0-py3-none-any.whl"
    href = f"../../files/{wheel.name}#sha256={sha256(wheel)}"
    assert status == 200 and f'href="{href}"' in text
    assert 'data-requires-python="&gt;=3.11"' in text
    assert html.unescape("&gt;=3.11") == ">=3.11"


def test_names_that_are_not_normalised_are_redirected(served: Running) -> None:
    for path in ("/simple/Lantern_Table/", "/simple/lantern.table/", "/simple/lantern-table"):
        status, headers, _ = get(served.port, path)
        assert (status, headers["location"]) == (301, "/simple/lantern-table/"), path
    assert get(served.port, "/simple/no-such-project/")[0] == 404


def test_a_file_is_served_byte_for_byte_and_head_sends_no_body(
    served: Running, wheelhouse: Path
) -> None:
    wheel = wheelhouse / "tiny_dep-1.0-cp311-cp311-win_amd64.whl"
    status, headers, body = get(served.port, f"/files/{wheel.name}")
    assert status == 200 and body == wheel.read_bytes()
    assert headers["content-length"] == str(wheel.stat().st_size)
    with socket.create_connection(("127.0.0.1", served.port), 5) as sock:
        sock.sendall(f"HEAD /files/{wheel.name} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        status, headers, nothing = read_response(sock, no_body=True)
        assert status == 200 and headers["content-length"] == str(wheel.stat().st_size)
        assert nothing == b""
        # The connection is kept: a second request on it, and no body came before its answer.
        sock.sendall(b"GET /simple/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        status, _, body = read_response(sock)
        assert status == 200 and b"Simple index" in body
    assert served.server.stats.files_sent == 1


def test_the_guest_page_says_the_command_the_join_address_and_every_sha256(
    served: Running, wheelhouse: Path
) -> None:
    port = served.port
    status, headers, body = get(port, "/", "Accept-Language: nl-BE, en;q=0.5\r\n")
    text = body.decode()
    assert status == 200 and '<html lang="nl">' in text
    assert "default-src 'none'" in headers["content-security-policy"]
    assert f"pip install --index-url http://127.0.0.1:{port}/simple/ lantern-table" in text
    assert f"pipx install --index-url http://127.0.0.1:{port}/simple/ lantern-table" in text
    assert "127.0.0.1:7777" in text  # where to join the game
    assert "python3 -m venv lantern &amp;&amp; lantern/bin/python -m pip install" in text
    assert "py -m venv lantern; lantern\\Scripts\\python -m pip install" in text
    for wheel in ("lantern_table-0.2.0-py3-none-any.whl", "tiny_dep-1.0-cp311-cp311-win_amd64.whl"):
        assert wheel in text and sha256(wheelhouse / wheel) in text
    assert "Windows x86-64 (Python 3.11)" in text
    ja = get(port, "/", "Accept-Language: ja;q=0.9, nl;q=0.2\r\n")[2].decode()
    assert '<html lang="ja">' in ja and "インストール" in ja
    assert '<html lang="en">' in get(port, "/", "Accept-Language: fr\r\n")[2].decode()


def test_the_page_shows_back_only_a_plain_host_name(served: Running) -> None:
    """The Host field is the guest's own, but it is shown in the page: anything that is not a
    host name and port is replaced by the server's own address."""
    raw = b'GET / HTTP/1.1\r\nHost: "><script>alert(1)</script>\r\nConnection: close\r\n\r\n'
    status, _, body = exchange(served.port, raw)
    assert status == 200 and b"<script>" not in body
    assert f"http://127.0.0.1:{served.port}/simple/".encode() in body


# ---- hostile requests --------------------------------------------------------------------------

TRAVERSALS = [
    "/files/../secret.txt",
    "/files/%2e%2e/secret.txt",
    "/files/%2E%2E%2Fsecret.txt",
    "/files/..%2f..%2fsecret.txt",
    "/files/%2e%2e%5csecret.txt",
    "/files/..\\secret.txt",
    "/../secret.txt",
    "/simple/../../secret.txt",
    "/files//etc/passwd",
    "/files/%2Fetc%2Fpasswd",
    "/files/evil-1.0-py3-none-any.whl",
    "/files/sub/hidden-1.0-py3-none-any.whl",
    "/files/sub%2Fhidden-1.0-py3-none-any.whl",
    "/files/notes.txt",
    "/files/",
    "/files",
    "/sub/",
    "/secret.txt",
    "/files/lantern_table-0.2.0-py3-none-any.whl%00.txt",
    "/files/%c0%ae%c0%ae/secret.txt",
]


@pytest.mark.parametrize("path", TRAVERSALS)
def test_paths_outside_the_catalogue_are_refused(
    served: Running, wheelhouse: Path, path: str
) -> None:
    status, _, body = get(served.port, path)
    assert status in (400, 404), (path, status)
    assert b"TOP SECRET" not in body and b"root:" not in body


def test_absolute_paths_and_other_target_forms_are_malformed(served: Running) -> None:
    for target in (
        "http://127.0.0.1/files/lantern_table-0.2.0-py3-none-any.whl",
        "//127.0.0.1/secret.txt",
        "*",
        "C:\\secret.txt",
        "files/x",
    ):
        raw = f"GET {target} HTTP/1.1\r\nHost: x\r\n\r\n".encode()
        status = exchange(served.port, raw)[0]
        assert status in (400, 404), (target, status)


@pytest.mark.parametrize(
    "method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT"]
)
def test_only_get_and_head_are_answered(served: Running, method: str) -> None:
    raw = f"{method} /simple/ HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
    status, headers, _ = exchange(served.port, raw.encode())
    assert (status, headers.get("allow")) == (405, "GET, HEAD")


MALFORMED = {
    "no version": b"GET /\r\n\r\n",
    "http/2 preface": b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
    "http/0.9 style": b"GET / HTTP/0.9\r\nHost: x\r\n\r\n",
    "lower-case version": b"GET / http/1.1\r\nHost: x\r\n\r\n",
    "two spaces": b"GET  / HTTP/1.1\r\nHost: x\r\n\r\n",
    "garbage": b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n",
    "method with a slash": b"G/ET / HTTP/1.1\r\nHost: x\r\n\r\n",
    "header without colon": b"GET / HTTP/1.1\r\nHost: x\r\nnonsense\r\n\r\n",
    "folded header": b"GET / HTTP/1.1\r\nHost: x\r\n continued\r\n\r\n",
    "control character in a field": b"GET / HTTP/1.1\r\nHost: x\r\nX: a\x01b\r\n\r\n",
    "no host in 1.1": b"GET / HTTP/1.1\r\n\r\n",
    "two hosts": b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
    "a body": b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc",
    "chunked": b"GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    "bad percent escape": b"GET /simple/%zz/ HTTP/1.1\r\nHost: x\r\n\r\n",
    "percent at the end": b"GET /simple/% HTTP/1.1\r\nHost: x\r\n\r\n",
    "not utf-8": b"GET /files/%ff%fe HTTP/1.1\r\nHost: x\r\n\r\n",
    "encoded newline": b"GET /files/a%0d%0aSet-Cookie:x HTTP/1.1\r\nHost: x\r\n\r\n",
    "space in the target": b"GET /simple/ x/ HTTP/1.1\r\nHost: x\r\n\r\n",
    "fragment": b"GET /simple/#top HTTP/1.1\r\nHost: x\r\n\r\n",
    "ended early": b"GET / HTTP/1.1\r\nHost: x\r\n",
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_requests_get_400_and_the_connection_closes(served: Running, name: str) -> None:
    raw = MALFORMED[name]
    with socket.create_connection(("127.0.0.1", served.port), 5) as sock:
        sock.sendall(raw)
        if name == "ended early":
            sock.shutdown(socket.SHUT_WR)
        status, headers, _ = read_response(sock)
        assert status in (400, 505), (name, status)
        assert headers["connection"] == "close"
        assert sock.recv(100) == b""  # closed


def test_huge_request_lines_and_headers_are_refused(served: Running) -> None:
    line = b"GET /" + b"a" * 3000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"
    assert exchange(served.port, line)[0] == 414
    big = b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 20_000 + b"\r\n\r\n"
    assert exchange(served.port, big)[0] == 431
    many = b"GET / HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: 1\r\n" % i for i in range(80))
    assert exchange(served.port, many + b"\r\n")[0] == 431
    endless = b"GET / HTTP/1.1\r\nHost: x\r\nX: " + b"c" * 100_000  # never ends its head
    with socket.create_connection(("127.0.0.1", served.port), 5) as sock:
        with contextlib.suppress(OSError):  # the server may close before it took everything
            sock.sendall(endless)
        assert read_response(sock)[0] == 431


def test_slow_headers_are_cut_off_and_a_silent_connection_is_closed(served: Running) -> None:
    """A head dribbled one byte at a time must still arrive whole within the header timeout
    (0.6 s here): the slow-loris client gets 408; a client that says nothing is closed."""
    with socket.create_connection(("127.0.0.1", served.port), 5) as sock:
        started = time.monotonic()
        for byte in b"GET / HTTP/1.1\r\nHost: x\r\n":
            try:
                sock.send(bytes([byte]))
            except OSError:
                break
            time.sleep(0.05)
        status, headers, _ = read_response(sock)
        assert status == 408 and headers["connection"] == "close"
        assert time.monotonic() - started < 3.0
    with socket.create_connection(("127.0.0.1", served.port), 5) as sock:
        started = time.monotonic()
        assert sock.recv(100) == b""  # closed without a word
        assert time.monotonic() - started < 3.0


def test_many_connections_are_refused_beyond_the_limits(served: Running) -> None:
    """At most 3 connections from one address (the test's limit): the 4th gets 503 at once;
    once one closes, a new one is served."""
    held = [socket.create_connection(("127.0.0.1", served.port), 5) for _ in range(3)]
    try:
        for sock in held:
            sock.sendall(b"GET / HT")  # a request that has started
        time.sleep(0.1)
        status, headers, _ = get(served.port, "/simple/")
        assert status == 503 and headers["retry-after"] == "2"
        assert served.server.stats.refused_connections >= 1
    finally:
        for sock in held:
            sock.close()
    deadline = time.monotonic() + 3
    while get(served.port, "/simple/")[0] != 200:
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_many_addresses_together_are_bounded(wheelhouse: Path) -> None:
    """The total limit holds across addresses (127.0.0.x are distinct addresses here)."""
    config = InstallConfig(bind="0.0.0.0", port=0, max_connections=4, max_per_address=3)
    running = Running(InstallServer(scan([wheelhouse]), config))
    try:
        held = []
        for i in range(4):
            sock = socket.socket()
            sock.bind((f"127.0.0.{2 + i % 2}", 0))
            sock.connect(("127.0.0.1", running.port))
            sock.sendall(b"GET / HT")
            held.append(sock)
        time.sleep(0.1)
        status = exchange(running.port, b"GET /simple/ HTTP/1.1\r\nHost: x\r\n\r\n")[0]
        assert status == 503
        for sock in held:
            sock.close()
    finally:
        running.stop()


def test_nothing_outside_the_wheelhouse_is_ever_opened(served: Running, wheelhouse: Path) -> None:
    """Every hostile request above, again, while an audit hook records each file the process
    opens: the secret file beside the wheelhouse is never opened, nor anything else under the
    test's folder outside the wheelhouse."""
    opened: list[str] = []
    watching = threading.Event()

    def hook(event: str, args: tuple[object, ...]) -> None:
        if watching.is_set() and event == "open" and isinstance(args[0], str | bytes | Path):
            opened.append(os.fsdecode(args[0]))

    sys.addaudithook(hook)
    watching.set()
    try:
        for path in [*TRAVERSALS, "/files/lantern_table-0.2.0-py3-none-any.whl"]:
            get(served.port, path)
        for raw in MALFORMED.values():
            exchange(served.port, raw, timeout=2.0)
    finally:
        watching.clear()
    root = wheelhouse.parent.resolve()
    inside = [Path(p).resolve() for p in opened if Path(p).resolve().is_relative_to(root)]
    assert inside == [(wheelhouse / "lantern_table-0.2.0-py3-none-any.whl").resolve()]


def test_a_file_changed_after_the_scan_is_not_served(served: Running, wheelhouse: Path) -> None:
    wheel = wheelhouse / "lantern_table-0.2.0-py3-none-any.whl"
    data = wheel.read_bytes()
    wheel.write_bytes(data + b"tampered")
    status, _, body = get(served.port, f"/files/{wheel.name}")
    assert status == 404 and b"tampered" not in body


def test_stopping_closes_the_page_and_its_connections(wheelhouse: Path) -> None:
    running = Running(InstallServer(scan([wheelhouse]), InstallConfig(bind="127.0.0.1", port=0)))
    port = running.port
    sock = socket.create_connection(("127.0.0.1", port), 5)
    sock.sendall(b"GET /simple/ HTTP/1.1\r\nHost: x\r\n\r\n")
    assert read_response(sock)[0] == 200  # kept alive
    running.stop()
    sock.settimeout(3)
    assert sock.recv(100) == b""
    sock.close()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), 2).close()


def test_a_reader_that_stops_reading_is_cut_off(tmp_path: Path) -> None:
    """A client that asks for a big file and never reads it holds the connection no longer
    than the send timeout."""
    house = tmp_path / "big"
    house.mkdir()
    wheel = make_wheel(house, "big", "1.0")
    with wheel.open("ab") as f:
        f.write(os.urandom(24 * 1024 * 1024))
    config = InstallConfig(bind="127.0.0.1", port=0, send_timeout=0.5)
    running = Running(InstallServer(scan([house]), config))
    try:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", running.port))
        sock.sendall(f"GET /files/{wheel.name} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        deadline = time.monotonic() + 10
        while running.server._open and time.monotonic() < deadline:
            time.sleep(0.1)
        assert running.server._open == 0
        sock.close()
    finally:
        running.stop()


def test_the_readme_shows_the_command_the_page_gives(wheelhouse: Path) -> None:
    """The README's "Bring it to a LAN party" command is the page's, on the default port."""
    from net.install import pages
    from net.install.server import DEFAULT_PORT

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    party = readme.split("### Bring it to a LAN party", 1)[1].split("\n---", 1)[0]
    (command,) = re.findall(r"```sh\n(.+?)\n```", party)
    page = pages.guest_page(scan([wheelhouse]), f"HOST:{DEFAULT_PORT}", 7777, "en", "0.2.0", [])
    assert f"<pre>{command}</pre>" in page
    assert f"http://HOST:{DEFAULT_PORT}/" in party
