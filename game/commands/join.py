"""``lantern join``: join a LAN host as a scripted player, or list the hosts on the LAN.

``lantern join HOST:PORT --bot random --headless --json`` sits in a free seat (of the first
table with one, or of ``--table ID``), readies, plays every decision of its seat with the named
bot and prints the final result as ``simulate`` does — one JSON object with ``game``, ``seed``,
``players``, ``bots``, ``scores``, ``winners``, ``actions``, ``seconds`` (plus ``table``,
``seat`` and ``bot``).  Exit code 0 after a finished game, 1 if the host cannot be reached or the
game cannot be finished, 2 for bad arguments.

Its seat's token is kept in the user data folder (``seats.json``, ``net/seats.py``;
``$LANTERN_DATA_DIR`` moves it): a run that was killed and is started again with the same data
folder takes its seat back and plays on (``--fresh`` takes a free seat instead).  When the
connection drops in a running game — the network, or the host restarted from its save — it
connects again with backoff and takes the seat back, for up to ``--reconnect`` seconds.

When this program and the host's cannot play together (``net.versions``: another protocol or
release, or other rules of the table's game), it says so in one line naming both versions and
where to get the host's — its install page — in the player's language (the window's setting,
else the system's), and exits 1.

``lantern join --discover`` listens for LAN beacons (and probes) and prints the hosts heard;
``--listen ADDR:PORT`` and ``--probe ADDR:PORT,...`` set the addresses.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

from game.bots import bot_names
from game.cli import UsageError
from net.discovery import DISCOVERY_PORT, discover, parse_address, parse_addresses
from net.headless import HeadlessOptions, JoinError, play_headless
from net.seats import SeatStore


def add_parser(sub: Any) -> None:
    p = sub.add_parser("join", help="join a LAN host as a scripted bot player, or list hosts")
    p.add_argument(
        "address", nargs="?", metavar="HOST:PORT", help="the host (port 7777 if omitted)"
    )
    p.add_argument("--table", default=None, help="table id (default: the first with a free seat)")
    p.add_argument("--bot", default="random", help="the bot that plays the seat")
    p.add_argument("--headless", action="store_true", help="no window: play with the bot")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.add_argument("--name", default="", help="seat name")
    p.add_argument("--seed", type=int, default=None, help="the bot's seed")
    p.add_argument(
        "--budget", type=float, default=None, help="CPU seconds per decision (search bots)"
    )
    p.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for a free seat")
    p.add_argument(
        "--reconnect",
        type=float,
        default=60.0,
        metavar="S",
        help="seconds to keep trying to get back to the seat after the connection dropped "
        "(0: do not)",
    )
    p.add_argument(
        "--delay", type=int, default=0, metavar="MS", help="pause before each action (ms)"
    )
    p.add_argument(
        "--fresh",
        action="store_true",
        help="take a free seat even if this computer kept one at this host from an earlier run",
    )
    p.add_argument("--discover", action="store_true", help="list hosts on the LAN and exit")
    p.add_argument("--listen", default=f":{DISCOVERY_PORT}", help="discovery: where to listen")
    p.add_argument("--probe", default="", help="discovery: where to send probes (comma list)")
    p.add_argument("--seconds", type=float, default=2.5, help="discovery: how long to listen")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.discover:
        return _discover(args)
    if not args.address:
        raise UsageError("give the host as HOST:PORT (or use --discover)")
    try:
        host, port = parse_address(args.address, 7777)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if not args.headless:
        raise UsageError(
            "the game window joins hosts from its menu (lantern, then 'Join a LAN game'); "
            "add --headless to play from the command line with a bot"
        )
    if args.bot not in bot_names():
        raise UsageError(f"unknown bot {args.bot!r}; known bots: {', '.join(bot_names())}")
    if not 0 <= args.delay <= 60_000:
        raise UsageError("--delay must be from 0 to 60000 ms")
    if not 0 <= args.reconnect <= 24 * 3600:
        raise UsageError("--reconnect must be from 0 to 86400 seconds")
    store = SeatStore()
    opts = HeadlessOptions(
        table=args.table,
        bot=args.bot,
        name=args.name,
        seed=args.seed,
        budget=args.budget,
        join_timeout=args.timeout,
        store=store,
        take_back=not args.fresh,
        reconnect=args.reconnect,
        delay=args.delay / 1000,
    )
    try:
        result = asyncio.run(play_headless(host, port, opts))
    except JoinError as exc:
        text = str(exc) if exc.mismatch is None else _mismatch(exc.mismatch, host)
        print(f"lantern join: {text}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result), flush=True)
    else:
        totals = " ".join(f"#{s}={sc['total']}" for s, sc in enumerate(result["scores"]))
        print(
            f"{result['game']} table {result['table']}, seat {result['seat']}: {totals}  "
            f"winners {result['winners']}  ({result['actions']} actions, "
            f"{result['seconds']:.2f}s)"
        )
    return 0


def _mismatch(mismatch: Any, host: str) -> str:
    """Why this program cannot play with the host's, in the player's language (the window's
    setting, else the system's; ``net.versions``)."""
    from game.core.match import clean_text
    from game.ui.i18n import set_language
    from game.ui.settings import Settings
    from net.versions import describe

    set_language(Settings.load().language)
    return clean_text(describe(mismatch, host))


def _discover(args: argparse.Namespace) -> int:
    try:
        host, port = parse_address(args.listen, DISCOVERY_PORT, any_host=True)
        probes = parse_addresses(args.probe, 7777)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    try:
        hosts = discover((host, port), probes, args.seconds)
    except OSError as exc:
        print(f"lantern join: cannot listen on {host or '*'}:{port}: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps([h.to_dict() for h in hosts]), flush=True)
    elif not hosts:
        print("no hosts heard")
    else:
        for h in hosts:
            tables = ", ".join(f"{t['table']} {t['game']} ({t['open']} open)" for t in h.tables)
            print(f"{h.address}:{h.port}  {h.name}  {tables or 'no tables'}")
    return 0
