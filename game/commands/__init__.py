"""One module per ``lantern`` subcommand (see :mod:`game.cli`)."""
