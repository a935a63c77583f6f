"""Live pages: one server-sent-event stream per open page, and one watcher that looks at every watched table
and tournament in a single query each ``interval`` seconds (so 200 idle pages cost one small query, not 200
polls). The watcher runs only while some page is open; it reads the database, so it sees moves made by any
process (the bot, or another bot process behind the same proxy)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict, defaultdict
from collections.abc import Awaitable, Callable, Hashable
from typing import TYPE_CHECKING

from aiohttp import web

if TYPE_CHECKING:
    from host.web import PublicSite

log = logging.getLogger(__name__)

#: A comment line this often keeps proxies from closing an idle stream.
KEEPALIVE = 15.0

Key = tuple[str, int, int]  # ("t" table | "e" tournament, guild, id)

#: Live parts kept (one per table and stamp; a table's older stamps age out as it moves on).
PARTS_KEPT = 512


class Shared:
    """Each key's value built once and handed to every asker: 50 pages following a table that just moved
    all ask for its new live part within the same second; the first builds it (one read of the table, one
    rendering), the others wait for that build, and later askers get the kept bytes. A build that finds
    nothing (None: the page is gone) is not kept."""

    def __init__(self, size: int = PARTS_KEPT) -> None:
        self.size = size
        self.builds = 0
        self._kept: OrderedDict[Hashable, bytes] = OrderedDict()
        self._building: dict[Hashable, asyncio.Future[bytes | None]] = {}

    async def get(self, key: Hashable, build: Callable[[], Awaitable[bytes | None]]) -> bytes | None:
        kept = self._kept.get(key)
        if kept is not None:
            self._kept.move_to_end(key)
            return kept
        building = self._building.get(key)
        if building is None:
            building = asyncio.ensure_future(self._build(key, build))
            self._building[key] = building
            building.add_done_callback(lambda _: self._building.pop(key, None))
        # Shielded: one asker's closed connection must not cancel the build the others wait for.
        return await asyncio.shield(building)

    async def _build(self, key: Hashable, build: Callable[[], Awaitable[bytes | None]]) -> bytes | None:
        self.builds += 1
        value = await build()
        if value is not None:
            self._kept[key] = value
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return value


class Watcher:
    def __init__(self, site: PublicSite, interval: float = 0.5) -> None:
        self.site = site
        self.interval = interval
        #: Each open page's queue, with the stamp it last showed (its own: a page opened between two looks
        #: still hears of a change it has not seen).
        self._queues: dict[Key, dict[asyncio.Queue[str], str]] = defaultdict(dict)
        self._task: asyncio.Task[None] | None = None
        self._closed = False

    @property
    def watching(self) -> int:
        return sum(len(q) for q in self._queues.values())

    async def stream(self, request: web.Request, kind: str, guild: int, thing: int,
                     since: str) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store",
                                               "X-Accel-Buffering": "no"})
        await response.prepare(request)
        key = (kind, guild, thing)
        queue: asyncio.Queue[str] = asyncio.Queue()
        self._queues[key][queue] = since
        self._ensure_running()
        try:
            await response.write(b"retry: 1000\n\n")
            while not self._closed:
                try:
                    stamp = await asyncio.wait_for(queue.get(), KEEPALIVE)
                except TimeoutError:
                    await response.write(b": keepalive\n\n")
                    continue
                if stamp == "":
                    break
                await response.write(f"event: change\ndata: {stamp}\n\n".encode())
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self._queues[key].pop(queue, None)
            if not self._queues[key]:
                self._queues.pop(key, None)
        return response

    def _ensure_running(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while self._queues and not self._closed:
            try:
                await self.check()
            except Exception:
                log.warning("live pages: could not read the tables", exc_info=True)
            await asyncio.sleep(self.interval)

    async def check(self) -> None:
        """One look at every watched thing; a changed stamp goes to its open pages."""
        keys = list(self._queues)
        # A server that turned its pages off: its open streams end at once (they would still tell of moves).
        for guild in {k[1] for k in keys}:
            if not await self.site.pages_on(guild):
                for key in [k for k in keys if k[1] == guild]:
                    for queue in self._queues.get(key, {}):
                        queue.put_nowait("")
                keys = [k for k in keys if k[1] != guild]
        tables = [k[2] for k in keys if k[0] == "t"]
        stamps: dict[Key, str] = {}
        if tables:
            found = await self.site.stamps(0, tables)
            stamps.update({k: found.get(k[2], "gone") for k in keys if k[0] == "t"})
        for key in keys:
            if key[0] == "e":
                stamps[key] = await self.site.tournament_stamp(key[2])
        for key, stamp in stamps.items():
            pages = self._queues.get(key, {})
            for queue, seen in list(pages.items()):
                if seen != stamp:
                    pages[queue] = stamp
                    queue.put_nowait(stamp)

    async def close(self) -> None:
        self._closed = True
        for queues in self._queues.values():
            for queue in queues:
                queue.put_nowait("")
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
