"""Per-server settings (with a log of who changed what), per-member notice preferences and last seen locales,
and each server's Discord language as the bot last saw it."""

from __future__ import annotations

from data.database import Database


class SettingsStore:
    """The settings queries of the store (``Store.settings``), on the store's shared :class:`Database`."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def guild_settings(self, guild_id: int) -> dict[str, str]:
        rows = await self._db.all("SELECT name, value FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return {r["name"]: r["value"] for r in rows}

    async def set_guild_setting(self, guild_id: int, name: str, value: str, user_id: int) -> None:
        """Store one server setting and log who set it, in one transaction."""
        async with self._db.transaction() as tx:
            await tx.execute("DELETE FROM guild_settings WHERE guild_id = ? AND name = ?", (guild_id, name))
            await tx.execute("INSERT INTO guild_settings (guild_id, name, value) VALUES (?, ?, ?)",
                             (guild_id, name, value))
            await tx.execute("INSERT INTO settings_log (guild_id, name, value, user_id, at) VALUES (?, ?, ?, ?, ?)",
                             (guild_id, name, value, user_id, self._db.now()))

    async def settings_log(self, guild_id: int) -> list[tuple[str, str, int, float]]:
        rows = await self._db.all("SELECT name, value, user_id, at FROM settings_log WHERE guild_id = ? ORDER BY id",
                               (guild_id,))
        return [(r["name"], r["value"], r["user_id"], r["at"]) for r in rows]

    async def dm_notify(self, user_id: int) -> bool:
        row = await self._db.one("SELECT dm_notify FROM member_settings WHERE user_id = ?", (user_id,))
        return bool(row and row[0])

    async def set_dm_notify(self, user_id: int, on: bool) -> None:
        async with self._db.transaction() as tx:
            await tx.execute("DELETE FROM member_settings WHERE user_id = ?", (user_id,))
            await tx.execute("INSERT INTO member_settings (user_id, dm_notify) VALUES (?, ?)", (user_id, int(on)))

    async def member_locale(self, user_id: int) -> str | None:
        row = await self._db.one("SELECT locale FROM member_locales WHERE user_id = ?", (user_id,))
        return str(row[0]) if row else None

    async def guild_locale(self, guild_id: int) -> str | None:
        row = await self._db.one("SELECT locale FROM guild_locales WHERE guild_id = ?", (guild_id,))
        return str(row[0]) if row else None

    async def set_guild_locale(self, guild_id: int, locale: str) -> None:
        async with self._db.transaction() as tx:
            await tx.execute("INSERT INTO guild_locales (guild_id, locale, seen_at) VALUES (?, ?, ?) ON CONFLICT"
                             " (guild_id) DO UPDATE SET locale = excluded.locale, seen_at = excluded.seen_at",
                             (guild_id, locale, self._db.now()))

    async def set_member_locale(self, user_id: int, locale: str) -> None:
        async with self._db.transaction() as tx:
            await tx.execute("INSERT INTO member_locales (user_id, locale, seen_at) VALUES (?, ?, ?) ON CONFLICT"
                             " (user_id) DO UPDATE SET locale = excluded.locale, seen_at = excluded.seen_at",
                             (user_id, locale, self._db.now()))
