"""Bots think off the event loop: a process pool that turns a table snapshot into a bot's move.

No discord and no database here: the caller passes the game id, the state's dump, the seat, the
salt (table seed plus version, so a restart re-computes the same move) and the level, and applies
the returned action through the usual write-ahead path with its version check.

Search levels run in worker processes, one per core: a ``hard`` bot thinks for up to about a second
of CPU, which on the event loop would stall every other table. ``random`` and ``easy`` moves cost
well under a few milliseconds and are computed inline, with no pickling or process start.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from engines import get_engine
from engines.bots import BOT_LEVELS, bot_action
from host.metrics import Recorder
from host.workers import WorkerProcesses

#: How much lower than the bot's the thinking workers' priority is (see ``host.workers``).
THINKING_NICENESS = 10

#: Levels cheap enough to compute on the caller's thread.
INLINE_LEVELS = frozenset({"random", "easy"})
#: The level whose move a seat plays when its search ran past the time limit.
FALLBACK_LEVEL = "easy"
#: Seconds a search may take (BOT_TIME_LIMIT) before its worker is killed and replaced.
TIME_LIMIT = 30.0

log = logging.getLogger(__name__)


def _expire(loop: asyncio.AbstractEventLoop, expired: asyncio.Future[None]) -> None:
    """The time limit's thread: settle ``expired`` on its loop (unless the loop is gone)."""
    with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody waits any more
        loop.call_soon_threadsafe(lambda: expired.done() or expired.set_result(None))


def _quietly(future: asyncio.Future[str]) -> None:
    if not future.cancelled():
        future.exception()  # retrieved, so asyncio does not log it as never retrieved


def pool_size() -> int:
    """Worker processes for this machine: one per CPU, at least one."""
    return max(1, os.cpu_count() or 1)


def think_now(game_id: str, snapshot: dict[str, Any], seat: int, salt: int, level: str) -> str:
    """The bot's move, computed here (what each worker runs)."""
    engine = get_engine(game_id)
    return bot_action(engine, engine.load(snapshot), seat, salt, level=level)


class BotPool:
    """A lazily started process pool for bot moves; ``close()`` stops its workers.

    Its workers are the bound on searches in flight: a table whose bot is due waits for a free worker,
    other tables' posts and clicks do not. A search that has not answered ``time_limit`` seconds after
    it was asked for (a hung or runaway worker) is given up: the pool's workers are killed and
    replaced, searches cut short by that are asked again, and the seat plays the ``easy`` move.
    """

    def __init__(self, workers: int | None = None, *, time_limit: float = TIME_LIMIT,
                 work: Callable[[str, dict[str, Any], int, int, str], str] = think_now,
                 recorder: Recorder | None = None) -> None:
        self.workers = workers if workers is not None else pool_size()
        if self.workers < 1:
            raise ValueError("a bot pool needs at least one worker")
        self.time_limit = time_limit
        #: What a worker runs (``think_now``; a test puts in one that never returns).
        self.work = work
        #: Told how long each move took to choose, by level (None: nobody is told).
        self.recorder = recorder
        # At a lower priority than the bot and its render workers: a bot's search can wait a moment, a
        # member's click (its picture drawn in a render worker) should not.
        self._workers = WorkerProcesses(self.workers, THINKING_NICENESS, "bot pool")
        #: Searches given up on, for the logs and the tests.
        self.cut = 0

    @property
    def _executor(self) -> ProcessPoolExecutor | None:
        """The running worker pool, if any (the tests look at its processes)."""
        return self._workers.executor

    @property
    def started(self) -> bool:
        return self._workers.started

    async def think(self, game_id: str, snapshot: dict[str, Any], seat: int, salt: int, level: str) -> str:
        start = time.perf_counter()
        try:
            return await self._think(game_id, snapshot, seat, salt, level)
        finally:
            if self.recorder is not None:
                self.recorder.bot_thought(level, time.perf_counter() - start)

    async def _think(self, game_id: str, snapshot: dict[str, Any], seat: int, salt: int, level: str) -> str:
        if level not in BOT_LEVELS:
            raise ValueError(f"unknown bot level {level!r}")
        if level in INLINE_LEVELS:
            return think_now(game_id, snapshot, seat, salt, level)
        try:
            executor = self._workers.get()
            try:
                return await self._search(executor, game_id, snapshot, seat, salt, level)
            except BrokenProcessPool:
                # A worker died (killed, out of memory, or cut for another search): think once more.
                if self._workers.executor is executor:
                    self._workers.discard()
                return await self._search(self._workers.get(), game_id, snapshot, seat, salt, level)
        except TimeoutError:
            self.cut += 1
            log.warning("a %s search for %s (seat %s) ran past %.0f s: its worker was replaced and the seat "
                        "plays the %s move", level, game_id, seat, self.time_limit, FALLBACK_LEVEL)
            self._workers.kill()
            return think_now(game_id, snapshot, seat, salt, FALLBACK_LEVEL)

    async def _search(self, executor: ProcessPoolExecutor, game_id: str, snapshot: dict[str, Any], seat: int,
                      salt: int, level: str) -> str:
        """The worker's answer, or TimeoutError once ``time_limit`` seconds of real time have passed.

        The limit is kept by a thread on the real clock, not by a timer of the event loop: a loop may run on a
        simulated clock (SimCord's), which does not move while the loop waits for a worker process, so a loop
        timer would never cut a search that never returns. On Discord both clocks are the same."""
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(executor, self.work, game_id, snapshot, seat, salt, level)
        expired: asyncio.Future[None] = loop.create_future()
        timer = threading.Timer(self.time_limit, _expire, (loop, expired))
        timer.daemon = True
        timer.start()
        try:
            await asyncio.wait((future, expired), return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            future.cancel()
            raise
        finally:
            timer.cancel()
        if future.done():
            return future.result()
        # Its worker is killed by the caller: the BrokenProcessPool that follows is expected, not an error.
        future.add_done_callback(_quietly)
        raise TimeoutError(f"the search ran past {self.time_limit:g} s")

    def close(self) -> None:
        """Stop the workers (waiting for them to exit) and refuse further work; safe to call twice."""
        self._workers.close()
