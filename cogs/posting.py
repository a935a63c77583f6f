"""Table messages: one post in flight per table, later moves folded into the next one, and catch-up.

While a table's message is on its way to Discord (its picture drawn, the upload waiting on a slow or
rate-limited channel), more moves can be made there. Each would be a message of its own, in a channel
that takes about five a second; instead they fold into the table's next post, which shows the latest
picture and every move's line since the last message. No message is lost (the post after the one in
flight always runs) and none is posted twice (a table has at most one post in flight in this process).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord.ext import commands

from cogs.access import PROBE_EVERY, Delivery, LostChannels, channel_of, gone
from cogs.locales import Speakers
from cogs.notices import Notices
from cogs.pictures import EarlyPictures
from cogs.presenter import begin_table_picture, table_message
from host import ActOutcome, SeatNotice, TableService
from host.clock import lost_access
from host.metrics import Recorder
from host.shards import Shards
from host.table_feed import TableFeed, TableRecord
from host.tables import no_player_left
from host.tasks import Tasks
from i18n import N_, t

if TYPE_CHECKING:
    from cogs.lobbies import LobbyMessages

log = logging.getLogger(__name__)

T = TypeVar("T")
#: The note of a table the bot paused, once a post in its channel went through (read in the server's language).
REGAINED = N_("▶️ I can post here again: the table plays on.")

EDIT_WINDOW = timedelta(hours=1)
#: Waits before the second and third tries of a table message that Discord failed with 5xx, 429 or a timeout.
POST_RETRIES = (1.0, 4.0)


def worth_retrying(exc: BaseException) -> bool:
    """A failure that may pass: 5xx, a 429 the HTTP client gave up on, a timeout, a dropped connection."""
    if isinstance(exc, discord.HTTPException):
        return exc.status >= 500 or exc.status == 429
    return isinstance(exc, (TimeoutError, OSError))


async def with_retries(call: Callable[[], Awaitable[T]]) -> T:
    for wait in POST_RETRIES:
        try:
            return await call()
        except Exception as exc:
            if lost_access(exc) or not worth_retrying(exc):
                raise
            log.warning("Discord failed a table message (%s); trying again in %.0f s", exc, wait)
            await asyncio.sleep(wait)
    return await call()


@dataclass
class _Want:
    """What a table's next message must show."""

    table: TableRecord
    lines: list[str] | None
    channel: Any
    entered: set[int] = field(default_factory=set)
    new_message: bool = True
    #: Lines that are not in the log (a pause, a seat handed over), told after the log's.
    notes: list[str] = field(default_factory=list)

    def fold(self, later: _Want) -> _Want:
        newer = later if (later.table.version, later.table.revision) >= (self.table.version,
                                                                         self.table.revision) else self
        # Folded: the lines are read back from the log (every move since the last message), not one move's.
        return _Want(newer.table, None, later.channel or self.channel, self.entered | later.entered,
                     self.new_message or later.new_message, self.notes + later.notes)


