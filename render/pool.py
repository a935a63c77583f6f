"""Table and hand images are drawn in worker processes, a lane for each core but one, a table always in the same lane.

An image costs a few milliseconds of CPU, most of it Python drawing code that holds the GIL. Drawn in
threads of the bot's own process, the images of a burst of moves at many tables queue behind each other
and behind the event loop for that one lock, and the machine's second core sits idle. In worker
processes they draw truly in parallel, and the event loop only pickles a plain view (a few kilobytes)
and receives the PNG.

Each lane is one worker process (``render.worker``: fed and read by the event loop's own thread, with no
helper thread waiting for the GIL), and a table's images go to its own lane (``key % lanes``)
while that lane is not busier than another: the worker's caches (card faces, laid-out text, the
compressed bands of the table's previous picture, see ``render.png``) then hold what that table drew
last time. When its lane has two images more in hand than another lane, the image goes to the least
busy lane instead: tables differ in cost (a five-player Pentawar table draws twice what a Do Over! one
does), and in a burst one lane would otherwise still be drawing long after the other went idle.

One core is left to the event loop. With as many lanes as cores, a burst of moves on two cores kept three
processes busy, and the kernel, sharing the cores out evenly, took the loop off its core for a worker's time
slice: a 1 ms timer fired 12-18 ms late at p99 (``bench.burst``, a dozen runs on both backends). With one lane the
loop has its core: 5.4-9.3 ms in four runs, for the same moves a second. Lowering the workers' priority instead
(niceness 10) did as much for the loop, but any other busy process on the machine then starved the pictures:
beside two CPU-bound jobs a table picture waited more than 5 s. On one core the one lane shares it.

The pool is shared by every bot of the process and started once: worker processes take about half a
second to start (spawned, never forked from a process that runs an event loop and threads), which a
test suite building hundreds of bots could not pay each time. ``close()`` stops the workers; the next
``draw`` starts them again.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import ctypes
import os
import signal
import sys
import threading
import time
import weakref
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from data.database import Turns
from render.worker import Worker

T = TypeVar("T")

#: Seconds a picture may take before its lane's worker is killed and replaced and the picture drawn again.
PICTURE_LIMIT = 10.0


class DrawingTimings(Protocol):
    """What the pool records (host/metrics.py's recorder has this and more): each picture's kind and time."""

    def picture_drawn(self, kind: str, seconds: float) -> None: ...


def lane_count() -> int:
    """A lane for each core but the event loop's, at least one."""
    return max(1, (os.cpu_count() or 1) - 1)


def worker_start(niceness: int = 0) -> None:
    """The start of a worker process of the bot's (render lanes here, bot players' in host/thinking.py).

    Ctrl-C reaches the whole process group: the bot stops its workers itself, without their tracebacks.
    A worker dies with the bot: killed (SIGKILL, out of memory), the bot closes nothing, and a worker left
    behind would hold its output pipes open and its CPU. ``niceness`` lowers the worker's priority."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent()
    if niceness:
        os.nice(niceness)


def _die_with_parent() -> None:
    if not sys.platform.startswith("linux"):
        return  # elsewhere a worker notices when its next read of the parent's pipe fails
    libc = ctypes.CDLL(None, use_errno=True)
    pr_set_pdeathsig = 1
    libc.prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
    if os.getppid() == 1:  # the parent died before prctl: nothing would ever signal us
        os._exit(0)


def _warm() -> int:
    """Import the renderers and load the fonts, so that a lane's first real image is not slow."""
    import render

    render.warm()
    return os.getpid()


class _Watch:
    """The pictures in hand in one event loop, each with the loop time at which it is overdue, and the one
    timer that cancels the earliest when its time comes (``RenderPool._within_limit``)."""

    def __init__(self) -> None:
        # No reference to its loop: the pool keeps one watch per loop, weakly, and a watch that held its loop
        # would keep every closed loop of a test run alive.
        self.deadlines: dict[asyncio.Future[Any], float] = {}
        self.overdue: set[asyncio.Future[Any]] = set()
        self.timer: asyncio.TimerHandle | None = None

    def arm(self) -> None:
        waiting = [deadline for future, deadline in self.deadlines.items() if future not in self.overdue]
        if self.timer is None and waiting:
            self.timer = asyncio.get_running_loop().call_at(min(waiting), self._expire)

    def disarm(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _expire(self) -> None:
        self.timer = None
        now = asyncio.get_running_loop().time()
        for future, deadline in list(self.deadlines.items()):
            if deadline <= now and not future.done():
                self.overdue.add(future)
                future.cancel()
        self.arm()  # at the next picture's limit, if any is left in hand


@dataclass
class Drawing(Generic[T]):
    """A picture handed to a lane (``RenderPool.submit``): what it draws, since when, and its result to come."""

    lane: int
    fn: Callable[..., T]
    args: tuple[Any, ...]
    start: float
    worker: Worker
    future: asyncio.Future[T]


class RenderPool:
    def __init__(self, lanes: int | None = None, *, time_limit: float = PICTURE_LIMIT,
                 recorder: DrawingTimings | None = None) -> None:
        self.lanes = lanes if lanes is not None else lane_count()
        self.time_limit = time_limit
        #: Told each picture's kind (``table_png`` draws a "table") and time (None: nobody is told).
        self.recorder = recorder
        #: Pictures whose worker was killed for taking too long.
        self.cut = 0
        if self.lanes < 1:
            raise ValueError("a render pool needs at least one lane")
        self._workers: list[Worker | None] = [None] * self.lanes
        #: Images asked of each lane and not yet returned (only touched on the event loop's thread).
        self.in_hand = [0] * self.lanes
        self._lock = threading.Lock()
        #: Taken after each picture arrives: pictures drawn together come back together, and each one's table
        #: message would otherwise be sent in the same turn of the event loop as all the others, holding every
        #: other click and timer meanwhile. The bot's store takes the same turns (bot.py gives it these).
        self.turns = Turns()
        #: Each event loop's watch over the pictures in hand (the pool outlives loops: tests run each bot in
        #: a loop of its own).
        self._watches: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Watch] = weakref.WeakKeyDictionary()

    def _lane(self, lane: int) -> Worker:
        with self._lock:
            worker = self._workers[lane]
            if worker is None or worker.dead:
                worker = self._workers[lane] = Worker(worker_start)
            return worker

    def start(self) -> list[concurrent.futures.Future[int]]:
        """Start every lane's worker and warm it (fonts loaded): each future gets its worker's pid. In an event
        loop they come back while it runs; without one, this waits for them (at most a minute)."""
        warmed: list[concurrent.futures.Future[int]] = []
        for lane in range(self.lanes):
            worker = self._lane(lane)
            future: concurrent.futures.Future[int] = concurrent.futures.Future()
            worker.ask(_warm, (), future)
            warmed.append(future)
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            for lane in range(self.lanes):
                self._lane(lane).wait(60.0)
        return warmed

    async def draw(self, key: int, fn: Callable[..., T], /, *args: Any) -> T:
        """``fn(*args)`` in the lane of ``key`` (a table id): ``fn`` and its arguments must pickle."""
        return await self.finish(self.submit(key, fn, *args))

    def submit(self, key: int, fn: Callable[..., T], /, *args: Any) -> Drawing[T]:
        """Hand ``fn(*args)`` to the lane of ``key`` now, before the caller next waits; ``finish`` waits for it.

        A coroutine or a task only starts at a later turn of the event loop, and in a burst of moves that turn
        comes after every other move's current step: a picture begun in a task reached its worker some 30 ms
        after the move was committed (``cogs.pictures.EarlyPictures`` submits here instead). A drawing nobody
        finishes is drawn all the same and its result dropped."""
        lane = self.lane_for(key)
        start = time.perf_counter()
        worker = self._lane(lane)
        return Drawing(lane, fn, args, start, worker, self._run(lane, worker, fn, args))

    def _run(self, lane: int, worker: Worker, fn: Callable[..., T], args: tuple[Any, ...]) -> asyncio.Future[T]:
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        worker.ask(fn, args, future)
        self.in_hand[lane] += 1
        future.add_done_callback(lambda _: self._returned(lane))
        return future

    def _returned(self, lane: int) -> None:
        self.in_hand[lane] -= 1

    async def finish(self, drawing: Drawing[T]) -> T:
        """The picture ``submit`` handed over: within the time limit, drawn again once if its worker hung or died."""
        try:
            picture = await self._in_lane(drawing)
        finally:
            if self.recorder is not None:
                kind = getattr(drawing.fn, "__name__", "picture").removesuffix("_png")
                self.recorder.picture_drawn(kind, time.perf_counter() - drawing.start)
        await self.turns.take()
        return picture

    async def _in_lane(self, drawing: Drawing[T]) -> T:
        loop = asyncio.get_running_loop()
        lane = drawing.lane
        try:
            return await self._within_limit(loop, drawing.future)
        except TimeoutError:
            # A hung worker holds the lane: kill it; a fresh one draws the picture again. The table's
            # lock is not held while a picture is drawn, so only this message waits.
            self.cut += 1
            drawing.worker.kill()  # the pictures it held fail with it, each drawn again by the fresh one
        except BrokenProcessPool:
            pass  # the worker died (killed, out of memory): a fresh one draws it once more
        return await self._within_limit(loop, self._run(lane, self._lane(lane), drawing.fn, drawing.args))

    async def _within_limit(self, loop: asyncio.AbstractEventLoop, future: asyncio.Future[T]) -> T:
        """``await future``, or TimeoutError once it has taken ``time_limit`` seconds (of the loop's clock).

        One timer per loop watches every picture in hand, armed at the earliest one's limit and put away
        when none is left, rather than a timer for each picture (``asyncio.wait_for``): in a burst of moves
        each picture's timer was cancelled unfired, and SimCord keeps every cancelled timer until it next
        settles, looking through them all for each callback the loop schedules meanwhile."""
        watch = self._watches.get(loop)
        if watch is None:
            watch = self._watches[loop] = _Watch()
        watch.deadlines[future] = loop.time() + self.time_limit
        watch.arm()
        try:
            return await future
        except asyncio.CancelledError:
            if future in watch.overdue:
                raise TimeoutError from None
            raise
        finally:
            del watch.deadlines[future]
            watch.overdue.discard(future)
            if not watch.deadlines:
                watch.disarm()

    def lane_for(self, key: int) -> int:
        """The table's own lane, unless it has two images more in hand than the least busy lane."""
        own = key % self.lanes
        idle = min(range(self.lanes), key=self.in_hand.__getitem__)
        return idle if self.in_hand[own] >= self.in_hand[idle] + 2 else own

    @property
    def started(self) -> bool:
        return any(w is not None and not w.dead for w in self._workers)

    def close(self) -> None:
        """Stop every worker (each ends after the picture in hand; what else was asked fails); safe twice."""
        with self._lock:
            workers, self._workers = self._workers, [None] * self.lanes
        for worker in workers:
            if worker is not None:
                worker.close()
