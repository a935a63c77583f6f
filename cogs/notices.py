"""Telling players it is their turn: direct messages to those who asked, and half-time reminders."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence

import discord
from discord.ext import commands

from cogs.access import Delivery, LostChannels
from cogs.locales import Speakers
from cogs.presenter import link, reminder_message
from engines import get_engine
from host import Reminder
from host.read_models import Where
from host.settings import ServerSettings
from host.table_feed import TableFeed, TableRecord
from i18n import t
from render.markup import escape_name

log = logging.getLogger(__name__)


def table_link(table: TableRecord) -> str:
    """A jump link to the table's newest message (or its channel)."""
    return link(Where(table.guild_id, table.channel_id, table.message_id))


#: Discord's code for a DM the member's settings refuse ("Cannot send messages to this user").
DMS_CLOSED = 50007


class Notices:
    def __init__(self, bot: commands.Bot, feed: TableFeed, access: LostChannels | None = None,
                 settings: ServerSettings | None = None, speakers: Speakers | None = None) -> None:
        self.bot = bot
        #: Reminders and notes in the channel speak the server's language, a DM the member's.
        self.speakers = speakers or Speakers(bot, settings)
        self.feed = feed
        #: Whose servers turned reminders off (None: every server gets them).
        self.settings = settings
        self._dm_refused: set[int] = set()
        self.access = access or LostChannels()
        #: Pauses a table whose channel refused the bot (set by the table poster).
        self.lose: Callable[[TableRecord], Awaitable[None]] | None = None

    async def notify_turn(self, table: TableRecord, seats: Sequence[int], *, reminder: bool = False) -> list[int]:
        """DM opted-in players that it is their turn (or half their time is gone); returns those not reached."""
        unreached: list[int] = []
        engine_title = get_engine(table.game).title
        guild = self.bot.get_guild(table.guild_id or 0)
        for seat in seats:
            record = table.seats[seat]
            if record.bot_plays or record.user_id is None:
                continue
            if not await self.feed.wants_dm(record.user_id):
                continue
            lang = await self.speakers.dm(record.user_id)
            where = escape_name(guild.name) if guild is not None else t(lang, "your server")
            text = (t(lang, "Half your time is gone at **{title}**, table #{table}, in **{server}**: {link}",
                      title=engine_title, table=table.id, server=where, link=table_link(table)) if reminder
                    else t(lang, "It's your turn at **{title}**, table #{table}, in **{server}**: {link}",
                           title=engine_title, table=table.id, server=where, link=table_link(table)))
            try:
                user = self.bot.get_user(record.user_id) or await self.bot.fetch_user(record.user_id)
                await user.send(text)
            except discord.HTTPException as exc:
                if exc.code == DMS_CLOSED:
                    # Asking again each turn would only collect refusals: DMs stay off until the member turns
                    # them on, and they hear why once, in the table's channel.
                    await self.feed.dms_refused(record.user_id)
                    await self._tell_dms_off(table, record.user_id)
                elif record.user_id not in self._dm_refused:
                    self._dm_refused.add(record.user_id)
                    log.info("direct messages to user %s are refused (%s); pinging in the channel instead",
                             record.user_id, getattr(exc, "code", exc))
                unreached.append(seat)
        return unreached

    async def _tell_dms_off(self, table: TableRecord, user_id: int) -> None:
        log.info("direct messages to user %s are refused (50007): their turn DMs are off", user_id)
        lang = await self.speakers.channel(table.guild_id)
        text = t(lang, "{member}, Discord won't let me send you direct messages, so I've turned your turn DMs off. "
                 "You are still pinged here; `{/game notify dm:on}` turns them back on once your DMs are open.",
                 member=f"<@{user_id}>")
        try:
            delivery = await self.access.send(self.bot, table.guild_id, table.channel_id, text,
                                              allowed_mentions=discord.AllowedMentions(
                                                  everyone=False, roles=False, users=[discord.Object(user_id)]))
        except discord.HTTPException:
            delivery = None  # a note beside the game: not retried
        if delivery in (None, Delivery.REFUSED):
            log.warning("could not tell user %s in table %s's channel that their DMs are off", user_id, table.id)

    async def remind(self, reminders: list[Reminder]) -> None:
        """One reminder message per table and instant, mentioning only the players still to act."""
        for table, shown in await self.feed.reminder_messages(reminders):
            if self.settings is not None and not (await self.settings.get(table.guild_id)).reminders:
                continue
            await self.notify_turn(table, shown.seats, reminder=True)
            lang = await self.speakers.channel(table.guild_id)
            # Skipped when the channel refused the bot within the hour, or the server removed it.
            delivery = await self.access.send(self.bot, table.guild_id, table.channel_id,
                                              **reminder_message(shown, lang).send_kwargs())
            if delivery is Delivery.REFUSED and self.lose is not None:
                await self.lose(table)
