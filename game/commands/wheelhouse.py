"""``lantern wheelhouse [DIR]``: prepare the install page's wheels while online.

Downloads, with pip, the dependency wheels of every platform and Python version guests use
(``net/install/prepare.py``: Windows, macOS, Linux; x86-64 and arm64; Python 3.11 to 3.14),
and puts Lantern Table's own wheel next to them, into ``DIR`` — by default
``<user data dir>/wheelhouse``, the folder ``lantern host --install-page`` and the window's LAN
host serve.  ``--platform`` and ``--python`` choose a part; ``--dry-run`` prints the pip
commands without running them.  Standard output: one line per step, then a summary (with
``--json``: one JSON object, ``{"dest", "files", "megabytes", "seconds", "own", "downloads":
[{"platform", "python", "ok", "seconds", "error"}], "notes"}``).  Exit code 0 when every
download worked, 1 when some failed (the others are kept), 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from game.cli import UsageError


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "wheelhouse", help="download (online) the wheels the install page serves at a party"
    )
    p.add_argument(
        "dir", nargs="?", default=None, metavar="DIR", help="where (default: the data folder's)"
    )
    p.add_argument("--platform", default="", help="comma list (default: all of them)")
    p.add_argument("--python", default="", help="comma list of versions (default: all)")
    p.add_argument("--dry-run", action="store_true", help="print the pip commands only")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.set_defaults(func=run)


def _choose(text: str, known: list[str], what: str) -> list[str]:
    chosen = [part.strip() for part in text.split(",") if part.strip()] or list(known)
    unknown = [c for c in chosen if c not in known]
    if unknown:
        raise UsageError(f"unknown {what} {', '.join(unknown)}; known: {', '.join(known)}")
    return chosen


def run(args: argparse.Namespace) -> int:
    from net.install.prepare import PLATFORMS, PYTHONS, prepare
    from net.install.service import default_wheelhouse

    platforms = _choose(args.platform, list(PLATFORMS), "platform")
    pythons = _choose(args.python, list(PYTHONS), "Python version")
    dest = Path(args.dir) if args.dir else default_wheelhouse()
    if dest.exists() and not dest.is_dir():
        raise UsageError(f"{dest} is not a folder")
    quiet = args.json

    def report(text: str) -> None:
        if not quiet:
            print(text, flush=True)

    result = prepare(dest, platforms, pythons, run=not args.dry_run, report=report)
    if args.dry_run:
        return 0
    failed = [o for o in result.outcomes if not o.ok]
    if args.json:
        print(json.dumps(result.to_dict()), flush=True)
    else:
        print(
            f"{dest}: {result.files} files, {result.megabytes} MB, {result.seconds} s; "
            f"{len(result.outcomes) - len(failed)} of {len(result.outcomes)} downloads worked"
        )
        for o in failed:
            print(f"  no wheels for {o.platform}, Python {o.python}: {o.error}")
        for note in result.notes:
            print(f"  {note}")
    if result.notes:
        print(f"lantern wheelhouse: {'; '.join(result.notes)}", file=sys.stderr)
    return 1 if failed or result.notes else 0
