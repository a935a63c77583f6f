"""/config show|set: a server's defaults and limits, for members with Manage Server."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.guard import Guard, is_manager, tell
from host import Refusal
from host.settings import HELP, NAMES, ServerSettings, shown

SETTING_CHOICES = [app_commands.Choice(name=name, value=name) for name in NAMES]


def require_manager(interaction: discord.Interaction) -> None:
    # Discord hides the command from others (default_permissions), but a server's admins can
    # change who sees it, so the handler checks too.
    if not is_manager(interaction):
        raise Refusal("Only members with the **Manage Server** permission can see or change Deckhand's settings.")


class ConfigCog(commands.Cog):
    config = app_commands.Group(name="config", description="Deckhand's settings for this server (Manage Server)",
                                guild_only=True, default_permissions=discord.Permissions(manage_guild=True))

    def __init__(self, settings: ServerSettings, guard: Guard) -> None:
        self.settings = settings
        self.guard = guard

    @config.command(name="show", description="Show this server's settings")
    async def config_show(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            require_manager(interaction)
            current = await self.settings.get(interaction.guild_id)
            lines = [f"`{name}` = **{value}**: {HELP[name]}" for name, value in
                     shown(current, self.settings.default_delay)]
            await tell(interaction, "**Deckhand settings for this server**\n" + "\n".join(lines))

        await self.guard.run(interaction, work)

    @config.command(name="set", description="Change one of this server's settings")
    @app_commands.describe(setting="Which setting", value="Its new value (see /config show)")
    @app_commands.choices(setting=SETTING_CHOICES)
    async def config_set(self, interaction: discord.Interaction, setting: str, value: str) -> None:
        async def work() -> None:
            require_manager(interaction)
            current = await self.settings.set(interaction.guild_id or 0, setting, value, interaction.user.id)
            now = dict(shown(current, self.settings.default_delay))[setting]
            await tell(interaction, f"`{setting}` is now **{now}**. New tables use it; tables already open keep "
                                    "their own clock.")

        await self.guard.run(interaction, work)
