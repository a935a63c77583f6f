"""Turn clocks and the one scheduler that drives every timer.

Deadlines, reminders, paced bot moves, lobby timeouts and thread archiving are
rows (``data.timers``). :func:`plan_turn` says how a table change moves them,
and the change writes that plan in its own transaction. :class:`Scheduler`
sleeps until the earliest due row, fires a bounded batch in due order, and
sleeps again; it is rebuilt from the database at start, so a timer that came
due while the bot was down fires once, soon after. With several processes, each
scheduler loads only the timers of the guilds on its own shards (``host.shards``).
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Awaitable, Callable, Sequence

from data.store import Store, TableRecord
from data.timers import ARCHIVE, BOT, DEADLINE, REMINDER, TABLE_WIDE, TimerPlan, TimerRecord
from host.metrics import Recorder
from host.shards import Shards

log = logging.getLogger(__name__)

#: Timers fired per wake; the loop yields between timers, so a backlog never starves clicks.
BATCH = 20
#: The longest single sleep: the scheduler sleeps on the loop's monotonic clock while due
#: instants are wall-clock times, so a wall-clock jump (a suspend, NTP) is noticed within this.
MAX_SLEEP = 6 * 3600.0
#: A timer whose handler failed is tried again after this long, then twice as long each time, up to MAX_RETRY.
RETRY = 60.0
MAX_RETRY = 3600.0
#: A finished thread table's thread is archived after this long.
ARCHIVE_AFTER = 120.0

#: Fires a batch of due timers; returns those whose handler failed (they are retried later).
#: A handler consumes its timer: it deletes it or replaces it in the change it commits.
Fire = Callable[[list[TimerRecord]], Awaitable[list[TimerRecord]]]


def plan_turn(table: TableRecord, before: Sequence[int] | None, to_act: Sequence[int], now: float,
              bot_delay: float, *, over: bool = False) -> TimerPlan:
    """The timers after a change that left ``to_act`` acting (``before``: who acted before, None = nobody).

    A seat's deadline starts when it enters ``to_act`` and runs until it leaves it, so the
    steps of one multi-step decision keep it. Seats a bot plays have no deadline; a bot timer
    paces their moves instead.
    """
    if over:
        return closed_plan(table, now)
    plan = TimerPlan()
    previous = set(before or ())
    acting = set(to_act)
    # A table with no clock never has deadlines, and one where no bot plays has no bot timer:
    # planning nothing for them keeps their moves as cheap as before clocks existed.
    clocked = bool(table.turn_time) or any(s.stand_in for s in table.seats)
    if clocked:
        for seat in sorted(previous - acting):
            plan.drop += [(DEADLINE, seat), (REMINDER, seat)]
    for seat in sorted(acting):
        if table.seats[seat].bot_plays:
            if clocked:
                plan.drop += [(DEADLINE, seat), (REMINDER, seat)]
        elif table.turn_time and seat not in previous:
            plan.add += seat_clock(table, seat, now)
    if any(table.seats[s].bot_plays for s in acting):
        plan.add.append(_timer(table, BOT, TABLE_WIDE, now, bot_delay))
    elif any(s.bot_plays for s in table.seats):
        plan.drop_kinds.append(BOT)
    return plan


def closed_plan(table: TableRecord, now: float) -> TimerPlan:
    """The timers of a table that ended in any way (finished, forfeited, abandoned, a lobby that timed out):
    none left, but a thread table's thread is archived soon after, so ended tables never pile up in Discord's
    1,000 active threads of a server."""
    plan = TimerPlan(drop_all=True)
    if table.parent_id is not None:
        plan.add.append(TimerRecord(table.id, ARCHIVE, TABLE_WIDE, now + ARCHIVE_AFTER, None, now))
    return plan


def seat_clock(table: TableRecord, seat: int, now: float, remaining: float | None = None) -> list[TimerRecord]:
    """A seat's deadline and its half-time reminder, starting now (or with ``remaining`` seconds left)."""
    total = float(table.turn_time or 0)
    left = total if remaining is None else remaining
    deadline = _timer(table, DEADLINE, seat, now, left)
    reminder_in = left - total / 2
    timers = [deadline]
    if reminder_in > 0:
        timers.append(_timer(table, REMINDER, seat, now, reminder_in))
    return timers


