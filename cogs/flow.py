"""Play at a table through Discord: the controls, the lobby, the start and the hand panel.

The other jobs at a table live beside it, each in its own module: table messages and catch-up
(``cogs.posting``), timers and bots' turns (``cogs.timers``), reminders and DMs (``cogs.notices``).
:class:`TableFlow` builds them and hands each caller the one it needs.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord
from discord.ext import commands

import i18n
from cogs.access import Delivery, LostChannels, channel_of
from cogs.answers import reply
from cogs.controls import BAD_CONTROL, Control
from cogs.guard import Guard, is_manager, refusal_text
from cogs.lobbies import SETTLED_NOTES, LobbyMessages
from cogs.locales import Speakers, member_language
from cogs.menu import NAV
from cogs.notices import Notices, table_link
from cogs.posting import TablePoster
from cogs.presenter import Outgoing, hand_message, lobby_message, move_done_message, said
from cogs.timers import TimerRunner
from engines import get_engine
from host import ActOutcome, LobbyChange, Refusal, Reminder, SeatNotice, StaleClick, TableService
from host.languages import MemberLanguages
from host.metrics import Recorder
from host.settings import ServerSettings
from host.shards import Shards
from host.table_feed import TableFeed, TableRecord, TimerRecord, log_lines  # noqa: F401 - cogs.game reads it here
from host.tasks import Tasks
from render.markup import escape_name, unbold

log = logging.getLogger(__name__)

LOBBY_CLOSED = i18n.N_("Everyone left, so the table is closed.")
#: A lobby's notes, message ids with the member's name as ``{player}``.
JOINED = i18n.N_("{player} joined.")
LEFT = i18n.N_("{player} left.")
BOT_SAT = i18n.N_("A bot sat down.")
#: The line a table starts with, in its lobby's answer and its first table message.
BEGINS = i18n.N_("The game begins! Seats: {seats}")


class TableFlow:
    """Everything that happens at a table after it is opened, shared by the commands and the controls."""

    def __init__(self, bot: commands.Bot, tables: TableService, guard: Guard, bot_delay: float, *,
                 settings: ServerSettings | None = None, shards: Shards | None = None,
                 on_finished: Callable[[TableRecord], Awaitable[None]] | None = None,
                 feed: TableFeed | None = None, tasks: Tasks | None = None, recorder: Recorder | None = None,
                 languages: MemberLanguages | None = None) -> None:
        self.bot = bot
        self.tables = tables
        self.guard = guard
        self.bot_delay = bot_delay
        self.settings = settings
        self.feed = feed or TableFeed(tables.store)
        self.tasks = tasks or Tasks()
        #: What the server's channels read and each member's DMs speak.
        self.speakers = Speakers(bot, settings, languages)
        self.notices = Notices(bot, self.feed, settings=settings, speakers=self.speakers)
        # The lobby messages are edited when a table's game ends, so the poster is built with them.
        self.lobbies = LobbyMessages(tables, functools.partial(channel_of, bot), language=self.channel_lang)
        #: ``on_finished`` is told when a table's final message went out (a tournament table's round may be
        #: over); ``recorder`` how long each table post took.
        self.poster = TablePoster(bot, tables, self.feed, self.notices, self.tasks, lobbies=self.lobbies,
                                  on_finished=on_finished, recorder=recorder, speakers=self.speakers)
        self.access.on_gone = self.channel_deleted  # also for the poster's own fetches and posts
        self.timers = TimerRunner(tables, self.feed, self.poster, self.notices)
        #: The shards this process holds (None: all): start-up catches up only their guilds' tables.
        self.shards = shards

    async def channel_lang(self, guild_id: int | None) -> str:
        """What a server's channels read: its ``language`` setting (``auto``: its Discord language)."""
        return await self.speakers.channel(guild_id)

    async def fire(self, timers: list[TimerRecord]) -> list[TimerRecord]:
        return await self.timers.fire(timers)

    async def resume(self) -> None:
        # Tables paused because their channel refused the bot: probed hourly, resumed by an interaction there.
        # Which hour the last request fell in is not kept across a restart, so each such channel counts as
        # refused now: its first request comes an hour after the start (at most one an hour, however often
        # the bot restarts), and catch-up sends it nothing before that.
        lost = [(table_id, channel_id, guild_id) for table_id, channel_id, guild_id in await self.tables.lost_tables()
                if self.shards is None or self.shards.owns(guild_id)]  # else another process holds that server
        for _, channel_id, guild_id in lost:
            self.access.refused(channel_id)
            if guild_id is not None and self.bot.get_guild(guild_id) is None:
                self.access.gone_guilds.add(guild_id)  # removed while the bot was down: its re-invite resumes it
        await self.poster.catch_up(self.shards)
        for table_id, _, guild_id in lost:
            if guild_id is None or guild_id not in self.access.gone_guilds:
                await self.poster.lose(await self.tables.get(table_id))

    # ------------------------------------------------------- a changing server

    @property
    def access(self) -> LostChannels:
        return self.poster.access

    async def reached(self, channel_id: int, *, regain: bool = True) -> None:
        """An interaction in a channel answers there: the bot may post there again, and (with ``regain``)
        the tables it paused there play on."""
        self.access.succeeded(channel_id)
        for table_id in sorted(self.poster.lost.get(channel_id, ()) if regain else ()):
            await self.poster.regain(table_id)

    async def channel_deleted(self, channel_id: int) -> None:
        """A deleted channel or thread: its tables (and those of its threads) end as abandoned, timers too."""
        self.access.forget(channel_id)
        self.poster.lost.pop(channel_id, None)
        for table_id in await self.tables.open_tables_in(channel_id):
            closed = await self.tables.close_deleted(table_id)
            if closed is None:
                continue
            drawn = closed.status == "finished"  # a tournament's table: a draw, and its round may be over
            log.info("table %s %s: channel deleted (%s)", table_id, "drawn" if drawn else "abandoned", channel_id)
            if drawn:
                self.poster.tell_finished(closed)
            parent = closed.parent_id
            if parent is not None and parent != channel_id:
                # A thread table's channel still exists: the people there learn why the table ended.
                lang = await self.channel_lang(closed.guild_id)  # the channel reads it: the server's language
                game = i18n.title(lang, get_engine(closed.game).title)
                text = (i18n.t(lang, "🗑️ Table #{table} ({game}) ended as a draw, every side sharing first place: its "
                                     "thread was deleted.", table=closed.id, game=game) if drawn else
                        i18n.t(lang, "🗑️ Table #{table} ({game}) was closed as abandoned: channel deleted (its "
                                     "thread is gone).", table=closed.id, game=game))
                try:
                    delivery = await self.access.send(self.bot, closed.guild_id, parent, text,
                                                      allowed_mentions=discord.AllowedMentions.none())
                except discord.HTTPException:
                    delivery = None  # a note beside the game: not retried
                if delivery in (None, Delivery.REFUSED):
                    log.warning("could not tell channel %s that table %s was closed", parent, closed.id)

    async def guild_removed(self, guild_id: int) -> None:
        """The server removed the bot: no timer or retry of it asks Discord anything until a re-invite.
        Its games are paused as the bot's own doing (their data is kept); its probes stop."""
        self.access.gone_guilds.add(guild_id)
        self.poster.stop_probes(guild_id)
        for table in await self.feed.playing_in_guild(guild_id):
            await self.poster.lose(table)
        await self.tables.hold_lobbies(guild_id, hold=True)
        log.info("removed from server %s: its tables wait for a re-invite", guild_id)

    async def guild_joined(self, guild_id: int) -> None:
        """Invited (back): the server's games that the bot paused play on, each posted afresh."""
        self.access.gone_guilds.discard(guild_id)
        await self.tables.hold_lobbies(guild_id, hold=False)
        for table_id, _, _ in await self.tables.lost_tables(guild_id):
            await self.poster.regain(table_id)

    async def post_table(self, table: TableRecord, lines: list[str] | None, channel: Any = None,
                         entered: Sequence[int] = ()) -> None:
        await self.poster.post_table(table, lines, channel, entered)

    async def refresh_table(self, table: TableRecord, channel: Any = None) -> None:
        await self.poster.refresh_table(table, channel)

    async def show_step(self, outcome: ActOutcome, channel: Any = None) -> None:
        await self.poster.show_step(outcome, channel)

    async def show_notice(self, notice: SeatNotice, channel: Any = None) -> None:
        await self.poster.show_notice(notice, channel)

    async def channel_of(self, channel_id: int) -> Any:
        return await self.poster.channel_of(channel_id)

    async def deadlines(self, table: TableRecord) -> dict[int, float | None]:
        return await self.feed.deadlines(table)

    def link(self, table: TableRecord) -> str:
        return table_link(table)

    async def notify_turn(self, table: TableRecord, seats: Sequence[int], *, reminder: bool = False) -> list[int]:
        return await self.notices.notify_turn(table, seats, reminder=reminder)

    async def remind(self, reminders: list[Reminder]) -> None:
        await self.notices.remind(reminders)

    # --------------------------------------------------------------- controls

    async def on_control(self, interaction: discord.Interaction, control: Control, values: Sequence[str]) -> None:
        async def stale(exc: StaleClick) -> None:
            note = f"⏩ {refusal_text(exc, member_language(interaction))}"  # a private note: the member's language
            await self.show_hand(interaction, exc.table_id, note=note, fresh=True)

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
            "join": (lambda: self.tables.join(table.channel_id, user.id, user.display_name, table.id), JOINED),
            "leave": (lambda: self.tables.leave(table.channel_id, user.id, table.id), LEFT),
            "addbot": (lambda: self.tables.add_bot(table.channel_id, user.id, is_manager(interaction), table.id),
                       BOT_SAT),
        }
        if control.action not in changes:
            raise Refusal(BAD_CONTROL)
        change, note = changes[control.action]
        await self.lobby_changed(interaction, await change(), note, player=escape_name(user.display_name))

    async def lobby_changed(self, interaction: discord.Interaction, change: LobbyChange, note: str,
                            **params: object) -> None:
        """Show a committed lobby change: the lobby message edited in place, or a new one.

        ``note`` is a message id with its ``params``: the lobby is the channel's, so it reads the server's
        language."""
        lang = await self.channel_lang(change.table.guild_id)
        said = i18n.t(lang, note, **params)
        out = (Outgoing(f"{said} {i18n.t(lang, LOBBY_CLOSED)}") if change.closed
               else lobby_message(self.tables.lobby(change.table), said, lang))
        message = interaction.message
        edited = None
        if message is not None and not message.flags.ephemeral:
            kwargs = out.edit_kwargs()
            if change.closed:
                kwargs.update(embed=None, view=None)
            await interaction.response.edit_message(**kwargs)
            edited = message
        else:
            posted = await reply(interaction, out, ephemeral=False, want_message=not change.closed)
            if posted is not None:
                await self.lobbies.remember(change.table.id, posted, lang=lang)
        if change.closed:
            await self.lobbies.settle(change.table, edited=edited.id if edited else None)

    async def start(self, interaction: discord.Interaction, table_id: int | None = None) -> None:
        table = await self.tables.start(interaction.channel_id or 0, interaction.user.id, is_manager(interaction),
                                        table_id)
        seats = ", ".join(f"{s.position + 1}. {escape_name(s.name)}" for s in table.seats)
        message = interaction.message
        answered = True
        edited = None
        lang = await self.channel_lang(table.guild_id)  # the start is the channel's news
        try:
            if message is not None and not message.flags.ephemeral:
                started = lobby_message(self.tables.lobby(table), i18n.t(lang, SETTLED_NOTES["playing"]), lang)
                await interaction.response.edit_message(**started.edit_kwargs())
                edited = message.id
            else:
                await interaction.response.send_message(i18n.t(lang, BEGINS, seats=seats))
        except Exception:
            # The game has started whatever became of the answer: the table still needs its message,
            # and the first player the ping and the clock that come with it.
            log.exception("a started table's answer failed (table %s)", table.id)
            answered = False
        await self.lobbies.settle(table, edited=edited)
        to_act = get_engine(table.game).to_act(await self.tables.state(table))
        await self.post_table(table, [i18n.t(lang, BEGINS, seats=seats)], interaction.channel, to_act)
        if not answered:
            raise Refusal(i18n.N_("The game has started (seats: {seats}); the table message is in the channel."),
                          seats=seats)

    # ------------------------------------------------------------------ hands

    async def show_hand(self, interaction: discord.Interaction, table_id: int, *, prefix: str = "",
                        note: str = "", fresh: bool = False) -> None:
        """The seat's private panel: edited in place from an ephemeral panel, else a new ephemeral."""
        lang = member_language(interaction)  # a private panel: the member's language
        info = await self.tables.hand(table_id, interaction.user.id, lang)
        out = await hand_message(info, prefix, note, lang)
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
        lang = member_language(interaction)  # the actor's private answer
        note = f"✅ {unbold(said(lang, outcome.line))}"
        answered = True
        try:
            await self.poster.begin_step(outcome)
        except Exception:
            log.exception("table %s's picture could not be begun early (its message draws it)", outcome.table.id)
        try:
            info = await self.tables.hand(outcome.table.id, interaction.user.id, lang)
            out = (await hand_message(info, note=note, lang=lang) if info.choices
                   else move_done_message(info, note, lang))
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
            raise Refusal(i18n.N_("{note}: your move was made, but its answer could not be shown. "
                                  "Open **Hand / act** on the table message to go on."), note=note)
