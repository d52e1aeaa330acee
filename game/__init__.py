"""Lantern Table: board games for LAN parties, hot-seat play and bots.

Packages: :mod:`game.core` (the engine contract), one package per game
(:mod:`game.kingdom_builder`, ...), :mod:`game.bots` and :mod:`game.ui` (the pygame-ce client).
"""

__version__ = "0.2.0"
