"""Background work that outlives the coroutine that started it: kept referenced, logged, cancelled at stop.

A task nobody holds can be collected mid-flight, and its failure goes unseen. ``Tasks.spawn`` keeps
each task until it ends, logs its failure, and ``close`` cancels what is left and waits for it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

log = logging.getLogger(__name__)


class Tasks:
    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()
        self.closed = False

    def spawn(self, work: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any] | None:
        if self.closed:
            work.close()
            return None
        task = asyncio.create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            exc = task.exception()
            log.error("background work %s failed", task.get_name(), exc_info=(type(exc), exc, exc.__traceback__))

    def __len__(self) -> int:
        return len(self._tasks)

    async def close(self) -> None:
        self.closed = True
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