class TablePoster:
    def __init__(self, bot: commands.Bot, tables: TableService, feed: TableFeed, notices: Notices,
                 tasks: Tasks, access: LostChannels | None = None, *, lobbies: LobbyMessages | None = None,
                 on_finished: Callable[[TableRecord], Awaitable[None]] | None = None,
                 recorder: Recorder | None = None, speakers: Speakers | None = None) -> None:
        self.bot = bot
        #: The table messages speak their server's language.
        self.speakers = speakers or Speakers(bot)
        #: Channels that refused the bot: a table there is paused and its channel probed once an hour.
        self.access = access or notices.access
        notices.lose = self.lose
        #: The tables paused because their channel refused the bot, by channel: an interaction there resumes them.
        self.lost: dict[int, set[int]] = {}
        #: Each paused table's hourly probe, with its server.
        self._probes: dict[int, tuple[int | None, asyncio.Task[Any]]] = {}
        self.tables = tables
        self.feed = feed
        self.notices = notices
        self.tasks = tasks
        #: The tables' lobby messages, edited when a table's game ends.
        self.lobbies = lobbies
        #: Told when a table's final message went out (a tournament table's round may be over); it runs
        #: in a task of its own, so seating the next round never holds this table's post.
        self.on_finished = on_finished
        #: Told how long each table post took, the posts it folds into a later one included.
        self.recorder = recorder
        #: The version each table's newest message started from, so an edit retells all its steps.
        self._message_base: dict[int, int] = {}
        #: The newest version shown and posted, so an older state never follows a newer.
        self._shown: dict[int, int] = {}
        self._posted: dict[int, int] = {}
        #: The next message each table needs, and the tables with a post in flight.
        self._wanted: dict[int, _Want] = {}
        self._posting: set[int] = set()
        #: Pictures begun when a move was committed, for the table message that will show it.
        self.early = EarlyPictures(tasks.spawn)

    # -------------------------------------------------------------- the queue

    async def post_table(self, table: TableRecord, lines: list[str] | None, channel: Any = None,
                         entered: Sequence[int] = (), notes: Sequence[str] = ()) -> None:
        """A fresh table message with everything since the last one, then tell whose turn it became."""
        start = time.perf_counter()
        try:
            await self._show(_Want(table, lines, channel, set(entered), True, list(notes)))
        finally:
            if self.recorder is not None:
                self.recorder.table_posted(time.perf_counter() - start)

    async def refresh_table(self, table: TableRecord, channel: Any = None) -> None:
        """A step inside one decision (a discard, an effect's choice): the newest table message shows it.

        A recent message is edited in place, which keeps the channel short; one older than an hour
        (Discord throttles edits to those) is replaced by a new message instead.
        """
        await self._show(_Want(table, None, channel, set(), False))

    async def _show(self, want: _Want) -> None:
        table_id = want.table.id
        earlier = self._wanted.get(table_id)
        self._wanted[table_id] = earlier.fold(want) if earlier is not None else want
        if table_id in self._posting:
            return  # the post in flight sends this one next, folded with any others
        self._posting.add(table_id)
        failure: BaseException | None = None
        try:
            while (next_want := self._wanted.pop(table_id, None)) is not None:
                try:
                    await self._show_one(next_want)
                except Exception as exc:
                    if table_id not in self._wanted:
                        raise
                    failure = exc  # a later state is wanted: show that, then report this failure
                    log.warning("a message of table %s failed; showing the newer state", table_id)
        finally:
            self._posting.discard(table_id)
        if failure is not None:
            raise failure

    async def _show_one(self, want: _Want) -> None:
        table = want.table
        if self._shown.get(table.id, -1) > table.version:
            return  # a newer version is already on show: this one would only take the channel back
        # The hour's one request to a channel that refused is a new post: an edit could meet 10008 (its message
        # deleted meanwhile) and need a post after it, a second request within the hour.
        probing = self.access.is_refusing(table.channel_id)
        if not self.access.claim(table.guild_id, table.channel_id):
            await self.lose(table)  # no request: the channel refused within the hour, or the server left
            return
        try:
            if want.new_message or probing:
                await self._post_table(table, want.lines, want.channel, sorted(want.entered), want.notes)
            else:
                await self._refresh_table(table, want.channel)
        except Exception as exc:
            if not lost_access(exc):
                raise
            if await self.channel_gone(table, exc):
                return
            log.warning("Discord refused table %s's message in channel %s (%s): its clocks are paused until a "
                        "post there succeeds", table.id, table.channel_id, exc)
            self.access.refused(table.channel_id)
            await self.lose(table)
            return
        if self.access.succeeded(table.channel_id) or table.lost:
            await self.regain(table.id)

    # ------------------------------------------------------ a lost channel

    def tell_finished(self, table: TableRecord) -> None:
        """``on_finished``, in a task of its own (a tournament's next round is seated without holding this post)."""
        if self.on_finished is not None:
            self.tasks.spawn(self.on_finished(table), name=f"deckhand-finished-{table.id}")

    async def channel_gone(self, table: TableRecord, exc: BaseException) -> bool:
        """Whether ``exc`` says the table's channel no longer exists: Discord's Unknown Channel (10003), and the
        bot's cache lacks it too (it was deleted while the bot was away: no delete event came). Then the table
        ends as a deleted channel's tables do, rather than being paused and asked once an hour for ever."""
        if not gone(self.bot, table.channel_id, exc) or self.access.on_gone is None:
            return False
        log.warning("table %s's channel %s is unknown to Discord: closed as deleted", table.id, table.channel_id)
        await self.access.on_gone(table.channel_id)
        return True

    async def lose(self, table: TableRecord) -> None:
        """The table's channel refused the bot: pause its clocks (no-op when paused already) and probe the
        channel in an hour, so a server that fixes its permissions gets the game back by itself."""
        current = await self.tables.lose_channel(table.id) or await self.tables.reload(table.id)
        if not current.lost:
            return  # not in play (a lobby, a final message), or paused by a person: nothing to resume
        self.lost.setdefault(table.channel_id, set()).add(table.id)
        if table.guild_id is not None and table.guild_id in self.access.gone_guilds:
            return  # a server that removed the bot is not probed: its re-invite resumes the table
        probe = self._probes.get(table.id)
        if probe is None or probe[1].done():
            task = self.tasks.spawn(self._probe(table.id), name=f"deckhand-probe-{table.id}")
            if task is not None:
                self._probes[table.id] = (table.guild_id, task)

    async def _probe(self, table_id: int) -> None:
        await asyncio.sleep(PROBE_EVERY)
        self._probes.pop(table_id, None)
        table = await self.tables.reload(table_id)
        if table.status == "playing" and table.lost:
            await self.post_table(table, None)  # refused again: lose() waits another hour

    async def regain(self, table_id: int) -> None:
        """A post went through where the bot had been refused: a table it paused plays on."""
        probe = self._probes.pop(table_id, None)
        if probe is not None and probe[1] is not asyncio.current_task():
            probe[1].cancel()
        table = await self.tables.regain_channel(table_id)
        for channel_id, lost in list(self.lost.items()):
            lost.discard(table_id)
            if not lost:
                del self.lost[channel_id]
        if table is not None:
            log.info("table %s plays on: a post in channel %s succeeded", table_id, table.channel_id)
            await self._show(_Want(table, None, None, set(), True, [REGAINED]))

    def stop_probes(self, guild_id: int | None = None) -> None:
        """Cancel the hourly probes (of one server's tables): nothing is sent there until it comes back."""
        for table_id, (guild, task) in list(self._probes.items()):
            if guild_id is None or guild == guild_id:
                task.cancel()
                self._probes.pop(table_id, None)

    # ------------------------------------------------------------ one message

    def _showed(self, table: TableRecord) -> None:
        # Kept after the game ends too: a late message for an earlier move must not follow the final one.
        self._shown[table.id] = max(self._shown.get(table.id, -1), table.version)

    async def _language(self, table: TableRecord) -> str:
        """What the table's channel reads: its server's ``language`` setting (``auto``: its Discord language)."""
        return await self.speakers.channel(table.guild_id)

    def _since(self, table: TableRecord) -> int:
        return max(table.posted_version, self._posted.get(table.id, -1))

    async def _refresh_table(self, table: TableRecord, channel: Any = None) -> None:
        message_id = table.message_id
        if message_id is None or discord.utils.utcnow() - discord.utils.snowflake_time(message_id) > EDIT_WINDOW:
            await self._post_table(table, None, channel)
            return
        channel = await self._channel_for(table, channel)
        # The edited message tells every step since it was posted (collapsed), not only the last one.
        base = self._message_base.get(table.id, table.posted_version)
        lines = await self.feed.lines_since(table.id, base)
        lang = await self.speakers.channel(table.guild_id)
        out = await table_message(await self.tables.table_view(table, lines), lang, self.early)
        try:
            await with_retries(lambda: channel.get_partial_message(message_id).edit(**out.edit_kwargs()))
        except discord.HTTPException as exc:
            if lost_access(exc) and getattr(exc, "code", None) != 10008:  # 10008: the message alone is gone
                raise
            await self._post_table(table, None, channel)
            return
        self._showed(table)
        await self.tables.mark_posted(table, message_id)

    async def _channel_for(self, table: TableRecord, channel: Any) -> Any:
        if channel is None or getattr(channel, "id", None) != table.channel_id:
            channel = await self.channel_of(table.channel_id)
        return channel

    async def channel_of(self, channel_id: int) -> Any:
        return await channel_of(self.bot, channel_id)

    async def _post_table(self, table: TableRecord, lines: list[str] | None, channel: Any = None,
                          entered: Sequence[int] = (), notes: Sequence[str] = ()) -> None:
        since = table.posted_version
        if lines is None:
            since = self._since(table)
            lines = await self.feed.lines_since(table.id, since)
        lines = [*lines, *notes]
        channel = await self._channel_for(table, channel)
        lang = await self.speakers.channel(table.guild_id)
        out = await table_message(await self.tables.table_view(table, lines), lang, self.early)
        message = await with_retries(lambda: channel.send(**out.send_kwargs()))
        self._showed(table)
        self._message_base[table.id] = since
        self._posted[table.id] = max(self._posted.get(table.id, -1), table.version)
        await self.tables.mark_posted(table, message.id)
        if table.status == "finished" and table.parent_id is not None:
            await self._tell_parent(table, out.content, lang)
        if table.status != "playing" and self.lobbies is not None:
            await self.lobbies.settle(table)  # its lobby no longer says the game goes on
        if table.status == "finished":
            self.tell_finished(table)
        if entered and table.status == "playing":
            await self.notices.notify_turn(replace(table, message_id=message.id), entered)

    async def _tell_parent(self, table: TableRecord, text: str, lang: str) -> None:
        """A thread table's result is also posted in the channel the thread belongs to (unless that channel
        refused the bot within the hour: a tournament's many tables would each ask it again)."""
        parent_id = table.parent_id or 0
        where = t(lang, "(in {thread})", thread=f"<#{table.channel_id}>")
        try:
            delivery = await self.access.send(self.bot, table.guild_id, parent_id, f"{text}\n{where}"[:2000],
                                              allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            delivery = None  # the thread has the result: this copy is not retried
        if delivery in (None, Delivery.REFUSED):
            log.warning("could not post table %s's result in its parent channel", table.id)

    def _new_message_lines(self, outcome: ActOutcome) -> list[str] | None:
        """The lines of the new table message ``outcome`` calls for, when they are in hand: the turn moved on and
        the last message showed the move before this one. None when they are read back from the log."""
        table = outcome.table
        if outcome.turn_changed and table.posted_version == table.version - 1:
            return [outcome.line, *outcome.events]
        return None

    async def begin_step(self, outcome: ActOutcome) -> None:
        """Begin drawing the picture of the table message that ``show_step(outcome)`` will post, so that it is
        drawn while the member who moved is answered. Only for a new message whose lines are in hand (most
        moves); the others draw theirs when they are built."""
        lines = self._new_message_lines(outcome)
        if lines is None or (not outcome.over and no_player_left(outcome.table)):
            return
        table = outcome.table
        lang = await self.speakers.channel(table.guild_id)
        begin_table_picture(await self.tables.table_view(table, lines), self.early, lang)

    async def show_step(self, outcome: ActOutcome, channel: Any = None) -> None:
        """After a move: a new table message when the turn moved on, else the current one brought up to date.

        A table where only bots play (a tournament pod of bot entrants, or a table every player resigned,
        forfeited or dropped from) posts its start and its result, not each move: nobody there needs a
        turn's picture, and drawing hundreds of them would slow every other table and flood its channel.
        ``/game status`` shows it as it stands.
        """
        if not outcome.over and no_player_left(outcome.table):
            return
        if outcome.turn_changed:
            # When the last table message showed the move before this one, the log since then is this move
            # alone, and it is in hand: no need to read it back (one round trip a move on PostgreSQL).
            await self.post_table(outcome.table, self._new_message_lines(outcome), channel, outcome.entered)
        else:
            await self.refresh_table(outcome.table, channel)

    # ----------------------------------------------------------- seat changes

    async def show_notice(self, notice: SeatNotice, channel: Any = None) -> None:
        """Post the moves a seat change made (a timeout's bot moves), then what else it did, if anything."""
        for outcome in notice.outcomes:
            if outcome.turn_changed and (outcome.over or not no_player_left(outcome.table)):
                await self.post_table(outcome.table, None, channel, outcome.entered)
        current = await self.tables.reload(notice.table.id)
        if notice.outcomes and not notice.lines and current.version <= self._since(current):
            return  # the moves' own table messages told it all
        await self.post_table(current, None, channel, notes=notice.lines)

    # --------------------------------------------------------------- catch-up

    async def catch_up(self, shards: Shards | None) -> None:
        """After a restart: post table messages that were committed but never sent; the scheduler does the rest."""
        for table in await self.feed.unposted(shards):
            try:
                await self.post_table(await self.tables.get(table.id), None)
            except Exception:
                log.exception("could not catch up table %s", table.id)
