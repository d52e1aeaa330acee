"""The host's install page: Lantern Table handed to every guest over the LAN, without internet.

A host that serves it (``lantern host --install-page``, or *Host a LAN game* in the window, where
it is on by default) runs a small read-only HTTP server next to the game: a page telling guests
the one command to run, and a package index in the "simple" layout pip understands (PEP 503),
holding the project's wheel and the wheels of its dependencies.  ``docs/install-page.md`` is the
readable version of this package.

* :mod:`net.install.wheelhouse` — the files served: a fixed catalogue made when the server
  starts (name -> path, size, sha256); a request only ever names a catalogue entry.
* :mod:`net.install.collect` — the running platform's wheels, made from what is installed
  (the project's own wheel built or rebuilt, its dependencies rebuilt from their installed
  files, checked against their ``RECORD``), cached in the user cache folder.
* :mod:`net.install.prepare` — ``lantern wheelhouse DIR``: download (online) the dependency
  wheels of every platform and Python version guests use.
* :mod:`net.install.http` — reading one request with its limits; :mod:`net.install.pages` —
  the HTML; :mod:`net.install.server` — the asyncio server with its connection limits;
  :mod:`net.install.service` — starting it beside a game host.
"""
