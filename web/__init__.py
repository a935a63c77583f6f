"""Deckhand on the web: read-only pages of a server's tables, tournaments, leaderboards and players, plus
``/healthz`` and ``/metrics``. A presenter beside ``cogs/``: it formats ``host``'s read models
(``host/web.py``) and never imports ``cogs``, ``data`` or ``discord``."""
