"""``lantern host``: run a headless LAN host (several tables at once), logging what happens.

Players create and join tables from their clients.  For scripts and tests the host can open a
table itself::

    lantern host --bind 127.0.0.1 --port 0 --table kingdom-builder --players 4 \\
        --bots random,random --autostart --exit-when-done --json

``--bots`` gives seats to bots in order (``open`` or an empty item leaves a seat open: ``random,
open,random``); the remaining seats are open for players.  With ``--autostart`` the game starts
when every seat is taken; with ``--exit-when-done`` the host exits with code 0 once that game
has ended and its players have had the result.  ``--resume FILE`` continues a saved game
instead (its bot seats get their bots back; human seats wait for players).

``--install-page`` also serves the install page (``docs/install-page.md``) on
``--install-port`` (default 7780): guests install this very version of Lantern Table from it
with one command, without internet.  It serves the wheels of ``--wheelhouse DIR`` (default:
``<user data dir>/wheelhouse``, where ``lantern wheelhouse`` puts them) and this platform's
own wheels, made from what is installed here.

Standard output: the line ``listening on HOST:PORT`` (with ``--json``: one JSON object per
event, ``{"event": "listening", "host", "port", "udp_port", "tables"}``; with
``--install-page``, once it serves, ``install page on URL`` / ``{"event": "install_page", "url",
"port", "files", "megabytes", "notes"}``; and, at the end of an ``--exit-when-done`` game, ``{"event": "game_over", "game", "seed", "players", "bots", "scores",
"winners", "actions", "seconds", "table", "save"}``).  The log goes to standard error.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import signal
import sys
import time
from pathlib import Path
from typing import Any

from game.bots import bot_names
from game.cli import UsageError
from game.commands.common import parse_options, resolve_game
from game.core.match import Replay
from game.core.types import BadState
from net.discovery import (
    DISCOVERY_PORT,
    Address,
    Announcer,
    default_announce_targets,
    is_loopback,
    parse_addresses,
)
from net.host import HOST_SWITCH_INTERVAL, HostConfig, TcpHost
from net.hub import Hub
from net.install.server import DEFAULT_PORT as DEFAULT_INSTALL_PORT
from net.protocol import ProtocolError
from net.session import Session


def add_parser(sub: Any) -> None:
    p = sub.add_parser("host", help="run a headless LAN host")
    p.add_argument("--port", type=int, default=7777, help="TCP port (0: any free port)")
    p.add_argument("--bind", default="0.0.0.0", help="address to listen on (default 0.0.0.0)")
    p.add_argument("--name", default="", help="host name shown to players (default: bind address)")
    p.add_argument("--table", metavar="GAME", help="open a table of this game at start")
    p.add_argument("--players", type=int, help="seats of the --table")
    p.add_argument("--bots", default="", help="bot names for the first seats (comma list)")
    p.add_argument("--options", default=None, help="game options of the --table (JSON)")
    p.add_argument("--seed", type=int, default=None, help="seed of the --table's game")
    p.add_argument("--autostart", action="store_true", help="start when every seat is taken")
    p.add_argument("--exit-when-done", action="store_true", help="exit once the game has ended")
    p.add_argument("--resume", metavar="FILE", help="continue a saved game")
    p.add_argument("--allow-hints", action="store_true", help="let players ask for hints")
    p.add_argument("--bot-delay", type=int, default=0, metavar="MS", help="pause before bot moves")
    p.add_argument(
        "--bot-threads",
        action="store_true",
        help="think for bots and hints in threads of the host process instead of worker "
        "processes (the default keeps the host's own core free for players' actions)",
    )
    p.add_argument("--bot-process", action="store_true", help=argparse.SUPPRESS)  # the default
    p.add_argument("--save-dir", default=None, help="autosave folder (default: user data dir)")
    p.add_argument("--no-autosave", action="store_true", help="do not write autosaves")
    p.add_argument(
        "--announce",
        default=None,
        metavar="ADDR[:PORT],...",
        help="where to send LAN beacons (default: broadcast, or 127.0.0.1 on a loopback bind)",
    )
    p.add_argument("--no-announce", action="store_true", help="no LAN discovery")
    p.add_argument("--idle-timeout", type=float, default=60.0, help="drop silent clients (s)")
    p.add_argument(
        "--install-page",
        action="store_true",
        help="serve the install page: guests install this version from it with one command",
    )
    p.add_argument(
        "--install-port",
        type=int,
        default=DEFAULT_INSTALL_PORT,
        help=f"TCP port of the install page (default {DEFAULT_INSTALL_PORT}; 0: any free port)",
    )
    p.add_argument(
        "--wheelhouse",
        default=None,
        metavar="DIR",
        help="wheels to serve on the install page (default: the one 'lantern wheelhouse' made)",
    )
    p.add_argument("--json", action="store_true", help="JSON lines on standard output")
    p.add_argument("--quiet", action="store_true", help="log warnings only")
    p.set_defaults(func=run)


def _bot_list(spec: str, players: int) -> list[str | None]:
    items = [s.strip() for s in spec.split(",")] if spec.strip() else []
    if len(items) > players:
        raise UsageError(f"--bots names {len(items)} seats but the table has {players}")
    known = bot_names()
    out: list[str | None] = []
    for item in items:
        if item in ("", "open", "-"):
            out.append(None)
        elif item in known:
            out.append(item)
        else:
            raise UsageError(f"unknown bot {item!r}; known bots: {', '.join(known)}")
    return out


def _check(args: argparse.Namespace) -> None:
    if not 0 <= args.port < 65536:
        raise UsageError("--port must be from 0 to 65535")
    if args.table and args.resume:
        raise UsageError("use either --table or --resume, not both")
    if args.table and args.players is None:
        raise UsageError("--table needs --players")
    if not args.table and (args.players is not None or args.bots or args.options):
        raise UsageError("--players, --bots and --options describe a --table")
    if args.exit_when_done and not (args.table or args.resume):
        raise UsageError("--exit-when-done needs a --table or --resume game")
    if not 0 <= args.bot_delay <= 10_000:
        raise UsageError("--bot-delay must be from 0 to 10000 ms")
    if args.idle_timeout <= 0:
        raise UsageError("--idle-timeout must be positive")
    if not 0 <= args.install_port < 65536:
        raise UsageError("--install-port must be from 0 to 65535")
    if args.wheelhouse is not None and not Path(args.wheelhouse).is_dir():
        raise UsageError(f"--wheelhouse {args.wheelhouse}: no such folder")


def _targets(args: argparse.Namespace) -> list[Address]:
    if args.no_announce:
        return []
    if args.announce is None:
        return default_announce_targets(args.bind)
    try:
        return parse_addresses(args.announce, DISCOVERY_PORT)
    except ValueError as exc:
        raise UsageError(f"--announce: {exc}") from None


def run(args: argparse.Namespace) -> int:
    _check(args)
    replay = None
    bots: list[str | None] = []
    options: dict[str, Any] = {}
    if args.table:
        resolve_game(args.table, args.players)
        bots = _bot_list(args.bots, args.players)
        options = parse_options(args.options)
    if args.resume:
        try:
            replay = Replay.load(args.resume)
        except BadState as exc:
            raise UsageError(f"{args.resume}: {exc}") from None
    targets = _targets(args)
    sys.setswitchinterval(HOST_SWITCH_INTERVAL)
    logging.basicConfig(
        level=logging.WARNING if args.quiet else logging.INFO,
        format="lantern host: %(message)s",
        stream=sys.stderr,
    )
    hub = Hub(
        host_name=args.name or (args.bind if not is_loopback(args.bind) else "localhost"),
        save_dir=Path(args.save_dir) if args.save_dir else None,
        autosave=not args.no_autosave,
        allow_hints=args.allow_hints,
        bot_process=not args.bot_threads,
    )
    try:
        return asyncio.run(_serve(args, hub, replay, bots, options, targets))
    except UsageError:
        hub.shutdown()
        raise


def _emit(args: argparse.Namespace, event: dict[str, Any], text: str) -> None:
    print(json.dumps(event) if args.json else text, flush=True)


async def _serve(
    args: argparse.Namespace,
    hub: Hub,
    replay: Replay | None,
    bots: list[str | None],
    options: dict[str, Any],
    targets: list[Address],
) -> int:
    loop = asyncio.get_running_loop()
    done = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, done.set)
    finished: list[Session] = []
    started = time.perf_counter()
    table: Session | None = None

    def on_game_over(over: Session) -> None:
        if args.exit_when_done and over is table:
            finished.append(over)
            done.set()

    hub.on_game_over.append(on_game_over)
    server = TcpHost(
        hub, HostConfig(bind=args.bind, port=args.port, idle_timeout=args.idle_timeout)
    )
    try:
        await server.start()
    except OSError as exc:
        raise UsageError(
            f"cannot listen on {args.bind}:{args.port}: {exc.strerror or exc}"
        ) from None
    announcer: Announcer | None = None
    page: Any = None
    try:
        try:
            if replay is not None:
                table = hub.resume_table(
                    replay,
                    bot_delay_ms=args.bot_delay,
                    allow_hints=args.allow_hints,
                    path=Path(args.resume),
                    keep_tokens=True,  # its players reconnect to their seats
                )
            elif args.table:
                table = hub.create_table(
                    args.table,
                    args.players,
                    options,
                    seed=args.seed,
                    autostart=args.autostart,
                    bots=bots,
                    bot_delay_ms=args.bot_delay,
                    pinned=True,
                )
        except BadState as exc:
            raise UsageError(f"{args.resume}: {exc}") from None
        except ProtocolError as exc:
            raise UsageError(exc.text) from None
        if targets:
            announcer = Announcer(hub.host_name, server.port, hub.summaries, targets)
            await announcer.start(args.bind, server.port)
        _emit(
            args,
            {
                "event": "listening",
                "host": args.bind,
                "port": server.port,
                "udp_port": announcer.udp_port if announcer else None,
                "tables": [t.table_id for t in hub.tables.values()],
            },
            f"listening on {args.bind}:{server.port}",
        )
        if args.install_page:
            page = await _start_install_page(args, hub, server.port)
        if table is not None and table.over:
            finished.append(table)
            done.set()
        await done.wait()
        if finished:
            over = finished[0]
            await _let_clients_leave(hub, over)
            _report(args, hub, over, time.perf_counter() - started)
    finally:
        if page is not None:
            await page.stop()
        if announcer is not None:
            announcer.close()
        await server.stop()
    return 0


async def _start_install_page(args: argparse.Namespace, hub: Hub, game_port: int) -> Any:
    """Serve the install page beside the game (``net.install.service``) and say where."""
    from game.ui.lan import lan_addresses
    from net.install import service
    from net.versions import install_url

    prepared = [Path(args.wheelhouse)] if args.wheelhouse else [service.default_wheelhouse()]
    try:
        page = await service.start(hub, args.bind, args.install_port, game_port, prepared)
    except OSError as exc:
        raise UsageError(
            f"cannot serve the install page on {args.bind}:{args.install_port}: "
            f"{exc.strerror or exc}"
        ) from None
    house = page.server.wheelhouse
    url = install_url(lan_addresses(args.bind)[0], page.port)
    _emit(
        args,
        {
            "event": "install_page",
            "url": url,
            "port": page.port,
            "files": len(house.entries),
            "megabytes": round(house.total_bytes() / 1e6, 1),
            "notes": page.server.notes,
        },
        f"install page on {url} ({len(house.entries)} files, "
        f"{house.total_bytes() / 1e6:.1f} MB): pip install --index-url {url}simple/ "
        "lantern-table",
    )
    return page


async def _let_clients_leave(hub: Hub, table: Session, grace: float = 3.0) -> None:
    """Give the table's clients a moment to receive the result and hang up."""
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        extras = hub.extras.get(table.table_id)
        if extras is None or not extras.members:
            return
        await asyncio.sleep(0.05)


def _report(args: argparse.Namespace, hub: Hub, table: Session, seconds: float) -> None:
    save = hub.save_path(table.table_id)
    scores = table.state.scores()
    record: dict[str, Any] = {
        "event": "game_over",
        "game": table.game.id,
        "seed": table.seed,
        "players": table.players,
        "bots": [s.bot or s.kind for s in table.seats],
        "scores": scores,
        "winners": table.state.winners(),
        "actions": len(table.replay.actions),
        "seconds": round(seconds, 4),
        "table": table.table_id,
        "save": str(save) if save is not None else None,
    }
    totals = " ".join(f"#{s}={sc['total']}" for s, sc in enumerate(scores))
    _emit(args, record, f"game over: {totals}  winners {record['winners']}")
