"""Durable time: deadlines, reminders, paced bot moves, lobby timeouts and thread archiving are rows.

The scheduler (host/clock.py) sleeps until the earliest ``due`` and fires what is
due. A paused table's timers keep their ``remaining`` time instead of a ``due``.
Changes to timers are written in the same transaction as the table change that
causes them (a move, a start, a pause), so a restart finds exactly the schedule
that the acknowledged state implies.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from data.backends.base import Tx
from data.database import Database
from data.sql import ShardSet, shard_filter

#: Timer kinds.
DEADLINE = "deadline"
REMINDER = "reminder"
BOT = "bot"
LOBBY = "lobby"
ARCHIVE = "archive"
#: ``seat`` for timers that belong to the table rather than a seat.
TABLE_WIDE = -1


@dataclass(frozen=True)
class TimerRecord:
    table_id: int
    kind: str
    seat: int = TABLE_WIDE
    due: float | None = None
    remaining: float | None = None
    #: When the seat's clock started; a deadline and its reminder share it, and a
    #: timer that fires checks it against the row, so a replaced timer never fires.
    started: float = 0.0


@dataclass
class TimerPlan:
    """How one table change moves the table's timers."""

    drop: list[tuple[str, int]] = field(default_factory=list)  # (kind, seat)
    drop_kinds: list[str] = field(default_factory=list)
    drop_all: bool = False
    add: list[TimerRecord] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.drop or self.drop_kinds or self.drop_all or self.add)


def _record(row: Any) -> TimerRecord:
    return TimerRecord(row["table_id"], row["kind"], row["seat"], row["due"], row["remaining"], row["started"])


async def write_plan(tx: Tx, table_id: int, plan: TimerPlan | None) -> None:
    if not plan:
        return
    if plan.drop_all:
        await tx.execute("DELETE FROM timers WHERE table_id = ?", (table_id,))
    for kind in plan.drop_kinds:
        await tx.execute("DELETE FROM timers WHERE table_id = ? AND kind = ?", (table_id, kind))
    for kind, seat in plan.drop:
        await tx.execute("DELETE FROM timers WHERE table_id = ? AND kind = ? AND seat = ?", (table_id, kind, seat))
    for t in plan.add:
        await tx.execute(
            "INSERT INTO timers (table_id, kind, seat, due, remaining, started) VALUES (?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (table_id, kind, seat) DO UPDATE SET due = excluded.due, remaining = excluded.remaining,"
            " started = excluded.started",
            (t.table_id, t.kind, t.seat, t.due, t.remaining, t.started))


class TimerStore:
    """The timer queries of the store (``Store.timers``), on the store's shared :class:`Database`."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def next_due(self, shards: ShardSet | None = None) -> float | None:
        """The earliest due instant; with ``shards``, of the timers of tables in guilds on those shards."""
        owned, params = shard_filter("g.guild_id", shards)
        if not owned:
            row = await self._db.one("SELECT MIN(due) FROM timers WHERE due IS NOT NULL")
        else:
            row = await self._db.one("SELECT t.due FROM timers t JOIN game_tables g ON g.id = t.table_id"
                                  f" WHERE t.due IS NOT NULL AND {owned} ORDER BY t.due LIMIT 1", params)
        return None if row is None or row[0] is None else float(row[0])

    async def due_timers(self, now: float, limit: int, shards: ShardSet | None = None) -> list[TimerRecord]:
        """Timers due by ``now`` in due order; with ``shards``, only those of tables in guilds on those shards."""
        owned, params = shard_filter("g.guild_id", shards)
        if not owned:
            rows = await self._db.all("SELECT * FROM timers WHERE due IS NOT NULL AND due <= ? ORDER BY due, table_id,"
                                   " kind, seat LIMIT ?", (now, limit))
        else:
            rows = await self._db.all(
                "SELECT t.table_id, t.kind, t.seat, t.due, t.remaining, t.started FROM timers t"
                f" JOIN game_tables g ON g.id = t.table_id WHERE t.due IS NOT NULL AND t.due <= ? AND {owned}"
                " ORDER BY t.due, t.table_id, t.kind, t.seat LIMIT ?", (now, *params, limit))
        return [_record(r) for r in rows]

    async def timers_of(self, table_id: int) -> list[TimerRecord]:
        rows = await self._db.all("SELECT * FROM timers WHERE table_id = ? ORDER BY kind, seat", (table_id,))
        return [_record(r) for r in rows]

    async def change_timers(self, table_id: int, plan: TimerPlan) -> None:
        async with self._db.transaction() as tx:
            await write_plan(tx, table_id, plan)

    async def take_timer(self, timer: TimerRecord) -> bool:
        """Consume a timer if it is still the same one (same ``started``): True for the one caller that did.

        Two processes firing one timer (shards given twice, or a takeover overlapping the old
        owner) cannot both take it, so a reminder goes out once.
        """
        async with self._db.transaction() as tx:
            written = await tx.execute(
                # A frozen timer (a paused table's: no due) is not due: it waits for the resume.
                "DELETE FROM timers WHERE table_id = ? AND kind = ? AND seat = ? AND started = ? AND due IS NOT NULL",
                (timer.table_id, timer.kind, timer.seat, timer.started))
        return written.rowcount == 1

    async def push_timer(self, timer: TimerRecord, due: float) -> None:
        """Move a timer that could not fire to a later instant (a retry), if it is still the same timer."""
        async with self._db.transaction() as tx:
            await tx.execute("UPDATE timers SET due = ? WHERE table_id = ? AND kind = ? AND seat = ? AND started = ?"
                             " AND due IS NOT NULL",  # never thaw a timer that a pause froze meanwhile
                             (due, timer.table_id, timer.kind, timer.seat, timer.started))
