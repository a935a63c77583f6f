"""A table's lobby messages, kept true: edited when their table starts or closes.

A lobby message invites members to join with its buttons and its footer. Once the table has started,
finished, been abandoned or closed itself, that invitation would send people to a table that has gone
on, so the lobby messages of each table are remembered (``game_tables.lobby_messages``: the one
``/game new`` posted and each one a ``/game join`` typed in the channel posted) and edited into what
became of the table: their seats and options stay, their buttons and invitation go.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

import i18n
from cogs.presenter import lobby_message
from host import TableService
from host.clock import lost_access
from host.table_feed import TableRecord

log = logging.getLogger(__name__)

#: The line above a lobby's embed once its table has gone on, by the table's status.
#: Message ids: a lobby is the channel's, so they are shown in the server's language.
SETTLED_NOTES = {
    "playing": i18n.N_("The game has started."),
    "finished": i18n.N_("🏁 The game is over."),
    "abandoned": i18n.N_("This table was closed."),
}
#: What a lobby message past the newest few says: only those are edited at the start and the close.
NEWER_LOBBY = i18n.N_("⬇️ This lobby has a newer message below.")


async def _english(guild_id: int | None) -> str:
    return i18n.DEFAULT


class LobbyMessages:
    def __init__(self, tables: TableService, channel_of: Callable[[int], Awaitable[Any]], *,
                 language: Callable[[int | None], Awaitable[str]] = _english) -> None:
        self.tables = tables
        self.channel_of = channel_of
        #: A server's channel language, from its guild id.
        self.language = language

    async def remember(self, table_id: int, message: discord.Message | None, *, lang: str = i18n.DEFAULT) -> None:
        """``message`` is a lobby message of the table: one to edit when the table goes on. ``lang`` is the
        channel's language, for the older messages it retires."""
        if message is None:
            return
        try:
            for older in await self.tables.add_lobby_message(table_id, message.id):
                # Past the newest few, a lobby message is retired now, so that none is left inviting.
                await message.channel.get_partial_message(older).edit(content=i18n.t(lang, NEWER_LOBBY), embed=None,
                                                                     view=None)
        except Exception:  # the lobby itself is posted; only an edit of it is lost
            log.warning("could not remember the lobby message of table %s", table_id, exc_info=True)

    async def settle(self, table: TableRecord, *, edited: int | None = None) -> None:
        """Edit the table's lobby messages to show that the table started or closed, never to invite.

        ``edited``: a message the caller has just edited in place (a lobby button's own message), which
        needs no second edit. After a close the messages are forgotten; after a start they are kept, to be
        edited again when the game ends. A failure is logged, never raised: the table's change is
        committed, and a lobby that cannot be edited (deleted, no access) must not hold up its messages.
        """
        try:
            message_ids = await self.tables.lobby_messages_of(table.id)
            if not message_ids:
                return
            note = SETTLED_NOTES.get(table.status)
            lang = await self.language(table.guild_id)
            out = lobby_message(self.tables.lobby(table), i18n.t(lang, note) if note else "")
            channel = await self.channel_of(table.channel_id)
            for message_id in message_ids:
                if message_id == edited:
                    continue
                try:
                    await channel.get_partial_message(message_id).edit(**out.edit_kwargs())
                except discord.NotFound:
                    continue  # deleted by someone: nothing left to mislead
            if table.status != "playing":
                await self.tables.forget_lobby_messages(table.id)
        except Exception as exc:
            log.warning("could not edit the lobby messages of table %s", table.id, exc_info=True)
            if lost_access(exc):  # no edit can pass until a person changes the server
                await self._forget(table.id)

    async def _forget(self, table_id: int) -> None:
        try:
            await self.tables.forget_lobby_messages(table_id)
        except Exception:
            log.warning("could not forget the lobby messages of table %s", table_id, exc_info=True)
