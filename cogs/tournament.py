"""Slash commands /tournament …: open registration, join, start, follow and run an event."""

from __future__ import annotations

import contextlib
import logging

import discord
from discord import app_commands
from discord.ext import commands

from cogs.answers import announce, defer, reply
from cogs.game import GAME_CHOICES, LEVEL_CHOICES
from cogs.guard import Guard, bot_permissions, is_manager, role_ids, tell
from cogs.locales import channel_language, member_language
from cogs.presenter import Outgoing
from cogs.tournament_flow import TournamentFlow
from cogs.tournament_views import (
    joined_text,
    penalties_text,
    signup_message,
    standings_message,
    status_message,
)
from cogs.web_links import WebLinks, linked_view
from host import Refusal, permissions
from host.durations import TURN_TIME_BOUNDS, parse_duration
from host.parsing import parse_options
from host.settings import ServerSettings
from host.tournaments.service import TournamentService
from host.tournaments.settings import MAX_ROUNDS
from host.tournaments.views import standing_rows
from i18n import N_, t, tn
from render.markup import escape_name

log = logging.getLogger(__name__)

FORMAT_CHOICES = [app_commands.Choice(name="Swiss", value="swiss"),
                  app_commands.Choice(name="Round robin", value="round_robin"),
                  app_commands.Choice(name="Single elimination", value="single_elimination"),
                  app_commands.Choice(name="Double elimination", value="double_elimination")]
TOP_CUT_FORMAT_CHOICES = [app_commands.Choice(name="Single elimination", value="single"),
                          app_commands.Choice(name="Double elimination", value="double")]
#: A round may last from a minute to four weeks.
ROUND_TIME_BOUNDS = (60, 28 * 86400)
DEFAULT_TURN_TIME = "1d"


PENALTY_CHOICES = [app_commands.Choice(name="warning", value="warning"),
                   app_commands.Choice(name="game_loss", value="game_loss"),
                   app_commands.Choice(name="disqualify", value="disqualify")]


#: The private answer to each penalty (the organiser's language).
RECORDED = {"warning": N_("Recorded a warning for {member}: {reason}."),
            "game_loss": N_("Recorded a game loss for {member}: {reason}."),
            "disqualify": N_("Recorded a disqualification for {member}: {reason}.")}


