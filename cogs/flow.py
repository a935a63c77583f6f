"""Play at a table through Discord: the controls, the hand panel, table messages and paced bots."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import timedelta
from typing import Any

import discord
from discord.ext import commands

from cogs.controls import BAD_CONTROL, Control
from cogs.guard import Guard, is_manager
from cogs.menu import NAV
from cogs.presenter import Outgoing, hand_message, lobby_message, move_done_message, reply, table_message
from data.store import ActionRecord, TableRecord
from data.timers import ARCHIVE, BOT, DEADLINE, LOBBY, REMINDER, TimerPlan, TimerRecord
from engines import get_engine
from host import ActOutcome, LobbyChange, Refusal, Reminder, SeatNotice, StaleClick, TableService
from host.settings import ServerSettings
from host.shards import Shards

log = logging.getLogger(__name__)

EDIT_WINDOW = timedelta(hours=1)
LOBBY_CLOSED = "Everyone left, so the table is closed."


def log_lines(records: Sequence[ActionRecord]) -> list[str]:
    return [line for r in records for line in (r.label, *r.events)]


class TableFlow:
    """Everything that happens at a table after it is opened, shared by the commands and the controls."""

    def __init__(self, bot: commands.Bot, tables: TableService, guard: Guard, bot_delay: float, *,
                 settings: ServerSettings | None = None, shards: Shards | None = None,
                 on_finished: Callable[[TableRecord], Awaitable[None]] | None = None) -> None:
        self.bot = bot
        self.tables = tables
        self.guard = guard
        self.bot_delay = bot_delay
        self._dm_refused: set[int] = set()
        #: The version each table's newest message started from, so an edit retells all its steps.
        self._message_base: dict[int, int] = {}
        self.settings = settings
        #: Told when a table's final message went out (a tournament table's round may be over).
        self.on_finished = on_finished
        #: The shards this process holds (None: all): start-up catches up only their guilds' tables.
        self.shards = shards
        #: One table message at a time per table (its image is drawn off the event loop, and a bot's move
        #: may be shown meanwhile), and the newest version shown, so an older state never follows a newer.
        self._showing: dict[int, asyncio.Lock] = {}
        self._shown: dict[int, int] = {}

    # --------------------------------------------------------------- controls

    async def on_control(self, interaction: discord.Interaction, control: Control, values: Sequence[str]) -> None:
        async def stale(exc: StaleClick) -> None:
            await self.show_hand(interaction, exc.table_id, note=f"⏩ {exc}", fresh=True)

        async def work() -> None:
            if control.kind == "l":
                await self._lobby_control(interaction, control)
                return
            if control.kind == "h":
                # Opening a hand changes nothing, so it needs no version: any table message opens the current one.
                await self.show_hand(interaction, control.table_id)
                return
            if control.kind == "a":
                action = control.action
            else:
                if len(values) != 1:
                    raise Refusal(BAD_CONTROL)
                action = values[0]
                if action.startswith(NAV):
                    table = await self.tables.get(control.table_id)
                    if table.version != control.version:
                        raise StaleClick(table.id)
                    await self.show_hand(interaction, table.id, prefix=action[len(NAV):])
                    return
            outcome = await self.tables.act(control.table_id, interaction.user.id, action, control.version)
            await self.after_action(interaction, outcome, edit=True)

        await self.guard.run(interaction, work, table_id=control.table_id, on_stale=stale)

    async def _lobby_control(self, interaction: discord.Interaction, control: Control) -> None:
        table = await self.tables.get(control.table_id)
        if table.channel_id != interaction.channel_id:
            raise Refusal(BAD_CONTROL)
        user = interaction.user
        if control.action == "start":
            await self.start(interaction, table.id)
            return
        changes: dict[str, tuple[Callable[[], Awaitable[LobbyChange]], str]] = {
            "join": (lambda: self.tables.join(table.channel_id, user.id, user.display_name, table.id),
                     f"{user.display_name} joined."),
            "leave": (lambda: self.tables.leave(table.channel_id, user.id, table.id), f"{user.display_name} left."),
            "addbot": (lambda: self.tables.add_bot(table.channel_id, user.id, is_manager(interaction), table.id),
                       "A bot sat down."),
        }
        if control.action not in changes:
            raise Refusal(BAD_CONTROL)
        change, note = changes[control.action]
        await self.lobby_changed(interaction, await change(), note)

    async def lobby_changed(self, interaction: discord.Interaction, change: LobbyChange, note: str) -> None:
        """Show a committed lobby change: the lobby message edited in place, or a new one."""
        out = (Outgoing(f"{note} {LOBBY_CLOSED}") if change.closed
               else lobby_message(self.tables.lobby(change.table), note))
        message = interaction.message
        if message is not None and not message.flags.ephemeral:
            kwargs = out.edit_kwargs()
            if change.closed:
                kwargs.update(embed=None, view=None)
            await interaction.response.edit_message(**kwargs)
        else:
            await reply(interaction, out, ephemeral=False)

    async def start(self, interaction: discord.Interaction, table_id: int | None = None) -> None:
        table = await self.tables.start(interaction.channel_id or 0, interaction.user.id, is_manager(interaction),
                                        table_id)
        seats = ", ".join(f"{s.position + 1}. {s.name}" for s in table.seats)
        message = interaction.message
        answered = True
        try:
            if message is not None and not message.flags.ephemeral:
                started = lobby_message(self.tables.lobby(table), "The game has started.")
                await interaction.response.edit_message(**started.edit_kwargs())
            else:
                await interaction.response.send_message(f"The game begins! Seats: {seats}")
        except Exception:
            # The game has started whatever became of the answer: the table still needs its message,
            # and the first player the ping and the clock that come with it.
            log.exception("a started table's answer failed (table %s)", table.id)
            answered = False
        to_act = get_engine(table.game).to_act(await self.tables.state(table))
        await self.post_table(table, [f"The game begins! Seats: {seats}"], interaction.channel, to_act)
        if not answered:
            raise Refusal(f"The game has started (seats: {seats}); the table message is in the channel.")

    # ------------------------------------------------------------------ hands

    async def show_hand(self, interaction: discord.Interaction, table_id: int, *, prefix: str = "",
                        note: str = "", fresh: bool = False) -> None:
        """The seat's private panel: edited in place from an ephemeral panel, else a new ephemeral."""
        info = await self.tables.hand(table_id, interaction.user.id)
        out = await hand_message(info, prefix, note)
        message = interaction.message
        if not fresh and message is not None and message.flags.ephemeral and not interaction.response.is_done():
            await interaction.response.edit_message(**out.edit_kwargs())
        else:
            await reply(interaction, out, ephemeral=True)

    async def after_action(self, interaction: discord.Interaction, outcome: ActOutcome, *, edit: bool) -> None:
        """Acknowledge the actor (with their fresh panel if they still have a move to make), then tell the table.

        The move is committed before this runs, so the table is told even when the answer fails (an expired
        interaction, a Discord error, a picture that could not be drawn): otherwise the next player would
        get no ping while their clock ran. The member then learns that the move stands, not to retry it.
        """
        note = f"✅ {outcome.line.replace('**', '')}"
        answered = True
        try:
            info = await self.tables.hand(outcome.table.id, interaction.user.id)
            out = await hand_message(info, note=note) if info.choices else move_done_message(info, note)
            message = interaction.message
            if edit and message is not None and message.flags.ephemeral:
                await interaction.response.edit_message(**out.edit_kwargs())
            else:
                await reply(interaction, out, ephemeral=True)
        except Exception:
            log.exception("a committed move's answer failed (table %s, user %s)", outcome.table.id,
                          interaction.user.id)
            answered = False
        await self.show_step(outcome, interaction.channel)
        if not answered:
            raise Refusal(f"{note}: your move was made, but its answer could not be shown. "
                          "Open **Hand / act** on the table message to go on.")

    async def show_step(self, outcome: ActOutcome, channel: Any = None) -> None:
        """After a move: a new table message when the turn moved on, else the current one brought up to date.

        A table where only bots sit (a tournament pod of bot entrants) posts its start and its result,
        not each move: nobody there needs a turn's picture, and drawing hundreds of them would slow
        every other table. ``/game status`` in its thread shows it as it stands.
        """
        if not outcome.over and all(s.is_bot for s in outcome.table.seats):
            return
        if outcome.turn_changed:
            table = outcome.table
            # When the last table message showed the move before this one, the log since then is this move
            # alone, and it is in hand: no need to read it back (one round trip a move on PostgreSQL).
            lines = [outcome.line, *outcome.events] if table.posted_version == table.version - 1 else None
            await self.post_table(table, lines, channel, outcome.entered)
        else:
            await self.refresh_table(outcome.table, channel)

    # ------------------------------------------------------------ table messages

    def _superseded(self, table: TableRecord) -> bool:
        """A newer version of the table is already on show: this one would only take the channel back."""
        return self._shown.get(table.id, -1) > table.version

    def _showed(self, table: TableRecord) -> None:
        # Kept after the game ends too: a late message for an earlier move must not follow the final one.
        self._shown[table.id] = max(self._shown.get(table.id, -1), table.version)

    async def refresh_table(self, table: TableRecord, channel: Any = None) -> None:
        """A step inside one decision (a discard, an effect's choice): the newest table message shows it.

        A recent message is edited in place, which keeps the channel short; one older than an hour
        (Discord throttles edits to those) is replaced by a new message instead.
        """
        async with self._showing.setdefault(table.id, asyncio.Lock()):
            if not self._superseded(table):
                await self._refresh_table(table, channel)

    async def _refresh_table(self, table: TableRecord, channel: Any = None) -> None:
        message_id = table.message_id
        if message_id is None or discord.utils.utcnow() - discord.utils.snowflake_time(message_id) > EDIT_WINDOW:
            await self._post_table(table, None, channel)
            return
        if channel is None or getattr(channel, "id", None) != table.channel_id:
            channel = await self.channel_of(table.channel_id)
        # The edited message tells every step since it was posted (collapsed), not only the last one.
        base = self._message_base.get(table.id, table.posted_version)
        lines = log_lines(await self.tables.store.tables.actions(table.id, base))
        out = await table_message(await self.tables.table_view(table, lines))
        try:
            await channel.get_partial_message(message_id).edit(**out.edit_kwargs())
        except discord.HTTPException:
            await self._post_table(table, None, channel)
            return
        self._showed(table)
        await self.tables.mark_posted(table, message_id)

    async def channel_of(self, channel_id: int) -> Any:
        return self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)

    async def deadlines(self, table: TableRecord) -> dict[int, float | None]:
        return await self.tables.deadlines(table)

    async def post_table(self, table: TableRecord, lines: list[str] | None, channel: Any = None,
                         entered: Sequence[int] = ()) -> None:
        """Post a fresh table message with everything since the last one, then tell whose turn it became."""
        async with self._showing.setdefault(table.id, asyncio.Lock()):
            if not self._superseded(table):
                await self._post_table(table, lines, channel, entered)

    async def _post_table(self, table: TableRecord, lines: list[str] | None, channel: Any = None,
                          entered: Sequence[int] = ()) -> None:
        if lines is None:
            lines = log_lines(await self.tables.store.tables.actions(table.id, table.posted_version))
        if channel is None or getattr(channel, "id", None) != table.channel_id:
            channel = await self.channel_of(table.channel_id)
        out = await table_message(await self.tables.table_view(table, lines))
        message = await channel.send(**out.send_kwargs())
        self._showed(table)
        self._message_base[table.id] = table.posted_version
        await self.tables.mark_posted(table, message.id)
        if table.status == "finished" and table.parent_id is not None:
            await self._tell_parent(table, out.content)
        if table.status == "finished" and self.on_finished is not None:
            await self.on_finished(table)
        if entered and table.status == "playing":
            await self.notify_turn(replace(table, message_id=message.id), entered)

    async def _tell_parent(self, table: TableRecord, text: str) -> None:
        """A thread table's result is also posted in the channel the thread belongs to."""
        try:
            parent = await self.channel_of(table.parent_id or 0)
            await parent.send(f"{text}\n(in <#{table.channel_id}>)"[:2000],
                              allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.warning("could not post table %s's result in its parent channel", table.id)

    # ------------------------------------------------------------------ notices

    def link(self, table: TableRecord) -> str:
        if table.message_id:
            return f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/{table.message_id}"
        return f"https://discord.com/channels/{table.guild_id}/{table.channel_id}"

    async def notify_turn(self, table: TableRecord, seats: Sequence[int], *, reminder: bool = False) -> list[int]:
        """DM opted-in players that it is their turn (or half their time is gone); returns those not reached."""
        unreached: list[int] = []
        engine_title = get_engine(table.game).title
        guild = self.bot.get_guild(table.guild_id or 0)
        where = guild.name if guild is not None else "your server"
        for seat in seats:
            record = table.seats[seat]
            if record.bot_plays or record.user_id is None:
                continue
            if not await self.tables.store.settings.dm_notify(record.user_id):
                continue
            what = "Half your time is gone" if reminder else "It's your turn"
            text = f"{what} at **{engine_title}**, table #{table.id}, in **{where}**: {self.link(table)}"
            try:
                user = self.bot.get_user(record.user_id) or await self.bot.fetch_user(record.user_id)
                await user.send(text)
            except discord.HTTPException as exc:
                if record.user_id not in self._dm_refused:
                    self._dm_refused.add(record.user_id)
                    log.info("direct messages to user %s are refused (%s); pinging in the channel instead",
                             record.user_id, getattr(exc, "code", exc))
                unreached.append(seat)
        return unreached

    async def remind(self, reminders: list[Reminder]) -> None:
        """One reminder message per table and instant, mentioning only the players still to act."""
        groups: dict[tuple[int, float], list[Reminder]] = {}
        for r in reminders:
            groups.setdefault((r.table.id, r.due), []).append(r)
        for group in groups.values():
            table = group[0].table
            if self.settings is not None and not (await self.settings.get(table.guild_id)).reminders:
                continue
            seats = sorted({s for r in group for s in r.seats})
            deadlines = await self.deadlines(table)
            await self.notify_turn(table, seats, reminder=True)
            users = [table.seats[s].user_id for s in seats if table.seats[s].user_id]
            due = max((deadlines.get(s) or 0) for s in seats)
            text = (f"⏰ {' '.join(f'<@{u}>' for u in users)}: half your time is gone at table #{table.id}; "
                    f"it runs out <t:{int(due)}:R>. {self.link(table)}")
            channel = await self.channel_of(table.channel_id)
            await channel.send(text, allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(u) for u in users]))

    async def show_notice(self, notice: SeatNotice, channel: Any = None) -> None:
        """Post the moves a seat change made (a timeout's bot moves), then what else it did, if anything."""
        for outcome in notice.outcomes:
            if outcome.turn_changed:
                await self.post_table(outcome.table, None, channel, outcome.entered)
        current = await self.tables.reload(notice.table.id)
        lines = log_lines(await self.tables.store.tables.actions(current.id, current.posted_version)) + notice.lines
        if notice.outcomes and not lines:
            return  # the moves' own table messages told it all
        await self.post_table(current, lines, channel)

    # ----------------------------------------------------------------- timers

    async def fire(self, timers: list[TimerRecord]) -> list[TimerRecord]:
        """The scheduler's handler: each due timer acts through the same write-ahead paths as a click.

        Returns the timers whose handling failed, for the scheduler to retry.
        """
        reminders: list[Reminder] = []
        failed: list[TimerRecord] = []
        for timer in timers:
            try:
                if timer.kind == BOT:
                    await self._bot_turn(timer)
                elif timer.kind == DEADLINE:
                    notice = await self.tables.timeout(timer)
                    if notice is not None:
                        await self.show_notice(notice)
                elif timer.kind == REMINDER:
                    found = await self.tables.reminder(timer)
                    if found is not None:
                        reminders.append(found)
                elif timer.kind == LOBBY:
                    closed = await self.tables.lobby_timeout(timer)
                    if closed is not None:
                        channel = await self.channel_of(closed.channel_id)
                        await channel.send(f"Table #{closed.id} closed itself: its lobby never started.")
                elif timer.kind == ARCHIVE:
                    await self._archive(timer)
            except Exception:
                log.exception("timer %s for table %s (seat %s) failed", timer.kind, timer.table_id, timer.seat)
                failed.append(timer)
        if reminders:
            try:
                await self.remind(reminders)
            except Exception:
                log.exception("reminders failed")
        return failed

    async def _bot_turn(self, timer: TimerRecord) -> None:
        try:
            outcome = await self.tables.bot_step(timer.table_id)
        except StaleClick:
            return  # the table moved on while the bot thought; the newer change's bot timer tries again
        if outcome is None:
            await self.tables.drop_idle_bot_timer(timer.table_id)
            return
        await self.show_step(outcome)

    async def _archive(self, timer: TimerRecord) -> None:
        table = await self.tables.get(timer.table_id)
        try:
            thread = await self.channel_of(table.channel_id)
            if isinstance(thread, discord.Thread):
                await thread.edit(archived=True)
        except discord.NotFound:
            pass  # the thread is gone: nothing left to archive
        # Dropped only now: when Discord fails, the scheduler retries the timer it still finds.
        await self.tables.store.timers.change_timers(timer.table_id, TimerPlan(drop_kinds=[ARCHIVE]))

    async def resume(self) -> None:
        """After a restart: post table messages that were committed but never sent; the scheduler does the rest."""
        for table in await self.tables.store.tables.unposted_tables(self.shards):
            try:
                await self.post_table(await self.tables.get(table.id), None)
            except Exception:
                log.exception("could not catch up table %s", table.id)
