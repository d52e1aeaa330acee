"""``lantern bench``: measure the project's speed figures.

Prints a table (figure, value, unit and meaning), or with ``--json`` one JSON object of figure
name to number.  ``--only NAME`` runs the suites whose name starts with NAME; ``--quick`` runs
shorter measurements (for smoke tests, not for the record).
"""

from __future__ import annotations

import argparse
import importlib
import json
from typing import Any

from game.cli import UsageError


def add_parser(sub: Any) -> None:
    p = sub.add_parser("bench", help="measure speed figures (see the README for targets)")
    p.add_argument("--json", action="store_true", help="print one JSON object of name -> number")
    p.add_argument("--only", action="append", default=[], help="suite name prefix (repeatable)")
    p.add_argument("--quick", action="store_true", help="short runs, for smoke tests")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        from bench import SUITES
    except ImportError:
        raise UsageError("the bench package is not installed with this copy") from None
    chosen = [s for s in SUITES if not args.only or any(s.startswith(o) for o in args.only)]
    if not chosen:
        raise UsageError(f"no suite matches {args.only}; suites: {', '.join(SUITES)}")
    figures: dict[str, float] = {}
    meanings: dict[str, str] = {}
    for suite in chosen:
        module = importlib.import_module(SUITES[suite])
        figures.update(module.run(args.quick))
        meanings.update(module.FIGURES)
    if args.json:
        print(json.dumps(figures))
        return 0
    width = max(len(k) for k in figures)
    for name, value in figures.items():
        shown = f"{value:,.3f}" if isinstance(value, float) and value < 1000 else f"{value:,.0f}"
        print(f"{name:<{width}}  {shown:>14}  {meanings.get(name, '')}")
    return 0