def _timer(table: TableRecord, kind: str, seat: int, now: float, delay: float) -> TimerRecord:
    # A paused table's new timers wait with their time intact.
    if table.paused:
        return TimerRecord(table.id, kind, seat, None, delay, now)
    return TimerRecord(table.id, kind, seat, now + delay, None, now)


def paused_plan(timers: Sequence[TimerRecord], now: float) -> TimerPlan:
    """Freeze every running timer of a table: each keeps the time it had left."""
    return TimerPlan(add=[TimerRecord(t.table_id, t.kind, t.seat, None, max(0.0, (t.due or now) - now), t.started)
                          for t in timers if t.due is not None])


def resumed_plan(timers: Sequence[TimerRecord], now: float) -> TimerPlan:
    """Restart frozen timers: each is due after the time it had left when paused."""
    return TimerPlan(add=[TimerRecord(t.table_id, t.kind, t.seat, now + (t.remaining or 0.0), None, t.started)
                          for t in timers if t.due is None])


def timer_key(timer: TimerRecord) -> tuple[int, str, int, float]:
    """What tells one timer from another: a replaced timer (a new turn, a retry's new instant) is a new one."""
    return timer.table_id, timer.kind, timer.seat, timer.started


def retry_delay(attempts: int) -> float:
    """The wait before the next try of a timer whose handler failed ``attempts`` times in a row."""
    return min(RETRY * 2 ** max(0, attempts - 1), MAX_RETRY)


def lost_access(exc: BaseException) -> bool:
    """Whether Discord refused for good (403 Forbidden, 404 Not Found, 50007 cannot message the user).

    Those take the lost-access path: retrying cannot help until a person changes the server. 5xx,
    429 (when the HTTP client gave up waiting), timeouts and a busy database are worth another try.
    """
    return getattr(exc, "status", None) in (403, 404) or getattr(exc, "code", None) == 50007


