"""A real web server on a port, in a thread with its own event loop, over a SQLite file with a table and a
tournament in it: what the browser tests open and what the docs' screenshots show."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

from data.store import Store
from host.web import PublicSite
from tests.web.helpers import GUILD, PUBLIC, bot_event, new_table, pages_on, play, service
from web.app import WebServer, make_app

T = TypeVar("T")


class LiveServer:
    def __init__(self, path: str) -> None:
        self.path = path
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.rng = random.Random(5)
        self.ids: dict[str, int] = {}
        self.run(self._start())

    def run(self, work: Coroutine[Any, Any, T], timeout: float = 120) -> T:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(timeout)

    async def _start(self) -> None:
        self.store = await Store.open(self.path)
        self.tables = service(self.store)
        await self.store.set_channel_public(GUILD, PUBLIC, True)
        await pages_on(self.store)
        self.ids["table"] = await new_table(self.tables, "king_pedro", PUBLIC, 4)
        await play(self.tables, self.ids["table"], 14, self.rng)
        self.ids["event"] = await bot_event(self.store, self.tables, players=8, rounds=2, channel=PUBLIC)
        self.server = WebServer(make_app(PublicSite(self.store), live_interval=0.25), "127.0.0.1", 0)
        await self.server.start()
        self.url = f"http://127.0.0.1:{self.server.port}/s/{GUILD}"

    def move(self) -> int:
        """One random move at the table; its new version."""
        async def step() -> int:
            await play(self.tables, self.ids["table"], 1, self.rng)
            return (await self.tables.get(self.ids["table"])).version
        return self.run(step())

    def pages(self) -> dict[str, str]:
        return {"server": self.url, "table": f"{self.url}/tables/{self.ids['table']}",
                "tournament": f"{self.url}/tournaments/{self.ids['event']}", "player": f"{self.url}/players/101"}

    def close(self) -> None:
        async def stop() -> None:
            await self.server.stop()
            await self.store.close()
        self.run(stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
