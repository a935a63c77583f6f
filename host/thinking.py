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
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from engines import get_engine
from engines.bots import BOT_LEVELS, bot_action
from render.pool import worker_start

#: How much lower than the bot's the thinking workers' priority is (see ``BotPool._pool``).
THINKING_NICENESS = 10

#: Levels cheap enough to compute on the caller's thread.
INLINE_LEVELS = frozenset({"random", "easy"})


def pool_size() -> int:
    """Worker processes for this machine: one per CPU, at least one."""
    return max(1, os.cpu_count() or 1)


def think_now(game_id: str, snapshot: dict[str, Any], seat: int, salt: int, level: str) -> str:
    """The bot's move, computed here (what each worker runs)."""
    engine = get_engine(game_id)
    return bot_action(engine, engine.load(snapshot), seat, salt, level=level)


class BotPool:
    """A lazily started process pool for bot moves; ``close()`` stops its workers."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers if workers is not None else pool_size()
        if self.workers < 1:
            raise ValueError("a bot pool needs at least one worker")
        self._executor: ProcessPoolExecutor | None = None
        self._closed = False

    def _pool(self) -> ProcessPoolExecutor:
        if self._closed:
            raise RuntimeError("the bot pool is closed")
        if self._executor is None:
            # spawn, not fork: the host process runs an event loop and threads that a fork would copy mid-flight.
            # At a lower priority than the bot and its render workers: a bot's search can wait a moment, a
            # member's click (its picture drawn in a render worker) should not.
            self._executor = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=worker_start, initargs=(THINKING_NICENESS,))
        return self._executor

    @property
    def started(self) -> bool:
        return self._executor is not None

    async def think(self, game_id: str, snapshot: dict[str, Any], seat: int, salt: int, level: str) -> str:
        if level not in BOT_LEVELS:
            raise ValueError(f"unknown bot level {level!r}")
        if level in INLINE_LEVELS:
            return think_now(game_id, snapshot, seat, salt, level)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool(), think_now, game_id, snapshot, seat, salt, level)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): start a fresh pool and think once more.
            self._discard()
            return await loop.run_in_executor(self._pool(), think_now, game_id, snapshot, seat, salt, level)

    def _discard(self) -> None:
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)

    def close(self) -> None:
        """Stop the workers (waiting for them to exit) and refuse further work; safe to call twice."""
        self._closed = True
        self._discard()