class Scheduler:
    """Sleeps until the next due timer, then hands what is due to each table's own lane.

    The timers of one table run in order, in one task (its lane); the lanes of different tables
    run concurrently, so a table whose bot thinks, or whose post waits on Discord (or keeps
    failing), holds up only itself. The CPU work the lanes start (searches, pictures) is bounded
    by the worker pools that do it, not here: waits on Discord are not bounded.

    One scheduling task, not one per table, and no polling: a new timer that is due before the
    current sleep ends wakes it (:meth:`poke`), as does a lane that finishes, by cancelling and
    recreating the sleeping task: a task blocked on an Event would stall a virtual clock.
    """

    def __init__(self, store: Store, fire: Fire, *, batch: int = BATCH, shards: Shards | None = None,
                 recorder: Recorder | None = None) -> None:
        self.store = store
        self.fire = fire
        #: Told of every due timer handed to ``fire`` and how late it is (None: nobody is told).
        self.recorder = recorder
        self.batch = batch
        #: The shards this process holds: only timers of tables in guilds on them are loaded and fired
        #: (the other processes fire the rest). None: every timer, as when one process holds every shard.
        self.shards = shards
        self._task: asyncio.Task[None] | None = None
        self._sleeping_until = math.inf
        self._sleeping = False
        self._stopped = False
        #: A poke arrived while the scheduling task was busy: look again before sleeping or ending.
        self._dirty = False
        #: Each table's running lane, the timers queued for it, and every timer queued or running.
        self._lanes: dict[int, asyncio.Task[None]] = {}
        self._queued: dict[int, list[TimerRecord]] = {}
        self._in_flight: set[tuple[int, str, int, float]] = set()
        #: Timers that left their lane while the due timers were being read: that read may predate their
        #: handler's commit, so it must not hand them out again.
        self._left_during_read: set[tuple[int, str, int, float]] = set()
        #: Failed tries in a row of each timer, for the backoff.
        self._attempts: dict[tuple[int, str, int, float], int] = {}

    def start(self) -> None:
        self._stopped = False
        if self._task is None or self._task.done():
            self._spawn()

    def poke(self, due: float | None = None) -> None:
        """A timer was added or moved, or a lane finished: wake if something may be due before the sleep ends."""
        if self._stopped:
            return
        if self._task is None or self._task.done():
            self._spawn()
        elif self._sleeping and (due is None or due < self._sleeping_until):
            self._task.cancel()
            self._spawn()
        elif not self._sleeping:
            self._dirty = True

    def _spawn(self) -> None:
        self._task = asyncio.create_task(self._run(), name="deckhand-scheduler")

    @property
    def busy_tables(self) -> int:
        return len(self._lanes)

    async def close(self) -> None:
        """Stop: the scheduling task and every lane are cancelled (a timer cut short fires again at start)."""
        self._stopped = True
        tasks = [t for t in (self._task, *self._lanes.values()) if t is not None and not t.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._lanes.clear()
        self._queued.clear()
        self._in_flight.clear()

    async def _run(self) -> None:
        try:
            while not self._stopped:
                self._dirty = False
                due = await self._next_free_due()
                if due is None:
                    if self._dirty:
                        continue
                    return  # a lane that finishes, or a new timer, pokes the scheduler again
                delay = due - self.store.now()
                if delay > 0:
                    if self._dirty:
                        continue
                    self._sleeping, self._sleeping_until = True, due
                    try:
                        await asyncio.sleep(min(delay, MAX_SLEEP))
                    finally:
                        self._sleeping, self._sleeping_until = False, math.inf
                    continue
                self._left_during_read = set()
                timers = await self.store.timers.due_timers(self.store.now(), self.batch + len(self._in_flight),
                                                     self.shards)
                stale = self._in_flight | self._left_during_read
                fresh = [t for t in timers if timer_key(t) not in stale][:self.batch]
                for timer in fresh:
                    self._dispatch(timer)
                # Lanes start at the next turn of the loop: a backlog never starves clicks.
                await asyncio.sleep(0)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("scheduler stopped by an error; restarting it")
            if not self._stopped:
                asyncio.get_running_loop().call_soon(self._spawn)

    async def _next_free_due(self) -> float | None:
        """The earliest due instant of a timer that is not already queued or running."""
        if not self._in_flight:
            return await self.store.timers.next_due(self.shards)
        limit = len(self._in_flight) + 1
        timers = await self.store.timers.due_timers(self.store.now() + MAX_SLEEP, limit, self.shards)
        for timer in timers:
            if timer_key(timer) not in self._in_flight:
                return timer.due
        return None if len(timers) >= limit else self.store.now() + MAX_SLEEP

    def _dispatch(self, timer: TimerRecord) -> None:
        self._in_flight.add(timer_key(timer))
        self._queued.setdefault(timer.table_id, []).append(timer)
        lane = self._lanes.get(timer.table_id)
        if lane is None or lane.done():
            self._lanes[timer.table_id] = asyncio.create_task(self._lane(timer.table_id),
                                                              name=f"deckhand-timers-{timer.table_id}")

    def _record(self, timers: list[TimerRecord]) -> None:
        if self.recorder is not None:
            now = self.store.now()
            for timer in timers:
                self.recorder.timer_fired(None if timer.due is None else now - timer.due)

    async def _lane(self, table_id: int) -> None:
        """One table's due timers, in due order, a bounded batch at a time."""
        try:
            while queue := self._queued.get(table_id):
                chunk, queue[:] = queue[:self.batch], queue[self.batch:]
                self._record(chunk)
                try:
                    failed = await self.fire(chunk)
                except Exception:
                    log.exception("timers failed: %s", [(t.table_id, t.kind, t.seat) for t in chunk])
                    failed = chunk
                await self._settle(chunk, failed)
        finally:
            if self._lanes.get(table_id) is asyncio.current_task():
                del self._lanes[table_id]
                for timer in self._queued.pop(table_id, []):  # cancelled: they fire again after a restart
                    self._in_flight.discard(timer_key(timer))
            self.poke()

    async def _settle(self, chunk: list[TimerRecord], failed: list[TimerRecord]) -> None:
        # A timer whose handler failed is tried again later, later each time, so one broken table never
        # spins the loop; and it leaves the lane, so the table's later timers are not held behind it.
        failed_keys = {timer_key(t) for t in failed}
        for timer in chunk:
            key = timer_key(timer)
            try:
                if key in failed_keys:
                    self._attempts[key] = attempts = self._attempts.get(key, 0) + 1
                    await self.store.timers.push_timer(timer, self.store.now() + retry_delay(attempts))
                else:
                    self._attempts.pop(key, None)
            except Exception:
                log.exception("could not reschedule timer %s of table %s", timer.kind, timer.table_id)
            finally:
                self._in_flight.discard(key)
                self._left_during_read.add(key)
