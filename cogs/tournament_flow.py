"""Tournaments through Discord after registration: threads for each round's tables, pairings,
results as tables end, the final standings, the sign-up buttons and the standings pages."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import discord
from discord.ext import commands

import render.bracket
from cogs.access import Delivery
from cogs.answers import announce
from cogs.controls import BAD_CONTROL, Control
from cogs.flow import TableFlow
from cogs.guard import Guard, refusal_text, tell
from cogs.locales import channel_language, member_language
from cogs.pictures import drawn
from cogs.threads import create_thread
from cogs.tournament_views import (
    bracket_file,
    champion_line,
    format_name,
    pairings_messages,
    signup_message,
    standings_message,
)
from cogs.web_links import WebLinks, linked_view
from engines import GAME_TITLES
from host import Refusal, SeatNotice, TableRecord
from host.tournaments.service import Advance, StartOutcome, TournamentService, TournamentState
from host.tournaments.state import TournamentRecord
from host.tournaments.timers import CHECKIN_TIMER, EVENT_END_TIMER, START_TIMER, TimerRecord
from host.tournaments.views import standing_rows
from i18n import N_, say_text, t, tn
from render.markup import escape_name, label_name

log = logging.getLogger(__name__)

#: The private answer to each sign-up button (the member's language).
DONE = {"join": N_("You are in."), "leave": N_("You have left."), "checkin": N_("You are checked in.")}

#: Mentions per message when the check-in opens (a message holds 2000 characters).
PINGS_PER_MESSAGE = 60


def _at(instant: float) -> datetime:
    return datetime.fromtimestamp(instant, tz=UTC)


class TournamentFlow:
    def __init__(self, bot: commands.Bot, service: TournamentService, flow: TableFlow, guard: Guard,
                 links: WebLinks) -> None:
        self.bot = bot
        self.service = service
        self.flow = flow
        self.guard = guard
        #: The web pages' addresses, for the tournament page's link button.
        self.links = links
        # One seating at a time per tournament: a table's end and a restart's catch-up may both try.
        self._seating: dict[int, asyncio.Lock] = {}

    async def language(self, record: TournamentRecord) -> str:
        """What the tournament's channel reads: its server's ``language`` setting (``auto``: its Discord
        language)."""
        settings = await self.service.server_config(record.guild_id)
        return channel_language(settings, self.bot.get_guild(record.guild_id or 0))

    # ----------------------------------------------------------------- rounds

    async def seat_round(self, tournament_id: int) -> None:
        """Open a thread and deal the game of every pending table, then post the round's pairings once."""
        # Players who left since the pairing are taken out first; that may decide the round (walkovers).
        advances = await self.service.settle(tournament_id)
        if advances and advances[-1].champion is not None:
            await self.post_final(tournament_id)
            return
        seated: list[TableRecord] = []
        try:
            await self._seat_pending(tournament_id, seated)
        finally:
            # Game losses waiting for these tables forfeit them now, outside the seating lock: a table that
            # ends moves the round on, which seats again.
            for table in seated:
                await self.show_notices(await self.service.game_losses_due(table))

    async def _seat_pending(self, tournament_id: int, seated: list[TableRecord]) -> None:
        async with self._seating.setdefault(tournament_id, asyncio.Lock()):
            state = await self.service.state(tournament_id)
            channel = await self.flow.channel_of(state.record.channel_id)
            lang = await self.language(state.record)
            for place in await self.service.pending(tournament_id):
                name = state.record.name + " · " + t(lang, "round {round} · table {table}", round=place.round,
                                                     table=place.position + 1)
                try:
                    thread = await create_thread(channel, name)
                except discord.HTTPException as exc:
                    log.warning("tournament %s: could not open a thread (%s)", tournament_id, exc)
                    await channel.send(t(lang, "⚠️ I couldn't open a thread for table {table} of round {round} "
                                               "({status}). I'll try again at the next table's end, at "
                                               "`{/tournament status}`, or when I restart.", table=place.position + 1,
                                         round=place.round, status=exc.status),
                                       allowed_mentions=discord.AllowedMentions.none())
                    return
                try:
                    table = await self.service.seat(place, thread.id)
                except Refusal:
                    await thread.delete()
                    continue
                seated.append(table)
                await self._post_first(table, thread, state, place.round, place.position)
            await self._announce(tournament_id)

    async def _post_first(self, table: TableRecord, thread: Any, state: TournamentState, number: int,
                          position: int) -> None:
        seats = ", ".join(f"{s.position + 1}. {escape_name(s.name)}" for s in table.seats)
        line = t(await self.language(state.record), "🏆 **{name}**, round {round}, table {table}. The game begins! "
                 "Seats: {seats}", name=escape_name(state.record.name), round=number, table=position + 1, seats=seats)
        await self.flow.post_table(table, [line], thread, await self.flow.tables.to_act(table))

    async def _post_unstarted(self, state: TournamentState) -> None:
        """A table dealt just before a restart whose first message never went out: post it now."""
        for place in state.places:
            if place.status != "playing" or place.table_id is None:
                continue
            table = await self.flow.tables.get(place.table_id)
            if table.message_id is None and table.version == 0 and table.status == "playing":
                thread = await self.flow.channel_of(table.channel_id)
                await self._post_first(table, thread, state, place.round, place.position)

    async def threads_of(self, state: TournamentState) -> dict[int, int]:
        out = {}
        for place in state.places:
            if place.table_id is not None:
                out[place.table_id] = (await self.flow.tables.get(place.table_id)).channel_id
        return out

    async def _announce(self, tournament_id: int) -> None:
        """Post the current round's pairings (and the bracket) once all its tables are seated."""
        state = await self.service.state(tournament_id)
        current = state.current
        if state.record.status != "playing" or current is None or current.announced or any(p.status == "pending"
                                                       for p in state.round_places(current.number)):
            return
        threads = await self.threads_of(state)
        view = linked_view(state, self.links)
        assert view.current is not None
        for out in pairings_messages(view, view.current, threads, await self.language(state.record)):
            await self._post(state.record, **out.send_kwargs())
        await self._post_bracket(state.record)
        # Marked even when the channel refused: each round is not to ask it again (its threads and
        # /tournament status show the pairings).
        await self.service.mark_announced(tournament_id, current.number)

    async def bracket(self, tournament_id: int) -> discord.File | None:
        """The bracket image of a single-elimination event or a 2-player top cut, with its alt text."""
        found = await self.service.bracket(tournament_id)
        if found is None:
            return None
        rounds, said_title = found
        # The bracket is for the whole channel: its words speak the server's language.
        record = await self.service.get(tournament_id)
        lang = await self.language(record)
        title = say_text(lang, said_title)
        views = render.bracket.views(rounds)
        # Tens of ms for a big event, and /tournament status draws it each time: off the loop, as tables are.
        png = await drawn(tournament_id, render.bracket.bracket_png, views, title, lang)
        return bracket_file(png, render.bracket.alt_text(views, title, lang))

    async def _post_bracket(self, record: TournamentRecord) -> None:
        file = await self.bracket(record.id)
        if file is not None:
            await self._post(record, file=file, allowed_mentions=discord.AllowedMentions.none())

    async def _post(self, record: TournamentRecord, *args: Any, **kwargs: Any) -> bool:
        """Post in the tournament's channel through the lost-access gate (``cogs.access``): a channel that refused
        the bot is asked at most once an hour, as a table's is, not at every round. False: not posted."""
        delivery = await self.flow.access.send(self.bot, record.guild_id, record.channel_id, *args, **kwargs)
        if delivery is not Delivery.SENT:
            log.warning("tournament %s: a post in channel %s was %s", record.id, record.channel_id,
                        "refused" if delivery is Delivery.REFUSED else "held back (the channel refused the bot)")
        return delivery is Delivery.SENT

    async def after(self, tournament_id: int, advances: Sequence[Advance]) -> None:
        """Post what the tournament did: the next round seated, or the champion with the final standings."""
        if advances and advances[-1].champion is not None:
            await self.post_final(tournament_id)
        else:
            # Seats a new round, or retries a table whose thread Discord refused earlier.
            await self.seat_round(tournament_id)

    async def post_final(self, tournament_id: int) -> None:
        state, rows = await self.service.standings(tournament_id)
        current = state.current
        if current is None or current.announced >= 2:
            return
        view = linked_view(state, self.links)
        lang = await self.language(state.record)
        out = standings_message(view, standing_rows(rows), 1, title=N_("Final standings"), lang=lang)
        out.content = champion_line(view, lang)
        await self._post(state.record, **out.send_kwargs())
        await self._post_bracket(state.record)
        await self.service.mark_announced(tournament_id, current.number, 2)
        await self.event_over(state.record)

    async def close_tables(self, name: str, closed: Sequence[TableRecord]) -> None:
        """After a cancel: each closed table's thread says why, and its table message loses its controls."""
        for table in closed:
            try:
                thread = await self.flow.channel_of(table.channel_id)
                lang = channel_language(await self.service.server_config(table.guild_id),
                                        self.bot.get_guild(table.guild_id or 0))
                await thread.send(t(lang, "🛑 **{name}** was cancelled: this table is closed, and its game counts "
                                          "for nothing.", name=escape_name(name)),
                                  allowed_mentions=discord.AllowedMentions.none())
                await self.flow.refresh_table(table, thread)
            except discord.HTTPException as exc:  # a thread deleted by hand: nothing to tell there
                log.info("tournament table %s: no note after the cancel (%s)", table.id, exc)

    async def on_table_finished(self, table: TableRecord) -> None:
        """The table flow's hook: a tournament table ended, so its round may be over."""
        try:
            advances = await self.service.table_finished(table.id)
            tournament_id = await self.service.tournament_of_table(table.id)
            if tournament_id is not None:
                await self.after(tournament_id, advances)
        except Exception:
            log.exception("tournament step after table %s failed; it is retried at the next restart", table.id)

    async def show_notices(self, notices: Sequence[SeatNotice]) -> None:
        """Seat changes the tournament made at its tables (drops, draws): each table is told in its thread."""
        for notice in notices:
            await self.flow.show_notice(notice)

    async def resume(self) -> None:
        """After a restart: finish rounds whose tables ended while down, seat and announce what is pending."""
        shards = self.flow.shards
        for tournament_id in await self.service.resume_work(lambda guild: shards is None or shards.owns(guild)):
            try:
                state = await self.service.state(tournament_id)
                if state.record.status == "finished":
                    await self.post_final(tournament_id)
                elif state.record.status == "playing":
                    await self._post_unstarted(state)
                    await self.seat_round(tournament_id)
            except Exception:
                log.exception("could not resume tournament %s", tournament_id)

    # --------------------------------------------------------------- sign-up

    async def refresh_signup(self, state: TournamentState, interaction: discord.Interaction | None = None) -> None:
        """Bring the sign-up message up to date: edited in place from its own button, else by id."""
        out = signup_message(linked_view(state, self.links), lang=await self.language(state.record))
        message = interaction.message if interaction is not None else None
        if (interaction is not None and message is not None and message.id == state.record.message_id
                and not interaction.response.is_done()):
            await interaction.response.edit_message(**out.edit_kwargs())
            return
        if state.record.message_id is None:
            return
        try:
            channel = await self.flow.channel_of(state.record.channel_id)
            await channel.get_partial_message(state.record.message_id).edit(**out.edit_kwargs())
        except discord.HTTPException:
            log.warning("could not update the sign-up message of tournament %s", state.record.id)

    async def on_control(self, interaction: discord.Interaction, control: Control, values: Sequence[str]) -> None:
        async def work() -> None:
            if control.kind == "p":
                await self._page(interaction, control.tournament_id, control.version or 1)
                return
            record = await self.service.get(control.tournament_id)
            if record.channel_id != interaction.channel_id:
                raise Refusal(BAD_CONTROL)
            user = interaction.user
            if control.action == "join":
                state = await self.service.join(record.id, user.id, user.display_name,
                                                [r.id for r in getattr(user, "roles", ())])
            elif control.action == "leave":
                state = await self.service.leave(record.id, user.id)
            elif control.action == "checkin":
                state = await self.service.check_in(record.id, user.id, [r.id for r in getattr(user, "roles", ())])
            else:
                raise Refusal(BAD_CONTROL)
            await self.refresh_signup(state, interaction)
            if not interaction.response.is_done():
                await tell(interaction, t(member_language(interaction), DONE[control.action]))

        await self.guard.run(interaction, work)

    async def _page(self, interaction: discord.Interaction, tournament_id: int, page: int) -> None:
        state, rows = await self.service.standings(tournament_id)
        final = state.record.status == "finished"
        # The page replaces the channel's message: it keeps the server's language, whoever clicked.
        out = standings_message(linked_view(state, self.links), standing_rows(rows), page,
                                title=N_("Final standings") if final else N_("Standings"),
                                lang=await self.language(state.record))
        message = interaction.message
        if message is not None:
            out.content = message.content
            await interaction.response.edit_message(**out.edit_kwargs())
        else:
            await interaction.response.send_message(ephemeral=True, **out.send_kwargs())

    # -------------------------------------------------------------- calendar

    async def announce_start(self, started: StartOutcome, interaction: discord.Interaction | None = None) -> None:
        """Say the event started (answering the organiser, or in the channel when its timer started it),
        then seat round 1."""
        state = started.state
        # The start is news for the whole channel, even when it answers the organiser: the server's language.
        lang = await self.language(state.record)
        playing = len([e for e in state.entrants if e.active])
        text = tn(lang, "🏆 **{name}** has started with {n} entrant. Each table plays in a thread of its own; the "
                        "pairings follow.",
                  "🏆 **{name}** has started with {n} entrants. Each table plays in a thread of its own; the "
                  "pairings follow.", playing, name=escape_name(state.record.name))
        mentions = [e.user_id for e in started.no_shows if e.user_id]
        if started.no_shows:
            text += "\n" + t(lang, "Dropped for not checking in: {members}. You can still follow the event here.",
                             members=", ".join(f"<@{u}>" for u in mentions))
        if started.waitlisted:
            text += "\n" + tn(lang, "{n} on the waiting list did not get a place.",
                              "{n} on the waiting list did not get a place.", len(started.waitlisted))
        quiet = discord.AllowedMentions(users=[discord.Object(u) for u in mentions])
        # The answer goes first; opening the threads and dealing follow it.
        if interaction is not None:
            await announce(interaction, text, mentions)
        else:
            await self._post(state.record, text[:2000], allowed_mentions=quiet)
        await self.refresh_signup(state)
        if state.record.event_id is not None:
            await self._edit_event(state.record, end_time=_at(await self.service.push_event_end(state.record)))
        if state.record.status == "finished":
            await self.post_final(state.record.id)
        else:
            await self.seat_round(state.record.id)

    def _event_description(self, record: TournamentRecord, lang: str) -> str:
        title = GAME_TITLES.get(record.game, record.game)
        text = f"{title} · {format_name(lang, record.format)} · " + tn(
            lang, "tables of {size}. Join in <#{channel}> with {/tournament join}; check-in opens {n} minute before "
                  "the start.",
            "tables of {size}. Join in <#{channel}> with {/tournament join}; check-in opens {n} minutes before the "
            "start.", record.checkin_minutes, size=record.table_size, channel=record.channel_id)
        if record.role_id is not None:
            text += " " + t(lang, "For members with the event's role.")
        return text[:1000]

    async def create_event(self, record: TournamentRecord) -> None:
        """The Discord scheduled event of a tournament with a start time: external, at the channel's link."""
        calendar = self.service.calendar(record)
        if calendar is None:
            return
        try:
            guild = self.bot.get_guild(record.guild_id or 0)
            channel = await self.flow.channel_of(record.channel_id)
            lang = await self.language(record)  # the event is the server's
            if guild is None:
                raise RuntimeError(f"guild {record.guild_id} is not in the cache")
            event = await guild.create_scheduled_event(
                name=label_name(record.name)[:100], start_time=_at(calendar.starts_at), end_time=_at(calendar.ends_at),
                entity_type=discord.EntityType.external, location=channel.jump_url[:100],
                description=self._event_description(record, lang), privacy_level=discord.PrivacyLevel.guild_only)
        except (discord.HTTPException, RuntimeError):
            log.warning("tournament %s: could not create its scheduled event", record.id, exc_info=True)
            return
        await self.service.set_event(record.id, event.id, calendar.ends_at)

    async def _scheduled_event(self, record: TournamentRecord) -> Any:
        if record.event_id is None:
            return None
        guild = self.bot.get_guild(record.guild_id or 0)
        if guild is None:
            return None
        try:
            return guild.get_scheduled_event(record.event_id) or await guild.fetch_scheduled_event(record.event_id)
        except discord.HTTPException:
            return None  # deleted by hand: nothing left to update

    async def _edit_event(self, record: TournamentRecord, **changes: Any) -> None:
        event = await self._scheduled_event(record)
        if event is None or event.status in (discord.EventStatus.completed, discord.EventStatus.cancelled):
            return
        try:
            await event.edit(**changes)
        except discord.HTTPException:
            log.warning("tournament %s: could not update its scheduled event", record.id, exc_info=True)

    async def move_event(self, record: TournamentRecord) -> None:
        """``/tournament schedule``: the event moves with the start (and its estimated end with it)."""
        calendar = self.service.calendar(record)
        if calendar is None:
            return
        event = await self._scheduled_event(record)
        if event is None or event.status is not discord.EventStatus.scheduled:
            # Discord began the event at its time (though the tournament could not start then), or it is over:
            # it is ended, and a new one is made at the new start.
            if event is not None and event.status is discord.EventStatus.active:
                try:
                    await event.end()
                except discord.HTTPException:
                    log.warning("tournament %s: could not end its scheduled event", record.id, exc_info=True)
            await self.create_event(record)
            return
        await self._edit_event(record, start_time=_at(calendar.starts_at), end_time=_at(calendar.ends_at))
        await self.service.set_event(record.id, record.event_id, calendar.ends_at)

    async def event_over(self, record: TournamentRecord) -> None:
        """The tournament finished or was cancelled: its scheduled event is cancelled if it never began,
        and completed otherwise."""
        record = await self.service.get(record.id)
        event = await self._scheduled_event(record)
        if event is None:
            return
        try:
            if event.status is discord.EventStatus.scheduled:
                if record.status == "cancelled":
                    await event.cancel()
                    return
                event = await event.start()  # the event as it now is: the object at hand is not updated
            if event.status is discord.EventStatus.active:
                await event.end()
        except (discord.HTTPException, ValueError):
            log.warning("tournament %s: could not close its scheduled event", record.id, exc_info=True)

    async def _ping_checkin(self, state: TournamentState) -> None:
        """The check-in opened by itself: the registered players are pinged, once."""
        channel = await self.flow.channel_of(state.record.channel_id)
        await self.refresh_signup(state)
        users = [e.user_id for e in state.entrants if e.active and e.user_id is not None and not e.is_bot]
        when = int(state.record.starts_at or 0)
        head = t(await self.language(state.record),
                 "✅ **Check-in is open for {name}** (start: <t:{when}:R>). Press **Check in** on the sign-up "
                 "message or use `{/tournament checkin}`; entrants who have not checked in at the start are dropped.",
                 name=escape_name(state.record.name), when=when)
        chunks = [users[i:i + PINGS_PER_MESSAGE] for i in range(0, len(users), PINGS_PER_MESSAGE)] or [[]]
        for i, chunk in enumerate(chunks):
            text = (head + "\n" if i == 0 else "") + " ".join(f"<@{u}>" for u in chunk)
            await channel.send(text[:2000], allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(u) for u in chunk]))

    async def fire(self, timers: list[TimerRecord]) -> list[TimerRecord]:
        """The tournament scheduler's handler: open a check-in, start an event, push an event's end."""
        failed = []
        for timer in timers:
            try:
                if (await self.service.get(timer.table_id)).guild_id in self.flow.access.gone_guilds:
                    # The server removed the bot: nothing is sent there. The timer waits (retried later, less
                    # often each time, without a request to Discord) and fires after a re-invite.
                    failed.append(timer)
                    continue
                if timer.kind == CHECKIN_TIMER:
                    state = await self.service.calendar_checkin(timer.table_id, timer.started)
                    if state is not None:
                        await self._ping_checkin(state)
                elif timer.kind == START_TIMER:
                    started = await self.service.calendar_start(timer.table_id, timer.started)
                    if isinstance(started, Refusal):
                        record = await self.service.get(timer.table_id)
                        channel = await self.flow.channel_of(record.channel_id)
                        lang = await self.language(record)
                        await channel.send(
                            t(lang, "⏰ **{name}** could not start at its time: {reason}\nIt "
                              "waits for the organiser <@{organiser}> to start it with `{/tournament start}`, move it "
                              "with `{/tournament schedule}`, or cancel it.", name=escape_name(record.name),
                              reason=refusal_text(started, lang), organiser=record.organiser_id),
                                  allowed_mentions=discord.AllowedMentions(
                                users=[discord.Object(record.organiser_id)]))
                    elif started is not None:
                        await self.announce_start(started)
                elif timer.kind == EVENT_END_TIMER:
                    end = await self.service.event_end_due(timer.table_id, timer.started)
                    if end is not None:
                        await self._edit_event(await self.service.get(timer.table_id), end_time=_at(end))
            except Exception:
                log.exception("tournament timer %s of tournament %s failed", timer.kind, timer.table_id)
                failed.append(timer)
        return failed
