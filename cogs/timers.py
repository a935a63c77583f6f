"""What each due timer does at its table: a paced bot's move, a timeout, a reminder, a lobby closed,
a thread archived. The scheduler (host/clock.py) runs each table's timers in that table's own lane."""

from __future__ import annotations

import logging

import discord

from cogs.notices import Notices
from cogs.posting import TablePoster
from host import Reminder, StaleClick, TableService
from host.clock import lost_access
from host.table_feed import ARCHIVE, BOT, DEADLINE, LOBBY, REMINDER, TableFeed, TimerRecord
from i18n import t

log = logging.getLogger(__name__)


class TimerRunner:
    def __init__(self, tables: TableService, feed: TableFeed, poster: TablePoster, notices: Notices) -> None:
        self.tables = tables
        self.feed = feed
        self.poster = poster
        self.notices = notices

    async def fire(self, timers: list[TimerRecord]) -> list[TimerRecord]:
        """The scheduler's handler, for a batch of one table's timers in due order: each acts through the
        same write-ahead paths as a click.

        Returns the timers to try again later (Discord's 5xx, a 429 given up on, a timeout, a busy
        database). A 403, 404 or 50007 means the bot lost access to the table's channel: the timer is
        logged and dropped, since no retry can pass until a person changes the server.
        """
        reminders: list[Reminder] = []
        failed: list[TimerRecord] = []
        for timer in timers:
            try:
                await self._fire_one(timer, reminders)
            except Exception as exc:
                if lost_access(exc):
                    if await self.poster.channel_gone(await self.tables.reload(timer.table_id), exc):
                        continue
                    log.warning("timer %s of table %s dropped: no access to its channel (%s)", timer.kind,
                                timer.table_id, exc)
                    await self.feed.give_up(timer)
                    continue
                log.exception("timer %s for table %s (seat %s) failed", timer.kind, timer.table_id, timer.seat)
                failed.append(timer)
        if reminders:
            try:
                await self.notices.remind(reminders)
            except Exception:
                log.exception("reminders failed")
        return failed

    async def _fire_one(self, timer: TimerRecord, reminders: list[Reminder]) -> None:
        if timer.kind == BOT:
            await self.bot_turn(timer)
        elif timer.kind == DEADLINE:
            notice = await self.tables.timeout(timer)
            if notice is not None:
                await self.poster.show_notice(notice)
        elif timer.kind == REMINDER:
            found = await self.tables.reminder(timer)
            if found is not None:
                reminders.append(found)
        elif timer.kind == LOBBY:
            closed = await self.tables.lobby_timeout(timer)
            if closed is not None and self.poster.access.claim(closed.guild_id, closed.channel_id):
                channel = await self.poster.channel_of(closed.channel_id)
                lang = await self.poster.speakers.channel(closed.guild_id)
                await channel.send(t(lang, "Table #{table} closed itself: its lobby never started.", table=closed.id))
                if self.poster.lobbies is not None:  # its lobby message no longer invites anyone
                    await self.poster.lobbies.settle(closed)
        elif timer.kind == ARCHIVE:
            await self.archive(timer)

    async def bot_turn(self, timer: TimerRecord) -> None:
        """A paced bot's move: thought outside the table's lock, applied with the version check."""
        try:
            outcome = await self.tables.bot_step(timer.table_id)
        except StaleClick:
            return  # the table moved on while the bot thought; the newer change's bot timer tries again
        if outcome is None:
            await self.tables.drop_idle_bot_timer(timer.table_id)
            return
        await self.poster.show_step(outcome)

    async def archive(self, timer: TimerRecord) -> None:
        table = await self.tables.get(timer.table_id)
        if not self.poster.access.claim(table.guild_id, table.channel_id):
            # A thread that refused the bot within the hour, or a server that removed it: not asked again.
            await self.feed.archived(timer.table_id)
            return
        try:
            thread = await self.poster.channel_of(table.channel_id)
            if isinstance(thread, discord.Thread):
                await thread.edit(archived=True)
        except discord.NotFound:
            pass  # the thread is gone: nothing left to archive
        # Dropped only now: when Discord fails, the scheduler retries the timer it still finds.
        await self.feed.archived(timer.table_id)

