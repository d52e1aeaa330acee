"""What the UI holds: a :class:`Connection` to a host, in-process or over TCP.

Both transports (:class:`net.local.LocalConnection`, :class:`net.client.TcpConnection`) carry
the same messages (``docs/protocol.md``) and behave the same way:

* :meth:`Connection.send` never blocks: the message is encoded at once (a value msgpack cannot
  encode raises ``TypeError`` right there, in the caller) and queued for the host;
* :meth:`Connection.poll` never blocks: it returns every message received since the last call,
  in order, as plain dicts (lists, never tuples — exactly what went over the wire), each one
  already checked by :func:`net.protocol.validate_host` (its clean copy: every field the schema
  defines checked, text cleaned, undefined fields dropped).  A message that fails the check
  ends the connection: nothing after it is returned but the ``disconnected`` message below,
  whose ``reason`` says what was wrong;
* when the connection ends, for whatever reason, the last message :meth:`poll` returns is
  ``{"t": "disconnected", "reason": "..."}`` — made by the transport, never sent by a host —
  and ``connected`` is false from then on.

An optional ``wakeup`` callable, given when the connection is made, is called from the network
thread whenever a message arrives (for example to post a pygame user event); the UI must not
rely on it and polls every frame anyway.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

#: The transport-made last message of a connection.
DISCONNECTED = "disconnected"
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


def disconnected(reason: str) -> dict[str, Any]:
    return {"t": DISCONNECTED, "reason": reason}
