"""Who may see which tables: Discord's own rule, decided here over plain facts a cog read from Discord.

A member sees a table when they can view its channel: the View Channel permission in the channel (for a
thread, in its parent), and for a private thread, membership of the thread (or Manage Threads in the
parent, which lets Discord's moderators open every private thread). A table they cannot see is treated as
if it did not exist, so no answer tells a hidden table from a missing one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from host.read_models import MyTables, ServerTables


@dataclass(frozen=True)
class ChannelAccess:
    """What Discord says about one member in one channel or thread (a channel it cannot find: all False)."""

    channel_id: int
    view_channel: bool
    private_thread: bool = False
    thread_member: bool = False
    manage_threads: bool = False


def can_view(access: ChannelAccess) -> bool:
    if not access.view_channel:
        return False
    # discord.py's permissions_for looks only at a thread's parent: a private thread also needs membership.
    return not access.private_thread or access.thread_member or access.manage_threads


@dataclass(frozen=True)
class Sight:
    """The channels and threads one member can view, among those a command asked about."""

    visible: frozenset[int]

    @classmethod
    def of(cls, accesses: Iterable[ChannelAccess]) -> Sight:
        return cls(frozenset(a.channel_id for a in accesses if can_view(a)))

    def sees(self, channel_id: int) -> bool:
        return channel_id in self.visible


def visible_mine(mine: MyTables, sight: Sight) -> MyTables:
    return MyTables(tuple(row for row in mine.rows if sight.sees(row.where.channel_id)))


def visible_tables(tables: ServerTables, sight: Sight) -> ServerTables:
    return ServerTables(tuple(row for row in tables.lobbies if sight.sees(row.where.channel_id)),
                        tuple(row for row in tables.running if sight.sees(row.where.channel_id)))
