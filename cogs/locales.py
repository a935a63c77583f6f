"""Which language an interaction's answer speaks, from the Discord facts the cogs hold.

Host decides nothing about Discord objects: these helpers read ``interaction.locale`` and the guild's
``preferred_locale`` and hand plain language codes on. (The interaction's ``guild_locale`` is not used:
a server picks its channels' language with ``/config set setting:language``.)
"""

from __future__ import annotations

import logging
from pathlib import Path

import discord

import i18n
from host.languages import MemberLanguages
from host.settings import ServerSettings, Settings

log = logging.getLogger(__name__)


def member_language(interaction: discord.Interaction) -> str:
    """What a private answer (ephemeral, autocomplete, modal) speaks: the member's Discord language."""
    return i18n.resolve(interaction.locale.value if interaction.locale else None)


def channel_language(settings: Settings, guild: discord.Guild | None) -> str:
    """What the whole channel reads: the server's ``language`` setting (``auto``: its Discord language)."""
    preferred = guild.preferred_locale.value if guild is not None and guild.preferred_locale else None
    return settings.channel_language(preferred)


async def remember_locale(languages: MemberLanguages, interaction: discord.Interaction) -> None:
    """Keep the member's locale for direct messages; a failed write costs the member nothing else."""
    if interaction.locale is None:
        return
    try:
        await languages.seen(interaction.user.id, interaction.locale.value)
    except Exception:
        log.warning("could not record the locale of member %s", interaction.user.id, exc_info=True)


def rules_file(rules_dir: Path, game_id: str, lang: str) -> Path:
    """A game's rules for a member: their language's translation (``docs/rules/<lang>/``) when it exists, else
    the English file."""
    name = f"{game_id.replace('_', '-')}.md"
    translated = rules_dir / lang / name
    return translated if lang != i18n.DEFAULT and translated.exists() else rules_dir / name


class Speakers:
    """The languages of what is posted without a member asking (table messages, lobbies, reminders, DMs),
    for the cogs that post them: a server's channels read its ``language`` setting, a DM speaks the member's
    last seen locale. Without settings (a test's bare poster) everything is English."""

    def __init__(self, bot: discord.Client, settings: ServerSettings | None = None,
                 members: MemberLanguages | None = None) -> None:
        self.bot = bot
        self.settings = settings
        self.members = members

    async def channel(self, guild_id: int | None) -> str:
        """What the channels of server ``guild_id`` read."""
        if self.settings is None:
            return i18n.DEFAULT
        settings = await self.settings.get(guild_id)
        return channel_language(settings, self.bot.get_guild(guild_id) if guild_id else None)

    async def dm(self, user_id: int) -> str:
        """What a direct message to member ``user_id`` speaks."""
        return await self.members.dm_language(user_id) if self.members is not None else i18n.DEFAULT
