"""The window's game review: the graph, the turning points on the board, the Review scene's
pieces (:mod:`game.ui.scenes.review` is the scene).

* :mod:`game.ui.review.marks` — where a turn's actions are on a game's table (each game's
  ``game/ui/games/<game>/review.py`` says it), drawn as numbered rings;
* :mod:`game.ui.review.boards` — the table after the turn played and after the turn suggested;
* :mod:`game.ui.review.graph` — every seat's margin after every turn.
"""
