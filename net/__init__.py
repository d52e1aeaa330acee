"""LAN play and the in-process host: one authoritative host for every kind of game.

* :mod:`net.protocol` — frames, message shapes, limits, error codes (``docs/protocol.md``);
* :mod:`net.session` — one table: seats, lobby rules, actions, undo, saves;
* :mod:`net.hub` — every table and connection of a host, bots and autosaves, on one loop;
* :mod:`net.host` — the TCP server; :mod:`net.local` — the in-process host (hot-seat, bots);
* :mod:`net.client` — the TCP client for the UI, an asyncio client, the headless bot player;
* :mod:`net.connection` — the ``Connection`` API both transports give the UI;
* :mod:`net.discovery` — UDP beacons and probes for finding hosts on the LAN.
"""
