"""The in-process host's tables: a hot-seat or bot game started on this computer
(:func:`start_local_game`) and a saved game continued (:func:`resume_local_game`).

Each opens a :class:`net.local.LocalHost`, joins one connection per human seat played here (each
with its own seat token) and, for a table of several local seats or of bots only, a spectator
connection that feeds the log and the animations with public events; what it returns is the
same :class:`~game.ui.client.TableClient` a LAN game gets (``docs/ui.md``, "Hot-seat").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from game.ui.client import (
    Conn,
    SeatSpec,
    TableClient,
    _hello,
    bot_delay_ms,
    colour_plan,
    history_events,
)


def start_local_game(
    game_id: str,
    seats: list[SeatSpec],
    options: dict[str, Any],
    *,
    seed: int | None = None,
    bot_delay: int | None = None,
    save_dir: str | None = None,
    wakeup: Callable[[], None] | None = None,
) -> TableClient:
    """Open an in-process host and a table for a hot-seat / bot game, and start it.

    The first human seat creates the table (or a spectator, when every seat is a bot); once
    the host answers ``joined``, bot seats are set up, the other human seats join on their own
    connections, names and colours are set, and the game starts.  Everything after the first
    answer is sent at once: the host handles messages in the order they were sent.
    ``wakeup`` is called (from the host's thread) whenever a message arrives.
    """
    from net.local import LocalHost

    # Bots think in a worker process, so the window keeps its 60 frames a second while a hard
    # bot searches (in a thread it would share the interpreter lock with the drawing).
    bots = any(s.kind == "bot" for s in seats)
    host = (
        LocalHost(save_dir=save_dir, bot_process=bots) if save_dir else LocalHost(bot_process=bots)
    )
    humans = [i for i, s in enumerate(seats) if s.kind == "human"]
    first: int | None = humans[0] if humans else None
    conn = host.connect(wakeup)
    first_name = seats[first].name if first is not None else "Spectator"
    conn.send(_hello(first_name))
    create: dict[str, Any] = {
        "t": "create_table",
        "game": game_id,
        "players": len(seats),
        "options": options,
        "bot_delay_ms": bot_delay_ms() if bot_delay is None else bot_delay,
    }
    if seed is not None:
        create["seed"] = seed
    if first is None:
        create["spectate"] = True
    else:
        create["seat"] = first
    conn.send(create)
    client = TableClient(game_id, {first: conn}, local_host=host)

    def joined(client: TableClient, key: int | None, msg: dict[str, Any]) -> None:
        if key != first or client.on_joined is None:
            return
        client.on_joined = None
        table = msg["table"]
        owner = client.conns[first]
        from net.seat_rules import COLOURS

        for i, spec in enumerate(seats):
            if spec.kind == "bot":
                owner.send({"t": "set_seat", "seat": i, "kind": "bot", "bot": spec.bot})
                owner.send({"t": "set_seat", "seat": i, "name": spec.name})
        if first is not None:
            owner.send({"t": "set_seat", "seat": first, "name": seats[first].name})
        for i in humans[1:]:
            c = host.connect(wakeup)
            client.conns[i] = c
            c.send(_hello(seats[i].name))
            c.send({"t": "join", "table": table, "seat": i, "name": seats[i].name})
        # The chosen colours, in an order in which no two seats ever hold one colour.
        for i, colour in colour_plan([s.colour for s in seats], COLOURS):
            sender = client.conns[i] if seats[i].kind == "human" else owner
            sender.send({"t": "set_seat", "seat": i, "colour": colour})
        for i in humans[1:]:
            client.conns[i].send({"t": "ready"})
        if len(humans) > 1:
            client.conns[None] = _spectator(host, table, wakeup)
        owner.send({"t": "start"})

    client.on_joined = joined
    return client


def resume_local_game(
    path: str,
    local_seats: list[int] | None = None,
    wakeup: Callable[[], None] | None = None,
) -> TableClient:
    """Continue a saved game in an in-process host, in the same file: every human seat of the
    save is played on this computer (bots keep their bots); the log is rebuilt from the save.
    Raises ``BadState`` for a bad file."""
    from game.core.match import Replay
    from net.local import LocalHost

    replay = Replay.load(path)
    host = LocalHost(bot_process=any((s or {}).get("kind") == "bot" for s in replay.seats))
    try:
        table = host.resume(path)
    except Exception:
        host.close()
        raise
    humans = [
        i
        for i, info in enumerate(replay.seats)
        if (info or {}).get("kind", "human") != "bot" and (local_seats is None or i in local_seats)
    ]
    conns: dict[int | None, Conn] = {}
    if not humans:
        c = host.connect(wakeup)
        c.send(_hello("Spectator"))
        c.send({"t": "join", "table": table, "spectate": True})
        conns[None] = c
    for i in humans:
        c = host.connect(wakeup)
        name = (replay.seats[i] or {}).get("name") or f"#{i + 1}"
        c.send(_hello(name))
        c.send({"t": "join", "table": table, "seat": i, "name": name})
        conns[i] = c
    if len(humans) > 1:
        conns[None] = _spectator(host, table, wakeup)
    client = TableClient(replay.game, conns, local_host=host, table_id=table)
    client.history = history_events(replay, humans[0] if len(humans) == 1 else None)
    return client


def _spectator(host: Any, table: str, wakeup: Callable[[], None] | None = None) -> Conn:
    """A spectator connection to ``table`` (hot-seat: what everyone at the screen may see)."""
    c: Conn = host.connect(wakeup)
    c.send(_hello("Table"))
    c.send({"t": "join", "table": table, "spectate": True})
    return c
