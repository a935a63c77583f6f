"""``python -m web``: the pages in a process of their own, reading the bot's database.

On SQLite the file is opened read-only (the bot must have created it); on PostgreSQL (``DATABASE_URL``)
nothing is migrated or written. Several can run behind a proxy. ``/healthz`` checks the database alone.
It starts only on a database at this build's schema (the bot migrates it): else one line and exit code 2.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import signal
import sys

from host.web import PublicSite, SchemaMismatch
from web.app import WebServer, make_app
from web.config import WebSettings
from web.logs import setup_logging

log = logging.getLogger("deckhand.web")


async def serve(settings: WebSettings) -> None:
    from host.web import open_site

    site = await open_site(settings.database)
    # What exists now lives as long as the process: out of the cyclic collector's sight, so its full
    # collections stay short (as the bot does at start, bot.freeze_start_up_heap).
    gc.collect()
    gc.freeze()
    gc.set_threshold(7000, *gc.get_threshold()[1:])
    server = WebServer(make_app(site, public_url=settings.public_url), settings.host, settings.port or 8080)
    await server.start()
    print(f"Deckhand web pages at http://{settings.host}:{server.port}/ (database {site.store.path})", flush=True)
    stop = asyncio.get_running_loop().create_future()
    for sig in (signal.SIGINT, signal.SIGTERM):
        asyncio.get_running_loop().add_signal_handler(sig, lambda: stop.done() or stop.set_result(None))
    try:
        await stop
    finally:
        await server.stop()
        await site.store.close()


def main() -> int:
    try:
        from dotenv import load_dotenv

        load_dotenv()
    except ImportError:
        pass
    setup_logging(os.environ.get("LOG_LEVEL", "INFO"), os.environ.get("LOG_FORMAT", "text"))
    try:
        asyncio.run(serve(WebSettings.from_env()))
    except SchemaMismatch as exc:
        # One clear line and a failing exit, so that a deploy script or a supervisor stops here.
        print(f"python -m web: {exc}", file=sys.stderr, flush=True)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

__all__ = ["PublicSite", "main", "serve"]
