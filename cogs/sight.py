"""Read from Discord what a member can view, for host.privacy to decide which tables they may see.

Only the channels asked about are read. The cache answers for channels and public threads; a channel the
cache lacks (an archived thread) costs one request, and a private thread the member is not cached in costs
one for its members. When any request is needed the answer is deferred first, and the requests go
together, so a long list still answers within Discord's 3 seconds.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

import discord

from cogs.answers import defer
from host.privacy import ChannelAccess, Sight

#: Discord's answers that mean "you cannot have this channel": it is gone, or the bot may not read it.
UNREADABLE = (discord.NotFound, discord.Forbidden, discord.HTTPException, discord.InvalidData)


async def sight_of(interaction: discord.Interaction, channel_ids: Iterable[int]) -> Sight:
    """The member's Sight over ``channel_ids`` (each read once)."""
    guild = interaction.guild
    member = interaction.user
    if guild is None or not isinstance(member, discord.Member):
        return Sight(frozenset())
    accesses: list[ChannelAccess] = []
    asking: list[int] = []
    for channel_id in set(channel_ids):
        known = cached_access(guild, member, channel_id)
        if known is None:
            asking.append(channel_id)
        else:
            accesses.append(known)
    if asking:
        await defer(interaction, ephemeral=True)  # every such answer is private
        accesses += await asyncio.gather(*(fetched_access(guild, member, c) for c in asking))
    return Sight.of(accesses)


def cached_access(guild: discord.Guild, member: discord.Member, channel_id: int) -> ChannelAccess | None:
    """What the cache tells, or None when only Discord can (a channel not cached, a private thread's members)."""
    channel: Any = guild.get_channel_or_thread(channel_id)
    if channel is None:
        return None
    return thread_access(guild, member, channel, None) if isinstance(channel, discord.Thread) else \
        ChannelAccess(channel_id, view_channel=channel.permissions_for(member).view_channel)


async def fetched_access(guild: discord.Guild, member: discord.Member, channel_id: int) -> ChannelAccess:
    channel: Any = guild.get_channel_or_thread(channel_id)
    if channel is None:
        try:
            channel = await guild.fetch_channel(channel_id)
        except UNREADABLE:  # gone, or hidden from the bot: nobody is shown it
            return ChannelAccess(channel_id, view_channel=False)
    if not isinstance(channel, discord.Thread):
        return ChannelAccess(channel_id, view_channel=channel.permissions_for(member).view_channel)
    known = thread_access(guild, member, channel, None)
    if known is not None:
        return known
    listed = await listed_member(channel, member.id)
    return thread_access(guild, member, channel, listed) or ChannelAccess(channel_id, view_channel=False)


def thread_access(guild: discord.Guild, member: discord.Member, thread: discord.Thread,
                  listed: bool | None) -> ChannelAccess | None:
    """A thread's access: View Channel and Manage Threads from its parent (discord.py looks no further),
    and for a private thread, membership: cached, or ``listed`` by Discord (None: not asked yet)."""
    parent = thread.parent or guild.get_channel(thread.parent_id)
    if parent is None:
        return ChannelAccess(thread.id, view_channel=False)
    allowed = parent.permissions_for(member)
    private = thread.is_private()
    # Manage Threads opens every private thread, and a member who cannot view the parent needs no list.
    if not private or not allowed.view_channel or allowed.manage_threads:
        return ChannelAccess(thread.id, view_channel=allowed.view_channel, private_thread=private,
                             manage_threads=allowed.manage_threads)
    in_thread = any(m.id == member.id for m in thread.members) or bool(listed)
    if not in_thread and listed is None:
        return None
    return ChannelAccess(thread.id, view_channel=True, private_thread=True, thread_member=in_thread)


async def listed_member(thread: discord.Thread, user_id: int) -> bool:
    """Whether Discord lists ``user_id`` among ``thread``'s members.

    The list, not GET …/thread-members/{user}: a non-member there is a 404, and every 404 counts towards
    Discord's limit of invalid requests."""
    try:
        return any(m.id == user_id for m in await thread.fetch_members())
    except UNREADABLE:
        return False
