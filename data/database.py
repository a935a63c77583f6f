"""The one database handle that the store's parts share: its backend, its clock, its transactions and reads.

Every part of the store (``data.tables``, ``data.timers``, ``data.tournaments``, ``data.ratings``,
``data.settings``) is given this handle in its constructor; none reaches another part's private state.
Every write goes through :meth:`Database.transaction`, the only code that reaches the backend's write
side. It hands out a :class:`Tx` that refuses to run outside its own ``async with`` block or in another
task, so no write can ride along in another coroutine's transaction and be rolled back with it. Reads
use the backend's read side, which sees exactly what has been committed, never another coroutine's
half-done transaction; on SQLite that side runs in a thread of its own, off the event loop.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any, Protocol

from data.backends.base import Backend, Row, Tx

#: Rows per page of a paged read (``Database.pages``): a page is converted on the event loop between two
#: reads, so a read that grows with a game (a log of 20,000 moves) never holds the loop for long.
PAGE = 250
#: Seconds of work one turn of the event loop runs between store calls before the next caller waits a turn.
TURN = 0.002


class Turns:
    """Shares the event loop's turns between the coroutines that call the store.

    When many interactions arrive together (a burst of moves at many tables), each one's coroutine is
    ready at once, and the event loop runs every ready one before it looks at its timers and sockets
    again: a burst held it for as long as all its moves' work together (bench/README.md, burst), and no
    other click, heartbeat or timer was served meanwhile. Every store call first takes a turn here: once
    the current turn of the loop has run ``TURN`` seconds of work, a caller waits in line and goes on in a
    later turn, after the timers and sockets due meanwhile; so does a caller whose answer arrives when the
    turn is over (on PostgreSQL many answers arrive in one turn). The work is the same, only spread over
    more turns.

    Callers that wait are let go one a turn, in the order they came (and while any wait, a newcomer waits
    behind them). They used to ``sleep(0)`` and look again, every waiter at every turn: with 56 moves in a
    burst that was some 120 wake-ups a move, each a callback the loop schedules and runs (and SimCord
    tracks), which cost more CPU than the moves' own work.
    """

    def __init__(self, turn: float = TURN) -> None:
        self.turn = turn
        self._since: float | None = None
        #: The loop whose turn ``_since`` belongs to: one Turns may outlive a loop (the process's render pool
        #: shares the bot's, and tests run each in a loop of its own), whose turn then never ends.
        self._loop: asyncio.AbstractEventLoop | None = None
        #: Callers waiting for a turn, first come first served.
        self._waiting: deque[asyncio.Future[None]] = deque()
        #: ``_next_turn`` is scheduled (it runs at the start of the loop's next turn).
        self._due = False

    def _schedule(self, loop: asyncio.AbstractEventLoop) -> None:
        if not self._due:
            self._due = True
            loop.call_soon(self._next_turn)

    def _next_turn(self) -> None:
        """A new turn of the loop: its clock starts afresh, and the first waiter (if any) goes on in the next."""
        self._due = False
        self._since = None
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():  # a waiter cancelled meanwhile is skipped
                waiter.set_result(None)
                break
        if self._waiting and self._loop is not None:
            self._schedule(self._loop)

    async def take(self) -> None:
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            self._loop, self._since, self._waiting, self._due = loop, None, deque(), False
        if not self._waiting:
            if self._since is None:
                # The first caller of this turn: the turn's clock starts now and stops at the next turn.
                self._since = time.perf_counter()
                self._schedule(loop)
                return
            if time.perf_counter() - self._since < self.turn:
                return
        waiter = loop.create_future()
        self._waiting.append(waiter)
        self._schedule(loop)
        await waiter


class DataTimings(Protocol):
    """What the store records (host/metrics.py's recorder has these and more): each transaction's time, each
    move committed to the action log."""

    def transaction(self, seconds: float) -> None: ...
    def move_committed(self) -> None: ...


class Database:
    def __init__(self, backend: Backend, now: Callable[[], float], recorder: DataTimings | None = None,
                 turns: Turns | None = None) -> None:
        self.backend = backend
        #: Told how long each transaction took (None: nobody is told; scripts and store tests).
        self.recorder = recorder
        #: The one clock every stored time is read from: the bot passes Discord's (which a test's virtual
        #: clock can move); scripts and store tests keep the wall clock.
        self.now = now
        #: The loop's turns, shared with whatever else takes them (the render pool's pictures, in the bot).
        self.turns = turns if turns is not None else Turns()

    @asynccontextmanager
    async def transaction(self, one_statement: bool = False) -> AsyncIterator[Tx]:
        """``async with db.transaction() as tx:`` commits on exit, rolls back on any error.

        ``one_statement``: the block runs exactly one statement, committed by itself where the backend
        can (``Backend.one_statement_transactions``); a second statement raises ``TxClosed``."""
        start = time.perf_counter()
        try:
            await self.turns.take()  # before the write lock: no one waits for a lock held by a waiting turn
            async with self.backend.transaction(one_statement) as tx:
                yield tx
        finally:
            if self.recorder is not None:
                self.recorder.transaction(time.perf_counter() - start)
        await self.turns.take()  # the caller's work after the commit waits its turn too

    def move_committed(self) -> None:
        """A move reached the action log (``TableStore.commit_action``): counted for the metrics."""
        if self.recorder is not None:
            self.recorder.move_committed()

    @property
    def one_statement_transactions(self) -> bool:
        return self.backend.one_statement_transactions

    async def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        await self.turns.take()
        row = await self.backend.fetchone(sql, params)
        await self.turns.take()  # answers arriving together: the callers' work goes on over several turns
        return row

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        await self.turns.take()
        rows = await self.backend.fetchall(sql, params)
        await self.turns.take()
        return rows

    async def pages(self, sql: str, params: Sequence[Any], key: str, after: Any,
                    size: int = PAGE) -> AsyncIterator[list[Row]]:
        """The rows of ``sql`` (a SELECT with a WHERE clause) a page of ``size`` at a time, in the order of
        the unique column ``key``, starting after the value ``after``: ``AND {key} > ? ORDER BY {key} LIMIT ?``
        is added here, and each page starts where the last one ended.

        Each page is one short read, so neither the database nor the caller's work on a page holds the
        event loop for the whole answer."""
        while True:
            rows = await self.all(f"{sql} AND {key} > ? ORDER BY {key} LIMIT ?", (*params, after, size))
            if not rows:
                return
            yield rows
            if len(rows) < size:
                return
            after = rows[-1][key]
