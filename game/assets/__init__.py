"""Lantern Table's bundled assets (installed as the package ``game.assets``)."""
