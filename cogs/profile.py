"""The web side of the bot: ``/profile``, ``/tournament export``, the facts the pages need (which channels
@everyone can view), and the web server itself when ``WEB_PORT`` is set."""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING, Any, Protocol

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from cogs.guard import Guard, is_manager, role_ids, tell
from cogs.locales import member_language
from cogs.web_links import everyone_sees, with_link
from host import Refusal
from host.settings import ServerSettings
from host.tournaments.service import TournamentService
from host.web import PublicSite
from host.web_links import WebLinks
from i18n import N_
from render.markup import escape_name

if TYPE_CHECKING:
    from discord.ext.commands import Bot

log = logging.getLogger(__name__)

#: The commands after which the channel's visibility is recorded: where tables and tournaments are made.
RECORDED_AFTER = {"game new", "tournament new", "game join", "game status", "tournament join"}


class WebPages(Protocol):
    server: Any

    async def start(self) -> None: ...
    async def stop(self) -> None: ...


class ProfileCog(commands.Cog):
    def __init__(self, bot: Bot, settings: ServerSettings, events: TournamentService,
                 guard: Guard, links: WebLinks, site: PublicSite, pages: WebPages | None = None) -> None:
        self.bot = bot
        self.settings = settings
        self.events = events
        self.guard = guard
        #: The web server, built by bot.py when WEB_PORT is set: started and stopped with this cog.
        self.pages = pages
        self.site = site
        self.links = links

        # /tournament export joins the tournament group (cogs/tournament.py) from here, as a plain function:
        # discord.py reads a bound method's parameters wrongly.
        @app_commands.describe(format="csv (a spreadsheet) or json")
        @app_commands.choices(format=[app_commands.Choice(name="csv", value="csv"),
                                      app_commands.Choice(name="json", value="json")])
        async def export(interaction: discord.Interaction, format: app_commands.Choice[str]) -> None:
            await self._export(interaction, format)

        self.export_command = app_commands.Command(
            name="export", description="Download this channel's tournament: standings, rounds, results, tie-breakers",
            callback=export)

    async def cog_load(self) -> None:
        await self.links.load()
        group = self.bot.tree.get_command("tournament")
        if isinstance(group, app_commands.Group) and group.get_command("export") is None:
            group.add_command(self.export_command)
        if self.pages is not None:
            await self.pages.start()

    async def cog_unload(self) -> None:
        if self.pages is not None:
            await self.pages.stop()

    @property
    def server(self) -> Any:
        """The web server, while it runs (the sandbox prints its address)."""
        return self.pages.server if self.pages is not None else None

    # ------------------------------------------------------------------ commands

    @app_commands.command(name="profile", description="Show or hide your player page on this server's web pages")
    @app_commands.describe(visibility="hidden: your page 404s and your name links nowhere; visible: shown again")
    @app_commands.choices(visibility=[app_commands.Choice(name="hidden", value="hidden"),
                                      app_commands.Choice(name="visible", value="visible")])
    async def profile(self, interaction: discord.Interaction, visibility: app_commands.Choice[str]) -> None:
        async def work() -> None:
            lang = member_language(interaction)
            hidden = visibility.value == "hidden"
            await self.links.set_player_hidden(interaction.user.id, hidden)
            if hidden:
                text = i18n.t(lang, "Your player page is now **hidden**: it is not found, and your name links nowhere.")
            else:
                text = i18n.t(lang, "Your player page is now **visible** on the web pages of servers that turned "
                              "them on.")
                url = await self.links.player(interaction.guild_id, interaction.user.id)
                if url:
                    await interaction.response.send_message(text, ephemeral=True,
                                                            view=with_link(None, url, i18n.t(lang, "Web page")))
                    return
            await tell(interaction, text)

        await self.guard.run(interaction, work)

    async def _export(self, interaction: discord.Interaction, format: app_commands.Choice[str]) -> None:
        async def work() -> None:
            channel = interaction.channel
            home = channel.parent_id if isinstance(channel, discord.Thread) and channel.parent_id else \
                interaction.channel_id or 0
            record = await self.events.latest(home)
            organiser = await self.events.is_organiser(record, interaction.user.id, is_manager(interaction),
                                                       role_ids(interaction))
            found = await self.site.export(None, record.id, format.value, check=False, organiser=organiser)
            if found is None:
                raise Refusal(N_("That tournament does not exist."))
            data, name = found
            lang = member_language(interaction)
            if organiser:
                note = i18n.t(lang, "**{name}**: standings with the tie-breakers, and every round's pairings and "
                              "results, with the penalties and notes (organisers only) ({format}).",
                              name=escape_name(record.name), format=format.value.upper())
            else:
                note = i18n.t(lang, "**{name}**: standings with the tie-breakers, and every round's pairings and "
                              "results ({format}).", name=escape_name(record.name), format=format.value.upper())
            await interaction.response.send_message(
                note, ephemeral=True, file=discord.File(io.BytesIO(data), filename=name),
                view=with_link(None, self.links.tournament(record), i18n.t(lang, "Web page")))

        await self.guard.run(interaction, work)

    # ------------------------------------------------------------------ what the pages need

    @commands.Cog.listener()
    async def on_app_command_completion(self, interaction: discord.Interaction,
                                        command: app_commands.Command | app_commands.ContextMenu) -> None:
        name = command.qualified_name
        try:
            if name in RECORDED_AFTER and interaction.guild_id and interaction.channel is not None:
                await self.links.record(interaction.guild_id, interaction.channel.id,
                                        everyone_sees(interaction.channel))
            elif name == "config set" and interaction.guild is not None:
                # Pages just turned on: record every channel of the server, so tables made before are served.
                for channel in interaction.guild.channels:
                    if isinstance(channel, discord.TextChannel | discord.ForumChannel):
                        await self.links.record(interaction.guild.id, channel.id, everyone_sees(channel))
        except Exception:
            log.warning("could not record whether a channel is public", exc_info=True)

    @commands.Cog.listener()
    async def on_guild_channel_update(self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel) -> None:
        if after.id in self.links.channels:
            await self.links.record(after.guild.id, after.id, everyone_sees(after))
        # A table opened inside an existing thread is recorded under the thread, whose visibility is its parent's.
        for thread in after.guild.threads:
            if thread.parent_id == after.id and thread.id in self.links.channels:
                await self.links.record(after.guild.id, thread.id, everyone_sees(thread))

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        if channel.id in self.links.channels:
            await self.links.record(channel.guild.id, channel.id, False)

    @commands.Cog.listener()
    async def on_thread_update(self, before: discord.Thread, after: discord.Thread) -> None:
        if after.id in self.links.channels:
            await self.links.record(after.guild.id, after.id, everyone_sees(after))
