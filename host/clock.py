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
from host.shards import Shards

log = logging.getLogger(__name__)

#: Timers fired per wake; the loop yields between timers, so a backlog never starves clicks.
BATCH = 20
#: The longest single sleep: the scheduler sleeps on the loop's monotonic clock while due
#: instants are wall-clock times, so a wall-clock jump (a suspend, NTP) is noticed within this.
MAX_SLEEP = 6 * 3600.0
#: A timer whose handler failed is tried again after this long.
RETRY = 60.0
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
        plan = TimerPlan(drop_all=True)
        if table.parent_id is not None:
            plan.add.append(TimerRecord(table.id, ARCHIVE, TABLE_WIDE, now + ARCHIVE_AFTER, None, now))
        return plan
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


class Scheduler:
    """Sleeps until the next due timer, then fires what is due, a bounded batch at a time.

    One task, not one per table, and no polling: a new timer that is due before the
    current sleep ends wakes it (:meth:`poke`), by cancelling and recreating the sleeping
    task, since SimCord's virtual clock cannot see a task blocked on an Event.
    """

    def __init__(self, store: Store, fire: Fire, *, batch: int = BATCH, shards: Shards | None = None) -> None:
        self.store = store
        self.fire = fire
        self.batch = batch
        #: The shards this process holds: only timers of tables in guilds on them are loaded and fired
        #: (the other processes fire the rest). None: every timer, as when one process holds every shard.
        self.shards = shards
        self._task: asyncio.Task[None] | None = None
        self._sleeping_until = math.inf
        self._sleeping = False
        self._stopped = False

    def start(self) -> None:
        self._stopped = False
        if self._task is None or self._task.done():
            self._spawn()

    def poke(self, due: float | None = None) -> None:
        """A timer was added or moved: wake if it is due before the current sleep ends."""
        if self._stopped:
            return
        if self._task is None or self._task.done():
            self._spawn()
        elif self._sleeping and (due is None or due < self._sleeping_until):
            self._task.cancel()
            self._spawn()

    def _spawn(self) -> None:
        self._task = asyncio.create_task(self._run(), name="deckhand-scheduler")

    async def close(self) -> None:
        self._stopped = True
        if self._task is not None and not self._task.done():
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        try:
            while not self._stopped:
                due = await self.store.timers.next_due(self.shards)
                if due is None:
                    return
                delay = due - self.store.now()
                if delay > 0:
                    self._sleeping, self._sleeping_until = True, due
                    try:
                        await asyncio.sleep(min(delay, MAX_SLEEP))
                    finally:
                        self._sleeping, self._sleeping_until = False, math.inf
                    continue
                timers = await self.store.timers.due_timers(self.store.now(), self.batch, self.shards)
                await self._fire(timers)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("scheduler stopped by an error; restarting it")
            if not self._stopped:
                asyncio.get_running_loop().call_soon(self._spawn)

    async def _fire(self, timers: list[TimerRecord]) -> None:
        try:
            failed = await self.fire(timers)
        except Exception:
            log.exception("timers failed: %s", [(t.table_id, t.kind, t.seat) for t in timers])
            failed = timers
        # A timer whose handler failed is tried again later, so one broken table never spins the loop.
        for timer in failed:
            await self.store.timers.push_timer(timer, self.store.now() + RETRY)
        await asyncio.sleep(0)
