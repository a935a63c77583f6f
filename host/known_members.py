"""The names a server knows its members by, from what they did there: the bot asks Discord for no member
list (the ``guilds`` intent alone), and ``python -m web`` has no gateway at all, so a member's name comes from
their newest seat at a table in that server, or else their newest tournament entry there."""

from __future__ import annotations

from collections.abc import Sequence

from data.store import Store


async def known_names(store: Store, guild_id: int, user_ids: Sequence[int]) -> dict[int, str]:
    """user id → name, for the members of ``user_ids`` who sat at a table or entered a tournament in the
    server; the others are left out (they have no player page there)."""
    names = await store.web.entrant_names(guild_id, user_ids)
    names.update(await store.web.seat_names(guild_id, user_ids))  # a seat's name first: it is the newest use
    return names
