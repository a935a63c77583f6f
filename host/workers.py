"""Worker processes started when first needed, replaced when broken or hung, stopped at close: the lifecycle
the bots' searches (``host.thinking``) and the large fields' pairings (``host.pairing``) share.

Spawned, never forked: the bot's process runs an event loop and threads that a fork would copy mid-flight.
Each worker runs ``render.pool.worker_start``, at a priority ``niceness`` below the bot's, so a member's
click (its picture drawn in a render worker) never waits behind a search or a pairing.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor

from render.pool import worker_start


class WorkerProcesses:
    def __init__(self, count: int, niceness: int, name: str) -> None:
        self.count = count
        self.niceness = niceness
        #: What the pool is, for its refusal once closed ("the bot pool is closed").
        self.name = name
        #: The running executor; None until the first job, and again after a discard.
        self.executor: ProcessPoolExecutor | None = None
        self.closed = False

    @property
    def started(self) -> bool:
        return self.executor is not None

    def get(self) -> ProcessPoolExecutor:
        """The running executor, started now if there is none; refused once closed."""
        if self.closed:
            raise RuntimeError(f"the {self.name} is closed")
        if self.executor is None:
            self.executor = ProcessPoolExecutor(self.count, mp_context=multiprocessing.get_context("spawn"),
                                                initializer=worker_start, initargs=(self.niceness,))
        return self.executor

    def discard(self) -> None:
        """Stop the executor (waiting for its workers to exit); the next ``get`` starts a fresh one."""
        executor, self.executor = self.executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)

    def kill(self) -> None:
        """Kill the workers at once (a hung job never returns); the next ``get`` starts a fresh one."""
        executor, self.executor = self.executor, None
        if executor is None:
            return
        for process in list(getattr(executor, "_processes", {}).values()):
            process.kill()
        executor.shutdown(wait=False, cancel_futures=False)

    def close(self) -> None:
        """Stop the workers and refuse further jobs; safe to call twice."""
        self.closed = True
        self.discard()
