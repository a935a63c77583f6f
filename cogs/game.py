"""Slash commands /game … and /play: open, join and run a table, and make moves."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord
from discord import app_commands
from discord.ext import commands

from cogs import controls
from cogs.flow import TableFlow, is_manager, log_lines, reply
from cogs.guard import Guard, tell
from cogs.presenter import Outgoing, lobby_message, table_message
from engines import GAME_IDS, GAME_TITLES, get_engine
from host import LobbyChange, Refusal, TableService
from host.parsing import parse_options

log = logging.getLogger(__name__)

GAME_CHOICES = [app_commands.Choice(name=GAME_TITLES[g], value=g) for g in GAME_IDS]


class GameCog(commands.Cog):
    game = app_commands.Group(name="game", description="Create, join and run card game tables",
                              guild_only=True)

    def __init__(self, bot: commands.Bot, tables: TableService, guard: Guard, flow: TableFlow) -> None:
        self.bot = bot
        self.tables = tables
        self.guard = guard
        self.flow = flow

    async def cog_load(self) -> None:
        controls.set_handler(self.flow.on_control)

    async def cog_unload(self) -> None:
        controls.set_handler(None)

    # ------------------------------------------------------------------ lobby

    @game.command(name="new", description="Open a table for a game in this channel")
    @app_commands.describe(game="Which game", options="Table options, e.g. max_turns=300 (see /game rules)")
    @app_commands.choices(game=GAME_CHOICES)
    async def game_new(self, interaction: discord.Interaction, game: app_commands.Choice[str],
                       options: str | None = None) -> None:
        async def work() -> None:
            table = await self.tables.create(
                guild_id=interaction.guild_id, channel_id=interaction.channel_id or 0, game_id=game.value,
                options=parse_options(options), user_id=interaction.user.id,
                user_name=interaction.user.display_name)
            note = f"{interaction.user.mention} opened a **{get_engine(table.game).title}** table."
            await reply(interaction, lobby_message(table, note), ephemeral=False)

        await self.guard.run(interaction, work)

    @game_new.autocomplete("options")
    async def options_autocomplete(self, interaction: discord.Interaction,
                                   current: str) -> list[app_commands.Choice[str]]:
        game_id = getattr(interaction.namespace, "game", None)
        try:
            defaults = get_engine(str(game_id)).default_options if game_id else {}
        except (KeyError, ModuleNotFoundError):
            defaults = {}
        pairs = [f"{k}={str(v).lower()}" for k, v in defaults.items()]
        suggestions = [current] if current else []
        suggestions += [" ".join(pairs), *pairs]
        return [app_commands.Choice(name=s[:100], value=s[:100]) for s in dict.fromkeys(suggestions) if s][:25]

    async def _lobby_change(self, interaction: discord.Interaction,
                            change: Callable[[], Awaitable[LobbyChange]], note: str) -> None:
        async def work() -> None:
            await self.flow.lobby_changed(interaction, await change(), note)

        await self.guard.run(interaction, work)

    @game.command(name="join", description="Take a seat at this channel's table")
    async def game_join(self, interaction: discord.Interaction) -> None:
        await self._lobby_change(interaction, lambda: self.tables.join(
            interaction.channel_id or 0, interaction.user.id, interaction.user.display_name),
            f"{interaction.user.display_name} joined.")

    @game.command(name="leave", description="Leave this channel's table before it starts")
    async def game_leave(self, interaction: discord.Interaction) -> None:
        await self._lobby_change(interaction, lambda: self.tables.leave(
            interaction.channel_id or 0, interaction.user.id), f"{interaction.user.display_name} left.")

    @game.command(name="addbot", description="Fill a seat with a bot player (host only)")
    async def game_addbot(self, interaction: discord.Interaction) -> None:
        await self._lobby_change(interaction, lambda: self.tables.add_bot(
            interaction.channel_id or 0, interaction.user.id, is_manager(interaction)), "A bot sat down.")

    @game.command(name="start", description="Deal the cards (host only)")
    async def game_start(self, interaction: discord.Interaction) -> None:
        await self.guard.run(interaction, lambda: self.flow.start(interaction))

    @game.command(name="status", description="Show this channel's table")
    async def game_status(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            table = await self.tables.require_table(interaction.channel_id or 0)
            if table.status == "lobby":
                await reply(interaction, lobby_message(table), ephemeral=True)
                return
            recent = await self.tables.store.actions(table.id, max(0, table.version - 5))
            await reply(interaction, await table_message(self.tables, table, log_lines(recent)), ephemeral=True)

        await self.guard.run(interaction, work)

    @game.command(name="abandon", description="Close this channel's table (host or Manage Server)")
    async def game_abandon(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            table = await self.tables.abandon(interaction.channel_id or 0, interaction.user.id,
                                              is_manager(interaction))
            await reply(interaction, Outgoing(f"Table #{table.id} was abandoned by {interaction.user.mention}."),
                        ephemeral=False)

        await self.guard.run(interaction, work)

    @game.command(name="rules", description="A short summary of a game's rules")
    @app_commands.choices(game=GAME_CHOICES)
    async def game_rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        async def work() -> None:
            engine = get_engine(game.value)
            embed = discord.Embed(title=f"{engine.title}: rules", description=engine.summary[:4000],
                                  colour=discord.Colour.blurple())
            embed.add_field(name="Players", value=f"{engine.min_players}–{engine.max_players}")
            if engine.default_options:
                embed.add_field(name="Table options (defaults)", value=", ".join(
                    f"`{k}={str(v).lower()}`" for k, v in engine.default_options.items()), inline=False)
            await interaction.response.send_message(embed=embed, ephemeral=True)

        await self.guard.run(interaction, work)

    @game.command(name="bench", description="Look through the bench (Ogre Cheerleaders)")
    async def game_bench(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            table = await self.tables.require_table(interaction.channel_id or 0)
            view = await self.tables.public_view(table) if table.status != "lobby" else {}
            if "bench" not in view:
                raise Refusal("This game has no bench.")
            bench = list(view["bench"])
            text = ", ".join(reversed(bench)) if bench else "empty"
            await tell(interaction, f"**Bench** ({len(bench)} cards, top first): {text}"[:1900])

        await self.guard.run(interaction, work)

    # ------------------------------------------------------------------- play

    @app_commands.command(name="play", description="Make a move at this channel's table")
    @app_commands.describe(action="Start typing: your legal moves are offered")
    @app_commands.guild_only()
    async def play(self, interaction: discord.Interaction, action: str) -> None:
        async def work() -> None:
            table = await self.tables.require_table(interaction.channel_id or 0)
            outcome = await self.tables.act(table.id, interaction.user.id, action.strip())
            await self.flow.after_action(interaction, outcome, edit=False)

        await self.guard.run(interaction, work)

    @play.autocomplete("action")
    async def play_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        try:
            table = await self.tables.table_in(interaction.channel_id or 0)
            if table is None or table.status != "playing":
                return []
            info = await self.tables.hand(table.id, interaction.user.id)
        except Refusal:
            return []
        needle = current.lower().strip()
        hits = [(a, label) for a, label in info.choices if needle in label.lower() or needle in a.lower()]
        return [app_commands.Choice(name=label[:100], value=a[:100]) for a, label in hits[:25]]
