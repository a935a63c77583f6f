"""Which process owns a guild: Discord's shard rule, as plain data (no discord here).

With ``SHARD_COUNT`` shards spread over several processes, each process holds some
``SHARD_IDS``. Discord sends a guild's events to shard ``(guild_id >> 22) % SHARD_COUNT``
(direct messages to shard 0), so a guild's tables are served by the process holding
that shard: their locks, caches, deadlines and bot turns live there. The store reads
the same rule in SQL (``data.sql.shard_filter``) to load only the owned guilds' timers.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


def shard_of(guild_id: int | None, count: int) -> int:
    """The shard that receives ``guild_id``'s events; no guild (a direct message) is shard 0."""
    if count < 1:
        raise ValueError("the shard count must be at least 1")
    return 0 if guild_id is None else (guild_id >> 22) % count


@dataclass(frozen=True)
class Shards:
    """The shards one process holds: ``ids`` out of ``count``."""

    count: int
    ids: tuple[int, ...]

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError("SHARD_COUNT must be at least 1")
        if not self.ids:
            raise ValueError("a process must hold at least one shard")
        if len(set(self.ids)) != len(self.ids) or any(not 0 <= i < self.count for i in self.ids):
            raise ValueError(f"SHARD_IDS must be distinct numbers from 0 to {self.count - 1}")

    @classmethod
    def of(cls, count: int, ids: Iterable[int] | None = None) -> Shards:
        """``ids`` of ``count`` (all of them when None), sorted."""
        return cls(count, tuple(sorted(range(count) if ids is None else ids)))

    @classmethod
    def parse(cls, count: str, ids: str = "") -> Shards | None:
        """The settings ``SHARD_COUNT`` and ``SHARD_IDS`` (``"0,1"``); None when no count is set."""
        count, ids = count.strip(), ids.strip()
        if not count:
            if ids:
                raise ValueError("SHARD_IDS needs SHARD_COUNT")
            return None
        try:
            total = int(count)
            held = [int(part) for part in ids.replace(" ", "").split(",") if part] if ids else None
        except ValueError:
            raise ValueError(f"SHARD_COUNT must be a number and SHARD_IDS numbers like 0,1 "
                             f"(got {count!r}, {ids!r})") from None
        return cls.of(total, held)

    @property
    def everything(self) -> bool:
        """Whether this process holds every shard (then it owns every guild)."""
        return len(self.ids) == self.count

    def owns(self, guild_id: int | None) -> bool:
        return shard_of(guild_id, self.count) in self.ids
