"""One HTTP/1.1 request, read with limits; the responses of the install page.

Only what pip and a browser need: ``GET`` and ``HEAD`` of a path, no request body.  The head
(request line and header fields) must arrive whole — ending with an empty line, CRLF line ends
— within the server's header timeout and within :data:`MAX_HEAD` bytes; the request line within
:data:`MAX_REQUEST_LINE`, at most :data:`MAX_FIELDS` header fields.  Anything else is refused
with the status that says why (:class:`HttpError`), and the connection is closed after it:

* 400 — a request line or field that is not HTTP, a target that is not a path (``http://…``,
  ``*``), a bad or encoded-control percent escape, a dot segment or a backslash, a body
  (``Content-Length`` other than 0, ``Transfer-Encoding``), a missing or repeated ``Host``;
* 405 — a method other than GET and HEAD (with ``Allow: GET, HEAD``);
* 408 — the head did not arrive in time (slow headers);
* 414 / 431 — a request line / head that is too long;
* 505 — an HTTP version other than 1.0 and 1.1.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from email.utils import formatdate

#: Longest request line, whole head, and most header fields of one request.
MAX_REQUEST_LINE = 2048
MAX_HEAD = 16 * 1024
MAX_FIELDS = 64

_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_VERSION = re.compile(r"HTTP/(\d)\.(\d)")
_FIELD_VALUE = re.compile(r"[\t\x20-\x7e\x80-\xff]*")
#: Characters a request target may hold before decoding (RFC 3986 path and query characters).
_TARGET = re.compile(r"[A-Za-z0-9\-._~!$&'()*+,;=:@/?%]*")

REASONS = {
    200: "OK",
    301: "Moved Permanently",
    400: "Bad Request",
    404: "Not Found",
    405: "Method Not Allowed",
    408: "Request Timeout",
    414: "URI Too Long",
    431: "Request Header Fields Too Large",
    500: "Internal Server Error",
    503: "Service Unavailable",
    505: "HTTP Version Not Supported",
}


class HttpError(Exception):
    """A request refused with ``status`` (the connection is closed after the answer)."""

    def __init__(self, status: int, text: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(text)
        self.status = status
        self.text = text
        self.headers = headers or {}


@dataclass
class Request:
    method: str
    path: str  # percent-decoded, without the query
    version: tuple[int, int]
    headers: dict[str, str] = field(default_factory=dict)  # lower-case names

    @property
    def keep_alive(self) -> bool:
        tokens = {t.strip().lower() for t in self.headers.get("connection", "").split(",")}
        if self.version >= (1, 1):
            return "close" not in tokens
        return "keep-alive" in tokens


def decode_path(raw: str) -> str:
    """A request path, percent-decoded strictly: every ``%`` starts two hex digits, the bytes
    are UTF-8, and the result holds no control character, backslash or dot segment."""
    out = bytearray()
    i = 0
    while i < len(raw):
        ch = raw[i]
        if ch == "%":
            pair = raw[i + 1 : i + 3]
            if len(pair) != 2 or not all(c in "0123456789abcdefABCDEF" for c in pair):
                raise HttpError(400, "a bad percent escape")
            out.append(int(pair, 16))
            i += 3
        else:
            out.append(ord(ch))
            i += 1
    try:
        text = out.decode("utf-8")
    except UnicodeDecodeError:
        raise HttpError(400, "the path is not UTF-8") from None
    if any(ord(c) < 0x20 or ord(c) == 0x7F or c == "\\" for c in text):
        raise HttpError(400, "a control character or backslash in the path")
    if any(part in (".", "..") for part in text.split("/")):
        raise HttpError(400, "a dot segment in the path")
    return text


def parse_head(head: bytes) -> Request:
    """The request a head (up to and including its empty line) describes."""
    try:
        text = head.decode("latin-1")
    except UnicodeDecodeError:  # pragma: no cover - latin-1 decodes every byte
        raise HttpError(400, "not HTTP") from None
    lines = text.split("\r\n")
    if lines[-2:] != ["", ""]:
        raise HttpError(400, "the head must end with an empty line")
    lines = lines[:-2]
    if not lines or len(lines[0]) > MAX_REQUEST_LINE:
        raise HttpError(414 if lines else 400, "the request line is too long or missing")
    parts = lines[0].split(" ")
    if len(parts) != 3:
        raise HttpError(400, "a request line is METHOD TARGET HTTP/1.1")
    method, target, version_text = parts
    if not _TOKEN.fullmatch(method):
        raise HttpError(400, "not an HTTP method")
    found = _VERSION.fullmatch(version_text)
    if found is None:
        raise HttpError(400, "not an HTTP version")
    version = (int(found.group(1)), int(found.group(2)))
    if version not in ((1, 0), (1, 1)):
        raise HttpError(505, "only HTTP/1.0 and HTTP/1.1")
    if len(lines) - 1 > MAX_FIELDS:
        raise HttpError(431, f"more than {MAX_FIELDS} header fields")
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if not sep or not _TOKEN.fullmatch(name):
            raise HttpError(400, "a header field is NAME: VALUE (no folding)")
        value = value.strip(" \t")
        if not _FIELD_VALUE.fullmatch(value):
            raise HttpError(400, "a control character in a header field")
        key = name.lower()
        if key in headers and key in ("host", "content-length", "transfer-encoding"):
            raise HttpError(400, f"{name} twice")
        headers[key] = f"{headers[key]}, {value}" if key in headers else value
    if method not in ("GET", "HEAD"):
        raise HttpError(405, "this server only answers GET and HEAD", {"Allow": "GET, HEAD"})
    if "transfer-encoding" in headers or headers.get("content-length", "0").strip() != "0":
        raise HttpError(400, "a request here has no body")
    if version == (1, 1) and "host" not in headers:
        raise HttpError(400, "an HTTP/1.1 request needs a Host field")
    if not target.startswith("/") or not _TARGET.fullmatch(target):
        raise HttpError(400, "the target must be a path (origin form)")
    path = decode_path(target.split("?", 1)[0])
    return Request(method, path, version, headers)


async def read_request(reader: asyncio.StreamReader, timeout: float) -> Request | None:
    """The next request of a connection, its head whole within ``timeout`` seconds; ``None``
    when the client closed the connection, or sent nothing at all in that time, between
    requests (it is then closed without an answer).

    The reader's buffer limit must be :data:`MAX_HEAD` (the server opens streams with it)."""
    deadline = asyncio.get_running_loop().time() + timeout
    try:
        async with asyncio.timeout_at(deadline):
            first = await reader.read(1)
    except TimeoutError:
        return None
    if not first:
        return None
    try:
        async with asyncio.timeout_at(deadline):
            head = first + await reader.readuntil(b"\r\n\r\n")
    except TimeoutError:
        raise HttpError(408, "the request head did not arrive in time") from None
    except asyncio.LimitOverrunError:
        raise HttpError(431, "the request head is too long") from None
    except asyncio.IncompleteReadError:
        raise HttpError(400, "the connection ended inside a request head") from None
    if len(head) > MAX_HEAD:
        raise HttpError(431, "the request head is too long")
    return parse_head(head)


def response_head(status: int, headers: dict[str, str], keep_alive: bool) -> bytes:
    """A status line and header fields (``Date``, ``Connection`` added), then the empty line."""
    lines = [f"HTTP/1.1 {status} {REASONS.get(status, 'Error')}"]
    fields = {
        "Date": formatdate(usegmt=True),
        "Server": "lantern-table",
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
        **headers,
        "Connection": "keep-alive" if keep_alive else "close",
    }
    lines += [f"{k}: {v}" for k, v in fields.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def error_body(status: int, text: str) -> bytes:
    return f"{status} {REASONS.get(status, 'Error')}: {text}\n".encode()


__all__ = [
    "MAX_FIELDS",
    "MAX_HEAD",
    "MAX_REQUEST_LINE",
    "HttpError",
    "Request",
    "decode_path",
    "parse_head",
    "read_request",
    "response_head",
]
