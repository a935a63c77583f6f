"""What the bot itself needs in a channel before it opens a table or a tournament there.

A table opened where the bot cannot post would sit with running clocks that nobody sees, and each
refused post counts towards Discord's invalid-request limit. So ``/game new`` and ``/tournament new``
check first. The cogs read the bot's permissions in the channel from Discord and pass them down as
plain names (discord.py's ``Permissions`` attribute names); this module decides what is missing.
"""

from __future__ import annotations

from collections.abc import Collection

from host.errors import Phrase, Refusal, Several
from i18n import N_

#: Every permission the bot checks, by discord.py's name: (what a server manager sees, Discord's bit).
#: The bits make the README's invite integer; tests/test_permissions.py checks both against discord.py.
PERMISSIONS: dict[str, tuple[str, int]] = {
    "view_channel": (N_("View Channel"), 1 << 10),
    "send_messages": (N_("Send Messages"), 1 << 11),
    "send_messages_in_threads": (N_("Send Messages in Threads"), 1 << 38),
    "embed_links": (N_("Embed Links"), 1 << 14),
    "attach_files": (N_("Attach Files"), 1 << 15),
    "read_message_history": (N_("Read Message History"), 1 << 16),
    "create_public_threads": (N_("Create Public Threads"), 1 << 35),
    "manage_threads": (N_("Manage Threads"), 1 << 34),
    "manage_events": (N_("Manage Events"), 1 << 33),
}

#: Any table or tournament: the table message is an embed with a picture, in the channel or its threads.
TABLE = ("view_channel", "send_messages", "send_messages_in_threads", "embed_links", "attach_files",
         "read_message_history")
#: A table in a thread of its own (and every tournament table): opening the thread, archiving it at the end.
THREAD = ("create_public_threads", "manage_threads")
#: A tournament with a scheduled start gets a Discord scheduled event.
EVENTS = ("manage_events",)

#: What ``require`` refuses, as the cogs name it: message ids, said in the member's language.
OPEN_TABLE = N_("open a table")
OPEN_TOURNAMENT = N_("open a tournament")
#: A permission's name in bold (no words of its own: not a message id).
BOLD = "**{permission}**"

#: The permission integer of the README's invite link: every permission checked here.
INVITE_PERMISSIONS = sum(bit for _, bit in PERMISSIONS.values())


#: What a table message needs where it is posted: in a thread, Send Messages in Threads stands for Send Messages.
POST = ("view_channel", "embed_links", "attach_files")


def can_post(granted: Collection[str], *, in_thread: bool) -> bool:
    """Whether the bot, with ``granted`` in a channel (or thread), can post a table message there."""
    send = "send_messages_in_threads" if in_thread else "send_messages"
    return all(name in granted for name in (*POST, send))


def needed(*, thread: bool, scheduled: bool = False) -> tuple[str, ...]:
    return TABLE + (THREAD if thread else ()) + (EVENTS if scheduled else ())


def missing(granted: Collection[str], *, thread: bool, scheduled: bool = False) -> list[str]:
    """The names (as Discord's settings show them) of the needed permissions not in ``granted``."""
    return [PERMISSIONS[name][0] for name in needed(thread=thread, scheduled=scheduled) if name not in granted]


def require(granted: Collection[str], what: str, *, thread: bool, scheduled: bool = False) -> None:
    """Refuse ``what`` (e.g. "open a table") while the bot lacks any permission it needs for it."""
    lacking = missing(granted, thread=thread, scheduled=scheduled)
    if lacking:
        # Each permission by the name Discord's settings show in the member's language.
        listed = Several(Phrase(BOLD, permission=Phrase(name)) for name in lacking)
        raise Refusal(N_("I can't {what} here: I lack {listed} in this channel. A server manager can grant them to "
                         "my role (or in this channel's permissions); nothing was opened."), what=Phrase(what),
                      listed=listed)
