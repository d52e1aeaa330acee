"""The conformance kit: the rules of the engine contract, checked on every registered game.

Each test here runs over :func:`game.core.registry.registered_ids` — every game the program
ships and the framework's test game (``tests/testgame``) — so a new game is checked the moment
it is registered.  The rules are those of ``docs/architecture.md``, "Rules of the contract":
``test_kit.py`` (the rules on random games), ``test_capture.py`` (secrets over the wire: whole
games through a real host, every frame searched; ``capture.py`` plays them, ``leaks.py``
searches, ``game_secrets.py`` is where each game describes its secrets) and ``test_samples.py``
(determinized copies guess hidden items no better than chance).
"""
