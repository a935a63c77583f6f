"""Tournament timers (open the check-in, start, push the scheduled event's end) for the one
scheduler class of ``host/clock.py``: this source gives it the store interface it reads, over the
``tournament_timers`` rows instead of the tables' ``timers``.

A tournament timer is a ``TimerRecord`` whose ``table_id`` is the tournament's id; its handler
consumes it with ``TournamentStore.take_tournament_timer`` (same ``started``), so it fires once.
"""

from __future__ import annotations

from data.sql import ShardSet
from data.store import Store
from data.timers import TABLE_WIDE, TimerRecord
from data.tournaments import CHECKIN_TIMER, EVENT_END_TIMER, START_TIMER

#: The timer kinds and record, for the cogs (which reach data only through host).
__all__ = ["CHECKIN_TIMER", "EVENT_END_TIMER", "START_TIMER", "TimerRecord", "TournamentTimerSource"]


class TournamentTimerSource:
    def __init__(self, store: Store) -> None:
        self.store = store
        #: The scheduler reads its timers through ``store.timers``: here, this source itself.
        self.timers = self

    def now(self) -> float:
        return self.store.now()

    async def next_due(self, shards: ShardSet | None = None) -> float | None:
        return await self.store.tournaments.next_tournament_due(shards)

    async def due_timers(self, now: float, limit: int, shards: ShardSet | None = None) -> list[TimerRecord]:
        due_timers = await self.store.tournaments.due_tournament_timers(now, limit, shards)
        return [TimerRecord(tournament_id, kind, TABLE_WIDE, due, None, started)
                for tournament_id, kind, due, started in due_timers]

    async def push_timer(self, timer: TimerRecord, due: float) -> None:
        await self.store.tournaments.push_tournament_timer(timer.table_id, timer.kind, timer.started, due)
