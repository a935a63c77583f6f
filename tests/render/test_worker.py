"""A render worker fed and read by the event loop's own thread: answers in order, failures returned, no thread."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import threading
from collections.abc import Iterator
from concurrent.futures.process import BrokenProcessPool

import pytest

from render.pool import worker_start
from render.worker import Worker


def echo(value: object) -> object:
    return value


def fail(message: str) -> None:
    raise ValueError(message)


def big(size: int) -> bytes:
    return b"x" * size


def own_pid() -> int:
    return os.getpid()


@pytest.fixture
def worker() -> Iterator[Worker]:
    started = Worker(worker_start)
    try:
        yield started
    finally:
        started.close()


async def test_answers_come_back_in_order_through_the_loop_and_no_thread_is_started(worker: Worker) -> None:
    threads = threading.active_count()
    loop = asyncio.get_running_loop()
    futures = [loop.create_future() for _ in range(30)]
    for i, future in enumerate(futures):
        # Larger than a pipe holds (64 KB) both ways: written and read in pieces by the loop's callbacks.
        worker.ask(big if i % 3 == 0 else echo, (300_000,) if i % 3 == 0 else (i,), future)
    answers = await asyncio.wait_for(asyncio.gather(*futures), 60)
    assert answers == [b"x" * 300_000 if i % 3 == 0 else i for i in range(30)]
    assert threading.active_count() == threads, "no helper thread reads or writes the pipe"


async def test_a_failure_is_the_askers_exception_and_the_worker_goes_on(worker: Worker) -> None:
    loop = asyncio.get_running_loop()
    failed, after = loop.create_future(), loop.create_future()
    worker.ask(fail, ("no such card",), failed)
    worker.ask(echo, ("next",), after)
    with pytest.raises(ValueError, match="no such card"):
        await asyncio.wait_for(failed, 60)
    assert await after == "next"


async def test_a_worker_that_dies_fails_what_it_held(worker: Worker) -> None:
    loop = asyncio.get_running_loop()
    pid = loop.create_future()
    worker.ask(own_pid, (), pid)
    os.kill(await asyncio.wait_for(pid, 60), 9)
    held = loop.create_future()
    try:
        worker.ask(echo, (1,), held)
    except BrokenProcessPool:
        pass  # seen dead already: refused at once
    else:
        with pytest.raises(BrokenProcessPool):
            await asyncio.wait_for(held, 60)
    assert worker.dead


def test_without_an_event_loop_the_asker_waits_for_the_answer(worker: Worker) -> None:
    future: concurrent.futures.Future[object] = concurrent.futures.Future()
    worker.ask(echo, ("warm",), future)
    worker.wait(60)
    assert future.result(timeout=0) == "warm"
