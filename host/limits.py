"""Limits that stop one member flooding a server (issue 26): open tables, thread tables, who opens
tournaments, bot entrants, and a cooldown between two ``/game new`` or two ``/tournament new``.

Each limit is a server setting (host/settings.py); a refusal names the limit and the setting a manager
changes, and is raised before anything is written.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from data.store import Store
from host.errors import Figure, Phrase, Refusal
from i18n import N_, said_n

#: The two commands a cooldown counts apart: a member may open a table and a tournament back to back. A refusal
#: names the command in the member's language (as a ``{/…}`` placeholder).
NEW_TABLE = "/game new"
NEW_TOURNAMENT = "/tournament new"


class Cooldowns:
    """When each member last opened a table or a tournament in a server, on the bot's clock.

    Kept in memory: a restart forgets them, which costs at most one cooldown's worth of flood.
    """

    def __init__(self, now: Callable[[], float]) -> None:
        # The store's clock, built on discord.utils.utcnow, so SimCord's virtual clock moves cooldowns too.
        self._now = now
        self._last: dict[tuple[int, int, str], float] = {}
        #: What ``take`` replaced, so that ``give_back`` can undo it.
        self._before: dict[tuple[int, int, str], float | None] = {}

    def take(self, guild_id: int | None, user_id: int, command: str, seconds: int) -> None:
        """Refuse when ``user_id`` ran ``command`` in this server less than ``seconds`` ago; else note now.

        Check and note happen without an await between them, so two commands sent at once cannot both pass.
        """
        key = (guild_id or 0, user_id, command)
        now = self._now()
        last = self._last.get(key)
        if last is not None and now - last < seconds:
            wait = max(1, int(seconds - (now - last) + 0.999))
            raise Refusal(N_("Slow down: wait {wait}s before your next `{command}`. This server's limit is one "
                             "every {seconds}s (the `new_cooldown` setting)."), wait=Figure(wait),
                          command=Phrase("{" + command + "}"),
                          seconds=Figure(seconds))
        self._last[key] = now
        self._before[key] = last
        if len(self._last) > 10_000:  # old entries no longer hold anyone back
            self._last = {k: t for k, t in self._last.items() if now - t < 3600}
            self._before = {k: t for k, t in self._before.items() if k in self._last}

    def give_back(self, guild_id: int | None, user_id: int, command: str) -> None:
        """Undo the last ``take``: the command it let through opened nothing (Discord refused a thread, say),
        and a refusal changes nothing, the cooldown included."""
        key = (guild_id or 0, user_id, command)
        if key not in self._before:
            return
        before = self._before.pop(key)
        if before is None:
            self._last.pop(key, None)
        else:
            self._last[key] = before


async def check_new_table(store: Store, guild_id: int | None, user_id: int, own_thread: bool, *,
                          max_open_tables: int, max_thread_tables: int) -> None:
    """Refuse a /game new that would pass ``max_open_tables`` for its host or ``max_thread_tables`` for the
    server."""
    hosted = await store.tables.open_tables_hosted(guild_id or 0, user_id)
    if hosted >= max_open_tables:
        raise Refusal(N_("You already host {tables} in this server, its limit (the `max_open_tables` setting). "
                         "Finish or abandon one first."),
                      tables=said_n("{n} open table", "{n} open tables", hosted))
    if own_thread:
        threads = await store.tables.active_thread_tables(guild_id or 0)
        if threads >= max_thread_tables:
            raise Refusal(N_("This server already has {tables}, its limit (the `max_thread_tables` setting). Open "
                             "this table with `{:thread:false}`, or wait for one to end."),
                          tables=said_n("{n} active thread table", "{n} active thread tables", threads))


def check_tournament_creator(creators: str, organiser_role: int | None, is_manager: bool,
                             roles: Sequence[int]) -> None:
    """Refuse a /tournament new by a member the server's ``tournament_creators`` leaves out."""
    if creators == "everyone" or is_manager:
        return
    if organiser_role is not None and organiser_role in roles:
        return
    raise Refusal(N_("On this server only members with **Manage Server** or the tournament organiser role open "
                     "tournaments (the `tournament_creators` setting)."))


def check_bot_entrants(max_bot_entrants: int, present: int, adding: int, name: str) -> None:
    """Refuse bot entrants past the server's ``max_bot_entrants``."""
    if present + adding > max_bot_entrants:
        left = max(0, max_bot_entrants - present)
        # One counted message: each language's plural for {n}, 0 included (French: "0 bot inscrit").
        raise Refusal(said_n("**{name}** can take {n} more bot entrant: this server allows {most} (the "
                             "`max_bot_entrants` setting).", "**{name}** can take {n} more bot entrants: this server "
                             "allows {most} (the `max_bot_entrants` setting).", left, name=name, most=max_bot_entrants))


def check_tournament_threads(name: str, tables: int, active: int, max_thread_tables: int) -> None:
    """Refuse a tournament's start whose first round would seat ``tables`` threads beside the ``active`` thread
    tables of the server, past its ``max_thread_tables``. Only the start is checked: a tournament under way
    is never held back (its later rounds seat about as many tables as its first), and a table's place is one
    thread of its own, never the channel, which holds the sign-up and the pairings."""
    if tables + active > max_thread_tables:
        raise Refusal(N_("**{name}** can't start: its first round needs {tables}, each in a thread of its own, and "
                         "this server already has {active}; together they would pass its limit of {limit} (the "
                         "`max_thread_tables` setting). A server manager can raise the limit, or fewer entrants "
                         "can play (`{:max_entrants}`)."), name=name, tables=said_n("{n} table", "{n} tables", tables),
                      active=said_n("{n} active thread table", "{n} active thread tables", active),
                      limit=Figure(max_thread_tables))
