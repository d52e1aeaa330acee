"""The pygame-ce client of Lantern Table.

The window (:mod:`game.ui.app`) owns the main thread and runs a stack of scenes
(:mod:`game.ui.scenes`): menus, setup, lobby, the game table, results, the replay viewer and the
settings, with overlays (help, the hot-seat curtain, confirmations) pushed on top.  Each game
draws its own table through a :class:`game.ui.games.base.GameView` chosen by game id.

The client never decides a rule.  It shows the view the host sends for a seat, highlights the
actions in that seat's ``legal`` list, and sends back the one the player picks.  Every game —
hot-seat, against bots, over the LAN — goes through a ``net`` connection.

Nothing here is imported before the window needs it: start-up time matters (first frame in
well under half a second), so engines, bots and the network load lazily.
"""
