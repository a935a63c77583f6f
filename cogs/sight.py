"""Read from Discord what a member can view, for host.privacy to decide which tables they may see.

Only the channels asked about are read: the cache answers for channels and public threads; a channel
the cache lacks (an archived thread) costs one request, and a private thread one more for its members.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord

from host.privacy import ChannelAccess, Sight

#: Discord's answers that mean "you cannot have this channel": it is gone, or the bot may not read it.
UNREADABLE = (discord.NotFound, discord.Forbidden, discord.HTTPException, discord.InvalidData)


async def sight_of(interaction: discord.Interaction, channel_ids: Iterable[int]) -> Sight:
    """The member's Sight over ``channel_ids`` (each read once)."""
    guild = interaction.guild
    member = interaction.user
    if guild is None or not isinstance(member, discord.Member):
        return Sight(frozenset())
    return Sight.of([await access(guild, member, channel_id) for channel_id in set(channel_ids)])


async def access(guild: discord.Guild, member: discord.Member, channel_id: int) -> ChannelAccess:
    channel: Any = guild.get_channel_or_thread(channel_id)
    if channel is None:
        try:
            channel = await guild.fetch_channel(channel_id)
        except UNREADABLE:
            return ChannelAccess(channel_id, view_channel=False)
    if not isinstance(channel, discord.Thread):
        return ChannelAccess(channel_id, view_channel=channel.permissions_for(member).view_channel)
    parent = channel.parent or guild.get_channel(channel.parent_id)
    if parent is None:
        return ChannelAccess(channel_id, view_channel=False)
    allowed = parent.permissions_for(member)
    private = channel.is_private()
    # Manage Threads opens every private thread: no need to ask who is in it.
    member_of = (private and allowed.view_channel and not allowed.manage_threads
                 and await thread_member(channel, member.id))
    return ChannelAccess(channel_id, view_channel=allowed.view_channel, private_thread=private,
                         thread_member=member_of, manage_threads=allowed.manage_threads)


async def thread_member(thread: discord.Thread, user_id: int) -> bool:
    """Whether ``user_id`` is in ``thread``: the cached members, else Discord's thread-members list.

    The list, not GET …/thread-members/{user}: a non-member there is a 404, and every 404 counts towards
    Discord's limit of invalid requests."""
    if any(m.id == user_id for m in thread.members):
        return True
    try:
        return any(m.id == user_id for m in await thread.fetch_members())
    except UNREADABLE:
        return False
