"""What the UI holds: a :class:`Connection` to a host, in-process or over TCP.

Both transports (:class:`net.local.LocalConnection`, :class:`net.client.TcpConnection`) carry
the same messages (``docs/protocol.md``) and behave the same way:

* :meth:`Connection.send` never blocks: the message is encoded at once (a value msgpack cannot
  encode raises ``TypeError`` right there, in the caller) and queued for the host;
* :meth:`Connection.poll` never blocks: it returns every message received since the last call,
  in order, as plain dicts (lists, never tuples — exactly what went over the wire), each one
  already checked by :func:`net.host_messages.validate_host` (its clean copy: every field the schema
  defines checked, text cleaned, undefined fields dropped).  A message that fails the check
  ends the connection: nothing after it is returned but the ``disconnected`` message below,
  whose ``reason`` says what was wrong;
* when the connection ends, for whatever reason, the last message :meth:`poll` returns is
  ``{"t": "disconnected", "reason": "...", "cause": CAUSE}`` — made by the transport, never
  sent by a host — and ``connected`` is false from then on.  ``cause`` names what happened
  (:class:`Cause`), so a window can say it in its own language; ``reason`` is the English
  sentence with the details;
* a TCP connection opened with a reconnect policy (``net.client.Reconnect``) that loses its
  link while seated at a table does not end: it says ``{"t": "reconnecting", "cause",
  "reason", "attempt", "retry_in"}`` after the drop and after every failed attempt, connects
  again with backoff, takes its place back (``hello``, then ``join {table, token}``) and says
  ``{"t": "reconnected", "attempts"}`` just before the host's ``joined``, ``lobby`` and
  ``state`` snapshot.  Messages sent while the link is down are dropped.

An optional ``wakeup`` callable, given when the connection is made, is called from the network
thread whenever a message arrives (for example to post a pygame user event); the UI must not
rely on it and polls every frame anyway.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

#: The transport-made last message of a connection.
DISCONNECTED = "disconnected"
#: Transport-made messages of a connection that re-makes its link (``net.client.Reconnect``).
RECONNECTING = "reconnecting"
RECONNECTED = "reconnected"
#: The ``n`` of the keep-alive pings a transport sends by itself (their pongs are not shown).
KEEPALIVE_N = -1

Wakeup = Callable[[], None]


class Connection(Protocol):
    """A connection to a host (see the module docstring)."""

    @property
    def connected(self) -> bool:
        """True until the connection has ended."""
        ...

    def send(self, msg: dict[str, Any]) -> None:
        """Queue one message for the host; never blocks."""
        ...

    def poll(self) -> list[dict[str, Any]]:
        """Every message received since the last call, oldest first; never blocks."""
        ...

    def close(self) -> None:
        """End the connection (the host keeps a started game's seat for the token)."""
        ...


class Cause:
    """Why a connection ended or is being made again (``cause`` of the messages above)."""

    #: This program closed it.
    CLOSED = "closed"
    #: The first connection could not be made (the address is wrong or nobody listens there).
    UNREACHABLE = "unreachable"
    #: The link broke; which side broke it is not known (yet).
    LOST = "lost"
    #: The host's computer refuses connections: the host program is not running any more.
    HOST_GONE = "host_gone"
    #: Nothing from the host for a while, or the network cannot reach it.
    NETWORK = "network"
    #: The host said it was shutting down.
    HOST_STOPPED = "host_stopped"
    #: The host ended this connection (silent too long, too many messages, too busy).
    DROPPED = "dropped"
    #: Back at the host, it no longer knows this seat (the game ended or the table is gone).
    SEAT_GONE = "seat_gone"
    #: Another connection took the seat with its token.
    REPLACED = "replaced"
    #: The table was closed (by its creator, or the host closed it).
    TABLE_CLOSED = "table_closed"
    #: The host sent something this client refuses (the reason says what).
    BAD_HOST = "bad_host"
    #: The host refused this client (another protocol version).
    REFUSED = "refused"


def disconnected(reason: str, cause: str = Cause.CLOSED) -> dict[str, Any]:
    return {"t": DISCONNECTED, "reason": reason, "cause": cause}
