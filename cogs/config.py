"""/config show|set: a server's defaults and limits, for members with Manage Server, in the member's language."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from cogs.guard import Guard, is_manager, tell
from cogs.locales import member_language
from host.settings import NAMES, ServerSettings

SETTING_CHOICES = [app_commands.Choice(name=name, value=name) for name in NAMES]


class ConfigCog(commands.Cog):
    config = app_commands.Group(name="config", description="Deckhand's settings for this server (Manage Server)",
                                guild_only=True, default_permissions=discord.Permissions(manage_guild=True))

    def __init__(self, settings: ServerSettings, guard: Guard) -> None:
        self.settings = settings
        self.guard = guard

    @config.command(name="show", description="Show this server's settings")
    async def config_show(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            settings = await self.settings.shown(interaction.guild_id, is_manager(interaction))
            lang = member_language(interaction)
            numbers = {key: i18n.number(lang, value) for key, value in settings.help_values}
            # A value is what /config set takes (on, off, 90s...), as typed; only its words around it are translated.
            lines = [f"`{name}` = **{i18n.say_text(lang, value)}**: "
                     f"{i18n.t(lang, help_text, **numbers) if help_text else ''}"
                     for name, value, help_text in settings.rows]
            await tell(interaction, i18n.t(lang, "**Deckhand settings for this server**") + "\n" + "\n".join(lines))

        await self.guard.run(interaction, work)

    @config.command(name="set", description="Change one of this server's settings")
    @app_commands.describe(setting="Which setting", value="Its new value (see /config show)")
    @app_commands.choices(setting=SETTING_CHOICES)
    async def config_set(self, interaction: discord.Interaction, setting: str, value: str) -> None:
        async def work() -> None:
            now = await self.settings.change(interaction.guild_id or 0, setting, value, interaction.user.id,
                                             is_manager(interaction))
            await tell(interaction, i18n.t(member_language(interaction), "`{setting}` is now **{value}**. New tables "
                                           "use it; tables already open keep their own clock.", setting=setting,
                                           value=i18n.say_text(member_language(interaction), now)))

        await self.guard.run(interaction, work)
