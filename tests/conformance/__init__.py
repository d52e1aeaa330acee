"""The conformance kit: the rules of the engine contract, checked on every registered game.

Each test here runs over :func:`game.core.registry.registered_ids` — every game the program
ships and the framework's test game (``tests/testgame``) — so a new game is checked the moment
it is registered.  The rules are those of ``docs/architecture.md``, "Rules of the contract".
"""
