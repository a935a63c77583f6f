"""Threads for tables: one name format and one archive time, and Discord's refusals in words."""

from __future__ import annotations

from typing import Any

import discord

from host import Refusal
from i18n import N_
from render.markup import label_name

#: Discord's longest thread name.
THREAD_NAME = 100
#: A week: Discord's longest auto-archive, so a thread stays open while its table is slow.
ARCHIVE_MINUTES = 10080
#: Discord's error code for "Maximum number of active threads reached".
MAX_ACTIVE_THREADS_ERROR = 160006


def thread_name(text: str) -> str:
    """A thread's name, shown as is: a tournament's name in it pings nobody and cannot turn the line around."""
    return label_name(text)[:THREAD_NAME]


async def create_thread(channel: Any, name: str) -> Any:
    """A public thread in ``channel`` for a table; Discord's HTTP errors are the caller's to word."""
    return await channel.create_thread(name=thread_name(name), type=discord.ChannelType.public_thread,
                                       auto_archive_duration=ARCHIVE_MINUTES)


def require_thread_channel(channel: Any) -> None:
    """A Refusal when threads can't be opened in ``channel`` at all (e.g. a voice channel's text chat): known
    without asking Discord, so ``/game new thread:true`` says it before its "thinking…"."""
    if not hasattr(channel, "create_thread"):
        raise Refusal(N_("Threads can't be opened in this kind of channel. No table was opened; try "
                         "`{:thread:false}`."))


async def open_table_thread(channel: Any, name: str) -> Any:
    """A thread for a new table, or a Refusal saying why Discord would not open one."""
    require_thread_channel(channel)
    try:
        return await create_thread(channel, name)
    except discord.Forbidden:
        raise Refusal(N_("I can't open a thread here: I need the **Create Public Threads** permission in this "
                         "channel. No table was opened; try `{:thread:false}`.")) from None
    except discord.HTTPException as exc:
        if exc.code == MAX_ACTIVE_THREADS_ERROR:
            raise Refusal(N_("This server has reached Discord's limit of active threads, so I can't open one. "
                             "No table was opened; archive some threads or try `{:thread:false}`.")) from None
        raise Refusal(N_("Discord refused to open a thread ({status}). No table was opened; try `{:thread:false}`."),
                      status=exc.status) from None
