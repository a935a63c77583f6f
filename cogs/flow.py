"""Play at a table through Discord: the controls, the hand panel, table messages and paced bots."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord
from discord.ext import commands

from cogs.controls import Control
from cogs.guard import Guard
from cogs.menu import NAV
from cogs.presenter import Outgoing, hand_message, lobby_message, table_message
from data.store import ActionRecord, TableRecord
from host import ActOutcome, LobbyChange, Refusal, StaleClick, TableService

log = logging.getLogger(__name__)

BAD_CONTROL = ("That control isn't one I recognise (it may be damaged). "
               "Use the table's **Hand / act** button or `/play` instead.")
LOBBY_CLOSED = "Everyone left, so the table is closed."


def is_manager(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


async def reply(interaction: discord.Interaction, out: Outgoing, *, ephemeral: bool) -> None:
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=ephemeral, **out.send_kwargs())
    else:
        await interaction.response.send_message(ephemeral=ephemeral, **out.send_kwargs())


def log_lines(records: Sequence[ActionRecord]) -> list[str]:
    return [line for r in records for line in (r.label, *r.events)]


class TableFlow:
    """Everything that happens at a table after it is opened, shared by the commands and the controls."""

    def __init__(self, bot: commands.Bot, tables: TableService, guard: Guard, bot_delay: float) -> None:
        self.bot = bot
        self.tables = tables
        self.guard = guard
        self.bot_delay = bot_delay
        self._runners: dict[int, asyncio.Task[None]] = {}

    async def close(self) -> None:
        runners = [t for t in self._runners.values() if not t.done()]
        for task in runners:
            task.cancel()
        if runners:
            await asyncio.gather(*runners, return_exceptions=True)
        self._runners.clear()

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
        out = Outgoing(f"{note} {LOBBY_CLOSED}") if change.closed else lobby_message(change.table, note)
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
        if message is not None and not message.flags.ephemeral:
            await interaction.response.edit_message(**lobby_message(table, "The game has started.").edit_kwargs())
        else:
            await interaction.response.send_message(f"The game begins! Seats: {seats}")
        await self.post_table(table, [f"The game begins! Seats: {seats}"], interaction.channel)
        self.schedule_bots(table.id)

    # ------------------------------------------------------------------ hands

    async def show_hand(self, interaction: discord.Interaction, table_id: int, *, prefix: str = "",
                        note: str = "", fresh: bool = False) -> None:
        """The seat's private panel: edited in place from an ephemeral panel, else a new ephemeral."""
        info = await self.tables.hand(table_id, interaction.user.id)
        out = hand_message(info, prefix, note)
        message = interaction.message
        if not fresh and message is not None and message.flags.ephemeral and not interaction.response.is_done():
            await interaction.response.edit_message(**out.edit_kwargs())
        else:
            await reply(interaction, out, ephemeral=True)

    async def after_action(self, interaction: discord.Interaction, outcome: ActOutcome, *, edit: bool) -> None:
        """Acknowledge the actor with their fresh panel, then tell the table."""
        info = await self.tables.hand(outcome.table.id, interaction.user.id)
        out = hand_message(info, note=f"✅ {outcome.line.replace('**', '')}")
        message = interaction.message
        if edit and message is not None and message.flags.ephemeral:
            await interaction.response.edit_message(**out.edit_kwargs())
        else:
            await reply(interaction, out, ephemeral=True)
        if outcome.turn_changed:
            await self.post_table(outcome.table, None, interaction.channel)
        self.schedule_bots(outcome.table.id)

    # --------------------------------------------------------- table + bots

    async def post_table(self, table: TableRecord, lines: list[str] | None, channel: Any = None) -> None:
        """Post a fresh table message with everything since the last one."""
        if lines is None:
            lines = log_lines(await self.tables.store.actions(table.id, table.posted_version))
        if channel is None or getattr(channel, "id", None) != table.channel_id:
            channel = self.bot.get_channel(table.channel_id) or await self.bot.fetch_channel(table.channel_id)
        out = await table_message(self.tables, table, lines)
        await channel.send(**out.send_kwargs())
        await self.tables.mark_posted(table)

    def schedule_bots(self, table_id: int) -> None:
        if self.guard.closing:
            return
        running = self._runners.get(table_id)
        if running is not None and not running.done():
            return
        self._runners[table_id] = asyncio.create_task(self._run_bots(table_id), name=f"bots-{table_id}")

    async def _run_bots(self, table_id: int) -> None:
        """Let bot seats move one at a time, paced so the channel stays readable."""
        try:
            while await self.tables.bots_to_act(table_id):
                await asyncio.sleep(self.bot_delay)
                outcome = await self.tables.bot_step(table_id)
                if outcome is None:
                    break
                if outcome.turn_changed:
                    await self.post_table(outcome.table, None)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot runner failed (table %s)", table_id)

    async def resume(self) -> None:
        """After a restart: post table messages that were committed but never sent, and let due bots move."""
        for table in await self.tables.store.playing_tables():
            try:
                if table.posted_version < table.version:
                    await self.post_table(await self.tables.get(table.id), None)
                if await self.tables.bots_to_act(table.id):
                    self.schedule_bots(table.id)
            except Exception:
                log.exception("could not resume table %s", table.id)
