"""The install page's HTML: the guest's page, and the package index pip reads (PEP 503).

``/`` — for people, in English, Japanese or Dutch (the browser's ``Accept-Language``): where to
join the game, the one command that installs Lantern Table from this host (pip, or pipx), the
two commands for a guest who has no Python environment yet (and where to get Python), and
every file with its size and sha256.

``/simple/`` lists the projects; ``/simple/<project>/`` links each of its files as
``../../files/<name>#sha256=<hex>`` with ``data-requires-python`` when the file says it
(PEP 503, PEP 345 / PEP 503's attribute).  Every value put into HTML is escaped.
"""

from __future__ import annotations

import html
import re
from typing import Any
from urllib.parse import quote

from net.install.wheelhouse import Entry, Wheelhouse

PROJECT = "lantern-table"
#: What a Host header may hold to be shown back (a name or an address, and a port).
_HOST = re.compile(r"[A-Za-z0-9.\-]{1,253}(:\d{1,5})?|\[[0-9A-Fa-f:.]{2,45}\](:\d{1,5})?")


def host_of(header: str, fallback: str) -> str:
    """The ``host:port`` a guest used to reach this page (its ``Host`` field), or
    ``fallback`` when the field is missing or not a plain host name or address."""
    value = header.strip()
    return value if _HOST.fullmatch(value) else fallback


def join_address(page_host: str, game_port: int) -> str:
    """The game's address on the host the guest reached: the page's host, the game's port."""
    if page_host.startswith("["):
        return page_host[: page_host.index("]") + 1] + f":{game_port}"
    return page_host.rsplit(":", 1)[0] + f":{game_port}"


def language(accept: str) -> str:
    """The first of en / ja / nl the browser prefers (``Accept-Language``), else English."""
    from game.ui.i18n import LANGUAGES

    choices: list[tuple[float, int, str]] = []
    for i, part in enumerate(accept.split(",")[:32]):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        code = tag.strip().lower().split("-")[0]
        if code in LANGUAGES and q > 0:
            choices.append((-q, i, code))
    return min(choices)[2] if choices else "en"


def _text(code: str, key: str, **fields: Any) -> str:
    """``key`` of language ``code`` (English if missing), HTML-escaped, fields escaped too."""
    from game.ui.i18n import catalogue

    raw = catalogue(code).get(key) or catalogue("en").get(key, key)
    safe = {k: html.escape(str(v)) for k, v in fields.items()}
    try:
        return html.escape(raw).format(**safe)
    except (KeyError, IndexError, ValueError):
        return html.escape(raw)


def _platform_label(tag: str) -> str:
    """A wheel's platform tag as people say it (``win_amd64`` -> ``Windows x86-64``)."""
    arch = (
        "arm64"
        if re.search(r"arm64|aarch64", tag)
        else "x86-64"
        if re.search(r"amd64|x86_64", tag)
        else "universal"
        if "universal2" in tag
        else tag.rsplit("_", 1)[-1]
    )
    if tag.startswith("win"):
        return f"Windows {arch}"
    if tag.startswith("macosx"):
        return f"macOS {arch}"
    if tag.startswith("musllinux"):
        return f"Linux (musl) {arch}"
    if "linux" in tag:
        return f"Linux {arch}"
    return tag


def coverage(wheelhouse: Wheelhouse) -> str:
    """Which computers the served binary wheels cover: ``"Linux x86-64 (Python 3.11, 3.12);
    Windows x86-64 (Python 3.12)"`` — from the wheels that are not pure Python."""
    found: dict[str, set[str]] = {}
    for entry in wheelhouse.entries.values():
        python, _abi, platform = entry.tags
        if not entry.is_wheel or platform == "any":
            continue
        versions = {f"{m[0]}.{m[1:]}" for m in re.findall(r"cp(\d{2,3})", python)}
        for tag in platform.split("."):
            found.setdefault(_platform_label(tag), set()).update(versions)
    order = lambda v: tuple(int(x) for x in v.split("."))  # noqa: E731
    return "; ".join(
        f"{label} (Python {', '.join(sorted(found[label], key=order))})" for label in sorted(found)
    )


def _mb(size: int) -> str:
    return f"{size / 1e6:.1f}"


STYLE = (
    "body{font-family:sans-serif;max-width:56em;margin:2em auto;padding:0 1em;line-height:1.5}"
    "code,pre{background:#f3efe6;padding:.2em .4em;border-radius:4px}"
    "pre{padding:.6em;overflow-x:auto;white-space:pre-wrap;word-break:break-all}"
    "td,th{padding:.2em .6em;text-align:left;vertical-align:top}"
    "td.h{font-family:monospace;font-size:.8em;word-break:break-all}"
)


