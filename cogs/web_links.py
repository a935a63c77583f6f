"""Link buttons from Discord messages to the web pages, when a server turned its pages on.

Synchronous on purpose, so a message builder adds a link with one call: whether a server's pages are on comes
from the settings cache (every guild's settings are read at start and re-read when they change), and which
channels @everyone can view from the map the bot's one :class:`WebLinks` keeps (loaded at start by the /profile
cog, updated as the bot records them), or for a channel not recorded yet from the bot's own cache
(``cached_visibility``). bot.py builds that object and gives it to each cog that links.
"""

from __future__ import annotations

from collections.abc import Callable

import discord

from cogs.controls import with_link
from host.read_models import TournamentView
from host.tournaments.service import TournamentState
from host.tournaments.views import tournament_view
from host.web_links import WebLinks


def everyone_sees(channel: object) -> bool:
    """Whether @everyone can view ``channel`` (for a thread: its parent, and the thread is not private)."""
    if isinstance(channel, discord.Thread):
        if channel.type == discord.ChannelType.private_thread or channel.parent is None:
            return False
        channel = channel.parent
    if not isinstance(channel, discord.abc.GuildChannel):
        return False
    return bool(channel.permissions_for(channel.guild.default_role).view_channel)


def cached_visibility(client: discord.Client) -> Callable[[int], bool | None]:
    """``WebLinks.sees`` for ``client``: whether @everyone can view a channel its cache holds (None: not held)."""
    def sees(channel_id: int) -> bool | None:
        channel = client.get_channel(channel_id)
        return None if channel is None else everyone_sees(channel)
    return sees


def linked_view(state: TournamentState, links: WebLinks) -> TournamentView:
    """The tournament's read model, with its web page's address when the server's pages are on."""
    return tournament_view(state, links.tournament(state.record))


__all__ = ["WebLinks", "cached_visibility", "everyone_sees", "linked_view", "with_link"]
