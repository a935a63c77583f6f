"""One render worker process, fed and read by the event loop's own thread through a pipe: no helper thread.

``concurrent.futures.ProcessPoolExecutor`` hands each call to its worker through two threads of the calling
process (its manager thread, then its queue's feeder thread, which pickles and writes), and reads each result
back through the manager thread. Each of those steps needs the GIL, which the event loop holds while a burst
of moves is handled: timed in ``bench.burst``, a picture asked for waited up to 45-80 ms before its worker
began it, the worker idle meanwhile (50-130 ms a burst of 56 moves), and results came back up to 40 ms late.
Here the loop's thread writes each request into the worker's pipe itself (non-blocking; what the pipe cannot
take yet is written when it can) and reads the answers in a reader callback as soon as they arrive.

A frame is an 8-byte big-endian length and a pickle: ``(fn, args)`` one way, ``(ok, result or exception)``
the other. The worker answers in the order it was asked, so each answer settles the oldest request waiting.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import os
import pickle
import select
import struct
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any

_LENGTH = struct.Struct(">Q")
#: Bytes read from the pipe at a time (a table picture is 50-150 KB).
_CHUNK = 1 << 18

Waiting = asyncio.Future[Any] | concurrent.futures.Future[Any]


def serve(conn: Any, start: Callable[[], None]) -> None:
    """The worker process: ``start()``, then answer each request until the bot closes its end of the pipe."""
    start()
    fd = conn.fileno()
    while True:
        head = _read_exactly(fd, _LENGTH.size)
        if head is None:
            return  # the bot closed the pipe: it stops, or it died
        body = _read_exactly(fd, _LENGTH.unpack(head)[0])
        if body is None:
            return
        try:
            fn, args = pickle.loads(body)
            answer = (True, fn(*args))
        except BaseException as exc:  # noqa: BLE001 - every failure goes back to whoever asked
            answer = (False, exc)
        try:
            data = pickle.dumps(answer, pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # noqa: BLE001 - an exception that does not pickle still answers
            data = pickle.dumps((False, RuntimeError(f"an unpicklable answer: {exc!r}")), pickle.HIGHEST_PROTOCOL)
        try:
            _write_all(fd, _LENGTH.pack(len(data)) + data)
        except OSError:
            return  # the bot is gone


def _read_exactly(fd: int, size: int) -> bytes | None:
    parts = bytearray()
    while len(parts) < size:
        chunk = os.read(fd, min(size - len(parts), _CHUNK))
        if not chunk:
            return None
        parts += chunk
    return bytes(parts)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


class Worker:
    """A spawned worker process and the bot's end of its pipe (see the module's docstring)."""

    def __init__(self, start: Callable[[], None]) -> None:
        context = multiprocessing.get_context("spawn")  # never forked from a process with a loop and threads
        here, there = context.Pipe(duplex=True)
        self.process = context.Process(target=serve, args=(there, start), daemon=True, name="deckhand-render")
        self.process.start()
        there.close()
        self._conn = here
        self.fd = here.fileno()
        os.set_blocking(self.fd, False)
        self._out = bytearray()
        self._in = bytearray()
        #: The futures of the requests sent and not yet answered, oldest first.
        self.waiting: deque[Waiting] = deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._writing = False
        self.dead = False

    def ask(self, fn: Callable[..., Any], args: tuple[Any, ...], future: Waiting) -> None:
        """Send ``fn(*args)``; ``future`` gets its result (or exception). In an event loop, from its thread."""
        if self.dead:
            raise BrokenProcessPool("the render worker has stopped")
        try:
            loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is not None:
            self._attach(loop)
        data = pickle.dumps((fn, args), pickle.HIGHEST_PROTOCOL)
        self.waiting.append(future)
        self._out += _LENGTH.pack(len(data)) + data
        self._flush()
        while loop is None and self._out and not self.dead:
            self._wait(select_for_write=True, until=time.monotonic() + 60)

    def _attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Read the answers in ``loop`` (the pool outlives loops: tests run each bot in a loop of its own)."""
        if self._loop is loop:
            return
        self._detach()
        self._loop = loop
        loop.add_reader(self.fd, self._readable)

    def _detach(self) -> None:
        old, self._loop = self._loop, None
        if old is not None and not old.is_closed():
            old.remove_reader(self.fd)
            if self._writing:
                old.remove_writer(self.fd)
        self._writing = False

    def _flush(self) -> None:
        while self._out:
            try:
                written = os.write(self.fd, self._out)
            except BlockingIOError:
                break
            except OSError:
                self.stopped()
                return
            del self._out[:written]
        if self._loop is None:
            return  # without a loop, ``ask`` waits for the pipe itself
        if self._out and not self._writing:
            self._loop.add_writer(self.fd, self._flush)
            self._writing = True
        elif not self._out and self._writing:
            self._loop.remove_writer(self.fd)
            self._writing = False

    def _readable(self) -> None:
        while True:
            try:
                chunk = os.read(self.fd, _CHUNK)
            except BlockingIOError:
                break
            except OSError:
                chunk = b""
            if not chunk:
                self.stopped()
                return
            self._in += chunk
        self._answered()

    def _answered(self) -> None:
        """Settle the oldest waiting requests with the whole answers read so far."""
        while len(self._in) >= _LENGTH.size:
            size = _LENGTH.unpack_from(self._in)[0]
            end = _LENGTH.size + size
            if len(self._in) < end:
                return
            ok, value = pickle.loads(self._in[_LENGTH.size:end])  # a copy: the buffer is cut just below
            del self._in[:end]
            future = self.waiting.popleft()
            if ok:
                _resolve(future, result=value)
            else:
                _resolve(future, error=value)

    def wait(self, timeout: float) -> None:
        """Without an event loop: read answers until every request sent is answered, or ``timeout`` passes."""
        deadline = time.monotonic() + timeout
        while self.waiting and not self.dead and time.monotonic() < deadline:
            self._wait(select_for_write=False, until=deadline)

    def _wait(self, select_for_write: bool, until: float) -> None:
        left = max(0.0, until - time.monotonic())
        readable, writable, _ = select.select([self.fd], [self.fd] if select_for_write else [], [], left)
        if readable:
            self._readable()
        if writable:
            self._flush()

    def stopped(self) -> None:
        """The worker is gone (died, killed or closed): every request still waiting fails, to be drawn again."""
        if self.dead:
            return
        self.dead = True
        self._detach()
        self._conn.close()
        while self.waiting:
            _resolve(self.waiting.popleft(), error=BrokenProcessPool("the render worker stopped"))

    def kill(self) -> None:
        self.process.kill()
        self.stopped()

    def close(self, timeout: float = 5.0) -> None:
        """Close the pipe (the worker ends after the picture in hand) and wait for the process."""
        self.stopped()
        self.process.join(timeout)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(timeout)


def _resolve(future: Waiting, result: Any = None, error: BaseException | None = None) -> None:
    if future.done():
        return  # cancelled meanwhile: the picture is not wanted any more
    if isinstance(future, asyncio.Future):
        loop = future.get_loop()
        if loop.is_closed():
            return  # asked in a loop that has ended (a test's): nobody can read it there
        try:
            here = asyncio.get_running_loop()
        except RuntimeError:
            here = None
        if here is not loop:  # asked in a loop of another thread: settled in that loop's own thread
            loop.call_soon_threadsafe(_resolve, future, result, error)
            return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)