def home_channel(interaction: discord.Interaction) -> int:
    """The tournament's channel: this one, or the channel a table's thread belongs to."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread) and channel.parent_id:
        return channel.parent_id
    return interaction.channel_id or 0


class TournamentCog(commands.Cog):
    tournament = app_commands.Group(name="tournament", description="Run a tournament: Swiss, round robin, "
                                    "single or double elimination", guild_only=True)

    def __init__(self, service: TournamentService, flow: TournamentFlow, guard: Guard,
                 settings: ServerSettings, links: WebLinks) -> None:
        self.service = service
        self.flow = flow
        self.guard = guard
        self.settings = settings
        #: The web pages' addresses, for the tournament page's link button.
        self.links = links

    async def _channel_language(self, interaction: discord.Interaction) -> str:
        """What the channel reads (a post, a public answer): the server's language."""
        return channel_language(await self.settings.get(interaction.guild_id), interaction.guild)

    async def _here(self, interaction: discord.Interaction) -> int:
        return (await self.service.require(home_channel(interaction))).id

    # ----------------------------------------------------------- registration

    @tournament.command(name="new", description="Open registration for a tournament in this channel")
    @app_commands.describe(
        game="Which game", format="swiss, round_robin, single_elimination or double_elimination",
        rounds="Swiss or round robin rounds (default: ⌈log₂ N⌉ for Swiss, every pair once for round robin)",
        table_size="Players per table (default: 4 for King Pedro, else 2)",
        top_cut="Swiss only: the top n play on by elimination (a power of two; with pods, the table size)",
        turn_time="Time per turn at the tables, e.g. 10m, 12h, 1d (default 1d)",
        round_time="Deadline of each round, e.g. 2d (default: none)",
        options="Table options, as at /game new", name="The tournament's name",
        starts_at="Start by itself at this time: 2026-12-01 18:00 (server time zone), in 2h, or <t:…:F>",
        checkin_minutes="With starts_at: the check-in opens this many minutes before the start (default 30)",
        role="Only members with this role may enter", max_entrants="At most this many play; later sign-ups wait",
        late_join_rounds="Swiss: players may still join until this round begins",
        top_cut_format="A 2-player top cut as single (default) or double elimination")
    @app_commands.choices(game=GAME_CHOICES, format=FORMAT_CHOICES, top_cut_format=TOP_CUT_FORMAT_CHOICES)
    async def tournament_new(self, interaction: discord.Interaction, game: app_commands.Choice[str],
                             format: app_commands.Choice[str],
                             rounds: app_commands.Range[int, 1, MAX_ROUNDS] | None = None,
                             table_size: int | None = None, top_cut: int | None = None,
                             turn_time: str | None = None, round_time: str | None = None,
                             options: str | None = None, name: str | None = None, starts_at: str | None = None,
                             checkin_minutes: int | None = None, role: discord.Role | None = None,
                             max_entrants: int | None = None, late_join_rounds: int | None = None,
                             top_cut_format: app_commands.Choice[str] | None = None) -> None:
        async def work() -> None:
            if isinstance(interaction.channel, discord.Thread):
                raise Refusal(N_("Open a tournament in a text channel, not a thread: its tables get threads of "
                                 "their own there."))
            server = await self.settings.get(interaction.guild_id)
            if not server.allows_channel(interaction.channel_id or 0):
                allowed = " ".join(f"<#{c}>" for c in server.game_channels)
                raise Refusal(N_("Tournaments can't be opened here. This server plays in {allowed}."),
                              allowed=allowed)
            clock = parse_duration(turn_time or DEFAULT_TURN_TIME, low=TURN_TIME_BOUNDS[0], high=TURN_TIME_BOUNDS[1],
                                   allow_off=False)
            deadline = (None if round_time is None else
                        parse_duration(round_time, low=ROUND_TIME_BOUNDS[0], high=ROUND_TIME_BOUNDS[1],
                                       what="round_time"))
            # Its tables play in threads of this channel; a start time makes a scheduled event (Manage Events).
            permissions.require(bot_permissions(interaction), "open a tournament", thread=True,
                                scheduled=starts_at is not None)
            state = await self.service.create(
                guild_id=interaction.guild_id, channel_id=interaction.channel_id or 0, organiser_id=interaction.user.id,
                game=game.value, fmt=format.value, rounds=rounds, table_size=table_size, top_cut=top_cut,
                turn_time=clock, round_time=deadline, options=parse_options(options), name=name,
                starts_at=starts_at, checkin_minutes=checkin_minutes, role_id=role.id if role else None,
                max_entrants=max_entrants, late_join_rounds=late_join_rounds,
                top_cut_format=None if top_cut_format is None else top_cut_format.value,
                is_manager=is_manager(interaction), roles=role_ids(interaction))
            # The sign-up is the channel's: the server's language, whoever opened it.
            lang = await self._channel_language(interaction)
            note = t(lang, "{member} opened registration.", member=interaction.user.mention)
            out = signup_message(linked_view(state, self.links), note, lang)
            try:
                try:
                    message = await reply(interaction, out, ephemeral=False, want_message=True)
                except discord.HTTPException:
                    await self._post_signup_instead(interaction, state.record.id, state.record.name, out)
                    return
                if message is not None:
                    await self.service.set_message(state.record.id, message.id)
            finally:
                # The scheduled event once the member is answered: made first, it was a second REST call (more
                # after a 429) before the answer, which Discord wants within 3 s.
                if state.record.starts_at is not None:
                    await self.flow.create_event(state.record)

        await self.guard.run(interaction, work)

    async def _post_signup_instead(self, interaction: discord.Interaction, tournament_id: int, name: str,
                                   out: Outgoing) -> None:
        """The tournament is open but its answer failed: post the sign-up message in the channel, so that
        it exists and its entrant list stays up to date, and say so."""
        log.warning("could not answer /tournament new (tournament %s)", tournament_id, exc_info=True)
        message = None
        if not interaction.response.is_done():  # otherwise the sign-up was posted; only its id is unknown
            with contextlib.suppress(discord.HTTPException):
                message = await interaction.channel.send(**out.send_kwargs())  # type: ignore[union-attr]
        if message is None:
            raise Refusal(N_("**{name}** is open, but its sign-up message could not be posted here: "
                             "`{/tournament join}` still works, and `{/tournament cancel}` closes it."),
                          name=escape_name(name))
        await self.service.set_message(tournament_id, message.id)
        raise Refusal(N_("**{name}** is open for registration: its sign-up message is in the channel."),
                      name=escape_name(name))

    @tournament.command(name="join", description="Enter this channel's tournament")
    async def tournament_join(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            state = await self.service.join(await self._here(interaction), interaction.user.id,
                                            interaction.user.display_name, role_ids(interaction))
            await tell(interaction, joined_text(linked_view(state, self.links), interaction.user.id,
                                                member_language(interaction)))
            await self.flow.refresh_signup(state)

        await self.guard.run(interaction, work)

    @tournament.command(name="leave", description="Withdraw from this channel's tournament before it starts")
    async def tournament_leave(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            state = await self.service.leave(await self._here(interaction), interaction.user.id)
            await tell(interaction, t(member_language(interaction), "You have left **{name}**.",
                                      name=escape_name(state.record.name)))
            await self.flow.refresh_signup(state)

        await self.guard.run(interaction, work)

    @tournament.command(name="addbot", description="Add bot entrants (organisers)")
    @app_commands.describe(count="How many (default 1)", level="easy, normal or hard (default: the server's)")
    @app_commands.choices(level=LEVEL_CHOICES)
    async def tournament_addbot(self, interaction: discord.Interaction, count: int = 1,
                                level: app_commands.Choice[str] | None = None) -> None:
        async def work() -> None:
            state = await self.service.add_bots(await self._here(interaction), interaction.user.id,
                                                is_manager(interaction), count, level.value if level else None,
                                                role_ids(interaction))
            lang = member_language(interaction)
            entrants = tn(lang, "{n} entrant", "{n} entrants", len(state.entrants))
            await tell(interaction, tn(lang, "{n} bot entrant added: {entrants}.",
                                       "{n} bot entrants added: {entrants}.", count, entrants=entrants))
            await self.flow.refresh_signup(state)

        await self.guard.run(interaction, work)

    @tournament.command(name="checkin", description="Open the check-in: entrants who don't check in are dropped "
                        "at the start (organisers); then, check in")
    async def tournament_checkin(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            tournament_id = await self._here(interaction)
            record = await self.service.get(tournament_id)
            entered = any(e.user_id == interaction.user.id and e.active
                          for e in (await self.service.state(tournament_id)).entrants)
            organiser = await self.service.is_organiser(record, interaction.user.id, is_manager(interaction),
                                                        role_ids(interaction))
            if record.status == "registration" and record.checkin and (entered or not organiser):
                # Entrants reach the check-in through this command too: it checks them in (or says why not).
                state = await self.service.check_in(tournament_id, interaction.user.id, role_ids(interaction))
                await tell(interaction, t(member_language(interaction), "You are checked in."))
                await self.flow.refresh_signup(state)
                return
            state = await self.service.open_checkin(tournament_id, interaction.user.id,
                                                    is_manager(interaction), role_ids(interaction))
            lang = await self._channel_language(interaction)
            out = signup_message(linked_view(state, self.links),
                                 t(lang, "✅ **Check-in is open.** Every entrant: press **Check in**. "
                                         "Entrants who have not checked in when the tournament starts are dropped."),
                                 lang)
            await reply(interaction, out, ephemeral=False)
            await self.flow.refresh_signup(state)

        await self.guard.run(interaction, work)

    @tournament.command(name="start", description="Close registration and seat round 1 (organisers)")
    async def tournament_start(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            tournament_id = await self._here(interaction)
            # Refusals first, as a plain private answer; the thread limit, known once paired, may still refuse.
            # Its tables play in threads: a permission lost since /tournament new is named before anything starts.
            permissions.require(bot_permissions(interaction), N_("start the tournament"), thread=True)
            await self.service.check_start(tournament_id, interaction.user.id, is_manager(interaction),
                                           role_ids(interaction))
            await defer(interaction, ephemeral=True)  # pairing up to 1,024 entrants
            started = await self.service.start(tournament_id, interaction.user.id, is_manager(interaction),
                                               role_ids(interaction))
            await self.flow.announce_start(started, interaction)

        await self.guard.run(interaction, work)

    # --------------------------------------------------------------- playing

    @tournament.command(name="drop", description="Stop playing in this channel's tournament (after the start)")
    async def tournament_drop(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            tournament_id = await self._here(interaction)
            notices = await self.service.drop(tournament_id, interaction.user.id)
            record = await self.service.get(tournament_id)
            lang = await self._channel_language(interaction)  # a public answer: the channel reads it
            text = t(lang, "🚪 {member} dropped from **{name}** and will not be paired again.",
                     member=interaction.user.mention, name=escape_name(record.name))
            if notices:
                text += " " + t(lang, "Your seat at your table is forfeited.")
            await interaction.response.send_message(
                text,
                allowed_mentions=discord.AllowedMentions.none())
            await self.flow.show_notices(notices)
            # A table not yet seated may have become a walkover, deciding the round.
            await self.flow.after(tournament_id, await self.service.progress(tournament_id))

        await self.guard.run(interaction, work)

    @tournament.command(name="standings", description="The standings of this channel's tournament")
    async def tournament_standings(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            record = await self.service.latest(home_channel(interaction))
            await defer(interaction, ephemeral=True)  # standings of a large event take a moment to read
            state, rows = await self.service.standings(record.id)
            await reply(interaction, standings_message(linked_view(state, self.links), standing_rows(rows), 1,
                                                       lang=member_language(interaction)), ephemeral=True)

        await self.guard.run(interaction, work)

    @tournament.command(name="status", description="The round, its tables with links, and which are still playing")
    async def tournament_status(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            record = await self.service.latest(home_channel(interaction))
            await defer(interaction, ephemeral=True)  # the round may move on, and the bracket is drawn
            if record.status == "playing":
                await self.service.progress(record.id)  # a round whose end was missed moves on
            state = await self.service.state(record.id)
            view = linked_view(state, self.links)
            lang = member_language(interaction)  # a private answer; its bracket picture stays the channel's
            out = status_message(view, await self.flow.threads_of(state), lang)
            if await self.service.is_organiser(record, interaction.user.id, is_manager(interaction),
                                               role_ids(interaction)):
                out.content = ((out.content or "") + penalties_text(view, lang))[:2000]
            bracket = await self.flow.bracket(record.id)
            if bracket is not None:
                out.files.append(bracket)
            await reply(interaction, out, ephemeral=True)
            if state.record.status == "playing" and await self.service.pending(record.id):
                await self.flow.seat_round(record.id)  # a thread that could not be opened is tried again

        await self.guard.run(interaction, work)

    @tournament.command(name="advance", description="End a round whose round_time has passed: its unfinished "
                        "tables are drawn (organisers)")
    async def tournament_advance(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            tournament_id = await self._here(interaction)
            await self.service.check_advance(tournament_id, interaction.user.id, is_manager(interaction),
                                             role_ids(interaction))  # refusals before the defer
            await defer(interaction, ephemeral=True)
            notices = await self.service.advance(tournament_id, interaction.user.id, is_manager(interaction),
                                                 role_ids(interaction))
            await announce(interaction, tn(await self._channel_language(interaction),
                                           "⏱️ The round is over: {n} unfinished table ended as draws.",
                                           "⏱️ The round is over: {n} unfinished tables ended as draws.",
                                           len(notices)), [])
            await self.flow.show_notices(notices)  # each finished table moves the round on (the flow's hook)
            await self.flow.after(tournament_id, await self.service.progress(tournament_id))

        await self.guard.run(interaction, work)

    @tournament.command(name="cancel", description="Cancel this channel's tournament (organisers)")
    async def tournament_cancel(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            tournament_id = await self._here(interaction)
            await self.service.check_cancel(tournament_id, interaction.user.id, is_manager(interaction),
                                            role_ids(interaction))  # refusals before the defer
            await defer(interaction, ephemeral=True)
            closed = await self.service.cancel(tournament_id, interaction.user.id, is_manager(interaction),
                                               role_ids(interaction))
            record = await self.service.get(tournament_id)
            lang = await self._channel_language(interaction)
            text = t(lang, "**{name}** was cancelled by {member}.", name=escape_name(record.name),
                     member=interaction.user.mention)
            if closed:
                text += " " + tn(lang, "{n} table in play closed.", "{n} tables in play closed.", len(closed))
            await announce(interaction, text, [])
            await self.flow.refresh_signup(await self.service.state(tournament_id))
            await self.flow.close_tables(record.name, closed)
            await self.flow.event_over(record)

        await self.guard.run(interaction, work)

    # ------------------------------------------------------- organisers only

    @tournament.command(name="schedule", description="Move the start of this channel's tournament (organisers)")
    @app_commands.describe(starts_at="2026-12-01 18:00 (server time zone), in 2h, or a Discord timestamp")
    async def tournament_schedule(self, interaction: discord.Interaction, starts_at: str) -> None:
        async def work() -> None:
            tournament_id = await self._here(interaction)
            record = await self.service.get(tournament_id)
            # The first start time makes a scheduled event: the permissions /tournament new checks for one.
            if record.event_id is None and not set(permissions.EVENTS) <= bot_permissions(interaction):
                raise Refusal(N_("A tournament with a start time gets a Discord scheduled event, and I lack the "
                                 "**Manage Events** permission in this server."))
            state = await self.service.reschedule(tournament_id, interaction.user.id, is_manager(interaction),
                                                  starts_at, role_ids(interaction))
            when = int(state.record.starts_at or 0)
            await interaction.response.send_message(
                t(await self._channel_language(interaction), "📅 **{name}** now starts <t:{when}:F> (<t:{when}:R>).",
                  name=escape_name(state.record.name), when=when),
                allowed_mentions=discord.AllowedMentions.none())
            await self.flow.move_event(state.record)
            await self.flow.refresh_signup(state)

        await self.guard.run(interaction, work)

    @tournament.command(name="penalty", description="Give an entrant a penalty (organisers)")
    @app_commands.describe(player="The entrant", kind="warning, game_loss (forfeits their table) or disqualify",
                           reason="Why: kept with the penalty")
    @app_commands.choices(kind=PENALTY_CHOICES)
    async def tournament_penalty(self, interaction: discord.Interaction, player: discord.Member,
                                 kind: app_commands.Choice[str], reason: str) -> None:
        async def work() -> None:
            tournament_id = await self._here(interaction)
            penalty, notices = await self.service.penalty(tournament_id, interaction.user.id, is_manager(interaction),
                                                          player.id, kind.value, reason, role_ids(interaction))
            lang = member_language(interaction)
            extra = ""
            if kind.value == "game_loss" and (penalty.pending or notices):
                extra = " " + (t(lang, "Their table in play is forfeited.") if notices else
                               t(lang, "It forfeits their next table."))
            await tell(interaction, t(lang, RECORDED[kind.value], member=player.mention,
                                      reason=escape_name(penalty.text)) + extra)
            await self.flow.show_notices(notices)
            if kind.value == "disqualify":
                await self.flow.after(tournament_id, await self.service.progress(tournament_id))

        await self.guard.run(interaction, work)

    @tournament.command(name="note", description="Keep a note about an entrant that only organisers see")
    @app_commands.describe(player="The entrant", text="The note")
    async def tournament_note(self, interaction: discord.Interaction, player: discord.Member, text: str) -> None:
        async def work() -> None:
            note = await self.service.note(await self._here(interaction), interaction.user.id,
                                           is_manager(interaction), player.id, text, role_ids(interaction))
            await tell(interaction, t(member_language(interaction), "Noted about {member}: {note}",
                                      member=player.mention, note=escape_name(note.text)))

        await self.guard.run(interaction, work)