def guest_page(
    wheelhouse: Wheelhouse,
    page_host: str,
    game_port: int | None,
    code: str,
    version: str,
    notes: list[str],
) -> str:
    """The page for people (see the module docstring)."""
    index = f"http://{page_host}/simple/"
    pip = f"pip install --index-url {index} {PROJECT}"
    pipx = f"pipx install --index-url {index} {PROJECT}"
    unix = (
        f"python3 -m venv lantern && lantern/bin/python -m pip install --index-url {index} "
        f"{PROJECT}",
        "lantern/bin/lantern",
    )
    windows = (
        f"py -m venv lantern; lantern\\Scripts\\python -m pip install --index-url {index} "
        f"{PROJECT}",
        "lantern\\Scripts\\lantern",
    )

    def pre(command: str) -> str:
        return f"<pre>{html.escape(command)}</pre>"

    has_own = wheelhouse.has_project(PROJECT)
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{code}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_text(code, 'install.page.title', version=version)}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>{_text(code, 'install.page.title', version=version)}</h1>",
        f"<p>{_text(code, 'install.page.offline')}</p>",
    ]
    if game_port is not None:
        address = join_address(page_host, game_port)
        parts.append(f"<p>{_text(code, 'install.page.join', address=address)}</p>")
    if not has_own:
        parts.append(f"<p><strong>{_text(code, 'install.page.no_project')}</strong></p>")
    parts += [
        f"<h2>{_text(code, 'install.page.have_python')}</h2>",
        pre(pip),
        f"<p>{_text(code, 'install.page.pipx')}</p>",
        pre(pipx),
        f"<p>{_text(code, 'install.page.then')}</p>",
        pre("lantern"),
        f"<h2>{_text(code, 'install.page.no_python')}</h2>",
        f"<p>{_text(code, 'install.page.get_python')}</p>",
        f"<p>{_text(code, 'install.page.unix')}</p>",
        pre(unix[0]) + pre(unix[1]),
        f"<p>{_text(code, 'install.page.windows')}</p>",
        pre(windows[0]) + pre(windows[1]),
        f"<p>{_text(code, 'install.page.platforms', platforms=coverage(wheelhouse) or '—')}</p>",
    ]
    total = wheelhouse.total_bytes()
    count = len(wheelhouse.entries)
    parts.append(
        f"<h2>{_text(code, 'install.page.files', count=count, mb=_mb(total))}</h2><table>"
        f"<tr><th>{_text(code, 'install.page.file')}</th><th>MB</th><th>SHA-256</th></tr>"
    )
    for entries in wheelhouse.projects().values():
        for entry in entries:
            link = "files/" + quote(entry.name)
            parts.append(
                f'<tr><td><a href="{html.escape(link)}">{html.escape(entry.name)}</a></td>'
                f'<td>{_mb(entry.size)}</td><td class="h">{entry.sha256}</td></tr>'
            )
    parts.append("</table>")
    if notes:
        parts.append(f"<h2>{_text(code, 'install.page.notes')}</h2><ul>")
        parts += [f"<li>{html.escape(note)}</li>" for note in notes]
        parts.append("</ul>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _index_head(title: str) -> list[str]:
    return [
        "<!DOCTYPE html>",
        "<html><head>",
        '<meta name="pypi:repository-version" content="1.0">',
        f"<title>{html.escape(title)}</title></head><body>",
        f"<h1>{html.escape(title)}</h1>",
    ]


def root_index(wheelhouse: Wheelhouse) -> str:
    """``/simple/``: one link per project."""
    parts = _index_head("Simple index")
    for project in wheelhouse.projects():
        parts.append(f'<a href="{quote(project)}/">{html.escape(project)}</a><br>')
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def project_index(project: str, entries: list[Entry]) -> str:
    """``/simple/<project>/``: each file with its sha256 and ``data-requires-python``."""
    parts = _index_head(f"Links for {project}")
    for entry in entries:
        href = f"../../files/{quote(entry.name)}#sha256={entry.sha256}"
        attrs = f'href="{html.escape(href)}"'
        if entry.requires_python:
            attrs += f' data-requires-python="{html.escape(entry.requires_python)}"'
        parts.append(f"<a {attrs}>{html.escape(entry.name)}</a><br>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


__all__ = [
    "coverage",
    "guest_page",
    "host_of",
    "join_address",
    "language",
    "project_index",
    "root_index",
]
