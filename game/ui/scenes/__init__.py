"""The client's scenes: menus, setup, lobby, join, the game table, results, replays, settings,
and the overlays (help, hot-seat curtain, confirmation, in-game menu)."""
