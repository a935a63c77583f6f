"""What a table's messages and timers need from the store, asked of the host, not of ``data``.

The cogs that post table messages, fire timers and send reminders read the log since the last
message, the seats' deadlines, a member's DM choice and the tables left unposted by a crash, and
drop timers they have handled: each is one method here, so no cog touches the store.
"""

from __future__ import annotations

from collections.abc import Sequence

from data.store import ActionRecord, Store, TableRecord
from data.timers import ARCHIVE, BOT, DEADLINE, LOBBY, REMINDER, TimerPlan, TimerRecord
from host.move_lines import events_of, line_of
from host.read_models import ReminderMessage, Where
from host.seat_changes import Reminder
from host.shards import Shards

__all__ = ["ARCHIVE", "BOT", "DEADLINE", "LOBBY", "REMINDER", "TableFeed", "TableRecord", "TimerRecord",
           "log_lines"]


def log_lines(records: Sequence[ActionRecord]) -> list[str]:
    """Each move's public line, then the events it caused."""
    return [line for r in records for line in (line_of(r.label, r.label_params), *events_of(r.events, r.event_ids))]


class TableFeed:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def lines_since(self, table_id: int, version: int) -> list[str]:
        """The public lines of every move after ``version``."""
        return log_lines(await self.store.tables.actions(table_id, version))

    async def deadlines(self, table: TableRecord) -> dict[int, float | None]:
        """Each seat's deadline. Only a table with a turn clock ever has deadlines (host.clock.seat_clock):
        the others, every casual table, need no read for them at each move."""
        if not table.turn_time:
            return {}
        return {t.seat: t.due for t in await self.store.timers.timers_of(table.id) if t.kind == DEADLINE}

    async def wants_dm(self, user_id: int) -> bool:
        return await self.store.settings.dm_notify(user_id)

    async def playing_in_guild(self, guild_id: int) -> list[TableRecord]:
        return await self.store.tables.tables_in_guild(guild_id, ("playing",))

    async def dms_refused(self, user_id: int) -> None:
        """Discord refused a DM to the member (50007): their DMs are off until ``/game notify dm:on``."""
        await self.store.settings.set_dm_notify(user_id, False)

    async def unposted(self, shards: Shards | None) -> list[TableRecord]:
        """Tables whose newest committed change never reached their channel (a crash between the two)."""
        return await self.store.tables.unposted_tables(shards)

    async def archived(self, table_id: int) -> None:
        """The thread of a finished table is archived: its archive timer is done."""
        await self.store.timers.change_timers(table_id, TimerPlan(drop_kinds=[ARCHIVE]))

    async def give_up(self, timer: TimerRecord) -> None:
        """Stop trying a timer that can never succeed (the bot lost access to the table's channel)."""
        await self.store.timers.change_timers(timer.table_id, TimerPlan(drop=[(timer.kind, timer.seat)]))


    async def reminder_messages(self, reminders: Sequence[Reminder]) -> list[tuple[TableRecord, ReminderMessage]]:
        """One reminder per table and instant, naming only the players still to act there."""
        groups: dict[tuple[int, float], list[Reminder]] = {}
        for r in reminders:
            groups.setdefault((r.table.id, r.due), []).append(r)
        out = []
        for group in groups.values():
            table = group[0].table
            seats = tuple(sorted({s for r in group for s in r.seats}))
            deadlines = await self.deadlines(table)
            users = tuple(u for s in seats if (u := table.seats[s].user_id))
            due = max((deadlines.get(s) or 0) for s in seats)
            out.append((table, ReminderMessage(table.id, Where(table.guild_id, table.channel_id, table.message_id),
                                               seats, users, due)))
        return out
