"""The language each member last showed the bot, so that a direct message speaks it.

Discord tells the bot a member's client language with every interaction (``interaction.locale``); the cogs
pass it down as a plain string. It is written only when it changed since this process last saw it, so an
ordinary interaction costs no write.
"""

from __future__ import annotations

from collections import OrderedDict

import i18n
from data.store import Store

#: Members whose last locale this process keeps in memory (the least recently seen are forgotten first).
REMEMBERED = 10_000


class MemberLanguages:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._seen: OrderedDict[int, str] = OrderedDict()

    async def seen(self, user_id: int, locale: str) -> None:
        """Record the locale of a member's interaction (a write only when it differs from the last one)."""
        if self._seen.get(user_id) == locale:
            self._seen.move_to_end(user_id)
            return
        await self.store.settings.set_member_locale(user_id, locale)
        self._remember(user_id, locale)

    async def dm_language(self, user_id: int) -> str:
        """The language of a direct message to the member: their last seen locale's, else English."""
        locale = self._seen.get(user_id)
        if locale is None:
            locale = await self.store.settings.member_locale(user_id)
            if locale is not None:
                self._remember(user_id, locale)
        return i18n.resolve(locale)

    def _remember(self, user_id: int, locale: str) -> None:
        self._seen[user_id] = locale
        self._seen.move_to_end(user_id)
        while len(self._seen) > REMEMBERED:
            self._seen.popitem(last=False)


class ServerLocales:
    """Each server's Discord language (``guild.preferred_locale``) as the bot sees it, kept in the database so
    that a process without the gateway (``python -m web``) can follow a server whose ``language`` is ``auto``.
    Written only when it changed since this process last saw it."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._seen: dict[int, str] = {}

    async def seen(self, guild_id: int, locale: str | None) -> None:
        if not locale or self._seen.get(guild_id) == locale:
            return
        if await self.store.settings.guild_locale(guild_id) != locale:
            await self.store.settings.set_guild_locale(guild_id, locale)
        self._seen[guild_id] = locale
